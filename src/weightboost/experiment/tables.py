"""Aggregating cell results into the result tables under ``results/``.

Rows are ordered by the config's order of datasets and algorithms, then noise, repeat and
fold, so the same config always writes the same bytes (timing columns aside: they measure
the machine, not the method).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from weightboost.experiment.reuters import T_RULES
from weightboost.experiment.uci import FOLD_COLUMNS

SUMMARY_COLUMNS = ["dataset", "noise", "algorithm", "n_folds", "error_mean", "error_sd",
                   "rounds_mean"]


def order_rows(frame: pd.DataFrame, order) -> pd.DataFrame:
    """Rows sorted by ``order``: (column, ranking) pairs, most significant first. A ranking
    lists the column's values in the wanted order (the config's); None sorts by value."""
    keys, ranks = [], {}
    for k, (column, ranking) in enumerate(order):
        if ranking is None:
            keys.append(column)
        else:
            ranks[f"_rank{k}"] = frame[column].map({v: i for i, v in enumerate(ranking)})
            keys.append(f"_rank{k}")
    return frame.assign(**ranks).sort_values(keys, kind="stable").drop(
        columns=list(ranks)).reset_index(drop=True)


def uci_order(datasets, algorithms, *keys):
    return [("dataset", datasets), ("noise", None), ("algorithm", algorithms),
            *[(key, None) for key in keys]]


def combine_folds(cell_frames, datasets, algorithms) -> pd.DataFrame:
    """The primary table: the cells' ``FOLD_COLUMNS`` in the config's order."""
    frame = pd.concat([f[FOLD_COLUMNS] for f in cell_frames], ignore_index=True)
    return order_rows(frame, uci_order(datasets, algorithms, "repeat", "fold"))


def sample_sd(values) -> float:
    """The sample standard deviation (ddof 1) of a group of fold errors; NaN for one fold."""
    return float(np.std(values, ddof=1)) if len(values) > 1 else float("nan")


def error_summary(folds: pd.DataFrame, keys, count: str) -> pd.DataFrame:
    """Per group of ``keys`` (in order of appearance): the number of fold rows (column
    ``count``), mean and sample sd of the error, mean rounds."""
    grouped = folds.groupby(keys, sort=False)
    return grouped.agg(**{count: ("error", "size")}, error_mean=("error", "mean"),
                       error_sd=("error", sample_sd),
                       rounds_mean=("rounds", "mean")).reset_index()


def summarise(folds: pd.DataFrame, datasets, algorithms) -> pd.DataFrame:
    summary = error_summary(folds, ["dataset", "noise", "algorithm"], "n_folds")
    return order_rows(summary, uci_order(datasets, algorithms))[SUMMARY_COLUMNS]


def combine_reuters(f1_frames, curve_frames, categories, algorithms):
    """The Reuters cells as (F1 table, curve table), in the config's order."""
    by_cell = [("category", categories), ("algorithm", algorithms)]
    f1 = order_rows(pd.concat(f1_frames, ignore_index=True), by_cell + [("t_rule", T_RULES)])
    curves = order_rows(pd.concat(curve_frames, ignore_index=True), by_cell + [("T", None)])
    return f1, curves
