"""Snakemake job: build reports/barrier.md, its figure and its answers from the barrier study's
tables (see weightboost.report.barrier)."""

from pathlib import Path

from weightboost.pipeline.workflow_support import run_step
from weightboost.report.barrier import build_barrier_report


def main(smk):
    build_barrier_report(Path(smk.params.results), Path(smk.input.questions), smk.params.config,
                         Path(smk.output.md).parent)


run_step(snakemake, main)  # noqa: F821 - injected by Snakemake
