"""The RegBoost report page (``reports/regboost.{md,html}``): Table 1 of Wang & Kégl (2004)
beside the published numbers, Figure 3 (a)-(f) redrawn, the paper's claims checked under every
reading by the WeightBoost report's evaluator (``weightboost.report.claims``), the
semi-supervised experiment with its baselines, and the provenance of the tables."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from weightboost.experiment.regboost import PRIMARY, SEMI_READING, readings, study_section
from weightboost.fileio import write_csv_atomic, write_text_atomic
from weightboost.report import claims as claim_checks
from weightboost.report import display, provenance, tables
from weightboost.report.document import Document
from weightboost.report.figures import save
from weightboost.report.reference import DISPLAY, load_reference
from weightboost.report.sensitivity import corrected_p, corrected_pair
from weightboost.statistics import across_datasets

KINDS = ("regboost",)
VERDICT_COLUMNS = ["claim", "reading", "wins", "ties", "losses", "needed", "holds", "p_value"]


def published(reference: dict) -> pd.DataFrame:
    """Table 1 as printed, one row per dataset key."""
    frame = pd.DataFrame.from_dict(reference["rows"], orient="index",
                                   columns=reference["columns"])
    frame.index = [reference["datasets"][name] for name in frame.index]
    return frame


def table1(summary: pd.DataFrame, reference: dict, reading: str = PRIMARY) -> pd.DataFrame:
    """Reproduced and published Table 1, long form: dataset, algorithm, quantity, values."""
    paper = published(reference)
    rows = []
    part = summary[(summary.reading == reading) & np.isclose(summary.noise, 0.0)]
    for paper_name, entry in reference["algorithms"].items():
        for r in part[part.algorithm == entry].itertuples(index=False):
            if r.dataset not in paper.index:
                continue
            p = paper.loc[r.dataset]
            for quantity, value, printed in (
                    ("train error %", 100 * r.train_error_mean, p[f"train error {paper_name}"]),
                    ("test error %", 100 * r.test_error_mean, p[f"test error {paper_name}"]),
                    ("test sd", 100 * r.test_error_sd, p[f"test std {paper_name}"]),
                    ("distinct stumps", r.distinct_stumps_mean, p[f"stumps {paper_name}"])):
                rows.append({"dataset": r.dataset, "algorithm": paper_name,
                             "quantity": quantity, "reproduced": round(float(value), 2),
                             "published": float(printed),
                             "difference": round(float(value) - float(printed), 2)})
    return pd.DataFrame(rows, columns=["dataset", "algorithm", "quantity", "reproduced",
                                       "published", "difference"])


def table1_display(t1: pd.DataFrame) -> pd.DataFrame:
    """One row per dataset, one column per (quantity, algorithm): "reproduced (published)"."""
    out = {}
    for r in t1.itertuples(index=False):
        digits = 0 if r.quantity == "distinct stumps" else 1
        out.setdefault(DISPLAY.get(r.dataset, r.dataset), {})[f"{r.quantity}: {r.algorithm}"] = \
            f"{r.reproduced:.{digits}f} ({r.published:g})"
    frame = pd.DataFrame.from_dict(out, orient="index")
    frame.index.name = "dataset"
    return frame


def claim_sources(folds, summary, semi, reading, datasets):
    """The evaluator's sources: the study under ``reading`` and the semi-supervised draws,
    as (summary, folds, datasets) with a ``gap`` metric."""
    part = folds[folds.reading == reading]
    part = part.assign(gap=part.test_error - part.train_error)
    semi_folds = semi.assign(noise=0.0, repeat=0, fold=semi.draw, n_train=semi.n_labelled,
                             n_test=semi.n_unlabelled)
    semi_summary = semi_folds.groupby(["dataset", "noise", "algorithm"], as_index=False).agg(
        test_error_mean=("test_error", "mean"))
    semi_datasets = list(semi.dataset.unique())
    return {"regboost": (summary[summary.reading == reading], part, datasets),
            "regboost_semi": (semi_summary, semi_folds, semi_datasets)}


def verdicts(reference, folds, summary, semi, study) -> tuple[list[dict], pd.DataFrame]:
    """The claims under the primary reading (full results) and the verdict matrix over every
    reading (the semi-supervised claims have one setting: they are decided once)."""
    checks, texts = reference["claim_checks"], reference["claims"]
    primary, rows = None, []
    for reading, spec in readings(study).items():
        datasets = [d for d in study["datasets"] if d in spec["datasets"]]
        results = claim_checks.evaluate(checks, texts, None, None, None, datasets,
                                        paired=corrected_p,
                                        sources=claim_sources(folds, summary, semi, reading,
                                                              datasets))
        primary = results if reading == PRIMARY else primary
        for check, result in zip(checks, results):
            semi_only = all(d["source"] == "regboost_semi" for d in check["duels"])
            if semi_only and reading != PRIMARY:
                continue
            rows.append({"claim": check["id"], "reading": SEMI_READING if semi_only else reading,
                         "wins": result["wins"], "ties": result["ties"],
                         "losses": result["losses"], "needed": result["needed"],
                         "holds": result["holds"], "p_value": result["p_value"]})
    return primary, pd.DataFrame(rows, columns=VERDICT_COLUMNS)


def readings_table(folds: pd.DataFrame, summary: pd.DataFrame, study: dict) -> pd.DataFrame:
    """Per reading and dataset, without label noise: both test errors, RegBoost minus AdaBoost
    with its 95 % interval and corrected resampled t p-value (paired folds), and the distinct
    stumps."""
    ada, reg = study["algorithms"][0], study["algorithms"][-1]
    rows = []
    for reading, spec in readings(study).items():
        part = folds[folds.reading == reading]
        for d in [d for d in study["datasets"] if d in spec["datasets"]]:
            result = corrected_pair(part, d, 0.0, reg, ada, metric="test_error")
            s = summary[(summary.reading == reading) & (summary.dataset == d)
                        & np.isclose(summary.noise, 0.0)].set_index("algorithm")
            if result is None or ada not in s.index or reg not in s.index:
                continue
            rows.append({"reading": reading, "dataset": DISPLAY.get(d, d),
                         "runs": int(s.loc[reg].n_folds),
                         "AdaBoost test %": round(100 * s.loc[ada].test_error_mean, 1),
                         "RegBoost test %": round(100 * s.loc[reg].test_error_mean, 1),
                         "difference": display.signed(result.mean),
                         "95 % interval": display.interval(result.low, result.high),
                         "p (corrected t)": display.p_text(result.p_value),
                         "AdaBoost stumps": round(s.loc[ada].distinct_stumps_mean),
                         "RegBoost stumps": round(s.loc[reg].distinct_stumps_mean)})
    return pd.DataFrame(rows)


def lambda_table(folds: pd.DataFrame, config: dict, study: dict) -> pd.DataFrame:
    """How often inner CV chose each λ of the grid, per reading and dataset (a choice at the
    grid's largest value says the grid may be too short). With ``regboost.lam_grid_before``
    (a part of the grid), also how often inner CV would have chosen that grid's top and how
    many choices moved: ``before_choices``."""
    entry = config["algorithms"][study["algorithms"][-1]]
    grid = [float(v) for v in (entry.get("params") or {}).get("lams", [])]
    before = [float(v) for v in study.get("lam_grid_before") or []]
    part = folds[folds.algorithm == study["algorithms"][-1]]
    rows = []
    for (reading, dataset), group in part.groupby(["reading", "dataset"], sort=False):
        counts = group.lam.value_counts()
        row = {"reading": reading, "dataset": DISPLAY.get(dataset, dataset),
               **{f"λ={v:g}": int(counts.get(v, 0)) for v in grid},
               "at the grid's top": int(counts.get(max(grid), 0)) if grid else 0}
        if before and before != grid:  # a part of the grid (regboost.check_study)
            chosen = before_choices(group.cv_errors, grid, before)
            row |= {f"at {max(before):g} with the grid before": int((chosen == max(before)).sum()),
                    "choices moved": int((chosen != group.lam.to_numpy()).sum())}
        rows.append(row)
    return pd.DataFrame(rows)


def before_choices(cv_errors: pd.Series, grid: list[float], before: list[float]) -> np.ndarray:
    """The λ inner CV chooses within ``before`` (a part of ``grid``), fold by fold, from the
    recorded inner-CV errors over ``grid`` (``weightboost.experiment.regboost_cells.records``):
    the first least error over that part in its own order, as a fit with that grid chooses."""
    keep = [grid.index(v) for v in before]
    choices = []
    for text in cv_errors:
        errors = np.array([float(e) for e in str(text).split(";")])
        if len(errors) != len(grid):
            raise ValueError(f"a fold records {len(errors)} inner-CV errors for the {len(grid)} "
                             "λ of the grid: its tables are of another grid (run the study)")
        choices.append(grid[keep[int(np.argmin(errors[keep]))]])
    return np.array(choices)


def semi_table(semi: pd.DataFrame, reference: dict) -> pd.DataFrame:
    rows = []
    for algorithm, group in semi.groupby("algorithm", sort=False):
        rows.append({"algorithm": algorithm, "draws": len(group),
                     "test error %": f"{100 * group.test_error.mean():.1f} ± "
                                     f"{100 * group.test_error.std(ddof=1):.1f}",
                     "training error %": round(100 * group.train_error.mean(), 1),
                     "λ (median)": group.lam.median()})
    for name, value in (reference.get("semi_supervised_reference") or {}).items():
        rows.append({"algorithm": f"{name} (published)", "draws": "",
                     "test error %": f"{value:.1f}", "training error %": "",
                     "λ (median)": ""})
    return pd.DataFrame(rows)


def noise_readings(study: dict) -> list[str]:
    """The readings run at more than one noise level (the cross-paper comparison)."""
    return [name for name, r in readings(study).items() if len(r["noise_levels"]) > 1]


NOISE_COLUMNS = ["reading", "noise", "algorithm", "versus", "wins", "datasets",
                 "difference", "ci_low", "ci_high", "p_value", "significant"]


def noise_duels(folds: pd.DataFrame, study: dict, reading: str) -> pd.DataFrame:
    """Per noise level, every algorithm of ``reading`` against the baseline (Table 1's first
    algorithm): the mean test-error difference over the datasets (points) with its t interval
    and Wilcoxon p across datasets, the datasets it wins, and those where the corrected
    resampled t-test finds the difference at 5 %."""
    spec = readings(study)[reading]
    base = study["algorithms"][0]
    part = folds[folds.reading == reading]
    rows = []
    for noise in spec["noise_levels"]:
        for algorithm in [a for a in spec["algorithms"] if a != base]:
            means, wins, significant = [], 0, 0
            for d in spec["datasets"]:
                result = corrected_pair(part, d, float(noise), algorithm, base,
                                        metric="test_error")
                if result is None:
                    continue
                means.append(result.mean)
                wins += result.mean < 0
                significant += result.p_value < 0.05
            if not means:
                continue
            over = across_datasets(means)
            rows.append({"reading": reading, "noise": float(noise), "algorithm": algorithm,
                         "versus": base, "wins": wins, "datasets": len(means),
                         "difference": over.mean, "ci_low": over.low, "ci_high": over.high,
                         "p_value": over.p_value, "significant": significant})
    return pd.DataFrame(rows, columns=NOISE_COLUMNS)


def noise_verdicts(duels: pd.DataFrame) -> list[str]:
    """One line per algorithm and noise level, as reports/findings.md quotes them."""
    return [f"{r.algorithm} − {r.versus} at {round(100 * r.noise)} % noise: "
            f"{display.signed(r.difference, 2)} points {display.interval(r.ci_low, r.ci_high, 2)}"
            f", lower on {r.wins} of {r.datasets} sets (Wilcoxon p = "
            f"{display.p_text(r.p_value)}; corrected t significant on {r.significant})"
            for r in duels.itertuples(index=False)]


def noise_figure(folds: pd.DataFrame, study: dict, reading: str, stem: Path) -> list[Path]:
    """Test error against label noise per dataset, each algorithm with its 95 % t interval
    over the folds."""
    import matplotlib.pyplot as plt
    from scipy import stats

    spec = readings(study)[reading]
    part = folds[folds.reading == reading]
    fig, axes = plt.subplots(1, len(spec["datasets"]), figsize=(3.2 * len(spec["datasets"]),
                                                               3.2), squeeze=False)
    for ax, dataset in zip(axes[0], spec["datasets"]):
        for k, algorithm in enumerate(spec["algorithms"]):
            rows = part[(part.dataset == dataset) & (part.algorithm == algorithm)]
            grouped = rows.groupby("noise").test_error
            mean, sem, n = grouped.mean(), grouped.sem(), grouped.size()
            half = sem * stats.t.ppf(0.975, np.maximum(n - 1, 1))
            offset = (k - (len(spec["algorithms"]) - 1) / 2) * 0.6
            ax.errorbar(100 * mean.index + offset, 100 * mean, yerr=100 * half, marker="o",
                        ms=3, capsize=2, lw=1, label=algorithm)
        ax.set_title(DISPLAY.get(dataset, dataset))
        ax.set_xlabel("label noise (%)")
    axes[0][0].set_ylabel("test error (%)")
    axes[0][0].legend(fontsize=7)
    fig.tight_layout()
    return save(fig, stem)


COLOURS = {"AdaBoost": "#1f77b4", "RegBoost": "#d62728"}


def _learning_curves(ax, curves: pd.DataFrame, names: dict) -> None:
    """Training (dashed) and test error against t of each algorithm in ``curves``."""
    for algorithm, group in curves.groupby("algorithm", sort=False):
        name = names.get(algorithm, algorithm)
        colour = COLOURS.get(name, "#555555")
        ax.plot(group.t, group.train_error, "--", color=colour, label=f"training error ({name})")
        ax.plot(group.t, group.test_error, "-", color=colour, label=f"test error ({name})")


def figure3(curves: pd.DataFrame, semi: pd.DataFrame, study: dict, reference: dict,
            stem: Path) -> list[Path]:
    import matplotlib.pyplot as plt

    names = {entry: paper for paper, entry in reference["algorithms"].items()}
    fig, axes = plt.subplots(2, 3, figsize=(12, 7))
    primary = curves[curves.reading == PRIMARY]
    panels = list(axes.ravel())
    for ax, dataset, letter in zip(panels[:4], study["datasets"], "abcd"):
        _learning_curves(ax, primary[primary.dataset == dataset], names)
        ax.set_xscale("log")
        ax.set_title(f"({letter}) {DISPLAY.get(dataset, dataset)}")
        ax.set_xlabel("t")
    panels[0].legend(fontsize=7)
    ax = panels[4]
    for dataset in study["datasets"]:
        part = primary[(primary.dataset == dataset)
                       & (primary.algorithm == study["algorithms"][-1])]
        ax.plot(part.t, part.admissible_rate, label=DISPLAY.get(dataset, dataset))
    ax.set_xscale("log")
    ax.set_ylim(0, 1.02)
    ax.set_title("(e) rate of admissible stumps (RegBoost)")
    ax.set_xlabel("t")
    ax.legend(fontsize=7)
    ax = panels[5]
    _learning_curves(ax, curves[curves.reading == SEMI_READING], names)
    for k, (algorithm, group) in enumerate(
            semi[~semi.algorithm.isin(list(names))].groupby("algorithm", sort=False)):
        ax.axhline(group.test_error.mean(), color=["#2ca02c", "#9467bd"][k % 2], lw=1,
                   ls=":", label=f"{algorithm} (test)")
    for name, value in (reference.get("semi_supervised_reference") or {}).items():
        ax.axhline(value / 100, color="black", lw=0.8, ls="-.", label=f"{name}, published")
    ax.set_xscale("log")
    ax.set_title("(f) semi-supervised ionosphere")
    ax.set_xlabel("t")
    # between the training curves (near 0 after 30 rounds) and the test ones, off the lines
    ax.legend(fontsize=6, loc="center right", bbox_to_anchor=(1.0, 0.42))
    fig.tight_layout()
    return save(fig, stem)


def build_regboost_report(results: Path, workdir: Path, config: dict, reference_path: Path,
                          out: Path, lock: Path | None = None) -> list[dict]:
    results, out = Path(results), Path(out)
    reference = load_reference(reference_path)
    study = study_section(config)
    folds = pd.read_csv(results / "regboost" / "folds.csv")
    summary = pd.read_csv(results / "regboost" / "summary.csv")
    curves = pd.read_csv(results / "regboost" / "curves.csv")
    semi = pd.read_csv(results / "regboost" / "semi_supervised.csv")
    tdir, fdir = out / "tables", out / "figures"
    tdir.mkdir(parents=True, exist_ok=True)

    t1 = table1(summary, reference)
    write_csv_atomic(tdir / "regboost_table1.csv", t1)
    write_text_atomic(tdir / "regboost_table1.tex", tables.to_latex(
        table1_display(t1), "RegBoost (Wang \\& Kégl 2004), Table 1: reproduced (published)."))
    checked, matrix = verdicts(reference, folds, summary, semi, study)
    write_csv_atomic(tdir / "regboost_claims.csv", matrix)
    fig = figure3(curves, semi, study, reference, fdir / "regboost_figure3")

    primary = readings(study)[PRIMARY]
    doc = Document("RegBoost (Wang & Kégl, NIPS 2004): reproduction report")
    doc.paragraph(
        "Every number below was recomputed from the raw UCI files by this project's pipeline "
        "and is shown beside the value the paper prints. AdaBoost and RegBoost with decision "
        f"stumps, {study['rounds']} rounds; RegBoost's λ chosen per training fold by inner "
        "cross-validation; the k = 8 nearest-neighbour graph. Primary reading: "
        f"{primary['repeats']} × {study['folds']}-fold cross-validation, "
        f"{primary['fold_order']} folds, missing values replaced by the training fold's "
        f"{primary['missing']}. Protocol: `docs/protocol.md` §5; algorithms: "
        "`docs/algorithms.md` §7.")
    doc.heading("Figure 3, redrawn")
    doc.image(fig[0], "Figure 3: (a)-(d) training and test error against t; (e) the rate of "
                      "admissible stumps; (f) semi-supervised ionosphere")
    doc.heading("Table 1: errors and distinct stumps after the last round")
    doc.paragraph("Reproduced (published). Errors in percent; the sd is over the folds.")
    doc.table(table1_display(t1))
    doc.heading("The paper's claims, checked")
    doc.paragraph("Win/tie/loss on the means (a tie is equality at the paper's printed "
                  "precision); per dataset the corrected resampled t-test (Nadeau & Bengio) on "
                  "the paired folds; across datasets the Wilcoxon signed-rank test.")
    display.add_claims(doc, checked, test="corrected t")
    doc.heading("Every reading")
    doc.paragraph("Each claim under each reading of the protocol (`config/config.yaml`, "
                  "`regboost.readings`; docs/protocol.md §5.3): win/tie/loss of its first "
                  "comparison over the datasets, and whether it holds (✓) or not (✗). The "
                  f"semi-supervised claims have one setting (`{SEMI_READING}`).")
    doc.table(_matrix(matrix))
    doc.paragraph("Per reading and dataset without label noise: both test errors, RegBoost "
                  "minus AdaBoost in points with its 95 % interval and the corrected resampled "
                  "t-test on the paired folds, and the distinct stumps of each:")
    doc.table(readings_table(folds, summary, study), index=False)
    doc.paragraph("The λ that inner cross-validation chose, counted over the folds. The grid is "
                  "widened until no fold chooses its top (docs/protocol.md §5.2); where the "
                  "config names the grid before (`regboost.lam_grid_before`), the last columns "
                  "count the folds at that grid's top and the choices that moved, read from the "
                  "recorded inner-CV errors of each λ:")
    doc.table(lambda_table(folds, config, study), index=False)
    for reading in noise_readings(study):
        duels = noise_duels(folds, study, reading)
        write_csv_atomic(tdir / f"regboost_{reading}.csv", duels)
        figure = noise_figure(folds, study, reading, fdir / f"regboost_{reading}")
        doc.heading(f"Label noise, all boosters with stumps (reading `{reading}`)")
        doc.paragraph(
            "The comparison neither paper makes: AdaBoost, WeightBoost (β = 0.5), ε-Boost and "
            "RegBoost, all with decision stumps and the same rounds, folds and noisy training "
            "labels (flipped in the training folds only, as in the WeightBoost study). Does the "
            "manifold penalty buy robustness to label noise, and does WeightBoost's regulariser "
            "help stumps?")
        doc.image(figure[0], "Test error against label noise, 95 % t intervals over the folds")
        doc.bullets(noise_verdicts(duels))
    doc.heading("Semi-supervised ionosphere (Figure 3(f))")
    doc.paragraph(
        f"{study['semi_supervised']['labelled']} labelled points drawn at random "
        f"{study['semi_supervised']['draws']} times; the rest are unlabelled and are the test "
        "points. RegBoost's graph and candidate thresholds use all points; AdaBoost sees the "
        "labelled ones only. Baselines on the same graph: Belkin & Niyogi's Laplacian "
        "eigenvector classifier and scikit-learn's label spreading.")
    doc.table(semi_table(semi, reference), index=False)
    provenance.add_section(doc, Path(workdir), results, KINDS, lock, out, study)
    write_text_atomic(out / "regboost.md", doc.markdown(out))
    write_text_atomic(out / "regboost.html", doc.html())
    return checked


def _matrix(matrix: pd.DataFrame) -> pd.DataFrame:
    """The verdict matrix as the sensitivity page prints its own: a row per reading, a column
    per claim (blank where a claim is decided under another setting)."""
    frame = matrix.assign(cell=[display.verdict_cell(r.holds, r.wins, r.ties, r.losses)
                                for r in matrix.itertuples(index=False)])
    table = frame.pivot(index="reading", columns="claim", values="cell")
    return table.reindex(index=list(dict.fromkeys(matrix.reading)),
                         columns=list(dict.fromkeys(matrix.claim))).fillna("")
