"""MadaBoost (Domingo & Watanabe, COLT 2000), added the way a user adds a booster of their own: a
class in a module outside the package, named in the config by its import path
(``learners/`` is on the workflow's path; docs/protocol.md §3.1, "Adding a booster").

MadaBoost is AdaBoost whose weights never grow above where they started: an example's weight is
min(1, exp(-y H(x))) times its starting weight, the weighting of the convex potential
φ(z) = 1 - z for z ≤ 0 and exp(-z) for z > 0 (one that Long & Servedio 2010 name). The
coefficient of a round is AdaBoost's, α = ½ ln((1-ε)/ε).
"""

import numpy as np

from weightboost.boosting import AdaBoost


class MadaBoost(AdaBoost):
    """AdaBoost with every weight capped at its starting value: log w_i = min(0, -y_i H(x_i)).
    Its parameters are AdaBoost's (``weightboost.boosting.AdaBoost``)."""

    def _weight_log(self, margin, score, state):
        # the boosting loop's one hook for the weights (weightboost.boosting.core): a class
        # that overrides it is run by the Python driver, round by round
        return np.minimum(0.0, -margin)
