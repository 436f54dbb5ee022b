"""The convex-potential barrier study (weightboost.experiment.barrier, config ``barrier``): its
samples (nested training sizes, a clean test sample, exactly round(η·n) flipped labels), its
tables, MadaBoost added as a user adds a booster, and a small study through the real workflow
with the code its cells are keyed with."""

import copy
import json
import sys

import numpy as np
import pandas as pd

from weightboost.experiment import barrier
from weightboost.experiment.learners import make_learner

LS = {"generator": {"function": "weightboost.data.generators.long_servedio", "params": {}},
      "rows": 100}
PROTOCOL = {"seed": 5, "n_test": 400, "n_pool": 300, "repeats": 2, "checkpoints": [2, 5]}
STUMPS = {"learner": "AdaBoost", "params": {"base": {"learner": "DecisionStump"}}}


def test_a_repeat_draws_nested_training_samples_and_a_clean_test_sample():
    pool = barrier.draw(LS, "ls", 300, 5, 0, barrier.POOL)
    again = barrier.draw(LS, "ls", 300, 5, 0, barrier.POOL)
    test = barrier.draw(LS, "ls", 400, 5, 0, barrier.TEST)
    other = barrier.draw(LS, "ls", 300, 5, 1, barrier.POOL)
    assert np.array_equal(pool[0], again[0]) and np.array_equal(pool[1], again[1])
    assert not np.array_equal(pool[0], test[0][:300]) and not np.array_equal(pool[0], other[0])
    assert np.array_equal(np.sign(test[0].sum(axis=1)), test[1])  # clean: the vote is the label


def test_a_cell_flips_exactly_its_share_and_measures_on_clean_labels(monkeypatch):
    seen = {}

    class Recording:
        def __init__(self, model):
            self.model = model

        def fit(self, X, y):
            seen.setdefault("train", []).append((X.copy(), y.copy()))
            self.model.fit(X, y)
            return self

        def predict(self, X):
            return self.model.predict(X)

    monkeypatch.setattr(barrier, "make_learner",
                        lambda *a, **k: Recording(make_learner(*a, **k)))
    folds, curves = barrier.run_cell("ls", 0.1, 200, "AdaBoost-stumps", STUMPS, 5, PROTOCOL, LS)
    assert list(folds.n_flipped) == [20, 20]
    for repeat, (X, y) in enumerate(seen["train"]):
        pool_X, pool_y = barrier.draw(LS, "ls", 300, 5, repeat, barrier.POOL)
        assert np.array_equal(X, pool_X[:200]) and (y != pool_y[:200]).sum() == 20
    model = make_learner("AdaBoost-stumps", STUMPS, 5,
                         random_state=barrier.learner_seed(5, "ls", 0, 200))
    X, y = seen["train"][0]
    test_X, test_y = barrier.draw(LS, "ls", 400, 5, 0, barrier.TEST)
    assert folds.error[0] == np.mean(model.fit(X, y).predict(test_X) != test_y)
    assert curves.empty  # the wrapper has no staged_predict


def test_a_booster_s_curve_holds_its_checkpoints_and_ends_at_its_error():
    folds, curves = barrier.run_cell("ls", 0.0, 200, "AdaBoost-stumps", STUMPS, 5, PROTOCOL, LS)
    assert list(curves["round"]) == [2, 5, 2, 5][:len(curves)]
    last = curves[curves["round"] == 5].error.to_numpy()
    assert np.array_equal(last, folds.error.to_numpy()[folds.rounds.to_numpy() == 5])


def test_madaboost_caps_every_weight_at_its_start_and_is_adaboost_otherwise():
    sys.path.insert(0, str(__import__("conftest").ROOT / "learners"))
    from madaboost import MadaBoost

    from weightboost.boosting import AdaBoost
    from weightboost.stumps import DecisionStump

    X, y = barrier.draw(LS, "ls", 300, 5, 0, barrier.POOL)
    y = y.copy()
    y[:30] *= -1
    mada = MadaBoost(n_estimators=20, base_estimator=DecisionStump()).fit(X, y)
    ada = AdaBoost(n_estimators=20, base_estimator=DecisionStump()).fit(X, y)
    margin = np.where(y > 0, 1.0, -1.0) * np.linspace(-2, 2, len(y))
    assert np.array_equal(mada._weight_log(margin, None, None), np.minimum(0.0, -margin))
    # the first round sees uniform weights under both: the same stump and coefficient
    assert mada.estimator_weights_[0] == ada.estimator_weights_[0]
    assert not np.array_equal(mada.estimator_weights_, ada.estimator_weights_)


def tiny_barrier(config):
    config = copy.deepcopy(config)
    config["datasets"]["long_servedio"] = {**LS, "rows": 50}
    config["barrier"] = {"dataset": "long_servedio", "noise_levels": [0.0, 0.2],
                         "n_train": [60, 120], "n_test": 300, "repeats": 2, "checkpoints": [3],
                         "algorithms": {"AdaBoost-stumps": 5, "MadaBoost-stumps": 5, "C4.5": 5}}
    config["algorithms"]["MadaBoost-stumps"] = {
        "learner": "madaboost.MadaBoost",
        "params": {"n_estimators": 5, "base_estimator": {"learner":
                                                         "weightboost.stumps.DecisionStump"}}}
    return config


def test_the_study_runs_through_the_workflow_with_the_code_it_is_keyed_with(tiny_run, tmp_path):
    from conftest import recorded_job, run_snakemake
    from test_workflow_experiments import run_loaded
    from weightboost.pipeline.package_code import PACKAGE, package_files
    from weightboost.pipeline.provenance import TABLE_SET_CODE

    workdir, config = tiny_run
    config = tiny_barrier(config)
    done = run_snakemake(tmp_path, config, "barrier")
    assert done.returncode == 0, done.stderr[-4000:]
    summary = pd.read_csv(tmp_path / "results/barrier/summary.csv")
    assert len(summary) == 2 * 2 * 3 and set(summary.repeats) == {2}
    assert list(summary.columns[:6]) == ["dataset", "noise", "n_train", "algorithm", "repeats",
                                         "error_mean"]
    folds = pd.read_csv(tmp_path / "results/barrier/folds.csv")
    noisy = folds[folds.noise == 0.2]
    assert set(noisy.n_flipped) == {12, 24}
    record = json.loads((tmp_path / "results/barrier.provenance.json").read_text())
    assert record["config"]["barrier"]["n_train"] == [60, 120]
    # the cells' code: what a cell of a booster with stumps loads, with the C4.5 modules
    # (a C4.5 cell's) and RegBoost's (listed for its cells)
    loaded = set()
    for algorithm in ("AdaBoost-stumps", "C4.5"):
        job, arguments = recorded_job(tmp_path, "barrier_cell", algorithm=algorithm)
        for key in ("output", "curve_output"):
            arguments[key] = str(tmp_path / f"again-{algorithm}-{key}.csv")
        loaded |= run_loaded(job, arguments, tmp_path)[0]
    listed = {str(p.relative_to(PACKAGE)) for p in package_files(*TABLE_SET_CODE["barrier"])}
    unloaded = {p for p in listed if p.startswith("boosting/regboost") or
                p in ("boosting/selection.py",)}
    assert loaded == listed - unloaded, (sorted(loaded - listed), sorted(listed - loaded))


def test_the_questions_are_answered_from_the_summary_by_their_conditions():
    from weightboost.report.barrier import answer_rows, verdicts

    summary = pd.DataFrame([
        ("ls", 0.1, 250, "A", 0.30), ("ls", 0.1, 1000, "A", 0.25), ("ls", 0.1, 16000, "A", 0.26),
        ("ls", 0.1, 250, "B", 0.20), ("ls", 0.1, 16000, "B", 0.05)],
        columns=["dataset", "noise", "n_train", "algorithm", "error_mean"])
    questions = {"questions": [
        {"id": "barrier", "text": "stays up", "checks": [
            {"algorithms": ["A", "B"], "noise": 0.1, "n_train": [1000, 16000], "at_least": 0.25}]},
        {"id": "escape", "text": "falls below", "checks": [
            {"algorithms": ["B"], "noise": 0.1, "n_train": [16000], "below": 0.05}]},
        {"id": "falls", "text": "falls with n", "checks": [
            {"algorithms": ["A", "B"], "noise": 0.1, "n_train": [250, 16000],
             "falls_with_n": True}]}]}
    answers = answer_rows(questions, summary)
    said = {(r.question, r.algorithm): r.holds
            for r in verdicts(questions, answers).itertuples(index=False)}
    # 0.25 is at least 0.25; 0.05 is not below 0.05; B has no cell at 1,000: it holds nothing
    assert said == {("barrier", "A"): True, ("barrier", "B"): False, ("escape", "B"): False,
                    ("falls", "A"): True, ("falls", "B"): True}
