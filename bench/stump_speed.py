"""Benchmark: 1000-round AdaBoost with decision stumps, the project's against scikit-learn's,
on the RegBoost study's four sets (issue: median time ratio ≤ 0.01).

    python bench/stump_speed.py [--rounds 1000] [--repeats 3]

Same process, one core, the whole canonical table (missing values replaced by the median):

* ``weightboost.AdaBoost(base_estimator=DecisionStump())``: the features sorted once per fit,
  one compiled scan per round (docs/algorithms.md §7.4);
* ``sklearn.ensemble.AdaBoostClassifier(DecisionTreeClassifier(max_depth=1))`` (SAMME, the
  only algorithm of scikit-learn ≥ 1.6).

Also ``RegBoost(lam=0.1)`` (the graph built in the fit). Prints the best of ``--repeats`` wall
seconds per fit, the ratios and their median, and both training errors: scikit-learn's tree
chooses its split by Gini impurity, ours by weighted error (AdaBoost's rule), so the two
ensembles differ where those disagree.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from sklearn.ensemble import AdaBoostClassifier
from sklearn.tree import DecisionTreeClassifier

from weightboost.boosting import AdaBoost, RegBoost
from weightboost.data.uci import load_table
from weightboost.stumps import DecisionStump

DATASETS = ("ionosphere", "breast_cancer", "sonar", "pima")


def best_time(make, X, y, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        model = make().fit(X, y)
        times.append(time.perf_counter() - start)
    return min(times), float(np.mean(model.predict(X) != y))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="data/processed/uci")
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    T = args.rounds
    ours = lambda: AdaBoost(n_estimators=T, base_estimator=DecisionStump())  # noqa: E731
    theirs = lambda: AdaBoostClassifier(DecisionTreeClassifier(max_depth=1),  # noqa: E731
                                        n_estimators=T)
    regboost = lambda: RegBoost(n_estimators=T, lam=0.1)  # noqa: E731
    ours().fit(np.random.default_rng(0).normal(size=(30, 3)), np.arange(30) % 2)  # compile
    print(f"{'dataset':<14}{'n x d':>10}{'ours s':>9}{'sklearn s':>11}{'ratio':>8}"
          f"{'RegBoost s':>12}{'train err ours/sk':>20}")
    ratios = []
    for name in DATASETS:
        X, y = load_table(f"{args.data}/{name}.csv")
        X = X.to_numpy(dtype=float)
        X = np.where(np.isnan(X), np.nanmedian(X, axis=0), X)
        t_ours, e_ours = best_time(ours, X, y, args.repeats)
        t_sk, e_sk = best_time(theirs, X, y, args.repeats)
        t_reg, _ = best_time(regboost, X, y, args.repeats)
        ratios.append(t_ours / t_sk)
        print(f"{name:<14}{f'{X.shape[0]}x{X.shape[1]}':>10}{t_ours:9.3f}{t_sk:11.3f}"
              f"{t_ours / t_sk:8.3f}{t_reg:12.3f}{f'{e_ours:.4f}/{e_sk:.4f}':>20}")
    print(f"median time ratio (ours / scikit-learn): {np.median(ratios):.3f}")


if __name__ == "__main__":
    main()
