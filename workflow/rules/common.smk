# What all the rules files share: the validated config, where a run's tables go, the software
# environment, the cell keys and a cell job's arguments, and the experiment grid (datasets x noise
# levels x algorithms) that the UCI rules compute and the sensitivity study re-reads. Each other
# study's paths, inputs and job arguments live in functions/<study>.smk beside its rules file; how
# a job runs in jobs.smk, the table sets' checks in tables.smk.
import json
from pathlib import Path

from weightboost.pipeline.config import add_to_path, check_config, check_learners, dataset_spec
from weightboost.pipeline.provenance import (DATA_JOB_CODE, KEY_PATTERN, REPORT_CODE,
                                             TABLE_SET_CODE, TABLE_SETS, computation_key,
                                             dataset_content,
                                             grid_protocol, package_digest, reuters_content,
                                             run_dir, table_inputs)
from weightboost.pipeline import environment, warm
from weightboost.fileio import sha256_file
from weightboost.errors import ReproError
from weightboost.experiment.cell_names import resolve_spec
from weightboost.experiment.learners import keyed_spec

# learners/: modules of learners outside the package (MadaBoost), on the path of the planning
# and, through PYTHONPATH, of every job, as a user's own module would be (docs/protocol.md §3.1)
add_to_path(Path(workflow.basedir) / "learners")

try:
    check_config(config)
    if workflow.is_main_process:  # not again in every job of a cluster run
        check_learners(config)
except ReproError as exc:
    raise WorkflowError(f"invalid config: {exc}")


def script_digest(name: str) -> str:
    """SHA-256 of ``workflow/scripts/<name>``, a param of the rule that runs it. Snakemake's rerun
    trigger ``code`` judges a script's rule by the script file's modification time, not its
    content, so a checkout or ``git pull`` that rewrites (or only touches) a script reran the
    rule and, through its outputs' new times, everything downstream (every cell, for the data
    rules). The profile leaves that trigger out; this digest (trigger ``params``) reruns a rule
    when its script's content changes and never when only its time does."""
    return sha256_file(Path(workflow.basedir) / "workflow" / "scripts" / name)



RESULTS = run_dir(config, "results")  # results/ for the committed run `main`, else results/runs/<run>
REPORTS = run_dir(config, "reports")
# The software environment this workflow keys its cells with (weightboost.pipeline.environment): part of
# every cell's key, and passed to every cell job, which stops if it runs in another one.
ENVIRONMENT = environment.record()
ENVIRONMENT_SHA256 = environment.digest(ENVIRONMENT)


def learner_spec(name):
    """The learner entry of a cell name (a key of `algorithms`, or a sensitivity cell name
    `entry~param=value,...`, weightboost.experiment.cell_names) as its cell's key digests it:
    with the distribution and version of each outside class it names (keyed_spec)."""
    try:
        return keyed_spec(resolve_spec(config["algorithms"], name))
    except ReproError as exc:
        raise WorkflowError(str(exc))


def uci_spec(wildcards):
    """The config entry of a dataset; an unknown name stops with a clear message."""
    try:
        if "generator" not in config["datasets"].get(wildcards.dataset, {}):
            dataset_spec(config, wildcards.dataset)
    except ReproError as exc:
        raise WorkflowError(str(exc))
    return config["datasets"][wildcards.dataset]


def data_content(dataset):
    return dataset_content(config["datasets"][dataset])


# -- cell keys --------------------------------------------------------------------------------
# Every cell's path holds `key` (weightboost.pipeline.provenance.computation_key): a digest of
# its table set's code and of the config values its numbers depend on besides the path's other
# wildcards. Snakemake records no callable param (the jobs' `arguments`), and a job of a killed
# run may finish after the next run started: a cell of other code or another config then lands
# at another path, never at the one this config reads. Its benchmark and log are keyed alike,
# so that a table set's record sums the benchmarks of its own cells only. A cell job's
# arguments are its files, its path's wildcards and its key's parts, by name
# (cell_job_arguments): none that moves a number can be left out of the key.
KEY = KEY_PATTERN


def noise_wildcard(level):
    """How a noise level appears in cell paths (`noise{noise}`): exactly, as Python writes the
    float (`0.0`, `0.1`), so levels that differ never share a cell."""
    return str(float(level))


wildcard_constraints:
    dataset="[A-Za-z0-9_]+",
    noise="[0-9.e-]+",
    algorithm="[A-Za-z0-9_.+=,~-]+",
    repeat="[0-9]+",
    key=KEY,


def cell_key(kind, parts):
    """The key of a cell of the table set ``kind`` whose numbers depend on ``parts`` (name ->
    config value; the key digests the values in their order)."""
    return computation_key(package_digest(*TABLE_SET_CODE[kind]), ENVIRONMENT_SHA256,
                           *parts.values())


def check_key(wildcards, key):
    """Stop unless the key in a requested cell path is ``key``, this config's and code's: a cell
    path asked for by hand with another config's key would get this config's numbers."""
    if wildcards.key != key:
        raise WorkflowError(f"{wildcards.key} is not the key of {wildcards.algorithm} under this "
                            "config and code: ask for a target (a table, a study), not a cell "
                            "path")


def cell_job_arguments(kind, wildcards, input, output, parts):
    """The `arguments` param of a cell job of the table set ``kind``, each under its own name:
    the job's named input and output files, its path's wildcards but the key, and the parts
    its key digests (name -> config value) — once the path's key is the key of ``parts``. With
    the environment and code the key was computed for (checked and removed by the job's
    runner, weightboost.pipeline.warm)."""
    check_key(wildcards, cell_key(kind, parts))
    code = {"modules": list(TABLE_SET_CODE[kind]),
            "sha256": package_digest(*TABLE_SET_CODE[kind])}
    # a name given twice (an input named like a key part) is Python's TypeError, naming it
    return job_arguments(**dict(input.items()), **dict(output.items()),
                         **{w: v for w, v in wildcards.items() if w != "key"}, **parts,
                         **{warm.ENVIRONMENT_ARGUMENT: ENVIRONMENT, warm.CODE_ARGUMENT: code})


def job_arguments(**arguments):
    """The `arguments` param of a compute job: its job function's keyword arguments as JSON
    (keys sorted: the params Snakemake records for its rerun trigger do not depend on order)."""
    return json.dumps(arguments, sort_keys=True)


def benchmark_files(rule, paths, root):
    """The benchmark files of the ``rule`` jobs that write the cells at ``paths``: each rule's
    benchmark path is `benchmarks/<rule>/` and the cell's path below ``root``."""
    return [f"benchmarks/{rule}/{p.removeprefix(root).removesuffix('.csv')}.tsv" for p in paths]


# -- the experiment grid -----------------------------------------------------------------------
# The UCI grid's cells (rules: workflow/rules/experiments.smk), whose keys and parts the
# sensitivity study's cells share.
EXPERIMENT = config["experiment"]
ALGORITHMS = EXPERIMENT["algorithms"]
REPEATS = list(range(EXPERIMENT["repeats"]))
CELL = "results/cells/uci/{dataset}/noise{noise}/{algorithm}/{key}/rep{repeat}.csv"


def cell_protocol():
    """Only what every cell depends on: a new noise level or algorithm must not rerun others."""
    return grid_protocol(config)


def grid_parts(dataset, algorithm):
    """What a UCI grid or sensitivity cell's numbers depend on besides its path's wildcards."""
    return {"protocol": cell_protocol(), "learner": learner_spec(algorithm),
            "data": data_content(dataset)}


def grid_key(dataset, algorithm, kind="uci"):
    """The key of a UCI grid cell, or (``kind`` "sensitivity") of a sensitivity study cell: the
    same computation from the same protocol, and the study's cell job's code besides."""
    return cell_key(kind, grid_parts(dataset, algorithm))


def grid_cells(pattern, datasets, noise_levels, algorithms, kind="uci", **wildcards):
    """The paths of ``pattern`` over datasets x noise levels x algorithms, each with its key (a
    noise level as ``noise_wildcard`` writes it)."""
    return [pattern.format(dataset=d, noise=noise_wildcard(n), algorithm=a,
                           key=grid_key(d, a, kind), **wildcards)
            for d in datasets for n in noise_levels for a in algorithms]


def grid_cell_arguments(wildcards, input, output):
    """The job arguments of a UCI grid cell (weightboost.experiment.uci.uci_cell)."""
    uci_spec(wildcards)  # an unknown dataset's message
    return cell_job_arguments("uci", wildcards, input, output,
                              grid_parts(wildcards.dataset, wildcards.algorithm))


UCI_CELLS = [path for repeat in REPEATS
             for path in grid_cells(CELL, EXPERIMENT["datasets"], EXPERIMENT["noise_levels"],
                                    ALGORITHMS, repeat=repeat)]
