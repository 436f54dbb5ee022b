"""Learners from the config section ``algorithms``: name -> {learner, params}.

The names are what the result tables show (``C4.5``, ``AdaBoost``, ``WeightDecay``,
``EpsilonBoost``, ``WeightBoost``, and any ablation a user adds). Boosters get the experiment's
``rounds`` unless their params set ``n_estimators``; ``params.base`` holds the parameters of
their C4.5 base learner.
"""

from __future__ import annotations

from weightboost.errors import ConfigError

LEARNERS = ("C45", "AdaBoost", "WeightBoost", "WeightDecay", "EpsilonBoost")


def make_learner(name: str, spec: dict, rounds: int):
    from weightboost.boosting import AdaBoost, EpsilonBoost, WeightBoost, WeightDecay
    from weightboost.c45 import C45

    classes = {"C45": C45, "AdaBoost": AdaBoost, "WeightBoost": WeightBoost,
               "WeightDecay": WeightDecay, "EpsilonBoost": EpsilonBoost}
    kind = spec.get("learner")
    if kind not in classes:
        raise ConfigError(f"algorithms.{name}.learner is {kind!r}; use one of {list(classes)}")
    params = dict(spec.get("params") or {})
    if kind != "C45":
        params.setdefault("n_estimators", rounds)
        if "base" in params:  # parameters of the C4.5 base learner, e.g. {pruning: false}
            params["base_estimator"] = C45(**params.pop("base"))
    try:
        return classes[kind](**params)
    except TypeError as exc:
        raise ConfigError(f"algorithms.{name}.params: {exc}") from None
