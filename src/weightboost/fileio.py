"""Checksums, all-or-nothing writes of one file or of a group of files (``files_together``),
the pipeline's JSON and CSV formats, and YAML reading. A file is written under a
temporary name, flushed to the disk, then renamed (docs/integrity.md, "Whole files or none")."""

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

# the files staged so far by the running ``files_together`` block (path -> SHA-256), if any
_GROUP: contextvars.ContextVar[dict | None] = contextvars.ContextVar("files_together",
                                                                      default=None)


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: str | os.PathLike) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike):
    """Yield a temporary path beside ``path``, renamed to ``path`` (in a ``files_together``
    block, to its pending name) if the block succeeds, else removed; a full device (or quota)
    raises ``DiskFullError`` naming the file."""
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
        mask = os.umask(0)  # a new file's mode under the umask (mkstemp's 0600 is too strict)
        os.umask(mask)
        os.chmod(tmp_path, 0o666 & ~mask)
        with open(tmp_path, "rb") as flushed:  # a full device that a network file system
            os.fsync(flushed.fileno())         # reports only at the flush raises here
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


def csv_bytes(frame) -> bytes:
    """A frame's CSV bytes: no index, \\n line ends, floats that read back as the same numbers."""
    return frame.to_csv(index=False, lineterminator="\n").encode("utf-8")


def write_csv_atomic(path: str | os.PathLike, frame) -> None:
    write_bytes_atomic(path, csv_bytes(frame))


def write_json_atomic(path: str | os.PathLike, obj) -> None:
    """The pipeline's JSON file format: keys sorted, indented, a final newline."""
    write_bytes_atomic(path, (json.dumps(obj, indent=2, sort_keys=True) + "\n").encode("utf-8"))


def _pending(path: Path) -> Path:
    return path.with_name(f".{path.name}.pending")


def journal_beside(path: str | os.PathLike) -> Path:
    """The hidden journal beside ``path`` of the ``files_together`` group whose main file it is."""
    path = Path(path)
    return path.with_name(f".{path.name}.journal")


@contextlib.contextmanager
def files_together(journal: str | os.PathLike):
    """Make the files written in the block (by ``atomic_path`` and the ``write_*`` functions) one
    write, all new or all as they were: each is staged as ``.<name>.pending``, ``journal`` lists
    them with their SHA-256 (the commit point), then they are renamed in order (docs/integrity.md,
    "Whole files or none")."""
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


def _staged(journal: Path) -> dict[Path, Path] | None:
    """None without ``journal``; else each file it lists that is still pending -> its pending
    file, checked against the SHA-256 the journal lists (one renamed meanwhile is left out)."""
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


def finish_files_together(journal: str | os.PathLike) -> None:
    """Rename the pending files ``journal`` lists into place and remove it, if there is one.
    Safe while another process does the same (a file already renamed is skipped)."""
    journal = Path(journal)
    staged = _staged(journal)
    if staged is None:
        return
    for path, pending in staged.items():
        try:
            os.replace(pending, path)
        except FileNotFoundError:
            continue  # renamed meanwhile, by another reader finishing it
    journal.unlink(missing_ok=True)


def committed_files(journal: str | os.PathLike) -> dict[Path, Path]:
    """For readers that must change nothing (a dry run's checks): each file of an unfinished
    ``journal`` -> its pending file, where its committed content is; empty without a journal."""
    return _staged(Path(journal)) or {}


def parse_yaml(text: str):
    """Safe YAML, by libyaml's faster parser when PyYAML has it (read at every workflow start)."""
    import yaml

    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def read_yaml(path):
    return parse_yaml(Path(path).read_text())
