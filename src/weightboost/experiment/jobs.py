"""The compute jobs of the workflow as functions of plain values (paths, wildcards, params),
each writing its outputs: the rules' commands call them through
``weightboost.pipeline.warm.run_job``, which runs them in a warm worker or in the job's own
process."""

from __future__ import annotations

from weightboost.errors import ConfigError
from weightboost.experiment.tables import to_csv_bytes
from weightboost.fileio import write_bytes_atomic


def uci_cell(table, dataset, noise, algorithm, spec, repeat, experiment, pinned, output):
    """One (dataset, noise, algorithm, repeat) cell of the UCI grid over all folds."""
    from weightboost.experiment.uci import run_cell

    frame = run_cell(table, dataset, float(noise), algorithm, spec, int(repeat), experiment,
                     pinned)
    write_bytes_atomic(output, to_csv_bytes(frame))


def sensitivity_cell(table, dataset, noise, algorithm, spec, repeats, experiment, pinned,
                     output):
    """Every repeat of one (dataset, noise, cell) of the sensitivity study."""
    from weightboost.experiment.uci import run_repeats

    frame = run_repeats(table, dataset, float(noise), algorithm, spec, int(repeats),
                        experiment, pinned)
    write_bytes_atomic(output, to_csv_bytes(frame))


def reuters_cell(matrices, stats, category, algorithm, spec, study, f1_output, curve_output):
    """One (category, algorithm) cell of the Reuters study."""
    from weightboost.experiment.reuters import run_cell
    from weightboost.reuters.stage import load_matrices, verify_matrices

    verify_matrices(matrices, stats)
    X_train, X_test, labels_train, labels_test, categories = load_matrices(matrices)
    if category not in categories:
        raise ConfigError(f"reuters_study.categories names {category!r}, which is not one of "
                          f"the {len(categories)} ApteMod categories")
    j = categories.index(category)
    f1, curve = run_cell(X_train, X_test, labels_train[:, j], labels_test[:, j], category,
                         algorithm, spec, study, study["seed"])
    write_bytes_atomic(f1_output, to_csv_bytes(f1))
    write_bytes_atomic(curve_output, to_csv_bytes(curve))


def regboost_cell(table, dataset, noise, cell, spec, fold_order, missing, repeats, protocol,
                  pinned, output, curve_output):
    """One cell of the RegBoost study over its repeats: fold rows and learning curves."""
    from weightboost.experiment.regboost_cells import run_cell
    from weightboost.experiment.uci import load_experiment_table

    X, y = load_experiment_table(table, dataset, pinned)
    rows, curves = run_cell(X, y, dataset, cell, spec, float(noise), fold_order, missing,
                            int(repeats), protocol)
    write_bytes_atomic(output, to_csv_bytes(rows))
    write_bytes_atomic(curve_output, to_csv_bytes(curves))


def regboost_semi_cell(table, dataset, algorithm, spec, draws, labelled, protocol, pinned,
                       output, curve_output):
    """One algorithm of the semi-supervised experiment over every draw."""
    from weightboost.experiment.regboost_cells import run_semi_supervised
    from weightboost.experiment.uci import load_experiment_table

    X, y = load_experiment_table(table, dataset, pinned)
    rows, curves = run_semi_supervised(X, y, dataset, algorithm, spec, int(draws),
                                       int(labelled), protocol)
    write_bytes_atomic(output, to_csv_bytes(rows))
    write_bytes_atomic(curve_output, to_csv_bytes(curves))
