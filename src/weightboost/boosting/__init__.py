"""The boosting family: one loop (``core``), four sets of rules (``variants``), RegBoost
(``regboost``) and the boosters with a parameter chosen by inner cross-validation
(``selection``: Weight Decay's C, RegBoost's λ)."""

from weightboost.boosting.core import BoostingClassifier
from weightboost.boosting.regboost import RegBoost
from weightboost.boosting.selection import RegBoostCV, WeightDecayCV
from weightboost.boosting.variants import AdaBoost, EpsilonBoost, WeightBoost, WeightDecay

__all__ = ["AdaBoost", "BoostingClassifier", "EpsilonBoost", "RegBoost", "RegBoostCV",
           "WeightBoost", "WeightDecay", "WeightDecayCV"]
