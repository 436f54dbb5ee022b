"""What parsing the workflow learns from the config by importing the learners, remembered.

Parsing the Snakefile checks every configured learner's parameters (``config.check_learners``)
and plans the sensitivity study, whose cell names need the learners' default parameters
(``experiment.sensitivity.plan`` and ``reuters_plan``), and so does the RegBoost study's plan
(``experiment.regboost.plan``). They import the learner classes, and with them scikit-learn
and SciPy's statistics: a dry run of the tiny test config takes 5.6-5.9 CPU-seconds, 3.4-3.8
once its answers are remembered. They depend only on the config sections ``SECTIONS``, the
names of the configured data sets (the study's must be among them) and the code ``CODE``, so a
run stores them (as JSON) under a digest of these, in the package's
``__pycache__/parse/``, and a later run with the same sections and code reads them instead. A
config found invalid is never stored: its error is raised again, message and all. Where the
directory cannot be written the answers are computed every time, as before.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Callable

from weightboost.fileio import write_text_atomic

SECTIONS = ("algorithms", "experiment", "sensitivity", "regboost", "reuters_study")
CODE = ("c45", "boosting", "stumps", "pipeline/config.py", "semi_supervised.py",
        "experiment/learners.py", "experiment/protocol.py", "experiment/regboost.py",
        "experiment/regboost_cells.py", "experiment/sensitivity.py", "pipeline/parse_memo.py")
DIRECTORY = Path(__file__).resolve().parents[1] / "__pycache__" / "parse"


def remembered(name: str, config: dict, compute: Callable[[], object]):
    """``compute()`` (a JSON value), or what it returned before for the same config sections,
    data set names and code."""
    from weightboost.pipeline.provenance import package_digest

    key = json.dumps([name, {s: config.get(s) for s in SECTIONS},
                      sorted(config.get("datasets") or {}), package_digest(*CODE)],
                     sort_keys=True, default=repr)
    path = DIRECTORY / f"{name}-{hashlib.sha256(key.encode()).hexdigest()[:32]}.json"
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        pass
    value = compute()
    try:
        DIRECTORY.mkdir(parents=True, exist_ok=True)
        write_text_atomic(path, json.dumps(value))
    except OSError:
        pass
    return value
