"""Snakemake job: the sensitivity study's cells into results/sensitivity/{folds,summary,timing}.csv,
and the record of what they were computed from (sensitivity.provenance.json)."""

import pandas as pd

from weightboost.pipeline.provenance import input_routes, stage_seconds, write_table_set
from weightboost.experiment.sensitivity import (cell_frames, study_folds, study_summary,
                                               study_timing)
from weightboost.fileio import csv_bytes
from weightboost.pipeline.workflow_support import run_step


def main(smk):
    plan = pd.DataFrame(smk.params.plan)
    cells = cell_frames(smk.input.cells, 1)  # .../{cell}/{key}/reps{repeats}.csv
    folds = study_folds(cells, plan, smk.params.datasets, smk.params.algorithms)
    write_table_set(smk.output.provenance, smk.config, "sensitivity",
                    {smk.output.folds: csv_bytes(folds),
                     smk.output.summary: csv_bytes(study_summary(folds)),
                     smk.output.timing: csv_bytes(study_timing(cells, plan))},
                    input_routes(smk.input.sidecars), stage_seconds(smk.params.stages),
                    code_sha256=smk.params.code_sha256)


run_step(snakemake, main)  # noqa: F821 - injected by Snakemake
