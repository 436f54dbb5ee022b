"""Snakemake job: the Reuters cells into reuters_f1.csv and reuters_curves.csv, and what they
were computed from (reuters.provenance.json)."""

import pandas as pd

from weightboost.pipeline.provenance import input_routes, stage_seconds, write_table_set
from weightboost.experiment.tables import combine_reuters
from weightboost.fileio import csv_bytes
from weightboost.pipeline.workflow_support import run_step


def main(smk):
    f1, curves = combine_reuters([pd.read_csv(p) for p in smk.input.f1],
                                 [pd.read_csv(p) for p in smk.input.curves],
                                 smk.params.categories, smk.params.algorithms)
    write_table_set(smk.output.provenance, smk.config, "reuters",
                    {smk.output.f1: csv_bytes(f1), smk.output.curves: csv_bytes(curves)},
                    input_routes([], smk.input.receipts),
                    stage_seconds(smk.params.stages),
                    code_sha256=smk.params.code_sha256)


run_step(snakemake, main)  # noqa: F821 - injected by Snakemake
