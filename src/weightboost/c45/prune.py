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

import numpy as np
from numba import njit

from weightboost.c45.criteria import (SMALL, estimated_errors, row_estimated_errors,
                                      row_total_and_max)
from weightboost.c45.tree import (ATTR, FIRST, NCHILD, SHARE, THRESH, TreeArrays, branch_of,
                                  class_totals, copy_into, partition,
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


@njit(cache=True)
def _route(view, node_int, node_float, k, rows, w):
    """Split (rows, w) at internal node k as J48's resetDistribution + split do.

    Returns the children's (rows, w) lists and the new branch shares: the known values' shares
    of the new data, or equal shares when none of its values is known."""
    a = node_int[k, ATTR]
    n_branches = np.int64(node_int[k, NCHILD])  # as grow's: partition compiled once
    m = rows.shape[0]
    branch = np.empty(m, dtype=np.int64)
    bag = np.zeros(n_branches)
    for i in range(m):
        b = branch_of(view.XT[a, unsigned(rows[i])], view.nominal[a], node_float[k, THRESH])
        branch[i] = b
        if b >= 0:
            bag[b] += w[i]
    known = bag.sum()
    if abs(known) < SMALL:
        share = np.full(n_branches, 1.0 / n_branches)
    else:
        share = bag / known
    offsets = np.empty((2, n_branches + 1), dtype=np.int64)
    out_rows, out_w = partition(rows, w, branch, share, n_branches,
                                np.empty((m, n_branches), dtype=np.int32), offsets)
    start = offsets[0]
    child_rows = [out_rows[start[b]:start[b + 1]] for b in range(n_branches)]
    child_w = [out_w[start[b]:start[b + 1]] for b in range(n_branches)]
    return child_rows, child_w, share


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
def _errors_for_branch(view, y, n_classes, node_int, node_float, dist, k, rows, w, cf, z):
    """Estimated errors if the data (rows, w) were passed down the subtree rooted at k."""
    errors = 0.0
    stack = [(k, rows, w)]
    while len(stack) > 0:
        j, r, ww = stack.pop()
        if _is_leaf(node_int, j):
            errors += estimated_errors(class_totals(y, r, ww, n_classes), cf, z)
        else:
            child_rows, child_w, _ = _route(view, node_int, node_float, j, r, ww)
            for c in range(node_int[j, NCHILD]):
                stack.append((node_int[j, FIRST] + c, child_rows[c], child_w[c]))
    return errors


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
        start, length = inst[k, 0], inst[k, 1]
        rows = store_rows[start:start + length]
        w = store_w[start:start + length]
        if settings.subtree_raising:
            if _all_known(missing, node_int, k, largest, walk):
                sent, sent_w = _other_branches(node_int, inst, store_rows, store_w, k, largest)
                errors_branch = _errors_for_added_known(view, y, node_int, node_float, dist,
                                                        largest, sent, sent_w, cf, z, reached,
                                                        added, leaf_errors, walk)
            else:
                errors_branch = _errors_for_branch(view, y, n_classes, node_int, node_float,
                                                   dist, largest, rows, w, cf, z)
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
            rows = rows.copy()
            w = w.copy()
            todo = [(k, rows, w)]
            while len(todo) > 0:
                j, r, ww = todo.pop()
                copy_into(dist[j], 0, class_totals(y, r, ww, n_classes))
                leaf_errors[j] = np.nan
                store_rows, store_w, s, used = store_instances(store_rows, store_w, used, r, ww)
                inst[j, 0] = s
                inst[j, 1] = r.shape[0]
                if _is_leaf(node_int, j):
                    if abs(ww.sum()) >= SMALL:
                        empty[j] = False
                    continue
                child_rows, child_w, share = _route(view, node_int, node_float, j, r, ww)
                for c in range(node_int[j, NCHILD]):
                    node_float[node_int[j, FIRST] + c, SHARE] = share[c]
                    todo.append((node_int[j, FIRST] + c, child_rows[c], child_w[c]))
            stack.append((k, 0))
    return TreeArrays(node_int, node_float, empty, dist, inst, store_rows[:used],
                      store_w[:used])
