"""The four boosters of the paper, each as its three rules on top of ``BoostingClassifier``.

Equation numbers refer to Jin et al. (ICML 2003); section numbers to ALGORITHMS.md.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import minimize_scalar
from scipy.special import logsumexp

from weightboost.boosting.core import BoostingClassifier


def adaboost_alpha(error):
    """α = ½ ln((1 - ε)/ε), AdaBoost's coefficient and the paper's eq (8)."""
    return 0.5 * math.log((1.0 - error) / error)


class AdaBoost(BoostingClassifier):
    """AdaBoost (Freund & Schapire) by reweighting: w_i ∝ exp(-y_i H(x_i)),
    α_t = ½ ln((1-ε_t)/ε_t), prediction sign(Σ α_t h_t(x)) (PROTOCOL.md §3, ALGORITHMS.md §1)."""

    def _weight_log(self, margin, score, state):
        return -margin

    def _coefficient(self, error, correct, p, margin, score, y, state):
        return adaboost_alpha(error)


class WeightBoost(BoostingClassifier):
    """WeightBoost (Jin et al. 2003): AdaBoost with an input-dependent regulariser.

    * weights, eq (7): W_i ∝ exp(-y_i H(x_i) - β |H(x_i)|);
    * coefficient, eq (8): α_t = ½ ln((1-ε_t)/ε_t);
    * combination, eq (4) with the §3.3 normalisation: H_t(x) = H_{t-1}(x) +
      α_t · exp(-β |H_{t-1}(x)|) / C_t · h_t(x), where C_t = Σ_i exp(-β|H_{t-1}(x_i)|) / (0.1 N)
      over the training points, so the factor averages 0.1 there (ALGORITHMS.md §4.2-4.4).
      Prediction runs the same recursion on each new point with the stored C_t.

    ``normalize=False`` is the ablation C_t = 1 (pure eq 4). β = 0 with ``normalize=False``
    is AdaBoost exactly.
    """

    def __init__(self, n_estimators=100, base_estimator=None, beta=0.5, normalize=True):
        super().__init__(n_estimators=n_estimators, base_estimator=base_estimator)
        self.beta = beta
        self.normalize = normalize

    def _weight_log(self, margin, score, state):
        return -margin - self.beta * np.abs(score)

    def _coefficient(self, error, correct, p, margin, score, y, state):
        return adaboost_alpha(error)

    def _round_constant(self, score):
        if not self.normalize:
            return 1.0
        return float(np.mean(np.exp(-self.beta * np.abs(score))) / 0.1)

    def _combine(self, score, coefficient, constant, prediction):
        return score + coefficient * np.exp(-self.beta * np.abs(score)) / constant * prediction


class EpsilonBoost(BoostingClassifier):
    """ε-Boost (Friedman, Hastie & Tibshirani): AdaBoost weights, each tree with the fixed
    coefficient ε (ALGORITHMS.md §3). ``shrinkage=True`` is the ablation ε·α_t."""

    def __init__(self, n_estimators=100, base_estimator=None, epsilon=0.1, shrinkage=False):
        super().__init__(n_estimators=n_estimators, base_estimator=base_estimator)
        self.epsilon = epsilon
        self.shrinkage = shrinkage

    def _weight_log(self, margin, score, state):
        return -margin

    def _coefficient(self, error, correct, p, margin, score, y, state):
        if self.shrinkage:
            return self.epsilon * adaboost_alpha(error)
        return float(self.epsilon)


class _DecayState:
    """Rätsch's running sums: S_i = Σ_r b_r wc_r(i) and B = Σ_r b_r (ALGORITHMS.md §2.1)."""

    def __init__(self, n):
        self.S = np.zeros(n)
        self.B = 0.0
        self.regulariser = np.zeros(n)  # C |b| μ_i² = C S_i² / B, the current slack term


class WeightDecay(BoostingClassifier):
    """Weight Decay: Rätsch, Onoda & Müller's AdaBoost_Reg with p = 2 (ALGORITHMS.md §2).

    The soft margin of pattern i adds C·μ_i², where μ_i = Σ_r (b_r/|b|) wc_r(i) is the
    hypothesis-weighted average of its past count-scale weights; the weights are
    w_i ∝ exp(-y_i F(x_i) - C |b| μ_i²), and b_t minimises the regularised loss
    G(b) = Σ_i exp(e_i(b)), e_i(b) = -y_i F_{t-1}(x_i) - b y_i h_t(x_i) - C (S_i + b wc_t(i))²/(B + b),
    over [0, b_max], b_max = max(5, 2α_t), by a grid scan then Brent's method. A zero
    coefficient stops boosting. C = 0 is AdaBoost exactly (closed form, b_t = α_t).

    ``variant="literal"`` is the ablation that reads the paper's ζ_i = H(x_i)² literally:
    w_i ∝ exp(-y_i H - C H²) with AdaBoost's α.
    """

    GRID = 50

    def __init__(self, n_estimators=100, base_estimator=None, C=3e-3, variant="ratsch"):
        super().__init__(n_estimators=n_estimators, base_estimator=base_estimator)
        self.C = C
        self.variant = variant

    def _init_state(self, n):
        if self.variant not in ("ratsch", "literal"):
            raise ValueError(f"variant must be 'ratsch' or 'literal', got {self.variant!r}")
        if not self.C >= 0:
            raise ValueError(f"C must be non-negative, got {self.C}")
        return _DecayState(n)

    def _weight_log(self, margin, score, state):
        if self.variant == "literal":
            return -margin - self.C * score ** 2
        return -margin - state.regulariser

    def _exponents(self, b, margin, gain, wc, state):
        """e_i(b) for all i; ``gain`` = y_i h_t(x_i)."""
        e = -margin - b * gain
        if self.C > 0 and state.B + b > 0:
            e -= self.C * (state.S + b * wc) ** 2 / (state.B + b)
        return e

    def _coefficient(self, error, correct, p, margin, score, y, state):
        alpha = 0.5 * math.log((1.0 - error) / error)
        if self.variant == "literal" or self.C == 0:
            return alpha
        wc = len(p) * p
        gain = np.where(correct, 1.0, -1.0)

        def loss(b):
            return logsumexp(self._exponents(b, margin, gain, wc, state))

        b_max = max(5.0, 2.0 * alpha)
        grid = np.linspace(0.0, b_max, self.GRID + 1)
        values = np.array([loss(b) for b in grid])
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
