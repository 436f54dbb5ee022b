"""pyproject.toml (what the project needs), requirements.lock (the exact environment `make install`
builds) and environment.yml (the conda route) must describe one environment."""

import os
import re
import shutil
import subprocess
import sys
import tomllib

import pytest
import yaml
from packaging.requirements import Requirement

from conftest import ROOT
from weightboost.pipeline.lockfile import lock_mismatches, locked_versions, normalise

LOCK = ROOT / "requirements.lock"


def project_requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    return [Requirement(r) for r in project["dependencies"] + extras["test"] + extras["build"]
            + extras["cluster"]]


def test_lock_pins_every_requirement_within_its_bounds():
    locked = locked_versions(LOCK)
    for requirement in project_requirements():
        name = normalise(requirement.name)
        assert name in locked, f"{name} is required by pyproject.toml but not in the lock"
        version, conditional = locked[name]
        assert not conditional, name
        assert requirement.specifier.contains(version), f"{name}=={version} {requirement}"


def test_every_pin_carries_hashes():
    # `pip install --require-hashes` refuses a lock with a pin without a hash
    entries = re.split(r"\n(?=[A-Za-z0-9])", LOCK.read_text().split("\n", 2)[2])
    pins = [e for e in entries if "==" in e.split("\n")[0]]
    assert len(pins) == len(locked_versions(LOCK))
    for entry in pins:
        assert re.search(r"--hash=sha256:[0-9a-f]{64}", entry), entry.split()[0]


def test_environment_yml_pins_the_locked_versions():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    conda = {}
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    # a conda package, or a pip one where conda-forge has none (typst's Python bindings)
    for dependency in env["dependencies"] + [d for d in pip if d != "-e ."]:
        if isinstance(dependency, str) and not dependency.startswith(("python", "pip")):
            name, version = re.fullmatch(r"([A-Za-z0-9_.\-]+)==(\S+)", dependency).groups()
            conda[normalise(name)] = version
    locked = locked_versions(LOCK)
    direct = {normalise(r.name) for r in project_requirements()} - {"setuptools", "wheel"}
    assert set(conda) == direct
    assert {name: version for name, version in conda.items()} == \
        {name: locked[name][0] for name in direct}
    assert "-e ." in next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))


def test_mismatches_name_the_package_and_both_versions(tmp_path):
    lock = tmp_path / "requirements.lock"
    lock.write_text("numpy==0.0.1 \\\n    --hash=sha256:" + "0" * 64 + "\n"
                    "colorama==0.4.6 ; sys_platform == 'win32' \\\n    --hash=sha256:" + "1" * 64
                    + "\n")
    rows = lock_mismatches(lock)
    # a platform-conditional pin that does not apply here is not a mismatch
    assert [r["package"] for r in rows] == ["numpy"]
    assert rows[0]["locked"] == "0.0.1" and rows[0]["installed"] != "0.0.1"


def test_make_runs_its_commands_with_bytecode_writing_on(tmp_path):
    # The install compiles no bytecode (docs/running.md, "No bytecode at install"): the first process to
    # import a module writes it. Where the environment sets PYTHONDONTWRITEBYTECODE, every
    # process would compile its imports anew unless make's commands run without it.
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    probe = tmp_path / "probe.mk"
    probe.write_text("probe:\n\t@" + sys.executable
                     + " -c 'import os, sys; print(os.environ.get(\"PYTHONDONTWRITEBYTECODE\"),"
                       " sys.dont_write_bytecode)'\n")
    out = subprocess.run(["make", "-s", "-f", str(ROOT / "Makefile"), "-f", str(probe), "probe"],
                         env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}, cwd=tmp_path,
                         capture_output=True, text=True, check=True).stdout
    assert out.split() == ["None", "False"]
    assert "--compile-bytecode" not in (ROOT / "Makefile").read_text()


def test_make_refuses_a_venv_that_holds_another_checkout(tmp_path):
    # VENV shared by two clones: the last install's editable package would silently serve both
    import json

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = next(venv.glob("lib/python*/site-packages"))
    dist = site / "weightboost_repro-0.1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: weightboost-repro\n"
                                   "Version: 0.1.0\n")
    other = tmp_path / "other-clone"
    (dist / "direct_url.json").write_text(json.dumps({"dir_info": {"editable": True},
                                                      "url": other.as_uri()}))
    for target in ("install", "test"):
        result = subprocess.run(["make", "-C", str(ROOT), target, f"VENV={venv}"],
                                capture_output=True, text=True, timeout=120)
        assert result.returncode != 0
        assert f"holds the editable install of {other}, not of this checkout" in result.stderr
    assert not (venv / "bin" / ".installed").exists()  # nothing was installed over it
