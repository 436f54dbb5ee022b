"""The sensitivity study's cell job: a restart cell copies the repeats of its stop twin that met
no degenerate round, and those are exactly the repeats its own computation would equal."""

import io

import numpy as np
import pandas as pd
import pytest

from test_boosting import noisy
from test_boosting_readings import perfectly_separable
from weightboost.boosting import AdaBoost, EpsilonBoost, WeightBoost, WeightDecay
from weightboost.errors import ConfigError
from weightboost.experiment import study_cells
from weightboost.experiment.cell_names import stop_twin
from weightboost.experiment.study_cells import copyable_repeats, differs_only_in_restart
from weightboost.experiment.uci import TIMING_COLUMNS

BOOSTERS = [AdaBoost, WeightBoost, EpsilonBoost, WeightDecay]


@pytest.mark.parametrize("cls", BOOSTERS)
@pytest.mark.parametrize("sampling", ["reweight", "resample"])
def test_a_stop_fit_that_ran_every_round_is_its_restart_fit(cls, sampling):
    # the property the copy rests on: over noisy problems, each fit with "stop" that ran all
    # T rounds has the same rounds under "restart"; one that stopped early does not (the last
    # problem: one tree fits it perfectly, ε = 0 stops the first round)
    full = early = 0
    for seed, (X, y) in enumerate([noisy(seed, n=200, noise=0.1) for seed in range(4)]
                                  + [perfectly_separable()]):
        stop = cls(n_estimators=15, sampling=sampling, random_state=seed).fit(X, y)
        restart = cls(n_estimators=15, sampling=sampling, on_degenerate="restart",
                      random_state=seed).fit(X, y)
        if stop.n_rounds_ == 15:
            full += 1
            assert restart.restarts_ == 0 and restart.n_rounds_ == 15
            np.testing.assert_array_equal(restart.estimator_weights_, stop.estimator_weights_)
            np.testing.assert_array_equal(restart.decision_function(X),
                                          stop.decision_function(X))
        else:
            early += 1
            assert restart.restarts_ >= 1 and restart.n_rounds_ != stop.n_rounds_
    assert full and early  # both kinds met: the test is not vacuous


def test_stop_twin_is_the_name_without_the_restart():
    assert stop_twin("AdaBoost~on_degenerate=restart") == "AdaBoost"
    assert stop_twin("WeightBoost~on_degenerate=restart,sampling=resample") == \
        "WeightBoost~sampling=resample"
    assert stop_twin("AdaBoost~sampling=resample") is None
    assert stop_twin("AdaBoost") is None


def test_only_a_restart_of_the_same_entry_has_a_stop_twin():
    restart = {"learner": "AdaBoost", "params": {"on_degenerate": "restart", "beta": 1}}
    assert differs_only_in_restart(restart, {"learner": "AdaBoost", "params": {"beta": 1}})
    assert differs_only_in_restart(
        restart, {"learner": "AdaBoost", "params": {"beta": 1, "on_degenerate": "stop"}})
    assert not differs_only_in_restart(restart, {"learner": "AdaBoost", "params": {"beta": 2}})
    assert not differs_only_in_restart(restart,
                                       {"learner": "WeightBoost", "params": {"beta": 1}})
    assert not differs_only_in_restart({"learner": "AdaBoost", "params": {"beta": 1}},
                                       {"learner": "AdaBoost", "params": {"beta": 1}})


def test_the_default_the_twin_rule_assumes_is_every_boosters_default():
    import inspect

    for cls in BOOSTERS:
        default = inspect.signature(cls).parameters["on_degenerate"].default
        assert default == study_cells.DEFAULT_ON_DEGENERATE, cls


def test_copyable_repeats_need_every_fold_at_every_round():
    stop = pd.DataFrame({"repeat": [0, 0, 1, 1, 2], "fold": [0, 1, 0, 1, 0],
                         "rounds": [5, 5, 5, 4, 5]})
    assert copyable_repeats(stop, folds=2, rounds=5) == [0]  # 1 stopped early, 2 lacks a fold


@pytest.fixture(scope="module")
def stop_job(tmp_path_factory, main_config):
    """The arguments of an AdaBoost sensitivity cell on the fixture breast cancer table (3
    folds, 4 rounds, 2 repeats, 10 % noise), and its computed cell: repeat 0 runs every round
    in every fold, repeat 1 stops early in two."""
    from conftest import make_fixture_config, run_snakemake

    config = make_fixture_config(main_config)
    config["download"] = {**config["download"], "sources": ["mirror"]}
    workdir = tmp_path_factory.mktemp("twin")
    parsed = run_snakemake(workdir, config, "data/processed/uci/breast_cancer.csv")
    assert parsed.returncode == 0, parsed.stderr[-3000:]
    arguments = {"table": str(workdir / "data/processed/uci/breast_cancer.csv"),
                 "sidecar": str(workdir / "data/processed/uci/breast_cancer.json"),
                 "dataset": "breast_cancer", "noise": "0.1", "algorithm": "AdaBoost",
                 "learner": {"learner": "AdaBoost", "params": {}}, "repeats": "2",
                 "protocol": {"folds": 3, "rounds": 4, "seed": 11}, "data": {},
                 "output": str(workdir / "stop.csv")}
    study_cells.sensitivity_cell(**arguments)
    return arguments


def restart_arguments(stop_job, tmp_path, stop_cell, name):
    return {**stop_job, "algorithm": "AdaBoost~on_degenerate=restart",
            "learner": {"learner": "AdaBoost", "params": {"on_degenerate": "restart"}},
            "output": str(tmp_path / name), "stop_cell": stop_cell}


def test_a_restart_cell_copies_exactly_the_repeats_its_computation_equals(stop_job, tmp_path):
    stop = pd.read_csv(stop_job["output"])
    assert copyable_repeats(stop, folds=3, rounds=4) == [0]
    # the twin's repeat 1 (stopped early) given wrong errors: a copy of it would show
    altered = stop.copy()
    altered.loc[altered.repeat == 1, "error"] += 0.5
    twin = tmp_path / "twin.csv"
    twin.write_text(altered.to_csv(index=False, lineterminator="\n"))
    study_cells.sensitivity_cell(**restart_arguments(stop_job, tmp_path, str(twin), "a.csv"))
    direct = {key: value for key, value in restart_arguments(stop_job, tmp_path, None,
                                                             "b.csv").items()
              if not key.startswith("stop_")}
    study_cells.sensitivity_cell(**direct)  # no twin: the whole cell computed
    reused, computed = pd.read_csv(tmp_path / "a.csv"), pd.read_csv(tmp_path / "b.csv")
    assert list(reused.columns) == list(computed.columns)
    values = [c for c in computed.columns if c not in TIMING_COLUMNS]
    pd.testing.assert_frame_equal(reused[values], computed[values])
    assert set(reused.algorithm) == {"AdaBoost~on_degenerate=restart"}
    # repeat 0 is the twin's (its timing too), repeat 1 computed: it restarted
    np.testing.assert_array_equal(reused[reused.repeat == 0].fit_seconds,
                                  stop[stop.repeat == 0].fit_seconds)
    assert reused[reused.repeat == 1].restarts.sum() > 0
    # and the copy's bytes are those a computation writes, timing aside
    strip = lambda f: f[values].to_csv(io.StringIO(), index=False)  # noqa: E731
    assert strip(reused) == strip(computed)


def test_a_cell_that_does_not_restart_or_a_twin_of_another_cell_is_refused(stop_job, tmp_path):
    other = restart_arguments(stop_job, tmp_path, stop_job["output"], "c.csv")
    # a cell whose entry does not restart has no twin, whatever its name says
    with pytest.raises(ConfigError, match="does not restart on a degenerate round"):
        study_cells.sensitivity_cell(**{**other, "learner": stop_job["learner"]})
    # the twin's rows are another cell's: another algorithm's, or another noise level's
    with pytest.raises(ConfigError, match="is not the cell of AdaBoost~sampling=resample on"):
        study_cells.sensitivity_cell(**{
            **other, "algorithm": "AdaBoost~on_degenerate=restart,sampling=resample",
            "learner": {"learner": "AdaBoost",
                        "params": {"on_degenerate": "restart", "sampling": "resample"}}})
    with pytest.raises(ConfigError, match="is not the cell of AdaBoost on breast_cancer"):
        study_cells.sensitivity_cell(**{**other, "noise": "0.2"})
    assert not (tmp_path / "c.csv").exists()
