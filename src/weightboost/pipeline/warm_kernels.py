"""The warm-up of a process that will run jobs: import what they import and load every compiled
kernel they call, compiling an empty cache on two cores (``warm_up``; the warm server's start,
``weightboost.pipeline.warm``, and the test suite's): the grower, the longest chain of the
compilation, in a second process (why, and the measurements: docs/algorithms.md §5, "Compiled
once", and docs/performance.md, "Finished investigations").
"""

from __future__ import annotations

import sys


def grower_cached() -> bool:
    """Whether numba's cache directory holds an index for the grower. A ``NUMBA_CACHE_DIR``
    shared with another checkout may hold its index only: this checkout then compiles in one
    process."""
    from pathlib import Path

    import numba

    import weightboost.c45  # noqa: F401 - sets the versioned cache directory

    return any(Path(numba.config.CACHE_DIR).rglob("grow.grow-*.nbi"))


def _tiny_data():
    """Six rows, two numeric attributes, two classes: what every warm-up call fits."""
    import numpy as np

    X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 1.0], [3.0, 0.0], [4.0, 1.0], [5.0, 0.0]])
    y = np.array([0, 0, 1, 1, 0, 1], dtype=np.int64)
    return X, y


def compile_grower() -> None:
    """Compile ``grow`` (and what it calls) as ``C45.fit`` calls it: the second process's part."""
    import numpy as np

    from weightboost.c45.data import prepare
    from weightboost.c45.grow import grow
    from weightboost.c45.tree import GrowSettings

    X, y = _tiny_data()
    grow(prepare(X).view, y, 2, np.ones(len(y)), GrowSettings(2.0, True))


def compile_pruning_and_prediction() -> None:
    """Compile ``collapse``, ``prune``, ``compact`` and prediction (C- and Fortran-ordered rows)
    without the grower, on a one-leaf tree with the array types ``grow`` returns."""
    import numpy as np

    from weightboost.c45.criteria import z_for_confidence
    from weightboost.c45.data import prepare
    from weightboost.c45.predict import most_probable, predict_distribution
    from weightboost.c45.prune import collapse, prune
    from weightboost.c45.tree import PruneSettings, TreeArrays, compact

    X, y = _tiny_data()
    data = prepare(X)
    leaf = TreeArrays(np.array([[-1, -1, 0]], dtype=np.int32), np.array([[0.0, 1.0]]),
                      np.zeros(1, dtype=np.bool_), np.array([[3.0, 3.0]]),
                      np.array([[0, len(y)]], dtype=np.int64),
                      np.arange(len(y), dtype=np.int32), np.ones(len(y)))
    collapse(leaf.node_int, leaf.dist, 0)
    tree = prune(data.view, data.missing, y, 2, leaf,
                 PruneSettings(0.25, z_for_confidence(0.25), True))
    node_int, node_float, empty, dist = compact(tree.node_int, tree.node_float, tree.empty,
                                                tree.dist, tree.node_int.shape[0])
    for rows in (X, np.asfortranarray(X)):
        predict_distribution(rows, data.nominal, node_int, node_float, empty, dist)
        most_probable(rows, data.nominal, node_int, node_float, empty, dist)


def warm_up() -> None:
    """Import what the jobs import and load every compiled kernel they call, once; an empty
    cache is filled on two cores (the grower in a second process; if it fails, here)."""
    import subprocess

    helper = None
    if not grower_cached():
        helper = subprocess.Popen([sys.executable, "-c", "from weightboost.pipeline."
                                   "warm_kernels import compile_grower; compile_grower()"],
                                  stdin=subprocess.DEVNULL)
    try:
        compile_pruning_and_prediction()
        from weightboost.boosting import regboost  # the stumps' kernels (imported lazily)
        from weightboost.data import jobs as data_jobs  # noqa: F401 - the job modules themselves
        from weightboost.experiment import (barrier, regboost_cells, reuters,  # noqa: F401
                                            study_cells, uci)

        regboost.RegBoost(n_estimators=2, n_neighbors=2).fit(*_tiny_data())  # scan, driver
    finally:
        if helper is not None:
            helper.wait()
    compile_grower()
    from weightboost.boosting import AdaBoost, WeightBoost, WeightDecay
    from weightboost.c45 import C45

    X, y = _tiny_data()  # the boosters' own kernels (exp, weights, line search) compile here
    for sampling in ("reweight", "resample"):
        AdaBoost(n_estimators=2, sampling=sampling, random_state=0).fit(X, y).predict(X)
    WeightBoost(n_estimators=2).fit(X, y).predict(X)
    WeightDecay(n_estimators=2).fit(X, y)  # with C4.5 trees
    C45().fit(X, y).predict_proba(X)
    from weightboost.pipeline import environment

    environment.record()  # the versions of what it imported, before anything can replace them
