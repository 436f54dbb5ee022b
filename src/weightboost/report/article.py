"""The replication article: both re-runs as one paper (``reports/article.pdf`` and
``reports/article.html``), typeset by Typst from ``workflow/article/article.typ``.

This module computes nothing new. It gathers what the article states: every named value
(``weightboost.report.values``), each claim with its verdict and the readings under which it
holds (the claims' tables the reports wrote), each paper's verdict by the rule of
docs/protocol.md §4, the tables and figures the reports made, the provenance line of each, and
the ambiguity register of docs/protocol.md §6. It hands them to the Typst source as
``sys.inputs`` (one JSON document, and each figure's SVG text), so that the source needs no file
beside it, and compiles it twice: a PDF and an HTML page. A named run gets its own article from
its own tables; a study it did not run is said so in its place.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pandas as pd

from weightboost.errors import ReproError
from weightboost.fileio import write_bytes_atomic, write_csv_atomic
from weightboost.report.reference import DISPLAY
from weightboost.report.values import Tables, compute, definitions

SOURCE = "article.typ"  # in workflow/article/, beside its style, references and values
REPLICATED, NOT_REPLICATED = "[Re]", "[¬Re]"  # ReScience C's marks
# each figure of the article: the rule and script that drew it and the table sets it reads
FIGURES = {
    "figure1": ("report", "report.py", ("uci",)),
    "noise_curves": ("report", "report.py", ("uci",)),
    "reuters_f1_curves": ("report", "report.py", ("reuters",)),
    "sensitivity_forest": ("sensitivity_report", "sensitivity_report.py", ("sensitivity",)),
    "sensitivity_learners": ("sensitivity_report", "sensitivity_report.py", ("sensitivity",)),
    "sensitivity_noise": ("sensitivity_report", "sensitivity_report.py", ("sensitivity",)),
    "beta_curves": ("sensitivity_report", "sensitivity_report.py", ("sensitivity",)),
    "regboost_figure3": ("regboost_report", "regboost_report.py", ("regboost",)),
    "regboost_cross_paper": ("regboost_report", "regboost_report.py", ("regboost",)),
    "barrier": ("barrier_report", "barrier_report.py", ("barrier",)),
}
# each table of the article: the file under reports/tables/ it lays out (rows, columns, the
# reproduced and the published column, decimals; and the rows it keeps), its rule, script and
# table sets
TABLES = {
    "table2": ("table2.csv", ("dataset",), "algorithm", "error_mean", "published", 1, {},
               "report", "report.py", ("uci",)),
    "table3": ("table3.csv", ("category",), "algorithm", "f1", "published", 3,
               {"t_rule": "paper"}, "report", "report.py", ("reuters",)),
    "table4": ("table4.csv", ("noise", "dataset"), "algorithm", "error_mean", "published", 1,
               {}, "report", "report.py", ("uci",)),
    "regboost_table1": ("regboost_table1.csv", ("dataset", "algorithm"), "quantity",
                        "reproduced", "published", {"distinct stumps": 0, "": 2}, {},
                        "regboost_report",
                        "regboost_report.py", ("regboost",)),
}

# per paper, the rules whose tables its claims' verdicts come from, and the sets they read
CLAIM_TABLES = {"jin2003": (("report", "report.py", ("uci", "reuters")),
                            ("sensitivity_report", "sensitivity_report.py", ("sensitivity",))),
                "wang_kegl2004": (("regboost_report", "regboost_report.py", ("regboost",)),)}


def paper_verdict(claims: list[dict]) -> str:
    """docs/protocol.md §4: a paper is replicated (``[Re]``) when every one of its claims holds
    in the main tables under its main reading, else not (``[¬Re]``)."""
    return REPLICATED if claims and all(c["holds"] for c in claims) else NOT_REPLICATED


def _claims(main: pd.DataFrame, readings: pd.DataFrame | None, texts: dict[str, str]) -> list:
    """One entry per claim: its text, the main reading's verdict and counts, and the other
    readings under which it holds (``readings``: one row per claim and reading)."""
    out = []
    for row in main.to_dict("records"):
        also = [] if readings is None else [
            r["reading"] for r in readings.to_dict("records")
            if r["claim"] == row["claim"] and r["reading"] != row.get("reading", "primary")
            and _true(r["holds"])]
        out.append({"id": row["claim"], "text": texts[row["claim"]], "holds": _true(row["holds"]),
                    "reading": row.get("reading", "primary"), "wins": int(row["wins"]),
                    "ties": int(row["ties"]), "losses": int(row["losses"]),
                    "needed": str(row["needed"]), "holds_under": also})
    return out


def _true(value) -> bool:
    return str(value).strip().lower() == "true"


def claims(tables: Tables) -> dict[str, list[dict]]:
    """Each paper's claims with their verdicts, from the tables the reports wrote: the main
    report's claims.csv (WeightBoost, one 10-fold CV, primary reading) with the sensitivity
    study's verdicts.csv where it ran; regboost_claims.csv, whose first row of a claim is its
    main reading."""
    out = {}
    main = tables.report_table("claims.csv")
    texts = dict(zip(main.id, main.claim))
    jin = main.drop(columns="claim").rename(columns={"id": "claim"})
    study = _optional(tables, "verdicts.csv")
    out["jin2003"] = _claims(jin, study, texts)
    regboost = _optional(tables, "regboost_claims.csv")
    if regboost is not None:
        reference = tables.regboost_reference
        texts = {check["id"]: text for check, text
                 in zip(reference["claim_checks"], reference["claims"])}
        main = regboost.groupby("claim", sort=False).head(1)
        out["wang_kegl2004"] = _claims(main, regboost, texts)
    return out


def _optional(tables: Tables, name: str) -> pd.DataFrame | None:
    path = tables.reports / "tables" / name
    return pd.read_csv(path) if path.is_file() else None


def register(protocol: Path) -> list[str]:
    """The ambiguity register (docs/protocol.md §6), one entry of Typst markup each."""
    text = Path(protocol).read_text(encoding="utf-8")
    section = re.search(r"^## 6\. Ambiguity register\n(.*?)^## ", text, re.S | re.M)
    if not section:
        raise ReproError(f"{protocol}: no section '## 6. Ambiguity register'")
    items = re.split(r"^- ", section[1], flags=re.M)[1:]
    return [_markdown_to_typst(" ".join(item.split())) for item in items]


def _markdown_to_typst(text: str) -> str:
    """The few inline forms the register uses: **bold**, *italic*, `code`; Typst's own
    markup characters elsewhere escaped."""
    parts = re.split(r"(`[^`]*`)", text)
    out = []
    for part in parts:
        if part.startswith("`"):
            out.append(part)
            continue
        part = re.sub(r"([#$@<>\\_\[\]])", r"\\\1", part)
        part = re.sub(r"\*\*(.+?)\*\*", r"BOLD\1BOLD", part)
        part = re.sub(r"\*(.+?)\*", r"_\1_", part)
        out.append(part.replace("BOLD", "*"))
    return "".join(out)


def side_by_side(frame: pd.DataFrame, index: list[str], columns: str, ours: str, paper: str,
                 digits: int | dict) -> dict:
    """A table of the article: one row per ``index`` value, one column per ``columns`` value
    (in the frame's order), each cell the reproduced and the published value (empty where the
    paper has none), printed with ``digits`` decimals (per column, ``""`` for the others)."""
    places = digits if isinstance(digits, dict) else {"": digits}
    frame = frame[frame.groupby(columns)[paper].transform("count") > 0]  # the paper's columns
    order = list(dict.fromkeys(frame[columns]))
    cells, previous = [], None
    for key, group in frame.groupby(index, sort=False):
        key = key if isinstance(key, tuple) else (key,)
        by = dict(zip(group[columns], group[[ours, paper]].to_numpy()))
        labels = [_label(name, k) for name, k in zip(index, key)]
        shown = [""] + labels[1:] if len(labels) > 1 and labels[0] == previous else labels
        previous = labels[0]  # a group's first key once, on its first row
        cells.append({"key": shown,
                      "cells": [[_number(value, places.get(c, places[""])) for value in by[c]]
                                if c in by else ["", ""] for c in order]})
    return {"index": [name.capitalize() for name in index], "columns": order, "rows": cells}


def _label(column: str, value) -> str:
    if column == "noise":
        return f"{100 * float(value):g} %"
    return DISPLAY.get(value, value) if column == "dataset" else str(value)


def _number(value, digits: int) -> str:
    if pd.isna(value):
        return ""
    return f"{float(value):.{digits}f}".replace("-", "\N{MINUS SIGN}")


def shallow(root: Path) -> bool:
    """Whether ``root`` is a shallow clone, whose history cannot say which commit last
    changed a file (it would name the oldest commit it has)."""
    try:
        return subprocess.run(["git", "rev-parse", "--is-shallow-repository"], cwd=root,
                              capture_output=True, text=True).stdout.strip() == "true"
    except OSError:
        return False


def _record_commit(root: Path, record: Path) -> str:
    """The commit that last changed a table set's record, or why there is none (not in a
    shallow clone: ``provenance`` asks that once)."""
    try:
        relative = record.resolve().relative_to(Path(root).resolve())
        commit = subprocess.run(["git", "log", "-1", "--format=%h", "--", str(relative)],
                                cwd=root, capture_output=True, text=True).stdout.strip()
        changed = subprocess.run(["git", "status", "--porcelain", "--", str(relative)],
                                 cwd=root, capture_output=True, text=True).stdout.strip()
    except (OSError, ValueError):
        return "not committed"
    return commit if commit and not changed else "not committed"


def provenance(root: Path, tables: Tables) -> dict[str, dict]:
    """Per table set that this run has: its record's commit, code digest, environment and
    the CPU-seconds of its cells."""
    out, whole = {}, not shallow(root)
    for record in sorted(tables.results.glob("*.provenance.json")):
        data = json.loads(record.read_text())
        env = data.get("environment", {})
        out[data["table_set"]] = {
            "commit": _record_commit(root, record) if whole else "unknown (shallow clone)",
            "code": data.get("code_sha256", "")[:12],
            "environment": ", ".join(f"{k} {env[k].replace('cpython ', '')}" for k in
                                     ("python", "numpy", "scikit-learn", "numba") if k in env),
            "cpu_seconds": round(sum(s.get("cpu seconds", 0) for s in data.get("stages", []))),
            "jobs": sum(s.get("jobs", 0) for s in data.get("stages", [])),
            "restored": sum(s.get("restored", 0) for s in data.get("stages", [])),
        }
    return out


def _caption(rules, records: dict) -> str:
    """A table's or figure's provenance line: each rule and script that made it, with the
    table sets it read (each with its record's commit and code digest), and the environment
    they were computed in (once where they share it)."""
    parts, environments = [], []
    for rule, script, sets in rules:
        read = [kind for kind in sets if kind in records]
        if not read:
            continue
        environments += [records[kind]["environment"] for kind in read]
        parts.append(f"rule {rule} (workflow/scripts/{script}) from "
                     + ", ".join(f"{kind} (record of {records[kind]['commit']}, code "
                                 f"{records[kind]['code']})" for kind in read))
    if not parts:
        return ""
    environment = (environments[0] if len(set(environments)) == 1
                   else "their environments differ: see the table of compute")
    return "Made by " + "; ".join(parts) + f"; {environment}."


def readings(config: dict) -> list[dict]:
    """The sensitivity study's readings and sweeps as the config defines them: a name and what
    it changes against the primary reading, in the config's own words."""
    study = config.get("sensitivity") or {}
    out = [{"name": name, "change": _flow(spec)} for name, spec in
           (study.get("readings") or {}).items()]
    for name, sweep in (study.get("sweeps") or {}).items():
        out.append({"name": f"{name}=…", "change": _flow(sweep)})
    return out


def _flow(spec) -> str:
    return json.dumps(spec, ensure_ascii=False).replace('"', "")


def datasets(tables: Tables) -> list[dict]:
    """The raw inputs of the UCI table set and their checksums, from its record."""
    record = tables.results / "uci.provenance.json"
    if not record.is_file():
        return []
    return [{"input": i["input"], "sha256": i["sha256"][:16]}
            for i in json.loads(record.read_text()).get("inputs", [])]


def gather(root: Path, tables: Tables, run: str, named: dict[str, str], protocol: Path,
           strict: bool) -> tuple[dict, dict[str, str]]:
    """The article's data (one JSON document) and its figures (name -> SVG text)."""
    records = provenance(root, tables)
    figures, captions = {}, {}
    for name, (rule, script, sets) in FIGURES.items():
        svg = tables.reports / "figures" / f"{name}.svg"
        if svg.is_file():
            figures[name] = svg.read_text(encoding="utf-8")
            captions[name] = _caption([(rule, script, sets)], records)
    rows = {}
    for name, (file, index, columns, ours, paper, digits, keep, rule, script,
               sets) in TABLES.items():
        frame = _optional(tables, file)
        if frame is not None:
            for column, wanted in keep.items():
                frame = frame[frame[column] == wanted]
            rows[name] = side_by_side(frame, list(index), columns, ours, paper, digits)
            captions[name] = _caption([(rule, script, sets)], records)
    captions["claims"] = _caption([r for rules in CLAIM_TABLES.values() for r in rules], records)
    for paper, rules in CLAIM_TABLES.items():
        captions[f"claims_{paper}"] = _caption(rules, records)
    captions["inputs"] = _caption([("uci_results", "uci_results.py", ("uci",))], records)
    found = claims(tables)
    papers = {key: {"verdict": paper_verdict(c), "claims": c} for key, c in found.items()}
    data = {
        "run": run,
        "values": compute(named, tables, strict=strict),
        "papers": papers,
        "tables": rows,
        "captions": captions,
        "figures": sorted(figures),
        "provenance": records,
        "datasets": datasets(tables),
        "datasets_run": [DISPLAY.get(name, name)
                         for name in tables.config["experiment"]["datasets"]],
        "register": register(protocol),
        "studies": {"sensitivity": (tables.reports / "tables" / "verdicts.csv").is_file(),
                    "barrier": (tables.reports / "tables" / "barrier_answers.csv").is_file(),
                    "reuters": "table3" in rows},  # RegBoost's: its paper in papers
        "readings": readings(tables.config),
        "config": {k: tables.config["experiment"][k]
                   for k in ("folds", "rounds", "seed", "noise_levels")
                   if k in tables.config["experiment"]},
    }
    return data, figures


def compile_article(source_dir: Path, data: dict, figures: dict[str, str], pdf: Path,
                    html: Path):
    """Typeset ``SOURCE`` of ``source_dir`` with ``data`` and ``figures`` into ``pdf`` and
    ``html``."""
    import typst

    source = Path(source_dir) / SOURCE
    inputs = {"data": json.dumps(data, ensure_ascii=False, sort_keys=True),
              **{f"figure:{name}": svg for name, svg in figures.items()}}
    for out, form in ((pdf, "pdf"), (html, "html")):
        try:
            content = typst.compile(str(source), root=str(source.parent), format=form,
                                    sys_inputs=inputs)
        except RuntimeError as exc:  # typst's compile errors, with the source line
            raise ReproError(f"{source}: Typst could not build the {form}: {exc}") from exc
        write_bytes_atomic(Path(out), content)


def build_article(workdir: Path, results: str, reports: str, config: dict | None, run: str,
                  project: Path, pdf: Path, html: Path, values_csv: Path):
    """The article of the run whose tables are under ``results`` and ``reports`` (relative
    to ``workdir``), from the source, the published figures and the protocol of the checkout
    ``project``; the committed run (``main``) must have every named value."""
    project = Path(project)
    source_dir, protocol = project / "workflow" / "article", project / "docs" / "protocol.md"
    tables = Tables(workdir, results, reports, config, project)
    named = definitions(Path(source_dir) / "values.yaml")
    data, figures = gather(workdir, tables, run, named, protocol, strict=run == "main")
    write_csv_atomic(Path(values_csv),
                     pd.DataFrame(list(data["values"].items()), columns=["name", "value"]))
    compile_article(source_dir, data, figures, pdf, html)
