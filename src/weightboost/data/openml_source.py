"""The OpenML route for a UCI dataset (docs/protocol.md §1.1, source 3).

``openml.datasets.get_dataset`` downloads (or reads from its cache) the dataset; its columns
are put back in the UCI file's field order and written in the UCI file's own layout, so that
exactly one parser builds every canonical table. Because OpenML re-encodes the data, the raw
bytes cannot match the UCI checksum: the copy is verified later by the canonical table's
checksum (``table_sha256`` in the spec).

Config (``datasets.<name>.openml``): ``data_id``; optional ``target`` (default: the
dataset's default target); optional ``columns``, the OpenML feature names in the order of the
spec's kept attribute fields (default: OpenML's feature order); optional ``label_values`` and
``values`` (``{field index: {openml value: uci value}}``) to translate codes.
"""

from __future__ import annotations

import math

from weightboost.data.sources import FetchSettings, SourceSkipped
from weightboost.data.spec import DatasetSpec
from weightboost.errors import ConfigError

OPENML_SERVER = "https://www.openml.org/api/v1/xml"


def load_openml_frame(data_id: int, settings: FetchSettings):
    """Download (or read from the cache) an OpenML dataset; return (dataset, full frame)."""
    try:
        import openml
    except ImportError as exc:  # pragma: no cover - openml is a declared dependency
        raise SourceSkipped(f"the openml package is not installed ({exc})") from exc
    if settings.openml_cache:
        openml.config.set_root_cache_directory(settings.openml_cache)
    # always set: openml keeps the server in module state, and the cache path depends on it
    openml.config.server = settings.openml_server or OPENML_SERVER
    openml.config.connection_n_retries = settings.retry.attempts
    try:
        dataset = openml.datasets.get_dataset(
            int(data_id), download_data=True, download_qualities=False,
            download_features_meta_data=False)
        frame, *_ = dataset.get_data()
    except Exception as exc:  # network errors, server errors, missing cache files
        raise SourceSkipped(f"OpenML data id {data_id}: {type(exc).__name__}: {exc}") from exc
    return dataset, frame


def fetch_openml_as_uci(spec: DatasetSpec, settings: FetchSettings):
    """Return (bytes in the UCI file's layout, location string) for ``spec`` from OpenML."""
    options = spec.openml
    if not options or "data_id" not in options:
        raise SourceSkipped(f"{spec.key('openml')}.data_id is not set")
    dataset, frame = load_openml_frame(options["data_id"], settings)
    target = options.get("target") or dataset.default_target_attribute
    if target not in frame.columns:
        raise ConfigError(f"{spec.key('openml')}.target {target!r} is not a column of OpenML "
                          f"dataset {options['data_id']} (columns: {list(frame.columns)})")
    features = options.get("columns") or [c for c in frame.columns if c != target]
    kept = spec.attribute_fields
    if len(features) != len(kept):
        raise ConfigError(
            f"OpenML dataset {options['data_id']} has {len(features)} feature columns but "
            f"dataset {spec.name} keeps {len(kept)} fields; list the matching OpenML columns "
            f"in {spec.key('openml')}.columns")
    source_of = dict(zip(kept, features))
    value_maps = {int(k): v for k, v in (options.get("values") or {}).items()}
    label_values = options.get("label_values") or {}
    placeholder = spec.missing if spec.missing is not None else "?"
    separator = " " if spec.separator == "whitespace" else spec.separator

    lines = []
    for record in frame.to_dict("records"):
        fields = []
        for index in range(spec.fields):
            if index == spec.label:
                value = str(record[target])
                fields.append(str(label_values.get(value, value)))
            elif index in source_of:
                fields.append(_format(record[source_of[index]], spec.kind(index),
                                      value_maps.get(index, {}), placeholder))
            else:
                fields.append(placeholder)
        lines.append(separator.join(fields))
    location = f"openml:{options['data_id']} ({dataset.name} v{dataset.version})"
    return ("\n".join(lines) + "\n").encode("utf-8"), location


def _format(value, kind: str, value_map: dict, placeholder: str) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return placeholder
    if kind == "numeric":
        return repr(float(value))
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value)
    return str(value_map.get(text, text))
