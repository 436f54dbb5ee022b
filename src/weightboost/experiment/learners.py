"""Learners from the config section ``algorithms``: name -> {learner, params}.

The names are what the result tables show (``C4.5``, ``AdaBoost``, ``WeightDecay``,
``EpsilonBoost``, ``WeightBoost``, ``RegBoost``, and any ablation a user adds). Boosters get
the experiment's ``rounds`` unless their params set ``n_estimators``, and the ``random_state``
the experiment derives for the fold (used only by readings that draw: resampling, inner CV);
``params.base`` holds the parameters of their base learner: C4.5's, or
``{learner: DecisionStump, ...}`` for decision stumps.

``check_learner`` builds an entry and checks its parameters (names, types, ranges) without
fitting anything: the workflow calls it for every entry before any job starts.
"""

from __future__ import annotations

import inspect

from weightboost.errors import ConfigError

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


def _imported(path: str):
    import importlib

    module, _, cls = path.partition(":")
    return getattr(importlib.import_module(module), cls)


def learner_class(name: str, kind):
    if kind not in LEARNERS:
        raise ConfigError(f"algorithms.{name}.learner is {kind!r}; use one of {list(LEARNERS)}")
    return _imported(LEARNERS[kind])


def base_learner(name: str, base: dict):
    """The base learner of ``params.base``: C4.5 with these parameters (e.g. {pruning: false}),
    or a decision stump with ``learner: DecisionStump``."""
    params = dict(base or {})
    kind = params.pop("learner", "C45")
    if kind not in BASE_LEARNERS:
        raise ConfigError(f"algorithms.{name}.params.base.learner is {kind!r}; use one of "
                          f"{list(BASE_LEARNERS)}")
    try:
        return _imported(BASE_LEARNERS[kind])(**params)
    except TypeError as exc:
        raise ConfigError(f"algorithms.{name}.params.base: {exc}") from None


def make_learner(name: str, spec: dict, rounds: int, random_state=None):
    kind = spec.get("learner")
    cls = learner_class(name, kind)
    params = dict(spec.get("params") or {})
    if kind != "C45":
        if "n_estimators" in inspect.signature(cls.__init__).parameters:  # the boosters
            params.setdefault("n_estimators", rounds)
        params.setdefault("random_state", random_state)
        if "base" in params:
            params["base_estimator"] = base_learner(name, params.pop("base"))
    try:
        return cls(**params)
    except TypeError as exc:
        raise ConfigError(f"algorithms.{name}.params: {exc}") from None


def check_learner(name: str, spec: dict, rounds: int):
    """Build the learner of entry ``name`` and check its parameters; a ConfigError names the
    entry and the parameter. Returns the (unfitted) learner."""
    learner = make_learner(name, spec, rounds)
    checks = [learner]
    base = getattr(learner, "base_estimator", None)
    if base is not None:
        checks.append(base)
    for estimator in checks:
        try:
            estimator._check_params()
        except ValueError as exc:
            where = "params.base" if estimator is base else "params"
            raise ConfigError(f"algorithms.{name}.{where}: {exc}") from None
    return learner
