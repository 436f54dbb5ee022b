"""Determinism and resume on the tiny config of test_workflow_experiments: a second run, killed
part way (Snakemake alone, or with its jobs), its config changed, and finished by the README's
command, gives the reference run's tables byte for byte."""

import copy
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from conftest import ROOT
from weightboost import run as launcher

TABLE_NAMES = ["uci_folds.csv", "uci_summary.csv", "reuters_f1.csv", "reuters_curves.csv"]


def deterministic_bytes(path):
    frame = pd.read_csv(path)
    return frame.drop(columns=[c for c in ("fit_seconds", "predict_seconds")
                               if c in frame.columns]).to_csv(index=False)


def assert_same_tables(reference, workdir):
    """The tables of two runs are byte-identical (timing columns aside)."""
    for table_name in TABLE_NAMES:
        a, b = reference / "results" / table_name, workdir / "results" / table_name
        if table_name == "uci_folds.csv":
            assert deterministic_bytes(a) == deterministic_bytes(b)
        else:
            assert a.read_bytes() == b.read_bytes(), table_name


def launch(workdir, config, name):
    """`python -m weightboost.run` (what `make reproduce` runs) on ``config`` in ``workdir``."""
    path = workdir / f"{name}.yaml"
    path.write_text(__import__("yaml").safe_dump(config))
    command = [sys.executable, "-m", "weightboost.run", "--snakefile", str(ROOT / "Snakefile"),
               "--directory", str(workdir), "--configfile", str(path), "--cores", "2",
               "experiments"]
    env = {k: v for k, v in os.environ.items() if k != "REPRO_MIRROR"}
    with open(workdir / f"{name}.log", "w") as log:  # a pipe nobody reads would block it
        return subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=log,
                                start_new_session=True)


def snakemake_child(launcher_pid, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        for entry in Path("/proc").glob("[0-9]*"):
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                words = (entry / "cmdline").read_bytes().split(b"\0")
            except (OSError, ValueError, IndexError):
                continue
            if ppid == launcher_pid and b"snakemake" in words:
                return int(entry.name)
        time.sleep(0.05)
    raise AssertionError("the launcher started no Snakemake")


@pytest.mark.slow
def test_a_run_killed_at_random_points_then_a_config_change_gives_clean_tables(
        tmp_path, tiny_run):
    # a run with 5 UCI rounds killed twice at random points, first Snakemake alone (its jobs
    # live on, as after an out-of-memory kill), then Snakemake and its jobs (Ctrl-C, a closed
    # terminal); the config changed to the tiny config's 3 rounds and the run resumed by the
    # README's command: the tables are a clean run's of the final config, byte for byte,
    # whatever the killed runs' jobs wrote after they were orphaned.
    # The kill points count UCI cells only (2-11 of the 18): the UCI table set cannot be
    # complete when a run is killed. The Reuters study's config is the final one: its two
    # cells may finish, and its tables be written, before a kill (a table set computed from
    # another config would be refused, rightly, by the integrity guard), and a resume keeps them
    reference, final = tiny_run
    first = copy.deepcopy(final)
    first["experiment"]["rounds"] = 5
    workdir = tmp_path / "crashed"
    workdir.mkdir()
    cells = workdir / "results" / "cells" / "uci"
    points = random.Random(20030821).sample(range(2, 12), 2)
    for attempt, point in enumerate(sorted(points)):
        process = launch(workdir, first, f"first-{attempt}")
        deadline = time.time() + 300
        while time.time() < deadline and len(list(cells.rglob("*.csv"))) < point \
                and process.poll() is None:
            time.sleep(0.05)
        log = workdir / f"first-{attempt}.log"
        assert process.poll() is None, log.read_text()[-4000:]  # it stopped before the kill
        if attempt == 0:
            os.kill(snakemake_child(process.pid), signal.SIGKILL)
        else:
            snakemake_child(process.pid)
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=60)
        assert not (workdir / "results" / "uci_summary.csv").exists()
        assert any((workdir / ".snakemake" / "locks").iterdir())  # the kill left its lock
    resumed = launch(workdir, final, "final")
    assert resumed.wait(timeout=600) == 0, (workdir / "final.log").read_text()[-4000:]
    assert "removing the stale Snakemake lock" in (workdir / "final.log").read_text()
    assert not launcher.orphaned_jobs(workdir.resolve())
    assert_same_tables(reference, workdir)


def test_a_snakemake_of_another_directory_is_not_live_here(tmp_path):
    # a Snakemake working elsewhere (started there, or pointed there by --directory) leaves
    # this directory's lock stale; one started elsewhere but pointed here does not
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    sleeper = [sys.executable, "-c", "import time; time.sleep(120)", "-m", "snakemake"]
    runs = [(there, []), (tmp_path, ["--directory", "there"]), (there, ["-d", "../here"])]
    for k, (cwd, words) in enumerate(runs):
        process = subprocess.Popen(sleeper + words, cwd=cwd)
        try:
            deadline = time.time() + 10
            while time.time() < deadline and not launcher._live_snakemake_in(there.resolve()) \
                    and not launcher._live_snakemake_in(here.resolve()):
                time.sleep(0.05)
            assert launcher._live_snakemake_in(here.resolve()) == (k == 2), (cwd, words)
            assert launcher._live_snakemake_in(there.resolve()) == (k < 2), (cwd, words)
        finally:
            process.kill()
            process.wait()


def test_the_launcher_stops_the_jobs_a_killed_snakemake_left(tmp_path):
    # processes of jobs working in the run's directory (a compute job's command names
    # weightboost.pipeline.warm; a script job runs a file under .snakemake/scripts/, which does not make
    # it a live Snakemake) are stopped before a resume; those of another directory are left
    other = tmp_path / "other"
    other.mkdir()
    scripts = tmp_path / ".snakemake" / "scripts"
    scripts.mkdir(parents=True)
    (scripts / "tmpjob.parse_uci.py").write_text("import time\ntime.sleep(120)\n")
    sleeper = [sys.executable, "-c", "import time; time.sleep(120)", "-m", "weightboost.pipeline.warm",
               "job"]
    processes = [subprocess.Popen(sleeper, cwd=tmp_path),
                 subprocess.Popen([sys.executable, str(scripts / "tmpjob.parse_uci.py")],
                                  cwd=tmp_path),
                 subprocess.Popen(sleeper, cwd=other)]
    orphans = sorted(p.pid for p in processes[:2])
    try:
        deadline = time.time() + 10
        while time.time() < deadline and launcher.orphaned_jobs(tmp_path) != orphans:
            time.sleep(0.05)
        assert launcher.orphaned_jobs(tmp_path.resolve()) == orphans
        assert not launcher._live_snakemake_in(tmp_path.resolve())
        assert launcher.stop_orphaned_jobs(tmp_path.resolve()) == 2
        assert [p.wait(timeout=10) for p in processes[:2]] == [-signal.SIGKILL] * 2
        assert processes[2].poll() is None
    finally:
        for process in processes:
            process.kill()
            process.wait()
