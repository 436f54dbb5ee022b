"""The screen of the numeric scan: ``approx_ln`` within its stated error everywhere, and
``gain_bound`` never below the exact raw gain (a bound below it would skip a cut that beats
the best, and change a tree)."""

import math

import numpy as np
import pytest

from weightboost.c45.fastlog import LN_ERROR, approx_ln_array
from weightboost.c45.split import GAIN_MARGIN, cut_gain, gain_bound, class_terms
from weightboost.c45.fastlog import approx_lnfunc
from numba import njit


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


@pytest.mark.parametrize("n_classes", [2, 3, 5])
def test_the_gain_bound_is_above_the_raw_gain_and_within_twice_its_margin(n_classes):
    rng = np.random.default_rng(n_classes)
    for _ in range(3000):
        scale = 10.0 ** rng.uniform(-4, 6)
        left = rng.exponential(size=n_classes) * scale
        right = rng.exponential(size=n_classes) * scale
        left[rng.random(n_classes) < 0.2] = 0.0
        known = left.sum() + right.sum()
        node_weight = known * rng.uniform(1.0, 1.5)
        totals = left + right
        default_ent = (math.log(known) * known
                       - sum(t * math.log(t) for t in totals if t >= 1e-6)) / math.log(2)
        bound, raw = _bound_and_raw(left, right, known, node_weight, default_ent)
        assert raw <= bound <= raw + 2 * GAIN_MARGIN
