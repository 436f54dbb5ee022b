"""Decision stumps and the graph-Laplacian penalty of RegBoost (Wang & Kégl 2004):

``graph`` (the k-nearest-neighbour graph and the number of its edges each threshold cuts),
``search`` (the candidates of a training set, sorted once, and the compiled per-round scan),
``estimator`` (the scikit-learn classifier ``DecisionStump``), ``boost`` (the compiled driver
of the boosting loop for stumps).
"""

from weightboost.kernel_cache import use_versioned_cache

use_versioned_cache()  # before any kernel is defined

from weightboost.stumps.estimator import DecisionStump  # noqa: E402
from weightboost.stumps.search import StumpData, prepare_stumps  # noqa: E402

__all__ = ["DecisionStump", "StumpData", "prepare_stumps"]
