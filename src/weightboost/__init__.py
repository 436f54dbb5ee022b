"""weightboost: reproduction of Jin, Liu, Si, Carbonell & Hauptmann (ICML 2003).

The package owns the algorithms (C4.5 and the boosting family), the data stages (UCI and
Reuters-21578) and the helpers the Snakemake workflow calls. Heavy modules are imported lazily
so that the data stage does not pay for compiling the tree kernels.
"""

__version__ = "0.1.0"

from weightboost.errors import ReproError  # noqa: E402

__all__ = ["C45", "ReproError", "__version__"]


def __getattr__(name):
    # lazy: importing the package must not compile the numba kernels
    if name == "C45":
        from weightboost.c45 import C45

        return C45
    raise AttributeError(f"module 'weightboost' has no attribute {name!r}")
