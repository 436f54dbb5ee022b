"""weightboost: reproduction of Jin, Liu, Si, Carbonell & Hauptmann (ICML 2003) and of Wang &
Kégl (NIPS 2004).

The package owns the algorithms (C4.5, decision stumps and the boosting family), the data
stages (UCI and Reuters-21578) and the helpers the Snakemake workflow calls. Heavy modules are
imported lazily so that the data stage does not pay for compiling the tree kernels.
"""

__version__ = "0.1.0"

from weightboost.errors import ReproError  # noqa: E402

__all__ = ["AdaBoost", "C45", "DecisionStump", "EpsilonBoost", "RegBoost", "RegBoostCV",
           "ReproError", "WeightBoost", "WeightDecay", "WeightDecayCV", "__version__"]
_LAZY = {"C45": "weightboost.c45", "AdaBoost": "weightboost.boosting",
         "WeightBoost": "weightboost.boosting", "WeightDecay": "weightboost.boosting",
         "EpsilonBoost": "weightboost.boosting", "WeightDecayCV": "weightboost.boosting",
         "RegBoost": "weightboost.boosting", "RegBoostCV": "weightboost.boosting",
         "DecisionStump": "weightboost.stumps"}


def __getattr__(name):
    # lazy: importing the package must not compile the numba kernels
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'weightboost' has no attribute {name!r}")
