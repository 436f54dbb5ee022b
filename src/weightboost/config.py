"""Loading and checking the pipeline configuration.

The JSON schema (``workflow/schemas/config.schema.yaml``) checks types and ranges; this module
adds the checks that span several keys (every experiment dataset has a spec, every spec is
self-consistent). The Snakemake workflow and the command line both call ``check_config``.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from weightboost.data.spec import DatasetSpec
from weightboost.errors import ConfigError, UnknownDatasetError

PROJECT_ROOT = Path(__file__).resolve().parents[2]
SCHEMA_PATH = PROJECT_ROOT / "workflow" / "schemas" / "config.schema.yaml"


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
    for name in config.get("datasets", {}):
        dataset_spec(config, name)
    known = config.get("algorithms", {})
    for name in config.get("experiment", {}).get("algorithms", []) + \
            config.get("reuters_study", {}).get("algorithms", []):
        if name not in known:
            raise ConfigError(
                f"experiment.algorithms or reuters_study.algorithms names {name!r}, which is "
                f"not a key of the config "
                f"section 'algorithms' (known: {', '.join(sorted(known))}); fix the name or add "
                "an entry {learner: ..., params: ...}")
    return config


def check_learners(config: dict) -> dict:
    """Every algorithm entry and every sensitivity cell builds a learner whose parameters are in
    range (imports the learners: slower than ``check_config``, so called once per run)."""
    from weightboost.experiment import regboost
    from weightboost.experiment.learners import check_learner
    from weightboost.experiment.sensitivity import check_study

    rounds = config.get("experiment", {}).get("rounds", 100)
    for name, spec in config.get("algorithms", {}).items():
        check_learner(name, spec, rounds)
    check_study(config)
    regboost.check_study(config)
    return config


def validate_schema(config: dict, schema_path: Path = SCHEMA_PATH) -> None:
    """Validate against the JSON schema, with an error that names the offending key."""
    import jsonschema

    schema = yaml.safe_load(Path(schema_path).read_text())
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(config), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        key = ".".join(str(p) for p in first.absolute_path) or "(top level)"
        raise ConfigError(f"config key {key}: {first.message}. See config/README.md")


def load_config(path: str | Path) -> dict:
    path = Path(path)
    try:
        config = yaml.safe_load(path.read_text())
    except FileNotFoundError:
        raise ConfigError(f"config file {path} does not exist") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"config file {path} is not valid YAML: {exc}") from None
    validate_schema(config)
    return check_config(config)
