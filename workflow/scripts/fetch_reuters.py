"""Snakemake job: fetch and verify the Reuters SGML files and the stop-word list."""

from weightboost.data.fetch import FetchSettings, fetch_file
from weightboost.fileio import write_json_atomic
from weightboost.reuters.fetch import sgml_files, stopword_file
from weightboost.workflow_support import run_step


def main(smk):
    settings = FetchSettings.from_config(smk.params.fetch)
    receipts = [fetch_file(raw, dest, None, settings)
                for raw, dest in zip(sgml_files(smk.params.reuters), smk.output.sgml)]
    receipts.append(fetch_file(stopword_file(smk.params.reuters), smk.output.stopwords, None,
                               settings))
    write_json_atomic(smk.output.receipt, receipts)


run_step(snakemake, main)  # noqa: F821 - injected by Snakemake
