"""The report: published figures copied faithfully, tables and claims built from result tables,
a self-contained HTML that a browser renders with its tables and figures."""

import copy
import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from conftest import ROOT
from weightboost.report.build import build_report
from weightboost.report.claims import evaluate
from weightboost.report.reference import JIN2003, load_reference, table2, table3, table4

REFERENCE = ROOT / JIN2003
GOLDEN = ROOT / "tests" / "golden" / "ci"
# The published figures as the team's shared/reference/ holds them: each file's keys, and the
# SHA-256 of their values (JSON, keys sorted), taken from shared/reference/<file> on 2026-12-06.
PUBLISHED = {
    "jin2003_tables.yaml": (
        ("claims", "figure1", "notes", "table1_datasets", "table2_error_no_noise",
         "table3_reuters_f1", "table4_error_with_noise"),
        "f864f86dcad86f3bd1f4fbcc248159e95ca07f99771278f2c4d2af03bb41f697"),
    "wang_kegl2004_table1.yaml": (
        ("columns", "rows"), "168639d7e5722dc19d4674cfc531b3022fc6e6b33e53412cf5c3efbea6f6bb07"),
}


def _published(name, source):
    keys, _ = PUBLISHED[name]
    values = yaml.safe_load(source.read_text())
    return {key: values[key] for key in keys}


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_the_reference_copies_hold_the_published_figures_unchanged(name):
    # an edited published number (or a key lost) in config/reference/ fails here, with or
    # without shared/ beside the checkout; the copies only add keys of their own (claim checks)
    import hashlib

    published = _published(name, ROOT / "config" / "reference" / name)
    digest = hashlib.sha256(json.dumps(published, sort_keys=True).encode()).hexdigest()
    assert digest == PUBLISHED[name][1]
    if name == "jin2003_tables.yaml":  # one claim check per published claim
        ours = yaml.safe_load((ROOT / "config" / "reference" / name).read_text())
        assert len(ours["claim_checks"]) == len(published["claims"])
    shared = ROOT.parent / "shared" / "reference" / name
    if shared.exists():  # and they are what shared/ holds now (CI has it beside the clone)
        assert yaml.safe_load(shared.read_text()) == published


def test_reference_mapping_reads_known_cells():
    ref = load_reference(REFERENCE)
    assert table2(ref)[("ionosphere", "C4.5")] == 9.1
    assert table2(ref)[("cmc", "WeightBoost")] == 27.6
    assert table2(ref)[("breast_cancer", "EpsilonBoost")] == 3.2
    assert table4(ref)[(0.1, "spambase", "WeightBoost")] == 5.8
    assert table4(ref)[(0.3, "wpbc", "AdaBoost")] == 38.6
    assert table3(ref)[("trade", "WeightBoost")] == 0.6949
    assert len(table2(ref)) == 40 and len(table4(ref)) == 72 and len(table3(ref)) == 30


@pytest.fixture(scope="module")
def built(tmp_path_factory, main_config):
    out = tmp_path_factory.mktemp("report")
    config = copy.deepcopy(main_config)
    overlay = yaml.safe_load((ROOT / "config" / "ci.yaml").read_text())
    for key, value in overlay.items():
        config[key] = {**config[key], **value}
    build_report(GOLDEN, out, config, REFERENCE, ROOT / "workflow/report/notes.md",
                 out / "reports")
    return out / "reports"


def test_report_tables_pair_reproduced_and_published(built):
    t2 = pd.read_csv(built / "tables" / "table2.csv")
    assert len(t2) == 40
    summary = pd.read_csv(GOLDEN / "uci_summary.csv")
    row = t2[(t2.dataset == "pima") & (t2.algorithm == "WeightBoost")].iloc[0]
    golden = summary[(summary.dataset == "pima") & (summary.noise == 0)
                     & (summary.algorithm == "WeightBoost")].iloc[0]
    assert row.error_mean == pytest.approx(100 * golden.error_mean)
    assert row.published == 22.6
    assert row.difference == pytest.approx(row.error_mean - 22.6)
    t4 = pd.read_csv(built / "tables" / "table4.csv")
    assert set(t4.noise) == {0.1, 0.2, 0.3}
    assert t4[t4.algorithm == "WeightDecay"].published.isna().all()  # extra column
    assert (built / "tables" / "table2.tex").read_text().count("\\pm") >= 40
    claims = pd.read_csv(built / "tables" / "claims.csv").set_index("id")
    assert len(claims) == 5
    # every claim is decided: the ci profile's Reuters study (10 rounds) reads both boosters at
    # T = 10 (a paper T above the study's rounds is refused, not left without a column)
    assert claims.holds.isin([True, False]).all()


def test_html_is_self_contained_and_markdown_links_exist(built):
    # the page embeds exactly the figures written beside it, in the markdown's order, and
    # loads nothing from elsewhere
    import base64
    import re

    html = (built / "report.html").read_text()
    assert "src='http" not in html and 'src="http' not in html and "<link" not in html
    embedded = [base64.b64decode(data) for data in
                re.findall(r"src='data:image/png;base64,([A-Za-z0-9+/=]+)'", html)]
    md = (built / "report.md").read_text()
    linked = re.findall(r"\(figures/([a-z0-9_]+)\.png\)", md)
    assert sorted(linked) == ["figure1", "noise_curves", "reuters_f1_curves"]
    assert embedded == [(built / "figures" / f"{name}.png").read_bytes() for name in linked]
    for name in linked:
        assert (built / "figures" / f"{name}.svg").read_text().startswith("<?xml")


def test_figures_are_reproducible(built, tmp_path, main_config):
    config = copy.deepcopy(main_config)
    build_report(GOLDEN, tmp_path, config, REFERENCE, None, tmp_path / "again")
    for name in ("figure1.svg", "noise_curves.svg", "figure1.png"):
        assert (built / "figures" / name).read_bytes() == \
            (tmp_path / "again" / "figures" / name).read_bytes()


def test_claims_are_counted_from_the_means():
    ref = load_reference(REFERENCE)
    datasets = ["ionosphere", "german"]
    rows, fold_rows = [], []
    for d, wb, ada in (("ionosphere", 0.05, 0.07), ("german", 0.25, 0.24)):
        for algorithm, error in (("WeightBoost", wb), ("AdaBoost", ada)):
            rows.append({"dataset": d, "noise": 0.0, "algorithm": algorithm,
                         "error_mean": error, "rounds_mean": 10})
            for fold in range(10):
                fold_rows.append({"dataset": d, "noise": 0.0, "algorithm": algorithm,
                                  "repeat": 0, "fold": fold, "error": error + 0.001 * fold})
    result = evaluate(ref["claim_checks"][:1], ref["claims"][:1], pd.DataFrame(rows),
                      pd.DataFrame(fold_rows),
                      pd.DataFrame(columns=["category", "algorithm", "t_rule", "f1"]), datasets)
    assert (result[0]["wins"], result[0]["losses"], result[0]["holds"]) == (1, 1, False)
    assert result[0]["evidence"].p_value.iloc[0] < 0.01  # WB better on all 10 folds


def test_a_claim_of_a_clear_advantage_counts_only_significant_wins():
    # `significance` in a duel (the RegBoost claims of Figure 3(f)): a win whose paired p is
    # not below the level is a tie; without it the same numbers are two wins
    swing = np.array([0.05, -0.05] * 5)
    folds = {("ionosphere", "WeightBoost"): 0.05 + 0.001 * np.arange(10),
             ("ionosphere", "AdaBoost"): 0.07 + 0.001 * np.arange(10),
             ("german", "WeightBoost"): 0.240 + swing, ("german", "AdaBoost"): 0.245 - swing}
    summary = pd.DataFrame([{"dataset": d, "noise": 0.0, "algorithm": a, "error_mean": e.mean(),
                             "rounds_mean": 10} for (d, a), e in folds.items()])
    fold_rows = pd.DataFrame([{"dataset": d, "noise": 0.0, "algorithm": a, "repeat": 0,
                               "fold": k, "error": e[k]} for (d, a), e in folds.items()
                              for k in range(10)])
    duel = {"source": "uci", "algorithm": "WeightBoost", "versus": "AdaBoost", "noise": 0.0,
            "wins_needed": "all"}
    f1 = pd.DataFrame(columns=["category", "algorithm", "t_rule", "f1"])
    plain, clear = (evaluate([{"id": "c", "duels": [d]}], ["a claim"], summary, fold_rows, f1,
                             ["ionosphere", "german"])[0]
                    for d in (duel, {**duel, "significance": 0.05}))
    assert (plain["wins"], plain["ties"], plain["holds"]) == (2, 0, True)
    assert (clear["wins"], clear["ties"], clear["holds"]) == (1, 1, False)
    outcome = clear["evidence"].set_index("dataset").outcome
    assert outcome["Ionosphere"] == "win" and outcome["German"] == "tie"
    assert "a win only where p < 0.05" in clear["needed"]


def test_browser_renders_tables_and_figures(built, tmp_path):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("chromium is not installed (.ci/run installs Debian's package)")
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={tmp_path / 'profile'}"]
    url = (built / "report.html").as_uri()
    shot = tmp_path / "report.png"
    subprocess.run([chromium, *flags, f"--screenshot={shot}", "--window-size=1200,2400", url],
                   check=True, capture_output=True, timeout=120)
    dom = subprocess.run([chromium, *flags, "--dump-dom", url], check=True,
                         capture_output=True, text=True, timeout=120).stdout
    assert dom.count("<table") >= 8 and dom.count("<img") == 3
    from matplotlib.image import imread

    pixels = imread(shot)
    assert pixels.shape[0] >= 2000 and np.std(pixels) > 0.05  # not a blank page


def test_claims_evaluator_gives_the_committed_verdicts(main_config):
    # the generic evaluator on the committed primary tables: today's five verdicts
    ref = load_reference(REFERENCE)
    results = ROOT / "results"
    checked = evaluate(ref["claim_checks"], ref["claims"], pd.read_csv(results / "uci_summary.csv"),
                       pd.read_csv(results / "uci_folds.csv"),
                       pd.read_csv(results / "reuters_f1.csv"),
                       main_config["experiment"]["datasets"])
    got = {c["id"]: (c["holds"], c["wins"], c["ties"], c["losses"]) for c in checked}
    assert got == {"table2_adaboost": (False, 3, 0, 5),
                   "table2_weight_decay": (False, 2, 0, 6),
                   "table2_epsilon_boost": (False, 5, 0, 3),
                   "table3_reuters": (False, 6, 1, 3),
                   "table4_noise10": (False, 5, 0, 3)}
    table4 = checked[-1]
    assert "3/0/0" in table4["also"]  # AdaBoost above C4.5 on all three sets: that part holds


def test_committed_results_rebuild_the_report_without_recomputing(tmp_path, main_config):
    # what a fresh clone does with `snakemake report`: the committed tables and their provenance
    # records are enough; no data or experiment job is scheduled, and the tables come out equal
    from conftest import run_snakemake

    results = tmp_path / "results"
    results.mkdir()
    for table in (*(ROOT / "results").glob("*.csv"), *(ROOT / "results").glob("*.provenance.json")):
        shutil.copy2(table, results / table.name)
    result = run_snakemake(tmp_path, main_config, "report")
    assert result.returncode == 0, result.stderr[-3000:]
    ran = {line.split()[1].rstrip(":") for line in result.stderr.splitlines()
           if line.split()[:1] in (["rule"], ["localrule"])}
    assert ran == {"report"}, ran
    for name in ("table2.csv", "table3.csv", "table4.csv", "claims.csv"):
        assert (tmp_path / "reports/tables" / name).read_text() == \
            (ROOT / "reports/tables" / name).read_text(), name
    # the provenance section names the platform each table set was combined on
    from weightboost.report.provenance import WEIGHTBOOST, platform_summary

    report = (tmp_path / "reports/report.md").read_text()
    for kind in WEIGHTBOOST:  # the main report's table sets (the others have their own pages)
        record = json.loads((results / f"{kind}.provenance.json").read_text())
        assert platform_summary(record.get("platform")) in report
    # `all` still recomputes everything from the raw data
    everything = run_snakemake(tmp_path, main_config, "all", "-n")
    assert everything.returncode == 0, everything.stderr[-3000:]
    from test_workflow_experiments import scheduled

    counts = scheduled(everything.stdout)
    assert counts["uci_cell"] == len(pd.read_csv(results / "uci_folds.csv")) // 10
    assert {"fetch_uci", "parse_uci", "uci_results", "reuters_results"} <= set(counts)
    # a table changed after it was computed is refused, by name
    summary = results / "uci_summary.csv"
    summary.write_text(summary.read_text().replace("0.", "0.0", 1))
    refused = run_snakemake(tmp_path, main_config, "report", "-n")
    assert refused.returncode != 0
    assert "uci_summary.csv is not the table recorded" in refused.stdout + refused.stderr


def test_a_page_says_when_its_tables_come_from_another_software_environment(tmp_path):
    # a record holds the environment its cells were computed in (weightboost.pipeline.environment);
    # a page built from tables of another one says so first, and which versions differ
    from weightboost.pipeline import environment
    from weightboost.report.document import Document
    from weightboost.report.provenance import add_section, environment_now, table_sets

    here = environment.record()
    assert environment_now(here) == "same"
    assert environment_now(None) == "not recorded"
    record = {"table_set": "uci", "tables": ["uci_folds.csv", "uci_summary.csv"], "run": "main",
              "config_sha256": "c" * 64, "code_sha256": "0" * 64,
              "environment": {**here, "numpy": "1.0.0"}}
    (tmp_path / "uci.provenance.json").write_text(json.dumps(record))
    sets = table_sets(tmp_path, ("uci",))
    assert sets["environment now"].tolist() == [f"differs: numpy: 1.0.0 -> {here['numpy']}"]
    doc = Document("t")
    add_section(doc, tmp_path, tmp_path, ("uci",), None, tmp_path / "out", {})
    page = doc.markdown(tmp_path)
    assert "Not computed in the software environment installed now: uci_folds.csv" in page
    (tmp_path / "uci.provenance.json").write_text(json.dumps({**record, "environment": here}))
    doc = Document("t")
    add_section(doc, tmp_path, tmp_path, ("uci",), None, tmp_path / "out", {})
    assert "software environment installed now" not in doc.markdown(tmp_path)
