"""Checksums, all-or-nothing file writes (of one file, and of a group of files), the bytes of
a JSON record and of a CSV table, and YAML reading.

Every output of the pipeline is written to a temporary name in the destination directory and
renamed into place only when complete, so an interrupted or failing step never leaves a
half-written file where a later step (or Snakemake) would take it for a finished one. The
temporary file's bytes are flushed to the disk (``fsync``) before the rename: a file system
may otherwise commit the rename before the data, and a machine that stops (power, kernel)
right after it would come back with the name of a finished cell on an empty or partial file,
which no later run would recompute. Files that must agree with each other (a table and the
record of its digest) are written as one by ``files_together``.
"""

from __future__ import annotations

import contextlib
import contextvars
import errno
import hashlib
import json
import os
import tempfile
from pathlib import Path

from weightboost.errors import DiskFullError

_CHUNK = 1 << 20
# the files staged so far by the running ``files_together`` block (path -> SHA-256), if any
_GROUP: contextvars.ContextVar[dict | None] = contextvars.ContextVar("files_together",
                                                                      default=None)


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
    """Yield a temporary path beside ``path``; rename it to ``path`` if the block succeeds
    (inside a ``files_together`` block, to its pending name, for the group to rename).

    On any exception the temporary file is removed and ``path`` is left as it was; a full
    device (or quota) becomes a ``DiskFullError`` that names the file.
    """
    path, group = Path(path), _GROUP.get()
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
        if group is None:
            os.replace(tmp_path, path)
        else:
            group[path] = sha256_file(tmp_path)
            os.replace(tmp_path, _pending(path))
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


def csv_bytes(frame) -> bytes:
    """A table's bytes: a pandas frame as CSV, without its index, lines ending in \\n (floats
    as pandas writes them, exactly: read back, they are the same numbers)."""
    return frame.to_csv(index=False, lineterminator="\n").encode("utf-8")


def write_csv_atomic(path: str | os.PathLike, frame) -> None:
    write_bytes_atomic(path, csv_bytes(frame))


def write_json_atomic(path: str | os.PathLike, obj) -> None:
    write_bytes_atomic(path, json_bytes(obj))


def _pending(path: Path) -> Path:
    return path.with_name(f".{path.name}.pending")


def journal_beside(path: str | os.PathLike) -> Path:
    """Where the journal of a group of files written together (``files_together``) whose
    main file is ``path`` lives: beside it, hidden."""
    path = Path(path)
    return path.with_name(f".{path.name}.journal")


@contextlib.contextmanager
def files_together(journal: str | os.PathLike):
    """Make the files written in the block (by ``atomic_path`` and the ``write_*`` functions on
    it) one write: all new, or all as they were.

    Each file is written whole beside its destination (``.<name>.pending``); when the block
    ends, ``journal`` lists them with their SHA-256 (the commit point, itself written all or
    nothing), then each is renamed into place in the order it was written, and the journal
    removed. A process killed before the journal exists leaves every file as it was (and
    pending files that the next write replaces); one killed after leaves the journal, which
    ``finish_files_together`` completes: the next write of the group, and the workflow's next
    run with a job (``onstart``), whose checks read through it until then
    (``committed_files``). A block that raises leaves the files as they were.
    """
    if _GROUP.get() is not None:
        raise RuntimeError("files_together blocks do not nest")
    journal = Path(journal)
    finish_files_together(journal)  # a write of the group that a killed process left
    staged: dict[Path, str] = {}
    token = _GROUP.set(staged)
    try:
        yield
    except BaseException:
        for path in staged:
            _pending(path).unlink(missing_ok=True)
        raise
    finally:
        _GROUP.reset(token)
    write_json_atomic(journal, {"files": [[os.path.relpath(path, journal.parent), sha]
                                          for path, sha in staged.items()]})
    finish_files_together(journal)


def write_files_together(files: dict, journal: str | os.PathLike) -> None:
    """Write ``files`` (path -> bytes, renamed in this order) as one (``files_together``)."""
    with files_together(journal):
        for path, data in files.items():
            write_bytes_atomic(path, data)


def _staged(journal: Path) -> dict[Path, Path] | None:
    """None without ``journal``; else each file it lists that is still pending -> its pending
    file, checked against the SHA-256 the journal lists (a file renamed meanwhile, by the writer
    or by another reader finishing it, is left out)."""
    try:
        entries = json.loads(journal.read_text())["files"]
    except FileNotFoundError:
        return None
    out = {}
    for name, sha in entries:
        path = journal.parent / name
        pending = _pending(path)
        try:
            if sha256_file(pending) != sha:
                raise OSError(f"{pending} is not the file {journal} lists (its SHA-256 "
                              "differs): something other than this pipeline wrote it. Remove "
                              "both and recompute the files the journal lists")
        except FileNotFoundError:
            continue
        out[path] = pending
    return out


def finish_files_together(journal: str | os.PathLike) -> bool:
    """Complete the ``files_together`` write that ``journal`` lists (the writer's own commit,
    or one a killed process left): rename its remaining pending files into place and remove
    the journal. Safe to run while another process does the same (a file already renamed is
    skipped). Whether there was a journal."""
    journal = Path(journal)
    staged = _staged(journal)
    if staged is None:
        return False
    for path, pending in staged.items():
        try:
            os.replace(pending, path)
        except FileNotFoundError:
            continue  # renamed meanwhile, by another reader finishing it
    journal.unlink(missing_ok=True)
    return True


def committed_files(journal: str | os.PathLike) -> dict[Path, Path]:
    """For readers that must change nothing (the checks of a dry run): the files of the
    ``files_together`` write that ``journal`` lists, which a killed process left part-way, each
    -> where its committed content is until ``finish_files_together`` renames it (its pending
    file). Empty when there is no journal."""
    return _staged(Path(journal)) or {}


def parse_yaml(text: str):
    """Safe YAML, by libyaml's parser when PyYAML has it (several times faster than the pure
    Python one: the workflow reads its schema and configs at every start)."""
    import yaml

    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def read_yaml(path):
    return parse_yaml(Path(path).read_text())
