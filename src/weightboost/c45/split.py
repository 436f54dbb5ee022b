"""Split selection of C4.5 release 8 (Weka's C45Split and C45ModelSelection).

At a node holding instances ``rows`` with weights ``w`` (fractional instances included):

* a **numeric** attribute is scanned along its sorted order (docs/algorithms.md §5.3): minSplit =
  0.1·K/n_classes clipped to [minNumObj, 25]; no split if fewer than 2·minSplit instances
  (a count, not a weight: a row, or a drawn row's copies, see ``GrowSettings.draw_size``) have
  a known value; candidate cuts between values more than 1e-5
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

from weightboost.c45.criteria import (SMALL, gain_from_entropies, gain_ratio, lnfunc, new_ent,
                                      old_ent)
from weightboost.c45.fastlog import LN_ERROR, approx_lnfunc
from weightboost.c45.tree import branch_of, unsigned

LOG2 = math.log(2.0)
# A cut's approximate gain (``numeric_splits``, pass 2) differs from the raw gain by at most
# 2·LN_ERROR/ln 2 = 1.4e-8 from its logarithms (the x ln x terms of a cut weigh 2K in all, and
# the gain divides by W >= K), plus the rounding of two sums of a few terms (a relative 1e-15
# of K·ln K, divided by K: below 1e-12 for any node under 10^300 weight). The margin is seven
# times that, and a tenth of Weka's 1e-6.
GAIN_MARGIN = 1e-7
INV_LOG2 = 1.0 / LOG2
# The rows of ``found`` (``make_scratch``), each candidate attribute's evaluation at its column:
# whether its split is valid (1.0 or 0.0), its gain, gain ratio and cut value. One array, not
# four: numba counts references to each array written in the loops over the candidates, and a
# Pima tree made 10 % fewer reference count updates (bench/c45_refcounts.py, since removed:
# docs/performance.md, "Finished investigations").
VALID, GAIN, RATIO, CUT = 0, 1, 2, 3
assert GAIN_MARGIN > 5 * 2 * LN_ERROR / LOG2


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
def is_cut(value, following, left_weight, known, min_split):
    """J48's candidate cut after an element of value ``value``: the next element's value is
    more than 1e-5 above it and each side weighs at least minSplit. (``&``, not ``and``: no
    branch, as ties make the outcome unpredictable.)"""
    return ((value + 1e-5 < following) & (left_weight - min_split > -SMALL)
            & ((known - left_weight) - min_split > -SMALL))


@njit(cache=True)
def approx_gains(states, n_cuts, n_classes, known, default_ent, scale):
    """The approximate gain of each of the ``n_cuts`` cuts recorded in ``states``
    (``numeric_splits``), into its last row: with ``fastlog.approx_lnfunc`` and
    multiplications for the divisions, ``scale`` = (1 - unknown rate)/K, within
    ``GAIN_MARGIN`` of the raw gain (the gain before a numerator within 1e-6 of zero is set to
    0). Loops without a branch over the cuts, a class at a time, which the compiler turns into
    vector instructions (over whole rows: in blocks of 16 cuts they took twice as long, and
    one loop over the cuts with the classes inside, not vectorized, three times). With two
    classes one loop computes a cut's six logarithms (the same sums), without passes over the
    result row: 2-4 % faster trees."""
    weight_row, approx_row = 2 * n_classes, 2 * n_classes + 1
    if n_classes == 2:  # one pass: the six logarithms of a cut in one vector loop
        for cut in range(n_cuts):
            left = states[4, cut]
            classes = ((approx_lnfunc(states[0, cut]) + approx_lnfunc(states[2, cut]))
                       + (approx_lnfunc(states[1, cut]) + approx_lnfunc(states[3, cut])))
            after = (approx_lnfunc(left) + approx_lnfunc(known - left) - classes) * INV_LOG2
            states[5, cut] = scale * (default_ent - after)
        return
    for cut in range(n_cuts):
        states[approx_row, cut] = 0.0
    for j in range(n_classes):
        for cut in range(n_cuts):
            states[approx_row, cut] += (approx_lnfunc(states[j, cut])
                                        + approx_lnfunc(states[n_classes + j, cut]))
    for cut in range(n_cuts):
        left = states[weight_row, cut]
        after = (approx_lnfunc(left) + approx_lnfunc(known - left)
                 - states[approx_row, cut]) * INV_LOG2
        states[approx_row, cut] = scale * (default_ent - after)


@njit(cache=True, inline="always")
def exact_gain(states, c, n_classes, default_ent, known, node_weight):
    """J48's info gain of recorded cut c (``numeric_splits``' ``states``), with the C
    library's log, each class's two terms added in class order."""
    acc = 0.0
    for j in range(n_classes):
        acc += lnfunc(states[j, c]) + lnfunc(states[n_classes + j, c])
    left = states[2 * n_classes, c]
    after = (lnfunc(left) + lnfunc(known - left) - acc) / LOG2
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


@njit(cache=True, inline="always")
def numeric_splits(vals, loc, ptr, candidates, position, nominal, num_slot, implicit_zero,
                   local_y, w, m, node_totals, node_weight, node_ent, settings, buffers, found):
    """Evaluate every numeric attribute among a node's ``candidates``, each in three passes
    over its sorted stored entries; candidate q's (valid, gain, gain ratio, cut value) go to
    ``found`` (rows VALID, GAIN, RATIO, CUT) at column q (nominal candidates are left alone).

    Numeric attribute a's entries are ``vals[lo:hi]``, their values in ascending order, and
    ``loc[lo:hi]``, their instances (indices into ``local_y`` and ``w``; the node has ``m``
    instances), with lo, hi = ``ptr[position[a]]``, ``ptr[position[a] + 1]``. The instances
    without an entry have a missing value, or if its slot (``num_slot[a]``) has
    ``implicit_zero``, the value 0: in the sorted order the zeros form one block of equal
    values, which the scan crosses in one step (its class weights are the node's less those of
    the entries), so that the cost is that of the entries.

    The result is that of J48's scan (docs/algorithms.md §5.3), which moves the elements left
    one by one and, at every candidate cut, computes the gain and keeps it if it beats the best
    so far by more than 1e-6. Here (§5.10):

    1. one pass moves the elements and records every candidate cut's state (its class weights
       on both sides and its left weight, the same floats as J48's running sums) in
       ``states``, and its position in ``positions`` (with two classes without a branch:
       every element's state is written, and kept only if a cut follows it);
    2. ``approx_gains`` computes each recorded cut's gain with ``fastlog.approx_lnfunc``,
       within ``GAIN_MARGIN`` of the raw gain;
    3. one pass follows J48's chain of improvements on these approximations: a cut whose
       interval cannot beat the best's (nor its gain, then) by more than 1e-6 is not one; a cut
       whose interval beats it for certain is the new best. Only where the intervals leave it
       open are both gains computed with the C library's log, and at the end the final best's.

    An attribute storing its non-zeros only whose entries weigh less than minSplit has no
    valid cut (one side of every cut holds entries only) and is skipped without the scan.

    ``node_ent`` is ``old_ent(node_totals)``, the entropy before the cut when every instance
    of the node has a known value (computed once per node, not per attribute).

    ``buffers`` (``make_scratch``): ``sides`` (3, n_classes), the class weights left of the
    cut, right of it and of the entries; ``states`` (2·n_classes + 2, at least m): per recorded
    cut, its class weights left (rows 0 to n_classes - 1) and right (the next n_classes rows),
    its left weight and its approximate gain; ``positions`` (at least m): per recorded cut, the
    entry after which it lies, or -1 after the zero block. All of a node's attributes are
    evaluated in one loop, and the function is inlined into ``select_split`` (as
    ``nominal_splits``): a compiled call costs two atomic reference count updates per array
    argument, and a Reuters tree evaluates 183 k (node, attribute) pairs."""
    sides, states, positions = buffers
    n_classes = node_totals.shape[0]
    weight_row, approx_row = 2 * n_classes, 2 * n_classes + 1
    # an attribute storing its non-zeros only has no valid cut if its entries weigh less than
    # minSplit (see below); c entries weigh at most c times the heaviest instance
    heaviest = 0.0
    for i in range(m):
        heaviest = max(heaviest, w[i])
    implicit_min_split = min_split_weight(node_weight, n_classes, settings.min_obj)
    # one loop, not a call per attribute: arrays passed to a call (even an inlined one) are
    # reference counted at every call
    for q in range(candidates.shape[0]):
        a = candidates[q]
        if nominal[a]:
            continue
        lo, hi = ptr[position[a]], ptr[position[a] + 1]
        zeros_implicit = implicit_zero[num_slot[a]]
        found[VALID, q], found[GAIN, q], found[RATIO, q], found[CUT, q] = 0.0, 0.0, 0.0, 0.0
        c = hi - lo
        stored_weight = 0.0
        if zeros_implicit and c * heaviest - implicit_min_split < -2.0 * SMALL:
            continue
        if zeros_implicit or c < m:
            # the class weights of the entries (row 2 of ``sides`` if the zeros are implicit,
            # else row 1, the known values), each class's summed in the entries' order. Written
            # here, not as an inlined function: its four array arguments cost eight reference
            # count updates per attribute. With two classes both sums stay in registers and
            # each entry adds its weight to one and 0.0 to the other (x + 0.0 is x for the
            # non-negative sums), without a branch on its class.
            row = 2 if zeros_implicit else 1
            if n_classes == 2:
                first, second = 0.0, 0.0
                for k in range(lo, hi):
                    i = unsigned(loc[unsigned(k)])
                    weight = w[i]
                    is_first = local_y[i] == 0
                    first += weight if is_first else 0.0
                    second += 0.0 if is_first else weight
                sides[row, 0], sides[row, 1] = first, second
            else:
                for j in range(n_classes):
                    sides[row, j] = 0.0
                for k in range(lo, hi):
                    i = unsigned(loc[unsigned(k)])
                    sides[row, local_y[i]] += w[i]
        if zeros_implicit:
            n_zero = m - c
            for j in range(n_classes):
                sides[1, j] = node_totals[j]
                stored_weight += sides[2, j]
            known = node_weight
            n_known = m
            all_known = True
        else:
            n_zero = 0
            if c == m:
                for j in range(n_classes):
                    sides[1, j] = node_totals[j]
            known = 0.0
            for j in range(n_classes):
                known += sides[1, j]
            n_known = c
            all_known = c == m
        if settings.draw_size > 0.0:  # each weight counts a row's copies: instances, not rows
            n_known = known
        min_split = min_split_weight(known, n_classes, settings.min_obj)
        if n_known - 2.0 * min_split < -SMALL:
            continue
        if zeros_implicit and stored_weight - min_split < -2.0 * SMALL:
            # every cut has stored entries only on one side (the zero block is on the other),
            # lighter than minSplit: no cut is valid (the scan would find none; the margin of
            # 2·SMALL covers the rounding of its running sums)
            continue
        default_ent = node_ent if all_known else old_ent(sides[1])
        for j in range(n_classes):
            sides[0, j] = 0.0
        left_weight = 0.0
        # 1. Move the elements in sorted order: the entries, with the zero block (if any)
        # before entry ``zero_at`` (the first non-negative one). The last element is not moved
        # (no cut follows it). A cut's state is recorded at the next free column of ``states``
        # (with two classes every moved element's state is written there, and the column
        # taken only if a cut follows it)
        zero_at = hi + 1   # no entry is followed by the zero block
        if n_zero > 0:
            zero_at = lo
            while zero_at < hi and vals[zero_at] < 0.0:
                zero_at += 1
        n_cuts = 0
        for part in range(2):
            if part == 0:   # the entries before the zero block, or all but the last
                k_from, k_to = lo, (zero_at if n_zero > 0 else hi - 1)
            else:           # the zero block, unless it is the last element, and the entries
                if n_zero == 0 or zero_at == hi:   # after it but the last
                    break
                for j in range(n_classes):
                    moved = node_totals[j] - sides[2, j]
                    sides[0, j] += moved
                    sides[1, j] -= moved
                    left_weight += moved
                if is_cut(0.0, vals[zero_at], left_weight, known, min_split):
                    for j in range(n_classes):
                        states[j, n_cuts] = sides[0, j]
                        states[n_classes + j, n_cuts] = sides[1, j]
                    states[weight_row, n_cuts] = left_weight
                    positions[n_cuts] = -1
                    n_cuts += 1
                k_from, k_to = zero_at, hi - 1
            if n_classes == 2:
                # the class weights in registers, each element adding its weight to one class's
                # and 0.0 to the other's (which leaves them as they are), without a branch
                left0, right0 = sides[0, 0], sides[1, 0]
                left1, right1 = sides[0, 1], sides[1, 1]
                for k in range(k_from, k_to):
                    i = unsigned(loc[unsigned(k)])
                    weight = w[i]
                    is_first = local_y[i] == 0
                    left0 += weight if is_first else 0.0
                    right0 -= weight if is_first else 0.0
                    left1 += 0.0 if is_first else weight
                    right1 -= 0.0 if is_first else weight
                    left_weight += weight
                    following = 0.0 if k + 1 == zero_at else vals[unsigned(k + 1)]
                    at = unsigned(n_cuts)
                    states[0, at], states[1, at] = left0, left1
                    states[2, at], states[3, at] = right0, right1
                    states[4, at] = left_weight
                    positions[at] = k
                    n_cuts += 1 if is_cut(vals[unsigned(k)], following, left_weight, known,
                                          min_split) else 0
                sides[0, 0], sides[1, 0] = left0, right0
                sides[0, 1], sides[1, 1] = left1, right1
            else:
                for k in range(k_from, k_to):
                    i = unsigned(loc[unsigned(k)])
                    cls = unsigned(local_y[i])
                    sides[0, cls] += w[i]
                    sides[1, cls] -= w[i]
                    left_weight += w[i]
                    following = 0.0 if k + 1 == zero_at else vals[unsigned(k + 1)]
                    if is_cut(vals[unsigned(k)], following, left_weight, known, min_split):
                        for j in range(n_classes):
                            states[j, n_cuts] = sides[0, j]
                            states[n_classes + j, n_cuts] = sides[1, j]
                        states[weight_row, n_cuts] = left_weight
                        positions[n_cuts] = k
                        n_cuts += 1
        if n_cuts == 0:
            continue
        # 2. Every cut's gain with the table logarithm (``approx_gains``)
        approx_gains(states, n_cuts, n_classes, known, default_ent,
                     (1.0 - (node_weight - known) / node_weight) / known)
        # 3. J48's chain of improvements. The best's gain is exact, or while ``slack`` is
        # GAIN_MARGIN, approximate. A gain (0 where its numerator is within 1e-6 of zero, else
        # the raw gain) within GAIN_MARGIN of the approximation cannot beat the best by more
        # than 1e-6 if the approximation's upper end does not; it beats it for certain if the
        # lower end does and lies above 2e-6, where (in a node of weight 1 or more) the
        # numerator is more than 1e-6. Only the others need the exact gains.
        best, best_gain, slack = -1, 0.0, 0.0
        for cut in range(n_cuts):
            approx = states[approx_row, cut]
            if (approx + GAIN_MARGIN) - (best_gain - slack) <= SMALL:
                continue
            if (node_weight >= 1.0 and approx - GAIN_MARGIN > 2.0 * SMALL
                    and (approx - GAIN_MARGIN) - (best_gain + slack) > SMALL):
                best, best_gain, slack = cut, approx, GAIN_MARGIN
                continue
            if slack > 0.0:
                best_gain, slack = exact_gain(states, best, n_classes, default_ent, known,
                                              node_weight), 0.0
            gain = exact_gain(states, cut, n_classes, default_ent, known, node_weight)
            if gain - best_gain > SMALL:
                best, best_gain = cut, gain
        if best < 0:  # no cut gained more than 1e-6: invalid whatever MDL says
            continue
        if slack > 0.0:
            best_gain = exact_gain(states, best, n_classes, default_ent, known, node_weight)
        k = positions[best]
        if k < 0:
            low, high = 0.0, vals[zero_at]
        else:
            low, high = vals[k], (0.0 if k + 1 == zero_at else vals[k + 1])
        valid, found[GAIN, q], found[RATIO, q], found[CUT, q] = finish_numeric(
            best_gain, n_cuts, node_weight, known, settings.use_mdl, low, high,
            states[weight_row, best])
        found[VALID, q] = 1.0 if valid else 0.0


@njit(cache=True, inline="always")
def nominal_splits(candidates, nominal, n_values, local_y, rows, w, node_weight, min_obj,
                   nominal_buffers, found):
    """Evaluate the multiway split on every nominal attribute among a node's ``candidates``
    (every nominal attribute is one); candidate q's (valid, gain, gain ratio, 0) go to
    ``found`` (rows VALID, GAIN, RATIO, CUT) at column q (numeric candidates are left alone). A
    split is valid if at least two branches weigh ``min_obj`` or more.

    ``nominal_buffers`` = (codes, column, tables) from ``make_nominal_buffers``: the nominal
    attributes' codes row by row, each attribute's column there, and per attribute a table of
    at least (max n_values + 1, n_classes + 1): per value its class weights and total, in the
    last row the class totals. The class weights of all attributes are summed in one pass over
    the instances, each instance adding its weight to one cell of every attribute's table:
    a cell still adds its instances in their order (the sums of a pass per attribute), but
    successive additions go to different attributes' tables, not one after the other to the
    same cell, which made each wait for the last."""
    codes, column, tables = nominal_buffers
    n_nominal = codes.shape[1]
    if n_nominal == 0:
        return
    n_classes = tables.shape[2] - 1
    for t in range(n_nominal):
        for b in range(tables.shape[1]):
            for j in range(n_classes):
                tables[t, b, j] = 0.0
    for i in range(rows.shape[0]):
        r = unsigned(rows[i])
        cls = unsigned(local_y[i])
        weight = w[i]
        for t in range(n_nominal):
            value = codes[r, t]
            if value >= 0:
                tables[t, unsigned(value), cls] += weight
    for q in range(candidates.shape[0]):
        a = candidates[q]
        if not nominal[a]:
            continue
        k = n_values[a]
        scratch = tables[column[a]]
        found[VALID, q], found[GAIN, q], found[RATIO, q], found[CUT, q] = 0.0, 0.0, 0.0, 0.0
        # each value's total in the last column, each class's in the last row
        for j in range(n_classes):
            scratch[k, j] = 0.0
        heavy = 0
        for b in range(k):
            total = 0.0
            for j in range(n_classes):
                total += scratch[b, j]
                scratch[k, j] += scratch[b, j]
            scratch[b, n_classes] = total
            if total - min_obj > -SMALL:
                heavy += 1
        if heavy < 2:
            continue
        class_known = 0.0
        for j in range(n_classes):
            class_known += scratch[k, j]
        gain = gain_from_entropies(old_ent(scratch[k, :n_classes]),
                                   new_ent(scratch[:k, :n_classes]), class_known, node_weight)
        ratio = gain_ratio(gain, scratch[:k, n_classes], node_weight)
        found[VALID, q], found[GAIN, q], found[RATIO, q] = 1.0, gain, ratio


@njit(cache=True)
def make_nominal_buffers(XT, nominal_attrs, n_values, n_classes):
    """``nominal_splits``' buffers for one tree: the codes of the nominal attributes
    ``nominal_attrs`` (rows of ``XT``, ascending) row by row, as int32, their branches
    (``branch_of``: -1 where missing); each attribute's column there (-1 for a numeric one);
    and a table per nominal attribute."""
    n_attributes, n = XT.shape
    n_nominal = nominal_attrs.shape[0]
    column = np.full(n_attributes, -1, dtype=np.int64)
    max_values = 1
    for t in range(n_nominal):
        column[nominal_attrs[t]] = t
        max_values = max(max_values, n_values[nominal_attrs[t]])
    codes = np.empty((n, n_nominal), dtype=np.int32)
    for t in range(n_nominal):
        a = nominal_attrs[t]
        for r in range(n):
            codes[r, t] = branch_of(XT[a, r], True, 0.0)
    return codes, column, np.empty((n_nominal, max_values + 1, n_classes + 1))


@njit(cache=True)
def select_split(view, sample, local_y, node_totals, candidates, position, settings, scratch,
                 nominal_buffers):
    """Choose the node's split (C45ModelSelection); returns (attribute or -1, cut value).

    ``candidates`` are the attributes that may split here, ascending: the nominal ones and the
    numeric ones still live (the others cannot give a valid split); ``sample`` holds the node's
    instances and the sorted entries of its live numeric attributes, attribute a's at live
    index ``position[a]``."""
    n_all = settings.draw_size if settings.draw_size > 0.0 else view.XT.shape[1]
    nominal, n_values = view.nominal, view.n_values
    m = sample.rows.shape[0]
    node_weight = node_totals.sum()
    many_valued_only = True
    for a in range(nominal.shape[0]):
        if not nominal[a] or n_values[a] - 0.3 * n_all < -SMALL:
            many_valued_only = False
            break
    found, buffers = scratch
    numeric_splits(sample.vals, sample.loc, sample.ptr, candidates, position, nominal,
                   view.num_slot, view.implicit_zero, local_y, sample.w, m, node_totals,
                   node_weight, old_ent(node_totals), settings, buffers, found)
    nominal_splits(candidates, nominal, n_values, local_y, sample.rows, sample.w, node_weight,
                   settings.min_obj, nominal_buffers, found)
    average = 0.0
    counted = 0
    for q in range(candidates.shape[0]):
        a = candidates[q]
        if found[VALID, q] > 0.0 and (not nominal[a] or many_valued_only
                                      or n_values[a] - 0.3 * n_all < -SMALL):
            average += found[GAIN, q]
            counted += 1
    if counted == 0:
        return -1, 0.0
    average /= counted
    best = -1
    best_ratio = 0.0
    for q in range(candidates.shape[0]):
        if (found[VALID, q] > 0.0 and found[GAIN, q] >= average - 1e-3
                and found[RATIO, q] - best_ratio > SMALL):
            best = q
            best_ratio = found[RATIO, q]
    if abs(best_ratio) < SMALL:
        return -1, 0.0
    return candidates[best], found[CUT, best]


@njit(cache=True)
def make_scratch(n_attributes, n_classes, n_rows):
    """Buffers for ``select_split``, allocated once per tree (the nominal attributes' are
    ``make_nominal_buffers``)."""
    return (np.zeros((4, n_attributes)),
            (np.empty((3, n_classes)), np.empty((2 * n_classes + 2, n_rows)),
             np.empty(n_rows, dtype=np.int64)))


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
