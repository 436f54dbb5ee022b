"""The cells of the RegBoost study (docs/protocol.md §5): one (dataset, noise level, fold order,
missing rule, learner) over its repeats, and one semi-supervised algorithm over its draws.

What a cell computes depends on this module, the learners and the UCI cells' folds, noise and
table loading (``experiment.protocol``, ``experiment.uci``), not on how the study is planned or
tabulated (``weightboost.experiment.regboost``): these are the study's entry in
``TABLE_SET_CODE``, so a change of the plan reruns no cell.

A cell writes one row per fold and the learning curves (mean over the folds of each repeat:
training and test error and the rate of admissible stumps after every round t).
``regboost_cell`` and ``regboost_semi_cell`` are the jobs (``weightboost.pipeline.warm.JOBS``).
"""

from __future__ import annotations

import inspect
import zlib

import numpy as np
import pandas as pd

from weightboost.errors import ConfigError
from weightboost.experiment.cell_names import parse_cell_name
from weightboost.experiment.learners import make_learner
from weightboost.experiment.protocol import cpu_seconds, folds, learner_seed, noisy_labels
from weightboost.experiment.uci import load_experiment_table
from weightboost.fileio import write_csv_atomic

FOLD_COLUMNS = ["dataset", "cell", "noise", "repeat", "fold", "n_train", "n_test", "lam",
                "cv_errors", "train_error", "test_error", "distinct_stumps", "rounds",
                "fit_seconds"]
CURVE_COLUMNS = ["dataset", "cell", "noise", "repeat", "t", "train_error", "test_error",
                 "admissible_rate"]
SEMI_COLUMNS = ["dataset", "algorithm", "draw", "n_labelled", "n_unlabelled", "lam",
                "train_error", "test_error", "distinct_stumps", "rounds"]
SEMI_CURVE_COLUMNS = ["dataset", "algorithm", "draw", "t", "train_error", "test_error",
                      "admissible_rate"]



def regboost_cell(table, sidecar, output, curve_output, dataset, noise, fold_order, missing,
                  algorithm, repeats, protocol, learner, data):
    """The job of a cell: its path's wildcards and its key's parts (the study's ``protocol``:
    seed, folds, rounds; the ``learner`` entry; the dataset's ``data`` entry) by name."""
    X, y = load_experiment_table(table, sidecar, dataset, data.get("table_sha256"))
    rows, curves = run_cell(X, y, dataset, algorithm, learner, float(noise), fold_order,
                            missing, int(repeats), protocol)
    write_csv_atomic(output, rows)
    write_csv_atomic(curve_output, curves)


def regboost_semi_cell(table, sidecar, output, curve_output, dataset, algorithm, protocol,
                       learner, data):
    """The job of one algorithm of the semi-supervised experiment over every draw (its
    ``protocol`` holds ``labelled`` and ``draws`` besides the study's)."""
    X, y = load_experiment_table(table, sidecar, dataset, data.get("table_sha256"))
    rows, curves = run_semi_supervised(X, y, dataset, algorithm, learner,
                                       int(protocol["draws"]), int(protocol["labelled"]),
                                       protocol)
    write_csv_atomic(output, rows)
    write_csv_atomic(curve_output, curves)


# -- a cell ------------------------------------------------------------------------
def impute_median(X_train: np.ndarray, X_test: np.ndarray):
    """Missing values of both parts replaced by the training part's column medians."""
    if not (np.isnan(X_train).any() or np.isnan(X_test).any()):
        return X_train, X_test
    medians = np.nanmedian(X_train, axis=0)
    fill = lambda X: np.where(np.isnan(X), medians, X)  # noqa: E731
    return fill(X_train), fill(X_test)


def as_matrix(X, missing: str) -> tuple[np.ndarray, np.ndarray]:
    """The table as a float matrix, and the rows kept (all, or the complete ones)."""
    matrix = X.to_numpy(dtype=np.float64) if hasattr(X, "iloc") else np.asarray(X, float)
    keep = np.arange(len(matrix))
    if missing == "drop":
        keep = np.flatnonzero(~np.isnan(matrix).any(axis=1))
    return matrix[keep], keep


def takes_unlabeled(model) -> bool:
    return "unlabeled" in inspect.signature(model.fit).parameters


def fit_or_explain(model, cell: str, dataset: str, X, y, **extra):
    """``model.fit``; a graph too small for k (a fold smaller than the config check could
    foresee, e.g. after dropping incomplete rows) stops with the key to change."""
    try:
        return model.fit(X, y, **extra)
    except ValueError as exc:
        if "n_neighbors" not in str(exc):
            raise
        entry = parse_cell_name(cell)[0]
        raise ConfigError(f"{dataset}, {cell}: {exc}; lower algorithms.{entry}.params."
                          "n_neighbors or use fewer folds") from None


def staged_errors(model, X, y, rounds: int) -> np.ndarray:
    """Error after every round 1..rounds; a booster that stopped keeps its last error."""
    errors = np.full(rounds, np.nan)
    t = -1
    for t, predicted in enumerate(model.staged_predict(X)):
        if t >= rounds:
            break
        errors[t] = np.mean(predicted != y)
    errors[t + 1:] = errors[t]
    return errors


def records(model, rounds: int) -> dict:
    """Chosen λ, the inner-CV error of every λ of the grid (``cv_errors``: in grid order, joined
    by ";"; empty without inner CV), distinct stumps and the admissible rate per round of a
    (CV-)RegBoost or an AdaBoost with stumps. Each λ's inner-CV error depends on that λ alone
    (the same inner folds for all), so the choice inner CV makes within part of the grid is
    the least of these errors over that part: the report reads the choices of a shorter grid
    from them."""
    fitted = getattr(model, "best_estimator_", model)
    stumps = [s for s in getattr(fitted, "estimators_", []) if hasattr(s, "n_admissible_")]
    rate = np.full(rounds, np.nan)
    if stumps:
        values = [s.n_admissible_ / s.n_candidates_ if s.n_candidates_ else 0.0
                  for s in stumps][:rounds]
        rate[:len(values)] = values
    lam = getattr(model, "lam_", getattr(fitted, "lam", np.nan))
    distinct = len({(s.feature_, s.threshold_) for s in stumps}) if stumps else np.nan
    cv_errors = ";".join(repr(float(e)) for e in getattr(model, "cv_errors_", []))
    return {"lam": float(lam), "cv_errors": cv_errors, "distinct_stumps": distinct,
            "admissible_rate": rate}


def run_cell(X, y, dataset: str, cell: str, spec: dict, noise: float, fold_order: str,
             missing: str, repeats: int, protocol: dict):
    """(fold rows, curve rows) of one cell over repeats 0..repeats-1 (module docstring)."""
    matrix, keep = as_matrix(X, missing)
    y = np.asarray(y)[keep]
    rounds, seed = int(protocol["rounds"]), int(protocol["seed"])
    rows, curves = [], []
    for repeat in range(repeats):
        train_curve, test_curve, rate_curve = [], [], []
        splits = folds(y, int(protocol["folds"]), seed, dataset, repeat, fold_order)
        for fold, (train, test) in enumerate(splits):
            y_train, _ = noisy_labels(y[train], noise, seed, dataset, repeat, fold)
            X_train, X_test = impute_median(matrix[train], matrix[test])
            model = make_learner(cell, spec, rounds, learner_seed(seed, dataset, repeat, fold))
            start = cpu_seconds()
            fit_or_explain(model, cell, dataset, X_train, y_train)
            seconds = cpu_seconds() - start
            train_errors = staged_errors(model, X_train, y_train, rounds)
            test_errors = staged_errors(model, X_test, y[test], rounds)
            record = records(model, rounds)
            rows.append({"dataset": dataset, "cell": cell, "noise": noise, "repeat": repeat,
                         "fold": fold, "n_train": len(train), "n_test": len(test),
                         "lam": record["lam"], "cv_errors": record["cv_errors"],
                         "train_error": train_errors[-1],
                         "test_error": test_errors[-1],
                         "distinct_stumps": record["distinct_stumps"],
                         "rounds": int(getattr(model, "n_rounds_", 1)),
                         "fit_seconds": round(seconds, 4)})
            train_curve.append(train_errors)
            test_curve.append(test_errors)
            rate_curve.append(record["admissible_rate"])
        curves.append(pd.DataFrame({
            "dataset": dataset, "cell": cell, "noise": noise, "repeat": repeat,
            "t": np.arange(1, rounds + 1), "train_error": np.mean(train_curve, axis=0),
            "test_error": np.mean(test_curve, axis=0),
            "admissible_rate": _nanmean(np.array(rate_curve))}))
    return pd.DataFrame(rows, columns=FOLD_COLUMNS), pd.concat(curves, ignore_index=True)


def _nanmean(a: np.ndarray) -> np.ndarray:
    """Column means over the folds that still ran (NaN where none did)."""
    counts = np.sum(~np.isnan(a), axis=0)
    sums = np.nansum(a, axis=0)
    return np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)


# -- the semi-supervised experiment (Figure 3(f)) --------------------------------------------
def labelled_draw(y: np.ndarray, n_labelled: int, seed: int, dataset: str, draw: int):
    """(labelled rows, unlabelled rows) of a draw: n_labelled rows uniformly at random, drawn
    again (same stream) until both classes are among them."""
    if not 2 <= n_labelled < len(y):
        raise ConfigError(f"regboost.semi_supervised.labelled = {n_labelled} must be at least 2 "
                          f"and below the {len(y)} rows of {dataset}")
    rng = np.random.default_rng(np.random.SeedSequence(
        [seed, zlib.crc32(dataset.encode()), draw, 7]))
    while True:
        labelled = np.sort(rng.choice(len(y), n_labelled, replace=False))
        if len(np.unique(y[labelled])) == 2:
            return labelled, np.setdiff1d(np.arange(len(y)), labelled)


def run_semi_supervised(X, y, dataset: str, algorithm: str, spec: dict, draws: int,
                        n_labelled: int, protocol: dict):
    """(rows, curves) of one algorithm over the draws: fitted on the labelled points (and,
    where the learner takes them, the unlabelled ones as ``unlabeled``), tested on the
    unlabelled points (the transductive setting of Figure 3(f) and of Belkin & Niyogi)."""
    matrix, _ = as_matrix(X, "median")
    y = np.asarray(y)
    rounds, seed = int(protocol["rounds"]), int(protocol["seed"])
    rows, curves = [], []
    for draw in range(draws):
        labelled, unlabelled = labelled_draw(y, n_labelled, seed, dataset, draw)
        X_l, X_u = impute_median(matrix[labelled], matrix[unlabelled])
        model = make_learner(algorithm, spec, rounds, learner_seed(seed, dataset, draw, 0))
        fit_or_explain(model, algorithm, dataset, X_l, y[labelled],
                       **({"unlabeled": X_u} if takes_unlabeled(model) else {}))
        record = records(model, rounds)
        row = {"dataset": dataset, "algorithm": algorithm, "draw": draw,
               "n_labelled": len(labelled), "n_unlabelled": len(unlabelled),
               "lam": record["lam"], "distinct_stumps": record["distinct_stumps"],
               "rounds": int(getattr(model, "n_rounds_", 1))}
        if hasattr(model, "staged_predict"):
            train_errors = staged_errors(model, X_l, y[labelled], rounds)
            test_errors = staged_errors(model, X_u, y[unlabelled], rounds)
            curves.append(pd.DataFrame({
                "dataset": dataset, "algorithm": algorithm, "draw": draw,
                "t": np.arange(1, rounds + 1), "train_error": train_errors,
                "test_error": test_errors, "admissible_rate": record["admissible_rate"]}))
            row |= {"train_error": train_errors[-1], "test_error": test_errors[-1]}
        else:
            row |= {"train_error": float(np.mean(model.predict(X_l) != y[labelled])),
                    "test_error": float(np.mean(model.predict(X_u) != y[unlabelled]))}
        rows.append(row)
    curve = pd.concat(curves, ignore_index=True) if curves else \
        pd.DataFrame(columns=SEMI_CURVE_COLUMNS)
    return pd.DataFrame(rows, columns=SEMI_COLUMNS), curve[SEMI_CURVE_COLUMNS]
