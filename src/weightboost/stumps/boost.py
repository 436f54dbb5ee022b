"""The compiled driver of the boosting loop for decision stumps: every round of a fit in one
compiled call (the loop's rounds as ``weightboost.boosting.core`` describes them, with the
kernels of ``weightboost.boosting.rules``).

A round with a stump costs about as much as the loop's Python around it (a scan of ~10 µs on
Ionosphere); compiled whole, a 1000-round RegBoost fit is two to three times faster
(docs/performance.md, "The RegBoost study"). ``DecisionStump._boost`` calls it when the
booster reweights and its rules are all kernels'; the Python driver remains for resampling,
Weight Decay, and the rare training set whose features are all constant (the driver returns
``FALLBACK`` at once). Both drivers give the same booster bit for bit
(tests/test_boosting_drivers.py).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from weightboost.boosting import libm, rules
from weightboost.boosting.rules import (DISCARD_THEN_RESTART, KEEP_THEN_RESTART, RESTART_ERROR,
                                        STOP)
from weightboost.stumps.search import SCAN_PENALTY, _scan, edge_offset

FALLBACK = -1  # a round found no threshold: the Python driver fits the constant stump


@njit(cache=True)
def boost_stumps(scan_arrays, signed, offset_scale, use_r2, n_estimators, restart, weights,
                 beta, coefficient_rule, step, combination):
    """Boost stumps on the prepared candidates (``StumpData.scan_arrays``) with labels ``signed``
    in {-1, 1}; the stumps' edge offset is ``offset_scale``·penalty, ``use_r2`` their
    objective; ``restart`` the loop's ``on_degenerate="restart"``; the rest a ``Rules``.

    Returns (status, rounds kept, restarts, stopped early, the first stump kept alone as the
    model, training scores, and per kept round: candidate, feature, edge, admissible
    candidates, weighted error, coefficient, round constant); status is 0, or FALLBACK."""
    n = signed.shape[0]
    penalty = scan_arrays[SCAN_PENALTY]
    chosen = np.empty(n_estimators, dtype=np.int64)
    features = np.empty(n_estimators, dtype=np.int64)
    edges = np.empty(n_estimators)
    admissible = np.empty(n_estimators, dtype=np.int64)
    errors = np.empty(n_estimators)
    coefficients = np.empty(n_estimators)
    constants = np.empty(n_estimators)
    score = np.zeros(n)
    origin = np.zeros(n)
    kept, restarts, degenerate_run = 0, 0, 0
    stopped, single = False, False
    while kept < n_estimators:
        relative = score - origin
        margin = signed * relative
        p = libm.distribution(rules.weight_log(weights, beta, margin, relative))
        c, feature, edge, n_admissible, outputs = _scan(*scan_arrays, n * p, signed,
                                                        offset_scale, use_r2)
        if c < 0:
            return FALLBACK, 0, 0, False, False, score, chosen, features, edges, admissible, \
                errors, coefficients, constants
        error = libm.misclassified_weight(p, outputs == signed)
        action = rules.outcome(error, restart, degenerate_run)
        if action == DISCARD_THEN_RESTART:  # restart from uniform weights without it
            restarts += 1
            degenerate_run += 1
            origin = score.copy()
            continue
        accepted, coefficient, constant = False, 0.0, 1.0
        if action != STOP:
            degenerate_run = 0
            if action == KEEP_THEN_RESTART:
                error = RESTART_ERROR
            accepted, coefficient = rules.coefficient(coefficient_rule, step, error,
                                                      edge_offset(offset_scale, penalty[c]))
            if accepted:
                constant = rules.round_constant(combination, beta, score)
                accepted = rules.usable_constant(constant)
        if not accepted:  # stopped by the stop rule, or declined (coefficient, C_t)
            stopped = True
            if kept == 0:  # keep h_1 as the whole model
                single = True
                coefficient, constant, score = 1.0, np.nan, outputs.copy()
                chosen[0], features[0], edges[0], admissible[0] = c, feature, edge, n_admissible
                errors[0], coefficients[0], constants[0] = error, coefficient, constant
                kept = 1
            break
        score = rules.combine(combination, beta, score, coefficient, constant, outputs)
        chosen[kept], features[kept], edges[kept], admissible[kept] = c, feature, edge, \
            n_admissible
        errors[kept], coefficients[kept], constants[kept] = error, coefficient, constant
        kept += 1
        if action == KEEP_THEN_RESTART:
            restarts += 1
            origin = score.copy()
    return 0, kept, restarts, stopped, single, score, chosen, features, edges, admissible, \
        errors, coefficients, constants
