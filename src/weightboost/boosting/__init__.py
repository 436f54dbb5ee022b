"""The boosting family: one loop (``core``), four sets of rules (``variants``) and Weight Decay
with its C chosen by inner cross-validation (``selection``)."""

from weightboost.boosting.core import BoostingClassifier
from weightboost.boosting.selection import WeightDecayCV
from weightboost.boosting.variants import AdaBoost, EpsilonBoost, WeightBoost, WeightDecay

__all__ = ["AdaBoost", "BoostingClassifier", "EpsilonBoost", "WeightBoost", "WeightDecay",
           "WeightDecayCV"]
