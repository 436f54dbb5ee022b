"""The results README.md and reports/findings.md quote are bound to the committed tables
(weightboost.report.readme), and the committed derived tables under reports/tables/ are what the
report code computes from the committed results: a table recomputed without its report rebuilt
(or edited by hand) cannot sit beside them unnoticed. (The main report's Tables 2-4 and claims
are checked through Snakemake in tests/test_report.py.)"""

import pytest

from conftest import ROOT
from weightboost.errors import ReproError
from weightboost.fileio import csv_bytes
from weightboost.report.readme import (MARK, PAGES, Tables, evaluate, main, project_root, render,
                                       stale)

TEXTS = {page: (ROOT / page).read_text(encoding="utf-8") for page in PAGES}
ROUNDS = ("summary reading=primary noise=0|0.1 algorithm=WeightBoost field=rounds_mean agg=mean "
          "fmt=.0f")


@pytest.fixture(scope="module")
def tables():
    return Tables(ROOT)


def test_the_pages_quote_bound_results():
    assert set(PAGES) == {"README.md", "reports/findings.md"}
    assert all(MARK.search(text) for text in TEXTS.values())  # the headline numbers too
    assert sum(len(MARK.findall(text)) for text in TEXTS.values()) >= 50  # bound, not typed


@pytest.mark.parametrize("page", PAGES)
def test_every_quoted_result_is_what_the_committed_tables_say(tables, page):
    assert stale(TEXTS[page], tables) == []  # else: `make readme`, and read the prose again


def test_a_query_may_wrap_across_lines(tables):
    one_line = f"<!--n:{ROUNDS}-->0<!--/n-->"
    wrapped = one_line.replace(" field=", "\n  field=")
    [problem] = stale(wrapped, tables)  # read as one query, its line the marker's first
    assert problem.startswith(f"line 1: 0 should be {evaluate(ROUNDS, tables)} ({ROUNDS})")
    assert render(wrapped, tables) == wrapped.replace("-->0<", f"-->{evaluate(ROUNDS, tables)}<")


def test_a_page_below_the_root_reads_the_root_tables(tmp_path, capsys):
    assert project_root(ROOT / "reports" / "findings.md") == ROOT
    assert main([str(tmp_path / "page.md")]) == 2  # no project above it: named, nothing written
    assert "config/config.yaml" in capsys.readouterr().err


def test_a_moved_table_value_is_named_with_its_line_and_new_value(tables):
    moved = Tables(ROOT)
    summary = tables.summary.copy()
    summary.loc[summary.algorithm == "WeightBoost", "rounds_mean"] -= 10
    moved.__dict__["summary"] = summary  # the cached table, as if the study had moved
    text = f"first line\nWeightBoost uses <!--n:{ROUNDS}-->{evaluate(ROUNDS, tables)}<!--/n-->"
    [problem] = stale(text, moved)
    assert problem.startswith(f"line 2: {evaluate(ROUNDS, tables)} should be "
                              f"{evaluate(ROUNDS, moved)}")
    assert stale(render(text, moved), moved) == []


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
