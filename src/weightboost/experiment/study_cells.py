"""The sensitivity study's cell job, and the one saving it makes: a repeat of a restart cell
whose stop twin never stopped is copied from the twin, not computed again.

A booster with ``on_degenerate="restart"`` differs from the same booster with ``"stop"`` only
at a degenerate round (``weightboost.boosting.rules.outcome``: a tree with ε = 0 or ε ≥ ½):
every other round keeps its tree under both, with the same coefficient, the same weights
and, when resampling, the same draws of the same random stream. A stop fit that ran all T
rounds met no degenerate round, so the restart fit of the same fold is the same fit: the
same trees, predictions, error and rounds, and no restart. A repeat of the restart cell whose
twin's every fold ran T rounds is therefore the twin's repeat, under the restart cell's name
(its timing columns are those of the fits it copies); every other repeat is computed.
(docs/performance.md, "The sensitivity study": every one of the 20,863 such folds of the
previous code's study equals its restart fold; the copy saves about two thirds of the restart
readings' seconds.)

The workflow passes a twin only when the study computes it anyway and its learner entry is
the restart cell's with ``on_degenerate`` at "stop" (``differs_only_in_restart``), at the path
that holds the key of that entry; the job checks that its own entry restarts and that the
twin's rows are the twin's before copying anything.
"""

from __future__ import annotations

import logging

import pandas as pd

from weightboost.errors import ConfigError
from weightboost.fileio import write_csv_atomic

# the boosters' default (``BoostingClassifier``), written here because the workflow imports this
# module as it reads the Snakefile, which must not import the learners; a test compares them
DEFAULT_ON_DEGENERATE = "stop"


def differs_only_in_restart(spec: dict, stop_spec: dict) -> bool:
    """Whether learner entry ``spec`` restarts on a degenerate round and is ``stop_spec``
    otherwise: the same learner, with the same parameters but ``on_degenerate``."""
    params = dict(spec.get("params") or {})
    stop_params = dict(stop_spec.get("params") or {})
    return (params.pop("on_degenerate", DEFAULT_ON_DEGENERATE) == "restart"
            and stop_params.pop("on_degenerate", DEFAULT_ON_DEGENERATE) == "stop"
            and {**spec, "params": params} == {**stop_spec, "params": stop_params})


def copyable_repeats(stop: pd.DataFrame, folds: int, rounds: int) -> list[int]:
    """The repeats of a stop cell in which every one of the ``folds`` folds ran ``rounds``
    rounds: those its restart twin equals."""
    complete = stop.groupby("repeat").agg(n=("fold", "nunique"), full=("rounds", "min"))
    return sorted(int(r) for r, row in complete.iterrows()
                  if row.n == folds and row.full == rounds)


def sensitivity_cell(table, sidecar, output, dataset, noise, algorithm, repeats, protocol,
                     learner, data, stop_cell=None):
    """The job of a sensitivity cell: every repeat of one (dataset, noise, cell), with the
    arguments of a grid cell (``weightboost.experiment.uci.uci_cell``) but ``repeats``. With a
    ``stop_cell`` (the cell of ``stop_twin(algorithm)``, whose key the workflow checked), the
    repeats the twin ran without a degenerate round are copied from it."""
    from weightboost.experiment.learners import make_learner
    from weightboost.experiment.cell_names import stop_twin
    from weightboost.experiment.uci import CELL_COLUMNS, load_experiment_table, run_repeats

    repeats = int(repeats)

    def computed(numbers):
        X, y = load_experiment_table(table, sidecar, dataset, data.get("table_sha256"))
        return run_repeats(X, y, dataset, float(noise), algorithm, learner, numbers, protocol)

    if stop_cell is None:
        write_csv_atomic(output, computed(repeats))
        return
    twin = stop_twin(algorithm)
    if twin is None or (learner.get("params") or {}).get("on_degenerate") != "restart":
        raise ConfigError(f"{algorithm} does not restart on a degenerate round: no cell can "
                          "stand for its repeats")
    stop = pd.read_csv(stop_cell)  # pandas 3 reads floats round-trip
    if set(stop.algorithm) != {twin} or set(stop.dataset) != {dataset} or \
            set(stop.noise) != {float(noise)}:
        raise ConfigError(f"{stop_cell} is not the cell of {twin} on {dataset} at noise {noise}")
    rounds = make_learner(algorithm, learner, protocol["rounds"]).n_estimators
    copied = set(copyable_repeats(stop, protocol["folds"], rounds)) & set(range(repeats))
    rest = [r for r in range(repeats) if r not in copied]
    ran = computed(rest) if rest else None
    frames = [stop[stop.repeat == r].assign(algorithm=algorithm) if r in copied
              else ran[ran.repeat == r] for r in range(repeats)]
    logging.getLogger("weightboost").info(
        "%s: %d of %s repeats copied from %s (no degenerate round in any fold)", algorithm,
        len(copied), repeats, stop_cell)
    frame = pd.concat(frames, ignore_index=True)[CELL_COLUMNS]
    write_csv_atomic(output, frame)
