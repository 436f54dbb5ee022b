"""The sensitivity study: readings resolved to shared cells, config checks, and the target end to
end on fixture data through Snakemake."""

import copy
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from conftest import ROOT, run_snakemake
from weightboost.errors import ConfigError
from weightboost.pipeline.provenance import TABLE_SET_CODE, package_digest
from weightboost.experiment.cell_names import cell_name, parse_cell_name, resolve_spec
from weightboost.experiment.sensitivity import (cell_jobs, check_study, plan, readings,
                                                reuters_means, reuters_plan, study_folds,
                                                study_section, study_timing)


def study_config(main_config, **study):
    config = copy.deepcopy(main_config)
    config["sensitivity"] = {
        "repeats": 2, "datasets": ["pima", "breast_cancer"], "noise_levels": [0.0, 0.2],
        "algorithms": ["C4.5", "AdaBoost", "WeightBoost"],
        "readings": {"primary": {}, "resample": {"params": {"sampling": "resample"}},
                     "constant_mean": {"params": {"normalize": "mean"}}},
        "sweeps": {"beta": {"values": [0, 0.5], "algorithms": ["WeightBoost"]}}, **study}
    return config


def cells_by_reading(config):
    table = plan(config)
    # a reading runs the same cell at every noise level
    assert (table.groupby(["reading", "algorithm"]).cell.nunique() == 1).all()
    return table.drop_duplicates(["reading", "algorithm"]).set_index(["reading", "algorithm"]).cell


def test_a_reading_changes_only_the_learners_that_take_its_parameters(main_config):
    table = cells_by_reading(study_config(main_config))
    assert table["primary", "AdaBoost"] == "AdaBoost"
    assert table["resample", "AdaBoost"] == "AdaBoost~sampling=resample"
    assert table["resample", "C4.5"] == "C4.5"                # C4.5 does not boost
    assert table["constant_mean", "AdaBoost"] == "AdaBoost"   # only WeightBoost normalises
    assert table["constant_mean", "WeightBoost"] == "WeightBoost~normalize=mean"
    assert table["beta=0", "WeightBoost"] == "WeightBoost~beta=0"
    assert table["beta=0.5", "WeightBoost"] == "WeightBoost"  # the primary run's β
    assert table["beta=0", "AdaBoost"] == "AdaBoost"          # the sweep is WeightBoost's
    assert len(set(table)) == 7  # C4.5, 2 x AdaBoost, 4 x WeightBoost


def test_replace_swaps_an_algorithm_for_another_entry(main_config):
    config = study_config(main_config, algorithms=["AdaBoost", "WeightDecay"],
                          readings={"primary": {},
                                    "cv": {"replace": {"WeightDecay": "WeightDecay-cv"}}})
    table = cells_by_reading(config)
    assert table["cv", "WeightDecay"] == "WeightDecay-cv"
    assert table["cv", "AdaBoost"] == "AdaBoost"


def test_cell_names_round_trip_with_typed_values(main_config):
    name = cell_name("WeightBoost", {"beta": 0.25, "normalize": "none", "sampling": "resample"})
    assert name == "WeightBoost~beta=0.25,normalize=none,sampling=resample"
    entry, overrides = parse_cell_name(name)
    assert entry == "WeightBoost"
    assert overrides == {"beta": 0.25, "normalize": "none", "sampling": "resample"}
    spec = resolve_spec(main_config["algorithms"], name)
    assert spec["learner"] == "WeightBoost" and spec["params"]["beta"] == 0.25
    with pytest.raises(ConfigError, match="Nope"):
        resolve_spec(main_config["algorithms"], "Nope~beta=1")


def test_sweeps_expand_into_one_reading_per_value(main_config):
    names = list(readings(study_config(main_config)["sensitivity"]))
    assert names == ["primary", "resample", "constant_mean", "beta=0", "beta=0.5"]


def test_run_selects_readings_and_sweeps_for_a_staged_study(main_config):
    # a stage runs a subset; the cells it shares with the full study are the same cells
    full = plan(study_config(main_config))
    staged = plan(study_config(main_config, run=["primary", "beta"]))
    assert list(dict.fromkeys(staged.reading)) == ["primary", "beta=0", "beta=0.5"]
    assert set(staged.cell) < set(full.cell)
    one = plan(study_config(main_config, run=["primary", "beta=0"]))
    assert list(dict.fromkeys(one.reading)) == ["primary", "beta=0"]
    assert list(readings(study_config(main_config, run=["primary"])["sensitivity"],
                         selected=False)) == ["primary", "resample", "constant_mean", "beta=0",
                                              "beta=0.5"]


def test_a_reading_may_run_at_its_own_noise_levels_and_repeats(main_config):
    config = study_config(main_config, readings={
        "primary": {}, "constant_mean": {"params": {"normalize": "mean"}, "repeats": 1}},
        sweeps={"beta": {"values": [0, 0.5], "algorithms": ["WeightBoost"],
                         "noise_levels": [0.0, 0.1, 0.2]}})
    table = plan(config)
    levels = table.groupby("reading", sort=False).noise.unique().map(list).to_dict()
    assert levels == {"primary": [0.0, 0.2], "constant_mean": [0.0, 0.2],
                      "beta=0": [0.0, 0.1, 0.2], "beta=0.5": [0.0, 0.1, 0.2]}
    assert set(table[table.reading == "constant_mean"].repeats) == {1}
    assert set(table[table.reading != "constant_mean"].repeats) == {2}
    jobs = cell_jobs(table).set_index(["noise", "cell"]).repeats
    # the primary cells read on 1 repeat by constant_mean are computed once, on 2
    assert jobs[0.0, "AdaBoost"] == 2 and jobs[0.0, "WeightBoost~normalize=mean"] == 1
    # β = 0.5 is the primary WeightBoost: computed at 10 % too, where only the sweep reads it
    assert jobs[0.1, "WeightBoost"] == 2 and (0.1, "AdaBoost") in jobs.index
    assert not jobs.index.duplicated().any()


def _cell_frame(cell, noise_levels, repeats, folds=2):
    rows = [{"dataset": "pima", "noise": p, "algorithm": cell.split("~")[0], "repeat": r,
             "fold": f, "n_train": 9, "n_test": 1, "error": 0.1 * r + 0.01 * f, "rounds": 3,
             "restarts": 0, "chosen_C": np.nan, "fit_seconds": 1.0, "predict_seconds": 0.5}
            for p in noise_levels for r in range(repeats) for f in range(folds)]
    return pd.DataFrame(rows)


def test_study_tables_read_each_reading_on_its_own_runs_only():
    table = pd.DataFrame([
        {"reading": "primary", "noise": 0.0, "algorithm": "AdaBoost", "cell": "AdaBoost",
         "repeats": 2},
        {"reading": "cheap", "noise": 0.0, "algorithm": "AdaBoost", "cell": "AdaBoost",
         "repeats": 1},
        {"reading": "cheap", "noise": 0.1, "algorithm": "AdaBoost", "cell": "AdaBoost",
         "repeats": 1}])
    cells = {"AdaBoost": _cell_frame("AdaBoost", [0.0, 0.1], 2)}
    folds = study_folds(cells, table, ["pima"], ["AdaBoost"])
    cheap = folds[folds.reading == "cheap"]
    assert set(cheap.repeat) == {0} and sorted(set(cheap.noise)) == [0.0, 0.1]
    assert len(folds[folds.reading == "primary"]) == 4 and set(
        folds[folds.reading == "primary"].noise) == {0.0}
    timing = study_timing(cells, table).set_index("reading")
    assert timing.seconds["primary"] == 4 * 1.5 and timing.seconds["cheap"] == 4 * 1.5
    # the cheap reading's 10 % runs are its own; its 0 % runs are the primary reading's
    assert timing.new_seconds["cheap"] == 2 * 1.5 and timing.new_cells["cheap"] == 1


@pytest.mark.parametrize("study, words", [
    ({"run": ["primary", "resampel"]}, ["sensitivity.run", "resampel"]),
    ({"run": ["resample"]}, ["primary"]),
    ({"readings": {"primary": {}, "bad": {"params": {"gamma": 1}}}}, ["bad", "gamma"]),
    ({"readings": {"primary": {}, "bad": {"params": {"beta": -1}}}}, ["beta", ">= 0"]),
    ({"readings": {"primary": {}, "bad": {"params": {"sampling": "bootstrap"}}}},
     ["sampling"]),
    ({"readings": {"primary": {}, "bad": {"params": {"beta": [1, 2]}}}}, ["single value"]),
    ({"readings": {"resample": {"params": {"sampling": "resample"}}}}, ["primary"]),
    ({"algorithms": ["AdaBoost", "Nope"]}, ["Nope"]),
    ({"datasets": ["pima", "nope"]}, ["nope"]),
])
def test_bad_study_configs_are_refused_by_name(main_config, study, words):
    with pytest.raises(ConfigError) as error:
        check_study(study_config(main_config, **study))
    for word in words:
        assert word in str(error.value)


@pytest.fixture(scope="module")
def study_run(tmp_path_factory, main_config):
    from conftest import make_fixture_config

    config = study_config(make_fixture_config(main_config), datasets=["breast_cancer"],
                          noise_levels=[0.0], algorithms=["AdaBoost", "WeightBoost"])
    # a reading on the first repeat only: its own cells hold 1 repeat, the shared ones 2
    config["sensitivity"]["readings"]["constant_mean"]["repeats"] = 1
    config["download"] = {**config["download"], "sources": ["mirror"]}
    config["experiment"] = {**config["experiment"], "datasets": ["breast_cancer"],
                            "folds": 3, "rounds": 4, "noise_levels": [0.0],
                            "algorithms": ["AdaBoost", "WeightBoost"]}
    config["reuters_study"] = {**config["reuters_study"], "categories": ["earn"],
                               "algorithms": ["AdaBoost", "WeightBoost"],
                               "rounds": 3, "cv_folds": 2,
                               "paper_rounds": {"AdaBoost": 2, "WeightBoost": 3}}
    workdir = tmp_path_factory.mktemp("study")
    result = run_snakemake(workdir, config, "sensitivity", "experiments")
    assert result.returncode == 0, result.stderr[-4000:]
    return workdir, config


def test_study_tables_pair_every_reading_on_the_same_folds(study_run):
    workdir, config = study_run
    folds = pd.read_csv(workdir / "results/sensitivity/folds.csv")
    runs = 2 * 3
    # readings x algorithms x (repeats x folds); constant_mean reads repeat 0 only
    assert folds.groupby("reading").size().to_dict() == {
        "primary": 2 * runs, "resample": 2 * runs, "constant_mean": 2 * 3, "beta=0": 2 * runs,
        "beta=0.5": 2 * runs}
    assert set(folds[folds.reading == "constant_mean"].repeat) == {0}
    assert len(list((workdir / "results/cells/sensitivity/breast_cancer/noise0.0/"
                     "WeightBoost~normalize=mean").glob("*/reps1.csv"))) == 1
    assert list(folds.columns) == ["reading", "dataset", "noise", "algorithm", "cell", "repeat",
                                   "fold", "n_train", "n_test", "error", "rounds", "restarts",
                                   "chosen_C"]
    key = ["dataset", "noise", "algorithm", "repeat", "fold"]
    by = {r: part.set_index(key).sort_index() for r, part in folds.groupby("reading")}
    # a reading that leaves AdaBoost as it is uses the primary reading's cell, fold by fold
    assert set(by["constant_mean"].xs("AdaBoost", level="algorithm").cell) == {"AdaBoost"}
    np.testing.assert_array_equal(
        by["constant_mean"].xs("AdaBoost", level="algorithm").error,
        by["primary"].xs("AdaBoost", level="algorithm").xs(0, level="repeat",
                                                            drop_level=False).error)
    # resampling is another learner: its cell is its own, its trees use more rounds here
    assert set(by["resample"].xs("AdaBoost", level="algorithm").cell) == \
        {"AdaBoost~sampling=resample"}
    # repeat 0 of the primary reading is the main grid's own run, fold by fold
    grid = pd.read_csv(workdir / "results/uci_folds.csv").set_index(key).sort_index()
    primary0 = by["primary"].xs(0, level="repeat")
    np.testing.assert_array_equal(primary0.error, grid.xs(0, level="repeat").error)
    np.testing.assert_array_equal(primary0.rounds, grid.xs(0, level="repeat").rounds)
    # every repeat has folds of its own
    sizes = by["primary"].n_train.unstack("repeat")
    assert not sizes.index.empty
    summary = pd.read_csv(workdir / "results/sensitivity/summary.csv")
    assert list(summary.columns) == ["reading", "dataset", "noise", "algorithm", "n_runs",
                                     "error_mean", "error_sd", "rounds_mean"]
    assert (summary[summary.reading != "constant_mean"].n_runs == runs).all()
    assert (summary[summary.reading == "constant_mean"].n_runs == 3).all()


def test_verdicts_cover_every_claim_under_every_reading(study_run):
    workdir, _ = study_run
    verdicts = pd.read_csv(workdir / "reports/tables/verdicts.csv")
    assert list(verdicts.columns) == ["claim", "reading", "wins", "ties", "losses", "needed",
                                      "holds", "p_value"]
    assert len(verdicts) == 5 * 5
    reuters = verdicts[verdicts.claim == "table3_reuters"].set_index("reading")
    assert reuters.drop(index="primary").holds.isna().all()  # not rerun under other readings
    duels = pd.read_csv(workdir / "reports/tables/sensitivity_duels.csv")
    per_dataset = duels[duels.dataset == "breast_cancer"]
    assert len(per_dataset) == 5  # Table 2's WeightBoost-AdaBoost duel under each reading
    assert (per_dataset.ci_low <= per_dataset.difference + 1e-12).all()
    assert (per_dataset.difference <= per_dataset.ci_high + 1e-12).all()
    assert (workdir / "reports/figures/beta_curves.png").stat().st_size > 0
    section = (workdir / "reports/sensitivity.md").read_text()
    assert "## Verdicts" in section and "figures/beta_curves.png" in section
    assert "table4_noise10" in section and "resample" in section
    assert "WeightBoost β=0 " in section and "AdaBoost (primary)" in section
    assert "| 0 % | 0.5 | β=0 |" in section  # β = 0.5 tested against β = 0, paired
    # a picture first: the forest plot of the claims under every reading, then the matrix;
    # the per-dataset table in plain columns, error points to one decimal
    verdicts_at = section.index("## Verdicts")
    assert verdicts_at < section.index("figures/sensitivity_forest.png") < \
        section.index("| reading | table2_adaboost")
    assert "| claim | dataset | comparison | difference (points) | 95 % interval | p |" in section
    assert "| duel |" not in section and "WeightBoost − AdaBoost" in section
    html = (workdir / "reports/sensitivity.html").read_text()
    assert html.count("data:image/png;base64,") == 4  # learners, forest, noise and β figures
    # every learner against noise comes first, before the verdicts
    assert section.index("figures/sensitivity_learners.png") < verdicts_at


def test_the_study_reads_the_main_reuters_table_as_given(study_run, tmp_path):
    # the study does not rerun Reuters: with the Reuters cells gone (a fresh clone has only the
    # committed tables), rebuilding the study schedules no Reuters job; an edited Reuters
    # table is refused by name, as the main report refuses it
    import shutil

    workdir, config = study_run
    copy_dir = tmp_path / "copy"
    shutil.copytree(workdir, copy_dir, ignore=shutil.ignore_patterns(".snakemake"))
    shutil.rmtree(copy_dir / "results/cells/reuters")
    (copy_dir / "reports/sensitivity.md").unlink()
    dry = run_snakemake(copy_dir, config, "sensitivity", "-n")
    assert dry.returncode == 0, dry.stderr[-3000:]
    assert "reuters_cell" not in dry.stdout and "sensitivity_report" in dry.stdout
    f1 = copy_dir / "results/reuters_f1.csv"
    text = f1.read_text()
    edited = text.replace("\n", "\n# edited\n", 1)
    assert edited != text
    f1.write_text(edited)
    refused = run_snakemake(copy_dir, config, "sensitivity", "-n")
    assert refused.returncode != 0
    assert "reuters_f1.csv is not the table recorded" in refused.stdout + refused.stderr


def test_sensitivity_report_alone_rebuilds_from_the_committed_tables(study_run, tmp_path):
    # a fresh clone has the study's tables and record but no cell: `snakemake
    # sensitivity_report` rebuilds the page from them alone, checked against the record's
    # digests; tables of other code are named at the top of the page
    import json
    import shutil

    workdir, config = study_run
    record = json.loads((workdir / "results/sensitivity.provenance.json").read_text())
    assert record["tables"] == ["sensitivity/folds.csv", "sensitivity/summary.csv",
                                "sensitivity/timing.csv"]
    assert record["code_sha256"] == package_digest(*TABLE_SET_CODE["sensitivity"])
    assert [s["stage"] for s in record["stages"]] == ["sensitivity_cell"]
    cells = len(list((workdir / "results/cells/sensitivity").rglob("reps*.csv")))
    assert record["stages"][0]["jobs"] == cells
    copy_dir = tmp_path / "copy"
    shutil.copytree(workdir, copy_dir, ignore=shutil.ignore_patterns(".snakemake"))
    for stale in ("results/cells", "data", "benchmarks"):
        shutil.rmtree(copy_dir / stale)
    (copy_dir / "reports/sensitivity.md").unlink()
    # the record of tables computed by other code: the page says so before anything else
    recorded = copy_dir / "results/sensitivity.provenance.json"
    recorded.write_text(json.dumps({**record, "code_sha256": "0" * 64}))
    rebuilt = run_snakemake(copy_dir, config, "sensitivity_report")
    assert rebuilt.returncode == 0, rebuilt.stderr[-3000:]
    assert "sensitivity_cell" not in rebuilt.stderr and "uci_cell" not in rebuilt.stderr
    page = (copy_dir / "reports/sensitivity.md").read_text()
    lead = page.split("\n\n")[1]
    assert lead.startswith("Not computed by the code installed now: sensitivity/folds.csv")
    assert "reuters_f1.csv" not in lead  # the Reuters tables are this code's
    assert "## Provenance" in page and "| sensitivity/folds.csv" in page
    summary = copy_dir / "results/sensitivity/summary.csv"
    summary.write_text(summary.read_text().replace("\n", "\n# edited\n", 1))
    refused = run_snakemake(copy_dir, config, "sensitivity_report", "-n")
    assert refused.returncode != 0
    assert "summary.csv is not the table recorded" in refused.stdout + refused.stderr


def test_a_fresh_clone_that_adds_a_reading_computes_only_its_cells(study_run, tmp_path):
    # the study commits its cells packed under their keys (results/archive/sensitivity.zip): a
    # fresh clone (tables, record, archive; no cell) whose config adds a reading restores every
    # cell the archive holds and computes only the new reading's; the tables read the restored
    # cells as the computed ones. With cell_archive false every cell is computed.
    import json
    import shutil
    import zipfile

    workdir, config = study_run
    cells = workdir / "results/cells"
    with zipfile.ZipFile(workdir / "results/archive/sensitivity.zip") as zf:
        assert zf.namelist() == sorted(p.relative_to(cells).as_posix()
                                       for p in (cells / "sensitivity").rglob("*.csv"))
    copy_dir = tmp_path / "copy"
    shutil.copytree(workdir, copy_dir, ignore=shutil.ignore_patterns(".snakemake"))
    for stale in ("results/cells", "logs"):
        shutil.rmtree(copy_dir / stale)
    added = copy.deepcopy(config)
    added["run"] = "added"
    added["sensitivity"]["readings"]["restart"] = {"params": {"on_degenerate": "restart"}}
    result = run_snakemake(copy_dir, added, "sensitivity")
    assert result.returncode == 0, result.stderr[-3000:]
    logs = {p.relative_to(copy_dir / "logs/sensitivity_cell").parts[2]: p.read_text()
            for p in (copy_dir / "logs/sensitivity_cell").rglob("*.log")}
    assert {cell for cell, log in logs.items() if "restored" not in log} == {
        "AdaBoost~on_degenerate=restart", "WeightBoost~on_degenerate=restart"}
    record = json.loads((copy_dir / "results/runs/added/sensitivity.provenance.json")
                        .read_text())
    assert record["stages"][0]["restored"] == len(logs) - 2  # all but the two new cells
    before = pd.read_csv(workdir / "results/sensitivity/folds.csv")
    after = pd.read_csv(copy_dir / "results/runs/added/sensitivity/folds.csv")
    pd.testing.assert_frame_equal(after[after.reading != "restart"].reset_index(drop=True),
                                  before)
    again = run_snakemake(copy_dir, {**added, "run": "computed", "cell_archive": False},
                          "sensitivity_results", "--forcerun", "sensitivity_cell")
    assert again.returncode == 0, again.stderr[-3000:]
    assert not any("restored" in p.read_text()
                   for p in (copy_dir / "logs/sensitivity_cell").rglob("*.log"))
    computed = pd.read_csv(copy_dir / "results/runs/computed/sensitivity/folds.csv")
    pd.testing.assert_frame_equal(computed, after)


def test_the_reuters_rerun_s_record_ignores_the_uci_grid_s_noise_levels(main_config, tmp_path):
    # the Reuters rerun reads no noise level: a record of a config whose readings named their
    # own matches a config that moves them to the section; a reading's parameters still count
    import json

    from weightboost.pipeline.provenance import check_tables, table_inputs

    before = study_config(main_config, noise_levels=[0.0], reuters={"seeds": 2})
    before["sensitivity"]["readings"]["primary"] = {"noise_levels": [0.0, 0.2]}
    written = table_inputs(before, "sensitivity_reuters")
    (tmp_path / "sensitivity_reuters.provenance.json").write_text(json.dumps({"config": written}))
    after = study_config(main_config, noise_levels=[0.0, 0.2], reuters={"seeds": 2})
    check_tables(tmp_path, after, "sensitivity_reuters")
    after["sensitivity"]["readings"]["resample"]["params"]["on_degenerate"] = "restart"
    with pytest.raises(ConfigError, match="readings.resample.params.on_degenerate"):
        check_tables(tmp_path, after, "sensitivity_reuters")


def test_reuters_plan_runs_a_resampling_cell_once_per_seed_and_the_others_once(main_config):
    config = study_config(main_config, reuters={"seeds": 3})
    config["reuters_study"] = {**config["reuters_study"],
                               "algorithms": ["C4.5", "AdaBoost", "WeightBoost"]}
    config["sensitivity"]["readings"]["constant_mean"]["repeats"] = 2
    config["sensitivity"]["readings"]["resample_few"] = {"params": {"sampling": "resample"},
                                                         "repeats": 2}
    table = reuters_plan(config)
    runs = table.groupby(["reading", "algorithm"]).repeat.nunique()
    assert runs["resample", "AdaBoost"] == 3 and runs["resample", "WeightBoost"] == 3
    assert runs["resample_few", "AdaBoost"] == 2  # at most the reading's own repeats
    assert runs["resample", "C4.5"] == 1 and runs["constant_mean", "WeightBoost"] == 1
    resampled = table[(table.reading == "resample") & (table.algorithm == "AdaBoost")]
    assert resampled.cell.str.startswith("AdaBoost~random_state=").all()
    assert resampled.cell.str.endswith(",sampling=resample").all()
    assert resampled.cell.nunique() == 3
    # seed r is the same for both boosters and for every reading that resamples
    seeds = table.assign(seed=table.cell.str.extract(r"random_state=(\d+)")[0]).dropna()
    assert (seeds.groupby("repeat").seed.nunique() == 1).all()
    primary = table[table.reading == "primary"]
    assert list(primary.cell) == ["C4.5", "AdaBoost", "WeightBoost"]  # the main run's cells
    assert reuters_plan(study_config(main_config)).empty  # no section: no Reuters rerun


@pytest.fixture(scope="module")
def reuters_study_run(study_run, tmp_path_factory):
    # the study of study_run, now rerunning Reuters under every reading on two seeds
    import shutil

    workdir, config = study_run
    config = copy.deepcopy(config)
    config["sensitivity"]["reuters"] = {"seeds": 2}
    copy_dir = tmp_path_factory.mktemp("reuters_study") / "work"
    shutil.copytree(workdir, copy_dir, ignore=shutil.ignore_patterns(".snakemake"))
    result = run_snakemake(copy_dir, config, "sensitivity")
    assert result.returncode == 0, result.stderr[-4000:]
    return copy_dir, config, result


def test_reuters_claim_has_a_verdict_under_every_reading(reuters_study_run):
    workdir, config, result = reuters_study_run
    f1 = pd.read_csv(workdir / "results/sensitivity/reuters_f1.csv")
    assert list(f1.columns) == ["reading", "repeat", "category", "algorithm", "cell", "t_rule",
                                "T", "precision", "recall", "f1", "rounds"]
    assert f1.groupby("reading").repeat.nunique().to_dict() == {
        "primary": 1, "resample": 2, "constant_mean": 1, "beta=0": 1, "beta=0.5": 1}
    # the primary reading's Reuters cells are the main run's: no job recomputed them
    main = pd.read_csv(workdir / "results/reuters_f1.csv")
    primary = f1[f1.reading == "primary"]
    np.testing.assert_array_equal(primary.f1.to_numpy(), main.f1.to_numpy())
    # resample: 2 boosters x 2 seeds; constant_mean and beta=0: WeightBoost; beta=0.5 is the
    # primary WeightBoost
    assert result.stderr.count("rule reuters_cell:") == 2 * 2 + 1 + 1
    assert (workdir / "results/sensitivity_reuters.provenance.json").exists()
    verdicts = pd.read_csv(workdir / "reports/tables/verdicts.csv")
    reuters = verdicts[verdicts.claim == "table3_reuters"]
    assert reuters.holds.notna().all() and len(reuters) == 5
    page = (workdir / "reports/sensitivity.md").read_text()
    assert "## Reuters across seeds" in page and "resample: WeightBoost − AdaBoost" in page
    # the Reuters claim in the duels (its forest panel and mean-difference column): one row per
    # reading and category in F1, and over the categories the verdict's own Wilcoxon p
    duels = pd.read_csv(workdir / "reports/tables/sensitivity_duels.csv")
    reuters_duels = duels[duels.claim == "table3_reuters"]
    assert set(reuters_duels.unit) == {"F1"} and set(duels[duels.claim != "table3_reuters"]
                                                     .unit) == {"error points"}
    over = reuters_duels[reuters_duels.dataset == "all"].set_index("reading")
    assert set(over.index) == set(reuters.reading)
    np.testing.assert_allclose(over.p_value.loc[list(reuters.reading)],
                               reuters.p_value.to_numpy())
    per = reuters_duels[reuters_duels.dataset != "all"]
    assert set(per.dataset) == set(config["reuters_study"]["categories"])
    seeded = per[per.reading == "resample"]
    assert (seeded.test == "paired t across 2 seeds").all()
    assert (per[per.reading == "constant_mean"].test == "one split").all()
    means = reuters_means(f1, "resample").pivot(index=["category", "t_rule"],
                                                 columns="algorithm", values="f1")
    expected = (means.WeightBoost - means.AdaBoost).xs("paper", level="t_rule")
    np.testing.assert_allclose(seeded.set_index("dataset").difference.loc[expected.index],
                               expected.to_numpy())


def test_paired_tests_pair_runs_by_repeat_and_fold_not_by_position():
    from weightboost.report.sensitivity import corrected_p

    runs = [(r, f) for r in range(2) for f in range(3)]
    a = pd.DataFrame([{"dataset": "pima", "noise": 0.0, "algorithm": "A", "repeat": r,
                       "fold": f, "n_train": 9, "n_test": 1, "error": 0.2 + 0.01 * f}
                      for r, f in runs])
    # B read on repeat 0 only, listed in another order: pairs are (0, f) with A's (0, f)
    b = a[a.repeat == 0].iloc[::-1].assign(algorithm="B", error=lambda x: x.error - 0.1)
    p = corrected_p(pd.concat([a, b]), "pima", 0.0, "A", "B")
    assert p == 0.0  # three identical differences of +10 points
    c = a[a.repeat == 0].assign(algorithm="C")
    assert corrected_p(pd.concat([a, c]), "pima", 0.0, "A", "C") == 1.0


def test_reuters_pairs_pair_seeds_by_repeat_and_subtract_the_second_algorithm():
    from scipy import stats

    from weightboost.report.sensitivity import reuters_pairs

    rows = [{"category": c, "repeat": r, "algorithm": a, "t_rule": t, "f1": f1}
            for c, base in (("earn", 0.9), ("corn", 0.5)) for r in range(3)
            for a, shift in (("WeightBoost", 0.01 * (r + 1)), ("AdaBoost", 0.0))
            for t, f1 in (("paper", base + shift + 0.001 * r * r), ("cv", 0.0))]
    f1 = pd.DataFrame(rows)
    shuffled = f1.sample(frac=1.0, random_state=3)  # rows in no order: pairs by repeat
    duel = {"algorithm": "WeightBoost", "versus": "AdaBoost", "t_rule": "paper"}
    result = dict(reuters_pairs(shuffled, duel))
    assert list(dict(reuters_pairs(f1, duel))) == ["earn", "corn"]
    earn = f1[(f1.category == "earn") & (f1.t_rule == "paper")].pivot(
        index="repeat", columns="algorithm", values="f1")
    assert result["earn"].mean == pytest.approx(0.02)  # WeightBoost − AdaBoost, not reversed
    assert result["earn"].n == 3
    assert result["earn"].p_value == pytest.approx(
        stats.ttest_rel(earn.WeightBoost, earn.AdaBoost).pvalue)
    assert result["earn"].low < 0.02 < result["earn"].high
    one = dict(reuters_pairs(f1[f1.repeat == 0], duel))["corn"]  # one split: no test
    assert one.n == 1 and one.mean == pytest.approx(0.01) and np.isnan(one.p_value)


def test_beta_table_averages_the_swept_learner_over_datasets_beside_adaboost(main_config):
    from weightboost.report.sensitivity import beta_table

    config = study_config(main_config)
    rows = [{"reading": r, "dataset": d, "noise": p, "algorithm": a, "n_runs": 10,
             "error_mean": e, "error_sd": 0.0, "rounds_mean": 5.0}
            for r, a, base in [("beta=0", "WeightBoost", 0.20), ("beta=0.5", "WeightBoost", 0.10),
                               ("primary", "AdaBoost", 0.30), ("beta=0", "AdaBoost", 0.30)]
            for d, shift in [("pima", 0.0), ("breast_cancer", 0.02)]
            for p, e in [(0.0, base + shift), (0.2, base + shift + 0.1)]]
    table = beta_table(pd.DataFrame(rows), config)
    assert list(table.index) == ["WeightBoost β=0", "WeightBoost β=0.5", "AdaBoost (primary)"]
    assert list(table.columns) == ["0 % noise", "20 % noise"]
    assert table.loc["WeightBoost β=0", "0 % noise"] == 21.0
    assert table.loc["WeightBoost β=0.5", "20 % noise"] == 21.0
    assert table.loc["AdaBoost (primary)", "0 % noise"] == 31.0
    assert beta_table(pd.DataFrame(rows), study_config(main_config, run=["primary"])) is None


def test_noise_duels_pair_each_reading_on_its_own_runs_at_every_level():
    from weightboost.report.sensitivity import noise_duels

    rng = np.random.default_rng(0)
    rows = []
    for reading, levels in (("primary", (0.0, 0.2)), ("resample", (0.0,))):
        for d, shift in (("pima", 0.0), ("wdbc", 0.01), ("cmc", 0.02)):
            for p in levels:
                for r in range(2):
                    for f in range(3):
                        base = 0.2 + shift + rng.normal(0, 0.01)
                        # WeightBoost gains 5 points at 20 % noise only; ε-Boost loses 1
                        for a, e in (("AdaBoost", base), ("WeightBoost", base - 0.25 * p),
                                     ("EpsilonBoost", base + 0.01)):
                            rows.append({"reading": reading, "dataset": d, "noise": p,
                                         "algorithm": a, "repeat": r, "fold": f,
                                         "n_train": 90, "n_test": 10, "error": e})
    duels = noise_duels(pd.DataFrame(rows), ["primary", "resample"], ["pima", "wdbc", "cmc"])
    assert len(duels) == 2 * 2 + 2  # (reading, level) x the two comparisons
    got = duels.set_index(["reading", "noise", "algorithm"])
    assert got.loc[("primary", 0.2, "WeightBoost"), "difference"] == pytest.approx(-5.0)
    assert got.loc[("primary", 0.0, "WeightBoost"), "difference"] == pytest.approx(0.0)
    assert np.allclose(got.xs("EpsilonBoost", level="algorithm").difference, 1.0)
    assert (duels.datasets == 3).all() and (duels.versus == "AdaBoost").all()
    assert (duels.ci_low <= duels.difference + 1e-9).all()
    assert (duels.difference <= duels.ci_high + 1e-9).all()


def test_chosen_c_table_counts_each_training_fold_once():
    from weightboost.report.sensitivity import chosen_c_table

    rows = [{"reading": r, "cell": "WeightDecay-cv", "dataset": "pima", "noise": 0.1,
             "repeat": 0, "fold": f, "chosen_C": c}
            for r in ("weight_decay_cv", "other_reading_same_cell")
            for f, c in enumerate([0.003, 0.01, 0.003])]
    rows.append({"reading": "primary", "cell": "WeightDecay", "dataset": "pima", "noise": 0.1,
                 "repeat": 0, "fold": 0, "chosen_C": np.nan})
    table = chosen_c_table(pd.DataFrame(rows))
    assert table.loc["Pima", "10 % noise"] == "0.003 ×2, 0.01 ×1"
    assert chosen_c_table(pd.DataFrame(rows[-1:])) is None


def test_noise_table_gives_error_and_rounds_per_level_under_one_reading():
    from weightboost.report.sensitivity import noise_table

    rows = [{"reading": r, "dataset": d, "noise": p, "algorithm": "AdaBoost", "n_runs": 10,
             "error_mean": e + 0.1 * p, "error_sd": 0.0, "rounds_mean": 100 - 100 * p}
            for r in ("primary", "resample") for d, e in (("pima", 0.2), ("wdbc", 0.1))
            for p in (0.0, 0.2)]
    table = noise_table(pd.DataFrame(rows))
    assert table.loc["AdaBoost", "0 % noise"] == "15.00 (100)"
    assert table.loc["AdaBoost", "20 % noise"] == "17.00 (80)"
    assert noise_table(pd.DataFrame([r for r in rows if r["noise"] == 0.0])) is None


def test_the_committed_study_is_the_one_the_config_defines(main_config):
    # `snakemake sensitivity` on the committed config reproduces results/sensitivity/: every
    # (reading, noise, algorithm) of its plan is in folds.csv with its cell and repeats, and
    # nothing else is
    from conftest import ROOT

    folds = pd.read_csv(ROOT / "results/sensitivity/folds.csv")
    table = plan(main_config)
    key = ["reading", "noise", "algorithm", "cell"]
    committed = folds.groupby(key, sort=False).repeat.nunique().rename("repeats").reset_index()
    expected = table[key + ["repeats"]]
    merged = committed.merge(expected, on=key, how="outer", indicator=True)
    assert (merged._merge == "both").all(), merged[merged._merge != "both"]
    assert (merged.repeats_x == merged.repeats_y).all()
    assert (folds.groupby(key).fold.nunique() == main_config["experiment"]["folds"]).all()


def test_the_committed_reuters_study_is_the_one_the_config_defines(main_config):
    # results/sensitivity/reuters_f1.csv holds every (reading, algorithm, cell, seed) of the
    # config's Reuters plan on every category and T rule, and nothing else
    from conftest import ROOT

    f1 = pd.read_csv(ROOT / "results/sensitivity/reuters_f1.csv")
    key = ["reading", "algorithm", "cell", "repeat"]
    committed = f1.drop_duplicates(key)[key]
    merged = committed.merge(reuters_plan(main_config)[key], on=key, how="outer",
                             indicator=True)
    assert (merged._merge == "both").all(), merged[merged._merge != "both"]
    categories = main_config["reuters_study"]["categories"]
    assert (f1.groupby(key).category.nunique() == len(categories)).all()
    rules = f1.groupby(key + ["category"]).t_rule.unique().map(sorted)
    assert (rules.map(tuple) == ("best", "cv", "paper")).all()


def test_the_committed_reuters_duels_are_what_the_committed_f1_table_gives(main_config):
    # the page's Reuters rows (forest plot, mean differences, verdicts) come from the committed
    # study F1 table as it is: recomputed here per reading, they equal the committed report tables
    from conftest import ROOT
    from weightboost.report.reference import load_reference
    from weightboost.report.sensitivity import reuters_pairs
    from weightboost.statistics import across_datasets

    reference = load_reference(ROOT / "config/reference/jin2003_tables.yaml")
    (duel,) = [d for check in reference["claim_checks"] if check["id"] == "table3_reuters"
               for d in check["duels"]]
    f1 = pd.read_csv(ROOT / "results/sensitivity/reuters_f1.csv")
    duels = pd.read_csv(ROOT / "reports/tables/sensitivity_duels.csv")
    verdicts = pd.read_csv(ROOT / "reports/tables/verdicts.csv")
    committed = duels[duels.claim == "table3_reuters"].set_index(["reading", "dataset"])
    held = verdicts[verdicts.claim == "table3_reuters"].set_index("reading")
    assert set(held.index) == set(f1.reading)
    for reading, part in f1.groupby("reading", sort=False):
        per = reuters_pairs(part, duel)
        for category, r in per:
            np.testing.assert_allclose(committed.loc[(reading, category), "difference"], r.mean,
                                       rtol=0, atol=1e-12)
        over = across_datasets([r.mean for _, r in per])
        np.testing.assert_allclose(committed.loc[(reading, "all"), "p_value"], over.p_value)
        np.testing.assert_allclose(held.loc[reading, "p_value"], over.p_value, rtol=1e-9)
        # a tie absorbs a difference below the paper's precision, nothing else
        row = held.loc[reading]
        assert row.wins + row.ties + row.losses == len(per)
        assert row.wins <= sum(r.mean > 0 for _, r in per)
        assert row.losses <= sum(r.mean < 0 for _, r in per)


def test_a_study_cell_jobs_arguments_are_its_files_its_path_and_what_its_key_digests(study_run):
    # as for the grid's cells (test_workflow_experiments.py), under every reading
    from test_workflow_experiments import assert_cell_arguments_are_keyed

    workdir, _ = study_run
    assert assert_cell_arguments_are_keyed(workdir, ("sensitivity_cell",)) > 4


def test_a_restart_reading_reads_its_stop_twin_that_the_study_computes(study_run, tmp_path):
    # a restart cell's job gets the cell of the same learner with on_degenerate=stop as input
    # and argument (it copies the repeats that met no degenerate round,
    # weightboost.experiment.study_cells); a cell whose twin the study does not compute has none
    import shutil

    workdir, config = study_run
    copy_dir = tmp_path / "copy"
    shutil.copytree(workdir, copy_dir, ignore=shutil.ignore_patterns(".snakemake"))
    config = copy.deepcopy(config)
    config["sensitivity"]["readings"]["restart"] = {"params": {"on_degenerate": "restart"}}
    config["sensitivity"]["readings"]["restart_mean"] = {
        "params": {"on_degenerate": "restart", "normalize": "mean"}}
    # the tables of another config: replaced on purpose
    dry = run_snakemake(copy_dir, config, "sensitivity", "-n", "-p", "--forcerun",
                        "sensitivity_results")
    assert dry.returncode == 0, dry.stdout[-3000:]
    jobs = [block for block in dry.stdout.split("\n\n") if "rule sensitivity_cell:" in block]
    by_cell = {}
    for block in jobs:
        output = next(line for line in block.splitlines() if "output:" in line)
        by_cell[output.split("/")[5]] = block
    assert set(by_cell) == {"AdaBoost~on_degenerate=restart",
                            "WeightBoost~on_degenerate=restart",
                            "WeightBoost~normalize=mean,on_degenerate=restart"}
    twin = next(p for p in (workdir / "results/cells/sensitivity/breast_cancer/noise0.0/AdaBoost")
                .rglob("reps2.csv"))
    restart = by_cell["AdaBoost~on_degenerate=restart"]
    assert str(twin.relative_to(workdir)) in restart.split("output:")[0]  # an input
    assert f'"stop_cell": "{twin.relative_to(workdir)}"' in restart  # and the job's argument
    mean_twin = by_cell["WeightBoost~normalize=mean,on_degenerate=restart"]
    # WeightBoost~normalize=mean runs repeat 0 only (constant_mean: repeats 1): still its twin
    assert re.search(r'"stop_cell": "[^"]*/WeightBoost~normalize=mean/[0-9a-f]{12}/', mean_twin)


def question_frames(bagging_better_on: int, noise_levels=(0.1, 0.2, 0.3)):
    """Primary-reading folds and summary of 8 sets (2 repeats x 3 folds): Bagging-C4.5's error
    is AdaBoost's minus 5 points (fold noise aside) on the first ``bagging_better_on`` sets
    and plus 5 on the others."""
    from weightboost.experiment.sensitivity import study_summary

    rng = np.random.default_rng(0)
    rows = []
    for d in range(8):
        shift = -0.05 if d < bagging_better_on else 0.05
        for noise in noise_levels:
            for repeat in range(2):
                for fold in range(3):
                    base = 0.3 + 0.01 * rng.standard_normal()
                    for algorithm, error in (("AdaBoost", base), ("Bagging-C4.5", base + shift)):
                        rows.append({"reading": "primary", "dataset": f"set{d}", "noise": noise,
                                     "algorithm": algorithm, "repeat": repeat, "fold": fold,
                                     "n_train": 90, "n_test": 10, "error": error, "rounds": 1})
    folds = pd.DataFrame(rows)
    return folds, study_summary(folds.assign(cell=folds.algorithm, restarts=0, chosen_C=np.nan))


@pytest.mark.parametrize("better_on, answer", [(6, True), (4, False)])
def test_a_question_is_answered_by_its_duels_on_the_primary_reading(better_on, answer):
    from weightboost.report.reference import load_reference
    from weightboost.report.sensitivity import question_tables

    reference = load_reference(ROOT / "config/reference/jin2003_tables.yaml")
    folds, summary = question_frames(better_on)
    questions, per_dataset = question_tables(reference, folds, summary,
                                             [f"set{d}" for d in range(8)])
    # only the question whose learners ran: WeightBoost and HistGradientBoosting did not
    assert set(questions.question) == {"bagging_robust"}
    assert list(questions.noise) == [0.1, 0.2, 0.3]
    assert list(questions.wins) == [better_on] * 3 and list(questions.needed) == [5] * 3
    assert list(questions.holds) == [answer] * 3
    expected = (-5 * better_on + 5 * (8 - better_on)) / 8  # mean over sets, error points
    assert questions.difference.to_numpy() == pytest.approx(expected, abs=0.02)
    assert (questions.ci_low < questions.difference).all()
    assert (per_dataset.dataset != "all").sum() == 3 * 8  # per set and duel
    # the page answers each question once, on its first comparison's row
    from weightboost.report.document import Document
    from weightboost.report.sensitivity import _questions_section

    doc = Document("questions")
    _questions_section(doc, questions, per_dataset, reference)
    rows = [line for line in doc.markdown(Path(".")).splitlines()
            if "Bagging-C4.5 − AdaBoost at " in line]
    assert [("| yes |" in r, "| no |" in r) for r in rows] == [(answer, not answer)] + [
        (False, False)] * 2
    # a question at a noise level the reading lacks is left out, not answered "no"
    folds, summary = question_frames(6, noise_levels=(0.1, 0.2))
    questions, _ = question_tables(reference, folds, summary, [f"set{d}" for d in range(8)])
    assert questions.empty


def test_a_reading_adds_algorithms_that_run_under_it_alone(main_config):
    config = study_config(main_config)
    config["sensitivity"]["readings"]["primary"] = {"add": ["RandomForest"]}
    table = plan(config)
    forest = table[table.algorithm == "RandomForest"]
    assert set(forest.reading) == {"primary"} and set(forest.cell) == {"RandomForest"}
    assert len(forest) == 2  # its noise levels
    assert study_section(config)["algorithms"] == ["C4.5", "AdaBoost", "WeightBoost"]
    config["sensitivity"]["readings"]["primary"] = {"add": ["RandomForrest"]}
    with pytest.raises(ConfigError, match=r"sensitivity\.readings\.primary\.add names "
                                          "'RandomForrest'"):
        check_study(config)
