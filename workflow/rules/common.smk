# Helpers shared by the rules: config checks and the per-dataset parameters.
import os

from weightboost.config import check_config, dataset_spec
from weightboost.errors import ReproError

try:
    check_config(config)
except ReproError as exc:
    raise WorkflowError(f"invalid config: {exc}")

UCI_DATASETS = sorted(config["datasets"])


def uci_spec(wildcards):
    """The config entry of a dataset; an unknown name stops with a clear message."""
    try:
        dataset_spec(config, wildcards.dataset)
    except ReproError as exc:
        raise WorkflowError(str(exc))
    return config["datasets"][wildcards.dataset]


def fetch_config():
    """The part of the config that decides where raw files come from."""
    return {"mirror": config.get("mirror"), "download": config.get("download", {})}
