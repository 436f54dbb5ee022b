"""Regression of the result tables: run a config in a fresh directory and compare its tables
with golden ones, cell by cell (integers exactly, floats within 1e-9; timing columns ignored).

Profiles and their golden tables: ``PROFILES`` (docs/testing.md, "Regression: CI fails when a
number moves"). Exit status: 0 if every cell matches, 1 if any moved, 2 if the run failed.
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd

from weightboost.fileio import write_csv_atomic

ROOT = Path(__file__).resolve().parents[2]
TABLES = {  # file -> key columns identifying a row
    "uci_folds.csv": ["dataset", "noise", "algorithm", "repeat", "fold"],
    "uci_summary.csv": ["dataset", "noise", "algorithm"],
    "reuters_f1.csv": ["category", "algorithm", "t_rule"],
    "reuters_curves.csv": ["category", "algorithm", "T"],
    "regboost/folds.csv": ["reading", "dataset", "noise", "algorithm", "repeat", "fold"],
    "regboost/summary.csv": ["reading", "dataset", "noise", "algorithm"],
    "regboost/curves.csv": ["reading", "dataset", "noise", "algorithm", "t"],
    "regboost/semi_supervised.csv": ["dataset", "algorithm", "draw"],
}
# the sensitivity study's tables: compared by `compare` where the golden directory has them
STUDY_TABLES = {
    "sensitivity/folds.csv": ["reading", "dataset", "noise", "algorithm", "repeat", "fold"],
    "sensitivity/summary.csv": ["reading", "dataset", "noise", "algorithm"],
    "sensitivity/reuters_f1.csv": ["reading", "repeat", "category", "algorithm", "t_rule"],
}
IGNORED = {"fit_seconds", "predict_seconds"}
PROFILES = {
    "ci": ([ROOT / "config" / "config.yaml", ROOT / "config" / "ci.yaml"],
           ROOT / "tests" / "golden" / "ci"),
    "full": ([ROOT / "config" / "config.yaml"], ROOT / "results"),
}


def _same(a, b) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        a, b = float(a), float(b)
        return abs(a - b) <= 1e-9 or (math.isnan(a) and math.isnan(b))
    return a == b


def compare_table(new: pd.DataFrame, golden: pd.DataFrame, keys, name) -> list[str]:
    """Human-readable differences between two versions of one table."""
    problems = []
    columns = [c for c in golden.columns if c not in IGNORED]
    missing = [c for c in columns if c not in new.columns]
    if missing:
        return [f"{name}: columns {missing} are missing"]
    extra = [c for c in new.columns if c not in golden.columns and c not in IGNORED]
    if extra:
        problems.append(f"{name}: new columns {extra}")
    new_rows = {tuple(r[k] for k in keys): r for r in new.to_dict("records")}
    old_rows = {tuple(r[k] for k in keys): r for r in golden.to_dict("records")}
    for key in old_rows.keys() - new_rows.keys():
        problems.append(f"{name}: row {dict(zip(keys, key))} disappeared")
    for key in new_rows.keys() - old_rows.keys():
        problems.append(f"{name}: row {dict(zip(keys, key))} is new")
    for key in sorted(old_rows.keys() & new_rows.keys(), key=str):
        old, now = old_rows[key], new_rows[key]
        for column in (c for c in columns if c not in keys):
            if not _same(now[column], old[column]):
                where = ", ".join(f"{k}={v}" for k, v in zip(keys, key))
                problems.append(f"{name} [{where}] {column}: {old[column]!r} -> {now[column]!r}")
    return problems


def compare_dirs(new_dir: Path, golden_dir: Path, tables: dict | None = None) -> list[str]:
    problems = []
    for name, keys in (TABLES if tables is None else tables).items():
        golden_path, new_path = Path(golden_dir) / name, Path(new_dir) / name
        if not golden_path.exists():
            problems.append(f"{name}: no golden table at {golden_path} (run `make golden`)")
            continue
        if not new_path.exists():
            problems.append(f"{name}: the run wrote no {new_path}")
            continue
        problems += compare_table(pd.read_csv(new_path), pd.read_csv(golden_path), keys, name)
    return problems


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m weightboost.regression",
                                     description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("run", "golden"):
        p = sub.add_parser(name)
        p.add_argument("--config", choices=sorted(PROFILES), default="ci")
        p.add_argument("--workdir", type=Path, default=None,
                       help="where to run (default: a fresh temporary directory)")
        p.add_argument("--cores", type=int, default=2)
    p = sub.add_parser("compare")
    p.add_argument("new", type=Path)
    p.add_argument("golden", type=Path)
    args = parser.parse_args(argv)

    if args.command == "compare":
        study = {k: v for k, v in STUDY_TABLES.items() if (args.golden / k).exists()}
        tables = {**TABLES, **study}
        return report(compare_dirs(args.new, args.golden, tables), len(tables))
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix=f"weightboost-{args.config}-"))
    configs, golden = PROFILES[args.config]
    command = [sys.executable, "-m", "snakemake", "--snakefile", str(ROOT / "Snakefile"),
               "--directory", str(workdir), "--cores", str(args.cores), "--configfile",
               *map(str, configs), "--", "experiments", "regboost_results"]
    print("running:", " ".join(command), flush=True)
    code = subprocess.run(command).returncode
    if code != 0:
        print(f"ERROR: the {args.config} run failed (exit {code}); see the Snakemake output "
              f"above and the logs under {workdir}/logs", file=sys.stderr)
        return 2
    tables = workdir / "results"
    if args.command == "golden":
        for name in TABLES:  # without the timing columns: a golden diff shows only results
            write_csv_atomic(golden / name, pd.read_csv(tables / name).drop(
                columns=list(IGNORED), errors="ignore"))
        print(f"golden tables written to {golden}; review them with `git diff {golden}`")
        return 0
    return report(compare_dirs(tables, golden), len(TABLES))


def report(problems: list[str], compared: int) -> int:
    """Print the outcome of comparing ``compared`` tables; the exit status."""
    if not problems:
        print(f"regression: every cell of {compared} tables matches")
        return 0
    print(f"regression: {len(problems)} cells moved", file=sys.stderr)
    for line in problems[:200]:
        print("  " + line, file=sys.stderr)
    if len(problems) > 200:
        print(f"  ... and {len(problems) - 200} more", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
