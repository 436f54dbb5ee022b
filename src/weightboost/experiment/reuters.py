"""One cell of the Reuters study (docs/protocol.md §2, docs/algorithms.md §6.6): a category and an
algorithm, one-vs-rest on the ApteMod split.

For a booster, one fit of ``rounds`` rounds on the training split gives, through its staged
predictions on the test split, the F1 for every T = 1..rounds (a booster that stopped at round
s keeps its s-round predictions for larger T). Three rows are reported:

* ``paper``: F1 at the paper's tuned T (AdaBoost 10, WeightBoost 25; config ``paper_rounds``;
             no row if that T exceeds the configured rounds);
* ``best``:  the T with the best test F1 (first on ties): what tuning on the test set gives;
* ``cv``:    T chosen by stratified k-fold cross-validation on the training split only
             (mean F1 over the inner folds, first maximum), then evaluated on the test split.

C4.5 is a single tree: its three rows are the same, with T = 1.
F1 = 2PR/(P+R), 0 when there is no true positive. ``reuters_cell`` is the job
(``weightboost.pipeline.warm.JOBS``).
"""

from __future__ import annotations

import zlib

import numpy as np
import pandas as pd

from weightboost.errors import ConfigError
from weightboost.experiment.learners import make_learner
from weightboost.fileio import write_csv_atomic

T_RULES = ("paper", "cv", "best")
F1_COLUMNS = ["category", "algorithm", "t_rule", "T", "precision", "recall", "f1", "rounds",
              "n_train_positive", "n_test_positive"]
CURVE_COLUMNS = ["category", "algorithm", "T", "precision", "recall", "f1"]


def reuters_cell(matrices, stats, f1_output, curve_output, category, algorithm, study, learner,
                 data):
    """The job of a (category, algorithm) cell: its path's wildcards and its key's parts (the
    ``study``'s protocol, the ``learner`` entry, the corpus's ``data``, which the matrices'
    statistics record). A sensitivity cell (``WeightBoost~sampling=resample``) runs as its
    entry: its rows carry the entry's name, and the paper's T is the entry's."""
    from weightboost.experiment.cell_names import parse_cell_name
    from weightboost.reuters.stage import load_matrices, verify_matrices

    verify_matrices(matrices, stats)
    X_train, X_test, labels_train, labels_test, categories = load_matrices(matrices)
    if category not in categories:
        raise ConfigError(f"reuters_study.categories names {category!r}, which is not one of "
                          f"the {len(categories)} ApteMod categories")
    j = categories.index(category)
    f1, curve = run_cell(X_train, X_test, labels_train[:, j], labels_test[:, j], category,
                         parse_cell_name(algorithm)[0], learner, study, study["seed"])
    write_csv_atomic(f1_output, f1)
    write_csv_atomic(curve_output, curve)


def prf(predicted: np.ndarray, truth: np.ndarray) -> tuple[float, float, float]:
    tp = int(np.sum(predicted & truth))
    if tp == 0:
        return 0.0, 0.0, 0.0
    precision = tp / int(predicted.sum())
    recall = tp / int(truth.sum())
    return precision, recall, 2 * precision * recall / (precision + recall)


def staged_positive(model, X, rounds: int) -> np.ndarray:
    """(rounds, n) boolean predictions of the positive class after each round."""
    out = np.zeros((rounds, X.shape[0]), dtype=bool)
    t = -1
    for t, labels in enumerate(model.staged_predict(X)):
        if t >= rounds:
            break
        out[t] = labels == 1
    out[t + 1:] = out[t]  # stopped early: later T keep the last predictions
    return out


def run_cell(X_train, X_test, y_train, y_test, category: str, algorithm: str, spec: dict,
             study: dict, seed: int):
    """Returns (F1 rows, curve rows) as DataFrames; y in {0, 1}."""
    rounds = int(study["rounds"])
    signed_train = np.where(y_train == 1, 1, -1)
    truth = y_test == 1
    model = make_learner(algorithm, spec, rounds).fit(X_train, signed_train)
    booster = hasattr(model, "staged_predict")
    base = {"category": category, "algorithm": algorithm,
            "n_train_positive": int(y_train.sum()), "n_test_positive": int(truth.sum())}
    if not booster:
        p, r, f = prf(model.predict(X_test) == 1, truth)
        rows = [{**base, "t_rule": rule, "T": 1, "precision": p, "recall": r, "f1": f,
                 "rounds": 1} for rule in T_RULES]
        curve = [{"category": category, "algorithm": algorithm, "T": 1, "precision": p,
                  "recall": r, "f1": f}]
        return pd.DataFrame(rows, columns=F1_COLUMNS), pd.DataFrame(curve, columns=CURVE_COLUMNS)

    staged = staged_positive(model, X_test, rounds)
    scores = [prf(staged[t], truth) for t in range(rounds)]
    f1 = np.array([s[2] for s in scores])
    chosen = {"best": int(np.argmax(f1)) + 1,
              "cv": choose_rounds_by_cv(X_train, y_train, algorithm, spec, rounds,
                                        int(study["cv_folds"]), seed, category)}
    paper = study.get("paper_rounds", {}).get(algorithm)
    if paper is not None and int(paper) <= rounds:  # a T beyond the run has no F1 to report
        chosen["paper"] = int(paper)
    rows = []
    for rule in T_RULES:
        if rule in chosen:
            T = chosen[rule]
            p, r, f = scores[T - 1]
            rows.append({**base, "t_rule": rule, "T": T, "precision": p, "recall": r, "f1": f,
                         "rounds": int(model.n_rounds_)})
    curve = [{"category": category, "algorithm": algorithm, "T": t + 1, "precision": s[0],
              "recall": s[1], "f1": s[2]} for t, s in enumerate(scores)]
    return pd.DataFrame(rows, columns=F1_COLUMNS), pd.DataFrame(curve, columns=CURVE_COLUMNS)


def choose_rounds_by_cv(X, y, algorithm, spec, rounds, n_folds, seed, category) -> int:
    """T in 1..rounds maximising the mean inner-fold F1 (first maximum)."""
    from sklearn.model_selection import StratifiedKFold  # not at import, as in protocol.folds

    state = int(np.random.SeedSequence([seed, zlib.crc32(category.encode()), 2])
                .generate_state(1)[0])
    total = np.zeros(rounds)
    for train, valid in StratifiedKFold(n_folds, shuffle=True, random_state=state).split(
            np.zeros(len(y)), y):
        model = make_learner(algorithm, spec, rounds).fit(X[train], np.where(y[train] == 1, 1, -1))
        staged = staged_positive(model, X[valid], rounds)
        truth = y[valid] == 1
        total += [prf(staged[t], truth)[2] for t in range(rounds)]
    return int(np.argmax(total)) + 1
