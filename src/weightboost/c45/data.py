"""Encoding the input of C4.5 once, so that many fits on the same X (boosting) share it.

``prepare(X)`` turns a numpy array or a pandas DataFrame into a ``C45Data``: a float64 matrix
in which nominal attributes hold their category codes (NaN = missing), the attribute kinds,
and, for every numeric attribute, the rows sorted by value once (missing values last). The
grower partitions these orders down the tree instead of sorting again at each node.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class Encoding:
    """How a training set's attributes are encoded: what new rows must be encoded like."""

    columns: tuple                # attribute names (DataFrame columns, or 0..d-1)
    nominal: np.ndarray           # (d,) bool
    categories: tuple             # per attribute: tuple of category labels, or None


@dataclass(frozen=True, eq=False)
class EncodedRows:
    """Rows already encoded like a training set (``Encoding.encode``): a tree reads them as
    they are. Boosting encodes test rows once for all its trees."""

    X: np.ndarray

    @property
    def shape(self):
        return self.X.shape


@dataclass(frozen=True, eq=False)
class C45Data:
    X: np.ndarray                 # (n, d) float64, C order; nominal columns hold codes
    XT: np.ndarray                # (d, n) the same values, attribute-major (for the grower)
    nominal: np.ndarray           # (d,) bool
    n_values: np.ndarray          # (d,) int64; declared values of nominal attributes, else 0
    categories: tuple             # per attribute: tuple of category labels, or None
    columns: tuple                # attribute names (DataFrame columns, or 0..d-1)
    num_slot: np.ndarray          # (d,) int64: index into the sorted orders, -1 if nominal
    orders: np.ndarray            # (n_numeric, n) int32 rows sorted by value, missing last
    n_known: np.ndarray           # (n_numeric,) int64 rows with a known value
    sorted_values: np.ndarray     # (n_numeric, n) float64 the sorted known values (NaN pad)
    sparse: tuple | None = None   # sparse input: (col_ptr, col_rows, col_vals, thr_ptr, thr_vals)

    @property
    def shape(self):
        return self.X.shape

    def __len__(self):
        return self.X.shape[0]

    @property
    def encoding(self) -> Encoding:
        return Encoding(self.columns, self.nominal, self.categories)


def _encode(X, nominal_features=None):
    """(float matrix, nominal mask, n_values, categories, columns) for an array or DataFrame."""
    if isinstance(X, pd.DataFrame):
        columns = tuple(X.columns)
        matrix = np.empty(X.shape, dtype=np.float64)
        nominal = np.zeros(X.shape[1], dtype=bool)
        categories = []
        for j, name in enumerate(columns):
            column = X[name]
            if isinstance(column.dtype, pd.CategoricalDtype):
                codes = column.cat.codes.to_numpy().astype(np.float64)
                codes[codes < 0] = np.nan
                matrix[:, j] = codes
                nominal[j] = True
                categories.append(tuple(column.cat.categories))
            else:
                matrix[:, j] = pd.to_numeric(column, errors="raise").to_numpy(dtype=np.float64,
                                                                            na_value=np.nan)
                categories.append(None)
    else:
        matrix = np.array(X, dtype=np.float64, order="C", copy=True)
        if matrix.ndim != 2:
            raise ValueError(f"X must be 2-dimensional, got shape {matrix.shape}")
        columns = tuple(range(matrix.shape[1]))
        nominal = np.zeros(matrix.shape[1], dtype=bool)
        categories = [None] * matrix.shape[1]
    if nominal_features is not None:
        for j in nominal_features:
            if nominal[j]:
                continue
            values = matrix[:, j]
            known = np.unique(values[~np.isnan(values)])
            codes = np.searchsorted(known, values).astype(np.float64)
            codes[np.isnan(values)] = np.nan
            matrix[:, j] = codes
            nominal[j] = True
            categories[j] = tuple(known.tolist())
    n_values = np.array([len(c) if nominal[j] else 0 for j, c in enumerate(categories)],
                        dtype=np.int64)
    return np.ascontiguousarray(matrix), nominal, n_values, tuple(categories), columns


def prepare_sparse(X) -> C45Data:
    """A scipy sparse matrix: columns sorted by value once, zeros left implicit (see
    ``weightboost.c45.sparse``). All attributes are numeric; NaN is not allowed."""
    import scipy.sparse as sp

    csc = sp.csc_matrix(X, dtype=np.float64, copy=True)
    csc.eliminate_zeros()
    if not np.all(np.isfinite(csc.data)):
        raise ValueError("sparse X must hold finite values (missing values need dense input)")
    n, d = csc.shape
    col_rows = np.empty(csc.nnz, dtype=np.int32)
    col_vals = np.empty(csc.nnz)
    thr_parts = []
    for j in range(d):
        lo, hi = csc.indptr[j], csc.indptr[j + 1]
        order = np.argsort(csc.data[lo:hi], kind="stable")
        col_rows[lo:hi] = csc.indices[lo:hi][order]
        col_vals[lo:hi] = csc.data[lo:hi][order]
        values = col_vals[lo:hi]
        if hi - lo < n:
            values = np.concatenate([values, [0.0]])
        thr_parts.append(np.unique(values))
    thr_ptr = np.zeros(d + 1, dtype=np.int64)
    thr_ptr[1:] = np.cumsum([len(p) for p in thr_parts])
    thr_vals = np.concatenate(thr_parts) if thr_parts else np.empty(0)
    dense = csc.toarray(order="C")
    empty_int = np.empty((0, 0), dtype=np.int32)
    return C45Data(dense, np.ascontiguousarray(dense.T), np.zeros(d, dtype=bool),
                   np.zeros(d, dtype=np.int64),
                   tuple([None] * d), tuple(range(d)), np.arange(d, dtype=np.int64), empty_int,
                   np.zeros(0, dtype=np.int64), np.empty((0, 0)),
                   (csc.indptr.astype(np.int64), col_rows, col_vals, thr_ptr, thr_vals))


def prepare(X, nominal_features=None) -> C45Data:
    """Encode and presort X. ``nominal_features``: indices of array columns to treat as nominal
    (DataFrame columns of categorical dtype are nominal anyway). A scipy sparse matrix takes
    the sparse path."""
    if isinstance(X, C45Data):
        return X
    if hasattr(X, "tocsc"):
        return prepare_sparse(X)
    matrix, nominal, n_values, categories, columns = _encode(X, nominal_features)
    if np.isinf(matrix).any():
        raise ValueError("X contains infinite values; C4.5 accepts finite numbers and NaN")
    numeric = np.flatnonzero(~nominal)
    num_slot = np.full(matrix.shape[1], -1, dtype=np.int64)
    num_slot[numeric] = np.arange(len(numeric))
    n = matrix.shape[0]
    values = matrix[:, numeric].T                      # (n_numeric, n)
    orders = np.argsort(values, axis=1, kind="stable").astype(np.int32)  # NaN sorts last
    n_known = (~np.isnan(values)).sum(axis=1).astype(np.int64)
    sorted_values = np.take_along_axis(values, orders.astype(np.int64), axis=1)
    return C45Data(matrix, np.ascontiguousarray(matrix.T), nominal, n_values, categories,
                   columns, num_slot,
                   np.ascontiguousarray(orders.reshape(len(numeric), n)), n_known,
                   np.ascontiguousarray(sorted_values.reshape(len(numeric), n)))


def encode_like(data: Encoding, X) -> np.ndarray:
    """Encode new rows with the categories and columns of the training data."""
    if isinstance(X, (C45Data, EncodedRows)):
        return X.X
    if hasattr(X, "toarray"):
        return np.asarray(X.toarray(), dtype=np.float64)
    if isinstance(X, pd.DataFrame):
        matrix = np.empty(X.shape, dtype=np.float64)
        for j, name in enumerate(data.columns):
            column = X[name] if name in X.columns else X.iloc[:, j]
            if data.nominal[j]:
                lookup = {c: k for k, c in enumerate(data.categories[j])}
                matrix[:, j] = [lookup.get(v, np.nan) if not pd.isna(v) else np.nan
                                for v in column]
            else:
                matrix[:, j] = pd.to_numeric(column).to_numpy(dtype=np.float64, na_value=np.nan)
        return matrix
    matrix = np.array(X, dtype=np.float64, order="C", copy=True)
    for j in np.flatnonzero(data.nominal):
        if data.categories[j] and not isinstance(data.categories[j][0], str):
            known = np.asarray(data.categories[j], dtype=np.float64)
            values = matrix[:, j]
            pos = np.searchsorted(known, values)
            ok = (pos < len(known)) & (known[np.minimum(pos, len(known) - 1)] == values)
            matrix[:, j] = np.where(ok, pos, np.nan)
    return matrix


def take_rows(data: C45Data, rows: np.ndarray) -> C45Data:
    """The prepared data of the rows ``rows`` (ascending, repeats allowed: a bootstrap draw),
    as ``prepare`` would give for ``data.X[rows]``, without sorting again.

    Copies of a row are consecutive in the new data, so the stable sort of the new data is
    the old order with every row expanded into its copies."""
    rows = np.asarray(rows, dtype=np.int64)
    if np.any(np.diff(rows) < 0):
        raise ValueError("take_rows needs the rows in ascending order")
    if data.sparse is not None:
        import scipy.sparse as sp
        return prepare_sparse(sp.csr_matrix(data.X[rows]))
    n = data.X.shape[0]
    counts = np.bincount(rows, minlength=n)
    start = np.cumsum(counts) - counts                 # first new index of each old row
    m = rows.shape[0]
    n_numeric = data.orders.shape[0]
    orders = np.empty((n_numeric, m), dtype=np.int32)
    sorted_values = np.empty((n_numeric, m))
    n_known = np.empty(n_numeric, dtype=np.int64)
    for s in range(n_numeric):
        old = data.orders[s]
        c = counts[old]
        offset = np.arange(m) - np.repeat(np.cumsum(c) - c, c)
        orders[s] = np.repeat(start[old], c) + offset
        sorted_values[s] = np.repeat(data.sorted_values[s], c)
        n_known[s] = c[:data.n_known[s]].sum()
    X = np.ascontiguousarray(data.X[rows])
    return C45Data(X, np.ascontiguousarray(X.T), data.nominal, data.n_values, data.categories,
                   data.columns, data.num_slot, orders, n_known, sorted_values)
