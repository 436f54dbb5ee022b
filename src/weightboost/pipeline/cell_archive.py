"""Cell archives: a study's computed cells packed into one committed zip file, from which a
later run restores a cell instead of computing it. A cell's path holds its key, so an archived
file under the path a job is about to write is the file that job would write (docs/integrity.md,
"Cell keys"; packing and re-keying: docs/running.md, "The cell archive").
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import sys
import zipfile
import zlib
from pathlib import Path

from weightboost.errors import InputFileError
from weightboost.fileio import atomic_path, write_bytes_atomic
from weightboost.pipeline.workflow_support import RESTORED

CELLS = "results/cells"          # every cell job writes below it (and no other job does)
ARCHIVES = "results/archive"     # the archives a run restores from: every *.zip in it
ENV = "WEIGHTBOOST_CELL_ARCHIVE"  # "on" (set by the workflow from config `cell_archive`) or off


def member(path: str | os.PathLike) -> str | None:
    """The archive member name of a cell path, or None for a path outside ``results/cells``."""
    name = Path(path).as_posix()
    return name.removeprefix(f"{CELLS}/") if name.startswith(f"{CELLS}/") else None


def pack(archive: str | os.PathLike, paths) -> int:
    """Write the cell files ``paths`` into the zip file ``archive``, replacing it; the number of
    members. Deterministic: members sorted by name, dated 1980-01-01, mode 0644, deflated."""
    members = {}
    for path in paths:
        name = member(path)
        if name is None:
            raise InputFileError(f"{path} is not a cell file (cells lie under {CELLS}/): an "
                                 "archive holds cells only")
        members[name] = Path(path)
    _write(archive, {name: path.read_bytes() for name, path in members.items()})
    return len(members)


def planned_cells(plan_text: str) -> list[str]:
    """The cell paths among the outputs of a dry run's printed jobs (``output: a, b``; a cell
    name may hold commas, so outputs are split before each known top-level folder)."""
    paths = []
    for line in plan_text.splitlines():
        if line.startswith("    output: "):
            paths += re.split(r", (?=(?:results|logs|benchmarks|reports|data)/)", line[12:])
    return [p for p in paths if member(p) is not None]


def rekey(archive: str | os.PathLike, planned) -> int:
    """Store every member of ``archive`` under the cell path of ``planned`` that differs from
    its own in the key only, with the same bytes; the number of members. Stops, changing
    nothing, unless members and such paths pair one to one."""
    from weightboost.pipeline.provenance import KEY_PATTERN  # not at import: cell jobs load
    # this module, and provenance is no cell code

    key = re.compile(f"/{KEY_PATTERN}(?=[/.])")  # the key part of a member's path
    by_cell = {}
    for name in filter(None, map(member, planned)):
        by_cell.setdefault(key.sub("/KEY", name), set()).add(name)
    with zipfile.ZipFile(archive) as zf:
        contents, source = {}, {}  # planned name -> bytes, and the member they come from
        for name in zf.namelist():
            target = by_cell.get(key.sub("/KEY", name), set())
            if len(target) != 1:
                raise InputFileError(
                    f"{archive}: {name} matches {len(target)} planned cells but the key: the "
                    "plan must hold every archived cell once (plan all sensitivity under the "
                    "config that made the archive)")
            (planned_name,) = target
            if planned_name in source:
                raise InputFileError(
                    f"{archive}: {source[planned_name]} and {name} are one cell under two keys: "
                    "keep one of them (repack the archive from one run's cells)")
            contents[planned_name], source[planned_name] = zf.read(name), name
    _write(archive, contents)
    return len(contents)


def _write(path, contents: dict[str, bytes]) -> None:
    with atomic_path(path) as tmp, zipfile.ZipFile(tmp, "w") as zf:
        for name in sorted(contents):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))  # zip's earliest
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3  # Unix, whatever packs it
            info.external_attr = 0o644 << 16
            zf.writestr(info, contents[name], compresslevel=9)


def restored(values) -> bool:
    """Write the job's outputs under ``results/cells`` (among its output arguments ``values``)
    from an archive that holds them all; whether it did (never when archives are off)."""
    named = {v: name for v in values if isinstance(v, str) and (name := member(v))}
    if not named or os.environ.get(ENV) != "on":
        return False
    outputs, names = list(named), list(named.values())
    for archive in sorted(Path(ARCHIVES).glob("*.zip")):
        try:
            with zipfile.ZipFile(archive) as zf:
                if not set(names) <= set(zf.namelist()):
                    continue
                contents = [zf.read(name) for name in names]
        except (zipfile.BadZipFile, zlib.error, OSError, EOFError) as exc:
            raise InputFileError(
                f"the cell archive {archive} is damaged ({exc}): restore it (`git checkout "
                f"{archive}`), or run with `--config cell_archive=false` to compute every "
                "cell") from None
        for path, data in zip(outputs, contents):
            write_bytes_atomic(path, data)
        logging.getLogger("weightboost").info(
            "%s %s (its key: computed under this code and config): %s", RESTORED, archive,
            ", ".join(outputs))
        return True
    return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m weightboost.pipeline.cell_archive",
                                     description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    packing = commands.add_parser("pack", help="pack cell files into an archive")
    packing.add_argument("archive")
    packing.add_argument("paths", nargs="*")
    packing.add_argument("--paths-from", help="a file with one cell path per line")
    rekeying = commands.add_parser("rekey", help="store the members under the current keys")
    rekeying.add_argument("archive")
    rekeying.add_argument("--plan", required=True,
                          help="the output of `snakemake -n --forceall all sensitivity`")
    args = parser.parse_args(argv)
    if args.command == "pack":
        paths = list(args.paths)
        if args.paths_from:
            paths += [line for line in Path(args.paths_from).read_text().splitlines() if line]
        print(f"{pack(args.archive, paths)} cells packed into {args.archive}")
    else:
        planned = planned_cells(Path(args.plan).read_text())
        print(f"{rekey(args.archive, planned)} cells stored under their current keys in "
              f"{args.archive}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
