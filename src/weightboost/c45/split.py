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
def consider_cut(value, following, left, right, left_weight, known, min_split, default_ent,
                 node_weight, best):
    """A candidate cut between two sorted values more than 1e-5 apart: if it leaves at least
    minSplit on each side, it is counted in ``tries`` and kept if its gain beats the best by
    more than 1e-6 (the first of equal cuts wins). ``best`` = (gain, low value, high value,
    left weight, found, tries)."""
    right_weight = known - left_weight
    if left_weight - min_split > -SMALL and right_weight - min_split > -SMALL:
        best_gain, low, high, best_left, found, tries = best
        gain = two_way_gain(left, right, left_weight, right_weight, default_ent, known,
                            node_weight)
        if gain - best_gain > SMALL:
            return gain, value, following, left_weight, True, tries + 1
        return best_gain, low, high, best_left, found, tries + 1
    return best


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
def numeric_split(vals, loc, local_y, w, m, n_classes, node_totals, node_weight, settings,
                  implicit_zero, buffers):
    """Evaluate a numeric attribute at a node in one pass over its sorted stored entries.

    ``vals`` are the entries' values in ascending order and ``loc`` their instances (indices
    into ``local_y`` and ``w``; the node has ``m`` instances). The instances without an entry
    have a missing value, or with ``implicit_zero`` the value 0: in the sorted order the zeros
    form one block of equal values, which the scan crosses in one step (its class weights are
    the node's less those of the entries), so that the cost is that of the entries.
    ``buffers``: (left, right, entry_totals), each of length n_classes."""
    left, right, entry_totals = buffers
    c = vals.shape[0]
    if implicit_zero:
        n_zero = m - c
        entry_totals[:] = 0.0
        for k in range(c):
            entry_totals[local_y[loc[k]]] += w[loc[k]]
        right[:] = node_totals
        known = node_weight
        n_known = m
    else:
        n_zero = 0
        if c == m:
            right[:] = node_totals
        else:
            right[:] = 0.0
            for k in range(c):
                right[local_y[loc[k]]] += w[loc[k]]
        known = 0.0
        for j in range(n_classes):
            known += right[j]
        n_known = c
    min_split = min_split_weight(known, n_classes, settings.min_obj)
    if n_known - 2.0 * min_split < -SMALL:
        return False, 0.0, 0.0, 0.0
    default_ent = old_ent(right)
    left[:] = 0.0
    left_weight = 0.0
    best = (0.0, 0.0, 0.0, 0.0, False, 0)
    if n_zero == 0:
        # every instance has an entry: move entry k left, then look at the gap to entry k + 1
        for k in range(c - 1):
            i = loc[k]
            left[local_y[i]] += w[i]
            right[local_y[i]] -= w[i]
            left_weight += w[i]
            if vals[k] + 1e-5 < vals[k + 1]:
                best = consider_cut(vals[k], vals[k + 1], left, right, left_weight, known,
                                    min_split, default_ent, node_weight, best)
    else:
        # elements in sorted order: entries below 0, the zero block, the entries above 0
        negatives = 0
        while negatives < c and vals[negatives] < 0.0:
            negatives += 1
        for e in range(c):
            # move element e to the left side, then look at the gap to element e + 1
            if e == negatives:
                value = 0.0
                for j in range(n_classes):
                    moved = node_totals[j] - entry_totals[j]
                    left[j] += moved
                    right[j] -= moved
                    left_weight += moved
            else:
                k = e if e < negatives else e - 1
                i = loc[k]
                value = vals[k]
                left[local_y[i]] += w[i]
                right[local_y[i]] -= w[i]
                left_weight += w[i]
            following = 0.0 if e + 1 == negatives else vals[e + 1 if e + 1 < negatives else e]
            if value + 1e-5 < following:
                best = consider_cut(value, following, left, right, left_weight, known,
                                    min_split, default_ent, node_weight, best)
    best_gain, best_low, best_high, best_left_weight, found, tries = best
    if not found:  # no cut gained more than 1e-6: invalid whatever MDL says
        return False, 0.0, 0.0, 0.0
    return finish_numeric(best_gain, tries, node_weight, known, settings.use_mdl, best_low,
                          best_high, best_left_weight)


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
def select_split(view, sample, local_y, node_totals, candidates, position, settings, scratch):
    """Choose the node's split (C45ModelSelection); returns (attribute or -1, cut value).

    ``candidates`` are the attributes that may split here, ascending: the nominal ones and the
    numeric ones still live (the others cannot give a valid split); ``sample`` holds the node's
    instances and the sorted entries of its live numeric attributes, attribute a's at live
    index ``position[a]``."""
    n_all = view.XT.shape[1]
    nominal, n_values = view.nominal, view.n_values
    m = sample.rows.shape[0]
    node_weight = node_totals.sum()
    many_valued_only = True
    for a in range(nominal.shape[0]):
        if not nominal[a] or n_values[a] - 0.3 * n_all < -SMALL:
            many_valued_only = False
            break
    valid, gains, ratios, cuts, buffers, bags = scratch
    average = 0.0
    counted = 0
    for q in range(candidates.shape[0]):
        a = candidates[q]
        if nominal[a]:
            ok, g, r, c = nominal_split(view.XT[a], n_values[a], local_y, node_totals.shape[0],
                                        sample.rows, sample.w, node_weight, settings.min_obj,
                                        bags)
        else:
            p = position[a]
            lo, hi = sample.ptr[p], sample.ptr[p + 1]
            ok, g, r, c = numeric_split(sample.vals[lo:hi], sample.loc[lo:hi], local_y,
                                        sample.w, m, node_totals.shape[0], node_totals,
                                        node_weight, settings,
                                        view.implicit_zero[view.num_slot[a]], buffers)
        valid[q] = ok
        gains[q] = g
        ratios[q] = r
        cuts[q] = c
        if ok and (not nominal[a] or many_valued_only or n_values[a] - 0.3 * n_all < -SMALL):
            average += g
            counted += 1
    if counted == 0:
        return -1, 0.0
    average /= counted
    best = -1
    best_ratio = 0.0
    for q in range(candidates.shape[0]):
        if valid[q] and gains[q] >= average - 1e-3 and ratios[q] - best_ratio > SMALL:
            best = q
            best_ratio = ratios[q]
    if abs(best_ratio) < SMALL:
        return -1, 0.0
    return candidates[best], cuts[best]


@njit(cache=True)
def make_scratch(n_attributes, n_classes, max_values):
    """Buffers for ``select_split``, allocated once per tree."""
    return (np.zeros(n_attributes, dtype=np.bool_), np.zeros(n_attributes),
            np.zeros(n_attributes), np.zeros(n_attributes),
            (np.empty(n_classes), np.empty(n_classes), np.empty(n_classes)),
            np.empty((max(max_values, 1), n_classes)))


@njit(cache=True)
def move_threshold(cut, stored, zero_unstored):
    """Release 8 moves the cut to the largest training value <= cut (docs/algorithms.md §5.3):
    the largest of the attribute's sorted stored values, and 0 if ``zero_unstored`` (some
    training instance has the value 0 but no entry), within 1e-6."""
    k = np.searchsorted(stored, cut + SMALL, side="left") - 1
    if zero_unstored and 0.0 < cut + SMALL and (k < 0 or stored[k] < 0.0):
        return 0.0
    if k < 0:
        return cut
    return stored[k]
