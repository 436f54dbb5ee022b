"""The boosting loop shared by AdaBoost, WeightBoost, Weight Decay and ε-Boost (docs/protocol.md §3).

``BoostingClassifier`` owns everything the four algorithms have in common, so that a difference
between them in the tables can only come from what makes them differ:

* the distribution over training points comes from a **weight rule** in log space,
  log w_i = rule(H(x_i), y_i, state), normalised with the max subtracted (no overflow at any
  margin), and is passed to the base learner by reweighting, scaled to sum to N
  (docs/algorithms.md §0, §1.3);
* ε_t is the probability-scale weight of the misclassified training points;
* **stop rule** (every booster): if ε_t >= 0.5 or ε_t = 0, h_t is discarded and boosting
  stops, except at t = 1 where h_1 is kept as the whole model. Both comparisons have a
  tolerance of 1e-12 (Weka's AdaBoostM1 uses 1e-6): a tree that is a single leaf on balanced
  weights has ε = 0.5 only up to rounding, and must stop every booster alike;
* a **coefficient rule** gives the tree's coefficient from ε_t (the state, and the tree
  itself: RegBoost's coefficient depends on the stump's penalty); it may decline the tree
  (``None``), which stops boosting as a degenerate tree does;
* a **combination rule** adds the tree to the running score H. It is applied identically to
  the training points while fitting and to new points when predicting, so input-dependent
  combinations (WeightBoost) are predicted by the same recursion they were trained with.

A booster gives its rules as data (``_rules``, a ``weightboost.boosting.rules.Rules``); their
arithmetic is compiled once in ``weightboost.boosting.rules``, and the loop below applies it
round by round (the *Python driver*). A booster whose rules are not all kernels' (Weight Decay)
overrides ``_weight_log`` and ``_coefficient`` in Python; a booster that overrides any method
of ``DRIVER_METHODS`` runs the Python driver, which calls it. A base learner whose whole fit compiles
(``DecisionStump``: its ``_boost`` in ``weightboost.stumps.boost``) runs the rounds of a booster
with compiled rules and reweighting in one call that applies the same kernels (the *compiled
driver*); the two give the same booster, bit for bit.

The base learner is C4.5 (the default) or any scikit-learn classifier that takes sample
weights. The two built-in base learners are prepared once per fit instead of once per round,
through the protocol of ``weightboost.prepared``: C4.5 encodes and presorts the attributes
(``C45Data``), ``DecisionStump`` sorts every feature and lists its candidate thresholds with
their graph penalties (``StumpData``); every round then fits on the prepared data. The loop
knows the protocol, not the learners: C4.5 is imported as the default base learner, stumps
not at all.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_array, check_is_fitted, column_or_1d

from weightboost.boosting import libm, rules
from weightboost.boosting.rules import (DISCARD_THEN_RESTART, KEEP_THEN_RESTART, RESTART_ERROR,
                                        STOP, ZERO_ERROR, Rules)
from weightboost.c45 import C45
from weightboost.prepared import PreparedData


def _take(data, rows):
    """The training rows ``rows`` (ascending, with repeats) of plain input."""
    if hasattr(data, "iloc"):
        return data.iloc[rows]
    return data[rows]


def prepares(learner) -> bool:
    """Whether ``learner``'s own class implements the protocol of ``weightboost.prepared``.
    The protocol's rounds bypass ``fit``: a subclass, which may override it (or anything the
    rounds call), is fitted as any scikit-learn classifier is unless it defines the protocol's
    ``_fit_round`` itself."""
    return "_fit_round" in vars(type(learner))


def _unfitted_copies(base):
    """A factory of unfitted copies of ``base``: ``clone`` in general; for a learner of the
    prepared protocol (C4.5, stumps), whose parameters are plain values, the constructor called
    with them (a round's tree is then not slowed by scikit-learn's signature inspection)."""
    if prepares(base):
        params, cls = base.get_params(deep=False), type(base)
        return lambda: cls(**params)
    return lambda: clone(base)


SAMPLING = ("reweight", "resample")
ON_DEGENERATE = ("stop", "restart")
MAX_DRAWS = 10          # resampling: draws per round while the tree fits every point (Weka)


# The methods of the Python driver: its rounds, a round's tree, and the rules it applies. The
# compiled driver replaces all of them, so a booster that overrides any runs the Python driver.
DRIVER_METHODS = ("_python_rounds", "_fit_tree", "_keep_single", "_init_state", "_weight_log",
                  "_edge_offset", "_coefficient", "_round_constant", "_combine", "_after_round")


class BoostingClassifier(ClassifierMixin, BaseEstimator):
    """Base class; see the module docstring. Binary classification only.

    Parameters
    ----------
    n_estimators : int, default=100
        Rounds T: the number of trees the ensemble may hold.
    base_estimator : estimator, default=None
        The base learner; ``None`` is ``C45()`` with J48's defaults.
    sampling : {"reweight", "resample"}, default="reweight"
        How a round's distribution reaches the base learner. ``"reweight"`` passes it as
        sample weights (scaled to sum to N). ``"resample"`` is Weka's AdaBoostM1 ``-Q``: the
        tree is fitted with unit weights on N rows drawn with replacement with probabilities
        equal to the distribution; ε is still measured on the whole training set under the
        distribution, and while ε = 0 the draw is repeated, at most 10 draws a round.
    on_degenerate : {"stop", "restart"}, default="stop"
        What a degenerate tree (ε ≥ 0.5 or ε = 0) does. ``"stop"`` discards it and stops
        (at round 1 it is kept as the whole model). ``"restart"`` (Bauer & Kohavi 1999) discards
        a tree with ε ≥ 0.5, keeps a tree with ε = 0 with the coefficient of ε = 1e-10, and in
        both cases restarts the distribution from uniform; boosting goes on until T trees are
        kept, or gives up after 25 consecutive discarded trees (at round 1: keeping the last
        as the whole model, as ``"stop"`` does). ``restarts_`` counts the restarts. After a
        restart the weight rule sees only the ensemble built since: w_i follows the rule
        applied to H(x_i) - H_r(x_i), H_r the score at the restart, which is AdaBoost's
        multiplicative update started afresh; the ensemble itself (and WeightBoost's
        input-dependent factor in eq 4) keeps the whole H.
    random_state : int, RandomState instance or None, default=None
        Seeds the draws of ``sampling="resample"``; unused when reweighting.
    """

    def __init__(self, n_estimators=100, base_estimator=None, sampling="reweight",
                 on_degenerate="stop", random_state=None):
        self.n_estimators = n_estimators
        self.base_estimator = base_estimator
        self.sampling = sampling
        self.on_degenerate = on_degenerate
        self.random_state = random_state

    # -- the rules --------------------------------------------------------------------------
    def _rules(self) -> Rules:
        """The booster's rules as data (``weightboost.boosting.rules``)."""
        raise NotImplementedError

    def _init_state(self, n):
        """Per-fit state of the weight and coefficient rules (None if they need none)."""
        return None

    def _weight_log(self, margin, score, state):
        """log of the (unnormalised) weights of the training points; margin = y·H."""
        r = self._rules()
        return rules.weight_log(r.weights, r.beta, margin, score)

    def _edge_offset(self, tree):
        """The edge offset θ of a round's base learner (``rules.OFFSET``): the one it carries
        (a stump under a graph penalty, ``weightboost.stumps.search.edge_offset``), else 0."""
        return getattr(tree, "edge_offset_", 0.0)

    def _coefficient(self, error, correct, p, margin, score, y, state, tree):
        """The coefficient of the new tree; ``correct`` says where h_t(x_i) = y_i; None
        declines the tree and stops boosting."""
        r = self._rules()
        accepted, value = rules.coefficient(r.coefficient, r.step, error,
                                            self._edge_offset(tree))
        return value if accepted else None

    def _round_constant(self, score):
        """A per-round constant of the combination rule, computed on the training scores."""
        r = self._rules()
        return rules.round_constant(r.combination, r.beta, score)

    def _combine(self, score, coefficient, constant, prediction):
        """H_t = H_{t-1} + (contribution of h_t)."""
        r = self._rules()
        return rules.combine(r.combination, r.beta, score, coefficient, constant, prediction)

    def _after_round(self, state, coefficient, p, y, prediction):
        """Update the rule state once the round is accepted."""

    def _check_params(self):
        """Raise ValueError for a parameter outside its range (subclasses add theirs)."""
        if not (isinstance(self.n_estimators, (int, np.integer)) and self.n_estimators >= 1):
            raise ValueError(f"n_estimators must be a positive integer, got {self.n_estimators}")
        if self.sampling not in SAMPLING:
            raise ValueError(f"sampling must be one of {SAMPLING}, got {self.sampling!r}")
        if self.on_degenerate not in ON_DEGENERATE:
            raise ValueError(f"on_degenerate must be one of {ON_DEGENERATE}, "
                             f"got {self.on_degenerate!r}")

    # -- fitting ----------------------------------------------------------------------------
    def _base(self):
        return C45() if self.base_estimator is None else self.base_estimator

    def _check_input(self, X):
        if isinstance(X, PreparedData):
            return X
        if hasattr(X, "iloc"):  # a DataFrame: categorical columns are nominal attributes
            self.feature_names_in_ = np.asarray(X.columns, dtype=object)
            return X
        return check_array(X, accept_sparse=["csr", "csc"], dtype=np.float64,
                           ensure_all_finite="allow-nan")

    def _prepare(self, X, base, unlabeled=None):
        """The training data in the form every round's base learner fits on; prepared data
        (a ``PreparedData``, e.g. shared by the fits of an inner cross-validation) as it is."""
        if isinstance(X, PreparedData):
            return X
        return self._prepare_new(X, base, unlabeled)

    def _prepare_new(self, X, base, unlabeled):
        """``_prepare`` for input not yet prepared."""
        if prepares(base):
            return base._prepare_training(X, unlabeled)
        return X

    def _fit_tree(self, new_tree, data, signed, p, rng, fresh):
        """One round's tree, its predictions on the training set and its weighted error ε.
        ``fresh``: the first round, or the first after a restart, where the weights may be
        uniform (only there is it worth testing; elsewhere the fit is the same either way)."""
        uniform = fresh and rng is None and bool(np.all(p == p[0]))
        if uniform and self._uniform_round is not None:
            return self._uniform_round  # reweighting is deterministic: uniform weights again
        n = len(p)
        draws = MAX_DRAWS if rng is not None else 1
        for _ in range(draws):
            if isinstance(data, PreparedData):
                tree = new_tree()._fit_round(data, signed, self._tree_labels, p, rng)
                prediction = np.asarray(tree._predict_training(data), dtype=np.float64)
            else:  # any scikit-learn classifier: weights, or the drawn rows
                if rng is None:
                    tree = new_tree().fit(data, signed, sample_weight=n * p)
                else:
                    rows = np.repeat(np.arange(n), rng.multinomial(n, p))
                    tree = new_tree().fit(_take(data, rows), signed[rows])
                prediction = np.asarray(tree.predict(data), dtype=np.float64)
            correct = prediction == signed
            error = libm.misclassified_weight(p, correct)
            if error >= ZERO_ERROR:
                break
        if uniform:
            self._uniform_round = (tree, prediction, correct, error)
        return tree, prediction, correct, error

    def fit(self, X, y):
        """Fit on X with labels y (two classes)."""
        return self._fit(X, y)

    def _fit(self, X, y, unlabeled=None):
        self._check_params()
        X = self._check_input(X)
        if y is None:
            raise ValueError(f"{type(self).__name__} requires y to be passed, but the target "
                             "y is None")
        y = column_or_1d(y, warn=True)
        check_classification_targets(y)
        n = len(y)
        if n != (X.shape[0]):
            raise ValueError(f"X has {X.shape[0]} rows but y has {n} labels")
        self.classes_, y_index = np.unique(y, return_inverse=True)
        if len(self.classes_) > 2:
            raise ValueError(f"Only binary classification is supported. {type(self).__name__} "
                             f"got y with {len(self.classes_)} classes")
        self.restarts_ = 0
        if len(self.classes_) == 1:  # e.g. a tiny noisy training fold: the constant classifier
            return self._fit_constant(X)
        signed = np.where(y_index == 1, 1.0, -1.0)
        base = self._base()
        data = self._prepare(X, base, unlabeled)
        self.n_features_in_ = data.shape[1]
        self._majority = 1.0 if signed.sum() >= 0 else -1.0
        rng = check_random_state(self.random_state) if self.sampling == "resample" else None
        restart = self.on_degenerate == "restart"
        self._single, self.stopped_early_ = False, False
        r = self._rules()
        # the compiled driver runs the rounds of the class that defines it, not a subclass's
        compiled = rng is None and r.compiled and "_boost" in vars(type(base)) and not any(
            getattr(type(self), hook) is not getattr(BoostingClassifier, hook)
            for hook in DRIVER_METHODS)
        whole = base._boost(data, signed, r, self.n_estimators, restart) if compiled else None
        if whole is None:
            score = self._python_rounds(base, data, signed, rng, restart)
        else:  # the compiled driver ran every round
            (self.estimators_, self.estimator_weights_, self.estimator_errors_,
             self.round_constants_, score, self.stopped_early_, self._single,
             self.restarts_) = whole
        self.estimator_weights_ = np.asarray(self.estimator_weights_, dtype=np.float64)
        self.estimator_errors_ = np.asarray(self.estimator_errors_, dtype=np.float64)
        self.round_constants_ = np.asarray(self.round_constants_, dtype=np.float64)
        self.n_rounds_ = len(self.estimators_)
        self.decision_train_ = score
        return self

    def _python_rounds(self, base, data, signed, rng, restart):
        """The Python driver: every round's base learner fitted in Python, the rules' kernels
        applied around it; sets the ensemble's lists and returns the training scores."""
        n = len(signed)
        classes, indices = np.unique(signed, return_inverse=True)
        self._tree_labels = (classes, indices.astype(np.int64))  # every round's tree's
        new_tree = _unfitted_copies(base)
        state = self._init_state(n)
        score = np.zeros(n)
        origin = np.zeros(n)  # the weight rule sees H - origin: a restart makes it uniform
        self.estimators_, self.estimator_weights_, self.estimator_errors_ = [], [], []
        self.round_constants_ = []
        degenerate_run = 0
        self._uniform_round = None
        fresh = True  # the weight rule sees no tree yet: at the start and after a restart
        while len(self.estimators_) < self.n_estimators:
            relative = score - origin
            margin = signed * relative
            log_w = self._weight_log(margin, relative, state)
            p = libm.distribution(log_w)  # exp(log_w - max), normalised
            tree, prediction, correct, error = self._fit_tree(new_tree, data, signed, p, rng,
                                                              fresh)
            action = rules.outcome(error, restart, degenerate_run)
            if action == STOP:
                self.stopped_early_ = True
                if not self.estimators_:  # keep h_1 as the whole model
                    self._keep_single(tree, error)
                    score = prediction.copy()
                break
            if action == DISCARD_THEN_RESTART:  # restart from uniform weights without it
                self.restarts_ += 1
                degenerate_run += 1
                origin, state, fresh = score.copy(), self._init_state(n), True
                continue
            degenerate_run = 0
            perfect = action == KEEP_THEN_RESTART
            if perfect:
                error = RESTART_ERROR
            coefficient = self._coefficient(error, correct, p, margin, relative, signed, state,
                                            tree)
            constant = None if coefficient is None else self._round_constant(score)
            if constant is None or not rules.usable_constant(constant):  # declined: stop
                self.stopped_early_ = True
                if not self.estimators_:
                    self._keep_single(tree, error)
                    score = prediction.copy()
                break
            score = self._combine(score, coefficient, constant, prediction)
            self._after_round(state, coefficient, p, signed, prediction)
            self.estimators_.append(tree)
            self.estimator_weights_.append(coefficient)
            self.estimator_errors_.append(error)
            self.round_constants_.append(constant)
            fresh = False
            if perfect:  # kept; now restart from uniform weights
                self.restarts_ += 1
                origin, state, fresh = score.copy(), self._init_state(n), True
        del self._uniform_round, self._tree_labels
        return score

    def _fit_constant(self, X):
        self.n_features_in_ = X.shape[1]
        self.estimators_, self.round_constants_ = [], np.empty(0)
        self.estimator_weights_, self.estimator_errors_ = np.empty(0), np.empty(0)
        self.n_rounds_, self.stopped_early_, self._single = 0, True, False
        self._majority = 1.0
        self.decision_train_ = np.ones(X.shape[0])
        return self

    def _keep_single(self, tree, error):
        """h_1 alone is the model: its output in {-1, +1} is the decision function."""
        self.estimators_.append(tree)
        self.estimator_weights_.append(1.0)
        self.estimator_errors_.append(error)
        self.round_constants_.append(np.nan)
        self._single = True

    # -- prediction -------------------------------------------------------------------------
    def _tree_outputs(self, X):
        check_is_fitted(self, "estimators_")
        if self.estimators_ and prepares(self.estimators_[0]):
            # X checked and encoded once for all the trees, not once per tree
            yield from type(self.estimators_[0])._ensemble_outputs(self.estimators_, X)
            return
        if hasattr(X, "toarray"):  # sparse: densify once, not once per tree
            X = np.asarray(X.toarray(), dtype=np.float64)
        X = X if hasattr(X, "iloc") else check_array(X, dtype=np.float64,
                                                     ensure_all_finite="allow-nan")
        if X.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {X.shape[1]} features, but {type(self).__name__} "
                             f"is expecting {self.n_features_in_} features as input")
        for tree in self.estimators_:
            yield np.asarray(tree.predict(X), dtype=np.float64)

    def staged_decision_function(self, X):
        """H after each round: H_1, H_2, ..., H_T (one array per round)."""
        if getattr(self, "_single", False):
            yield next(self._tree_outputs(X))
            return
        yield from self._scores(X, staged=True)

    def _scores(self, X, staged):
        """The combination's recursion over every round's outputs on X, in one compiled call
        (``rules.staged_scores``): H after each round, or after the last only."""
        outputs = list(self._tree_outputs(X))
        if not outputs:
            return np.empty((0, X.shape[0]))
        r = self._rules()
        return rules.staged_scores(r.combination, r.beta, self.estimator_weights_,
                                   self.round_constants_, np.asarray(outputs), staged)

    def decision_function(self, X):
        check_is_fitted(self, "estimators_")
        if len(self.classes_) == 1:  # constant: positive scores mean the only class
            return np.ones(X.shape[0])
        if getattr(self, "_single", False):
            return next(self._tree_outputs(X))
        return self._scores(X, staged=False)[-1]

    def _label(self, score):
        if len(self.classes_) == 1:
            return np.full(len(score), self.classes_[0])
        signed = np.where(score > 0, 1, np.where(score < 0, -1, self._majority))
        return self.classes_[(signed > 0).astype(int)]

    def staged_predict(self, X):
        for score in self.staged_decision_function(X):
            yield self._label(score)

    def predict(self, X):
        return self._label(self.decision_function(X))

    def __sklearn_tags__(self):
        return booster_tags(super().__sklearn_tags__())


def booster_tags(tags):
    """scikit-learn tags of every booster: NaN and sparse input, binary only."""
    tags.input_tags.allow_nan = True
    tags.input_tags.sparse = True
    tags.classifier_tags.multi_class = False
    return tags
