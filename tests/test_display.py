"""How the pages print numbers: one formatter for the three pages, text a reader can compare."""

import math

import pandas as pd

from weightboost.report import display
from weightboost.report.document import Document


def test_p_values_have_two_significant_digits_whatever_their_size():
    assert [display.p_text(p) for p in (0.69, 0.0786, 7.9e-05, 2.4e-11, 1.0)] == \
        ["0.69", "0.079", "7.9e-05", "2.4e-11", "1"]
    assert display.p_text(float("nan")) == display.p_text(None) == "—"


def test_a_difference_that_rounds_to_zero_has_no_minus_sign():
    assert display.signed(-0.04) == "+0.0" and display.fixed(-0.04) == "0.0"
    assert display.signed(-0.06) == "-0.1" and display.signed(0.349, 2) == "+0.35"
    assert display.interval(-1.849, 2.5) == "[-1.8, +2.5]"
    assert display.interval(float("nan"), 1.0) == "—"


def test_counts_are_singular_for_one():
    assert display.counts_text(3, 0, 1) == "3 wins, 0 ties, 1 loss"
    assert display.counts_text(1, 1, 2) == "1 win, 1 tie, 2 losses"


def test_verdicts_read_the_same_on_every_page():
    assert display.verdict_cell(True, 8, 0, 0) == display.verdict_cell("True", 8, 0, 0) == "✓ 8/0/0"
    assert display.verdict_cell(False, 3, 0, 5) == "✗ 3/0/5"
    assert display.verdict_cell(float("nan"), 0, 0, 0) == "—"
    assert [display.verdict_word(h) for h in (True, False, None)] == \
        ["HOLDS", "DOES NOT HOLD", "NOT CHECKED"]


def _evidence(values, versus, p):
    # as claims.uci_duel gives it: the datasets under their display names
    return pd.DataFrame({"dataset": ["Ionosphere", "Pima"], "algorithm": "RegBoost",
                         "versus": "AdaBoost-stumps", "value": values, "versus_value": versus,
                         "difference": [a - b for a, b in zip(values, versus)],
                         "outcome": ["win", "win"], "p_value": p})


def test_evidence_prints_each_value_at_the_precision_it_was_compared_at():
    table = display.evidence_table(_evidence([147.0, 92.0], [186.0, 176.0], [0.073, 1.1e-10]),
                                   decimals=0, test="corrected t")
    assert list(table.columns) == ["dataset", "RegBoost", "AdaBoost-stumps", "outcome",
                                   "p (corrected t)"]
    assert table.iloc[0].tolist() == ["Ionosphere", "147", "186", "win", "0.073"]
    # a column of p-values of very different sizes: each keeps its own two digits
    assert table["p (corrected t)"].tolist() == ["0.073", "1.1e-10"]
    errors = display.evidence_table(_evidence([9.9, 24.9], [9.6, 25.0], [math.nan] * 2), 1, "t")
    assert errors.RegBoost.tolist() == ["9.9", "24.9"] and "p (t)" not in errors.columns


def test_a_pivoted_table_has_one_header_row_and_no_corner_cell():
    frame = pd.DataFrame({"reading": ["primary", "R2"], "claim": ["gap", "gap"],
                          "cell": ["✓ 4/0/0", "✓ 3/0/1"]}).pivot(index="reading",
                                                                  columns="claim", values="cell")
    assert frame.columns.name == "claim"  # what pandas would print above the index
    doc = Document("t")
    doc.table(frame)
    html = doc.html()
    header = html[html.index("<thead>"):html.index("</thead>")]
    assert header.count("<tr") == 1 and header.count("<th>") == 2, header
    assert "reading" in header and "claim" not in header


def test_a_verdict_read_back_from_a_table_prints_as_evaluated():
    import io

    import numpy as np

    frame = pd.DataFrame({"holds": [True, False, None]})
    back = pd.read_csv(io.StringIO(frame.to_csv(index=False))).holds
    assert [display.verdict_cell(h, 1, 0, 0) for h in back] == \
        [display.verdict_cell(h, 1, 0, 0) for h in (True, np.False_, float("nan"))] == \
        ["✓ 1/0/0", "✗ 1/0/0", "—"]
