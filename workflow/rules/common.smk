# Helpers shared by the rules: config checks and the per-dataset parameters.
import json
import os
import shlex
import sys
from pathlib import Path

import pandas as pd

from snakemake_interface_executor_plugins.settings import DeploymentMethod

from weightboost.config import (check_config, check_fold_count, check_learners, dataset_spec,
                                noise_name)
from weightboost.data.uci import verify_table
# A job's params hold ``package_digest`` of the package code it runs: Snakemake reruns a job
# whose params changed (rerun trigger ``params``), so a change of that code reruns exactly the
# jobs that depend on it. (Not the modules as inputs: Snakemake's scheduler looks at every
# input of every ready job each time it schedules, ~30 files more per cell.)
from weightboost.experiment.provenance import (REPORT_CODE, RESULTS_RULES, TABLE_SET_CODE,
                                               TABLE_SETS, check_table_digests,
                                               check_tables, computation_key, dataset_content,
                                               grid_protocol, package_digest, replaced_table_sets,
                                               reports_dir,
                                               results_dir, reuters_content)
from weightboost import cell_archive, environment, warm
from weightboost.parse_memo import remembered
from weightboost.workflow_support import keyed_arguments
from weightboost.fileio import finish_files_together, journal_beside, sha256_file
from weightboost.report.reference import JIN2003, WANG_KEGL2004
from weightboost.errors import ReproError
from weightboost.experiment import regboost as regboost_study
from weightboost.experiment.sensitivity import parse_cell_name, resolve_spec, stop_twin
from weightboost.experiment.study_cells import differs_only_in_restart

try:
    check_config(config)
    if workflow.is_main_process:  # not again in every job of a cluster run
        remembered("learners-valid", config, lambda: bool(check_learners(config)))
except ReproError as exc:
    raise WorkflowError(f"invalid config: {exc}")

UCI_DATASETS = sorted(config["datasets"])


def script_digest(name: str) -> str:
    """SHA-256 of ``workflow/scripts/<name>``, a param of the rule that runs it. Snakemake's rerun
    trigger ``code`` judges a script's rule by the script file's modification time, not its
    content, so a checkout or ``git pull`` that rewrites (or only touches) a script reran the
    rule and, through its outputs' new times, everything downstream (every cell, for the data
    rules). The profile leaves that trigger out; this digest (trigger ``params``) reruns a rule
    when its script's content changes and never when only its time does."""
    return sha256_file(Path(workflow.basedir) / "workflow" / "scripts" / name)


# Warm workers (weightboost.warm): when the jobs run on this machine, one server per run imports
# the package once and forks the compute jobs, which would otherwise each spend 1.5-2.5 s on
# imports. WEIGHTBOOST_WARM=off runs every job in its own process.
# Cell archives (weightboost.cell_archive): a cell job restores its outputs from
# results/archive/*.zip when one holds them under their paths (keys), unless `cell_archive` is
# false. Set here, before any job or warm server starts, so every job of the run inherits it.
os.environ[cell_archive.ENV] = "on" if config.get("cell_archive", True) else "off"

onstart:
    # under the SLURM executor: no submission may ask for more CPUs than a node has
    if workflow.executor_plugin is not None and workflow.executor_plugin.cli_prefix == "slurm":
        from weightboost.cluster import check_partition_cpus

        remote = [j for j in workflow.dag.needrun_jobs() if not j.is_local]
        try:
            if remote:  # a grouped submission asks for up to `cores`, a single job its threads
                check_partition_cpus(max(workflow.cores if j.group else j.threads
                                         for j in remote),
                                     {j.resources.get("slurm_partition") for j in remote})
        except ReproError as exc:
            raise WorkflowError(str(exc))
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


# The software environment this workflow keys its cells with (weightboost.environment): part of
# every cell's key, and passed to every cell job, which stops if it runs in another one.
ENVIRONMENT = environment.record()
ENVIRONMENT_SHA256 = environment.digest(ENVIRONMENT)


RESULTS = results_dir(config)   # results/ for the committed run `main`, else results/runs/<run>
REPORTS = reports_dir(config)


def forced(kind):
    """Whether this command forces the rebuild of the table set ``kind`` (`--forceall`, or
    `--forcerun` naming its rule or one of its tables)."""
    settings = workflow.dag_settings
    asked = {str(f) for f in settings.forcerun or ()}
    return bool(settings.forceall) or RESULTS_RULES[kind] in asked or any(
        f"{RESULTS}/{name}" in asked for name in TABLE_SETS[kind])


def replace_if_asked(kind):
    """With ``replace_results``, make the rule that writes the tables of ``kind`` run when their
    record names another config (``replaced_table_sets``): on a fresh checkout, or after a
    touch, Snakemake alone sees the old tables as up to date and would let a report read them.
    Snakemake has no public way for a workflow to force one of its rules, so this adds it to
    the forced rules of the DAG being built, which decides what runs only after every input
    function (Snakemake 9; tests/test_integrity.py fails if that changes)."""
    if config.get("replace_results") and replaced_table_sets(RESULTS, config, [kind]):
        workflow._dag.forcerules.add(workflow.get_rule(RESULTS_RULES[kind]))


def verify_table_set(kind):
    """Stop unless the result tables of ``kind`` under RESULTS come from the current config and
    are the files their provenance record describes (not checked against the record when this
    command rebuilds them: that is how an edited table is repaired)."""
    try:
        replace_if_asked(kind)
        check_tables(RESULTS, config, kind)
        if not forced(kind) and not config.get("replace_results"):
            check_table_digests(RESULTS, kind)
    except ReproError as exc:
        raise WorkflowError(str(exc))


def checked(kind, files):
    """Input function: ``files``, once the tables of ``kind`` under RESULTS are known to come
    from the current config and code and to be unedited (``verify_table_set``); evaluated
    only when a job that rebuilds or reads them is in the DAG."""

    def inputs(wildcards):
        verify_table_set(kind)
        return files

    return inputs


REFERENCE = str(Path(workflow.basedir) / JIN2003)
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


PROCESSED_UCI = "data/processed/uci/{dataset}"
REUTERS_MATRICES = "data/processed/reuters/matrices.npz"
REUTERS_STATS = "data/processed/reuters/stats.json"


def parsed_sidecars():
    """dataset -> the sidecar of its canonical table, for the tables parsed so far (read once,
    as the workflow is read; the input functions that need them run before any job). A data
    job's files that a killed run left part-way written are finished first
    (``fileio.files_together``)."""
    finish_files_together(journal_beside(REUTERS_STATS))
    out = {}
    for name in config.get("datasets", {}):
        stem = PROCESSED_UCI.format(dataset=name)
        finish_files_together(journal_beside(f"{stem}.csv"))
        path = Path(f"{stem}.json")
        if path.exists():
            out[name] = json.loads(path.read_text())
    return out


PARSED = parsed_sidecars()


def verify_processed_data():
    """Stop before any job, whatever the target, when a canonical table no longer has the
    SHA-256 its sidecar recorded, or the Reuters matrices the one in stats.json (edited after
    the data stage wrote them). Checked as the workflow is read, not in the cells' input
    functions: Snakemake takes an error there, while it looks for the producer of a cell that
    exists, as "no producer" and goes on. (The config's pins are checked by parse_uci, which
    reruns when a dataset's spec changes, and by every cell job.)"""
    for name, sidecar in PARSED.items():
        table = Path(PROCESSED_UCI.format(dataset=name) + ".csv")
        if table.exists():
            verify_table(table, sidecar)
    matrices, stats = Path(REUTERS_MATRICES), Path(REUTERS_STATS)
    if matrices.exists() and stats.exists():
        recorded = json.loads(stats.read_text()).get("matrices_sha256")
        # stats from a stage older than the checksum are left to the rerun that the stage's
        # code change schedules; the cell job verifies what it reads
        if recorded and sha256_file(matrices) != recorded:
            from weightboost.reuters.stage import verify_matrices  # its message; slow import

            verify_matrices(matrices, stats)


try:
    verify_processed_data()
except ReproError as exc:
    raise WorkflowError(str(exc))


def experiment_table(wildcards):
    """A cell's inputs: the dataset's canonical table and sidecar (verified as the workflow
    is read, verify_processed_data). A pinned table is ``ancient``: its pin is in the cell's
    key and a table that differs from it stops the run, so a data job that reruns and writes
    the same bytes (its script edited, a --forcerun) must not rerun every cell below it, as
    Snakemake does for the inputs that a job of the run rewrites. An unpinned table (a user's
    new dataset) keeps Snakemake's rule: its content is bound to no key."""
    path = PROCESSED_UCI.format(dataset=wildcards.dataset)
    files = {"table": f"{path}.csv", "sidecar": f"{path}.json"}
    if table_pin(wildcards) is None:
        return files
    return {name: ancient(file) for name, file in files.items()}


def study_table(folds_key, folds):
    """Input function of a study's cells: ``experiment_table``, once the dataset's parsed
    table (its sidecar's label counts) is known to allow ``folds`` stratified folds (config key
    ``folds_key``); checked while the DAG is built, before any cell job."""

    def inputs(wildcards):
        files = experiment_table(wildcards)
        try:
            counts = PARSED[wildcards.dataset]["label"]["counts"]
        except (KeyError, TypeError):
            return files  # not parsed yet: the cell job's folds say what is wrong
        try:
            check_fold_count(folds_key, folds, wildcards.dataset, counts=counts)
        except ReproError as exc:
            raise WorkflowError(str(exc))
        return files

    return inputs


def reuters_matrices(wildcards):
    """A Reuters cell's inputs: the matrices and the stats that record their SHA-256 (not
    ``ancient``, unlike a pinned UCI table: no pin binds the matrices' bytes, which also depend
    on the installed NLTK, so a rerun of the stage reruns the cells)."""
    return {"matrices": REUTERS_MATRICES, "stats": REUTERS_STATS}


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


def fetch_reuters_arguments(kind):
    """The job arguments of a fetch of the raw Reuters inputs of ``kind`` (sgml, stopwords,
    nltk: weightboost.data.jobs.fetch_reuters)."""
    return lambda wildcards, output: job_arguments(
        kind=kind, reuters=config["reuters"], fetch=fetch_config(), files=list(output.files),
        receipt=output.receipt)


def reuters_corpus(wildcards):
    """The corpus files the stage reads: the SGML files, or NLTK's package (reuters.source)."""
    if config["reuters"].get("source", "sgml") == "nltk":
        return [NLTK_PACKAGE]
    return expand("data/raw/reuters/{name}", name=REUTERS_SGML)


# -- cell keys --------------------------------------------------------------------------------
# Every cell's path holds `key` (weightboost.experiment.provenance.computation_key): a digest of
# its table set's code and of the config values its numbers depend on besides the path's other
# wildcards. Snakemake records no callable param (the jobs' `arguments`), and a job of a killed
# run may finish after the next run started: a cell of other code or another config then lands
# at another path, never at the one this config reads. Its benchmark and log are keyed alike,
# so that a table set's record sums the benchmarks of its own cells only. A cell job's
# arguments come only from its files, its path and its key's parts (cell_job_arguments), so
# that none that moves a number can be left out of the key.
KEY = "[0-9a-f]{12}"


def cell_key(kind, parts):
    """The key of a cell of the table set ``kind`` whose numbers depend on ``parts`` (name ->
    config value; the key digests the values in their order)."""
    return computation_key(package_digest(*TABLE_SET_CODE[kind]), ENVIRONMENT_SHA256,
                           *parts.values())


def check_key(wildcards, key):
    """Stop unless the key in a requested cell path is ``key``, this config's and code's (from
    the function that keyed the study's cell paths)."""
    if wildcards.key != key:
        raise WorkflowError(f"{wildcards.key} is not the key of {wildcards.algorithm} under this "
                            "config and code: ask for a target (a table, a study), not a cell "
                            "path")


class CellArguments(str):
    """A cell job's `arguments` param as ``cell_job_arguments`` built it."""


CELL_ARGUMENT_FUNCTIONS = set()


def cell_arguments(function):
    """Decorator of a cell rule's `arguments` params function, whose value must come from
    ``cell_job_arguments``; ``check_cell_rules`` stops a workflow in which a rule that writes
    cells has an `arguments` param not so decorated."""

    def arguments(wildcards, input, output):
        value = function(wildcards, input, output)
        if not isinstance(value, CellArguments):
            raise WorkflowError(f"{function.__name__} built a cell job's arguments without "
                                "cell_job_arguments: an argument could escape the cell's key")
        return value

    arguments.__name__ = function.__name__
    CELL_ARGUMENT_FUNCTIONS.add(arguments)
    return arguments


def check_cell_rules():
    """Stop unless every rule that writes cells (under results/cells/) builds its jobs'
    arguments through ``cell_arguments``, so that each argument is a file of the job, a part of
    its path or a value of its key (called once every rule is read)."""
    for each in workflow.rules:
        if any(str(f).startswith("results/cells/") for f in each.output):
            if getattr(each.params, "arguments", None) not in CELL_ARGUMENT_FUNCTIONS:
                raise WorkflowError(f"rule {each.name} writes cells, but its `arguments` param "
                                    "is not a function decorated with cell_arguments "
                                    "(workflow/rules/common.smk)")


def cell_job_arguments(kind, wildcards, input, output, parts, keyed, files, from_path,
                       read_cells=None):
    """The `arguments` param of a cell job of the table set ``kind``: every argument a job file,
    a function of a path wildcard, or a value of the key's ``parts`` (``keyed_arguments``),
    once the path's key is the key of ``parts`` and the path of every keyed cell the job reads
    holds that cell's key; with the environment and the code the key was computed for (checked
    and removed by the job's runner, ``weightboost.warm``)."""
    check_key(wildcards, cell_key(kind, parts))
    for name, cell_parts in (read_cells or {}).items():
        if cell_key(kind, cell_parts) not in Path(files[name]).parts:
            raise WorkflowError(f"{files[name]} is not keyed with the parts given for it")
    try:
        arguments = keyed_arguments(parts, keyed, files=files, job_files=[*input, *output],
                                    wildcards=dict(wildcards.items()), from_path=from_path,
                                    read_cells=read_cells)
    except ValueError as exc:
        raise WorkflowError(str(exc))
    code = {"modules": list(TABLE_SET_CODE[kind]),
            "sha256": package_digest(*TABLE_SET_CODE[kind])}
    return CellArguments(job_arguments(**arguments, **{warm.ENVIRONMENT_ARGUMENT: ENVIRONMENT,
                                                       warm.CODE_ARGUMENT: code}))


def benchmark_files(rule, paths, root):
    """The benchmark files of the ``rule`` jobs that write the cells at ``paths``: each rule's
    benchmark path is `benchmarks/<rule>/` and the cell's path below ``root``."""
    return [f"benchmarks/{rule}/{p.removeprefix(root).removesuffix('.csv')}.tsv" for p in paths]


def data_content(dataset):
    return dataset_content(config["datasets"][dataset])


# -- the experiment grid ----------------------------------------------------------------------
EXPERIMENT = config["experiment"]
ALGORITHMS = EXPERIMENT["algorithms"]
NOISE = [noise_name(p) for p in EXPERIMENT["noise_levels"]]
REPEATS = list(range(EXPERIMENT["repeats"]))
CELL = "results/cells/uci/{dataset}/noise{noise}/{algorithm}/{key}/rep{repeat}.csv"


def cell_protocol():
    """Only what every cell depends on: a new noise level or algorithm must not rerun others."""
    return grid_protocol(config)


def grid_parts(dataset, algorithm):
    """What a UCI grid or sensitivity cell's numbers depend on besides its path's wildcards."""
    return {"protocol": cell_protocol(), "learner": learner_spec(algorithm),
            "data": data_content(dataset)}


# a grid or study cell's arguments from its key's parts (cell_job_arguments)
GRID_KEYED = {"experiment": ("protocol",), "spec": ("learner",),
              "pinned": ("data", "table_sha256?")}


def grid_key(dataset, algorithm, kind="uci"):
    """The key of a UCI grid cell, or (``kind`` "sensitivity") of a sensitivity study cell: the
    same computation from the same protocol, and the study's cell job's code besides."""
    return cell_key(kind, grid_parts(dataset, algorithm))


def grid_cells(pattern, datasets, noise_levels, algorithms, kind="uci", **wildcards):
    """The paths of ``pattern`` over datasets x noise levels x algorithms, each with its key."""
    return [pattern.format(dataset=d, noise=n, algorithm=a, key=grid_key(d, a, kind),
                           **wildcards)
            for d in datasets for n in noise_levels for a in algorithms]


@cell_arguments
def grid_cell_arguments(wildcards, input, output):
    """The job arguments of a UCI grid cell (its wildcards are arguments too). (A params
    function takes no other arguments: Snakemake passes whatever it names.)"""
    uci_spec(wildcards)  # an unknown dataset's message
    return cell_job_arguments(
        "uci", wildcards, input, output, grid_parts(wildcards.dataset, wildcards.algorithm),
        GRID_KEYED, files={"table": input.table, "output": output[0]},
        from_path={w: w for w in ("dataset", "noise", "algorithm", "repeat")})


# -- the sensitivity study's cells (workflow/rules/sensitivity.smk) ----------------------------
def study_twin(wildcards):
    """The stop twin of a restart cell, when the study computes it too and its entry is
    the restart cell's with on_degenerate=stop: the restart cell copies the twin's
    repeats that met no degenerate round (weightboost.experiment.study_cells)."""
    twin = stop_twin(wildcards.algorithm)
    repeats = SENSITIVITY_JOBS.get((wildcards.noise, twin))
    if repeats is None or not differs_only_in_restart(learner_spec(wildcards.algorithm),
                                                      learner_spec(twin)):
        return None
    return twin, SENSITIVITY_CELL.format(
        dataset=wildcards.dataset, noise=wildcards.noise, algorithm=twin,
        key=grid_key(wildcards.dataset, twin, "sensitivity"), repeats=repeats)


def study_cell_inputs(wildcards):
    """A study cell's inputs: its table, and a restart cell's stop twin (``study_twin``)."""
    twin = study_twin(wildcards)
    return {**study_table("experiment.folds", EXPERIMENT["folds"])(wildcards),
            **({"stop_cell": twin[1]} if twin else {})}


@cell_arguments
def study_cell_arguments(wildcards, input, output):
    """A study cell's job arguments: a grid cell's, keyed as the study's, and a restart cell's
    twin (its path, name and entry: the twin's path holds the key of its entry)."""
    uci_spec(wildcards)
    twin = study_twin(wildcards)
    files = {"table": input.table, "output": output[0]}
    from_path = {w: w for w in ("dataset", "noise", "algorithm", "repeats")}
    keyed, read_cells = dict(GRID_KEYED), None
    if twin:
        files["stop_cell"] = twin[1]
        from_path["stop_algorithm"] = ("algorithm", stop_twin)
        keyed["stop_spec"] = ("stop_cell", "learner")
        read_cells = {"stop_cell": grid_parts(wildcards.dataset, twin[0])}
    return cell_job_arguments("sensitivity", wildcards, input, output,
                              grid_parts(wildcards.dataset, wildcards.algorithm), keyed,
                              files=files, from_path=from_path, read_cells=read_cells)


def learner_spec(name):
    """The learner entry of a cell name: a key of `algorithms`, or a sensitivity cell name
    (`entry~param=value,...`, see weightboost.experiment.sensitivity)."""
    try:
        return resolve_spec(config["algorithms"], name)
    except ReproError as exc:
        raise WorkflowError(str(exc))


# -- the Reuters study ------------------------------------------------------------------------
STUDY = config["reuters_study"]
REUTERS_CELL = "results/cells/reuters/{category}/{algorithm}/{key}.csv"
REUTERS_CURVE = "results/cells/reuters/{category}/{algorithm}/{key}.curve.csv"


def reuters_protocol():
    """What every Reuters cell depends on (not the lists of categories and algorithms)."""
    return {"rounds": STUDY["rounds"], "cv_folds": STUDY["cv_folds"],
            "paper_rounds": STUDY["paper_rounds"], "seed": EXPERIMENT["seed"]}


def reuters_parts(algorithm):
    """What a Reuters cell's numbers depend on besides its path's wildcards."""
    return {"study": reuters_protocol(), "learner": learner_spec(algorithm),
            "data": reuters_content(config["reuters"])}


def reuters_key(algorithm):
    return cell_key("reuters", reuters_parts(algorithm))


def reuters_cells(pattern, algorithms=None):
    """The Reuters cell files of ``pattern`` for every category and algorithm (by default the
    study's; the sensitivity study passes its cells)."""
    return [pattern.format(category=c, algorithm=a, key=reuters_key(a))
            for c in STUDY["categories"] for a in (algorithms or STUDY["algorithms"])]


REUTERS_CELLS = reuters_cells(REUTERS_CELL)


@cell_arguments
def reuters_cell_arguments(wildcards, input, output):
    """The job arguments of a Reuters cell."""
    # a sensitivity cell (`WeightBoost~sampling=resample,...`) runs as its entry: the paper's T
    # (`paper_rounds`) is the entry's under every reading
    return cell_job_arguments(
        "reuters", wildcards, input, output, reuters_parts(wildcards.algorithm),
        {"spec": ("learner",), "study": ("study",)},
        files={"matrices": input.matrices, "stats": input.stats, "f1_output": output.f1,
               "curve_output": output.curve},
        from_path={"category": "category",
                   "algorithm": ("algorithm", lambda name: parse_cell_name(name)[0])})


REPORT_SETS = ("uci", "reuters")  # the table sets the main report reads


def set_files(kind):
    """name -> path of the tables of ``kind`` and its provenance record."""
    files = {Path(name).stem: f"{RESULTS}/{name}" for name in TABLE_SETS[kind]}
    return files | {f"{kind}_provenance": f"{RESULTS}/{kind}.provenance.json"}


REPORT_RULES = ("report", "regboost_report", "sensitivity_report")


def report_only():
    """Whether the command asks for reports alone (`snakemake report`, `regboost_report`,
    `sensitivity_report`, or files under REPORTS). Existing result tables are then read as they
    are: a fresh clone has the committed tables but not the cells and data they came from,
    which Snakemake would otherwise recompute first (`snakemake all` still does)."""
    targets = [str(t) for t in workflow.dag_settings.targets or ()]
    return bool(targets) and all(t in REPORT_RULES or t.startswith(f"{REPORTS}/")
                                 for t in targets)


def as_given(kind, always=False):
    """Whether a report reads the table set ``kind`` as it is (reports alone are asked for, or
    ``always``, and all its files exist) rather than as an input that Snakemake brings up to
    date: a set with a missing file is computed, the others are read as they are."""
    return (always or report_only()) and not forced(kind) and all(
        Path(p).exists() for p in set_files(kind).values())


def report_inputs(kinds, always=()):
    """Input function of a report: the files of the sets of ``kinds`` that are not read as
    given (those of ``always`` are, whenever they exist), once every set is known to match
    the config and its record."""

    def inputs(wildcards):
        for kind in kinds:
            verify_table_set(kind)
        return {name: path for kind in kinds if not as_given(kind, kind in always)
                for name, path in set_files(kind).items()}

    return inputs


def given_digests(kinds, always=()):
    """Params function: the SHA-256 of the files of the sets read as given (a params trigger:
    a changed table still reruns the report although it is not an input)."""

    def digests(wildcards):
        return {name: sha256_file(path) for kind in kinds if as_given(kind, kind in always)
                for name, path in set_files(kind).items()}

    return digests


report_tables = report_inputs(REPORT_SETS)
report_table_digests = given_digests(REPORT_SETS)


# -- the RegBoost study (workflow/rules/regboost.smk) -------------------------------------------
REGBOOST_CELL = ("results/cells/regboost/{dataset}/noise{noise}/{fold_order}-{missing}/"
                 "{algorithm}/{key}/reps{repeats}")
REGBOOST_SEMI = "results/cells/regboost/semi/{dataset}/{algorithm}/{key}"
REGBOOST_TABLES = {name: path for name, path in set_files("regboost").items()
                   if name != "regboost_provenance"}
REGBOOST_REFERENCE = str(Path(workflow.basedir) / WANG_KEGL2004)

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

    def regboost_parts(dataset, cell, protocol):
        """What a RegBoost cell's numbers depend on besides its path's wildcards."""
        return {"protocol": protocol, "learner": learner_spec(cell),
                "data": data_content(dataset)}

    def regboost_key(dataset, cell, protocol):
        return cell_key("regboost", regboost_parts(dataset, cell, protocol))

    REGBOOST_JOBS = regboost_study.cell_jobs(REGBOOST_PLAN).to_dict("records")
    REGBOOST_CELLS = [
        REGBOOST_CELL.format(dataset=job["dataset"], noise=noise_name(job["noise"]),
                             fold_order=job["fold_order"], missing=job["missing"],
                             algorithm=job["cell"], repeats=job["repeats"],
                             key=regboost_key(job["dataset"], job["cell"], regboost_protocol()))
        for job in REGBOOST_JOBS]
    REGBOOST_SEMI_CELLS = [
        REGBOOST_SEMI.format(dataset=SEMI["dataset"], algorithm=a,
                             key=regboost_key(SEMI["dataset"], a, semi_protocol()))
        for a in SEMI.get("algorithms", [])]

    REGBOOST_KEYED = {"spec": ("learner",), "protocol": ("protocol",),
                      "pinned": ("data", "table_sha256?")}

    @cell_arguments
    def regboost_cell_arguments(wildcards, input, output):
        uci_spec(wildcards)
        return cell_job_arguments(
            "regboost", wildcards, input, output,
            regboost_parts(wildcards.dataset, wildcards.algorithm, regboost_protocol()),
            REGBOOST_KEYED,
            files={"table": input.table, "output": output.cell, "curve_output": output.curve},
            from_path={"dataset": "dataset", "noise": "noise", "cell": "algorithm",
                       "fold_order": "fold_order", "missing": "missing",
                       "repeats": ("repeats", int)})

    @cell_arguments
    def regboost_semi_arguments(wildcards, input, output):
        uci_spec(wildcards)
        return cell_job_arguments(
            "regboost", wildcards, input, output,
            regboost_parts(wildcards.dataset, wildcards.algorithm, semi_protocol()),
            {**REGBOOST_KEYED, "draws": ("protocol", "draws"),
             "labelled": ("protocol", "labelled")},
            files={"table": input.table, "output": output.cell, "curve_output": output.curve},
            from_path={"dataset": "dataset", "algorithm": "algorithm"})

    regboost_report_tables = report_inputs(("regboost",))
    regboost_table_digests = given_digests(("regboost",))
