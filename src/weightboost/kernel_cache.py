"""Where numba keeps the package's compiled kernels: one directory per version of their sources,
so that an edit of any module defining a kernel recompiles them all (numba's own cache checks only
the defining file, while compiled code holds the kernels it calls; docs/algorithms.md §5.10)."""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
PREFIX = "kernels-"
KERNEL = re.compile(rb"^\s*@(numba\.)?n?jit\b", re.MULTILINE)  # a compiled function's decorator


def kernel_sources(package: Path = PACKAGE) -> list[Path]:
    """The modules of ``package`` (and its subpackages) that define compiled functions."""
    return [path for path in sorted(package.rglob("*.py"))
            if "__pycache__" not in path.parts and KERNEL.search(path.read_bytes())]


def sources_digest(package: Path = PACKAGE) -> str:
    """A short hash of the kernel sources (paths in the package and bytes)."""
    digest = hashlib.sha256()
    for path in kernel_sources(package):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0"
                      + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


@functools.lru_cache(maxsize=None)
def use_versioned_cache(package: Path = PACKAGE) -> Path:
    """Set numba's cache directory for the kernels defined from now on and return it (once per
    process and package). A new version's directory in ``__pycache__`` replaces the others; a
    ``NUMBA_CACHE_DIR`` may be shared by several checkouts and is left as it is."""
    import numba

    shared = os.environ.get("NUMBA_CACHE_DIR")
    base = Path(shared) if shared else package / "__pycache__"
    directory = base / f"{PREFIX}{sources_digest(package)}"
    if not shared and not directory.exists() and base.is_dir():
        for stale in base.glob(f"{PREFIX}*"):
            if stale.name != directory.name:  # another process may be filling this one
                shutil.rmtree(stale, ignore_errors=True)
    numba.config.CACHE_DIR = str(directory)
    return directory
