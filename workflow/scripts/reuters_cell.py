"""Snakemake job: one (category, algorithm) cell of the Reuters study
(weightboost.experiment.jobs.reuters_cell, in the run's warm worker if there is one)."""

import sys

from weightboost.warm import run_job

smk, w = snakemake, snakemake.wildcards  # noqa: F821 - injected by Snakemake
sys.exit(run_job("reuters_cell", smk.log[0] if smk.log else None,
                 matrices=smk.input.matrices, stats=smk.input.stats, category=w.category,
                 algorithm=w.algorithm, spec=smk.params.algorithm, study=smk.params.study,
                 f1_output=smk.output.f1, curve_output=smk.output.curve))
