"""The tests' warm Snakemake (tests/warm_snakemake.py) behaves as ``python -m snakemake``: same
exit status and streams, the run's own directory and environment, and a timeout that stops the
run with everything it started."""

import os
import subprocess
import sys
import time

import pytest

from warm_snakemake import WarmSnakemake

SNAKEFILE = """
rule all:
    input: "done.txt"

rule make:
    output: "done.txt"
    shell: "echo ${{WARM_TEST_VALUE:-}} > {output}"

rule slow:
    output: "slow.txt"
    shell: "echo $$ > pid.txt; sleep 60; touch {output}"
"""


@pytest.fixture
def workflow(tmp_path):
    (tmp_path / "Snakefile").write_text(SNAKEFILE)
    return tmp_path


@pytest.fixture(scope="module")
def warm():  # one zygote serves every test here, as one serves a test process
    server = WarmSnakemake()
    yield server
    server.close()


def cold(argv, cwd, env):
    return subprocess.run([sys.executable, "-m", "snakemake", *argv], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def test_a_run_gets_its_own_directory_and_environment(workflow, warm):
    for value in ("first", "second"):
        env = {**os.environ, "WARM_TEST_VALUE": value}
        (workflow / "done.txt").unlink(missing_ok=True)
        result = warm.run(["--cores", "1", "--nolock"], workflow, env, 120)
        assert result.returncode == 0, result.stderr[-2000:]
        assert (workflow / "done.txt").read_text().strip() == value
    env = {k: v for k, v in os.environ.items() if k != "WARM_TEST_VALUE"}
    (workflow / "done.txt").unlink()
    assert warm.run(["--cores", "1", "--nolock"], workflow, env, 120).returncode == 0
    assert (workflow / "done.txt").read_text().strip() == ""  # nothing left from the last run


def test_a_failing_run_fails_alike(workflow, warm):
    argv = ["--cores", "1", "--nolock", "no_such_rule"]
    result = warm.run(argv, workflow, dict(os.environ), 120)
    reference = cold(argv, workflow, dict(os.environ))
    assert result.returncode == reference.returncode == 1
    assert "no_such_rule" in result.stderr and "no_such_rule" in reference.stderr


def test_a_timeout_stops_the_run_and_its_jobs(workflow, warm):
    with pytest.raises(subprocess.TimeoutExpired):
        warm.run(["--cores", "1", "--nolock", "slow"], workflow, dict(os.environ), 5)
    job = int((workflow / "pid.txt").read_text())
    for _ in range(50):
        if not os.path.exists(f"/proc/{job}"):
            break
        time.sleep(0.1)
    assert not os.path.exists(f"/proc/{job}")
    env = {**os.environ, "WARM_TEST_VALUE": "after"}  # and the zygote still serves
    assert warm.run(["--cores", "1", "--nolock"], workflow, env, 120).returncode == 0
