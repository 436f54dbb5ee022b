"""scikit-learn's estimator checks for the four boosters (10 rounds keep them quick)."""

from sklearn.utils.estimator_checks import parametrize_with_checks

from weightboost.boosting import AdaBoost, EpsilonBoost, WeightBoost, WeightDecay


@parametrize_with_checks([AdaBoost(n_estimators=10), WeightBoost(n_estimators=10),
                          WeightDecay(n_estimators=10), EpsilonBoost(n_estimators=10)])
def test_sklearn_compatible(estimator, check):
    check(estimator)
