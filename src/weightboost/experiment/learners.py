"""Learners from the config section ``algorithms``: name -> {learner, params}.

The names are what the result tables show (``C4.5``, ``AdaBoost``, ``WeightDecay``,
``EpsilonBoost``, ``WeightBoost``, and any ablation a user adds). Boosters get the experiment's
``rounds`` unless their params set ``n_estimators``, and the ``random_state`` the experiment
derives for the fold (used only by readings that draw: resampling, inner CV); ``params.base``
holds the parameters of their C4.5 base learner.

``check_learner`` builds an entry and checks its parameters (names, types, ranges) without
fitting anything: the workflow calls it for every entry before any job starts.
"""

from __future__ import annotations

from weightboost.errors import ConfigError

LEARNERS = ("C45", "AdaBoost", "WeightBoost", "WeightDecay", "EpsilonBoost", "WeightDecayCV")


def learner_class(name: str, kind):
    from weightboost.boosting import (AdaBoost, EpsilonBoost, WeightBoost, WeightDecay,
                                      WeightDecayCV)
    from weightboost.c45 import C45

    classes = {"C45": C45, "AdaBoost": AdaBoost, "WeightBoost": WeightBoost,
               "WeightDecay": WeightDecay, "EpsilonBoost": EpsilonBoost,
               "WeightDecayCV": WeightDecayCV}
    if kind not in classes:
        raise ConfigError(f"algorithms.{name}.learner is {kind!r}; use one of {list(classes)}")
    return classes[kind]


def make_learner(name: str, spec: dict, rounds: int, random_state=None):
    from weightboost.c45 import C45

    kind = spec.get("learner")
    cls = learner_class(name, kind)
    params = dict(spec.get("params") or {})
    if kind != "C45":
        params.setdefault("n_estimators", rounds)
        params.setdefault("random_state", random_state)
        if "base" in params:  # parameters of the C4.5 base learner, e.g. {pruning: false}
            try:
                params["base_estimator"] = C45(**(params.pop("base") or {}))
            except TypeError as exc:
                raise ConfigError(f"algorithms.{name}.params.base: {exc}") from None
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
