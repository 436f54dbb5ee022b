"""Snakemake job: fetch and verify raw Reuters inputs - the SGML files, the stop-word list or
NLTK's ApteMod package (params.kind)."""

from weightboost.data.fetch import FetchSettings, fetch_file
from weightboost.fileio import write_json_atomic
from weightboost.reuters.fetch import nltk_package_file, sgml_files, stopword_file
from weightboost.workflow_support import run_step

RAW_FILES = {
    "sgml": sgml_files,
    "stopwords": lambda options: [stopword_file(options)],
    "nltk": lambda options: [nltk_package_file(options)],
}


def main(smk):
    settings = FetchSettings.from_config(smk.params.fetch)
    destinations = smk.output.files
    raws = RAW_FILES[smk.params.kind](smk.params.reuters)
    receipts = [fetch_file(raw, dest, None, settings) for raw, dest in zip(raws, destinations)]
    write_json_atomic(smk.output.receipt, receipts)


run_step(snakemake, main)  # noqa: F821 - injected by Snakemake
