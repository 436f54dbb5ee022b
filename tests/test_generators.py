"""Data sets from a generator (weightboost.data.generators, config ``datasets.<name>.generator``):
the Long-Servedio distribution's structure, point by point and in its proportions; a generated
table written as a parsed one, checked as one; and a user's generator by config alone through
the real workflow."""

import copy
import json
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from weightboost.data.generators import (LS_FEATURES, LS_FIRST, long_servedio,
                                         long_servedio_points)


@pytest.fixture(scope="module")
def points():
    return long_servedio_points(40_000, np.random.default_rng(7))


def test_every_feature_is_a_sign_and_the_majority_vote_is_the_label(points):
    X, y, _ = points
    assert set(np.unique(X)) == {-1, 1} and set(np.unique(y)) == {-1, 1}
    assert X.shape == (40_000, LS_FEATURES)
    assert np.array_equal(np.sign(X.sum(axis=1)), y)


def test_each_kind_agrees_with_the_label_where_its_definition_says(points):
    X, y, kind = points
    agree = X == y[:, None]
    assert agree[kind == 0].all()                                          # large margin
    assert agree[kind == 1, :LS_FIRST].all() and not agree[kind == 1, LS_FIRST:].any()
    penalizer = agree[kind == 2]
    assert (penalizer[:, :LS_FIRST].sum(axis=1) == 5).all()
    assert (penalizer[:, LS_FIRST:].sum(axis=1) == 6).all()


def test_the_kinds_labels_and_chosen_features_have_their_probabilities(points):
    X, y, kind = points
    n = len(y)
    assert np.bincount(kind) / n == pytest.approx([0.25, 0.25, 0.5], abs=0.01)
    assert np.mean(y == 1) == pytest.approx(0.5, abs=0.01)
    agree = X == y[:, None]
    # a penalizer's agreeing features are uniform within each block
    pen = agree[kind == 2]
    assert pen[:, :LS_FIRST].mean(axis=0) == pytest.approx(np.full(LS_FIRST, 5 / 11), abs=0.02)
    assert pen[:, LS_FIRST:].mean(axis=0) == pytest.approx(np.full(10, 6 / 10), abs=0.02)
    # so each coordinate alone, a decision stump, is right on 1/4 + 1/4 + 5/22 of the points
    # (features 1-11) or 1/4 + 0 + 3/10 (features 12-21): no single stump is near the vote
    accuracy = agree.mean(axis=0)
    assert accuracy[:LS_FIRST] == pytest.approx(np.full(LS_FIRST, 0.5 + 5 / 22), abs=0.01)
    assert accuracy[LS_FIRST:] == pytest.approx(np.full(10, 0.25 + 0.3), abs=0.01)


def test_the_table_is_the_points_of_the_same_generator():
    X, y = long_servedio(500, np.random.default_rng(3))
    points, labels, _ = long_servedio_points(500, np.random.default_rng(3))
    assert list(X.columns) == [f"x{j}" for j in range(1, 22)]
    assert np.array_equal(X.to_numpy(), points) and np.array_equal(y, labels)
    again, _ = long_servedio(500, np.random.default_rng(3))
    assert again.equals(X)


LS = {"description": "the barrier's distribution", "rows": 300, "missing_values": 0,
      "generator": {"function": "weightboost.data.generators.long_servedio", "params": {}}}


def test_a_generated_data_set_is_written_as_a_parsed_one_and_drawn_again_alike(tmp_path):
    from weightboost.data.generators import generator_seed
    from weightboost.data.jobs import generate_dataset
    from weightboost.data.uci import load_table, verify_table

    paths = [str(tmp_path / f"ls.{suffix}") for suffix in ("csv", "json")]
    generate_dataset("long_servedio", LS, 11, *paths)
    sidecar = json.loads(Path(paths[1]).read_text())
    verify_table(paths[0], sidecar)
    X, y = load_table(paths[0], sidecar)
    expected, labels = long_servedio(300, np.random.default_rng(generator_seed(11, "long_servedio")))
    assert np.array_equal(X.to_numpy(), expected.to_numpy()) and np.array_equal(y, labels)
    assert sidecar["n_rows"] == 300 and sidecar["n_missing"] == 0
    assert sidecar["source"]["route"] == "generator"
    first = Path(paths[0]).read_bytes()
    generate_dataset("long_servedio", LS, 11, *paths)
    assert Path(paths[0]).read_bytes() == first                    # the same seed, the same table
    generate_dataset("long_servedio", LS, 12, *paths)
    assert Path(paths[0]).read_bytes() != first                    # experiment.seed enters


@pytest.mark.parametrize("change, error", [
    ({"table_sha256": "0" * 64}, "not the pinned 0000"),
    ({"missing_values": 3}, "0 missing values where datasets.long_servedio.missing_values = 3"),
    ({"rows": 300, "generator": {"function": "outside_generator.not_there"}}, "cannot be imported"),
])
def test_a_generated_table_that_is_not_the_one_asked_for_is_not_written(tmp_path, change, error,
                                                                        monkeypatch):
    from weightboost.data.jobs import generate_dataset
    from weightboost.errors import ReproError

    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    paths = [str(tmp_path / f"ls.{suffix}") for suffix in ("csv", "json")]
    with pytest.raises(ReproError, match=re.escape(error)):
        generate_dataset("long_servedio", LS | change, 11, *paths)
    assert not any(Path(p).exists() for p in paths)


def test_a_generated_data_set_runs_by_config_alone_through_the_workflow(tiny_run, tmp_path):
    # a function of a module of the user's, named in the config: drawn, pinned by nothing,
    # its cells computed in the UCI grid and planned in the sensitivity study like any other;
    # an edit of its module draws it again and gets new cells
    from test_outside_learners import cold_snakemake
    from test_workflow_experiments import scheduled
    from weightboost.data.generators import generator_seed

    from outside_generator import two_blobs

    workdir, config = tiny_run
    run, lib = tmp_path / "run", tmp_path / "lib"
    shutil.copytree(workdir, run, symlinks=True)
    lib.mkdir()
    shutil.copy2(Path(__file__).parent / "outside_generator.py", lib / "outside_generator.py")
    config = copy.deepcopy(config)
    config["run"] = "generated"
    config["datasets"]["blobs"] = {"generator": {"function": "outside_generator.two_blobs",
                                                 "params": {"shift": 2.0}}, "rows": 40}
    config["experiment"]["datasets"] = ["pima", "blobs"]
    done = cold_snakemake(run, config, lib, "uci_results")
    assert done.returncode == 0, done.stderr[-4000:]
    jobs = scheduled(done.stdout + done.stderr)
    algorithms, levels = config["experiment"]["algorithms"], config["experiment"]["noise_levels"]
    assert jobs.get("generate_dataset") == 1 and "parse_uci" not in jobs
    assert jobs.get("uci_cell") == len(algorithms) * len(levels)   # blobs' cells; pima's were there
    table = pd.read_csv(run / "data/processed/uci/blobs.csv")
    X, y = two_blobs(40, np.random.default_rng(generator_seed(config["experiment"]["seed"],
                                                              "blobs")), shift=2.0)
    assert np.allclose(table[["a", "b", "c"]].to_numpy(), X.to_numpy())
    folds = pd.read_csv(run / "results/runs/generated/uci_folds.csv")
    assert set(folds.dataset) == {"pima", "blobs"}
    assert len(folds[folds.dataset == "blobs"]) == \
        len(algorithms) * len(levels) * config["experiment"]["folds"]

    study = copy.deepcopy(config)
    study["sensitivity"] = {"datasets": ["blobs"], "repeats": 1, "noise_levels": [0.0],
                            "readings": {"primary": {}}}
    planned = cold_snakemake(run, study, lib, "sensitivity_results", "-n")
    assert planned.returncode == 0, planned.stderr[-3000:]
    assert scheduled(planned.stdout).get("sensitivity_cell") == len(algorithms)

    with open(lib / "outside_generator.py", "a") as module:
        module.write("# edited\n")
    dry = cold_snakemake(run, config, lib, "uci_results", "-n")
    assert scheduled(dry.stdout).get("generate_dataset") == 1, dry.stdout[-3000:]
    assert scheduled(dry.stdout).get("uci_cell") == len(algorithms) * len(levels)
