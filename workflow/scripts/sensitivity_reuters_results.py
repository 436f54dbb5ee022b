"""Snakemake job: the Reuters cells of the sensitivity study into
results/sensitivity/reuters_f1.csv, and the record of what they were computed from
(sensitivity_reuters.provenance.json)."""

import pandas as pd

from weightboost.pipeline.provenance import input_routes, stage_seconds, write_table_set
from weightboost.experiment.sensitivity import cell_frames, study_reuters
from weightboost.fileio import csv_bytes
from weightboost.pipeline.workflow_support import run_step


def main(smk):
    cells = cell_frames(smk.input.cells, 0)  # .../{category}/{cell}/{key}.csv
    table = study_reuters(cells, pd.DataFrame(smk.params.plan), smk.params.categories,
                          smk.params.algorithms)
    write_table_set(smk.output.provenance, smk.config, "sensitivity_reuters",
                    {smk.output.f1: csv_bytes(table)},
                    input_routes([], smk.input.receipts), stage_seconds(smk.params.stages),
                    code_sha256=smk.params.code_sha256)


run_step(snakemake, main)  # noqa: F821 - injected by Snakemake
