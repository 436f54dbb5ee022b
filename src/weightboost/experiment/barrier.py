"""The convex-potential barrier study (config ``barrier``, docs/protocol.md §8): boosters on a
data set drawn by a generator, their training labels flipped at each noise level, their error
measured on a clean test sample; its plan, its cell job and its tables.

A *cell* is (noise level, training size, learner) over every repeat. Repeat r draws a pool of
the largest training size and a clean test sample of ``n_test`` points from the data set's
generator (seeds: ``experiment.seed``, the data set's name, r, and 5 for the pool, 6 for the
test sample), takes the pool's first ``n_train`` points (so that the sizes are nested), flips
exactly round(η·n) of their labels (``protocol.noisy_labels``, the training size in the fold's
place) and fits the learner with ``rounds`` rounds (the learner's seed likewise). The error is
on the clean test labels, after the last round and, for a booster, after each checkpoint.
"""

from __future__ import annotations

import zlib

import numpy as np
import pandas as pd

from weightboost.data.generators import generator_function
from weightboost.errors import ConfigError
from weightboost.experiment.learners import make_learner
from weightboost.experiment.protocol import cpu_seconds, learner_seed, noisy_labels
from weightboost.experiment.tables import error_summary, order_rows
from weightboost.fileio import write_csv_atomic

FOLD_COLUMNS = ["dataset", "noise", "n_train", "algorithm", "repeat", "n_flipped", "rounds",
                "error", "fit_seconds"]
CURVE_COLUMNS = ["dataset", "noise", "n_train", "algorithm", "repeat", "round", "error"]
SUMMARY_COLUMNS = ["dataset", "noise", "n_train", "algorithm", "repeats", "error_mean",
                   "error_sd", "rounds_mean"]
POOL, TEST = 5, 6   # the last part of the seeds of a repeat's training pool and test sample


def study_section(config: dict) -> dict:
    return dict(config["barrier"])


def check_study(config: dict) -> None:
    """The data set has a generator, the learners are entries of ``algorithms``."""
    if not config.get("barrier"):
        return
    study = study_section(config)
    entry = config.get("datasets", {}).get(study["dataset"])
    if entry is None or "generator" not in entry:
        raise ConfigError(f"barrier.dataset is {study['dataset']!r}, which is no data set with a "
                          "generator under 'datasets': the study draws its samples from one")
    for name in study["algorithms"]:
        if name not in config.get("algorithms", {}):
            raise ConfigError(f"barrier.algorithms names {name!r}, which is not a key of the "
                              "config section 'algorithms'")


def protocol(config: dict) -> dict:
    """What every cell of the study depends on besides its path (noise, size, learner)."""
    study = study_section(config)
    return {"seed": config["experiment"]["seed"], "n_test": study["n_test"],
            "n_pool": max(study["n_train"]), "repeats": study["repeats"],
            "checkpoints": sorted(study.get("checkpoints") or [])}


def plan(config: dict) -> list[tuple[float, int, str]]:
    """(noise level, training size, learner) of every cell, in the config's order."""
    study = study_section(config)
    return [(float(noise), int(n), algorithm) for noise in study["noise_levels"]
            for n in study["n_train"] for algorithm in study["algorithms"]]


def _seed(seed: int, dataset: str, repeat: int, part: int) -> np.random.SeedSequence:
    return np.random.SeedSequence([seed, zlib.crc32(dataset.encode("utf-8")), repeat, part])


def draw(data: dict, dataset: str, n: int, seed: int, repeat: int, part: int):
    """``n`` points of the data set's generator for ``repeat`` (``POOL`` or ``TEST``)."""
    generator = data["generator"]
    X, y = generator_function(generator["function"])(
        n, np.random.default_rng(_seed(seed, dataset, repeat, part)),
        **(generator.get("params") or {}))
    return X.to_numpy(dtype=float), np.asarray(y, dtype=np.int64)


def run_cell(dataset: str, noise: float, n_train: int, algorithm: str, learner: dict,
             rounds: int, protocol: dict, data: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A cell's rows of ``FOLD_COLUMNS`` and ``CURVE_COLUMNS``, one per repeat (and
    checkpoint)."""
    seed, folds, curves = protocol["seed"], [], []
    for repeat in range(protocol["repeats"]):
        X_pool, y_pool = draw(data, dataset, protocol["n_pool"], seed, repeat, POOL)
        X_test, y_test = draw(data, dataset, protocol["n_test"], seed, repeat, TEST)
        labels, flipped = noisy_labels(y_pool[:n_train], noise, seed, dataset, repeat, n_train)
        model = make_learner(algorithm, learner, rounds,
                             random_state=learner_seed(seed, dataset, repeat, n_train))
        start = cpu_seconds()
        model.fit(X_pool[:n_train], labels)
        fit_seconds = cpu_seconds() - start
        error = float(np.mean(model.predict(X_test) != y_test))
        key = {"dataset": dataset, "noise": noise, "n_train": n_train, "algorithm": algorithm,
               "repeat": repeat}
        folds.append(key | {"n_flipped": len(flipped), "rounds": getattr(model, "n_rounds_", 1),
                            "error": error, "fit_seconds": round(fit_seconds, 4)})
        if hasattr(model, "staged_predict"):
            wanted = set(protocol["checkpoints"])
            for t, predicted in enumerate(model.staged_predict(X_test), start=1):
                if t in wanted:
                    curves.append(key | {"round": t,
                                         "error": float(np.mean(predicted != y_test))})
    return pd.DataFrame(folds, columns=FOLD_COLUMNS), pd.DataFrame(curves, columns=CURVE_COLUMNS)


def barrier_cell(output: str, curve_output: str, dataset: str, noise: str, n_train: str,
                 algorithm: str, protocol: dict, learner: dict, rounds: int, data: dict) -> None:
    """The job of a barrier cell: its files, its path's wildcards and its key's parts, by
    name."""
    folds, curves = run_cell(dataset, float(noise), int(n_train), algorithm, learner, rounds,
                             protocol, data)
    write_csv_atomic(curve_output, curves)
    write_csv_atomic(output, folds)


def combine(cell_frames, curve_frames, config: dict):
    """The study's tables: folds (one row per repeat), summary (mean and sd over the repeats
    of each noise level, training size and learner) and curves (the checkpoints), in the
    config's order."""
    study = study_section(config)
    order = [("noise", [float(n) for n in study["noise_levels"]]),
             ("n_train", [int(n) for n in study["n_train"]]),
             ("algorithm", list(study["algorithms"])), ("repeat", None)]
    folds = order_rows(pd.concat(cell_frames, ignore_index=True), order)[FOLD_COLUMNS]
    curves = pd.concat(curve_frames, ignore_index=True) if curve_frames else \
        pd.DataFrame(columns=CURVE_COLUMNS)
    curves = order_rows(curves, order + [("round", None)])[CURVE_COLUMNS]
    summary = error_summary(folds, ["dataset", "noise", "n_train", "algorithm"], "repeats")
    summary = order_rows(summary, order[:3])[SUMMARY_COLUMNS]
    return folds, summary, curves
