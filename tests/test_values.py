"""Named values (weightboost.report.values): every number the README and the article quote is
defined once in workflow/article/values.yaml and read from the committed tables; the README's
are what those tables say (the article's: tests/test_article.py), and the committed derived
tables under reports/tables/ are what the report code computes from the committed results.
(The main report's Tables 2-4 and claims are checked through Snakemake in
tests/test_report.py.)"""

import re

import pytest

from conftest import ROOT
from weightboost.errors import ReproError
from weightboost.fileio import csv_bytes
from weightboost.report.values import (DEFINITIONS, MARK, NAME, PAGES, Tables, compute,
                                       definitions, evaluate, main, project_root, render, stale,
                                       value)

NAMED = definitions(ROOT / DEFINITIONS)
ARTICLE = ROOT / "workflow" / "article" / "article.typ"
ARTICLE_NAME = re.compile(rf"#v\.({NAME})")
TEXTS = {page: (ROOT / page).read_text(encoding="utf-8") for page in PAGES}
ROUNDS = "wb_rounds_weightboost"


@pytest.fixture(scope="module")
def tables():
    return Tables(ROOT)


def used_names() -> dict[str, set[str]]:
    """Each text that quotes named values, and the names it uses."""
    used = {page: {m["name"] for m in MARK.finditer(text)} for page, text in TEXTS.items()}
    used[str(ARTICLE.relative_to(ROOT))] = set(ARTICLE_NAME.findall(ARTICLE.read_text()))
    return used


def test_every_name_a_text_uses_is_defined_and_every_defined_value_is_used():
    used = used_names()
    undefined = {text: sorted(names - set(NAMED)) for text, names in used.items()
                 if names - set(NAMED)}
    assert not undefined, f"names no file defines: {undefined}"
    unused = set(NAMED) - set().union(*used.values())
    assert not unused, f"values no text uses: {sorted(unused)}"
    assert all(used.values())  # each text quotes values by name, none typed


def test_no_prose_file_holds_a_query():
    # a number in prose is a name; its query lives in values.yaml alone
    prose = [ROOT / "README.md", ARTICLE, *(ROOT / "docs").glob("*.md"),
             ROOT / "config" / "README.md", *(ROOT / "reports").glob("*.md")]
    for path in prose:
        assert "<!--n:" not in path.read_text(encoding="utf-8"), path


@pytest.mark.parametrize("page", PAGES)
def test_every_quoted_value_is_what_the_committed_tables_say(tables, page):
    assert stale(TEXTS[page], NAMED, tables) == []  # else: `make readme`, and read the prose again


def test_a_page_below_the_root_reads_the_root_tables(tmp_path, capsys):
    assert project_root(ROOT / "reports" / "article.html") == ROOT
    assert main([str(tmp_path / "page.md")]) == 2  # no project above it: named, nothing written
    assert "config/config.yaml" in capsys.readouterr().err


def test_a_moved_table_value_is_named_with_its_line_and_new_value(tables):
    moved = Tables(ROOT)
    summary = tables.summary.copy()
    summary.loc[summary.algorithm == "WeightBoost", "rounds_mean"] -= 10
    moved.__dict__["summary"] = summary  # the cached table, as if the study had moved
    was = value(ROUNDS, NAMED, tables)
    text = f"first line\nWeightBoost uses <!--v:{ROUNDS}-->{was}<!--/v--> rounds"
    [problem] = stale(text, NAMED, moved)
    assert problem == (f"line 2: value {ROUNDS} is {was}, the tables say "
                       f"{value(ROUNDS, NAMED, moved)}")
    assert stale(render(text, NAMED, moved), NAMED, moved) == []


def test_an_undefined_name_or_a_bad_definition_stops_naming_it(tables, tmp_path):
    with pytest.raises(ReproError, match="'no_such_value' is not defined"):
        stale("<!--v:no_such_value-->1<!--/v-->", NAMED, tables)
    bad = tmp_path / "values.yaml"
    bad.write_text("Bad-Name: summary field=x\nfine: 3\n")
    with pytest.raises(ReproError, match="Bad-Name, fine: a name is lower-case"):
        definitions(bad)


def test_a_named_run_without_a_study_gets_not_run_and_the_committed_run_stops(tmp_path):
    empty = Tables(tmp_path, config=Tables(ROOT).config)
    named = {"rounds": NAMED[ROUNDS]}
    assert compute(named, empty, strict=False) == {"rounds": "n/a"}
    with pytest.raises(ReproError, match="value rounds: .*missing"):
        compute(named, empty)


@pytest.mark.parametrize("query, words", [
    ("nosuch field=x", "unknown source 'nosuch'"),
    ("summary reading=primary field=nosuch", "no column 'nosuch'"),
    ("summary nosuch=1 field=error_mean", "no column 'nosuch'"),
    ("summary reading=primary field=error_mean", "rows match, not one"),
    ("summary reading=nosuch field=error_mean agg=mean", "no row matches"),
    ("summary reading=primary field=error_mean agg=median", "agg='median'"),
    ("summary reading=primary", "no field="),
])
def test_a_bad_query_stops_naming_it(tables, query, words):
    with pytest.raises(ReproError, match=words.replace("(", r"\(").replace("'", "'")):
        evaluate(query, tables)


def test_values_print_as_the_prose_does(tables):
    # the typographic minus, a fixed sign where asked, percent by scale
    difference = evaluate("duels claim=table2_adaboost reading=resample dataset=all "
                          "field=difference fmt=+.2f", tables)
    assert difference.startswith("\N{MINUS SIGN}") and "-" not in difference
    error = float(evaluate("summary reading=primary noise=0 algorithm=C4.5 dataset=pima "
                           "field=error_mean scale=100 fmt=.1f", tables))
    assert 10 < error < 50


@pytest.mark.parametrize("name, source", [
    ("verdicts.csv", "verdicts"), ("sensitivity_duels.csv", "duels"),
    ("regboost_table1.csv", "regboost_table1"), ("regboost_claims.csv", "regboost_claims"),
    ("regboost_cross_paper.csv", "regboost_cross_paper")])
def test_the_committed_report_tables_are_those_of_the_committed_results(tables, name, source):
    assert csv_bytes(tables.source(source, {})) == \
        (ROOT / "reports" / "tables" / name).read_bytes()
