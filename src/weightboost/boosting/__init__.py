"""The boosting family: one loop (``core``) and four sets of rules (``variants``)."""

from weightboost.boosting.core import BoostingClassifier
from weightboost.boosting.variants import AdaBoost, EpsilonBoost, WeightBoost, WeightDecay

__all__ = ["AdaBoost", "BoostingClassifier", "EpsilonBoost", "WeightBoost", "WeightDecay"]
