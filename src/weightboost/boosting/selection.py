"""Boosters with one parameter chosen by cross-validation inside the training set.

``InnerCV`` owns what the searches share: stratified k-fold over the training labels, the
mean inner error of every grid value (the first of the grid on a tie), one refit with the
chosen value on the whole training set, and the delegation of predictions to that refit.

* ``WeightDecayCV`` (docs/algorithms.md §2.2): the paper does not give Weight Decay's C, and
  Rätsch et al. choose it per data set by cross-validation; the chosen C is ``C_``.
* ``RegBoostCV`` (``weightboost.boosting.regboost``, beside RegBoost: the tables of C4.5's
  boosters do not depend on the stumps' code) chooses RegBoost's λ.

In the experiments each runs inside whatever training set it is given: an outer training fold,
with its possibly noisy labels.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.model_selection import StratifiedKFold
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_array, check_is_fitted, column_or_1d

from weightboost.boosting.core import booster_tags, prepares
from weightboost.boosting.variants import WeightDecay
from weightboost.c45 import C45, C45Data, prepare
from weightboost.c45.data import EncodedRows, take_rows

C_GRID = (0.0, 1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 1e-1)
COPIED = ("classes_", "n_features_in_", "n_rounds_", "restarts_", "stopped_early_")


def checked_grid(values, name: str) -> np.ndarray:
    grid = np.asarray(values, dtype=float) if len(values) else np.empty(0)
    if grid.ndim != 1 or len(grid) == 0 or not np.all(np.isfinite(grid)) or np.any(grid < 0):
        raise ValueError(f"{name} must be a non-empty list of numbers >= 0, got {values!r}")
    return grid


class InnerCV(ClassifierMixin, BaseEstimator):
    """Base class: see the module docstring. Subclasses set ``cv`` and ``random_state`` and
    call ``_search``."""

    def _check_cv(self):
        if not (isinstance(self.cv, (int, np.integer)) and self.cv >= 2):
            raise ValueError(f"cv must be an integer >= 2, got {self.cv!r}")

    def _labels(self, X, y):
        if y is None:
            raise ValueError(f"{type(self).__name__} requires y to be passed, but the target y "
                             "is None")
        y = column_or_1d(y, warn=True)
        check_classification_targets(y)
        if len(y) != X.shape[0]:
            raise ValueError(f"X has {X.shape[0]} rows but y has {len(y)} labels")
        if len(np.unique(y)) > 2:
            raise ValueError(f"Only binary classification is supported. {type(self).__name__} "
                             f"got y with {len(np.unique(y))} classes")
        return y

    def _seeds(self):
        """(inner folds' seed, boosters' seed), both drawn from ``random_state``."""
        rng = check_random_state(self.random_state)
        fold_seed, fit_seed = (int(s) for s in rng.randint(0, 2**31 - 1, size=2))
        return fold_seed, fit_seed

    def _search(self, grid, y, fold_seed, fold_predictor, refit, chosen: str):
        """Cross-validate ``grid``: ``fold_predictor(train, valid)`` returns a function of a
        grid value giving the predictions on ``valid`` of a booster fitted on ``train``;
        ``refit(value)`` fits the chosen one on everything. Sets ``cv_errors_``, the chosen
        value as attribute ``chosen`` and ``best_estimator_``."""
        errors = np.zeros(len(grid))
        if len(np.unique(y)) == 2:
            splitter = StratifiedKFold(self.cv, shuffle=True, random_state=fold_seed)
            for train, valid in splitter.split(np.zeros(len(y)), y):
                predict = fold_predictor(train, valid)
                for k, value in enumerate(grid):
                    errors[k] += np.mean(predict(float(value)) != y[valid]) / self.cv
        self.cv_errors_ = errors
        value = float(grid[int(np.argmin(errors))])
        setattr(self, chosen, value)
        self.best_estimator_ = refit(value)
        for name in COPIED:
            setattr(self, name, getattr(self.best_estimator_, name))
        return self

    def _best(self):
        """The refit that every prediction is delegated to."""
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_

    def decision_function(self, X):
        return self._best().decision_function(X)

    def staged_decision_function(self, X):
        return self._best().staged_decision_function(X)

    def predict(self, X):
        return self._best().predict(X)

    def staged_predict(self, X):
        return self._best().staged_predict(X)

    def __sklearn_tags__(self):
        return booster_tags(super().__sklearn_tags__())


class WeightDecayCV(InnerCV):
    """Weight Decay whose C is chosen by stratified k-fold cross-validation on the training set.

    Parameters
    ----------
    Cs : sequence of float, default=(0, 1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 1e-1)
        The grid of C values (count scale, docs/algorithms.md §2.2), each ≥ 0.
    cv : int, default=5
        Inner folds.
    n_estimators, base_estimator, variant, sampling, on_degenerate
        Passed to every ``WeightDecay`` fit.
    random_state : int, RandomState instance or None, default=None
        Seeds the inner folds and, when resampling, the boosters' draws.
    """

    def __init__(self, Cs=C_GRID, cv=5, n_estimators=100, base_estimator=None,
                 variant="ratsch", sampling="reweight", on_degenerate="stop", random_state=None):
        self.Cs = Cs
        self.cv = cv
        self.n_estimators = n_estimators
        self.base_estimator = base_estimator
        self.variant = variant
        self.sampling = sampling
        self.on_degenerate = on_degenerate
        self.random_state = random_state

    def _booster(self, C, seed):
        return WeightDecay(n_estimators=self.n_estimators, base_estimator=self.base_estimator,
                           C=C, variant=self.variant, sampling=self.sampling,
                           on_degenerate=self.on_degenerate, random_state=seed)

    def _check_params(self):
        grid = checked_grid(self.Cs, "Cs")
        self._check_cv()
        self._booster(float(grid[0]), None)._check_params()
        return grid

    def fit(self, X, y):
        grid = self._check_params()
        if not (isinstance(X, C45Data) or hasattr(X, "iloc")):
            X = check_array(X, accept_sparse=["csr", "csc"], dtype=np.float64,
                            ensure_all_finite="allow-nan")
        y = self._labels(X, y)
        fold_seed, fit_seed = self._seeds()
        uses_c45 = self.base_estimator is None or (isinstance(self.base_estimator, C45)
                                                   and prepares(self.base_estimator))
        data = prepare(X) if uses_c45 and not isinstance(X, C45Data) else X
        if hasattr(data, "iloc"):
            self.feature_names_in_ = np.asarray(data.columns, dtype=object)

        def fold_predictor(train, valid):
            inner, held_out = _rows(data, train), _held_out(data, valid)
            return lambda C: self._booster(C, fit_seed).fit(inner, y[train]).predict(held_out)

        return self._search(grid, y, fold_seed, fold_predictor,
                            lambda C: self._booster(C, fit_seed).fit(data, y), "C_")


def _rows(data, rows):
    if isinstance(data, C45Data):
        return take_rows(data, rows)
    return data.iloc[rows] if hasattr(data, "iloc") else data[rows]


def _held_out(data, rows):
    if isinstance(data, C45Data):
        return EncodedRows(data.X[rows])
    return data.iloc[rows] if hasattr(data, "iloc") else data[rows]
