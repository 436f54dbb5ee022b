"""Split selection of C4.5 release 8 (Weka's C45Split and C45ModelSelection).

At a node holding instances ``rows`` with weights ``w`` (fractional instances included):

* a **numeric** attribute is scanned along its sorted order (docs/algorithms.md §5.3): minSplit =
  0.1·K/n_classes clipped to [minNumObj, 25]; no split if fewer than 2·minSplit instances
  (a count, not a weight) have a known value; candidate cuts between values more than 1e-5
  apart where both sides weigh at least minSplit; the first cut of largest info gain wins;
  then the MDL correction gain -= log2(tries)/W, and a result <= 0 is invalid;
* a **nominal** attribute splits multiway on every declared value; valid if at least two
  branches weigh minNumObj or more (§5.2);
* the node's split is the valid attribute of largest gain ratio among those whose gain is at
  least the average gain less 1e-3 (§5.4); the first attribute wins ties.

Each evaluation returns (valid, gain, gain ratio, cut value); the cut value of a numeric split
is the provisional midpoint, moved later by ``move_threshold``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from weightboost.c45.criteria import SMALL, gain_from_entropies, gain_ratio, lnfunc, old_ent

LOG2 = math.log(2.0)


@njit(cache=True, inline="always")
def min_split_weight(known, n_classes, min_obj):
    """Release 8's minimum weight on each side of a numeric cut: 0.1·K/classes in
    [minNumObj, 25]."""
    value = 0.1 * known / n_classes
    if value - min_obj < SMALL:
        return min_obj
    if value - 25.0 > SMALL:
        return 25.0
    return value


@njit(cache=True, inline="always")
def two_way_gain(left, right, left_weight, right_weight, default_ent, known, node_weight):
    """Info gain of a binary cut with these class weights on each side."""
    acc = 0.0
    for j in range(left.shape[0]):
        acc += lnfunc(left[j]) + lnfunc(right[j])
    after = (lnfunc(left_weight) + lnfunc(right_weight) - acc) / LOG2
    return gain_from_entropies(default_ent, after, known, node_weight)


@njit(cache=True, inline="always")
def finish_numeric(best_gain, tries, node_weight, known, use_mdl, low, high, left_weight):
    """MDL correction, the midpoint cut and the gain ratio of the best numeric cut found
    between the values ``low`` and ``high``; returns (valid, gain, gain ratio, cut)."""
    if tries == 0:
        return False, 0.0, 0.0, 0.0
    if use_mdl:
        best_gain -= math.log(tries) / LOG2 / node_weight
    if best_gain < SMALL:
        return False, 0.0, 0.0, 0.0
    cut = (low + high) / 2.0
    if cut == high:
        cut = low
    info = (lnfunc(node_weight) - lnfunc(node_weight - known) - lnfunc(left_weight)
            - lnfunc(known - left_weight)) / LOG2
    if known <= SMALL or abs(info) < SMALL:
        return True, best_gain, 0.0, cut
    return True, best_gain, best_gain / (info / node_weight), cut


@njit(cache=True)
def numeric_split(values, order, local_y, w, n_known, n_classes, node_totals, node_weight,
                  min_obj, use_mdl, left, right):
    """Evaluate a numeric attribute at a node in one pass over its sorted known values.

    ``values[:n_known]`` are the node's known values in ascending order and ``order`` the
    matching instance indices (into ``local_y`` and ``w``); ``left``/``right`` are scratch
    buffers of length n_classes; ``node_totals`` the node's class weights."""
    left[:] = 0.0
    if n_known == order.shape[0]:
        right[:] = node_totals
    else:
        right[:] = 0.0
        for k in range(n_known):
            i = order[k]
            right[local_y[i]] += w[i]
    known = 0.0
    for j in range(n_classes):
        known += right[j]
    min_split = min_split_weight(known, n_classes, min_obj)
    if n_known - 2.0 * min_split < -SMALL:
        return False, 0.0, 0.0, 0.0
    default_ent = old_ent(right)
    # entropy terms of the right side that do not change while scanning
    best_gain = 0.0
    split_index = -1
    best_left_weight = 0.0
    tries = 0
    left_weight = 0.0
    for k in range(n_known - 1):
        i = order[k]
        c = local_y[i]
        left[c] += w[i]
        right[c] -= w[i]
        left_weight += w[i]
        if values[k] + 1e-5 < values[k + 1]:
            right_weight = known - left_weight
            if left_weight - min_split > -SMALL and right_weight - min_split > -SMALL:
                gain = two_way_gain(left, right, left_weight, right_weight, default_ent, known,
                                    node_weight)
                if gain - best_gain > SMALL:
                    best_gain = gain
                    split_index = k
                    best_left_weight = left_weight
                tries += 1
    if split_index < 0:  # no cut gained more than 1e-6: invalid whatever MDL says
        return False, 0.0, 0.0, 0.0
    return finish_numeric(best_gain, tries, node_weight, known, use_mdl, values[split_index],
                          values[split_index + 1], best_left_weight)


@njit(cache=True)
def nominal_split(column, n_values, local_y, n_classes, rows, w, node_weight, min_obj, scratch):
    """Evaluate the multiway split on a nominal attribute (codes 0..n_values-1, NaN missing).
    ``scratch``: a buffer of at least (n_values, n_classes)."""
    bags = scratch[:n_values]
    bags[:] = 0.0
    for i in range(rows.shape[0]):
        value = column[rows[i]]
        if not math.isnan(value):
            bags[int(value), local_y[i]] += w[i]
    bag_totals = bags.sum(axis=1)
    heavy = 0
    for b in range(n_values):
        if bag_totals[b] - min_obj > -SMALL:
            heavy += 1
    if heavy < 2:
        return False, 0.0, 0.0, 0.0
    class_totals = bags.sum(axis=0)
    known = class_totals.sum()
    acc = 0.0
    for b in range(n_values):
        for j in range(n_classes):
            acc += lnfunc(bags[b, j])
        acc -= lnfunc(bag_totals[b])
    gain = gain_from_entropies(old_ent(class_totals), -acc / LOG2, known, node_weight)
    return True, gain, gain_ratio(gain, bag_totals, node_weight), 0.0


@njit(cache=True)
def select_split(XT, local_y, n_classes, nominal, n_values, rows, w, orders, values,
                 n_known, position, node_totals, min_obj, use_mdl, n_all, scratch):
    """Choose the node's split; returns (attribute or -1, cut value).

    ``XT`` is the training matrix transposed (attributes × rows). ``position[a]`` is the row of
    numeric attribute a in the node's ``orders``/``values``/``n_known``, or -1 if the attribute
    is constant at this node (no cut possible here or below) or nominal."""
    n_attributes = XT.shape[0]
    node_weight = node_totals.sum()
    many_valued_only = True
    for a in range(n_attributes):
        if not nominal[a] or n_values[a] - 0.3 * n_all < -SMALL:
            many_valued_only = False
            break
    valid, gains, ratios, cuts, left, right, bags = scratch
    average = 0.0
    counted = 0
    for a in range(n_attributes):
        if nominal[a]:
            ok, g, r, c = nominal_split(XT[a], n_values[a], local_y, n_classes, rows, w,
                                        node_weight, min_obj, bags)
        elif position[a] >= 0:
            p = position[a]
            ok, g, r, c = numeric_split(values[p], orders[p], local_y, w, n_known[p],
                                        n_classes, node_totals, node_weight, min_obj, use_mdl,
                                        left, right)
        else:
            ok, g, r, c = False, 0.0, 0.0, 0.0
        valid[a] = ok
        gains[a] = g
        ratios[a] = r
        cuts[a] = c
        if ok and (not nominal[a] or many_valued_only or n_values[a] - 0.3 * n_all < -SMALL):
            average += g
            counted += 1
    if counted == 0:
        return -1, 0.0
    average /= counted
    best = -1
    best_ratio = 0.0
    for a in range(n_attributes):
        if valid[a] and gains[a] >= average - 1e-3 and ratios[a] - best_ratio > SMALL:
            best = a
            best_ratio = ratios[a]
    if abs(best_ratio) < SMALL:
        return -1, 0.0
    return best, cuts[best]


@njit(cache=True)
def make_scratch(n_attributes, n_classes, max_values):
    """Buffers for ``select_split``, allocated once per tree."""
    return (np.zeros(n_attributes, dtype=np.bool_), np.zeros(n_attributes),
            np.zeros(n_attributes), np.zeros(n_attributes), np.empty(n_classes),
            np.empty(n_classes), np.empty((max(max_values, 1), n_classes)))


@njit(cache=True)
def move_threshold(cut, all_sorted_values):
    """Release 8 moves the cut to the largest training value <= cut (docs/algorithms.md §5.3)."""
    k = np.searchsorted(all_sorted_values, cut + SMALL, side="left") - 1
    if k < 0:
        return cut
    return all_sorted_values[k]
