"""Tree-level properties of C4.5 that a wrong implementation would break."""

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import DataConversionWarning

from weightboost.c45 import C45, prepare
from weightboost.c45.criteria import estimated_errors, z_for_confidence
from weightboost.c45.tree import ATTR, FIRST, NCHILD, THRESH

OUTLOOK = "sunny sunny overcast rainy rainy rainy overcast sunny sunny rainy sunny overcast " \
          "overcast rainy".split()
TEMPERATURE = [85, 80, 83, 70, 68, 65, 64, 72, 69, 75, 75, 72, 81, 71]
HUMIDITY = [85, 90, 86, 96, 80, 70, 65, 95, 70, 80, 70, 90, 75, 91]
WINDY = "f t f f f t t f f f t t f t".split()
PLAY = "no no yes yes yes no yes no yes yes yes yes yes no".split()


def golf(numeric: bool):
    frame = pd.DataFrame({"outlook": pd.Categorical(OUTLOOK),
                          "temperature": TEMPERATURE, "humidity": HUMIDITY,
                          "windy": pd.Categorical(WINDY)})
    if not numeric:
        frame["temperature"] = pd.Categorical(
            np.where(np.array(TEMPERATURE) > 75, "hot", "mild"))
        frame["humidity"] = pd.Categorical(
            np.where(np.array(HUMIDITY) > 75, "high", "normal"))
    return frame, np.array(PLAY)


def test_golf_gives_quinlans_tree():
    X, y = golf(numeric=False)
    assert C45().fit(X, y).export_text() == "\n".join([
        "outlook = overcast: yes (4/0)",
        "outlook = rainy",
        "|   windy = f: yes (3/0)",
        "|   windy = t: no (2/0)",
        "outlook = sunny",
        "|   humidity = high: no (3/0)",
        "|   humidity = normal: yes (2/0)",
    ])


def test_numeric_golf_moves_the_threshold_to_a_training_value():
    X, y = golf(numeric=True)
    text = C45().fit(X, y).export_text()
    # J48 on weather.numeric: the midpoint 77.5 between 75 and 80 becomes the value 75
    assert "humidity <= 75: yes (2/0)" in text and "humidity > 75: no (3/0)" in text


def random_data(seed, n=300, d=5, nominal=False, noise=0.2):
    rng = np.random.default_rng(seed)
    if nominal:
        X = rng.integers(0, 3, size=(n, d)).astype(float)
        score = (X[:, 0] == 1) + (X[:, 1] == 2) * 0.8
    else:
        X = rng.normal(size=(n, d))
        score = X[:, 0] + 0.5 * X[:, 1] ** 2
    y = (score > np.median(score)).astype(int)
    flip = rng.random(n) < noise
    y[flip] = 1 - y[flip]
    return X, y


def same_tree(a: C45, b: C45):
    ta, tb = a.tree_, b.tree_
    return (np.array_equal(ta.node_int, tb.node_int)
            and np.allclose(ta.node_float, tb.node_float, rtol=0, atol=1e-9)
            and np.allclose(ta.dist, tb.dist, rtol=1e-12, atol=1e-9))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_integer_weights_equal_duplicated_rows(seed):
    # Exact for nominal attributes; numeric splits also count instances (J48's rule "no split
    # with fewer than 2·minSplit known instances"), which duplication changes and weights don't.
    X, y = random_data(seed, n=120, nominal=True)
    counts = np.random.default_rng(seed + 10).integers(1, 4, size=len(y))
    nominal = list(range(X.shape[1]))
    weighted = C45(nominal_features=nominal).fit(X, y, sample_weight=counts.astype(float))
    duplicated = C45(nominal_features=nominal).fit(np.repeat(X, counts, axis=0),
                                                   np.repeat(y, counts))
    assert same_tree(weighted, duplicated)
    assert weighted.tree_.node_count > 3  # a real tree, not a stump


def test_missing_values_become_fractional_instances():
    colour = ["red"] * 4 + ["blue"] * 4 + [None]
    label = ["yes"] * 4 + ["no"] * 4 + ["yes"]
    X = pd.DataFrame({"colour": pd.Categorical(colour, categories=["blue", "red"])})
    model = C45().fit(X, label)
    t = model.tree_
    assert t.node_int[0, NCHILD] == 2
    first = t.node_int[0, FIRST]
    # classes_ = [no, yes]; the missing row goes to both branches with weight 4/8 = 0.5
    np.testing.assert_allclose(t.dist[first], [4.0, 0.5])       # blue
    np.testing.assert_allclose(t.dist[first + 1], [0.0, 4.5])   # red
    np.testing.assert_allclose(t.dist[0], [4.0, 5.0])
    proba = model.predict_proba(pd.DataFrame({"colour": pd.Categorical(
        [None, "red", "blue"], categories=["blue", "red"])}))
    np.testing.assert_allclose(proba[0], 0.5 * np.array([4.0, 0.5]) / 4.5
                               + 0.5 * np.array([0.0, 1.0]))
    np.testing.assert_allclose(proba[1], [0.0, 1.0])
    np.testing.assert_allclose(proba[2], [4 / 4.5, 0.5 / 4.5])


def test_nominal_split_is_multiway_and_empty_branch_uses_parent_distribution():
    shape = ["round"] * 5 + ["square"] * 5 + ["flat"] * 5
    label = [1] * 5 + [0] * 5 + [1, 1, 1, 1, 0]
    categories = ["flat", "round", "square", "star"]  # "star" never occurs in training
    X = pd.DataFrame({"shape": pd.Categorical(shape, categories=categories)})
    model = C45(pruning=False).fit(X, label)
    t = model.tree_
    assert t.node_int[0, NCHILD] == 4
    assert bool(t.empty[t.node_int[0, FIRST] + 3])
    star = pd.DataFrame({"shape": pd.Categorical(["star"], categories=categories)})
    np.testing.assert_allclose(model.predict_proba(star)[0], [6 / 15, 9 / 15])


def leaf_ids(tree, k=0):
    if tree.node_int[k, NCHILD] <= 0:
        return [k]
    first = tree.node_int[k, FIRST]
    return [leaf for c in range(tree.node_int[k, NCHILD]) for leaf in leaf_ids(tree, first + c)]


def tree_estimate(tree, k=0, cf=0.25):
    z = z_for_confidence(cf)
    return sum(estimated_errors(tree.dist[j], cf, z) for j in leaf_ids(tree, k))


def noisy_nominal(seed, n=600, d=6, noise=0.25):
    """Data on which an unpruned tree overfits badly (~250 nodes, pruned ~15)."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, size=(n, d)).astype(float)
    score = (X[:, 0] >= 2).astype(float) + (X[:, 1] == 1) + 0.5 * (X[:, 2] == 3)
    y = (score >= 1).astype(int)
    flip = rng.random(n) < noise
    y[flip] = 1 - y[flip]
    return X, y


NOMINAL6 = list(range(6))


@pytest.mark.parametrize("seed", range(4))
def test_pruned_tree_is_a_fixpoint_of_the_pruning_rule(seed):
    # Without subtree raising, a node survives pruning only if turning it into a leaf would
    # raise the estimated error by more than J48's 0.1 slack.
    X, y = noisy_nominal(seed)
    tree = C45(subtree_raising=False, nominal_features=NOMINAL6).fit(X, y).tree_
    z = z_for_confidence(0.25)
    internal = [k for k in range(tree.node_count) if tree.node_int[k, NCHILD] > 0]
    assert internal
    for k in internal:
        assert estimated_errors(tree.dist[k], 0.25, z) > tree_estimate(tree, k) + 0.1 - 1e-6


@pytest.mark.parametrize("seed", range(4))
def test_pruning_lowers_the_estimated_error(seed):
    X, y = noisy_nominal(seed)
    unpruned = C45(pruning=False, nominal_features=NOMINAL6).fit(X, y).tree_
    pruned = C45(nominal_features=NOMINAL6).fit(X, y).tree_
    assert pruned.node_count < unpruned.node_count / 5
    removed = unpruned.node_count - pruned.node_count
    # each pruning decision may accept up to 0.1 more estimated errors (J48's tolerance)
    assert tree_estimate(pruned) <= tree_estimate(unpruned) + 0.1 * removed
    assert tree_estimate(pruned) < tree_estimate(unpruned)


@pytest.mark.parametrize("seed", range(4))
def test_unpruned_tree_fits_training_data_at_least_as_well(seed):
    X, y = noisy_nominal(seed)
    w = np.random.default_rng(seed).exponential(size=len(y))
    errors = {}
    for pruning in (True, False):
        model = C45(pruning=pruning, nominal_features=NOMINAL6).fit(X, y, sample_weight=w)
        errors[pruning] = np.sum(w * (model.predict(X) != y))
    assert errors[False] < errors[True]


def xor_data(seed, n=435, d=5, noise=0.2):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = ((X[:, 0] > 0) ^ (X[:, 1] > 0.5 * rng.normal())).astype(int)
    flip = rng.random(n) < noise
    y[flip] = 1 - y[flip]
    return X, y


def test_subtree_raising_redistributes_the_node_data():
    # On this sample J48's subtree raising replaces a node by its largest branch (7 nodes
    # instead of 11). After raising, the raised subtree holds *all* of the node's data: every
    # node's class weights are the sum of its children's, down to the leaves.
    X, y = xor_data(9, n=435, noise=0.2)
    X[::11, 1] = np.nan  # fractional instances must be conserved too
    raised = C45().fit(X, y).tree_
    plain = C45(subtree_raising=False).fit(X, y).tree_
    assert raised.node_count < plain.node_count
    np.testing.assert_allclose(raised.dist[0], np.bincount(y).astype(float))
    for k in range(raised.node_count):
        if raised.node_int[k, NCHILD] > 0:
            first = raised.node_int[k, FIRST]
            children = raised.dist[first:first + raised.node_int[k, NCHILD]].sum(axis=0)
            np.testing.assert_allclose(children, raised.dist[k], rtol=1e-9, atol=1e-6)


def test_identical_input_gives_identical_tree():
    X, y = random_data(5, noise=0.3)
    X[::7, 2] = np.nan
    w = np.random.default_rng(3).exponential(size=len(y))
    a = C45().fit(X, y, sample_weight=w)
    b = C45().fit(prepare(X), y, sample_weight=w)
    assert same_tree(a, b)
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))


def test_prepared_input_is_not_modified_across_fits():
    X, y = random_data(6)
    data = prepare(X)
    before = [np.copy(array) for array in data.view]
    for seed in range(3):
        C45().fit(data, y, sample_weight=np.random.default_rng(seed).exponential(size=len(y)))
    for old, new in zip(before, data.view):
        np.testing.assert_array_equal(old, new)


def test_labels_may_be_any_two_values_and_weights_are_honoured():
    X, y = random_data(7)
    labels = np.where(y == 1, "spam", "ham")
    model = C45().fit(X, labels)
    assert set(model.predict(X)) <= {"spam", "ham"}
    # a single dominant weight decides a leaf
    w = np.ones(len(y))
    w[0] = 1e6
    heavy = C45().fit(X, labels, sample_weight=w)
    assert heavy.predict(X[:1])[0] == labels[0]


def test_integer_string_and_float_labels_give_one_tree_and_continuous_ones_are_refused():
    # integer and boolean labels skip scikit-learn's target checks (they cannot fail on them)
    X, y = noisy_nominal(11)
    trees = [C45(nominal_features=NOMINAL6).fit(X, labels).tree_
             for labels in (y, y.astype(bool), y.astype(float), np.where(y == 1, "b", "a"))]
    for tree in trees[1:]:
        assert np.array_equal(tree.node_int, trees[0].node_int)
        assert np.array_equal(tree.dist, trees[0].dist)
    with pytest.raises(ValueError, match="Unknown label type"):
        C45().fit(X, y + 0.5 * np.arange(len(y)) / len(y))
    with pytest.warns(DataConversionWarning):
        C45().fit(X, y.reshape(-1, 1))


def test_numeric_nominal_columns_are_coded_by_their_sorted_distinct_values():
    X = np.array([[5.0, 1.0], [np.nan, 0.0], [-1.0, 1.0], [5.0, 0.0], [2.5, np.nan]])
    data = prepare(X, nominal_features=[0, 1])
    assert data.categories == ((-1.0, 2.5, 5.0), (0.0, 1.0))
    assert np.array_equal(data.X, [[2, 1], [np.nan, 0], [0, 1], [2, 0], [1, np.nan]],
                          equal_nan=True)
    assert data.n_values.tolist() == [3, 2]

    # at random, with -0.0 beside 0.0 (one value) and missing values: numpy's distinct values
    rng = np.random.default_rng(8)
    X = rng.choice([0.0, -0.0, 1.5, -3.0, np.nan, 7.0, 1e300], size=(300, 4))
    data = prepare(X, nominal_features=[0, 1, 2, 3])
    for j in range(4):
        known = ~np.isnan(X[:, j])
        values, index = np.unique(X[known, j], return_inverse=True)
        assert data.categories[j] == tuple(values.tolist())
        np.testing.assert_array_equal(data.X[known, j], index)
        assert np.isnan(data.X[~known, j]).all()


def test_min_instances_and_confidence_change_the_tree():
    X, y = noisy_nominal(8)
    sizes = [C45(min_instances=m, pruning=False, nominal_features=NOMINAL6).fit(X, y)
             .tree_.node_count for m in (2, 10, 40)]
    assert sizes[0] > sizes[1] > sizes[2]
    cf = [C45(confidence=c, nominal_features=NOMINAL6).fit(X, y).tree_.node_count
          for c in (0.05, 0.5)]
    assert cf[0] < cf[1]


def test_bad_parameters_and_weights_are_refused():
    X, y = random_data(9, n=20)
    with pytest.raises(ValueError, match="confidence"):
        C45(confidence=0.7).fit(X, y)
    for bad, message in [(-np.ones(len(y)), "non-negative"), (np.zeros(len(y)), "sums to zero")]:
        with pytest.raises(ValueError, match=message):
            C45().fit(X, y, sample_weight=bad)
    for value in (np.nan, np.inf, -1e-300):  # one bad weight among good ones
        weights = np.ones(len(y))
        weights[7] = value
        with pytest.raises(ValueError, match="finite and non-negative"):
            C45().fit(X, y, sample_weight=weights)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32,
                                   np.uint64])
def test_class_index_is_numpys_unique(dtype):
    # integer labels of a small range are counted, not sorted: the same classes (and dtype)
    # and indices as np.unique, at the extremes of the type and beyond the counted range
    from weightboost.c45.estimator import class_index

    info = np.iinfo(dtype)
    rng = np.random.default_rng(4)
    cases = [np.array([info.max, info.min, info.max], dtype=dtype),          # wide: sorted
             rng.integers(0, 7, 300).astype(dtype),
             (np.full(40, info.max, dtype=dtype) - rng.integers(0, 3, 40).astype(dtype)),
             np.array([5], dtype=dtype), np.zeros(0, dtype=dtype)]
    for y in cases:
        classes, index = class_index(y)
        expected_classes, expected_index = np.unique(y, return_inverse=True)
        assert classes.dtype == expected_classes.dtype
        np.testing.assert_array_equal(classes, expected_classes)
        np.testing.assert_array_equal(index, expected_index)


def test_bad_arrays_are_refused_on_the_fast_path_too():
    # a 2-d float64 array skips scikit-learn's checks: what they would refuse still is
    X, y = random_data(9, n=20)
    bad = X.copy()
    bad[3, 1] = np.inf
    with pytest.raises(ValueError, match="infinite"):
        C45().fit(bad, y)
    with pytest.raises(ValueError, match="0 sample"):
        C45().fit(X[:0], y[:0])
    with pytest.raises(ValueError, match="0 feature"):
        C45().fit(X[:, :0], y)
    with pytest.raises(ValueError, match="2D array"):
        C45().fit(X[:, 0], y)
    fast = C45().fit(X, y).tree_
    checked = C45().fit(X.tolist(), y).tree_  # a list goes through the checks
    assert np.array_equal(fast.node_int, checked.node_int) and np.array_equal(fast.dist,
                                                                              checked.dist)

def route_from_root(tree, X, y, n_classes=2):
    """Class weights of every node when the unit-weight training data is sent down ``tree``
    from the root with J48's rule: each split's shares are the known values' shares of the
    data reaching it (equal shares when none is known); an instance with a missing value goes
    to every branch whose share exceeds 1e-6, weighted by the share."""
    dist = np.zeros((tree.node_count, n_classes))

    def send(k, rows, w):
        np.add.at(dist[k], y[rows], w)
        if tree.node_int[k, NCHILD] <= 0:
            return
        a, first, n_b = (tree.node_int[k, ATTR], tree.node_int[k, FIRST],
                         tree.node_int[k, NCHILD])
        x = X[rows, a]
        branch = np.where(np.isnan(x), -1, (x > tree.node_float[k, THRESH]).astype(int))
        known = np.array([w[branch == b].sum() for b in range(n_b)])
        share = known / known.sum() if known.sum() > 1e-6 else np.full(n_b, 1.0 / n_b)
        for b in range(n_b):
            take = (branch == b) | ((branch < 0) & (share[b] > 1e-6))
            send(first + b, rows[take], np.where(branch[take] < 0, share[b], 1.0) * w[take])

    send(0, np.arange(len(y)), np.ones(len(y)))
    return dist


@pytest.mark.parametrize("seed, step", [(5, 11), (6, 11), (9, 13), (23, 17)])
def test_raised_subtrees_spread_missing_values_by_the_new_datas_known_shares(seed, step):
    # J48 3.6 (C45Split.resetDistribution): when a raised subtree receives its new data, each
    # split spreads the instances with a missing value by the known values' shares of that
    # data. Growing uses the same rule, so every node of the pruned tree holds exactly what
    # routing the training data from the root gives. Spreading them by the split's old
    # shares (our first implementation) breaks this wherever a raise meets missing values.
    X, y = xor_data(seed, n=435, noise=0.2)
    X[::step, 1] = np.nan
    X[3::step, 0] = np.nan
    raised = C45().fit(X, y).tree_
    assert raised.node_count < C45(subtree_raising=False).fit(X, y).tree_.node_count
    np.testing.assert_allclose(raised.dist, route_from_root(raised, X, y), rtol=0, atol=1e-9)


# A node whose two branches weigh 22 each, counted as (x0, x1, x2, x3, label): rows.
TIED_BRANCHES = {
    (1, 1, 1, 1, 1): 6, (1, 1, 1, 0, 1): 4, (0, 0, 0, 1, 0): 3, (1, 1, 1, 1, 0): 2,
    (0, 1, 1, 1, 1): 2, (1, 0, 1, 1, 1): 2, (1, 0, 0, 0, 1): 2, (1, 0, 1, 0, 1): 2,
    (1, 1, 0, 0, 1): 2, (1, 1, 0, 0, 0): 2, (0, 1, 0, 1, 1): 2, (0, 1, 0, 1, 0): 2,
    (1, 0, 0, 0, 0): 2, (0, 0, 0, 0, 0): 2, (0, 1, 1, 0, 1): 2, (0, 1, 0, 0, 1): 2,
    (1, 0, 0, 1, 1): 2, (0, 0, 1, 0, 0): 1, (0, 0, 1, 0, 1): 1, (0, 0, 0, 1, 1): 1,
}


def test_a_tie_for_the_largest_branch_goes_to_the_last_branch():
    # The root splits on x2 into two branches of 22 instances. J48's Distribution.maxBag
    # (a >= comparison) makes the *last* of equally heavy branches the candidate for subtree
    # raising: here the leaf "x2 = 1", which cannot replace the root, so the root stays. The
    # first branch "x2 = 0" would be raised and give a tree rooted at x0.
    rows = np.array([r for r, count in TIED_BRANCHES.items() for _ in range(count)], float)
    X, y = rows[:, :4], rows[:, 4].astype(int)
    model = C45(nominal_features=[0, 1, 2, 3]).fit(X, y)
    first = model.tree_.node_int[0, FIRST]
    assert model.tree_.node_int[0, ATTR] == 2
    np.testing.assert_allclose(model.tree_.dist[[first, first + 1]].sum(axis=1), [22, 22])
    assert model.export_text() == "\n".join([
        "2 = 0.0",
        "|   0 = 0.0",
        "|   |   1 = 0.0: 0 (6/1)",
        "|   |   1 = 1.0: 1 (6/2)",
        "|   0 = 1.0: 1 (10/4)",
        "2 = 1.0: 1 (22/3)",
    ])


@pytest.mark.parametrize("seed", [1, 3, 4])
def test_largest_branch_errors_from_its_siblings_alone_equal_routing_the_whole_node(seed):
    # Without missing values the largest branch's own instances reach the leaves they were
    # grown into, so pruning routes only the other branches' instances down it
    # (prune._other_branches, walked to the grown leaves by prune._errors_for_added_known).
    # At every node of an unpruned weighted tree this must give the errors of routing all the
    # node's instances.
    from weightboost.c45 import grow as grow_module, prune as prune_module
    from weightboost.c45.tree import GrowSettings
    X, y = xor_data(seed, n=600, noise=0.25)
    X[:, 3] = np.round(X[:, 3])  # ties and a few-valued attribute
    w = np.random.default_rng(seed).exponential(size=len(y))
    data = prepare(X)
    tree = grow_module.grow(data.view, y.astype(np.int64), 2, w, GrowSettings(2.0, True))
    node_int, node_float, _, dist, inst, store_rows, store_w = tree
    cf = 0.25
    z = z_for_confidence(cf)
    checked = 0
    for k in range(len(node_int)):
        if node_int[k, NCHILD] <= 0:
            continue
        first, n_children = node_int[k, FIRST], node_int[k, NCHILD]
        largest = prune_module.largest_branch(node_float, dist, k, first, n_children)
        walk = np.empty(len(node_int), dtype=np.int64)
        assert prune_module._all_known(data.missing, node_int, k, largest, walk)
        start, length = inst[k]
        full = prune_module._send_down(
            data.view.XT, data.view.nominal, y.astype(np.int64), tree, largest,
            store_rows[start:start + length], store_w[start:start + length], cf, z, False,
            np.full(len(node_int), np.nan), len(store_rows),
            np.empty(0, dtype=np.int32), np.empty(0),  # a work store that must grow
            prune_module.make_route_work(data.view, 2, len(node_int)))[0]
        others, others_w = prune_module._other_branches(node_int, inst, store_rows, store_w, k,
                                                        largest)
        reached, added = np.zeros(len(node_int), dtype=np.int64), np.zeros((len(node_int), 2))
        known = prune_module._errors_for_added_known(
            data.view, y.astype(np.int64), node_int, node_float, dist, largest, others,
            others_w, cf, z, reached, added, np.full(len(node_int), np.nan), walk)
        assert known == pytest.approx(full, rel=1e-12, abs=1e-12)
        assert not reached.any() and not added.any()  # left clean for the next node
        checked += 1
    assert checked > 10
    # a missing value in any split on the way (the node's own or one below) rules it out
    X[0, node_int[0, ATTR]] = np.nan
    assert not prune_module._all_known(prepare(X).missing, node_int, 0, node_int[0, FIRST],
                                       np.empty(len(node_int), dtype=np.int64))


def test_predictions_do_not_depend_on_how_the_rows_are_laid_out():
    # Training rows are read attribute-major (prepared data, boosting's every round) and
    # encoded test rows in Fortran order; a plain array row-major. Same bits from all three.
    X, y = xor_data(7, n=500, noise=0.2)
    X[::9, 0] = np.nan
    X[::7, 1] = np.nan
    data = prepare(X)
    model = C45().fit(data, y, sample_weight=np.random.default_rng(7).exponential(size=len(y)))
    plain = model.predict_proba(np.ascontiguousarray(X))
    encoded = model.encode(X)
    assert encoded.X.flags.f_contiguous
    assert np.array_equal(model.predict_proba(data), plain)
    assert np.array_equal(model.predict_proba(encoded), plain)
    assert np.array_equal(model._predict_training(data), model.predict(X))
    assert np.array_equal(model.apply(data), model.apply(X))


@pytest.mark.parametrize("n_classes", [2, 3])
def test_predict_is_the_first_argmax_of_predict_proba(n_classes):
    # predict runs a kernel of its own (predict.most_probable) rather than predict_proba; it
    # must pick the same class on every row. The fitted tree's leaves are edited so that all
    # the cases occur: tied class weights (the first wins), a leaf with no weight (the row
    # gets the root's distribution), missing values spread over several leaves.
    rng = np.random.default_rng(n_classes)
    X = np.column_stack([rng.integers(0, 4, size=400), rng.normal(size=(400, 3))])
    y = (X[:, 0].astype(int) + (X[:, 1] > 0)) % n_classes
    noisy = rng.random(400) < 0.3
    y[noisy] = rng.integers(0, n_classes, size=noisy.sum())
    X[rng.random(400) < 0.1, 1] = np.nan
    model = C45(nominal_features=[0], min_instances=1, pruning=False, collapse=False).fit(X, y)
    leaves = np.flatnonzero(model.tree_.node_int[:, NCHILD] <= 0)
    assert len(leaves) > 8
    tie = np.array([2.0, 2.0, 1.0][:n_classes])
    for k in leaves[::2]:
        model.tree_.dist[k] = tie[::-1] if k % 2 else tie
    model.tree_.dist[leaves[1]] = 0.0
    test = np.column_stack([rng.integers(0, 6, size=2000), rng.normal(size=(2000, 3))])
    test[rng.random(2000) < 0.2, 1] = np.nan
    proba = model.predict_proba(test)
    top = np.sort(proba, axis=1)
    assert (top[:, -1] == top[:, -2]).sum() > 20  # ties, where a wrong order would show
    assert (proba == model.tree_.dist[0] / model.tree_.dist[0].sum()).all(axis=1).any()
    np.testing.assert_array_equal(model.predict(test), model.classes_[np.argmax(proba, axis=1)])
