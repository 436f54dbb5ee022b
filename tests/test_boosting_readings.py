"""The protocol readings of the boosting core (sampling, on_degenerate, WeightBoost's §3.3
constant): properties that a wrong implementation of each reading would break."""

import numpy as np
import pytest

from weightboost import C45
from weightboost.boosting import AdaBoost, EpsilonBoost, WeightBoost, WeightDecay
from weightboost.c45 import prepare
from weightboost.c45.data import take_rows

from test_boosting import noisy, same_trees

BOOSTERS = [AdaBoost, WeightBoost, WeightDecay, EpsilonBoost]


def test_take_rows_is_prepare_of_the_drawn_rows():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 6, size=(80, 4)).astype(float)
    X[rng.random(X.shape) < 0.1] = np.nan
    data = prepare(X, nominal_features=[3])
    rows = np.sort(rng.integers(0, 80, size=80))
    drawn, direct = take_rows(data, rows), prepare(X[rows], nominal_features=[3])
    np.testing.assert_array_equal(drawn.X, direct.X)
    for field in ("num_slot", "ptr", "rows", "vals", "implicit_zero"):
        np.testing.assert_array_equal(getattr(drawn.view, field), getattr(direct.view, field))
    y = rng.integers(0, 2, size=80)[rows]
    a, b = C45().fit(drawn, y), C45(nominal_features=[3]).fit(X[rows], y)
    np.testing.assert_array_equal(a.tree_.node_int, b.tree_.node_int)
    np.testing.assert_array_equal(a.tree_.dist, b.tree_.dist)
    # which attributes have a missing value: those of the draw, not of the data it came from
    complete = np.sort(rng.choice(np.flatnonzero(~np.isnan(X[:, 0])), size=60))
    for draw in (rows, complete):
        np.testing.assert_array_equal(take_rows(data, draw).missing,
                                      prepare(X[draw], nominal_features=[3]).missing)
    assert data.missing[0] and not take_rows(data, complete).missing[0]


def _draw_data(kind, rng):
    """Data for the draw test: numeric with ties, mixed, all nominal with many values (J48's
    many-valued rule counts instances), sparse (zeros not stored)."""
    n = 160
    if kind == "all_nominal":  # 30 values: < 0.3 of the draw, often >= 0.3 of its distinct rows
        many = rng.integers(0, 30, n)
        y = (many % 3 == 0) ^ (rng.random(n) < 0.1)
        few = np.where(rng.random(n) < 0.65, y, rng.integers(0, 3, n))
        return np.column_stack([many, few]).astype(float), y, [0, 1]
    X = np.round(rng.normal(size=(n, 4)), 1)
    if kind == "sparse":
        import scipy.sparse as sp

        X[rng.random(X.shape) < 0.6] = 0.0
        return sp.csr_matrix(X), (X[:, 0] + X[:, 1] > 0) ^ (rng.random(n) < 0.2), None
    if kind == "mixed":
        X[:, 3] = rng.integers(0, 4, n)
    y = (X[:, 0] + 0.5 * X[:, 1] ** 2 > 0.4) ^ (rng.random(n) < 0.2)
    return X, y, [3] if kind == "mixed" else None


@pytest.mark.parametrize("kind", ["numeric", "mixed", "all_nominal", "sparse"])
def test_a_draw_fitted_as_its_distinct_rows_by_copies_is_the_tree_of_its_copies(kind):
    # A resampling round fits the drawn rows once each, weighted by their copies, and counts
    # the copies as instances (GrowSettings.draw_size): the tree of the draw with its copies,
    # to the last bit. Counting the distinct rows as the instances instead (the weights alone)
    # changes J48's "2·minSplit known instances" and many-valued rules, and some trees.
    rng = np.random.default_rng(7)
    X, y, nominal = _draw_data(kind, rng)
    signed = np.where(y, 1.0, -1.0)
    data = C45(nominal_features=nominal)._prepare_fit_input(X)
    labels = (np.array([-1.0, 1.0]), (signed > 0).astype(np.int64))
    n, moved = len(signed), 0
    for seed in range(40):
        p = rng.gamma(0.3 if seed % 2 else 2.0, size=n)
        p /= p.sum()
        copies = np.random.RandomState(seed).multinomial(n, p)
        rows = np.repeat(np.arange(n), copies)
        of_copies = C45().fit(take_rows(data, rows), signed[rows])
        by_copies = C45()._fit_round(data, signed, labels, p, np.random.RandomState(seed))
        for field in ("node_int", "node_float", "empty", "dist"):
            np.testing.assert_array_equal(getattr(by_copies.tree_, field),
                                          getattr(of_copies.tree_, field), err_msg=field)
        distinct = np.flatnonzero(copies)
        rows_as_instances = C45()._fit_checked(take_rows(data, distinct), labels[0],
                                               labels[1][distinct], copies[distinct] * 1.0)
        moved += not np.array_equal(rows_as_instances.tree_.node_int, of_copies.tree_.node_int)
    assert moved > 0  # the draws reach the rules that count instances


@pytest.mark.parametrize("cls", BOOSTERS)
def test_resampling_is_deterministic_given_the_seed(cls):
    X, y = noisy(3, noise=0.1)
    a = cls(n_estimators=15, sampling="resample", random_state=7).fit(X, y)
    b = cls(n_estimators=15, sampling="resample", random_state=7).fit(X, y)
    c = cls(n_estimators=15, sampling="resample", random_state=8).fit(X, y)
    same_trees(a, b)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))
    assert not np.array_equal(a.decision_function(X), c.decision_function(X))


def test_resampled_tree_is_fitted_on_a_weighted_draw_and_measured_on_the_whole_set():
    X, y = noisy(4, noise=0.1)
    signed = np.where(y == 1, 1.0, -1.0)
    model = AdaBoost(n_estimators=2, sampling="resample", random_state=3).fit(X, signed)
    rng = np.random.RandomState(3)
    n = len(y)
    rows = np.repeat(np.arange(n), rng.multinomial(n, np.full(n, 1 / n)))
    first = C45().fit(X[rows], signed[rows])  # unit weights on the draw
    np.testing.assert_array_equal(model.estimators_[0].tree_.node_int, first.tree_.node_int)
    np.testing.assert_array_equal(model.estimators_[0].tree_.dist, first.tree_.dist)
    wrong = first.predict(X) != signed
    assert model.estimator_errors_[0] == pytest.approx(wrong.mean(), abs=1e-15)
    # round 2 draws from AdaBoost's weights, and its ε is measured under them
    alpha = model.estimator_weights_[0]
    p = np.exp(-signed * alpha * first.predict(X))
    p /= p.sum()
    second = model.estimators_[1].predict(X) != signed
    assert model.estimator_errors_[1] == pytest.approx(p[second].sum(), abs=1e-12)


@pytest.mark.parametrize("sampling", ["reweight", "resample"])
def test_weightboost_with_beta_zero_and_no_constant_is_adaboost_in_both_sampling_modes(
        sampling):
    X, y = noisy(1, noise=0.0)
    ada = AdaBoost(n_estimators=25, sampling=sampling, random_state=5).fit(X, y)
    wb = WeightBoost(n_estimators=25, beta=0.0, normalize="none", sampling=sampling,
                     random_state=5).fit(X, y)
    assert ada.n_rounds_ == wb.n_rounds_ > 5
    same_trees(ada, wb)
    np.testing.assert_array_equal(ada.estimator_weights_, wb.estimator_weights_)
    np.testing.assert_array_equal(ada.decision_function(X), wb.decision_function(X))


def perfectly_separable():
    X = np.arange(40, dtype=float).reshape(-1, 1)
    return X, (X[:, 0] >= 20).astype(int)


@pytest.mark.parametrize("cls", BOOSTERS)
def test_restart_builds_all_rounds_on_data_one_tree_fits_perfectly(cls):
    X, y = perfectly_separable()
    stop = cls(n_estimators=30).fit(X, y)
    restart = cls(n_estimators=30, on_degenerate="restart").fit(X, y)
    assert stop.n_rounds_ == 1 and stop.restarts_ == 0
    assert restart.n_rounds_ == 30 and restart.restarts_ == 30 and not restart.stopped_early_
    np.testing.assert_array_equal(restart.predict(X), y)
    if cls in (AdaBoost, WeightBoost):  # each perfect tree gets the coefficient of ε = 1e-10
        assert restart.estimator_weights_[0] == pytest.approx(0.5 * np.log((1 - 1e-10) / 1e-10))


@pytest.mark.parametrize("sampling, seed", [("reweight", 12), ("resample", 20)])
def test_restart_discards_a_tree_worse_than_chance_and_restarts_from_uniform(sampling, seed):
    # Noisy data on which AdaBoost with pruned trees meets a tree with ε >= 0.5 early.
    X, y = noisy(seed, n=150 if sampling == "reweight" else 100, noise=0.3)
    stop = AdaBoost(n_estimators=60, sampling=sampling, random_state=2).fit(X, y)
    assert stop.stopped_early_ and stop.n_rounds_ < 60
    restart = AdaBoost(n_estimators=60, on_degenerate="restart", sampling=sampling,
                       random_state=2).fit(X, y)
    assert restart.restarts_ >= 1
    assert restart.n_rounds_ > stop.n_rounds_
    assert np.all(restart.estimator_errors_ < 0.5)
    # until the first degenerate tree both readings are the same run
    k = stop.n_rounds_
    np.testing.assert_array_equal(restart.estimator_weights_[:k], stop.estimator_weights_)
    if sampling == "reweight":  # uniform weights again: the tree after the restart is h_1
        np.testing.assert_array_equal(restart.estimators_[k].tree_.node_int,
                                      restart.estimators_[0].tree_.node_int)


def test_restart_on_a_constant_problem_gives_up_and_keeps_the_first_tree():
    X = np.zeros((30, 2))
    y = np.array([0, 1] * 15)
    model = AdaBoost(n_estimators=50, on_degenerate="restart").fit(X, y)
    assert model.n_rounds_ == 1 and model.stopped_early_
    assert model.restarts_ == 24  # the 25th consecutive discarded tree ends it


@pytest.mark.parametrize("sampling", ["reweight", "resample"])
def test_weightboost_mean_constant_makes_the_factor_average_one(sampling):
    X, y = noisy(7, noise=0.2)
    model = WeightBoost(n_estimators=30, normalize="mean", sampling=sampling,
                        random_state=1).fit(X, y)
    previous = np.zeros(len(y))
    for t, score in enumerate(model.staged_decision_function(X)):
        factor = np.exp(-model.beta * np.abs(previous)) / model.round_constants_[t]
        assert factor.mean() == pytest.approx(1.0, abs=1e-12)
        previous = score
    assert model.n_rounds_ > 5


def test_weightboost_boolean_normalize_is_the_old_behaviour():
    X, y = noisy(7, noise=0.2)
    for old, new in ((True, "tenth_mean"), (False, "none")):
        a = WeightBoost(n_estimators=10, normalize=old).fit(X, y)
        b = WeightBoost(n_estimators=10, normalize=new).fit(X, y)
        np.testing.assert_array_equal(a.round_constants_, b.round_constants_)
        np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))


@pytest.mark.parametrize("cls, params, key", [
    (AdaBoost, {"sampling": "bootstrap"}, "sampling"),
    (AdaBoost, {"on_degenerate": "retry"}, "on_degenerate"),
    (AdaBoost, {"n_estimators": 0}, "n_estimators"),
    (WeightBoost, {"beta": -1}, "beta"),
    (WeightBoost, {"normalize": "tenth"}, "normalize"),
    (EpsilonBoost, {"epsilon": 0.0}, "epsilon"),
    (EpsilonBoost, {"epsilon": 1.5}, "epsilon"),
    (WeightDecay, {"C": -0.1}, "C"),
    (WeightDecay, {"variant": "other"}, "variant"),
])
def test_parameters_out_of_range_are_refused_by_name(cls, params, key):
    X, y = noisy(0, n=40)
    with pytest.raises(ValueError, match=key):
        cls(**params).fit(X, y)


def test_weight_decay_cv_refits_the_c_with_the_lowest_inner_error():
    from weightboost.boosting import WeightDecayCV

    X, y = noisy(5, n=200, noise=0.2)
    model = WeightDecayCV(Cs=(0.0, 0.03, 3.0), cv=3, n_estimators=20, random_state=4).fit(X, y)
    assert model.C_ == (0.0, 0.03, 3.0)[int(np.argmin(model.cv_errors_))]
    assert len(set(model.cv_errors_)) > 1  # the grid matters on this data
    direct = WeightDecay(n_estimators=20, C=model.C_).fit(X, y)
    same_trees(model.best_estimator_, direct)
    np.testing.assert_array_equal(model.decision_function(X), direct.decision_function(X))
    again = WeightDecayCV(Cs=(0.0, 0.03, 3.0), cv=3, n_estimators=20, random_state=4).fit(X, y)
    np.testing.assert_array_equal(again.cv_errors_, model.cv_errors_)


def test_weight_decay_cv_with_one_value_is_weight_decay():
    from weightboost.boosting import WeightDecayCV

    X, y = noisy(6, n=150, noise=0.1)
    model = WeightDecayCV(Cs=(0.01,), cv=3, n_estimators=15, random_state=0).fit(X, y)
    direct = WeightDecay(n_estimators=15, C=0.01).fit(X, y)
    assert model.C_ == 0.01
    np.testing.assert_array_equal(model.predict(X), direct.predict(X))
