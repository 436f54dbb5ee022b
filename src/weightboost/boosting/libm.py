"""The boosting weights' arithmetic in compiled code, with the floats numpy would give on a CPU
without AVX-512: exponentials by the C library's ``exp``, sums by numpy's pairwise summation.

numpy computes float64 ``exp``, ``log`` and ``log1p`` with code of its own on CPUs with AVX-512
(its X86_V4 dispatch target) and with the C library elsewhere; the two differ in the last bit
of some results. A boosting weight one bit off can flip one of C4.5's 1e-6 tie rules and grow
another tree, so the result tables of one config differed between an AVX-512 machine and an
AVX2 one (13 of 1,600 fold errors; docs/integrity.md, "Determinism"). Computed here, through the compiled
loop below or Python's ``math`` (both call the C library), the weights no longer depend on
numpy's choice of code, only on the C library's (docs/algorithms.md §1.4).

The loop is compiled by numba without a vector math library: numba would use Intel's SVML
(other last bits) only if the ``icc_rt`` package were installed, which the lock does not
include; the provenance records numba's choice (``weightboost.pipeline.provenance``).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit


@njit(cache=True)
def exp(a):
    """exp of each element of the 1-D float64 array ``a``, by the C library."""
    out = np.empty(a.shape[0])
    for i in range(a.shape[0]):
        out[i] = math.exp(a[i])
    return out


@njit(cache=True, inline="always")
def block_sum(a, lo, n):
    """numpy's sum of a block of at most 128 elements: left to right below 8, else 8
    interleaved partial sums added pairwise, then the remainder."""
    if n < 8:
        total = 0.0
        for i in range(lo, lo + n):
            total += a[i]
        return total
    r0, r1, r2, r3 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3]
    r4, r5, r6, r7 = a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]
    i = lo + 8
    end = lo + n - n % 8
    while i < end:
        r0 += a[i]
        r1 += a[i + 1]
        r2 += a[i + 2]
        r3 += a[i + 3]
        r4 += a[i + 4]
        r5 += a[i + 5]
        r6 += a[i + 6]
        r7 += a[i + 7]
        i += 8
    total = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < lo + n:
        total += a[i]
        i += 1
    return total


@njit(cache=True)
def pairwise_sum(a, lo, n):
    """a[lo] + ... + a[lo + n - 1] as numpy sums a contiguous float64 array (its pairwise
    summation: a part of more than 128 elements is the sum of its two halves, split at a
    multiple of 8; smaller parts are ``block_sum``s), so that the floats are those of
    ``a[lo:lo + n].sum()`` (tested on every length up to 300 and at random lengths up to
    30,000). The recursion runs on an explicit stack: numba's cache cannot reload a
    recursive function (the process crashes)."""
    if n <= 128:
        return block_sum(a, lo, n)
    # frames (part start, part length, stage, left half's sum); stage 0: not split yet,
    # 1: the left half is being summed, 2: the right half is; halves shrink from n, so 64
    # frames are more than any length needs
    starts = np.empty(64, dtype=np.int64)
    lengths = np.empty(64, dtype=np.int64)
    stages = np.zeros(64, dtype=np.int64)
    lefts = np.empty(64)
    top = 0
    starts[0], lengths[0] = lo, n
    returned = 0.0  # the sum of the part whose frame was popped last
    while True:
        part_lo, part_n = starts[top], lengths[top]
        half = part_n // 2
        half -= half % 8
        if stages[top] == 0 and part_n <= 128:
            returned = block_sum(a, part_lo, part_n)
            top -= 1
        elif stages[top] == 0:
            stages[top] = 1
            top += 1
            starts[top], lengths[top], stages[top] = part_lo, half, 0
        elif stages[top] == 1:
            lefts[top] = returned
            stages[top] = 2
            top += 1
            starts[top], lengths[top], stages[top] = part_lo + half, part_n - half, 0
        else:
            returned = lefts[top] + returned
            top -= 1
        if top < 0:
            return returned


@njit(cache=True)
def distribution(log_w):
    """The weights ``exp(log_w - max)`` normalised to sum 1: the floats of
    ``p = exp(log_w - log_w.max()); p /= p.sum()`` (numpy's pairwise sum), in one call."""
    n = log_w.shape[0]
    top = log_w[0]
    for i in range(1, n):
        top = max(top, log_w[i])
    p = np.empty(n)
    for i in range(n):
        p[i] = math.exp(log_w[i] - top)
    total = pairwise_sum(p, 0, n)
    for i in range(n):
        p[i] /= total
    return p


@njit(cache=True)
def misclassified_weight(p, correct):
    """The summed ``p`` where ``correct`` is False: the float of ``p[~correct].sum()``."""
    kept = np.empty(p.shape[0])
    k = 0
    for i in range(p.shape[0]):
        if not correct[i]:
            kept[k] = p[i]
            k += 1
    return pairwise_sum(kept, 0, k)
