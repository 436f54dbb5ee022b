"""A learner that is not the project's: the tests name it in a config by its import path
(``outside_learner.NearestMean``), as a user names a class of their own, to show that adding a
learner touches the config only (tests/test_outside_learners.py)."""

from numbers import Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils._param_validation import Interval


class NearestMean(ClassifierMixin, BaseEstimator):
    """Each point gets the class whose training mean is nearest (missing values: the column's
    training mean); ``shrink`` pulls every class mean towards the overall mean.

    Parameters
    ----------
    shrink : float in [0, 1], default=0.0
        Fraction of the way from each class mean to the overall mean.
    """

    _parameter_constraints = {"shrink": [Interval(Real, 0, 1, closed="both")]}

    def __init__(self, shrink=0.0):
        self.shrink = shrink

    def fit(self, X, y):
        self._validate_params()
        X, y = np.asarray(X, dtype=float), np.asarray(y)
        self.fill_ = np.nanmean(X, axis=0)
        X = np.where(np.isnan(X), self.fill_, X)
        self.classes_ = np.unique(y)
        overall = X.mean(axis=0)
        self.means_ = np.array([(1 - self.shrink) * X[y == c].mean(axis=0)
                                + self.shrink * overall for c in self.classes_])
        return self

    def predict(self, X):
        X = np.asarray(X, dtype=float)
        X = np.where(np.isnan(X), self.fill_, X)
        distances = ((X[:, None, :] - self.means_[None]) ** 2).sum(axis=2)
        return self.classes_[np.argmin(distances, axis=1)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True  # filled with the column's training mean
        return tags


class NotAClassifier(BaseEstimator):
    """Fits and predicts, but is no classifier (scikit-learn's ``is_classifier`` is false)."""

    def fit(self, X, y):
        return self

    def predict(self, X):
        return np.zeros(len(X))
