"""The numeric split scan skips most gains (boundary points) yet must choose exactly what J48's
scan, which computes every gain, chooses."""

import math

import numpy as np
import pytest

from weightboost.c45.criteria import old_ent
from weightboost.c45.split import make_scratch, numeric_splits
from weightboost.c45.tree import GrowSettings

SMALL = 1e-6


def lnfunc(x):
    return 0.0 if x < 1e-6 else x * math.log(x)


def j48_scan(values, y, w, n_classes, min_obj=2.0, implicit_zero=False):
    """J48's C45Split.handleNumericAttribute written plainly: every gap between sorted values
    more than 1e-5 apart with minSplit on both sides is a try, and its gain is computed."""
    values = np.asarray(values, dtype=float)
    node = np.bincount(y, weights=w, minlength=n_classes)
    W = node.sum()
    known_rows = np.flatnonzero(~np.isnan(values))
    order = known_rows[np.argsort(values[known_rows], kind="stable")]
    right = np.bincount(y[order], weights=w[order], minlength=n_classes)
    K = right.sum()
    min_split = min(max(0.1 * K / n_classes, min_obj), 25.0)
    if len(order) < 2 * min_split:
        return False, 0.0, 0.0, 0.0
    old_ent = (lnfunc(K) - sum(lnfunc(v) for v in right)) / math.log(2)
    left = np.zeros(n_classes)
    best, tries, best_at = 0.0, 0, None
    for k in range(len(order) - 1):
        i = order[k]
        left[y[i]] += w[i]
        right[y[i]] -= w[i]
        a, b = values[i], values[order[k + 1]]
        lw = left.sum()
        if not a + 1e-5 < b or lw < min_split - SMALL or K - lw < min_split - SMALL:
            continue
        tries += 1
        after = (lnfunc(lw) + lnfunc(K - lw)
                 - sum(lnfunc(v) for v in left) - sum(lnfunc(v) for v in right)) / math.log(2)
        numerator = old_ent - after
        gain = 0.0 if abs(numerator) < SMALL else (K / W) * numerator / K
        if gain - best > SMALL:
            best, best_at = gain, (a, b, lw)
    if best_at is None:
        return False, 0.0, 0.0, 0.0
    best -= math.log(tries) / math.log(2) / W
    return best > SMALL, best, best_at[0], best_at[1]


def scan(values, y, w, n_classes, implicit_zero=False):
    """The kernel on the entries of one attribute (all instances at one node)."""
    values = np.asarray(values, dtype=float)
    stored = np.flatnonzero(values != 0.0) if implicit_zero else np.flatnonzero(~np.isnan(values))
    order = stored[np.argsort(values[stored], kind="stable")]
    m = len(y)
    scratch = make_scratch(1, n_classes, m)   # what select_split passes
    totals = np.bincount(y, weights=w, minlength=n_classes)
    one = np.zeros(1, dtype=np.int64)
    numeric_splits(values[order].copy(), order.astype(np.int32),
                   np.array([0, len(order)], dtype=np.int64), one, one, np.zeros(1, dtype=bool),
                   one, np.array([implicit_zero]), y.astype(np.int64), w, m, totals,
                   totals.sum(), old_ent(totals), GrowSettings(2.0, True), scratch[1],
                   scratch[0])
    valid, gain, ratio, cut = scratch[0][:, 0]
    return valid > 0.0, gain, ratio, cut


def random_attribute(rng, case):
    m = int(rng.integers(8, 80))
    n_classes = 2 + case % 2
    y = rng.integers(0, n_classes, size=m)
    if case % 3 == 0:   # long runs of one class along the attribute, as in Reuters
        y = np.where(rng.random(m) < 0.9, 0, y)
    values = np.round(rng.normal(size=m), int(rng.integers(0, 3)))  # ties at 0-2 decimals
    if case % 4 == 1:
        values[rng.random(m) < 0.2] = np.nan
    w = rng.exponential(size=m) if case % 2 else np.ones(m)
    if case % 5 == 2:   # weights where lnfunc is 0 instead of x ln x
        w[rng.random(m) < 0.3] *= 1e-7
    return values, y, w * m / w.sum(), n_classes


@pytest.mark.parametrize("case", range(12))
def test_the_scan_chooses_the_cut_of_j48s_every_gain_scan(case):
    rng = np.random.default_rng(case)
    for _ in range(60):
        values, y, w, n_classes = random_attribute(rng, case)
        valid, gain, _ratio, cut = scan(values, y, w, n_classes)
        expected_valid, expected_gain, low, high = j48_scan(values, y, w, n_classes)
        assert valid == expected_valid
        if valid:
            assert gain == pytest.approx(expected_gain, rel=1e-9, abs=1e-12)
            midpoint = (low + high) / 2
            assert cut == (low if midpoint == high else midpoint)


@pytest.mark.parametrize("period", [2, 3, 4, 6])
def test_the_scan_chooses_j48s_cut_among_gains_tied_within_the_tolerance(period):
    """A periodic class pattern gives cuts whose gains differ by about 1e-6 and less, so
    that which of them is J48's first best turns on the exact gains: a scan deciding on its
    approximate gains (``approx_gains``) where they do not decide would choose another."""
    rng = np.random.default_rng(period)
    for m in range(24, 120, 7):
        y = (np.arange(m) // (period // 2 or 1)) % 2
        values = np.arange(m, dtype=float)
        for w in (np.ones(m), 1.0 + 1e-6 * rng.random(m), 1.0 + 1e-3 * rng.random(m)):
            w = w * m / w.sum()
            valid, gain, _ratio, cut = scan(values, y, w, 2)
            expected_valid, expected_gain, low, high = j48_scan(values, y, w, 2)
            assert valid == expected_valid
            if valid:
                assert gain == pytest.approx(expected_gain, rel=1e-9, abs=1e-12)
                assert cut == (low + high) / 2


def test_the_scan_decides_improvements_just_above_the_tolerance():
    """Weights moved along a line until J48's choice of cut switches: at the switch a gain beats
    the running best by 1e-6 and next to nothing (here about 1e-11), the case where a scan
    trusting its approximate gains (``approx_gains``) beyond their margin would keep or drop
    the wrong cut."""
    rng = np.random.default_rng(11)
    switches = 0
    for _ in range(30):
        m = int(rng.integers(16, 50))
        n_classes = 2 + int(rng.integers(0, 2))
        y = rng.integers(0, n_classes, size=m)
        values = rng.normal(size=m).round(1)
        base, direction = rng.exponential(size=m), rng.normal(size=m)

        def weights(t):
            w = base * np.exp(t * direction)
            return w * m / w.sum()

        def choice(t):
            valid, _gain, low, high = j48_scan(values, y, weights(t), n_classes)
            return valid, low, high

        lo, hi = 0.0, 1.0
        if choice(lo) == choice(hi):
            continue
        for _ in range(30):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if choice(mid) == choice(lo) else (lo, mid)
        switches += 1
        for t in (lo, hi):
            valid, _gain, _ratio, cut = scan(values, y, weights(t), n_classes)
            expected_valid, _, low, high = j48_scan(values, y, weights(t), n_classes)
            assert valid == expected_valid
            if valid:
                midpoint = (low + high) / 2
                assert cut == (low if midpoint == high else midpoint)
    assert switches >= 10, switches


def test_the_scan_over_stored_non_zeros_equals_the_scan_over_all_values():
    rng = np.random.default_rng(7)
    for _ in range(200):
        m = int(rng.integers(8, 60))
        y = np.where(rng.random(m) < 0.85, 0, 1)
        values = np.where(rng.random(m) < 0.6, 0.0, rng.normal(size=m).round(2))
        # negative values within 1e-5 of the zeros: no cut between them and the zero block
        values[rng.random(m) < 0.1] = -rng.uniform(1e-7, 1e-5)
        w = rng.exponential(size=m)
        w *= m / w.sum()
        sparse, dense = scan(values, y, w, 2, implicit_zero=True), scan(values, y, w, 2)
        assert (sparse[0], sparse[3]) == (dense[0], dense[3])   # valid, cut
        assert sparse[1:3] == pytest.approx(dense[1:3], rel=1e-9)  # the zeros move at once
