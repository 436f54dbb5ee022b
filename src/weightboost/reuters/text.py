"""Text processing for Reuters (docs/protocol.md §1.3, docs/algorithms.md §6.3).

Lower-case; tokens are maximal runs of ASCII letters and digits (the paper names no tokeniser;
punctuation therefore never survives); tokens made only of digits are dropped; then NLTK's
English stop words (read from the pinned ``stopwords.zip``, not from NLTK's downloader) and
Porter stemming (NLTK's implementation; ``ORIGINAL_ALGORITHM`` by default, Porter 1980).
"""

from __future__ import annotations

import os
import re
import zipfile
from functools import lru_cache

from weightboost.errors import InputFileError

TOKEN = re.compile(r"[a-z0-9]+")
STOPWORDS_MEMBER = "stopwords/english"


def read_stopwords(zip_path) -> frozenset[str]:
    """The English list of NLTK's stopwords package (a zip laid out as NLTK distributes it)."""
    try:
        with zipfile.ZipFile(zip_path) as bundle:
            words = bundle.read(STOPWORDS_MEMBER).decode("utf-8").split()
    except FileNotFoundError:
        raise InputFileError(f"the stop-word list {zip_path} does not exist; fetch it with "
                             "`snakemake reuters` or put NLTK's stopwords.zip in the mirror "
                             "under nltk_data/corpora/") from None
    except (zipfile.BadZipFile, KeyError) as exc:
        raise InputFileError(f"{zip_path} is not NLTK's stopwords package ({exc})") from None
    if not words:
        raise InputFileError(f"{zip_path}: the English stop-word list is empty")
    return frozenset(words)


def porter_stemmer_class():
    """NLTK's ``PorterStemmer``, imported without running NLTK's package initialisation.

    Any ``nltk.*`` import runs ``nltk/__init__.py`` first, which imports most of NLTK and with
    it scikit-learn and SciPy's statistics: about 3 CPU-s in every features job, none of which
    the stemmer uses (``nltk/stem/porter.py`` imports only ``nltk.stem.api``, ``nltk.redos``
    and ``nltk.termsec``). Here ``nltk`` and ``nltk.stem`` are bare package modules for the
    time of the import, so that only those modules load; then every module the import added is
    taken out of ``sys.modules`` again, so that a later ``import nltk`` is NLTK's own, whole.
    The class is NLTK's code, unchanged. Where NLTK is already imported, or a later release
    makes the stemmer need its package's own names, the ordinary import is used.
    """
    import importlib
    import importlib.util
    import sys
    import types

    if "nltk" not in sys.modules:
        spec = importlib.util.find_spec("nltk")
        if spec is not None and spec.submodule_search_locations:
            before = set(sys.modules)
            for name, folder in (("nltk", ""), ("nltk.stem", "stem")):
                package = types.ModuleType(name)
                package.__path__ = [os.path.join(location, folder)
                                    for location in spec.submodule_search_locations]
                sys.modules[name] = package
            try:
                return importlib.import_module("nltk.stem.porter").PorterStemmer
            except ImportError:
                pass
            finally:
                for name in set(sys.modules) - before:
                    del sys.modules[name]
    from nltk.stem.porter import PorterStemmer

    return PorterStemmer


def make_stemmer(mode: str):
    PorterStemmer = porter_stemmer_class()
    modes = {"original": PorterStemmer.ORIGINAL_ALGORITHM,
             "nltk_extensions": PorterStemmer.NLTK_EXTENSIONS,
             "martin_extensions": PorterStemmer.MARTIN_EXTENSIONS}
    stemmer = PorterStemmer(mode=modes[mode])
    return lru_cache(maxsize=None)(stemmer.stem)


class Analyzer:
    """Turns a document's text into its list of stemmed terms."""

    def __init__(self, stopwords: frozenset[str], stemmer_mode: str = "original"):
        self.stopwords = stopwords
        self.stem = make_stemmer(stemmer_mode)

    def __call__(self, text: str) -> list[str]:
        terms = []
        for token in TOKEN.findall(text.lower()):
            if token.isdigit() or token in self.stopwords:
                continue
            terms.append(self.stem(token))
        return terms
