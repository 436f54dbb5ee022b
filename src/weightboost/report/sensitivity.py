"""The sensitivity study in the report: the paper's claims under every reading of the protocol.

``verdict_tables`` checks every claim (``claim_checks`` of the reference file, the same generic
evaluator as the main report) under every reading, on the study's repeated cross-validation:

* ``reports/tables/verdicts.csv``: claim, reading, wins, ties, losses, needed, holds, p_value,
  the p-value being the Wilcoxon signed-rank test across datasets of the claim's first duel;
* ``reports/tables/sensitivity_duels.csv``: for every duel, reading and dataset, the mean
  difference (first algorithm minus second; ``unit``: error points, or F1 for Reuters) with its
  95 % interval and p-value — for a UCI dataset the corrected resampled t-test over the
  repeats × folds, for a Reuters category the paired t-test across the reading's seeds (none
  on a single seed) — and a row ``all`` with the mean over datasets (categories), its t
  interval and the Wilcoxon p.

The Reuters claim rests on the F1 table of the config's ``reuters_source``: the study's own
(``sensitivity.reuters``: every reading, a resampling cell once per seed) or the main run's
one train/test split (the primary reading only).

``add_section`` writes the report's Sensitivity section from those tables and the study's
results, when they exist.
"""

from __future__ import annotations

import weakref
from pathlib import Path

import numpy as np
import pandas as pd

from weightboost.experiment.sensitivity import (PRIMARY, readings, reuters_means,
                                                reuters_plan, reuters_source, study_section)
from weightboost.report import claims as claim_checks
from weightboost.report import display
from weightboost.report.figures import save
from weightboost.report.reference import DISPLAY, table2, table4
from weightboost.statistics import across_datasets, corrected_resampled_t

VERDICT_COLUMNS = ["claim", "reading", "wins", "ties", "losses", "needed", "holds", "p_value"]
DUEL_COLUMNS = ["claim", "duel", "reading", "dataset", "noise", "algorithm", "versus",
                "unit", "difference", "ci_low", "ci_high", "p_value", "test"]
ERROR_POINTS, F1 = "error points", "F1"  # the duels' units: UCI test error, Reuters F1
DECIMALS = {ERROR_POINTS: 1, F1: 4}        # as the paper prints them (Tables 2, 4; Table 3)


def _percent(p) -> str:
    """A noise level as the report writes it: 0.1 -> "10 %"."""
    return f"{round(100 * float(p))} %"


_RUNS: dict[int, tuple] = {}  # id(folds) -> (weak reference to it, its runs by cell)


def _runs(folds: pd.DataFrame) -> dict:
    """(dataset, noise, algorithm) -> (the frame sorted by repeat and fold, the positions of
    that cell's rows in it, their (repeat, fold) keys): grouped once per frame, as a report
    tests every dataset, level and pair of a study on the same frame (a filter and a merge of
    the whole frame per test took 20 ms)."""
    cached = _RUNS.get(id(folds))
    if cached is not None and cached[0]() is folds:
        return cached[1]
    order = folds.sort_values(["repeat", "fold"], kind="stable")
    keys = (order.repeat.to_numpy(np.int64) << 32) | order.fold.to_numpy(np.int64)
    runs = {(d, round(float(n), 6), a): (order, rows, keys[rows]) for (d, n, a), rows
            in order.groupby(["dataset", "noise", "algorithm"], sort=False).indices.items()}
    key = id(folds)
    _RUNS[key] = (weakref.ref(folds, lambda _: _RUNS.pop(key, None)), runs)
    return runs


def corrected_pair(folds, dataset, noise, a, b, metric="error"):
    """The corrected t-test of a against b on the runs (repeat, fold) both have."""
    runs = _runs(folds)
    at = (dataset, round(float(noise), 6))
    if (*at, a) not in runs or (*at, b) not in runs:
        return None
    (order, rows_a, keys_a), (_, rows_b, keys_b) = runs[(*at, a)], runs[(*at, b)]
    if not np.array_equal(keys_a, keys_b):
        _, in_a, in_b = np.intersect1d(keys_a, keys_b, assume_unique=True, return_indices=True)
        rows_a, rows_b = rows_a[in_a], rows_b[in_b]
    if len(rows_a) == 0:
        return None
    n_test, n_train = order.n_test.to_numpy()[rows_a], order.n_train.to_numpy()[rows_a]
    ratio = float(n_test.mean() / n_train.mean())
    values = order[metric].to_numpy()
    return corrected_resampled_t(100 * (values[rows_a] - values[rows_b]), ratio)


def corrected_p(folds, dataset, noise, a, b, metric="error") -> float:
    """The per-dataset paired test of the study (pluggable into the claims evaluator)."""
    result = corrected_pair(folds, dataset, noise, a, b, metric)
    return float("nan") if result is None else result.p_value


def _needed(check, result) -> str:
    return " + ".join(f"{run['needed']} of {run['compared']}" for run in result["duels"])


def verdict_tables(config: dict, reference: dict, folds: pd.DataFrame, summary: pd.DataFrame,
                   reuters_f1: pd.DataFrame):
    """The claims under every reading; ``reuters_f1`` is the F1 table of the config's
    ``reuters_source``: the study's own (every reading, F1 averaged over the seeds) or the
    main run's (the Reuters claim under the primary reading only)."""
    f1, study_f1 = ((None, reuters_f1) if reuters_source(config) == "sensitivity_reuters"
                    else (reuters_f1, None))
    study = study_section(config)
    datasets = study["datasets"]
    checks, texts = reference["claim_checks"], reference["claims"]
    verdicts, duels = [], []
    for reading in readings(study):
        part, part_folds = summary[summary.reading == reading], folds[folds.reading == reading]
        reading_f1 = reuters_means(study_f1, reading) if study_f1 is not None else (
            f1 if reading == PRIMARY else None)
        results = claim_checks.evaluate(checks, texts, part, part_folds, reading_f1, datasets,
                                        paired=corrected_p)
        seeded_f1 = (study_f1[study_f1.reading == reading] if study_f1 is not None else
                     f1.assign(repeat=0) if reading == PRIMARY else None)
        for check, result in zip(checks, results):
            verdicts.append({"claim": check["id"], "reading": reading, "wins": result["wins"],
                             "ties": result["ties"], "losses": result["losses"],
                             "needed": _needed(check, result), "holds": result["holds"],
                             "p_value": result["p_value"]})
            for k, duel in enumerate(check["duels"]):
                if duel["source"] == "uci":
                    duels += _duel_rows(check["id"], k, reading, duel, part_folds, datasets)
                elif seeded_f1 is not None:
                    duels += _reuters_duel_rows(check["id"], k, reading, duel, seeded_f1)
    return (pd.DataFrame(verdicts, columns=VERDICT_COLUMNS),
            pd.DataFrame(duels, columns=DUEL_COLUMNS))


def paired_over_datasets(folds, datasets, noise, a, b):
    """a − b on each dataset's paired runs (corrected resampled t; datasets without runs of both
    left out) and over the datasets (Wilcoxon signed-rank on their means, t interval; None
    when no dataset has runs): ([(dataset, Comparison)], Comparison or None)."""
    per = [(d, r) for d in datasets if (r := corrected_pair(folds, d, noise, a, b)) is not None]
    return per, across_datasets([r.mean for _, r in per]) if per else None


def _duel_rows(claim, k, reading, duel, folds, datasets):
    a, b, noise = duel["algorithm"], duel["versus"], float(duel["noise"])
    base = {"claim": claim, "duel": k, "reading": reading, "noise": noise, "algorithm": a,
            "versus": b, "unit": ERROR_POINTS}
    per, over = paired_over_datasets(
        folds, [d for d in datasets if d in set(duel.get("datasets") or datasets)], noise, a, b)
    rows = [{**base, "dataset": d, "difference": r.mean, "ci_low": r.low, "ci_high": r.high,
             "p_value": r.p_value, "test": "corrected resampled t"} for d, r in per]
    if over is not None:
        rows.append({**base, "dataset": "all", "difference": over.mean, "ci_low": over.low,
                     "ci_high": over.high, "p_value": over.p_value,
                     "test": "Wilcoxon signed-rank across datasets (t interval)"})
    return rows


def reuters_pairs(f1: pd.DataFrame, duel: dict) -> list:
    """Per category of one reading's Reuters F1 rows (columns category, repeat, algorithm,
    t_rule, f1): the duel's F1 difference (first algorithm minus second) over the reading's
    seeds as a Comparison — the paired t-test across seeds, uncorrected as the seeds redraw a
    resampling booster's samples on one fixed split (no training folds are shared), and no test
    on a single seed: [(category, Comparison)]."""
    rule = f1[f1.t_rule == duel["t_rule"]]
    wide = rule.pivot_table(index=["category", "repeat"], columns="algorithm", values="f1",
                            sort=False)
    return [(category, corrected_resampled_t(runs[duel["algorithm"]].to_numpy()
                                             - runs[duel["versus"]].to_numpy(), 0.0))
            for category, runs in wide.groupby(level="category", sort=False)]


def _reuters_duel_rows(claim, k, reading, duel, f1):
    base = {"claim": claim, "duel": k, "reading": reading, "noise": 0.0,
            "algorithm": duel["algorithm"], "versus": duel["versus"], "unit": F1}
    per = reuters_pairs(f1, duel)
    rows = [{**base, "dataset": c, "difference": r.mean, "ci_low": r.low, "ci_high": r.high,
             "p_value": r.p_value,
             "test": f"paired t across {r.n} seeds" if r.n > 1 else "one split"}
            for c, r in per]
    if per:
        over = across_datasets([r.mean for _, r in per])
        rows.append({**base, "dataset": "all", "difference": over.mean, "ci_low": over.low,
                     "ci_high": over.high, "p_value": over.p_value,
                     "test": "Wilcoxon signed-rank across categories (t interval)"})
    return rows


BETA_REFERENCE = "AdaBoost"  # drawn beside the β curves: the booster WeightBoost modifies


def beta_sweep(summary: pd.DataFrame, config: dict) -> pd.DataFrame | None:
    """The β sweep's summary rows of the swept algorithm, with a column ``beta`` (None if the
    sweep was not run)."""
    study = study_section(config)
    sweep = (study.get("sweeps") or {}).get("beta")
    values = {name: float(r["sweep"]["value"]) for name, r in readings(study).items()
              if r.get("sweep", {}).get("param") == "beta"}
    if not sweep or not values:
        return None  # not defined, or defined but not run (sensitivity.run)
    rows = summary[summary.reading.isin(values) & (summary.algorithm == sweep["algorithms"][0])]
    return rows.assign(beta=rows.reading.map(values)).sort_values(["beta", "noise"])


def _reference(summary: pd.DataFrame) -> pd.DataFrame:
    """The summary rows drawn beside the β sweep: AdaBoost under the primary reading."""
    return summary[(summary.reading == PRIMARY) & (summary.algorithm == BETA_REFERENCE)]


def beta_table(summary: pd.DataFrame, config: dict) -> pd.DataFrame | None:
    """Mean test error (%) over the datasets per β and noise level, and AdaBoost's under the
    primary reading on the same runs."""
    sweep = beta_sweep(summary, config)
    if sweep is None or not len(sweep):
        return None
    def label(p):
        return f"{_percent(p)} noise"

    table = (100 * sweep.pivot_table(index="beta", columns="noise", values="error_mean")
             ).round(2).rename(columns=label)
    table.index = pd.Index([f"WeightBoost β={b:g}" for b in table.index], name="learner")
    base = _reference(summary)
    base = base[base.noise.isin(sweep.noise.unique())]
    if len(base):
        ref = (100 * base.groupby("noise").error_mean.mean()).round(2).rename(label)
        table.loc[f"{BETA_REFERENCE} ({PRIMARY})"] = ref
    return table


def beta_duels(folds: pd.DataFrame, summary: pd.DataFrame, config: dict) -> pd.DataFrame | None:
    """Each β of the sweep against its smallest β (0: no input-dependent regulariser), paired
    on the runs, per noise level: the mean over datasets of the per-dataset mean differences
    (points), its t interval and the Wilcoxon signed-rank p across datasets, and the number of
    datasets where the corrected resampled t-test finds the difference at 5 %."""
    sweep = beta_sweep(summary, config)
    if sweep is None or sweep.beta.nunique() < 2:
        return None
    algorithm = sweep.algorithm.iloc[0]
    names = sweep.drop_duplicates("reading").set_index("beta").reading.sort_index()
    base = names.iloc[0]
    datasets = study_section(config)["datasets"]
    rows = []
    for noise in sorted(set(sweep.noise.round(4))):
        for beta, name in names.iloc[1:].items():
            pick = folds[folds.reading.isin([name, base]) & (folds.algorithm == algorithm)]
            pick = pick.assign(algorithm=pick.reading)
            tests = [r for d in datasets
                     if (r := corrected_pair(pick, d, noise, name, base)) is not None]
            if not tests:
                continue
            over = across_datasets([t.mean for t in tests])
            lower = sum(t.p_value < 0.05 and t.mean < 0 for t in tests)
            higher = sum(t.p_value < 0.05 and t.mean > 0 for t in tests)
            rows.append({"noise": _percent(noise), "β": f"{beta:g}",
                         "versus": f"β={names.index[0]:g}",
                         "difference": display.signed(over.mean, 2) + (
                             "" if np.isnan(over.low)
                             else " " + display.interval(over.low, over.high, 2)),
                         "p (Wilcoxon)": round(over.p_value, 3),
                         "lower / higher at 5 %": f"{lower} / {higher}"})
    return pd.DataFrame(rows)


def chosen_c_table(folds: pd.DataFrame) -> pd.DataFrame | None:
    """Weight Decay's C as the inner cross-validation chose it, per dataset and noise level:
    each chosen value with the number of training folds that chose it (None if no reading
    chooses C)."""
    chosen = folds.dropna(subset=["chosen_C"]).drop_duplicates(
        ["cell", "dataset", "noise", "repeat", "fold"])
    if not len(chosen):
        return None

    def counts(values):
        tally = values.value_counts().sort_index()
        return ", ".join(f"{c:g} ×{k}" for c, k in tally.items())

    table = chosen.groupby(["dataset", "noise"], sort=False).chosen_C.apply(counts).unstack()
    table.columns = [f"{_percent(p)} noise" for p in table.columns]
    table.index = pd.Index([DISPLAY.get(d, d) for d in table.index], name="dataset")
    return table


def beta_figure(summary: pd.DataFrame, config: dict, stem: Path) -> list[Path]:
    """Error against the swept β per dataset, a line per noise level (WeightBoost), with
    AdaBoost's error under the primary reading as a dashed level of the same colour."""
    import matplotlib.pyplot as plt

    study = study_section(config)
    sweep = beta_sweep(summary, config)
    datasets = study["datasets"]
    cols = 4
    fig, axes = plt.subplots((len(datasets) + cols - 1) // cols, cols,
                             figsize=(10, 2.4 * ((len(datasets) + cols - 1) // cols)),
                             squeeze=False)
    if sweep is not None:
        levels = sorted(set(sweep.noise.round(4)))
        reference = _reference(summary)
        shades = plt.get_cmap("Reds")(np.linspace(0.35, 1.0, max(len(levels), 1)))
        for ax, d in zip(axes.flat, datasets):
            for shade, noise in zip(shades, levels):
                line = sweep[(sweep.dataset == d) & np.isclose(sweep.noise, noise)]
                ax.plot(line.beta, 100 * line.error_mean, marker="o", ms=3, color=shade,
                        label=f"{_percent(noise)} noise")
                base = reference[(reference.dataset == d) & np.isclose(reference.noise, noise)]
                if len(base):
                    ax.axhline(100 * base.error_mean.iloc[0], color=shade, lw=0.8, ls="--")
            ax.set_title(DISPLAY.get(d, d))
            ax.set_xlabel("β")
        axes.flat[0].set_ylabel("test error (%)")
        handles, labels = axes.flat[0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=8,
                   frameon=False, title=f"WeightBoost by noise level; dashed: {BETA_REFERENCE}",
                   title_fontsize=8)
    else:
        fig.suptitle("the β sweep has not been run (config sensitivity.sweeps and .run)")
    for ax in list(axes.flat)[len(datasets):]:
        ax.axis("off")
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    return save(fig, stem)


SIGNIFICANT = 0.05  # the level at which a forest plot marks a mean difference


def _first_comparisons(duels: pd.DataFrame) -> pd.DataFrame:
    """Each claim's first comparison pooled over the datasets, per reading."""
    return duels[(duels.duel == 0) & (duels.dataset == "all")]


def forest_figure(duels: pd.DataFrame, order: list[str], stem: Path) -> list[Path]:
    """One panel per claim: the mean difference of its first comparison over the datasets
    (first algorithm minus second, in the duel's unit: error points, or F1 over the Reuters
    categories) with its 95 % t interval, one row per reading (in ``order``), the zero line,
    and a filled marker where the Wilcoxon signed-rank p across datasets is below 0.05."""
    import matplotlib.pyplot as plt

    first = _first_comparisons(duels)
    claims = list(dict.fromkeys(first.claim))
    fig, axes = plt.subplots(1, max(len(claims), 1), sharey=True, squeeze=False,
                             figsize=(2.6 * max(len(claims), 1), 0.32 * len(order) + 1.4))
    rows = {r: k for k, r in enumerate(order)}
    for ax, claim in zip(axes.flat, claims):
        part = first[first.claim == claim]
        y = np.array([rows[r] for r in part.reading])
        ax.hlines(y, part.ci_low, part.ci_high, color="0.35", lw=1.2)
        significant = part.p_value.to_numpy() < SIGNIFICANT
        ax.plot(part.difference[significant], y[significant], "o", color="C3", ms=5,
                label=f"p < {SIGNIFICANT:g}")
        ax.plot(part.difference[~significant], y[~significant], "o", mfc="white", color="0.2",
                ms=5, label=f"p ≥ {SIGNIFICANT:g}")
        ax.axvline(0.0, color="0.5", lw=0.8, ls="--")
        a, b = part.algorithm.iloc[0], part.versus.iloc[0]
        ax.set_title(f"{claim}\n{a} − {b}", fontsize=8)
        ax.set_xlabel(part.unit.iloc[0], fontsize=8)
        ax.tick_params(labelsize=7)
    axes.flat[0].set_yticks(range(len(order)), order)
    axes.flat[0].invert_yaxis()
    if claims:
        handles, labels = axes.flat[0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="lower center", ncol=2, fontsize=7, frameon=False)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    return save(fig, stem)


def reuters_seed_tests(study_f1: pd.DataFrame, reference: dict) -> pd.DataFrame | None:
    """Per reading run on more than one seed, Reuters claim duel and category: the mean F1
    difference over the seeds (first algorithm minus second) and the paired t-test across the
    seeds (seed r gives both boosters the same draws at their first round); None when no
    reading has seeds."""
    seeded = study_f1.groupby("reading").repeat.nunique()
    seeded = [r for r in dict.fromkeys(study_f1.reading) if seeded[r] > 1]
    duels = [d for check in reference["claim_checks"] for d in check["duels"] + check.get(
        "report", []) if d["source"] == "reuters"]
    rows = []
    for reading in seeded:
        part = study_f1[study_f1.reading == reading]
        for duel in duels:
            for category, r in reuters_pairs(part, duel):
                rows.append({"reading": reading, "t_rule": duel["t_rule"], "category": category,
                             "algorithm": duel["algorithm"], "versus": duel["versus"],
                             "seeds": r.n, "difference": r.mean, "p_value": r.p_value})
    return pd.DataFrame(rows) if rows else None


QUESTION_COLUMNS = ["question", "duel", "noise", "algorithm", "versus", "wins", "ties", "losses",
                    "needed", "holds", "difference", "ci_low", "ci_high", "p_value"]


def question_tables(reference: dict, folds: pd.DataFrame, summary: pd.DataFrame, datasets):
    """The questions beyond both papers (the reference's ``questions`` and ``question_checks``)
    under the primary reading, where the baselines run: (one row per duel: win/tie/loss over
    the datasets, what it needs, whether it holds, the mean difference over the datasets in
    error points with its 95 % t interval and the Wilcoxon p across datasets; the per-dataset
    rows as ``sensitivity_duels.csv`` has them). A question whose algorithms or noise levels
    the primary reading lacks is left out (both frames are empty when none is left)."""
    part, part_folds = summary[summary.reading == PRIMARY], folds[folds.reading == PRIMARY]
    present, levels = set(part.algorithm), set(part.noise.round(4))
    rows, per_dataset = [], []
    for check in reference.get("question_checks") or []:
        if any({d["algorithm"], d["versus"]} - present or round(float(d["noise"]), 4)
               not in levels for d in check["duels"]):
            continue
        for k, duel in enumerate(check["duels"]):
            run = claim_checks.run_duel(duel, part, part_folds, None, datasets, corrected_p)
            duel_rows = _duel_rows(check["id"], k, PRIMARY, duel, part_folds, datasets)
            over = next(r for r in duel_rows if r["dataset"] == "all")
            rows.append({"question": check["id"], "duel": k, "noise": float(duel["noise"]),
                         "algorithm": duel["algorithm"], "versus": duel["versus"],
                         **{key: run[key] for key in ("wins", "ties", "losses", "needed",
                                                      "holds")},
                         **{key: over[key] for key in ("difference", "ci_low", "ci_high",
                                                       "p_value")}})
            per_dataset += duel_rows
    duels = pd.DataFrame(per_dataset, columns=DUEL_COLUMNS).rename(columns={"claim": "question"})
    return pd.DataFrame(rows, columns=QUESTION_COLUMNS), duels


def learner_figure(summary: pd.DataFrame, datasets, added, stem: Path) -> list[Path]:
    """Under the primary reading, one panel per dataset: each algorithm's mean test error (%)
    against the label noise of the training folds; the baselines the reading ``added``
    dashed."""
    part = summary[summary.reading == PRIMARY]
    algorithms = list(dict.fromkeys(part.algorithm))
    shown = [d for d in datasets if d in set(part.dataset)]
    fig, axes = _noise_panels(len(shown), height=2.2, extra=0.7)
    for ax, dataset in zip(axes.flat, shown):
        here = part[part.dataset == dataset]
        for k, algorithm in enumerate(algorithms):
            line = here[here.algorithm == algorithm].sort_values("noise")
            ax.plot(100 * line.noise, 100 * line.error_mean, marker="o", ms=2.5, lw=1,
                    color=f"C{k}", ls="--" if algorithm in added else "-", label=algorithm)
        ax.set_title(DISPLAY.get(dataset, dataset), fontsize=8)
    return _noise_panels_done(fig, axes, len(shown), sorted(set(100 * part.noise.round(4))),
                              "test error (%)", stem, columns=8, bottom=0.06)


def _noise_panels(count: int, height: float, extra: float, sharey: bool = False):
    """A figure of ``count`` panels against the noise level, at most four a row, each row
    ``height`` inches and ``extra`` more for the legend (``_noise_panels_done`` finishes it)."""
    import matplotlib.pyplot as plt

    cols = min(4, max(count, 1))
    nrows = (max(count, 1) + cols - 1) // cols
    return plt.subplots(nrows, cols, sharex=True, sharey=sharey, squeeze=False,
                        figsize=(2.6 * cols, height * nrows + extra))


def _noise_panels_done(fig, axes, used: int, levels, ylabel: str, stem: Path, columns: int,
                       bottom: float) -> list[Path]:
    """Finish a grid of panels against the noise level: axes, unused panels, one legend of at
    most ``columns`` columns below; save."""
    for ax in list(axes.flat)[:used]:
        ax.set_xticks(levels)
        ax.xaxis.set_tick_params(labelbottom=True)
        ax.set_xlabel("label noise (%)", fontsize=8)
        ax.tick_params(labelsize=7)
    for ax in axes[:, 0]:
        ax.set_ylabel(ylabel, fontsize=8)
    for ax in list(axes.flat)[used:]:
        ax.axis("off")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(len(labels), columns) or 1,
               fontsize=7, frameon=False)
    fig.tight_layout(rect=(0, bottom, 1, 1))
    return save(fig, stem)


# the noise figure's comparisons: the paper's (WeightBoost against AdaBoost, Table 4) and the
# other regularised booster against the same baseline
NOISE_COMPARISONS = (("WeightBoost", "AdaBoost"), ("EpsilonBoost", "AdaBoost"))


def noise_duels(folds: pd.DataFrame, order: list[str], datasets) -> pd.DataFrame:
    """Per reading of ``order``, noise level and comparison of ``NOISE_COMPARISONS``: the mean
    over the datasets of the per-dataset mean difference (error points) on the paired runs,
    with its 95 % t interval and the Wilcoxon signed-rank p across datasets."""
    rows = []
    for reading in order:
        part = folds[folds.reading == reading]
        for noise in sorted(set(part.noise.round(4))):
            for a, b in NOISE_COMPARISONS:
                _, over = paired_over_datasets(part, datasets, noise, a, b)
                if over is not None:
                    rows.append({"reading": reading, "noise": noise, "algorithm": a,
                                 "versus": b, "difference": over.mean, "ci_low": over.low,
                                 "ci_high": over.high, "p_value": over.p_value,
                                 "datasets": over.n})
    return pd.DataFrame(rows, columns=["reading", "noise", "algorithm", "versus", "difference",
                                       "ci_low", "ci_high", "p_value", "datasets"])


def noise_figure(duels: pd.DataFrame, stem: Path) -> list[Path]:
    """One panel per reading: each comparison's mean difference against the noise level with
    its 95 % t interval across datasets, the zero line (below it favours the first booster),
    filled where the Wilcoxon p is below 0.05."""
    order = list(dict.fromkeys(duels.reading))
    fig, axes = _noise_panels(len(order), height=2.3, extra=0.5, sharey=True)
    levels = sorted(set(100 * duels.noise.round(4)))
    for ax, reading in zip(axes.flat, order):
        part = duels[duels.reading == reading]
        for k, (a, b) in enumerate(NOISE_COMPARISONS):
            line = part[(part.algorithm == a) & (part.versus == b)].sort_values("noise")
            if not len(line):
                continue
            x = 100 * line.noise.to_numpy() + (k - 0.5) * 0.8  # side by side at each level
            y = line.difference.to_numpy()
            ax.errorbar(x, y, yerr=[y - line.ci_low.to_numpy(), line.ci_high.to_numpy() - y],
                        color=f"C{k}", lw=1, capsize=2, ms=0, label=f"{a} − {b}")
            significant = line.p_value.to_numpy() < SIGNIFICANT
            ax.plot(x[significant], y[significant], "o", color=f"C{k}", ms=4)
            ax.plot(x[~significant], y[~significant], "o", mfc="white", color=f"C{k}", ms=4)
        ax.axhline(0.0, color="0.5", lw=0.8, ls="--")
        ax.set_title(reading, fontsize=8)
    return _noise_panels_done(fig, axes, len(order), levels, "error points", stem,
                              columns=len(NOISE_COMPARISONS), bottom=0.07)


def noise_table(summary: pd.DataFrame, reading: str = PRIMARY) -> pd.DataFrame | None:
    """Under one reading: each algorithm's mean test error (%) over the datasets, and its mean
    rounds, per noise level (None if the reading has fewer than two levels)."""
    part = summary[summary.reading == reading]
    if part.noise.nunique() < 2:
        return None
    order = list(dict.fromkeys(part.algorithm))
    error = part.pivot_table(index="algorithm", columns="noise", values="error_mean")
    rounds = part.pivot_table(index="algorithm", columns="noise", values="rounds_mean")
    table = pd.DataFrame({f"{_percent(p)} noise": [
        f"{100 * error.loc[a, p]:.2f} ({rounds.loc[a, p]:.0f})" for a in order]
        for p in error.columns}, index=pd.Index(order, name="algorithm"))
    return table


def shared_noise(summary: pd.DataFrame) -> pd.DataFrame:
    """The summary rows at the noise levels every reading has, so that readings run at more
    levels (the β sweep) are compared with the others on equal terms."""
    levels = None
    for _, part in summary.groupby("reading", sort=False):
        here = set(part.noise.round(4))
        levels = here if levels is None else levels & here
    return summary[summary.noise.round(4).isin(levels or set())]


def nearest_to_published(summary: pd.DataFrame, reference: dict) -> pd.DataFrame:
    """Per reading: mean |reproduced - published| (points) over the Table 2 and Table 4 cells
    at the noise levels every reading has. An observation about the readings, never a way to
    choose one."""
    published = {(0.0, d, a): v for (d, a), v in table2(reference).items()}
    published.update(table4(reference))
    rows = []
    for reading, part in shared_noise(summary).groupby("reading", sort=False):
        diffs = [abs(100 * r.error_mean - published[key]) for r in part.itertuples()
                 if (key := (round(float(r.noise), 2), r.dataset, r.algorithm)) in published]
        rows.append({"reading": reading, "cells": len(diffs),
                     "mean_abs_difference": round(float(np.mean(diffs)), 2) if diffs else np.nan})
    return pd.DataFrame(rows)


def scope_text(config: dict) -> str:
    """What the study ran, from the config: readings (and those defined but not run),
    datasets, noise levels, repeats."""
    study = study_section(config)
    run, defined = list(readings(study)), list(readings(study, selected=False))
    left = [name for name in defined if name not in run]
    text = (f"Scope: readings {', '.join(f'`{r}`' for r in run)}; "
            f"{len(study['datasets'])} datasets; noise "
            f"{', '.join(map(_percent, study['noise_levels']))}; "
            f"{study['repeats']} repeats of {config['experiment']['folds']}-fold CV.")
    scoped = {}
    for name, reading in readings(study).items():
        own = []
        if "noise_levels" in reading:
            own.append("noise " + ", ".join(map(_percent, reading["noise_levels"])))
        if "repeats" in reading:
            r = int(reading["repeats"])
            own.append("repeat 0 only" if r == 1 else f"repeats 0-{r - 1} only")
        label = f"{reading['sweep']['param']}=*" if "sweep" in reading else name
        if own:
            scoped[label] = "; ".join(own)
    text += "".join(f" `{label}`: {what}." for label, what in scoped.items())
    if reuters_source(config) == "sensitivity_reuters":
        seeds = reuters_plan(config).groupby("reading", sort=False).repeat.nunique()
        seeded = ", ".join(f"`{r}`" for r in seeds.index[seeds > 1])
        text += (f" Reuters (Table 3): every reading on the ApteMod split's "
                 f"{len(config['reuters_study']['categories'])} categories"
                 + (f"; {seeded} (which resample) on {seeds.max()} seeds." if seeded else "."))
    else:
        text += " Reuters (Table 3): the main run's split, under `primary` only."
    if left:
        text += (f" Defined in the config but not run here (`sensitivity.run`): "
                 f"{', '.join(f'`{r}`' for r in left)}.")
    return text


def _questions_section(doc, questions: pd.DataFrame, per_dataset: pd.DataFrame | None,
                       reference: dict) -> None:
    texts = dict(zip((c["id"] for c in reference.get("question_checks") or []),
                     reference.get("questions") or []))
    doc.paragraph("Questions neither paper asks, kept as data beside the claims "
                  "(`config/reference/jin2003_tables.yaml`, `questions`) and answered on the "
                  f"`{PRIMARY}` reading's paired runs. Per comparison: win/tie/loss over the "
                  "sets (mean error, tie at 0.1 points), the wins it needs, the mean difference "
                  "over the sets (error points, first minus second: negative favours the first) "
                  "with its 95 % t interval, and the Wilcoxon signed-rank p across sets. The "
                  "answer is yes when every comparison has the wins it needs.")
    answers = questions.groupby("question", sort=False).holds.all()
    doc.table(pd.DataFrame({
        "question": [texts.get(q, q) if k == 0 else "" for q, k in
                     zip(questions.question, questions.duel)],
        "answer": [("yes" if answers[q] else "no") if k == 0 else "" for q, k in
                   zip(questions.question, questions.duel)],
        "comparison": [f"{a} − {b} at {_percent(n)}" for a, b, n in
                       zip(questions.algorithm, questions.versus, questions.noise)],
        "win/tie/loss": [f"{w}/{t}/{l} (needs {n})" for w, t, l, n in zip(
            questions.wins, questions.ties, questions.losses, questions.needed)],
        "difference": [f"{display.signed(m)} {display.interval(lo, hi)} "
                       f"p={display.p_text(p)}" for m, lo, hi, p in zip(
                           questions.difference, questions.ci_low, questions.ci_high,
                           questions.p_value)]}), index=False)
    if per_dataset is not None and len(per_dataset):
        rows = per_dataset[per_dataset.dataset != "all"]
        doc.paragraph("Per set: the difference (error points) and the corrected resampled "
                      "t-test's p (Nadeau & Bengio 2003) over the paired runs:")
        wide = rows.assign(
            comparison=[f"{a} − {b}, {_percent(n)}" for a, b, n in
                        zip(rows.algorithm, rows.versus, rows.noise)],
            value=[f"{display.signed(m)} (p={display.p_text(p)})"
                   for m, p in zip(rows.difference, rows.p_value)],
            dataset=rows.dataset.map(lambda d: DISPLAY.get(d, d)))
        doc.table(wide.pivot_table(index="dataset", columns="comparison", values="value",
                                   aggfunc="first", sort=False))


def sensitivity_document(summary: pd.DataFrame, timing: pd.DataFrame, verdicts: pd.DataFrame,
                         duels: pd.DataFrame, reference: dict, beta_png: Path | None,
                         scope: str = "", beta: pd.DataFrame | None = None,
                         beta_tests: pd.DataFrame | None = None,
                         chosen_c: pd.DataFrame | None = None,
                         forest_png: Path | None = None, noise_png: Path | None = None,
                         reuters_seeds: pd.DataFrame | None = None,
                         questions: pd.DataFrame | None = None,
                         question_duels: pd.DataFrame | None = None,
                         learners_png: Path | None = None):
    """The report's Sensitivity section as a document of its own (reports/sensitivity.*)."""
    from weightboost.report.document import Document

    doc = Document("WeightBoost reproduction: the claims under every reading of the protocol")
    order = list(dict.fromkeys(verdicts.reading))
    runs = int(summary.n_runs.max())
    doc.paragraph(f"The UCI grid rerun under each reading of the paper's unstated protocol, on "
                  f"repeated cross-validation ({runs} paired runs per cell: every repeat has its "
                  "own seeded folds and label noise, shared by every reading and algorithm). "
                  "The readings and the tests are described in `docs/protocol.md`; the main "
                  "tables are `report.md`.")
    if scope:
        doc.paragraph(scope)
    questions = questions if questions is not None and len(questions) else None
    if learners_png is not None or questions is not None:
        doc.heading("Beyond the papers: bagging, random forests, gradient boosting")
    if learners_png is not None:
        doc.image(Path(learners_png), "Mean test error (%) against the label noise of the "
                  f"training folds, per data set, under `{PRIMARY}`: the paper's learners "
                  "(solid) and the baselines a user would pick today (dashed; "
                  "docs/protocol.md §3.1), on the same folds and noisy labels")
    if questions is not None:
        _questions_section(doc, questions, question_duels, reference)
    doc.heading("Verdicts")
    if forest_png is not None:
        doc.image(Path(forest_png), "Each claim's first comparison under every reading: mean "
                  "difference over the datasets (error points, negative favours WeightBoost; "
                  "for Reuters over the categories in F1, positive favours WeightBoost) "
                  "with its 95 % t interval; filled where the Wilcoxon signed-rank p across "
                  f"datasets is below {SIGNIFICANT:g}")
    doc.paragraph("Per claim and reading: win/tie/loss of the claim's first comparison over the "
                  "datasets (mean error over all runs, tie at the paper's 0.1-point precision), "
                  "and whether the claim holds (✓) or not (✗); '—' where the reading has no data "
                  "for it (without `sensitivity.reuters` the Reuters claim is decided on the "
                  "main run's split only; with it, on every reading's F1 averaged over its "
                  "seeds).")
    matrix = verdicts.assign(cell=[
        display.verdict_cell(h, w, t, l)
        for h, w, t, l in zip(verdicts.holds, verdicts.wins, verdicts.ties, verdicts.losses)])
    table = matrix.pivot(index="reading", columns="claim", values="cell")
    table = table.reindex(index=order, columns=list(dict.fromkeys(verdicts.claim)))
    doc.table(table)
    first = _first_comparisons(duels)
    if len(first):
        doc.paragraph("Mean difference of the first comparison over the datasets (first "
                      "algorithm minus second: error points, negative favours WeightBoost; for "
                      "Reuters F1 over the categories, positive favours WeightBoost), its 95 % "
                      "t interval and the Wilcoxon signed-rank p across datasets (Demšar 2006):")
        shown = first.assign(value=[
            f"{display.signed(m, n)} {display.interval(lo, hi, n)} p={display.p_text(p)}"
            for m, lo, hi, p, n in zip(first.difference, first.ci_low, first.ci_high,
                                       first.p_value, first.unit.map(DECIMALS))])
        wide = shown.pivot(index="claim", columns="reading", values="value")
        wide = wide.reindex(index=[c for c in dict.fromkeys(verdicts.claim) if c in wide.index],
                            columns=[r for r in order if r in set(shown.reading)])
        wide = wide.T.rename_axis("reading")
        doc.table(wide)
        per = duels[(duels.dataset != "all") & (duels.reading == order[0])
                    & (duels.unit == ERROR_POINTS)]  # Reuters: its own section below
        if len(per):
            doc.paragraph(f"Per dataset under `{order[0]}`: the corrected resampled t-test "
                          "(Nadeau & Bengio 2003) over the paired runs:")
            doc.table(pd.DataFrame({
                "claim": per.claim,
                "dataset": per.dataset.map(lambda d: DISPLAY.get(d, d)),
                "comparison": [f"{a} − {b}" for a, b in zip(per.algorithm, per.versus)],
                "difference (points)": [display.signed(m) for m in per.difference],
                "95 % interval": [display.interval(lo, hi)
                                  for lo, hi in zip(per.ci_low, per.ci_high)],
                "p": [display.p_text(p) for p in per.p_value]}), index=False)
    if reuters_seeds is not None:
        doc.heading("Reuters across seeds")
        doc.paragraph("Readings that resample run each Reuters cell once per seed (the same "
                      "seeds for both boosters). Per category: the mean F1 difference over the "
                      "seeds (first algorithm minus second; positive favours WeightBoost) and "
                      "the paired t-test across the seeds:")
        wide = reuters_seeds.assign(value=[
            f"{display.signed(d, DECIMALS[F1])} (p={display.p_text(p)})"
            for d, p in zip(reuters_seeds.difference, reuters_seeds.p_value)])
        wide = wide.assign(comparison=[f"{a} − {b}, {r} T" for a, b, r in zip(
            wide.algorithm, wide.versus, wide.t_rule)])
        table = wide.pivot_table(index="category", columns=["reading", "comparison"],
                                 values="value", aggfunc="first", sort=False)
        table.columns = [f"{r}: {c}" for r, c in table.columns]
        doc.table(table)
    noise = noise_table(summary)
    if noise is not None or noise_png is not None:
        doc.heading("Label noise")
    if noise_png is not None:
        pairs = " and ".join(f"{a} − {b}" for a, b in NOISE_COMPARISONS)
        doc.image(Path(noise_png), f"{pairs} against the label noise of the training folds, "
                  "per reading (the β sweep has its own figure below): mean difference over "
                  "the datasets in error points with its 95 % t interval; below zero favours "
                  "the first booster; filled where the Wilcoxon signed-rank p across datasets is "
                  f"below {SIGNIFICANT:g}")
    if noise is not None:
        doc.paragraph(f"Under `{PRIMARY}`: mean test error (%) over the datasets per noise level, "
                      "and in brackets the mean boosting rounds used (of 100; 1 for C4.5 and "
                      "the outside learners, which report no rounds):")
        doc.table(noise)
    doc.heading("Rounds, distance to the paper, cost")
    shared = shared_noise(summary)
    levels = ", ".join(map(_percent, sorted(set(shared.noise.round(4)))))
    every = set.intersection(set(shared.algorithm),
                             *(set(p.algorithm) for _, p in shared.groupby("reading")))
    boosters = shared[shared.algorithm.isin(every - {"C4.5"})]  # not a reading's baselines
    if len(boosters):
        doc.paragraph(f"Mean boosting rounds used per reading (over datasets, runs and the "
                      f"noise levels every reading has: {levels}; the protocol allows 100):")
        rounds = boosters.pivot_table(index="reading", columns="algorithm", values="rounds_mean",
                                      sort=False).round(1).reindex(order)
        doc.table(rounds)
    near = nearest_to_published(summary, reference).set_index("reading").reindex(order)
    best = near.mean_abs_difference.idxmin()
    doc.paragraph(f"Distance to the published numbers (mean absolute difference over the Table 2 "
                  f"and Table 4 cells at {levels} noise): nearest is `{best}` "
                  f"({near.mean_abs_difference[best]:.2f} points). This is an observation; it "
                  "does not choose the primary reading, which the protocol fixes.")
    doc.table(near)
    doc.paragraph("Compute per reading (fit + predict seconds summed over its cells; `new_` "
                  "counts only the cells the primary reading does not share):")
    doc.table(timing.set_index("reading"))
    if chosen_c is not None:
        doc.paragraph("Weight Decay's C as the inner 5-fold cross-validation chose it in each "
                      "outer training fold (value ×folds; the fixed C of the other readings is "
                      "0.003):")
        doc.table(chosen_c)
    if beta is not None:
        doc.heading("WeightBoost's β")
        doc.paragraph("Mean test error (%) over the datasets for each β of the sweep (the paper "
                      "uses 0.5; its future work), beside AdaBoost's on the same runs:")
        doc.table(beta)
    if beta_tests is not None and len(beta_tests):
        doc.paragraph("Each β against the smallest of the sweep, paired on the runs (error "
                      "points, mean over datasets with its 95 % t interval; Wilcoxon signed-rank "
                      "p across datasets; datasets where the corrected resampled t-test finds "
                      "the β lower / higher at 5 %):")
        doc.table(beta_tests.assign(**{"p (Wilcoxon)": [
            display.p_text(p) for p in beta_tests["p (Wilcoxon)"]]}), index=False)
    if beta_png is not None:
        doc.image(Path(beta_png), "WeightBoost's test error against β, per dataset and noise "
                                  "level; dashed: AdaBoost under the primary reading")
    return doc
