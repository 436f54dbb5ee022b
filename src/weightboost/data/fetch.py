"""Fetching a pinned raw file from the first source that has it (docs/protocol.md §1.1).

A ``RawFile`` names a file by its path under the mirror, its pinned SHA-256 (and the config
key that pins it) and the remote copies that hold it. Sources are tried in the configured
order:

``mirror``  a local directory laid out like ``shared/data-mirror`` (``<mirror>/<file>``);
``uci``     the file's remote copies in turn: for a UCI table the legacy path
            ``<uci_legacy_url>/<file>``, then the current archive
            ``<uci_archive_url>/<id>/<name>.zip``; for Reuters-21578 the UCI archives.
            A remote may be an archive (zip or tar.gz, possibly nested): the file is the member
            of that name;
``openml``  UCI tables only: the ``openml`` package (see ``openml_source``); its copy is
            written back in the UCI layout and verified later through the canonical table's
            checksum.

A file may also name a ``local`` copy the user already has (NLTK's Reuters package under
``~/nltk_data``); it is tried before every source. A file without a pin (``sha256`` None) is
accepted from the first source that has it and its receipt says ``verified: unpinned``: the
stage reading it must then check the content itself (the Reuters stage asserts its counts).

A source that does not have the file (missing mirror file, HTTP 404, network down) is skipped
and the reason recorded; if every source fails the error lists them all. A file that *is*
delivered but has the wrong SHA-256 stops the fetch at once: silently falling through to
another copy would hide a corrupted mirror or a changed upstream file.

The result is written atomically to the destination together with a JSON *receipt* that says
where the file came from and how it was verified.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from weightboost.data.download import DownloadError, extract_member, http_get
from weightboost.data.sources import FetchSettings, SourceSkipped
from weightboost.data.spec import DatasetSpec
from weightboost.errors import ChecksumError, InputFileError, SourceUnavailableError
from weightboost.fileio import sha256_bytes, write_bytes_atomic, write_json_atomic

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Remote:
    """A URL holding the file, directly or as a member of (nested) archives."""

    url: str
    members: tuple[str, ...] = ()

    def describe(self) -> str:
        return "!".join((self.url, *self.members))


@dataclass(frozen=True)
class RawFile:
    """A pinned raw input file."""

    dataset: str
    file: str
    sha256: str | None
    sha256_key: str
    remotes: tuple[Remote, ...] = ()
    local: str | None = None  # a copy the user already has; tried before every source


def verify_sha256(data: bytes, raw: RawFile, where: str) -> str:
    digest = sha256_bytes(data)
    if raw.sha256 is not None and digest != raw.sha256:
        raise ChecksumError(
            f"dataset {raw.dataset}: {where} has SHA-256 {digest}, but "
            f"{raw.sha256_key} pins {raw.sha256}. The file is corrupted, truncated or a "
            "different version: replace it with an unmodified copy (or delete it to download "
            "again); change the pin only if you mean to use a different file"
        )
    return digest


def _from_local(raw: RawFile, settings: FetchSettings):
    if not raw.local:
        raise SourceSkipped("no local copy configured")
    path = Path(raw.local).expanduser()
    if not path.is_file():
        raise SourceSkipped(f"{path} does not exist")
    return path.read_bytes(), str(path)


def _from_mirror(raw: RawFile, settings: FetchSettings):
    if not settings.mirror:
        raise SourceSkipped("no mirror configured (set REPRO_MIRROR or the config key 'mirror')")
    path = Path(settings.mirror, raw.file)
    if not path.is_file():
        raise SourceSkipped(f"{path} does not exist")
    return path.read_bytes(), str(path)


_ARCHIVE_CACHE: dict[str, bytes] = {}


def _download(url: str, settings: FetchSettings) -> bytes:
    """One download per URL per process: many files may come out of the same archive."""
    if url not in _ARCHIVE_CACHE:
        _ARCHIVE_CACHE.clear()  # keep at most one archive in memory
        _ARCHIVE_CACHE[url] = http_get(url, settings.retry)
    return _ARCHIVE_CACHE[url]


def _from_remotes(raw: RawFile, settings: FetchSettings):
    reasons = []
    for remote in raw.remotes:
        try:
            data = _download(remote.url, settings)
        except DownloadError as exc:
            reasons.append(str(exc))
            continue
        label = remote.url
        for member in remote.members:
            data = extract_member(data, member, label)
            label = f"{label}!{member}"
        return data, remote.describe()
    raise SourceSkipped("; ".join(reasons) or "no remote copy is configured")


def uci_raw_file(spec: DatasetSpec, settings: FetchSettings) -> RawFile:
    remotes = [Remote(f"{settings.uci_legacy_url}/{spec.file}")]
    if spec.uci_archive:
        remotes.append(Remote(f"{settings.uci_archive_url}/{spec.uci_archive['id']}/"
                              f"{spec.uci_archive['name']}.zip", (Path(spec.file).name,)))
    return RawFile(spec.name, spec.file, spec.sha256, spec.key("sha256"), tuple(remotes))


def fetch_raw(spec: DatasetSpec, dest, receipt_path, settings: FetchSettings) -> dict:
    """Fetch a UCI table's raw file into ``dest``; return the receipt."""
    return fetch_file(uci_raw_file(spec, settings), dest, receipt_path, settings, spec)


def fetch_file(raw: RawFile, dest, receipt_path, settings: FetchSettings,
               openml_spec: DatasetSpec | None = None) -> dict:
    """Fetch ``raw`` into ``dest`` from the first source that has it; write and return the
    receipt. ``openml_spec`` enables the OpenML source for a UCI table."""
    tried = []
    for source in ("local", *settings.sources) if raw.local else settings.sources:
        try:
            if source == "local":
                data, location = _from_local(raw, settings)
                verified = "file"
            elif source == "openml":
                if openml_spec is None:
                    raise SourceSkipped("OpenML holds only the UCI tables")
                from weightboost.data.openml_source import fetch_openml_as_uci

                data, location = fetch_openml_as_uci(openml_spec, settings)
                verified = "table"
            elif source == "mirror":
                data, location = _from_mirror(raw, settings)
                verified = "file"
            else:
                data, location = _from_remotes(raw, settings)
                verified = "file"
        except SourceSkipped as skip:
            tried.append(f"{source}: {skip}")
            log.info("dataset %s: source %s skipped: %s", raw.dataset, source, skip)
            continue
        if not data.strip():
            raise InputFileError(f"dataset {raw.dataset}: {location} is empty; replace it with "
                                 "an unmodified copy")
        digest = (verify_sha256(data, raw, location) if verified == "file"
                  else sha256_bytes(data))
        if verified == "file" and raw.sha256 is None:
            verified = "unpinned"
        receipt = {"dataset": raw.dataset, "route": source, "location": location,
                   "file": raw.file, "sha256": digest, "bytes": len(data),
                   "verified": verified}
        write_bytes_atomic(dest, data)
        if receipt_path is not None:
            write_json_atomic(receipt_path, receipt)
        log.info("dataset %s: %s from %s (%d bytes)", raw.dataset, raw.file, location,
                 len(data))
        return receipt
    raise SourceUnavailableError(
        f"dataset {raw.dataset}: no source could deliver {raw.file}. Tried: "
        + " | ".join(tried)
        + ". Check the network, or set REPRO_MIRROR to a directory laid out like "
        "shared/data-mirror"
    )
