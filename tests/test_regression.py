"""The result-table regression (issue: CI must fail, with a readable diff, when a number moves).
Determinism of whole runs and resuming a killed run are in test_resume.py."""

import io
import os
import subprocess
import sys

import pandas as pd
import pytest

from conftest import ROOT, real_mirror
from weightboost.regression import TABLES, compare_dirs, compare_table

FOLDS = """dataset,noise,algorithm,repeat,fold,n_train,error,rounds,fit_seconds
pima,0.1,AdaBoost,0,0,691,0.25,100,1.5
pima,0.1,AdaBoost,0,1,691,0.2631578947368421,8,1.2
"""
KEYS = ["dataset", "noise", "algorithm", "repeat", "fold"]


def table(text):
    return pd.read_csv(io.StringIO(text))


def test_identical_tables_match_and_timing_is_ignored():
    other = FOLDS.replace(",1.5", ",9.9")
    assert compare_table(table(other), table(FOLDS), KEYS, "uci_folds.csv") == []


def test_a_moved_cell_is_named_with_old_and_new_value():
    moved = FOLDS.replace("0.2631578947368421,8", "0.2631578947368422,9")
    problems = compare_table(table(moved), table(FOLDS), KEYS, "uci_folds.csv")
    assert problems == ["uci_folds.csv [dataset=pima, noise=0.1, algorithm=AdaBoost, repeat=0, "
                        "fold=1] rounds: 8 -> 9"]  # the float moved by 1e-16: within 1e-9


def test_float_beyond_tolerance_and_missing_rows_are_reported():
    moved = FOLDS.replace("0.25,100", "0.2500001,100").splitlines()[:2]
    problems = compare_table(table("\n".join(moved) + "\n"), table(FOLDS), KEYS, "t.csv")
    assert any("error: 0.25 -> 0.2500001" in p for p in problems)
    assert any("disappeared" in p and "fold': 1" in p for p in problems)


def test_missing_golden_table_is_reported(tmp_path):
    (tmp_path / "new").mkdir()
    problems = compare_dirs(tmp_path / "new", tmp_path / "golden")
    assert problems and all("run `make golden`" in p for p in problems)


@pytest.mark.slow
def test_ci_profile_matches_the_golden_tables(tmp_path):
    """Re-runs the `ci` profile through Snakemake (a few minutes) and compares every cell."""
    if real_mirror() is None:
        pytest.skip("the ci profile needs the real data mirror")
    env = {**os.environ, "REPRO_MIRROR": str(real_mirror())}
    result = subprocess.run([sys.executable, "-m", "weightboost.regression", "run",
                             "--workdir", str(tmp_path)], env=env, capture_output=True,
                            text=True, timeout=1800)
    assert result.returncode == 0, result.stderr[-6000:] + result.stdout[-2000:]


def test_compare_covers_the_study_tables_where_the_golden_dir_has_them(tmp_path):
    # `compare NEW GOLDEN` names a moved cell of the sensitivity study's folds (a recomputed
    # study against the committed one), and asks nothing of a directory without the study
    study = """reading,dataset,noise,algorithm,cell,repeat,fold,error,rounds
primary,pima,0.1,WeightDecay,WeightDecay,0,0,0.25,100
primary,pima,0.1,WeightDecay,WeightDecay,0,1,0.2631578947368421,100
"""
    for side, text in (("golden", study), ("new", study.replace("0.25,100", "0.2,100"))):
        (tmp_path / side / "sensitivity").mkdir(parents=True)
        (tmp_path / side / "sensitivity" / "folds.csv").write_text(text)
        for name, keys in TABLES.items():  # the main tables, alike on both sides
            path = tmp_path / side / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(",".join(keys) + ",v\n" + ",".join("1" * (len(keys) + 1)) + "\n")
    moved = subprocess.run([sys.executable, "-m", "weightboost.regression", "compare",
                            str(tmp_path / "new"), str(tmp_path / "golden")],
                           capture_output=True, text=True)
    assert moved.returncode == 1
    assert ("sensitivity/folds.csv [reading=primary, dataset=pima, noise=0.1, "
            "algorithm=WeightDecay, repeat=0, fold=0] error: 0.25 -> 0.2") in moved.stderr
    # the count it reports is of the tables it compared
    (tmp_path / "new" / "sensitivity" / "folds.csv").write_text(study)
    for tables in (len(TABLES) + 1, len(TABLES)):
        same = subprocess.run([sys.executable, "-m", "weightboost.regression", "compare",
                               str(tmp_path / "new"), str(tmp_path / "golden")],
                              capture_output=True, text=True)
        assert same.returncode == 0
        assert f"every cell of {tables} tables matches" in same.stdout
        (tmp_path / "golden" / "sensitivity" / "folds.csv").unlink(missing_ok=True)


def test_stage_records_sum_the_jobs_cpu_from_their_logs(tmp_path, monkeypatch):
    # a warm worker's job is not a process Snakemake's benchmark sees (cpu_time 0.03 for a
    # three-minute cell): the record takes CPU and peak RSS from the jobs' logs, or none
    from weightboost.pipeline.provenance import stage_seconds
    from weightboost.pipeline.workflow_support import RESOURCES

    monkeypatch.chdir(tmp_path)
    files = []
    for name, seconds, cpu, rss in (("a", 2.0, 1.5, 300), ("b", 3.0, 2.5, 400)):
        bench = tmp_path / "benchmarks" / "uci_cell" / "pima" / f"{name}.tsv"
        log = tmp_path / "logs" / "uci_cell" / "pima" / f"{name}.log"
        bench.parent.mkdir(parents=True, exist_ok=True)
        log.parent.mkdir(parents=True, exist_ok=True)
        bench.write_text(f"s\tcpu_time\n{seconds}\t0.03\n")
        log.write_text("INFO started\n" + RESOURCES.format(cpu=cpu, rss=rss) + "\n")
        files.append(f"benchmarks/uci_cell/pima/{name}.tsv")
    assert stage_seconds({"uci_cell": files}) == [
        {"stage": "uci_cell", "jobs": 2, "job seconds": 5.0, "cpu seconds": 4.0,
         "peak RSS MB": 400}]
    (tmp_path / "logs" / "uci_cell" / "pima" / "b.log").unlink()  # a job of an older run
    assert stage_seconds({"uci_cell": files}) == [
        {"stage": "uci_cell", "jobs": 2, "job seconds": 5.0}]
