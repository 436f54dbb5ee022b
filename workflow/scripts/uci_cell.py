"""Snakemake job: one (dataset, noise, algorithm, repeat) cell over all folds."""

from weightboost.experiment.tables import to_csv_bytes
from weightboost.experiment.uci import run_cell
from weightboost.fileio import write_bytes_atomic
from weightboost.workflow_support import run_step


def main(smk):
    w = smk.wildcards
    frame = run_cell(smk.input.table, w.dataset, float(w.noise), w.algorithm,
                     smk.params.algorithm, int(w.repeat), smk.params.protocol,
                       smk.params.table_sha256)
    write_bytes_atomic(smk.output[0], to_csv_bytes(frame))


run_step(snakemake, main)  # noqa: F821 - injected by Snakemake
