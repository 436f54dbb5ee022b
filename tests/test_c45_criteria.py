"""C4.5's criteria against values worked out by hand (docs/algorithms.md §5.1, 5.4, 5.7)."""

import math

import numpy as np
import pytest

from weightboost.c45.criteria import (add_errs, estimated_errors, gain_ratio, info_gain,
                                      split_ent, z_for_confidence)


def H(*p):
    total = sum(p)
    return -sum(x / total * math.log2(x / total) for x in p if x)


# Quinlan's golf data, outlook: sunny (2 yes, 3 no), overcast (4, 0), rainy (3, 2)
OUTLOOK = np.array([[2.0, 3.0], [4.0, 0.0], [3.0, 2.0]])


def test_info_gain_of_outlook_on_golf():
    by_hand = H(9, 5) - (5 / 14 * H(2, 3) + 4 / 14 * H(4, 0) + 5 / 14 * H(3, 2))
    assert by_hand == pytest.approx(0.246750, abs=1e-6)
    assert info_gain(OUTLOOK, 14.0) == pytest.approx(by_hand, abs=1e-12)


def test_split_information_and_gain_ratio_on_golf():
    si = H(5, 4, 5)
    assert si == pytest.approx(1.577406, abs=1e-6)
    assert split_ent(OUTLOOK.sum(axis=1), 14.0) / 14.0 == pytest.approx(si, abs=1e-12)
    assert gain_ratio(0.246750, OUTLOOK.sum(axis=1), 14.0) == pytest.approx(0.246750 / si)


def test_unknown_values_scale_gain_and_add_a_split_branch():
    # the same 14 known instances at a node that also holds 2 weight units of missing values
    W = 16.0
    gain = info_gain(OUTLOOK, W)
    assert gain == pytest.approx(14 / 16 * 0.246750, abs=1e-6)
    si = -(5 / 16 * math.log2(5 / 16) * 2 + 4 / 16 * math.log2(4 / 16)
           + 2 / 16 * math.log2(2 / 16))
    assert split_ent(OUTLOOK.sum(axis=1), W) / W == pytest.approx(si, abs=1e-12)


def test_gain_without_class_change_is_zero_and_trivial_split_has_zero_ratio():
    assert info_gain(np.array([[3.0, 1.0], [6.0, 2.0]]), 12.0) == 0.0
    assert gain_ratio(0.5, np.array([12.0, 0.0]), 12.0) == 0.0


@pytest.mark.parametrize("n, e, expected", [
    (1, 0, 0.75), (6, 0, 1.2378), (10, 0.5, 1.3535), (16, 1, 1.4757), (20, 3, 1.7871),
    (100, 10, 2.7496), (2, 1.6, 0.4),
])
def test_add_errs_regression_values(n, e, expected):
    z = z_for_confidence(0.25)
    assert add_errs(float(n), float(e), 0.25, z) == pytest.approx(expected, abs=5e-5)


def test_add_errs_by_hand():
    z = z_for_confidence(0.25)
    assert z == pytest.approx(0.674490, abs=1e-6)
    # e = 0: N (1 - CF^(1/N)); 0 < e < 1: linear interpolation towards e = 1
    assert add_errs(4.0, 0.0, 0.25, z) == pytest.approx(4 * (1 - 0.25 ** 0.25))
    base, one = add_errs(4.0, 0.0, 0.25, z), add_errs(4.0, 1.0, 0.25, z)
    assert add_errs(4.0, 0.3, 0.25, z) == pytest.approx(base + 0.3 * (one - base))
    # normal approximation, written out
    n, e = 50.0, 5.0
    f = (e + 0.5) / n
    r = (f + z * z / (2 * n) + z * math.sqrt(f / n - f * f / n + z * z / (4 * n * n))) \
        / (1 + z * z / n)
    assert add_errs(n, e, 0.25, z) == pytest.approx(r * n - e)


def test_estimated_errors_of_a_leaf():
    z = z_for_confidence(0.25)
    assert estimated_errors(np.array([9.0, 1.0]), 0.25, z) == pytest.approx(
        1.0 + add_errs(10.0, 1.0, 0.25, z))
    assert estimated_errors(np.array([0.0, 0.0]), 0.25, z) == 0.0
