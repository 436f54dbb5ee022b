"""The data stage's jobs: fetch and verify the raw inputs, parse them into the tables the
experiments read (workflow/rules/data.smk and reuters.smk).

Each is a function of JSON values, run as the cells are (``weightboost.pipeline.warm``): in a child of
the run's warm server, which has imported pandas and the package already, or in the job's own
process where no server answers. As ``script:`` jobs each started a Python that imported them
afresh (about 0.2 s for a fetch, 0.9 s for a parse), which was most of their cost. The work
itself is in ``weightboost.data.fetch``, ``weightboost.data.uci`` and ``weightboost.reuters``.
"""

from __future__ import annotations

import json

from weightboost.data.fetch import FetchSettings, fetch_file, fetch_raw
from weightboost.data.spec import DatasetSpec
from weightboost.errors import InputFileError
from weightboost.fileio import files_together, journal_beside, write_json_atomic


def fetch_uci(dataset: str, spec: dict, fetch: dict, raw: str, receipt: str) -> None:
    """Fetch one raw UCI file from the first source that has it and verify its SHA-256."""
    fetch_raw(DatasetSpec.from_config(dataset, spec), raw, receipt,
              FetchSettings.from_config(fetch))


def parse_uci(dataset: str, spec: dict, raw: str, receipt: str, table: str,
              sidecar: str) -> None:
    """Parse one verified raw UCI file into its canonical table and JSON sidecar, written
    together (a kill between them would leave a table its sidecar does not describe)."""
    from weightboost.data.uci import write_canonical

    with open(receipt) as handle:
        source = json.load(handle)
    with files_together(journal_beside(table)):
        described = write_canonical(raw, source, DatasetSpec.from_config(dataset, spec), table,
                                    sidecar)
        _check_missing_count(dataset, spec, described, f"{raw} (dataset {dataset}) parses",
                             f" (or the marker datasets.{dataset}.missing)")


def _check_missing_count(dataset: str, spec: dict, described: dict, what: str,
                         alternative: str = "") -> None:
    """Stop, inside the block that writes the table (so that nothing is written), when the
    table has another number of missing values than ``datasets.<dataset>.missing_values``."""
    expected = spec.get("missing_values")
    if expected is not None and described["n_missing"] != expected:
        raise InputFileError(f"{what} to a table with {described['n_missing']} missing values "
                             f"where datasets.{dataset}.missing_values = {expected}; correct "
                             f"the key{alternative}")


def generate_dataset(dataset: str, spec: dict, seed: int, table: str, sidecar: str) -> None:
    """Draw a generated data set (``weightboost.data.generators``, its entry's ``generator``,
    seeded from ``experiment.seed`` and its name) and write its canonical table and sidecar
    together, as a parse does: checked against its pin and its ``missing_values``."""
    from pathlib import Path

    from weightboost.data.generators import generated_sidecar, generated_table
    from weightboost.errors import ChecksumError
    from weightboost.fileio import write_bytes_atomic

    frame, table_bytes = generated_table(dataset, spec, seed)
    described = generated_sidecar(dataset, spec, frame, table_bytes) | {
        "table_file": Path(table).name}
    pin = spec.get("table_sha256")
    if pin is not None and described["table_sha256"] != pin:
        raise ChecksumError(f"dataset {dataset}: {spec['generator']['function']} draws a table "
                            f"with SHA-256 {described['table_sha256']}, not the pinned {pin} "
                            f"(datasets.{dataset}.table_sha256). If you changed the generator, "
                            f"its params, rows or experiment.seed, set the pin to the new digest")
    with files_together(journal_beside(table)):
        _check_missing_count(dataset, spec, described, f"{spec['generator']['function']} draws")
        write_bytes_atomic(table, table_bytes)
        write_json_atomic(sidecar, described)


def fetch_reuters(kind: str, reuters: dict, fetch: dict, files: list[str],
                  receipt: str) -> None:
    """Fetch and verify raw Reuters inputs of ``kind``: ``sgml`` (the 22 SGML files),
    ``stopwords`` (NLTK's stop-word package) or ``nltk`` (NLTK's ApteMod package)."""
    from weightboost.reuters.fetch import nltk_package_file, sgml_files, stopword_file

    raws = {"sgml": sgml_files,
            "stopwords": lambda options: [stopword_file(options)],
            "nltk": lambda options: [nltk_package_file(options)]}[kind](reuters)
    settings = FetchSettings.from_config(fetch)
    write_json_atomic(receipt, [fetch_file(raw, dest, None, settings)
                                for raw, dest in zip(raws, files)])


def reuters_features(corpus: list[str], stopwords: str, reuters: dict, matrices: str,
                     vocabulary: str, stats: str) -> None:
    """The raw corpus to ltc matrices and statistics (``weightboost.reuters.stage``), the three
    files written together."""
    from weightboost.reuters.stage import build

    with files_together(journal_beside(stats)):
        build(corpus, stopwords, reuters, matrices, vocabulary, stats)
