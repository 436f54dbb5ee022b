"""The Reuters stage on a hand-made SGML fixture (every count and value worked out by hand) and
on the real corpus from the mirror."""

import copy
import json
import math
import shutil
import subprocess
import sys
import zipfile
from collections import Counter

import numpy as np
import pytest
import scipy.sparse as sp

from conftest import FIXTURE_MIRROR, FIXTURE_REUTERS_EXPECTED, run_snakemake
from weightboost.data.fetch import FetchSettings, fetch_file
from weightboost.errors import ChecksumError, ConfigError, InputFileError
from weightboost.reuters.corpus import check_split, modapte
from weightboost.reuters.features import chi2_max, count_matrix, ltc, select_terms
from weightboost.reuters.fetch import nltk_package_file, sgml_files
from weightboost.reuters.nltk_package import read_package
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


def test_the_stemmer_is_nltks_without_nltks_package_init():
    # in a fresh interpreter: the stemmer loads without scikit-learn (which NLTK's package init
    # imports), stems as NLTK's own class does in all three modes, and leaves no trace: a later
    # `import nltk` is the whole package
    code = """
import sys
from weightboost.reuters.text import make_stemmer, porter_stemmer_class
words = ["running", "generalizations", "companies", "oil", "agreed", "sky", "dying", "hopping",
         "relational", "conditional", "feudalism", "electrical", "adjustable", "tariffs"]
stems = {mode: [make_stemmer(mode)(w) for w in words]
         for mode in ("original", "nltk_extensions", "martin_extensions")}
light = porter_stemmer_class()
assert not any(m == "nltk" or m.startswith(("nltk.", "sklearn")) for m in sys.modules)
import nltk
from nltk.stem.porter import PorterStemmer
assert hasattr(nltk, "word_tokenize") and hasattr(nltk.stem, "SnowballStemmer")
modes = {"original": PorterStemmer.ORIGINAL_ALGORITHM, "nltk_extensions":
         PorterStemmer.NLTK_EXTENSIONS, "martin_extensions": PorterStemmer.MARTIN_EXTENSIONS}
for mode, got in stems.items():
    assert got == [PorterStemmer(mode=modes[mode]).stem(w) for w in words], mode
assert light.__module__ == PorterStemmer.__module__ and light is not PorterStemmer
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


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


LITERATURE_TOP_TEN = {"earn": (2877, 1087), "acq": (1650, 719), "money-fx": (538, 179),
                      "grain": (433, 149), "crude": (389, 189), "trade": (369, 117),
                      "interest": (347, 131), "wheat": (212, 71), "ship": (197, 89),
                      "corn": (181, 56)}  # docs/algorithms.md §6.2 (Joachims 1998, from the SGML)


def real_sgml(main_config, mirror_dir):
    options = main_config["reuters"]
    return [mirror_dir / options["folder"] / name for name in sorted(options["sgml"])]


def test_real_corpus(main_config, mirror_dir, tmp_path):
    options = main_config["reuters"]
    stats = build(real_sgml(main_config, mirror_dir), mirror_dir / options["stopwords"]["file"],
                  options, tmp_path / "m.npz", tmp_path / "v.tsv", tmp_path / "s.json")
    assert (stats["n_train"], stats["n_test"], stats["n_categories"]) == (7769, 3019, 90)
    assert (stats["modapte_train"], stats["modapte_test"]) == (9603, 3299)
    assert stats["excluded_newids"] == [1199]
    assert stats["skipped_documents"] == [] and stats["n_documents_parsed"] == 21578
    assert list(stats["categories"])[:10] == list(LITERATURE_TOP_TEN)
    # the literature's counts, except trade: NEWID 1199 is a trade document
    expected = {**LITERATURE_TOP_TEN, "trade": (368, 117)}
    assert {c: (stats["categories"][c]["train"], stats["categories"][c]["test"])
            for c in expected} == expected
    assert stats["categories_per_document"] == pytest.approx(1.235, abs=1e-3)
    X_train, X_test, *_ = load_matrices(tmp_path / "m.npz")
    assert X_train.shape == (7769, 2000) and X_test.shape == (3019, 2000)


def _real_split(main_config, mirror_dir, exclude):
    report = ParseReport()
    for path in real_sgml(main_config, mirror_dir):
        parse_file(path.read_bytes(), path.name, report)
    return modapte(report.documents, exclude)


def test_the_modapte_rule_alone_gives_7770_with_the_literatures_trade_count(main_config,
                                                                           mirror_dir):
    split = _real_split(main_config, mirror_dir, ())
    assert (len(split.train), len(split.test), len(split.categories)) == (7770, 3019, 90)
    assert {c: (split.counts[c]["train"], split.counts[c]["test"])
            for c in LITERATURE_TOP_TEN} == LITERATURE_TOP_TEN


# Single-label train/test counts of an R52 table built from NLTK's package (dataset card of
# mingi-sid/r52-raw on Hugging Face: 52 categories, 9,130 documents), acq to trade as listed there.
NLTK_R52 = {
    "acq": (1596, 696), "alum": (31, 19), "bop": (22, 9), "carcass": (6, 5), "cocoa": (46, 15),
    "coffee": (90, 22), "copper": (31, 13), "cotton": (15, 9), "cpi": (54, 17), "cpu": (3, 1),
    "crude": (253, 121), "dlr": (3, 3), "earn": (2840, 1083), "fuel": (4, 7), "gas": (10, 8),
    "gnp": (59, 15), "gold": (70, 20), "grain": (41, 10), "heat": (6, 4), "housing": (15, 2),
    "income": (7, 4), "instal-debt": (5, 1), "interest": (191, 81), "ipi": (34, 11),
    "iron-steel": (26, 12), "jet": (2, 1), "jobs": (37, 12), "lead": (4, 4), "lei": (11, 3),
    "livestock": (16, 6), "lumber": (10, 4), "meal-feed": (10, 1), "money-fx": (222, 87),
    "money-supply": (123, 28), "nat-gas": (24, 12), "nickel": (3, 1), "orange": (13, 9),
    "pet-chem": (13, 6), "platinum": (1, 2), "potato": (2, 3), "reserves": (37, 12),
    "retail": (19, 1), "rubber": (31, 9), "ship": (108, 36), "strategic-metal": (9, 6),
    "sugar": (97, 25), "tea": (2, 3), "tin": (17, 10), "trade": (250, 76)}


def test_nltks_package_lacks_exactly_newid_1199(main_config, mirror_dir):
    """The evidence for ``exclude_newids: [1199]`` (config/README.md): the R52 table built
    from NLTK's package (documents with exactly one of the 90 categories, then the categories
    with a training and a test document) is reproduced from the SGML files with NEWID 1199
    left out, and not with it."""
    def r52(split):
        def single(docs):
            kept = set(split.categories)
            return Counter(next(iter(set(d.topics) & kept)) for d in docs
                           if len(set(d.topics) & kept) == 1)
        train, test = single(split.train), single(split.test)
        both = set(train) & set(test)
        return {c: (train[c], test[c]) for c in both}

    without, with_it = (r52(_real_split(main_config, mirror_dir, exclude))
                        for exclude in ([1199], []))
    assert len(without) == 52 and sum(a + b for a, b in without.values()) == 9130
    assert {c: without[c] for c in NLTK_R52} == NLTK_R52
    assert sum(a + b for a, b in with_it.values()) == 9131 and with_it["trade"] == (251, 76)


def test_an_unknown_excluded_newid_is_a_config_error(tmp_path):
    options = {"n_features": 4, "expected": FIXTURE_REUTERS_EXPECTED, "exclude_newids": [99]}
    with pytest.raises(ConfigError, match=r"exclude_newids lists NEWID \[99\]"):
        build(SGML, STOPWORDS, options, tmp_path / "m.npz", tmp_path / "v.tsv",
              tmp_path / "s.json")
    assert not any(tmp_path.iterdir())


# -- NLTK's ApteMod package as the source -------------------------------------------------------
PACKAGE = FIXTURE_MIRROR / "nltk_data" / "corpora" / "reuters.zip"


def test_nltk_package_gives_the_same_matrices_as_the_sgml_files(tmp_path):
    expected = {k: v for k, v in FIXTURE_REUTERS_EXPECTED.items() if not k.startswith("modapte")}
    options = {"n_features": 4, "expected": FIXTURE_REUTERS_EXPECTED}
    from_sgml = build(SGML, STOPWORDS, options, tmp_path / "a.npz", tmp_path / "a.tsv",
                      tmp_path / "a.json")
    from_nltk = build([PACKAGE], STOPWORDS, {**options, "source": "nltk"}, tmp_path / "b.npz",
                      tmp_path / "b.tsv", tmp_path / "b.json")
    assert from_nltk["source"] == "nltk" and from_nltk["modapte_train"] is None
    for key in ("n_train", "n_test", "categories", "vocabulary_size", "categories_per_document"):
        assert from_nltk[key] == from_sgml[key], key
    assert (tmp_path / "a.tsv").read_text() == (tmp_path / "b.tsv").read_text()
    with np.load(tmp_path / "a.npz") as a, np.load(tmp_path / "b.npz") as b:
        assert sorted(a.files) == sorted(b.files)
        for name in a.files:
            np.testing.assert_array_equal(a[name], b[name], err_msg=name)
    # the asserted counts still apply: a wrong package stops the stage
    with pytest.raises(InputFileError, match="n_train: 5, expected 6"):
        build([PACKAGE], STOPWORDS, {**options, "source": "nltk",
                                     "expected": {**expected, "n_train": 6}},
              tmp_path / "c.npz", tmp_path / "c.tsv", tmp_path / "c.json")
    assert not (tmp_path / "c.npz").exists()


def test_nltk_package_unpacked_folder_reads_like_the_zip(tmp_path):
    with zipfile.ZipFile(PACKAGE) as bundle:
        bundle.extractall(tmp_path)
    from_zip, from_dir = read_package(PACKAGE), read_package(tmp_path / "reuters")
    assert from_zip.documents == from_dir.documents
    docs = {d.newid: d for d in from_zip.documents}
    assert docs[3].body.split("\n")[0].strip() == "Net profit rose 12 pct <ABC> said."  # &lt;
    assert docs[9].body.split("\n")[0].strip() == "Profit from corn M\u00fcllers."  # 0xFC
    assert docs[2].topics == ["grain", "corn"] and docs[8].lewissplit == "TEST"


def test_broken_nltk_packages_are_clear_errors(tmp_path):
    with pytest.raises(InputFileError, match="does not exist.*nltk_package.path"):
        read_package(tmp_path / "reuters.zip")
    (tmp_path / "bad.zip").write_bytes(b"not a zip")
    with pytest.raises(InputFileError, match="bad.zip is not a zip file"):
        read_package(tmp_path / "bad.zip")
    truncated = tmp_path / "truncated.zip"
    with zipfile.ZipFile(PACKAGE) as source, zipfile.ZipFile(truncated, "w") as target:
        for info in source.infolist():
            if info.filename != "reuters/test/9":
                target.writestr(info, source.read(info))
    with pytest.raises(InputFileError, match=r"member reuters/test/9 is missing"):
        read_package(truncated)


def test_nltk_package_is_fetched_from_the_users_copy_first(tmp_path, fixture_config):
    options = fixture_config["reuters"]
    settings = FetchSettings(sources=("mirror",), mirror=str(tmp_path / "empty"))
    (tmp_path / "empty").mkdir()
    own = tmp_path / "home" / "nltk_data" / "corpora" / "reuters.zip"
    own.parent.mkdir(parents=True)
    shutil.copy(PACKAGE, own)
    raw = nltk_package_file({**options, "nltk_package": {**options["nltk_package"],
                                                         "path": str(own)}})
    receipt = fetch_file(raw, tmp_path / "out.zip", None, settings)
    assert receipt["route"] == "local" and receipt["verified"] == "file"
    # unpinned: accepted, its checksum recorded, and the receipt says so
    unpinned = nltk_package_file({**options, "nltk_package": {**options["nltk_package"],
                                                              "path": str(own),
                                                              "sha256": None}})
    receipt = fetch_file(unpinned, tmp_path / "out2.zip", None, settings)
    assert receipt["verified"] == "unpinned" and receipt["sha256"] == raw.sha256
    # a pinned copy that differs stops, naming the key
    own.write_bytes(own.read_bytes() + b"\0")
    with pytest.raises(ChecksumError, match=r"reuters\.nltk_package\.sha256"):
        fetch_file(raw, tmp_path / "out3.zip", None, settings)
    assert not (tmp_path / "out3.zip").exists()


def test_reuters_target_from_nltk_package_through_snakemake(tmp_path, fixture_config):
    config = copy.deepcopy(fixture_config)
    config["reuters"]["source"] = "nltk"
    result = run_snakemake(tmp_path, config, "reuters")
    assert result.returncode == 0, result.stderr[-3000:]
    stats = json.loads((tmp_path / "data/processed/reuters/stats.json").read_text())
    assert stats["source"] == "nltk" and (stats["n_train"], stats["n_test"]) == (5, 2)
    assert not list((tmp_path / "data/raw/reuters").glob("*.sgm"))  # SGML never fetched
    receipt = json.loads((tmp_path / "data/raw/reuters/nltk/sources.json").read_text())
    assert receipt[0]["route"] == "mirror" and receipt[0]["file"].endswith("reuters.zip")
