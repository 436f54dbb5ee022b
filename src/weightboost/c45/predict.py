"""Class distributions from a grown C4.5 tree (docs/algorithms.md §5.9, Weka's getProbs).

A known value descends its branch (an empty branch answers with the node's own class
distribution); a missing value descends every non-empty branch, weighted by the branch share.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from weightboost.c45.tree import ATTR, FIRST, NCHILD, SHARE, THRESH, branch_of


@njit(cache=True)
def predict_distribution(X, nominal, node_int, node_float, empty, dist):
    n = X.shape[0]
    n_classes = dist.shape[1]
    out = np.zeros((n, n_classes))
    for i in range(n):
        stack = [(0, 1.0)]
        while len(stack) > 0:
            k, weight = stack.pop()
            total = dist[k].sum()
            if node_int[k, NCHILD] <= 0:
                if total > 0:
                    for j in range(n_classes):
                        out[i, j] += weight * dist[k, j] / total
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
                if total > 0:
                    for j in range(n_classes):
                        out[i, j] += weight * dist[k, j] / total
            else:
                stack.append((first + b, weight))
    return out


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
