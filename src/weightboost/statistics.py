"""Paired comparisons of two learners, as a reviewer of a repeated cross-validation expects them.

* Within one dataset: the **corrected resampled t-test** of Nadeau & Bengio (2003), the test
  Weka's Experimenter uses, on the J = repeats × folds paired differences d_j of the two
  learners' fold errors (same folds, same noisy labels). The folds of a repeated CV share
  training data, so the plain variance σ²/J understates the variance of the mean difference;
  Nadeau & Bengio correct it to (1/J + n_test/n_train) σ², σ² the sample variance of the d_j,
  and use Student's t with J - 1 degrees of freedom. With 10-fold CV, n_test/n_train ≈ 1/9.
* Across datasets: the **Wilcoxon signed-rank test** on the per-dataset mean differences
  (Demšar 2006), with a t interval for their mean. The report also gives it per dataset, on
  the paired fold errors (``signed_rank_p``).

Every distribution comes from ``scipy.stats``; intervals are two-sided at 95 %.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

LEVEL = 0.95
# scipy.stats.wilcoxon tests exactly up to this many differences when some are tied or zero
# (a permutation test over all 2^n sign patterns), and by the normal approximation above
EXACT_SIGNS = 13


@dataclass(frozen=True)
class Comparison:
    """Mean difference (first learner minus second), its interval and the test's p-value."""

    mean: float
    low: float
    high: float
    p_value: float
    n: int


def corrected_resampled_t(differences, test_train_ratio: float, level: float = LEVEL):
    """Nadeau & Bengio's corrected resampled t-test on paired fold differences.

    ``test_train_ratio`` is n_test / n_train of one fold (e.g. 1/9 for 10-fold CV)."""
    d = np.asarray(differences, dtype=float)
    J = len(d)
    mean = float(d.mean()) if J else float("nan")
    if J < 2:
        return Comparison(mean, float("nan"), float("nan"), float("nan"), J)
    if np.all(d == d[0]):  # identical differences everywhere: no spread to test against
        return Comparison(mean, mean, mean, 1.0 if mean == 0.0 else 0.0, J)
    se = np.sqrt((1.0 / J + test_train_ratio) * float(d.var(ddof=1)))
    t = mean / se
    df = J - 1
    half = float(stats.t.ppf(0.5 + level / 2, df) * se)
    return Comparison(mean, mean - half, mean + half, float(2 * stats.t.sf(abs(t), df)), J)


def _w_plus(d, axis=-1):
    """Wilcoxon's W+ with zero differences split between W+ and W-, of every row at once: the
    statistic of scipy's permutation test (the p-value of method "asymptotic" is not used)."""
    return stats.wilcoxon(d, zero_method="zsplit", alternative="greater", method="asymptotic",
                          axis=axis).statistic


def signed_rank_p(differences) -> float:
    """Two-sided Wilcoxon signed-rank p-value of paired differences, zeros split: exactly
    ``scipy.stats.wilcoxon(differences, zero_method="zsplit").pvalue``.

    Up to EXACT_SIGNS differences scipy computes it as an exact test: from its exact null
    distribution when no difference is tied or zero, else by ``scipy.stats.permutation_test``
    over all 2^n sign patterns, evaluating the statistic one pattern at a time (0.4 s for 10
    folds; three quarters of the report's time). Both are the exact sign-flip distribution of
    W+, which ``permutation_test`` computes here with the statistic evaluated for all patterns
    at once; the p-values are the same floats (tests/test_statistics.py)."""
    d = np.asarray(differences, dtype=float)
    if len(d) > EXACT_SIGNS:
        return float(stats.wilcoxon(d, zero_method="zsplit").pvalue)
    return float(stats.permutation_test((d,), _w_plus, permutation_type="samples",
                                        vectorized=True, n_resamples=np.inf,
                                        alternative="two-sided").pvalue)


def across_datasets(mean_differences, level: float = LEVEL):
    """Wilcoxon signed-rank p-value of per-dataset mean differences, with a t interval for
    their mean (Demšar 2006)."""
    d = np.asarray(mean_differences, dtype=float)
    n = len(d)
    mean = float(d.mean()) if n else float("nan")
    if n < 2:
        return Comparison(mean, float("nan"), float("nan"), float("nan"), n)
    low, high = stats.t.interval(level, n - 1, loc=mean, scale=stats.sem(d)) \
        if np.any(d != d[0]) else (mean, mean)
    p = 1.0 if np.all(d == 0) else signed_rank_p(d)
    return Comparison(mean, float(low), float(high), p, n)
