"""Growing a C4.5 tree (Weka's ClassifierTree.buildTree with C45ModelSelection).

Depth first, with an explicit stack. Each pending node carries its instances as (row, weight)
pairs and, for every numeric attribute, the order of those instances sorted by that
attribute's value (known values first). The orders come from one sort of the whole training
set (``weightboost.c45.data.prepare``) and are *partitioned* down the tree, never re-sorted:
a child's order is its parent's order filtered to the child's instances.

Missing split values make fractional instances (docs/algorithms.md §5.5): the instance goes to
every branch whose share exceeds 1e-6, with its weight times that share.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from weightboost.c45.criteria import SMALL
from weightboost.c45.split import make_scratch, move_threshold, select_split
from weightboost.c45.tree import (ATTR, FIRST, NCHILD, SHARE, THRESH, branch_of, grow_nodes,
                                  new_tree, open_node, partition)


@njit(cache=True)
def grow(XT, y, n_classes, nominal, n_values, num_slot, w_root, root_orders, root_known,
         sorted_values, min_obj, use_mdl):
    """Grow the unpruned tree. ``XT``: training matrix transposed (attributes × rows)."""
    n = XT.shape[1]
    n_numeric = root_orders.shape[0]
    node_int, node_float, empty, dist, inst, store_rows, store_w = new_tree(n_classes, n)
    used = 0
    n_nodes = 1

    rows0 = np.arange(n).astype(np.int32)
    root_slots = np.arange(n_numeric)
    stack = [(0, rows0, w_root.copy(), root_orders, sorted_values, root_known.copy(),
              root_slots)]
    n_attributes = XT.shape[0]
    slot_attr = np.empty(n_numeric, dtype=np.int64)
    for a in range(n_attributes):
        if num_slot[a] >= 0:
            slot_attr[num_slot[a]] = a
    scratch = make_scratch(n_attributes, n_classes, n_values.max() if n_attributes else 1)
    position = np.empty(n_attributes, dtype=np.int64)
    live = np.empty(n_numeric, dtype=np.bool_)
    while len(stack) > 0:
        node, rows, w, orders, values, n_known, slots = stack.pop()
        m = rows.shape[0]
        local_y, totals, store_rows, store_w, used = open_node(
            node, y, rows, w, n_classes, node_int, empty, dist, inst, store_rows, store_w, used)
        total = totals.sum()
        # numeric attributes that can still be cut here (and so perhaps below)
        position[:] = -1
        n_live = 0
        for p in range(slots.shape[0]):
            live[p] = False
            k = n_known[p]
            if k >= 2 and values[p, 0] + 1e-5 < values[p, k - 1]:
                live[p] = True
                n_live += 1
                position[slot_attr[slots[p]]] = p
        if total - 2.0 * min_obj < -SMALL or abs(total - totals.max()) < SMALL:
            continue
        a, cut = select_split(XT, local_y, n_classes, nominal, n_values, rows, w, orders,
                              values, n_known, position, totals, min_obj, use_mdl, n,
                              scratch)
        if a < 0:
            continue
        if nominal[a]:
            n_branches = n_values[a]
            threshold = 0.0
        else:
            n_branches = 2
            s = num_slot[a]
            threshold = move_threshold(cut, sorted_values[s, : root_known[s]])

        branch = np.empty(m, dtype=np.int64)
        known_weight = np.zeros(n_branches)
        for i in range(m):
            b = branch_of(XT[a, rows[i]], nominal[a], threshold)
            branch[i] = b
            if b >= 0:
                known_weight[b] += w[i]
        share = known_weight / known_weight.sum()

        child_rows, child_w, local = partition(rows, w, branch, share, n_branches)
        count = np.array([len(r) for r in child_rows], dtype=np.int64)
        fill = np.zeros(n_branches, dtype=np.int64)
        # partition the sorted order of every numeric attribute still live here
        child_slots = np.empty(n_live, dtype=np.int64)
        child_orders = [np.empty((n_live, count[b]), dtype=np.int32)
                        for b in range(n_branches)]
        child_values = [np.empty((n_live, count[b])) for b in range(n_branches)]
        child_known = [np.zeros(n_live, dtype=np.int64) for b in range(n_branches)]
        s = -1
        for p in range(slots.shape[0]):
            if not live[p]:
                continue
            s += 1
            child_slots[s] = slots[p]
            fill[:] = 0
            order = orders[p]
            vals = values[p]
            for k in range(m):
                i = order[k]
                if branch[i] >= 0:
                    b = branch[i]
                    child_orders[b][s, fill[b]] = local[i, b]
                    child_values[b][s, fill[b]] = vals[k]
                    fill[b] += 1
                else:
                    for b in range(n_branches):
                        if local[i, b] >= 0:
                            child_orders[b][s, fill[b]] = local[i, b]
                            child_values[b][s, fill[b]] = vals[k]
                            fill[b] += 1
                if k + 1 == n_known[p]:
                    for b in range(n_branches):
                        child_known[b][s] = fill[b]

        first = n_nodes
        n_nodes += n_branches
        node_int, node_float, empty, dist, inst = grow_nodes(node_int, node_float, empty, dist,
                                                             inst, n_nodes)
        node_int[node, ATTR] = a
        node_int[node, FIRST] = first
        node_int[node, NCHILD] = n_branches
        node_float[node, THRESH] = threshold
        for b in range(n_branches - 1, -1, -1):
            node_float[first + b, SHARE] = share[b]
            stack.append((first + b, child_rows[b], child_w[b], child_orders[b],
                          child_values[b], child_known[b], child_slots))
    return (node_int[:n_nodes], node_float[:n_nodes], empty[:n_nodes], dist[:n_nodes],
            inst[:n_nodes], store_rows[:used], store_w[:used])
