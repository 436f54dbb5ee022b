"""The RegBoost study (Wang & Kégl 2004; config section ``regboost``, docs/protocol.md §5):
Table 1 and Figure 3 by cross-validation under several readings, and the semi-supervised
ionosphere experiment of Figure 3(f).

It runs on the UCI grid's machinery: the same canonical tables, folds (``protocol.folds``,
seeded by ``experiment.seed``, so a dataset has the same folds in both studies), learners from
the config section ``algorithms``, and readings resolved to cell names as the sensitivity
study resolves them (``sensitivity.resolve``: a reading that leaves a learner as it is shares
its cell). A reading may also change the protocol: ``fold_order`` (stratified and shuffled, or
the file's order) and ``missing`` (how stumps, which take no missing values, see breast
cancer's 16 missing values: the training fold's ``median``, or ``drop`` the rows first).

A *cell* is (dataset, fold order, missing rule, learner cell name) over its first ``repeats``
repeats; it writes one row per fold and the learning curves (mean over the folds of each
repeat: training and test error and the rate of admissible stumps after every round t).
"""

from __future__ import annotations

import inspect
import math
import time
import zlib

import numpy as np
import pandas as pd

from weightboost.errors import ConfigError
from weightboost.experiment.learners import make_learner
from weightboost.experiment.protocol import FOLD_ORDERS, folds, learner_seed, noisy_labels

MISSING_RULES = ("median", "drop")
PRIMARY = "primary"
PROTOCOL_KEYS = ("fold_order", "missing")
FOLD_COLUMNS = ["dataset", "cell", "noise", "repeat", "fold", "n_train", "n_test", "lam",
                "train_error", "test_error", "distinct_stumps", "rounds", "fit_seconds"]
CURVE_COLUMNS = ["dataset", "cell", "noise", "repeat", "t", "train_error", "test_error",
                 "admissible_rate"]
SEMI_COLUMNS = ["dataset", "algorithm", "draw", "n_labelled", "n_unlabelled", "lam",
                "train_error", "test_error", "distinct_stumps", "rounds"]
SEMI_CURVE_COLUMNS = ["dataset", "algorithm", "draw", "t", "train_error", "test_error",
                      "admissible_rate"]


def study_section(config: dict) -> dict:
    """The ``regboost`` section with its defaults."""
    study = dict(config["regboost"])
    study.setdefault("folds", 10)
    study.setdefault("repeats", 1)
    study.setdefault("rounds", 1000)
    study.setdefault("fold_order", "stratified")
    study.setdefault("missing", "median")
    study.setdefault("noise_levels", [0.0])
    return study


def used_algorithms(study: dict) -> list[str]:
    """The config entries the study runs (Table 1's and the semi-supervised experiment's)."""
    semi = (study.get("semi_supervised") or {}).get("algorithms", [])
    return list(dict.fromkeys(list(study["algorithms"]) + list(semi)))


def readings(study: dict) -> dict[str, dict]:
    """Each reading with its protocol keys, params, repeats and datasets filled in."""
    out = {}
    for name, reading in (study.get("readings") or {PRIMARY: {}}).items():
        reading = dict(reading or {})
        out[name] = {"params": dict(reading.get("params") or {}),
                     "repeats": int(reading.get("repeats", study["repeats"])),
                     "datasets": list(reading.get("datasets", study["datasets"])),
                     "noise_levels": list(reading.get("noise_levels", study["noise_levels"])),
                     **{k: reading.get(k, study[k]) for k in PROTOCOL_KEYS}}
    return out


PLAN_COLUMNS = ["reading", "dataset", "noise", "algorithm", "cell", "fold_order", "missing",
                "repeats"]


def plan(config: dict) -> pd.DataFrame:
    """One row per (reading, dataset, noise level, algorithm): the cell it reads and on how
    many repeats."""
    from weightboost.experiment.sensitivity import resolve

    study = study_section(config)
    rows = []
    for name, reading in readings(study).items():
        for algorithm in study["algorithms"]:
            cell = resolve(config, reading, algorithm)
            rows += [{"reading": name, "dataset": dataset, "noise": float(noise),
                      "algorithm": algorithm, "cell": cell,
                      **{k: reading[k] for k in PROTOCOL_KEYS}, "repeats": reading["repeats"]}
                     for dataset in reading["datasets"] for noise in reading["noise_levels"]]
    return pd.DataFrame(rows, columns=PLAN_COLUMNS)


def cell_jobs(table: pd.DataFrame) -> pd.DataFrame:
    """The cells to compute, each for the most repeats any reading reads it on."""
    keys = ["dataset", "noise", "fold_order", "missing", "cell"]
    return table.groupby(keys, sort=False, as_index=False).repeats.max()


def check_study(config: dict) -> None:
    """Cross-key checks of the section (the schema checks types and ranges)."""
    if not config.get("regboost"):
        return
    study = study_section(config)
    for name in study["datasets"]:
        if name not in config.get("datasets", {}):
            raise ConfigError(f"regboost.datasets names {name!r}, which has no spec under "
                              "'datasets'")
    for algorithm in used_algorithms(study):
        if algorithm not in config.get("algorithms", {}):
            raise ConfigError(f"regboost names the algorithm {algorithm!r}, which is not a key "
                              "of the config section 'algorithms'")
    for name, reading in readings(study).items():
        if reading["fold_order"] not in FOLD_ORDERS:
            raise ConfigError(f"regboost.readings.{name}.fold_order must be one of "
                              f"{list(FOLD_ORDERS)}, got {reading['fold_order']!r}")
        if reading["missing"] not in MISSING_RULES:
            raise ConfigError(f"regboost.readings.{name}.missing must be one of "
                              f"{list(MISSING_RULES)}, got {reading['missing']!r}")
        unknown = set(reading["datasets"]) - set(study["datasets"])
        if unknown:
            raise ConfigError(f"regboost.readings.{name}.datasets names {sorted(unknown)}, "
                              "which are not in regboost.datasets")
    if PRIMARY not in readings(study):
        raise ConfigError("regboost.readings must hold 'primary' (the reading of Table 1)")
    for algorithm in study["algorithms"]:
        _check_graph_size(config, study, algorithm)


def smallest_graph(rows: int, folds: int, inner_folds: int | None) -> int:
    """The fewest points a graph of the study is built on: an outer training fold, or an
    inner one when λ is chosen by inner cross-validation."""
    train = rows - math.ceil(rows / folds)
    return train - math.ceil(train / inner_folds) if inner_folds else train


def _check_graph_size(config: dict, study: dict, algorithm: str) -> None:
    """k must be below the number of points of every graph, checked before any job."""
    from weightboost.experiment.learners import learner_class

    spec = config["algorithms"][algorithm]
    defaults = {k: v.default for k, v in inspect.signature(
        learner_class(algorithm, spec.get("learner")).__init__).parameters.items()}
    params = {**defaults, **(spec.get("params") or {})}
    if "n_neighbors" not in params:
        return
    for dataset in study["datasets"]:
        rows = config["datasets"][dataset].get("rows")
        inner = params.get("cv") if "lams" in params else None
        if rows and params["n_neighbors"] >= smallest_graph(rows, study["folds"], inner):
            raise ConfigError(
                f"algorithms.{algorithm}.params.n_neighbors = {params['n_neighbors']} is not "
                f"below the {smallest_graph(rows, study['folds'], inner)} points of the "
                f"smallest graph on {dataset} ({rows} rows, regboost.folds = {study['folds']}"
                + (f", inner cv = {inner}" if inner else "") + "): lower n_neighbors or use "
                "fewer folds")


# -- computing a cell ------------------------------------------------------------------------
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
        entry = cell.partition("~")[0]
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
    """Chosen λ, distinct stumps and the admissible rate per round of a (CV-)RegBoost or an
    AdaBoost with stumps."""
    fitted = getattr(model, "best_estimator_", model)
    stumps = [s for s in getattr(fitted, "estimators_", []) if hasattr(s, "n_admissible_")]
    rate = np.full(rounds, np.nan)
    if stumps:
        values = [s.n_admissible_ / s.n_candidates_ if s.n_candidates_ else 0.0
                  for s in stumps][:rounds]
        rate[:len(values)] = values
    lam = getattr(model, "lam_", getattr(fitted, "lam", np.nan))
    distinct = len({(s.feature_, s.threshold_) for s in stumps}) if stumps else np.nan
    return {"lam": float(lam), "distinct_stumps": distinct, "admissible_rate": rate}


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
            start = time.perf_counter()
            fit_or_explain(model, cell, dataset, X_train, y_train)
            seconds = time.perf_counter() - start
            train_errors = staged_errors(model, X_train, y_train, rounds)
            test_errors = staged_errors(model, X_test, y[test], rounds)
            record = records(model, rounds)
            rows.append({"dataset": dataset, "cell": cell, "noise": noise, "repeat": repeat,
                         "fold": fold, "n_train": len(train), "n_test": len(test),
                         "lam": record["lam"], "train_error": train_errors[-1],
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


# -- the study's tables ----------------------------------------------------------------------
TABLE_COLUMNS = ["reading", "dataset", "noise", "algorithm", "repeat", "fold", "n_train",
                 "n_test", "lam", "train_error", "test_error", "distinct_stumps", "rounds"]
SUMMARY_COLUMNS = ["reading", "dataset", "noise", "algorithm", "n_folds", "train_error_mean",
                   "test_error_mean", "test_error_sd", "gap_mean", "distinct_stumps_mean",
                   "rounds_mean", "lam_median"]
TABLE_CURVE_COLUMNS = ["reading", "dataset", "noise", "algorithm", "t", "train_error",
                       "test_error", "admissible_rate"]
SEMI_READING = "semi_supervised"


def cell_key(dataset, noise, fold_order, missing, cell) -> tuple:
    return (dataset, float(noise), fold_order, missing, cell)


def combine(table: pd.DataFrame, cells: dict, curves: dict, study: dict, semi_rows=(),
            semi_curves=()):
    """(folds, summary, curves, semi-supervised rows) of the study from its cells: ``cells``
    and ``curves`` map ``cell_key`` to a cell's frames; every reading reads its first
    ``repeats`` repeats. Rows follow the config's order of readings, datasets and
    algorithms; the curves are the primary reading's and the semi-supervised experiment's,
    averaged over repeats (draws)."""
    from weightboost.experiment.tables import order_rows

    folds, curve_parts = [], []
    for row in table.itertuples(index=False):
        key = cell_key(row.dataset, row.noise, row.fold_order, row.missing, row.cell)
        part = cells[key]
        part = part[part.repeat < row.repeats].assign(reading=row.reading,
                                                      algorithm=row.algorithm)
        folds.append(part[TABLE_COLUMNS])
        if row.reading == PRIMARY:
            curve = curves[key]
            curve = curve[curve.repeat < row.repeats]
            curve_parts.append(_mean_curve(curve, PRIMARY, row.dataset, row.noise,
                                           row.algorithm, "repeat"))
    semi = pd.concat(list(semi_rows), ignore_index=True) if len(semi_rows) else \
        pd.DataFrame(columns=SEMI_COLUMNS)
    for curve in semi_curves:
        if len(curve):
            curve_parts.append(_mean_curve(curve, SEMI_READING, curve.dataset.iloc[0], 0.0,
                                           curve.algorithm.iloc[0], "draw"))
    order = [("reading", list(readings(study)) + [SEMI_READING]),
             ("dataset", study["datasets"]), ("noise", None),
             ("algorithm", used_algorithms(study))]
    folds = order_rows(pd.concat(folds, ignore_index=True), order + [("repeat", None),
                                                                     ("fold", None)])
    curves_out = order_rows(pd.concat(curve_parts, ignore_index=True), order + [("t", None)])
    semi = order_rows(semi, [("algorithm", used_algorithms(study)), ("draw", None)])
    return folds, summarise(folds, order), curves_out[TABLE_CURVE_COLUMNS], semi


def _mean_curve(curve, reading, dataset, noise, algorithm, over):
    mean = curve.groupby("t", sort=True)[["train_error", "test_error", "admissible_rate"]] \
        .mean().reset_index()
    return mean.assign(reading=reading, dataset=dataset, noise=float(noise),
                       algorithm=algorithm)


def summarise(folds: pd.DataFrame, order) -> pd.DataFrame:
    from weightboost.experiment.tables import order_rows

    grouped = folds.assign(gap=folds.test_error - folds.train_error).groupby(
        ["reading", "dataset", "noise", "algorithm"], sort=False)
    summary = grouped.agg(
        n_folds=("test_error", "size"), train_error_mean=("train_error", "mean"),
        test_error_mean=("test_error", "mean"),
        test_error_sd=("test_error", lambda e: float(np.std(e, ddof=1)) if len(e) > 1
                       else float("nan")),
        gap_mean=("gap", "mean"), distinct_stumps_mean=("distinct_stumps", "mean"),
        rounds_mean=("rounds", "mean"), lam_median=("lam", "median")).reset_index()
    return order_rows(summary, order)[SUMMARY_COLUMNS]
