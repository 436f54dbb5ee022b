"""Snakemake job: fetch and verify one raw UCI file (see weightboost.data.fetch)."""

from weightboost.data.fetch import FetchSettings, fetch_raw
from weightboost.data.spec import DatasetSpec
from weightboost.workflow_support import run_step


def main(smk):
    spec = DatasetSpec.from_config(smk.wildcards.dataset, smk.params.spec)
    settings = FetchSettings.from_config(smk.params.fetch)
    fetch_raw(spec, smk.output.raw, smk.output.receipt, settings)


run_step(snakemake, main)  # noqa: F821 - injected by Snakemake
