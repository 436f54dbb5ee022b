"""Snakemake job: one (category, algorithm) cell of the Reuters study."""

from weightboost.experiment.reuters import run_cell
from weightboost.experiment.tables import to_csv_bytes
from weightboost.fileio import write_bytes_atomic
from weightboost.reuters.stage import load_matrices, verify_matrices
from weightboost.workflow_support import run_step


def main(smk):
    verify_matrices(smk.input.matrices, smk.input.stats)
    X_train, X_test, labels_train, labels_test, categories = load_matrices(smk.input.matrices)
    category = smk.wildcards.category
    if category not in categories:
        from weightboost.errors import ConfigError

        raise ConfigError(f"reuters_study.categories names {category!r}, which is not one of "
                          f"the {len(categories)} ApteMod categories")
    j = categories.index(category)
    study = smk.params.study
    f1, curve = run_cell(X_train, X_test, labels_train[:, j], labels_test[:, j], category,
                         smk.wildcards.algorithm, smk.params.algorithm, study, study["seed"])
    write_bytes_atomic(smk.output.f1, to_csv_bytes(f1))
    write_bytes_atomic(smk.output.curve, to_csv_bytes(curve))


run_step(snakemake, main)  # noqa: F821 - injected by Snakemake
