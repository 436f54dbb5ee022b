"""Benchmark: how long numba takes to compile the C4.5 kernels, and which ones it compiles twice.

    python bench/kernel_compile.py [--top 15]

Compiles what a job uses (``weightboost.warm.warm_up``) in a fresh process with an empty,
temporary ``NUMBA_CACHE_DIR``, as on a fresh clone (the warm server and the test suite wait for
this), and prints the wall time, the slowest compilations (inclusive of the kernels they call)
and every function of the package compiled for more than one signature. A second signature
usually means a literal constant passed where a variable of the same role follows, or two
integer types for one argument (docs/algorithms.md §5.10): each costs a compilation. Prediction
is compiled for C- and Fortran-ordered rows on purpose (``C45.encode`` stores rows that every
tree of an ensemble reads in Fortran order).
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
warm_up()
json.dump({"seconds": time.perf_counter() - start, "records": records}, sys.stdout)
"""


def measure() -> dict:
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        done = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True,
                              text=True, check=True)
    return json.loads(done.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    result = measure()
    ours = [r for r in result["records"] if r[1].startswith("weightboost.")]
    print(f"compiling the kernels (import and warm-up included): {result['seconds']:.1f} s\n")
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
