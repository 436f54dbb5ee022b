"""Cell names: how a cell of a study names the config entry it runs and the parameters it
changes (``WeightBoost~normalize=mean``; ``weightboost.experiment.sensitivity`` explains the
readings that make them). Planning and the cell jobs both read them, so this grammar is cell
code (``TABLE_SET_CODE``) and nothing else is.
"""

from __future__ import annotations

import functools

import numpy as np

from weightboost.errors import ConfigError
from weightboost.fileio import parse_yaml

SEPARATOR = "~"


def format_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, np.integer)):
        return str(int(value))  # exact: a seed of 10 digits must not turn into 2.18444e+09
    if isinstance(value, float):
        return format(value, "g")
    return str(value)


def cell_name(entry: str, overrides: dict) -> str:
    if not overrides:
        return entry
    return entry + SEPARATOR + ",".join(f"{k}={format_value(v)}"
                                        for k, v in sorted(overrides.items()))


def stop_twin(name: str) -> str | None:
    """The cell that cell ``name`` is with ``on_degenerate`` back at its default (stop): what a
    restart cell equals until its first degenerate round (weightboost.experiment.study_cells);
    None for a cell that does not restart."""
    entry, overrides = parse_cell_name(name)
    if overrides.pop("on_degenerate", None) != "restart":
        return None
    return cell_name(entry, overrides)


def parse_cell_name(name: str) -> tuple[str, dict]:
    entry, overrides = _parsed_cell_name(name)
    return entry, dict(overrides)


@functools.lru_cache(maxsize=None)
def _parsed_cell_name(name: str) -> tuple[str, tuple]:
    """(entry, override items): a workflow's parse resolves each name hundreds of times."""
    entry, _, rest = name.partition(SEPARATOR)
    overrides = []
    for part in filter(None, rest.split(",")):
        key, _, value = part.partition("=")
        overrides.append((key, parse_yaml(value)))
    return entry, tuple(overrides)


def resolve_spec(algorithms: dict, name: str) -> dict:
    """The config entry a cell name runs, with its overrides merged into ``params``."""
    entry, overrides = parse_cell_name(name)
    if entry not in algorithms:
        raise ConfigError(f"unknown algorithm {entry!r}: not a key of the config section "
                          f"'algorithms' (known: {sorted(algorithms)})")
    spec = dict(algorithms[entry])
    spec["params"] = {**(spec.get("params") or {}), **overrides}
    return spec
