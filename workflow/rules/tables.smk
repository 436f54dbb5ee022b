# The table sets under RESULTS: checked against the config and their records before they are
# rebuilt or read, and what a report reads of them (as inputs, or as given).
from weightboost.pipeline.provenance import RESULTS_RULES, check_tables, committed_path
from weightboost.report.reference import JIN2003, WANG_KEGL2004


def forced(kind):
    """Whether this command forces the rebuild of the table set ``kind`` (`--forceall`, or
    `--forcerun` naming its rule or one of its tables)."""
    settings = workflow.dag_settings
    asked = {str(f) for f in settings.forcerun or ()}
    return bool(settings.forceall) or RESULTS_RULES[kind] in asked or any(
        f"{RESULTS}/{name}" in asked for name in TABLE_SETS[kind])


def verify_table_set(kind):
    """Stop unless the result tables of ``kind`` under RESULTS come from the current config and
    are the files their provenance record describes (not checked against the record when this
    command rebuilds them: that is how an edited table is repaired)."""
    try:
        if not forced(kind):
            check_tables(RESULTS, config, kind)
    except ReproError as exc:
        raise WorkflowError(str(exc))


def checked(kind, files):
    """Input function: ``files``, once the tables of ``kind`` under RESULTS are known to come
    from the current config and code and to be unedited (``verify_table_set``); evaluated
    only when a job that rebuilds or reads them is in the DAG."""

    def inputs(wildcards):
        verify_table_set(kind)
        return files

    return inputs


REFERENCE = str(Path(workflow.basedir) / JIN2003)
LOCK_FILE = str(Path(workflow.basedir) / "requirements.lock")


def set_files(kind):
    """name -> path of the tables of ``kind`` and its provenance record."""
    files = {Path(name).stem: f"{RESULTS}/{name}" for name in TABLE_SETS[kind]}
    return files | {f"{kind}_provenance": f"{RESULTS}/{kind}.provenance.json"}


REPORT_RULES = ("report", "regboost_report", "sensitivity_report", "barrier_report", "article")


def report_only():
    """Whether the command asks for reports alone (`snakemake report`, `regboost_report`,
    `sensitivity_report`, `barrier_report`, `article`, or files under REPORTS). Existing result tables are then
    read as they are: a fresh clone has the committed tables but not the cells and data they
    came from, which Snakemake would otherwise recompute first (`snakemake all` still does)."""
    targets = [str(t) for t in workflow.dag_settings.targets or ()]
    return bool(targets) and all(t in REPORT_RULES or t.startswith(f"{REPORTS}/")
                                 for t in targets)


def as_given(kind, always=False):
    """Whether a report reads the table set ``kind`` as it is (reports alone are asked for, or
    ``always``, and all its files exist) rather than as an input that Snakemake brings up to
    date: a set with a missing file is computed, the others are read as they are."""
    return (always or report_only()) and not forced(kind) and all(
        committed_path(RESULTS, kind, p).exists() for p in set_files(kind).values())


def report_inputs(kinds, always=()):
    """Input function of a report: the files of the sets of ``kinds`` that are not read as
    given (those of ``always`` are, whenever they exist), once every set is known to match
    the config and its record."""

    def inputs(wildcards):
        for kind in kinds:
            verify_table_set(kind)
        return {name: path for kind in kinds if not as_given(kind, kind in always)
                for name, path in set_files(kind).items()}

    return inputs


def given_digests(kinds, always=()):
    """Params function: the SHA-256 of the files of the sets read as given (a params trigger:
    a changed table still reruns the report although it is not an input)."""

    def digests(wildcards):
        return {name: sha256_file(committed_path(RESULTS, kind, path))
                for kind in kinds if as_given(kind, kind in always)
                for name, path in set_files(kind).items()}

    return digests
