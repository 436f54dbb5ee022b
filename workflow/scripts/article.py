"""Snakemake job: typeset the replication article of a run (see weightboost.report.article)."""

from pathlib import Path

from weightboost.pipeline.workflow_support import run_step
from weightboost.report.article import build_article


def main(smk):
    build_article(Path.cwd(), smk.params.results, smk.params.reports, smk.params.config,
                  smk.params.run, Path(smk.params.project),
                  Path(smk.output.pdf), Path(smk.output.html), Path(smk.output.values))


run_step(snakemake, main)  # noqa: F821 - injected by Snakemake
