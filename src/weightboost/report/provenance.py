"""Where the numbers came from: config, input checksums, package versions, git commit and the
time each stage took (from the Snakemake benchmark files)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pandas as pd

from weightboost.pipeline.lockfile import installed_version, lock_mismatches, locked_versions, normalise

PACKAGES = ["numpy", "pandas", "scipy", "scikit-learn", "numba", "llvmlite", "nltk", "snakemake",
            "matplotlib", "openml", "weightboost-repro"]


def versions(lock: Path | None = None) -> pd.DataFrame:
    """The main packages: the installed version and the one requirements.lock pins."""
    locked = locked_versions(lock) if lock and Path(lock).exists() else {}
    return pd.DataFrame([{"package": name, "version": installed_version(name) or "not installed",
                          "locked": locked.get(normalise(name), ("",))[0]}
                         for name in PACKAGES])


def lock_agreement(lock: Path) -> str:
    """One sentence: does the running environment match requirements.lock?"""
    if not Path(lock).exists():
        return f"No lock file at {lock}: the versions above are not checked against one."
    count = len(locked_versions(lock))
    mismatches = lock_mismatches(lock)
    if not mismatches:
        return f"Every package pinned in `{Path(lock).name}` ({count}) is installed at its locked version."
    shown = ", ".join(f"{m['package']} {m['installed']} (locked {m['locked']})"
                      for m in mismatches[:10])
    return (f"{len(mismatches)} of the {count} packages pinned in `{Path(lock).name}` are not "
            f"installed at their locked version: {shown}"
            + (" and more" if len(mismatches) > 10 else "") + ". Tables computed here may differ "
            "from the committed ones; `make install` installs the locked environment.")


def git_commit(root: Path, own_output: Path | None = None) -> str:
    """HEAD, flagged when tracked files differ from it; ``own_output`` (the report's directory,
    which Snakemake empties before rebuilding it) does not count."""
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True,
                                text=True, check=True).stdout.strip()
        command = ["git", "status", "--porcelain", "--untracked-files=no"]
        if own_output is not None:
            command += ["--", ".", f":(exclude){Path(own_output).resolve()}"]
        dirty = subprocess.run(command, cwd=root, capture_output=True, text=True).stdout.strip()
        return commit + (" (with uncommitted changes)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"


# column order of the report's tables (the records store their rows with sorted keys)
INPUT_COLUMNS = ["input", "sha256", "route", "canonical table sha256"]
SHORT_DIGEST = 16  # hex digits of a digest the pages print (64 bits: no two inputs share them)
STAGE_COLUMNS = ["stage", "jobs", "job seconds"]
# from the jobs' logs (provenance records): resources, and how many jobs restored their cells
RESOURCE_COLUMNS = ["cpu seconds", "peak RSS MB", "restored"]


WEIGHTBOOST = ("uci", "reuters")  # the table sets of the first paper's report


def recorded(results: Path, kinds=WEIGHTBOOST) -> list[dict]:
    """The provenance records of the table sets ``kinds`` beside the result tables
    (``<set>.provenance.json``): each report shows its own, whatever else is there."""
    paths = [Path(results) / f"{kind}.provenance.json" for kind in kinds]
    return [json.loads(p.read_text()) for p in paths if p.exists()]


def platform_summary(platform: dict | None) -> str:
    """CPU, C library and numpy's SIMD targets of a provenance record, in one line."""
    if not platform:
        return "not recorded"
    simd = "/".join(platform.get("numpy_simd", [])) or "baseline"
    svml = "; numba with SVML" if platform.get("numba_svml") else ""
    return f"{platform.get('cpu', '?')}; {platform.get('c_library', '?')}; numpy SIMD {simd}{svml}"


def environment_now(recorded_environment: dict | None) -> str:
    """"same" when a record's software environment is the running one, else what differs."""
    from weightboost.pipeline import environment

    if not recorded_environment:
        return "not recorded"
    found = environment.differences(recorded_environment)
    return "same" if not found else "differs: " + "; ".join(found)


def table_sets(results: Path, kinds=WEIGHTBOOST) -> pd.DataFrame:
    """Per table set: its run, the digest of the config keys and of the package code it was
    computed from, whether that code and its software environment (``weightboost.pipeline.environment``)
    are those installed now, and the platform its tables were combined on."""
    from weightboost.pipeline.provenance import TABLE_SET_CODE, package_digest

    rows = []
    for record in recorded(results, kinds):
        parts = TABLE_SET_CODE.get(record["table_set"])
        same = parts is not None and package_digest(*parts) == record["code_sha256"]
        rows.append({"tables": ", ".join(record["tables"]), "run": record["run"],
                     "config sha256": record["config_sha256"][:SHORT_DIGEST],
                     "code sha256": record["code_sha256"][:SHORT_DIGEST],
                     "code now": "same" if same else "differs",
                     "environment now": environment_now(record.get("environment")),
                     "combined on": platform_summary(record.get("platform")),
                     "note": record.get("note", "")})
    frame = pd.DataFrame(rows)
    return frame if frame.get("note", pd.Series(dtype=str)).any() else frame.drop(
        columns="note", errors="ignore")


def input_checksums(workdir: Path, config: dict | None = None,
                    results: Path | None = None, kinds=WEIGHTBOOST) -> pd.DataFrame:
    """The inputs recorded beside the result tables; else the receipts of the data stage when
    present; else the pins of the config (the values the data stage verifies raw files
    against)."""
    rows = [row for record in (recorded(results, kinds) if results else [])
            for row in record.get("inputs", [])]
    if rows:
        return pd.DataFrame(rows, columns=INPUT_COLUMNS)
    for sidecar in sorted(Path(workdir, "data/processed/uci").glob("*.json")):
        s = json.loads(sidecar.read_text())
        rows.append({"input": s["source"]["file"], "sha256": s["source"]["sha256"],
                     "route": s["source"]["route"], "canonical table sha256": s["table_sha256"]})
    source = (config or {}).get("reuters", {}).get("source", "sgml")
    corpus = "nltk/sources.json" if source == "nltk" else "sources.json"
    for name in (corpus, "stopwords.json"):
        receipts = Path(workdir, "data/raw/reuters", name)
        if not receipts.exists():
            continue
        for r in json.loads(receipts.read_text()):
            rows.append({"input": r["file"], "sha256": r["sha256"], "route": r["route"],
                         "canonical table sha256": ""})
    if not rows and config:
        for spec in config.get("datasets", {}).values():
            made = f"generated by {spec['generator']['function']}" if "generator" in spec else ""
            rows.append({"input": spec.get("file", made), "sha256": spec.get("sha256"),
                         "route": "pinned in config",
                         "canonical table sha256": spec.get("table_sha256") or ""})
        reuters = config.get("reuters", {})
        for name, sha in sorted(reuters.get("sgml", {}).items()):
            rows.append({"input": f"{reuters.get('folder', '')}/{name}", "sha256": sha,
                         "route": "pinned in config", "canonical table sha256": ""})
    return pd.DataFrame(rows, columns=INPUT_COLUMNS)


def stage_times(workdir: Path, results: Path | None = None, kinds=WEIGHTBOOST) -> pd.DataFrame:
    """Wall seconds per rule, summed over its jobs: as recorded beside the result tables, else
    from the benchmark files (benchmarks/<rule>/**.tsv)."""
    rows = [row for record in (recorded(results, kinds) if results else [])
            for row in record.get("stages", [])]
    if rows:  # with the jobs' CPU seconds and peak RSS where the records have them
        extra = [c for c in RESOURCE_COLUMNS if any(c in row for row in rows)]
        return pd.DataFrame(rows, columns=STAGE_COLUMNS + extra)
    for rule_dir in sorted(Path(workdir, "benchmarks").iterdir()) if \
            Path(workdir, "benchmarks").is_dir() else []:
        files = [rule_dir] if rule_dir.is_file() else sorted(rule_dir.rglob("*.tsv"))
        seconds = sum(float(pd.read_csv(f, sep="\t").s.iloc[0]) for f in files)
        rows.append({"stage": rule_dir.stem, "jobs": len(files),
                     "job seconds": round(seconds, 1)})
    return pd.DataFrame(rows, columns=STAGE_COLUMNS)


def add_section(doc, workdir: Path, results: Path, kinds, lock: Path | None, out: Path,
                configuration: dict, config: dict | None = None) -> None:
    """A report's Provenance section: the commit, the package versions against the lock, the
    records of the table sets ``kinds`` (with whether their code is the code installed now),
    the inputs' checksums, the time per stage and the ``configuration`` the report shows."""
    sets = table_sets(results, kinds)
    if len(sets) and (sets["code now"] == "differs").any():
        stale = sets[sets["code now"] == "differs"]
        doc.lead("Not computed by the code installed now: " + "; ".join(stale.tables) + " ("
                 "the package code of their cells has changed since; see Provenance). The "
                 "numbers are those of the tables' own code; recompute them to see this code's.")
    elsewhere = sets[sets["environment now"] != "same"] if len(sets) else sets
    if len(elsewhere):
        doc.lead("Not computed in the software environment installed now: "
                 + "; ".join(elsewhere.tables) + " (see Provenance, 'environment now'). The "
                 "numbers are those of the tables' own environment; `make install` installs "
                 "the locked one, and a recomputation here gives this environment's.")
    doc.heading("Provenance")
    doc.paragraph(f"Git commit: `{git_commit(Path(workdir), out)}`.")
    doc.table(versions(lock), index=False)
    if lock is not None:
        doc.paragraph(lock_agreement(lock))
    if len(sets):
        doc.paragraph("The result tables and what they were computed from (`*.provenance.json` "
                      "beside them; the workflow refuses tables whose config keys differ):")
        doc.table(sets, index=False)
    checksums = input_checksums(Path(workdir), config, results, kinds)
    if len(checksums):
        doc.paragraph("Input files and their SHA-256 (raw files verified against the pins; the "
                      f"first {SHORT_DIGEST} hex digits, as for the table sets above: the whole "
                      "digests are in the records and the config):")
        digests = ["sha256", "canonical table sha256"]
        doc.table(checksums.assign(**{c: checksums[c].fillna("").astype(str).str[:SHORT_DIGEST]
                                      for c in digests}), index=False)
    times = stage_times(Path(workdir), results, kinds)
    if len(times):
        doc.paragraph("Time per stage (Snakemake benchmark files; job seconds, summed"
                      + ("; CPU seconds summed and the largest peak RSS from the jobs' logs"
                         if "cpu seconds" in times.columns else "")
                      + ("; `restored`: jobs that restored their cells from a cell archive "
                         "instead of computing them, whose seconds are a copy's"
                         if "restored" in times.columns else "") + "):")
        doc.table(times, index=False)
    doc.paragraph("Configuration used:")
    doc.paragraph("`" + json.dumps(configuration) + "`")
