"""Learners from the config section ``algorithms``: name -> {learner, params}.

The names are what the result tables show (``C4.5``, ``AdaBoost``, ``WeightBoost``, ...,
``RandomForest``). ``learner`` is one of the project's learners (``LEARNERS``) or the dotted
import path of any scikit-learn-compatible classifier, an *outside* learner
(``sklearn.ensemble.RandomForestClassifier``); ``params`` are its constructor arguments.

* The project's boosters get the experiment's ``rounds`` unless their params set
  ``n_estimators``; ``params.base`` holds the parameters of their base learner: C4.5's, or
  ``{learner: DecisionStump, ...}`` for decision stumps.
* An outside learner gets its own defaults, no rounds. A parameter that is itself a learner is
  written as an entry is: ``estimator: {learner: C45, params: {...}}``.
* Every learner whose constructor takes ``random_state`` gets the seed the experiment derives
  for the fold, unless its params set one (the project's boosters use it only when they draw:
  resampling, inner CV); so does every learner an outside learner holds whose
  ``random_state`` is unset (an ensemble that seeds its members overrides it).
* Nominal attributes (pandas' categorical columns of the UCI tables) reach the project's
  learners as they are. An entry that names an outside class gets them in one of three ways
  (docs/protocol.md §3.1): a learner with a ``categorical_features`` parameter
  (HistGradientBoosting) the table as it is, for its native support; a learner holding
  learners that take ``nominal_features`` (Bagging of C4.5) the category codes, marked nominal
  in each of those, so C4.5 keeps its multiway splits; any other one-hot columns.

An outside learner's code is not the project's, so a cell key cannot digest it: ``keyed_spec``
adds to the entry each outside class with its distribution and version, or, when no installed
distribution holds it or the distribution is an editable install, the SHA-256 of its top-level
module or package files (``class_code``); ``make_learner`` stops when the class it imports is
not the one the cell was keyed with.

Planning checks every entry without fitting anything (``weightboost.experiment.learner_checks``,
which no cell loads, so that a stricter check moves no cell key).
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import inspect
from importlib import metadata
from pathlib import Path

from weightboost.errors import ConfigError, ReproError

LEARNERS = {  # learner name -> "module:class", imported when an entry uses it
    "C45": "weightboost.c45:C45", "AdaBoost": "weightboost.boosting:AdaBoost",
    "WeightBoost": "weightboost.boosting:WeightBoost",
    "WeightDecay": "weightboost.boosting:WeightDecay",
    "EpsilonBoost": "weightboost.boosting:EpsilonBoost",
    "WeightDecayCV": "weightboost.boosting:WeightDecayCV",
    "RegBoost": "weightboost.boosting:RegBoost", "RegBoostCV": "weightboost.boosting:RegBoostCV",
    "BelkinNiyogi": "weightboost.semi_supervised:BelkinNiyogi",
    "KnnLabelSpreading": "weightboost.semi_supervised:KnnLabelSpreading",
}
BASE_LEARNERS = {"C45": "weightboost.c45:C45", "DecisionStump": "weightboost.stumps:DecisionStump"}
IMPORTS = "imports"  # the key of the outside classes in a keyed entry (``keyed_spec``)


def _imported(path: str):
    module, _, cls = path.partition(":")
    return getattr(importlib.import_module(module), cls)


def is_outside(kind) -> bool:
    """Whether ``learner: kind`` names a class by its import path, not one of ``LEARNERS``."""
    return isinstance(kind, str) and kind not in LEARNERS and "." in kind


def learner_class(name: str, kind):
    if kind in LEARNERS:
        return _imported(LEARNERS[kind])
    if not is_outside(kind):
        raise ConfigError(f"algorithms.{name}.learner is {kind!r}; use one of {list(LEARNERS)} "
                          "or the import path of a scikit-learn classifier, e.g. "
                          "sklearn.ensemble.RandomForestClassifier")
    module, _, attribute = kind.rpartition(".")
    try:
        cls = getattr(importlib.import_module(module), attribute, None)
    except ImportError as exc:
        raise ConfigError(f"algorithms.{name}.learner: {kind} does not import ({exc}); install "
                          "its package or fix the path") from None
    if not inspect.isclass(cls):
        raise ConfigError(f"algorithms.{name}.learner: module {module} has no class "
                          f"{attribute}")
    return cls


def _is_entry(value) -> bool:
    return isinstance(value, dict) and "learner" in value


def outside_paths(spec: dict) -> list[str]:
    """Every outside class an entry names, nested learners included, in the order written."""
    paths = [spec["learner"]] if is_outside(spec.get("learner")) else []
    params = spec.get("params") or {}
    base = params.get("base")
    if isinstance(base, dict) and is_outside(base.get("learner")):
        paths.append(base["learner"])
    for value in params.values():
        if _is_entry(value) and value is not base:
            paths += outside_paths(value)
    return list(dict.fromkeys(paths))


def _editable(distribution: str) -> bool:
    """Whether an installed distribution is an editable install (``pip install -e``), whose code
    changes without its version."""
    import json

    record = metadata.distribution(distribution).read_text("direct_url.json")
    return bool(record and json.loads(record).get("dir_info", {}).get("editable"))


@functools.lru_cache(maxsize=None)
def class_code(path: str) -> str:
    """What an outside class's code is: ``<distribution> <version>`` of the installed
    distribution that holds its top-level package; else (no distribution holds it, or an
    editable install, whose files change without its version) ``sha256 <digest>`` of its
    top-level module's file, or of every ``.py`` file of its top-level package (each file's
    path and bytes), so that any edit of that code gives new keys."""
    top = path.partition(".")[0]
    distributions = sorted(metadata.packages_distributions().get(top) or [])
    if distributions and not _editable(distributions[0]):
        return f"{distributions[0]} {metadata.version(distributions[0])}"
    root = importlib.import_module(top)
    if not hasattr(root, "__path__"):  # a module of its own
        return "sha256 " + hashlib.sha256(Path(root.__file__).read_bytes()).hexdigest()
    digest = hashlib.sha256()
    for folder in sorted(map(Path, root.__path__)):  # one, or a namespace package's several
        for source in sorted(folder.rglob("*.py")):
            digest.update(source.relative_to(folder).as_posix().encode() + b"\0")
            digest.update(hashlib.sha256(source.read_bytes()).digest())
    return "sha256 " + digest.hexdigest()


def keyed_spec(spec: dict) -> dict:
    """The entry as a cell key digests it: with ``imports`` (outside class -> ``class_code``)
    when it names an outside class; the project's entries as they are (their code is in the
    key's code digest)."""
    paths = outside_paths(spec)
    return {**spec, IMPORTS: {p: class_code(p) for p in paths}} if paths else spec


def _check_imports(name: str, spec: dict) -> None:
    for path, code in (spec.get(IMPORTS) or {}).items():
        if class_code(path) != code:
            raise ReproError(f"algorithms.{name}: {path} is {class_code(path)} here, but the "
                             f"cell was keyed with {code}: run the job where the workflow "
                             "planned it, or plan again")


def base_learner(name: str, base: dict, random_state=None):
    """The base learner of ``params.base``: C4.5 with these parameters (e.g. {pruning: false}),
    or a decision stump with ``learner: DecisionStump``, or an outside class by its path (which
    gets ``random_state`` unless the entry sets one)."""
    params = dict(base or {})
    kind = params.pop("learner", "C45")
    if is_outside(kind):
        cls = learner_class(f"{name}.params.base", kind)
        if random_state is not None and _takes(cls, "random_state"):
            params.setdefault("random_state", random_state)
    elif kind in BASE_LEARNERS:
        cls = _imported(BASE_LEARNERS[kind])
    else:
        raise ConfigError(f"algorithms.{name}.params.base.learner is {kind!r}; use one of "
                          f"{list(BASE_LEARNERS)} or an import path")
    try:
        return cls(**params)
    except TypeError as exc:
        raise ConfigError(f"algorithms.{name}.params.base: {exc}") from None


def _takes(cls, parameter: str) -> bool:
    return parameter in inspect.signature(cls.__init__).parameters


def _holds_entries(value) -> bool:
    return isinstance(value, (list, tuple)) and any(
        _is_entry(v) or _holds_entries(v) for v in value)


def _build(name: str, spec: dict, rounds: int, random_state):
    kind = spec.get("learner")
    cls = learner_class(name, kind)
    params = dict(spec.get("params") or {})
    if is_outside(kind):
        for key, value in params.items():
            where = f"algorithms.{name}.params.{key}"
            if _holds_entries(value):
                raise ConfigError(f"{where}: a list of learners is not supported; a parameter "
                                  "that is a learner is one entry, {learner: ..., params: ...}")
            if _is_entry(value):
                extra = sorted(set(value) - {"learner", "params"})
                if extra:
                    raise ConfigError(f"{where}: a learner entry has `learner` and `params` "
                                      f"only; move {extra} under `params`")
                params[key] = _build(f"{name}.params.{key}", value, rounds, None)
    elif kind != "C45":
        if _takes(cls, "n_estimators"):  # the boosters
            params.setdefault("n_estimators", rounds)
        if "base" in params:
            params["base_estimator"] = base_learner(name, params.pop("base"), random_state)
    if random_state is not None and _takes(cls, "random_state"):
        params.setdefault("random_state", random_state)
    try:
        learner = cls(**params)
    except TypeError as exc:
        raise ConfigError(f"algorithms.{name}.params: {exc}") from None
    if random_state is not None and is_outside(kind):  # its nested learners too
        unseeded = [k for k, v in learner.get_params(deep=True).items()
                    if k.endswith("__random_state") and v is None]
        learner.set_params(**dict.fromkeys(unseeded, random_state))
    return learner


def make_learner(name: str, spec: dict, rounds: int, random_state=None, nominal=None):
    """The learner of entry ``name`` (a keyed entry's ``imports`` are checked against the
    classes this process imports). ``nominal``: the training table's categorical columns
    (name -> categories, in column order), which an outside learner gets as the module's
    docstring says."""
    _check_imports(name, spec)
    learner = _build(name, spec, rounds, random_state)
    if nominal and outside_paths(spec):
        return with_nominal(learner, nominal)
    return learner


def nested_nominal(learner) -> list[str]:
    return [key for key in learner.get_params(deep=True) if key.endswith("__nominal_features")]


def with_nominal(learner, nominal: dict):
    """A learner that is or holds an outside class, fed the table's nominal columns (name ->
    categories) in the one way that suits it: as they are (native categorical support), as
    codes marked nominal for the learners it holds that take ``nominal_features`` (C4.5), or
    one-hot. A missing or unknown nominal value is a missing value (codes) or a row of zeros
    (one-hot); the UCI sets have none."""
    import numpy as np
    from sklearn.compose import ColumnTransformer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, OrdinalEncoder

    if "categorical_features" in learner.get_params(deep=False):
        return learner
    columns, categories = list(nominal), [list(c) for c in nominal.values()]
    nested = nested_nominal(learner)
    if nested:  # the transformer puts the nominal columns first (learner_checks: all of them)
        learner.set_params(**{key: list(range(len(columns))) for key in nested})
        encoder = OrdinalEncoder(categories=categories, dtype=np.float64,
                                 handle_unknown="use_encoded_value", unknown_value=np.nan)
    else:
        encoder = OneHotEncoder(categories=categories, handle_unknown="ignore",
                                sparse_output=False, dtype=np.float64)
    return make_pipeline(ColumnTransformer([("nominal", encoder, columns)],
                                           remainder="passthrough"), learner)


def nominal_columns(X) -> dict:
    """The categorical columns of a table (name -> categories), for ``make_learner``."""
    import pandas as pd

    if not isinstance(X, pd.DataFrame):
        return {}
    return {c: list(X[c].cat.categories) for c in X.columns
            if isinstance(X[c].dtype, pd.CategoricalDtype)}
