"""What the sensitivity study costs, reading by reading, before (or while) you run it.

    python bench/study_cost.py [--configfile config/config.yaml [overlay.yaml ...]]
                               [--benchmarks benchmarks] [--cores 2]

Plans the study as the workflow does (``weightboost.experiment.sensitivity.plan`` and
``reuters_plan``), gives each cell to the first reading that needs it (a cell shared by readings
is computed once), and prints per reading the cells it adds, how many of them have a benchmark
file (``benchmarks/sensitivity_cell/...``, ``benchmarks/reuters_cell/...``: a run of that cell
name, at any code), their seconds, and hours of wall time on ``--cores`` cores. A UCI cell held
by a committed cell archive (``--archives``, default ``results/archive``) counts its folds'
recorded fit and predict seconds, so a fresh clone has measured neighbours for every archived
cell (a restart cell's copied repeats count the fits they copy). A cell without either is
estimated by the median of the measured cells of its dataset (or category) and learner entry,
else of its dataset. A cell's seconds are its job's CPU seconds, from the last
line of its log (``workflow_support.RESOURCES``; a cell runs in one thread, so this is what it
costs on a free core), else its benchmark's wall seconds, which also count the time it waited
for a core on a shared machine (a study computed beside the test suite: 5-7× its CPU time). A
cell restored from a cell archive (``weightboost.pipeline.cell_archive``) measured a copy: it counts as
not measured.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from weightboost.pipeline.config import load_config
from weightboost.experiment.cell_names import parse_cell_name
from weightboost.experiment.sensitivity import plan, reuters_plan
from weightboost.pipeline.workflow_support import job_resources, was_restored


def measured(root: Path, logs: Path, rule: str, depth: int) -> dict:
    """(the path parts before the key) -> seconds of the newest benchmark of that cell: the CPU
    seconds its log records, else the benchmark's wall seconds."""
    times = {}
    for path in sorted(root.glob(f"{rule}/**/*.tsv"), key=lambda p: p.stat().st_mtime):
        parts = path.relative_to(root / rule).parts
        log = (logs / rule).joinpath(*parts).with_suffix(".log")
        if was_restored(log):  # a copy from a cell archive: says nothing of the cell's cost
            continue
        used = job_resources(log)
        times[parts[:depth]] = used[0] if used else float(pd.read_csv(path, sep="\t").s.iloc[0])
    return times


def archived(root: Path) -> dict:
    """(dataset, noise part, cell name) -> the fit and predict seconds its folds recorded, for
    every sensitivity cell of the cell archives under ``root``."""
    import io
    import zipfile

    times = {}
    for archive in sorted(root.glob("*.zip")):
        with zipfile.ZipFile(archive) as zf:
            for name in zf.namelist():
                parts = name.split("/")
                if parts[0] == "sensitivity" and len(parts) == 6:
                    folds = pd.read_csv(io.BytesIO(zf.read(name)),
                                        usecols=["fit_seconds", "predict_seconds"])
                    times[tuple(parts[1:4])] = float(folds.sum().sum())
    return times


def entry(cell: str) -> str:
    return parse_cell_name(cell)[0]


def cells(config: dict) -> pd.DataFrame:
    """One row per cell the study computes: the first reading that needs it, its place (the
    benchmark path's parts before the key) and the group it is estimated within."""
    rows, seen = [], set()
    datasets = config["sensitivity"].get("datasets") or config["experiment"]["datasets"]
    for r in plan(config).itertuples():
        for dataset in datasets:
            place = (dataset, f"noise{float(r.noise)}", r.cell)
            if place not in seen:
                seen.add(place)
                rows.append({"reading": r.reading, "rule": "sensitivity_cell", "place": place,
                             "group": (dataset, entry(r.cell))})
    reuters = reuters_plan(config)
    categories = config["reuters_study"]["categories"]
    for r in reuters.itertuples():
        for category in categories:
            place = (category, r.cell)
            if place not in seen:
                seen.add(place)
                rows.append({"reading": r.reading, "rule": "reuters_cell", "place": place,
                             "group": (category, entry(r.cell))})
    return pd.DataFrame(rows, columns=["reading", "rule", "place", "group"])


def estimate(table: pd.DataFrame, root: Path, logs: Path, archives: Path) -> pd.DataFrame:
    known = {"sensitivity_cell": {**archived(archives),
                                  **measured(root, logs, "sensitivity_cell", 3)},
             "reuters_cell": measured(root, logs, "reuters_cell", 2)}
    table = table.assign(seconds=[known[r.rule].get(r.place, np.nan)
                                  for r in table.itertuples()])
    table["measured"] = table.seconds.notna()
    for level in ("group", "first"):
        key = table.group if level == "group" else table.group.map(lambda g: g[0])
        medians = table[table.measured].groupby(key[table.measured]).seconds.median()
        table["seconds"] = table.seconds.fillna(key.map(medians))
    return table


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--configfile", nargs="+", default=["config/config.yaml"])
    parser.add_argument("--benchmarks", type=Path, default=Path("benchmarks"))
    parser.add_argument("--logs", type=Path, default=Path("logs"))
    parser.add_argument("--archives", type=Path, default=Path("results/archive"))
    parser.add_argument("--cores", type=int, default=2)
    args = parser.parse_args(argv)
    table = estimate(cells(load_config(*args.configfile)), args.benchmarks, args.logs,
                     args.archives)
    per = table.groupby("reading", sort=False).agg(cells=("rule", "size"),
                                                    measured=("measured", "sum"),
                                                    seconds=("seconds", "sum"))
    per["hours"] = per.seconds / 3600 / args.cores
    total = per.sum(numeric_only=True)
    per.loc["all"] = total
    print(per.round({"seconds": 0, "hours": 2}).astype({"cells": int, "measured": int})
          .to_string())
    unknown = int(table.seconds.isna().sum())
    if unknown:
        print(f"{unknown} cells have no measured neighbour: not counted")
    known = table[table.seconds.notna()]
    print("by dataset or category (s): " + ", ".join(
        f"{k} {v:.0f}" for k, v in known.groupby(known.place.map(lambda p: p[0]))
        .seconds.sum().sort_values(ascending=False).items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
