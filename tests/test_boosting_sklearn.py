"""scikit-learn's estimator checks for the boosters, the readings of the boosting core and
Weight Decay with C by cross-validation (few rounds keep them quick)."""

from sklearn.utils.estimator_checks import parametrize_with_checks

from weightboost.boosting import (AdaBoost, EpsilonBoost, WeightBoost, WeightDecay,
                                  WeightDecayCV)


@parametrize_with_checks([AdaBoost(n_estimators=10), WeightBoost(n_estimators=10),
                          WeightDecay(n_estimators=10), EpsilonBoost(n_estimators=10),
                          AdaBoost(n_estimators=10, sampling="resample",
                                   on_degenerate="restart", random_state=0),
                          WeightDecayCV(Cs=(0.0, 0.01), cv=2, n_estimators=5,
                                        random_state=0)])
def test_sklearn_compatible(estimator, check):
    check(estimator)
