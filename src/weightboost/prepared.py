"""What boosting asks of a base learner that it prepares once per fit (C4.5 and decision stumps).

A boosted fit calls its base learner a hundred or a thousand times on the same training
points with new weights. A base learner that can sort and encode those points once and fit
each round on the result (``C45``, ``DecisionStump``) implements, besides scikit-learn's API:

* ``_prepare_training(X, unlabeled=None)``: the training data in its prepared form, a
  ``PreparedData`` (the boosting loop passes input that is one already to the rounds as it
  is, without asking);
* ``_fit_round(data, signed, tree_labels, p, rng)``: fit one round on prepared data, labels
  ``signed`` in {-1, +1} (``tree_labels``: their classes and class indices, computed once per
  fit), under the distribution ``p``: passed as weights when ``rng`` is None, else as a draw
  of N points with replacement from ``rng`` (the learner decides how a draw reaches it);
* ``_predict_training(data)``: the fitted learner's outputs on the prepared training points;
* ``_ensemble_outputs(estimators, X)`` (a class method): each fitted learner's outputs on X,
  in order, X checked and encoded once for all of them.

The boosting loop (``weightboost.boosting.core``) depends on this protocol only, not on the
learners' modules, so that a table computed with one base learner does not depend on the
other's code (``pipeline.provenance.TABLE_SET_CODE``).
"""


class PreparedData:
    """Marker base class of prepared training data (``C45Data``, ``StumpData``): boosting
    passes such input to its base learner as it is."""

    __slots__ = ()
