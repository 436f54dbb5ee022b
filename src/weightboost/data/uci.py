"""Canonical tables of the UCI datasets (docs/protocol.md §1.2).

A dataset spec (``weightboost.data.spec.DatasetSpec``, one entry of the config section
``datasets``) says how a raw UCI file is laid out. This module turns a raw file into the
*canonical table*:

* one column per kept attribute, named ``f<i>`` after its 0-based field index in the raw file
  (or the name given in the spec), numeric attributes as float64 and nominal ones as strings,
  missing values as NaN;
* a last column ``label`` with values in {-1, +1}.

The canonical table is stored as CSV (``to_canonical_csv``), whose SHA-256 is the table's
checksum: a copy of the data obtained another way (OpenML) must give the same bytes. A JSON
sidecar records the attribute kinds, label mapping, counts and checksums.
"""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd

from weightboost.data.spec import DatasetSpec
from weightboost.errors import ChecksumError, ConfigError, InputFileError
from weightboost.fileio import sha256_bytes, write_bytes_atomic, write_json_atomic

LABEL = "label"


def split_fields(raw: bytes, spec: DatasetSpec, source: str) -> list[list[str]]:
    """Split a raw UCI file into rows of string fields, checking every row's width."""
    if not raw.strip():
        raise InputFileError(f"{source} (dataset {spec.name}) is empty; delete it and fetch "
                             "it again")
    text = raw.decode("latin-1")
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.split() if spec.separator == "whitespace" else line.split(spec.separator)
        parts = [p.strip() for p in parts]
        if len(parts) != spec.fields:
            raise InputFileError(
                f"{source} (dataset {spec.name}), line {number}: {len(parts)} fields where "
                f"{spec.fields} are expected; the file is truncated or not the one "
                f"{spec.key('file')} names"
            )
        rows.append(parts)
    if spec.rows is not None and len(rows) != spec.rows:
        raise InputFileError(f"{source} (dataset {spec.name}) has {len(rows)} rows where "
                             f"{spec.key('rows')} = {spec.rows}; the file may be truncated")
    return rows


def canonical_table(rows: list[list[str]], spec: DatasetSpec, source: str) -> pd.DataFrame:
    """Build the canonical table from string fields (see the module docstring)."""
    columns: dict[str, object] = {}
    for index in spec.attribute_fields:
        values = [row[index] for row in rows]
        if spec.kind(index) == "nominal":
            columns[spec.field_name(index)] = pd.Series(
                [None if v == spec.missing else v for v in values], dtype=object)
        else:
            columns[spec.field_name(index)] = _parse_numeric(values, index, spec, source)
    columns[LABEL] = _map_labels([row[spec.label] for row in rows], spec, source)
    return pd.DataFrame(columns)


def _parse_numeric(values, index, spec, source) -> np.ndarray:
    out = np.empty(len(values), dtype=np.float64)
    for row, value in enumerate(values):
        if value == spec.missing:
            out[row] = np.nan
            continue
        try:
            out[row] = float(value)
        except ValueError:
            raise InputFileError(
                f"{source} (dataset {spec.name}): field {index} of data row {row + 1} is "
                f"{value!r}, not a number; declare the field nominal in "
                f"{spec.key('nominal')} or fix {spec.key('missing')}"
            ) from None
        if not math.isfinite(out[row]):
            raise InputFileError(f"{source} (dataset {spec.name}): field {index} of data row "
                                 f"{row + 1} is {value!r}, not a finite number")
    return out


def _map_labels(values, spec, source) -> np.ndarray:
    mapping = {v: 1 for v in spec.positive} | {v: -1 for v in spec.negative}
    unknown = sorted(set(values) - set(mapping))
    if unknown:
        raise InputFileError(
            f"{source} (dataset {spec.name}): class values {unknown} are in neither "
            f"{spec.key('positive')} {list(spec.positive)} nor {spec.key('negative')} "
            f"{list(spec.negative)}"
        )
    return np.array([mapping[v] for v in values], dtype=np.int64)


def to_canonical_csv(table: pd.DataFrame) -> bytes:
    """Serialise a canonical table; the bytes (and so the checksum) depend only on its values."""
    buffer = io.StringIO()
    table.to_csv(buffer, index=False, lineterminator="\n", na_rep="")
    return buffer.getvalue().encode("utf-8")


def describe(table: pd.DataFrame, spec: DatasetSpec, table_bytes: bytes, source: dict) -> dict:
    """The sidecar of a canonical table."""
    attributes = []
    for index in spec.attribute_fields:
        name = spec.field_name(index)
        entry = {"name": name, "field": index, "kind": spec.kind(index),
                 "missing": int(table[name].isna().sum())}
        if entry["kind"] == "nominal":
            entry["values"] = sorted(table[name].dropna().unique().tolist())
        attributes.append(entry)
    labels = table[LABEL]
    return {
        "dataset": spec.name,
        "description": spec.description,
        "source": source,
        "n_rows": int(len(table)),
        "n_attributes": len(attributes),
        "n_missing": int(sum(a["missing"] for a in attributes)),
        "attributes": attributes,
        "label": {
            "column": LABEL,
            "field": spec.label,
            "mapping": {v: 1 for v in spec.positive} | {v: -1 for v in spec.negative},
            "counts": {"+1": int((labels == 1).sum()), "-1": int((labels == -1).sum())},
        },
        "table_sha256": sha256_bytes(table_bytes),
    }


def build_canonical(raw: bytes, spec: DatasetSpec, source_label: str):
    """Raw file bytes -> (canonical table, its CSV bytes)."""
    table = canonical_table(split_fields(raw, spec, source_label), spec, source_label)
    return table, to_canonical_csv(table)


def write_canonical(raw_path, receipt: dict, spec: DatasetSpec, csv_path, sidecar_path) -> dict:
    """Parse a fetched raw file and write the canonical CSV and its sidecar atomically.

    A copy that did not come from the pinned UCI file (``receipt['verified'] == 'table'``) is
    accepted only if its canonical table has the pinned ``table_sha256``.
    """
    raw_path = Path(raw_path)
    table, table_bytes = build_canonical(raw_path.read_bytes(), spec, str(raw_path))
    digest = sha256_bytes(table_bytes)
    if receipt.get("verified") == "table":
        if spec.table_sha256 is None:
            raise ConfigError(f"dataset {spec.name} came from {receipt.get('route')} but "
                              f"{spec.key('table_sha256')} is not set, so the copy cannot be "
                              "verified; set it from a run on the UCI file")
        if digest != spec.table_sha256:
            raise ChecksumError(
                f"dataset {spec.name}: the copy from {receipt.get('route')} "
                f"({receipt.get('location')}) converts to a canonical table with SHA-256 "
                f"{digest}, not the pinned {spec.table_sha256} ({spec.key('table_sha256')}). "
                f"The copy differs from the UCI file, or the conversion settings in "
                f"{spec.key('openml')} are wrong; use the UCI file or a mirror instead"
            )
    elif spec.table_sha256 is not None and digest != spec.table_sha256:
        raise ChecksumError(
            f"dataset {spec.name}: {raw_path} converts to a canonical table with SHA-256 "
            f"{digest}, not the pinned {spec.table_sha256} ({spec.key('table_sha256')}). If you "
            f"changed how the table is built (e.g. {spec.key('drop')}), set "
            f"{spec.key('table_sha256')} to {digest}; otherwise the parser changed: report it")
    sidecar = describe(table, spec, table_bytes, receipt)
    sidecar["table_file"] = Path(csv_path).name
    write_bytes_atomic(csv_path, table_bytes)
    write_json_atomic(sidecar_path, sidecar)
    return sidecar


def verify_table(csv_path, sidecar: dict, pinned: str | None = None, key: str = "") -> None:
    """The table's bytes must have the SHA-256 its sidecar recorded when it was written, and the
    config's pin ``pinned`` (named ``key``) when there is one: an edited or stale processed
    table stops an experiment instead of silently changing its numbers."""
    csv_path = Path(csv_path)
    digest = sha256_bytes(csv_path.read_bytes())
    if digest != sidecar.get("table_sha256"):
        raise ChecksumError(
            f"{csv_path} has SHA-256 {digest}, but {csv_path.with_suffix('.json').name} "
            f"recorded {sidecar.get('table_sha256')} when it was written: the table was changed "
            f"after parsing. Delete {csv_path} and its .json and rerun to rebuild it from the "
            "raw file")
    if pinned is not None and digest != pinned:
        raise ChecksumError(
            f"{csv_path} has SHA-256 {digest}, not the pinned {pinned} ({key}). If you changed "
            f"how the table is built (e.g. the dataset's drop list), set {key} to the new value; "
            f"otherwise delete {csv_path} and its .json and rerun to rebuild it")


def load_table(csv_path, sidecar: dict | None = None):
    """Load a canonical table as (X, y): X a DataFrame whose nominal columns are categorical.
    Experiments verify it first (``verify_table``)."""
    csv_path = Path(csv_path)
    if sidecar is None:
        sidecar = json.loads(csv_path.with_suffix(".json").read_text())
    nominal = {a["name"]: a["values"] for a in sidecar["attributes"] if a["kind"] == "nominal"}
    dtypes = {name: str for name in nominal} | {LABEL: np.int64}
    frame = pd.read_csv(csv_path, dtype=dtypes, keep_default_na=False, na_values=[""])
    for name, values in nominal.items():
        frame[name] = pd.Categorical(frame[name], categories=values)
    y = frame.pop(LABEL).to_numpy()
    return frame, y
