"""Benchmark: a resampling booster's draws fitted as their distinct rows weighted by their copies
(the code's way, ``C45._fit_round``) against the same draws fitted with their copies (the way
before 36ea3e5), in one process, alternated.

    python bench/resample_speed.py [--sets spambase,german,r-corn] [--folds 3] [--repeats 2]

For each set, AdaBoost and WeightBoost (100 rounds, ``sampling="resample"``, ``stop`` and
``restart``) are fitted on the training parts of the first ``--folds`` of a stratified 10-fold
split (a Reuters category: its whole ApteMod training set, one-vs-rest), once each way per
repeat, and the script prints CPU seconds (best of ``--repeats``) and their ratio. The two ways
must give the same booster: the training scores are compared bit for bit, and the script fails
naming the fit where they differ. Sets: the UCI tables (``snakemake data``) and ``r-<category>``
(``snakemake reuters_features``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.model_selection import StratifiedKFold

from weightboost.boosting import AdaBoost, WeightBoost
from weightboost.c45 import C45
from weightboost.c45.data import take_rows
from weightboost.data.uci import load_table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from c45_speed import reuters_one_vs_rest  # noqa: E402


def with_copies(self, data, signed, tree_labels, p, rng):
    """``C45._fit_round`` as it was: every drawn copy a row of its own, with unit weight."""
    n = len(p)
    if rng is None:
        return self._fit_checked(data, *tree_labels, n * p)
    rows = np.repeat(np.arange(n), rng.multinomial(n, p))
    return self.fit(take_rows(data, rows), signed[rows])


def training_sets(name, folds):
    if name.startswith("r-"):
        return [reuters_one_vs_rest(name, ROOT / "data/processed/reuters/matrices.npz")]
    X, y = load_table(ROOT / f"data/processed/uci/{name}.csv")
    splits = StratifiedKFold(10, shuffle=True, random_state=0).split(X, y)
    return [(X.iloc[train], y[train]) for train, _ in list(splits)[:folds]]


def fits(cls, on_degenerate, sets):
    """CPU seconds of fitting every training set, and the boosters' training scores."""
    start, scores = time.process_time(), []
    for k, (X, y) in enumerate(sets):
        model = cls(n_estimators=100, sampling="resample", on_degenerate=on_degenerate,
                    random_state=k).fit(X, y)
        scores.append(model.decision_train_)
    return time.process_time() - start, scores


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="spambase,german,r-corn")
    parser.add_argument("--folds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    by_rows = C45._fit_round
    print(f"{'set':<12}{'booster':<13}{'on_degenerate':<15}{'copies':>8}{'rows':>8}{'ratio':>7}")
    for name in args.sets.split(","):
        sets = training_sets(name, args.folds)
        for cls in (AdaBoost, WeightBoost):
            for on_degenerate in ("stop", "restart"):
                old = new = float("inf")
                for _ in range(args.repeats):
                    C45._fit_round = with_copies
                    spent, reference = fits(cls, on_degenerate, sets)
                    old = min(old, spent)
                    C45._fit_round = by_rows
                    spent, scores = fits(cls, on_degenerate, sets)
                    new = min(new, spent)
                    if not all(np.array_equal(a, b) for a, b in zip(scores, reference)):
                        sys.exit(f"{name} {cls.__name__} {on_degenerate}: the two ways gave "
                                 "different boosters")
                print(f"{name:<12}{cls.__name__:<13}{on_degenerate:<15}{old:8.2f}{new:8.2f}"
                      f"{new / old:7.2f}", flush=True)


if __name__ == "__main__":
    main()
