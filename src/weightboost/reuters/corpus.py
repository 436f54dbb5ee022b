"""The ModApte split restricted to the 90 categories (docs/protocol.md §1.3, docs/algorithms.md §6.1).

train = LEWISSPLIT="TRAIN" and TOPICS="YES"; test = LEWISSPLIT="TEST" and TOPICS="YES";
documents listed in ``reuters.exclude_newids`` are then left out (NEWID 1199, see
config/README.md); the categories are those with at least one training and one test document;
the documents kept are those carrying at least one of them. Every count is checked against the
expected values in the config, so a parser or split change cannot pass unnoticed.
"""

from __future__ import annotations

from dataclasses import dataclass

from weightboost.errors import InputFileError
from weightboost.reuters.sgml import Document


@dataclass
class Split:
    train: list[Document]
    test: list[Document]
    categories: list[str]              # sorted by training documents (desc), then name
    modapte_train: int | None          # TOPICS="YES" documents before the category filter
    modapte_test: int | None           # (None for a source holding only ApteMod documents)
    counts: dict[str, dict[str, int]]  # category -> {"train": n, "test": n}


def modapte(documents: list[Document], exclude=()) -> Split:
    """The split; documents whose NEWID is in ``exclude`` are left out after the ModApte
    counts (9,603 / 3,299) and before the category filter."""
    train = [d for d in documents if d.lewissplit == "TRAIN" and d.topics_flag == "YES"]
    test = [d for d in documents if d.lewissplit == "TEST" and d.topics_flag == "YES"]
    n_train, n_test = len(train), len(test)
    exclude = set(exclude)
    train = [d for d in train if d.newid not in exclude]
    test = [d for d in test if d.newid not in exclude]
    in_train = {t for d in train for t in d.topics}
    in_test = {t for d in test for t in d.topics}
    kept = in_train & in_test
    train_kept = [d for d in train if kept.intersection(d.topics)]
    test_kept = [d for d in test if kept.intersection(d.topics)]
    counts = {c: {"train": 0, "test": 0} for c in kept}
    for part, docs in (("train", train_kept), ("test", test_kept)):
        for d in docs:
            for t in set(d.topics) & kept:
                counts[t][part] += 1
    categories = sorted(kept, key=lambda c: (-counts[c]["train"], c))
    return Split(train_kept, test_kept, categories, n_train, n_test, counts)


def check_split(split: Split, expected: dict) -> None:
    """Compare the split with ``expected`` (config ``reuters.expected``); raise on a mismatch."""
    problems = []
    found = {"modapte_train": split.modapte_train, "modapte_test": split.modapte_test,
             "n_train": len(split.train), "n_test": len(split.test),
             "n_categories": len(split.categories)}
    for key, value in found.items():
        if key in expected and expected[key] != value:
            problems.append(f"{key}: {value}, expected {expected[key]}")
    top = expected.get("top_categories", {})
    if top and sorted(split.categories[:len(top)]) != sorted(top):
        problems.append(f"the {len(top)} most frequent categories are "
                        f"{split.categories[:len(top)]}, expected {sorted(top)}")
    for name, (n_train, n_test) in top.items():
        got = split.counts.get(name)
        if got is None or (got["train"], got["test"]) != (n_train, n_test):
            problems.append(f"category {name}: {got}, expected train {n_train} / test {n_test}")
    if problems:
        raise InputFileError("Reuters-21578 ModApte split differs from reuters.expected in the "
                             "config: " + "; ".join(problems) + ". The corpus files "
                             "(reuters.source) or the parser are not the expected ones")
