"""The boosting loop's two drivers (weightboost.boosting.core, weightboost.stumps.boost) apply
the same rules (weightboost.boosting.rules): with stumps, the compiled driver must leave every
booster exactly as the Python driver does, on every path of the stop and restart rule."""

import numpy as np
import pytest

from weightboost import AdaBoost, DecisionStump, EpsilonBoost, RegBoost, WeightBoost, WeightDecay
from weightboost.boosting import rules
from weightboost.c45 import C45
from weightboost.stumps import estimator

RECORDS = ("decision_train_", "estimator_weights_", "estimator_errors_", "round_constants_")
STUMP = ("feature_", "threshold_", "polarity_", "edge_", "penalty_", "edge_offset_",
         "n_admissible_", "n_candidates_")


def data(kind, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(80, 4))
    if kind == "separable":   # a stump fits every point: ε = 0 at once
        y = (X[:, 0] > 0.1).astype(int)
    elif kind == "noise":     # labels unrelated to X
        y = rng.integers(0, 2, 80)
    elif kind == "xor":       # every stump has edge 0: ε = ½ at every restart
        X = np.repeat([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]], 5, axis=0)
        y = np.repeat([0, 1, 1, 0], 5)
    else:
        y = (X[:, 0] + 0.7 * X[:, 1] + rng.normal(0, 0.8, 80) > 0).astype(int)
    return X, y


BOOSTERS = {
    "AdaBoost": lambda **k: AdaBoost(base_estimator=DecisionStump(), **k),
    "WeightBoost": lambda **k: WeightBoost(base_estimator=DecisionStump(), beta=0.5, **k),
    "WeightBoost-mean": lambda **k: WeightBoost(base_estimator=DecisionStump(), beta=0.5,
                                                normalize="mean", **k),
    "WeightBoost-none-beta2": lambda **k: WeightBoost(base_estimator=DecisionStump(), beta=2,
                                                      normalize="none", **k),
    "EpsilonBoost": lambda **k: EpsilonBoost(base_estimator=DecisionStump(), **k),
    "EpsilonBoost-shrinkage": lambda **k: EpsilonBoost(base_estimator=DecisionStump(),
                                                       shrinkage=True, **k),
    "RegBoost-R1": lambda on_degenerate="stop", **k: RegBoost(lam=0.2, **k),
    "RegBoost-R2": lambda on_degenerate="stop", **k: RegBoost(lam=0.2, objective="R2", **k),
}


def fitted(make, X, y, on_degenerate, python_driver, monkeypatch):
    with monkeypatch.context() as patch:
        if python_driver:
            patch.delattr(DecisionStump, "_boost")
        return make(n_estimators=120, on_degenerate=on_degenerate).fit(X, y)


def same(a, b, X):
    for name in RECORDS:
        assert np.array_equal(getattr(a, name), getattr(b, name), equal_nan=True), name
    for name in ("n_rounds_", "restarts_", "stopped_early_", "_single"):
        assert getattr(a, name) == getattr(b, name), name
    for s, t in zip(a.estimators_, b.estimators_, strict=True):
        assert [getattr(s, k) for k in STUMP] == [getattr(t, k) for k in STUMP]
    assert np.array_equal(a.decision_function(X), b.decision_function(X))
    for u, v in zip(a.staged_decision_function(X), b.staged_decision_function(X), strict=True):
        assert np.array_equal(u, v)


@pytest.mark.parametrize("kind", ["mixed", "separable", "noise", "xor"])
@pytest.mark.parametrize("on_degenerate", ["stop", "restart"])
@pytest.mark.parametrize("booster", sorted(BOOSTERS))
def test_the_compiled_driver_leaves_the_booster_the_python_driver_leaves(booster, on_degenerate,
                                                                         kind, monkeypatch):
    X, y = data(kind)
    make = BOOSTERS[booster]
    compiled = fitted(make, X, y, on_degenerate, False, monkeypatch)
    python = fitted(make, X, y, on_degenerate, True, monkeypatch)
    same(compiled, python, X)
    if booster.startswith("RegBoost"):
        for name in ("admissible_rate_", "penalties_", "n_distinct_stumps_"):
            assert np.array_equal(getattr(compiled, name), getattr(python, name)), name


def test_the_cases_reach_every_path_of_the_stop_and_restart_rule(monkeypatch):
    # kept after ε = 0, discarded with ε ≥ ½, the first stump kept alone, a declined stump
    X, y = data("separable")
    restarted = fitted(BOOSTERS["AdaBoost"], X, y, "restart", False, monkeypatch)
    assert restarted.restarts_ > 0 and restarted.n_rounds_ == 120
    assert np.all(restarted.estimator_errors_ == rules.RESTART_ERROR)
    stopped = fitted(BOOSTERS["AdaBoost"], X, y, "stop", False, monkeypatch)
    assert stopped._single and stopped.stopped_early_ and stopped.n_rounds_ == 1
    X, y = data("xor")
    given_up = fitted(BOOSTERS["AdaBoost"], X, y, "restart", False, monkeypatch)
    assert given_up.restarts_ == rules.MAX_DEGENERATE - 1 and given_up._single
    declined = RegBoost(lam=5.0, n_estimators=50).fit(*data("mixed"))
    assert declined.stopped_early_ and declined._single


def test_the_compiled_driver_runs_only_what_it_can(monkeypatch):
    calls = []
    original = estimator.boost_stumps

    def spy(*args):
        calls.append(args)
        return original(*args)

    monkeypatch.setattr(estimator, "boost_stumps", spy)
    X, y = data("mixed")
    AdaBoost(base_estimator=DecisionStump(), n_estimators=5).fit(X, y)
    assert len(calls) == 1
    AdaBoost(base_estimator=DecisionStump(), n_estimators=5, sampling="resample",
             random_state=0).fit(X, y)  # draws from a RandomState: Python
    WeightDecay(base_estimator=DecisionStump(), n_estimators=5).fit(X, y)  # its rules are Python
    assert len(calls) == 1
    # every feature constant: no threshold, the Python driver fits the constant stump
    constant = AdaBoost(base_estimator=DecisionStump(), n_estimators=5).fit(np.ones((10, 2)),
                                                                          [0, 1] * 5)
    assert len(calls) == 2 and constant.estimators_[0].feature_ == -1


def test_a_booster_overriding_a_rule_method_runs_it_with_stumps_too(monkeypatch):
    # the compiled driver applies the rules' kernels, never the booster's Python methods: a
    # subclass that overrides one (here the weight rule) must get the Python driver, which
    # calls it, rather than the kernels of the class it derives from
    calls = []

    class Halved(AdaBoost):
        def _weight_log(self, margin, score, state):
            calls.append(1)
            return 0.5 * super()._weight_log(margin, score, state)

    class Counted(AdaBoost):
        def _fit_tree(self, *args):
            calls.append(2)
            return super()._fit_tree(*args)

    X, y = data("mixed")
    halved = Halved(base_estimator=DecisionStump(), n_estimators=8).fit(X, y)
    assert len(calls) == halved.n_rounds_
    counted = Counted(base_estimator=DecisionStump(), n_estimators=8).fit(X, y)
    assert calls.count(2) == counted.n_rounds_
    python = fitted(lambda **k: Halved(base_estimator=DecisionStump(), **k), X, y, "stop", True,
                    monkeypatch)
    assert np.array_equal(Halved(base_estimator=DecisionStump(), n_estimators=120)
                          .fit(X, y).estimator_weights_, python.estimator_weights_)


def test_regboost_boosts_with_the_edge_offset_its_stumps_carry_and_one_it_overrides(
        monkeypatch):
    # θ = 2λP is computed in one place (stumps.search.edge_offset): each kept stump carries
    # the θ its coefficient took (eq 3), by either driver; a subclass that gives another θ
    # boosts with that one
    X, y = data("mixed")
    for python_driver in (False, True):
        model = fitted(BOOSTERS["RegBoost-R1"], X, y, "stop", python_driver, monkeypatch)
        for stump, error, alpha in zip(model.estimators_, model.estimator_errors_,
                                       model.estimator_weights_):
            assert alpha == rules.adaboost_alpha(error) - rules.offset_term(stump.edge_offset_)

    class Doubled(RegBoost):
        def _edge_offset(self, tree):
            return 2.0 * super()._edge_offset(tree)

    doubled = Doubled(lam=0.2, n_estimators=30).fit(X, y)
    stump, error = doubled.estimators_[0], doubled.estimator_errors_[0]
    assert stump.edge_offset_ > 0
    assert doubled.estimator_weights_[0] == \
        rules.adaboost_alpha(error) - rules.offset_term(2.0 * stump.edge_offset_)


def test_the_outcome_rule():
    z = rules.ZERO_ERROR
    assert rules.outcome(0.3, False, 0) == rules.KEEP
    assert rules.outcome(0.3, True, 24) == rules.KEEP
    for error in (0.0, z / 2, 0.5 - z / 2, 0.5, 0.7):
        assert rules.outcome(error, False, 0) == rules.STOP
    assert rules.outcome(0.0, True, 24) == rules.KEEP_THEN_RESTART
    assert rules.outcome(0.5, True, 0) == rules.DISCARD_THEN_RESTART
    assert rules.outcome(0.5, True, rules.MAX_DEGENERATE - 2) == rules.DISCARD_THEN_RESTART
    assert rules.outcome(0.5, True, rules.MAX_DEGENERATE - 1) == rules.STOP


def test_the_coefficient_rules():
    alpha = 0.5 * np.log(0.8 / 0.2)
    assert rules.coefficient(rules.ALPHA, 0.0, 0.2, 0.9) == (True, alpha)
    assert rules.coefficient(rules.FIXED, 0.1, 0.2, 0.0) == (True, 0.1)
    assert rules.coefficient(rules.SHRUNK, 0.1, 0.2, 0.0) == (True, 0.1 * alpha)
    accepted, value = rules.coefficient(rules.OFFSET, 0.0, 0.2, 0.3)
    assert accepted and value == pytest.approx(alpha - 0.5 * np.log(1.3 / 0.7))
    assert rules.coefficient(rules.OFFSET, 0.0, 0.2, 0.0) == (True, alpha)  # λ = 0: AdaBoost
    assert not rules.coefficient(rules.OFFSET, 0.0, 0.2, 0.6)[0]  # γ = 0.6 ≤ θ: declined
    assert not rules.coefficient(rules.OFFSET, 0.0, 0.2, 1.0)[0]


@pytest.mark.parametrize("python_driver", [False, True])
def test_a_normalisation_that_underflows_stops_boosting_instead_of_dividing_by_zero(
        python_driver, monkeypatch):
    # restarted on perfect stumps (coefficient ≈ 11.5 each) with C_t the mean factor, |H| passes
    # 745/β at every point: exp(-β|H|) and C_t underflow to 0, and eq (4) would be 0/0
    X, y = data("separable")
    with monkeypatch.context() as patch:
        if python_driver:
            patch.delattr(DecisionStump, "_boost")
        model = BOOSTERS["WeightBoost-mean"](n_estimators=300, on_degenerate="restart").fit(X, y)
    assert model.stopped_early_ and 120 < model.n_rounds_ < 300
    assert np.all(model.round_constants_ > 0)
    assert np.all(np.isfinite(model.decision_train_))
    assert np.all(np.isfinite(model.decision_function(X)))
    assert np.array_equal(model.predict(X), y)


class _HidesFirst:
    """A subclass's fit that the booster must call: the first attribute hidden (set to 0)."""

    def fit(self, X, y, sample_weight=None):
        X = np.array(X, dtype=np.float64, copy=True)
        X[:, 0] = 0.0
        return super().fit(X, y, sample_weight=sample_weight)


@pytest.mark.parametrize("base", [DecisionStump, C45])
def test_a_base_learner_subclass_is_fitted_through_its_own_fit(base):
    # the prepared protocol and the compiled driver bypass fit: for a subclass, which may
    # override it, the booster fits as it fits any learner (docs/algorithms.md §7, "The compiled
    # driver")
    hides_first = type(f"HidesFirst{base.__name__}", (_HidesFirst, base), {})
    rng = np.random.default_rng(3)
    X = rng.normal(size=(200, 3))
    y = np.where(X[:, 0] > 0, 1, -1)  # a concept of the first attribute alone
    hidden = X.copy()
    hidden[:, 0] = 0.0
    boosted = AdaBoost(n_estimators=10, base_estimator=hides_first()).fit(X, y)
    plain = AdaBoost(n_estimators=10, base_estimator=base()).fit(hidden, y)
    np.testing.assert_array_equal(boosted.decision_function(hidden),
                                  plain.decision_function(hidden))
    assert boosted.score(X, y) < 0.9  # it never saw the attribute that decides
