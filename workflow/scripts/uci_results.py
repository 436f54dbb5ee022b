"""Snakemake job: concatenate the UCI cells into uci_folds.csv, summarise them, and record
what they were computed from (uci.provenance.json)."""

import pandas as pd

from weightboost.pipeline.provenance import input_routes, stage_seconds, write_table_set
from weightboost.experiment.tables import combine_folds, summarise
from weightboost.fileio import csv_bytes
from weightboost.pipeline.workflow_support import run_step


def main(smk):
    frames = [pd.read_csv(path) for path in smk.input.cells]
    folds = combine_folds(frames, smk.params.datasets, smk.params.algorithms)
    summary = summarise(folds, smk.params.datasets, smk.params.algorithms)
    write_table_set(smk.output.provenance, smk.config, "uci",
                    {smk.output.folds: csv_bytes(folds),
                     smk.output.summary: csv_bytes(summary)},
                    input_routes(smk.input.sidecars), stage_seconds(smk.params.stages),
                    code_sha256=smk.params.code_sha256)


run_step(snakemake, main)  # noqa: F821 - injected by Snakemake
