"""Checksums and all-or-nothing file writes.

Every output of the pipeline is written to a temporary name in the destination directory and
renamed into place only when complete, so an interrupted or failing step never leaves a
half-written file where a later step (or Snakemake) would take it for a finished one.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from pathlib import Path

_CHUNK = 1 << 20


def _file_mode() -> int:
    """Mode of a newly created file under the current umask (mkstemp's 0600 is too strict)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: str | os.PathLike) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(_CHUNK), b""):
            digest.update(block)
    return digest.hexdigest()


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike):
    """Yield a temporary path beside ``path``; rename it to ``path`` if the block succeeds.

    On any exception the temporary file is removed and ``path`` is left as it was.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.chmod(tmp_path, _file_mode())
        os.replace(tmp_path, path)
    except BaseException:
        tmp_path.unlink(missing_ok=True)
        raise


def write_bytes_atomic(path: str | os.PathLike, data: bytes) -> None:
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def write_text_atomic(path: str | os.PathLike, text: str) -> None:
    write_bytes_atomic(path, text.encode("utf-8"))


def write_json_atomic(path: str | os.PathLike, obj) -> None:
    write_text_atomic(path, json.dumps(obj, indent=2, sort_keys=True) + "\n")
