"""The RegBoost study through the real pipeline (docs/protocol.md §5) on the fixture data, at a
tiny size: its tables, report and guards."""

import copy

import numpy as np
import pandas as pd
import pytest

from conftest import make_tiny_config, recorded_job, run_snakemake
from test_workflow_experiments import assert_cell_arguments_are_keyed, run_loaded
from weightboost.pipeline.package_code import PACKAGE, package_files
from weightboost.pipeline.provenance import TABLE_SET_CODE

pytestmark = pytest.mark.slow  # started first under `make test`: a Snakemake run of the study

READINGS = {"primary": {}, "file_order": {"fold_order": "file_order", "repeats": 1},
            "drop_missing": {"missing": "drop", "repeats": 1, "datasets": ["breast_cancer"]}}


def regboost_config(main_config) -> dict:
    config = make_tiny_config(main_config)
    config["regboost"] = {
        "datasets": ["ionosphere", "breast_cancer"], "algorithms": ["AdaBoost-stumps", "RegBoost"],
        "folds": 2, "repeats": 2, "rounds": 6, "readings": copy.deepcopy(READINGS),
        "lam_grid_before": [0.0],
        "semi_supervised": {"dataset": "pima", "labelled": 8, "draws": 2,
                            "algorithms": ["AdaBoost-stumps", "RegBoost", "BelkinNiyogi",
                                           "LabelSpreading"]}}
    algorithms = config["algorithms"]
    algorithms["RegBoost"] = {"learner": "RegBoostCV",
                              "params": {"lams": [0.0, 0.3], "cv": 2, "n_neighbors": 1}}
    algorithms["BelkinNiyogi"] = {"learner": "BelkinNiyogi",
                                  "params": {"n_neighbors": 2, "cv": 2, "n_vectors": [2, 3]}}
    algorithms["LabelSpreading"] = {"learner": "KnnLabelSpreading", "params": {"n_neighbors": 2}}
    return config


@pytest.fixture(scope="module")
def regboost_run(tmp_path_factory, main_config):
    workdir = tmp_path_factory.mktemp("regboost")
    config = regboost_config(main_config)
    result = run_snakemake(workdir, config, "regboost")
    assert result.returncode == 0, result.stderr[-4000:]
    return workdir, config


def test_the_study_writes_its_tables_and_report(regboost_run):
    workdir, _ = regboost_run
    folds = pd.read_csv(workdir / "results/regboost/folds.csv")
    assert list(folds.columns) == ["reading", "dataset", "noise", "algorithm", "repeat", "fold",
                                   "n_train", "n_test", "lam", "cv_errors", "train_error",
                                   "test_error", "distinct_stumps", "rounds"]
    counts = folds.groupby(["reading", "dataset", "algorithm"]).size()
    assert counts[("primary", "ionosphere", "RegBoost")] == 2 * 2       # repeats x folds
    assert counts[("file_order", "ionosphere", "RegBoost")] == 2
    assert ("drop_missing", "ionosphere", "RegBoost") not in counts.index
    assert set(folds[folds.algorithm == "RegBoost"].lam) <= {0.0, 0.3}
    # every RegBoost fold records each λ's inner-CV error, and its choice is their least; the
    # report counts the folds whose choice moved from the grid before ({0}): those at 0.3
    regboost = folds[folds.algorithm == "RegBoost"]
    errors = [[float(e) for e in text.split(";")] for text in regboost.cv_errors]
    assert all(len(e) == 2 for e in errors)
    assert list(regboost.lam) == [(0.0, 0.3)[int(np.argmin(e))] for e in errors]
    assert folds[folds.algorithm == "AdaBoost-stumps"].cv_errors.isna().all()
    page = (workdir / "reports/regboost.md").read_text()
    moved = int((regboost[regboost.reading == "primary"].groupby("dataset").lam.apply(
        lambda lam: (lam == 0.3).sum())).loc["ionosphere"])
    lines = page.splitlines()
    header = next(i for i, line in enumerate(lines) if line.endswith("| choices moved |"))
    row = next(line for line in lines[header:] if line.startswith("| primary | Ionosphere |"))
    assert row.rstrip(" |").split("|")[-1].strip() == str(moved)  # "choices moved"
    # the reading's protocol reaches the cells: complete rows only, file-order folds
    bc = folds[folds.dataset == "breast_cancer"]
    assert bc[bc.reading == "drop_missing"].n_train.sum() < \
        bc[(bc.reading == "primary") & (bc.repeat == 0)].n_train.sum()
    curves = pd.read_csv(workdir / "results/regboost/curves.csv")
    assert set(curves.reading) == {"primary", "semi_supervised"} and curves.t.max() == 6
    semi = pd.read_csv(workdir / "results/regboost/semi_supervised.csv")
    assert set(semi.algorithm) == {"AdaBoost-stumps", "RegBoost", "BelkinNiyogi",
                                   "LabelSpreading"}
    assert (semi.n_labelled == 8).all() and (semi.n_unlabelled == 12).all()
    claims = pd.read_csv(workdir / "reports/tables/regboost_claims.csv")
    assert {"table1_test_error", "table1_gap", "table1_sparsity", "figure3f_adaboost",
            "figure3f_belkin_niyogi"} == set(claims.claim)
    assert set(claims[claims.claim == "table1_gap"].reading) == {"primary", "file_order",
                                                                 "drop_missing"}
    page = (workdir / "reports/regboost.md").read_text()
    assert "Table 1" in page and "figures/regboost_figure3.png" in page


def test_a_regboost_cell_jobs_arguments_are_its_files_its_path_and_what_its_key_digests(
        regboost_run):
    # as for the UCI and Reuters cells (test_workflow_experiments.py): the cells of every
    # reading, and the semi-supervised ones, whose protocol holds their draws
    workdir, _ = regboost_run
    assert assert_cell_arguments_are_keyed(workdir, ("regboost_cell", "regboost_semi_cell")) > 4


def test_the_shared_cells_are_computed_once(regboost_run):
    # AdaBoost with stumps has no graph: a reading that changes only RegBoost's graph reuses
    # its cell; the same for the primary reading's repeat 0 and a one-repeat reading
    workdir, _ = regboost_run
    cells = sorted(p.relative_to(workdir / "results/cells/regboost").as_posix() for p in
                   (workdir / "results/cells/regboost").rglob("*.csv")
                   if not p.name.endswith(".curve.csv"))
    assert any(c.startswith("ionosphere/noise0.0/stratified-median/AdaBoost-stumps/")
               and c.endswith("/reps2.csv") for c in cells)
    assert not any("reps1" in c and "stratified-median" in c for c in cells)


def test_a_changed_study_is_refused_without_a_run_name(regboost_run):
    workdir, config = regboost_run
    changed = copy.deepcopy(config)
    changed["regboost"]["rounds"] = 7
    result = run_snakemake(workdir, changed, "-n", "regboost")
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "regboost.rounds: 6 -> 7" in output and "run=NAME" in output, output[-3000:]


BAD = [
    (lambda c: c["algorithms"]["RegBoost"]["params"].update(lams=[]),
     "algorithms.RegBoost.params: lams must be a non-empty list"),
    (lambda c: c["algorithms"]["RegBoost"]["params"].update(lams=[0.1, -0.5]),
     "algorithms.RegBoost.params: lams must be a non-empty list of numbers >= 0"),
    (lambda c: c["algorithms"]["RegBoost"]["params"].update(n_neighbors=3),
     "algorithms.RegBoost.params.n_neighbors = 3 is not below the 3 points"),
    (lambda c: c["regboost"]["readings"].update(x={"fold_order": "random"}),
     "config key regboost.readings.x.fold_order"),
    (lambda c: c["regboost"]["readings"].update(x={"datasets": ["pima"]}),
     "regboost.readings.x.datasets names ['pima']"),
    (lambda c: c["regboost"].update(datasets=["ionosphere", "sonar2"]),
     "regboost.datasets names 'sonar2'"),
    (lambda c: c["regboost"].update(algorithms=["AdaBoost-stumps", "RegBoost-typo"]),
     "regboost names the algorithm 'RegBoost-typo'"),
    (lambda c: c["regboost"].update(lam_grid_before=[0.0, 0.5]),
     "regboost.lam_grid_before [0.0, 0.5] is not a part of algorithms.RegBoost.params.lams"),
    # checked while the workflow is planned, not when the reading's first job runs (#63)
    (lambda c: c["regboost"]["readings"].update(x={"params": {"graph_scaling": "minmax"}}),
     "regboost.readings.x.params make RegBoost invalid: .*graph_scaling must be one of"),
    (lambda c: c["regboost"]["semi_supervised"].update(labelled=10**6),
     "regboost.semi_supervised.labelled = 1000000 is not below the .* rows of pima"),
]


@pytest.mark.parametrize("edit, key", BAD)
def test_bad_study_config_is_refused_naming_the_key(main_config, edit, key):
    from weightboost.pipeline.config import check_learners, validate_schema
    from weightboost.errors import ConfigError

    config = regboost_config(main_config)
    edit(config)
    with pytest.raises(ConfigError, match=key.replace("[", "\\[").replace("]", "\\]")):
        validate_schema(config)
        check_learners(config)


def test_the_workflow_stops_on_a_bad_study_config_before_any_job(tmp_path, main_config):
    config = regboost_config(main_config)
    BAD[0][0](config)
    result = run_snakemake(tmp_path, config, "-n", "regboost")
    output = result.stdout + result.stderr
    assert result.returncode != 0 and BAD[0][1] in output, output[-3000:]
    assert not (tmp_path / "results").exists()


def test_the_report_is_rebuilt_from_the_committed_tables_alone(regboost_run, tmp_path):
    # a fresh clone has results/ but no cells or data: `snakemake regboost_report` must read
    # the tables as they are (after checking them against their record), not recompute them
    import shutil

    workdir, config = regboost_run
    shutil.copytree(workdir / "results", tmp_path / "results",
                    ignore=shutil.ignore_patterns("cells"))
    result = run_snakemake(tmp_path, config, "regboost_report")
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-3000:]
    assert "regboost_cell" not in output and "regboost_results" not in output
    assert (tmp_path / "reports/tables/regboost_claims.csv").read_bytes() == \
        (workdir / "reports/tables/regboost_claims.csv").read_bytes()
    edited = tmp_path / "results/regboost/summary.csv"
    edited.write_text(edited.read_text().replace("primary", "primary ", 1))
    result = run_snakemake(tmp_path, config, "regboost_report")
    assert result.returncode != 0
    assert "is not the table recorded in" in result.stdout + result.stderr


def test_the_code_digest_covers_the_modules_the_cells_run(regboost_run, tmp_path):
    # as for the UCI and Reuters cells: together the two kinds of cell load exactly the
    # study's TABLE_SET_CODE (the planning module, experiment/regboost.py, is not in it: a
    # change of the plan reruns no cell)
    from weightboost.pipeline import environment
    from weightboost.pipeline.lockfile import normalise

    workdir, _ = regboost_run
    loaded = set()
    for rule, where in (("regboost_cell", {"algorithm": "RegBoost"}),
                        ("regboost_semi_cell", {"algorithm": "BelkinNiyogi"})):
        job, arguments = recorded_job(workdir, rule, **where)
        for key in ("output", "curve_output"):
            arguments[key] = str(tmp_path / f"{rule}-{key}.csv")
        modules, owners = run_loaded(job, arguments, tmp_path)
        loaded |= modules
        distributions = {normalise(d) for d in owners}
        classified = set(environment.DISTRIBUTIONS) | set(environment.OTHER_DISTRIBUTIONS)
        assert distributions <= classified, sorted(distributions - classified)  # its key's
    listed = {str(p.relative_to(PACKAGE)) for p in package_files(*TABLE_SET_CODE["regboost"])}
    assert loaded == listed, (sorted(loaded - listed), sorted(listed - loaded))


def test_a_named_run_with_other_rounds_never_shares_a_cell(regboost_run):
    # Snakemake records no callable param, so a cell's config (here regboost.rounds) is not
    # among its rerun triggers: the cells of a run with 7 rounds must not sit where the run with
    # 6 reads them, nor the other way round (the main run read a named run's cells before the
    # paths held the digest of the protocol and learner entry)
    workdir, config = regboost_run
    other = copy.deepcopy(config)
    other["run"], other["regboost"]["rounds"] = "other", 7
    result = run_snakemake(workdir, other, "regboost_results")
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    assert pd.read_csv(workdir / "results/runs/other/regboost/curves.csv").t.max() == 7
    assert pd.read_csv(workdir / "results/regboost/curves.csv").t.max() == 6
    main = pd.read_csv(workdir / "results/regboost/folds.csv")
    assert (main.rounds <= 6).all()
    result = run_snakemake(workdir, config, "-n", "regboost_results")
    assert "regboost_cell" not in result.stdout  # the main run's cells are still its own
