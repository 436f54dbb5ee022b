"""Encoding the input of C4.5 once, so that many fits on the same X (boosting) share it.

``prepare(X)`` turns a numpy array, a pandas DataFrame or a scipy sparse matrix into a
``C45Data``: a float64 matrix in which nominal attributes hold their category codes (NaN =
missing), the attribute kinds, and the grower's view of the data (``GrowView``), in which every
numeric attribute's *stored entries* are sorted by value once. The grower partitions these
sorted entries down the tree instead of sorting again at each node.

What is not stored is decided per numeric attribute (the ``implicit_zero`` flag of its slot):
either its known values are stored and an instance without an entry has a missing value, or
only its non-zeros are stored and an instance without an entry has the value 0. Sparse input
stores every attribute the second way; dense input does so for an attribute without missing
values whose values are mostly zeros (``zero_heavy``: spambase's word frequencies), where it
saves most of the work. One grower (``weightboost.c45.grow``) serves both, in time
proportional to the stored entries, and grows the same tree either way.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import numpy as np
import pandas as pd
from numba import njit

from weightboost.c45.tree import unsigned


class GrowView(NamedTuple):
    """The training data as the grower reads it (a record numba compiles against)."""

    XT: np.ndarray          # (d, n) attribute-major values (nominal codes, NaN = missing)
    nominal: np.ndarray     # (d,) bool
    n_values: np.ndarray    # (d,) int64 declared values of nominal attributes, else 0
    num_slot: np.ndarray    # (d,) int64 numeric attribute -> its slot s, -1 if nominal
    ptr: np.ndarray         # (n_numeric + 1,) int64: slot s holds entries ptr[s]:ptr[s + 1]
    rows: np.ndarray        # (entries,) int32 row of each stored entry, sorted by value per slot
    vals: np.ndarray        # (entries,) float64 the entries' values
    implicit_zero: np.ndarray  # (n_numeric,) bool: slot s stores its non-zeros only (an
                               # instance without an entry has the value 0), else its known
                               # values (an instance without an entry has a missing value)


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
    X: np.ndarray                 # (n, d) float64; nominal columns hold codes. C order, or
                                  # the transpose of XT (sparse input, take_rows): one copy
    XT: np.ndarray                # (d, n) the same values, attribute-major (for the grower)
    nominal: np.ndarray           # (d,) bool
    n_values: np.ndarray          # (d,) int64; declared values of nominal attributes, else 0
    categories: tuple             # per attribute: tuple of category labels, or None
    columns: tuple                # attribute names (DataFrame columns, or 0..d-1)
    view: GrowView                # the grower's view: numeric attributes presorted

    @property
    def is_sparse(self) -> bool:
        """Every attribute stores its non-zeros only (sparse input)."""
        return bool(self.view.implicit_zero.size and self.view.implicit_zero.all()
                    and not self.nominal.any())

    @property
    def shape(self):
        return self.X.shape

    @cached_property
    def missing(self) -> np.ndarray:
        """(d,) bool: the attributes of which some instance has a missing value."""
        return np.isnan(self.XT).any(axis=1)

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
        coded = [j for j in nominal_features if not nominal[j]]
        if coded:
            matrix[:, coded], known = _value_codes(matrix[:, coded])
            nominal[coded] = True
            for j, values in zip(coded, known):
                categories[j] = values
    n_values = np.array([len(c) if nominal[j] else 0 for j, c in enumerate(categories)],
                        dtype=np.int64)
    return np.ascontiguousarray(matrix), nominal, n_values, tuple(categories), columns


def _value_codes(block):
    """Each column of ``block`` (n, k) coded by its distinct known values: (codes, known),
    where codes[i, c] is the rank of block[i, c] among column c's distinct values ascending
    (NaN stays NaN) and known[c] is the tuple of those values. One sort of all columns (a
    sort of values is several times faster than an argsort or ``np.unique`` per column)."""
    columns = np.ascontiguousarray(block.T)
    ordered = np.sort(columns, axis=1)                 # NaN last
    first = np.ones(ordered.shape, dtype=bool)         # the first of its value in the order
    first[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    first &= ~np.isnan(ordered)
    codes = np.empty(columns.shape)
    known = []
    for c in range(columns.shape[0]):
        values = ordered[c, first[c]]
        codes[c] = np.searchsorted(values, columns[c])
        known.append(tuple(values.tolist()))
    codes[np.isnan(columns)] = np.nan
    return codes.T, known


def prepare_sparse(X) -> C45Data:
    """A scipy sparse matrix: the non-zeros of each column sorted by value once, zeros left
    implicit. All attributes are numeric; NaN is not allowed."""
    import scipy.sparse as sp

    csc = sp.csc_matrix(X, dtype=np.float64, copy=True)
    csc.eliminate_zeros()
    if not np.all(np.isfinite(csc.data)):
        raise ValueError("sparse X must hold finite values (missing values need dense input)")
    n, d = csc.shape
    ptr = csc.indptr.astype(np.int64)
    col_rows, col_vals = csc.indices.astype(np.int32), csc.data.copy()
    sort_segments(ptr, col_rows, col_vals)  # ties keep CSC's row order
    XT = csc.T.toarray()  # (d, n) C order, written in one pass (the transpose of CSC is CSR)
    nominal, n_values = np.zeros(d, dtype=bool), np.zeros(d, dtype=np.int64)
    view = _view(XT, nominal, n_values, np.arange(d, dtype=np.int64), ptr, col_rows, col_vals,
                 np.ones(d, dtype=bool))
    return C45Data(XT.T, XT, nominal, n_values, tuple([None] * d), tuple(range(d)), view)


def zero_heavy(values: np.ndarray) -> np.ndarray:
    """Which attributes (rows of ``values``, (n_numeric, n)) dense input stores sparsely: no
    missing value, and at least half of the values are zeros (then the non-zeros are less
    than half the entries, and the zero block is crossed in one step)."""
    return ~np.isnan(values).any(axis=1) & (2 * (values == 0.0).sum(axis=1) >= values.shape[1])


def _view(XT, nominal, n_values, num_slot, ptr, rows, vals, implicit_zero) -> GrowView:
    return GrowView(XT, nominal, n_values, num_slot, ptr, rows, vals, implicit_zero)


def _dense_view(XT, nominal, n_values, implicit_zero=None) -> GrowView:
    """Every numeric attribute's stored entries sorted (stable: ties keep row order): its
    known values, or its non-zeros if it is ``zero_heavy`` (or flagged in ``implicit_zero``,
    one flag per numeric attribute)."""
    numeric = np.flatnonzero(~nominal)
    num_slot = np.full(XT.shape[0], -1, dtype=np.int64)
    num_slot[numeric] = np.arange(len(numeric))
    values = XT[numeric]                                   # (n_numeric, n)
    if implicit_zero is None:
        implicit_zero = zero_heavy(values)
    ptr, rows, vals = _sorted_entries(values, np.asarray(implicit_zero, dtype=np.bool_))
    return _view(XT, nominal, n_values, num_slot, ptr, rows, vals, implicit_zero)


@njit(cache=True, inline="always")
def _stored(value, implicit_zero):
    """Whether an attribute's value is a stored entry: a known value, and not a zero where
    the attribute stores its non-zeros only."""
    return not np.isnan(value) and not (implicit_zero and value == 0.0)


@njit(cache=True)
def _sorted_entries(values, implicit_zero):
    """The stored entries of each row s of ``values`` (an attribute): its known values, or its
    non-zeros if ``implicit_zero[s]``, sorted by value, ties in row order (the order of a
    stable sort of the whole row, filtered).
    Returns (ptr, rows, vals): slot s holds entries ptr[s]:ptr[s + 1]."""
    n_slots, n = values.shape
    ptr = np.zeros(n_slots + 1, dtype=np.int64)
    for s in range(n_slots):
        count = 0
        for r in range(n):
            if _stored(values[s, r], implicit_zero[s]):
                count += 1
        ptr[s + 1] = ptr[s] + count
    rows = np.empty(ptr[n_slots], dtype=np.int32)
    vals = np.empty(ptr[n_slots])
    q = 0
    for s in range(n_slots):
        for r in range(n):
            if _stored(values[s, r], implicit_zero[s]):
                rows[q] = r
                vals[q] = values[s, r]
                q += 1
    sort_segments(ptr, rows, vals)
    return ptr, rows, vals


@njit(cache=True, inline="always")
def _order_key(value):
    """An unsigned integer that orders as the float ``value`` (not NaN) does, with -0.0 and 0.0
    equal: the bits of a positive value with the sign bit set, those of a negative one
    inverted."""
    bits = np.float64(0.0 if value == 0.0 else value).view(np.uint64)
    return ~bits if bits >> np.uint64(63) else bits | np.uint64(1 << 63)


@njit(cache=True)
def sort_segments(ptr, rows, vals):
    """Sort each segment ``ptr[s]:ptr[s + 1]`` of (rows, vals) by value in place, stably (ties
    keep their order): the order of ``np.argsort(kind="stable")``, which compares -0.0 and 0.0
    as equal. No NaN. A least-significant-digit radix sort of the values' ``_order_key``, a
    byte per pass, skipping the bytes that all the segment's keys share (2-3 times faster than
    numba's merge sort on the UCI tables, where many values share their high bytes)."""
    largest = 0
    for s in range(ptr.shape[0] - 1):
        largest = max(largest, ptr[s + 1] - ptr[s])
    keys, other_keys = np.empty(largest, dtype=np.uint64), np.empty(largest, dtype=np.uint64)
    order, other_order = np.empty(largest, dtype=np.int64), np.empty(largest, dtype=np.int64)
    counts = np.empty((8, 257), dtype=np.int64)  # per byte: how many keys have each value
    segment_rows, segment_vals = np.empty(largest, dtype=rows.dtype), np.empty(largest)
    for s in range(ptr.shape[0] - 1):
        lo, count = ptr[s], ptr[s + 1] - ptr[s]
        counts[:, :] = 0
        for q in range(count):
            key = _order_key(vals[lo + q])
            keys[q] = key
            order[q] = q
            for byte in range(8):
                counts[byte, ((key >> np.uint64(8 * byte)) & np.uint64(255)) + 1] += 1
        source_keys, source_order, target_keys, target_order = keys, order, other_keys, other_order
        for byte in range(8):
            shared = False
            for value in range(1, 257):
                if counts[byte, value] == count:
                    shared = True
                    break
            if shared:
                continue
            start = counts[byte]  # becomes each byte value's next position
            for value in range(1, 257):
                start[value] += start[value - 1]
            shift = np.uint64(8 * byte)
            for q in range(count):
                key = source_keys[q]
                value = (key >> shift) & np.uint64(255)
                position = unsigned(start[value])
                target_keys[position] = key
                target_order[position] = source_order[q]
                start[value] = position + np.uint64(1)
            source_keys, target_keys = target_keys, source_keys
            source_order, target_order = target_order, source_order
        for q in range(count):
            segment_rows[q], segment_vals[q] = rows[lo + q], vals[lo + q]
        for q in range(count):
            rows[lo + q] = segment_rows[unsigned(source_order[q])]
            vals[lo + q] = segment_vals[unsigned(source_order[q])]


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
    XT = np.ascontiguousarray(matrix.T)
    return C45Data(matrix, XT, nominal, n_values, categories, columns,
                   _dense_view(XT, nominal, n_values))


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
    as ``prepare`` would give for ``data.X[rows]``, without sorting again. Each attribute
    keeps the way ``data`` stores it (``implicit_zero``), which gives the same tree.

    Copies of a row are consecutive in the new data, so the stable sort of the new data is
    the old order with every row expanded into its copies."""
    rows = np.asarray(rows, dtype=np.int64)
    if np.any(np.diff(rows) < 0):
        raise ValueError("take_rows needs the rows in ascending order")
    view = data.view
    counts = np.bincount(rows, minlength=data.X.shape[0])
    ptr, new_rows, new_vals = _expand_entries(view.ptr, view.rows, view.vals, counts)
    XT = np.ascontiguousarray(data.XT[:, rows])
    return C45Data(XT.T, XT, data.nominal, data.n_values, data.categories, data.columns,
                   _view(XT, data.nominal, data.n_values, view.num_slot, ptr, new_rows,
                         new_vals, view.implicit_zero))


@njit(cache=True)
def _expand_entries(ptr, rows, vals, counts):
    """The stored entries of a draw in which old row r has ``counts[r]`` consecutive copies:
    each entry expanded into its row's copies, in the old (sorted) order."""
    start = np.empty(counts.shape[0], dtype=np.int64)   # first new index of each old row
    total = 0
    for r in range(counts.shape[0]):
        start[r] = total
        total += counts[r]
    new_ptr = np.empty(ptr.shape[0], dtype=np.int64)
    size = 0
    for k in range(rows.shape[0]):
        size += counts[rows[k]]
    new_rows = np.empty(size, dtype=np.int32)
    new_vals = np.empty(size)
    q = 0
    for s in range(ptr.shape[0] - 1):
        new_ptr[s] = q
        for k in range(ptr[s], ptr[s + 1]):
            r = rows[k]
            for t in range(counts[r]):
                new_rows[q] = start[r] + t
                new_vals[q] = vals[k]
                q += 1
    new_ptr[ptr.shape[0] - 1] = q
    return new_ptr, new_rows, new_vals
