"""Collapse and pessimistic-error pruning with subtree raising (docs/algorithms.md §5.6-5.8), as
Weka's C45PruneableClassifierTree does them: ``collapse`` first, then ``prune``.

Two details follow Weka 3.6's J48 exactly:

* the *largest branch* (the candidate for subtree raising) is the one with the heaviest bag of
  the node's split distribution, ties going to the *last* such branch (``Distribution.maxBag``
  compares with ``>=`` within 1e-6);
* re-distributing data through a subtree (when a subtree is raised, and when the error of the
  largest branch is estimated) rebuilds each split's branch shares from the *known* split
  values of the new data, spreading the instances with a missing value in those new
  proportions, or evenly when no value is known (``C45Split.resetDistribution``); the node's
  old shares play no part.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from weightboost.c45.criteria import SMALL, row_estimated_errors, row_total_and_max
from weightboost.c45.tree import (ATTR, FIRST, NCHILD, SHARE, THRESH, TreeArrays, branch_of,
                                  copy_into, partition_into, partition_sizes, reserve,
                                  store_instances, unsigned)


@njit(cache=True, inline="always")
def _is_leaf(node_int, k):
    return node_int[k, NCHILD] <= 0


@njit(cache=True)
def collapse(node_int, dist, root):
    """Replace every subtree that does not reduce training errors (within 1e-3) by a leaf."""
    n_nodes = node_int.shape[0]
    stack = np.empty(n_nodes, dtype=np.int64)
    inner = np.empty(n_nodes, dtype=np.int64)
    stack[0] = root
    top = 1
    while top > 0:
        top -= 1
        k = stack[top]
        if _is_leaf(node_int, k):
            continue
        subtree_errors = 0.0
        inner[0] = k
        depth = 1
        while depth > 0:
            depth -= 1
            j = inner[depth]
            if _is_leaf(node_int, j):
                total, most = row_total_and_max(dist, j)
                subtree_errors += total - most
            else:
                depth = push_children(inner, depth, node_int, j)
        total, most = row_total_and_max(dist, k)
        node_errors = total - most
        if subtree_errors >= node_errors - 1e-3:
            node_int[k, NCHILD] = 0
        else:
            top = push_children(stack, top, node_int, k)


@njit(cache=True, inline="always")
def push_children(stack, top, node_int, j):
    """Push node j's children, first to last, on the array ``stack`` of ``top`` entries;
    returns the new top. The walks below keep their stacks in arrays of one entry per node
    (a node is on a walk's stack at most once), allocated once per tree, not as lists per
    walk."""
    for c in range(node_int[j, NCHILD]):
        stack[top] = node_int[j, FIRST] + c
        top += 1
    return top


class RouteWork(NamedTuple):
    """Buffers of one ``prune`` call for sending data down subtrees (``_send_down``), sized
    for a node's instances (each row at most once: at most n) and the widest split."""

    branch: np.ndarray      # (n,) int64 each instance's branch, -1 if its value is missing
    local: np.ndarray       # (n, max branches) int32, ``partition``'s positions (unused here)
    offsets: np.ndarray     # (2, max branches + 1) int64, ``partition``'s parts and cursors
    share: np.ndarray       # (max branches,) the branches' shares of the new data
    totals: np.ndarray      # (1, n_classes) a node's class weights
    blocks: np.ndarray      # (nodes, 3) int64 stack of (node, start, length) in the store


@njit(cache=True)
def make_route_work(view, n_classes, n_nodes):
    n = view.XT.shape[1]
    widest = max(2, view.n_values.max() if view.n_values.shape[0] else 2)
    return RouteWork(np.empty(n, dtype=np.int64), np.empty((n, widest), dtype=np.int32),
                     np.empty((2, widest + 1), dtype=np.int64), np.empty(widest),
                     np.zeros((1, n_classes)), np.empty((n_nodes, 3), dtype=np.int64))


@njit(cache=True)
def _send_down(XT, nominal, y, tree, k, rows, w, cf, z, raising, leaf_errors, used, work_rows,
               work_w, work):
    """Send the data (rows, w) down the subtree rooted at k, splitting it at each node as
    J48's resetDistribution + split do: a node's branch shares become the known values' shares
    of this data, or equal shares when none of its values is known.

    Without ``raising``, nothing changes and the result is the subtree's estimated errors for
    this data: its leaves' estimates added in the order of a depth-first walk (last child
    first). With ``raising`` (the data of a node whose largest branch was raised into it),
    every node of the subtree takes this data as its own: class weights, instances (appended
    to the tree's store, of which ``used`` are in use), shares, emptiness; ``leaf_errors``
    are forgotten. Returns (errors, store rows, store weights, used, work rows, work weights).

    The data goes through a work store: a node's children's instances are appended to it
    (``partition_into``) and a node's block is released when the walk comes back to it
    (everything above it belongs to finished subtrees). One call walks the whole subtree:
    routing through lists of per-child arrays, a call per node, cost breast cancer (whose
    missing values send most of its pruning here) about 8,000 reference count updates per
    tree."""
    node_int, node_float, empty, dist, inst, store_rows, store_w = tree
    branch, local, offsets, share, totals, blocks = work
    m = rows.shape[0]
    work_rows, work_w = reserve(work_rows, work_w, 0, m)
    copy_into(work_rows, 0, rows)  # rows may be a view of the store, which may grow
    copy_into(work_w, 0, w)
    blocks[0, 0], blocks[0, 1], blocks[0, 2] = k, 0, m
    depth = 1
    errors = 0.0
    while depth > 0:
        depth -= 1
        j, start, length = blocks[depth, 0], blocks[depth, 1], blocks[depth, 2]
        top = start + length
        if raising or _is_leaf(node_int, j):
            for c in range(totals.shape[1]):
                totals[0, c] = 0.0
            for i in range(start, top):
                totals[0, y[unsigned(work_rows[i])]] += work_w[i]
        if raising:
            for c in range(totals.shape[1]):
                dist[j, c] = totals[0, c]
            leaf_errors[j] = np.nan
            store_rows, store_w, s, used = store_instances(store_rows, store_w, used,
                                                           work_rows, work_w, start, top)
            inst[j, 0] = s
            inst[j, 1] = length
            if _is_leaf(node_int, j):
                if abs(work_w[start:top].sum()) >= SMALL:
                    empty[j] = False
                continue
        elif _is_leaf(node_int, j):
            errors += row_estimated_errors(totals, 0, cf, z)
            continue
        a = node_int[j, ATTR]
        n_branches = np.int64(node_int[j, NCHILD])  # as grow's: partition compiled once
        threshold = node_float[j, THRESH]
        for b in range(n_branches):
            share[b] = 0.0
        for i in range(length):
            b = branch_of(XT[a, unsigned(work_rows[start + i])], nominal[a], threshold)
            branch[i] = b
            if b >= 0:
                share[unsigned(b)] += work_w[start + i]
        known = 0.0
        for b in range(n_branches):
            known += share[b]
        for b in range(n_branches):
            share[b] = 1.0 / n_branches if abs(known) < SMALL else share[b] / known
        total = partition_sizes(branch, length, share, n_branches, offsets)
        work_rows, work_w = reserve(work_rows, work_w, top, total)
        partition_into(work_rows[start:top], work_w[start:top], branch, share, n_branches,
                       local, offsets, work_rows, work_w, top)
        for c in range(n_branches):
            if raising:
                node_float[node_int[j, FIRST] + c, SHARE] = share[c]
            blocks[depth, 0] = node_int[j, FIRST] + c
            blocks[depth, 1] = top + offsets[0, c]
            blocks[depth, 2] = offsets[0, c + 1] - offsets[0, c]
            depth += 1
    return errors, store_rows, store_w, used, work_rows, work_w


@njit(cache=True)
def largest_branch(node_float, dist, k, first, n_children):
    """J48's ``Distribution.maxBag``: the heaviest branch of node k, the last one on a tie
    (within 1e-6). A branch's bag is its share of the node's weight."""
    total, _ = row_total_and_max(dist, k)
    best = -1
    heaviest = 0.0
    for c in range(n_children):
        bag = node_float[first + c, SHARE] * total
        if heaviest - bag < SMALL:
            heaviest = bag
            best = first + c
    return best


@njit(cache=True)
def _errors_for_added_known(view, y, node_int, node_float, dist, k, rows, w, cf, z, reached,
                            added, leaf_errors, walk):
    """Estimated errors of the subtree rooted at k if the data (rows, w) were passed down it
    in addition to the data it was grown from, when none of them misses a split value there
    (``_all_known``): each leaf's class weights are then its ``dist`` plus those of the rows
    reaching it, and a subtree that none of the rows reaches keeps its own estimate.

    Each instance reaches one leaf with its whole weight and is walked down to it alone,
    without partitioning arrays at every node. ``reached`` (instances reaching each node) and
    ``added`` (each leaf's added class weights) are zero on entry and on return; ``walk`` is a
    stack of one entry per node (``push_children``)."""
    for idx in range(rows.shape[0]):
        row = unsigned(rows[idx])
        j = unsigned(k)
        reached[j] += 1
        while not _is_leaf(node_int, j):
            a = unsigned(node_int[j, ATTR])
            j = unsigned(node_int[j, FIRST] + branch_of(view.XT[a, row], view.nominal[a],
                                                        node_float[j, THRESH]))
            reached[j] += 1
        added[j, unsigned(y[row])] += w[idx]
    errors = 0.0
    walk[0] = k
    top = 1
    while top > 0:
        top -= 1
        j = walk[top]
        if reached[j] == 0:
            # the rest of the stack, from top on, is free for the subtree's own walk
            errors += _subtree_errors(node_int, dist, j, cf, z, leaf_errors, walk[top:])
            continue
        reached[j] = 0
        if _is_leaf(node_int, j):
            for c in range(added.shape[1]):  # the leaf's class weights with the added ones,
                added[j, c] += dist[j, c]     # in place of a new array per leaf
            errors += row_estimated_errors(added, j, cf, z)
            for c in range(added.shape[1]):
                added[j, c] = 0.0
        else:
            top = push_children(walk, top, node_int, j)
    return errors


@njit(cache=True, inline="always")
def _all_known(missing, node_int, k, largest, walk):
    """Whether no training instance misses the split value of node k or of any split in the
    subtree of its child ``largest``. Then the largest branch's own instances, sent down it
    again, reach the leaves they were grown into, and estimating the branch's errors for all
    of k's data needs only the other branches' instances (``_other_branches``) routed."""
    if missing[node_int[k, ATTR]]:
        return False
    walk[0] = largest
    top = 1
    while top > 0:
        top -= 1
        j = walk[top]
        if _is_leaf(node_int, j):
            continue
        if missing[node_int[j, ATTR]]:
            return False
        top = push_children(walk, top, node_int, j)
    return True


@njit(cache=True)
def _other_branches(node_int, inst, store_rows, store_w, k, largest):
    """The stored instances (rows, weights) of node k's children other than ``largest``."""
    first, n_children = node_int[k, FIRST], node_int[k, NCHILD]
    count = 0
    for c in range(first, first + n_children):
        if c != largest:
            count += inst[c, 1]
    rows = np.empty(count, dtype=np.int32)
    w = np.empty(count)
    fill = 0
    for c in range(first, first + n_children):
        if c != largest:
            start, length = inst[c, 0], inst[c, 1]
            copy_into(rows, fill, store_rows[start:start + length])
            copy_into(w, fill, store_w[start:start + length])
            fill += length
    return rows, w


@njit(cache=True)
def _subtree_errors(node_int, dist, k, cf, z, leaf_errors, walk):
    """The estimated errors of the subtree at k: its leaves' in the order of a depth-first walk
    (last child first). ``leaf_errors`` caches each leaf's estimate (NaN: not yet computed):
    pruning asks for the subtrees of every node on a path, and on Reuters' chains of splits a
    leaf's estimate was computed once per node above it. ``walk``: see ``push_children``."""
    errors = 0.0
    walk[0] = k
    top = 1
    while top > 0:
        top -= 1
        j = walk[top]
        if _is_leaf(node_int, j):
            if np.isnan(leaf_errors[j]):
                leaf_errors[j] = row_estimated_errors(dist, j, cf, z)
            errors += leaf_errors[j]
        else:
            top = push_children(walk, top, node_int, j)
    return errors


@njit(cache=True)
def prune(view, missing, y, n_classes, tree, settings):
    """Bottom-up pessimistic pruning of ``tree`` (TreeArrays, changed in place) grown on
    ``view`` (a GrowView), ``missing`` flagging its attributes with a missing value (see
    ``_all_known``); returns it with the (possibly grown) instance store."""
    node_int, node_float, empty, dist, inst, store_rows, store_w = tree
    work = make_route_work(view, n_classes, node_int.shape[0])
    work_rows = np.empty(store_rows.shape[0] // 4 + 16, dtype=np.int32)  # the work store
    work_w = np.empty(work_rows.shape[0])
    cf, z = settings.cf, settings.z
    used = store_rows.shape[0]
    reached = np.zeros(node_int.shape[0], dtype=np.int64)
    added = np.zeros((node_int.shape[0], n_classes))
    leaf_errors = np.full(node_int.shape[0], np.nan)  # see _subtree_errors
    walk = np.empty(node_int.shape[0], dtype=np.int64)  # see push_children
    stack = [(0, 0)]
    while len(stack) > 0:
        k, state = stack.pop()
        if _is_leaf(node_int, k):
            continue
        first = node_int[k, FIRST]
        n_children = node_int[k, NCHILD]
        if state == 0:
            stack.append((k, 1))
            for c in range(n_children - 1, -1, -1):
                stack.append((first + c, 0))
            continue
        largest = largest_branch(node_float, dist, k, first, n_children)
        start, end = inst[k, 0], inst[k, 0] + inst[k, 1]  # k's instances in the store
        if settings.subtree_raising:
            if _all_known(missing, node_int, k, largest, walk):
                sent, sent_w = _other_branches(node_int, inst, store_rows, store_w, k, largest)
                errors_branch = _errors_for_added_known(view, y, node_int, node_float, dist,
                                                        largest, sent, sent_w, cf, z, reached,
                                                        added, leaf_errors, walk)
            else:
                errors_branch, _, _, _, work_rows, work_w = _send_down(
                    view.XT, view.nominal, y, TreeArrays(node_int, node_float, empty, dist,
                                                         inst, store_rows, store_w),
                    largest, store_rows[start:end], store_w[start:end], cf, z, np.bool_(False),
                    leaf_errors, used, work_rows, work_w, work)
        else:
            errors_branch = np.inf
        errors_leaf = row_estimated_errors(dist, k, cf, z)
        errors_tree = _subtree_errors(node_int, dist, k, cf, z, leaf_errors, walk)
        if errors_leaf - (errors_tree + 0.1) < SMALL and \
                errors_leaf - (errors_branch + 0.1) < SMALL:
            node_int[k, NCHILD] = 0
            continue
        if errors_branch - (errors_tree + 0.1) < SMALL:
            # raise the largest branch into k's place and re-distribute k's data through it
            node_int[k, ATTR] = node_int[largest, ATTR]
            node_int[k, FIRST] = node_int[largest, FIRST]
            node_int[k, NCHILD] = node_int[largest, NCHILD]
            node_float[k, THRESH] = node_float[largest, THRESH]
            _, store_rows, store_w, used, work_rows, work_w = _send_down(
                view.XT, view.nominal, y, TreeArrays(node_int, node_float, empty, dist, inst,
                                                     store_rows, store_w),
                k, store_rows[start:end], store_w[start:end], cf, z, np.bool_(True),
                leaf_errors, used, work_rows, work_w, work)
            stack.append((k, 0))
    return TreeArrays(node_int, node_float, empty, dist, inst, store_rows[:used],
                      store_w[:used])
