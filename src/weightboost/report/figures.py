"""Figure 1 (grouped bars at 10 % noise, published values marked), error-versus-noise curves and
Reuters F1-versus-T curves, each saved as PNG and SVG with fixed metadata (same input, same
bytes)."""

from __future__ import annotations

import io
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from weightboost.fileio import write_bytes_atomic  # noqa: E402
from weightboost.report.reference import DISPLAY, table4  # noqa: E402

plt.rcParams.update({"svg.hashsalt": "weightboost-repro", "font.size": 9,
                     "axes.spines.top": False, "axes.spines.right": False})
COLOURS = {"C4.5": "#7f7f7f", "AdaBoost": "#1f77b4", "WeightDecay": "#2ca02c",
           "EpsilonBoost": "#9467bd", "WeightBoost": "#d62728"}


def save(fig, stem: Path) -> list[Path]:
    """The figure as ``stem``.png and ``stem``.svg, each written whole or not at all."""
    png, svg = stem.with_suffix(".png"), stem.with_suffix(".svg")
    for path, options in ((png, {"dpi": 120, "metadata": {"Software": None}}),
                          (svg, {"metadata": {"Date": None, "Creator": None}})):
        buffer = io.BytesIO()
        fig.savefig(buffer, format=path.suffix[1:], bbox_inches="tight", **options)
        write_bytes_atomic(path, buffer.getvalue())
    plt.close(fig)
    return [png, svg]


def figure1(summary, reference, datasets, stem: Path, noise=0.1):
    algorithms = ["C4.5", "AdaBoost", "WeightBoost"]
    published = table4(reference)
    part = summary[np.isclose(summary.noise, noise)].set_index(["dataset", "algorithm"])
    fig, ax = plt.subplots(figsize=(8, 3.4))
    width = 0.26
    x = np.arange(len(datasets))
    for k, algorithm in enumerate(algorithms):
        means = [100 * part.loc[(d, algorithm)].error_mean if (d, algorithm) in part.index
                 else np.nan for d in datasets]
        sds = [100 * part.loc[(d, algorithm)].error_sd if (d, algorithm) in part.index
               else np.nan for d in datasets]
        pos = x + (k - 1) * width
        ax.bar(pos, means, width, yerr=sds, color=COLOURS[algorithm], label=algorithm,
               error_kw={"elinewidth": 0.7, "capsize": 1.5, "ecolor": "#333333"})
        paper = [published.get((round(noise, 2), d, algorithm), np.nan) for d in datasets]
        ax.scatter(pos, paper, marker="_", s=140, color="black", linewidths=1.6, zorder=3,
                   label="published" if k == 0 else None)
    ax.set_xticks(x, [f"{i + 1}\n{DISPLAY.get(d, d)}" for i, d in enumerate(datasets)],
                  fontsize=7)
    ax.set_ylabel("test error (%)")
    ax.set_title(f"Figure 1: error at {int(round(100 * noise))} % label noise "
                 "(bars: reproduced, mean ± sd over folds; black marks: published)")
    ax.legend(ncol=4, fontsize=7, frameon=False)
    return save(fig, stem)


def noise_curves(summary, reference, datasets, stem: Path):
    published = table4(reference)
    algorithms = [a for a in COLOURS if a in set(summary.algorithm)]
    cols = 4
    rows = int(np.ceil(len(datasets) / cols))
    fig, axes = plt.subplots(rows, cols, figsize=(10, 2.6 * rows), squeeze=False)
    for ax, d in zip(axes.flat, datasets):
        part = summary[summary.dataset == d]
        for algorithm in algorithms:
            line = part[part.algorithm == algorithm].sort_values("noise")
            ax.plot(100 * line.noise, 100 * line.error_mean, marker="o", ms=3,
                    color=COLOURS[algorithm], label=algorithm)
            paper = sorted((n, v) for (n, dd, a), v in published.items()
                           if dd == d and a == algorithm)
            if paper:
                ax.plot([100 * n for n, _ in paper], [v for _, v in paper], ls="--", lw=0.8,
                        marker="x", ms=3, color=COLOURS[algorithm])
        ax.set_title(DISPLAY.get(d, d))
        ax.set_xlabel("label noise (%)")
        ax.set_ylabel("error (%)")
    for ax in list(axes.flat)[len(datasets):]:
        ax.axis("off")
    axes.flat[0].legend(fontsize=6, frameon=False)
    fig.suptitle("Error versus label noise (solid: reproduced; dashed x: published Table 4)")
    fig.tight_layout()
    return save(fig, stem)


def f1_curves(curves, f1, paper_rounds, stem: Path):
    categories = list(dict.fromkeys(curves.category))
    cols = 5
    rows = int(np.ceil(len(categories) / cols))
    fig, axes = plt.subplots(rows, cols, figsize=(11, 2.4 * rows), squeeze=False)
    for ax, category in zip(axes.flat, categories):
        part = curves[curves.category == category]
        for algorithm in dict.fromkeys(part.algorithm):
            line = part[part.algorithm == algorithm]
            colour = COLOURS.get(algorithm, "black")
            if len(line) == 1:
                ax.axhline(line.f1.iloc[0], color=colour, lw=0.8, ls=":", label=algorithm)
                continue
            ax.plot(line["T"], line.f1, color=colour, lw=1, label=algorithm)
            if algorithm in paper_rounds:
                ax.axvline(paper_rounds[algorithm], color=colour, lw=0.6, ls="--")
        ax.set_title(category)
        ax.set_xlabel("T")
    for ax in list(axes.flat)[len(categories):]:
        ax.axis("off")
    axes.flat[0].set_ylabel("test F1")
    axes.flat[0].legend(fontsize=6, frameon=False)
    fig.suptitle("Reuters: test F1 versus boosting rounds T (dashed: the paper's tuned T)")
    fig.tight_layout()
    return save(fig, stem)
