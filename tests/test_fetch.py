"""The source chain of docs/protocol.md §1.1, with real HTTP on a loopback server (no internet).

Each test breaks one promise: checksum refusal, retry with backoff, truncation, 404 fall-through
to the UCI archive, every source down, the mirror override, and no partial file left behind."""

import io
import json
import zipfile

import pytest

from conftest import CLOSED_URL, FIXTURE_MIRROR
from weightboost.data.download import DownloadError, RetryPolicy, http_get
from weightboost.data.fetch import FetchSettings, fetch_raw
from weightboost.data.sources import resolve_mirror
from weightboost.data.spec import DatasetSpec
from weightboost.errors import ChecksumError, ConfigError, InputFileError, SourceUnavailableError

FAST = RetryPolicy(attempts=3, backoff_seconds=0.0, timeout_seconds=5)


@pytest.fixture
def iono(fixture_config):
    spec = DatasetSpec.from_config("ionosphere", fixture_config["datasets"]["ionosphere"])
    return spec, (FIXTURE_MIRROR / spec.file).read_bytes()


def settings(**kw):
    base = dict(sources=("uci",), mirror=None, uci_legacy_url=CLOSED_URL,
                uci_archive_url=CLOSED_URL, openml_server=CLOSED_URL + "/api/v1/xml",
                retry=FAST)
    return FetchSettings(**{**base, **kw})


def outputs(tmp_path):
    return tmp_path / "out" / "x.data", tmp_path / "out" / "x.source.json"


def assert_nothing_written(tmp_path):
    out = tmp_path / "out"
    assert not out.exists() or not any(out.iterdir()), list(out.iterdir())


def test_mirror_file_is_verified_and_receipt_written(tmp_path, iono, no_env_mirror):
    spec, data = iono
    dest, receipt_path = outputs(tmp_path)
    receipt = fetch_raw(spec, dest, receipt_path, settings(sources=("mirror", "uci"),
                                                            mirror=str(FIXTURE_MIRROR)))
    assert dest.read_bytes() == data
    assert receipt["route"] == "mirror" and receipt["verified"] == "file"
    assert json.loads(receipt_path.read_text())["sha256"] == spec.sha256


def test_checksum_mismatch_stops_and_leaves_nothing(tmp_path, iono, no_env_mirror):
    spec, data = iono
    mirror = tmp_path / "mirror"
    (mirror / "ionosphere").mkdir(parents=True)
    (mirror / spec.file).write_bytes(data.replace(b",g\n", b",b\n", 1))
    dest, receipt = outputs(tmp_path)
    with pytest.raises(ChecksumError) as info:
        fetch_raw(spec, dest, receipt, settings(sources=("mirror", "uci"), mirror=str(mirror)))
    message = str(info.value)
    assert "dataset ionosphere" in message and str(mirror / spec.file) in message
    assert "datasets.ionosphere.sha256" in message
    assert_nothing_written(tmp_path)


def test_legacy_url_with_retry_after_server_errors(tmp_path, iono, http_server):
    spec, data = iono
    route = http_server.serve(f"/legacy/{spec.file}", (503, b"busy"), (502, b"bad"), data)
    dest, receipt = outputs(tmp_path)
    result = fetch_raw(spec, dest, receipt, settings(uci_legacy_url=http_server.url + "/legacy"))
    assert route.hits == 3 and dest.read_bytes() == data and result["route"] == "uci"


def test_backoff_doubles():
    waits = []
    with pytest.raises(DownloadError, match="network error"):
        http_get(CLOSED_URL + "/x", RetryPolicy(attempts=4, backoff_seconds=0.5,
                                                timeout_seconds=1), sleep=waits.append)
    assert waits == [0.5, 1.0, 2.0]


def test_truncated_download_is_retried_then_refused(tmp_path, iono, http_server):
    spec, data = iono
    lying = (200, data[:100], {"Content-Length": str(len(data))})
    route = http_server.serve(f"/legacy/{spec.file}", lying)
    dest, receipt = outputs(tmp_path)
    with pytest.raises(SourceUnavailableError) as info:
        fetch_raw(spec, dest, receipt, settings(uci_legacy_url=http_server.url + "/legacy"))
    assert "truncated" in str(info.value) and route.hits == FAST.attempts
    assert_nothing_written(tmp_path)


def test_404_falls_through_to_uci_archive(tmp_path, iono, http_server):
    spec, data = iono
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as bundle:
        bundle.writestr("ionosphere.names", "names")
        bundle.writestr("ionosphere.data", data)
    legacy = http_server.serve(f"/legacy/{spec.file}", (404, b"gone"))
    http_server.serve("/static/52/ionosphere.zip", buffer.getvalue())
    dest, receipt = outputs(tmp_path)
    result = fetch_raw(spec, dest, receipt, settings(uci_legacy_url=http_server.url + "/legacy",
                                                     uci_archive_url=http_server.url + "/static"))
    assert legacy.hits == 1  # a 404 is final: not retried
    assert result["location"].endswith("ionosphere.zip!ionosphere.data")
    assert dest.read_bytes() == data


def test_corrupt_archive_is_a_clear_error(tmp_path, iono, http_server):
    spec, _ = iono
    http_server.serve("/static/52/ionosphere.zip", b"PK\x03\x04 truncated")
    dest, receipt = outputs(tmp_path)
    with pytest.raises(InputFileError, match="not a valid zip file"):
        fetch_raw(spec, dest, receipt, settings(uci_archive_url=http_server.url + "/static"))
    assert_nothing_written(tmp_path)


def test_all_sources_unreachable_lists_each(tmp_path, iono, no_env_mirror):
    spec, _ = iono
    dest, receipt = outputs(tmp_path)
    with pytest.raises(SourceUnavailableError) as info:
        fetch_raw(spec, dest, receipt, settings(sources=("mirror", "uci", "openml"),
                                                mirror=str(tmp_path),
                                                openml_cache=str(tmp_path / "cache")))
    message = str(info.value)
    assert "dataset ionosphere" in message
    for part in ("mirror:", "uci:", "openml:", "REPRO_MIRROR"):
        assert part in message
    assert_nothing_written(tmp_path)


def test_download_served_with_wrong_checksum_is_refused(tmp_path, iono, http_server):
    spec, data = iono
    http_server.serve(f"/legacy/{spec.file}", data + b"1,2,3\n")
    dest, receipt = outputs(tmp_path)
    with pytest.raises(ChecksumError, match="SHA-256"):
        fetch_raw(spec, dest, receipt, settings(uci_legacy_url=http_server.url + "/legacy"))
    assert_nothing_written(tmp_path)


def test_env_mirror_overrides_config(tmp_path, monkeypatch):
    monkeypatch.setenv("REPRO_MIRROR", str(tmp_path))
    assert resolve_mirror("somewhere/else") == str(tmp_path.resolve())
    monkeypatch.delenv("REPRO_MIRROR")
    (tmp_path / "rel").mkdir()
    assert resolve_mirror("rel", base_dir=tmp_path) == str(tmp_path / "rel")


def test_missing_mirror_directory_is_a_config_error(tmp_path, no_env_mirror):
    with pytest.raises(ConfigError, match="config key 'mirror'"):
        resolve_mirror("no/such/dir", base_dir=tmp_path)
    assert resolve_mirror(None) is None
