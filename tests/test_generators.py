"""The Long-Servedio distribution (weightboost.data.generators): the structure that makes it the
barrier's example, checked point by point and in its proportions."""

import numpy as np
import pytest

from weightboost.data.generators import (LS_FEATURES, LS_FIRST, long_servedio,
                                         long_servedio_points)


@pytest.fixture(scope="module")
def points():
    return long_servedio_points(40_000, np.random.default_rng(7))


def test_every_feature_is_a_sign_and_the_majority_vote_is_the_label(points):
    X, y, _ = points
    assert set(np.unique(X)) == {-1, 1} and set(np.unique(y)) == {-1, 1}
    assert X.shape == (40_000, LS_FEATURES)
    assert np.array_equal(np.sign(X.sum(axis=1)), y)


def test_each_kind_agrees_with_the_label_where_its_definition_says(points):
    X, y, kind = points
    agree = X == y[:, None]
    assert agree[kind == 0].all()                                          # large margin
    assert agree[kind == 1, :LS_FIRST].all() and not agree[kind == 1, LS_FIRST:].any()
    penalizer = agree[kind == 2]
    assert (penalizer[:, :LS_FIRST].sum(axis=1) == 5).all()
    assert (penalizer[:, LS_FIRST:].sum(axis=1) == 6).all()


def test_the_kinds_labels_and_chosen_features_have_their_probabilities(points):
    X, y, kind = points
    n = len(y)
    assert np.bincount(kind) / n == pytest.approx([0.25, 0.25, 0.5], abs=0.01)
    assert np.mean(y == 1) == pytest.approx(0.5, abs=0.01)
    agree = X == y[:, None]
    # a penalizer's agreeing features are uniform within each block
    pen = agree[kind == 2]
    assert pen[:, :LS_FIRST].mean(axis=0) == pytest.approx(np.full(LS_FIRST, 5 / 11), abs=0.02)
    assert pen[:, LS_FIRST:].mean(axis=0) == pytest.approx(np.full(10, 6 / 10), abs=0.02)
    # so each coordinate alone, a decision stump, is right on 1/4 + 1/4 + 5/22 of the points
    # (features 1-11) or 1/4 + 0 + 3/10 (features 12-21): no single stump is near the vote
    accuracy = agree.mean(axis=0)
    assert accuracy[:LS_FIRST] == pytest.approx(np.full(LS_FIRST, 0.5 + 5 / 22), abs=0.01)
    assert accuracy[LS_FIRST:] == pytest.approx(np.full(10, 0.25 + 0.3), abs=0.01)


def test_the_table_is_the_points_of_the_same_generator():
    X, y = long_servedio(500, np.random.default_rng(3))
    points, labels, _ = long_servedio_points(500, np.random.default_rng(3))
    assert list(X.columns) == [f"x{j}" for j in range(1, 22)]
    assert np.array_equal(X.to_numpy(), points) and np.array_equal(y, labels)
    again, _ = long_servedio(500, np.random.default_rng(3))
    assert again.equals(X)
