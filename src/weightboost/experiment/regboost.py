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

A *cell* is (dataset, noise level, fold order, missing rule, learner cell name) over its first
``repeats`` repeats (``weightboost.experiment.regboost_cells``); this module plans the cells,
checks the section and combines the cells into the study's tables.
"""

from __future__ import annotations

import math

import pandas as pd

from weightboost.errors import ConfigError
from weightboost.experiment.regboost_cells import SEMI_COLUMNS

PRIMARY = "primary"
PROTOCOL_KEYS = ("fold_order", "missing")


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


def cv_algorithms(study: dict) -> list[str]:
    """The config entries the cross-validated readings run: Table 1's, then the readings'
    own (a reading may name its ``algorithms``)."""
    names = list(study["algorithms"])
    for reading in (study.get("readings") or {}).values():
        names += list((reading or {}).get("algorithms", []))
    return list(dict.fromkeys(names))


def used_algorithms(study: dict) -> list[str]:
    """Every config entry the study runs: ``cv_algorithms``, then the semi-supervised
    experiment's."""
    semi = (study.get("semi_supervised") or {}).get("algorithms", [])
    return list(dict.fromkeys(cv_algorithms(study) + list(semi)))


def readings(study: dict) -> dict[str, dict]:
    """Each reading with its protocol keys, params, repeats and datasets filled in."""
    out = {}
    for name, reading in (study.get("readings") or {PRIMARY: {}}).items():
        reading = dict(reading or {})
        out[name] = {"params": dict(reading.get("params") or {}),
                     "algorithms": list(reading.get("algorithms", study["algorithms"])),
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
        for algorithm in reading["algorithms"]:
            cell = resolve(config, {**reading, "algorithms": None}, algorithm)
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
    """Cross-key checks of the section (the schema checks types, ranges and the names of
    ``fold_order`` and ``missing``)."""
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
        unknown = set(reading["datasets"]) - set(study["datasets"])
        if unknown:
            raise ConfigError(f"regboost.readings.{name}.datasets names {sorted(unknown)}, "
                              "which are not in regboost.datasets")
    if PRIMARY not in readings(study):
        raise ConfigError("regboost.readings must hold 'primary' (the reading of Table 1)")
    for algorithm in cv_algorithms(study):
        _check_graph_size(config, study, algorithm)
    _check_grid_before(config, study)
    _check_reading_learners(config, study)
    _check_semi_supervised(config, study)


def _check_grid_before(config: dict, study: dict) -> None:
    """``lam_grid_before`` must be a part of the λ grid of the study's last algorithm, which no
    reading changes: the report reads its choices from the grid's inner-CV errors."""
    before = study.get("lam_grid_before")
    if not before:
        return
    name = study["algorithms"][-1]
    grid = (config["algorithms"][name].get("params") or {}).get("lams")
    if grid is None or not set(map(float, before)) <= set(map(float, grid)):
        raise ConfigError(f"regboost.lam_grid_before {before} is not a part of "
                          f"algorithms.{name}.params.lams {grid}: the report reads its choices "
                          "from the inner-CV errors of that grid; fix the list or remove it")
    for reading_name, reading in readings(study).items():
        if "lams" in (reading.get("params") or {}):
            raise ConfigError(f"regboost.readings.{reading_name}.params sets lams while "
                              "regboost.lam_grid_before is given: the report reads the grid "
                              "before from the entry's grid; remove one of them")


def _check_reading_learners(config: dict, study: dict) -> None:
    """Every learner a reading's parameters make is built and its parameters checked while
    the workflow is planned, naming the reading (not when its first job runs)."""
    from weightboost.experiment.learner_checks import check_learner
    from weightboost.experiment.cell_names import resolve_spec
    from weightboost.experiment.sensitivity import resolve

    for name, reading in readings(study).items():
        for algorithm in reading["algorithms"]:
            cell = resolve(config, {**reading, "algorithms": None}, algorithm)
            try:
                check_learner(cell, resolve_spec(config["algorithms"], cell), study["rounds"])
            except ConfigError as exc:
                raise ConfigError(f"regboost.readings.{name}.params make {algorithm} invalid: "
                                  f"{exc}") from None


def _check_semi_supervised(config: dict, study: dict) -> None:
    """The semi-supervised draw leaves unlabelled points to test on: ``labelled`` below the
    data set's rows (from its spec), checked before any job."""
    semi = study.get("semi_supervised") or {}
    if not semi:
        return
    if semi["dataset"] not in config.get("datasets", {}):
        raise ConfigError(f"regboost.semi_supervised.dataset names {semi['dataset']!r}, which "
                          "has no spec under 'datasets'")
    rows = config["datasets"][semi["dataset"]].get("rows")
    if rows is not None and semi["labelled"] >= rows:
        raise ConfigError(f"regboost.semi_supervised.labelled = {semi['labelled']} is not below "
                          f"the {rows} rows of {semi['dataset']}: no point would be left "
                          "unlabelled to test on")


def smallest_graph(rows: int, folds: int, inner_folds: int | None) -> int:
    """The fewest points a graph of the study is built on: an outer training fold, or an
    inner one when λ is chosen by inner cross-validation."""
    train = rows - math.ceil(rows / folds)
    return train - math.ceil(train / inner_folds) if inner_folds else train


def _check_graph_size(config: dict, study: dict, algorithm: str) -> None:
    """k must be below the number of points of every graph, checked before any job."""
    from weightboost.experiment.learners import learner_class
    from weightboost.experiment.sensitivity import learner_defaults

    spec = config["algorithms"][algorithm]
    params = {**learner_defaults(learner_class(algorithm, spec.get("learner"))),
              **(spec.get("params") or {})}
    if "n_neighbors" not in params:
        return
    inner = params.get("cv") if "lams" in params else None
    for dataset in study["datasets"]:
        rows = config["datasets"][dataset].get("rows")
        smallest = smallest_graph(rows, study["folds"], inner) if rows else None
        if smallest is not None and params["n_neighbors"] >= smallest:
            raise ConfigError(
                f"algorithms.{algorithm}.params.n_neighbors = {params['n_neighbors']} is not "
                f"below the {smallest} points of the "
                f"smallest graph on {dataset} ({rows} rows, regboost.folds = {study['folds']}"
                + (f", inner cv = {inner}" if inner else "") + "): lower n_neighbors or use "
                "fewer folds")


# -- the study's tables ----------------------------------------------------------------------
TABLE_COLUMNS = ["reading", "dataset", "noise", "algorithm", "repeat", "fold", "n_train",
                 "n_test", "lam", "cv_errors", "train_error", "test_error", "distinct_stumps",
                 "rounds"]
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
                                           row.algorithm))
    semi = pd.concat(list(semi_rows), ignore_index=True) if len(semi_rows) else \
        pd.DataFrame(columns=SEMI_COLUMNS)
    for curve in semi_curves:
        if len(curve):
            curve_parts.append(_mean_curve(curve, SEMI_READING, curve.dataset.iloc[0], 0.0,
                                           curve.algorithm.iloc[0]))
    order = [("reading", list(readings(study)) + [SEMI_READING]),
             ("dataset", study["datasets"]), ("noise", None),
             ("algorithm", used_algorithms(study))]
    folds = order_rows(pd.concat(folds, ignore_index=True), order + [("repeat", None),
                                                                     ("fold", None)])
    curves_out = order_rows(pd.concat(curve_parts, ignore_index=True), order + [("t", None)])
    semi = order_rows(semi, [("algorithm", used_algorithms(study)), ("draw", None)])
    return folds, summarise(folds, order), curves_out[TABLE_CURVE_COLUMNS], semi


def _mean_curve(curve, reading, dataset, noise, algorithm):
    """A cell's curves averaged over its repeats (or draws), labelled for the table."""
    mean = curve.groupby("t", sort=True)[["train_error", "test_error", "admissible_rate"]] \
        .mean().reset_index()
    return mean.assign(reading=reading, dataset=dataset, noise=float(noise),
                       algorithm=algorithm)


def summarise(folds: pd.DataFrame, order) -> pd.DataFrame:
    from weightboost.experiment.tables import order_rows, sample_sd

    grouped = folds.assign(gap=folds.test_error - folds.train_error).groupby(
        ["reading", "dataset", "noise", "algorithm"], sort=False)
    summary = grouped.agg(
        n_folds=("test_error", "size"), train_error_mean=("train_error", "mean"),
        test_error_mean=("test_error", "mean"),
        test_error_sd=("test_error", sample_sd),
        gap_mean=("gap", "mean"), distinct_stumps_mean=("distinct_stumps", "mean"),
        rounds_mean=("rounds", "mean"), lam_median=("lam", "median")).reset_index()
    return order_rows(summary, order)[SUMMARY_COLUMNS]
