"""The software a cell's numbers depend on besides the package's own code and the config: the
Python, the C library and the versions of the numeric distributions a cell job loads.

A cell's key (``weightboost.pipeline.provenance.computation_key``) holds the digest of this
record beside its table set's code digest. A cell computed under another scikit-learn (its
folds), numpy (its sorts and sums), numba and llvmlite (the compiled kernels), pandas (the
cells' CSV bytes), SciPy (the semi-supervised baselines' eigenvectors) or C library (every exp
and log of the boosters and of C4.5's entropies, docs/algorithms.md §1.4) therefore lands at
another path: after an upgrade, cells of the old environment, in ``results/cells/`` or in a
cell archive, are never combined with cells of the new one into one table. The workflow passes
the record it keyed a cell with to the cell's job, and the job stops, naming what differs,
when it runs elsewhere (a cluster node with another environment, a venv replaced under a
running Snakemake): ``check``. The tables' provenance records hold it too, and the reports say
whether the tables were computed in the environment installed now.

``DISTRIBUTIONS`` lists the distributions a cell job loads whose code computes a value;
``OTHER_DISTRIBUTIONS`` those it loads that do not (thread pools, YAML parsing, ...).
tests/test_workflow_experiments.py runs a cell of each table set and fails on a distribution
in neither list, so that a new dependency is classified before it can move a number unseen.
"""

from __future__ import annotations

import functools
import hashlib
import json
import platform
import sys

from weightboost.errors import ReproError
from weightboost.pipeline.lockfile import installed_version

# names as ``lockfile.normalise`` writes them; pyarrow holds pandas' strings (the nominal
# attributes)
DISTRIBUTIONS = ("llvmlite", "numba", "numpy", "pandas", "pyarrow", "scikit-learn", "scipy")
OTHER_DISTRIBUTIONS = ("cffi", "charset-normalizer", "cloudpickle", "joblib", "narwhals",
                       "psutil", "pycparser", "python-dateutil", "pytz", "pyyaml", "setuptools",
                       "six", "threadpoolctl", "tzdata", "weightboost-repro")


class EnvironmentMismatchError(ReproError):
    """A job runs in another environment than the one its outputs' keys were computed for."""


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


def digest(environment: dict | None = None) -> str:
    """SHA-256 of an environment record (the running one by default)."""
    value = record() if environment is None else environment
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


def differences(expected: dict, current: dict | None = None) -> list[str]:
    """``name: expected -> current`` for every entry in which two records differ."""
    current = record() if current is None else current
    return [f"{name}: {expected.get(name, '<absent>')} -> {current.get(name, '<absent>')}"
            for name in sorted(expected.keys() | current.keys())
            if expected.get(name) != current.get(name)]


def check(expected: dict, job: str) -> None:
    """Stop unless this process runs in the environment ``expected`` (the record the workflow
    keyed ``job``'s outputs with)."""
    found = differences(expected)
    if found:
        raise EnvironmentMismatchError(
            f"{job} runs in another environment than the workflow that planned it "
            f"({'; '.join(found)}): its outputs would be stored under a key that does not "
            "describe them. Run the workflow and its jobs in one environment (make install "
            "installs requirements.lock), then run the command again")
