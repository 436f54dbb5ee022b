"""Term selection by χ²max and ltc weights (docs/algorithms.md §6.4-6.5, paper eq 13).

χ²(t, c) = N (AD - CB)² / ((A+C)(B+D)(A+B)(C+D)) from training-document counts (Yang &
Pedersen 1997), 0 where the denominator is 0; χ²max(t) = max over the categories. The top
``n_features`` terms are kept; ties at the cut are broken by the term string.

ltc: w = (1 + log2 tf) · log2(|D| / df) for tf > 0, with |D| and df from the training
documents, then each document vector is divided by its L2 norm over the selected terms (a
document with none of them stays the zero vector).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp


def count_matrix(documents: list[list[str]], vocabulary: dict[str, int]) -> sp.csr_matrix:
    """Term-frequency matrix (documents × vocabulary); unknown terms are ignored."""
    indptr, indices, data = [0], [], []
    for terms in documents:
        counts: dict[int, int] = {}
        for term in terms:
            j = vocabulary.get(term)
            if j is not None:
                counts[j] = counts.get(j, 0) + 1
        for j in sorted(counts):
            indices.append(j)
            data.append(counts[j])
        indptr.append(len(indices))
    return sp.csr_matrix((np.array(data, dtype=np.float64), np.array(indices, dtype=np.int64),
                          np.array(indptr, dtype=np.int64)),
                         shape=(len(documents), len(vocabulary)))


def chi2_max(presence: sp.csr_matrix, labels: np.ndarray) -> np.ndarray:
    """χ²max of every term; ``presence`` is binary (documents × terms), ``labels`` binary
    (documents × categories)."""
    n = presence.shape[0]
    A = np.asarray((presence.T @ sp.csr_matrix(labels, dtype=np.float64)).todense())
    df = np.asarray(presence.sum(axis=0)).ravel()[:, None]
    per_category = labels.sum(axis=0)[None, :].astype(np.float64)
    B = df - A
    C = per_category - A
    D = n - A - B - C
    denominator = (A + C) * (B + D) * (A + B) * (C + D)
    with np.errstate(divide="ignore", invalid="ignore"):
        chi2 = np.where(denominator > 0, n * (A * D - C * B) ** 2 / denominator, 0.0)
    return chi2.max(axis=1)


def select_terms(terms: list[str], scores: np.ndarray, k: int) -> list[int]:
    """Indices of the k best terms by score, ties broken by the term string."""
    order = sorted(range(len(terms)), key=lambda j: (-scores[j], terms[j]))
    return order[:k]


def ltc(tf: sp.csr_matrix, df: np.ndarray, n_documents: int) -> sp.csr_matrix:
    """Paper eq (13) with base-2 logs, then cosine normalisation of each row."""
    weighted = tf.copy().astype(np.float64)
    weighted.data = 1.0 + np.log2(weighted.data)
    idf = np.zeros_like(df, dtype=np.float64)
    idf[df > 0] = np.log2(n_documents / df[df > 0])
    weighted = sp.csr_matrix(weighted.multiply(idf[None, :]))
    norms = np.sqrt(np.asarray(weighted.multiply(weighted).sum(axis=1)).ravel())
    scale = np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)
    weighted = sp.csr_matrix(sp.diags(scale) @ weighted)
    weighted.eliminate_zeros()
    weighted.sort_indices()
    return weighted
