"""The replication article (weightboost.report.article): the verdict rule, the parts it reads
from the docs and the tables, and a tiny named run's own article built through the workflow."""

import re
import shutil

import pandas as pd
import pytest

from conftest import ROOT, run_snakemake
from weightboost.errors import ReproError
from weightboost.report.article import (NOT_REPLICATED, REPLICATED, build_article, claims,
                                        paper_verdict, register, shallow, side_by_side)
from weightboost.report.values import DEFINITIONS, Tables, definitions


def claim(holds: bool) -> dict:
    return {"holds": holds}


def test_the_committed_article_is_what_its_source_and_the_committed_tables_give(tmp_path):
    # CI rebuilds it: a moved table, or prose edited without `make report`, fails here, and a
    # value that moved is named
    build_article(ROOT, "results", "reports", None, "main", ROOT, tmp_path / "article.pdf",
                  tmp_path / "article.html", tmp_path / "values.csv")
    committed = pd.read_csv(ROOT / "reports/tables/values.csv", dtype=str, keep_default_na=False)
    now = pd.read_csv(tmp_path / "values.csv", dtype=str, keep_default_na=False)
    differ = [f"{name}: article {was}, tables {new}" for name, was, new
              in zip(committed.name, committed.value, now.value) if was != new]
    assert not differ, "rebuild the article (make report): " + "; ".join(differ)
    assert list(committed.name) == list(now.name) == list(definitions(ROOT / DEFINITIONS))
    if shallow(ROOT):  # its captions name the commits of the records, which it lacks
        pytest.skip("a shallow clone: the captions' commits cannot be read from its history")
    for name in ("article.html", "article.pdf"):
        assert (tmp_path / name).read_bytes() == (ROOT / "reports" / name).read_bytes(), \
            f"reports/{name} is not what its source gives: rebuild it (make report)"


def test_no_semicolon_of_the_prose_is_swallowed_by_a_value_before_it():
    # Typst ends an embedded expression at a `;` and drops it: `#v.wins;` prints "8" without
    # its semicolon; the prose writes `#v.wins\;`
    source = (ROOT / "workflow/article/article.typ").read_text()
    assert not re.findall(r"#[a-z][\w.]*(?:\([^()]*\))?;", source)


def test_a_paper_is_replicated_only_when_every_claim_holds():
    assert paper_verdict([claim(True)] * 5) == REPLICATED == "[Re]"
    assert paper_verdict([claim(True)] * 4 + [claim(False)]) == NOT_REPLICATED == "[¬Re]"
    assert paper_verdict([]) == NOT_REPLICATED  # no claim checked: nothing replicated


def test_the_committed_verdicts_are_the_claims_tables():
    # the first page's lines are the main tables' evaluations, in their order, with the other
    # readings of the sensitivity study under which a claim holds
    found = claims(Tables(ROOT))
    main = pd.read_csv(ROOT / "reports/tables/claims.csv")
    assert [c["id"] for c in found["jin2003"]] == list(main.id)
    assert [c["holds"] for c in found["jin2003"]] == list(main.holds)
    study = pd.read_csv(ROOT / "reports/tables/verdicts.csv")
    holding = study[study.holds & (study.reading != "primary")]
    for c in found["jin2003"]:
        assert c["holds_under"] == list(holding[holding.claim == c["id"]].reading)
    regboost = pd.read_csv(ROOT / "reports/tables/regboost_claims.csv")
    first = regboost.groupby("claim", sort=False).head(1)
    assert [(c["id"], c["reading"], c["holds"]) for c in found["wang_kegl2004"]] == \
        list(zip(first.claim, first.reading, first.holds))


def test_the_register_is_read_from_the_protocol_as_typst_markup(tmp_path):
    items = register(ROOT / "docs" / "protocol.md")
    assert [item.split()[0] for item in items] == [f"*A{i}.*" for i in range(1, 10)]
    assert "_Primary:_" in items[0] and "`sampling: resample`" in items[0]
    page = tmp_path / "protocol.md"
    page.write_text("## 6. Ambiguity register\nintro\n- **A1.** a_b #c [d] `e_f`\n## 7. Next\n")
    assert register(page) == [r"*A1.* a\_b \#c \[d\] `e_f`"]  # Typst's markup escaped, code kept
    page.write_text("# no register\n")
    with pytest.raises(ReproError, match="no section '## 6. Ambiguity register'"):
        register(page)


def test_a_side_by_side_table_pairs_ours_with_the_papers_and_keeps_the_papers_columns():
    frame = pd.DataFrame({"dataset": ["pima", "pima", "pima", "wdbc", "wdbc"],
                          "algorithm": ["C4.5", "AdaBoost", "WeightDecay", "C4.5", "AdaBoost"],
                          "error_mean": [25.44, 24.0, 23.0, 6.3, -0.05],
                          "published": [25.2, 24.7, None, 6.1, 3.5]})
    table = side_by_side(frame, ["dataset"], "algorithm", "error_mean", "published", 1)
    assert table["columns"] == ["C4.5", "AdaBoost"]  # WeightDecay: no published value
    assert table["index"] == ["Dataset"]
    assert table["rows"][0] == {"key": ["Pima"], "cells": [["25.4", "25.2"], ["24.0", "24.7"]]}
    assert table["rows"][1]["cells"][1] == ["\N{MINUS SIGN}0.1", "3.5"]
    noisy = frame.assign(noise=[0.1, 0.1, 0.1, 0.1, 0.2])
    table = side_by_side(noisy, ["noise", "dataset"], "algorithm", "error_mean", "published", 1)
    # a group's first key on its first row only
    assert [row["key"] for row in table["rows"]] == [["10 %", "Pima"], ["", "wdbc"],
                                                     ["20 %", "wdbc"]]


@pytest.mark.slow
def test_a_named_tiny_run_gets_its_own_article_from_its_own_tables(tiny_run, tmp_path):
    source, config = tiny_run
    work = tmp_path / "run"
    shutil.copytree(source, work, symlinks=True, ignore=shutil.ignore_patterns(".snakemake"))
    result = run_snakemake(work, {**config, "run": "tiny"}, "article")
    assert result.returncode == 0, result.stderr[-3000:]
    ran = {line.split()[1].rstrip(":") for line in result.stderr.splitlines()
           if line.split()[:1] in (["rule"], ["localrule"])}
    assert "uci_cell" not in ran and "article" in ran  # its tables from the cells there are
    out = work / "reports/runs/tiny"
    assert (out / "article.pdf").read_bytes().startswith(b"%PDF")
    assert not (work / "reports/article.pdf").exists()  # the committed run's article untouched
    values = dict(pd.read_csv(out / "tables/values.csv", dtype=str, keep_default_na=False)
                  .itertuples(index=False))
    run_claims = pd.read_csv(out / "tables/claims.csv")
    assert values["wb_main_sets"] == "3"  # the tiny run's three data sets
    assert values["wb_claims"] == str(len(run_claims))
    assert values["bagging_wins_10"] == "n/a"  # the sensitivity study: not run here
    html = (out / "article.html").read_text()
    mark = paper_verdict([{"holds": h} for h in run_claims.holds])
    assert f"<title>{mark} Jin et al. (2003)</title>" in html  # no RegBoost in this run
    assert "did not run the sensitivity study" in html
