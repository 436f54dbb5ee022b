"""The SLURM profile on a real (one-node) SLURM: jobs are submitted, batched and tracked through
profiles/slurm, and give the same table rows as the same cells of a local run (docs/running.md, "On a
cluster")."""

import copy
import importlib.util
import os
import re

import pandas as pd
import pytest
import yaml

from conftest import ROOT, run_snakemake
from slurm_cluster import SYSTEM_CONF, OneNodeSlurm, clear_leftover, missing_programs

pytestmark = pytest.mark.cluster
PROFILE = ROOT / "profiles" / "slurm"
TABLES = ("uci_folds.csv", "uci_summary.csv", "reuters_f1.csv", "reuters_curves.csv")
TIMING = ["fit_seconds", "predict_seconds"]
KEYS = ["dataset", "noise", "algorithm", "repeat", "fold", "category", "t_rule", "T"]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    missing = missing_programs()
    if missing:
        pytest.skip(f"SLURM is not installed ({', '.join(missing)} missing; Debian: apt-get "
                    "install slurmctld slurmd slurm-client munge, as .ci/run does)")
    if os.geteuid() != 0:
        pytest.skip("the one-node cluster runs slurmd, which needs root")
    clear_leftover()  # of a test run killed while its cluster ran
    if SYSTEM_CONF.exists():
        pytest.skip(f"{SYSTEM_CONF} exists: this machine has a SLURM of its own, which the test "
                    "does not replace")
    if importlib.util.find_spec("snakemake_executor_plugin_slurm") is None:
        pytest.skip("snakemake-executor-plugin-slurm is not installed (make install)")
    profile = yaml.safe_load((PROFILE / "config.yaml").read_text())
    slurm = OneNodeSlurm(tmp_path_factory.mktemp("slurm"),
                         partition=profile["default-resources"]["slurm_partition"])
    slurm.start()
    yield slurm
    slurm.stop()


@pytest.fixture(scope="module")
def runs(cluster, tmp_path_factory, tiny_config, tiny_run):
    # smaller still than the tiny config: four UCI cells (one submission) and one Reuters cell,
    # compared with the same cells of the session's local run of the tiny config
    config = copy.deepcopy(tiny_config)
    config["experiment"] = {**config["experiment"], "datasets": ["ionosphere", "pima"],
                            "noise_levels": [0.0], "algorithms": ["C4.5", "AdaBoost"]}
    config["reuters_study"] = {**config["reuters_study"], "algorithms": ["C4.5"],
                               "paper_rounds": {}}
    remote = tmp_path_factory.mktemp("remote")
    # the test cluster answers at once: check job states every 2 s, not the profile's 10-40 s.
    # One core per submission: the job step runs a group's cells in series anyway (docs/running.md, "On
    # a cluster"), and the node's two CPUs then run two submissions at once.
    done = run_snakemake(remote, config, "experiments", "--profile", str(PROFILE),
                         "--cores", "1", "--slurm-init-seconds-before-status-checks", "1",
                         "--seconds-between-status-checks", "2", env=cluster.env, timeout=1200)
    assert done.returncode == 0, (done.stdout + done.stderr)[-6000:] + cluster.log()
    return tiny_run[0], remote, done.stdout + done.stderr


def test_jobs_run_through_slurm_batched_and_complete(cluster, runs):
    _, remote, log = runs
    job_ids = sorted(set(re.findall(r"SLURM jobid (\d+)", log)))
    assert job_ids, log[-3000:]
    for job_id in job_ids:
        record = cluster.job(job_id)
        assert record["JobState"] == "COMPLETED" and record["ExitCode"] == "0:0", record
        assert record["Partition"] == cluster.partition
    comments = {j: cluster.job(j).get("Comment", "") for j in job_ids}
    # the four UCI cells went in one grouped submission; downloads and parsing stayed on this
    # node
    cells = len(list((remote / "results/cells/uci").rglob("*.csv")))
    assert cells == 4
    assert [c for c in comments.values() if "uci_cell" in c] == ["rule_uci_cells_uci_cell"]
    assert not any("fetch" in c or "parse_uci" in c for c in comments.values())
    # every submission asks for at most the cores given
    assert all(int(cluster.job(j)["NumCPUs"]) <= 1 for j in job_ids)
    # the group's cells ran in the warm worker its batch step's Snakemake started, each cell's
    # job step holding only the job's process (docs/running.md, "Warm workers")
    (uci_job,) = [j for j, c in comments.items() if "uci_cell" in c]
    server_log = (remote / f"logs/warm_server.slurm-{uci_job}.log").read_text()
    assert len(re.findall(r"uci_cell for job process \d+: started in worker", server_log)) == 4
    assert len(re.findall(r"uci_cell for job process \d+: exit status 0", server_log)) == 4


def test_cluster_tables_equal_a_local_run(runs):
    local, remote, _ = runs
    for name in TABLES:
        ran = pd.read_csv(remote / "results" / name)
        keys = [c for c in KEYS if c in ran.columns]
        keep = [c for c in ran.columns if c not in TIMING]
        reference = pd.read_csv(local / "results" / name).merge(ran[keys].drop_duplicates())
        assert len(reference) == len(ran), name
        pd.testing.assert_frame_equal(
            reference[keep].sort_values(keys, ignore_index=True),
            ran[keep].sort_values(keys, ignore_index=True), check_exact=True, obj=name)


def test_a_submission_larger_than_any_node_stops_before_it_is_queued(cluster, tmp_path,
                                                                    tiny_config):
    # a grouped submission asks for the profile's cores; on a node with fewer it would stay
    # pending for ever (PartitionConfig) while Snakemake waits without a word
    config = copy.deepcopy(tiny_config)
    config["experiment"] = {**config["experiment"], "datasets": ["pima"],
                            "noise_levels": [0.0], "algorithms": ["C4.5", "AdaBoost"]}
    done = run_snakemake(tmp_path, config, "results/uci_folds.csv", "--profile", str(PROFILE),
                         "--cores", str(cluster.cpus + 1), env=cluster.env, timeout=600)
    output = done.stdout + done.stderr
    assert done.returncode != 0
    assert f"up to {cluster.cpus + 1} CPUs" in output and f"has {cluster.cpus}" in output
    assert "profiles/slurm/config.yaml" in output
    assert "SLURM jobid" not in output  # nothing was submitted


def test_a_killed_runs_cluster_is_cleared_and_a_machines_own_is_not(tmp_path, monkeypatch):
    # kill -9 of a test run leaves the test cluster's configuration where srun looks and its
    # daemons running; the next run clears both instead of skipping for ever
    import subprocess

    import slurm_cluster

    conf = tmp_path / "etc/slurm.conf"
    conf.parent.mkdir()
    monkeypatch.setattr(slurm_cluster, "SYSTEM_CONF", conf)
    daemon = subprocess.Popen(["sleep", "60"])
    (tmp_path / "slurmd.pid").write_text(f"{daemon.pid}\n")
    ours = [f"ClusterName={slurm_cluster.CLUSTER_NAME}", f"SlurmdPidFile={tmp_path}/slurmd.pid",
            f"SlurmctldPidFile={tmp_path}/gone.pid", f"AuthInfo=socket={tmp_path}/munge.socket"]
    conf.write_text("\n".join(ours) + "\n")
    assert slurm_cluster.clear_leftover()
    assert daemon.wait(timeout=10) == -9 and not conf.exists()
    machines = "\n".join(["ClusterName=site", f"SlurmdPidFile={tmp_path}/slurmd.pid"]) + "\n"
    conf.write_text(machines)
    assert not slurm_cluster.clear_leftover()
    assert conf.read_text() == machines
