"""Benchmark: what a boosting round with stumps costs today against the same round compiled
whole, on the RegBoost study's four sets (docs/performance.md, "The RegBoost study").

    python bench/round_floor.py [--share 0.72] [--rounds 1000] [--repeats 5]

For each set, one training set of ``--share`` of the rows (an inner training fold of
RegBoostCV), its stumps and 8-NN graph prepared once, λ = 0.1, and:

* ``loop``: ``RegBoost(lam=0.1).fit`` on the prepared data: since 2026-11-29 the compiled
  driver of the boosting loop (``weightboost.stumps.boost``) and the stumps' records, before
  it the loop of ``weightboost.boosting.core`` in Python around the compiled scan;
* ``compiled``: the same round (scan, the stump's outputs, ε, α of eq (3), the additive score,
  the weights by ``libm.distribution``) in one compiled function, i.e. the floor of a round once
  the loop's Python is gone. It is not the booster (no records, no stop rule but ε's) and it is
  not used by any learner: it measures what compiling the shared loop could buy (its
  training scores are checked equal, bit for bit, to the booster's);
* ``scan`` and ``weights``: the two compiled calls alone, the floor of the floor.

Prints µs per round (best of ``--repeats``) and the ratio loop / compiled.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

# bench/, beside this script
from regboost_rounds import best, fold_arguments, signed_labels, timed, training_fold
from weightboost.boosting import libm
from weightboost.boosting.regboost import RegBoost
from weightboost.boosting.rules import offset_term
from weightboost.stumps.search import SCAN_PENALTY, _scan

DATASETS = ("ionosphere", "breast_cancer", "sonar", "pima")


@njit
def compiled_rounds(scan_arrays, signed, rounds, lam):
    """``rounds`` RegBoost rounds (R1) compiled whole: the rounds run and the training score."""
    n = signed.shape[0]
    score = np.zeros(n)
    p = np.full(n, 1.0 / n)
    for t in range(rounds):
        c, feature, edge, admissible, outputs = _scan(*scan_arrays, n * p, signed, 2.0 * lam,
                                                      False)
        error = libm.misclassified_weight(p, outputs == signed)
        theta = 2.0 * lam * scan_arrays[SCAN_PENALTY][c]
        if error <= 1e-12 or error >= 0.5 or theta >= 1.0:
            return t, score
        alpha = 0.5 * math.log((1.0 - error) / error) - 0.5 * math.log((1.0 + theta)
                                                                     / (1.0 - theta))
        if alpha <= 0:
            return t, score
        for i in range(n):
            score[i] += alpha * outputs[i]
        p = libm.distribution(-signed * score)
    return rounds, score


@njit
def scans(scan_arrays, signed, rounds, weights):
    chosen = 0
    for _ in range(rounds):
        chosen += _scan(*scan_arrays, weights, signed, 0.2, False)[0]
    return chosen


@njit
def distributions(log_w, rounds):
    total = 0.0
    for _ in range(rounds):
        total += libm.distribution(log_w)[0]
    return total


def main():
    args = fold_arguments(__doc__, repeats=5, rounds=1000)
    rng = np.random.default_rng(args.seed)
    assert offset_term(0.0) == 0.0
    print(f"{'dataset':>14}{'n':>5}{'rounds':>8}{'loop µs':>9}{'compiled':>10}{'scan':>7}"
          f"{'weights':>9}{'ratio':>7}")
    for name in DATASETS:
        data, y_rows = training_fold(name, args.data, args.share, rng)
        n = len(y_rows)
        signed = signed_labels(y_rows)
        arrays = (data.scan_arrays, signed)
        compiled_rounds(*arrays, 3, 0.1)  # compile outside the timing
        scans(*arrays, 3, np.ones(n))
        distributions(np.zeros(n), 3)
        fitted = RegBoost(n_estimators=args.rounds, lam=0.1).fit(data, y_rows)
        rounds = fitted.n_rounds_
        ran, score = compiled_rounds(*arrays, args.rounds, 0.1)
        # the same computation: the loop's training scores, bit for bit
        assert ran == rounds and np.array_equal(score, fitted.decision_train_), name
        loop = best(lambda: timed(lambda: RegBoost(n_estimators=args.rounds, lam=0.1).fit(
            data, y_rows))[0], args.repeats) / rounds
        whole = best(lambda: timed(lambda: compiled_rounds(*arrays, args.rounds, 0.1))[0],
                     args.repeats) / rounds
        scan = best(lambda: timed(lambda: scans(*arrays, rounds, rng.random(n) * n))[0],
                    args.repeats) / rounds
        weights = best(lambda: timed(lambda: distributions(rng.normal(size=n), rounds))[0],
                      args.repeats) / rounds
        print(f"{name:>14}{n:>5}{rounds:>8}{loop * 1e6:9.1f}{whole * 1e6:10.1f}"
              f"{scan * 1e6:7.1f}{weights * 1e6:9.2f}{loop / whole:7.2f}")


if __name__ == "__main__":
    main()
