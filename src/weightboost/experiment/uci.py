"""One cell of the UCI grid: a dataset, a noise level, an algorithm and a repeat, over all folds."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from weightboost.data.uci import load_table
from weightboost.experiment.learners import make_learner
from weightboost.experiment.protocol import folds, noisy_labels

FOLD_COLUMNS = ["dataset", "noise", "algorithm", "repeat", "fold", "n_train", "n_test",
                "n_flipped", "error", "rounds", "fit_seconds", "predict_seconds"]
TIMING_COLUMNS = ["fit_seconds", "predict_seconds"]


def run_cell(table_path, dataset: str, noise: float, algorithm: str, spec: dict, repeat: int,
             experiment: dict) -> pd.DataFrame:
    X, y = load_table(table_path)
    rows = []
    splits = folds(y, experiment["folds"], experiment["seed"], dataset, repeat)
    for fold, (train, test) in enumerate(splits):
        y_train, flipped = noisy_labels(y[train], noise, experiment["seed"], dataset, repeat,
                                        fold)
        model = make_learner(algorithm, spec, experiment["rounds"])
        start = time.perf_counter()
        model.fit(X.iloc[train], y_train)
        fitted = time.perf_counter()
        predicted = model.predict(X.iloc[test])
        done = time.perf_counter()
        rows.append({
            "dataset": dataset, "noise": noise, "algorithm": algorithm, "repeat": repeat,
            "fold": fold, "n_train": len(train), "n_test": len(test),
            "n_flipped": len(flipped), "error": float(np.mean(predicted != y[test])),
            "rounds": int(getattr(model, "n_rounds_", 1)),
            "fit_seconds": round(fitted - start, 4), "predict_seconds": round(done - fitted, 4),
        })
    return pd.DataFrame(rows, columns=FOLD_COLUMNS)
