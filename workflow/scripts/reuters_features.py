"""Snakemake job: the raw corpus to ltc matrices and statistics (see weightboost.reuters.stage)."""

from weightboost.reuters.stage import build
from weightboost.workflow_support import run_step


def main(smk):
    build(smk.input.corpus, smk.input.stopwords[0], smk.params.reuters, smk.output.matrices,
          smk.output.vocabulary, smk.output.stats)


run_step(snakemake, main)  # noqa: F821 - injected by Snakemake
