"""A generator that is not the project's: the tests name it in a config by its import path
(``outside_generator.two_blobs``), as a user names a function of their own, to show that adding
a generated data set touches the config only (tests/test_generators.py)."""

import numpy as np
import pandas as pd


def two_blobs(n, rng, shift=1.5):
    """Two Gaussian blobs in three dimensions, ``shift`` apart on the first axis; labels ±1."""
    y = rng.choice(np.array([-1, 1]), size=n)
    X = rng.normal(size=(n, 3))
    X[:, 0] += shift * y / 2
    return pd.DataFrame(X, columns=["a", "b", "c"]), y
