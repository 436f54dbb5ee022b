"""Data sets drawn from a distribution rather than read from a file: each generator is called as
``function(n, rng, **params)`` with a seeded ``numpy.random.Generator`` and returns the features
(a pandas DataFrame) and the labels (a numpy array of ±1).

``long_servedio`` is the distribution of Long & Servedio (2010), "Random classification noise
defeats all convex potential boosters", in the 21-feature form of later work (R package irboost,
``dataLS``); docs/protocol.md says where it differs from the paper's two-dimensional one.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

LS_FEATURES = 21
LS_FIRST = 11       # features 1-11 side with y on a puller, 12-21 against it
LS_PENALIZER_AGREE = (5, 6)   # a penalizer: how many of features 1-11 and of 12-21 equal y
LS_KINDS = ("large_margin", "puller", "penalizer")
LS_KIND_PROBABILITIES = (0.25, 0.25, 0.5)


def long_servedio_points(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray,
                                                                      np.ndarray]:
    """``n`` points: features in {-1, +1} (n x 21), labels ±1 (each with probability 1/2), and
    each point's kind (an index into ``LS_KINDS``). A large-margin point has every feature equal
    to its label; a puller features 1-11 equal to it and 12-21 opposite; a penalizer five of
    features 1-11 and six of 12-21, chosen at random, equal to it and the rest opposite. The
    features sum to 21, 1 or 1 times the label: sign(sum) is the label on every point."""
    y = rng.choice(np.array([-1, 1]), size=n)
    kind = rng.choice(len(LS_KINDS), size=n, p=LS_KIND_PROBABILITIES)
    agree = np.ones((n, LS_FEATURES), dtype=bool)                  # large margin
    agree[kind == 1, LS_FIRST:] = False                            # puller
    penalizers = np.flatnonzero(kind == 2)
    for block, (start, stop) in zip(LS_PENALIZER_AGREE, ((0, LS_FIRST), (LS_FIRST, LS_FEATURES))):
        width = stop - start
        # a random subset of `block` positions of the block per point: the first `block` of a
        # random permutation of the block's columns
        order = np.argsort(rng.random((len(penalizers), width)), axis=1)
        chosen = np.zeros((len(penalizers), width), dtype=bool)
        np.put_along_axis(chosen, order[:, :block], True, axis=1)
        agree[penalizers, start:stop] = chosen
    X = np.where(agree, y[:, None], -y[:, None]).astype(np.int64)
    return X, y.astype(np.int64), kind


def long_servedio(n: int, rng: np.random.Generator) -> tuple[pd.DataFrame, np.ndarray]:
    """The generator of data set ``long_servedio``: ``long_servedio_points`` as a table with
    columns x1..x21."""
    X, y, _ = long_servedio_points(n, rng)
    return pd.DataFrame(X, columns=[f"x{j + 1}" for j in range(LS_FEATURES)]), y


def generator_function(path: str):
    """The function a ``generator.function`` entry names by its import path."""
    import importlib

    from weightboost.errors import ConfigError

    module, _, name = path.rpartition(".")
    try:
        function = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError, ValueError) as exc:
        raise ConfigError(f"generator {path!r} cannot be imported ({exc}); give the dotted "
                          "path of a function: module.function") from None
    if not callable(function):
        raise ConfigError(f"generator {path!r} is not a function")
    return function


def generator_code(spec: dict) -> str | None:
    """What the function of a generated data set's entry is (None for a raw file's entry), part
    of its cells' keys and of its generation's rerun trigger: a function of the project's, the
    SHA-256 of its module's file; another's, as an outside learner's class is keyed
    (``weightboost.experiment.learners.class_code``: its distribution's version, or its files)."""
    import hashlib
    import importlib
    from pathlib import Path

    if "generator" not in spec:
        return None
    path = spec["generator"]["function"]
    if path.startswith("weightboost."):
        module = importlib.import_module(path.rpartition(".")[0])
        return "sha256 " + hashlib.sha256(Path(module.__file__).read_bytes()).hexdigest()
    from weightboost.experiment.learners import class_code

    return class_code(path)


def generator_seed(seed: int, dataset: str) -> np.random.SeedSequence:
    """The seed of a generated data set: ``experiment.seed`` and the data set's name (its CRC-32,
    as the folds and the noise take it)."""
    import zlib

    return np.random.SeedSequence([seed, zlib.crc32(dataset.encode("utf-8")), 2])


def generated_table(dataset: str, spec: dict, seed: int) -> tuple[pd.DataFrame, bytes]:
    """The canonical table of a generated data set: the generator's features (numeric), then
    ``label`` (±1), ``rows`` rows, in the canonical CSV form of a parsed UCI table."""
    from weightboost.data.uci import LABEL, to_canonical_csv
    from weightboost.errors import InputFileError

    generator = spec["generator"]
    function = generator_function(generator["function"])
    X, y = function(int(spec["rows"]), np.random.default_rng(generator_seed(seed, dataset)),
                    **(generator.get("params") or {}))
    y = np.asarray(y)
    where = f"datasets.{dataset}.generator ({generator['function']})"
    if not isinstance(X, pd.DataFrame) or len(X) != spec["rows"] or len(y) != spec["rows"]:
        raise InputFileError(f"{where} must return a DataFrame and labels of {spec['rows']} rows "
                             f"(datasets.{dataset}.rows)")
    if not set(np.unique(y)) <= {-1, 1} or LABEL in X.columns:
        raise InputFileError(f"{where} must return labels in {{-1, +1}} and no column {LABEL!r}")
    table = X.reset_index(drop=True).astype(float).assign(**{LABEL: y.astype(np.int64)})
    return table, to_canonical_csv(table)


def generated_sidecar(dataset: str, spec: dict, table: pd.DataFrame, table_bytes: bytes) -> dict:
    """The sidecar of a generated table, in a parsed table's form (every attribute numeric; the
    source names the generator)."""
    from weightboost.data.uci import LABEL
    from weightboost.fileio import sha256_bytes

    attributes = [{"name": name, "field": index, "kind": "numeric",
                   "missing": int(table[name].isna().sum())}
                  for index, name in enumerate(table.columns[:-1])]
    labels = table[LABEL]
    return {"dataset": dataset, "description": spec.get("description", ""),
            "source": {"file": f"generated by {spec['generator']['function']}", "sha256": "",
                       "route": "generator", "generator": spec["generator"]},
            "n_rows": int(len(table)), "n_attributes": len(attributes),
            "n_missing": int(sum(a["missing"] for a in attributes)), "attributes": attributes,
            "label": {"column": LABEL, "field": len(attributes), "mapping": {},
                      "counts": {"+1": int((labels == 1).sum()), "-1": int((labels == -1).sum())}},
            "table_sha256": sha256_bytes(table_bytes)}
