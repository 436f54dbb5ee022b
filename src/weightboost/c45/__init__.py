"""C4.5 release 8 as Weka's J48 implements it, decomposed as J48 is:

``criteria`` (entropies, gain, gain ratio, pessimistic error), ``split`` (numeric and nominal
split evaluation, model selection), ``grow`` (tree building with fractional instances),
``prune`` (collapse, pruning, subtree raising), ``build`` (the four in one compiled call),
``predict`` (class distributions), ``data`` (encoding and presorting), ``estimator`` (the
scikit-learn classifier ``C45``);
``weightboost.kernel_cache`` keeps numba's compiled kernels per version of their sources.
"""

from weightboost.kernel_cache import use_versioned_cache

use_versioned_cache()  # before any kernel is defined

from weightboost.c45.data import C45Data, prepare  # noqa: E402
from weightboost.c45.estimator import C45  # noqa: E402

__all__ = ["C45", "C45Data", "prepare"]
