"""Properties of decision stumps, the graph penalty and RegBoost (Wang & Kégl 2004;
docs/algorithms.md §7) that a wrong implementation would break."""

import itertools
import math
from dataclasses import replace

import numpy as np
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from weightboost import AdaBoost, DecisionStump, RegBoost, RegBoostCV
from weightboost.stumps import prepare_stumps
from weightboost.stumps.graph import knn_edges


def problem(seed=0, n=60, d=4, levels=6, noise=0.15):
    """Integer-valued features (many ties, as in breast cancer) and a noisy label."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, levels, size=(n, d)).astype(float)
    y = np.where(X[:, 0] + 0.5 * X[:, 1] + rng.normal(0, 1, n) > levels * 0.75, 1, -1)
    flip = rng.random(n) < noise
    y[flip] = -y[flip]
    return X, y


def brute_graph(X, k):
    """The symmetrised k-NN edges by plain loops (ties to the lower index)."""
    n = len(X)
    edges = set()
    for i in range(n):
        d = [(sum((X[i, f] - X[j, f]) ** 2 for f in range(X.shape[1])), j)
             for j in range(n) if j != i]
        for _, j in sorted(d)[:k]:
            edges.add((min(i, j), max(i, j)))
    return sorted(edges)


def brute_candidates(X, edges):
    """Every (feature, threshold) with its cut share, by plain loops."""
    out = []
    for f in range(X.shape[1]):
        values = sorted(set(X[:, f]))
        for a, b in zip(values, values[1:]):
            t = (a + b) / 2
            cut = sum((X[i, f] > t) != (X[j, f] > t) for i, j in edges)
            out.append((f, t, cut / len(edges) if edges else 0.0))
    return out


def brute_edge(X, y, w, f, t):
    w = w / w.sum()
    return float(sum(w[i] * y[i] * (1 if X[i, f] > t else -1) for i in range(len(y))))


def test_knn_graph_equals_a_brute_force_loop_and_is_symmetric():
    X, _ = problem(1, n=40)
    edges = knn_edges(X, 5)
    assert [tuple(e) for e in edges] == brute_graph(X, 5)
    degree = np.bincount(edges.ravel(), minlength=len(X))
    assert degree.min() >= 5  # every point keeps its own k neighbours


@pytest.mark.parametrize("scaling", ["raw", "zscore"])
def test_knn_graph_keeps_the_stable_sorts_neighbours_under_ties(scaling):
    # the compiled selection of each point's k nearest (stumps.graph._nearest) against the
    # definition: the first k of a stable argsort of the point's row of squared distances
    # (feature by feature, in order), on sets with many equal distances and duplicated points
    from weightboost.stumps.graph import scaled

    rng = np.random.default_rng(13)
    for trial in range(60):
        n, d = int(rng.integers(3, 50)), int(rng.integers(1, 4))
        X = rng.integers(0, int(rng.integers(1, 4)), size=(n, d)).astype(float)
        k = int(rng.integers(1, n))
        Z = scaled(X, scaling)
        distances = np.zeros((n, n))
        for column in Z.T:
            distances += (column[:, None] - column[None, :]) ** 2
        np.fill_diagonal(distances, np.inf)
        nearest = np.argsort(distances, axis=1, kind="stable")[:, :k]
        pairs = {(min(i, j), max(i, j)) for i in range(n) for j in nearest[i]}
        assert [tuple(e) for e in knn_edges(X, k, scaling)] == sorted(pairs), trial


def test_k_at_least_the_number_of_points_is_refused():
    X, y = problem(2, n=8)
    with pytest.raises(ValueError, match="n_neighbors=8 must be smaller than the number of "
                                         "points in the graph \\(8\\)"):
        RegBoost(n_estimators=3).fit(X, y)


@pytest.mark.parametrize("lam", [0.0, 0.1, 0.4])
def test_stump_edge_penalty_and_admissible_count_equal_a_brute_force_loop(lam):
    X, y = problem(3)
    w = np.random.default_rng(3).gamma(1.0, size=len(y))
    data = prepare_stumps(X, None, 6)
    stump = DecisionStump(lam=lam)._fit_prepared(data, y.astype(float), w)
    table = [(f, t, p, brute_edge(X, y, w, f, t)) for f, t, p in
             brute_candidates(X, brute_graph(X, 6))]
    assert stump.n_candidates_ == len(table)
    assert stump.n_admissible_ == sum(abs(g) > 2 * lam * p + 1e-12 for _, _, p, g in table)
    best = max(abs(g) - 2 * lam * p for _, _, p, g in table)
    chosen = [(f, t, p, g) for f, t, p, g in table
              if f == stump.feature_ and t == stump.threshold_]
    assert len(chosen) == 1
    f, t, p, g = chosen[0]
    assert stump.penalty_ == pytest.approx(p, abs=1e-15)
    assert stump.polarity_ * g == pytest.approx(stump.edge_, abs=1e-12)
    assert abs(g) - 2 * lam * p == pytest.approx(best, abs=1e-12)
    # weighted error of the chosen stump, from its own predictions
    error = np.sum(w[stump.predict(X) != y]) / w.sum()
    assert error == pytest.approx((1 - stump.edge_) / 2, abs=1e-12)


def test_r2_minimises_the_exponential_bound_among_admissible_stumps():
    X, y = problem(4)
    w = np.random.default_rng(4).gamma(1.0, size=len(y))
    lam = 0.3
    data = prepare_stumps(X, None, 6)
    stump = DecisionStump(lam=lam, objective="R2")._fit_prepared(data, y.astype(float), w)

    def r2(g, theta):
        return ((1 + g) / (1 + theta)) ** ((1 + theta) / 2) * \
            ((1 - g) / (1 - theta)) ** ((1 - theta) / 2)

    values = [r2(abs(g), 2 * lam * p) for f, t, p, g in
              ((f, t, p, brute_edge(X, y, w, f, t))
               for f, t, p in brute_candidates(X, brute_graph(X, 6)))
              if abs(g) > 2 * lam * p]
    assert r2(stump.edge_, stump.edge_offset_) == pytest.approx(min(values), rel=1e-12)
    r1 = DecisionStump(lam=lam, objective="R1")._fit_prepared(data, y.astype(float), w)
    assert r2(r1.edge_, r1.edge_offset_) >= r2(stump.edge_, stump.edge_offset_)


def test_r2_skips_only_candidates_that_cannot_win():
    # the χ² bound skips a candidate's logs only when it cannot be the first minimum: the same
    # choice as computing every log, on random edges, on edges a few ulps apart (where the
    # computed values are not monotone in the edge) and on equal ones
    from weightboost.stumps.search import _r2_choice

    rng = np.random.default_rng(11)
    for trial in range(400):
        n = int(rng.integers(1, 300))
        penalty = rng.choice(rng.random(5), n) if trial % 2 else rng.random(n)
        edges = rng.uniform(-1, 1, n) * rng.choice([1.0, 0.3, 0.01])
        if trial % 3 == 0:  # clusters of edges a few ulps apart, and exact repeats
            base = rng.uniform(0.05, 0.99, 4)
            edges = rng.choice(base, n) * (1 + rng.integers(-3, 4, n) * 2.0 ** -52)
        scale = float(rng.choice([0.0, 0.02, 0.2, 1.0]))
        assert _r2_choice(edges, penalty, scale, True) == _r2_choice(edges, penalty, scale, False)


@pytest.mark.parametrize("objective", ["R1", "R2"])
def test_a_feature_scanned_by_position_or_by_candidate_gives_the_same_scan(objective):
    # the two layouts of the scan (stumps.search): every feature read one way, then the other,
    # then as prepared; discrete features (most sorted positions are not candidates, whose
    # NaN penalty must count nowhere) beside continuous ones, ties in the weights (uniform,
    # and in steps), and penalties; the choice, its edge, the admissible count and the
    # stump's outputs are the same bit for bit
    from weightboost.stumps.search import scan

    rng = np.random.default_rng(12)
    for trial in range(40):
        X, y = problem(trial, n=int(rng.integers(20, 90)), d=5, levels=int(rng.integers(2, 9)))
        X[:, :2] += rng.normal(0, 1, (len(X), 2)) * (trial % 2)  # continuous in odd trials
        data = prepare_stumps(X, None, 6)
        layouts = [replace(data, by_position=np.full(5, flag)) for flag in (True, False)]
        w = [np.ones(len(y)), np.round(rng.gamma(1.0, size=len(y)) * 3),
             rng.gamma(1.0, size=len(y))][trial % 3]
        for lam in (0.0, 0.1, 0.4):
            results = [scan(d, w, y.astype(float), lam, objective) for d in [data, *layouts]]
            for c, feature, edge, admissible, outputs in results[1:]:
                assert (c, feature, edge, admissible) == results[0][:4]
                np.testing.assert_array_equal(outputs, results[0][4])
    assert data.by_position.any() and not data.by_position.all()  # the last set mixes both


def test_r1_and_r2_choose_alike_when_the_offset_is_zero():
    X, y = problem(5, n=120)
    r1 = RegBoost(n_estimators=60, lam=0.0, objective="R1").fit(X, y)
    r2 = RegBoost(n_estimators=60, lam=0.0, objective="R2").fit(X, y)
    assert r1.n_rounds_ == r2.n_rounds_ > 10
    assert [(s.feature_, s.threshold_, s.polarity_) for s in r1.estimators_] == \
        [(s.feature_, s.threshold_, s.polarity_) for s in r2.estimators_]
    np.testing.assert_array_equal(r1.estimator_weights_, r2.estimator_weights_)


def test_lambda_zero_is_adaboost_with_stumps_round_for_round():
    X, y = problem(6, n=150, d=6, levels=20)
    ada = AdaBoost(n_estimators=80, base_estimator=DecisionStump()).fit(X, y)
    reg = RegBoost(n_estimators=80, lam=0.0).fit(X, y)
    assert ada.n_rounds_ == reg.n_rounds_ == 80
    assert [(s.feature_, s.threshold_, s.polarity_) for s in ada.estimators_] == \
        [(s.feature_, s.threshold_, s.polarity_) for s in reg.estimators_]
    np.testing.assert_array_equal(ada.estimator_weights_, reg.estimator_weights_)
    np.testing.assert_array_equal(ada.decision_function(X), reg.decision_function(X))


def test_every_chosen_stump_is_admissible_with_the_coefficient_of_eq_3():
    X, y = problem(7, n=150, d=6, levels=20)
    model = RegBoost(n_estimators=300, lam=0.15).fit(X, y)
    assert model.n_rounds_ > 3
    for stump, alpha in zip(model.estimators_, model.estimator_weights_):
        gamma, theta = stump.edge_, stump.edge_offset_
        assert gamma > theta >= 0
        expected = 0.5 * math.log((1 + gamma) / (1 - gamma)) \
            - 0.5 * math.log((1 + theta) / (1 - theta))
        assert alpha == pytest.approx(expected, rel=1e-9)
    assert np.mean(model.penalties_ > 0) > 0.5  # the offsets were not all zero
    assert np.all(model.admissible_rate_ > 0) and np.all(model.admissible_rate_ <= 1)


def test_the_penalty_makes_the_classifier_sparser():
    X, y = problem(8, n=200, d=6, levels=30)
    ada = RegBoost(n_estimators=300, lam=0.0).fit(X, y)
    reg = RegBoost(n_estimators=300, lam=0.05).fit(X, y)
    assert reg.n_distinct_stumps_ < ada.n_distinct_stumps_
    assert np.mean(reg.penalties_) < np.mean(ada.penalties_)


def test_theorem_1_bound_holds_on_the_training_set():
    X, y = problem(9, n=150, d=6, levels=20)
    model = RegBoost(n_estimators=100, lam=0.1).fit(X, y)
    alphas = model.estimator_weights_
    thetas = np.array([s.edge_offset_ for s in model.estimators_])
    outputs = np.array([s.decision_function(X) for s in model.estimators_])
    rho = float(alphas @ thetas / alphas.sum())          # eq (5)
    margins = y * (alphas @ outputs) / alphas.sum()      # eq (4)
    marginal_error = float(np.mean(margins <= rho))      # eq (6), with ≤ as in (8)
    bound, f = 1.0, np.zeros(len(y))
    for alpha, theta, h in zip(alphas, thetas, outputs):  # eq (7), weights by line 10
        w = np.exp(-y * f)
        w /= w.sum()
        bound *= math.exp(alpha * theta) * float(np.sum(w * np.exp(-alpha * h * y)))
        f += alpha * h
    assert 0 < marginal_error <= bound < 1


def test_unlabelled_points_enter_thresholds_and_graph_but_not_errors():
    X, y = problem(10, n=80)
    U, _ = problem(11, n=40)
    w = np.random.default_rng(10).gamma(1.0, size=len(y))
    with_u = prepare_stumps(X, U, 6)
    stacked = prepare_stumps(np.vstack([X, U]), None, 6)
    assert with_u.n_candidates == stacked.n_candidates
    np.testing.assert_array_equal(with_u.penalty, stacked.penalty)
    a = DecisionStump(lam=0.2)._fit_prepared(with_u, y.astype(float), w)
    b = DecisionStump(lam=0.2)._fit_prepared(
        stacked, np.concatenate([y, np.ones(len(U))]), np.concatenate([w, np.zeros(len(U))]))
    assert (a.feature_, a.threshold_, a.polarity_) == (b.feature_, b.threshold_, b.polarity_)
    assert a.edge_ == pytest.approx(b.edge_, abs=1e-14)
    model = RegBoost(n_estimators=20, lam=0.1).fit(X, y, unlabeled=U)
    assert model.decision_train_.shape == (len(y),)


def test_plain_stump_minimises_the_weighted_error():
    X, y = problem(12)
    w = np.random.default_rng(12).gamma(1.0, size=len(y))
    stump = DecisionStump().fit(X, y, sample_weight=w)
    errors = [min(e, 1 - e) for e in ((1 - brute_edge(X, y, w, f, t)) / 2
                                      for f, t, _ in brute_candidates(X, []))]
    assert np.sum(w[stump.predict(X) != y]) / w.sum() == pytest.approx(min(errors), abs=1e-12)


def test_graph_scaling_changes_the_graph_only_through_the_feature_scales():
    X, y = problem(13, n=60)
    X = X * np.array([1.0, 100.0, 1.0, 0.01])
    raw, z = knn_edges(X, 5, "raw"), knn_edges(X, 5, "zscore")
    assert not np.array_equal(raw, z)
    np.testing.assert_array_equal(z, knn_edges(X * 4, 5, "zscore"))  # exact in floats


def test_regboost_cv_chooses_from_the_grid_and_refits_with_the_choice():
    X, y = problem(14, n=120, d=5, levels=20)
    model = RegBoostCV(lams=(0.0, 0.1, 0.5), cv=3, n_estimators=40, random_state=0).fit(X, y)
    assert model.lam_ == (0.0, 0.1, 0.5)[int(np.argmin(model.cv_errors_))]
    direct = RegBoost(n_estimators=40, lam=model.lam_).fit(X, y)
    np.testing.assert_array_equal(model.decision_function(X), direct.decision_function(X))
    only_zero = RegBoostCV(lams=(0.0,), cv=3, n_estimators=40, random_state=0).fit(X, y)
    np.testing.assert_array_equal(only_zero.predict(X),
                                  RegBoost(n_estimators=40).fit(X, y).predict(X))


def test_a_shorter_grids_choice_is_read_from_a_longer_grids_inner_cv_errors():
    # the report shows the λ a grid before widening would have chosen, from the widened
    # grid's recorded inner-CV errors: each λ's error must not depend on the rest of the grid
    X, y = problem(15, n=120, d=5, levels=20)
    long = RegBoostCV(lams=(0.0, 0.1, 0.5, 2.0, 5.0), cv=3, n_estimators=30,
                      random_state=3).fit(X, y)
    short = RegBoostCV(lams=(0.0, 0.1, 0.5), cv=3, n_estimators=30, random_state=3).fit(X, y)
    np.testing.assert_array_equal(long.cv_errors_[:3], short.cv_errors_)
    assert short.lam_ == (0.0, 0.1, 0.5)[int(np.argmin(long.cv_errors_[:3]))]


def test_the_reports_choice_within_the_grid_before_is_the_first_least_error_there():
    import pandas as pd

    from weightboost.report.regboost import before_choices

    grid, before = [0.0, 0.3, 1.0, 2.0], [0.0, 0.3, 1.0]
    errors = pd.Series(["0.2;0.1;0.3;0.05",    # the widened grid's top: the grid before's 0.3
                        "0.1;0.1;0.2;0.3",     # a tie: the first, as RegBoostCV takes it
                        "0.4;0.3;0.2;0.2"])    # 1.0 before and now (the first least error)
    np.testing.assert_array_equal(before_choices(errors, grid, before), [0.3, 0.0, 1.0])


@pytest.mark.parametrize("params, message", [
    ({"lams": ()}, "lams must be a non-empty list"),
    ({"lams": (0.1, -1.0)}, "lams must be a non-empty list of numbers >= 0"),
    ({"objective": "R3"}, "objective must be one of"),
    ({"graph_scaling": "minmax"}, "graph_scaling must be one of"),
    ({"cv": 1}, "cv must be an integer >= 2"),
])
def test_bad_parameters_are_named(params, message):
    X, y = problem(15)
    with pytest.raises(ValueError, match=message):
        RegBoostCV(**params).fit(X, y)


def test_missing_values_are_refused_with_advice():
    X, y = problem(16)
    X[3, 1] = np.nan
    with pytest.raises(ValueError, match="impute or drop them first"):
        RegBoost(n_estimators=5).fit(X, y)


@parametrize_with_checks([DecisionStump(), DecisionStump(lam=0.3, objective="R2"),
                          RegBoost(n_estimators=10, n_neighbors=2),
                          RegBoostCV(lams=(0.0, 0.1), cv=2, n_estimators=5, n_neighbors=2,
                                     random_state=0)])
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_a_stump_ensemble_predicts_as_its_stumps_one_by_one():
    """The ensemble's outputs are computed for all stumps in one compiled call: each row must
    be that stump's own output, s if x_j > t else -s, and -s for the constant stump (no
    feature)."""
    rng = np.random.default_rng(11)
    X = rng.normal(size=(60, 4))
    X[:, 3] = 1.0  # constant: no threshold
    y = (X[:, 0] + 0.5 * rng.normal(size=60) > 0).astype(int)
    model = AdaBoost(n_estimators=15, base_estimator=DecisionStump()).fit(X, y)
    constant = DecisionStump().fit(X[:, 3:], y)
    assert constant.feature_ == -1
    stumps = model.estimators_
    X_new = rng.normal(size=(25, 4))
    rows = list(DecisionStump._ensemble_outputs(stumps, X_new))
    assert [r.tobytes() for r in rows] == [
        (np.where(X_new[:, s.feature_] > s.threshold_, 1.0, -1.0) * s.polarity_).tobytes()
        for s in stumps]
    [row] = DecisionStump._ensemble_outputs([constant], X_new[:, 3:])
    assert row.tobytes() == np.full(25, -float(constant.polarity_)).tobytes()
    assert constant.predict(X_new[:, 3:]).tolist() == [constant.classes_[
        int(constant.polarity_ < 0)]] * 25
