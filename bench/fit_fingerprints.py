"""Check: a change of the boosting code leaves every booster's fit the same, bit for bit.

    python bench/fit_fingerprints.py save BEFORE.json    # at the old code
    python bench/fit_fingerprints.py compare BEFORE.json # at the new code: exit 1 on any change

Fits every booster (AdaBoost, WeightBoost under its three normalisations and several β,
ε-Boost and its shrinkage, Weight Decay and its literal reading, RegBoost under R1 and R2,
with and without unlabelled points, RegBoostCV) on C4.5 and on decision stumps, reweighting
and resampling, stopping and restarting, on slices of five of the UCI tables and on small
cases built to stop or restart early; and records for each fit a digest of everything a table
reads from it (decision function and staged predictions on held-out rows, coefficients,
errors, round constants, rounds, restarts, the training scores, RegBoost's per-round records).
A refactoring of the round that should move no float must print "all N fits identical".
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys

import numpy as np

from weightboost import AdaBoost, EpsilonBoost, WeightBoost, WeightDecay
from weightboost.boosting.regboost import RegBoost, RegBoostCV
from weightboost.data.uci import load_table
from weightboost.stumps import DecisionStump

DATASETS = ("ionosphere", "pima", "breast_cancer", "german", "sonar")


def _digest(model, X_test) -> str:
    parts = [model.decision_function(X_test)]
    staged = list(model.staged_decision_function(X_test))
    parts += [staged[k] for k in sorted({0, len(staged) // 2, len(staged) - 1}) if staged]
    for name in ("estimator_weights_", "estimator_errors_", "round_constants_",
                 "decision_train_", "admissible_rate_", "penalties_"):
        if hasattr(model, name):
            parts.append(np.asarray(getattr(model, name), dtype=np.float64))
    counts = [getattr(model, name, -1) for name in ("n_rounds_", "restarts_", "stopped_early_",
                                                    "n_distinct_stumps_")]
    digest = hashlib.sha256(repr(counts).encode())
    for part in parts:  # NaN canonical: its sign bit is the division's, not the booster's
        part = np.where(np.isnan(part), np.nan, np.asarray(part, dtype=np.float64))
        digest.update(np.ascontiguousarray(part).tobytes())
    return digest.hexdigest()[:20]


def _boosters():
    """(name, factory of base learner -> booster) for every booster and reading."""
    out = []
    for sampling in ("reweight", "resample"):
        for degenerate in ("stop", "restart"):
            common = dict(sampling=sampling, on_degenerate=degenerate, random_state=3)
            tag = f"{sampling}/{degenerate}"
            out.append((f"AdaBoost {tag}", lambda b, c=common: AdaBoost(base_estimator=b, **c)))
            for beta, normalize in ((0.5, "tenth_mean"), (0.5, "mean"), (2, "none"),
                                    (0.0, "none"), (0.25, "tenth_mean")):
                out.append((f"WeightBoost β={beta} {normalize} {tag}",
                            lambda b, c=common, beta=beta, nm=normalize:
                            WeightBoost(base_estimator=b, beta=beta, normalize=nm, **c)))
            for shrinkage in (False, True):
                out.append((f"EpsilonBoost shrinkage={shrinkage} {tag}",
                            lambda b, c=common, s=shrinkage:
                            EpsilonBoost(base_estimator=b, epsilon=0.1, shrinkage=s, **c)))
            for variant in ("ratsch", "literal"):
                out.append((f"WeightDecay {variant} {tag}",
                            lambda b, c=common, v=variant:
                            WeightDecay(base_estimator=b, C=0.003, variant=v, **c)))
    return out


def _cases(data_dir):
    rng = np.random.default_rng(0)
    for name in DATASETS:
        X, y = load_table(f"{data_dir}/{name}.csv")
        rows = rng.permutation(len(y))[:min(len(y), 300)]
        train, test = rows[:200], rows[200:]
        yield name, X.iloc[train], y[train], X.iloc[test]
    # small cases: a separable set (ε = 0 at once) and a noisy one (ε near ½)
    X = rng.normal(size=(40, 3))
    yield "separable", X, (X[:, 0] > 0).astype(int), X[::3]
    yield "noise", X, rng.integers(0, 2, 40), X[::3]


def fingerprints(data_dir) -> dict:
    out = {}
    boosters = _boosters()
    for case, X, y, X_test in _cases(data_dir):
        # stumps: the numeric columns, missing values replaced by the column's median
        dense, dense_test = (np.asarray(A.select_dtypes("number").to_numpy(dtype=float)
                                        if hasattr(A, "iloc") else A, dtype=float)
                             for A in (X, X_test))
        medians = np.nan_to_num(np.nanmedian(dense, axis=0))
        dense = np.where(np.isnan(dense), medians, dense)
        dense_test = np.where(np.isnan(dense_test), medians, dense_test)
        for name, make in boosters:
            for base_name, base, rounds, (train, test) in (
                    ("C4.5", None, 12, (X, X_test)),
                    ("stumps", DecisionStump(), 150, (dense, dense_test))):
                model = make(base).set_params(n_estimators=rounds).fit(train, y)
                out[f"{case} | {name} | {base_name}"] = _digest(model, test)
        unlabeled = dense_test
        for lam in (0.0, 0.05, 0.3):
            for objective in ("R1", "R2"):
                for extra, tag in ((None, ""), (unlabeled, " +unlabelled")):
                    model = RegBoost(n_estimators=300, lam=lam, objective=objective).fit(
                        dense, y, unlabeled=extra)
                    out[f"{case} | RegBoost λ={lam} {objective}{tag}"] = _digest(model,
                                                                                 dense_test)
        model = RegBoostCV(n_estimators=100, lams=(0.0, 0.1), cv=3, random_state=1).fit(dense, y)
        out[f"{case} | RegBoostCV"] = _digest(model.best_estimator_, dense_test) + \
            f" λ={model.lam_}"
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("save", "compare"))
    parser.add_argument("file")
    parser.add_argument("--data", default="data/processed/uci")
    args = parser.parse_args()
    current = fingerprints(args.data)
    if args.action == "save":
        with open(args.file, "w") as f:
            json.dump(current, f, indent=0, ensure_ascii=False)
        print(f"{len(current)} fits saved to {args.file}")
        return
    with open(args.file) as f:
        before = json.load(f)
    moved = [k for k in before if before[k] != current.get(k)]
    for k in moved:
        print(f"moved: {k}")
    if moved or before.keys() != current.keys():
        print(f"{len(moved)} of {len(before)} fits moved")
        sys.exit(1)
    print(f"all {len(before)} fits identical")


if __name__ == "__main__":
    main()
