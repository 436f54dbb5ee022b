"""Benchmark: fit time of the project's C4.5 against scikit-learn's entropy tree.

    python bench/c45_speed.py [--data data/processed/uci] [--reuters PATH] [--repeats 9]

For each canonical UCI table (build them with `snakemake data`), on the training part of one
stratified 90/10 split:

* single fit: ``C45().fit(X, y)`` from a numpy array (encoding and sorting included) against
  ``DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2).fit(X, y)``;
* repeated fit: boosting's pattern, many fits on the same X with new weights. C4.5 reuses one
  ``prepare(X)`` (the presorted order); sklearn fits with ``sample_weight``.

A last row, outside the medians, does the same on the sparse Reuters training matrix (one
category against the rest, 4 weightings, at most 3 repeats) when its matrices exist.

Times are medians over ``--repeats`` runs, in milliseconds. The two learners are timed in
pairs, one run of each back to back (which one goes first alternates), and a row's ratio is
the median of the pairs' ratios C4.5 / sklearn (lower is better): on a machine whose speed
drifts by 10-30 % from minute to minute, the learners then see the same machine, which timing
all runs of one and then all runs of the other does not give. Numba compilation happens
before timing.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier

from weightboost.c45 import C45, prepare
from weightboost.data.uci import load_table

DATASETS = ["ionosphere", "german", "pima", "breast_cancer", "wpbc", "wdbc", "cmc", "spambase"]
REUTERS_CATEGORY = "acq"   # one-vs-rest on the ApteMod training split, as in the Reuters study
REUTERS_ROUNDS = 4


def as_array(X):
    """Numeric matrix for both learners; nominal columns become their codes (NaN if missing)."""
    out = X.copy()
    for column in out.columns:
        if str(out[column].dtype) == "category":
            out[column] = out[column].cat.codes.astype(float).replace(-1.0, np.nan)
    return out.to_numpy(dtype=float)


def reuters_one_vs_rest(name, matrices):
    """A set ``r-<category>`` of the benchmarks: Reuters' training matrix (``matrices``, the
    ``reuters_features`` output) and its labels one-vs-rest, +1 for the category, else -1."""
    from weightboost.reuters.stage import load_matrices

    X, _, labels, _, categories = load_matrices(matrices)
    return X, np.where(labels[:, categories.index(name[2:])] == 1, 1, -1)


def seconds(fn):
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def paired(ours, theirs, repeats):
    """(median ms of ``ours``, median ms of ``theirs``, median of the pairs' time ratios),
    each pair timed back to back, the first of the pair alternating."""
    a, b = [], []
    for r in range(repeats):
        if r % 2:
            b.append(seconds(theirs))
            a.append(seconds(ours))
        else:
            a.append(seconds(ours))
            b.append(seconds(theirs))
    return (1000 * statistics.median(a), 1000 * statistics.median(b),
            statistics.median(x / y for x, y in zip(a, b)))


def compare(name, X, y, nominal, weights, repeats):
    """One table row: single and repeated fit times of C4.5 and sklearn on (X, y)."""
    sk = DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2, random_state=0)
    c45 = C45(nominal_features=nominal)
    single = paired(lambda: c45.fit(X, y), lambda: sk.fit(X, y), repeats)
    data = prepare(X, nominal)

    def c45_rounds():
        for w in weights:
            c45.fit(data, y, sample_weight=w)

    def sk_rounds():
        for w in weights:
            sk.fit(X, y, sample_weight=w)

    r_c45, r_sk, r_ratio = paired(c45_rounds, sk_rounds, repeats)
    return (name, len(y), *single, r_c45 / len(weights), r_sk / len(weights), r_ratio)


def unit_mean_weights(rng, n, rounds):
    weights = [rng.exponential(size=n) for _ in range(rounds)]
    return [w * n / w.sum() for w in weights]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="data/processed/uci")
    parser.add_argument("--reuters", default="data/processed/reuters/matrices.npz",
                        help="Reuters matrices (`snakemake reuters_features`); skipped if absent")
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--rounds", type=int, default=20, help="fits per repeated-fit timing")
    args = parser.parse_args()

    C45().fit(np.array([[0.0], [1.0], [2.0], [3.0]]), [0, 0, 1, 1])  # compile
    rng = np.random.default_rng(0)
    rows = []
    for name in DATASETS:
        X, y = load_table(Path(args.data) / f"{name}.csv")
        Xa = as_array(X)
        nominal = [j for j, c in enumerate(X.columns) if str(X[c].dtype) == "category"]
        Xtr, _, ytr, _ = train_test_split(Xa, y, test_size=0.1, stratify=y, random_state=0)
        rows.append(compare(name, Xtr, ytr, nominal, unit_mean_weights(rng, len(ytr),
                                                                        args.rounds),
                            args.repeats))
    extra = []
    if Path(args.reuters).exists():
        from weightboost.reuters.stage import load_matrices

        X_train, _, labels, _, categories = load_matrices(args.reuters)
        y = labels[:, categories.index(REUTERS_CATEGORY)]
        extra.append(compare(f"reuters {REUTERS_CATEGORY} (sparse)", X_train.tocsc(), y, None,
                             unit_mean_weights(rng, len(y), REUTERS_ROUNDS),
                             min(args.repeats, 3)))

    header = ("dataset", "n_train", "C4.5 ms", "sklearn ms", "ratio",
              "C4.5 rep ms", "sklearn rep ms", "rep ratio")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for r in rows + extra:
        print(f"| {r[0]} | {r[1]} | {r[2]:.2f} | {r[3]:.2f} | {r[4]:.2f} | {r[5]:.2f} | "
              f"{r[6]:.2f} | {r[7]:.2f} |")
    # three decimals: the median of eight ratios is the mean of the middle two, and the
    # issue's goals (0.35, 0.2) are read against it unrounded
    print(f"\nmedian ratio over the UCI sets, single fit: "
          f"{statistics.median(r[4] for r in rows):.3f}"
          f"   repeated fit with reused order: {statistics.median(r[7] for r in rows):.3f}")


if __name__ == "__main__":
    main()
