"""``C45``: the scikit-learn classifier around the C4.5 kernels (J48 defaults, docs/protocol.md §3)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from numba import njit
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_array, check_is_fitted, column_or_1d

from weightboost.c45.criteria import z_for_confidence
from weightboost.c45.data import C45Data, EncodedRows, encode_like, prepare, take_rows
from weightboost.c45.build import fit_tree
from weightboost.c45.predict import apply_leaves, most_probable, predict_distribution
from weightboost.c45.tree import ATTR, FIRST, NCHILD, THRESH, GrowSettings, PruneSettings


@dataclass(frozen=True)
class C45Tree:
    """A fitted tree in array form (see ``weightboost.c45.tree``)."""

    node_int: np.ndarray
    node_float: np.ndarray
    empty: np.ndarray
    dist: np.ndarray

    @property
    def node_count(self) -> int:
        return self.node_int.shape[0]

    @property
    def n_leaves(self) -> int:
        return int((self.node_int[:, NCHILD] <= 0).sum())

    def depth(self) -> int:
        depth = np.zeros(self.node_count, dtype=int)
        for k in range(self.node_count):
            for c in range(max(self.node_int[k, NCHILD], 0)):
                depth[self.node_int[k, FIRST] + c] = depth[k] + 1
        return int(depth.max())


def kernel_vector(values, dtype):
    """``values`` as a contiguous, writable 1-d array of ``dtype``, the type the kernels were
    compiled for: a read-only array (a memory map, as joblib passes to parallel fits) or a
    strided one is another numba type, and would compile them all again (half a minute).
    (Not ``np.require``: 3-4 µs a call, a sixth of a tiny tree's fit.)"""
    array = np.asarray(values, dtype=dtype)
    flags = array.flags
    return array if flags.c_contiguous and flags.writeable else array.copy()


def class_index(y):
    """``np.unique(y, return_inverse=True)``: the sorted classes and each label's index among
    them. Integer labels of a small range are counted in one compiled pass instead of sorted:
    np.unique's dozen numpy calls took 20-50 µs after a tree's kernels had run, a tenth of a
    small tree's fit."""
    if y.dtype.kind == "i" or (y.dtype.kind == "u" and y.dtype.itemsize < 8):
        labels = kernel_vector(y, np.int64)
        classes, y_index, counted = _counted_classes(labels)
        if counted:
            return classes.astype(y.dtype, copy=False), y_index
    return np.unique(y, return_inverse=True)


@njit(cache=True)
def _counted_classes(labels):
    """(classes, index, counted): the values that occur, ascending, and each label's index
    among them, when the labels span at most twice their number (plus 64); else ``counted``
    is False."""
    n = labels.shape[0]
    if n == 0:
        return labels, labels, False
    lo, hi = labels.min(), labels.max()
    if float(hi) - float(lo) > 2.0 * n + 64.0:
        return labels, labels, False
    present = np.zeros(hi - lo + 1, dtype=np.bool_)
    for i in range(n):
        present[labels[i] - lo] = True
    rank = np.empty(hi - lo + 1, dtype=np.int64)
    classes = np.empty(hi - lo + 1, dtype=np.int64)
    count = 0
    for v in range(hi - lo + 1):
        rank[v] = count
        classes[count] = lo + v
        count += present[v]
    index = np.empty(n, dtype=np.int64)
    for i in range(n):
        index[i] = rank[labels[i] - lo]
    return classes[:count], index, True


@njit(cache=True)
def _weights_valid(w):
    """(every weight finite and non-negative, some weight positive)."""
    valid, positive = True, False
    for i in range(w.shape[0]):
        valid &= np.isfinite(w[i]) and w[i] >= 0.0
        positive |= w[i] > 0.0
    return valid, positive


class C45(ClassifierMixin, BaseEstimator):
    """C4.5 release 8 decision tree with the defaults of Weka's J48.

    Gain ratio among attributes of at least average gain; numeric cuts with the minimum-split
    rule and the MDL correction, moved to a training value; multiway nominal splits; missing
    values as fractional instances in training and prediction; collapse; pessimistic pruning
    at ``confidence`` with subtree raising. Instance weights count wherever a count appears.

    Parameters
    ----------
    confidence : float, default 0.25
        Confidence factor CF of the pessimistic error estimate (J48 ``-C``).
    min_instances : float, default 2
        Minimum (weighted) instances in at least two branches (J48 ``-M``).
    pruning : bool, default True
        Pessimistic pruning; ``False`` is J48 ``-U`` (the tree is still collapsed).
    subtree_raising : bool, default True
        Consider raising the largest branch when pruning (J48 ``-S`` turns it off).
    collapse : bool, default True
        Collapse subtrees that do not reduce training error (J48's default).
    mdl_correction : bool, default True
        Subtract log2(tries)/W from the gain of numeric splits (release 8).
    nominal_features : sequence of int, optional
        Columns of a numpy ``X`` to treat as nominal. DataFrame columns of categorical dtype are
        nominal anyway.

    ``fit`` also accepts a ``C45Data`` from ``weightboost.c45.prepare(X)``: boosting prepares X
    once and refits on it with new weights without re-encoding or re-sorting.
    """

    def __init__(self, confidence=0.25, min_instances=2, pruning=True, subtree_raising=True,
                 collapse=True, mdl_correction=True, nominal_features=None):
        self.confidence = confidence
        self.min_instances = min_instances
        self.pruning = pruning
        self.subtree_raising = subtree_raising
        self.collapse = collapse
        self.mdl_correction = mdl_correction
        self.nominal_features = nominal_features

    # -- input handling ---------------------------------------------------------------------
    def _prepare_fit_input(self, X):
        if isinstance(X, C45Data):
            return X
        if isinstance(X, pd.DataFrame):
            self.feature_names_in_ = np.asarray(X.columns, dtype=object)
            if X.shape[0] == 0 or X.shape[1] == 0:
                check_array(X.to_numpy(), ensure_all_finite="allow-nan")
            return prepare(X, self.nominal_features)
        if hasattr(X, "tocsc"):
            return prepare(check_array(X, accept_sparse=["csr", "csc"], dtype=np.float64))
        if not (type(X) is np.ndarray and X.dtype == np.float64 and X.ndim == 2
                and X.shape[0] > 0 and X.shape[1] > 0):
            # a non-empty 2-d float64 array passes scikit-learn's checks but the one for
            # infinite values, which ``prepare`` makes: they cost 45 µs, 7 % of a small tree
            X = check_array(X, dtype=np.float64, ensure_all_finite="allow-nan")
        return prepare(X, self.nominal_features)

    def _check_params(self):
        if not 0 < self.confidence <= 0.5:
            raise ValueError(f"confidence must be in (0, 0.5], got {self.confidence}")
        if not self.min_instances > 0:
            raise ValueError(f"min_instances must be positive, got {self.min_instances}")

    # -- fitting ----------------------------------------------------------------------------
    def fit(self, X, y, sample_weight=None):
        self._check_params()
        prepared = isinstance(X, C45Data)
        data = self._prepare_fit_input(X)
        if y is None:
            raise ValueError(f"{type(self).__name__} requires y to be passed, but the target "
                             "y is None")
        y = np.asarray(y)
        # Boosting passes prepared input with labels it checked. A 1-d vector of integers or
        # booleans is a valid target as it is: scikit-learn's checks (half a millisecond, a
        # tenth of a small tree's fit) cannot fail on it.
        checked = prepared or (y.ndim == 1 and y.dtype.kind in "biu")
        if y.ndim != 1 or not checked:
            y = column_or_1d(y, warn=True)
        if y.shape[0] != data.X.shape[0]:
            raise ValueError(f"X has {data.X.shape[0]} rows but y has {y.shape[0]} labels")
        if not checked:
            check_classification_targets(y)
        classes, y_index = class_index(y)
        if sample_weight is None:
            weights = np.ones(data.X.shape[0])
        else:
            weights = kernel_vector(sample_weight, np.float64)
            if weights.shape != (data.X.shape[0],):
                raise ValueError(f"sample_weight has shape {weights.shape}, expected "
                                 f"({data.X.shape[0]},)")
        valid, positive = _weights_valid(weights)
        if not valid:
            raise ValueError("sample_weight must be finite and non-negative")
        if not positive:
            raise ValueError("sample_weight sums to zero")
        return self._fit_checked(data, classes, y_index.astype(np.int64, copy=False), weights)

    def _fit_checked(self, data: C45Data, classes, y_index, weights, draw_size=0.0):
        """``fit`` on prepared data whose labels and weights are known to be valid: class
        indices ``y_index`` (int64) into ``classes``, finite non-negative weights of positive
        sum. Boosting's every round, whose labels are the same each time. ``draw_size`` > 0:
        the rows are a draw's distinct rows and the weights their numbers of copies
        (``GrowSettings.draw_size``)."""
        self.classes_ = classes
        self.n_features_in_ = data.X.shape[1]
        self._nominal = data.nominal
        self._encoding = data.encoding
        self.tree_ = self._build(data, y_index, weights, draw_size)
        return self

    def _build(self, data: C45Data, y_index, weights, draw_size=0.0) -> C45Tree:
        return C45Tree(*fit_tree(
            data.view, data.missing, y_index, len(self.classes_), weights,
            GrowSettings(float(self.min_instances), bool(self.mdl_correction),
                         float(draw_size)),
            PruneSettings(float(self.confidence), z_for_confidence(self.confidence),
                          bool(self.subtree_raising)),
            bool(self.collapse), bool(self.pruning)))

    # -- prediction -------------------------------------------------------------------------
    def _encode_predict(self, X):
        check_is_fitted(self, "tree_")
        if isinstance(X, C45Data):
            matrix = X.XT.T
        elif isinstance(X, EncodedRows):
            matrix = X.X
        elif isinstance(X, pd.DataFrame) or hasattr(X, "toarray"):
            matrix = encode_like(self._encoding, X)
        else:
            matrix = check_array(X, dtype=np.float64, ensure_all_finite="allow-nan")
            matrix = encode_like(self._encoding, matrix)
        if matrix.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {matrix.shape[1]} features, but C45 is expecting "
                             f"{self.n_features_in_} features as input")
        if isinstance(X, (C45Data, EncodedRows)):
            return matrix
        return np.ascontiguousarray(matrix, dtype=np.float64)

    def encode(self, X) -> EncodedRows:
        """X encoded like the training data, once: every tree fitted on the same training set
        (a boosted ensemble) can then predict from it without encoding again. The rows are
        stored attribute-major (Fortran order): a tree reads a few attributes of every row,
        and of a large matrix (Reuters) it then reads far fewer cache lines."""
        return EncodedRows(np.asfortranarray(self._encode_predict(X)))

    def predict_proba(self, X):
        return self._proba(self._encode_predict(X))

    def _proba(self, matrix):
        t = self.tree_
        proba = predict_distribution(matrix, self._nominal, t.node_int, t.node_float, t.empty,
                                     t.dist)
        totals = proba.sum(axis=1, keepdims=True)
        root = t.dist[0] / t.dist[0].sum()
        return np.where(totals > 0, proba / np.where(totals > 0, totals, 1.0), root)

    def predict(self, X):
        return self._predict_encoded(self._encode_predict(X))  # checks that it is fitted

    def _predict_encoded(self, matrix):
        if len(self.classes_) >= 8:  # most_probable sums rows as numpy does below 8 only
            return self.classes_[np.argmax(self._proba(matrix), axis=1)]
        t = self.tree_
        return self.classes_[most_probable(matrix, self._nominal, t.node_int, t.node_float,
                                           t.empty, t.dist)]

    # -- boosting's base-learner protocol (weightboost.prepared) ------------------------------
    def _prepare_training(self, X, unlabeled=None):
        if unlabeled is not None:
            raise ValueError("C45 takes no unlabeled points")
        return prepare(X)

    def _fit_round(self, data: C45Data, signed, tree_labels, p, rng):
        """A boosting round: the distribution ``p`` as weights (scaled to sum to N), or with
        ``rng`` the tree of N rows drawn with replacement, with unit weights (a draw's copies
        of a row are instances, which minNumObj counts).

        A draw is fitted as its distinct rows, each weighted by its number of copies
        (``draw_size``: the copies still count as instances): the same tree, as every sum of
        unit weights is a whole number either way, for a third less work. Not where an
        attribute has a missing value: a missing value's fractional copies, summed one by one,
        can differ in the last bit from one weight times its copies."""
        n = len(p)
        if rng is None:
            return self._fit_checked(data, *tree_labels, n * p)
        copies = rng.multinomial(n, p)
        if data.missing.any():
            rows = np.repeat(np.arange(n), copies)
            return self.fit(take_rows(data, rows), signed[rows])
        rows = np.flatnonzero(copies)
        classes, y_index = class_index(signed[rows])
        return self._fit_checked(take_rows(data, rows), classes, y_index.astype(np.int64),
                                 copies[rows].astype(np.float64), draw_size=float(n))

    def _predict_training(self, data: C45Data):
        """``predict`` on the prepared data the tree was just fitted to (or drawn from), without
        the checks and encoding that such rows do not need: boosting's every round."""
        return self._predict_encoded(data.XT.T)

    @classmethod
    def _ensemble_outputs(cls, estimators, X):
        """Each tree's predictions on X, the rows encoded once (the trees share the training
        encoding)."""
        if not isinstance(X, C45Data):
            X = estimators[0].encode(X)
        for tree in estimators:
            yield np.asarray(tree.predict(X), dtype=np.float64)

    def apply(self, X):
        """Index of the leaf each sample reaches (at a missing value: the heaviest branch)."""
        matrix = self._encode_predict(X)
        t = self.tree_
        return apply_leaves(matrix, self._nominal, t.node_int, t.node_float, t.empty)

    def get_depth(self):
        check_is_fitted(self, "tree_")
        return self.tree_.depth()

    def get_n_leaves(self):
        check_is_fitted(self, "tree_")
        return self.tree_.n_leaves

    def export_text(self, feature_names=None, decimals=3):
        """The tree in J48's indented text form."""
        check_is_fitted(self, "tree_")
        names = feature_names or [str(c) for c in self._encoding.columns]
        t, lines = self.tree_, []

        def leaf(k):
            d = t.dist[k]
            return f"{self.classes_[int(np.argmax(d))]} ({d.sum():.{decimals}g}/" \
                   f"{d.sum() - d.max():.{decimals}g})"

        def walk(k, depth):
            a = t.node_int[k, ATTR]
            for c in range(t.node_int[k, NCHILD]):
                child = t.node_int[k, FIRST] + c
                if self._nominal[a]:
                    test = f"{names[a]} = {self._encoding.categories[a][c]}"
                else:
                    op = "<=" if c == 0 else ">"
                    test = f"{names[a]} {op} {t.node_float[k, THRESH]:.{decimals + 3}g}"
                if t.node_int[child, NCHILD] <= 0:
                    lines.append("|   " * depth + f"{test}: {leaf(child)}")
                else:
                    lines.append("|   " * depth + test)
                    walk(child, depth + 1)

        if t.node_int[0, NCHILD] <= 0:
            return f": {leaf(0)}"
        walk(0, 0)
        return "\n".join(lines)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.sparse = True
        return tags

