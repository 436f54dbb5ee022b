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
values whose values are mostly zeros (*zero-heavy*: spambase's word frequencies), where it
saves most of the work. One grower (``weightboost.c45.grow``) serves both, in time
proportional to the stored entries, and grows the same tree either way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pandas as pd
from numba import njit

from weightboost.c45.tree import unsigned
from weightboost.prepared import PreparedData


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
class C45Data(PreparedData):
    X: np.ndarray                 # (n, d) float64; nominal columns hold codes: the transpose
                                  # of XT (one copy of the values)
    XT: np.ndarray                # (d, n) the same values, attribute-major (for the grower)
    nominal: np.ndarray           # (d,) bool
    n_values: np.ndarray          # (d,) int64; declared values of nominal attributes, else 0
    categories: tuple             # per attribute: tuple of category labels, or None
    columns: tuple                # attribute names (DataFrame columns, or 0..d-1)
    view: GrowView                # the grower's view: numeric attributes presorted
    missing: np.ndarray           # (d,) bool: the attributes of which some instance has a
                                  # missing value

    @property
    def is_sparse(self) -> bool:
        """Every attribute stores its non-zeros only (sparse input)."""
        return bool(self.view.implicit_zero.size and self.view.implicit_zero.all()
                    and not self.nominal.any())

    @property
    def shape(self):
        return self.X.shape

    def __len__(self):
        return self.X.shape[0]

    @property
    def encoding(self) -> Encoding:
        return Encoding(self.columns, self.nominal, self.categories)


def _encode(X, nominal_features=None):
    """(XT, nominal mask, n_values, categories, columns) for an array or DataFrame: XT is the
    (d, n) float64 matrix attribute-major, nominal attributes coded."""
    if isinstance(X, pd.DataFrame):
        columns = tuple(X.columns)
        XT = np.empty(X.shape[::-1], dtype=np.float64)
        nominal = np.zeros(X.shape[1], dtype=bool)
        categories = []
        for j, name in enumerate(columns):
            column = X[name]
            if isinstance(column.dtype, pd.CategoricalDtype):
                codes = column.cat.codes.to_numpy().astype(np.float64)
                codes[codes < 0] = np.nan
                XT[j] = codes
                nominal[j] = True
                categories.append(tuple(column.cat.categories))
            else:
                XT[j] = pd.to_numeric(column, errors="raise").to_numpy(dtype=np.float64,
                                                                       na_value=np.nan)
                categories.append(None)
    else:
        matrix = np.asarray(X, dtype=np.float64)
        if matrix.ndim != 2:
            raise ValueError(f"X must be 2-dimensional, got shape {matrix.shape}")
        XT = np.array(matrix.T, order="C", copy=True)
        columns = tuple(range(XT.shape[0]))
        nominal = np.zeros(XT.shape[0], dtype=bool)
        categories = [None] * XT.shape[0]
    if nominal_features is not None:
        coded = [j for j in nominal_features if not nominal[j]]
        if coded:
            XT[coded], known = _value_codes(XT[coded])
            nominal[coded] = True
            for j, values in zip(coded, known):
                categories[j] = values
    n_values = np.array([len(c) if nominal[j] else 0 for j, c in enumerate(categories)],
                        dtype=np.int64)
    return XT, nominal, n_values, tuple(categories), columns


def _value_codes(columns):
    """Each row of ``columns`` (k, n) coded by its distinct known values: (codes, known),
    where codes[c, i] is the rank of columns[c, i] among row c's distinct values ascending
    (NaN stays NaN) and known[c] is the tuple of those values. One numpy sort of all rows (with
    the machine's vector instructions), then one compiled pass: the distinct values are the
    first of each run of equal ones, and each value's code is found by bisection."""
    ordered = np.sort(columns, axis=1)                 # NaN last
    codes, distinct, counts = _coded_rows(columns, ordered)
    return codes, [tuple(distinct[c, :counts[c]].tolist()) for c in range(columns.shape[0])]


@njit(cache=True)
def _coded_rows(columns, ordered):
    """``_value_codes``' pass: (codes, distinct, counts), row c's distinct known values being
    distinct[c, :counts[c]] (the first of each run of equal values of ``ordered``, its sorted
    copy, so that -0.0 and 0.0 are one value)."""
    k, n = columns.shape
    distinct = np.empty((k, n))
    counts = np.zeros(k, dtype=np.int64)
    codes = np.empty((k, n))
    for c in range(k):
        count = 0
        for i in range(n):
            value = ordered[c, i]
            if np.isnan(value):
                break
            if count == 0 or value != distinct[c, count - 1]:
                distinct[c, count] = value
                count += 1
        counts[c] = count
        for i in range(n):
            value = columns[c, i]
            if np.isnan(value):
                codes[c, i] = np.nan
                continue
            lo, hi = 0, count  # the first distinct value >= value: np.searchsorted's left side
            while lo < hi:
                mid = (lo + hi) // 2
                if distinct[c, mid] < value:
                    lo = mid + 1
                else:
                    hi = mid
            codes[c, i] = lo
    return codes, distinct, counts


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
    return C45Data(XT.T, XT, nominal, n_values, tuple([None] * d), tuple(range(d)), view,
                   np.zeros(d, dtype=bool))


def _view(XT, nominal, n_values, num_slot, ptr, rows, vals, implicit_zero) -> GrowView:
    return GrowView(XT, nominal, n_values, num_slot, ptr, rows, vals, implicit_zero)


def _dense_view(XT, nominal, n_values, implicit_zero=None):
    """(view, missing): the GrowView of XT, in which every numeric attribute's stored entries
    are sorted (stable: ties keep row order), and which attributes have a missing value.

    A numeric attribute stores its known values, or its non-zeros if it is *zero-heavy*: no
    missing value, and at least half of the values are zeros (then the non-zeros are less
    than half the entries, and the zero block is crossed in one step). ``implicit_zero`` (one
    flag per numeric attribute) overrides that choice. Infinite values are refused.

    The entries are sorted by numpy: each stored value becomes one unsigned integer, its
    ``_order_key`` with the low bits replaced by its row, and one ``np.sort`` orders every
    attribute's integers (with the vector instructions of the machine: 4-6 times faster than a
    radix sort in numba). The dropped low bits are the last of the mantissa; values that
    differ only there are put in order afterwards (``_unpacked_entries``). Three calls in all
    (after a tree's kernels have run, each numpy call costs microseconds)."""
    row_bits = max(1, (XT.shape[1] - 1).bit_length())
    choose = implicit_zero is None
    given = np.zeros(0, dtype=np.bool_) if choose else np.asarray(implicit_zero, dtype=np.bool_)
    packed, ptr, numeric, num_slot, implicit, missing, infinite = _packed_keys(
        XT, nominal, given, choose, row_bits)
    if infinite:
        raise ValueError("X contains infinite values; C4.5 accepts finite numbers and NaN")
    packed.sort(axis=1)
    rows, vals = _unpacked_entries(packed, ptr, XT, numeric, row_bits)
    return _view(XT, nominal, n_values, num_slot, ptr, rows, vals, implicit), missing


@njit(cache=True, inline="always")
def _stored(value, implicit_zero):
    """Whether an attribute's value is a stored entry: a known value, and not a zero where
    the attribute stores its non-zeros only."""
    return not np.isnan(value) and not (implicit_zero and value == 0.0)


@njit(cache=True)
def _packed_keys(XT, nominal, given, choose, row_bits):
    """The presort's keys (see ``_dense_view``), and what one pass over the values tells:
    (packed, ptr, numeric, num_slot, implicit_zero, missing, infinite).

    packed[s, r] is the ``_order_key`` of numeric attribute s's value in row r with its low
    ``row_bits`` bits replaced by r, or the largest integer if the value is not stored (it
    then sorts last); attribute s stores ptr[s + 1] - ptr[s] entries. ``numeric`` lists the
    numeric attributes, ``num_slot`` gives each attribute's s (-1 if nominal); whether an
    attribute stores its non-zeros only is chosen (zero-heavy) if ``choose``, else ``given``;
    ``missing`` flags every attribute with a missing value; ``infinite``: some numeric value
    is infinite."""
    d, n = XT.shape
    missing = np.zeros(d, dtype=np.bool_)
    for a in range(d):
        row = XT[a]
        n_missing = 0  # counted in a register: or-ing into missing[a] waited on each store
        for r in range(n):
            n_missing += np.isnan(row[r])
        missing[a] = n_missing > 0
    num_slot = np.full(d, -1, dtype=np.int64)
    n_slots = 0
    for a in range(d):
        if not nominal[a]:
            num_slot[a] = n_slots
            n_slots += 1
    numeric = np.empty(n_slots, dtype=np.int64)
    implicit_zero = np.empty(n_slots, dtype=np.bool_)
    infinite = False
    for a in range(d):
        s = num_slot[a]
        if s < 0:
            continue
        numeric[s] = a
        row = XT[a]
        zeros, n_infinite = 0, 0
        for r in range(n):
            zeros += row[r] == 0.0
            n_infinite += np.isinf(row[r])
        infinite |= n_infinite > 0
        implicit_zero[s] = (not missing[a] and 2 * zeros >= n) if choose else given[s]
    packed = np.empty((n_slots, n), dtype=np.uint64)
    ptr = np.zeros(n_slots + 1, dtype=np.int64)
    high = ~np.uint64(0) << np.uint64(row_bits)
    for s in range(n_slots):
        values = XT[numeric[s]]
        count = 0
        for r in range(n):
            value = values[r]
            stored = _stored(value, implicit_zero[s])
            key = (_order_key(value) & high) | np.uint64(r) if stored else ~np.uint64(0)
            packed[s, r] = key
            count += stored
        ptr[s + 1] = ptr[s] + count
    return packed, ptr, numeric, num_slot, implicit_zero, missing, infinite


@njit(cache=True)
def _unpacked_entries(packed, ptr, XT, attributes, row_bits):
    """(ptr, rows, vals) from the sorted ``packed`` keys of ``_packed_keys``. Entries whose keys
    agree above the row bits are in row order; where such a run holds values that differ in
    the dropped bits, the run is sorted again by value (stably, so ties stay in row order).
    Returns (rows, vals)."""
    n_slots = packed.shape[0]
    rows = np.empty(ptr[n_slots], dtype=np.int32)
    vals = np.empty(ptr[n_slots])
    row_mask = ~(~np.uint64(0) << np.uint64(row_bits))
    shift = np.uint64(row_bits)
    run = np.zeros(2, dtype=np.int64)
    for s in range(n_slots):
        values = XT[attributes[s]]
        lo = ptr[s]
        run_start, mixed = lo, False
        for i in range(ptr[s + 1] - lo):
            q = lo + i
            key = packed[s, i]
            row = key & row_mask
            value = values[row]
            rows[q] = row
            vals[q] = value
            if i > 0 and key >> shift == packed[s, i - 1] >> shift:
                mixed |= value != vals[q - 1]
            else:
                if mixed:
                    run[0], run[1] = run_start, q
                    sort_segments(run, rows, vals)
                run_start, mixed = q, False
        if mixed:
            run[0], run[1] = run_start, ptr[s + 1]
            sort_segments(run, rows, vals)
    return rows, vals


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
    XT, nominal, n_values, categories, columns = _encode(X, nominal_features)
    view, missing = _dense_view(XT, nominal, n_values)
    return C45Data(XT.T, XT, nominal, n_values, categories, columns, view, missing)


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
    if data.is_sparse:  # every value not stored is a zero: write the stored ones only
        XT = _scatter_entries(np.zeros((data.XT.shape[0], rows.shape[0])), view.num_slot, ptr,
                              new_rows, new_vals)
    else:
        XT = data.XT.take(rows, axis=1)  # a copy in C order; 5-7x faster than XT[:, rows]
    missing = data.missing.copy()  # a draw has a missing value only where its data has one
    some = np.flatnonzero(missing)
    if some.size:
        missing[some] = np.isnan(XT[some]).any(axis=1)
    return C45Data(XT.T, XT, data.nominal, data.n_values, data.categories, data.columns,
                   _view(XT, data.nominal, data.n_values, view.num_slot, ptr, new_rows,
                         new_vals, view.implicit_zero), missing)


@njit(cache=True)
def _scatter_entries(XT, num_slot, ptr, rows, vals):
    """``XT`` (zeros) with every stored entry of every numeric attribute written in: the
    values of sparse data, whose other values are zeros (a zero of either sign, which no
    comparison of C4.5 tells apart, is written as +0.0). On fresh zeros from the allocator it
    touches only the memory pages that hold an entry: about 10 ms for a draw of Reuters'
    training matrix (2000 x 7769), against 30-60 ms for ``take`` (every page written)."""
    for a in range(num_slot.shape[0]):
        s = num_slot[a]
        if s < 0:
            continue
        for k in range(ptr[s], ptr[s + 1]):
            XT[a, rows[k]] = vals[k]
    return XT


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
