"""Decision stumps and the graph-Laplacian penalty of RegBoost (Wang & Kégl 2004):

``graph`` (the k-nearest-neighbour graph and the number of its edges each threshold cuts),
``search`` (the candidates of a training set, sorted once, and the compiled per-round scan),
``estimator`` (the scikit-learn classifier ``DecisionStump``).
"""

from weightboost.stumps.estimator import DecisionStump
from weightboost.stumps.search import StumpData, prepare_stumps

__all__ = ["DecisionStump", "StumpData", "prepare_stumps"]
