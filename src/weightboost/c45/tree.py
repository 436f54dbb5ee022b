"""The array form of a C4.5 tree, shared by the grower, the pruner and prediction.

Node ``k`` is stored across a few arrays (children of a node are consecutive):

``node_int[k]   = (attribute or -1 for a leaf, first child, number of children)``
``node_float[k] = (threshold of a numeric split, share of node k in its parent's split)``
``empty[k]``      the node received no training weight (J48's ``m_isEmpty``)
``dist[k]``       the class weights of the training data that reached node k
``inst[k]``       (start, length) of node k's training instances in the flat instance store,
                  needed by subtree raising (ALGORITHMS.md §5.8)

The *share* of a child is the fraction of the parent's split distribution in that branch; it
routes instances whose split value is missing (§5.5, §5.9).
"""

from __future__ import annotations

import numpy as np
from numba import njit

ATTR, FIRST, NCHILD = 0, 1, 2
THRESH, SHARE = 0, 1


@njit(cache=True)
def grow_nodes(node_int, node_float, empty, dist, inst, needed):
    """Return the node arrays with room for at least ``needed`` nodes."""
    capacity = node_int.shape[0]
    if needed <= capacity:
        return node_int, node_float, empty, dist, inst
    new_capacity = max(needed, 2 * capacity)
    ni = np.full((new_capacity, 3), -1, dtype=np.int32)
    nf = np.zeros((new_capacity, 2))
    em = np.zeros(new_capacity, dtype=np.bool_)
    di = np.zeros((new_capacity, dist.shape[1]))
    ins = np.zeros((new_capacity, 2), dtype=np.int64)
    ni[:capacity] = node_int
    nf[:capacity] = node_float
    em[:capacity] = empty
    di[:capacity] = dist
    ins[:capacity] = inst
    return ni, nf, em, di, ins


@njit(cache=True)
def store_instances(store_rows, store_w, used, rows, w):
    """Append (rows, w) to the flat instance store; returns (rows, w, start, new used)."""
    needed = used + rows.shape[0]
    if needed > store_rows.shape[0]:
        capacity = max(needed, 2 * store_rows.shape[0])
        new_rows = np.empty(capacity, dtype=np.int32)
        new_w = np.empty(capacity)
        new_rows[:used] = store_rows[:used]
        new_w[:used] = store_w[:used]
        store_rows, store_w = new_rows, new_w
    store_rows[used:needed] = rows
    store_w[used:needed] = w
    return store_rows, store_w, used, needed


@njit(cache=True)
def branch_of(x_value, attribute_is_nominal, threshold):
    """Branch index of a known value, or -1 for a missing one."""
    if np.isnan(x_value):
        return -1
    if attribute_is_nominal:
        return int(x_value)
    return 0 if x_value <= threshold else 1


@njit(cache=True)
def class_totals(y, rows, w, n_classes):
    out = np.zeros(n_classes)
    for i in range(rows.shape[0]):
        out[y[rows[i]]] += w[i]
    return out


@njit(cache=True)
def compact(node_int, node_float, empty, dist, n_nodes):
    """Drop nodes no longer reachable from the root (after pruning); keep children consecutive."""
    new_id = np.full(n_nodes, -1, dtype=np.int64)
    queue = np.empty(n_nodes, dtype=np.int64)
    queue[0] = 0
    new_id[0] = 0
    head, tail, next_id = 0, 1, 1
    while head < tail:
        k = queue[head]
        head += 1
        if node_int[k, NCHILD] > 0:
            for c in range(node_int[k, NCHILD]):
                child = node_int[k, FIRST] + c
                new_id[child] = next_id + c
                queue[tail] = child
                tail += 1
            next_id += node_int[k, NCHILD]
    count = next_id
    ni = np.full((count, 3), -1, dtype=np.int32)
    nf = np.zeros((count, 2))
    em = np.zeros(count, dtype=np.bool_)
    di = np.zeros((count, dist.shape[1]))
    for k in range(n_nodes):
        j = new_id[k]
        if j < 0:
            continue
        ni[j, ATTR] = node_int[k, ATTR] if node_int[k, NCHILD] > 0 else -1
        ni[j, NCHILD] = max(node_int[k, NCHILD], 0)
        ni[j, FIRST] = new_id[node_int[k, FIRST]] if node_int[k, NCHILD] > 0 else -1
        nf[j] = node_float[k]
        em[j] = empty[k]
        di[j] = dist[k]
    return ni, nf, em, di
