"""Folds and label noise (docs/protocol.md §2), both derived from the config seed only.

* Folds: stratified k-fold, shuffled with a seed drawn from (seed, dataset, repeat); every
  algorithm of a cell sees the same folds because they depend on nothing else.
* Label noise: within each training fold, one permutation of the training positions is drawn
  from (seed, dataset, repeat, fold); the labels at its first k = round(p·n_train) positions
  are flipped (half-up rounding, not Python's banker's rounding). Higher noise levels flip a
  superset of the lower levels' labels; test folds are never touched.

* Learners: a booster that draws (resampling, inner cross-validation) gets a seed from
  (seed, dataset, repeat, fold); every reading and algorithm of a fold gets the same one.

Seeds are combined with ``numpy.random.SeedSequence``; dataset names enter through CRC-32,
which, unlike Python's ``hash``, is the same in every process.

* Timing: a fit's and a prediction's seconds are the process's CPU seconds (``cpu_seconds``).
"""

from __future__ import annotations

import math
import time
import zlib

import numpy as np


def cpu_seconds() -> float:
    """The clock of the timing columns: this process's CPU seconds. A cell fits in one thread,
    so on an idle machine they equal the wall-clock seconds; unlike those, they do not grow
    while other work shares the cores or the process is paused (docs/performance.md, "The
    sensitivity study")."""
    return time.process_time()


def _key(name: str) -> int:
    return zlib.crc32(name.encode("utf-8"))


def fold_seed(seed: int, dataset: str, repeat: int) -> int:
    return int(np.random.SeedSequence([seed, _key(dataset), repeat]).generate_state(1)[0])


def learner_seed(seed: int, dataset: str, repeat: int, fold: int) -> int:
    return int(np.random.SeedSequence([seed, _key(dataset), repeat, fold, 3]).generate_state(1)[0])


FOLD_ORDERS = ("stratified", "file_order")


def folds(y: np.ndarray, n_folds: int, seed: int, dataset: str, repeat: int,
          order: str = "stratified"):
    """List of (train indices, test indices): stratified on y and shuffled with the seed
    (``order="stratified"``, every study's default), or ``"file_order"``: consecutive blocks
    of the rows as the file lists them, unshuffled and unstratified (scikit-learn's KFold;
    the same for every repeat)."""
    from sklearn.model_selection import KFold, StratifiedKFold  # not at import: the
    # workflow's parse imports this module, and sklearn.model_selection costs it about a second

    if order == "file_order":
        return [(train, test) for train, test in KFold(n_splits=n_folds).split(y)]
    if order != "stratified":
        raise ValueError(f"fold order must be one of {FOLD_ORDERS}, got {order!r}")
    splitter = StratifiedKFold(n_splits=n_folds, shuffle=True,
                               random_state=fold_seed(seed, dataset, repeat))
    return [(np.sort(train), np.sort(test))
            for train, test in splitter.split(np.zeros(len(y)), y)]


def n_flipped(noise: float, n_train: int) -> int:
    return int(math.floor(noise * n_train + 0.5))


def noisy_labels(y_train: np.ndarray, noise: float, seed: int, dataset: str, repeat: int,
                 fold: int) -> tuple[np.ndarray, np.ndarray]:
    """Labels in {-1, +1} with exactly round(noise·n) of them flipped; returns (labels, flipped
    positions)."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, _key(dataset), repeat, fold, 1]))
    order = rng.permutation(len(y_train))
    flipped = np.sort(order[:n_flipped(noise, len(y_train))])
    out = np.array(y_train, copy=True)
    out[flipped] = -out[flipped]
    return out, flipped
