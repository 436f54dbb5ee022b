"""How the report pages print numbers, verdicts and a claim's evidence: one implementation for
the WeightBoost report, the sensitivity study and the RegBoost page, so that a p-value, a
signed difference or a win/tie/loss count reads the same wherever a reader meets it.

Every function returns text: a table cell holding text is printed as it is, where a float
column would be printed by pandas with the digits of its longest value (0.000079 made a whole
column of p-values print six decimals, and distinct stumps print as 147.0)."""

from __future__ import annotations

import math

import pandas as pd


MISSING = "—"


def _missing(x) -> bool:
    """None or NaN (as a missing cell of a table reads back)."""
    return x is None or (isinstance(x, float) and math.isnan(x))


def p_text(p) -> str:
    """A p-value with two significant digits (0.31, 0.0078, 9.2e-11)."""
    return MISSING if _missing(p) else f"{p:.2g}"


def _rounded(x: float, decimals: int) -> float:
    """x rounded as printed, without the sign of a zero (-0.04 prints 0.0, not -0.0)."""
    return round(float(x), decimals) + 0.0


def fixed(x, decimals: int = 1) -> str:
    return MISSING if _missing(x) else f"{_rounded(x, decimals):.{decimals}f}"


def signed(x, decimals: int = 1) -> str:
    """A difference with its sign (+0.9, -1.7, +0.0)."""
    return MISSING if _missing(x) else f"{_rounded(x, decimals):+.{decimals}f}"


def interval(low, high, decimals: int = 1) -> str:
    """A confidence interval of a difference: [-1.8, +2.5]."""
    if _missing(low) or _missing(high):
        return MISSING
    return f"[{signed(low, decimals)}, {signed(high, decimals)}]"


def counts_text(wins: int, ties: int, losses: int) -> str:
    """'3 wins, 0 ties, 1 loss'."""
    def noun(n, one, many):
        return f"{n} {one if n == 1 else many}"

    return f"{noun(wins, 'win', 'wins')}, {noun(ties, 'tie', 'ties')}, " \
           f"{noun(losses, 'loss', 'losses')}"


def _holds(holds) -> bool | None:
    """A verdict as evaluated (True, False, None) or as read back from a CSV ("True", NaN)."""
    if _missing(holds):
        return None
    return str(holds) == "True"


def verdict_word(holds) -> str:
    """The verdict of a claim as the pages print it (the HTML colours these words)."""
    verdict = _holds(holds)
    return "NOT CHECKED" if verdict is None else ("HOLDS" if verdict else "DOES NOT HOLD")


def verdict_cell(holds, wins, ties, losses) -> str:
    """A cell of a verdict matrix: '✓ 8/0/0' holds, '✗ 3/0/5' does not, '—' no data."""
    verdict = _holds(holds)
    return MISSING if verdict is None else ("✓ " if verdict else "✗ ") + f"{wins}/{ties}/{losses}"


def claim_paragraph(result: dict) -> str:
    """A claim's verdict, its counts against what it needs, and its other comparisons."""
    return (f"{verdict_word(result.get('holds'))}: {result['claim']} Reproduced: "
            f"{counts_text(result['wins'], result['ties'], result['losses'])} (needed: "
            f"{result['needed']}). {result.get('also', '')}").strip()


def evidence_table(evidence: pd.DataFrame, decimals: int, test: str) -> pd.DataFrame:
    """A duel's per-dataset evidence (its datasets already named as the pages name them): the
    two values under their algorithms' names (at the paper's printed precision), the outcome
    and the paired test's p (named by ``test``; left out when no dataset has one, as for the
    Reuters split)."""
    a, b = evidence.algorithm.iloc[0], evidence.versus.iloc[0]
    frame = pd.DataFrame({
        "dataset": list(evidence.dataset),
        a: [fixed(v, decimals) for v in evidence.value],
        b: [fixed(v, decimals) for v in evidence.versus_value],
        "outcome": list(evidence.outcome)})
    if evidence.p_value.notna().any():
        frame[f"p ({test})"] = [p_text(p) for p in evidence.p_value]
    return frame


def add_claims(doc, checked: list[dict], test: str) -> None:
    """Each checked claim (``weightboost.report.claims.evaluate``): its paragraph and the
    evidence of its first comparison."""
    for result in checked:
        doc.paragraph(claim_paragraph(result))
        if len(result["evidence"]):
            doc.table(evidence_table(result["evidence"], result["duels"][0]["decimals"], test),
                      index=False)
