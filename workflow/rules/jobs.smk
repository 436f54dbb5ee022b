# How a compute job runs: its command and the run's warm worker (its arguments: common.smk).
import os
import shlex
import sys

from snakemake_interface_executor_plugins.settings import DeploymentMethod

from weightboost.fileio import finish_files_together
from weightboost.pipeline import cell_archive
from weightboost.pipeline.provenance import settle_table_set

# Warm workers (weightboost.pipeline.warm): when the jobs run on this machine, one server per run imports
# the package once and forks the compute jobs, which would otherwise each spend 1.5-2.5 s on
# imports. WEIGHTBOOST_WARM=off runs every job in its own process.
# Cell archives (weightboost.pipeline.cell_archive): a cell job restores its outputs from
# results/archive/*.zip when one holds them under their paths (keys), unless `cell_archive` is
# false. Set here, before any job or warm server starts, so every job of the run inherits it.
os.environ[cell_archive.ENV] = "on" if config.get("cell_archive", True) else "off"


def finish_killed_writes():
    """Finish the writes of several files together that a killed run left part-way (the data
    stage's and the table sets': ``fileio.files_together``), before any job reads them. Only a
    run does it (``onstart``); the checks of a dry run read through them and change nothing."""
    for journal in data_journals():
        finish_files_together(journal)
    for kind in TABLE_SETS:
        settle_table_set(RESULTS, kind)


onstart:
    finish_killed_writes()
    # under the SLURM executor: no submission may ask for more CPUs than a node has
    if workflow.executor_plugin is not None and workflow.executor_plugin.cli_prefix == "slurm":
        from weightboost.pipeline.cluster import check_partition_cpus

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
# The server leaves with it (docs/running.md, "On a cluster").
if workflow.remote_exec and (batch_log := warm.batch_step_log()):
    warm.start(log=batch_log)


onsuccess:
    warm.stop()


onerror:
    warm.stop()


# The compute rules' command: `python -m weightboost.pipeline.warm job <job> <log> <arguments>`
# calls the function weightboost.pipeline.warm.JOBS maps <job> to, with the keyword arguments of
# the JSON param `arguments` (job_arguments, common.smk), in the run's warm worker if there is
# one. (Not a `script:`, whose process starts by importing Snakemake's script support: 0.25 s per
# job.) The Python is Snakemake's own, or the rule's conda environment's when one is deployed.
JOB_PYTHON = ("python" if DeploymentMethod.CONDA in workflow.deployment_settings.deployment_method
              else shlex.quote(sys.executable))


def job_command(job):
    """The shell command of the compute rule ``job`` (a key of weightboost.pipeline.warm.JOBS)."""
    return f"{JOB_PYTHON} -m weightboost.pipeline.warm job {job} {{log:q}} {{params.arguments:q}}"


# Scheduling order among ready jobs (Snakemake `priority:`). Data jobs first: while the run's
# warm server compiles the kernels (20-60 s on a fresh clone, by machine), cells wait for it
# and the data jobs can run (src/weightboost/pipeline/warm.py). Then the Reuters cells, the longest
# (10-25 s each), so that none ends the run alone; then the UCI cells (0).
DATA_PRIORITY = 10
LONG_CELL_PRIORITY = 1
