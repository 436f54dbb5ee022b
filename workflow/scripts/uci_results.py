"""Snakemake job: concatenate the UCI cells into results/uci_folds.csv and summarise them."""

import pandas as pd

from weightboost.experiment.tables import combine_folds, summarise, to_csv_bytes
from weightboost.fileio import write_bytes_atomic
from weightboost.workflow_support import run_step


def main(smk):
    frames = [pd.read_csv(path) for path in smk.input]
    folds = combine_folds(frames, smk.params.datasets, smk.params.algorithms)
    write_bytes_atomic(smk.output.folds, to_csv_bytes(folds))
    write_bytes_atomic(smk.output.summary,
                       to_csv_bytes(summarise(folds, smk.params.datasets, smk.params.algorithms)))


run_step(snakemake, main)  # noqa: F821 - injected by Snakemake
