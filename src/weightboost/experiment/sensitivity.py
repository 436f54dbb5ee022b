"""The sensitivity study (config section ``sensitivity``): the UCI grid under every reading of
the paper's unstated protocol, on repeated cross-validation.

A *reading* is a set of learner parameters (``params``) applied to every booster of the study
that takes them (or only to the reading's ``algorithms``), and optionally a replacement of an
algorithm by another config entry (``replace``, e.g. WeightDecay by WeightDecay-cv). A
*sweep* is shorthand for one reading per value of one parameter (``beta=0.25``, ...).

Each (reading, algorithm) resolves to a **cell name**: the config entry it runs, followed by
the parameters that differ from that entry's own, ``WeightBoost~normalize=mean`` or
``AdaBoost~on_degenerate=restart,sampling=resample``; an algorithm that a reading leaves as it
is keeps its plain name. Cells are those of the UCI grid (``results/cells/uci/...``, the same
rule, folds, noise and seeds), so a cell whose parameters equal the primary run's is computed
once, whatever the number of readings that use it, and repeat 0 is the primary run's own.

A reading may also run config entries besides the study's algorithms (``add``: the primary
reading's baselines, bagging, random forests and gradient boosting, compared with the papers'
boosters on the same folds and noisy labels). A reading (or a sweep) may name its own
``noise_levels`` and ``repeats``: the β sweep can so
cover every noise level while the claims' readings stop at the claims' levels, and a costly
reading (Weight Decay with C chosen by inner CV) can run on the first repeats only. Its
comparisons stay paired: repeat r has the same folds and noisy labels in every reading, and
all the algorithms of a reading are read on the same repeats. One job computes a cell at one
noise level for the most repeats any reading asks of it.

With ``reuters: {seeds: n}`` the study also reruns the Reuters study (Table 3) under every
reading (``reuters_plan``): on the fixed ApteMod split the only random choice is a
resampling booster's draws, so a cell that resamples runs once per seed (its cell name
carries ``random_state``, seed r from ``experiment.seed``, the same for both boosters so that
their first-round draws are shared and the seeds pair them), and a deterministic cell once.
Its cells are the Reuters study's (``results/cells/reuters/...``): the primary reading's are
the main run's own.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import numpy as np
import pandas as pd

from weightboost.errors import ConfigError
from weightboost.experiment.cell_names import (cell_name, format_value, parse_cell_name,
                                               resolve_spec)
from weightboost.experiment.learners import learner_class
from weightboost.experiment.tables import error_summary, order_rows

PRIMARY = "primary"
FOLD_COLUMNS = ["reading", "dataset", "noise", "algorithm", "cell", "repeat", "fold",
                "n_train", "n_test", "error", "rounds", "restarts", "chosen_C"]
SUMMARY_COLUMNS = ["reading", "dataset", "noise", "algorithm", "n_runs", "error_mean",
                   "error_sd", "rounds_mean"]


def study_section(config: dict) -> dict:
    """The ``sensitivity`` section with ``datasets``, ``noise_levels`` and ``algorithms``
    taken from ``experiment`` where the section does not give them."""
    study = dict(config["sensitivity"])
    for key in ("datasets", "noise_levels", "algorithms"):
        study.setdefault(key, config["experiment"][key])
    study.setdefault("repeats", 10)
    return study


def reuters_source(config: dict) -> str:
    """The table set whose Reuters F1 table the study's Reuters claim reads: the study's own
    (``sensitivity_reuters``, every reading) when ``sensitivity.reuters`` is set, else the main
    run's (``reuters``: the primary reading only, on the main run's split)."""
    return "sensitivity_reuters" if config["sensitivity"].get("reuters") else "reuters"


def learner_defaults(cls) -> dict:
    """The default of every constructor parameter of a learner class."""
    return {k: p.default for k, p in inspect.signature(cls.__init__).parameters.items()
            if k != "self" and p.default is not inspect.Parameter.empty}


def readings(study: dict, selected: bool = True) -> dict[str, dict]:
    """The study's readings with every sweep expanded, in config order (sweeps last); with
    ``selected``, only those that ``run`` names (a reading, a sweep's parameter for all its
    readings, or one sweep reading such as ``beta=0.25``), if it is given."""
    out = {name: dict(r or {}) for name, r in (study.get("readings") or {}).items()}
    for param, sweep in (study.get("sweeps") or {}).items():
        for value in sweep["values"]:
            name = f"{param}={format_value(value)}"
            out[name] = {"params": {param: value}, "algorithms": list(sweep["algorithms"]),
                         "sweep": {"param": param, "value": value},
                         **{k: sweep[k] for k in ("noise_levels", "repeats") if k in sweep}}
    run = study.get("run")
    if selected and run is not None:
        out = {name: r for name, r in out.items()
               if name in run or r.get("sweep", {}).get("param") in run}
    return out


def reading_algorithms(study: dict, reading: dict) -> list[str]:
    """The algorithms a reading is read on: the study's, then those it adds (``add``)."""
    return list(dict.fromkeys([*study["algorithms"], *(reading.get("add") or [])]))


def study_algorithms(study: dict) -> list[str]:
    """Every algorithm of the study's tables, in order: the study's, then the readings' added."""
    return list(dict.fromkeys(a for r in readings(study).values()
                              for a in reading_algorithms(study, r)) or study["algorithms"])


def used_algorithms(study: dict) -> list[str]:
    """Every config entry the study runs: its algorithms and those readings add, then those
    readings replace them with."""
    entries = study_algorithms(study)
    for reading in readings(study).values():
        entries += list((reading.get("replace") or {}).values())
    return list(dict.fromkeys(entries))


def resolve(config: dict, reading: dict, algorithm: str) -> str:
    """The cell name of ``algorithm`` under ``reading``."""
    algorithms = config["algorithms"]
    entry = (reading.get("replace") or {}).get(algorithm, algorithm)
    if entry not in algorithms:
        raise ConfigError(f"sensitivity: {entry!r} is not a key of the config section "
                          "'algorithms'")
    spec = algorithms[entry]
    targets = reading.get("algorithms")
    if targets is not None and algorithm not in targets:
        return entry
    defaults = learner_defaults(learner_class(entry, spec.get("learner")))
    current = {**defaults, **(spec.get("params") or {})}
    overrides = {k: v for k, v in (reading.get("params") or {}).items()
                 if k in defaults and current.get(k) != v}
    return cell_name(entry, overrides)


PLAN_COLUMNS = ["reading", "noise", "algorithm", "cell", "repeats"]


def plan(config: dict) -> pd.DataFrame:
    """One row per (reading, noise level, algorithm): the cell it runs and on how many repeats
    (the first ones) it is read."""
    study = study_section(config)
    rows = []
    for name, reading in readings(study).items():
        cells = {algorithm: resolve(config, reading, algorithm)
                 for algorithm in reading_algorithms(study, reading)}
        for noise in reading.get("noise_levels", study["noise_levels"]):
            rows += [{"reading": name, "noise": float(noise), "algorithm": algorithm,
                      "cell": cell, "repeats": int(reading.get("repeats", study["repeats"]))}
                     for algorithm, cell in cells.items()]
    return pd.DataFrame(rows, columns=PLAN_COLUMNS)


def cell_jobs(table: pd.DataFrame) -> pd.DataFrame:
    """The cells to compute: one per (noise level, cell), for the most repeats any reading
    reads it on (its repeats 0..r-1 are the same whatever r)."""
    jobs = table.groupby(["noise", "cell"], sort=False, as_index=False).repeats.max()
    return jobs[["noise", "cell", "repeats"]]


def check_study(config: dict) -> None:
    """Cross-key checks of the section: known algorithms, parameters some booster takes, a
    primary reading, and every resulting cell a valid learner."""
    from weightboost.experiment.learner_checks import check_learner

    if not config.get("sensitivity"):
        return
    study = study_section(config)
    for name in study["datasets"]:
        if name not in config.get("datasets", {}):
            raise ConfigError(f"sensitivity.datasets names {name!r}, which has no spec under "
                              "'datasets'")
    known = config.get("algorithms", {})
    defined = readings(study, selected=False)
    named = [("sensitivity.algorithms", a) for a in study["algorithms"]]
    named += [(f"sensitivity.readings.{name}.add", a) for name, r in defined.items()
              for a in r.get("add") or []]
    for key, algorithm in named:
        if algorithm not in known:
            raise ConfigError(f"{key} names {algorithm!r}, which is not a key of the config "
                              f"section 'algorithms' (known: {sorted(known)})")
    sweep_params = {r["sweep"]["param"] for r in defined.values() if "sweep" in r}
    for name in study.get("run") or []:
        if name not in defined and name not in sweep_params:
            raise ConfigError(f"sensitivity.run names {name!r}, which is neither a reading nor "
                              f"a sweep (defined: {sorted(defined) + sorted(sweep_params)})")
    study_readings = readings(study)
    if PRIMARY not in study_readings or study_readings[PRIMARY].get("params") \
            or study_readings[PRIMARY].get("replace"):
        raise ConfigError("sensitivity.readings must hold 'primary' without params or "
                          "replace ('primary: {}', or with the algorithms it adds): the reading "
                          "of the main tables, to compare the others with")
    takes = set()  # a reading may name a parameter of any entry: the study's algorithms are
    for name, entry in known.items():  # experiment.algorithms by default, which a user edits
        takes |= set(learner_defaults(learner_class(name, entry.get("learner"))))
    for name, reading in study_readings.items():
        for key in reading.get("params") or {}:
            if key not in takes:
                raise ConfigError(f"sensitivity reading {name!r}: no learner takes a "
                                  f"parameter {key!r}")
        for key, value in (reading.get("params") or {}).items():
            if isinstance(value, (list, dict)):
                raise ConfigError(f"sensitivity reading {name!r}: parameter {key!r} must be "
                                  "a single value")
    rounds = config["experiment"]["rounds"]
    for cell in plan(config).cell.unique():
        check_learner(cell, resolve_spec(known, cell), rounds)
    for cell in reuters_plan(config).cell.unique():
        check_learner(cell, resolve_spec(known, cell), config["reuters_study"]["rounds"])


def cell_frames(paths, depth: int) -> dict[str, pd.DataFrame]:
    """The cell files at ``paths`` read and concatenated per cell name, the name of each file's
    ``depth``-th parent directory (the cells of one name: its datasets, noise levels or
    categories)."""
    frames = {}
    for path in map(Path, paths):
        frames.setdefault(path.parents[depth].name, []).append(pd.read_csv(path))
    return {name: pd.concat(parts, ignore_index=True) for name, parts in frames.items()}


def _used(frame: pd.DataFrame, row) -> pd.DataFrame:
    """The fold rows of a cell frame that a plan row reads: its noise level, its repeats."""
    return frame[np.isclose(frame.noise, row.noise) & (frame.repeat < row.repeats)]


def study_folds(cells: dict[str, pd.DataFrame], table: pd.DataFrame, datasets,
                algorithms) -> pd.DataFrame:
    """``results/sensitivity/folds.csv``: every (reading, noise, algorithm)'s fold rows, from
    the cell frames keyed by cell name (each frame: all its datasets, noise levels, repeats)."""
    parts = []
    for row in table.itertuples(index=False):
        frame = _used(cells[row.cell], row).drop(columns=["algorithm"])
        parts.append(frame.assign(reading=row.reading, algorithm=row.algorithm, cell=row.cell))
    folds = pd.concat(parts, ignore_index=True)[FOLD_COLUMNS]
    order = [("reading", list(dict.fromkeys(table.reading))), ("dataset", datasets),
             ("noise", None), ("algorithm", algorithms), ("repeat", None), ("fold", None)]
    return order_rows(folds, order)


def study_summary(folds: pd.DataFrame) -> pd.DataFrame:
    return error_summary(folds, ["reading", "dataset", "noise", "algorithm"],
                         "n_runs")[SUMMARY_COLUMNS]


def study_timing(cells: dict[str, pd.DataFrame], table: pd.DataFrame) -> pd.DataFrame:
    """Compute cost per reading (fit + predict seconds summed over the folds it reads): all of
    them, and those the primary reading does not read (``new_``). ``cells`` counts distinct
    learners. Measurements of the machine, like the timing columns of the primary tables."""
    run = ["cell", "dataset", "noise", "repeat", "fold"]

    def runs(part):
        frames = [_used(cells[row.cell], row).assign(cell=row.cell)
                  for row in part.itertuples(index=False)]
        return pd.concat(frames, ignore_index=True).drop_duplicates(run)

    primary = runs(table[table.reading == PRIMARY])[run]
    rows = []
    for reading, part in table.groupby("reading", sort=False):
        used = runs(part)
        seconds = used.fit_seconds + used.predict_seconds
        new = used.merge(primary, on=run, how="left", indicator=True)._merge == "left_only"
        rows.append({"reading": reading, "cells": part.cell.nunique(),
                     "seconds": float(seconds.sum()), "new_cells": used.cell[new.values].nunique(),
                     "new_seconds": float(seconds[new.values].sum())})
    return pd.DataFrame(rows).round(1)


REUTERS_PLAN_COLUMNS = ["reading", "algorithm", "cell", "repeat"]
REUTERS_COLUMNS = ["reading", "repeat", "category", "algorithm", "cell", "t_rule", "T",
                   "precision", "recall", "f1", "rounds"]
REUTERS_STREAM = "reuters-sensitivity"  # the seeds' own stream (weightboost.experiment.protocol)


def reuters_seeds(study: dict, reading: dict) -> int:
    """Seeds a resampling Reuters cell runs on under ``reading``: the section's ``seeds``
    (default: the study's repeats), at most the reading's own ``repeats``."""
    seeds = int((study.get("reuters") or {}).get("seeds", study["repeats"]))
    return min(seeds, int(reading.get("repeats", seeds)))


def reuters_plan(config: dict) -> pd.DataFrame:
    """One row per (reading, algorithm of ``reuters_study``, repeat): the Reuters cell it
    reads; empty when the section has no ``reuters``."""
    from weightboost.experiment.protocol import learner_seed

    study = study_section(config)
    rows = []
    if study.get("reuters"):
        seed = int(config["experiment"]["seed"])
        for name, reading in readings(study).items():
            for algorithm in config["reuters_study"]["algorithms"]:
                cell = resolve(config, reading, algorithm)
                if resolve_spec(config["algorithms"], cell)["params"].get("sampling") \
                        != "resample":
                    rows.append({"reading": name, "algorithm": algorithm, "cell": cell,
                                 "repeat": 0})
                    continue
                entry, overrides = parse_cell_name(cell)
                for r in range(reuters_seeds(study, reading)):
                    state = learner_seed(seed, REUTERS_STREAM, r, 0)
                    rows.append({"reading": name, "algorithm": algorithm, "repeat": r,
                                 "cell": cell_name(entry, {**overrides, "random_state": state})})
    return pd.DataFrame(rows, columns=REUTERS_PLAN_COLUMNS)


def study_reuters(cells: dict[str, pd.DataFrame], table: pd.DataFrame, categories,
                  algorithms) -> pd.DataFrame:
    """``results/sensitivity/reuters_f1.csv``: every (reading, repeat, algorithm)'s F1 rows
    (one per category and T rule), from the Reuters cell frames keyed by cell name."""
    from weightboost.experiment.reuters import T_RULES

    parts = [cells[row.cell].assign(reading=row.reading, repeat=row.repeat,
                                    algorithm=row.algorithm, cell=row.cell)
             for row in table.itertuples(index=False)]
    frame = pd.concat(parts, ignore_index=True)[REUTERS_COLUMNS]
    order = [("reading", list(dict.fromkeys(table.reading))), ("repeat", None),
             ("category", categories), ("algorithm", algorithms), ("t_rule", T_RULES)]
    return order_rows(frame, order)


def reuters_means(study_f1: pd.DataFrame, reading: str) -> pd.DataFrame:
    """A reading's Reuters F1 averaged over its seeds, in the main table's columns (one row
    per category, algorithm and T rule), for the claims' evaluator."""
    part = study_f1[study_f1.reading == reading]
    keys = ["category", "algorithm", "t_rule"]
    return part.groupby(keys, sort=False, as_index=False)[["T", "precision", "recall", "f1",
                                                           "rounds"]].mean()
