"""weightboost: reproduction of Jin, Liu, Si, Carbonell & Hauptmann (ICML 2003).

The package owns the algorithms (C4.5 and the boosting family), the data stages (UCI and
Reuters-21578) and the helpers the Snakemake workflow calls. Heavy modules are imported lazily
so that the data stage does not pay for compiling the tree kernels.
"""

__version__ = "0.1.0"

from weightboost.errors import ReproError  # noqa: E402

__all__ = ["ReproError", "__version__"]
