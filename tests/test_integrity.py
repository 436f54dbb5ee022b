"""A result table never silently disagrees with its inputs or its config: the real pipeline on
the fixture config, driven through Snakemake, each bad case stopping with a message that names
the file or key, and nothing under results/ or data/processed/ changed."""

import copy
import hashlib
import re

import pytest

from conftest import run_snakemake

TARGET = "results/uci_folds.csv"


def snapshot(workdir):
    """Every file under results/ and data/processed/ with its SHA-256."""
    out = {}
    for top in ("results", "data/processed"):
        for path in sorted((workdir / top).rglob("*")):
            if path.is_file():
                out[str(path.relative_to(workdir))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def tree_snapshot(workdir):
    """Every file of the working directory with its SHA-256, but Snakemake's own records
    (.snakemake/) and the config files the tests write (``run_snakemake``)."""
    return {str(path.relative_to(workdir)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(workdir.rglob("*"))
            if path.is_file() and path.relative_to(workdir).parts[0] != ".snakemake"
            and not path.name.startswith("test-config-")}


@pytest.fixture(scope="module")
def small_config(main_config):
    from conftest import make_fixture_config

    config = make_fixture_config(main_config)
    config["datasets"] = {"pima": config["datasets"]["pima"]}
    config["download"] = {**config["download"], "sources": ["mirror"]}
    config["experiment"] = {**config["experiment"], "datasets": ["pima"], "folds": 2,
                            "rounds": 2, "noise_levels": [0.0], "algorithms": ["C4.5"]}
    config.pop("sensitivity")
    return config


@pytest.fixture(scope="module")
def finished(tmp_path_factory, small_config):
    workdir = tmp_path_factory.mktemp("integrity")
    result = run_snakemake(workdir, small_config, TARGET)
    assert result.returncode == 0, result.stderr[-3000:]
    return workdir


def test_an_edited_processed_table_stops_the_run_before_any_job(finished, small_config):
    table = finished / "data/processed/uci/pima.csv"
    original = table.read_bytes()
    lines = original.decode().splitlines(keepends=True)
    first = lines[1].split(",")
    first[0] = str(float(first[0]) + 1)  # one value of the first row
    lines[1] = ",".join(first)
    table.write_bytes("".join(lines).encode())
    before = snapshot(finished)
    try:
        result = run_snakemake(finished, small_config, TARGET)
        assert result.returncode != 0
        message = result.stderr
        assert "data/processed/uci/pima.csv" in message and "changed after parsing" in message
        assert "rerun" in message
        assert snapshot(finished) == before  # no cell removed, no table rewritten
    finally:
        table.write_bytes(original)


def test_a_table_that_differs_from_its_pin_names_the_key(finished, small_config):
    # a changed spec reruns parse_uci, which checks the pin before any cell job starts
    config = copy.deepcopy(small_config)
    config["datasets"]["pima"]["table_sha256"] = "0" * 64
    before = {k: v for k, v in snapshot(finished).items() if k.startswith("results")}
    result = run_snakemake(finished, config, TARGET)
    assert result.returncode != 0
    assert "datasets.pima.table_sha256" in result.stderr and "set" in result.stderr
    assert {k: v for k, v in snapshot(finished).items() if k.startswith("results")} == before


@pytest.mark.parametrize("params, words", [
    ({"beta": -1}, ["algorithms.WeightBoost.params", "beta", ">= 0"]),
    ({"beta": 0.5, "gamma": 1}, ["algorithms.WeightBoost.params", "gamma"]),
    ({"beta": 0.5, "normalize": "tenth"}, ["algorithms.WeightBoost.params", "normalize"]),
])
def test_bad_learner_parameters_stop_before_any_job(tmp_path, small_config, params, words):
    config = copy.deepcopy(small_config)
    config["algorithms"]["WeightBoost"] = {"learner": "WeightBoost", "params": params}
    result = run_snakemake(tmp_path, config, TARGET)
    assert result.returncode != 0
    for word in words:
        assert word in result.stderr
    assert not (tmp_path / "data").exists() and not (tmp_path / "results").exists()


def test_edited_reuters_matrices_are_refused(tmp_path):
    import json

    from weightboost.errors import ChecksumError
    from weightboost.reuters.stage import verify_matrices

    matrices, stats = tmp_path / "matrices.npz", tmp_path / "stats.json"
    matrices.write_bytes(b"the stage's bytes")
    stats.write_text(json.dumps({"matrices_sha256": hashlib.sha256(
        b"the stage's bytes").hexdigest()}))
    verify_matrices(matrices, stats)  # as written: accepted
    matrices.write_bytes(b"the stage's bytes, edited")
    with pytest.raises(ChecksumError, match="matrices.npz") as error:
        verify_matrices(matrices, stats)
    assert "rerun" in str(error.value)
    stats.write_text("{}")  # a stage older than the checksum
    with pytest.raises(ChecksumError, match="None"):
        verify_matrices(matrices, stats)


def test_a_full_device_names_the_file_and_leaves_nothing(tmp_path, monkeypatch):
    import errno
    from pathlib import Path

    from weightboost.errors import DiskFullError
    from weightboost.fileio import write_bytes_atomic

    def full(self, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_bytes", full)
    target = tmp_path / "out" / "table.csv"
    with pytest.raises(DiskFullError, match="table.csv") as error:
        write_bytes_atomic(target, b"data")
    assert "Free space" in str(error.value)
    assert list((tmp_path / "out").iterdir()) == []  # no temporary file left behind


def test_an_output_is_on_the_disk_before_its_name(tmp_path, monkeypatch):
    # a machine that stops right after the rename must not come back with a finished cell's
    # name on an empty file: the data is flushed (fsync) before the rename, complete
    import os
    from pathlib import Path

    from weightboost.fileio import write_bytes_atomic

    events = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        events.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
        real_fsync(fd)

    def replace(source, destination):
        events.append(("replace", str(source), Path(source).read_bytes()))
        real_replace(source, destination)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    target = tmp_path / "cell.csv"
    write_bytes_atomic(target, b"fold,error\n0,0.25\n")
    (_, synced), (_, renamed, data) = events
    assert synced == renamed != str(target)
    assert data == b"fold,error\n0,0.25\n" == target.read_bytes()


class Killed(BaseException):
    """A SIGKILL at a chosen point of a write: nothing after it runs (not even cleanup)."""


def kill_at_rename(monkeypatch, point):
    """Make the ``point``-th os.replace (counting from 0) stop the process, as a kill would."""
    import os

    real, count = os.replace, [0]

    def replace(source, destination):
        if count[0] == point:
            raise Killed
        count[0] += 1
        real(source, destination)

    monkeypatch.setattr(os, "replace", replace)


# three files, two in a subdirectory: three pending files, the journal, three renames
@pytest.mark.parametrize("point", range(8))
def test_files_written_together_are_all_old_or_all_new_whatever_the_kill_point(
        tmp_path, monkeypatch, point):
    from weightboost.fileio import files_together, finish_files_together, write_bytes_atomic

    paths = [tmp_path / "sub" / "a.csv", tmp_path / "sub" / "b.csv", tmp_path / "record.json"]
    journal = tmp_path / ".set.journal"

    def contents(word):
        return [word + p.name.encode() for p in paths]

    def write_files_together(files, journal):
        with files_together(journal):
            for path, data in files.items():
                write_bytes_atomic(path, data)

    write_files_together(dict(zip(paths, contents(b"old "))), journal)
    kill_at_rename(monkeypatch, point)
    try:
        write_files_together(dict(zip(paths, contents(b"new "))), journal)
    except Killed:
        pass
    monkeypatch.undo()
    # what a later reader sees, once it has finished the group: the journal (the fourth
    # rename) is the commit point
    finish_files_together(journal)
    assert [p.read_bytes() for p in paths] == contents(b"new " if point >= 4 else b"old ")
    # and the next write leaves no journal, pending or partial file
    write_files_together(dict(zip(paths, contents(b"next "))), journal)
    assert [p.read_bytes() for p in paths] == contents(b"next ")
    assert sorted(f.name for f in tmp_path.rglob("*") if f.is_file()) == \
        sorted(p.name for p in paths)


def test_a_block_of_files_together_that_fails_changes_nothing(tmp_path):
    from weightboost.fileio import files_together, write_bytes_atomic, write_json_atomic

    table, sidecar = tmp_path / "t.csv", tmp_path / "t.json"
    table.write_bytes(b"old")
    with pytest.raises(ValueError):
        with files_together(tmp_path / ".t.journal"):
            write_bytes_atomic(table, b"new")
            assert table.read_bytes() == b"old"  # staged, not in place before the block ends
            raise ValueError("the sidecar could not be built")
    write_json_atomic(sidecar, {})  # outside a block: in place at once
    assert sorted(f.name for f in tmp_path.iterdir()) == ["t.csv", "t.json"]
    assert table.read_bytes() == b"old"


def test_a_run_killed_while_writing_a_table_set_leaves_a_set_its_record_describes(
        tmp_path, monkeypatch, small_config):
    # killed after the first table's rename: the checks read the set through its journal
    # (changing nothing, as in a dry run) instead of refusing a table that its (old) record
    # does not describe, and the run finishes it before any job (settle_table_set, onstart)
    from weightboost.pipeline.provenance import check_tables, settle_table_set, write_table_set

    record = tmp_path / "uci.provenance.json"
    folds, summary = tmp_path / "uci_folds.csv", tmp_path / "uci_summary.csv"
    write_table_set(record, small_config, "uci", {folds: b"old\n", summary: b"old\n"}, [], [])
    kill_at_rename(monkeypatch, 5)  # three pending files, the journal, one table renamed
    with pytest.raises(Killed):
        write_table_set(record, small_config, "uci", {folds: b"new\n", summary: b"new 2\n"},
                        [], [])
    monkeypatch.undo()
    assert folds.read_bytes() == b"new\n" and summary.read_bytes() == b"old\n"
    files = lambda: {p.name: p.read_bytes() for p in tmp_path.iterdir()}  # noqa: E731
    before = files()
    check_tables(tmp_path, small_config, "uci")
    assert files() == before
    settle_table_set(tmp_path, "uci")
    assert summary.read_bytes() == b"new 2\n" and not list(tmp_path.glob(".*"))
    check_tables(tmp_path, small_config, "uci")


def test_a_parse_killed_between_its_table_and_sidecar_is_finished_by_the_next_run(
        copied, small_config, monkeypatch):
    # the parse of a changed spec killed after the table's rename, before the sidecar's: a dry
    # run of any target reads through the write (no "changed after parsing" for a table its
    # old sidecar does not describe) and changes no file, as does a run with nothing to do; the
    # next run that runs a job finishes it before the job starts (onstart)
    import json

    from weightboost.data.jobs import parse_uci
    from weightboost.data.uci import verify_table

    spec = {k: v for k, v in small_config["datasets"]["pima"].items() if k != "table_sha256"}
    spec["positive"], spec["negative"] = spec["negative"], spec["positive"]
    table, sidecar = copied / "data/processed/uci/pima.csv", copied / "data/processed/uci/pima.json"
    old = table.read_bytes()
    monkeypatch.chdir(copied)
    kill_at_rename(monkeypatch, 4)  # the two pending files, the journal, the table renamed
    with pytest.raises(Killed):
        parse_uci("pima", spec, "data/raw/uci/pima.data", "data/raw/uci/pima.source.json",
                  "data/processed/uci/pima.csv", "data/processed/uci/pima.json")
    monkeypatch.undo()
    assert table.read_bytes() != old  # the new table beside the old sidecar
    before, tree = snapshot(copied), tree_snapshot(copied)
    for targets in (["data"], []):  # the data stage, and everything (`all`)
        dry = run_snakemake(copied, small_config, "-n", *targets)
        assert dry.returncode == 0, dry.stderr[-3000:]
        assert tree_snapshot(copied) == tree  # no file anywhere: logs, benchmarks, reports
    idle = run_snakemake(copied, small_config, "data")
    assert idle.returncode == 0 and snapshot(copied) == before, idle.stderr[-3000:]
    result = run_snakemake(copied, small_config, TARGET, "--forcerun", "uci_results")
    assert result.returncode == 0, result.stderr[-3000:]
    verify_table(table, json.loads(sidecar.read_text()))
    assert not list(table.parent.glob(".*"))  # no journal or pending file left


def test_a_table_set_is_the_set_its_kind_names(tmp_path, small_config):
    from weightboost.pipeline.provenance import write_table_set

    with pytest.raises(ValueError, match="uci_summary.csv"):
        write_table_set(tmp_path / "uci.provenance.json", small_config, "uci",
                        {tmp_path / "uci_folds.csv": b""}, [], [])
    assert list(tmp_path.iterdir()) == []


def test_a_table_set_of_code_edited_during_its_run_is_refused(tmp_path, small_config):
    # its cells are the keyed code's; a record of the code on disk after an edit would call
    # them current at the new code, and a report-only rebuild would read them as such
    import json

    from weightboost.pipeline.provenance import TABLE_SET_CODE, package_digest, write_table_set
    from weightboost.pipeline.workflow_support import CodeChangedError

    tables = {tmp_path / "uci_folds.csv": b"f\n", tmp_path / "uci_summary.csv": b"s\n"}
    record = tmp_path / "uci.provenance.json"
    with pytest.raises(CodeChangedError, match="uci_results.*changed on disk"):
        write_table_set(record, small_config, "uci", tables, [], [], code_sha256="0" * 64)
    assert list(tmp_path.iterdir()) == []
    keyed = package_digest(*TABLE_SET_CODE["uci"])
    write_table_set(record, small_config, "uci", tables, [], [], code_sha256=keyed)
    assert json.loads(record.read_text())["code_sha256"] == keyed


def test_a_device_full_only_at_the_flush_names_the_file_and_leaves_nothing(tmp_path,
                                                                          monkeypatch):
    # a network file system may accept the write and report the full device at the flush
    import errno
    import os

    from weightboost.errors import DiskFullError
    from weightboost.fileio import write_bytes_atomic

    def full(fd):
        raise OSError(errno.EDQUOT, "Disk quota exceeded")

    monkeypatch.setattr(os, "fsync", full)
    target = tmp_path / "out" / "table.csv"
    with pytest.raises(DiskFullError, match="table.csv"):
        write_bytes_atomic(target, b"data")
    assert list((tmp_path / "out").iterdir()) == []


def test_data_on_a_full_tmpfs_stops_with_a_message(tmp_path, small_config):
    import subprocess

    data = tmp_path / "data"
    data.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4k", "tmpfs", str(data)],
                             capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        result = run_snakemake(tmp_path, small_config, "data")
        assert result.returncode != 0
        assert "no space left on the device while writing data/" in result.stderr
        assert "Traceback" not in result.stderr
        assert not [p for p in data.rglob("*.part")]
    finally:
        subprocess.run(["umount", str(data)], check=True)


def test_a_yaml_error_in_an_overlay_names_the_file_and_line(tmp_path, capsys):
    from weightboost.run import main

    overlay = tmp_path / "overlay.yaml"
    overlay.write_text("experiment:\n  folds: [2\n  rounds: 3\n")
    assert main(["--cores", "1", "--configfile", str(overlay), "-n"]) == 2
    message = capsys.readouterr().err
    assert str(overlay) in message and "line 3" in message and "Fix the YAML" in message


def test_a_target_after_configfile_is_pointed_out(tmp_path, capsys):
    from weightboost.run import main

    overlay = tmp_path / "overlay.yaml"
    overlay.write_text("experiment: {folds: 2}\n")
    assert main(["--configfile", str(overlay), "reuters"]) == 2
    message = capsys.readouterr().err
    assert "'reuters' follows --configfile" in message and "snakemake reuters --configfile" in message


def test_tables_of_another_config_are_refused_by_key(finished, small_config):
    # what a fresh checkout (no Snakemake metadata) or a touch makes of stale tables: Snakemake
    # alone would report "Nothing to be done"; the recorded provenance names the difference
    config = copy.deepcopy(small_config)
    config["experiment"]["folds"] = 3
    (finished / TARGET).touch()
    before = snapshot(finished)
    for args in ((TARGET, "-n"), (TARGET,)):
        result = run_snakemake(finished, config, *args)
        assert result.returncode != 0
        message = result.stdout + result.stderr
        assert "experiment.folds: 2 -> 3" in message and "run=NAME" in message
        assert "--forcerun uci_results" in message
    assert snapshot(finished) == before


def test_a_named_run_writes_its_own_tables_and_leaves_the_main_ones(finished, small_config):
    config = copy.deepcopy(small_config)
    config["experiment"]["noise_levels"] = [0.0, 0.1]
    config["run"] = "noise10"
    main_tables = {k: v for k, v in snapshot(finished).items() if k.startswith("results/uci")}
    result = run_snakemake(finished, config, "results/runs/noise10/uci_folds.csv")
    assert result.returncode == 0, result.stderr[-3000:]
    import json

    import pandas as pd

    folds = pd.read_csv(finished / "results/runs/noise10/uci_folds.csv")
    assert set(folds.noise) == {0.0, 0.1}
    record = json.loads((finished / "results/runs/noise10/uci.provenance.json").read_text())
    assert record["run"] == "noise10" and record["config"]["experiment"]["noise_levels"] == \
        [0.0, 0.1]
    # where the tables were combined: this machine (docs/algorithms.md §1.4)
    from weightboost.pipeline.provenance import platform_record
    assert record["platform"] == platform_record() and record["platform"]["cpu"]
    assert {k: v for k, v in snapshot(finished).items() if k.startswith("results/uci")} == \
        main_tables
    # replacing the main tables is possible, but only when said
    config["run"] = "main"
    refused = run_snakemake(finished, config, TARGET)
    assert refused.returncode != 0
    replaced = run_snakemake(finished, config, TARGET, "--forcerun", "uci_results")
    assert replaced.returncode == 0, replaced.stderr[-3000:]
    assert set(pd.read_csv(finished / TARGET).noise) == {0.0, 0.1}


# -- issue 42: the cases a careless or unlucky user met -------------------------------------------
@pytest.fixture(scope="module")
def pristine(tmp_path_factory, small_config):
    """A finished run of small_config that no test changes (``finished`` ends up with the
    tables of another config)."""
    workdir = tmp_path_factory.mktemp("pristine")
    result = run_snakemake(workdir, small_config, TARGET)
    assert result.returncode == 0, result.stderr[-3000:]
    return workdir


@pytest.fixture
def copied(pristine, tmp_path):
    """A copy of the pristine run (tables, cells, data, Snakemake's records) to change."""
    import shutil

    workdir = tmp_path / "copy"
    shutil.copytree(pristine, workdir, symlinks=True)
    return workdir


def refusal(workdir, config, *args):
    result = run_snakemake(workdir, config, *args)
    assert result.returncode != 0, result.stdout[-2000:]
    return result.stdout + result.stderr


@pytest.mark.parametrize("study, words", [
    ({"rounds": 20}, ["reuters_study.paper_rounds.WeightBoost is 25",
                      "reuters_study.rounds (20)"]),
    ({"paper_rounds": {"AdaBoost": 10, "Weightboost": 25}},
     ["reuters_study.paper_rounds names 'Weightboost'", "reuters_study.algorithms"]),
])
def test_a_paper_t_the_reuters_study_does_not_compute_is_refused(tmp_path, small_config, study,
                                                                  words):
    # otherwise Table 3 silently loses its WeightBoost column (or ignores the name)
    config = copy.deepcopy(small_config)
    config["reuters_study"] = {**config["reuters_study"], **study}
    message = refusal(tmp_path, config, "-n", TARGET)
    assert all(w in message for w in words), message[-2000:]


def test_noise_levels_the_tables_cannot_tell_apart_are_refused(tmp_path, small_config):
    # cell paths write a level exactly, so 0.2 and 0.20000000001 get cells apart, but the
    # tables match levels with numpy.isclose: their rows would mix (duplicated folds, wrong sd)
    config = copy.deepcopy(small_config)
    config["experiment"]["noise_levels"] = [0.0, 0.2, 0.20000000001]
    message = refusal(tmp_path, config, "-n", TARGET)
    assert "experiment.noise_levels has 0.20000000001" in message and "0.2" in message
    # levels apart beyond that tolerance each get their own cells, written exactly
    config["experiment"]["noise_levels"] = [0.0, 0.2, 0.2001]
    planned = run_snakemake(tmp_path, config, "-n", "--forceall", TARGET)
    assert planned.returncode == 0, planned.stderr[-3000:]
    written = set(re.findall(r"results/cells/uci/[^/]+/noise([0-9.e-]+)/", planned.stdout))
    assert written == {"0.0", "0.2", "0.2001"}


def test_more_folds_than_the_data_allows_names_the_key_before_any_job(finished, small_config):
    # the fixture's pima has 20 rows: by the spec's row count before any table exists, by the
    # table's class counts once it does
    config = copy.deepcopy(small_config)
    config["experiment"]["folds"] = 60
    before = snapshot(finished)
    message = refusal(finished, config, TARGET)
    assert "experiment.folds is 60, but dataset pima has 20 rows" in message
    config["experiment"]["folds"] = 15  # <= 20 rows, above both class counts
    config["run"] = "folds15"  # (the main tables would be refused first: another config)
    message = refusal(finished, config, "results/runs/folds15/uci_folds.csv")
    assert "experiment.folds is 15, but no class of dataset pima has 15 members" in message
    assert snapshot(finished) == before


@pytest.mark.parametrize("typed, value", [("off", False), ("Yes", True), (" false ", False),
                                          (False, False), ("maybe", "maybe")])
def test_a_flag_typed_on_the_command_line_is_read_as_a_boolean(typed, value):
    # Snakemake's --config makes only True and False booleans: cell_archive=false would be the
    # string "false", which the schema refuses; a word that is no flag is left to that refusal
    from weightboost.pipeline.config import coerce_flags

    assert coerce_flags({"cell_archive": typed, "run": "off"}) == {"cell_archive": value,
                                                                    "run": "off"}


def test_a_typed_flag_reaches_the_workflow_as_a_boolean(finished, small_config):
    # the Snakefile coerces the typed word before the schema sees it, which refuses "no" (the
    # target `data` reads no table set, which the module's other tests leave under other configs)
    result = run_snakemake(finished, small_config, "-n", "data", "--config", "cell_archive=no")
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]


def test_an_edited_result_table_is_repaired_as_the_refusal_advises(copied, small_config):
    table = copied / "results/uci_folds.csv"
    original = table.read_bytes()
    table.write_bytes(original.replace(b",0.", b",0.9", 1))
    # any target that reads or rebuilds the table set stops, naming the repair
    message = refusal(copied, small_config, "results/uci_summary.csv")
    assert "results/uci_folds.csv is not the table recorded" in message
    assert "--forcerun uci_results" in message
    result = run_snakemake(copied, small_config, TARGET, "--forcerun", "uci_results")
    assert result.returncode == 0, result.stderr[-3000:]
    assert table.read_bytes() == original


def test_a_table_set_without_its_record_is_unknown_not_matching(copied, small_config):
    # a noise-level overlay without a run name would otherwise replace the main tables
    (copied / "results/uci.provenance.json").unlink()
    config = copy.deepcopy(small_config)
    config["experiment"]["noise_levels"] = [0.0, 0.1]
    before = snapshot(copied)
    message = refusal(copied, config, TARGET)
    assert "their record results/uci.provenance.json does not" in message
    assert "git checkout -- results/uci.provenance.json" in message
    assert snapshot(copied) == before


def test_a_report_computes_only_the_table_set_that_is_missing(copied, small_config):
    # a fresh clone (no cells, no Snakemake records) with the UCI tables and without the
    # Reuters ones: `snakemake report` computes the Reuters set only, reading UCI's as it is
    import shutil

    shutil.rmtree(copied / "results/cells")
    shutil.rmtree(copied / ".snakemake")
    result = run_snakemake(copied, small_config, "-n", "report")
    assert result.returncode == 0, result.stderr[-3000:]
    assert "reuters_results" in result.stdout
    assert "uci_cell" not in result.stdout and "uci_results" not in result.stdout


def test_an_edited_processed_table_stops_whatever_the_target(finished, small_config):
    # the run is complete: Snakemake looks for no producer of the cells, and an error raised
    # there was taken as "no producer" ("Nothing to be done")
    table = finished / "data/processed/uci/pima.csv"
    original = table.read_bytes()
    table.write_bytes(original.replace(b"1", b"2", 1))
    before = snapshot(finished)
    try:
        for target in ("results/uci_summary.csv", "experiments"):
            message = refusal(finished, small_config, "-n", target)
            assert "data/processed/uci/pima.csv" in message and "changed after parsing" in message
        assert snapshot(finished) == before
    finally:
        table.write_bytes(original)


def test_a_forced_rule_recomputes_the_tables_on_a_fresh_checkout(copied, small_config):
    # without Snakemake's records (a fresh clone) the tables look up to date to Snakemake, whose
    # missing inputs (the new noise level's cells) do not rerun them: --forcerun recomputes them
    # for the new config, not rebuilding from the old ones
    import shutil

    import pandas as pd

    shutil.rmtree(copied / ".snakemake")
    config = copy.deepcopy(small_config)
    config["experiment"]["noise_levels"] = [0.0, 0.1]
    (copied / TARGET).touch()
    kept = run_snakemake(copied, config, TARGET, "-n")
    assert kept.returncode != 0 and "--forcerun uci_results" in kept.stdout + kept.stderr
    replaced = run_snakemake(copied, config, TARGET, "--forcerun", "uci_results")
    assert replaced.returncode == 0, replaced.stderr[-3000:]
    assert set(pd.read_csv(copied / TARGET).noise) == {0.0, 0.1}
    # and with the tables of the current config, it replaces nothing
    again = run_snakemake(copied, config, TARGET, "-n")
    assert again.returncode == 0 and "Nothing to be done" in again.stdout + again.stderr
