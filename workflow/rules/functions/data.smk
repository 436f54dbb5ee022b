# The data stage's paths, the checks of its outputs as the workflow is read, and the inputs of
# the cells that read its tables (the rules: workflow/rules/data.smk).
import re

from weightboost.data.generators import generator_code
from weightboost.data.uci import verify_table
from weightboost.fileio import committed_files, journal_beside
from weightboost.pipeline.config import check_fold_count, check_missing_values


def table_pin(wildcards):
    """The config's pin of a dataset's canonical table (None if unpinned)."""
    return uci_spec(wildcards).get("table_sha256")


UCI_DATASETS = sorted(config["datasets"])
# the data sets drawn by a generator (rule generate_dataset); any other name is a raw file's
# (fetch_uci, parse_uci: an unknown name there stops with its message, uci_spec)
GENERATED = sorted(n for n in UCI_DATASETS if "generator" in config["datasets"][n])
GENERATED_NAME = "|".join(map(re.escape, GENERATED)) or "(?!)"   # (?!): matches nothing
# (a wildcard's pattern sits inside the path's: a generated name is one not followed by more of it)
FILE_NAME = f"(?!(?:{GENERATED_NAME})(?![A-Za-z0-9_]))[A-Za-z0-9_]+"
PROCESSED_UCI = "data/processed/uci/{dataset}"
REUTERS_MATRICES = "data/processed/reuters/matrices.npz"
REUTERS_STATS = "data/processed/reuters/stats.json"


def data_journals():
    """The journals of the data stage's writes of several files together (a canonical table
    and its sidecar; the Reuters matrices, vocabulary and statistics: ``fileio.files_together``)."""
    return [journal_beside(REUTERS_STATS), *(journal_beside(PROCESSED_UCI.format(dataset=name)
                                                            + ".csv")
                                             for name in config.get("datasets", {}))]


# the data stage's files that a killed run left pending, read once as the workflow is read
PENDING_DATA = {path: staged for journal in data_journals()
                for path, staged in committed_files(journal).items()}


def committed(path):
    """Where the data stage's committed ``path`` is: read through a write that a killed run
    left part-way (``PENDING_DATA``), which the run finishes before any job
    (``finish_killed_writes``) and a dry run leaves as it is."""
    return PENDING_DATA.get(Path(path), Path(path))


def parsed_sidecars():
    """dataset -> the sidecar of its canonical table, for the tables parsed so far (read once,
    as the workflow is read; the input functions that need them run before any job)."""
    out = {}
    for name in config.get("datasets", {}):
        path = committed(PROCESSED_UCI.format(dataset=name) + ".json")
        if path.exists():
            out[name] = json.loads(path.read_text())
    return out


PARSED = parsed_sidecars()
if workflow.is_main_process:  # imports the learners: once per run, as check_learners
    try:
        check_missing_values(config, PARSED)
    except ReproError as exc:
        raise WorkflowError(f"invalid config: {exc}")


def verify_processed_data():
    """Stop before any job, whatever the target, when a canonical table no longer has the
    SHA-256 its sidecar recorded, or the Reuters matrices the one in stats.json (edited after
    the data stage wrote them). Checked as the workflow is read, not in the cells' input
    functions: Snakemake takes an error there, while it looks for the producer of a cell that
    exists, as "no producer" and goes on. (The config's pins are checked by parse_uci, which
    reruns when a dataset's spec changes, and by every cell job.)"""
    for name, sidecar in PARSED.items():
        table = committed(PROCESSED_UCI.format(dataset=name) + ".csv")
        if table.exists():
            verify_table(table, sidecar)
    matrices, stats = committed(REUTERS_MATRICES), committed(REUTERS_STATS)
    if matrices.exists() and stats.exists():
        recorded = json.loads(stats.read_text()).get("matrices_sha256")
        # stats from a stage older than the checksum are left to the rerun that the stage's
        # code change schedules; the cell job verifies what it reads
        if recorded and sha256_file(matrices) != recorded:
            from weightboost.reuters.stage import verify_matrices  # its message; slow import

            verify_matrices(matrices, stats)


try:
    verify_processed_data()
except ReproError as exc:
    raise WorkflowError(str(exc))


def experiment_table(wildcards):
    """A cell's inputs: the dataset's canonical table and sidecar (verified as the workflow
    is read, verify_processed_data). A pinned table is ``ancient``: its pin is in the cell's
    key and a table that differs from it stops the run, so a data job that reruns and writes
    the same bytes (its script edited, a --forcerun) must not rerun every cell below it, as
    Snakemake does for the inputs that a job of the run rewrites. An unpinned table (a user's
    new dataset) keeps Snakemake's rule: its content is bound to no key."""
    path = PROCESSED_UCI.format(dataset=wildcards.dataset)
    files = {"table": f"{path}.csv", "sidecar": f"{path}.json"}
    if table_pin(wildcards) is None:
        return files
    return {name: ancient(file) for name, file in files.items()}


def study_table(folds_key, folds):
    """Input function of a study's cells: ``experiment_table``, once the dataset's parsed
    table (its sidecar's label counts) is known to allow ``folds`` stratified folds (config key
    ``folds_key``); checked while the DAG is built, before any cell job."""

    def inputs(wildcards):
        files = experiment_table(wildcards)
        try:
            counts = PARSED[wildcards.dataset]["label"]["counts"]
        except (KeyError, TypeError):
            return files  # not parsed yet: the cell job's folds say what is wrong
        try:
            check_fold_count(folds_key, folds, wildcards.dataset, counts=counts)
        except ReproError as exc:
            raise WorkflowError(str(exc))
        return files

    return inputs


def reuters_matrices(wildcards):
    """A Reuters cell's inputs: the matrices and the stats that record their SHA-256 (not
    ``ancient``, unlike a pinned UCI table: no pin binds the matrices' bytes, which also depend
    on the installed NLTK, so a rerun of the stage reruns the cells)."""
    return {"matrices": REUTERS_MATRICES, "stats": REUTERS_STATS}


def fetch_config():
    """The part of the config that decides where raw files come from."""
    return {"mirror": config.get("mirror"), "download": config.get("download", {})}
