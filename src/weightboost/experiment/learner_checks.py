"""Each learner entry checked while the workflow is planned, before any job: built, and its
parameters validated (the project's ``_check_params``, scikit-learn's parameter validation where
a class has it, every learner it holds included), an outside class required to be a classifier,
and an ensemble that feeds C4.5 nominal codes required to give each member every column.

A learner whose scikit-learn tags say it takes no missing values is refused, before any job,
with a data set of its study that has them (``check_missing_values``).

Planning code only: no cell loads this module, so a stricter check moves no cell key
(``weightboost.pipeline.provenance.TABLE_SET_CODE``). The entries themselves are built by
``weightboost.experiment.learners``.
"""

from __future__ import annotations

import inspect

from weightboost.errors import ConfigError
from weightboost.experiment.learners import is_outside, make_learner, nested_nominal


def _estimators(learner, where="params"):
    """(config key, learner) for the learner and every learner it holds as a parameter."""
    yield where, learner
    params = learner.get_params(deep=False) if hasattr(learner, "get_params") else {}
    for key, value in params.items():
        if hasattr(value, "fit") and not inspect.isclass(value):
            yield from _estimators(value, f"{where}.{'base' if key == 'base_estimator' else key}")


def _outside_entries(spec: dict, prefix: str = ""):
    """(config key below the entry, import path) of every outside class an entry names,
    nested ones included: ``learner``, ``params.estimator.learner``, ..."""
    if is_outside(spec.get("learner")):
        yield f"{prefix}learner", spec["learner"]
    for key, value in (spec.get("params") or {}).items():
        if isinstance(value, dict) and "learner" in value:
            yield from _outside_entries(value, f"{prefix}params.{key}.")


def _check_imports(name: str, spec: dict) -> None:
    """Import the module of every outside class of the entry, so that a module that does not
    import (a syntax error, a missing dependency, an error while it runs) stops planning in one
    line naming the config key, the module, its file and line, and the error, instead of the
    import machinery's stack."""
    import importlib
    import traceback

    for key, path in _outside_entries(spec):
        module = path.rpartition(".")[0]
        try:
            importlib.import_module(module)
        except Exception as exc:  # noqa: BLE001 - whatever the user's module raises
            if isinstance(exc, ModuleNotFoundError) and exc.name and \
                    (module == exc.name or module.startswith(exc.name + ".")):
                raise ConfigError(f"algorithms.{name}.{key}: {path} does not import ({exc}); "
                                  "install its package or fix the path") from None
            if isinstance(exc, SyntaxError):
                place = f"{exc.filename}, line {exc.lineno}"
                error = f"SyntaxError: {exc.msg}"
            else:
                frames = traceback.extract_tb(exc.__traceback__)
                ours = [f for f in frames if "importlib" not in f.filename] or frames
                place = f"{ours[-1].filename}, line {ours[-1].lineno}"
                error = f"{type(exc).__name__}: {exc}"
            raise ConfigError(f"algorithms.{name}.{key}: module {module} does not import "
                              f"({place}: {error}); fix the module or install what it "
                              "imports") from None


def check_learner(name: str, spec: dict, rounds: int):
    """Build the learner of entry ``name`` and check its parameters; a ConfigError names the
    entry and the parameter. Returns the (unfitted) learner."""
    _check_imports(name, spec)
    learner = make_learner(name, spec, rounds)
    if is_outside(spec.get("learner")):
        _check_classifier(name, learner)
    for where, estimator in _estimators(learner):
        _check_feature_subsets(name, where, estimator)
        if hasattr(estimator, "_check_params"):  # the project's learners
            check = estimator._check_params
        elif hasattr(estimator, "_parameter_constraints"):  # scikit-learn's validation
            check = estimator._validate_params
        else:
            continue
        try:
            check()
        except (ValueError, TypeError) as exc:
            raise ConfigError(f"algorithms.{name}.{where}: {exc}") from None
    return learner


def _every_column(max_features) -> bool:
    """Whether Bagging's ``max_features`` gives each member every column (an int counts
    columns, a float is a fraction)."""
    return max_features is None or (isinstance(max_features, float) and max_features == 1.0)


def _check_feature_subsets(name: str, where: str, learner) -> None:
    """The codes route names nominal columns by position (``learners.with_nominal``): a learner
    that gives the learners it holds a subset of the columns (Bagging's ``max_features`` below
    1.0, ``bootstrap_features``) would mark other columns nominal."""
    params = learner.get_params(deep=False) if hasattr(learner, "get_params") else {}
    if nested_nominal(learner) and (params.get("bootstrap_features")
                                    or not _every_column(params.get("max_features", 1.0))):
        raise ConfigError(f"algorithms.{name}.{where}: the learners it holds read nominal "
                          "attributes by column position, which a subset of the columns per "
                          "learner (max_features other than 1.0, bootstrap_features) reorders; "
                          "keep max_features: 1.0 and bootstrap_features: false")


def _check_classifier(name: str, learner) -> None:
    from sklearn.base import is_classifier

    try:
        classifier = is_classifier(learner)
    except Exception:  # noqa: BLE001 - a class outside scikit-learn's conventions
        classifier = False
    if not (classifier and hasattr(learner, "fit") and hasattr(learner, "predict")):
        raise ConfigError(f"algorithms.{name}.learner: {type(learner).__module__}."
                          f"{type(learner).__name__} is not a scikit-learn classifier "
                          "(is_classifier is false): the cells fit and predict labels")


def refuses_missing(learner, where: str = "params") -> str | None:
    """Where (``params`` for the learner itself, ``params.base``... for one it holds) the first
    learner is whose scikit-learn tags say it takes no missing values; None if all take them.
    The learners held are asked too: a booster's own tag does not say what its base learner
    takes."""
    from sklearn.utils import get_tags

    for key, estimator in _estimators(learner, where):
        try:
            takes = get_tags(estimator).input_tags.allow_nan
        except Exception:  # noqa: BLE001 - a class outside scikit-learn's conventions
            takes = False
        if not takes:
            return key
    return None


def missing_count(config: dict, dataset: str, parsed: dict) -> int | None:
    """How many missing values ``dataset`` has: its ``missing_values`` (checked by its parse),
    else its parsed table's sidecar, else 0 where its spec has no missing-value marker; None
    when only its parse can tell."""
    spec = config["datasets"][dataset]
    if spec.get("missing_values") is not None:
        return int(spec["missing_values"])
    if dataset in parsed:
        return int(parsed[dataset]["n_missing"])
    if "generator" in spec:  # its `missing` is the schema's default, of no raw file
        return None
    return 0 if "missing" in spec and spec["missing"] is None else None


def check_missing_values(config: dict, parsed: dict, key: str, datasets, cells) -> None:
    """Every learner of ``cells`` (a study's cell names) that takes no missing values is listed
    (config key ``key``) with ``datasets`` that have none; ``parsed``: dataset -> sidecar of
    the tables parsed so far."""
    from weightboost.experiment.cell_names import parse_cell_name, resolve_spec

    for cell in dict.fromkeys(cells):
        spec = resolve_spec(config["algorithms"], cell)
        where = refuses_missing(make_learner(cell, spec, config["experiment"]["rounds"]))
        if where is None:
            continue
        for dataset in datasets:
            count = missing_count(config, dataset, parsed)
            if count == 0:
                continue
            entry = f"algorithms.{parse_cell_name(cell)[0]}"
            entry += "" if where == "params" else f".{where}"
            has = (f"has {count} (datasets.{dataset}.missing_values or its parsed table)"
                   if count is not None else
                   f"may have some (no count before its table is made; set "
                   f"datasets.{dataset}.missing_values, or run the target `data` first)")
            raise ConfigError(f"{entry} takes no missing values (its scikit-learn tag "
                              f"allow_nan), but {key} lists {dataset}, which {has}: leave "
                              f"{dataset} out of {key} for it, or use a learner that takes "
                              "missing values (e.g. sklearn.ensemble."
                              "HistGradientBoostingClassifier)")
