"""Weight Decay with its C chosen by cross-validation inside the training set (docs/algorithms.md §2.2).

The paper does not give Weight Decay's C, and Rätsch et al. choose it per data set by
cross-validation. ``WeightDecayCV`` does that inside whatever training set it is given (in the
experiments: each outer training fold, with its possibly noisy labels): stratified k-fold over
the grid, the C with the lowest mean inner error (the first of the grid on a tie), then one fit
of ``WeightDecay`` with that C on the whole training set. The chosen C is ``C_``.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.model_selection import StratifiedKFold
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_array, check_is_fitted, column_or_1d

from weightboost.boosting.core import booster_tags
from weightboost.boosting.variants import WeightDecay
from weightboost.c45 import C45, C45Data, prepare
from weightboost.c45.data import EncodedRows, take_rows

C_GRID = (0.0, 1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 1e-1)


class WeightDecayCV(ClassifierMixin, BaseEstimator):
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
        grid = np.asarray(self.Cs, dtype=float) if len(self.Cs) else np.empty(0)
        if grid.ndim != 1 or len(grid) == 0 or not np.all(np.isfinite(grid)) \
                or np.any(grid < 0):
            raise ValueError(f"Cs must be a non-empty list of numbers >= 0, got {self.Cs!r}")
        if not (isinstance(self.cv, (int, np.integer)) and self.cv >= 2):
            raise ValueError(f"cv must be an integer >= 2, got {self.cv!r}")
        self._booster(float(grid[0]), None)._check_params()
        return grid

    def fit(self, X, y):
        grid = self._check_params()
        if not (isinstance(X, C45Data) or hasattr(X, "iloc")):
            X = check_array(X, accept_sparse=["csr", "csc"], dtype=np.float64,
                            ensure_all_finite="allow-nan")
        if y is None:
            raise ValueError("WeightDecayCV requires y to be passed, but the target y is None")
        y = column_or_1d(y, warn=True)
        check_classification_targets(y)
        if len(y) != X.shape[0]:
            raise ValueError(f"X has {X.shape[0]} rows but y has {len(y)} labels")
        if len(np.unique(y)) > 2:
            raise ValueError("Only binary classification is supported. WeightDecayCV got y with "
                             f"{len(np.unique(y))} classes")
        rng = check_random_state(self.random_state)
        fold_seed, fit_seed = (int(s) for s in rng.randint(0, 2**31 - 1, size=2))
        uses_c45 = self.base_estimator is None or isinstance(self.base_estimator, C45)
        data = prepare(X) if uses_c45 and not isinstance(X, C45Data) else X
        if hasattr(data, "iloc"):
            self.feature_names_in_ = np.asarray(data.columns, dtype=object)
        errors = np.zeros(len(grid))
        if len(np.unique(y)) == 2:
            splitter = StratifiedKFold(self.cv, shuffle=True, random_state=fold_seed)
            for train, valid in splitter.split(np.zeros(len(y)), y):
                inner, held_out = _rows(data, train), _held_out(data, valid)
                for k, C in enumerate(grid):
                    model = self._booster(float(C), fit_seed).fit(inner, y[train])
                    errors[k] += np.mean(model.predict(held_out) != y[valid]) / self.cv
        self.cv_errors_ = errors
        self.C_ = float(grid[int(np.argmin(errors))])
        self.best_estimator_ = self._booster(self.C_, fit_seed).fit(data, y)
        for name in ("classes_", "n_features_in_", "n_rounds_", "restarts_", "stopped_early_"):
            setattr(self, name, getattr(self.best_estimator_, name))
        return self

    def decision_function(self, X):
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.decision_function(X)

    def staged_decision_function(self, X):
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.staged_decision_function(X)

    def predict(self, X):
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.predict(X)

    def staged_predict(self, X):
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.staged_predict(X)

    def __sklearn_tags__(self):
        return booster_tags(super().__sklearn_tags__())


def _rows(data, rows):
    if isinstance(data, C45Data):
        return take_rows(data, rows)
    return data.iloc[rows] if hasattr(data, "iloc") else data[rows]


def _held_out(data, rows):
    if isinstance(data, C45Data):
        return EncodedRows(data.X[rows])
    return data.iloc[rows] if hasattr(data, "iloc") else data[rows]
