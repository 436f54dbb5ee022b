"""Snakemake job: build reports/regboost.{md,html} from the RegBoost study's tables (see
weightboost.report.regboost)."""

from pathlib import Path

from weightboost.report.regboost import build_regboost_report
from weightboost.pipeline.workflow_support import run_step


def main(smk):
    build_regboost_report(Path(smk.params.results), Path.cwd(), smk.params.config,
                          Path(smk.input.reference), Path(smk.output.html).parent,
                          Path(smk.input.lock))


run_step(snakemake, main)  # noqa: F821 - injected by Snakemake
