"""The four boosters of the paper, each as its rules (``weightboost.boosting.rules``) on top of
``BoostingClassifier``; Weight Decay's weights and line search are its own Python.

Equation numbers refer to Jin et al. (ICML 2003); section numbers to docs/algorithms.md.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from scipy.optimize import minimize_scalar

from weightboost.boosting import libm
from weightboost.boosting.core import BoostingClassifier
from weightboost.boosting.rules import (ALPHA, EXPONENTIAL, FIXED, INPUT_DEPENDENT,
                                        NORMALIZATIONS, PYTHON, SHRUNK, Rules, adaboost_alpha)


def logsumexp(a):
    """log Σ exp(a_i) of a 1-D float array, by the formula of ``scipy.special.logsumexp`` for
    real input (the maxima kept out of the sum for precision, then log1p), without its
    array-API dispatch, which costs ten times the arithmetic at this size; exp, log and log1p
    are the C library's (``weightboost.boosting.libm``), so that the result does not depend on
    the CPU."""
    terms, count, a_max = _shift_exp(np.array(a, dtype=np.float64))
    return _log_sum_shifted(terms, count, a_max)


@njit(cache=True)
def _shift_exp(a):
    """``logsumexp``'s terms in place: a_i becomes exp(a_i - max a), 0 where a_i is the
    maximum (the maxima are counted instead); returns (a, number of maxima, max a)."""
    a_max = a.max()
    count = 0
    for i in range(a.shape[0]):
        if a[i] == a_max:
            count += 1
            a[i] = 0.0
        else:
            a[i] = math.exp(a[i] - a_max)
    return a, count, a_max


@njit(cache=True)
def _log_sum_shifted(terms, count, a_max):
    """``logsumexp`` from ``_shift_exp``'s output. The sum is numpy's (pairwise), as scipy's;
    log and log1p are the C library's, as Python's ``math``."""
    s = libm.pairwise_sum(terms, 0, terms.shape[0])
    if s != 0:
        s = s / count
    return math.log1p(s) + math.log(count) + a_max


class AdaBoost(BoostingClassifier):
    """AdaBoost (Freund & Schapire): w_i ∝ exp(-y_i H(x_i)), α_t = ½ ln((1-ε_t)/ε_t),
    prediction sign(Σ α_t h_t(x)) (docs/protocol.md §3, docs/algorithms.md §1).

    Parameters
    ----------
    n_estimators : int, default=100
        Rounds T.
    base_estimator : estimator, default=None
        ``None`` is ``C45()`` with J48's defaults.
    sampling : {"reweight", "resample"}, default="reweight"
        Pass the distribution as weights, or fit each tree on a weighted bootstrap draw.
    on_degenerate : {"stop", "restart"}, default="stop"
        Stop at a tree with ε ≥ 0.5 or ε = 0, or restart from uniform weights.
    random_state : int, RandomState instance or None, default=None
        Seeds the draws when resampling.

    See ``BoostingClassifier`` for the exact meaning of ``sampling`` and ``on_degenerate``.
    """

    def _rules(self):
        return Rules()


NORMALIZE = ("tenth_mean", "mean", "none")
LEGACY_NORMALIZE = {True: "tenth_mean", False: "none"}  # the first releases' boolean


class WeightBoost(BoostingClassifier):
    """WeightBoost (Jin et al. 2003): AdaBoost with an input-dependent regulariser.

    * weights, eq (7): W_i ∝ exp(-y_i H(x_i) - β |H(x_i)|);
    * coefficient, eq (8): α_t = ½ ln((1-ε_t)/ε_t);
    * combination, eq (4) with the §3.3 normalisation: H_t(x) = H_{t-1}(x) +
      α_t · exp(-β |H_{t-1}(x)|) / C_t · h_t(x), with C_t chosen by ``normalize``
      (docs/algorithms.md §4.2-4.4). Prediction runs the same recursion on each new point with the
      stored C_t.

    β = 0 with ``normalize="none"`` is AdaBoost exactly.

    Parameters
    ----------
    n_estimators : int, default=100
        Rounds T.
    base_estimator : estimator, default=None
        ``None`` is ``C45()`` with J48's defaults.
    beta : float, default=0.5
        β ≥ 0, the strength of the input-dependent regulariser.
    normalize : {"tenth_mean", "mean", "none"}, default="tenth_mean"
        The §3.3 constant C_t, computed on the training points before round t:
        ``"tenth_mean"`` C_t = mean_i exp(-β|H(x_i)|) / 0.1, so the factor exp(-β|H|)/C_t
        averages 0.1 there (our primary reading of "normalised to 0.1");
        ``"mean"`` C_t = mean_i exp(-β|H(x_i)|), the factor averages 1;
        ``"none"`` C_t = 1 (eq 4 as printed). The booleans of earlier releases still work:
        True is ``"tenth_mean"``, False is ``"none"``.
    sampling, on_degenerate, random_state
        As for ``AdaBoost`` (see ``BoostingClassifier``).
    """

    def __init__(self, n_estimators=100, base_estimator=None, beta=0.5, normalize="tenth_mean",
                 sampling="reweight", on_degenerate="stop", random_state=None):
        super().__init__(n_estimators=n_estimators, base_estimator=base_estimator,
                         sampling=sampling, on_degenerate=on_degenerate,
                         random_state=random_state)
        self.beta = beta
        self.normalize = normalize

    def _normalize(self):
        if isinstance(self.normalize, (bool, np.bool_)):
            return LEGACY_NORMALIZE[bool(self.normalize)]
        return self.normalize

    def _check_params(self):
        super()._check_params()
        if not (isinstance(self.beta, (int, float, np.number)) and self.beta >= 0):
            raise ValueError(f"beta must be a number >= 0, got {self.beta!r}")
        if self._normalize() not in NORMALIZE:
            raise ValueError(f"normalize must be one of {NORMALIZE}, got {self.normalize!r}")

    def _rules(self):
        return Rules(INPUT_DEPENDENT, float(self.beta), ALPHA, 0.0,
                     NORMALIZATIONS[self._normalize()])


class EpsilonBoost(BoostingClassifier):
    """ε-Boost (Friedman, Hastie & Tibshirani): AdaBoost weights, each tree with the fixed
    coefficient ε (docs/algorithms.md §3).

    Parameters
    ----------
    n_estimators : int, default=100
        Rounds T.
    base_estimator : estimator, default=None
        ``None`` is ``C45()`` with J48's defaults.
    epsilon : float, default=0.1
        The coefficient of every tree, 0 < ε ≤ 1.
    shrinkage : bool, default=False
        The ablation ε·α_t (shrunken AdaBoost) instead of the fixed ε.
    sampling, on_degenerate, random_state
        As for ``AdaBoost`` (see ``BoostingClassifier``).
    """

    def __init__(self, n_estimators=100, base_estimator=None, epsilon=0.1, shrinkage=False,
                 sampling="reweight", on_degenerate="stop", random_state=None):
        super().__init__(n_estimators=n_estimators, base_estimator=base_estimator,
                         sampling=sampling, on_degenerate=on_degenerate,
                         random_state=random_state)
        self.epsilon = epsilon
        self.shrinkage = shrinkage

    def _check_params(self):
        super()._check_params()
        if not (isinstance(self.epsilon, (int, float, np.number)) and 0 < self.epsilon <= 1):
            raise ValueError(f"epsilon must be in (0, 1], got {self.epsilon!r}")

    def _rules(self):
        return Rules(EXPONENTIAL, 0.0, SHRUNK if self.shrinkage else FIXED, float(self.epsilon))


class _DecayState:
    """Rätsch's running sums: S_i = Σ_r b_r wc_r(i) and B = Σ_r b_r (docs/algorithms.md §2.1)."""

    def __init__(self, n):
        self.S = np.zeros(n)
        self.B = 0.0
        self.regulariser = np.zeros(n)  # C |b| μ_i² = C S_i² / B, the current slack term


@njit(cache=True)
def _decay_losses(bs, margin, gain, wc, S, C, B):
    """log G(b) = ``logsumexp`` of e(b) for each b in ``bs``, where
    e_i(b) = -y_i F(x_i) - b y_i h_t(x_i) - C (S_i + b wc_t(i))² / (B + b), the last term only
    if C > 0 and B + b > 0; each operation in the order numpy applies it to whole arrays, so
    that the line search sees the same floats. One compiled call for the whole grid, and one
    per step of Brent's method (in Python, each loss cost about ten numpy calls: a third of a
    German credit fit)."""
    n = margin.shape[0]
    row = np.empty(n)
    losses = np.empty(bs.shape[0])
    for g in range(bs.shape[0]):
        b = bs[g]
        denominator = B + b
        regularised = C > 0 and denominator > 0
        for i in range(n):
            v = -margin[i] - b * gain[i]
            if regularised:
                u = S[i] + b * wc[i]
                v = v - C * (u * u) / denominator
            row[i] = v
        terms, count, a_max = _shift_exp(row)
        losses[g] = _log_sum_shifted(terms, count, a_max)
    return losses


class WeightDecay(BoostingClassifier):
    """Weight Decay: Rätsch, Onoda & Müller's AdaBoost_Reg with p = 2 (docs/algorithms.md §2).

    The soft margin of pattern i adds C·μ_i², where μ_i = Σ_r (b_r/|b|) wc_r(i) is the
    hypothesis-weighted average of its past count-scale weights; the weights are
    w_i ∝ exp(-y_i F(x_i) - C |b| μ_i²), and b_t minimises the regularised loss
    G(b) = Σ_i exp(e_i(b)), e_i(b) = -y_i F_{t-1}(x_i) - b y_i h_t(x_i) - C (S_i + b wc_t(i))²/(B + b),
    over [0, b_max], b_max = max(5, 2α_t), by a grid scan then Brent's method. A zero
    coefficient stops boosting. C = 0 is AdaBoost exactly (closed form, b_t = α_t).

    After a restart (``on_degenerate="restart"``) the running sums start again from zero:
    the regulariser, like the weights, forgets the rounds before the restart.

    Parameters
    ----------
    n_estimators : int, default=100
        Rounds T.
    base_estimator : estimator, default=None
        ``None`` is ``C45()`` with J48's defaults.
    C : float, default=0.003
        C ≥ 0, the regulariser's strength on the count scale (docs/algorithms.md §2.2).
    variant : {"ratsch", "literal"}, default="ratsch"
        ``"literal"`` is the ablation that reads the paper's ζ_i = H(x_i)² literally:
        w_i ∝ exp(-y_i H - C H²) with AdaBoost's α.
    sampling, on_degenerate, random_state
        As for ``AdaBoost`` (see ``BoostingClassifier``).
    """

    GRID = 50

    def __init__(self, n_estimators=100, base_estimator=None, C=3e-3, variant="ratsch",
                 sampling="reweight", on_degenerate="stop", random_state=None):
        super().__init__(n_estimators=n_estimators, base_estimator=base_estimator,
                         sampling=sampling, on_degenerate=on_degenerate,
                         random_state=random_state)
        self.C = C
        self.variant = variant

    def _check_params(self):
        super()._check_params()
        if self.variant not in ("ratsch", "literal"):
            raise ValueError(f"variant must be 'ratsch' or 'literal', got {self.variant!r}")
        if not (isinstance(self.C, (int, float, np.number)) and self.C >= 0):
            raise ValueError(f"C must be a number >= 0, got {self.C!r}")

    def _rules(self):
        return Rules(PYTHON, 0.0, PYTHON)  # its own weights and coefficient, added as AdaBoost

    def _init_state(self, n):
        return _DecayState(n)

    def _weight_log(self, margin, score, state):
        if self.variant == "literal":
            return -margin - self.C * score ** 2
        return -margin - state.regulariser

    def _losses(self, bs, margin, gain, wc, state):
        """log G(b) = log Σ_i exp(e_i(b)) for each b in ``bs``; ``gain`` = y_i h_t(x_i)."""
        return _decay_losses(np.asarray(bs, dtype=np.float64), margin, gain, wc, state.S,
                             float(self.C), float(state.B))

    def _coefficient(self, error, correct, p, margin, score, y, state, tree):
        alpha = adaboost_alpha(error)
        if self.variant == "literal" or self.C == 0:
            return alpha
        wc = len(p) * p
        gain = np.where(correct, 1.0, -1.0)

        def loss(b):
            return float(self._losses([b], margin, gain, wc, state)[0])

        b_max = max(5.0, 2.0 * alpha)
        grid = np.linspace(0.0, b_max, self.GRID + 1)
        values = self._losses(grid, margin, gain, wc, state)
        k = int(np.argmin(values))
        low, high = grid[max(k - 1, 0)], grid[min(k + 1, self.GRID)]
        result = minimize_scalar(loss, bounds=(low, high), method="bounded",
                                 options={"xatol": 1e-10})
        b = float(result.x) if result.fun <= values[k] else float(grid[k])
        if b <= 1e-10:
            return None
        return b

    def _after_round(self, state, coefficient, p, y, prediction):
        if self.variant == "literal":
            return
        state.S += coefficient * len(p) * p
        state.B += coefficient
        state.regulariser = self.C * state.S ** 2 / state.B
        self.influence_ = state.S / state.B  # μ_i; its mean is 1 after every round
