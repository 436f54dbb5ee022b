"""One tree fitted in one compiled call: grown, collapsed, pruned and compacted.

``fit_tree`` runs the kernels of ``grow`` and ``prune`` one after the other inside numba, so
that a fit crosses from Python into compiled code once: each crossing costs the typing of its
arguments and the boxing of its results (a record of arrays is boxed through an unpickled class
object), 15-20 µs a fit in four crossings, which was a twentieth of a small boosted tree.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from weightboost.c45.grow import grow
from weightboost.c45.prune import collapse, prune
from weightboost.c45.tree import compact


@njit(cache=True)
def fit_tree(view, missing, y, n_classes, weights, grow_settings, prune_settings,
             collapsing, pruning):
    """The tree of ``C45._build``: grown on ``view`` (``grow``), collapsed if ``collapsing``,
    pruned if ``pruning`` (``prune``, ``missing`` flagging the attributes with a missing
    value), and compacted; returns (node_int, node_float, empty, dist)."""
    tree = grow(view, y, n_classes, weights, grow_settings)
    if collapsing:
        collapse(tree.node_int, tree.dist, np.int64(0))  # not the literal: one compilation
    if pruning:
        tree = prune(view, missing, y, n_classes, tree, prune_settings)
    return compact(tree.node_int, tree.node_float, tree.empty, tree.dist,
                   tree.node_int.shape[0])
