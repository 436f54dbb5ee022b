"""Where numba keeps the compiled C4.5 kernels: one directory per version of their sources.

Numba's own cache (``cache=True``) tells a stale entry by the timestamp of the file that
defines the function only. A kernel's compiled code, however, contains the kernels it calls
from other files: after an edit of ``split.py`` alone, the cached ``grow`` (``grow.py``) would
still run the old split evaluation, and trees would silently come from a mix of versions.
``use_versioned_cache`` points numba at a directory named after a hash of every kernel source
file, so that an edit anywhere in the package compiles everything afresh. The directory lies
under ``NUMBA_CACHE_DIR`` when that is set, else in the package's ``__pycache__``.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
PREFIX = "kernels-"


def sources_digest(package: Path = PACKAGE) -> str:
    """A short hash of the package's Python sources (names and bytes)."""
    digest = hashlib.sha256()
    for path in sorted(package.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def use_versioned_cache(package: Path = PACKAGE) -> Path:
    """Set numba's cache directory for the kernels defined from now on; returns it.

    In the package's own ``__pycache__``, directories of other versions are removed (best
    effort) when this version's is new, so that edits do not accumulate compiled code; a
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
