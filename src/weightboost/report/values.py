"""Named values: every number the article, the README and the docs' prose quote, defined once
and read from the tables.

``workflow/article/values.yaml`` (``DEFINITIONS``) maps a name to a QUERY: what the number is
(its table, rows and column, how they are combined and printed). Prose uses only the name:
the article (``workflow/article/article.typ``) as ``#v.NAME``, with the values this module
computes for its run; a Markdown page (``PAGES``) as ``<!--v:NAME-->VALUE<!--/v-->``, where
VALUE is what the committed tables say. ``python -m weightboost.report.values`` (``make
readme``) rewrites every VALUE of the pages; ``--check`` (a test, so CI) names each value that
differs from the tables.

A QUERY is a source and ``key=value`` words separated by spaces::

    summary reading=primary noise=0 algorithm=WeightBoost field=rounds_mean agg=mean fmt=.0f

``key=value`` keeps the source's rows whose column ``key`` equals the value (numbers compared as
numbers; ``a|b`` for either; ``_`` also matches a space), ``key!=value`` the others. ``field``
is the column read; ``by`` (columns, comma-separated) first averages it within each group of
the rows kept; ``agg`` combines the rows (``mean``, ``sum``, ``min``, ``max``, ``absmax``,
``count``, ``sd``; without it exactly one row must remain); ``scale`` multiplies (``100`` for a
rate in percent); ``fmt`` is a Python format spec (default ``g``), and a minus sign prints as
the typographic one, as in the prose around it.

The sources (``SOURCES``) are the result tables (``results/``) and the frames the reports compute
from them with their own functions (the verdicts and duels of both studies, RegBoost's Table 1,
the noise duels, ...), which the reports also write under ``reports/tables/``; the main
report's Tables 2-4 and claims are read from there. A named run reads its own
(``results/runs/<run>/``, ``reports/runs/<run>/``).
"""

from __future__ import annotations

import argparse
import re
import sys
from functools import cached_property
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from weightboost.errors import ReproError
from weightboost.fileio import write_text_atomic
from weightboost.report.reference import JIN2003, WANG_KEGL2004, load_reference

DEFINITIONS = "workflow/article/values.yaml"  # name -> query, below the project's root
PAGES = ("README.md",)  # the Markdown pages `make readme` rewrites
# a name is lower-case words joined by _, so prose may show the form, <!--v:NAME-->
NAME = r"[a-z][a-z_0-9]*"
MARK = re.compile(rf"<!--v:(?P<name>{NAME})-->(?P<value>.*?)<!--/v-->", re.S)
NOT_RUN = "n/a"  # a value whose table a named run does not have
OPTIONS = ("field", "by", "agg", "fmt", "scale")
AGGREGATES = {"mean": np.mean, "sum": np.sum, "min": np.min, "max": np.max, "count": len,
              "absmax": lambda v: np.max(np.abs(v)), "sd": lambda v: np.std(v, ddof=1)}


class Tables:
    """The sources of a run's tables, each read or computed once: under ``root`` (the working
    directory), its ``results`` and ``reports`` directories (a named run's own) and its
    ``config``; the published figures from ``project`` (the checkout, by default ``root``,
    whose config is the default one too)."""

    def __init__(self, root: Path, results: str = "results", reports: str = "reports",
                 config: dict | None = None, project: Path | None = None):
        self.root = Path(root)
        self.project = Path(project or root)
        self.results, self.reports = self.root / results, self.root / reports
        self._sources = {}
        if config is not None:
            self.__dict__["config"] = config

    def result(self, kind: str, name: str) -> pd.DataFrame:
        """The result table ``name`` of table set ``kind`` (its path from ``TABLE_SETS``)."""
        from weightboost.pipeline.provenance import TABLE_SETS

        [path] = [p for p in TABLE_SETS[kind] if p.rsplit("/", 1)[-1] == name]
        return self._csv(self.results / path)

    def report_table(self, name: str) -> pd.DataFrame:
        """``name`` under the run's ``reports/tables/``, written by its report rules."""
        return self._csv(self.reports / "tables" / name)

    def _csv(self, path: Path) -> pd.DataFrame:
        if not path.is_file():
            raise ReproError(f"{path}: missing; the quoted numbers are read from it "
                             "(run the pipeline or restore it)")
        return pd.read_csv(path)

    @cached_property
    def config(self) -> dict:
        from weightboost.pipeline.config import load_config

        return load_config(self.project / "config" / "config.yaml")

    @cached_property
    def reference(self) -> dict:
        return load_reference(self.project / JIN2003)

    @cached_property
    def regboost_reference(self) -> dict:
        return load_reference(self.project / WANG_KEGL2004)

    @cached_property
    def summary(self) -> pd.DataFrame:
        return self.result("sensitivity", "summary.csv")

    @cached_property
    def folds(self) -> pd.DataFrame:
        return self.result("sensitivity", "folds.csv")

    @cached_property
    def sensitivity_verdicts(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        """The study's verdict matrix and duels, as the sensitivity report computes them."""
        from weightboost.experiment.sensitivity import reuters_source
        from weightboost.report.sensitivity import verdict_tables

        f1 = self.result(reuters_source(self.config), "reuters_f1.csv")
        return verdict_tables(self.config, self.reference, self.folds, self.summary, f1)

    @cached_property
    def regboost_verdicts(self) -> tuple[list[dict], pd.DataFrame]:
        """RegBoost's claims (primary reading, with evidence) and verdict matrix, as its
        report computes them."""
        from weightboost.experiment.regboost import study_section
        from weightboost.report.regboost import verdicts

        return verdicts(self.regboost_reference, self.result("regboost", "folds.csv"),
                        self.result("regboost", "summary.csv"),
                        self.result("regboost", "semi_supervised.csv"),
                        study_section(self.config))

    def source(self, name: str, where: dict) -> pd.DataFrame:
        """The source's frame; a source of ``FILTERED`` computes only the rows ``where`` asks
        for (its keys that are its columns; ``a|b`` alternatives)."""
        if name not in SOURCES and name not in FILTERED:
            raise ReproError(f"unknown source {name!r} (known: "
                             f"{', '.join(sorted(SOURCES | FILTERED))})")
        key = (name, tuple(sorted(where.items())) if name in FILTERED else ())
        if key not in self._sources:
            self._sources[key] = (FILTERED[name](self, {k: v.split("|") for k, v in where.items()})
                                  if name in FILTERED else SOURCES[name](self))
        return self._sources[key]


def _noise_duels(t: Tables) -> pd.DataFrame:
    from weightboost.experiment.sensitivity import readings, study_section
    from weightboost.report.sensitivity import noise_duels

    study = study_section(t.config)
    return noise_duels(t.folds, list(readings(study)), study["datasets"])


def _beta(t: Tables) -> pd.DataFrame:
    """Per β of the sweep and noise level: WeightBoost's mean error over the datasets (%) and
    its difference to the smallest β's (points)."""
    from weightboost.report.sensitivity import beta_sweep

    sweep = beta_sweep(t.summary, t.config)
    mean = (100 * sweep.groupby(["beta", "noise"]).error_mean.mean()).rename("error")
    frame = mean.reset_index()
    base = frame[frame.beta == frame.beta.min()].set_index("noise").error
    return frame.assign(difference=frame.error - frame.noise.map(base))


def _beta_duels(t: Tables) -> pd.DataFrame:
    from weightboost.report.sensitivity import beta_duels

    return beta_duels(t.folds, t.summary, t.config).rename(columns={"p (Wilcoxon)": "p_value"})


def _nearest(t: Tables) -> pd.DataFrame:
    from weightboost.report.sensitivity import nearest_to_published

    return nearest_to_published(t.summary, t.reference)


def _reuters_duels(t: Tables) -> pd.DataFrame:
    """Win/tie/loss counts over the categories of every ordered pair of algorithms, per T rule
    (the claims' own evaluator)."""
    from weightboost.report.claims import counts, reuters_duel

    f1 = t.result("reuters", "reuters_f1.csv")
    rows = []
    for rule in f1.t_rule.unique():
        for a in f1.algorithm.unique():
            for b in f1.algorithm.unique():
                if a != b:
                    wins, ties, losses = counts(reuters_duel(
                        f1, {"source": "reuters", "algorithm": a, "versus": b, "t_rule": rule}))
                    rows.append({"t_rule": rule, "algorithm": a, "versus": b, "wins": wins,
                                 "ties": ties, "losses": losses})
    return pd.DataFrame(rows)


def _wins(t: Tables, where: dict) -> pd.DataFrame:
    """Win/tie/loss counts over the datasets of an algorithm against another (``versus``), per
    reading and noise level of the study (the claims' own evaluator, at the paper's
    precision); only the readings, levels and pairs ``where`` names."""
    from weightboost.report.claims import counts, uci_duel

    summary = t.summary
    datasets = list(summary.dataset.unique())
    for key in ("reading", "noise", "algorithm", "versus"):
        if key not in where:
            raise ReproError(f"the wins source needs {key}=")
    summary = summary[summary.reading.isin(where["reading"])
                      & _matches(summary.noise, "|".join(where["noise"]))]
    rows = []
    for (reading, noise), part in summary.groupby(["reading", "noise"], sort=False):
        for a in where["algorithm"]:
            for b in where["versus"]:
                if a != b:
                    duel = {"algorithm": a, "versus": b, "noise": noise}
                    wins, ties, losses = counts(uci_duel(part, None, duel, datasets,
                                                         paired=lambda *_, **__: np.nan))
                    rows.append({"reading": reading, "noise": noise, "algorithm": a,
                                 "versus": b, "wins": wins, "ties": ties, "losses": losses})
    return pd.DataFrame(rows)


def _regboost_evidence(t: Tables) -> pd.DataFrame:
    """The RegBoost claims' evidence under the primary reading, one row per claim and dataset
    (the report's own evaluation: values, difference, corrected resampled t p-value)."""
    results, _ = t.regboost_verdicts
    return pd.concat([r["evidence"].assign(claim=check["id"]) for check, r
                      in zip(t.regboost_reference["claim_checks"], results)], ignore_index=True)


def _regboost_table1(t: Tables) -> pd.DataFrame:
    from weightboost.report.regboost import table1

    return table1(t.result("regboost", "summary.csv"), t.regboost_reference)


def _regboost_noise(reading: str):
    def source(t: Tables) -> pd.DataFrame:
        from weightboost.experiment.regboost import study_section
        from weightboost.report.regboost import noise_duels

        return noise_duels(t.result("regboost", "folds.csv"), study_section(t.config), reading)

    return source


# computed from the result tables by the reports' own functions (the reports write the same
# frames under reports/tables/, and tests/test_readme_numbers.py checks the committed ones
# against these), or read from reports/tables/ where the main report's build is the only way
SOURCES = {
    "summary": lambda t: t.summary,                                   # the study, per cell
    "timing": lambda t: t.result("sensitivity", "timing.csv"),        # its seconds per reading
    "duels": lambda t: t.sensitivity_verdicts[1],
    "verdicts": lambda t: t.sensitivity_verdicts[0],
    "questions": lambda t: t.report_table("questions.csv"),  # beyond the papers
    "claims": lambda t: t.report_table("claims.csv"),     # the main tables'
    "table2": lambda t: t.report_table("table2.csv"),
    "table3": lambda t: t.report_table("table3.csv"),
    "table4": lambda t: t.report_table("table4.csv"),
    "noise_duels": _noise_duels,
    "beta": _beta,
    "beta_duels": _beta_duels,
    "nearest": _nearest,
    "reuters_duels": _reuters_duels,
    "regboost_summary": lambda t: t.result("regboost", "summary.csv"),
    "regboost_folds": lambda t: t.result("regboost", "folds.csv"),
    "regboost_semi": lambda t: t.result("regboost", "semi_supervised.csv"),
    "regboost_table1": _regboost_table1,
    "regboost_claims": lambda t: t.regboost_verdicts[1],
    "regboost_cross_paper": _regboost_noise("cross_paper"),
    "regboost_evidence": _regboost_evidence,
    "barrier_summary": lambda t: t.result("barrier", "summary.csv"),  # the barrier study
    "barrier_answers": lambda t: t.report_table("barrier_answers.csv"),
}
FILTERED = {"wins": _wins}


def _matches(column: pd.Series, wanted: str) -> pd.Series:
    values = wanted.split("|")
    if pd.api.types.is_bool_dtype(column):  # a verdict: holds=True
        return column.astype(str).isin(values)
    if pd.api.types.is_numeric_dtype(column):
        try:
            numbers = [float(v) for v in values]
        except ValueError:
            return pd.Series(False, index=column.index)
        return np.isclose(column.to_numpy(float)[:, None], numbers, atol=1e-9).any(axis=1)
    # a query is split at spaces: "_" in it also matches a space ("train_error_%")
    return column.astype(str).isin(values + [v.replace("_", " ") for v in values])


def parse(query: str) -> tuple[str, dict, dict]:
    words = query.split()
    if not words or "=" in words[0]:
        raise ReproError(f"query {query!r}: starts with no source")
    where, options = {}, {}
    for word in words[1:]:
        key, sep, value = word.partition("=")
        if not sep:
            raise ReproError(f"query {query!r}: {word!r} is not key=value")
        (options if key in OPTIONS else where)[key] = value  # "key!" holds key!=value
    if "field" not in options:
        raise ReproError(f"query {query!r}: no field=")
    return words[0], where, options


def evaluate(query: str, tables: Tables) -> str:
    """The formatted value of ``query`` (module docstring)."""
    name, where, options = parse(query)
    frame = tables.source(name, where)
    for key, wanted in where.items():
        column, keep = (key[:-1], False) if key.endswith("!") else (key, True)
        if column not in frame.columns:
            raise ReproError(f"query {query!r}: source {name} has no column "
                             f"{column!r} (columns: {', '.join(map(str, frame.columns))})")
        frame = frame[_matches(frame[column], wanted) == keep]
    field = options["field"]
    if field not in frame.columns:
        raise ReproError(f"query {query!r}: source {name} has no column "
                         f"{field!r}")
    if "by" in options:  # one mean per group first
        frame = frame.groupby(options["by"].split(","))[field].mean().reset_index()
    values = frame[field].to_numpy()
    agg = options.get("agg")
    if agg is None:
        if len(values) != 1:
            raise ReproError(f"query {query!r}: {len(values)} rows match, "
                             "not one (narrow it, or give agg=)")
        value = values[0]
    elif agg in AGGREGATES:
        if not len(values) and agg != "count":
            raise ReproError(f"query {query!r}: no row matches")
        value = AGGREGATES[agg](values.astype(float)) if agg != "count" else len(values)
    else:
        raise ReproError(f"query {query!r}: agg={agg!r} (known: "
                         f"{', '.join(AGGREGATES)})")
    if "scale" in options:
        value = float(value) * float(options["scale"])
    text = format(value.item() if hasattr(value, "item") else value, options.get("fmt", "g"))
    return text.replace("-", "\N{MINUS SIGN}")


def definitions(path: Path) -> dict[str, str]:
    """name -> query, from ``path`` (the project's ``DEFINITIONS``)."""
    try:
        named = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ReproError(f"{path}: cannot read the named values ({exc})") from exc
    bad = [name for name, query in named.items()
           if not (isinstance(query, str) and re.fullmatch(NAME, str(name)))]
    if bad:
        raise ReproError(f"{path}: {', '.join(map(str, bad))}: a name is lower-case words "
                         "joined by _ and its value one query string (see its first lines)")
    return named


def value(name: str, named: dict[str, str], tables: Tables) -> str:
    """The formatted value of the named value ``name``."""
    if name not in named:
        raise ReproError(f"value {name!r} is not defined in {DEFINITIONS}")
    try:
        return evaluate(named[name], tables)
    except ReproError as exc:
        raise ReproError(f"value {name}: {exc}") from exc


def compute(named: dict[str, str], tables: Tables, strict: bool = True) -> dict[str, str]:
    """Every named value for the run of ``tables``. ``strict`` (the committed run) stops at the
    first that cannot be read; otherwise (a named run, which may leave out a study, a data set
    or a noise level) such a value is ``NOT_RUN``."""
    values = {}
    for name in named:
        try:
            values[name] = value(name, named, tables)
        except (ReproError, OSError, KeyError, ValueError):
            if strict:
                raise
            values[name] = NOT_RUN
    return values


def render(text: str, named: dict[str, str], tables: Tables) -> str:
    """``text`` with every marked value rewritten from the tables."""
    return MARK.sub(lambda m: f"<!--v:{m['name']}-->{value(m['name'], named, tables)}<!--/v-->",
                    text)


def stale(text: str, named: dict[str, str], tables: Tables) -> list[str]:
    """One line per marked value that is not what the tables say, naming it."""
    lines = []
    for m in MARK.finditer(text):
        now = value(m["name"], named, tables)
        if now != m["value"]:
            line = text.count("\n", 0, m.start()) + 1
            lines.append(f"line {line}: value {m['name']} is {m['value']}, the tables say {now}")
    return lines


def project_root(page: Path) -> Path:
    """The project that holds ``page``: the nearest directory above it with
    ``config/config.yaml``."""
    for directory in Path(page).resolve().parents:
        if (directory / "config" / "config.yaml").is_file():
            return directory
    raise ReproError(f"{page}: no directory above it holds config/config.yaml")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m weightboost.report.values",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="*", default=list(PAGES),
                        help=f"the pages to rewrite or check (default: {' '.join(PAGES)})")
    parser.add_argument("--check", action="store_true",
                        help="change nothing; name the values that differ from the tables")
    args = parser.parse_args(argv)
    tables, status = {}, 0  # one Tables per project: each source read or computed once
    for path in map(Path, args.pages):
        try:
            root = project_root(path)
            text = path.read_text(encoding="utf-8")
            if root not in tables:
                tables[root] = (definitions(root / DEFINITIONS), Tables(root))
            if args.check:
                lines = stale(text, *tables[root])
                for line in lines:
                    print(f"{path}: {line}", file=sys.stderr)
                status = max(status, 1 if lines else 0)
                continue
            new = render(text, *tables[root])
        except (ReproError, OSError) as exc:
            print(f"{path}: {exc}", file=sys.stderr)
            return 2
        if new != text:
            write_text_atomic(path, new)
        print(f"{path}: {len(MARK.findall(text))} values from the tables")
    if status:
        print("run `make readme` to rewrite them from the tables", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
