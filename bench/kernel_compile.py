"""Benchmark: how long numba takes to compile the C4.5 kernels, and which ones it compiles twice.

    python bench/kernel_compile.py [--top 15] [--one-process]

Compiles what a job uses (``weightboost.warm.warm_up``) in a fresh process with an empty,
temporary ``NUMBA_CACHE_DIR``, as on a fresh clone (the warm server and the test suite wait for
this), and prints the wall time, the slowest compilations (inclusive of the kernels they call)
and every function of the package compiled for more than one signature. As in ``warm_up``, a
second process compiles the grower (``weightboost.warm.compile_kernels``): its compilations
are not listed, and this process loads the grower; ``--one-process`` compiles everything here.

A second signature usually means a literal constant passed where a variable of the same role
follows, or two integer types for one argument (docs/algorithms.md §5.10): each costs a
compilation. Prediction is compiled for C- and Fortran-ordered rows on purpose (``C45.encode``
stores rows that every tree of an ensemble reads in Fortran order); pruning or prediction
listed twice may also mean that ``warm.compile_pruning_and_prediction``'s one-leaf tree no
longer has the grower's array types.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict

PROBE = r"""
import json, sys, time
from numba.core import event

records, started = [], {}

def key(ev):
    return id(ev.data["dispatcher"]), str(ev.data["args"])

class Recorder(event.Listener):
    def on_start(self, ev):
        started[key(ev)] = time.perf_counter()
    def on_end(self, ev):
        function = ev.data["dispatcher"].py_func
        records.append((time.perf_counter() - started.pop(key(ev)), function.__module__,
                        function.__qualname__, str(ev.data["args"])))

event.register("numba:compile", Recorder())
start = time.perf_counter()
from weightboost.warm import warm_up
warm_up(second_process="--one-process" not in sys.argv)
json.dump({"seconds": time.perf_counter() - start, "records": records}, sys.stdout)
"""


def measure(one_process: bool) -> dict:
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        probe = [sys.executable, "-c", PROBE] + (["--one-process"] if one_process else [])
        done = subprocess.run(probe, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--one-process", action="store_true",
                        help="compile everything in this process (default: as warm_up does)")
    args = parser.parse_args()
    result = measure(args.one_process)
    ours = [r for r in result["records"] if r[1].startswith("weightboost.")]
    how = "in one process" if args.one_process else "the grower in a second process"
    print(f"compiling the kernels ({how}; import and warm-up included): "
          f"{result['seconds']:.1f} s\n")
    print("| seconds (with callees) | kernel |")
    print("|---|---|")
    for seconds, module, name, _ in sorted(ours, reverse=True)[:args.top]:
        print(f"| {seconds:.2f} | {module}.{name} |")
    signatures = defaultdict(list)
    for _, module, name, types in ours:
        signatures[f"{module}.{name}"].append(types)
    repeated = {name: types for name, types in signatures.items() if len(types) > 1}
    print(f"\nkernels compiled for more than one signature: {len(repeated)}")
    for name, types in sorted(repeated.items()):
        print(f"- {name}:")
        for t in types:
            print(f"    {t[:300]}")


if __name__ == "__main__":
    main()
