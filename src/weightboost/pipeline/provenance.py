"""What a set of result tables was computed from (``<set>.provenance.json``: the config keys
its cells depend on, the code and environment they ran, their inputs, stages and platform),
written beside the tables all or nothing and checked before they are rebuilt or read; and the
cells' keys and each set's code (docs/integrity.md, "Table records" and "Cell keys").
"""

from __future__ import annotations

import hashlib
import json
import platform
from pathlib import Path

import pandas as pd

from weightboost.pipeline import environment
from weightboost.errors import ConfigError
from weightboost.pipeline.package_code import package_digest
from weightboost.fileio import (committed_files, files_together, finish_files_together,
                                journal_beside, sha256_bytes, sha256_file, write_bytes_atomic,
                                write_json_atomic)

MAIN = "main"
TABLE_SETS = {"uci": ("uci_folds.csv", "uci_summary.csv"),
              "reuters": ("reuters_f1.csv", "reuters_curves.csv"),
              "regboost": ("regboost/folds.csv", "regboost/summary.csv", "regboost/curves.csv",
                           "regboost/semi_supervised.csv"),
              "sensitivity": ("sensitivity/folds.csv", "sensitivity/summary.csv",
                              "sensitivity/timing.csv"),
              "sensitivity_reuters": ("sensitivity/reuters_f1.csv",),
              "barrier": ("barrier/folds.csv", "barrier/summary.csv", "barrier/curves.csv")}
# the package code that computes each table set's cells (``package_digest``): every module a
# cell job loads, less PLUMBING, which computes no value (tested against what a cell loads;
# docs/integrity.md, "Cells, and what a cell depends on")
_LEARNERS = ("c45", "boosting/__init__.py", "boosting/core.py", "boosting/libm.py",
             "boosting/rules.py", "boosting/selection.py", "boosting/variants.py", "prepared.py",
             "experiment/learners.py")
_UCI_CELL = _LEARNERS + ("data/spec.py", "data/uci.py", "experiment/protocol.py",
                         "experiment/uci.py")
TABLE_SET_CODE = {"uci": _UCI_CELL,
                  "reuters": _LEARNERS + ("reuters/corpus.py", "reuters/features.py",
                                          "reuters/nltk_package.py", "reuters/sgml.py",
                                          "reuters/stage.py", "reuters/text.py",
                                          "experiment/reuters.py", "experiment/cell_names.py"),
                  "regboost": _UCI_CELL + ("boosting/regboost.py", "stumps",
                                           "experiment/regboost_cells.py", "semi_supervised.py",
                                           "experiment/cell_names.py"),
                  # the UCI grid's cells under other parameters, by the study's cell job
                  "sensitivity": _UCI_CELL + ("experiment/study_cells.py",
                                              "experiment/cell_names.py")}
TABLE_SET_CODE["sensitivity_reuters"] = TABLE_SET_CODE["reuters"]  # the Reuters study's cells
TABLE_SET_CODE["barrier"] = _UCI_CELL + ("boosting/regboost.py", "stumps", "data/generators.py",
                                         "experiment/barrier.py", "experiment/reuters.py",
                                         "experiment/tables.py")
PLUMBING = ("__init__.py", "errors.py", "fileio.py", "kernel_cache.py",
            "pipeline/__init__.py", "pipeline/cell_archive.py", "pipeline/environment.py",
            "pipeline/lockfile.py", "pipeline/package_code.py", "pipeline/stuck_server.py",
            "pipeline/warm.py", "pipeline/warm_kernels.py", "pipeline/workflow_support.py",
            "data/__init__.py", "experiment/__init__.py", "reuters/__init__.py")
# the code each data-stage job loads, less PLUMBING (the data rules' ``code_sha256`` param: an
# edit reruns the job; tests/test_workflow_data.py checks each list against what its job loads)
_FETCH = ("data/jobs.py", "data/fetch.py", "data/download.py", "data/sources.py", "data/spec.py")
DATA_JOB_CODE = {
    "fetch_uci": _FETCH,
    "parse_uci": _FETCH + ("data/uci.py",),
    "generate_dataset": _FETCH + ("data/generators.py", "data/uci.py"),
    "fetch_reuters": _FETCH + ("reuters/fetch.py",),
    "reuters_features": _FETCH + ("reuters/corpus.py", "reuters/features.py",
                                  "reuters/nltk_package.py", "reuters/sgml.py",
                                  "reuters/stage.py", "reuters/text.py"),
}
# the code that builds the reports from the tables (the report rules' ``code_sha256`` param):
# the report package and the modules it imports
REPORT_CODE = ("report", "statistics.py", "pipeline/lockfile.py", "pipeline/provenance.py",
               "experiment/reuters.py", "experiment/sensitivity.py", "experiment/regboost.py",
               "experiment/learners.py", "experiment/protocol.py", "experiment/tables.py")


def reuters_content(options: dict) -> dict:
    """The config's ``reuters`` section without where its raw files come from: what the
    matrices (the ``reuters_features`` rule) and the study's tables depend on."""
    return {k: v for k, v in options.items() if k not in ("remotes", "nltk_package")}


def dataset_content(spec: dict) -> dict:
    """A ``datasets`` entry without where its raw file comes from and what it is, nor
    ``missing_values`` (checked against the table: it moves no number): what its canonical
    table depends on (the raw file's checksum and layout, the table's pin)."""
    ignored = ("description", "uci_archive", "openml", "missing_values")
    content = {k: v for k, v in spec.items() if k not in ignored}
    if "generator" in spec:  # the function's code, as an outside learner's (data/generators.py)
        from weightboost.data.generators import generator_code

        content["generator_code"] = generator_code(spec)
    return content


def run_dir(config: dict, root: str) -> str:
    """``root`` (results, reports) for the committed run ``main``, else ``root/runs/<run>``."""
    run = config.get("run", MAIN)
    return root if run == MAIN else f"{root}/runs/{run}"


def grid_protocol(config: dict) -> dict:
    """What every UCI grid (and sensitivity) cell depends on of ``experiment``: not its lists
    of noise levels and algorithms, so that adding one reruns no other cell."""
    return {k: config["experiment"][k] for k in ("seed", "folds", "rounds")}


def _pins(config: dict, datasets) -> dict:
    """The canonical-table pins of ``datasets``: what a table set depends on of their specs."""
    return {d: {"table_sha256": config["datasets"][d].get("table_sha256")} for d in datasets}


def _entries(config: dict, names) -> dict:
    return {a: config["algorithms"][a] for a in names}


def table_inputs(config: dict, kind: str) -> dict:
    """The config keys the tables of ``kind`` depend on."""
    if kind == "uci":
        experiment = config["experiment"]
        return {"experiment": experiment,
                "algorithms": _entries(config, experiment["algorithms"]),
                "datasets": _pins(config, experiment["datasets"])}
    if kind == "regboost":
        from weightboost.experiment.regboost import study_section, used_algorithms

        # lam_grid_before changes what the report shows of the tables, not the tables
        study = {k: v for k, v in study_section(config).items() if k != "lam_grid_before"}
        return {"regboost": study, "experiment": {"seed": config["experiment"]["seed"]},
                "algorithms": _entries(config, used_algorithms(study)),
                "datasets": _pins(config, study["datasets"])}
    if kind == "sensitivity":
        from weightboost.experiment.sensitivity import study_section, used_algorithms

        study = {k: v for k, v in study_section(config).items() if k != "reuters"}
        return {"sensitivity": study, "experiment": grid_protocol(config),
                "algorithms": _entries(config, used_algorithms(study)),
                "datasets": _pins(config, study["datasets"])}
    if kind == "sensitivity_reuters":
        from weightboost.experiment.cell_names import parse_cell_name
        from weightboost.experiment.sensitivity import reuters_plan, study_section

        entries = dict.fromkeys(parse_cell_name(c)[0] for c in reuters_plan(config).cell)
        # not the UCI grid's keys (datasets, algorithms, noise levels, the readings' and sweeps'
        # own included); a reading's `repeats` bounds its Reuters seeds and stays
        study = {k: v for k, v in study_section(config).items()
                 if k not in ("datasets", "noise_levels", "algorithms")}
        for group in ("readings", "sweeps"):
            if group in study:
                study[group] = {name: {k: v for k, v in entry.items() if k != "noise_levels"}
                                for name, entry in study[group].items()}
        return {**table_inputs(config, "reuters"), "sensitivity": study,
                "algorithms": _entries(config, entries)}
    if kind == "barrier":
        study, name = config["barrier"], config["barrier"]["dataset"]
        return {"barrier": study, "experiment": {"seed": config["experiment"]["seed"]},
                "algorithms": _entries(config, study["algorithms"]),
                "datasets": {name: dataset_content(config["datasets"][name])}}
    if kind == "reuters":
        study = config["reuters_study"]
        return {"reuters_study": study, "experiment": {"seed": config["experiment"]["seed"]},
                "algorithms": _entries(config, study["algorithms"]),
                "reuters": reuters_content(config["reuters"])}
    raise ValueError(f"unknown table set {kind!r}")


def _canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


def flatten(value, prefix: str = "") -> dict:
    if not isinstance(value, dict):
        return {prefix: value}
    return {k: v for key, item in value.items()
            for k, v in flatten(item, f"{prefix}.{key}" if prefix else str(key)).items()}


def differing_keys(recorded: dict, current: dict) -> list[str]:
    """``key: recorded -> current`` for every dotted key whose value differs."""
    a, b = flatten(recorded), flatten(current)
    return [f"{k}: {_canonical(a.get(k, '<absent>'))} -> {_canonical(b.get(k, '<absent>'))}"
            for k in sorted(a.keys() | b.keys()) if _canonical(a.get(k)) != _canonical(b.get(k))]


KEY_DIGITS = 12
KEY_PATTERN = f"[0-9a-f]{{{KEY_DIGITS}}}"  # a key as a cell path holds it (the wildcard's)


def computation_key(code_sha256: str, *parts) -> str:
    """The 12-digit key in a cell's path: a digest of its table set's code (``code_sha256``) and
    of everything else its numbers depend on besides the path's other parts (docs/integrity.md,
    "Cell keys")."""
    return hashlib.sha256(_canonical([code_sha256, *parts]).encode()).hexdigest()[:KEY_DIGITS]


def stage_seconds(stages: dict) -> list[dict]:
    """Job count and wall seconds per rule from the benchmark files of a table set's jobs
    (``stages``: rule -> files; a missing one is left out); their CPU seconds and peak RSS where
    every job's log ends with them (a warm worker's job, which Snakemake's benchmark cannot
    see); and how many were ``restored`` from a cell archive."""
    from weightboost.pipeline.workflow_support import job_resources, was_restored

    rows = []
    for rule, files in stages.items():
        files = [f for f in files if Path(f).is_file()]
        if files:
            row = {"stage": rule, "jobs": len(files), "job seconds": round(
                sum(float(pd.read_csv(f, sep="\t").s.iloc[0]) for f in files), 1)}
            logs = [Path("logs", *Path(f).with_suffix(".log").parts[1:]) for f in files]
            used = [job_resources(log) for log in logs]
            if used and all(u is not None for u in used):
                row["cpu seconds"] = round(sum(u[0] for u in used), 1)
                row["peak RSS MB"] = round(max(u[1] for u in used))
            restored = sum(map(was_restored, logs))
            if restored:
                row["restored"] = restored
            rows.append(row)
    return rows


def platform_record() -> dict:
    """What the last bits of a float result can depend on besides code and config: CPU, C
    library, numpy's SIMD targets, numba's SVML (docs/algorithms.md §1.4)."""
    import numba

    try:  # numpy's own record of its dispatch targets (what np.show_runtime prints)
        from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
        simd = [t for t in __cpu_dispatch__ if __cpu_features__.get(t)]
    except ImportError:
        simd = ["unknown"]
    try:
        lines = Path("/proc/cpuinfo").read_text().splitlines()
    except OSError:
        lines = []
    cpu = next((line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")),
               None) or platform.processor() or platform.machine()
    return {"machine": platform.machine(), "cpu": cpu,
            "c_library": environment.c_library(),
            "numpy_simd": simd, "numba_svml": bool(numba.config.USING_SVML)}


def _record_path(results, kind: str) -> Path:
    return Path(results) / f"{kind}.provenance.json"


def write_table_set(path, config: dict, kind: str, tables: dict, inputs: list[dict],
                    stages: list[dict], code_sha256: str | None = None) -> None:
    """Write the tables of ``kind`` (``tables``: path -> bytes, beside ``path`` as TABLE_SETS
    names them) and their record ``path``, all or nothing. ``code_sha256``: the code digest
    the workflow keyed the cells with, recorded once the code on disk is checked to be it."""
    if code_sha256 is not None:
        from weightboost.pipeline.workflow_support import check_code

        check_code({"modules": list(TABLE_SET_CODE[kind]), "sha256": code_sha256},
                   RESULTS_RULES[kind])
    results = Path(path).parent
    by_name = {Path(t).relative_to(results).as_posix(): data for t, data in tables.items()}
    if sorted(by_name) != sorted(TABLE_SETS[kind]):
        raise ValueError(f"the {kind} table set is {TABLE_SETS[kind]}, not {sorted(by_name)}")
    keys = table_inputs(config, kind)
    record = {
        "table_set": kind, "tables": list(TABLE_SETS[kind]), "run": config.get("run", MAIN),
        "tables_sha256": {name: sha256_bytes(by_name[name]) for name in TABLE_SETS[kind]},
        "config": keys, "config_sha256": hashlib.sha256(_canonical(keys).encode()).hexdigest(),
        "code_sha256": code_sha256 or package_digest(*TABLE_SET_CODE[kind]),
        "environment": environment.record(), "inputs": inputs, "stages": stages,
        "platform": platform_record()}
    with files_together(journal_beside(path)):
        for name in TABLE_SETS[kind]:
            write_bytes_atomic(results / name, by_name[name])
        write_json_atomic(path, record)


def settle_table_set(results, kind: str) -> None:
    """Finish a ``write_table_set`` of ``kind`` under ``results`` that a killed run left
    part-way (the workflow's ``onstart``, before any job reads the set)."""
    finish_files_together(journal_beside(_record_path(results, kind)))


def committed_path(results, kind: str, path) -> Path:
    """Where the committed content of ``path``, a file of the set ``kind``, is now: the checks
    read through a write that a killed run left part-way, changing nothing (a dry run too)."""
    path = Path(path)
    return committed_files(journal_beside(_record_path(results, kind))).get(path, path)


RESULTS_RULES = {kind: f"{kind}_results" for kind in TABLE_SETS}  # the rule that writes a set


def check_tables(results: str | Path, config: dict, kind: str) -> None:
    """Stop when the tables of ``kind`` under ``results`` exist without their record (of unknown
    origin), were computed from other config keys than the current ones, or are not the files
    their record describes (edited or replaced since). A command that forces their rule
    (``--forcerun``) does not call it: that, and only that, replaces them (docs/integrity.md,
    "Table records")."""
    path = _record_path(results, kind)
    if not committed_path(results, kind, path).exists():
        tables = [Path(results) / name for name in TABLE_SETS[kind]
                  if committed_path(results, kind, Path(results) / name).exists()]
        if tables:
            raise ConfigError(
                f"{', '.join(map(str, tables))} exist but their record {path} does not, so "
                "nothing says which config and code computed them. Restore the record (git "
                f"checkout -- {path}), or recompute the tables (add --forcerun "
                f"{RESULTS_RULES[kind]} to the command)")
        return
    recorded = json.loads(committed_path(results, kind, path).read_text())
    differences = differing_keys(recorded.get("config", {}), table_inputs(config, kind))
    if differences:
        shown = "; ".join(differences[:8]) + (f"; and {len(differences) - 8} more"
                                               if len(differences) > 8 else "")
        raise ConfigError(
            f"{results}/{' and '.join(TABLE_SETS[kind])} were computed from another config "
            f"({path.name} differs in {shown}). Give this run a name of its own "
            "(--config run=NAME writes its tables under results/runs/NAME/), or replace "
            f"these tables explicitly: add --forcerun {RESULTS_RULES[kind]} to the "
            "command")
    for name, sha in recorded.get("tables_sha256", {}).items():
        table = Path(results) / name
        found = committed_path(results, kind, table)
        if found.exists() and sha256_file(found) != sha:
            raise ConfigError(
                f"{table} is not the table recorded in {path} (its SHA-256 differs: it was "
                f"changed after it was computed). Restore it (git checkout -- {table} {path}) "
                f"or recompute the tables (snakemake --cores 2 all --forcerun "
                f"{RESULTS_RULES[kind]})")


def input_routes(uci_sidecars, reuters_receipts=()) -> list[dict]:
    """Each raw input with its SHA-256 and the route it came by (data-stage receipts)."""
    rows = []
    for sidecar in map(Path, uci_sidecars):
        s = json.loads(sidecar.read_text())
        rows.append({"input": s["source"]["file"], "sha256": s["source"]["sha256"],
                     "route": s["source"]["route"],
                     "canonical table sha256": s["table_sha256"]})
    for receipts in map(Path, reuters_receipts):
        for r in json.loads(receipts.read_text()):
            rows.append({"input": r["file"], "sha256": r["sha256"], "route": r["route"],
                         "canonical table sha256": ""})
    return rows
