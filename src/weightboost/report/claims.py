"""The paper's claims checked on reproduced numbers by one generic evaluator.

Each claim is data: ``claim_checks`` in the reference file gives, for the claim sentence of
the same position in ``claims``, the *duels* that decide it (see the comment there). A duel
counts wins, ties and losses of one algorithm against another over datasets (mean test error,
lower wins) or Reuters categories (F1, higher wins), with a tie when the two agree at the
paper's printed precision; it holds with at least ``wins_needed`` wins. A claim of a *clear*
or *far* better result names a ``significance`` level: a win then counts only where the
dataset's paired p-value is below it, and is a tie otherwise.

Beside the counts, each dataset gets a paired p-value from a pluggable test (by default the
two-sided Wilcoxon signed-rank test on the per-fold errors of the two algorithms: same folds,
same noisy labels; with 10 folds its p-values are coarse, at best about 0.002), and each UCI
duel a p-value across datasets: the Wilcoxon signed-rank test on the per-dataset mean
differences (Demšar 2006). The Reuters claims rest on one train/test split: no folds to pair
within a category; their p is the same test across the categories' F1 differences.

The same evaluator checks the RegBoost study's claims (``config/reference/
wang_kegl2004_table1.yaml``): their duels name a ``metric`` (a column of the folds table, with
``<metric>_mean`` in the summary; default ``error``) and a ``source`` whose tables the caller
passes in ``sources``; ``versus_value`` compares with a published constant instead of another
algorithm (the p-value is then the signed-rank test of the fold values against it).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from weightboost.report.reference import DISPLAY
from weightboost.statistics import across_datasets, signed_rank_p

PRECISION = {"uci": 1, "reuters": 4}  # decimals the paper prints (error in %, F1)
# metric -> (scale to the printed unit, decimals printed); lower is better for each
METRICS = {"error": (100.0, 1), "test_error": (100.0, 1), "gap": (100.0, 1),
           "distinct_stumps": (1.0, 0)}
EVIDENCE = ["dataset", "algorithm", "versus", "value", "versus_value", "difference", "outcome",
            "p_value"]


def fold_wilcoxon(folds: pd.DataFrame, dataset, noise, a, b, metric="error") -> float:
    """Two-sided Wilcoxon signed-rank p-value of the paired fold errors of a and b."""
    pick = folds[(folds.dataset == dataset) & np.isclose(folds.noise, noise)]
    ea = pick[pick.algorithm == a].sort_values(["repeat", "fold"])[metric].to_numpy()
    eb = pick[pick.algorithm == b].sort_values(["repeat", "fold"])[metric].to_numpy()
    if len(ea) != len(eb) or len(ea) == 0:
        return float("nan")
    if np.all(ea == eb):
        return 1.0
    return signed_rank_p(ea - eb)


def _outcome(value, versus, lower_is_better):
    if value == versus:
        return "tie"
    return "win" if (value < versus) == lower_is_better else "loss"


def uci_duel(summary, folds, duel: dict, datasets, paired=fold_wilcoxon) -> pd.DataFrame:
    """Per dataset: the two means of the duel's metric (error in %, at the paper's precision),
    outcome and p-value."""
    a, noise = duel["algorithm"], float(duel["noise"])
    metric = duel.get("metric", "error")
    scale, decimals = METRICS[metric]
    constant = duel.get("versus_value")
    b = duel["versus"] if constant is None else f"{float(constant):g} (published)"
    part = summary[np.isclose(summary.noise, noise)].set_index(["dataset", "algorithm"])
    rows = []
    for d in [d for d in datasets if d in set(duel.get("datasets") or datasets)]:
        if (d, a) not in part.index or (constant is None and (d, b) not in part.index):
            continue
        ea = scale * part.loc[(d, a)][f"{metric}_mean"]
        eb = (float(constant) if constant is not None
              else scale * part.loc[(d, b)][f"{metric}_mean"])
        va, vb = (round(e + 1e-9, decimals) for e in (ea, eb))
        if constant is None:
            p = paired(folds, d, noise, a, b, metric=metric)
        else:
            pick = folds[(folds.dataset == d) & np.isclose(folds.noise, noise)
                         & (folds.algorithm == a)]
            p = signed_rank_p(scale * pick[metric].to_numpy() - float(constant))
        rows.append({"dataset": DISPLAY.get(d, d), "algorithm": a, "versus": b, "value": va,
                     "versus_value": vb, "difference": ea - eb,
                     "outcome": _outcome(va, vb, lower_is_better=True), "p_value": p})
    return pd.DataFrame(rows, columns=EVIDENCE)


def reuters_duel(f1: pd.DataFrame, duel: dict) -> pd.DataFrame:
    a, b = duel["algorithm"], duel["versus"]
    part = f1[f1.t_rule == duel["t_rule"]].set_index(["category", "algorithm"]).f1
    rows = []
    for category in f1.category.unique():
        if (category, a) not in part.index or (category, b) not in part.index:
            continue
        va, vb = (round(float(part[(category, x)]), PRECISION["reuters"]) for x in (a, b))
        rows.append({"dataset": category, "algorithm": a, "versus": b, "value": va,
                     "versus_value": vb, "difference": part[(category, a)] - part[(category, b)],
                     "outcome": _outcome(va, vb, lower_is_better=False),
                     "p_value": float("nan")})
    return pd.DataFrame(rows, columns=EVIDENCE)


def counts(frame) -> tuple[int, int, int]:
    c = frame.outcome.value_counts() if len(frame) else {}
    return int(c.get("win", 0)), int(c.get("tie", 0)), int(c.get("loss", 0))


def wins_needed(duel: dict, compared: int) -> int:
    needed = duel.get("wins_needed", "all")
    return compared if needed == "all" else int(needed)


def describe(duel: dict) -> str:
    if duel["source"] == "reuters":
        where = f"F1 at the {duel['t_rule']} T"
    else:
        where = f"at {int(round(100 * float(duel['noise'])))} % noise"
        if duel.get("metric", "error") != "error":
            where = f"{duel['metric'].replace('_', ' ')} {where}"
    on = duel.get("datasets")
    on = f" on {', '.join(DISPLAY.get(d, d) for d in on)}" if on else ""
    versus = duel["versus"] if "versus" in duel else f"{float(duel['versus_value']):g} %"
    if "significance" in duel:
        where += f", a win only where p < {float(duel['significance']):g} (else a tie)"
    return f"{duel['algorithm']} against {versus}{on}, {where}"


def run_duel(duel: dict, summary, folds, f1, datasets, paired=fold_wilcoxon,
             sources=None) -> dict:
    """A duel's evidence, counts, what it needs, whether it holds, its p across datasets and
    the decimals its values are compared (and printed) at. ``sources`` maps further sources to
    their (summary, folds, datasets)."""
    if duel["source"] in (sources or {}):
        summary, folds, datasets = sources[duel["source"]]
    if duel["source"] == "uci" or duel["source"] in (sources or {}):
        evidence = uci_duel(summary, folds, duel, datasets, paired)
        decimals = METRICS[duel.get("metric", "error")][1]
    elif duel["source"] == "reuters":
        evidence = reuters_duel(f1, duel) if f1 is not None else pd.DataFrame(columns=EVIDENCE)
        decimals = PRECISION["reuters"]
    else:
        raise ValueError(f"unknown duel source {duel['source']!r} (uci or reuters)")
    across = across_datasets(evidence.difference) if len(evidence) else None
    p = across.p_value if across is not None else float("nan")
    if "significance" in duel and len(evidence):
        weak = (evidence.outcome == "win") & ~(evidence.p_value < float(duel["significance"]))
        evidence = evidence.assign(outcome=evidence.outcome.mask(weak, "tie"))
    w, t, l = counts(evidence)
    needed = wins_needed(duel, len(evidence))
    holds = bool(w >= needed) if len(evidence) else None
    return {"evidence": evidence, "wins": w, "ties": t, "losses": l, "needed": needed,
            "compared": len(evidence), "holds": holds, "p_value": p, "decimals": decimals}


def evaluate(checks: list[dict], texts: list[str], summary, folds, f1, datasets,
             paired=fold_wilcoxon, sources=None) -> list[dict]:
    """One result per claim: its text, whether it holds, the counts of its first duel, what it
    needs, the other duels' counts, the evidence of its first duel and its p across datasets.
    ``holds`` is None when a duel had nothing to compare (e.g. no Reuters results)."""
    results = []
    for check, text in zip(checks, texts):
        runs = [run_duel(d, summary, folds, f1, datasets, paired, sources)
                for d in check["duels"]]
        shown = [run_duel(d, summary, folds, f1, datasets, paired, sources)
                 for d in check.get("report", [])]
        first = runs[0]
        verdicts = [r["holds"] for r in runs]
        holds = None if any(v is None for v in verdicts) else all(verdicts)
        needed = "; and ".join(
            f"{describe(d)}: {'every one of' if d.get('wins_needed', 'all') == 'all' else 'at least'}"
            f" {r['needed']} wins of {r['compared']}" for d, r in zip(check["duels"], runs))
        also = "; ".join(f"{describe(d)}: {r['wins']}/{r['ties']}/{r['losses']} (win/tie/loss)"
                         for d, r in list(zip(check["duels"], runs))[1:]
                         + list(zip(check.get("report", []), shown)))
        results.append({"id": check["id"], "claim": text, "holds": holds,
                        "wins": first["wins"], "ties": first["ties"], "losses": first["losses"],
                        "needed": needed, "also": also, "p_value": first["p_value"],
                        "evidence": first["evidence"],
                        "duels": [{k: v for k, v in r.items() if k != "evidence"}
                                  for r in runs]})
    return results
