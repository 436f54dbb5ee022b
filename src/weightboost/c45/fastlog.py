"""A fast natural logarithm with a proven error, for the numeric scan's approximate gains.

J48's gain needs ``lnfunc(x) = x ln x`` of the C library's log (criteria.py), and the trees
must stay bit for bit those of that formula. But to follow J48's chain of improvements
(each cut kept if it beats the best so far by more than 1e-6), an interval around each cut's
gain suffices almost always: ``approx_lnfunc`` gives it without calling the library (an
inlined table and polynomial, which the compiler vectorises over a node's cuts), and the scan
computes exact gains only where the intervals leave a decision open, and for each attribute's
final best cut (split.py, docs/algorithms.md §5.10).

``approx_ln(x)`` for a positive normal x = 2^e·m, m in [1, 2): the top 8 bits of m's fraction
pick c = 1 + (j + 1/2)/256, stored as the float ``_INV[j]`` ≈ 1/c and ``_LOG_C[j]`` =
-ln(``_INV[j]``), so that ln m = ``_LOG_C[j]`` + log1p(r) exactly for r = m·``_INV[j]`` - 1,
|r| < 2^-9 + 2^-52; log1p(r) is taken as r - r²/2. The series' remainder is below
|r|^3/3/(1 - |r|) < 2.5e-9; the rounding of the table, of e·ln 2 (|e| <= 1023) and of the
polynomial adds less than 3e-13. ``LN_ERROR`` = 5e-9 bounds |approx_ln(x) - ln x| over all
positive normal x (tests/test_c45_fastlog.py checks it on two million values and at every
table interval's edges). Two terms of the series, not four: the scan needs the gain to
about 1e-7 (``split.GAIN_MARGIN``), and each term costs a multiplication and an addition.
"""

from __future__ import annotations

import math

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

LN_ERROR = 5e-9
_LN2 = math.log(2.0)
_INV = 1.0 / (1.0 + (np.arange(256) + 0.5) / 256.0)
_LOG_C = -np.log(_INV)


@intrinsic
def float_bits(typingctx, x):
    """The bits of a float64 as an int64 (no conversion)."""
    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.IntType(64))
    return types.int64(types.float64), codegen


@intrinsic
def bits_float(typingctx, bits):
    """The float64 whose bits are the int64 ``bits``."""
    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.DoubleType())
    return types.float64(types.int64), codegen


@njit(cache=True, inline="always")
def approx_ln(x):
    """ln x within ``LN_ERROR``, for a positive normal float x."""
    b = float_bits(x)
    e = ((b >> 52) & 0x7FF) - 1023
    m = bits_float((b & 0x000FFFFFFFFFFFFF) | 0x3FF0000000000000)
    j = (b >> 44) & 255
    r = m * _INV[j] - 1.0
    return (e * _LN2 + _LOG_C[j]) + r * (1.0 - r * 0.5)


@njit(cache=True, inline="always")
def approx_lnfunc(x):
    """``criteria.lnfunc`` with ``approx_ln``: 0 where lnfunc is 0 (x < 1e-6), else within
    x·``LN_ERROR`` of x ln x."""
    return 0.0 if x < 1e-6 else x * approx_ln(x)


@njit(cache=True)
def approx_ln_array(x):
    """``approx_ln`` of every element (for the tests)."""
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        out[i] = approx_ln(x[i])
    return out
