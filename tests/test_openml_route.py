"""The OpenML route, offline: the openml package reads its own cache (description.xml and the
ARFF file, as OpenML serves data id 37), and our conversion must give the canonical table of
the UCI file byte for byte (docs/protocol.md §1.1)."""

import shutil

import pytest

from conftest import FIXTURE_MIRROR, FIXTURES
from weightboost.data.fetch import FetchSettings, fetch_raw
from weightboost.data.spec import DatasetSpec
from weightboost.data.uci import build_canonical, write_canonical
from weightboost.errors import ChecksumError
from weightboost.fileio import sha256_bytes


@pytest.fixture
def openml_cache(tmp_path):
    cache = tmp_path / "openml-cache"
    shutil.copytree(FIXTURES / "openml", cache)
    return cache


def openml_settings(cache):
    # The default server: openml derives the cache path from the server's host name, and the
    # fixture cache is complete, so nothing is requested from the network.
    return FetchSettings(sources=("openml",), openml_cache=str(cache))


def pima(fixture_config):
    return DatasetSpec.from_config("pima", fixture_config["datasets"]["pima"])


def test_openml_copy_gives_the_uci_canonical_table(tmp_path, fixture_config, openml_cache):
    spec = pima(fixture_config)
    receipt = fetch_raw(spec, tmp_path / "pima.data", tmp_path / "pima.source.json",
                        openml_settings(openml_cache))
    assert receipt["route"] == "openml" and receipt["verified"] == "table"
    assert receipt["location"].startswith("openml:37 (diabetes")
    sidecar = write_canonical(tmp_path / "pima.data", receipt, spec, tmp_path / "pima.csv",
                              tmp_path / "pima.json")
    _, uci_table = build_canonical((FIXTURE_MIRROR / spec.file).read_bytes(), spec, "uci")
    assert sidecar["table_sha256"] == sha256_bytes(uci_table) == spec.table_sha256
    assert (tmp_path / "pima.csv").read_bytes() == uci_table


def test_openml_copy_that_differs_is_refused(tmp_path, fixture_config, openml_cache):
    arff = openml_cache / "org/openml/www/datasets/37/dataset.arff"
    arff.write_text(arff.read_text().replace("6,148,72", "6,149,72", 1))
    spec = pima(fixture_config)
    receipt = fetch_raw(spec, tmp_path / "pima.data", tmp_path / "pima.source.json",
                        openml_settings(openml_cache))
    with pytest.raises(ChecksumError) as info:
        write_canonical(tmp_path / "pima.data", receipt, spec, tmp_path / "pima.csv",
                        tmp_path / "pima.json")
    assert "datasets.pima.table_sha256" in str(info.value) and "openml" in str(info.value)
    assert not (tmp_path / "pima.csv").exists() and not (tmp_path / "pima.json").exists()
