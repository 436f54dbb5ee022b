"""The exponentials of the boosting weights, computed by the C library's ``exp`` on every CPU.

numpy computes float64 ``exp``, ``log`` and ``log1p`` with code of its own on CPUs with AVX-512
(its X86_V4 dispatch target) and with the C library elsewhere; the two differ in the last bit
of some results. A boosting weight one bit off can flip one of C4.5's 1e-6 tie rules and grow
another tree, so the result tables of one config differed between an AVX-512 machine and an
AVX2 one (13 of 1,600 fold errors; README, "Determinism"). Computed here, through the compiled
loop below or Python's ``math`` (both call the C library), the weights no longer depend on
numpy's choice of code, only on the C library's (docs/algorithms.md §1.4).

The loop is compiled by numba without a vector math library: numba would use Intel's SVML
(other last bits) only if the ``icc_rt`` package were installed, which the lock does not
include; the provenance records numba's choice (``weightboost.experiment.provenance``).
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
