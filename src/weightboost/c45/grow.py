"""Growing a C4.5 tree (Weka's ClassifierTree.buildTree with C45ModelSelection), for dense and
sparse data alike.

Depth first, with an explicit stack. Each pending node carries its instances as (row, weight)
pairs and, for every numeric attribute still *live* there (one with two values more than 1e-5
apart, so perhaps cut here or below), its stored entries sorted by value
(``weightboost.c45.data.GrowView``). The entries come from one sort of the whole training set
and are *partitioned* down the tree, never re-sorted: a child's entries are its parent's,
filtered to the child's instances, in the same order. What is not stored is a missing value
or, in an attribute that stores its non-zeros only, a zero; the split evaluation
(``split.numeric_splits``) and the routing below are written once for both, and cost time
proportional to the stored entries.

Missing split values make fractional instances (docs/algorithms.md §5.5): the instance goes to
every branch whose share exceeds 1e-6, with its weight times that share.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from weightboost.c45.criteria import SMALL, row_total_and_max
from weightboost.c45.split import (make_nominal_buffers, make_scratch, move_threshold,
                                   select_split)
from weightboost.c45.tree import (ATTR, FIRST, NCHILD, SHARE, THRESH, NodeSample, TreeArrays,
                                  branch_of, grow_nodes, new_tree, partition, store_instances,
                                  unsigned)


@njit(cache=True, inline="always")
def live_attributes(implicit_zero, ptr, vals, slots, m, slot_attr, nominal_attrs, position,
                    live, candidates):
    """The numeric attributes still live at a node (two stored values more than 1e-5 apart, or
    in an attribute storing its non-zeros only, one non-zero and one zero), marked in
    ``position`` (live index, else -1) and in ``live`` (over the node's slots); returns their
    number and the node's candidate attributes (the nominal ones and the live numeric ones,
    ascending) as the front of ``candidates``. The node's entries are ``ptr``, ``vals`` and
    ``slots`` of its NodeSample; ``implicit_zero`` is the GrowView's, ``slot_attr`` the
    attribute of each numeric slot. (The arrays themselves, not the records: every array of a
    record passed to a kernel costs two atomic reference count updates.)"""
    position[:] = -1
    n_slots = slots.shape[0]
    n_live = 0
    for p in range(n_slots):
        lo, hi = ptr[p], ptr[p + 1]
        c = hi - lo
        if implicit_zero[slots[p]]:
            ok = c >= 1 and (c < m or vals[lo] + 1e-5 < vals[hi - 1])
        else:
            ok = c >= 2 and vals[lo] + 1e-5 < vals[hi - 1]
        live[p] = ok
        if ok:
            position[slot_attr[slots[p]]] = p
            n_live += 1
    # both the nominal attributes and the live numeric ones are ascending already (slots
    # follow the attributes' order): merged, not sorted
    q = 0
    k = 0
    n_nominal = nominal_attrs.shape[0]
    for p in range(n_slots):
        if live[p]:
            a = slot_attr[slots[p]]
            while k < n_nominal and nominal_attrs[k] < a:
                candidates[q] = nominal_attrs[k]
                q += 1
                k += 1
            candidates[q] = a
            q += 1
    while k < n_nominal:
        candidates[q] = nominal_attrs[k]
        q += 1
        k += 1
    return n_live, candidates[:q]


@njit(cache=True, inline="always")
def branches(XT, rows, a, is_nominal, loc, vals, lo, hi, implicit, threshold, branch):
    """``branch[i]``: the branch of every instance of the node (``rows``) for the split on
    attribute a, -1 where its value is missing: a nominal attribute's code in ``XT``, else the
    side of ``threshold`` of its stored entries ``vals[lo:hi]`` (of instances ``loc[lo:hi]``),
    the others having the value 0 if ``implicit``, else a missing value."""
    m = rows.shape[0]
    if is_nominal:
        for i in range(m):
            branch[i] = branch_of(XT[a, unsigned(rows[i])], True, 0.0)
        return
    unstored = (0 if 0.0 <= threshold else 1) if implicit else -1
    for i in range(m):
        branch[i] = unstored
    for k in range(lo, hi):
        branch[unsigned(loc[k])] = 0 if vals[k] <= threshold else 1


@njit(cache=True, inline="always")
def split_entries(sample, live, n_live, branch, local, n_branches, child_offsets,
                  offsets):
    """Each child's entries of the live attributes, in the parent's order: an entry of an
    instance whose split value is missing goes to every child that received the instance.
    Child b holds ``child_offsets[0, b + 1] - child_offsets[0, b]`` instances (``partition``).

    One pass. The child with the most instances (the first such) takes its entries in place:
    they are compacted to the front of the parent's own arrays (an entry is never written
    ahead of the one being read), which the parent no longer needs; on Reuters' chains of
    splits that child keeps almost every entry. The other children's entries go to one new
    buffer, child b's part from ``offsets[0, b]`` to its fill cursor ``offsets[1, b]``
    (``offsets``: the caller's (2, at least n_branches + 1), reused from node to node), sized by
    a bound: at most one entry per instance and live attribute, and at most all the parent's
    entries. (One buffer, not a list of per-child arrays: an element of a list costs a
    reference count update per access.) Returns each child's entry pointers (row b), the live
    attributes' slots, the buffer (locations, values), the number of entries the largest child
    kept and its index; ``child_entries`` gives a child's part."""
    ptr, loc, vals, slots = sample.ptr, sample.loc, sample.vals, sample.slots
    size = ptr[-1]
    big = 0
    for b in range(1, n_branches):
        if (child_offsets[0, b + 1] - child_offsets[0, b]
                > child_offsets[0, big + 1] - child_offsets[0, big]):
            big = b
    offsets[0, 0] = 0
    for b in range(n_branches):
        child_size = child_offsets[0, b + 1] - child_offsets[0, b]
        offsets[0, b + 1] = offsets[0, b] + (0 if b == big else min(size, n_live * child_size))
        offsets[1, b] = offsets[0, b]
    out_loc = np.empty(offsets[0, n_branches] + 1, dtype=np.int32)  # + the spare slot (below)
    out_vals = np.empty(offsets[0, n_branches] + 1)
    child_ptr = np.zeros((n_branches, n_live + 1), dtype=np.int64)
    live_slots = np.empty(n_live, dtype=np.int64)
    kept = 0  # entries of the largest child, at the front of loc and vals
    # A binary split whose smaller child holds a sixteenth of the instances or more: a branch
    # on each entry's child would mispredict often, so each entry is written at both children's
    # cursors and only its own child's advances (the other child's next slot is overwritten by
    # its next entry; its last, by the spare slot at the end of the buffer), up to the first
    # missing value, after which the loop below goes on. UCI trees 0.95-0.99 of the time, and
    # on Reuters, whose largest child keeps nearly every entry (the branch nearly always right,
    # this 8 % slower), the loop below does it all.
    big_size = child_offsets[0, big + 1] - child_offsets[0, big]
    branch_free = n_branches == 2 and 16 * (child_offsets[0, 2] - big_size) >= child_offsets[0, 2]
    other = 1 - big
    s = 0
    for p in range(slots.shape[0]):
        if not live[p]:
            continue
        live_slots[s] = slots[p]
        k, hi = ptr[p], ptr[p + 1]
        if branch_free:
            o = offsets[1, other]
            while k < hi:
                i = unsigned(loc[unsigned(k)])
                b = branch[i]
                if b < 0:
                    break  # a missing value: the loop below goes on from this entry
                position = local[i, unsigned(b)]
                value = vals[unsigned(k)]
                loc[unsigned(kept)] = position  # kept <= k: loc[k] is read already
                vals[unsigned(kept)] = value
                out_loc[unsigned(o)] = position
                out_vals[unsigned(o)] = value
                kept += 1 if b == big else 0
                o += 0 if b == big else 1
                k += 1
            offsets[1, other] = o
        for k in range(unsigned(k), unsigned(hi)):
            i = unsigned(loc[k])
            value = vals[k]
            b = branch[i]
            if b == big:
                loc[unsigned(kept)] = local[i, unsigned(b)]
                vals[unsigned(kept)] = value
                kept += 1
            elif b >= 0:
                f = offsets[1, unsigned(b)]
                out_loc[unsigned(f)] = local[i, unsigned(b)]
                out_vals[unsigned(f)] = value
                offsets[1, unsigned(b)] = f + 1
            else:
                for b in range(n_branches):
                    if local[i, b] < 0:
                        continue
                    if b == big:
                        loc[kept] = local[i, b]
                        vals[kept] = value
                        kept += 1
                    else:
                        out_loc[offsets[1, b]] = local[i, b]
                        out_vals[offsets[1, b]] = value
                        offsets[1, b] += 1
        s += 1
        for b in range(n_branches):
            child_ptr[b, s] = kept if b == big else offsets[1, b] - offsets[0, b]
    return child_ptr, live_slots, out_loc, out_vals, kept, big


@njit(cache=True, inline="always")
def child_entries(b, big, kept, loc, vals, out_loc, out_vals, offsets):
    """Child b's entries (locations, values) after ``split_entries``: the front of the parent's
    arrays for the largest child, else its part of the buffer. A part filled to less than half
    is copied to its size, so that pending nodes hold at most about twice their entries."""
    if b == big:
        lo, hi, capacity, part_loc, part_vals = 0, kept, loc.shape[0], loc, vals
    else:
        lo, hi = offsets[0, b], offsets[1, b]
        capacity = offsets[0, b + 1] - lo
        part_loc, part_vals = out_loc, out_vals
    if 2 * (hi - lo) < capacity:
        return part_loc[lo:hi].copy(), part_vals[lo:hi].copy()
    return part_loc[lo:hi], part_vals[lo:hi]


@njit(cache=True)
def grow(view, y, n_classes, w_root, settings):
    """Grow the unpruned tree on ``view`` (a GrowView) with labels ``y`` (0..n_classes-1) and
    weights ``w_root``; returns its TreeArrays.

    A node is *opened* (its class weights, instances, whether it is a leaf) when its parent
    splits, with its siblings; only a node that may split is pushed with its NodeSample. Most
    nodes of a tree on nominal data are leaves (German credit: 357 of 481), and a NodeSample
    costs its child entries' copies and about 17 reference count updates. The root is opened
    the same way, as the one child of the split that precedes the loop."""
    n = view.XT.shape[1]
    n_attributes = view.XT.shape[0]
    node_int, node_float, empty, dist, inst, store_rows, store_w = new_tree(n_classes, n)
    used = np.int64(0)  # not the literal 0: numba would compile store_instances for it too
    n_slots = view.ptr.shape[0] - 1
    scratch = make_scratch(n_attributes, n_classes, n)
    position = np.empty(n_attributes, dtype=np.int64)
    slot_attr = np.empty(n_slots, dtype=np.int64)
    for a in range(n_attributes):
        if view.num_slot[a] >= 0:
            slot_attr[view.num_slot[a]] = a
    nominal_attrs = np.flatnonzero(view.nominal).astype(np.int64)
    nominal_buffers = make_nominal_buffers(view.XT, nominal_attrs, view.n_values, n_classes)
    # one node's buffers, reused at every node (a node holds each row at most once, so at
    # most n instances)
    max_branches = max(2, view.n_values.max() if n_attributes else 2)
    local_y_buffer = np.empty(n, dtype=np.int64)
    branch_buffer = np.empty(n, dtype=np.int64)
    local_buffer = np.empty(n * max_branches, dtype=np.int32)
    live_buffer = np.empty(n_slots, dtype=np.bool_)
    candidate_buffer = np.empty(n_attributes, dtype=np.int64)
    known_weight = np.empty(max_branches)  # each branch's known weight
    share = np.empty(max_branches)  # and share
    child_offsets = np.empty((2, max_branches + 1), dtype=np.int64)   # see partition
    entry_offsets = np.empty((2, max_branches + 1), dtype=np.int64)   # see split_entries
    # the split before the loop: one branch, the root, which keeps every entry in place
    n_nodes, first, n_branches, big = 1, 0, 1, 0
    child_rows, child_w = np.arange(n).astype(np.int32), w_root.copy()
    child_offsets[0, 0], child_offsets[0, 1] = 0, n
    parent_loc, parent_vals = view.rows.copy(), view.vals.copy()
    kept = parent_loc.shape[0]
    child_ptr = view.ptr.copy().reshape((1, n_slots + 1))
    live_slots = np.arange(n_slots).astype(np.int64)
    out_loc, out_vals = parent_loc[:0], parent_vals[:0]
    stack = [(0, NodeSample(child_rows, child_w, child_ptr[0], parent_loc, parent_vals,
                            live_slots))]
    stack.pop()  # empty: numba types a list by the element it is made with
    while True:
        for b in range(n_branches - 1, -1, -1):
            # open child b: its class weights and instances (a leaf until it is split). The
            # class weights are summed here, not in an inlined function: ``dist``, reassigned
            # when the node arrays grow, passed to one cost 6 % more of the grower's updates.
            # (A new node's ``dist`` row is zero; pruning sums a node's class weights in the
            # same order.)
            node = first + b
            begin, end = child_offsets[0, b], child_offsets[0, b + 1]
            for i in range(begin, end):
                dist[node, y[unsigned(child_rows[unsigned(i)])]] += child_w[unsigned(i)]
            total, most = row_total_and_max(dist, node)
            empty[node] = abs(total) < SMALL
            store_rows, store_w, start, used = store_instances(store_rows, store_w, used,
                                                               child_rows, child_w, begin, end)
            inst[node, 0] = start
            inst[node, 1] = end - begin
            node_int[node, NCHILD] = 0
            if total - 2.0 * settings.min_obj < -SMALL or abs(total - most) < SMALL:
                continue  # a leaf
            child_loc, child_vals = child_entries(b, big, kept, parent_loc, parent_vals,
                                                  out_loc, out_vals, entry_offsets)
            stack.append((node, NodeSample(child_rows[begin:end], child_w[begin:end],
                                           child_ptr[b], child_loc, child_vals, live_slots)))
        if len(stack) == 0:
            break
        n_branches = 0  # unless the node splits
        node, sample = stack.pop()
        m = sample.rows.shape[0]
        rows, w = sample.rows, sample.w
        totals = dist[node]
        local_y = local_y_buffer  # the instances' classes, for this node only (the first m)
        for i in range(m):
            local_y[i] = y[unsigned(rows[i])]
        live = live_buffer
        n_live, candidates = live_attributes(view.implicit_zero, sample.ptr, sample.vals,
                                             sample.slots, m, slot_attr, nominal_attrs,
                                             position, live, candidate_buffer)
        a, cut = select_split(view, sample, local_y, totals, candidates, position, settings,
                              scratch, nominal_buffers)
        if a < 0:
            continue
        lo = hi = 0
        implicit = False
        if view.nominal[a]:
            n_branches = view.n_values[a]
            threshold = 0.0
        else:
            n_branches = 2
            s = view.num_slot[a]
            implicit = view.implicit_zero[s]
            stored = view.vals[view.ptr[s]:view.ptr[s + 1]]
            threshold = move_threshold(cut, stored, implicit and stored.shape[0] < n)
            lo, hi = sample.ptr[position[a]], sample.ptr[position[a] + 1]
        branch = branch_buffer
        branches(view.XT, rows, a, view.nominal[a], sample.loc, sample.vals, lo, hi, implicit,
                 threshold, branch)
        for b in range(n_branches):
            known_weight[b] = 0.0
        for i in range(m):
            if branch[i] >= 0:
                known_weight[branch[i]] += w[i]
        known = 0.0
        for b in range(n_branches):
            known += known_weight[b]
        for b in range(n_branches):
            share[b] = known_weight[b] / known
        local = local_buffer[:m * n_branches].reshape((m, n_branches))
        child_rows, child_w = partition(rows, w, branch, share, n_branches, local,
                                        child_offsets)
        child_ptr, live_slots, out_loc, out_vals, kept, big = split_entries(
            sample, live, n_live, branch, local, n_branches, child_offsets, entry_offsets)
        parent_loc, parent_vals = sample.loc, sample.vals
        first = n_nodes
        n_nodes += n_branches
        node_int, node_float, empty, dist, inst = grow_nodes(node_int, node_float, empty, dist,
                                                             inst, n_nodes)
        node_int[node, ATTR] = a
        node_int[node, FIRST] = first
        node_int[node, NCHILD] = n_branches
        node_float[node, THRESH] = threshold
        for b in range(n_branches):
            node_float[first + b, SHARE] = share[b]
    return TreeArrays(node_int[:n_nodes], node_float[:n_nodes], empty[:n_nodes], dist[:n_nodes],
                      inst[:n_nodes], store_rows[:used], store_w[:used])
