"""The package's own code by parts (subpackages and modules of src/weightboost) and the digest
of a part's files; apart from ``provenance`` (whose ``TABLE_SET_CODE`` names each table set's
parts) so that a cell job, which checks its code (``workflow_support.check_code``), loads less."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from weightboost.fileio import sha256_file

PACKAGE = Path(__file__).resolve().parents[1]  # src/weightboost


def code_digest(files) -> str:
    digest = hashlib.sha256()
    for path in sorted(map(str, files)):
        digest.update(Path(path).name.encode() + b"\0" + sha256_file(path).encode())
    return digest.hexdigest()


def package_files(*parts: str) -> list[Path]:
    """The modules of the package's ``parts`` (subpackages, or modules such as ``data/uci.py``)."""
    files = []
    for part in parts:
        path = PACKAGE / part
        files += sorted(path.glob("*.py")) if path.is_dir() else [path]
    return files


@functools.lru_cache(maxsize=None)
def package_digest(*parts: str) -> str:
    """``code_digest`` of the modules of ``parts``: what a job's result depends on (a job's
    param, so Snakemake reruns it when it changes; a table set's record holds it)."""
    return code_digest(package_files(*parts))
