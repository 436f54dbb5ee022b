"""The Reuters stage: the raw corpus and the stop-word list in, matrices and statistics out.

The corpus is either the 22 SGML files (config ``reuters.source: sgml``, the default) or NLTK's
ApteMod package (``source: nltk``); both go through the same split checks and text pipeline.
"""

from __future__ import annotations

import io
import time
from pathlib import Path

import numpy as np

from weightboost.errors import ChecksumError, ConfigError
from weightboost.fileio import (sha256_bytes, write_bytes_atomic, write_json_atomic,
                                write_text_atomic)
from weightboost.reuters.corpus import check_split, modapte
from weightboost.reuters.features import chi2_max, count_matrix, ltc, select_terms
from weightboost.reuters.nltk_package import read_package
from weightboost.reuters.sgml import ParseReport, parse_file
from weightboost.reuters.text import Analyzer, read_stopwords

PAPER_VOCABULARY = 24240


def read_corpus(paths, options: dict) -> tuple[ParseReport, list[int]]:
    """Parse the corpus files; return the parse report and the NEWIDs to leave out of the
    split (``exclude_newids``, SGML source only)."""
    if options.get("source", "sgml") == "nltk":
        paths = list(paths)
        if len(paths) != 1:
            raise ConfigError(f"reuters.source nltk reads one package, got {len(paths)} paths")
        return read_package(paths[0]), []
    report = ParseReport()
    for path in sorted(map(Path, paths)):
        parse_file(path.read_bytes(), path.name, report)
    excluded = sorted(set(options.get("exclude_newids", [])))
    present = {d.newid for d in report.documents}
    missing = [n for n in excluded if n not in present]
    if missing:
        raise ConfigError(f"reuters.exclude_newids lists NEWID {missing}, which no SGML file "
                          "holds; remove them from the config")
    return report, excluded


def build(corpus_paths, stopwords_zip, options: dict, out_matrices, out_vocabulary, out_stats):
    """Run the whole stage; ``options`` is the config section ``reuters``; ``corpus_paths`` are
    the SGML files, or NLTK's package alone when ``options["source"]`` is ``nltk``."""
    start = time.perf_counter()
    source = options.get("source", "sgml")
    report, excluded = read_corpus(corpus_paths, options)
    split = modapte(report.documents, excluded)
    expected = dict(options.get("expected", {}))
    if source == "nltk":
        # the package holds only the ApteMod documents: there is no pre-filter ModApte count
        split.modapte_train = split.modapte_test = None
        expected.pop("modapte_train", None)
        expected.pop("modapte_test", None)
    check_split(split, expected)

    analyzer = Analyzer(read_stopwords(stopwords_zip), options.get("stemmer", "original"))
    train_terms = [analyzer(d.text) for d in split.train]
    test_terms = [analyzer(d.text) for d in split.test]
    vocabulary_terms = sorted({t for terms in train_terms for t in terms})
    full_index = {t: j for j, t in enumerate(vocabulary_terms)}

    train_tf_full = count_matrix(train_terms, full_index)
    presence = train_tf_full.copy()
    presence.data[:] = 1.0
    labels_train = _labels(split.train, split.categories)
    labels_test = _labels(split.test, split.categories)
    scores = chi2_max(presence, labels_train)
    n_features = int(options.get("n_features", 2000))
    chosen = select_terms(vocabulary_terms, scores, n_features)
    selected = [vocabulary_terms[j] for j in chosen]
    index = {t: j for j, t in enumerate(selected)}
    df = np.asarray(presence[:, chosen].sum(axis=0)).ravel()
    X_train = ltc(count_matrix(train_terms, index), df, len(split.train))
    X_test = ltc(count_matrix(test_terms, index), df, len(split.train))

    buffer = io.BytesIO()
    np.savez_compressed(
        buffer,
        train_data=X_train.data, train_indices=X_train.indices, train_indptr=X_train.indptr,
        test_data=X_test.data, test_indices=X_test.indices, test_indptr=X_test.indptr,
        shape_train=np.array(X_train.shape), shape_test=np.array(X_test.shape),
        labels_train=labels_train, labels_test=labels_test,
        newid_train=np.array([d.newid for d in split.train]),
        newid_test=np.array([d.newid for d in split.test]),
        categories=np.array(split.categories))
    matrices_bytes = buffer.getvalue()
    write_bytes_atomic(out_matrices, matrices_bytes)
    write_text_atomic(out_vocabulary, "term\tchi2_max\ttrain_df\n" + "".join(
        f"{t}\t{float(scores[j])!r}\t{int(d)}\n" for t, j, d in zip(selected, chosen, df)))
    no_text = [d for d in split.train + split.test if not d.body.strip()]
    stats = {
        "source": source,
        "n_documents_parsed": len(report.documents),
        "excluded_newids": excluded,
        "n_reuters_tags": report.opening_tags,
        "skipped_documents": report.skipped,
        "modapte_train": split.modapte_train,
        "modapte_test": split.modapte_test,
        "n_train": len(split.train),
        "n_test": len(split.test),
        "n_categories": len(split.categories),
        "categories_per_document": round(float(np.concatenate(
            [labels_train, labels_test]).sum() / (len(split.train) + len(split.test))), 4),
        "documents_without_body": len(no_text),
        "vocabulary_size": len(vocabulary_terms),
        "paper_vocabulary_size": PAPER_VOCABULARY,
        "n_features": len(selected),
        "empty_train_vectors": int((X_train.getnnz(axis=1) == 0).sum()),
        "empty_test_vectors": int((X_test.getnnz(axis=1) == 0).sum()),
        "stemmer": options.get("stemmer", "original"),
        "categories": {c: split.counts[c] for c in split.categories},
        "matrices_sha256": sha256_bytes(matrices_bytes),
        "seconds": round(time.perf_counter() - start, 2),
    }
    write_json_atomic(out_stats, stats)
    return stats


def _labels(documents, categories) -> np.ndarray:
    position = {c: j for j, c in enumerate(categories)}
    labels = np.zeros((len(documents), len(categories)), dtype=np.uint8)
    for i, d in enumerate(documents):
        for t in d.topics:
            if t in position:
                labels[i, position[t]] = 1
    return labels


def verify_matrices(path, stats_path) -> None:
    """The matrices must have the SHA-256 that the stage recorded in stats.json when it wrote
    them: edited or stale matrices stop an experiment instead of changing its numbers."""
    import json

    path, stats_path = Path(path), Path(stats_path)
    recorded = json.loads(stats_path.read_text()).get("matrices_sha256")
    digest = sha256_bytes(path.read_bytes())
    if digest != recorded:
        raise ChecksumError(
            f"{path} has SHA-256 {digest}, but {stats_path} recorded {recorded} when the stage "
            f"wrote it: the matrices were changed (or written by another version of the stage) "
            f"after the Reuters stage ran. Delete {path.parent} and rerun to rebuild them")


def load_matrices(path):
    """(X_train, X_test, labels_train, labels_test, categories) from the stage's npz file."""
    import scipy.sparse as sp

    with np.load(path, allow_pickle=False) as z:
        X_train = sp.csr_matrix((z["train_data"], z["train_indices"], z["train_indptr"]),
                                shape=tuple(z["shape_train"]))
        X_test = sp.csr_matrix((z["test_data"], z["test_indices"], z["test_indptr"]),
                               shape=tuple(z["shape_test"]))
        return X_train, X_test, z["labels_train"], z["labels_test"], list(z["categories"])
