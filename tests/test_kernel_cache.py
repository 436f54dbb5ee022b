"""Compiled kernels follow their sources: numba's own cache notices an edit only in the file
that defines a function, while a kernel's compiled code contains the kernels it calls from other
files (the stumps' compiled boosting driver contains the scan and the boosting rules)."""

import os
import subprocess
import sys
from pathlib import Path

import numba
import pytest

from weightboost import kernel_cache

KERNEL = "from numba import njit\n\n\n@njit(cache=True)\ndef f(x):\n    return x\n"


def _package(root):
    for name in ("c45/split.py", "c45/grow.py", "stumps/search.py", "stumps/boost.py",
                 "boosting/rules.py"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(f"# {name}\n" + KERNEL)
    (root / "report.py").write_text("# no kernel here; numba is only named\n")
    return root


def test_an_edit_of_any_kernel_source_of_any_subpackage_moves_the_cache(tmp_path):
    package = _package(tmp_path)
    before = kernel_cache.sources_digest(package)
    for name in ("c45/split.py", "stumps/search.py", "boosting/rules.py"):
        path = package / name
        original = path.read_text()
        path.write_text(original + "# edited\n")
        assert kernel_cache.sources_digest(package) != before, name
        path.write_text(original)
    assert kernel_cache.sources_digest(package) == before
    # a module that defines no kernel can change without recompiling them
    (package / "report.py").write_text("# edited; numba still only named\n")
    assert kernel_cache.sources_digest(package) == before


def test_the_kernel_sources_are_the_modules_that_define_kernels():
    # every compiled function of the package, found as numba sees it (its dispatchers), lies in
    # a module the cache's digest covers, and every module the digest covers defines one: a
    # decorator the pattern misses (an alias such as `nb.njit`, a `numba.vectorize`) fails here
    import importlib
    import pkgutil
    import sys

    from numba.core.dispatcher import Dispatcher

    import weightboost

    for module in pkgutil.walk_packages(weightboost.__path__, "weightboost."):
        if module.name.split(".")[1] in ("c45", "boosting", "stumps"):
            importlib.import_module(module.name)
    defining = {Path(obj.py_func.__code__.co_filename).resolve()
                for name, module in list(sys.modules.items())
                if name.startswith("weightboost.")
                for obj in vars(module).values() if isinstance(obj, Dispatcher)}
    assert defining and defining == {p.resolve() for p in kernel_cache.kernel_sources()}


KERNELS_OF = """
import importlib, os, pkgutil, sys
from numba.core.dispatcher import Dispatcher
import weightboost.{package} as package
for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
    importlib.import_module(module.name)
print("\\n".join(sorted({{os.path.dirname(obj._cache._cache_path)
                         for name, module in list(sys.modules.items())
                         if name.startswith("weightboost.")
                         for obj in vars(module).values() if isinstance(obj, Dispatcher)}})))
"""


@pytest.mark.parametrize("package", ["c45", "boosting", "stumps"])
def test_every_kernel_is_cached_under_the_digest_of_the_sources(package, tmp_path):
    # each kernel subpackage and its modules imported alone, in a process of its own (as a cell
    # job imports them): every kernel defined has its compiled code in the versioned
    # directory, whichever package's call set it
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    out = subprocess.run([sys.executable, "-c", KERNELS_OF.format(package=package)],
                         capture_output=True, text=True, env=env, check=True).stdout.split()
    versioned = kernel_cache.PACKAGE / "__pycache__" / (kernel_cache.PREFIX
                                                       + kernel_cache.sources_digest())
    assert out == [str(versioned)]


def test_a_new_version_removes_the_kernels_of_older_ones_only(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(numba.config, "CACHE_DIR", numba.config.CACHE_DIR)  # restored after
    (tmp_path / "split.py").write_text(KERNEL)
    cache = tmp_path / "__pycache__"
    (cache / "kernels-0123456789abcdef").mkdir(parents=True)   # an older version's
    (cache / "split.cpython-311.pyc").write_bytes(b"")           # not ours to remove
    directory = kernel_cache.use_versioned_cache(tmp_path)
    assert directory == cache / ("kernels-" + kernel_cache.sources_digest(tmp_path))
    assert numba.config.CACHE_DIR == str(directory)
    assert sorted(p.name for p in cache.iterdir()) == ["split.cpython-311.pyc"]
