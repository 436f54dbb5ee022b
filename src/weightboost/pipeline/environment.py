"""The software a cell's numbers depend on besides the package's own code and the config: the
Python, the C library and the versions of the numeric distributions a cell job loads.

Its digest is part of every cell key, and ``check`` stops a job that runs in another environment
than its key's (docs/integrity.md, "Cell keys"). A distribution a cell job loads must be in
``DISTRIBUTIONS`` (its code computes a value) or ``OTHER_DISTRIBUTIONS``; a test checks it.
"""

from __future__ import annotations

import functools
import hashlib
import json
import platform
import sys

from weightboost.errors import ReproError
from weightboost.pipeline.lockfile import installed_version

# names as ``lockfile.normalise`` writes them; pyarrow holds pandas' strings (nominal attributes)
DISTRIBUTIONS = ("llvmlite", "numba", "numpy", "pandas", "pyarrow", "scikit-learn", "scipy")
OTHER_DISTRIBUTIONS = ("cffi", "charset-normalizer", "cloudpickle", "joblib", "narwhals",
                       "psutil", "pycparser", "python-dateutil", "pytz", "pyyaml", "setuptools",
                       "six", "threadpoolctl", "tzdata", "weightboost-repro")


def c_library() -> str:
    """The C library and its version (``glibc 2.36``), "unknown" where Python cannot tell."""
    libc, libc_version = platform.libc_ver()
    return f"{libc} {libc_version}".strip() or "unknown"


@functools.lru_cache(maxsize=1)
def _record() -> tuple:
    items = [("python", f"{sys.implementation.name} {sys.version_info.major}."
                        f"{sys.version_info.minor}"), ("c_library", c_library())]
    items += [(name, installed_version(name) or "not installed") for name in DISTRIBUTIONS]
    return tuple(items)


def record() -> dict:
    """The running environment: Python (implementation and minor version), C library, and the
    version of each of ``DISTRIBUTIONS``."""
    return dict(_record())


def digest(environment: dict) -> str:
    """SHA-256 of an environment record."""
    return hashlib.sha256(json.dumps(environment, sort_keys=True).encode()).hexdigest()


def differences(expected: dict) -> list[str]:
    """``name: expected -> running`` for every entry in which a record differs from ``record()``."""
    current = record()
    return [f"{name}: {expected.get(name, '<absent>')} -> {current.get(name, '<absent>')}"
            for name in sorted(expected.keys() | current.keys())
            if expected.get(name) != current.get(name)]


def check(expected: dict, job: str) -> None:
    """Stop unless this process runs in the environment ``expected`` (the record the workflow
    keyed ``job``'s outputs with)."""
    found = differences(expected)
    if found:
        raise ReproError(
            f"{job} runs in another environment than the workflow that planned it "
            f"({'; '.join(found)}): its outputs would be stored under a key that does not "
            "describe them. Run the workflow and its jobs in one environment (make install "
            "installs requirements.lock), then run the command again")
