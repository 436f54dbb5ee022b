"""What every job does the same way, in its own process and in a warm worker, and what its log
says of it: how it ends (a ``ReproError`` with its message, no traceback), what it used
(``RESOURCES``, which Snakemake's benchmark of a warm job does not see) and whether it computed;
and the check of a cell job's code against its key (docs/integrity.md, "Cell keys").
"""

from __future__ import annotations

import logging
import re
import resource
import sys
import traceback
from pathlib import Path

from weightboost.errors import ReproError

RESOURCES = "job resources: {cpu:.2f} CPU-s, peak RSS {rss:.0f} MB"
_RESOURCES = re.compile(r"^job resources: ([\d.]+) CPU-s, peak RSS (\d+) MB$", re.M)
RESTORED = "restored from the cell archive"  # how a restoring job's log line starts


def _usage() -> tuple[float, float]:
    """CPU seconds of this process and its waited-for children, and the larger peak RSS (MB)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
    return cpu, max(own.ru_maxrss, children.ru_maxrss) / 1024  # Linux reports kB


def job_resources(log) -> tuple[float, float] | None:
    """(CPU seconds, peak RSS MB) from a job's log (``RESOURCES``); None if it has none."""
    try:
        found = _RESOURCES.findall(Path(log).read_text(errors="replace"))
    except OSError:
        return None
    return (float(found[-1][0]), float(found[-1][1])) if found else None


def was_restored(log) -> bool:
    """Whether the job that wrote ``log`` restored its outputs from a cell archive rather than
    computing them: its benchmark and resources then measure a copy."""
    try:
        return RESTORED in Path(log).read_text(errors="replace")
    except OSError:
        return False


def job_status(name: str, log: str | None, work, stream) -> int:
    """Run ``work()`` as job ``name`` logging to ``log`` and ``stream``; its exit status."""
    handlers = [logging.StreamHandler(stream)]
    if log:
        handlers.append(logging.FileHandler(log, mode="w"))
    logging.basicConfig(level=logging.INFO, handlers=handlers, force=True,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    before = _usage()[0]  # a warm worker's counts start at its fork; a process's do not
    status = 0
    try:
        work()
    except ReproError as exc:
        logging.getLogger("weightboost").error("%s", exc)
        print(f"\nERROR ({name}): {exc}\n", file=stream)
        status = 1
    except Exception:  # noqa: BLE001 - reported with its traceback, as Python would
        print(traceback.format_exc(), file=stream, end="")
        status = 1
    finally:
        logging.shutdown()  # flushes and closes the handlers
    if log:  # the log file only: the job's stderr is the same in a worker and in a process
        cpu, rss = _usage()
        with open(log, "a") as file:
            file.write(RESOURCES.format(cpu=cpu - before, rss=rss) + "\n")
    return status


def run_step(smk, main) -> None:
    """A ``script:`` job in its own process: ``main(smk)`` with ``job_status``'s behaviour."""
    status = job_status(smk.rule, smk.log[0] if smk.log else None, lambda: main(smk),
                        sys.stderr)
    if status:
        sys.exit(status)


class CodeChangedError(ReproError):
    """A cell job would run other package code than the code its outputs' key digests."""


def check_code(expected: dict, job: str) -> None:
    """Stop unless the modules ``expected["modules"]`` on disk have the digest the workflow
    keyed ``job``'s outputs with, ``expected["sha256"]``: computed afresh, not by
    ``package_digest``, whose cached value a warm worker inherits from its server."""
    from weightboost.pipeline.package_code import code_digest, package_files

    found = code_digest(package_files(*expected["modules"]))
    if found != expected["sha256"]:
        raise CodeChangedError(
            f"{job}: the package code its outputs are keyed for changed on disk since the "
            f"workflow planned it (digest {expected['sha256'][:12]} -> {found[:12]}, modules "
            f"{', '.join(expected['modules'])} under src/weightboost): its outputs would be "
            "stored under a key that does not describe them. Finish editing, then run the "
            "command again: the workflow keys the cells for the code on disk")
