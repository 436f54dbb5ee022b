"""Cell archives (weightboost.pipeline.cell_archive): a job restores exactly the files a packed cell
held, only when the archive holds all of its outputs and archives are on, never computes what
it restored, and a damaged archive stops it by name."""

import zipfile

import pytest

from weightboost.errors import InputFileError
from weightboost.pipeline import cell_archive, environment, warm
from weightboost.pipeline.package_code import package_digest

CELL = "results/cells/sensitivity/pima/noise0.1/AdaBoost/0123456789ab/reps10.csv"
F1 = "results/cells/reuters/earn/AdaBoost/ba9876543210.csv"
CURVE = "results/cells/reuters/earn/AdaBoost/ba9876543210.curve.csv"


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(cell_archive.ENV, "on")
    for path, text in ((CELL, "error\n0.25\n"), (F1, "f1\n0.9\n"), (CURVE, "t,f1\n1,0.8\n")):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    return tmp_path


def test_packing_the_same_cells_gives_the_same_bytes_whatever_their_order(workdir):
    first = cell_archive.pack("a.zip", [CELL, F1, CURVE])
    (workdir / CELL).touch()  # a newer time changes nothing either
    cell_archive.pack("b.zip", [CURVE, CELL, F1])
    assert first == 3
    assert (workdir / "a.zip").read_bytes() == (workdir / "b.zip").read_bytes()
    with zipfile.ZipFile("a.zip") as zf:
        assert zf.namelist() == sorted(n.removeprefix("results/cells/") for n in (CELL, F1, CURVE))


def test_a_job_restores_its_outputs_byte_for_byte_and_computes_nothing(workdir, monkeypatch):
    expected = {p: (workdir / p).read_bytes() for p in (F1, CURVE)}
    cell_archive.pack("results/archive/study.zip", [F1, CURVE])
    for path in expected:
        (workdir / path).unlink()

    def compute(**_):
        raise AssertionError("a restored job computed its cell")

    monkeypatch.setattr(warm, "_target", lambda job: compute)
    keyed = {warm.ENVIRONMENT_ARGUMENT: environment.record(),   # as cell_job_arguments adds
             warm.CODE_ARGUMENT: {"modules": ["c45"], "sha256": package_digest("c45")}}
    warm._work("reuters_cell", {"matrices": "data/processed/reuters/m.npz", "f1_output": F1,
                                "curve_output": CURVE, "category": "earn", **keyed})
    assert {p: (workdir / p).read_bytes() for p in expected} == expected


def test_a_restored_job_writes_its_outputs_only_not_the_cell_it_reads(workdir, monkeypatch):
    # a restart cell reads its stop twin (an input under results/cells, also in the archive):
    # rewriting it would make the input newer than the output, and Snakemake rerun the cell
    monkeypatch.setenv(cell_archive.ENV, "on")
    cell_archive.pack("results/archive/study.zip", [CELL, F1])
    (workdir / CELL).unlink()
    twin = workdir / F1
    twin.write_text("the twin as it is on disk\n")
    monkeypatch.setattr(warm, "_target", lambda job: lambda **_: pytest.fail("computed"))
    keyed = {warm.ENVIRONMENT_ARGUMENT: environment.record(),
             warm.CODE_ARGUMENT: {"modules": ["c45"], "sha256": package_digest("c45")}}
    warm._work("sensitivity_cell", {"output": CELL, "stop_cell": F1, "dataset": "pima", **keyed})
    assert (workdir / CELL).exists()
    assert twin.read_text() == "the twin as it is on disk\n"


def test_a_job_computes_when_the_archive_lacks_one_of_its_outputs_or_archives_are_off(
        workdir, monkeypatch):
    cell_archive.pack("results/archive/study.zip", [F1])  # its curve is missing
    (workdir / F1).unlink()
    assert not cell_archive.restored([F1, CURVE, "earn"])
    assert not (workdir / F1).exists()  # nothing written when not all of them are there
    cell_archive.pack("results/archive/study.zip", [CELL])
    monkeypatch.setenv(cell_archive.ENV, "off")
    assert not cell_archive.restored([CELL])
    monkeypatch.delenv(cell_archive.ENV)  # off unless the workflow turns it on
    assert not cell_archive.restored([CELL])
    monkeypatch.setenv(cell_archive.ENV, "on")
    assert cell_archive.restored([CELL, "data/processed/uci/pima.csv", 10])
    # a job without outputs under results/cells (the data stage) never restores anything
    assert not cell_archive.restored(["data/raw/uci/pima.data", "data/processed/uci/pima.csv"])


def test_a_damaged_archive_stops_the_job_by_name(workdir):
    archive = workdir / "results/archive/study.zip"
    cell_archive.pack(archive, [CELL])
    data = bytearray(archive.read_bytes())
    with zipfile.ZipFile(archive) as zf:
        info = zf.getinfo(CELL.removeprefix("results/cells/"))
    start = info.header_offset + 30 + len(info.filename)  # the member's stored bytes
    data[start] ^= 0xFF
    archive.write_bytes(bytes(data))
    (workdir / CELL).unlink()
    with pytest.raises(InputFileError, match="cell archive .*study.zip is damaged"):
        cell_archive.restored([CELL])
    assert not (workdir / CELL).exists()


def test_only_cell_files_are_packed(workdir):
    with pytest.raises(InputFileError, match="not a cell file"):
        cell_archive.pack("a.zip", [CELL, "results/sensitivity/folds.csv"])
    assert not (workdir / "a.zip").exists()


def test_rekey_stores_each_cell_under_its_planned_key_with_the_same_bytes(workdir):
    cell_archive.pack("a.zip", [CELL, F1, CURVE])
    new_cell = CELL.replace("0123456789ab", "fedcba987654")
    new_f1, new_curve = (p.replace("ba9876543210", "00000000beef") for p in (F1, CURVE))
    # a dry run's printed outputs: a cell name may hold commas, as a restart cell's does
    other = "results/cells/sensitivity/pima/noise0.1/AdaBoost~on_degenerate=restart,sampling=x/"
    plan = (f"    output: {new_cell}\n    log: logs/x.log\n"
            f"    output: {new_f1}, {new_curve}\n    output: {other}111111111111/reps10.csv\n")
    planned = cell_archive.planned_cells(plan)
    assert planned == [new_cell, new_f1, new_curve, f"{other}111111111111/reps10.csv"]
    assert cell_archive.rekey("a.zip", planned) == 3
    for old, new in ((CELL, new_cell), (F1, new_f1), (CURVE, new_curve)):  # the old bytes,
        (workdir / new).parent.mkdir(parents=True, exist_ok=True)       # the new names
        (workdir / new).write_bytes((workdir / old).read_bytes())
    cell_archive.pack("b.zip", [new_cell, new_f1, new_curve])
    assert (workdir / "a.zip").read_bytes() == (workdir / "b.zip").read_bytes()


def test_rekey_stops_when_a_member_has_no_planned_cell_and_changes_nothing(workdir):
    cell_archive.pack("a.zip", [CELL, F1])
    before = (workdir / "a.zip").read_bytes()
    with pytest.raises(InputFileError, match="AdaBoost/ba9876543210.csv matches 0 planned"):
        cell_archive.rekey("a.zip", [CELL.replace("0123456789ab", "fedcba987654")])
    assert (workdir / "a.zip").read_bytes() == before


def test_rekey_stops_when_two_members_are_one_cell_under_two_keys(workdir):
    # each planned cell takes one member: two keys of one cell (an archive packed from two
    # runs) would leave the second without a place, and the message says why
    old_key = CELL.replace("0123456789ab", "aaaaaaaaaaaa")
    (workdir / old_key).parent.mkdir(parents=True, exist_ok=True)
    (workdir / old_key).write_bytes((workdir / CELL).read_bytes())
    cell_archive.pack("a.zip", [CELL, old_key])
    before = (workdir / "a.zip").read_bytes()
    with pytest.raises(InputFileError, match="are one cell under two keys"):
        cell_archive.rekey("a.zip", [CELL.replace("0123456789ab", "fedcba987654")])
    assert (workdir / "a.zip").read_bytes() == before
