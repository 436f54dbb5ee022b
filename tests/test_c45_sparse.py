"""The sparse path grows exactly the tree of the dense path (one grower, weightboost.c45.grow)."""

import numpy as np
import pytest
import scipy.sparse as sp

from weightboost import C45, WeightBoost


def sparse_data(seed, n=400, d=30, nonnegative=False):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    X[rng.random((n, d)) < 0.8] = 0.0
    if nonnegative:
        X = np.abs(X)
    y = (X[:, 0] + X[:, 1] - X[:, 2] + 0.3 * rng.normal(size=n) > 0).astype(int)
    return X, y, rng.exponential(size=n)


@pytest.mark.parametrize("seed, nonnegative, pruning", [
    (0, False, True), (1, True, True), (2, False, False), (3, True, False)])
def test_sparse_and_dense_trees_are_identical(seed, nonnegative, pruning):
    X, y, w = sparse_data(seed, nonnegative=nonnegative)
    dense = C45(pruning=pruning).fit(X, y, sample_weight=w)
    sparse = C45(pruning=pruning).fit(sp.csr_matrix(X), y, sample_weight=w)
    assert dense.tree_.node_count > 10
    np.testing.assert_array_equal(dense.tree_.node_int, sparse.tree_.node_int)
    np.testing.assert_allclose(dense.tree_.node_float, sparse.tree_.node_float, atol=1e-12)
    np.testing.assert_allclose(dense.tree_.dist, sparse.tree_.dist, atol=1e-9)
    np.testing.assert_array_equal(dense.predict(X), sparse.predict(sp.csc_matrix(X)))


def test_boosting_on_sparse_input_matches_dense():
    X, y, _ = sparse_data(4, nonnegative=True)
    dense = WeightBoost(n_estimators=15).fit(X, y)
    sparse = WeightBoost(n_estimators=15).fit(sp.csr_matrix(X), y)
    np.testing.assert_array_equal(dense.decision_function(X),
                                  sparse.decision_function(sp.csr_matrix(X)))


def test_sparse_input_refuses_nan():
    X, y, _ = sparse_data(5)
    X[0, 0] = np.nan
    with pytest.raises(ValueError):
        C45().fit(sp.csr_matrix(X), y)


def test_sparse_view_stores_only_the_non_zeros():
    # the grower's cost follows the stored entries: for sparse input, the non-zeros only
    from weightboost.c45.data import prepare

    X, _, _ = sparse_data(5)
    view = prepare(sp.csr_matrix(X)).view
    assert view.implicit_zero and len(view.vals) == np.count_nonzero(X)
    dense_view = prepare(X).view
    assert not dense_view.implicit_zero and len(dense_view.vals) == X.size
