"""One cell of the UCI grid: a dataset, a noise level, an algorithm and a repeat, over all folds;
``uci_cell`` is its job (``weightboost.pipeline.warm.JOBS``).

A cell also records what a reading of the protocol records: ``restarts`` (boosting restarts,
``on_degenerate="restart"``) and ``chosen_C`` (Weight Decay's C chosen by inner CV); the
primary table ``results/uci_folds.csv`` keeps ``FOLD_COLUMNS``, the sensitivity study all."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from weightboost.data.uci import load_table, verify_table
from weightboost.experiment.learners import make_learner, nominal_columns
from weightboost.experiment.protocol import cpu_seconds, folds, learner_seed, noisy_labels
from weightboost.fileio import write_csv_atomic

FOLD_COLUMNS = ["dataset", "noise", "algorithm", "repeat", "fold", "n_train", "n_test",
                "n_flipped", "error", "rounds", "fit_seconds", "predict_seconds"]
TIMING_COLUMNS = ["fit_seconds", "predict_seconds"]
RECORDED_COLUMNS = ["restarts", "chosen_C"]
CELL_COLUMNS = FOLD_COLUMNS + RECORDED_COLUMNS


def load_experiment_table(table, sidecar, dataset: str, pinned: str | None):
    """The dataset's canonical table, verified against its sidecar and the config's pin."""
    record = json.loads(Path(sidecar).read_text())
    verify_table(table, record, pinned, f"datasets.{dataset}.table_sha256")
    return load_table(table, record)


def uci_cell(table, sidecar, output, dataset, noise, algorithm, repeat, protocol, learner, data):
    """The job of a UCI grid cell: its files, its path's wildcards (``noise`` and ``repeat`` as
    the path writes them) and its key's parts (the grid's ``protocol``, the ``learner`` entry,
    the dataset's ``data`` entry with its optional pin), by name."""
    X, y = load_experiment_table(table, sidecar, dataset, data.get("table_sha256"))
    frame = run_repeats(X, y, dataset, float(noise), algorithm, learner, [int(repeat)], protocol)
    write_csv_atomic(output, frame)


def run_repeats(X, y, dataset: str, noise: float, algorithm: str, spec: dict, repeats,
                experiment: dict) -> pd.DataFrame:
    """Repeats 0..repeats-1 of a cell (the sensitivity study's job), or with a list the
    repeats it names; repeat r is exactly the grid's cell ``rep<r>``. ``experiment`` holds
    the protocol's seed, folds and rounds."""
    numbers = range(repeats) if isinstance(repeats, int) else repeats
    return pd.concat([_run_repeat(X, y, dataset, noise, algorithm, spec, r, experiment)
                      for r in numbers], ignore_index=True)


def _run_repeat(X, y, dataset, noise, algorithm, spec, repeat, experiment) -> pd.DataFrame:
    rows = []
    splits = folds(y, experiment["folds"], experiment["seed"], dataset, repeat)
    nominal = nominal_columns(X)
    for fold, (train, test) in enumerate(splits):
        y_train, flipped = noisy_labels(y[train], noise, experiment["seed"], dataset, repeat,
                                        fold)
        model = make_learner(algorithm, spec, experiment["rounds"],
                             learner_seed(experiment["seed"], dataset, repeat, fold), nominal)
        start = cpu_seconds()
        model.fit(X.iloc[train], y_train)
        fitted = cpu_seconds()
        predicted = model.predict(X.iloc[test])
        done = cpu_seconds()
        rows.append({
            "dataset": dataset, "noise": noise, "algorithm": algorithm, "repeat": repeat,
            "fold": fold, "n_train": len(train), "n_test": len(test),
            "n_flipped": len(flipped), "error": float(np.mean(predicted != y[test])),
            "rounds": int(getattr(model, "n_rounds_", 1)),
            "fit_seconds": round(fitted - start, 4), "predict_seconds": round(done - fitted, 4),
            "restarts": int(getattr(model, "restarts_", 0)),
            "chosen_C": float(getattr(model, "C_", np.nan)),
        })
    return pd.DataFrame(rows, columns=CELL_COLUMNS)
