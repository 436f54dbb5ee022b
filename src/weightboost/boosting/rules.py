"""The arithmetic of a boosting round, compiled once and applied by both drivers of the loop.

A booster is its rules, given as data (``Rules``): how the weights follow from the scores,
how a base learner's coefficient follows from its weighted error, how it is added to the
score. The kernels below compute them; ``BoostingClassifier`` (``weightboost.boosting.core``)
calls them once per round around a base learner fitted in Python (C4.5, any scikit-learn
classifier, resampled draws), and a base learner whose whole fit compiles (decision stumps,
``weightboost.stumps.boost``) calls the same kernels from its compiled loop, so that the two
drivers give the same booster bit for bit (tests/test_boosting_drivers.py). Each kernel does
its arithmetic in the order of the numpy expressions it replaced, and every exp and log is the
C library's (``weightboost.boosting.libm``): the floats of the tables did not move.

Rules (equation numbers: Jin et al. 2003; Wang & Kégl 2004 for RegBoost):

* weights: ``EXPONENTIAL`` log w_i = -y_i H(x_i) (AdaBoost, ε-Boost, RegBoost's Figure 2);
  ``INPUT_DEPENDENT`` log w_i = -y_i H(x_i) - β|H(x_i)| (WeightBoost, eq 7);
* coefficient: ``ALPHA`` α = ½ ln((1-ε)/ε) (eq 8); ``FIXED`` the constant ``step`` (ε-Boost);
  ``SHRUNK`` ``step``·α; ``OFFSET`` α - ½ ln((1+θ)/(1-θ)) with θ the base learner's edge
  offset (RegBoost, eq 3), declined unless θ < 1 and the result is > 0;
* combination (``Rules.combination``): ``ADDITIVE`` H + αh, or WeightBoost's eq (4),
  H + α exp(-β|H|)/C_t · h with C_t by ``normalize`` (§3.3); a C_t that underflows to 0
  declines the round (``usable_constant``);
* ``PYTHON`` (weights and coefficient): the booster computes them itself (Weight Decay, whose
  regulariser and line search are Python); such a booster is driven by the Python loop only.

``outcome`` is the stop and restart rule every booster shares (``BoostingClassifier``).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from weightboost.boosting import libm

PYTHON = -1
EXPONENTIAL, INPUT_DEPENDENT = 0, 1                 # weights
ALPHA, FIXED, SHRUNK, OFFSET = 0, 1, 2, 3           # coefficient
ADDITIVE, NONE, MEAN, TENTH_MEAN = 0, 1, 2, 3        # combination: additive, or eq (4) with C_t
NORMALIZATIONS = {"none": NONE, "mean": MEAN, "tenth_mean": TENTH_MEAN}

ZERO_ERROR = 1e-12      # ε below it is 0, at or above ½ minus it is ½ (module core)
MAX_DEGENERATE = 25     # restart: consecutive degenerate trees before giving up
RESTART_ERROR = 1e-10   # restart: a tree with ε = 0 gets the coefficient it would have here
KEEP, KEEP_THEN_RESTART, DISCARD_THEN_RESTART, STOP = 0, 1, 2, 3  # ``outcome``


class Rules(NamedTuple):
    """A booster's rules (module docstring): the arguments of the kernels."""

    weights: int = EXPONENTIAL
    beta: float = 0.0
    coefficient: int = ALPHA
    step: float = 0.0
    combination: int = ADDITIVE

    @property
    def compiled(self) -> bool:
        """Whether every rule is a kernel's (a compiled driver may run the booster)."""
        return self.weights != PYTHON and self.coefficient != PYTHON


@njit(cache=True)
def adaboost_alpha(error):
    """α = ½ ln((1 - ε)/ε), AdaBoost's coefficient and the paper's eq (8)."""
    return 0.5 * math.log((1.0 - error) / error)


@njit(cache=True)
def offset_term(theta):
    """½ ln((1+θ)/(1-θ)), the part of eq (3) that the edge offset takes from α."""
    return 0.5 * math.log((1.0 + theta) / (1.0 - theta))


@njit(cache=True)
def weight_log(rule, beta, margin, relative):
    """log of the unnormalised weights from the margins y·H and the scores H (both relative
    to the score at the last restart)."""
    out = np.empty(margin.shape[0])
    for i in range(margin.shape[0]):
        if rule == INPUT_DEPENDENT:
            out[i] = -margin[i] - beta * abs(relative[i])
        else:
            out[i] = -margin[i]
    return out


@njit(cache=True)
def coefficient(rule, step, error, theta):
    """(whether the base learner is accepted, its coefficient) for a weighted error ``error``
    and edge offset ``theta``; declining it stops boosting."""
    if rule == FIXED:
        return True, step
    if rule == SHRUNK:
        return True, step * adaboost_alpha(error)
    if rule == OFFSET:
        if theta >= 1.0:
            return False, 0.0
        alpha = adaboost_alpha(error) - offset_term(theta)  # θ = 0: minus 0.0, exactly α
        return alpha > 0, alpha
    return True, adaboost_alpha(error)


@njit(cache=True)
def _factors(beta, score):
    """exp(-β|H(x_i)|), eq (4)'s input-dependent factor."""
    exponents = np.empty(score.shape[0])
    for i in range(score.shape[0]):
        exponents[i] = -beta * abs(score[i])
    return libm.exp(exponents)


@njit(cache=True)
def round_constant(rule, beta, score):
    """C_t of eq (4), computed on the training scores before the round (§3.3): the mean
    factor, a tenth of it, or 1."""
    if rule == MEAN or rule == TENTH_MEAN:
        factors = _factors(beta, score)
        mean = libm.pairwise_sum(factors, 0, factors.shape[0]) / factors.shape[0]
        return mean / 0.1 if rule == TENTH_MEAN else mean
    return 1.0


@njit(cache=True)
def usable_constant(constant):
    """Whether eq (4) can divide by C_t. C_t underflows to 0 once exp(-β|H(x_i)|) does at every
    training point (|H| above about 745/β: e.g. WeightBoost with ``normalize="mean"`` restarted
    on perfect trees, each of coefficient ½ ln((1 - 1e-10)/1e-10) ≈ 11.5); every factor is then
    0/0. The round is declined instead and boosting stops: the ensemble so far is the model."""
    return constant > 0.0


@njit(cache=True)
def combine(rule, beta, score, coefficient, constant, prediction):
    """H_t = H_{t-1} + α_t h_t, or eq (4)'s H_{t-1} + α_t exp(-β|H_{t-1}|)/C_t · h_t."""
    out = np.empty(score.shape[0])
    if rule == ADDITIVE:
        for i in range(score.shape[0]):
            out[i] = score[i] + coefficient * prediction[i]
    else:
        factors = _factors(beta, score)
        for i in range(score.shape[0]):
            out[i] = score[i] + coefficient * factors[i] / constant * prediction[i]
    return out


@njit(cache=True)
def staged_scores(rule, beta, coefficients, constants, outputs, staged):
    """``combine`` applied round after round to the rows of ``outputs`` (one per base
    learner, on the same points) from H = 0: every round's H (``staged``) or the last only."""
    rounds, m = outputs.shape
    out = np.empty((rounds if staged else 1, m))
    score = np.zeros(m)
    for t in range(rounds):
        score = combine(rule, beta, score, coefficients[t], constants[t], outputs[t])
        if staged:
            for i in range(m):
                out[t, i] = score[i]
    if not staged:
        for i in range(m):
            out[0, i] = score[i]
    return out


@njit(cache=True)
def outcome(error, restart, degenerate_run):
    """What a round's base learner with weighted error ``error`` does: KEEP it; a degenerate
    one (ε = 0 or ε ≥ ½, each within ZERO_ERROR) STOPs boosting, or with ``restart`` (after
    ``degenerate_run`` consecutive discarded ones) is kept with ε = RESTART_ERROR and restarts
    the weights (ε = 0: KEEP_THEN_RESTART), is discarded and restarts them (ε ≥ ½:
    DISCARD_THEN_RESTART), or STOPs after MAX_DEGENERATE discarded in a row."""
    perfect = error < ZERO_ERROR
    if not (perfect or error >= 0.5 - ZERO_ERROR):  # (a NaN error is kept, as it always was)
        return KEEP
    if not restart:
        return STOP
    if perfect:
        return KEEP_THEN_RESTART
    if degenerate_run + 1 >= MAX_DEGENERATE:
        return STOP
    return DISCARD_THEN_RESTART
