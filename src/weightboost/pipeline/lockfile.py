"""``requirements.lock``: the pinned version of every package of the environment, read by the
report's provenance and the packaging test (docs/running.md, "The locked environment")."""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._\-]*)==([^\s;\\]+)\s*(;[^\\]*)?", re.M)


def normalise(name: str) -> str:
    """A distribution name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def locked_versions(path: str | Path) -> dict[str, tuple[str, bool]]:
    """Package -> (pinned version, whether the pin holds on some platforms only)."""
    return {normalise(m.group(1)): (m.group(2), m.group(3) is not None)
            for m in _PIN.finditer(Path(path).read_text())}


def installed_version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def lock_mismatches(path: str | Path) -> list[dict]:
    """The locked packages this environment does not have at their pinned version (a pin with
    a platform marker counts only where the package is installed)."""
    rows = []
    for name, (version, conditional) in sorted(locked_versions(path).items()):
        installed = installed_version(name)
        if installed != version and not (conditional and installed is None):
            rows.append({"package": name, "locked": version,
                         "installed": installed or "not installed"})
    return rows
