"""Folds and label noise (docs/protocol.md §2)."""

import numpy as np
import pytest

from weightboost.experiment.protocol import folds, n_flipped, noisy_labels

Y = np.array([1] * 60 + [-1] * 140)


def test_folds_are_stratified_disjoint_and_cover_every_row():
    splits = folds(Y, 10, seed=7, dataset="toy", repeat=0)
    tests = np.concatenate([test for _, test in splits])
    assert sorted(tests) == list(range(len(Y)))
    for train, test in splits:
        assert not set(train) & set(test)
        assert (Y[test] == 1).sum() == 6  # 60 positives over 10 folds


def test_folds_depend_on_seed_dataset_and_repeat_only():
    a = folds(Y, 10, 7, "toy", 0)
    assert all(np.array_equal(x[1], y[1]) for x, y in zip(a, folds(Y, 10, 7, "toy", 0)))
    for other in (folds(Y, 10, 8, "toy", 0), folds(Y, 10, 7, "other", 0),
                  folds(Y, 10, 7, "toy", 1)):
        assert not all(np.array_equal(x[1], y[1]) for x, y in zip(a, other))


@pytest.mark.parametrize("noise, n, k", [(0.0, 178, 0), (0.1, 315, 32), (0.2, 178, 36),
                                         (0.3, 629, 189), (0.25, 10, 3), (0.05, 10, 1)])
def test_exactly_round_p_n_labels_flip(noise, n, k):
    assert n_flipped(noise, n) == k  # half-up: 0.25 * 10 = 2.5 -> 3, 0.05 * 10 = 0.5 -> 1
    y = np.where(np.arange(n) % 3 == 0, 1, -1)
    noisy, flipped = noisy_labels(y, noise, 1, "toy", 0, 0)
    assert len(flipped) == k and np.sum(noisy != y) == k
    np.testing.assert_array_equal(noisy[flipped], -y[flipped])


def test_noise_is_nested_across_levels_and_deterministic():
    y = np.where(np.arange(500) % 4 == 0, 1, -1)
    previous = set()
    for noise in (0.0, 0.1, 0.2, 0.3, 0.4):
        _, flipped = noisy_labels(y, noise, 3, "toy", 0, 2)
        assert previous <= set(flipped)
        previous = set(flipped)
        again = noisy_labels(y, noise, 3, "toy", 0, 2)[1]
        np.testing.assert_array_equal(flipped, again)
    other_fold = noisy_labels(y, 0.2, 3, "toy", 0, 3)[1]
    assert set(other_fold) != set(noisy_labels(y, 0.2, 3, "toy", 0, 2)[1])


def toy_table(tmp_path):
    """A 120-row canonical table with its sidecar, as the data stage writes them."""
    import hashlib
    import json

    import pandas as pd

    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.normal(size=120), "b": rng.normal(size=120)})
    y = np.where(X.a + X.b > 0, 1, -1)
    frame = X.assign(label=y)
    frame.to_csv(tmp_path / "toy.csv", index=False)
    digest = hashlib.sha256((tmp_path / "toy.csv").read_bytes()).hexdigest()
    (tmp_path / "toy.json").write_text(json.dumps({
        "attributes": [{"name": "a", "kind": "numeric"}, {"name": "b", "kind": "numeric"}],
        "table_sha256": digest}))
    return tmp_path / "toy.csv"


def test_test_folds_are_never_touched(tmp_path):
    # a grid cell's job flips labels of the training part only: the test labels it scores
    # against are the table's own
    import pandas as pd

    from weightboost.experiment.uci import uci_cell

    table = toy_table(tmp_path)
    spec = {"learner": "C45", "params": {}}
    protocol = {"seed": 5, "folds": 4, "rounds": 5}
    for noise in ("0.0", "0.3"):  # as the cell's path writes it
        uci_cell(table, table.with_suffix(".json"), tmp_path / f"{noise}.csv", "toy", noise,
                 "C4.5", "0", protocol, spec, {})
    clean, noisy = (pd.read_csv(tmp_path / f"{noise}.csv") for noise in ("0.0", "0.3"))
    assert list(noisy.n_flipped) == [27] * 4 and list(clean.n_flipped) == [0] * 4
    assert list(noisy.n_test) == list(clean.n_test) == [30] * 4


def test_the_timing_columns_count_the_work_not_the_waiting(tmp_path, monkeypatch):
    # a fit that waits (the process paused, or the cores busy with other work) is not a dearer
    # fit: the columns hold CPU seconds; a fit that computes is counted
    import time

    from weightboost.experiment import uci

    class Waits:
        def fit(self, X, y):
            time.sleep(0.3)
            return self

        def predict(self, X):
            time.sleep(0.2)
            return np.ones(len(X), dtype=int)

    class Computes(Waits):
        def fit(self, X, y):
            end = time.process_time() + 0.2
            while time.process_time() < end:
                pass
            return self

    protocol = {"seed": 5, "folds": 2, "rounds": 5}
    for learner in (Waits, Computes):
        monkeypatch.setattr(uci, "make_learner", lambda *args, learner=learner: learner())
        table = toy_table(tmp_path)
        X, y = uci.load_experiment_table(table, table.with_suffix(".json"), "toy", None)
        cell = uci.run_repeats(X, y, "toy", 0.0, "toy", {}, [0], protocol)
        assert (cell.predict_seconds < 0.1).all()
        if learner is Waits:
            assert (cell.fit_seconds < 0.1).all()
        else:
            assert (cell.fit_seconds >= 0.19).all()


def test_load_config_merges_overlays_as_snakemake_and_names_a_missing_file(tmp_path):
    """An overlay replaces the keys it gives and keeps their siblings (Snakemake's
    --configfile merge); a missing file is named."""
    from pathlib import Path

    from weightboost.pipeline.config import load_config
    from weightboost.errors import ConfigError

    root = Path(__file__).resolve().parents[1]
    base = load_config(root / "config" / "config.yaml")
    overlay = tmp_path / "overlay.yaml"
    overlay.write_text("sensitivity:\n  noise_levels: [0.0, 0.3]\n")
    merged = load_config(root / "config" / "config.yaml", overlay)
    assert merged["sensitivity"]["noise_levels"] == [0.0, 0.3]
    assert {k: v for k, v in merged["sensitivity"].items() if k != "noise_levels"} == {
        k: v for k, v in base["sensitivity"].items() if k != "noise_levels"}
    assert merged["experiment"] == base["experiment"]
    with pytest.raises(ConfigError, match="missing.yaml does not exist"):
        load_config(root / "config" / "config.yaml", tmp_path / "missing.yaml")
