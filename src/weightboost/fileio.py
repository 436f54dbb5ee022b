"""Checksums, all-or-nothing file writes (of one file, and of a group of files), and YAML
reading.

Every output of the pipeline is written to a temporary name in the destination directory and
renamed into place only when complete, so an interrupted or failing step never leaves a
half-written file where a later step (or Snakemake) would take it for a finished one. The
temporary file's bytes are flushed to the disk (``fsync``) before the rename: a file system
may otherwise commit the rename before the data, and a machine that stops (power, kernel)
right after it would come back with the name of a finished cell on an empty or partial file,
which no later run would recompute.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import tempfile
from pathlib import Path

from weightboost.errors import DiskFullError

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

    On any exception the temporary file is removed and ``path`` is left as it was; a full
    device (or quota) becomes a ``DiskFullError`` that names the file.
    """
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    except OSError as exc:
        _raise_if_full(exc, path)
        raise
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.chmod(tmp_path, _file_mode())
        _flush_to_disk(tmp_path)
        os.replace(tmp_path, path)
    except BaseException as exc:
        tmp_path.unlink(missing_ok=True)
        if isinstance(exc, OSError):
            _raise_if_full(exc, path)
        raise


def _flush_to_disk(path: Path) -> None:
    """The file's data on the disk, not only in the page cache (its errors, e.g. a full device
    that a network file system reports only now, raise here)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _raise_if_full(exc: OSError, path: Path) -> None:
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        raise DiskFullError(
            f"no space left on the device while writing {path} ({exc.strerror}); nothing was "
            f"written there. Free space on the file system of {path.parent} (or move the "
            "working directory), then run again: finished outputs are kept") from None


def write_bytes_atomic(path: str | os.PathLike, data: bytes) -> None:
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def write_text_atomic(path: str | os.PathLike, text: str) -> None:
    write_bytes_atomic(path, text.encode("utf-8"))


def json_bytes(obj) -> bytes:
    """The pipeline's JSON file format: keys sorted, indented, a final newline."""
    return (json.dumps(obj, indent=2, sort_keys=True) + "\n").encode("utf-8")


def write_json_atomic(path: str | os.PathLike, obj) -> None:
    write_bytes_atomic(path, json_bytes(obj))


def _pending(path: Path) -> Path:
    return path.with_name(f".{path.name}.pending")


def write_files_together(files: dict, journal: str | os.PathLike) -> None:
    """Replace the files ``files`` (path -> bytes) as one: all new, or all as they were.

    Each file is first written whole beside its destination (``.<name>.pending``); then
    ``journal`` lists them with their SHA-256 (the commit point, itself written all or
    nothing); then each is renamed into place, in the given order, and the journal removed.
    A process killed before the journal exists leaves every file as it was; one killed after
    leaves the journal, and ``finish_files_together`` (which every reader of the group calls
    first) completes the renames. A reader never sees a mix of old and new files.
    """
    journal = Path(journal)
    entries = []
    for path, data in files.items():
        path = Path(path)
        write_bytes_atomic(_pending(path), data)
        entries.append([os.path.relpath(path, journal.parent), sha256_bytes(data)])
    write_json_atomic(journal, {"files": entries})
    finish_files_together(journal, list(files))


def finish_files_together(journal: str | os.PathLike, paths) -> bool:
    """Complete a ``write_files_together`` of ``paths`` that a killed process left part-way:
    with its ``journal``, rename the remaining pending files into place; without, remove the
    pending files of ``paths`` (the write stopped before its commit point; the files are as
    they were). Whether a journal was found."""
    journal = Path(journal)
    if not journal.exists():
        for path in map(Path, paths):
            _pending(path).unlink(missing_ok=True)
        return False
    for name, sha in json.loads(journal.read_text())["files"]:
        path = journal.parent / name
        pending = _pending(path)
        if pending.exists():
            if sha256_file(pending) != sha:
                raise OSError(f"{pending} is not the file {journal} lists (its SHA-256 differs): "
                              "something other than this pipeline wrote it. Remove both and "
                              "recompute the files the journal lists")
            os.replace(pending, path)
    journal.unlink()
    return True


def parse_yaml(text: str):
    """Safe YAML, by libyaml's parser when PyYAML has it (several times faster than the pure
    Python one: the workflow reads its schema and configs at every start)."""
    import yaml

    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def read_yaml(path):
    return parse_yaml(Path(path).read_text())
