"""``DecisionStump``: a one-split classifier, optionally penalised by a graph (RegBoost's base
learner); the search itself is ``weightboost.stumps.search``."""

from __future__ import annotations

import numpy as np
from numba import njit
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import (_check_sample_weight, check_array, check_is_fitted,
                                      column_or_1d)

from weightboost.boosting.rules import Rules
from weightboost.stumps.boost import FALLBACK, boost_stumps
from weightboost.stumps.search import (OBJECTIVES, StumpData, edge_offset, offset_scale,
                                       prepare_stumps, scan)


class DecisionStump(ClassifierMixin, BaseEstimator):
    """Decision stump h(x) = s if x_j > t else -s, exhaustive over features and thresholds
    (midpoints of consecutive distinct values), minimising the weighted error; binary only.

    Fitted on a ``StumpData`` that carries a neighbourhood graph (as RegBoost does), it
    minimises instead the penalised cost of Wang & Kégl's eq (1) or (2) with the edge offset
    θ = 2·lam·P_L(h) (weightboost.stumps.search). Plain ``fit`` has no graph: P_L ≡ 0 and
    ``lam`` and ``objective`` change nothing.

    Parameters
    ----------
    lam : float, default=0.0
        λ ≥ 0, the penalty coefficient of eq (1).
    objective : {"R1", "R2"}, default="R1"
        The base objective: R1 = ε + λP (eq 1) or the exponential bound R2 (eq 2).

    Attributes
    ----------
    feature_ : int
        The feature split on (-1: every feature was constant; the stump is constant).
    threshold_ : float
    polarity_ : int
        s: the output for x_j > t, as -1/+1 of ``classes_[0]``/``classes_[1]``.
    edge_ : float
        γ = Σ w_i h(x_i) y_i with the weights normalised to sum 1.
    penalty_ : float
        P_L(h): the share of the graph's edges the stump cuts (0 without a graph).
    edge_offset_ : float
        θ = 2·lam·P_L(h).
    n_admissible_, n_candidates_ : int
        Candidates with |γ| > θ, and all candidates, at this fit.
    """

    def __init__(self, lam=0.0, objective="R1"):
        self.lam = lam
        self.objective = objective

    def _check_params(self):
        if not (isinstance(self.lam, (int, float, np.number)) and np.isfinite(self.lam)
                and self.lam >= 0):
            raise ValueError(f"lam must be a number >= 0, got {self.lam!r}")
        if self.objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {OBJECTIVES}, got {self.objective!r}")

    def fit(self, X, y, sample_weight=None):
        self._check_params()
        X = check_array(X, dtype=np.float64)
        y = column_or_1d(y, warn=True)
        check_classification_targets(y)
        if len(y) != X.shape[0]:
            raise ValueError(f"X has {X.shape[0]} rows but y has {len(y)} labels")
        self.classes_, index = np.unique(y, return_inverse=True)
        if len(self.classes_) > 2:
            raise ValueError("Only binary classification is supported. DecisionStump got y "
                             f"with {len(self.classes_)} classes")
        weights = _check_sample_weight(sample_weight, X)
        if np.any(weights < 0):
            raise ValueError("sample_weight must be non-negative")
        signed = np.where(index == 1, 1.0, -1.0)
        if len(self.classes_) == 1:
            signed[:] = 1.0
        return self._fit_prepared(prepare_stumps(X), signed, weights, self.classes_)

    def _fit_prepared(self, data: StumpData, signed, weights, classes=None):
        """Fit on prepared candidates; ``signed`` labels in {-1, 1} of the labelled rows."""
        self.classes_ = np.array([-1.0, 1.0]) if classes is None else classes
        self.n_features_in_ = data.X.shape[1]
        c, feature, edge, admissible, outputs = scan(data, weights, signed, self.lam,
                                                     self.objective)
        if c < 0:  # no threshold anywhere: the constant stump of the weighted majority
            total = float(np.dot(weights, signed))
            self.n_admissible_, self.n_candidates_ = admissible, data.n_candidates
            self.feature_, self.threshold_ = -1, np.inf
            self.polarity_ = -1 if total >= 0 else 1  # x_j > inf never holds: output is -s
            self.edge_, self.penalty_ = abs(total) / float(np.sum(weights)), 0.0
            self.edge_offset_ = edge_offset(offset_scale(self.lam), self.penalty_)
        else:
            self.__dict__.update(_chosen(self.lam, data, [c], [feature], [edge],
                                         [admissible])[0])
            self._training_outputs = outputs  # taken (not kept) by _predict_training
        return self

    # -- boosting's base-learner protocol (weightboost.prepared) ------------------------------
    def _prepare_training(self, X, unlabeled=None):
        return prepare_stumps(X.to_numpy() if hasattr(X, "iloc") else X, unlabeled)

    def _fit_round(self, data: StumpData, signed, tree_labels, p, rng):
        """A boosting round: the distribution ``p`` as weights (scaled to sum to N), or with
        ``rng`` a draw of N points with replacement, whose counts are the weights (a stump
        depends on the weights only)."""
        n = len(p)
        weights = n * p if rng is None else rng.multinomial(n, p).astype(np.float64)
        return self._fit_prepared(data, signed, weights)

    def _boost(self, data: StumpData, signed, rules: Rules, n_estimators, restart):
        """Every round of a booster with these stumps as its base learner, by the compiled
        driver (``weightboost.stumps.boost``): (stumps, coefficients, errors, round
        constants, training scores, stopped early, first stump alone, restarts) as the
        Python driver would leave them, or None when the Python driver must run."""
        (status, kept, restarts, stopped, single, score, chosen, features, edges, admissible,
         errors, coefficients, constants) = boost_stumps(
            data.scan_arrays, np.ascontiguousarray(signed, dtype=np.float64),
            offset_scale(self.lam), self.objective == "R2", n_estimators, restart, *rules)
        if status == FALLBACK:
            return None
        common = {**self.get_params(deep=False), "classes_": np.array([-1.0, 1.0]),
                  "n_features_in_": data.X.shape[1]}
        stumps = []
        for fitted in _chosen(self.lam, data, chosen[:kept], features[:kept], edges[:kept],
                              admissible[:kept], common):
            stump = object.__new__(DecisionStump)
            stump.__dict__ = fitted
            stumps.append(stump)
        return (stumps, coefficients[:kept], errors[:kept], constants[:kept], score,
                bool(stopped), bool(single), int(restarts))

    @classmethod
    def _ensemble_outputs(cls, estimators, X):
        """Each stump's outputs on X, X checked once and all computed in one compiled call
        (``_signs`` is the call for one stump)."""
        X = estimators[0]._validated(X)
        yield from _all_signs(X, np.array([s.feature_ for s in estimators], dtype=np.int64),
                              np.array([s.threshold_ for s in estimators], dtype=np.float64),
                              np.array([s.polarity_ for s in estimators], dtype=np.float64))

    def _signs(self, X):
        return _all_signs(X, np.array([self.feature_], dtype=np.int64),
                          np.array([self.threshold_], dtype=np.float64),
                          np.array([self.polarity_], dtype=np.float64))[0]

    def _predict_training(self, data: StumpData):
        """Outputs in {-1, 1} on the labelled rows of the data it was fitted on (computed by
        the scan that chose the stump)."""
        outputs = self.__dict__.pop("_training_outputs", None)
        return self._signs(data.X[:data.n_labelled]) if outputs is None else outputs

    def _validated(self, X):
        check_is_fitted(self, "feature_")
        X = check_array(X, dtype=np.float64)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {X.shape[1]} features, but DecisionStump is expecting "
                             f"{self.n_features_in_} features as input")
        return X

    def decision_function(self, X):
        """h(x) ∈ {-1, 1}: +1 for ``classes_[1]``."""
        return self._signs(self._validated(X))

    def predict(self, X):
        signs = self.decision_function(X)
        if len(self.classes_) == 1:
            return np.full(len(signs), self.classes_[0])
        return self.classes_[(signs > 0).astype(int)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags


def _chosen(lam, data: StumpData, chosen, features, edges, admissible,
            common=None) -> list[dict]:
    """The fitted attributes of the stumps that are candidates ``chosen`` of ``data``, each
    with its feature, edge (of polarity +1) and the admissible count of its scan (and the
    items of ``common``)."""
    penalty = data.penalty[np.asarray(chosen, dtype=np.int64)]
    edges = np.asarray(edges, dtype=np.float64)
    columns = {"n_admissible_": np.asarray(admissible, dtype=np.int64).tolist(),
               "feature_": np.asarray(features, dtype=np.int64).tolist(),
               "threshold_": data.threshold[np.asarray(chosen, dtype=np.int64)].tolist(),
               "polarity_": np.where(edges >= 0, 1, -1).tolist(),
               "edge_": np.abs(edges).tolist(), "penalty_": penalty.tolist(),
               "edge_offset_": edge_offset(offset_scale(lam), penalty).tolist()}
    shared = {**(common or {}), "n_candidates_": data.n_candidates}
    names = tuple(columns)
    return [{**shared, **dict(zip(names, values))} for values in zip(*columns.values())]


@njit(cache=True)
def _all_signs(X, features, thresholds, polarities):
    """Row t: the outputs on X of stump t, h(x) = s if x_f > threshold else -s (f, s =
    features[t], polarities[t]), and -s everywhere for the constant stump (f = -1)."""
    out = np.empty((features.shape[0], X.shape[0]))
    for t in range(features.shape[0]):
        f, s = features[t], polarities[t]
        for i in range(X.shape[0]):
            if f < 0:
                out[t, i] = -s
            else:
                out[t, i] = (1.0 if X[i, f] > thresholds[t] else -1.0) * s
    return out
