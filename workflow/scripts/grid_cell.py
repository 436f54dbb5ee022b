"""Snakemake job: a cell of the UCI grid (rule uci_cell: one repeat) or of the sensitivity study
(rule sensitivity_cell: every repeat); weightboost.experiment.jobs has a function of the rule's
name whose arguments are the rule's wildcards and these inputs and params. It runs in the run's
warm worker if there is one."""

import sys

from weightboost.warm import run_job

smk = snakemake  # noqa: F821 - injected by Snakemake
sys.exit(run_job(smk.rule, smk.log[0] if smk.log else None, table=smk.input.table,
                 spec=smk.params.algorithm, experiment=smk.params.protocol,
                 pinned=smk.params.table_sha256, output=smk.output[0],
                 **dict(smk.wildcards.items())))
