"""Benchmark: paired A/B of the C4.5 kernels of the working tree against those of a git revision.

    python bench/c45_ab.py [--base HEAD] [--sets spambase,r-earn,...] [--rounds 5]
                           [--weights gamma|unit|weightboost|weightdecay]

On a shared or noisy machine, runs of separate processes differ by 20-40 % on the same code,
which hides a kernel change worth a few percent. Here one process holds both versions (each
as a renamed copy of ``src/weightboost``: ``wb_base`` from ``git archive <base>``, ``wb_work``
from the working tree) and fits the same trees with both, alternating, so that both see the
same machine. A second trap: in one process the version whose data is prepared (and first
fitted) first runs small sets 20-30 % faster, whatever the code (an A/A run gave 0.77 on German
credit). So the comparison runs twice, each version first once, and reports the geometric
mean of the two median paired ratios (work / base; below 1 is faster). Every fit's two trees
are compared too: a speed change must not change a tree, and the script fails naming the sets
where one did.

Weights are gamma(1) draws, as boosting gives trees of various depths, with ``--weights unit``
ones (a single tree, or a resampling booster's: every class weight a whole number; the order
effect above is larger there, an A/A run gave 0.50 and 2.05 on wpbc, 1.01 combined), or with
``--weights weightboost|weightdecay`` the weightings of a 20-round booster on the whole set
(``boosting_weightings``): deeper trees, which prune longer. Sets: the UCI tables
(`snakemake data`) and ``r-<category>`` for Reuters one-vs-rest (`snakemake reuters_features`).
The copies live under ``$TMPDIR/weightboost-ab/`` by source digest, so their compiled kernels
are reused by the next comparison of the same sources (each new version compiles once, about
a minute).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SETS = "german,pima,spambase,r-earn,r-grain"


def renamed_copy(files: dict[str, bytes], name: str) -> Path:
    """The package's files (path below src/weightboost -> bytes) as package ``name``, in a
    directory named after their digest; returns the directory to put on sys.path."""
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(path.encode() + b"\0" + files[path] + b"\0")
    home = Path(tempfile.gettempdir(), "weightboost-ab", f"{name}-{digest.hexdigest()[:16]}")
    if not (home / name / "__init__.py").exists():
        shutil.rmtree(home, ignore_errors=True)
        for path, data in files.items():
            target = home / name / path
            target.parent.mkdir(parents=True, exist_ok=True)
            if path.endswith(".py"):
                data = re.sub(rb"\bweightboost\b(?=[. ])", name.encode(), data)
            target.write_bytes(data)
    return home


def working_tree_files() -> dict[str, bytes]:
    package = ROOT / "src" / "weightboost"
    return {str(p.relative_to(package)): p.read_bytes() for p in package.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts}


def revision_files(revision: str) -> dict[str, bytes]:
    archive = subprocess.run(["git", "archive", revision, "src/weightboost"], cwd=ROOT,
                             capture_output=True, check=True).stdout
    files = {}
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for member in tar.getmembers():
            if member.isfile():
                files[member.name.removeprefix("src/weightboost/")] = \
                    tar.extractfile(member).read()
    return files


def load_sets(names, prepare_first, prepare_second):
    """{name: ((data for the first version, data for the second), labels, raw data)}, each
    version's data prepared by its own package, the first version's first."""
    import numpy as np

    from weightboost.data.uci import load_table

    sets, reuters = {}, None
    for name in names:
        if name.startswith("r-"):
            if reuters is None:
                from weightboost.reuters.stage import load_matrices

                X, _, labels, _, categories = load_matrices(
                    ROOT / "data/processed/reuters/matrices.npz")
                reuters = ((prepare_first(X), prepare_second(X)), labels, categories, X)
            data, labels, categories, X = reuters
            sets[name] = (data, np.where(labels[:, categories.index(name[2:])] == 1, 1, -1), X)
        else:
            X, y = load_table(ROOT / f"data/processed/uci/{name}.csv")
            sets[name] = ((prepare_first(X), prepare_second(X)), y, X)
    return sets


def boosting_weightings(data, y, rounds: int, booster: str) -> list:
    """The weights of every tree of a ``rounds``-round ``booster`` ("weightboost": WeightBoost,
    beta 0.5; "weightdecay": Weight Decay, C 0.003) on (data, y), in order (it stops early
    when a round's tree is perfect or useless), fitted by the installed package."""
    import numpy as np

    from weightboost.boosting import WeightBoost, WeightDecay
    from weightboost.c45.estimator import C45

    recorded, fit_checked = [], C45._fit_checked

    def recording(self, data, classes, y_index, weights, *rest):
        recorded.append(np.array(weights, copy=True))
        return fit_checked(self, data, classes, y_index, weights, *rest)

    C45._fit_checked = recording
    try:
        model = (WeightBoost(n_estimators=rounds, beta=0.5) if booster == "weightboost"
                 else WeightDecay(n_estimators=rounds))
        model.fit(data, y)
    finally:
        C45._fit_checked = fit_checked
    return recorded


def measure(names: list[str], rounds: int, first: str, differ: set,
            weighting: str = "gamma") -> dict[str, float]:
    """In this process: the median paired time ratio work/base per set, ``first`` ('base' or
    'work') prepared and fitted first; the sets on which a fit gave two different trees are
    added to ``differ``."""
    import importlib

    import numpy as np

    versions = {v: importlib.import_module(f"wb_{v}.c45") for v in ("base", "work")}
    order = [first, "work" if first == "base" else "base"]
    sets = load_sets(names, versions[order[0]].prepare, versions[order[1]].prepare)
    rng = np.random.default_rng(0)
    ratios = {}
    for name, (data, y, X) in sets.items():
        by_version = dict(zip(order, data))
        if weighting == "gamma":
            weights = [rng.gamma(1.0, 1.0, len(y)) for _ in range(4)]
        elif weighting == "unit":  # a single tree, or a resampling booster's
            weights = [np.ones(len(y))]
        else:  # the last four of the booster's rounds (or all, if it stopped before)
            weights = boosting_weightings(X, y, 20, weighting)[-4:]
        for v in order:  # compile, and the first fit's allocations
            versions[v].C45().fit(by_version[v], y, sample_weight=weights[0])
        reps = 3 if name.startswith("r-") or name == "spambase" else 20
        times = {"base": [], "work": []}
        for r in range(rounds):
            for k in range(reps):
                trees = {}
                for v in (order if (r + k) % 2 == 0 else order[::-1]):
                    start = time.perf_counter()
                    trees[v] = versions[v].C45().fit(
                        by_version[v], y, sample_weight=weights[k % len(weights)]).tree_
                    times[v].append(time.perf_counter() - start)
                if not all(np.array_equal(getattr(trees["base"], part),
                                          getattr(trees["work"], part), equal_nan=True)
                           for part in ("node_int", "node_float", "empty", "dist")):
                    differ.add(name)
        ratios[name] = float(np.median(np.array(times["work"]) / np.array(times["base"])))
    return ratios


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="HEAD", help="git revision to compare with")
    parser.add_argument("--sets", default=DEFAULT_SETS)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--weights", choices=("gamma", "unit", "weightboost", "weightdecay"),
                        default="gamma")
    parser.add_argument("--measure", choices=("base", "work"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    names = args.sets.split(",")
    if args.measure:  # the child: both copies are on sys.path
        differ = set()
        ratios = measure(names, args.rounds, args.measure, differ, args.weights)
        print(json.dumps({"ratios": ratios, "differ": sorted(differ)}))
        return
    paths = [str(renamed_copy(revision_files(args.base), "wb_base")),
             str(renamed_copy(working_tree_files(), "wb_work"))]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths + [str(ROOT / "src")])}
    results, differ = {}, set()
    for first in ("base", "work"):
        out = subprocess.run([sys.executable, __file__, "--sets", args.sets, "--rounds",
                              str(args.rounds), "--weights", args.weights, "--measure", first],
                             env=env, check=True,
                             stdout=subprocess.PIPE, text=True).stdout
        answer = json.loads(out.strip().splitlines()[-1])
        results[first] = answer["ratios"]
        differ |= set(answer["differ"])
    print(f"working tree / {args.base} (median paired time ratio; below 1 is faster; "
          f"{args.weights} weights)")
    print("| set | base first | work first | geometric mean |")
    print("|---|---|---|---|")
    for name in names:
        a, b = results["base"][name], results["work"][name]
        print(f"| {name} | {a:.3f} | {b:.3f} | {math.sqrt(a * b):.3f} |")
    if differ:
        sys.exit(f"the two versions grew different trees on: {', '.join(sorted(differ))}")
    print("every fit gave the same tree with both versions")


if __name__ == "__main__":
    main()
