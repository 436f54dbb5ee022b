"""Snakemake job: the Reuters cells into results/reuters_f1.csv and results/reuters_curves.csv."""

import pandas as pd

from weightboost.experiment.tables import combine_reuters, to_csv_bytes
from weightboost.fileio import write_bytes_atomic
from weightboost.workflow_support import run_step


def main(smk):
    f1, curves = combine_reuters([pd.read_csv(p) for p in smk.input.f1],
                                 [pd.read_csv(p) for p in smk.input.curves],
                                 smk.params.categories, smk.params.algorithms)
    write_bytes_atomic(smk.output.f1, to_csv_bytes(f1))
    write_bytes_atomic(smk.output.curves, to_csv_bytes(curves))


run_step(snakemake, main)  # noqa: F821 - injected by Snakemake
