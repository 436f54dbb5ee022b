"""scikit-learn's estimator checks for C45. All pass; scikit-learn itself skips the array-API
check unless SCIPY_ARRAY_API is set."""

from sklearn.utils.estimator_checks import parametrize_with_checks

from weightboost.c45 import C45


@parametrize_with_checks([C45()])
def test_sklearn_compatible(estimator, check):
    check(estimator)
