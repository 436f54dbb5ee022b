"""The array form of a C4.5 tree, shared by the grower, the pruner and prediction.

Node ``k`` is stored across a few arrays (children of a node are consecutive):

``node_int[k]   = (attribute or -1 for a leaf, first child, number of children)``
``node_float[k] = (threshold of a numeric split, share of node k in its parent's split)``
``empty[k]``      the node received no training weight (J48's ``m_isEmpty``)
``dist[k]``       the class weights of the training data that reached node k
``inst[k]``       (start, length) of node k's training instances in the flat instance store,
                  needed by subtree raising (docs/algorithms.md §5.8)

The *share* of a child is the fraction of the parent's split distribution in that branch; it
routes instances whose split value is missing (§5.5, §5.9).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from weightboost.c45.criteria import SMALL

ATTR, FIRST, NCHILD = 0, 1, 2
THRESH, SHARE = 0, 1


class TreeArrays(NamedTuple):
    """A tree while it is grown and pruned: the node arrays above and the flat instance store
    (``inst[k]`` indexes it)."""

    node_int: np.ndarray
    node_float: np.ndarray
    empty: np.ndarray
    dist: np.ndarray
    inst: np.ndarray
    store_rows: np.ndarray
    store_w: np.ndarray


class GrowSettings(NamedTuple):
    min_obj: float          # J48's minNumObj: the least weight of two branches
    use_mdl: bool           # release 8's MDL correction of numeric gains
    # a resampled draw fitted as its distinct rows, each weighted by its number of copies:
    # the draw's size (J48 counts every copy as an instance); 0.0 when each row is one instance
    draw_size: float = 0.0


class PruneSettings(NamedTuple):
    cf: float               # J48's confidence factor
    z: float                # its normal quantile (criteria.z_for_confidence)
    subtree_raising: bool


class NodeSample(NamedTuple):
    """The training data that reached a node while the tree grows."""

    rows: np.ndarray        # (m,) int32 training rows (fractional copies of a row included)
    w: np.ndarray           # (m,) their weights
    ptr: np.ndarray         # (n_live + 1,) int64: live attribute p has entries ptr[p]:ptr[p+1]
    loc: np.ndarray         # (entries,) int32 instance (index into rows) of each stored entry,
    vals: np.ndarray        # sorted by value per attribute, and the entries' values
    slots: np.ndarray       # (n_live,) int64 the numeric slot of each live attribute, ascending


@njit(cache=True, inline="always")
def unsigned(index):
    """A non-negative ``index`` read from an array (an instance, a row), as an unsigned integer:
    numba indexes with a signed integer through a test and an add for negative indices, which
    cost a tenth to a fifth of a tree in the kernels' hottest loops (docs/algorithms.md §5.10);
    with an unsigned one it does not. (Use it only to index: numba adds a signed and an
    unsigned integer as floats.)"""
    return np.uint64(index)


@njit(cache=True, inline="always")
def copy_into(dst, start, src):
    """``dst[start:start + len(src)] = src`` for 1-D arrays, as a loop: a slice assignment
    makes numba compile its shape check and error message, about 4 s of every fresh
    compilation of the kernels (the kernels use none)."""
    for k in range(src.shape[0]):
        dst[start + k] = src[k]


@njit(cache=True)
def new_tree(n_classes, n_rows):
    """Empty node arrays (root allocated, share 1) and an instance store sized for n_rows."""
    capacity = 64
    node_int = np.full((capacity, 3), -1, dtype=np.int32)
    node_float = np.zeros((capacity, 2))
    node_float[0, SHARE] = 1.0
    empty = np.zeros(capacity, dtype=np.bool_)
    dist = np.zeros((capacity, n_classes))
    inst = np.zeros((capacity, 2), dtype=np.int64)
    store_rows = np.empty(4 * n_rows + 16, dtype=np.int32)
    store_w = np.empty(4 * n_rows + 16)
    return node_int, node_float, empty, dist, inst, store_rows, store_w


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
    copy_into(ni.reshape(-1), 0, node_int.reshape(-1))
    copy_into(nf.reshape(-1), 0, node_float.reshape(-1))
    copy_into(em, 0, empty)
    copy_into(di.reshape(-1), 0, dist.reshape(-1))
    copy_into(ins.reshape(-1), 0, inst.reshape(-1))
    return ni, nf, em, di, ins


@njit(cache=True, inline="always")
def reserve(store_rows, store_w, used, extra):
    """An instance store (rows, weights) with room for ``extra`` more after its first ``used``:
    the same arrays, or copies of their used part at twice the size (or more)."""
    needed = used + extra
    if needed > store_rows.shape[0]:
        capacity = max(needed, 2 * store_rows.shape[0])
        new_rows = np.empty(capacity, dtype=np.int32)
        new_w = np.empty(capacity)
        copy_into(new_rows, 0, store_rows[:used])
        copy_into(new_w, 0, store_w[:used])
        store_rows, store_w = new_rows, new_w
    return store_rows, store_w


@njit(cache=True, inline="always")
def store_instances(store_rows, store_w, used, rows, w, begin, end):
    """Append instances ``begin`` to ``end`` of (rows, w) to the flat instance store; returns
    (rows, w, start, new used). (Offsets, not a slice of rows and w: a view costs two
    reference count updates, at every child a tree opens.)"""
    store_rows, store_w = reserve(store_rows, store_w, used, end - begin)
    for i in range(begin, end):
        store_rows[unsigned(used + i - begin)] = rows[unsigned(i)]
        store_w[unsigned(used + i - begin)] = w[unsigned(i)]
    return store_rows, store_w, used, used + end - begin


@njit(cache=True)
def branch_of(x_value, attribute_is_nominal, threshold):
    """Branch index of a known value, or -1 for a missing one."""
    if np.isnan(x_value):
        return -1
    if attribute_is_nominal:
        return int(x_value)
    return 0 if x_value <= threshold else 1


@njit(cache=True, inline="always")
def partition_sizes(branch, m, share, n_branches, offsets):
    """The first step of ``partition``: each child's part of the output, child b's from
    ``offsets[0, b]``, and its fill cursor ``offsets[1, b]`` at that start; returns the total
    (``offsets[0, n_branches]``)."""
    for b in range(n_branches + 1):
        offsets[0, b] = 0
    for i in range(m):
        if branch[i] >= 0:
            offsets[0, unsigned(branch[i] + 1)] += 1
        else:
            for b in range(n_branches):
                if share[b] > SMALL:
                    offsets[0, b + 1] += 1
    for b in range(n_branches):
        offsets[0, b + 1] += offsets[0, b]
        offsets[1, b] = offsets[0, b]
    return offsets[0, n_branches]


@njit(cache=True, inline="always")
def partition_into(rows, w, branch, share, n_branches, local, offsets, out_rows, out_w, base):
    """The second step of ``partition``: the children's instances written to ``out_rows`` and
    ``out_w`` from index ``base`` on, as ``partition_sizes`` laid them out."""
    for i in range(rows.shape[0]):
        if branch[i] >= 0:
            b = unsigned(branch[i])
            f = offsets[1, b]
            local[i, b] = f - offsets[0, b]
            out_rows[unsigned(base + f)] = rows[i]
            out_w[unsigned(base + f)] = w[i]
            offsets[1, b] = f + 1
        else:
            for b in range(n_branches):
                if share[b] > SMALL:
                    local[i, b] = offsets[1, b] - offsets[0, b]
                    out_rows[base + offsets[1, b]] = rows[i]
                    out_w[base + offsets[1, b]] = w[i] * share[b]
                    offsets[1, b] += 1
                else:
                    local[i, b] = -1


@njit(cache=True, inline="always")
def partition(rows, w, branch, share, n_branches, local, offsets):
    """Split a node's instances between its branches (Weka's ClassifierSplitModel.split).

    ``branch[i]`` is instance i's branch, or -1 for a missing value: such an instance goes to
    every branch whose share exceeds 1e-6, with its weight times the share (a fractional
    instance). Returns the children's rows and weights as two arrays, child b's part starting at
    ``offsets[0, b]`` (``offsets[0, n_branches]`` is their length), and writes ``local[i, b]``,
    the position of instance i in child b: for an instance with a known value in its branch
    only, for one with a missing value in every branch (-1 where it is absent).

    ``local`` (at least (m, n_branches)) and ``offsets`` (2, at least n_branches + 1) are the
    caller's, reused from node to node (``offsets[1]`` is the fill cursor); the children are
    parts of one buffer, so that the loop writes through plain arrays (an element of a list of
    arrays costs a reference count update per access)."""
    total = partition_sizes(branch, rows.shape[0], share, n_branches, offsets)
    out_rows = np.empty(total, dtype=np.int32)
    out_w = np.empty(total)
    partition_into(rows, w, branch, share, n_branches, local, offsets, out_rows, out_w, 0)
    return out_rows, out_w


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
        copy_into(nf[j], 0, node_float[k])
        em[j] = empty[k]
        copy_into(di[j], 0, dist[k])
    return ni, nf, em, di
