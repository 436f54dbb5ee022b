"""Aggregating cell results into the result tables under ``results/``.

Rows are ordered by the config's order of datasets and algorithms, then noise, repeat and
fold, so the same config always writes the same bytes (timing columns aside: they measure
the machine, not the method).
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd

SUMMARY_COLUMNS = ["dataset", "noise", "algorithm", "n_folds", "error_mean", "error_sd",
                   "rounds_mean"]


def to_csv_bytes(frame: pd.DataFrame) -> bytes:
    buffer = io.StringIO()
    frame.to_csv(buffer, index=False, lineterminator="\n")
    return buffer.getvalue().encode("utf-8")


def order_rows(frame: pd.DataFrame, datasets, algorithms, keys) -> pd.DataFrame:
    rank_d = {d: i for i, d in enumerate(datasets)}
    rank_a = {a: i for i, a in enumerate(algorithms)}
    frame = frame.assign(_d=frame["dataset"].map(rank_d), _a=frame["algorithm"].map(rank_a))
    return frame.sort_values(["_d", "noise", "_a", *keys], kind="stable").drop(
        columns=["_d", "_a"]).reset_index(drop=True)


def combine_folds(cell_frames, datasets, algorithms) -> pd.DataFrame:
    frame = pd.concat(cell_frames, ignore_index=True)
    return order_rows(frame, datasets, algorithms, ["repeat", "fold"])


def summarise(folds: pd.DataFrame, datasets, algorithms) -> pd.DataFrame:
    grouped = folds.groupby(["dataset", "noise", "algorithm"], sort=False)
    summary = grouped.agg(n_folds=("error", "size"), error_mean=("error", "mean"),
                          error_sd=("error", lambda e: float(np.std(e, ddof=1))
                                    if len(e) > 1 else float("nan")),
                          rounds_mean=("rounds", "mean")).reset_index()
    return order_rows(summary, datasets, algorithms, [])[SUMMARY_COLUMNS]
