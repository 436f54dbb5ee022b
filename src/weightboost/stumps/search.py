"""The candidate stumps of a training set, prepared once per fit, and the per-round scan.

A stump on feature j with threshold t predicts h(x) = s if x_j > t else -s, s ∈ {-1, +1}.
The candidates are the thresholds at the midpoints of consecutive distinct values of each
feature over the points given (labelled and, in the semi-supervised setting, unlabelled: they
enter the candidate thresholds and the graph, not the errors), each with the polarity that
makes its edge non-negative: Σ_j (m_j - 1) candidates, m_j the number of distinct values of
x_j. ``prepare_stumps`` sorts every feature once and, given a neighbourhood graph, stores the
penalty P_L of every candidate (weightboost.stumps.graph); a round then costs one compiled
O(N·d) scan (``_scan``) whatever the penalty, which also returns the chosen stump's outputs
on the training points.

The scan reads a feature's candidates in one of two layouts, chosen per feature when the
data are prepared, with the same score and the same choice (tests/test_regboost.py): a
feature with few candidates for its points (a discrete one) is read candidate by candidate,
its largest score kept as it goes; one with many (a continuous one) position by position in
sorted order, its penalties laid out by position (NaN where no threshold lies, so that no
comparison counts it), in a pass of two counts (admissible, above the best so far) that the
compiler vectorises, where a running maximum would not be; only a feature whose count
above the best is not zero is then read for its maximum (about ln d features of d).

The scan chooses, with weights w (normalised to sum 1) and labels y ∈ {-1, 1}:

* ``objective="R1"`` (Wang & Kégl eq 1): the candidate maximising |γ| - θ, where the edge is
  γ = Σ_i w_i h(x_i) y_i and the edge offset θ = 2λ P_L(h) (Figure 2, line 5); minimising
  R1 = ε + λP = ½ - ½(γ - θ) is the same thing;
* ``objective="R2"`` (eq 2): among the admissible candidates (|γ| > θ), the one minimising
  log R2 = ((1+θ)/2) ln((1+γ)/(1+θ)) + ((1-θ)/2) ln((1-γ)/(1-θ)), the exponential bound
  E(α, h) at the coefficient of eq (3) (docs/algorithms.md §7.3); with no admissible
  candidate it falls back to R1's choice (which the booster then declines: α ≤ 0).

Ties keep the first candidate (features in order, thresholds ascending), so that the two
objectives choose alike when θ ≡ 0. The scan also counts the admissible candidates (|γ| > θ):
Figure 3(e)'s rate of admissible stumps is that count over the number of candidates.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from weightboost.c45.tree import unsigned
from weightboost.prepared import PreparedData
from weightboost.stumps.graph import cut_counts, knn_edges, scaled

OBJECTIVES = ("R1", "R2")
# a feature is scanned by position when its candidates are at least a third of its points: a
# vectorised position costs about a third of a candidate read one by one (docs/performance.md)
BY_POSITION_SHARE = 3
SCAN_PENALTY = 3  # the candidates' penalties P(h): their index in StumpData.scan_arrays


@dataclass(frozen=True)
class StumpData(PreparedData):
    """A training set prepared for stumps (see the module docstring).

    ``X`` holds the labelled rows first, then the unlabelled ones (``n_labelled`` of them
    labelled); ``order[j]`` sorts column j; candidate c of feature j (``offsets[j] <= c <
    offsets[j+1]``) has ``threshold[c]``, splits the sorted order after position ``split[c]``,
    and cuts the share ``penalty[c]`` of the graph's ``n_edges`` edges (0 without a graph).
    A feature with ``by_position[j]`` is scanned by position, with ``position_penalty[j, p]``
    the penalty of the candidate after sorted position p (NaN where there is none); the array is
    filled for every feature, so that any feature can be read either way (tests, benchmarks)."""

    X: np.ndarray
    n_labelled: int
    order: np.ndarray
    offsets: np.ndarray
    split: np.ndarray
    threshold: np.ndarray
    penalty: np.ndarray
    n_edges: int
    by_position: np.ndarray
    position_penalty: np.ndarray

    @property
    def shape(self):
        return (self.n_labelled, self.X.shape[1])

    @property
    def n_candidates(self) -> int:
        return int(self.offsets[-1])

    @property
    def scan_arrays(self) -> tuple:
        """The arrays ``_scan`` reads, in its order (``penalty`` at ``SCAN_PENALTY``)."""
        return (self.order, self.offsets, self.split, self.penalty, self.by_position,
                self.position_penalty)

    def candidate(self, feature: int, threshold: float) -> int:
        """The index of a candidate (for tests and records)."""
        lo, hi = self.offsets[feature], self.offsets[feature + 1]
        return int(lo + np.searchsorted(self.threshold[lo:hi], threshold))


def finite_matrix(X, what: str = "X") -> np.ndarray:
    X = np.ascontiguousarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"{what} must be a 2-d array, got shape {X.shape}")
    if not np.all(np.isfinite(X)):
        raise ValueError(f"{what} has missing (NaN) or infinite values: decision stumps take "
                         "none; impute or drop them first")
    return X


def prepare_stumps(X, unlabeled=None, n_neighbors: int | None = None,
                   graph_scaling: str = "raw") -> StumpData:
    """The candidates of X (plus the unlabelled points), with the penalties of the k-NN graph
    over all of them when ``n_neighbors`` is given."""
    X = finite_matrix(X)
    n_labelled = X.shape[0]
    if unlabeled is not None:
        unlabeled = finite_matrix(unlabeled, "unlabeled")
        if unlabeled.shape[1] != X.shape[1]:
            raise ValueError(f"unlabeled has {unlabeled.shape[1]} features, X has "
                             f"{X.shape[1]}")
        X = np.ascontiguousarray(np.vstack([X, unlabeled]))
    if n_neighbors is not None:
        edges = knn_edges(X, n_neighbors, graph_scaling)
    else:
        scaled(X[:1], graph_scaling)  # checks the name
        edges = np.empty((0, 2), dtype=np.int64)
    n, d = X.shape
    order = np.ascontiguousarray(np.argsort(X, axis=0, kind="stable").T, dtype=np.int32)
    offsets = np.zeros(d + 1, dtype=np.int64)
    splits, thresholds, penalties = [], [], []
    for j in range(d):
        column = X[:, j]
        values = column[order[j]]
        positions = np.flatnonzero(values[1:] != values[:-1])  # last position of each group
        low, high = values[positions], values[positions + 1]
        middle = (low + high) / 2
        # adjacent doubles: a midpoint rounded up to the higher value would send it left
        middle = np.where(middle < high, middle, low)
        splits.append(positions)
        thresholds.append(middle)
        if len(edges):
            distinct, ranks = np.unique(column, return_inverse=True)
            penalties.append(cut_counts(ranks, len(distinct), edges) / len(edges))
        else:
            penalties.append(np.zeros(len(positions)))
        offsets[j + 1] = offsets[j] + len(positions)
    split = np.concatenate(splits).astype(np.int64)
    penalty = np.concatenate(penalties).astype(np.float64)
    by_position = BY_POSITION_SHARE * np.diff(offsets) >= n
    position_penalty = np.full((d, n), np.nan)
    for j, (lo, hi) in enumerate(zip(offsets[:-1], offsets[1:])):
        position_penalty[j, split[lo:hi]] = penalty[lo:hi]
    return StumpData(X=X, n_labelled=n_labelled, order=order, offsets=offsets, split=split,
                     threshold=np.concatenate(thresholds).astype(np.float64), penalty=penalty,
                     n_edges=len(edges), by_position=by_position,
                     position_penalty=position_penalty)


@njit(cache=True)
def _prefix_sums(order, wy, first, prefix):
    """prefix[k, p]: the sum of ``wy`` over the first p + 1 points of feature first + k in
    sorted order, for the four features from ``first`` (past the last feature, rows repeat
    it). Four features share one pass, so that four independent additions are in flight
    instead of one chain (same order per feature): a last block of one to three features
    costs what a block of four does, not one pass per feature."""
    n = order.shape[1]
    last = order.shape[0] - 1
    r0, r1 = order[first], order[min(first + 1, last)]
    r2, r3 = order[min(first + 2, last)], order[min(first + 3, last)]
    a0 = a1 = a2 = a3 = 0.0
    for p in range(n):
        a0 += wy[unsigned(r0[p])]
        a1 += wy[unsigned(r1[p])]
        a2 += wy[unsigned(r2[p])]
        a3 += wy[unsigned(r3[p])]
        prefix[0, p] = a0
        prefix[1, p] = a1
        prefix[2, p] = a2
        prefix[3, p] = a3


@njit(cache=True)
def _log_r2(a, theta):
    """log R2 of an admissible candidate with |γ| = a and offset θ (module docstring)."""
    if a >= 1.0:
        return -np.inf
    return 0.5 * ((1.0 + theta) * math.log((1.0 + a) / (1.0 + theta))
                  + (1.0 - theta) * math.log((1.0 - a) / (1.0 - theta)))


@njit(cache=True, inline="always")
def edge_offset(offset_scale, penalty):
    """θ = 2λ·P(h), the edge offset of a stump of penalty ``penalty`` (Wang & Kégl 2004,
    Figure 2, line 5; ``offset_scale`` = 2λ): computed here only, for the scan, the compiled
    booster and a fitted stump's ``edge_offset_`` (scalars or an array of penalties)."""
    return offset_scale * penalty


@njit(cache=True, inline="always")
def _score(total, prefix, penalty, offset_scale):
    """(edge γ of polarity +1, R1 score |γ| - θ) of the candidate whose left side sums to
    ``prefix``, of penalty ``penalty``."""
    edge = total - 2.0 * prefix
    return edge, abs(edge) - edge_offset(offset_scale, penalty)


@njit(cache=True, inline="always")
def _candidate_score(total, row, split, penalty, offset_scale, c):
    """``_score`` of candidate c, from its feature's prefix sums."""
    return _score(total, row[unsigned(split[c])], penalty[c], offset_scale)


@njit(cache=True)
def _position_counts(total, row, position_penalty, offset_scale, bar):
    """(how many of a feature's candidates are admissible, how many score above ``bar``), read
    by position: a NaN penalty (no candidate) makes a NaN score, which no comparison counts."""
    admissible = 0
    above = 0
    for p in range(row.shape[0]):
        score = _score(total, row[p], position_penalty[p], offset_scale)[1]
        admissible += score > 0.0
        above += score > bar
    return admissible, above


@njit(cache=True)
def _feature_maximum(total, row, split, penalty, offset_scale, lo, hi):
    """(the largest R1 score among candidates lo..hi-1 of one feature, how many are admissible).
    Four running maxima over interleaved candidates: one would make every candidate wait for
    the comparison of the one before (a chain of selects that cost half the scan)."""
    m0 = m1 = m2 = m3 = -np.inf
    admissible = 0
    c = lo
    while c + 4 <= hi:
        v0 = _candidate_score(total, row, split, penalty, offset_scale, c)[1]
        v1 = _candidate_score(total, row, split, penalty, offset_scale, c + 1)[1]
        v2 = _candidate_score(total, row, split, penalty, offset_scale, c + 2)[1]
        v3 = _candidate_score(total, row, split, penalty, offset_scale, c + 3)[1]
        admissible += (v0 > 0.0) + (v1 > 0.0) + (v2 > 0.0) + (v3 > 0.0)
        m0 = v0 if v0 > m0 else m0
        m1 = v1 if v1 > m1 else m1
        m2 = v2 if v2 > m2 else m2
        m3 = v3 if v3 > m3 else m3
        c += 4
    while c < hi:
        v0 = _candidate_score(total, row, split, penalty, offset_scale, c)[1]
        admissible += v0 > 0.0
        m0 = v0 if v0 > m0 else m0
        c += 1
    return max(max(m0, m1), max(m2, m3)), admissible


R2_MARGIN = 1e-9  # far above the rounding of a log R2 (about 1e-15): a bound's safety margin


@njit(cache=True)
def _r2_choice(edges, penalty, offset_scale, prune):
    """The first admissible candidate (|γ| > θ, θ < 1) of smallest log R2, or -1. log R2 is
    -KL(p_θ || p_a), p_x = (1+x)/2, a = |γ|, and KL is at most the χ² divergence
    (a-θ)²/(1-a²): a candidate whose bound -(a-θ)²/(1-a²) exceeds the best value so far by
    ``R2_MARGIN`` cannot have a smaller computed value, so with ``prune`` its two logs are not
    computed (the choice is the same; tests/test_regboost.py compares both)."""
    best, best_value = -1, np.inf
    for c in range(edges.shape[0]):
        a = abs(edges[c])
        theta = edge_offset(offset_scale, penalty[c])
        if a > theta and theta < 1.0:
            if prune and a < 1.0:
                gap = a - theta
                if -(gap * gap) / (1.0 - a * a) > best_value + R2_MARGIN:
                    continue
            value = _log_r2(a, theta)
            if value < best_value:
                best, best_value = c, value
    return best


@njit(cache=True)
def _scan(order, offsets, split, penalty, by_position, position_penalty, weights, labels,
          offset_scale, use_r2):
    """(chosen candidate or -1, its feature, its edge γ of polarity +1, admissible count, the
    chosen stump's outputs on the labelled points) for the ``weights`` of the labelled points;
    θ_c = offset_scale · penalty[c]. The prefix sums of w·y in sorted order, four features at
    a time; then per feature the largest score (by position: only when some score beats the
    best so far) and, only when it beats the best so far, the first candidate that has it (so
    the first maximum in candidate order wins a tie, as a single pass would choose); the
    edges are kept only for R2's second pass."""
    d, n = order.shape
    n_labelled = weights.shape[0]
    wy = np.zeros(n)
    total_weight = 0.0
    for i in range(n_labelled):
        total_weight += weights[i]
    for i in range(n_labelled):  # apart from the sum below, so that it is vectorised
        wy[i] = weights[i] * labels[i] / total_weight
    total = 0.0
    for i in range(n_labelled):
        total += wy[i]
    edges = np.empty(split.shape[0] if use_r2 else 0)
    prefix = np.empty((4, n))
    chosen, chosen_edge, best_score, admissible = -1, 0.0, -np.inf, 0
    first = 0
    while first < d:
        width = min(4, d - first)
        _prefix_sums(order, wy, first, prefix)
        for k in range(width):
            row = prefix[k]
            lo, hi = offsets[first + k], offsets[first + k + 1]
            if by_position[first + k]:
                count, above = _position_counts(total, row, position_penalty[first + k],
                                                offset_scale, best_score)
                top = -np.inf
                if above:
                    top = _feature_maximum(total, row, split, penalty, offset_scale, lo, hi)[0]
            else:
                top, count = _feature_maximum(total, row, split, penalty, offset_scale, lo, hi)
            admissible += count
            if top > best_score:
                for c in range(lo, hi):
                    edge, score = _candidate_score(total, row, split, penalty, offset_scale, c)
                    if score == top:
                        chosen, chosen_edge, best_score = c, edge, score
                        break
            if use_r2:
                for c in range(lo, hi):
                    edges[c] = _candidate_score(total, row, split, penalty, offset_scale, c)[0]
        first += width
    if use_r2:  # R2: the best admissible candidate, if any (else R1's choice)
        best_r2 = _r2_choice(edges, penalty, offset_scale, True)
        if best_r2 >= 0:
            chosen, chosen_edge = best_r2, edges[best_r2]
    outputs = np.empty(n_labelled)
    feature, edge = -1, 0.0
    if chosen >= 0:
        edge = chosen_edge
        feature = 0
        while offsets[feature + 1] <= chosen:
            feature += 1
        sign = 1.0 if edge >= 0 else -1.0
        # the threshold lies between the values at sorted positions split and split + 1
        row = order[feature]
        for p in range(n):
            i = row[p]
            if i < n_labelled:
                outputs[i] = -sign if p <= split[chosen] else sign
    return chosen, feature, edge, admissible, outputs


def offset_scale(lam) -> float:
    """2λ: a stump's edge offset θ = 2λ·P(h) per unit of its penalty (Wang & Kégl 2004,
    Figure 2; docs/algorithms.md §7)."""
    return 2.0 * float(lam)


def scan(data: StumpData, weights: np.ndarray, labels: np.ndarray, lam: float,
         objective: str) -> tuple[int, int, float, int, np.ndarray]:
    """The chosen candidate (-1: none, every feature constant), its feature, its edge for
    polarity +1, the number of admissible candidates and the chosen stump's outputs on the
    labelled points (undefined when none was chosen)."""
    c, feature, edge, admissible, outputs = _scan(
        *data.scan_arrays, np.ascontiguousarray(weights, dtype=np.float64),
        np.ascontiguousarray(labels, dtype=np.float64), offset_scale(lam), objective == "R2")
    return int(c), int(feature), float(edge), int(admissible), outputs
