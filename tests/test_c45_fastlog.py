"""The numeric scan's approximate gains: ``approx_ln`` within its stated error everywhere, and
a cut's approximate gain within ``GAIN_MARGIN`` of its exact raw gain (the scan decides
improvements on these intervals: a wrong one would keep or drop the wrong cut, and change a
tree)."""

import math

import numpy as np
import pytest

from weightboost.c45.fastlog import LN_ERROR, approx_ln_array
from weightboost.c45.split import GAIN_MARGIN, approx_gains


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


def node_of(rng, left, right):
    """A node around a cut of class weights ``left`` and ``right``: its known weight, its
    weight (with missing values) and its entropy before the cut (``old_ent``)."""
    known = left.sum() + right.sum()
    totals = left + right
    default_ent = (math.log(known) * known
                   - sum(t * math.log(t) for t in totals if t >= 1e-6)) / math.log(2)
    return known, known * rng.uniform(1.0, 1.5), default_ent


def raw_gain(left, right, known, node_weight, default_ent):
    """The gain of J48's formula before its tolerance (``criteria.gain_without_tolerance``)."""
    def lnfunc(x):
        return 0.0 if x < 1e-6 else x * math.log(x)
    left_weight = left.sum()
    after = (lnfunc(left_weight) + lnfunc(known - left_weight)
             - sum(lnfunc(a) + lnfunc(b) for a, b in zip(left, right))) / math.log(2)
    return (1.0 - (node_weight - known) / node_weight) * (default_ent - after) / known


@pytest.mark.parametrize("n_classes", [2, 3, 5])
def test_the_approximate_gain_is_within_its_margin_of_the_raw_gain(n_classes):
    """The scan decides improvements on ``approx_gains``' values: one further than
    GAIN_MARGIN from the gain could make it keep or drop the wrong cut."""
    rng = np.random.default_rng(n_classes)
    cuts = 3000
    states = np.zeros((2 * n_classes + 2, cuts))
    nodes = []
    for c in range(cuts):
        scale = 10.0 ** rng.uniform(-4, 6)
        left = rng.exponential(size=n_classes) * scale
        right = rng.exponential(size=n_classes) * scale
        left[rng.random(n_classes) < 0.2] = 0.0
        left[rng.random(n_classes) < 0.05] = 1e-7    # where lnfunc is 0, not x ln x
        states[:n_classes, c], states[n_classes:2 * n_classes, c] = left, right
        states[2 * n_classes, c] = left.sum()
        nodes.append(node_of(rng, left, right))
    errors = []
    for c, (known, node_weight, default_ent) in enumerate(nodes):
        one = np.ascontiguousarray(states[:, c:c + 1])
        approx_gains(one, 1, n_classes, known, default_ent,
                     (1.0 - (node_weight - known) / node_weight) / known)
        errors.append(one[-1, 0] - raw_gain(states[:n_classes, c],
                                             states[n_classes:2 * n_classes, c], known,
                                             node_weight, default_ent))
    errors = np.abs(errors)
    assert errors.max() <= GAIN_MARGIN
    assert errors.max() > 1e-10   # the table logarithm's error shows: the test can see one
