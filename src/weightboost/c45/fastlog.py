"""Cheap bounds of entropy terms with proven errors, for screening numeric cuts: a fast natural
logarithm, and for two classes a lower bound of the binary entropy.

J48's gain needs ``lnfunc(x) = x ln x`` of the C library's log (criteria.py), and the trees
must stay bit for bit those of that formula. Most cuts the numeric scan evaluates cannot beat
the best cut found so far, though, and to know that an upper bound of their gain suffices:
``approx_lnfunc`` gives it without calling the library (an inlined table and polynomial: a
cut's six cost about half of six calls in a loop of their own, and in the scan the call's
spilled registers and the gain's divisions are saved too), and the scan computes the exact gain only of the cuts whose bound does not rule
them out (split.py, docs/algorithms.md §5.3).

``approx_ln(x)`` for a positive normal x = 2^e·m, m in [1, 2): the top 8 bits of m's fraction
pick c = 1 + (j + 1/2)/256, stored as the float ``_INV[j]`` ≈ 1/c and ``_LOG_C[j]`` =
-ln(``_INV[j]``), so that ln m = ``_LOG_C[j]`` + log1p(r) exactly for r = m·``_INV[j]`` - 1,
|r| < 2^-9 + 2^-52; log1p(r) is taken as r - r²/2. The series' remainder is below
|r|^3/3/(1 - |r|) < 2.5e-9; the rounding of the table, of e·ln 2 (|e| <= 1023) and of the
polynomial adds less than 3e-13. ``LN_ERROR`` = 5e-9 bounds |approx_ln(x) - ln x| over all
positive normal x (tests/test_c45_fastlog.py checks it on two million values and at every
table interval's edges). Two terms of the series, not four: the screen needs the gain to
about 1e-7 (``split.GAIN_MARGIN``), and each term costs a multiplication and an addition
in a loop that takes six logarithms per cut (with four: 0.97 of the time, with two: 0.92-0.96
on pima, wpbc and wdbc, ``bench/c45_ab.py``).

With two classes a cut's weighted entropy is a sum of binary entropies,
φ(L) - φ(l_0) - φ(l_1) = L·H(l_0/L) with φ(x) = x ln x and H(p) = -p ln p - (1-p) ln(1-p) (in
real numbers, where l_0 + l_1 = L). H is concave, so each of its chords lies below it:
``entropy_chord(p)`` interpolates H linearly between the 2049 points i/2048, where H is
computed once with the C library's log, and is at most H(p) up to the rounding of the table
and the interpolation (1e-14). It costs a table read (16 KiB) and three operations, where
``approx_lnfunc`` costs about fifteen per term. The chord's gap below H is at most
h²/8·|H''| (h = 1/2048, H''(p) = -1/(p(1-p))): under 6.3e-7 nats for p in [0.05, 0.95] and 3e-6
in [0.01, 0.99], but 1.8e-4 by the ends, where a bound this loose would make the scan compute
many more gains exactly (Reuters' pure runs); ``split.binary_gain_bound`` uses the chords in
[0.01, 0.99] only.
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
_CHORDS = 2048
_P = np.arange(_CHORDS + 1) / _CHORDS
with np.errstate(divide="ignore", invalid="ignore"):
    _ENTROPY = np.nan_to_num(-(_P * np.log(_P) + (1.0 - _P) * np.log1p(-_P)))
_ENTROPY[0] = _ENTROPY[-1] = 0.0


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


@njit(cache=True, inline="always")
def entropy_chord(p):
    """A lower bound of the binary entropy H(p) in nats, p clipped to [0, 1]: H's chord over
    the table interval holding p."""
    t = min(max(p * _CHORDS, 0.0), float(_CHORDS))
    i = min(int(t), _CHORDS - 1)
    return _ENTROPY[i] + (t - i) * (_ENTROPY[i + 1] - _ENTROPY[i])


@njit(cache=True)
def approx_ln_array(x):
    """``approx_ln`` of every element (for the tests)."""
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        out[i] = approx_ln(x[i])
    return out
