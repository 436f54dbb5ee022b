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
