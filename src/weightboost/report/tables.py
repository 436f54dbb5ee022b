"""Tables 2, 3 and 4 of the paper, reproduced beside the published values.

Each table is built in long form (one row per cell: reproduced mean and standard deviation over
folds, published value, difference = reproduced - published; errors in percent), written as CSV,
and pivoted into the paper's layout for Markdown, HTML and LaTeX.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from weightboost.experiment.reuters import T_RULES
from weightboost.report.reference import DISPLAY, table2, table3, table4

PAPER_UCI = ["C4.5", "AdaBoost", "WeightDecay", "EpsilonBoost", "WeightBoost"]
PAPER_NOISE = ["C4.5", "AdaBoost", "WeightBoost"]


def uci_cells(summary: pd.DataFrame, published: dict, noise: float, algorithms) -> pd.DataFrame:
    rows = []
    part = summary[np.isclose(summary.noise, noise)]
    for dataset in part.dataset.unique():
        for algorithm in algorithms:
            hit = part[(part.dataset == dataset) & (part.algorithm == algorithm)]
            if hit.empty:
                continue
            mean, sd = 100 * hit.error_mean.iloc[0], 100 * hit.error_sd.iloc[0]
            paper = published.get((dataset, algorithm)) if noise == 0 else \
                published.get((round(noise, 2), dataset, algorithm))
            rows.append({"noise": noise, "dataset": dataset, "algorithm": algorithm,
                         "error_mean": mean, "error_sd": sd,
                         "rounds_mean": hit.rounds_mean.iloc[0], "published": paper,
                         "difference": None if paper is None else mean - paper})
    return pd.DataFrame(rows)


def table_2(summary, reference) -> pd.DataFrame:
    algorithms = [a for a in PAPER_UCI if a in set(summary.algorithm)]
    return uci_cells(summary, table2(reference), 0.0, algorithms)


def table_4(summary, reference) -> pd.DataFrame:
    extra = [a for a in summary.algorithm.unique() if a not in PAPER_NOISE]
    algorithms = [a for a in PAPER_NOISE if a in set(summary.algorithm)] + \
        [a for a in PAPER_UCI if a in extra] + [a for a in extra if a not in PAPER_UCI]
    levels = sorted(n for n in summary.noise.unique() if n > 0)
    frames = [uci_cells(summary, table4(reference), n, algorithms) for n in levels]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def table_3(f1: pd.DataFrame, reference) -> pd.DataFrame:
    published = table3(reference)
    rows = []
    base = f1[(f1.algorithm == "C4.5") & (f1.t_rule == "paper")].set_index("category").f1
    for rule in T_RULES:
        for r in f1[f1.t_rule == rule].itertuples():
            c45 = base.get(r.category)
            paper = published.get((r.category, r.algorithm))
            rows.append({"t_rule": rule, "category": r.category, "algorithm": r.algorithm,
                         "T": r.T, "f1": r.f1,
                         "improvement_pct": None if not c45 or r.algorithm == "C4.5"
                         else 100 * (r.f1 - c45) / c45,
                         "published": paper if rule == "paper" else None,
                         "difference": r.f1 - paper if (rule == "paper" and paper is not None)
                         else None})
    return pd.DataFrame(rows)


def _fmt(x, digits=1):
    return "" if x is None or (isinstance(x, float) and np.isnan(x)) else f"{x:.{digits}f}"


def uci_display(cells: pd.DataFrame) -> pd.DataFrame:
    """Paper layout: a row per dataset, per algorithm 'mean ± sd (published, difference)'."""
    out = {}
    for r in cells.itertuples():
        text = f"{r.error_mean:.1f} ± {r.error_sd:.1f}"
        if r.published is not None and not pd.isna(r.published):
            text += f" ({r.published:.1f}, {r.difference:+.1f})"
        out.setdefault(DISPLAY.get(r.dataset, r.dataset), {})[r.algorithm] = text
    frame = pd.DataFrame.from_dict(out, orient="index")
    frame.index.name = "dataset"
    return frame


def reuters_display(cells: pd.DataFrame, rule: str) -> pd.DataFrame:
    out = {}
    for r in cells[cells.t_rule == rule].itertuples():
        text = f"{r.f1:.4f}"
        if r.algorithm != "C4.5":
            text += f" (T={r.T}, {r.improvement_pct:+.1f}%)"
        if r.published is not None and not pd.isna(r.published):
            text += f" [paper {r.published:.4f}]"
        out.setdefault(r.category, {})[r.algorithm] = text
    frame = pd.DataFrame.from_dict(out, orient="index")
    frame.index.name = "category"
    return frame


def to_latex(frame: pd.DataFrame, caption: str) -> str:
    columns = list(frame.columns)
    lines = ["\\begin{table}[t]", "\\centering", f"\\caption{{{caption}}}",
             "\\begin{tabular}{l" + "r" * len(columns) + "}", "\\hline",
             " & ".join([""] + [str(c) for c in columns]) + " \\\\", "\\hline"]
    for index, row in frame.iterrows():
        cells = [str(index)] + [str(v).replace("±", "$\\pm$").replace("%", "\\%")
                                for v in row.values]
        lines.append(" & ".join(cells) + " \\\\")
    lines += ["\\hline", "\\end{tabular}", "\\end{table}"]
    return "\n".join(lines) + "\n"
