"""Fidelity against Weka's J48 on the real Pima data (needs the data mirror).

Weka 3's J48 on diabetes.arff is widely published: unpruned (``-U``) it has 22 leaves and 43
nodes; pruned (defaults) 20 leaves and 39 nodes. The unpruned tree below is Weka's printed
output, leaf by leaf: (split attribute sequence in depth-first order, leaf weights/errors)."""

import numpy as np
import pytest

from weightboost.c45 import C45
from weightboost.c45.tree import ATTR, FIRST, NCHILD
from weightboost.pipeline.config import dataset_spec
from weightboost.data.uci import build_canonical

WEKA_UNPRUNED_SPLITS = [
    ("plas", 127), ("mass", 26.4), ("preg", 7), ("mass", 0), ("age", 28), ("plas", 99),
    ("pedi", None), ("preg", 6), ("age", 30), ("age", 34), ("mass", 33.1), ("mass", 29.9),
    ("plas", 145), ("age", 25), ("age", 61), ("mass", 27.1), ("pres", 82), ("pedi", 0.396),
    ("plas", 157), ("pres", 61), ("age", 30),
]
# Weka prints pedi <= 0.56 at the 7th split; the node's neighbouring values are 0.557 and
# 0.565 and release 8 moves the midpoint 0.561 to the largest training value <= 0.561, which
# is 0.561 itself (a value of another node). The partition of the node is the same (84/34).
WEKA_UNPRUNED_LEAVES = [
    (117, 1), (2, 0), (13, 0), (180, 22), (55, 10), (84, 34), (4, 0), (7, 1), (6, 0), (4, 1),
    (13, 0), (41, 6), (4, 0), (12, 1), (8, 1), (3, 0), (4, 0), (4, 0), (15, 1), (40, 13),
    (60, 17), (92, 12),
]


@pytest.fixture
def pima(main_config, mirror_dir):
    spec = dataset_spec(main_config, "pima")
    table, _ = build_canonical((mirror_dir / spec.file).read_bytes(), spec, "pima")
    return table.drop(columns="label"), table["label"].to_numpy()


def depth_first(tree, columns):
    splits, leaves = [], []

    def walk(k):
        if tree.node_int[k, NCHILD] <= 0:
            d = tree.dist[k]
            leaves.append((round(d.sum(), 6), round(d.sum() - d.max(), 6)))
            return
        splits.append((columns[tree.node_int[k, ATTR]], tree.node_float[k, 0]))
        for c in range(tree.node_int[k, NCHILD]):
            walk(tree.node_int[k, FIRST] + c)

    walk(0)
    return splits, leaves


def test_unpruned_pima_tree_is_wekas(pima):
    X, y = pima
    model = C45(pruning=False).fit(X, y)
    splits, leaves = depth_first(model.tree_, list(X.columns))
    assert leaves == WEKA_UNPRUNED_LEAVES
    assert [s[0] for s in splits] == [s[0] for s in WEKA_UNPRUNED_SPLITS]
    for (_, ours), (_, weka) in zip(splits, WEKA_UNPRUNED_SPLITS):
        if weka is not None:
            assert ours == pytest.approx(weka)
    assert model.get_n_leaves() == 22 and model.tree_.node_count == 43


def test_pruned_pima_tree_has_wekas_size(pima):
    X, y = pima
    model = C45().fit(X, y)
    assert model.get_n_leaves() == 20 and model.tree_.node_count == 39
    assert np.mean(model.predict(X) == y) > 0.8
