"""Where raw files are looked for: the sources in their order, the mirror, the remote base
addresses and the retry policy (config sections ``download`` and ``mirror``), and the signal a
source gives when it does not have a file. Shared by ``fetch`` and ``openml_source``, each of
which is one kind of source."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from weightboost.data.download import RetryPolicy
from weightboost.errors import ConfigError

SOURCES = ("mirror", "uci", "openml")
MIRROR_ENV = "REPRO_MIRROR"
UCI_LEGACY_URL = "https://archive.ics.uci.edu/ml/machine-learning-databases"
UCI_ARCHIVE_URL = "https://archive.ics.uci.edu/static/public"


@dataclass(frozen=True)
class FetchSettings:
    """Where and how to look for raw files (config section ``download`` plus the mirror)."""

    sources: tuple[str, ...] = SOURCES
    mirror: str | None = None
    uci_legacy_url: str = UCI_LEGACY_URL
    uci_archive_url: str = UCI_ARCHIVE_URL
    openml_cache: str | None = None
    openml_server: str | None = None
    retry: RetryPolicy = RetryPolicy()

    @classmethod
    def from_config(cls, config: dict, base_dir: str | os.PathLike = ".") -> "FetchSettings":
        download = config.get("download", {})
        unknown = [s for s in download.get("sources", SOURCES) if s not in SOURCES]
        if unknown:
            raise ConfigError(f"download.sources has unknown entries {unknown}; "
                              f"allowed: {list(SOURCES)}")
        cache = download.get("openml_cache")
        return cls(
            sources=tuple(download.get("sources", SOURCES)),
            mirror=resolve_mirror(config.get("mirror"), base_dir),
            uci_legacy_url=download.get("uci_legacy_url", UCI_LEGACY_URL).rstrip("/"),
            uci_archive_url=download.get("uci_archive_url", UCI_ARCHIVE_URL).rstrip("/"),
            openml_cache=str(Path(base_dir, cache)) if cache else None,
            openml_server=download.get("openml_server"),
            retry=RetryPolicy(
                attempts=int(download.get("attempts", 4)),
                backoff_seconds=float(download.get("backoff_seconds", 1.0)),
                timeout_seconds=float(download.get("timeout_seconds", 60.0)),
            ),
        )


def resolve_mirror(config_value: str | None, base_dir: str | os.PathLike = ".") -> str | None:
    """The mirror directory: ``$REPRO_MIRROR`` if set, else the config key ``mirror``.

    A relative config value is taken relative to ``base_dir`` (the project root); the
    environment variable relative to the current directory. A mirror that is set but is not a
    directory is a configuration error, not a silent fall-through to the network.
    """
    env = os.environ.get(MIRROR_ENV)
    if env:
        path, origin = Path(env).resolve(), f"environment variable {MIRROR_ENV}"
    elif config_value:
        path, origin = (Path(base_dir) / config_value).resolve(), "config key 'mirror'"
    else:
        return None
    if not path.is_dir():
        raise ConfigError(f"the data mirror {path} (from {origin}) is not a directory; "
                          f"point {origin} at a folder laid out like shared/data-mirror, "
                          "or unset it to download")
    return str(path)


class SourceSkipped(Exception):
    """This source does not have the file; the next one is tried."""
