"""Glue between Snakemake ``script:`` jobs and the package.

``job_status`` gives every job the same behaviour, whether it runs in its own process
(``run_step``) or in a warm worker (``weightboost.warm``): log to the rule's log file, and turn a
``ReproError`` (bad input or config) into its message on stderr and a failed job, without a
Python traceback that would bury the message; any other exception fails the job with its
traceback.
"""

from __future__ import annotations

import logging
import sys
import traceback

from weightboost.errors import ReproError


def job_status(name: str, log: str | None, work, stream) -> int:
    """Run ``work()`` as job ``name`` logging to ``log`` and ``stream``; its exit status."""
    handlers = [logging.StreamHandler(stream)]
    if log:
        handlers.append(logging.FileHandler(log, mode="w"))
    logging.basicConfig(level=logging.INFO, handlers=handlers, force=True,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        work()
    except ReproError as exc:
        logging.getLogger("weightboost").error("%s", exc)
        print(f"\nERROR ({name}): {exc}\n", file=stream)
        return 1
    except Exception:  # noqa: BLE001 - reported with its traceback, as Python would
        print(traceback.format_exc(), file=stream, end="")
        return 1
    finally:
        for handler in handlers:
            handler.flush()
        logging.shutdown()
    return 0


def run_step(smk, main) -> None:
    """A ``script:`` job in its own process: ``main(smk)`` with ``job_status``'s behaviour."""
    status = job_status(smk.rule, smk.log[0] if smk.log else None, lambda: main(smk),
                        sys.stderr)
    if status:
        sys.exit(status)
