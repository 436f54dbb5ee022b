"""Class distributions from a grown C4.5 tree (docs/algorithms.md §5.9, Weka's getProbs).

A known value descends its branch (an empty branch answers with the node's own class
distribution); a missing value descends every non-empty branch, weighted by the branch share.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from weightboost.c45.tree import ATTR, FIRST, NCHILD, SHARE, THRESH, branch_of, unsigned


@njit(cache=True)
def predict_distribution(X, nominal, node_int, node_float, empty, dist):
    """Class weights of every row of X (rows summing to 1, or to 0 where every branch the row
    reaches is empty). A row descends one path until a missing value, if any, makes it
    spread over several (``spread``)."""
    n = X.shape[0]
    n_classes = dist.shape[1]
    out = np.zeros((n, n_classes))
    for i in range(n):
        k = np.int64(0)  # not the literal 0: numba would compile spread for it too
        while True:
            if node_int[unsigned(k), NCHILD] <= 0:
                add_distribution(out, i, dist, k, 1.0)
                break
            first = node_int[unsigned(k), FIRST]
            a = unsigned(node_int[unsigned(k), ATTR])
            b = branch_of(X[i, a], nominal[a], node_float[unsigned(k), THRESH])
            # a nominal code unseen in training counts as missing
            if b < 0 or b >= node_int[unsigned(k), NCHILD]:
                spread(X, i, nominal, node_int, node_float, empty, dist, k, out)
                break
            if empty[unsigned(first + b)]:
                add_distribution(out, i, dist, k, 1.0)
                break
            k = first + b
    return out


@njit(cache=True)
def most_probable(X, nominal, node_int, node_float, empty, dist):
    """The index of every row's most probable class: the largest of its normalised class
    weights (the first on a tie), or of the root's distribution where every branch it reaches
    is empty; ``C45.predict``. Sums run in index order, as numpy sums rows of fewer than 8
    elements (``C45`` uses this kernel for fewer than 8 classes only)."""
    proba = predict_distribution(X, nominal, node_int, node_float, empty, dist)
    n, n_classes = proba.shape
    root_total = 0.0
    for j in range(n_classes):
        root_total += dist[0, j]
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        total = proba[i, 0]
        for j in range(1, n_classes):
            total += proba[i, j]
        best, best_value = 0, 0.0
        for j in range(n_classes):
            value = proba[i, j] / total if total > 0 else dist[0, j] / root_total
            if j == 0 or value > best_value:
                best, best_value = j, value
        out[i] = best
    return out


@njit(cache=True, inline="always")
def add_distribution(out, i, dist, k, weight):
    """Add node k's class frequencies, times ``weight``, to row i (nothing if k is empty)."""
    total = dist[k].sum()
    if total > 0:
        for j in range(dist.shape[1]):
            out[i, j] += weight * dist[k, j] / total


@njit(cache=True)
def spread(X, i, nominal, node_int, node_float, empty, dist, start, out):
    """Row i from node ``start`` (reached with weight 1): at a missing value it descends
    every non-empty branch, weighted by the branch's share."""
    stack = [(start, 1.0)]
    while len(stack) > 0:
        k, weight = stack.pop()
        if node_int[k, NCHILD] <= 0:
            add_distribution(out, i, dist, k, weight)
            continue
        a = node_int[k, ATTR]
        first = node_int[k, FIRST]
        b = branch_of(X[i, a], nominal[a], node_float[k, THRESH])
        if b >= node_int[k, NCHILD]:
            b = -1  # a nominal code unseen in training counts as missing
        if b < 0:
            for c in range(node_int[k, NCHILD]):
                if not empty[first + c]:
                    stack.append((first + c, weight * node_float[first + c, SHARE]))
        elif empty[first + b]:
            add_distribution(out, i, dist, k, weight)
        else:
            stack.append((first + b, weight))


@njit(cache=True)
def apply_leaves(X, nominal, node_int, node_float, empty):
    """The leaf each row reaches; at a missing value, the branch with the largest share."""
    n = X.shape[0]
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        k = 0
        while node_int[k, NCHILD] > 0:
            a = node_int[k, ATTR]
            first = node_int[k, FIRST]
            b = branch_of(X[i, a], nominal[a], node_float[k, THRESH])
            if b < 0 or b >= node_int[k, NCHILD]:
                b = 0
                for c in range(1, node_int[k, NCHILD]):
                    if node_float[first + c, SHARE] > node_float[first + b, SHARE]:
                        b = c
            if empty[first + b]:
                break
            k = first + b
        out[i] = k
    return out
