"""C4.5 on sparse data: the same tree as the dense grower, in time proportional to non-zeros.

For sparse inputs (Reuters: 2,000 ltc features, about 18 non-zeros per document) each node
keeps, per attribute, only its non-zero entries sorted by value. In the sorted order of an
attribute the zeros form one block of equal values, which the scan crosses in one step: its
class totals are the node's totals less those of the entries. The candidate cuts, the
minimum-split rule (which counts the zeros too), the MDL correction and the moved threshold are
exactly those of ``split.numeric_split``; only the cost changes, from O(instances) to
O(non-zeros) per attribute and node. Sparse inputs have no nominal attributes and no missing
values. Pruning and prediction use the dense rows, as for dense input.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from weightboost.c45.criteria import SMALL, old_ent
from weightboost.c45.split import finish_numeric, min_split_weight, move_threshold, two_way_gain
from weightboost.c45.tree import (ATTR, FIRST, NCHILD, SHARE, THRESH, grow_nodes, new_tree,
                                  open_node)

@njit(cache=True)
def sparse_numeric_split(vals, loc, local_y, w, m, n_classes, node_totals, node_weight, min_obj,
                         use_mdl, left, right, entry_totals):
    """Evaluate one attribute from its sorted non-zero entries (``vals``, ``loc``)."""
    c = vals.shape[0]
    entry_totals[:] = 0.0
    for k in range(c):
        entry_totals[local_y[loc[k]]] += w[loc[k]]
    known = node_weight
    min_split = min_split_weight(known, n_classes, min_obj)
    if m - 2.0 * min_split < -SMALL:
        return False, 0.0, 0.0, 0.0
    n_zero = m - c
    negatives = 0
    while negatives < c and vals[negatives] < 0.0:
        negatives += 1
    default_ent = old_ent(node_totals)
    left[:] = 0.0
    right[:] = node_totals
    best_gain = 0.0
    best_low = 0.0
    best_high = 0.0
    best_left_weight = 0.0
    found = False
    tries = 0
    left_weight = 0.0
    # elements in sorted order: entries 0..negatives-1, the zero block (if any), the rest
    n_elements = c + (1 if n_zero > 0 else 0)
    for e in range(n_elements):
        # move element e to the left side, then look at the gap to element e + 1
        if n_zero > 0 and e == negatives:
            value = 0.0
            for j in range(n_classes):
                moved = node_totals[j] - entry_totals[j]
                left[j] += moved
                right[j] -= moved
                left_weight += moved
        else:
            k = e if (n_zero == 0 or e < negatives) else e - 1
            i = loc[k]
            value = vals[k]
            left[local_y[i]] += w[i]
            right[local_y[i]] -= w[i]
            left_weight += w[i]
        if e == n_elements - 1:
            break
        if n_zero > 0 and e + 1 == negatives:
            following = 0.0
        else:
            k1 = e + 1 if (n_zero == 0 or e + 1 < negatives) else e
            following = vals[k1]
        if value + 1e-5 < following:
            right_weight = known - left_weight
            if left_weight - min_split > -SMALL and right_weight - min_split > -SMALL:
                gain = two_way_gain(left, right, left_weight, right_weight, default_ent, known,
                                    node_weight)
                if gain - best_gain > SMALL:
                    best_gain = gain
                    best_low = value
                    best_high = following
                    best_left_weight = left_weight
                    found = True
                tries += 1
    if not found:  # no cut gained more than 1e-6: invalid whatever MDL says
        return False, 0.0, 0.0, 0.0
    return finish_numeric(best_gain, tries, node_weight, known, use_mdl, best_low, best_high,
                          best_left_weight)


@njit(cache=True)
def grow_sparse(n, d, y, n_classes, w_root, col_ptr, col_rows, col_vals, thr_ptr, thr_vals,
                min_obj, use_mdl):
    """Grow the unpruned tree from sorted CSC columns (``col_*``) of an n × d matrix; ``thr_*``
    hold each attribute's sorted distinct training values, zero included, for the threshold
    move."""
    node_int, node_float, empty, dist, inst, store_rows, store_w = new_tree(n_classes, n)
    used = 0
    n_nodes = 1
    left = np.empty(n_classes)
    right = np.empty(n_classes)
    entry_totals = np.empty(n_classes)
    valid = np.zeros(d, dtype=np.bool_)
    gains = np.zeros(d)
    ratios = np.zeros(d)
    cuts = np.zeros(d)

    stack = [(0, np.arange(n).astype(np.int32), w_root.copy(), col_ptr.astype(np.int64),
              col_rows.copy(), col_vals.copy(), np.arange(d).astype(np.int64))]
    while len(stack) > 0:
        node, rows, w, ptr, loc, vals, slots = stack.pop()
        m = rows.shape[0]
        local_y, totals, store_rows, store_w, used = open_node(
            node, y, rows, w, n_classes, node_int, empty, dist, inst, store_rows, store_w, used)
        total = totals.sum()
        n_slots = slots.shape[0]
        live = np.zeros(n_slots, dtype=np.bool_)
        n_live = 0
        for p in range(n_slots):
            c = ptr[p + 1] - ptr[p]
            if c >= 1 and (c < m or vals[ptr[p]] + 1e-5 < vals[ptr[p + 1] - 1]):
                live[p] = True
                n_live += 1
        if total - 2.0 * min_obj < -SMALL or abs(total - totals.max()) < SMALL:
            continue
        # model selection (C45ModelSelection) over the live attributes, in attribute order
        average = 0.0
        counted = 0
        for p in range(n_slots):
            valid[p] = False
            if not live[p]:
                continue
            ok, g, r, c = sparse_numeric_split(vals[ptr[p]:ptr[p + 1]], loc[ptr[p]:ptr[p + 1]],
                                               local_y, w, m, n_classes, totals, total,
                                               min_obj, use_mdl, left, right, entry_totals)
            if ok:
                valid[p] = True
                gains[p] = g
                ratios[p] = r
                cuts[p] = c
                average += g
                counted += 1
        if counted == 0:
            continue
        average /= counted
        best = -1
        best_ratio = 0.0
        for p in range(n_slots):
            if valid[p] and gains[p] >= average - 1e-3 and ratios[p] - best_ratio > SMALL:
                best = p
                best_ratio = ratios[p]
        if best < 0 or abs(best_ratio) < SMALL:
            continue
        a = slots[best]
        threshold = move_threshold(cuts[best], thr_vals[thr_ptr[a]:thr_ptr[a + 1]])

        # branch of every instance: the zeros' branch, except where attribute a is non-zero
        branch = np.full(m, 0 if 0.0 <= threshold else 1, dtype=np.int64)
        for k in range(ptr[best], ptr[best + 1]):
            branch[loc[k]] = 0 if vals[k] <= threshold else 1
        local = np.empty(m, dtype=np.int32)
        count = np.zeros(2, dtype=np.int64)
        known_weight = np.zeros(2)
        for i in range(m):
            b = branch[i]
            local[i] = count[b]
            count[b] += 1
            known_weight[b] += w[i]
        share = known_weight / known_weight.sum()
        child_rows = [np.empty(count[b], dtype=np.int32) for b in range(2)]
        child_w = [np.empty(count[b]) for b in range(2)]
        for i in range(m):
            b = branch[i]
            child_rows[b][local[i]] = rows[i]
            child_w[b][local[i]] = w[i]
        # split every live attribute's entries between the children, keeping their order
        live_slots = np.empty(n_live, dtype=np.int64)
        child_ptr = [np.zeros(n_live + 1, dtype=np.int64) for b in range(2)]
        s = 0
        for p in range(n_slots):
            if not live[p]:
                continue
            live_slots[s] = slots[p]
            for k in range(ptr[p], ptr[p + 1]):
                child_ptr[branch[loc[k]]][s + 1] += 1
            s += 1
        for b in range(2):
            for s in range(n_live):
                child_ptr[b][s + 1] += child_ptr[b][s]
        child_loc = [np.empty(child_ptr[b][n_live], dtype=np.int32) for b in range(2)]
        child_vals = [np.empty(child_ptr[b][n_live]) for b in range(2)]
        fill = np.zeros(2, dtype=np.int64)
        for p in range(n_slots):
            if not live[p]:
                continue
            for k in range(ptr[p], ptr[p + 1]):
                b = branch[loc[k]]
                child_loc[b][fill[b]] = local[loc[k]]
                child_vals[b][fill[b]] = vals[k]
                fill[b] += 1

        first = n_nodes
        n_nodes += 2
        node_int, node_float, empty, dist, inst = grow_nodes(node_int, node_float, empty, dist,
                                                             inst, n_nodes)
        node_int[node, ATTR] = a
        node_int[node, FIRST] = first
        node_int[node, NCHILD] = 2
        node_float[node, THRESH] = threshold
        for b in range(1, -1, -1):
            node_float[first + b, SHARE] = share[b]
            stack.append((first + b, child_rows[b], child_w[b], child_ptr[b], child_loc[b],
                          child_vals[b], live_slots))
    return (node_int[:n_nodes], node_float[:n_nodes], empty[:n_nodes], dist[:n_nodes],
            inst[:n_nodes], store_rows[:used], store_w[:used])
