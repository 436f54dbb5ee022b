"""The UCI data stage run through Snakemake itself, on the fixture mirror (no network).

Bad input must stop the run with a message naming the dataset, file or config key, and must
leave nothing under data/ that a later run would mistake for a finished output."""

import copy
import json
import shutil

import pytest

from conftest import FIXTURE_MIRROR, run_snakemake


def processed_and_raw(workdir):
    found = []
    for sub in ("data/raw/uci", "data/processed/uci"):
        folder = workdir / sub
        if folder.exists():
            found += sorted(p.name for p in folder.iterdir())
    return found


def test_data_target_builds_every_fixture_table(tmp_path, fixture_config):
    result = run_snakemake(tmp_path, fixture_config, "data")
    assert result.returncode == 0, result.stderr[-3000:]
    for name, spec in fixture_config["datasets"].items():
        sidecar = json.loads((tmp_path / f"data/processed/uci/{name}.json").read_text())
        assert sidecar["table_sha256"] == spec["table_sha256"]
        assert sidecar["n_rows"] == spec["rows"]
        assert sidecar["source"]["route"] == "mirror"
        assert (tmp_path / f"data/processed/uci/{name}.csv").is_file()
    # a second run has nothing to do
    again = run_snakemake(tmp_path, fixture_config, "data", "-n")
    assert "Nothing to be done" in again.stdout + again.stderr


def test_env_variable_mirror_overrides_config(tmp_path, fixture_config):
    config = copy.deepcopy(fixture_config)
    config["mirror"] = str(tmp_path / "does-not-exist")
    config["datasets"] = {"cmc": config["datasets"]["cmc"]}
    config["experiment"]["datasets"] = ["cmc"]
    result = run_snakemake(tmp_path / "run", config, "data",
                           env={"REPRO_MIRROR": str(FIXTURE_MIRROR)})
    assert result.returncode == 0, result.stderr[-3000:]


@pytest.mark.parametrize("damage, needle", [
    (lambda data: data[: len(data) // 2], "datasets.ionosphere.sha256"),  # truncated copy
    (lambda data: b"", "is empty"),
])
def test_bad_mirror_file_stops_and_leaves_nothing(tmp_path, fixture_config, damage, needle):
    mirror = tmp_path / "mirror"
    shutil.copytree(FIXTURE_MIRROR, mirror)
    target = mirror / "ionosphere" / "ionosphere.data"
    target.write_bytes(damage(target.read_bytes()))
    config = copy.deepcopy(fixture_config)
    config["mirror"] = str(mirror)
    workdir = tmp_path / "run"
    result = run_snakemake(workdir, config, "data/processed/uci/ionosphere.csv")
    assert result.returncode != 0
    assert needle in result.stderr and "ionosphere" in result.stderr
    assert processed_and_raw(workdir) == []


@pytest.mark.parametrize("edit, needle", [
    (lambda c: c["experiment"].__setitem__("noise_levels", [0.1, 1.5]), "noise_levels"),
    (lambda c: c["datasets"]["pima"].__setitem__("fields", "nine"), "fields"),
    (lambda c: c["experiment"].__setitem__("datasets", ["pima", "ionosphre"]), "ionosphre"),
    (lambda c: c["datasets"]["pima"].__setitem__("label", 12), "datasets.pima.label"),
])
def test_invalid_config_is_refused_before_any_job(tmp_path, fixture_config, edit, needle):
    config = copy.deepcopy(fixture_config)
    edit(config)
    result = run_snakemake(tmp_path, config, "data")
    assert result.returncode != 0
    assert needle in result.stderr
    assert processed_and_raw(tmp_path) == []


def test_unknown_dataset_target_names_the_dataset(tmp_path, fixture_config):
    result = run_snakemake(tmp_path, fixture_config, "data/processed/uci/iris.csv")
    assert result.returncode != 0
    assert "unknown dataset 'iris'" in result.stderr


@pytest.mark.parametrize("job", ["fetch_uci", "parse_uci", "fetch_reuters", "reuters_features"])
def test_each_data_job_is_keyed_with_exactly_the_code_it_loads(tiny_run, tmp_path, job):
    # its rule's code_sha256 param digests DATA_JOB_CODE[job]: a module it loads but the list
    # leaves out could change its output without rerunning it
    import os
    import subprocess
    import sys

    from conftest import recorded_job
    from test_workflow_experiments import LOADED
    from weightboost.pipeline.package_code import PACKAGE, package_files
    from weightboost.pipeline.provenance import DATA_JOB_CODE, PLUMBING

    outputs = {"fetch_uci": ("raw", "receipt"), "parse_uci": ("table", "sidecar"),
               "fetch_reuters": ("files", "receipt"),
               "reuters_features": ("matrices", "vocabulary", "stats")}
    workdir, _ = tiny_run
    name, arguments = recorded_job(workdir, job)
    for key in outputs[job]:  # its outputs elsewhere; the run's own files are its inputs
        value = arguments[key]
        arguments[key] = ([str(tmp_path / os.path.basename(f)) for f in value]
                          if isinstance(value, list) else str(tmp_path / os.path.basename(value)))
    env = {k: v for k, v in os.environ.items() if k != "REPRO_MIRROR"}  # the run's mirror
    ran = subprocess.run([sys.executable, "-c", LOADED, "job", name, "-", json.dumps(arguments)],
                         cwd=workdir, capture_output=True, text=True,
                         env={**env, "WEIGHTBOOST_WARM": "off"})
    assert ran.returncode == 0, ran.stderr[-3000:]
    loaded = set(json.loads(ran.stdout.splitlines()[-2])) - set(PLUMBING)
    listed = {str(p.relative_to(PACKAGE)) for p in package_files(*DATA_JOB_CODE[job])}
    assert loaded == listed, (sorted(loaded - listed), sorted(listed - loaded))


def test_an_edit_of_the_data_spec_reruns_the_parse_of_an_unpinned_data_set(tiny_run, tmp_path):
    # a pinned table would catch a parse that another module's edit changed; an unpinned one
    # (a user's new data set) has only the rule's code digest (DATA_JOB_CODE)
    from conftest import ROOT
    from test_outside_learners import cold_snakemake
    from test_workflow_experiments import scheduled

    source, config = tiny_run
    work, checkout = tmp_path / "run", tmp_path / "checkout"  # the package copied, to edit
    shutil.copytree(source, work, symlinks=True)
    lib = checkout / "src"
    shutil.copytree(ROOT / "src" / "weightboost", lib / "weightboost",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for shared in ("workflow", "config"):  # what the package reads beside itself
        (checkout / shared).symlink_to(ROOT / shared)
    config = copy.deepcopy(config)
    config["datasets"]["pima"].pop("table_sha256")  # unpinned
    done = cold_snakemake(work, config, lib, "data")  # the unpinned parse, current
    assert done.returncode == 0, done.stderr[-3000:]
    assert scheduled(cold_snakemake(work, config, lib, "data", "-n").stdout) == {}
    spec = lib / "weightboost" / "data" / "spec.py"
    spec.write_text(spec.read_text() + "\n# an edit\n")
    again = cold_snakemake(work, config, lib, "data", "-n")
    assert again.returncode == 0, again.stderr[-3000:]
    assert scheduled(again.stdout).get("parse_uci") == len(config["experiment"]["datasets"])
    assert "data/processed/uci/pima.csv" in again.stdout
