"""The neighbourhood graph of RegBoost's penalty (Wang & Kégl 2004, §3) and what a stump cuts.

* The graph G = (V, E) has the training points (labelled and unlabelled) as vertices and an
  edge between x_i and x_j when either is among the other's k nearest neighbours (Euclidean
  distance; W_ij ∈ {0, 1}, the paper's choice). Distances are computed exactly, feature by
  feature, and neighbours ranked as a stable sort ranks them: ties (duplicated points) go to
  the lower index, so the graph does not depend on a BLAS or on a tree search's visiting
  order.
* ``graph_scaling="zscore"`` computes the distances on features standardised over the graph's
  points (a feature of constant value is left at zero); ``"raw"`` on the values as given.
* P_L(h) = (1 / 2|W|) Σ_{i<j} (h(x_i) - h(x_j))² W_ij (§3, |W| = Σ_ij W_ij = 2|E|): for
  h ∈ {-1, 1} each cut edge contributes 4, so P_L(h) = cut(h) / |E|, the share of the
  graph's edges whose ends h separates (docs/algorithms.md §7.2).
* For a stump on feature j with its threshold between the a-th and (a+1)-th distinct values
  of x_j, an edge (i, k) is cut when the ranks of x_ij and x_kj lie on both sides:
  ``cut_counts`` gets every threshold's count from one difference array, O(|E| + n).
"""

from __future__ import annotations

import numpy as np
from numba import njit

SCALINGS = ("raw", "zscore")


def scaled(X: np.ndarray, scaling: str) -> np.ndarray:
    if scaling not in SCALINGS:
        raise ValueError(f"graph_scaling must be one of {SCALINGS}, got {scaling!r}")
    if scaling == "raw":
        return X
    sd = X.std(axis=0)
    return (X - X.mean(axis=0)) / np.where(sd > 0, sd, 1.0)


def knn_edges(X: np.ndarray, n_neighbors: int, scaling: str = "raw") -> np.ndarray:
    """The undirected edges (i < j, sorted, unique) of the symmetrised k-NN graph of X."""
    n = X.shape[0]
    if not (isinstance(n_neighbors, (int, np.integer)) and n_neighbors >= 1):
        raise ValueError(f"n_neighbors must be a positive integer, got {n_neighbors!r}")
    if n_neighbors >= n:
        raise ValueError(f"n_neighbors={n_neighbors} must be smaller than the number of "
                         f"points in the graph ({n})")
    Z = np.ascontiguousarray(scaled(np.asarray(X, dtype=np.float64), scaling))
    neighbours = _nearest(Z, int(n_neighbors))
    i = np.repeat(np.arange(n), n_neighbors)
    j = neighbours.ravel()
    pairs = np.unique(np.minimum(i, j) * n + np.maximum(i, j))
    return np.stack([pairs // n, pairs % n], axis=1)


@njit(cache=True)
def _nearest(Z, k):
    """Row i: the k nearest other points of point i, nearest first, a tie to the lower index
    (the first k of a stable sort of the row of squared distances). A squared distance is the
    sum over features, in order, of (z_if - z_jf)²; the k best so far are kept in order and
    a point enters only when strictly nearer than the k-th (O(n²(d + k)), no n × n matrix)."""
    n, d = Z.shape
    out = np.empty((n, k), dtype=np.int64)
    best = np.empty(k)
    for i in range(n):
        filled = 0
        for j in range(n):
            if j == i:
                continue
            distance = 0.0
            for f in range(d):
                step = Z[i, f] - Z[j, f]
                distance += step * step
            if filled == k and not distance < best[k - 1]:
                continue
            m = filled if filled < k else k - 1  # the slot it takes, then moved up
            while m > 0 and distance < best[m - 1]:
                best[m] = best[m - 1]
                out[i, m] = out[i, m - 1]
                m -= 1
            best[m] = distance
            out[i, m] = j
            filled = min(filled + 1, k)
    return out


def cut_counts(ranks: np.ndarray, n_values: int, edges: np.ndarray) -> np.ndarray:
    """Edges cut by each of the n_values - 1 thresholds of one feature; ``ranks`` are the
    points' distinct-value ranks 0..n_values-1 (threshold a lies between ranks a and a+1)."""
    lo = np.minimum(ranks[edges[:, 0]], ranks[edges[:, 1]])
    hi = np.maximum(ranks[edges[:, 0]], ranks[edges[:, 1]])
    crossing = lo < hi
    starts = np.bincount(lo[crossing], minlength=n_values)
    ends = np.bincount(hi[crossing], minlength=n_values)
    return np.cumsum(starts - ends)[:n_values - 1]
