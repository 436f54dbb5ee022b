"""Snakemake job: the RegBoost study's cells into results/regboost/*.csv, and what they were
computed from (regboost.provenance.json)."""

import pandas as pd

from weightboost.experiment import regboost
from weightboost.pipeline.provenance import input_routes, stage_seconds, write_table_set
from weightboost.fileio import csv_bytes
from weightboost.pipeline.workflow_support import run_step


def main(smk):
    config = smk.config
    study = regboost.study_section(config)
    table = pd.DataFrame(smk.params.plan, columns=regboost.PLAN_COLUMNS)
    cells, curves = {}, {}
    for job, cell_path, curve_path in zip(smk.params.jobs, smk.input.cells, smk.input.curves):
        key = regboost.cell_key(job["dataset"], job["noise"], job["fold_order"], job["missing"],
                                job["cell"])
        cells[key], curves[key] = pd.read_csv(cell_path), pd.read_csv(curve_path)
    tables = regboost.combine(table, cells, curves, study,
                              [pd.read_csv(p) for p in smk.input.semi],
                              [pd.read_csv(p) for p in smk.input.semi_curves])
    paths = (smk.output.folds, smk.output.summary, smk.output.curves, smk.output.semi)
    write_table_set(smk.output.provenance, config, "regboost",
                    {path: csv_bytes(frame) for path, frame in zip(paths, tables)},
                    input_routes(smk.input.sidecars),
                    stage_seconds(smk.params.stages),
                    code_sha256=smk.params.code_sha256)


run_step(snakemake, main)  # noqa: F821 - injected by Snakemake
