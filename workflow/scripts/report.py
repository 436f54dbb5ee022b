"""Snakemake job: build reports/ from the result tables (see weightboost.report.build)."""

from pathlib import Path

from weightboost.report.build import build_report
from weightboost.pipeline.workflow_support import run_step


def main(smk):
    build_report(Path(smk.params.results), Path.cwd(), smk.params.config,
                 Path(smk.input.reference), Path(smk.input.notes),
                 Path(smk.output.html).parent, Path(smk.input.lock))


run_step(snakemake, main)  # noqa: F821 - injected by Snakemake
