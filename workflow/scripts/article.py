"""Snakemake job: typeset the replication article of a run (see weightboost.report.article)."""

from pathlib import Path

from weightboost.pipeline.workflow_support import run_step
from weightboost.report.article import build_article


def main(smk):
    project = Path(smk.input.source).parents[2]  # <checkout>/workflow/article/article.typ
    build_article(Path.cwd(), smk.params.results, str(Path(smk.output.pdf).parent),
                  smk.params.config, smk.params.run, project, Path(smk.output.pdf),
                  Path(smk.output.html), Path(smk.output.values))


run_step(snakemake, main)  # noqa: F821 - injected by Snakemake
