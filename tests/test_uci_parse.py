"""The canonical-table parser on hand-made inputs: each test breaks one rule of docs/protocol.md §1.2."""

import math

import numpy as np
import pandas as pd
import pytest

from weightboost.data.spec import DatasetSpec
from weightboost.data.uci import build_canonical, load_table, write_canonical
from weightboost.errors import ConfigError, InputFileError
from weightboost.fileio import sha256_bytes

SPEC = dict(file="toy/toy.data", fields=5, label=4, positive=["yes"], negative=["no"],
            drop=[0], nominal=[2], missing="?")
RAW = b"id1,1.5,red,7,yes\nid2,?,blue,8,no\n\nid3,2,?,9,no\n"


def spec(**changes):
    return DatasetSpec.from_config("toy", {**SPEC, **changes})


def test_canonical_table_values_kinds_and_labels():
    table, _ = build_canonical(RAW, spec(), "toy.data")
    assert list(table.columns) == ["f1", "f2", "f3", "label"]  # id (field 0) dropped
    assert table["label"].tolist() == [1, -1, -1]
    assert table["f1"].dtype == np.float64 and math.isnan(table["f1"][1])
    assert table["f2"].tolist()[:2] == ["red", "blue"] and pd.isna(table["f2"][2])
    assert table["f3"].tolist() == [7.0, 8.0, 9.0]


def test_names_from_spec_replace_field_numbers():
    table, _ = build_canonical(RAW, spec(names=["id", "size", "colour", "n", "y"]), "toy.data")
    assert list(table.columns) == ["size", "colour", "n", "label"]


def test_whitespace_separator_and_crlf():
    raw = b"a 1 x 2 yes\r\nb  3 y 4   no\r\n"
    table, _ = build_canonical(raw, spec(separator="whitespace"), "toy.data")
    assert table["f1"].tolist() == [1.0, 3.0] and table["label"].tolist() == [1, -1]


def test_canonical_bytes_depend_only_on_values():
    # '2' and '2.0', LF and CRLF, blank lines: same values, same table, same checksum
    a = build_canonical(b"i,2,r,7,yes\ni,3,b,8,no\n", spec(), "a")[1]
    b = build_canonical(b"j,2.0,r,7.00,yes\r\n\r\nk,3.,b,8,no\r\n", spec(), "b")[1]
    assert sha256_bytes(a) == sha256_bytes(b)
    c = build_canonical(b"i,2,r,7,yes\ni,3,b,8,yes\n", spec(), "c")[1]
    assert sha256_bytes(a) != sha256_bytes(c)


@pytest.mark.parametrize("raw, needle", [
    (b"", "is empty"),
    (b"  \n\n", "is empty"),
    (b"id1,1.5,red,7,yes\nid2,2.5,bl", "line 2: 3 fields where 5"),
    (b"id1,abc,red,7,yes\n", "'abc', not a number"),
    (b"id1,1,red,7,maybe\n", "class values ['maybe']"),
    (b"id1,inf,red,7,yes\n", "not a finite number"),
])
def test_bad_raw_files_name_the_file_and_problem(raw, needle):
    with pytest.raises(InputFileError) as info:
        build_canonical(raw, spec(), "toy/toy.data")
    assert needle in str(info.value)
    assert "toy" in str(info.value)


def test_row_count_is_checked():
    with pytest.raises(InputFileError, match=r"3 rows where datasets.toy.rows = 4"):
        build_canonical(RAW, spec(rows=4), "toy.data")


@pytest.mark.parametrize("changes, key", [
    (dict(label=9), "datasets.toy.label"),
    (dict(drop=[4]), "datasets.toy.drop"),
    (dict(nominal=[7]), "datasets.toy.nominal"),
    (dict(positive=["yes"], negative=["yes"]), "datasets.toy.positive"),
    (dict(names=["a", "b"]), "datasets.toy.names"),
])
def test_inconsistent_specs_name_the_key(changes, key):
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        spec(**changes)


def test_write_and_load_round_trip(tmp_path):
    raw = tmp_path / "toy.data"
    raw.write_bytes(RAW)
    sidecar = write_canonical(raw, {"route": "mirror", "verified": "file"}, spec(),
                              tmp_path / "toy.csv", tmp_path / "toy.json")
    assert sidecar["n_rows"] == 3 and sidecar["n_missing"] == 2
    assert sidecar["label"]["counts"] == {"+1": 1, "-1": 2}
    assert sidecar["table_sha256"] == sha256_bytes((tmp_path / "toy.csv").read_bytes())
    X, y = load_table(tmp_path / "toy.csv")
    assert isinstance(X["f2"].dtype, pd.CategoricalDtype)
    assert list(X["f2"].cat.categories) == ["blue", "red"]
    assert X["f1"].isna().sum() == 1 and y.tolist() == [1, -1, -1]


def test_cmc_style_nominal_digits_stay_strings(tmp_path):
    raw = tmp_path / "toy.data"
    raw.write_bytes(b"x,1,01,3,yes\nx,2,1,4,no\n")
    write_canonical(raw, {"verified": "file"}, spec(), tmp_path / "t.csv", tmp_path / "t.json")
    X, _ = load_table(tmp_path / "t.csv")
    assert list(X["f2"].cat.categories) == ["01", "1"]  # codes kept as written, not as numbers
