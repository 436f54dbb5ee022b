"""The Reuters stage on a hand-made SGML fixture (every count and value worked out by hand) and
on the real corpus from the mirror."""

import json
import math
import shutil

import numpy as np
import pytest
import scipy.sparse as sp

from conftest import FIXTURE_MIRROR, FIXTURE_REUTERS_EXPECTED, run_snakemake
from weightboost.data.fetch import FetchSettings, fetch_file
from weightboost.errors import ChecksumError, InputFileError
from weightboost.reuters.corpus import check_split, modapte
from weightboost.reuters.features import chi2_max, count_matrix, ltc, select_terms
from weightboost.reuters.fetch import sgml_files
from weightboost.reuters.sgml import ParseReport, parse_file
from weightboost.reuters.stage import build, load_matrices
from weightboost.reuters.text import Analyzer, read_stopwords

SGML = sorted((FIXTURE_MIRROR / "reuters21578").glob("*.sgm"))
STOPWORDS = FIXTURE_MIRROR / "nltk_data" / "corpora" / "stopwords.zip"


def parsed():
    report = ParseReport()
    for path in SGML:
        parse_file(path.read_bytes(), path.name, report)
    return report


def test_parser_survives_the_oddities_and_reports_skips():
    report = parsed()
    assert report.opening_tags == 13 and len(report.documents) == 12
    assert report.skipped == [{"file": "reut2-001.sgm", "position": report.skipped[0]["position"],
                               "reason": "<REUTERS> without a closing </REUTERS>"}]
    docs = {d.newid: d for d in report.documents}
    assert "<ABC>" in docs[3].body                       # &lt; &gt; decoded
    assert "M\u00fcllers" in docs[9].body  # Latin-1 0xFC; the control reference &#27; is dropped
    assert docs[4].text_type == "BRIEF" and docs[4].body == "" and docs[4].title == "DIVIDEND"
    assert docs[12].text_type == "UNPROC" and docs[12].text.strip() == ""
    assert docs[2].topics == ["grain", "corn"]


def test_modapte_split_and_category_filter():
    split = modapte(parsed().documents)
    assert (split.modapte_train, split.modapte_test) == (7, 3)
    assert [d.newid for d in split.train] == [1, 2, 3, 4, 12]  # 5: no topic; 7: cocoa only
    assert [d.newid for d in split.test] == [8, 9]              # 10: sugar only
    assert split.categories == ["earn", "grain", "corn"]
    check_split(split, FIXTURE_REUTERS_EXPECTED)
    with pytest.raises(InputFileError, match="n_train: 5, expected 6"):
        check_split(split, {**FIXTURE_REUTERS_EXPECTED, "n_train": 6})
    with pytest.raises(InputFileError, match="category corn"):
        check_split(split, {"top_categories": {"corn": [2, 1]}})


def test_text_pipeline():
    analyze = Analyzer(read_stopwords(STOPWORDS))
    # "up" and "and" are stop words; "12" is a number; <ABC> loses its punctuation
    assert analyze("PROFIT UP\nNet profit rose 12 pct <ABC> said.") == \
        ["profit", "net", "profit", "rose", "pct", "abc", "said"]
    assert analyze("Corn exports and running") == ["corn", "export", "run"]


def fixture_matrices():
    split = modapte(parsed().documents)
    analyze = Analyzer(read_stopwords(STOPWORDS))
    terms = [analyze(d.text) for d in split.train]
    vocabulary = sorted({t for ts in terms for t in ts})
    index = {t: j for j, t in enumerate(vocabulary)}
    tf = count_matrix(terms, index)
    labels = np.array([[t in d.topics for t in split.categories] for d in split.train],
                      dtype=np.uint8)
    return split, vocabulary, index, tf, labels


def test_chi2_max_by_hand():
    _, vocabulary, index, tf, labels = fixture_matrices()
    presence = tf.copy()
    presence.data[:] = 1
    scores = chi2_max(presence, labels)
    # N = 5 training documents. "wheat" is in documents 1 and 2, both grain:
    # grain: A=2 B=0 C=0 D=3 -> 5*(2*3)^2/(2*3*2*3) = 5; earn: A=0 B=2 C=3 D=0 -> 5
    assert scores[index["wheat"]] == pytest.approx(5.0)
    # "rose" is in documents 1 (grain) and 3 (earn):
    # corn: A=0 B=2 C=1 D=2 -> 5*(0-2)^2/(1*4*2*3) = 0.8333 (grain and earn give 5/36)
    assert scores[index["rose"]] == pytest.approx(5 * 4 / 24)
    order = select_terms(vocabulary, scores, 3)
    top = [vocabulary[j] for j in order]
    assert top[0] < top[1] and scores[order[0]] == scores[order[1]]  # ties by term string


def test_ltc_by_hand():
    _, vocabulary, index, tf, _ = fixture_matrices()
    df = np.asarray((tf > 0).sum(axis=0)).ravel()
    weights = ltc(tf, df, 5).toarray()
    # document 1: wheat x3 (df 2), crop (df 1), harvest (df 1), rose (df 2), reuter (df 3)
    raw = {"wheat": (1 + math.log2(3)) * math.log2(5 / 2), "crop": math.log2(5),
           "harvest": math.log2(5), "rose": math.log2(5 / 2), "reuter": math.log2(5 / 3)}
    norm = math.sqrt(sum(v * v for v in raw.values()))
    for term, value in raw.items():
        assert weights[0, index[term]] == pytest.approx(value / norm)
    assert np.count_nonzero(weights[0]) == 5
    assert np.all(weights[4] == 0)  # the UNPROC document has no text: zero vector
    np.testing.assert_allclose(np.linalg.norm(weights[:4], axis=1), 1.0)


def test_stage_outputs(tmp_path):
    stats = build(SGML, STOPWORDS, {"n_features": 4, "expected": FIXTURE_REUTERS_EXPECTED},
                  tmp_path / "m.npz", tmp_path / "v.tsv", tmp_path / "s.json")
    assert json.loads((tmp_path / "s.json").read_text()) == stats
    for key in ("n_train", "n_test", "n_categories", "vocabulary_size", "n_features",
                "categories"):
        assert key in stats
    assert stats["categories"] == {"earn": {"train": 3, "test": 1},
                                   "grain": {"train": 2, "test": 1},
                                   "corn": {"train": 1, "test": 1}}
    assert stats["skipped_documents"][0]["reason"].startswith("<REUTERS> without")
    X_train, X_test, y_train, y_test, categories = load_matrices(tmp_path / "m.npz")
    assert X_train.shape == (5, 4) and X_test.shape == (2, 4)
    assert y_train.shape == (5, 3) and categories == ["earn", "grain", "corn"]
    terms = [line.split("\t")[0] for line in (tmp_path / "v.tsv").read_text().splitlines()[1:]]
    assert len(terms) == 4
    # test documents use training df: a test term unseen in training has no column at all
    assert sp.issparse(X_test) and "shipment" not in terms


def test_missing_stopword_list_is_a_clear_error(tmp_path):
    with pytest.raises(InputFileError, match="stopwords.zip does not exist"):
        read_stopwords(tmp_path / "stopwords.zip")


def test_corrupted_sgml_file_is_refused(tmp_path, fixture_config):
    mirror = tmp_path / "mirror"
    shutil.copytree(FIXTURE_MIRROR, mirror)
    target = mirror / "reuters21578" / "reut2-001.sgm"
    target.write_bytes(target.read_bytes().replace(b"SUGAR", b"SUGAT"))
    settings = FetchSettings(sources=("mirror",), mirror=str(mirror))
    files = sgml_files(fixture_config["reuters"])
    fetch_file(files[0], tmp_path / "a.sgm", None, settings)
    with pytest.raises(ChecksumError, match=r"reuters\.sgml\.reut2-001\.sgm"):
        fetch_file(files[1], tmp_path / "b.sgm", None, settings)
    assert not (tmp_path / "b.sgm").exists()


def test_reuters_target_through_snakemake(tmp_path, fixture_config):
    result = run_snakemake(tmp_path, fixture_config, "reuters")
    assert result.returncode == 0, result.stderr[-3000:]
    stats = json.loads((tmp_path / "data/processed/reuters/stats.json").read_text())
    assert (stats["n_train"], stats["n_test"], stats["n_categories"]) == (5, 2, 3)
    assert (tmp_path / "benchmarks/reuters_features.tsv").is_file()


def test_real_corpus(main_config, mirror_dir, tmp_path):
    options = main_config["reuters"]
    sgml = [mirror_dir / options["folder"] / name for name in sorted(options["sgml"])]
    stats = build(sgml, mirror_dir / options["stopwords"]["file"], options, tmp_path / "m.npz",
                  tmp_path / "v.tsv", tmp_path / "s.json")
    assert (stats["n_train"], stats["n_test"], stats["n_categories"]) == (7770, 3019, 90)
    assert (stats["modapte_train"], stats["modapte_test"]) == (9603, 3299)
    assert stats["skipped_documents"] == [] and stats["n_documents_parsed"] == 21578
    top = list(stats["categories"])[:10]
    assert top == ["earn", "acq", "money-fx", "grain", "crude", "trade", "interest", "wheat",
                   "ship", "corn"]
    assert stats["categories_per_document"] == pytest.approx(1.235, abs=1e-3)
    X_train, X_test, *_ = load_matrices(tmp_path / "m.npz")
    assert X_train.shape == (7770, 2000) and X_test.shape == (3019, 2000)


def test_excluding_the_csecs_document_gives_nltks_count(main_config, mirror_dir, tmp_path):
    options = {**main_config["reuters"], "exclude_newids": [1199],
               "expected": {"n_train": 7769, "n_test": 3019, "n_categories": 90}}
    sgml = [mirror_dir / options["folder"] / name for name in sorted(options["sgml"])]
    stats = build(sgml, mirror_dir / options["stopwords"]["file"], options, tmp_path / "m.npz",
                  tmp_path / "v.tsv", tmp_path / "s.json")
    assert stats["categories"]["trade"] == {"train": 368, "test": 117}
