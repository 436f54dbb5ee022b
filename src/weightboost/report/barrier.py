"""The barrier study's page (reports/barrier.md): its questions answered from the summary table
(config/reference/barrier_questions.yaml, fixed before the cells were computed), and the figure
of clean test error against training size, one panel per noise level, every learner.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from weightboost.fileio import csv_bytes, read_yaml, write_bytes_atomic, write_text_atomic
from weightboost.report.figures import plt, save

ANSWER_COLUMNS = ["question", "algorithm", "noise", "n_train", "error_mean", "condition",
                  "holds"]
STUMPS_STYLE, TREES_STYLE = "-", "--"
# the noise level of the page's table of errors: the one its questions ask most of
# (config/reference/barrier_questions.yaml)
TABLE_NOISE = 0.1


def _error(summary: pd.DataFrame, algorithm: str, noise: float, n: int) -> float:
    row = summary[(summary.algorithm == algorithm) & np.isclose(summary.noise, noise)
                  & (summary.n_train == n)]
    return float(row.error_mean.iloc[0]) if len(row) else float("nan")


def answer_rows(questions: dict, summary: pd.DataFrame) -> pd.DataFrame:
    """One row per (question, learner, checked cell): its mean clean test error, the condition
    and whether it holds (an absent cell holds nothing)."""
    rows = []
    for question in questions["questions"]:
        for check in question["checks"]:
            sizes = [int(n) for n in check["n_train"]]
            for algorithm in check["algorithms"]:
                errors = [_error(summary, algorithm, check["noise"], n) for n in sizes]
                if check.get("falls_with_n"):
                    cells = [(f"n={sizes[0]}..{sizes[-1]}",
                              f"{errors[-1]:.4f} < {errors[0]:.4f}", errors[-1] < errors[0])]
                    shown = [errors[-1]]
                else:
                    bound = ("at_least", check["at_least"]) if "at_least" in check else \
                        ("below", check["below"])
                    cells = [(n, f"{bound[0].replace('_', ' ')} {bound[1]:g}",
                              e >= bound[1] if bound[0] == "at_least" else e < bound[1])
                             for n, e in zip(sizes, errors)]
                    shown = errors
                for (n, condition, holds), error in zip(cells, shown):
                    rows.append({"question": question["id"], "algorithm": algorithm,
                                 "noise": check["noise"], "n_train": n, "error_mean": error,
                                 "condition": condition, "holds": bool(holds)})
    return pd.DataFrame(rows, columns=ANSWER_COLUMNS)


def verdicts(questions: dict, answers: pd.DataFrame) -> pd.DataFrame:
    """Per question and learner: yes when every one of its checked cells holds."""
    per = answers.groupby(["question", "algorithm"], sort=False).holds.all().reset_index()
    texts = {q["id"]: " ".join(q["text"].split()) for q in questions["questions"]}
    return per.assign(text=per.question.map(texts))


def figure(summary: pd.DataFrame, algorithms, stumps, stem: Path) -> list[Path]:
    """Clean test error (mean ± sd over the repeats) against training size, one panel per
    noise level; learners with stumps drawn solid, the others dashed."""
    levels = sorted(summary.noise.unique())
    fig, axes = plt.subplots(1, len(levels), figsize=(2.6 * len(levels), 3.0), sharey=True,
                             squeeze=False)
    colours = plt.get_cmap("tab20")(np.linspace(0, 1, max(len(algorithms), 2)))
    for ax, noise in zip(axes[0], levels):
        part = summary[np.isclose(summary.noise, noise)]
        for colour, algorithm in zip(colours, algorithms):
            rows = part[part.algorithm == algorithm].sort_values("n_train")
            ax.errorbar(rows.n_train, rows.error_mean, yerr=rows.error_sd, color=colour,
                        linestyle=STUMPS_STYLE if algorithm in stumps else TREES_STYLE,
                        marker="o", markersize=3, capsize=2, linewidth=1, label=algorithm)
        ax.set_xscale("log")
        ax.set_title(f"{noise:.0%} label noise")
        ax.set_xlabel("training size")
        ax.axhline(noise, color="#bbbbbb", linewidth=0.8, zorder=0)
    axes[0][0].set_ylabel("clean test error")
    axes[0][-1].legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    return save(fig, stem)


def build_barrier_report(results: Path, questions_path: Path, config: dict,
                         out_dir: Path) -> None:
    """reports/barrier.md, its figure and its answers table from the study's summary."""
    summary = pd.read_csv(results / "barrier" / "summary.csv")
    questions = read_yaml(questions_path)
    study = config["barrier"]
    algorithms = list(study["algorithms"])
    stumps = {a for a in algorithms if "stumps" in a or a == "RegBoost"}
    answers = answer_rows(questions, summary)
    write_bytes_atomic(out_dir / "tables" / "barrier_answers.csv", csv_bytes(answers))
    figure(summary, algorithms, stumps, out_dir / "figures" / "barrier")
    verdict = verdicts(questions, answers)
    largest = max(int(n) for n in study["n_train"])
    at = summary[np.isclose(summary.noise, TABLE_NOISE) & (summary.n_train == largest)]
    lines = ["# Beyond both papers: the convex-potential barrier", "",
             f"Clean test error on `{study['dataset']}` (docs/protocol.md §1.4, §8) against the "
             "training size, one panel per label-noise level; learners with decision stumps solid, with "
             "C4.5 trees (and the references) dashed; the grey line is the noise rate.", "",
             "![clean test error against training size](figures/barrier.svg)", "",
             "## The questions, fixed before the cells were computed", "",
             "| question | learner | answer |", "|---|---|---|"]
    lines += [f"| {row.text} | {row.algorithm} | {'yes' if row.holds else 'no'} |"
              for row in verdict.itertuples(index=False)]
    lines += ["", f"## Clean test error at {TABLE_NOISE * 100:g} % noise and {largest:,} training "
              "points", "",
              "| learner | error (mean ± sd over the repeats) |", "|---|---|"]
    lines += [f"| {row.algorithm} | {row.error_mean:.4f} ± {row.error_sd:.4f} |"
              for row in at.itertuples(index=False)]
    lines += ["", "Every checked cell: `reports/tables/barrier_answers.csv`; every repeat: "
              "`results/barrier/folds.csv`; the error after rounds 10 to 1,000: "
              "`results/barrier/curves.csv`.", ""]
    write_text_atomic(out_dir / "barrier.md", "\n".join(lines))
