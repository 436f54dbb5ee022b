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

from weightboost.c45.criteria import (SMALL, gain_from_entropies, gain_ratio,
                                      gain_without_tolerance, lnfunc, new_ent, old_ent)
from weightboost.c45.fastlog import LN_ERROR, approx_lnfunc, entropy_chord
from weightboost.c45.tree import branch_of, unsigned

LOG2 = math.log(2.0)
# ``gain_bound`` exceeds the raw gain by at most 2·LN_ERROR/ln 2 = 1.4e-8 from its logarithms
# (the x ln x terms of a cut weigh 2K in all, and the gain divides by K), plus the rounding of
# two sums of a few terms (a relative 1e-15 of K·ln K, divided by K: below 1e-12 for any node
# under 10^300 weight). The margin is seven times that, and a tenth of Weka's 1e-6.
GAIN_MARGIN = 1e-7
INV_LOG2 = 1.0 / LOG2
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
def off_x_log_x(x):
    """``lnfunc(x)`` is 0 there, not x ln x (and the gain not convex along a line)."""
    return 0.0 < x < 1e-6


@njit(cache=True, inline="always")
def class_terms(left, right):
    """One class's part of a binary cut's entropy, lnfunc(left) + lnfunc(right) for its weights
    left and right of the cut, and whether either weight lies in (0, 1e-6), where ``lnfunc`` is
    0 instead of x ln x."""
    return lnfunc(left) + lnfunc(right), off_x_log_x(left) or off_x_log_x(right)


@njit(cache=True, inline="always")
def cut_gain(terms, changed, term, term_off, left_weight, right_weight, default_ent, known,
             node_weight):
    """Info gain of a binary cut, as (gain, raw gain, clean), from its classes' ``class_terms``:
    class ``changed``'s are (``term``, ``term_off``), every other class j's are ``terms[0, j]``
    and (as 1.0 or 0.0) ``terms[1, j]`` (``changed`` = -1: all from ``terms``). The raw gain is
    the gain before a numerator within 1e-6 of zero is set to 0; ``clean`` says that no weight
    lies where ``lnfunc`` is not x ln x. The classes' terms are added in class order whichever
    come from ``terms``: the floats are those of the formula."""
    acc = 0.0
    clean = not (off_x_log_x(left_weight) or off_x_log_x(right_weight))
    for j in range(terms.shape[1]):
        if j == changed:
            acc += term
            clean = clean and not term_off
        else:
            acc += terms[0, j]
            clean = clean and terms[1, j] == 0.0
    after = (lnfunc(left_weight) + lnfunc(right_weight) - acc) / LOG2
    return (gain_from_entropies(default_ent, after, known, node_weight),
            gain_without_tolerance(default_ent, after, known, node_weight), clean)


@njit(cache=True, inline="always")
def gain_bound(approx_terms, left_weight, right_weight, default_ent, scale):
    """An upper bound of a binary cut's raw gain (``cut_gain``) from the sum of its classes'
    ``approx_lnfunc`` terms, in the formula's order, with ``scale`` = (1 - unknown rate)/K:
    ``approx_lnfunc`` in place of ``lnfunc``, multiplications in place of divisions, plus
    ``GAIN_MARGIN``."""
    after = (approx_lnfunc(left_weight) + approx_lnfunc(right_weight) - approx_terms) * INV_LOG2
    return bound_from_entropy(after, default_ent, scale)


@njit(cache=True, inline="always")
def bound_from_entropy(after, default_ent, scale):
    """The raw gain's upper bound from a lower bound ``after`` of the entropy after the cut
    (bits), ``scale`` = (1 - unknown rate)/K, plus ``GAIN_MARGIN``."""
    return scale * (default_ent - after) + GAIN_MARGIN


@njit(cache=True, inline="always")
def binary_gain_bound(left0, right0, left1, right1, left_weight, right_weight, default_ent,
                      scale, clean):
    """``gain_bound`` of a two-class cut from its class weights: where both sides' first-class
    shares lie in [0.01, 0.99] and ``clean``, from the binary entropy's chords, else from
    ``approx_lnfunc``."""
    if clean and left_weight > 1e-6 and right_weight > 1e-6:
        p, q = left0 / left_weight, right0 / right_weight
        if 0.01 <= p <= 0.99 and 0.01 <= q <= 0.99:
            after = (left_weight * entropy_chord(p) + right_weight * entropy_chord(q)) * INV_LOG2
            return bound_from_entropy(after, default_ent, scale)
    return gain_bound((approx_lnfunc(left0) + approx_lnfunc(right0))
                      + (approx_lnfunc(left1) + approx_lnfunc(right1)),
                      left_weight, right_weight, default_ent, scale)


@njit(cache=True)
def exact_terms(terms):
    """The anchor's exact ``class_terms`` (row 0) of every class whose row 3 says they are
    not computed yet, from its class weights left and right of the cut (rows 4 and 5)."""
    for j in range(terms.shape[1]):
        if terms[3, j] == 0.0:
            terms[0, j] = class_terms(terms[4, j], terms[5, j])[0]
            terms[3, j] = 1.0


@njit(cache=True, inline="always")
def keep_better(best, gain, low, high, left_weight):
    """J48's scan: a cut is counted in ``tries`` and kept if its gain beats the best by more
    than 1e-6 (the first of equal cuts wins). ``best`` = (gain, low value, high value, left
    weight, found, tries)."""
    best_gain, best_low, best_high, best_left, found, tries = best
    if gain - best_gain > SMALL:
        return gain, low, high, left_weight, True, tries + 1
    return best_gain, best_low, best_high, best_left, found, tries + 1


@njit(cache=True, inline="always")
def count_tries(best, n):
    """``best`` after n cuts that cannot beat it (``keep_better`` of each)."""
    best_gain, low, high, best_left, found, tries = best
    return best_gain, low, high, best_left, found, tries + n


@njit(cache=True, inline="always")
def skipped_gain(q, line, terms, known, default_ent, node_weight, skipped):
    """``cut_gain`` of skipped candidate q: the line's class's weights are the candidate's,
    every other class's terms are the anchor's (``terms``)."""
    term, term_off = class_terms(skipped[0, q], skipped[1, q])
    return cut_gain(terms, line, term, term_off, skipped[2, q], known - skipped[2, q],
                    default_ent, known, node_weight)


@njit(cache=True)
def improve_along_line(best, line, n_skipped, unsure, terms, known, default_ent, node_weight,
                       anchor_raw, last_gain, skipped):
    """The best after the candidates skipped along one line (see ``numeric_splits``) when the
    last of them (of gain ``last_gain``) may beat the best, as the scan decides it.

    Along the line the gain is convex and the anchor's does not beat the best by more than
    1e-6, so the candidates that do form a suffix on which the gain is non-decreasing: the
    scan's successive improvements (each the first candidate beating the current best by more
    than 1e-6) are found by galloping and bisection. Where convexity is not certain
    (``unsure``: a weight where ``lnfunc`` is not x ln x; a node lighter than 1; an anchor
    beating the best) every candidate is evaluated in order."""
    last = n_skipped - 1
    best_gain, low, high, best_left, found, tries = best
    if unsure or node_weight < 1.0 or anchor_raw - best_gain > SMALL:
        for q in range(last):
            g = skipped_gain(q, line, terms, known, default_ent, node_weight, skipped)[0]
            best = keep_better(best, g, skipped[3, q], skipped[4, q], skipped[2, q])
        best = keep_better(best, last_gain, skipped[3, last], skipped[4, last],
                           skipped[2, last])
    elif last_gain - best_gain > SMALL and last_gain - skipped_gain(
            last - 1, line, terms, known, default_ent, node_weight, skipped)[0] > SMALL:
        # the last candidate beats its predecessor by more than 1e-6, hence (the gain does not
        # decrease along the suffix that beats the best) every earlier improvement: it is the
        # scan's final one, whatever the chain of improvements before it
        best = (last_gain, skipped[3, last], skipped[4, last], skipped[2, last], True,
                tries + n_skipped)
    else:
        done = -1  # candidates up to here are decided
        while last_gain - best_gain > SMALL:
            # the first candidate after ``done`` beating best_gain by more than 1e-6
            lo, hi, hi_gain = done + 1, last, last_gain  # hi beats best_gain, by hi_gain
            step = 1
            while lo < hi:
                probe = lo + step - 1
                if probe >= hi:
                    break
                g = skipped_gain(probe, line, terms, known, default_ent, node_weight,
                                 skipped)[0]
                if g - best_gain > SMALL:
                    hi, hi_gain = probe, g
                    break
                lo = probe + 1
                step *= 2
            while lo < hi:
                mid = (lo + hi) // 2
                g = skipped_gain(mid, line, terms, known, default_ent, node_weight,
                                 skipped)[0]
                if g - best_gain > SMALL:
                    hi, hi_gain = mid, g
                else:
                    lo = mid + 1
            best_gain = hi_gain  # lo == hi
            low, high, best_left, found = skipped[3, lo], skipped[4, lo], skipped[2, lo], True
            done = lo
        best = (best_gain, low, high, best_left, found, tries + n_skipped)
    return best


@njit(cache=True, inline="always")
def off_x_log_x_along(skipped, row, n_skipped, known):
    """Whether a skipped candidate's weight ``skipped[row, q]`` (``row`` = 3: its right weight,
    known - left weight) lies in (0, 1e-6). Along a line each of these weights is monotone
    (adding or subtracting weights is monotone in floating point), so the ends decide unless
    the range crosses (0, 1e-6)."""
    last = n_skipped - 1
    if row == 3:
        low, high = known - skipped[2, last], known - skipped[2, 0]
    elif row == 1:
        low, high = skipped[1, last], skipped[1, 0]
    else:
        low, high = skipped[row, 0], skipped[row, last]
    if low >= 1e-6 or high <= 0.0:
        return False
    for q in range(n_skipped):
        if off_x_log_x(known - skipped[2, q] if row == 3 else skipped[row, q]):
            return True
    return False


@njit(cache=True, inline="always")
def is_cut(value, following, left_weight, known, min_split):
    """J48's candidate cut after an element of value ``value``: the next element's value is
    more than 1e-5 above it and each side weighs at least minSplit."""
    return (value + 1e-5 < following and left_weight - min_split > -SMALL
            and (known - left_weight) - min_split > -SMALL)


@njit(cache=True, inline="always")
def merge_class(seen, cls):
    """The class of every element moved so far: -1 none yet, -2 several."""
    if seen == -1:
        return cls
    return seen if seen == cls else -2


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
                   local_y, w, m, node_totals, node_weight, node_ent, settings, buffers, result):
    """Evaluate every numeric attribute among a node's ``candidates``, each in one pass over its
    sorted stored entries; candidate q's (valid, gain, gain ratio, cut value) go to
    ``result`` = (valid, gains, ratios, cuts) at index q (nominal candidates are left alone).

    Numeric attribute a's entries are ``vals[lo:hi]``, their values in ascending order, and
    ``loc[lo:hi]``, their instances (indices into ``local_y`` and ``w``; the node has ``m``
    instances), with lo, hi = ``ptr[position[a]]``, ``ptr[position[a] + 1]``. The instances
    without an entry have a missing value, or if its slot (``num_slot[a]``) has
    ``implicit_zero``, the value 0: in the sorted order the zeros form one block of equal
    values, which the scan crosses in one step (its class weights are the node's less those of
    the entries), so that the cost is that of the entries.

    The result is that of J48's scan, which computes the gain of every candidate cut, but
    most gains are not computed (Fayyad & Irani's boundary points, docs/algorithms.md §5.3):
    while every element moved left since the last evaluated cut (the *anchor*) is of one
    class, the class weights of the candidates lie on one line, along which the gain is a
    convex function; their states are recorded, and when the line ends, the last is evaluated
    and the others are decided without their gains (``improve_along_line``). And a cut that
    is evaluated (an anchor, a line's end) gets an upper bound of its gain first
    (``gain_bound`` from ``fastlog.approx_lnfunc``; with two classes ``binary_gain_bound``):
    if that cannot beat the best by more than 1e-6, neither can the gain, which is then not
    computed (nor, for a line's end, the gains of the line's other candidates). Only the
    running best's improvements and the cuts close to them, a tenth to a third of the
    evaluated cuts, need the C library's logarithm.

    An attribute storing its non-zeros only whose entries weigh less than minSplit has no
    valid cut (one side of every cut holds entries only) and is skipped without the scan.

    ``node_ent`` is ``old_ent(node_totals)``, the entropy before the cut when every instance
    of the node has a known value (computed once per node, not per attribute).

    ``buffers``: ``sides`` (3, n_classes), the class weights left of the cut, right of it and
    of the entries; ``terms`` (6, n_classes), per class at the anchor: its ``class_terms``
    (row 0, as the anchor's gain computed them: a cut on the line recomputes its class's
    only), whether they lie off x ln x (row 1), its ``approx_lnfunc`` terms (row 2), whether
    row 0 is computed (row 3: 1.0, else 0.0; ``exact_terms`` computes it when needed), and its
    weights left and right of the cut (rows 4 and 5); and
    ``skipped`` (5, at least the number of entries), the skipped
    candidates' left weight of the line's class, right weight of it, left weight, value and
    following value. All of a node's attributes are evaluated in one loop, and the function is
    inlined into ``select_split`` (as ``nominal_splits``): a compiled call costs two atomic
    reference count updates per array argument, and a Reuters tree evaluates 183 k (node,
    attribute) pairs."""
    sides, terms, skipped = buffers
    valid, gains, ratios, cuts = result
    n_classes = node_totals.shape[0]
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
        valid[q], gains[q], ratios[q], cuts[q] = False, 0.0, 0.0, 0.0
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
        else:
            n_zero = 0
            if c == m:
                for j in range(n_classes):
                    sides[1, j] = node_totals[j]
            known = 0.0
            for j in range(n_classes):
                known += sides[1, j]
            n_known = c
        min_split = min_split_weight(known, n_classes, settings.min_obj)
        if n_known - 2.0 * min_split < -SMALL:
            continue
        if zeros_implicit and stored_weight - min_split < -2.0 * SMALL:
            # every cut has stored entries only on one side (the zero block is on the other),
            # lighter than minSplit: no cut is valid (the scan would find none; the margin of
            # 2·SMALL covers the rounding of its running sums)
            continue
        default_ent = node_ent if n_known == m else old_ent(sides[1])
        scale = (1.0 - (node_weight - known) / node_weight) / known  # for gain_bound
        for j in range(n_classes):
            sides[0, j] = 0.0
        left_weight = 0.0
        # typed, not literal, constants: numba would compile improve_along_line for the
        # literals' types too
        best = (0.0, 0.0, 0.0, 0.0, np.bool_(False), np.int64(0))
        # the elements in sorted order: the entries, with the zero block (if any) after the
        # negative ones, at element index zero_at
        zero_at = -1
        if n_zero > 0:
            zero_at = 0
            while zero_at < c and vals[lo + zero_at] < 0.0:
                zero_at += 1
        n_elements = c + 1 if n_zero > 0 else c
        # the anchor's raw gain, or while not ``anchor_exact`` an upper bound of it
        anchor_raw, anchor_clean = 0.0, False   # clean only once a cut has been evaluated
        anchor_exact, anchor_left = False, 0.0
        line, tail = -1, -1            # class of the elements moved since the anchor / last cut
        n_skipped, skipped_line = np.int64(0), np.int64(-1)
        e = -1
        while e < n_elements - 1:
            e += 1
            # move element e to the left side, then look at the gap to element e + 1; the last
            # element has no gap after it and only ends the line
            k = lo + (e if zero_at < 0 or e < zero_at else e - 1)
            final = e == n_elements - 1
            cls = -2 if e == zero_at or final else local_y[unsigned(loc[unsigned(k)])]
            line = merge_class(line, cls)
            tail = merge_class(tail, cls)
            if n_skipped > 0 and line == -2:
                # the line ended at its last skipped candidate: evaluate it, decide the others
                last = n_skipped - 1
                off_curve = False  # some candidate's weight where lnfunc is not x ln x
                for row in range(4 if last > 0 else 0):
                    off_curve = off_curve or off_x_log_x_along(skipped, row, n_skipped, known)
                line_left, line_right = skipped[0, last], skipped[1, last]
                last_left = skipped[2, last]
                term_off = off_x_log_x(line_left) or off_x_log_x(line_right)
                term_approx = (0.0 if n_classes == 2
                               else approx_lnfunc(line_left) + approx_lnfunc(line_right))
                clean = not (off_x_log_x(last_left) or off_x_log_x(known - last_left)
                             or term_off)
                approx_terms = 0.0
                for j in range(n_classes):
                    if j == skipped_line:
                        approx_terms += term_approx
                    else:
                        approx_terms += terms[2, j]
                        clean = clean and terms[1, j] == 0.0
                if n_classes == 2:
                    first = skipped_line == 0
                    raw = binary_gain_bound(
                        line_left if first else terms[4, 0], line_right if first else terms[5, 0],
                        terms[4, 1] if first else line_left, terms[5, 1] if first else line_right,
                        last_left, known - last_left, default_ent, scale, clean)
                else:
                    raw = gain_bound(approx_terms, last_left, known - last_left, default_ent,
                                     scale)
                exact = not (raw - best[0] <= SMALL and (
                    last == 0 or (clean and not off_curve and node_weight >= 1.0
                                  and anchor_raw - best[0] <= SMALL)))
                term = 0.0
                if not exact:
                    # the bounds say what the gains would: no candidate of the line beats the
                    # best (convexity, below), counted without their gains
                    best = count_tries(best, n_skipped)
                else:
                    exact_terms(terms)
                    if not anchor_exact:
                        anchor_raw = cut_gain(terms, -1, 0.0, False, anchor_left,
                                              known - anchor_left, default_ent, known,
                                              node_weight)[1]
                    term = class_terms(line_left, line_right)[0]
                    gain, raw, clean = cut_gain(terms, skipped_line, term, term_off,
                                                last_left, known - last_left,
                                                default_ent, known, node_weight)
                    if last == 0 or (clean and not off_curve and node_weight >= 1.0
                                     and max(anchor_raw, raw) - best[0] <= SMALL):
                        # convexity: no skipped candidate but the last can change the best
                        best = keep_better(count_tries(best, last), gain, skipped[3, last],
                                           skipped[4, last], last_left)
                    else:
                        best = improve_along_line(best, skipped_line, n_skipped,
                                                  off_curve or not clean, terms, known,
                                                  default_ent, node_weight, anchor_raw, gain,
                                                  skipped)
                # the last skipped candidate is the anchor now: only its line's class changed
                terms[0, skipped_line] = term
                terms[1, skipped_line] = 1.0 if term_off else 0.0
                terms[2, skipped_line] = term_approx
                terms[3, skipped_line] = 1.0 if exact else 0.0
                terms[4, skipped_line], terms[5, skipped_line] = line_left, line_right
                anchor_raw, anchor_clean, anchor_exact, anchor_left = raw, clean, exact, last_left
                n_skipped = 0
                line = tail
            if final:
                break
            if e == zero_at:
                value = 0.0
                for j in range(n_classes):
                    moved = node_totals[j] - sides[2, j]
                    sides[0, j] += moved
                    sides[1, j] -= moved
                    left_weight += moved
            else:
                i = unsigned(loc[unsigned(k)])
                value = vals[unsigned(k)]
                sides[0, unsigned(cls)] += w[i]
                sides[1, unsigned(cls)] -= w[i]
                left_weight += w[i]
            # element e + 1 is the zero block or the entry after k (element e's entry, or when
            # e is the zero block, the entry before it), as in the loops below
            following = 0.0 if e + 1 == zero_at else vals[unsigned(k + 1)]
            # a run of ties (no cut in the gap): the entries that follow are moved in a loop of
            # their own, up to the next gap, the zero block or the last element (never moved).
            # No line is pending here (a line's elements are moved by its own loop below, and a
            # line ends before the element that ends it is moved), so ``tail``, read only when a
            # line ends, is not needed: the next candidate resets it
            while not value + 1e-5 < following and e + 2 < n_elements and e + 1 != zero_at:
                k += 1  # element e + 1 is the entry after element e's
                e += 1
                i = unsigned(loc[unsigned(k)])
                cls = local_y[i]
                line = merge_class(line, cls)
                value = vals[unsigned(k)]
                sides[0, unsigned(cls)] += w[i]
                sides[1, unsigned(cls)] -= w[i]
                left_weight += w[i]
                following = 0.0 if e + 1 == zero_at else vals[unsigned(k + 1)]
            if is_cut(value, following, left_weight, known, min_split):
                if anchor_clean and line >= 0:
                    # on a line from the anchor: record the state, skip the gain
                    skipped[0, unsigned(n_skipped)] = sides[0, line]
                    skipped[1, unsigned(n_skipped)] = sides[1, line]
                    skipped[2, unsigned(n_skipped)] = left_weight
                    skipped[3, unsigned(n_skipped)] = value
                    skipped[4, unsigned(n_skipped)] = following
                    n_skipped += 1
                    skipped_line = line
                    tail = -1
                    # the elements of the line's class that follow, in a loop of their own
                    # (the line goes on; tail is -1 after a candidate, else the line's class)
                    # with the class's weights in registers (stores to ``skipped`` might
                    # alias ``sides``, which would keep them in memory)
                    line_left, line_right = sides[0, line], sides[1, line]
                    while e + 2 < n_elements and e + 1 != zero_at:
                        k += 1  # element e + 1 is the entry after element e's
                        i = unsigned(loc[unsigned(k)])
                        if local_y[i] != line:
                            break
                        e += 1
                        value = vals[unsigned(k)]
                        line_left += w[i]
                        line_right -= w[i]
                        left_weight += w[i]
                        following = 0.0 if e + 1 == zero_at else vals[unsigned(k + 1)]
                        # the state is written whether or not the gap is a cut and kept only if
                        # it is: no branch on it (ties make it unpredictable)
                        cut = ((value + 1e-5 < following) & (left_weight - min_split > -SMALL)
                               & ((known - left_weight) - min_split > -SMALL))
                        skipped[0, unsigned(n_skipped)] = line_left
                        skipped[1, unsigned(n_skipped)] = line_right
                        skipped[2, unsigned(n_skipped)] = left_weight
                        skipped[3, unsigned(n_skipped)] = value
                        skipped[4, unsigned(n_skipped)] = following
                        n_skipped += 1 if cut else 0
                        tail = -1 if cut else line
                    sides[0, line], sides[1, line] = line_left, line_right
                    continue
                else:
                    # the anchor now: its class weights and terms are kept in ``terms``, and
                    # its gain computed only if its bound may beat the best
                    approx_terms = 0.0
                    clean = not (off_x_log_x(left_weight) or off_x_log_x(known - left_weight))
                    for j in range(n_classes):
                        left_j, right_j = sides[0, j], sides[1, j]
                        term_off = off_x_log_x(left_j) or off_x_log_x(right_j)
                        term_approx = (0.0 if n_classes == 2
                                       else approx_lnfunc(left_j) + approx_lnfunc(right_j))
                        terms[1, j] = 1.0 if term_off else 0.0
                        terms[2, j] = term_approx
                        terms[3, j] = 0.0
                        terms[4, j], terms[5, j] = left_j, right_j
                        approx_terms += term_approx
                        clean = clean and not term_off
                    if n_classes == 2:
                        anchor_raw = binary_gain_bound(sides[0, 0], sides[1, 0], sides[0, 1],
                                                       sides[1, 1], left_weight,
                                                       known - left_weight, default_ent, scale,
                                                       clean)
                    else:
                        anchor_raw = gain_bound(approx_terms, left_weight, known - left_weight,
                                                default_ent, scale)
                    anchor_clean, anchor_left = clean, left_weight
                    anchor_exact = not (anchor_raw - best[0] <= SMALL)
                    if anchor_exact:
                        exact_terms(terms)
                        gain, anchor_raw, anchor_clean = cut_gain(
                            terms, -1, 0.0, False, left_weight, known - left_weight,
                            default_ent, known, node_weight)
                        best = keep_better(best, gain, value, following, left_weight)
                    else:
                        best = count_tries(best, 1)
                    line = -1
                tail = -1
        best_gain, best_low, best_high, best_left_weight, found, tries = best
        if found:  # else no cut gained more than 1e-6: invalid whatever MDL says
            valid[q], gains[q], ratios[q], cuts[q] = finish_numeric(
                best_gain, tries, node_weight, known, settings.use_mdl, best_low, best_high,
                best_left_weight)


@njit(cache=True, inline="always")
def nominal_splits(candidates, nominal, n_values, local_y, rows, w, node_weight, min_obj,
                   nominal_buffers, result):
    """Evaluate the multiway split on every nominal attribute among a node's ``candidates``
    (every nominal attribute is one); candidate q's (valid, gain, gain ratio, 0) go to
    ``result`` = (valid, gains, ratios, cuts) at index q (numeric candidates are left alone). A
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
    valid, gains, ratios, cuts = result
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
        valid[q], gains[q], ratios[q], cuts[q] = False, 0.0, 0.0, 0.0
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
        valid[q], gains[q], ratios[q] = True, gain, ratio


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
    n_all = view.XT.shape[1]
    nominal, n_values = view.nominal, view.n_values
    m = sample.rows.shape[0]
    node_weight = node_totals.sum()
    many_valued_only = True
    for a in range(nominal.shape[0]):
        if not nominal[a] or n_values[a] - 0.3 * n_all < -SMALL:
            many_valued_only = False
            break
    valid, gains, ratios, cuts, buffers = scratch
    result = (valid, gains, ratios, cuts)
    numeric_splits(sample.vals, sample.loc, sample.ptr, candidates, position, nominal,
                   view.num_slot, view.implicit_zero, local_y, sample.w, m, node_totals,
                   node_weight, old_ent(node_totals), settings, buffers, result)
    nominal_splits(candidates, nominal, n_values, local_y, sample.rows, sample.w, node_weight,
                   settings.min_obj, nominal_buffers, result)
    average = 0.0
    counted = 0
    for q in range(candidates.shape[0]):
        a = candidates[q]
        if valid[q] and (not nominal[a] or many_valued_only or n_values[a] - 0.3 * n_all < -SMALL):
            average += gains[q]
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
def make_scratch(n_attributes, n_classes, n_rows):
    """Buffers for ``select_split``, allocated once per tree (the nominal attributes' are
    ``make_nominal_buffers``)."""
    return (np.zeros(n_attributes, dtype=np.bool_), np.zeros(n_attributes),
            np.zeros(n_attributes), np.zeros(n_attributes),
            (np.empty((3, n_classes)), np.empty((6, n_classes)), np.empty((5, n_rows))))


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
