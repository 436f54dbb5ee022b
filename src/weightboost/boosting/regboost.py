"""RegBoost (Wang & Kégl, NIPS 2004, Figure 2): AdaBoost whose decision stumps are penalised
by the graph Laplacian of a k-nearest-neighbour graph (docs/algorithms.md §7).

On the shared loop (``weightboost.boosting.core``) it is three rules
(``weightboost.boosting.rules``) and a base learner:

* base learner: the stump minimising R1(h) = ε(h) + λP_L(h) (eq 1) or R2(h) (eq 2), over
  candidates prepared once per fit with the penalty of each (``weightboost.stumps``);
* weights (Figure 2, line 10): w_i ∝ exp(-y_i f(x_i)), AdaBoost's;
* coefficient (eq 3, line 6): α = ½ ln((1+γ)/(1-γ)) - ½ ln((1+θ)/(1-θ)), γ = 1 - 2ε the
  edge, θ = 2λP_L(h) the edge offset; α ≤ 0 (γ ≤ θ, line 7) declines the stump and stops.
  The first term is AdaBoost's α computed from ε, so that λ = 0 is AdaBoost with stumps
  round for round, to the last bit.

The loop's stop rule applies as to every booster: a stump with ε = 0 or ε ≥ ½ stops boosting,
and a stump declined at the first round is kept as the whole model (the paper's f^(0) = 0
would predict no class).

``RegBoostCV`` (docs/algorithms.md §7.5) chooses λ as Wang & Kégl do, by 5-fold
cross-validation on the training set (``selection.InnerCV``); the chosen λ is ``lam_``. Each
inner training fold's stumps and graph are prepared once and shared by every λ of the grid.
"""

from __future__ import annotations

import numpy as np
from sklearn.utils.validation import check_array

from weightboost.boosting.core import BoostingClassifier
from weightboost.boosting.selection import InnerCV, checked_grid
from weightboost.boosting.rules import EXPONENTIAL, OFFSET, Rules
from weightboost.stumps import DecisionStump, StumpData, prepare_stumps
from weightboost.stumps.graph import SCALINGS

LAMBDA_GRID = (0.0, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0)


class RegBoost(BoostingClassifier):
    """RegBoost with decision stumps and the graph-Laplacian penalty (module docstring).

    Parameters
    ----------
    n_estimators : int, default=1000
        Rounds T (the paper's 1000).
    lam : float, default=0.0
        λ ≥ 0, the penalty coefficient: θ = 2λP_L(h). λ = 0 is AdaBoost with stumps.
    n_neighbors : int, default=8
        k of the k-NN graph (the paper's 8): an edge joins two points when either is among
        the other's k nearest.
    graph_scaling : {"raw", "zscore"}, default="raw"
        Distances on the features as given, or standardised over the graph's points.
    objective : {"R1", "R2"}, default="R1"
        The base learner's objective, eq (1) or eq (2).
    random_state : None
        Unused (RegBoost draws nothing); accepted like every learner of the experiments.

    Attributes
    ----------
    admissible_rate_ : ndarray of shape (n_rounds_,)
        Per round: the share of candidate stumps with γ > θ (Figure 3(e)).
    penalties_ : ndarray of shape (n_rounds_,)
        P_L of each round's stump.
    n_distinct_stumps_ : int
        Distinct (feature, threshold) pairs among the stumps of the final classifier (a stump
        and its opposite are one term of the combination).
    """

    sampling = "reweight"       # fixed: the paper's RegBoost passes weights to its stumps
    on_degenerate = "stop"
    base_estimator = None

    def __init__(self, n_estimators=1000, lam=0.0, n_neighbors=8, graph_scaling="raw",
                 objective="R1", random_state=None):
        self.n_estimators = n_estimators
        self.lam = lam
        self.n_neighbors = n_neighbors
        self.graph_scaling = graph_scaling
        self.objective = objective
        self.random_state = random_state

    def _check_params(self):
        super()._check_params()
        DecisionStump(lam=self.lam, objective=self.objective)._check_params()
        if not (isinstance(self.n_neighbors, (int, np.integer)) and self.n_neighbors >= 1):
            raise ValueError(f"n_neighbors must be a positive integer, got {self.n_neighbors!r}")
        if self.graph_scaling not in SCALINGS:
            raise ValueError(f"graph_scaling must be one of {SCALINGS}, "
                             f"got {self.graph_scaling!r}")

    def _base(self):
        return DecisionStump(lam=self.lam, objective=self.objective)

    def _check_input(self, X):
        if isinstance(X, StumpData):
            return X
        if hasattr(X, "iloc"):
            self.feature_names_in_ = np.asarray(X.columns, dtype=object)
        return check_array(X, dtype=np.float64, ensure_all_finite=False)  # NaN: prepare_stumps

    def _prepare_new(self, X, base, unlabeled):
        return prepare_stumps(X, unlabeled, self.n_neighbors, self.graph_scaling)

    def fit(self, X, y, unlabeled=None):
        """Fit on the labelled X, y; the points of ``unlabeled`` (no labels) enter only the
        graph and the candidate thresholds (the semi-supervised setting of §4)."""
        self._fit(X, y, unlabeled)
        stumps = [s for s in self.estimators_ if hasattr(s, "n_admissible_")]
        self.admissible_rate_ = np.array([s.n_admissible_ / s.n_candidates_
                                          if s.n_candidates_ else 0.0 for s in stumps])
        self.penalties_ = np.array([s.penalty_ for s in stumps])
        self.n_distinct_stumps_ = len({(s.feature_, s.threshold_) for s in stumps})
        return self

    def _rules(self):
        return Rules(EXPONENTIAL, 0.0, OFFSET)

    def __sklearn_tags__(self):
        return stump_tags(super().__sklearn_tags__())


def stump_tags(tags):
    """Stumps take dense, finite input only (missing values are the experiment's to impute)."""
    tags.input_tags.sparse = False
    tags.input_tags.allow_nan = False
    return tags


class RegBoostCV(InnerCV):
    """RegBoost whose λ is chosen by stratified k-fold cross-validation on the labelled
    training points (Wang & Kégl 2004, §4: 5-fold).

    Each inner training fold gets its own graph (its points and the unlabelled ones), as the
    outer training set does; the held-out inner fold is left out of it.

    Parameters
    ----------
    lams : sequence of float, default=(0, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1)
        The grid of λ values, each ≥ 0 (docs/algorithms.md §7.5 on its range).
    cv : int, default=5
        Inner folds.
    n_estimators, n_neighbors, graph_scaling, objective
        Passed to every ``RegBoost`` fit.
    random_state : int, RandomState instance or None, default=None
        Seeds the inner folds.
    """

    def __init__(self, lams=LAMBDA_GRID, cv=5, n_estimators=1000, n_neighbors=8,
                 graph_scaling="raw", objective="R1", random_state=None):
        self.lams = lams
        self.cv = cv
        self.n_estimators = n_estimators
        self.n_neighbors = n_neighbors
        self.graph_scaling = graph_scaling
        self.objective = objective
        self.random_state = random_state

    def _booster(self, lam):
        return RegBoost(n_estimators=self.n_estimators, lam=lam, n_neighbors=self.n_neighbors,
                        graph_scaling=self.graph_scaling, objective=self.objective)

    def _check_params(self):
        grid = checked_grid(self.lams, "lams")
        self._check_cv()
        self._booster(float(grid[0]))._check_params()
        return grid

    def fit(self, X, y, unlabeled=None):
        """Fit on the labelled X, y; ``unlabeled`` points enter every graph (semi-supervised)."""
        grid = self._check_params()
        if hasattr(X, "iloc"):
            self.feature_names_in_ = np.asarray(X.columns, dtype=object)
        X = check_array(X, dtype=np.float64)
        y = self._labels(X, y)
        fold_seed, _ = self._seeds()

        def fold_predictor(train, valid):
            data = prepare_stumps(X[train], unlabeled, self.n_neighbors, self.graph_scaling)
            return lambda lam: self._booster(lam).fit(data, y[train]).predict(X[valid])

        return self._search(grid, y, fold_seed, fold_predictor,
                            lambda lam: self._booster(lam).fit(X, y, unlabeled), "lam_")

    def __sklearn_tags__(self):
        return stump_tags(super().__sklearn_tags__())
