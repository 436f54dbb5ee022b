"""Snakemake job: parse one raw UCI file into its canonical table (see weightboost.data.uci)."""

import json

from weightboost.data.spec import DatasetSpec
from weightboost.data.uci import write_canonical
from weightboost.workflow_support import run_step


def main(smk):
    spec = DatasetSpec.from_config(smk.wildcards.dataset, smk.params.spec)
    with open(smk.input.receipt) as handle:
        receipt = json.load(handle)
    write_canonical(smk.input.raw, receipt, spec, smk.output.table, smk.output.sidecar)


run_step(snakemake, main)  # noqa: F821 - injected by Snakemake
