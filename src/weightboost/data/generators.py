"""Data sets drawn from a distribution rather than read from a file: each generator is called as
``function(n, rng, **params)`` with a seeded ``numpy.random.Generator`` and returns the features
(a pandas DataFrame) and the labels (a numpy array of ±1).

``long_servedio`` is the distribution of Long & Servedio (2010), "Random classification noise
defeats all convex potential boosters", in the 21-feature form of later work (R package irboost,
``dataLS``); docs/protocol.md says where it differs from the paper's two-dimensional one.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

LS_FEATURES = 21
LS_FIRST = 11       # features 1-11 side with y on a puller, 12-21 against it
LS_PENALIZER_AGREE = (5, 6)   # a penalizer: how many of features 1-11 and of 12-21 equal y
LS_KINDS = ("large_margin", "puller", "penalizer")
LS_KIND_PROBABILITIES = (0.25, 0.25, 0.5)


def long_servedio_points(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray,
                                                                      np.ndarray]:
    """``n`` points: features in {-1, +1} (n x 21), labels ±1 (each with probability 1/2), and
    each point's kind (an index into ``LS_KINDS``). A large-margin point has every feature equal
    to its label; a puller features 1-11 equal to it and 12-21 opposite; a penalizer five of
    features 1-11 and six of 12-21, chosen at random, equal to it and the rest opposite. The
    features sum to 21, 1 or 1 times the label: sign(sum) is the label on every point."""
    y = rng.choice(np.array([-1, 1]), size=n)
    kind = rng.choice(len(LS_KINDS), size=n, p=LS_KIND_PROBABILITIES)
    agree = np.ones((n, LS_FEATURES), dtype=bool)                  # large margin
    agree[kind == 1, LS_FIRST:] = False                            # puller
    penalizers = np.flatnonzero(kind == 2)
    for block, (start, stop) in zip(LS_PENALIZER_AGREE, ((0, LS_FIRST), (LS_FIRST, LS_FEATURES))):
        width = stop - start
        # a random subset of `block` positions of the block per point: the first `block` of a
        # random permutation of the block's columns
        order = np.argsort(rng.random((len(penalizers), width)), axis=1)
        chosen = np.zeros((len(penalizers), width), dtype=bool)
        np.put_along_axis(chosen, order[:, :block], True, axis=1)
        agree[penalizers, start:stop] = chosen
    X = np.where(agree, y[:, None], -y[:, None]).astype(np.int64)
    return X, y.astype(np.int64), kind


def long_servedio(n: int, rng: np.random.Generator) -> tuple[pd.DataFrame, np.ndarray]:
    """The generator of data set ``long_servedio``: ``long_servedio_points`` as a table with
    columns x1..x21."""
    X, y, _ = long_servedio_points(n, rng)
    return pd.DataFrame(X, columns=[f"x{j + 1}" for j in range(LS_FEATURES)]), y
