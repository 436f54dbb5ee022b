"""Benchmark: 10-fold CV of 100-round AdaBoost, the project's C4.5 against scikit-learn.

    python bench/boosting_speed.py [--dataset spambase] [--folds 10] [--rounds 100]

Both run on one core in the same process, on the same stratified folds:

* ``weightboost.AdaBoost`` with the project's C4.5 (pruned, J48 defaults; the presorted order
  of each training fold is reused across rounds);
* ``sklearn.ensemble.AdaBoostClassifier`` with
  ``DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2)``.

Prints wall seconds, rounds actually used and test error for each, and the speed-up.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from sklearn.ensemble import AdaBoostClassifier
from sklearn.model_selection import StratifiedKFold
from sklearn.tree import DecisionTreeClassifier

from weightboost.boosting import AdaBoost
from weightboost.data.uci import load_table

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from c45_speed import as_array  # noqa: E402


def run(make, X, y, folds):
    start = time.perf_counter()
    errors, rounds = [], []
    for train, test in folds:
        model = make().fit(X[train], y[train])
        errors.append(np.mean(model.predict(X[test]) != y[test]))
        rounds.append(len(model.estimators_))
    return time.perf_counter() - start, 100 * np.mean(errors), np.mean(rounds)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="data/processed/uci")
    parser.add_argument("--dataset", default="spambase")
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=100)
    args = parser.parse_args()

    X, y = load_table(Path(args.data) / f"{args.dataset}.csv")
    Xa = as_array(X)
    folds = list(StratifiedKFold(args.folds, shuffle=True, random_state=0).split(Xa, y))
    AdaBoost(n_estimators=2).fit(Xa[::50], y[::50])  # compile the kernels before timing

    ours = run(lambda: AdaBoost(n_estimators=args.rounds), Xa, y, folds)
    theirs = run(lambda: AdaBoostClassifier(
        DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2, random_state=0),
        n_estimators=args.rounds, random_state=0), Xa, y, folds)
    print(f"{args.dataset}: {args.folds}-fold CV of {args.rounds}-round AdaBoost, one core")
    print("| learner | wall s | mean rounds used | test error % |")
    print("|---|---|---|---|")
    print(f"| weightboost AdaBoost + C4.5 | {ours[0]:.1f} | {ours[2]:.1f} | {ours[1]:.2f} |")
    print(f"| sklearn AdaBoostClassifier + entropy tree | {theirs[0]:.1f} | {theirs[2]:.1f} | "
          f"{theirs[1]:.2f} |")
    print(f"speed-up: {theirs[0] / ours[0]:.1f}x")


if __name__ == "__main__":
    main()
