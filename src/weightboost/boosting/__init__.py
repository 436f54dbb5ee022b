"""The boosting family: one loop (``core``), four sets of rules (``variants``), RegBoost and its
λ chosen by inner cross-validation (``regboost``), and Weight Decay with its C so chosen
(``selection``).

The classes are imported when first used: a job that boosts C4.5 trees loads neither RegBoost
nor the stumps (its tables do not depend on their code; pipeline.provenance).
"""

import importlib

from weightboost.kernel_cache import use_versioned_cache

use_versioned_cache()  # before any kernel is defined (libm, rules, variants)

__all__ = ["AdaBoost", "BoostingClassifier", "EpsilonBoost", "RegBoost", "RegBoostCV",
           "WeightBoost", "WeightDecay", "WeightDecayCV"]
_MODULES = {"BoostingClassifier": "core", "AdaBoost": "variants", "EpsilonBoost": "variants",
            "WeightBoost": "variants", "WeightDecay": "variants", "WeightDecayCV": "selection",
            "RegBoost": "regboost", "RegBoostCV": "regboost"}


def __getattr__(name):
    if name in _MODULES:
        return getattr(importlib.import_module(f"weightboost.boosting.{_MODULES[name]}"), name)
    raise AttributeError(f"module 'weightboost.boosting' has no attribute {name!r}")
