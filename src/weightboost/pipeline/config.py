"""Loading and checking the pipeline configuration: the JSON schema
(``workflow/schemas/config.schema.yaml``) checks types and ranges, this module the checks that
span several keys (every experiment dataset has a spec, every spec is self-consistent).
"""

from __future__ import annotations

from pathlib import Path

import yaml

from weightboost.data.spec import DatasetSpec
from weightboost.errors import ConfigError, UnknownDatasetError
from weightboost.fileio import read_yaml

SCHEMA_PATH = Path(__file__).resolve().parents[3] / "workflow" / "schemas" / "config.schema.yaml"


def add_to_path(directory) -> None:
    """Import modules from ``directory`` here and in every job (``PYTHONPATH``, inherited)."""
    import os
    import sys

    directory = str(directory)
    if directory not in sys.path:
        sys.path.insert(0, directory)
    rest = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p != directory]
    os.environ["PYTHONPATH"] = os.pathsep.join([directory, *rest])


def dataset_spec(config: dict, name: str) -> DatasetSpec:
    """The spec of dataset ``name``; an unknown name is a clear error."""
    datasets = config.get("datasets", {})
    if name not in datasets:
        raise UnknownDatasetError(name, datasets)
    return DatasetSpec.from_config(name, datasets[name])


def check_config(config: dict) -> dict:
    """Cross-key checks; returns ``config`` unchanged so calls can be chained."""
    for name in config.get("experiment", {}).get("datasets", []):
        if name not in config.get("datasets", {}):
            raise ConfigError(
                f"experiment.datasets names {name!r}, which has no spec under 'datasets' "
                f"(known: {', '.join(sorted(config.get('datasets', {})))}); fix the name or "
                "add a spec")
    for name, entry in config.get("datasets", {}).items():
        if "generator" not in entry:  # a generated data set has no raw file to lay out
            dataset_spec(config, name)
    known = config.get("algorithms", {})
    for name in config.get("experiment", {}).get("algorithms", []) + \
            config.get("reuters_study", {}).get("algorithms", []):
        if name not in known:
            raise ConfigError(
                f"experiment.algorithms or reuters_study.algorithms names {name!r}, which is "
                f"not a key of the config section 'algorithms' (known: {', '.join(sorted(known))}"
                "); fix the name or add an entry {learner: ..., params: ...}")
    check_noise_levels(config)
    check_paper_rounds(config)
    check_folds(config)
    return config


def check_noise_levels(config: dict) -> None:
    """Two noise levels that differ must differ beyond ``numpy.isclose``: cell paths write a
    level exactly, but the tables and claims match levels with ``isclose``, so two such levels
    would have cells apart and rows together (duplicated folds, a wrong sd)."""
    import numpy as np

    lists = [("experiment.noise_levels", config.get("experiment", {}).get("noise_levels", []))]
    for section in ("sensitivity", "regboost"):
        study = config.get(section) or {}
        lists.append((f"{section}.noise_levels", study.get("noise_levels", [])))
        lists += [(f"{section}.readings.{reading}.noise_levels", options["noise_levels"])
                  for reading, options in (study.get("readings") or {}).items()
                  if isinstance(options, dict) and "noise_levels" in options]
    seen = []  # (key, level)
    for key, levels in lists:
        for level in levels:
            for first_key, first in seen:
                if float(first) != float(level) and np.isclose(float(first), float(level)):
                    raise ConfigError(f"{key} has {level!r}, which the tables cannot tell from "
                                      f"{first!r} of {first_key}: use the same value for one "
                                      "level everywhere, or levels further apart")
            seen.append((key, level))


def check_paper_rounds(config: dict) -> None:
    """Every ``reuters_study.paper_rounds`` entry names a study algorithm and a T the study
    computes (T <= reuters_study.rounds): otherwise the 'paper' rows of Table 3 would be
    silently missing."""
    study = config.get("reuters_study") or {}
    rounds, algorithms = study.get("rounds", 100), study.get("algorithms", [])
    for name, T in (study.get("paper_rounds") or {}).items():
        if name not in algorithms:
            raise ConfigError(f"reuters_study.paper_rounds names {name!r}, which is not one of "
                              f"reuters_study.algorithms ({', '.join(algorithms)}): fix the name "
                              "or add the algorithm")
        if T > rounds:
            raise ConfigError(f"reuters_study.paper_rounds.{name} is {T}, above "
                              f"reuters_study.rounds ({rounds}): the study computes T = 1..{rounds} "
                              f"only; raise reuters_study.rounds or lower the paper's T")


def check_folds(config: dict) -> None:
    """A k-fold CV (the UCI grid's and the sensitivity study's, RegBoost's) needs at least k
    rows (the spec's ``rows``)."""
    experiment, regboost = config.get("experiment", {}), config.get("regboost") or {}
    grid = set(experiment.get("datasets", [])) | set((config.get("sensitivity") or {}).get(
        "datasets", []))
    for key, k, names in (("experiment.folds", experiment.get("folds", 10), sorted(grid)),
                          ("regboost.folds", regboost.get("folds", 10),
                           regboost.get("datasets", []))):
        for name in names:
            check_fold_count(key, k, name,
                             rows=(config.get("datasets", {}).get(name) or {}).get("rows"))


def check_fold_count(key: str, k: int, name: str, rows: int | None = None,
                     counts: dict | None = None) -> None:
    """Stop unless dataset ``name`` can be split into ``k`` folds (config key ``key``): at least
    ``k`` rows, and (stratified folds) a class with at least ``k`` members (``counts``, the
    label counts of its parsed table's sidecar)."""
    if rows is not None and k > rows:
        raise ConfigError(f"{key} is {k}, but dataset {name} has {rows} rows: a {k}-fold "
                          f"cross-validation needs at least {k}; lower {key} or leave {name} out")
    if counts and k > max(counts.values()):
        raise ConfigError(f"{key} is {k}, but no class of dataset {name} has {k} members "
                          f"({', '.join(f'{c}: {n}' for c, n in counts.items())}): stratified "
                          f"folds cannot be built; lower {key}")


def check_learners(config: dict) -> dict:
    """Every algorithm entry and every sensitivity cell builds a learner whose parameters are in
    range (imports the learners: slower than ``check_config``, so called once per run)."""
    from weightboost.experiment import barrier, regboost
    from weightboost.experiment.learner_checks import check_learner
    from weightboost.experiment.sensitivity import check_study

    rounds = config.get("experiment", {}).get("rounds", 100)
    for name, spec in config.get("algorithms", {}).items():
        check_learner(name, spec, rounds)
    check_study(config)
    regboost.check_study(config)
    barrier.check_study(config)
    _check_round_studies(config)
    return config


def check_missing_values(config: dict, parsed: dict) -> None:
    """A learner that takes no missing values, in the UCI grid or the sensitivity study, with a
    data set that has them (``parsed``: dataset -> sidecar of the tables parsed so far; the
    RegBoost study imputes or drops them itself, its ``missing``)."""
    from weightboost.experiment import learner_checks, sensitivity

    experiment = config["experiment"]
    learner_checks.check_missing_values(config, parsed, "experiment.datasets",
                                        experiment["datasets"], experiment["algorithms"])
    if config.get("sensitivity"):
        learner_checks.check_missing_values(
            config, parsed, "sensitivity.datasets", sensitivity.study_section(config)["datasets"],
            sensitivity.plan(config).cell)


def _check_round_studies(config: dict) -> None:
    """The Reuters and RegBoost studies read a booster's rounds (its test error or F1 after
    each, ``staged_predict``), on sparse matrices for Reuters: an outside learner runs in the
    UCI grid and the sensitivity study only."""
    from weightboost.experiment import regboost
    from weightboost.experiment.cell_names import parse_cell_name
    from weightboost.experiment.learners import outside_paths
    from weightboost.experiment.sensitivity import reuters_plan

    studies = [("reuters_study.algorithms", (config.get("reuters_study") or {}).get(
        "algorithms", []))]
    if (config.get("sensitivity") or {}).get("reuters"):  # a reading's `replace` included
        studies.append(("the sensitivity study's Reuters rerun (sensitivity.reuters)",
                        [parse_cell_name(c)[0] for c in reuters_plan(config).cell]))
    if config.get("regboost"):
        studies.append(("regboost (its algorithms, readings and semi_supervised)",
                        regboost.used_algorithms(regboost.study_section(config))))
    for key, names in studies:
        for name in dict.fromkeys(names):
            outside = outside_paths(config["algorithms"].get(name) or {})
            if outside:
                raise ConfigError(f"{key} runs {name!r}, which names the outside class "
                                  f"{outside[0]}: the study reads a booster's rounds; run "
                                  "outside learners in experiment.algorithms or a sensitivity "
                                  "reading")


SPELLINGS = {"true": True, "yes": True, "on": True, "false": False, "no": False, "off": False}


def coerce_flags(config: dict) -> dict:
    """Turn the spellings a user types on the command line (``--config cell_archive=false``:
    Snakemake turns only ``True`` and ``False`` into booleans) into booleans, for the top-level
    keys that the schema types as boolean; other values are left to the schema's error."""
    properties = read_yaml(SCHEMA_PATH).get("properties", {})
    for key, rule in properties.items():
        value = config.get(key)
        if rule.get("type") == "boolean" and isinstance(value, str) \
                and value.strip().lower() in SPELLINGS:
            config[key] = SPELLINGS[value.strip().lower()]
    return config


def validate_schema(config: dict) -> None:
    """Validate against the JSON schema, with an error that names the offending key."""
    import jsonschema

    schema = read_yaml(SCHEMA_PATH)
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(config), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        key = ".".join(str(p) for p in first.absolute_path) or "(top level)"
        raise ConfigError(f"config key {key}: {first.message}. See config/README.md")


def load_config(*paths: str | Path) -> dict:
    """The config of ``paths``, later files merged over earlier ones as Snakemake's
    ``--configfile`` merges them, validated and checked."""
    config = {}
    for path in map(Path, paths):
        try:
            part = read_yaml(path)
        except FileNotFoundError:
            raise ConfigError(f"config file {path} does not exist") from None
        except yaml.YAMLError as exc:
            raise ConfigError(f"config file {path} is not valid YAML: {exc}") from None
        if config:  # an overlay (importing Snakemake costs 0.2 s: only then)
            from snakemake.utils import update_config

            update_config(config, part)
        else:
            config = part
    validate_schema(config)
    return check_config(config)
