"""Benchmark: where a RegBoost fit's time goes, per data set and per λ of the inner-CV grid
(what RegBoostCV pays: its 40 inner fits per outer fold are fits like these).

    python bench/regboost_rounds.py [--share 0.72] [--repeats 3] [--seed 0]

For each of the RegBoost study's four sets: one training set (a random ``--share`` of the rows,
missing values replaced by the median as in bench/stump_speed.py), its stumps and 8-NN graph
prepared once, then ``RegBoost(lam=λ)`` fitted on it for every λ of ``LAMBDA_GRID``. Prints the
points and candidate stumps, the rounds each λ runs, the best of ``--repeats`` milliseconds per
fit and µs per round, and the µs of one scan (uniform weights): a round's time beyond the scan
is the shared boosting loop's (docs/performance.md, "The RegBoost study").
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from weightboost.boosting.regboost import LAMBDA_GRID, RegBoost
from weightboost.data.uci import load_table
from weightboost.stumps import prepare_stumps
from weightboost.stumps.search import scan

DATASETS = ("ionosphere", "breast_cancer", "sonar", "pima")


def training_fold(name, data_dir, share, rng):
    """A random ``share`` of a set's rows (missing values replaced by the column's median), its
    stumps and 8-NN graph prepared as RegBoostCV prepares an inner training fold; and its
    labels."""
    X, y = load_table(f"{data_dir}/{name}.csv")
    X = X.to_numpy(dtype=float)
    X = np.where(np.isnan(X), np.nanmedian(X, axis=0), X)
    rows = np.sort(rng.permutation(len(y))[:int(len(y) * share)])
    return prepare_stumps(X[rows], None, 8, "raw"), y[rows]


def signed_labels(y):
    """The labels as -1/+1, +1 for the larger class label (RegBoost's ``classes_[1]``)."""
    return np.where(y == np.unique(y)[1], 1.0, -1.0)


def best(seconds_of, repeats):
    return min(seconds_of() for _ in range(repeats))


def timed(call):
    start = time.perf_counter()
    result = call()
    return time.perf_counter() - start, result


def fold_arguments(doc: str, repeats: int, **extra) -> argparse.Namespace:
    """The command line of the benchmarks that time inner training folds (``training_fold``):
    --data, --share, --repeats, --seed, and the ``extra`` integer options with their defaults."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--data", default="data/processed/uci")
    parser.add_argument("--share", type=float, default=0.72)
    for name, default in extra.items():
        parser.add_argument(f"--{name}", type=int, default=default)
    parser.add_argument("--repeats", type=int, default=repeats)
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args()


def main():
    args = fold_arguments(__doc__, repeats=3)
    rng = np.random.default_rng(args.seed)
    RegBoost(n_estimators=3).fit(rng.normal(size=(30, 3)), np.arange(30) % 2)  # compile
    for name in DATASETS:
        data, y_rows = training_fold(name, args.data, args.share, rng)
        n = len(y_rows)
        signed = np.where(y_rows == y_rows[0], 1.0, -1.0)
        uniform = np.full(n, 1.0)
        scan_us = best(lambda: timed(lambda: scan(data, uniform, signed, 0.1, "R1"))[0],
                       max(args.repeats, 200)) * 1e6
        print(f"{name}: {n} points, {data.n_candidates} candidates, one scan {scan_us:.1f} µs")
        print(f"  {'lam':>6}{'rounds':>8}{'ms/fit':>9}{'µs/round':>10}")
        for lam in LAMBDA_GRID:
            seconds, model = min((timed(lambda: RegBoost(lam=lam).fit(data, y_rows))
                                  for _ in range(args.repeats)), key=lambda pair: pair[0])
            print(f"  {lam:>6}{model.n_rounds_:>8}{seconds * 1e3:9.1f}"
                  f"{seconds / model.n_rounds_ * 1e6:10.1f}")


if __name__ == "__main__":
    main()
