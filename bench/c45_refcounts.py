"""Benchmark: how many reference count updates numba's runtime makes per C4.5 tree, by phase.

    python bench/c45_refcounts.py [--sets cmc,german,spambase] [--trees 50]
                                  [--weights gamma|weightboost|weightdecay]
    python bench/c45_refcounts.py --sites

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
collapse, the pruner and the final compaction. (A fit crosses into compiled code once, through
``build.fit_tree``; the script replaces that call by the four kernels called one by one, as it
calls them, so that each phase is counted: the three extra crossings add a few updates.) The
trees are those of ``bench/c45_perf.py`` (same sets and weights).

``--sites`` says where they are: it compiles the kernels afresh (into a temporary cache: the
LLVM IR exists only after a compilation) and lists, for each kernel of the grower and the
pruner (compiled for cmc's types), the ``NRT_incref``/``NRT_decref`` calls that the
optimised IR keeps inside loops, by
loop depth (natural loops of the control-flow graph), with the value each one counts: an
argument (``%arg.sample.3.0``: field 3 of the record argument ``sample``) or an unnamed
temporary. Calls in a loop run at every iteration; an inlined function's array arguments
often show up there.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import re
import sys
import tempfile
from collections import Counter, defaultdict
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


def loop_depths(blocks: dict, order: list) -> dict:
    """Loop depth of each basic block (name -> instruction lines, ``order[0]`` the entry): the
    number of natural loops (a back edge's header and the blocks that reach its source without
    passing the header) that contain it."""
    successors = {b: [t for t in re.findall(r"label %([\w.$-]+)", " ".join(lines)) if t in blocks]
                  for b, lines in blocks.items()}
    predecessors = defaultdict(list)
    for b, targets in successors.items():
        for t in targets:
            predecessors[t].append(b)
    dominators = {b: set(order) for b in order}
    dominators[order[0]] = {order[0]}
    changed = True
    while changed:
        changed = False
        for b in order[1:]:
            incoming = [dominators[p] for p in predecessors[b]]
            new = {b} | (set.intersection(*incoming) if incoming else set())
            if new != dominators[b]:
                dominators[b], changed = new, True
    loops = defaultdict(set)
    for b, targets in successors.items():
        for header in targets:
            if header in dominators[b]:  # a back edge b -> header
                body, work = {header, b}, ([] if b == header else [b])
                while work:
                    for p in predecessors[work.pop()]:
                        if p not in body:
                            body.add(p)
                            work.append(p)
                loops[header] |= body
    return {b: sum(b in body for body in loops.values()) for b in order}


def print_sites(data_dir: str):
    """The reference count calls inside loops of every kernel of the grower and the pruner."""
    import weightboost.c45.grow as grow
    import weightboost.c45.prune as prune
    import weightboost.c45.split as split
    from weightboost.c45 import C45

    data, y = load_set("cmc", data_dir)
    C45().fit(data, y)
    for module in (grow, split, prune):
        for name, kernel in sorted(vars(module).items()):
            if getattr(kernel, "__module__", None) != module.__name__:
                continue
            signatures = getattr(kernel, "inspect_llvm", lambda: {})()
            for number, ir in enumerate(signatures.values()):
                mangled = f"{len(name)}{name}B"  # numba's mangled name holds this
                functions = [f for f in re.split(r"\n(?=define )", ir)
                             if f.startswith("define") and mangled in f.split("\n")[0]
                             and "cpython" not in f.split("\n")[0]]
                if not functions:
                    continue
                blocks, order, current = {}, [], "entry"
                for line in max(functions, key=len).split("\n")[1:]:
                    label = re.match(r"^([\w.$-]+):", line)
                    if label or not order:
                        current = label.group(1) if label else current
                        blocks[current], order = [], order + [current]
                        if label:
                            continue
                    blocks[current].append(line)
                depth = loop_depths(blocks, order)
                sites = [(depth[b], b, m.group(1), m.group(2)) for b in order for line in blocks[b]
                         for m in [re.search(r"@NRT_(incref|decref)\(ptr (\S+)\)", line)] if m]
                by_depth = Counter(d for d, *_ in sites)
                which = (f" (signature {number + 1} of {len(signatures)})"
                         if len(signatures) > 1 else "")
                counts = ", ".join(f"{by_depth[d]} at depth {d}" for d in sorted(by_depth))
                print(f"{module.__name__}.{name}{which}: {counts or 'none'}")
                for d, block, kind, value in sites:
                    if d > 0:
                        print(f"    depth {d}  {block:<28} {kind} {value}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="cmc,german,spambase")
    parser.add_argument("--trees", type=int, default=50)
    parser.add_argument("--weights", choices=WEIGHTINGS, default="weightboost")
    parser.add_argument("--data", default=str(ROOT / "data/processed/uci"))
    parser.add_argument("--sites", action="store_true",
                        help="list the reference count calls inside the kernels' loops")
    args = parser.parse_args()
    if args.sites:
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="c45-sites-")  # compile afresh
        print_sites(args.data)
        return
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

    # a fit is one compiled call (``build.fit_tree``); here its phases are called one by one,
    # as fit_tree calls them, so that each is counted (crossing into compiled code four times
    # instead of once adds a few updates to each phase's count)
    import numpy as np

    from weightboost.c45.grow import grow
    from weightboost.c45.prune import collapse, prune
    from weightboost.c45.tree import compact

    kernels = {"grow": grow, "collapse": collapse, "prune": prune, "compact": compact}
    phase = {name: counted(name, kernels[name]) for name in PHASES}

    def fit_tree_by_phase(view, missing, y, n_classes, weights, grow_settings,
                          prune_settings, collapsing, pruning):
        tree = phase["grow"](view, y, n_classes, weights, grow_settings)
        if collapsing:
            phase["collapse"](tree.node_int, tree.dist, np.int64(0))
        if pruning:
            tree = phase["prune"](view, missing, y, n_classes, tree, prune_settings)
        return phase["compact"](tree.node_int, tree.node_float, tree.empty, tree.dist,
                                tree.node_int.shape[0])

    estimator.fit_tree = fit_tree_by_phase
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
