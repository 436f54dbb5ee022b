"""The sparse path grows exactly the tree of the dense path (one grower, weightboost.c45.grow),
and an attribute grows the same tree whether its zeros are stored or not."""

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
    assert view.implicit_zero.all() and len(view.vals) == np.count_nonzero(X)


def test_dense_input_stores_zero_heavy_attributes_sparsely():
    # a dense attribute without missing values and at least half zeros stores its non-zeros;
    # one with a missing value, or mostly non-zero, stores every known value
    from weightboost.c45.data import prepare

    X, _, _ = sparse_data(6, d=4)
    X[:, 1] += 5.0                      # mostly non-zero
    X[0, 2] = np.nan                    # zero heavy, but with a missing value
    view = prepare(X).view
    np.testing.assert_array_equal(view.implicit_zero, [True, False, False, True])
    np.testing.assert_array_equal(np.diff(view.ptr), [np.count_nonzero(X[:, 0]), len(X),
                                                      len(X) - 1, np.count_nonzero(X[:, 3])])


@pytest.mark.parametrize("seed", [7, 8])
def test_storing_zeros_or_not_grows_the_same_tree(seed):
    # the same dense data with every attribute storing its known values, or its non-zeros
    import dataclasses

    from weightboost.c45.data import _dense_view, prepare, take_rows

    X, y, w = sparse_data(seed, nonnegative=seed % 2 == 0)
    implicit = prepare(X)
    assert implicit.view.implicit_zero.all()
    explicit = dataclasses.replace(implicit, view=_dense_view(
        implicit.XT, implicit.nominal, implicit.n_values, np.zeros(X.shape[1], dtype=bool))[0])
    assert len(explicit.view.vals) == X.size > 2 * len(implicit.view.vals)
    rows = np.sort(np.random.default_rng(seed).integers(0, len(y), size=len(y)))
    for a, b, ya, wa in [(implicit, explicit, y, w),
                         (take_rows(implicit, rows), take_rows(explicit, rows), y[rows], None)]:
        ta = C45().fit(a, ya, sample_weight=wa).tree_
        tb = C45().fit(b, ya, sample_weight=wa).tree_
        assert ta.node_count > 10
        np.testing.assert_array_equal(ta.node_int, tb.node_int)
        np.testing.assert_array_equal(ta.node_float, tb.node_float)
        np.testing.assert_allclose(ta.dist, tb.dist, atol=1e-9)


@pytest.mark.parametrize("shortfall, splits", [(0.0, True), (0.5e-6, True), (1.5e-6, False),
                                               (3e-6, False), (1.0, False)])
def test_stored_entries_lighter_than_min_split_give_no_cut_either_way(shortfall, splits):
    # 95 zeros of weight 1 and 5 non-zeros weighing 5 - shortfall: minSplit = 0.1·W/2 =
    # 5 - shortfall/20, and the cut between the zeros and the non-zeros is valid if the
    # non-zeros weigh more than minSplit - 1e-6 (J48's tolerance), i.e. shortfall < 1.05e-6.
    # Storing only the non-zeros lets numeric_splits skip the attribute by their weight alone
    # (with a margin of 2e-6, or by 5 × the heaviest weight): it must decide as the scan over
    # stored zeros decides
    import dataclasses

    from weightboost.c45.data import _dense_view, prepare

    X = np.zeros((100, 1))
    X[:5, 0] = [1.0, 2.0, 3.0, 4.0, 5.0]
    y = (X[:, 0] > 0).astype(int)
    w = np.ones(100)
    w[:5] = (5.0 - shortfall) / 5
    implicit = prepare(X)
    assert implicit.view.implicit_zero.all()
    explicit = dataclasses.replace(implicit, view=_dense_view(
        implicit.XT, implicit.nominal, implicit.n_values, np.zeros(1, dtype=bool))[0])
    trees = [C45(pruning=False).fit(data, y, sample_weight=w).tree_ for data in
             (implicit, explicit)]
    assert [t.node_count > 1 for t in trees] == [splits, splits]
    np.testing.assert_array_equal(trees[0].node_int, trees[1].node_int)


def test_stored_entries_are_the_stable_sort_of_each_attribute_filtered():
    # The grower relies on the presorted entries being sorted by value with ties in row order
    # (J48 scans instances in a stable sort): each numeric attribute's known values, or its
    # non-zeros when it stores only those. Ties, -0.0 beside 0.0 and NaN included; whole
    # numbers of a narrow range (sorted by counting) and of a wide one (sorted by numpy).
    from weightboost.c45.data import prepare

    rng = np.random.default_rng(5)
    for k in range(40):
        n, d = int(rng.integers(1, 300)), int(rng.integers(1, 6))
        X = np.round(rng.normal(size=(n, d)) * 10.0 ** rng.integers(0, 4, size=d),
                     int(rng.integers(0, 2)))
        X[rng.random((n, d)) < 0.4] = 0.0
        X[rng.random((n, d)) < 0.1] = -0.0
        if k % 2:
            X[rng.random((n, d)) < 0.1] = np.nan
        view = prepare(X).view
        for s in range(d):
            order = np.argsort(X[:, s], kind="stable")
            keep = ~np.isnan(X[order, s])
            if view.implicit_zero[s]:
                keep &= X[order, s] != 0.0
            lo, hi = view.ptr[s], view.ptr[s + 1]
            np.testing.assert_array_equal(view.rows[lo:hi], order[keep])
            assert view.vals[lo:hi].tobytes() == X[order[keep], s].tobytes()


def test_presort_orders_values_that_differ_only_in_their_last_bits():
    # The dense presort sorts each value's order key with its low bits replaced by its row
    # (data._dense_view): neighbouring floats (a few ulps apart) then tie in the sorted
    # keys and must be put in order afterwards, ties of equal values staying in row order.
    from weightboost.c45.data import _dense_view

    rng = np.random.default_rng(3)
    for _ in range(60):
        n, d = int(rng.integers(1, 3000)), int(rng.integers(1, 4))
        values = rng.choice([1.0, -2.5, 0.0, 1e-310, 3.0], size=(d, n))
        for _ in range(3):  # up to 3 ulps either way
            step = rng.integers(-1, 2, size=(d, n))
            values = np.where(step > 0, np.nextafter(values, np.inf),
                              np.where(step < 0, np.nextafter(values, -np.inf), values))
        values[rng.random((d, n)) < 0.1] = -0.0
        values[rng.random((d, n)) < 0.1] = np.nan
        implicit_zero = (rng.random(d) < 0.5) & ~np.isnan(values).any(axis=1)
        view, _ = _dense_view(values, np.zeros(d, dtype=bool), np.zeros(d, dtype=np.int64),
                              implicit_zero)
        ptr, rows, vals = view.ptr, view.rows, view.vals
        for s in range(d):
            order = np.argsort(values[s], kind="stable")
            keep = ~np.isnan(values[s, order])
            if implicit_zero[s]:
                keep &= values[s, order] != 0.0
            np.testing.assert_array_equal(rows[ptr[s]:ptr[s + 1]], order[keep])
            assert vals[ptr[s]:ptr[s + 1]].tobytes() == values[s, order[keep]].tobytes()


@pytest.mark.parametrize("kind", ["pool", "spread", "rounded"])
def test_sort_segments_is_a_stable_sort_of_every_segment(kind):
    # the presort of dense and sparse input alike (a radix sort of the values' bits): the order
    # of a stable comparison sort, in which -0.0 and 0.0 tie, for values sharing all, some or
    # none of their bytes: signs, subnormals, huge values, empty and one-entry segments
    from weightboost.c45.data import sort_segments

    rng = np.random.default_rng(11)
    pool = np.array([0.0, -0.0, 1e-310, -1e-310, 5e-324, 1.0, -1.0, 2.5, 1e300, -1e300, 0.1,
                     0.2, 0.30000000000000004, 0.3, -0.3])
    for _ in range(200):
        sizes = rng.integers(0, 120, int(rng.integers(1, 5)))
        ptr = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        n = int(ptr[-1])
        vals = {"pool": lambda: rng.choice(pool, n),
                "spread": lambda: rng.normal(size=n) * 10.0 ** rng.integers(-300, 300, n),
                "rounded": lambda: np.round(rng.normal(size=n), 1)}[kind]()
        rows = rng.permutation(n).astype(np.int32)
        sorted_rows, sorted_vals = rows.copy(), vals.copy()
        sort_segments(ptr, sorted_rows, sorted_vals)
        for s in range(len(ptr) - 1):
            lo, hi = ptr[s], ptr[s + 1]
            order = np.argsort(vals[lo:hi], kind="stable")
            np.testing.assert_array_equal(sorted_rows[lo:hi], rows[lo:hi][order])
            assert sorted_vals[lo:hi].tobytes() == vals[lo:hi][order].tobytes()


def test_sparse_entries_are_the_stable_sort_of_each_column():
    from weightboost.c45.data import prepare

    X, _, _ = sparse_data(7)
    X[::7, 3] = 0.5  # ties
    view = prepare(sp.csr_matrix(X)).view
    for s in range(X.shape[1]):
        order = np.argsort(X[:, s], kind="stable")
        order = order[X[order, s] != 0.0]
        lo, hi = view.ptr[s], view.ptr[s + 1]
        np.testing.assert_array_equal(view.rows[lo:hi], order)
        assert view.vals[lo:hi].tobytes() == X[order, s].tobytes()


def test_a_draw_of_sparse_data_is_the_sparse_data_of_the_drawn_rows():
    # take_rows writes a sparse draw's stored entries into zeros instead of copying every value
    from weightboost.c45.data import prepare, take_rows

    X, _, _ = sparse_data(5)
    data = prepare(sp.csr_matrix(X))
    assert data.is_sparse
    rows = np.sort(np.random.default_rng(5).integers(0, X.shape[0], size=X.shape[0]))
    drawn, direct = take_rows(data, rows), prepare(sp.csr_matrix(X[rows]))
    np.testing.assert_array_equal(drawn.XT, direct.XT)
    assert drawn.XT.flags.c_contiguous and not drawn.missing.any()
    for field in ("num_slot", "ptr", "rows", "vals", "implicit_zero"):
        np.testing.assert_array_equal(getattr(drawn.view, field), getattr(direct.view, field))
