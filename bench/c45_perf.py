"""Profile: where the C4.5 kernels spend a boosted tree's time, kernel by kernel, with Linux perf.

    python bench/c45_perf.py [--set spambase] [--trees 300]
                             [--weights gamma|weightboost|weightdecay] [--out /tmp/c45.perf.data]
                             [--callers NRT_incref,NRT_decref] [--annotate select_split]
                             [--single]

Fits ``--trees`` trees on one UCI table (``snakemake data``), or with ``--set r-<category>`` on
the sparse Reuters training matrix one-vs-rest (``snakemake reuters``), as boosting does (one
``prepare``, new weights per tree), while ``perf record`` samples this process, and prints
``perf report``'s table by symbol. The weights are gamma(1) draws, or with ``--weights
weightboost`` the weightings of a ``--trees``-round WeightBoost (beta 0.5) on the whole set,
recorded first: the trees the pipeline grows, which are deeper (on Reuters earn pruning takes
about twice the share it takes on gamma weights), or with ``--weights weightdecay`` those of a
Weight Decay (C 0.003), whose trees prune longest (pruning is about a fifth of a spambase Weight
Decay fit). perf cannot name code that numba compiled at run time; this script writes the map
perf reads for that (``/tmp/perf-<pid>.map``: each compiled function's address, size and
name), which needs the kernels' LLVM modules: they exist only after a compilation, not when
numba loads its cache, so the kernels are compiled afresh into a temporary cache directory
first (about a minute). Kernels inlined into others (``inline="always"``) count as their
caller.

``--callers`` also says which kernels call some small function, such as numba's reference
counting (``NRT_incref``, ``NRT_decref``): perf's own call graphs cannot, as numba's code keeps
no frame pointers and has no unwind tables. perf then also saves the top 64 bytes of the stack
with each sample (``--call-graph dwarf,64``); a sample taken in such a function, which saves
nothing on the stack, has its return address there, in the calling kernel.

``--single`` profiles single fits from a numpy array instead (``bench/c45_speed.py``'s single
fit: encoding, presort and checks included, unit weights).

``--annotate KERNEL`` profiles one kernel instruction by instruction: its machine code is read
from this process's memory, disassembled with ``objdump`` and printed around its hottest
instructions with each instruction's samples (a sample lands on the instruction that waits,
often the one after a slow division or a call's return).

Needs ``perf`` (Debian: linux-perf) and permission to sample (root, or
``kernel.perf_event_paranoid`` <= 1).
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readable(symbol: str) -> str:
    """``weightboost.c45.split.numeric_splits`` for numba's mangled name of that function."""
    rest, parts = symbol.removeprefix("_ZN"), []
    while (length := re.match(r"\d+", rest)) is not None:
        n = int(length.group())
        parts.append(rest[len(length.group()):len(length.group()) + n])
        rest = rest[len(length.group()) + n:]
    return ".".join(parts) if parts else symbol[:80]


def write_perf_map(modules) -> list:
    """Write /tmp/perf-<pid>.map for every compiled function of the kernels in ``modules``;
    returns its rows, (start, size, name) by address."""
    symbols = {}
    for module in modules:
        for kernel in vars(module).values():
            for compiled in getattr(kernel, "overloads", {}).values():
                library = compiled.library
                for function in library._final_module.functions:
                    if function.is_declaration:
                        continue
                    address = library.get_pointer_to_function(function.name)
                    if address:
                        symbols[address] = readable(function.name)
    addresses = sorted(symbols)
    rows = [(start, min(end - start, 1 << 20), symbols[start])
            for start, end in zip(addresses, addresses[1:] + [addresses[-1] + (1 << 16)])]
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as handle:
        for start, size, name in rows:
            handle.write(f"{start:x} {size:x} {name}\n")
    return rows


SAMPLE = re.compile(r"(0x[0-9a-f]+) \[0x[0-9a-f]+\]: PERF_RECORD_SAMPLE.*: (0x[0-9a-f]+) period")
USER_STACK = re.compile(r"\.\.\. ustack: size (\d+), offset (0x[0-9a-f]+)")


def callers(perf_data: str, functions: list, leaves: set) -> Counter:
    """How many samples taken in one of the ``leaves`` (function names of ``functions``, the
    perf map's rows) return into each function: the word on top of the sample's saved user
    stack. perf's dump (``perf script -D``) gives each sample's place in the file and the place
    of its saved stack there, which is read from the file (a size word, then the bytes)."""
    import bisect
    import struct

    starts = [start for start, _, _ in functions]

    def name_at(address):
        i = bisect.bisect_right(starts, address) - 1
        start, size, name = functions[i] if i >= 0 else (0, 0, None)
        return name if start <= address < start + size else None

    raw = Path(perf_data).read_bytes()
    dump = subprocess.run(["perf", "script", "-D", "-i", perf_data], capture_output=True,
                          text=True).stdout
    counts, record, ip = Counter(), None, None
    for line in dump.splitlines():
        if (sample := SAMPLE.search(line)) is not None:
            record, ip = int(sample.group(1), 16), int(sample.group(2), 16)
        elif (stack := USER_STACK.search(line)) is not None and record is not None:
            if name_at(ip) in leaves and int(stack.group(1)) >= 8:
                at = record + int(stack.group(2), 16) + 8
                counts[name_at(struct.unpack_from("<Q", raw, at)[0]) or "(not a kernel)"] += 1
            record = None
    return counts


def annotate(perf_data: str, functions: list, kernel: str, hottest: int = 8, context: int = 6):
    """Print the instructions of the compiled function named ``...<kernel>`` around its
    ``hottest`` most sampled ones, each with its number of samples."""
    import ctypes

    matches = [(start, size) for start, size, name in functions if name.endswith(kernel)]
    if not matches:
        sys.exit(f"--annotate: no compiled function named ...{kernel}")
    start, size = matches[0]
    ips = subprocess.run(["perf", "script", "-i", perf_data, "-F", "ip"], capture_output=True,
                         text=True).stdout.split()
    samples = Counter(int(ip, 16) - start for ip in ips if start <= int(ip, 16) < start + size)
    with tempfile.NamedTemporaryFile(suffix=".bin") as code:
        code.write(ctypes.string_at(start, size))
        code.flush()
        listing = subprocess.run(["objdump", "-D", "-b", "binary", "-mi386:x86-64",
                                  "--no-show-raw-insn", code.name], capture_output=True,
                                 text=True).stdout
    rows = []  # (offset, instruction)
    for line in listing.splitlines():
        offset, _, instruction = line.partition(":")
        if re.fullmatch(r"\s*[0-9a-f]+", offset) and instruction.strip():
            rows.append((int(offset, 16), instruction.strip()))
    total = sum(samples.values())
    print(f"\n{kernel}: {total} of {len(ips)} samples; its hottest instructions in context "
          "(samples, offset, instruction):")
    hot = sorted(range(len(rows)), key=lambda i: -samples.get(rows[i][0], 0))[:hottest]
    shown = sorted({j for i in hot for j in range(max(i - context, 0),
                                                  min(i + 2, len(rows)))})
    for previous, i in zip([-2] + shown, shown):
        if i != previous + 1:
            print("   ...")
        offset, instruction = rows[i]
        print(f"{samples.get(offset, 0):7d}  {offset:6x}  {instruction}")


def load_set(name: str, data_dir: str):
    """(prepared data, labels) of a UCI table in ``data_dir`` (``snakemake data``), or for
    ``r-<category>`` the sparse Reuters training matrix one-vs-rest (``snakemake reuters``)."""
    import numpy as np

    sys.path.insert(0, str(ROOT / "bench"))
    from c45_speed import as_array, reuters_one_vs_rest

    from weightboost.c45 import prepare
    from weightboost.data.uci import load_table

    if name.startswith("r-"):
        X, y = reuters_one_vs_rest(name, ROOT / "data/processed/reuters/matrices.npz")
        return prepare(X), y
    X, y = load_table(Path(data_dir) / f"{name}.csv")
    nominal = [j for j, c in enumerate(X.columns) if str(X[c].dtype) == "category"]
    return prepare(as_array(X), nominal_features=nominal or None), np.asarray(y)


WEIGHTINGS = ("gamma", "weightboost", "weightdecay")


def tree_weightings(data, y, trees: int, kind: str) -> list:
    """The weights of ``trees`` trees: gamma(1) draws (seed 0), or with ``kind``
    "weightboost" or "weightdecay" those of a booster's rounds (``boosting_weightings``)."""
    import numpy as np

    if kind == "gamma":
        rng = np.random.default_rng(0)
        return [rng.gamma(1.0, size=len(y)) for _ in range(trees)]
    return boosting_weightings(data, y, trees, kind)


def boosting_weightings(data, y, rounds: int, booster: str) -> list:
    """The weights of every tree of a ``rounds``-round ``booster`` ("weightboost": WeightBoost,
    beta 0.5; "weightdecay": Weight Decay, C 0.003) on (data, y), in order (it stops early
    when a round's tree is perfect or useless)."""
    import numpy as np

    from weightboost.boosting import WeightBoost, WeightDecay
    from weightboost.c45.estimator import C45

    recorded, fit_checked = [], C45._fit_checked

    def recording(self, data, classes, y_index, weights):
        recorded.append(np.array(weights, copy=True))
        return fit_checked(self, data, classes, y_index, weights)

    C45._fit_checked = recording
    try:
        model = (WeightBoost(n_estimators=rounds, beta=0.5) if booster == "weightboost"
                 else WeightDecay(n_estimators=rounds))
        model.fit(data, y)
    finally:
        C45._fit_checked = fit_checked
    return recorded


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="spambase")
    parser.add_argument("--trees", type=int, default=300)
    parser.add_argument("--weights", choices=WEIGHTINGS, default="gamma")
    parser.add_argument("--data", default=str(ROOT / "data/processed/uci"))
    parser.add_argument("--out", default=str(Path(tempfile.gettempdir()) / "c45.perf.data"))
    parser.add_argument("--callers", default="",
                        help="comma-separated functions (e.g. NRT_incref,NRT_decref) whose "
                             "samples are attributed to the kernels that call them")
    parser.add_argument("--annotate", metavar="KERNEL", default="",
                        help="profile one kernel (e.g. select_split) instruction by "
                             "instruction")
    parser.add_argument("--single", action="store_true",
                        help="single fits from a numpy array (prepare included)")
    args = parser.parse_args()
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="c45-perf-")  # compile afresh

    import numpy as np

    import weightboost.c45.data as data_module
    import weightboost.c45.estimator as estimator
    import weightboost.c45.grow as grow
    import weightboost.c45.predict as predict
    import weightboost.c45.prune as prune
    import weightboost.c45.tree as tree
    from weightboost.c45 import C45

    data, y = load_set(args.set, args.data)
    if args.single:
        X, nominal = np.ascontiguousarray(data.X), np.flatnonzero(data.nominal)

        def fit(_):
            C45(nominal_features=nominal).fit(X, y)

        weights = [None] * args.trees
    else:
        def fit(w):
            C45().fit(data, y, sample_weight=w)

        weights = tree_weightings(data, y, args.trees, args.weights)
    fit(weights[0])  # compiles every kernel a fit calls
    functions = write_perf_map([grow, prune, predict, tree, data_module, estimator])
    print(f"{len(functions)} compiled functions named", file=sys.stderr)
    stacks = ["--call-graph", "dwarf,64"] if args.callers else []
    recorder = subprocess.Popen(["perf", "record", "-F", "4000", *stacks, "-o", args.out, "-p",
                                 str(os.getpid())], stderr=subprocess.DEVNULL)
    time.sleep(1.0)  # perf attaches
    start = time.perf_counter()
    for w in weights:
        fit(w)
    seconds = time.perf_counter() - start
    recorder.send_signal(signal.SIGINT)
    recorder.wait()
    kind = "single fits, unit weights" if args.single else f"{args.weights} weights"
    print(f"{args.set}: {1000 * seconds / len(weights):.2f} ms per tree ({len(weights)} trees, "
          f"{kind})")
    report = subprocess.run(["perf", "report", "-i", args.out, "--no-children", "--sort",
                             "symbol", "--stdio", "-g", "none"], capture_output=True,
                            text=True).stdout
    rows = [line.split() for line in report.splitlines()
            if line.strip() and not line.startswith("#")]
    for row in rows[:25]:  # share, [.] or [k], symbol
        print(f"{row[0]:>8}  {' '.join(row[2:]).removesuffix(' - -')}")
    if args.callers:
        counts = callers(args.out, functions, set(args.callers.split(",")))
        total = sum(counts.values())
        print(f"\nthe {total} samples in {args.callers}, by the kernel they return to:")
        for name, count in counts.most_common(15):
            print(f"{100 * count / max(total, 1):7.1f}%  {name}")
    if args.annotate:
        annotate(args.out, functions, args.annotate)


if __name__ == "__main__":
    main()
