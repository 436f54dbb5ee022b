"""Benchmark: how many reference count updates numba's runtime makes per C4.5 tree, by phase.

    python bench/c45_refcounts.py [--sets cmc,german,spambase] [--trees 50]
                                  [--weights gamma|weightboost|weightdecay]

Every array a compiled kernel receives, slices or reads from a record is reference counted by
numba's runtime (NRT), and each update is an atomic instruction: 4-5 ns on the Intel machines
here, where they took 28 % (German credit) to 40 % (cmc) of a small set's tree (``perf``:
``bench/c45_perf.py --callers NRT_incref,NRT_decref``). Timings of a change to them are noisy;
their number is exact. This script counts them: before numba builds its runtime module, the
function behind ``NRT_incref``/``NRT_decref`` is rebuilt to add one to a counter as well
(``numba.core.runtime.nrtdynmod._define_atomic_inc_dec``, a private function of numba 0.68:
a measuring tool only, never imported by the package). The kernels' cached code is unchanged:
they call the runtime's functions by name.

Prints, per set, the increments and decrements per tree of the grower (``grow``), the
collapse, the pruner and the final compaction. The trees are those of ``bench/c45_perf.py``
(same sets and weights).
"""

from __future__ import annotations

import argparse
import ctypes
import sys
from collections import Counter
from pathlib import Path

from llvmlite import ir
from numba.core.runtime import nrtdynmod

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from c45_perf import WEIGHTINGS, load_set, tree_weightings  # noqa: E402 (compiles nothing)

COUNTS = (ctypes.c_int64 * 2)()  # increments, decrements
PHASES = ("grow", "collapse", "prune", "compact")


def count_reference_updates():
    """Make NRT's atomic increment and decrement also count themselves in COUNTS."""
    define = nrtdynmod._define_atomic_inc_dec

    def counting(module, op, ordering):
        function = define(module, op, ordering)
        block = function.blocks[0]
        builder = ir.IRBuilder(block)
        builder.position_at_start(block)
        word = ir.IntType(64)
        address = ctypes.addressof(COUNTS) + (0 if op == "add" else 8)
        counter = builder.inttoptr(ir.Constant(word, address), word.as_pointer())
        builder.store(builder.add(builder.load(counter), ir.Constant(word, 1)), counter)
        return function

    nrtdynmod._define_atomic_inc_dec = counting


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="cmc,german,spambase")
    parser.add_argument("--trees", type=int, default=50)
    parser.add_argument("--weights", choices=WEIGHTINGS, default="weightboost")
    parser.add_argument("--data", default=str(ROOT / "data/processed/uci"))
    args = parser.parse_args()
    count_reference_updates()  # before anything compiles or loads a kernel

    import weightboost.c45.estimator as estimator
    from weightboost.c45 import C45

    per_phase = Counter()

    def counted(phase, kernel):
        def wrapper(*a, **k):
            before = COUNTS[0], COUNTS[1]
            out = kernel(*a, **k)
            per_phase[phase, "increments"] += COUNTS[0] - before[0]
            per_phase[phase, "decrements"] += COUNTS[1] - before[1]
            return out
        return wrapper

    for phase in PHASES:
        setattr(estimator, phase, counted(phase, getattr(estimator, phase)))
    print("| set | trees | " + " | ".join(f"{p} inc | {p} dec" for p in PHASES) + " |")
    print("|" + "---|" * (2 + 2 * len(PHASES)))
    for name in args.sets.split(","):
        data, y = load_set(name, args.data)
        weights = tree_weightings(data, y, args.trees, args.weights)
        C45().fit(data, y, sample_weight=weights[0])  # compiled or loaded outside the count
        per_phase.clear()
        for w in weights:
            C45().fit(data, y, sample_weight=w)
        cells = " | ".join(f"{per_phase[p, 'increments'] / len(weights):,.0f} | "
                           f"{per_phase[p, 'decrements'] / len(weights):,.0f}" for p in PHASES)
        print(f"| {name} | {len(weights)} | {cells} |")


if __name__ == "__main__":
    main()
