"""The semi-supervised baselines of the RegBoost study (Figure 3(f), docs/algorithms.md §7.6):
classifiers fitted on labelled points plus the unlabelled ones (``fit(X, y, unlabeled)``),
which predict the unlabelled points (transduction).

* ``BelkinNiyogi`` (Belkin & Niyogi 2004, the method Wang & Kégl compare with): the p
  eigenvectors of the graph Laplacian L = D - W with the smallest eigenvalues, over the
  labelled and unlabelled points, on the same k-NN graph as RegBoost's
  (weightboost.stumps.graph); least squares of the labels on those eigenvectors at the
  labelled points; the sign of the fit at the unlabelled ones. p is chosen from ``n_vectors``
  by stratified k-fold cross-validation on the labelled points (the eigenvectors do not
  depend on the labels, so they are computed once).
* ``KnnLabelSpreading``: scikit-learn's ``LabelSpreading(kernel="knn", n_neighbors=8)``, what a
  user would pick today, with the labels mapped to its conventions (unlabelled = -1).

``predict`` takes rows of the points the model was fitted on (labelled or unlabelled) and
refuses any other: the eigenvectors are known only there.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.model_selection import StratifiedKFold
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_array, check_is_fitted

from weightboost.stumps.graph import knn_edges

VECTORS = (2, 3, 5, 8, 10, 15, 20, 30, 50)


class _Transductive(ClassifierMixin, BaseEstimator):
    """Predictions are looked up by row among the points seen at fit."""

    def _check_params(self):
        if not (isinstance(self.n_neighbors, (int, np.integer)) and self.n_neighbors >= 1):
            raise ValueError(f"n_neighbors must be a positive integer, got {self.n_neighbors!r}")
        vectors = getattr(self, "n_vectors", (1,))
        if not (len(vectors) and all(isinstance(p, (int, np.integer)) and p >= 1
                                     for p in vectors)):
            raise ValueError(f"n_vectors must be a non-empty list of positive integers, got "
                             f"{vectors!r}")

    def _remember(self, X_all, scores):
        self._rows = {row.tobytes(): k for k, row in enumerate(X_all)}
        self._scores = scores

    def decision_function(self, X):
        check_is_fitted(self, "_scores")
        X = check_array(X, dtype=np.float64)
        try:
            return np.array([self._scores[self._rows[row.tobytes()]] for row in X])
        except KeyError:
            raise ValueError(f"{type(self).__name__} is transductive: it predicts only the "
                             "points it was fitted on (labelled or unlabelled)") from None

    def predict(self, X):
        return np.where(self.decision_function(X) > 0, 1, -1)


class BelkinNiyogi(_Transductive):
    """Least squares on the smoothest Laplacian eigenvectors (module docstring).

    Parameters
    ----------
    n_neighbors : int, default=8
        k of the k-NN graph.
    graph_scaling : {"raw", "zscore"}, default="raw"
    n_vectors : sequence of int, default=(2, 3, 5, 8, 10, 15, 20, 30, 50)
        Candidate numbers p of eigenvectors (those not below the inner training size).
    cv : int, default=5
        Inner folds that choose p.
    random_state : int or None
        Seeds the inner folds.
    """

    def __init__(self, n_neighbors=8, graph_scaling="raw", n_vectors=VECTORS, cv=5,
                 random_state=None):
        self.n_neighbors = n_neighbors
        self.graph_scaling = graph_scaling
        self.n_vectors = n_vectors
        self.cv = cv
        self.random_state = random_state

    def fit(self, X, y, unlabeled=None):
        self._check_params()
        X = check_array(X, dtype=np.float64)
        y = np.where(np.asarray(y) > 0, 1.0, -1.0)
        X_all = X if unlabeled is None else np.vstack([X, check_array(unlabeled)])
        n = len(X_all)
        edges = knn_edges(X_all, self.n_neighbors, self.graph_scaling)
        W = np.zeros((n, n))
        W[edges[:, 0], edges[:, 1]] = W[edges[:, 1], edges[:, 0]] = 1.0
        _, vectors = np.linalg.eigh(np.diag(W.sum(axis=1)) - W)  # ascending eigenvalues
        labelled = vectors[:len(X)]
        seed = int(check_random_state(self.random_state).randint(0, 2**31 - 1))
        inner = StratifiedKFold(self.cv, shuffle=True, random_state=seed)
        splits = list(inner.split(labelled, y))
        smallest = min(len(train) for train, _ in splits)
        candidates = [p for p in self.n_vectors if p < smallest] or [1]
        errors = []
        for p in candidates:
            wrong = 0
            for train, valid in splits:
                coef = np.linalg.lstsq(labelled[train, :p], y[train], rcond=None)[0]
                wrong += np.sum(np.where(labelled[valid, :p] @ coef > 0, 1, -1) != y[valid])
            errors.append(wrong / len(y))
        self.n_vectors_ = candidates[int(np.argmin(errors))]
        self.cv_errors_ = np.array(errors)
        coef = np.linalg.lstsq(labelled[:, :self.n_vectors_], y, rcond=None)[0]
        self.classes_ = np.array([-1, 1])
        self._remember(X_all, vectors[:, :self.n_vectors_] @ coef)
        return self


class KnnLabelSpreading(_Transductive):
    """scikit-learn's label spreading on a k-NN kernel (module docstring).

    Parameters
    ----------
    n_neighbors : int, default=8
    alpha : float, default=0.2
        scikit-learn's clamping factor.
    random_state : None
        Unused; accepted like every learner of the experiments.
    """

    def __init__(self, n_neighbors=8, alpha=0.2, random_state=None):
        self.n_neighbors = n_neighbors
        self.alpha = alpha
        self.random_state = random_state

    def fit(self, X, y, unlabeled=None):
        from sklearn.semi_supervised import LabelSpreading

        self._check_params()
        X = check_array(X, dtype=np.float64)
        X_all = X if unlabeled is None else np.vstack([X, check_array(unlabeled)])
        targets = np.full(len(X_all), -1)  # scikit-learn's mark of an unlabelled point
        targets[:len(X)] = np.asarray(y) > 0
        model = LabelSpreading(kernel="knn", n_neighbors=self.n_neighbors, alpha=self.alpha)
        model.fit(X_all, targets)
        self.classes_ = np.array([-1, 1])
        self._remember(X_all, np.where(model.transduction_ == 1, 1.0, -1.0))
        return self
