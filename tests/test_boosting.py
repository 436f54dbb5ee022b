"""Properties of the boosting family (docs/algorithms.md §2.1, §4.5) that a wrong implementation
would break."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy.special import logsumexp, softmax
from sklearn.tree import DecisionTreeClassifier

from weightboost import C45
from weightboost.boosting import AdaBoost, EpsilonBoost, WeightBoost, WeightDecay
from weightboost.c45.tree import NCHILD


def noisy(seed=0, n=300, d=5, noise=0.1):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = (np.sin(2 * X[:, 0]) + X[:, 1] + 0.5 * X[:, 2] * X[:, 3] > 0).astype(int)
    flip = rng.random(n) < noise
    y[flip] = 1 - y[flip]
    return X, y


def same_trees(a, b):
    assert len(a.estimators_) == len(b.estimators_)
    for ta, tb in zip(a.estimators_, b.estimators_):
        np.testing.assert_array_equal(ta.tree_.node_int, tb.tree_.node_int)
        np.testing.assert_array_equal(ta.tree_.dist, tb.tree_.dist)


def test_weightboost_with_beta_zero_and_no_normalisation_is_adaboost():
    X, y = noisy(1, noise=0.0)
    ada = AdaBoost(n_estimators=30).fit(X, y)
    wb = WeightBoost(n_estimators=30, beta=0.0, normalize=False).fit(X, y)
    assert ada.n_rounds_ == wb.n_rounds_ > 5
    same_trees(ada, wb)
    np.testing.assert_array_equal(ada.estimator_weights_, wb.estimator_weights_)
    np.testing.assert_array_equal(ada.decision_function(X), wb.decision_function(X))


def test_weight_decay_with_c_zero_is_adaboost():
    X, y = noisy(2, noise=0.0)
    ada = AdaBoost(n_estimators=30).fit(X, y)
    wd = WeightDecay(n_estimators=30, C=0.0).fit(X, y)
    same_trees(ada, wd)
    np.testing.assert_array_equal(ada.estimator_weights_, wd.estimator_weights_)
    np.testing.assert_array_equal(ada.decision_function(X), wd.decision_function(X))


def test_weight_decay_line_search_finds_adaboost_alpha_when_c_vanishes():
    X, y = noisy(3, noise=0.0)
    numeric = WeightDecay(n_estimators=8, C=1e-12).fit(X, y)  # the minimiser path
    closed = AdaBoost(n_estimators=8).fit(X, y)
    assert numeric.n_rounds_ == closed.n_rounds_ == 8
    np.testing.assert_allclose(numeric.estimator_weights_, closed.estimator_weights_,
                               atol=1e-6)


def two_decay_rounds(C):
    """A two-round Weight Decay on a noisy concept, with what docs/algorithms.md §2.1 says its
    second round sees: labels s, the trees' outputs h1, h2 and p2, the second distribution.
    After one round S_i = b1 N p1(i) = b1 for every point, so the slack C S_i²/B is the same
    everywhere and p2 is AdaBoost's second distribution for the coefficient b1."""
    X, y = noisy(4, noise=0.2)
    model = WeightDecay(n_estimators=2, C=C).fit(X, y)
    assert model.n_rounds_ == 2
    s = 2.0 * y - 1
    h1, h2 = (tree.predict(X) for tree in model.estimators_)
    b1, _ = model.estimator_weights_
    return model, s, h1, h2, softmax(-s * b1 * h1)


def test_weight_decay_coefficient_minimises_the_regularised_loss_of_its_round():
    # Rätsch's AdaBoost_Reg (p = 2): b_t minimises G(b) = Σ_i exp(-y_i F(x_i) - b y_i h_t(x_i)
    # - C (S_i + b N p_t(i))² / (B + b)), written here from the equation, not from the code
    C = 0.01
    model, s, h1, h2, p2 = two_decay_rounds(C)
    n = len(s)
    b1, b2 = model.estimator_weights_

    def first(b):  # S = 0, B = 0, N p_1 = 1
        return logsumexp(-b * s * h1 - C * b)

    def second(b):  # F = b1 h1, S_i = b1, B = b1
        return logsumexp(-s * b1 * h1 - b * s * h2 - C * (b1 + b * n * p2) ** 2 / (b1 + b))

    for loss, b in ((first, b1), (second, b2)):
        for step in (1e-3, 1e-2):
            assert loss(b) < min(loss(b - step), loss(b + step))
    ada = AdaBoost(n_estimators=2).fit(*noisy(4, noise=0.2))
    assert abs(b2 - ada.estimator_weights_[1]) > 0.01  # the regulariser moved it


def test_weight_decay_influence_is_the_coefficient_weighted_mean_of_the_rounds_weights():
    # μ_i = Σ_t b_t N p_t(i) / Σ_t b_t (docs/algorithms.md §2.1); its mean is 1 for any
    # coefficients, so the check is point by point
    model, s, h1, h2, p2 = two_decay_rounds(0.01)
    b1, b2 = model.estimator_weights_
    np.testing.assert_allclose(model.influence_, (b1 + b2 * len(s) * p2) / (b1 + b2),
                               rtol=1e-12)


def test_literal_weight_decay_reading_uses_adaboost_alpha():
    X, y = noisy(5)
    literal = WeightDecay(n_estimators=10, C=0.05, variant="literal").fit(X, y)
    for error, alpha in zip(literal.estimator_errors_, literal.estimator_weights_):
        assert alpha == pytest.approx(0.5 * math.log((1 - error) / error))


def test_weightboost_prediction_on_training_points_reproduces_training_scores():
    X, y = noisy(6, noise=0.2)
    model = WeightBoost(n_estimators=40).fit(X, y)
    np.testing.assert_allclose(model.decision_function(X), model.decision_train_,
                               rtol=0, atol=1e-12)


def test_weightboost_normalised_factor_averages_one_tenth_every_round():
    X, y = noisy(7, noise=0.2)
    model = WeightBoost(n_estimators=40).fit(X, y)
    previous = np.zeros(len(y))
    for t, score in enumerate(model.staged_decision_function(X)):
        factor = np.exp(-model.beta * np.abs(previous)) / model.round_constants_[t]
        assert factor.mean() == pytest.approx(0.1, abs=1e-12)
        previous = score
    assert model.round_constants_[0] == pytest.approx(10.0)


def test_weightboost_first_round_is_plain_c45_and_second_is_shrunk_adaboost():
    X, y = noisy(8, noise=0.2)
    model = WeightBoost(n_estimators=2).fit(X, y)
    plain = C45().fit(X, np.where(y == 1, 1.0, -1.0))
    np.testing.assert_array_equal(model.estimators_[0].tree_.node_int, plain.tree_.node_int)
    ada_like = AdaBoost(n_estimators=1).fit(X, y)
    # round 2 weights: every |H| equals 0.1 α_1, so the β term cancels (docs/algorithms.md §4.3)
    h1 = plain.predict(X)
    signed = np.where(y == 1, 1.0, -1.0)
    H = 0.1 * ada_like.estimator_weights_[0] * h1
    w = np.exp(-signed * H)
    tree2 = C45().fit(X, signed, sample_weight=len(w) * w / w.sum())
    np.testing.assert_array_equal(model.estimators_[1].tree_.node_int, tree2.tree_.node_int)


def test_unnormalised_weightboost_respects_the_appendix_bound():
    X, y = noisy(0, noise=0.0)
    model = WeightBoost(n_estimators=60, normalize=False).fit(X, y)
    beta = model.beta
    alpha_max = model.estimator_weights_.max()
    stages = list(model.staged_decision_function(X))
    first = np.abs(stages[0])
    for T, score in enumerate(stages, start=1):
        bound = np.log(beta * alpha_max * math.exp(beta * alpha_max) * (T - 1)
                       + np.exp(beta * first)) / beta
        assert np.all(np.abs(score) <= bound + 1e-9), T
    assert len(stages) > 20


def test_stop_rule_keeps_a_perfect_first_tree_alone():
    X = np.arange(40, dtype=float).reshape(-1, 1)
    y = (X[:, 0] >= 20).astype(int)
    for cls in (AdaBoost, WeightBoost, WeightDecay, EpsilonBoost):
        model = cls(n_estimators=50).fit(X, y)
        assert model.n_rounds_ == 1 and model.stopped_early_
        np.testing.assert_array_equal(model.decision_function(X), np.where(y == 1, 1.0, -1.0))
        assert model.estimator_errors_[0] == 0.0


def test_stop_rule_when_no_tree_beats_chance():
    X = np.zeros((30, 2))
    y = np.array([0, 1] * 15)
    for cls in (AdaBoost, WeightBoost, WeightDecay, EpsilonBoost):
        model = cls(n_estimators=50).fit(X, y)
        assert model.n_rounds_ == 1 and model.estimator_errors_[0] == pytest.approx(0.5)
        assert model.estimators_[0].tree_.node_int[0, NCHILD] == 0


@pytest.mark.parametrize("cls", [AdaBoost, WeightBoost, WeightDecay, EpsilonBoost])
def test_hundred_rounds_at_thirty_percent_noise_stay_finite(cls):
    X, y = noisy(10, n=200, noise=0.3)
    model = cls(n_estimators=100).fit(X, y)
    assert np.all(np.isfinite(model.decision_train_))
    assert np.all(np.isfinite(model.estimator_weights_))
    assert np.all((model.estimator_errors_ > 0) & (model.estimator_errors_ < 0.5))


@pytest.mark.parametrize("cls", [AdaBoost, WeightBoost, WeightDecay, EpsilonBoost])
def test_identical_input_gives_identical_output(cls):
    X, y = noisy(11, noise=0.2)
    X[::9, 1] = np.nan
    a = cls(n_estimators=15).fit(X, y).decision_function(X)
    b = cls(n_estimators=15).fit(X, y).decision_function(X)
    np.testing.assert_array_equal(a, b)


def test_epsilon_boost_coefficients():
    X, y = noisy(12, noise=0.2)
    fixed = EpsilonBoost(n_estimators=10).fit(X, y)
    assert np.all(fixed.estimator_weights_ == 0.1)
    shrunk = EpsilonBoost(n_estimators=10, shrinkage=True).fit(X, y)
    np.testing.assert_allclose(shrunk.estimator_weights_,
                               0.1 * 0.5 * np.log((1 - shrunk.estimator_errors_)
                                                  / shrunk.estimator_errors_))


@pytest.mark.parametrize("cls", [AdaBoost, WeightBoost, WeightDecay, EpsilonBoost])
def test_staged_output_ends_at_the_decision_function(cls):
    X, y = noisy(13, noise=0.2)
    model = cls(n_estimators=12).fit(X, y)
    stages = list(model.staged_decision_function(X))
    assert len(stages) == model.n_rounds_
    np.testing.assert_array_equal(stages[-1], model.decision_function(X))
    labels = list(model.staged_predict(X))
    np.testing.assert_array_equal(labels[-1], model.predict(X))


def test_dataframe_with_nominal_columns_and_any_labels():
    rng = np.random.default_rng(14)
    frame = pd.DataFrame({"colour": pd.Categorical(rng.choice(["r", "g", "b"], 200)),
                          "size": rng.normal(size=200)})
    y = np.where((frame.colour == "r") | (frame["size"] > 1), "yes", "no")
    model = WeightBoost(n_estimators=10).fit(frame, y)
    assert set(model.predict(frame)) <= {"yes", "no"}
    assert np.mean(model.predict(frame) == y) > 0.9


def test_any_sklearn_classifier_with_sample_weight_is_a_base_learner():
    X, y = noisy(15, noise=0.1)
    base = DecisionTreeClassifier(max_depth=2, random_state=0)
    model = WeightBoost(n_estimators=20, base_estimator=base).fit(X, y)
    assert model.n_rounds_ == 20
    assert np.mean(model.predict(X) == y) > 0.8


def test_binary_only():
    X, y = noisy(16)
    with pytest.raises(ValueError, match="Only binary classification"):
        AdaBoost().fit(X, y % 3 + (X[:, 0] > 1))


@pytest.mark.parametrize("cls", [AdaBoost, WeightBoost, WeightDecay, EpsilonBoost])
def test_one_class_training_set_gives_the_constant_classifier(cls):
    X, _ = noisy(17, n=20)
    model = cls(n_estimators=5).fit(X, np.full(20, "spam"))
    assert model.n_rounds_ == 0 and list(model.predict(X[:3])) == ["spam"] * 3


def _line_search_exponents(rng, k):
    a = rng.normal(size=int(rng.integers(1, 2000))) * rng.exponential() * 10
    if k % 5 == 0:  # several maxima
        a[rng.integers(0, len(a), size=3)] = a.max()
    if k % 7 == 0:  # large negative exponents, as the line search meets them
        a = -np.abs(a) * 1e3
    return a


def test_weight_decay_logsumexp_is_scipys_formula_with_the_c_librarys_functions():
    """Bit for bit the formula with Python's math (the C library's exp, log, log1p) and
    numpy's sum; within 4 machine epsilons of scipy, relative (absolute below 1). scipy's exp
    is numpy's, whose SIMD code depends on the CPU: on an AVX-512 Xeon a result near 0 was 4
    ulp from the C library's (1 epsilon of the scale), against 2 ulp at most on AVX2."""
    from scipy.special import logsumexp as scipy_logsumexp

    from weightboost.boosting.variants import logsumexp

    rng = np.random.default_rng(0)
    for k in range(1000):
        a = _line_search_exponents(rng, k)
        top = a.max()
        count = int((a == top).sum())
        s = float(np.array([0.0 if v == top else math.exp(v - top) for v in a]).sum()) / count
        assert logsumexp(a) == math.log1p(s) + math.log(count) + top
        eps = np.finfo(np.float64).eps
        np.testing.assert_allclose(logsumexp(a), scipy_logsumexp(a), rtol=4 * eps,
                                   atol=4 * eps)


def test_the_compiled_sum_is_numpys_pairwise_sum_bit_for_bit():
    """The line search's losses are summed in compiled code as numpy sums (pairwise, with 8
    partial sums per block): a plain left-to-right sum differs in last bits, and with it the
    coefficient."""
    from weightboost.boosting.libm import pairwise_sum as _pairwise_sum

    rng = np.random.default_rng(5)
    lengths = list(range(0, 300)) + [int(n) for n in rng.integers(300, 30000, size=60)]
    for n in lengths:
        a = np.exp(rng.normal(size=n) * 5)
        assert _pairwise_sum(a, 0, n) == a.sum(), n
        if n > 3:  # a part of a larger array, as the sum of a row
            assert _pairwise_sum(a, 2, n - 3) == a[2:n - 1].sum(), n


def test_weight_decay_line_search_losses_are_the_array_formula_bit_for_bit():
    """The compiled losses of the line search (one call for the whole grid) give the floats of
    the formula written with numpy arrays: e(b) = -margin - b·gain - C (S + b·wc)² / (B + b),
    then ``logsumexp``; an operation in another order (or fused) would move last bits, and
    with them Brent's steps and the coefficient."""
    from weightboost.boosting.variants import WeightDecay, _DecayState, logsumexp

    rng = np.random.default_rng(3)
    for k in range(200):
        n = int(rng.integers(1, 2000))
        state = _DecayState(n)
        state.S = rng.exponential(size=n) * rng.exponential() * 20
        state.B = float(rng.exponential() * 10) if k % 3 else 0.0
        margin = rng.normal(size=n) * 5
        gain = np.where(rng.random(n) < 0.8, 1.0, -1.0)
        p = rng.exponential(size=n)
        wc = n * p / p.sum()
        C = [0.003, 0.0, 1.0][k % 3]
        grid = np.concatenate([[0.0], rng.uniform(0, 30, size=6)])
        want = []
        for b in grid:
            e = -margin - b * gain
            if C > 0 and state.B + b > 0:
                e -= C * (state.S + b * wc) ** 2 / (state.B + b)
            want.append(logsumexp(e))
        got = WeightDecay(C=C)._losses(grid, margin, gain, wc, state)
        assert got.tobytes() == np.array(want).tobytes()


def test_boosting_exp_is_the_c_librarys_on_every_element():
    """numpy's own float64 exp (AVX-512 CPUs) differs from the C library's in last bits; the
    boosting weights must not depend on the CPU (weightboost.boosting.libm)."""
    from weightboost.boosting import libm

    rng = np.random.default_rng(1)
    a = np.concatenate([rng.normal(size=5000) * 50, [-np.inf, 0.0, -745.2, 709.7, 710.0,
                                                     np.nan, -1e-300]])
    got = libm.exp(a)
    want = np.array([math.exp(v) if not v > 709.78 else math.inf for v in a])  # 709.78: overflow
    assert got.tobytes() == want.tobytes()


def test_the_compiled_distribution_and_error_are_the_numpy_formulas_bit_for_bit():
    """The loop's weights and ε in one compiled call each give the floats of the numpy lines
    they replace (exp of log w less its max by the C library, numpy's pairwise sums): a plain
    left-to-right sum or another order would move last bits, and with them a C4.5 tie."""
    from weightboost.boosting import libm

    rng = np.random.default_rng(7)
    for n in (1, 5, 8, 127, 128, 129, 300, 1001, 4141):
        log_w = rng.normal(size=n) * rng.choice([0.1, 5.0, 40.0])
        p = libm.exp(log_w - log_w.max())
        p /= p.sum()
        assert libm.distribution(log_w).tobytes() == p.tobytes(), n
        correct = rng.random(n) < 0.7
        assert libm.misclassified_weight(p, correct) == float(p[~correct].sum()), n
    assert libm.misclassified_weight(np.ones(3) / 3, np.ones(3, dtype=bool)) == 0.0
