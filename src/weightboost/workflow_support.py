"""Glue between Snakemake ``script:`` jobs and the package.

``run_step`` gives every script the same behaviour: log to the rule's log file, and turn a
``ReproError`` (bad input or config) into its message on stderr and a failed job, without a
Python traceback that would bury the message.
"""

from __future__ import annotations

import logging
import sys

from weightboost.errors import ReproError


def run_step(smk, main) -> None:
    handlers = [logging.StreamHandler(sys.stderr)]
    if smk.log:
        handlers.append(logging.FileHandler(smk.log[0], mode="w"))
    logging.basicConfig(level=logging.INFO, handlers=handlers, force=True,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        main(smk)
    except ReproError as exc:
        logging.getLogger("weightboost").error("%s", exc)
        print(f"\nERROR ({smk.rule}): {exc}\n", file=sys.stderr)
        sys.exit(1)
