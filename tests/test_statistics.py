"""The paired tests of ``weightboost.statistics`` against hand-worked examples."""

import math

import numpy as np
import pytest
from scipy import stats

from weightboost.statistics import EXACT_SIGNS, across_datasets, corrected_resampled_t, \
    signed_rank_p


def test_corrected_resampled_t_matches_the_hand_worked_example():
    # d = 1, 2, 3, 4 with n_test/n_train = 1/9: mean 2.5, sample variance 5/3,
    # se = sqrt((1/4 + 1/9) * 5/3) = sqrt(65/108) = 0.77579, t = 3.2225 on 3 df.
    # Student's t with 3 df has its two-sided 5 % point at 3.1824, so p is just under 0.05
    # and the interval 2.5 ± 3.1824 * 0.77579 = [0.0311, 4.9689] just excludes 0.
    result = corrected_resampled_t([1, 2, 3, 4], 1 / 9)
    assert result.mean == 2.5 and result.n == 4
    assert result.low == pytest.approx(2.5 - 3.182446 * math.sqrt(65 / 108), abs=1e-5)
    assert result.high == pytest.approx(2.5 + 3.182446 * math.sqrt(65 / 108), abs=1e-5)
    assert result.p_value == pytest.approx(0.04849, abs=1e-4)


def test_the_correction_widens_the_interval_of_the_naive_t_test():
    naive = corrected_resampled_t([1, 2, 3, 4], 0.0)  # the plain paired t-test
    corrected = corrected_resampled_t([1, 2, 3, 4], 1 / 9)
    # plain: se = sqrt(5/12) = 0.6455, t = 3.873 on 3 df, p = 0.0305
    assert naive.p_value == pytest.approx(0.0305, abs=1e-3)
    assert corrected.p_value > naive.p_value
    assert corrected.high - corrected.low > naive.high - naive.low


def test_identical_differences_have_no_spread():
    assert corrected_resampled_t([0.0] * 10, 1 / 9).p_value == 1.0
    assert corrected_resampled_t([0.02] * 10, 1 / 9).p_value == 0.0


def test_wilcoxon_across_datasets_on_a_hand_worked_example():
    # five datasets, one loss: ranks of |d| = 2, 4, 5, 1, 3; W- = 4 (the single negative,
    # rank 4) and W+ = 11. Of the 32 equally likely sign patterns, 7 have a rank sum <= 4
    # ({}, {1}, {2}, {3}, {1,2}, {4}, {1,3}), so the exact two-sided p is 2 * 7/32 = 0.4375.
    result = across_datasets([0.01, -0.02, 0.03, 0.005, 0.015])
    assert result.p_value == pytest.approx(0.4375)
    assert result.mean == pytest.approx(0.008)
    assert result.low < result.mean < result.high


def test_signed_rank_p_is_scipy_s_wilcoxon_exactly():
    # the vectorised permutation test must give scipy's own p-values, float for float: without
    # ties (scipy's exact distribution), with ties and zeros (its permutation test), and past
    # EXACT_SIGNS (its normal approximation)
    rng = np.random.default_rng(0)
    cases = [rng.normal(size=10), np.round(rng.normal(size=10), 1),
             rng.integers(-2, 3, size=10) / 100, np.array([0.0, 0.0, 0.01, -0.01, 0.02]),
             np.array([0.1, 0.1, 0.1]), rng.integers(-2, 3, size=EXACT_SIGNS + 2) / 100]
    for d in cases:
        assert signed_rank_p(d) == float(stats.wilcoxon(d, zero_method="zsplit").pvalue), d
