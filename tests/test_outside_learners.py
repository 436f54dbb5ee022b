"""Learners by import path (config ``algorithms.<name>.learner``; docs/protocol.md §3.1): built
with their params and the fold's seed, fed nominal attributes in the one documented way, keyed
by their distribution's version or their module's file, checked before any job; and one added
by config alone, from a test module, through the real workflow."""

import copy
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import sklearn

from conftest import ROOT, run_snakemake
from weightboost.c45 import C45
from weightboost.errors import ConfigError, ReproError
from weightboost.experiment.learner_checks import check_learner
from weightboost.experiment.learners import keyed_spec, make_learner, nominal_columns

HERE = Path(__file__).parent
RF = {"learner": "sklearn.ensemble.RandomForestClassifier", "params": {"n_estimators": 7}}
HGB = {"learner": "sklearn.ensemble.HistGradientBoostingClassifier", "params": {}}
BAGGING = {"learner": "sklearn.ensemble.BaggingClassifier",
           "params": {"estimator": {"learner": "C45", "params": {"pruning": False}},
                      "n_estimators": 3}}


def test_an_outside_learner_gets_its_params_and_the_folds_seed_but_not_the_rounds():
    forest = make_learner("RF", RF, rounds=100, random_state=5)
    assert type(forest).__name__ == "RandomForestClassifier"
    assert (forest.n_estimators, forest.random_state) == (7, 5)
    bagging = make_learner("Bagging", BAGGING, rounds=100, random_state=5)
    assert isinstance(bagging.estimator, C45) and bagging.estimator.pruning is False
    assert bagging.n_estimators == 3
    seeded = make_learner("RF", {**RF, "params": {"random_state": 1}}, 100, random_state=5)
    assert seeded.random_state == 1  # the entry's own seed wins


def nominal_table(seed=0, n=120):
    """A 3-valued nominal attribute that decides the label (a, c: +1; b: -1) and a numeric one
    that does not: a multiway split reaches it in one level, a binary split on codes in two."""
    rng = np.random.default_rng(seed)
    colour = rng.choice(["a", "b", "c"], size=n)
    X = pd.DataFrame({"colour": pd.Categorical(colour, categories=["a", "b", "c"]),
                      "size": rng.normal(size=n)})
    return X, np.where(colour == "b", -1, 1)


def test_c45_in_a_bagging_ensemble_keeps_its_multiway_nominal_splits():
    X, y = nominal_table()
    spec = {**BAGGING, "params": {**BAGGING["params"], "n_estimators": 1, "bootstrap": False}}
    model = make_learner("Bagging", spec, 100, 0, nominal_columns(X)).fit(X, y)
    tree = model[-1].estimators_[0]
    assert tree.nominal_features == [0]
    assert (tree.get_depth(), tree.get_n_leaves()) == (1, 3)
    assert np.mean(model.predict(X) == y) == 1.0


def test_a_learner_without_native_support_gets_one_hot_nominal_columns():
    X, y = nominal_table()
    model = make_learner("RF", RF, 100, 0, nominal_columns(X)).fit(X, y)
    assert model[0].transform(X).shape == (len(X), 3 + 1)  # colour's 3 values, then size


def test_gradient_boosting_gets_the_table_as_it_is_for_its_native_categorical_support():
    X, y = nominal_table()
    model = make_learner("HGB", HGB, 100, 0, nominal_columns(X))
    assert type(model).__name__ == "HistGradientBoostingClassifier"
    assert list(model.fit(X, y).is_categorical_) == [True, False]


def test_a_missing_nominal_value_reaches_c45_in_a_bagging_ensemble_as_missing():
    X, y = nominal_table()
    X.loc[:9, "colour"] = np.nan
    spec = {**BAGGING, "params": {**BAGGING["params"], "n_estimators": 1, "bootstrap": False}}
    model = make_learner("Bagging", spec, 100, 0, nominal_columns(X)).fit(X, y)
    assert np.isnan(model[0].transform(X)[:10, 0]).all()
    assert np.mean(model.predict(X[10:]) == y[10:]) == 1.0


def test_a_project_booster_with_an_outside_base_gets_one_hot_nominal_columns():
    X, y = nominal_table()
    spec = {"learner": "AdaBoost",
            "params": {"base": {"learner": "sklearn.tree.DecisionTreeClassifier",
                                "max_depth": 1}}}
    model = make_learner("Ada-tree", spec, 5, 0, nominal_columns(X)).fit(X, y)
    assert model[0].transform(X).shape == (len(X), 3 + 1)
    assert model[-1].base_estimator.max_depth == 1


def test_an_outside_base_learner_of_a_project_booster_gets_the_folds_seed():
    spec = {"learner": "AdaBoost",
            "params": {"base": {"learner": "sklearn.tree.DecisionTreeClassifier"}}}
    assert make_learner("Ada-tree", spec, 5, random_state=7).base_estimator.random_state == 7
    stumps = make_learner("Ada-stumps", {"learner": "AdaBoost",
                                         "params": {"base": {"learner": "DecisionStump"}}}, 5, 7)
    assert getattr(stumps.base_estimator, "random_state", None) is None  # the project's: as before


def test_a_namespace_package_of_the_users_is_keyed_by_its_files(tmp_path, monkeypatch):
    package = tmp_path / "userlearners"  # no __init__.py: a namespace package
    package.mkdir()
    (package / "nearest.py").write_text((HERE / "outside_learner.py").read_text())
    monkeypatch.syspath_prepend(str(tmp_path))
    path = "userlearners.nearest.NearestMean"
    code = keyed_spec({"learner": path})["imports"][path]
    assert code.startswith("sha256 ")
    from weightboost.experiment.learners import class_code

    class_code.cache_clear()
    (package / "helper.py").write_text("X = 1\n")  # any file of the package moves the key
    assert keyed_spec({"learner": path})["imports"][path] != code


def test_the_learners_an_outside_learner_holds_get_the_folds_seed():
    spec = {"learner": "sklearn.ensemble.AdaBoostClassifier",
            "params": {"estimator": {"learner": "sklearn.tree.DecisionTreeClassifier"}}}
    model = make_learner("Ada", spec, 100, random_state=7)
    assert model.random_state == 7 and model.estimator.random_state == 7
    own = {**spec, "params": {"estimator": {"learner": "sklearn.tree.DecisionTreeClassifier",
                                            "params": {"random_state": 3}}}}
    assert make_learner("Ada", own, 100, random_state=7).estimator.random_state == 3


def test_an_editable_install_is_keyed_by_its_files_not_its_version():
    # weightboost-repro is installed editable: its version does not move when its files do
    code = keyed_spec({"learner": "weightboost.c45.C45"})["imports"]["weightboost.c45.C45"]
    assert code.startswith("sha256 ") and "weightboost-repro" not in code


def test_an_entrys_key_holds_each_outside_class_with_its_code():
    spec = {"learner": "outside_learner.NearestMean", "params": {"shrink": 0.1}}
    keyed = keyed_spec(spec)
    digest = hashlib.sha256((HERE / "outside_learner.py").read_bytes()).hexdigest()
    assert keyed["imports"] == {"outside_learner.NearestMean": f"sha256 {digest}"}
    assert keyed_spec(BAGGING)["imports"] == {
        "sklearn.ensemble.BaggingClassifier": f"scikit-learn {sklearn.__version__}"}
    project = {"learner": "AdaBoost", "params": {"base": {"learner": "DecisionStump"}}}
    assert keyed_spec(project) == project  # the project's code is in the key's code digest


def test_a_job_whose_outside_class_is_not_the_keyed_one_stops():
    keyed = keyed_spec(RF)
    make_learner("RF", keyed, 100)
    other = {**keyed, "imports": {RF["learner"]: "scikit-learn 0.1"}}
    with pytest.raises(ReproError, match="RandomForestClassifier is scikit-learn .* keyed with "
                                         "scikit-learn 0.1"):
        make_learner("RF", other, 100)


@pytest.mark.parametrize("spec, message", [
    ({"learner": "sklearn.ensembel.RandomForestClassifier"},
     r"algorithms\.X\.learner: sklearn\.ensembel\.RandomForestClassifier does not import"),
    ({"learner": "sklearn.ensemble.RandomForest"},
     r"algorithms\.X\.learner: module sklearn\.ensemble has no class RandomForest"),
    ({"learner": "sklearn.linear_model.LinearRegression"},
     r"algorithms\.X\.learner: .*LinearRegression is not a scikit-learn classifier"),
    ({"learner": "outside_learner.NotAClassifier"}, r"NotAClassifier is not a scikit-learn"),
    ({**RF, "params": {"n_estimators": 0}}, r"algorithms\.X\.params: .*n_estimators"),
    ({**RF, "params": {"max_depht": 3}}, r"algorithms\.X\.params: .*max_depht"),
    ({"learner": "outside_learner.NearestMean", "params": {"shrink": 2.0}},
     r"algorithms\.X\.params: .*shrink"),
    ({**BAGGING, "params": {"estimator": {"learner": "C45", "params": {"confidence": 2}}}},
     r"algorithms\.X\.params\.estimator: confidence must be in"),
    ({**BAGGING, "params": {"estimator": {"learner": "C46"}}},
     r"algorithms\.X\.params\.estimator\.learner is 'C46'"),
    ({**BAGGING, "params": {"estimator": {"learner": "C45", "pruning": False}}},
     r"algorithms\.X\.params\.estimator: a learner entry has `learner` and `params` only"),
    ({"learner": "sklearn.ensemble.VotingClassifier",
      "params": {"estimators": [["tree", {"learner": "C45"}]]}},
     r"algorithms\.X\.params\.estimators: a list of learners is not supported"),
    ({**BAGGING, "params": {"estimator": {"learner": "C45"}, "max_features": 0.5}},
     r"algorithms\.X\.params: .*max_features"),
    ({**BAGGING, "params": {"estimator": {"learner": "C45"}, "bootstrap_features": True}},
     r"algorithms\.X\.params: .*bootstrap_features"),
    ({**BAGGING, "params": {"estimator": {"learner": "C45"}, "max_features": 1}},
     r"algorithms\.X\.params: .*max_features"),  # an int counts columns: one per tree
    ({"learner": "sklearn.ensemble.BaggingClassifier",
      "params": {"estimator": {**BAGGING, "params": {"estimator": {"learner": "C45"},
                                                      "max_features": 0.5}}}},
     r"algorithms\.X\.params\.estimator: .*max_features"),  # a nested ensemble too
])
def test_a_bad_outside_learner_stops_at_planning_naming_the_key(spec, message):
    with pytest.raises(ConfigError, match=message):
        check_learner("X", spec, 100)


def test_a_bad_outside_learner_stops_the_workflow_before_any_job(tiny_config, tmp_path):
    config = copy.deepcopy(tiny_config)
    config["algorithms"]["Forest"] = {**RF, "params": {"n_estimators": 0}}
    dry = run_snakemake(tmp_path, config, "experiments", "-n")
    assert dry.returncode != 0
    output = dry.stdout + dry.stderr
    assert "invalid config: algorithms.Forest.params:" in output, output[-3000:]
    assert "n_estimators" in output and "Traceback (most recent call last)" not in output


@pytest.mark.parametrize("where", ["reuters_study", "regboost", "regboost_reading",
                                   "semi_supervised", "sensitivity_replace"])
def test_an_outside_learner_in_a_study_that_reads_rounds_is_refused(main_config, where):
    from weightboost.pipeline.config import check_learners

    config = copy.deepcopy(main_config)
    config["algorithms"]["Forest"] = RF
    if where == "reuters_study":
        config["reuters_study"]["algorithms"] = ["C4.5", "Forest"]
    elif where == "regboost":
        config["regboost"]["algorithms"] = ["AdaBoost-stumps", "Forest", "RegBoost"]
    elif where == "regboost_reading":
        config["regboost"]["readings"]["zscore"]["algorithms"] = ["Forest"]
    elif where == "semi_supervised":
        config["regboost"]["semi_supervised"]["algorithms"] = ["AdaBoost-stumps", "Forest"]
    else:  # a reading that runs it in AdaBoost's place, Reuters rerun included
        config["sensitivity"]["readings"]["forest"] = {"replace": {"AdaBoost": "Forest"}}
    with pytest.raises(ConfigError, match=r"runs 'Forest', which names the outside class "
                                          r"sklearn\.ensemble\.RandomForestClassifier"):
        check_learners(config)


SVC = {"learner": "sklearn.svm.SVC", "params": {}}


@pytest.mark.parametrize("entry, where", [(SVC, "algorithms.SVM"),
                                          ("AdaBoost-stumps",
                                           "algorithms.AdaBoost-stumps.params.base"),
                                          (BAGGING | {"params": {"estimator": SVC}},
                                           "algorithms.SVM")])  # Bagging asks its estimator
def test_a_learner_that_takes_no_missing_values_is_refused_with_a_data_set_that_has_them(
        main_config, entry, where):
    """A booster's own tag says it takes them: its stumps do not (a check of the outer tag
    alone passes AdaBoost-stumps); C4.5 in the same booster does."""
    from weightboost.pipeline.config import check_missing_values

    config = copy.deepcopy(main_config)
    name = entry if isinstance(entry, str) else "SVM"
    if not isinstance(entry, str):
        config["algorithms"]["SVM"] = entry
    config["experiment"]["algorithms"] = ["AdaBoost", name]
    config["sensitivity"] = None
    with pytest.raises(ConfigError) as raised:
        check_missing_values(config, {})
    assert str(raised.value).startswith(
        f"{where} takes no missing values (its scikit-learn tag allow_nan), but "
        "experiment.datasets lists breast_cancer, which has 16 "
        "(datasets.breast_cancer.missing_values or its parsed table): leave breast_cancer out")
    config["experiment"]["datasets"] = ["ionosphere", "pima", "wdbc"]  # 0, no marker, 0
    check_missing_values(config, {})


def test_the_missing_count_comes_from_the_key_the_parsed_table_or_the_marker(main_config):
    from weightboost.pipeline.config import check_missing_values

    config = copy.deepcopy(main_config)
    config["algorithms"]["SVM"] = SVC
    config["experiment"] |= {"algorithms": ["SVM"], "datasets": ["wdbc"]}
    config["sensitivity"] = None
    del config["datasets"]["wdbc"]["missing_values"]
    with pytest.raises(ConfigError, match=r"which may have some .* set "
                                          r"datasets\.wdbc\.missing_values, or run the target"):
        check_missing_values(config, {})
    check_missing_values(config, {"wdbc": {"n_missing": 0}})
    # a generated data set: the schema's default marker is of no raw file; its count, or its
    # generated table's, is what counts
    config["datasets"]["wdbc"] = {"generator": {"function": "m.f"}, "rows": 10, "missing": "?"}
    with pytest.raises(ConfigError, match="no count before its table is made"):
        check_missing_values(config, {})
    check_missing_values(config, {"wdbc": {"n_missing": 0}})
    with pytest.raises(ConfigError, match="lists wdbc, which has 3 "):
        check_missing_values(config, {"wdbc": {"n_missing": 3}})


def test_a_learner_that_takes_no_missing_values_in_the_sensitivity_study_is_refused(
        main_config):
    from weightboost.pipeline.config import check_missing_values

    config = copy.deepcopy(main_config)
    config["algorithms"]["SVM"] = SVC
    config["experiment"]["datasets"] = ["ionosphere"]
    config["sensitivity"]["readings"]["svm"] = {"replace": {"AdaBoost": "SVM"}}
    config["sensitivity"]["datasets"] = ["ionosphere", "breast_cancer"]
    with pytest.raises(ConfigError, match=r"^algorithms\.SVM takes no missing values .* "
                                          r"sensitivity\.datasets lists breast_cancer"):
        check_missing_values(config, {})


def test_a_learner_that_takes_no_missing_values_stops_the_workflow_in_one_line(tiny_config,
                                                                               tmp_path):
    config = copy.deepcopy(tiny_config)
    config["algorithms"]["SVM"] = SVC
    config["experiment"]["algorithms"] = ["C4.5", "SVM"]
    dry = run_snakemake(tmp_path, config, "experiments", "-n")
    assert dry.returncode != 0
    output = dry.stdout + dry.stderr
    assert ("invalid config: algorithms.SVM takes no missing values (its scikit-learn tag "
            "allow_nan), but experiment.datasets lists breast_cancer, which has 2 ") in output, \
        output[-3000:]
    assert "Traceback (most recent call last)" not in output


def test_a_parse_that_finds_another_missing_count_stops_and_writes_nothing(mirror_dir,
                                                                          main_config, tmp_path):
    from weightboost.data.jobs import fetch_uci, parse_uci
    from weightboost.errors import InputFileError

    spec = dict(main_config["datasets"]["breast_cancer"], missing_values=15)
    raw, receipt = tmp_path / "bc.data", tmp_path / "bc.source.json"
    fetch_uci("breast_cancer", spec, {"mirror": str(mirror_dir),
                                      "download": main_config["download"]}, str(raw),
              str(receipt))
    table, sidecar = tmp_path / "bc.csv", tmp_path / "bc.json"
    with pytest.raises(InputFileError, match=r"16 missing values where "
                                             r"datasets\.breast_cancer\.missing_values = 15"):
        parse_uci("breast_cancer", spec, str(raw), str(receipt), str(table), str(sidecar))
    assert not table.exists() and not sidecar.exists()
    parse_uci("breast_cancer", dict(spec, missing_values=16), str(raw), str(receipt),
              str(table), str(sidecar))
    assert table.exists() and sidecar.exists()


def cold_snakemake(workdir: Path, config: dict, lib: Path, *args):
    """Snakemake in a process of its own, with ``lib`` on PYTHONPATH: as a user runs it with a
    module of their own (the tests' warm Snakemake has its imports made already)."""
    path = workdir / "outside-config.yaml"
    import yaml

    path.write_text(yaml.safe_dump(config, sort_keys=False))
    env = {k: v for k, v in os.environ.items() if k != "REPRO_MIRROR"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(lib), env.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, "-m", "snakemake", "--snakefile",
                           str(ROOT / "Snakefile"), "--directory", str(workdir), "--configfile",
                           str(path), "--cores", "2", "--nolock", *args],
                          capture_output=True, text=True, env=env, timeout=600)


BROKEN = {  # a user's module that does not import, and what planning says of it
    "syntax": ("x = 1\ndef f(:\n    pass\n", "line 2: SyntaxError: invalid syntax"),
    "raising": ("import numpy\nraise RuntimeError('no licence file')\n",
                "line 2: RuntimeError: no licence file"),
    "missing": ("import not_installed_dependency\n",
                "line 1: ModuleNotFoundError: No module named 'not_installed_dependency'"),
}


@pytest.mark.parametrize("case", BROKEN)
@pytest.mark.parametrize("nested", [False, True])
def test_a_learner_module_that_does_not_import_stops_in_one_line_naming_key_file_and_line(
        case, nested, tmp_path, monkeypatch):
    source, said = BROKEN[case]
    (tmp_path / f"broken_{case}.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    entry = {"learner": f"broken_{case}.Learner"}
    spec = {"learner": "sklearn.ensemble.BaggingClassifier", "params": {"estimator": entry}} \
        if nested else entry
    key = "params.estimator.learner" if nested else "learner"
    with pytest.raises(ConfigError) as raised:
        check_learner("Mine", spec, 100)
    message = str(raised.value)
    assert message == (f"algorithms.Mine.{key}: module broken_{case} does not import "
                       f"({tmp_path / f'broken_{case}.py'}, {said}); fix the module or install "
                       "what it imports")
    assert raised.value.__cause__ is None and raised.value.__suppress_context__


def test_a_learner_module_with_a_syntax_error_stops_the_workflow_in_one_line(tiny_config,
                                                                             tmp_path):
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "mine.py").write_text(BROKEN["syntax"][0])
    config = copy.deepcopy(tiny_config)
    config["algorithms"]["Mine"] = {"learner": "mine.Learner"}
    (tmp_path / "run").mkdir()
    dry = cold_snakemake(tmp_path / "run", config, lib, "experiments", "-n")
    assert dry.returncode != 0
    output = dry.stdout + dry.stderr
    line = (f"invalid config: algorithms.Mine.learner: module mine does not import "
            f"({lib / 'mine.py'}, line 2: SyntaxError: invalid syntax)")
    assert line in output, output[-3000:]
    assert "Traceback (most recent call last)" not in output and "importlib" not in output


def test_a_learner_added_by_config_alone_runs_through_the_workflow(tiny_run, tmp_path):
    from test_workflow_experiments import scheduled
    from weightboost.data.uci import load_table
    from weightboost.experiment.protocol import folds, noisy_labels
    from outside_learner import NearestMean

    workdir, config = tiny_run
    run, lib = tmp_path / "run", tmp_path / "lib"
    shutil.copytree(workdir, run, symlinks=True)
    lib.mkdir()
    shutil.copy2(HERE / "outside_learner.py", lib / "outside_learner.py")
    config = copy.deepcopy(config)
    config["run"] = "outside"
    config["algorithms"]["Centroid"] = {"learner": "outside_learner.NearestMean",
                                        "params": {"shrink": 0.1}}
    config["experiment"]["algorithms"] = ["C4.5", "Centroid"]
    done = cold_snakemake(run, config, lib, "uci_results")
    assert done.returncode == 0, done.stderr[-4000:]
    jobs = scheduled(done.stdout + done.stderr)
    assert jobs.get("uci_cell") == 3 * 2, done.stderr[-3000:]  # Centroid's; C4.5's were there

    table = pd.read_csv(run / "results" / "runs" / "outside" / "uci_folds.csv")
    experiment = config["experiment"]
    for (dataset, noise), part in table[table.algorithm == "Centroid"].groupby(
            ["dataset", "noise"]):
        X, y = load_table(run / "data" / "processed" / "uci" / f"{dataset}.csv")
        expected = []
        for fold, (train, test) in enumerate(folds(y, experiment["folds"], experiment["seed"],
                                                   dataset, 0)):
            labels, _ = noisy_labels(y[train], noise, experiment["seed"], dataset, 0, fold)
            model = NearestMean(shrink=0.1).fit(X.iloc[train], labels)
            expected.append(np.mean(model.predict(X.iloc[test]) != y[test]))
        assert part.sort_values("fold").error.tolist() == pytest.approx(expected, abs=0)

    # the learner's code is not the project's: an edit of its module gets new cells
    with open(lib / "outside_learner.py", "a") as module:
        module.write("# edited\n")
    dry = cold_snakemake(run, config, lib, "uci_results", "-n")
    assert scheduled(dry.stdout).get("uci_cell") == 3 * 2, dry.stdout[-3000:]
