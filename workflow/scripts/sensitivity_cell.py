"""Snakemake job: every repeat of one (dataset, noise, cell) of the sensitivity study
(weightboost.experiment.jobs.sensitivity_cell, in the run's warm worker if there is one)."""

import sys

from weightboost.warm import run_job

smk, w = snakemake, snakemake.wildcards  # noqa: F821 - injected by Snakemake
sys.exit(run_job("sensitivity_cell", smk.log[0] if smk.log else None, table=smk.input.table,
                 dataset=w.dataset, noise=w.noise, algorithm=w.algorithm,
                 spec=smk.params.algorithm, repeats=w.repeats, experiment=smk.params.protocol,
                 pinned=smk.params.table_sha256, output=smk.output[0]))
