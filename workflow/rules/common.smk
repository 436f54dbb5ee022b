# Helpers shared by the rules: config checks and the per-dataset parameters.
import functools
import json
import os
import shlex
import sys
from pathlib import Path

import pandas as pd

from snakemake_interface_executor_plugins.settings import DeploymentMethod

from weightboost.config import check_config, check_learners, dataset_spec
from weightboost.data.uci import verify_table
# A job's params hold ``package_digest`` of the package code it runs: Snakemake reruns a job
# whose params changed (rerun trigger ``params``), so a change of that code reruns exactly the
# jobs that depend on it. (Not the modules as inputs: Snakemake's scheduler looks at every
# input of every ready job each time it schedules, ~30 files more per cell.)
from weightboost.experiment.provenance import (REPORT_CODE, TABLE_SET_CODE, check_table_digests,
                                               check_tables, package_digest, reports_dir,
                                               results_dir, reuters_content)
from weightboost import warm
from weightboost.parse_memo import remembered
from weightboost.fileio import sha256_file
from weightboost.errors import ReproError
from weightboost.experiment import regboost as regboost_study
from weightboost.experiment.sensitivity import resolve_spec

try:
    check_config(config)
    if workflow.is_main_process:  # not again in every job of a cluster run
        remembered("learners-valid", config, lambda: bool(check_learners(config)))
except ReproError as exc:
    raise WorkflowError(f"invalid config: {exc}")

UCI_DATASETS = sorted(config["datasets"])


# Warm workers (weightboost.warm): when the jobs run on this machine, one server per run imports
# the package once and forks the compute jobs, which would otherwise each spend 1.5-2.5 s on
# imports. WEIGHTBOOST_WARM=off runs every job in its own process.
onstart:
    if workflow.local_exec and warm.JOBS.keys() & {j.rule.name for j in workflow.dag.needrun_jobs()}:
        warm.start()

# A SLURM job's Snakemake (the batch step's, which runs a submission's cells, each in a job step
# of its own) runs no hooks: it starts the server for its cells here, as it reads the workflow.
# The server leaves with it (weightboost.warm, "In a SLURM job").
if workflow.remote_exec and warm.in_batch_step():
    warm.start(log=warm.batch_step_log())


onsuccess:
    warm.stop()


onerror:
    warm.stop()


# The compute rules' command: `python -m weightboost.warm job <job> <log> <arguments>` calls the
# function <job> of weightboost.experiment.jobs with the keyword arguments of the JSON param
# `arguments` (job_arguments), in the run's warm worker if there is one. (Not a `script:`, whose
# process starts by importing Snakemake's script support: 0.25 s per job.) The Python is
# Snakemake's own, or the rule's conda environment's when one is deployed.
JOB_PYTHON = ("python" if DeploymentMethod.CONDA in workflow.deployment_settings.deployment_method
              else shlex.quote(sys.executable))


def job_command(job):
    """The shell command of the compute rule ``job`` (a key of weightboost.warm.JOBS)."""
    return f"{JOB_PYTHON} -m weightboost.warm job {job} {{log:q}} {{params.arguments:q}}"


def job_arguments(**arguments):
    """The `arguments` param of a compute job: its job function's keyword arguments as JSON
    (keys sorted: the params Snakemake records for its rerun trigger do not depend on order)."""
    return json.dumps(arguments, sort_keys=True)


RESULTS = results_dir(config)   # results/ for the committed run `main`, else results/runs/<run>
REPORTS = reports_dir(config)


def checked(kind, files):
    """Input function: ``files``, once the tables of ``kind`` under RESULTS are known to come
    from the current config (weightboost.experiment.provenance); evaluated only when a job
    that rebuilds or reads them is in the DAG."""

    def inputs(wildcards):
        try:
            check_tables(RESULTS, config, kind)
        except ReproError as exc:
            raise WorkflowError(str(exc))
        return files

    return inputs
REFERENCE = str(Path(workflow.basedir) / "config" / "reference" / "jin2003_tables.yaml")
LOCK_FILE = str(Path(workflow.basedir) / "requirements.lock")
# Scheduling order among ready jobs (Snakemake `priority:`). Data jobs first: while the run's
# warm server compiles the kernels (20-60 s on a fresh clone, by machine), cells wait for it
# and the data jobs can run (src/weightboost/warm.py). Then the Reuters cells, the longest
# (10-25 s each), so that none ends the run alone; then the UCI cells (0).
DATA_PRIORITY = 10
LONG_CELL_PRIORITY = 1


def uci_spec(wildcards):
    """The config entry of a dataset; an unknown name stops with a clear message."""
    try:
        dataset_spec(config, wildcards.dataset)
    except ReproError as exc:
        raise WorkflowError(str(exc))
    return config["datasets"][wildcards.dataset]


def table_pin(wildcards):
    """The config's pin of a dataset's canonical table (None if unpinned)."""
    return uci_spec(wildcards).get("table_sha256")


@functools.lru_cache(maxsize=None)
def _unedited(path, mtime_ns, size):
    verify_table(path, json.loads(Path(path).with_suffix(".json").read_text()))


def experiment_table(wildcards):
    """A cell's inputs: the dataset's canonical table and sidecar. An existing table must still
    have the SHA-256 its sidecar recorded: checked here, while the DAG is built, so an edited
    table stops the run before any job starts and before Snakemake removes any cell. (The
    config's pin is checked by parse_uci, which reruns when the dataset's spec changes, and by
    every cell job.)"""
    table = f"data/processed/uci/{wildcards.dataset}.csv"
    path = Path(table)
    if path.exists() and path.with_suffix(".json").exists():
        stat = path.stat()
        try:
            _unedited(table, stat.st_mtime_ns, stat.st_size)
        except ReproError as exc:
            raise WorkflowError(str(exc))
    return {"table": table, "sidecar": f"data/processed/uci/{wildcards.dataset}.json"}


@functools.lru_cache(maxsize=None)
def _verified_matrices(path, mtime_ns, size, stats):
    from weightboost.reuters.stage import verify_matrices  # not at parse time: nltk is slow

    verify_matrices(path, stats)


def reuters_matrices(wildcards):
    """A Reuters cell's inputs: the matrices and the stats that record their SHA-256; existing
    matrices are verified while the DAG is built, as ``experiment_table`` does for tables."""
    matrices, stats = "data/processed/reuters/matrices.npz", "data/processed/reuters/stats.json"
    # stats from a stage older than the checksum are left to the rerun that the stage's code
    # change schedules; the cell job verifies what it reads
    if Path(matrices).exists() and Path(stats).exists() \
            and "matrices_sha256" in json.loads(Path(stats).read_text()):
        stat = Path(matrices).stat()
        try:
            _verified_matrices(matrices, stat.st_mtime_ns, stat.st_size, stats)
        except ReproError as exc:
            raise WorkflowError(str(exc))
    return {"matrices": matrices, "stats": stats}


def fetch_config():
    """The part of the config that decides where raw files come from."""
    return {"mirror": config.get("mirror"), "download": config.get("download", {})}


# -- the Reuters stage -------------------------------------------------------------------------
REUTERS_SGML = sorted(config["reuters"]["sgml"])
NLTK_PACKAGE = "data/raw/reuters/nltk/reuters.zip"


def reuters_receipts(wildcards):
    """The receipts of the raw Reuters files the stage read (corpus and stop words)."""
    corpus = ("data/raw/reuters/nltk/sources.json"
              if config["reuters"].get("source", "sgml") == "nltk"
              else "data/raw/reuters/sources.json")
    return [corpus, "data/raw/reuters/stopwords.json"]


def reuters_corpus(wildcards):
    """The corpus files the stage reads: the SGML files, or NLTK's package (reuters.source)."""
    if config["reuters"].get("source", "sgml") == "nltk":
        return [NLTK_PACKAGE]
    return expand("data/raw/reuters/{name}", name=REUTERS_SGML)


# -- the experiment grid ----------------------------------------------------------------------
EXPERIMENT = config["experiment"]
ALGORITHMS = EXPERIMENT["algorithms"]
NOISE = [format(float(p), "g") for p in EXPERIMENT["noise_levels"]]
REPEATS = list(range(EXPERIMENT["repeats"]))
CELL = "results/cells/uci/{dataset}/noise{noise}/{algorithm}/rep{repeat}.csv"


def cell_protocol():
    """Only what every cell depends on: a new noise level or algorithm must not rerun others."""
    return {k: EXPERIMENT[k] for k in ("seed", "folds", "rounds")}


def grid_cell_arguments(wildcards, input, output):
    """The job arguments of a UCI grid or sensitivity cell (its wildcards are arguments too)."""
    return job_arguments(table=input.table, spec=algorithm_spec(wildcards),
                         experiment=cell_protocol(), pinned=table_pin(wildcards),
                         output=output[0], **dict(wildcards.items()))


def learner_spec(name):
    """The learner entry of a cell name: a key of `algorithms`, or a sensitivity cell name
    (`entry~param=value,...`, see weightboost.experiment.sensitivity)."""
    try:
        return resolve_spec(config["algorithms"], name)
    except ReproError as exc:
        raise WorkflowError(str(exc))


def algorithm_spec(wildcards):
    """The learner entry of a cell, by its `algorithm` wildcard."""
    return learner_spec(wildcards.algorithm)


# -- the Reuters study ------------------------------------------------------------------------
STUDY = config["reuters_study"]
REUTERS_CELL = "results/cells/reuters/{category}/{algorithm}.csv"
REUTERS_CURVE = "results/cells/reuters/{category}/{algorithm}.curve.csv"


def reuters_protocol():
    """What every Reuters cell depends on (not the lists of categories and algorithms)."""
    return {"rounds": STUDY["rounds"], "cv_folds": STUDY["cv_folds"],
            "paper_rounds": STUDY["paper_rounds"], "seed": EXPERIMENT["seed"]}


def reuters_cell_arguments(wildcards, input, output):
    """The job arguments of a Reuters cell."""
    return job_arguments(matrices=input.matrices, stats=input.stats, category=wildcards.category,
                         algorithm=wildcards.algorithm, spec=algorithm_spec(wildcards),
                         study=reuters_protocol(), f1_output=output.f1,
                         curve_output=output.curve)


REPORT_TABLES = {name: f"{RESULTS}/{name}.csv" for name in
                 ("uci_folds", "uci_summary", "reuters_f1", "reuters_curves")} | {
                 f"{kind}_provenance": f"{RESULTS}/{kind}.provenance.json"
                 for kind in ("uci", "reuters")}


REPORT_RULES = ("report", "regboost_report")


def report_only():
    """Whether the command asks for reports alone (`snakemake report`, `snakemake
    regboost_report`, or files under REPORTS). Existing result tables are then read as they
    are: a fresh clone has the committed tables but not the cells and data they came from,
    which Snakemake would otherwise recompute first (`snakemake all` still does)."""
    targets = [str(t) for t in workflow.dag_settings.targets or ()]
    return bool(targets) and all(t in REPORT_RULES or t.startswith(f"{REPORTS}/")
                                 for t in targets)


def tables_as_given():
    return report_only() and all(Path(p).exists() for p in REPORT_TABLES.values())


def report_tables(wildcards):
    """The result tables the report reads, once both sets are known to match the config and
    their records; not declared as inputs when they are read as given (report_only)."""
    for kind in ("uci", "reuters"):
        verify_table_set(kind, wildcards)
    return {} if tables_as_given() else REPORT_TABLES


def verify_table_set(kind, wildcards):
    """Stop unless the result tables of ``kind`` come from the current config and are the files
    their provenance record describes."""
    checked(kind, [])(wildcards)
    try:
        check_table_digests(RESULTS, kind)
    except ReproError as exc:
        raise WorkflowError(str(exc))


def reuters_f1_table(wildcards):
    """The one main-run table the sensitivity report reads (the Reuters claim is decided on the
    main run's split; the study does not rerun Reuters): read as given when it exists and
    matches the config and its record, computed first only when it is missing."""
    path = REPORT_TABLES["reuters_f1"]
    if not Path(path).exists():
        return {"f1": path}
    verify_table_set("reuters", wildcards)
    return {}


def reuters_f1_digest(wildcards):
    """The SHA-256 of the Reuters table read as given (a params trigger: a changed table still
    reruns the sensitivity report)."""
    path = REPORT_TABLES["reuters_f1"]
    return sha256_file(path) if Path(path).exists() else None


def report_table_digests(wildcards):
    """The SHA-256 of tables read as given: as a parameter, a changed table still reruns the
    report (Snakemake's params trigger) although it is not an input."""
    if not tables_as_given():
        return {}
    return {name: sha256_file(path) for name, path in REPORT_TABLES.items()}


# -- the RegBoost study (workflow/rules/regboost.smk) -------------------------------------------
# A cell's path holds `key`, the digest of everything its numbers depend on besides its other
# wildcards and the code (whose digest is the rules' code_sha256 param): the protocol and the
# learner's config entry. Snakemake records no callable param, so a cell computed under another
# config (a named run's, an edited entry's) must never sit at the path this config reads.
REGBOOST_CELL = ("results/cells/regboost/{dataset}/noise{noise}/{fold_order}-{missing}/"
                 "{algorithm}/{key}/reps{repeats}")
REGBOOST_SEMI = "results/cells/regboost/semi/{dataset}/{algorithm}/{key}"
REGBOOST_TABLES = {name: f"{RESULTS}/regboost/{name}.csv"
                   for name in ("folds", "summary", "curves", "semi_supervised")}
REGBOOST_REFERENCE = str(Path(workflow.basedir) / "config" / "reference" /
                         "wang_kegl2004_table1.yaml")

if config.get("regboost"):
    REGBOOST = regboost_study.study_section(config)
    REGBOOST_PLAN = pd.DataFrame(remembered(
        "regboost-plan", config, lambda: regboost_study.plan(config).to_dict("records")),
        columns=regboost_study.PLAN_COLUMNS)
    SEMI = REGBOOST.get("semi_supervised") or {}

    def regboost_protocol():
        """What every cell of the study depends on (not its lists of datasets and readings)."""
        return {"seed": EXPERIMENT["seed"], "folds": REGBOOST["folds"],
                "rounds": REGBOOST["rounds"]}

    def semi_protocol():
        return {**regboost_protocol(), "labelled": SEMI["labelled"], "draws": SEMI["draws"]}

    REGBOOST_JOBS = regboost_study.cell_jobs(REGBOOST_PLAN).to_dict("records")
    REGBOOST_CELLS = [
        REGBOOST_CELL.format(dataset=job["dataset"], noise=format(job["noise"], "g"),
                             fold_order=job["fold_order"], missing=job["missing"],
                             algorithm=job["cell"], repeats=job["repeats"],
                             key=regboost_study.computation_key(regboost_protocol(),
                                                                learner_spec(job["cell"])))
        for job in REGBOOST_JOBS]
    REGBOOST_SEMI_CELLS = [
        REGBOOST_SEMI.format(dataset=SEMI["dataset"], algorithm=a,
                             key=regboost_study.computation_key(semi_protocol(),
                                                                learner_spec(a)))
        for a in SEMI.get("algorithms", [])]

    def keyed_spec(wildcards, protocol):
        """The learner entry of a cell, once its path's key is this config's."""
        spec = algorithm_spec(wildcards)
        if wildcards.key != regboost_study.computation_key(protocol, spec):
            raise WorkflowError(f"{wildcards.key} is not the key of {wildcards.algorithm} under "
                                "this config: ask for the study's target, not a cell path")
        return spec

    def regboost_cell_arguments(wildcards, input, output):
        return job_arguments(table=input.table, dataset=wildcards.dataset,
                             noise=wildcards.noise, cell=wildcards.algorithm,
                             spec=keyed_spec(wildcards, regboost_protocol()),
                             fold_order=wildcards.fold_order,
                             missing=wildcards.missing, repeats=int(wildcards.repeats),
                             protocol=regboost_protocol(), pinned=table_pin(wildcards),
                             output=output.cell, curve_output=output.curve)

    def regboost_semi_arguments(wildcards, input, output):
        return job_arguments(table=input.table, dataset=wildcards.dataset,
                             algorithm=wildcards.algorithm,
                             spec=keyed_spec(wildcards, semi_protocol()),
                             draws=SEMI["draws"], labelled=SEMI["labelled"],
                             protocol=regboost_protocol(), pinned=table_pin(wildcards),
                             output=output.cell, curve_output=output.curve)

    def regboost_tables_as_given():
        """Whether only reports are asked for and the study's tables all exist: they are then
        read as they are, not inputs (as `tables_as_given` for the main report)."""
        return report_only() and all(Path(p).exists() for p in REGBOOST_TABLES.values())

    def regboost_report_tables(wildcards):
        """The study's tables, once they are known to match the config and their record."""
        verify_table_set("regboost", wildcards)
        return {} if regboost_tables_as_given() else REGBOOST_TABLES

    def regboost_table_digests(wildcards):
        """The SHA-256 of tables read as given (a params trigger, as report_table_digests)."""
        if not regboost_tables_as_given():
            return {}
        return {name: sha256_file(path) for name, path in REGBOOST_TABLES.items()}
