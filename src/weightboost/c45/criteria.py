"""Split criteria and the pessimistic error estimate of C4.5 release 8 (Weka's J48).

All counts are sums of instance weights. Entropies follow Weka's ``EntropyBasedSplitCrit``:
``lnfunc(x) = x ln x`` (0 below 1e-6), and "entropies" are totals, n·H, in bits:

* ``old_ent``  = (lnfunc(n) - Σ_j lnfunc(n_j)) / ln 2               (class entropy × n)
* ``new_ent``  = Σ_b (lnfunc(n_b) - Σ_j lnfunc(n_bj)) / ln 2        (Σ_b n_b H(class | b))
* ``split_ent``= (lnfunc(W) - Σ_b lnfunc(n_b) - lnfunc(W - K)) / ln 2, the split information
  with the missing weight W - K as an extra branch (docs/algorithms.md §5.4)

Info gain with the unknown-value correction (§5.2): gain = (K/W)·(old_ent - new_ent)/K, with
K the known weight and W the node weight; a numerator within 1e-6 of zero counts as no gain.
Gain ratio = gain / (split_ent / W), 0 if the split information is within 1e-6 of zero.

``add_errs`` is J48's ``Stats.addErrs`` (§5.7): the extra errors that the upper confidence
limit at level CF adds to e observed errors out of N.
"""

from __future__ import annotations

import math
from functools import lru_cache
from statistics import NormalDist

import numpy as np
from numba import njit

SMALL = 1e-6  # Weka's Utils.SMALL: the tolerance of gr/sm/eq comparisons
LOG2 = math.log(2.0)


@njit(cache=True, inline="always")
def lnfunc(x):
    return 0.0 if x < 1e-6 else x * math.log(x)


@njit(cache=True)
def old_ent(class_totals):
    total = 0.0
    acc = 0.0
    for value in class_totals:
        acc += lnfunc(value)
        total += value
    return (lnfunc(total) - acc) / LOG2


@njit(cache=True)
def new_ent(bags):
    """bags: (n_bags, n_classes) weights."""
    acc = 0.0
    for b in range(bags.shape[0]):
        bag_total = 0.0
        for j in range(bags.shape[1]):
            acc += lnfunc(bags[b, j])
            bag_total += bags[b, j]
        acc -= lnfunc(bag_total)
    return -acc / LOG2


@njit(cache=True)
def split_ent(bag_totals, node_weight):
    known = bag_totals.sum()
    if known - 0.0 <= SMALL:
        return 0.0
    acc = lnfunc(node_weight) - lnfunc(node_weight - known)
    for value in bag_totals:
        acc -= lnfunc(value)
    return acc / LOG2


@njit(cache=True, inline="always")
def gain_without_tolerance(ent_before, ent_after, known, node_weight):
    """The gain as the formula gives it, before a numerator within 1e-6 of zero counts as no
    gain (the numeric scan's approximate gains lie within ``split.GAIN_MARGIN`` of this
    function)."""
    unknown_rate = (node_weight - known) / node_weight
    return (1.0 - unknown_rate) * (ent_before - ent_after) / known


@njit(cache=True, inline="always")
def gain_from_entropies(ent_before, ent_after, known, node_weight):
    if abs(ent_before - ent_after) < SMALL:
        return 0.0
    return gain_without_tolerance(ent_before, ent_after, known, node_weight)


@njit(cache=True)
def info_gain(bags, node_weight):
    """Info gain of a split with per-bag class weights ``bags`` at a node of weight W."""
    class_totals = bags.sum(axis=0)
    return gain_from_entropies(old_ent(class_totals), new_ent(bags), class_totals.sum(),
                               node_weight)


@njit(cache=True)
def gain_ratio(gain, bag_totals, node_weight):
    info = split_ent(bag_totals, node_weight)
    if abs(info) < SMALL:
        return 0.0
    return gain / (info / node_weight)


@lru_cache(maxsize=16)
def z_for_confidence(cf: float) -> float:
    """Φ⁻¹(1 - CF); 0.6745 at J48's default CF = 0.25 (remembered: every fit asks)."""
    return NormalDist().inv_cdf(1.0 - cf)


@njit(cache=True)
def add_errs(n, e, cf, z):
    """Weka's Stats.addErrs(N, e, CF), with z = Φ⁻¹(1 - CF) passed in."""
    if cf > 0.5:
        return 0.0
    if e < 1.0:
        base = n * (1.0 - cf ** (1.0 / n))
        if e == 0.0:
            return base
        return base + e * (add_errs(n, 1.0, cf, z) - base)
    if e + 0.5 >= n:
        return max(n - e, 0.0)
    f = (e + 0.5) / n
    r = (f + z * z / (2.0 * n)
         + z * math.sqrt(f / n - f * f / n + z * z / (4.0 * n * n))) / (1.0 + z * z / n)
    return r * n - e


@njit(cache=True, inline="always")
def row_total_and_max(table, k):
    """The sum of ``table[k]`` (added in order, as J48 adds; numpy's ``table[k].sum()`` gives
    the same float for fewer than 8 classes, and pairs the terms for more) and its largest
    element, read in place. A row view passed to a kernel, or its ``sum``/``max``,
    costs atomic reference count updates, which took a fifth of a small set's tree."""
    total = 0.0
    most = table[k, 0]
    for j in range(table.shape[1]):
        total += table[k, j]
        most = max(most, table[k, j])
    return total, most


@njit(cache=True, inline="always")
def row_estimated_errors(table, k, cf, z):
    """Observed plus pessimistic extra errors of a leaf whose class weights are ``table[k]``
    (0 if empty)."""
    total, most = row_total_and_max(table, k)
    if abs(total) < SMALL:
        return 0.0
    incorrect = total - most
    return incorrect + add_errs(total, incorrect, cf, z)


@njit(cache=True)
def estimated_errors(class_totals, cf, z):
    """``row_estimated_errors`` of one vector of class weights."""
    return row_estimated_errors(class_totals.reshape((1, class_totals.shape[0])), 0, cf, z)


def _warm():  # noqa: D401 - compile the kernels the tests call from Python
    bags = np.array([[1.0, 2.0], [3.0, 0.0]])
    info_gain(bags, 6.0)
    gain_ratio(0.1, bags.sum(axis=1), 6.0)
    estimated_errors(np.array([3.0, 1.0]), 0.25, z_for_confidence(0.25))
