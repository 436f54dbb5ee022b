"""Determinism and resume on the tiny config of test_workflow_experiments: a second run, killed
part way and finished by the README's command, gives the reference run's tables byte for byte."""

import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest

from conftest import ROOT

TABLE_NAMES = ["uci_folds.csv", "uci_summary.csv", "reuters_f1.csv", "reuters_curves.csv"]


def deterministic_bytes(path):
    frame = pd.read_csv(path)
    return frame.drop(columns=[c for c in ("fit_seconds", "predict_seconds")
                               if c in frame.columns]).to_csv(index=False)


@pytest.mark.slow
def test_a_second_run_killed_part_way_resumes_to_byte_identical_tables(tmp_path, tiny_run):
    # determinism and resume at once: a second run of the tiny config, killed mid-run and
    # finished by the README's command, gives the reference run's tables byte for byte
    # (timing columns aside)
    reference, tiny_config = tiny_run
    workdir = tmp_path / "killed"
    workdir.mkdir()
    (workdir / "test-config.yaml").write_text(__import__("yaml").safe_dump(tiny_config))
    # what `make reproduce` runs: python -m weightboost.run <snakemake arguments>
    command = [sys.executable, "-m", "weightboost.run", "--snakefile", str(ROOT / "Snakefile"),
               "--directory", str(workdir), "--configfile", str(workdir / "test-config.yaml"),
               "--cores", "2", "experiments"]
    env = {k: v for k, v in os.environ.items() if k != "REPRO_MIRROR"}
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    cells = workdir / "results" / "cells" / "uci"
    deadline = time.time() + 300
    while time.time() < deadline and len(list(cells.rglob("*.csv"))) < 4:
        time.sleep(0.2)
    os.killpg(process.pid, signal.SIGKILL)  # Snakemake and its running jobs, mid-run
    process.wait()
    assert not (workdir / "results" / "uci_summary.csv").exists()
    assert (workdir / ".snakemake" / "locks").is_dir()  # the kill left Snakemake's lock behind
    # the README's command finishes the run: stale lock removed, incomplete jobs redone (in the
    # warm workers of a new server: the killed run's went with its process group; that a job
    # writes the same bytes in its own process is tests/test_warm.py's and test_cluster.py's)
    resumed = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr[-4000:]
    assert "removing the stale Snakemake lock" in resumed.stderr
    for table_name in TABLE_NAMES:
        a, b = reference / "results" / table_name, workdir / "results" / table_name
        if table_name == "uci_folds.csv":
            assert deterministic_bytes(a) == deterministic_bytes(b)
        else:
            assert a.read_bytes() == b.read_bytes(), table_name
