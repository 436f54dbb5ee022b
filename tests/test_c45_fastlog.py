"""The screen of the numeric scan: ``approx_ln`` within its stated error everywhere, the
entropy chords below the binary entropy, and ``gain_bound`` and ``binary_gain_bound`` never
below the exact raw gain (a bound below it would skip a cut that beats the best, and change a
tree)."""

import math

import numpy as np
import pytest

from numba import njit

from weightboost.c45.fastlog import LN_ERROR, approx_ln_array, approx_lnfunc, entropy_chord
from weightboost.c45.split import (GAIN_MARGIN, binary_gain_bound, class_terms, cut_gain,
                                   gain_bound)


def test_approx_ln_is_within_its_error_bound_over_the_whole_range():
    rng = np.random.default_rng(0)
    spread = np.exp(rng.uniform(math.log(1e-6), math.log(1e300), 2_000_000))
    # each table interval's ends and middle, and its neighbours, at several scales
    steps = 1.0 + np.arange(257) / 256.0
    edges = np.concatenate([steps, np.nextafter(steps, 0.0), np.nextafter(steps, 3.0),
                            1.0 + (np.arange(256) + 0.5) / 256.0])
    scaled = np.concatenate([edges * 2.0 ** k for k in (-20, -1, 0, 1, 7, 30, 1000)])
    extremes = np.array([np.finfo(float).tiny, np.finfo(float).max, 1e-6, 1.0, 2.0, 0.5])
    x = np.concatenate([spread, scaled, extremes])
    error = np.abs(approx_ln_array(x) - np.log(x))
    assert error.max() <= LN_ERROR
    # the series' remainder is the error's source: a bound far above it would screen less
    assert error.max() > LN_ERROR / 10


@njit
def entropy_chord_array(p):
    out = np.empty_like(p)
    for i in range(p.shape[0]):
        out[i] = entropy_chord(p[i])
    return out


@njit
def _bound_and_raw(left, right, known, node_weight, default_ent):
    terms = np.zeros((2, left.shape[0]))
    approx = 0.0
    for j in range(left.shape[0]):
        terms[0, j] = class_terms(left[j], right[j])[0]
        approx += approx_lnfunc(left[j]) + approx_lnfunc(right[j])
    left_weight = left.sum()
    scale = (1.0 - (node_weight - known) / node_weight) / known
    raw = cut_gain(terms, -1, 0.0, False, left_weight, known - left_weight, default_ent, known,
                   node_weight)[1]
    return gain_bound(approx, left_weight, known - left_weight, default_ent, scale), raw


def node_of(rng, left, right):
    """A node around a cut of class weights ``left`` and ``right``: its known weight, its
    weight (with missing values) and its entropy before the cut (``old_ent``)."""
    known = left.sum() + right.sum()
    totals = left + right
    default_ent = (math.log(known) * known
                   - sum(t * math.log(t) for t in totals if t >= 1e-6)) / math.log(2)
    return known, known * rng.uniform(1.0, 1.5), default_ent


@pytest.mark.parametrize("n_classes", [2, 3, 5])
def test_the_gain_bound_is_above_the_raw_gain_and_within_twice_its_margin(n_classes):
    rng = np.random.default_rng(n_classes)
    for _ in range(3000):
        scale = 10.0 ** rng.uniform(-4, 6)
        left = rng.exponential(size=n_classes) * scale
        right = rng.exponential(size=n_classes) * scale
        left[rng.random(n_classes) < 0.2] = 0.0
        known, node_weight, default_ent = node_of(rng, left, right)
        bound, raw = _bound_and_raw(left, right, known, node_weight, default_ent)
        assert raw <= bound <= raw + 2 * GAIN_MARGIN


def test_the_entropy_chord_is_below_the_binary_entropy_and_close_to_it_inside():
    rng = np.random.default_rng(1)
    p = np.concatenate([rng.random(1_000_000), np.arange(2049) / 2048,
                        10.0 ** rng.uniform(-300, -1, 10_000), [0.0, 1.0, -1e-17, 1 + 1e-16]])
    inside = np.clip(p, 0.0, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        entropy = np.nan_to_num(-(inside * np.log(inside) + (1 - inside) * np.log1p(-inside)))
    chord = entropy_chord_array(p)
    assert (chord <= entropy + 1e-14).all()
    middle = (inside >= 0.01) & (inside <= 0.99)
    assert (entropy - chord)[middle].max() < 3.1e-6   # h²/8/(p(1 - p)) at p = 0.01


@pytest.mark.parametrize("far", [False, True])
def test_the_binary_gain_bound_is_above_the_raw_gain(far):
    """``binary_gain_bound`` against the exact formula, with weights at every scale and, with
    ``far``, first-class shares near 0 and 1 (the chords' edge and the fallback)."""
    rng = np.random.default_rng(int(far))
    chords = 0
    for _ in range(5000):
        scale = 10.0 ** rng.uniform(-4, 6)
        left, right = rng.exponential(size=2) * scale, rng.exponential(size=2) * scale
        if far:
            left[rng.integers(2)] *= 10.0 ** rng.uniform(-12, -1)
            right[rng.integers(2)] *= 10.0 ** rng.uniform(-12, -1)
        known, node_weight, default_ent = node_of(rng, left, right)
        _, raw = _bound_and_raw(left, right, known, node_weight, default_ent)
        clean = not any(0.0 < x < 1e-6 for x in (*left, *right, left.sum(), right.sum()))
        bound = _binary_bound(left, right, left.sum(), known - left.sum(), default_ent,
                              (1.0 - (node_weight - known) / node_weight) / known, clean)
        assert raw <= bound <= raw + 5e-6
        chords += 0.01 <= left[0] / left.sum() <= 0.99 and 0.01 <= right[0] / right.sum() <= 0.99
    assert (5000 - chords if far else chords) > 500   # the path each case is about was tried


@njit
def _binary_bound(left, right, left_weight, right_weight, default_ent, scale, clean):
    return binary_gain_bound(left[0], right[0], left[1], right[1], left_weight, right_weight,
                             default_ent, scale, clean)
