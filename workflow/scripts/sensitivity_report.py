"""Snakemake job: the claims under every reading (reports/tables/verdicts.csv,
sensitivity_duels.csv), the β figure and the Sensitivity section (reports/sensitivity.*)."""

from pathlib import Path

import pandas as pd

from weightboost.pipeline.provenance import TABLE_SETS
from weightboost.experiment.sensitivity import (PRIMARY, readings, reuters_source,
                                               study_section)
from weightboost.fileio import write_csv_atomic, write_text_atomic
from weightboost.report import provenance
from weightboost.report.reference import load_reference
from weightboost.report.sensitivity import (beta_duels, beta_figure, beta_table,
                                            chosen_c_table, forest_figure, learner_figure,
                                            noise_duels, noise_figure, question_tables,
                                            reuters_seed_tests, scope_text,
                                            sensitivity_document, verdict_tables)
from weightboost.pipeline.workflow_support import run_step


def main(smk):
    results = Path(smk.params.results)  # tables read as given are no inputs: read them here
    study = {Path(name).stem: results / name for name in TABLE_SETS["sensitivity"]}
    folds, summary, timing = (pd.read_csv(study[k]) for k in ("folds", "summary", "timing"))
    source = reuters_source(smk.params.config)
    reuters_f1 = pd.read_csv(results / TABLE_SETS[source][0])
    reference = load_reference(smk.input.reference)
    verdicts, duels = verdict_tables(smk.params.config, reference, folds, summary, reuters_f1)
    write_csv_atomic(smk.output.verdicts, verdicts)
    write_csv_atomic(smk.output.duels, duels)
    study = study_section(smk.params.config)
    questions, question_duels = question_tables(reference, folds, summary, study["datasets"])
    write_csv_atomic(smk.output.questions, questions)
    write_csv_atomic(smk.output.question_duels, question_duels)
    added = readings(study)[PRIMARY].get("add") or []
    learner_figure(summary, study["datasets"], added, Path(smk.output.learners).with_suffix(""))
    beta_figure(summary, smk.params.config, Path(smk.output.beta).with_suffix(""))
    # the document reads the tables back, as a later rebuild from the committed tables would
    verdicts, duels, questions, question_duels = (
        pd.read_csv(path) for path in (smk.output.verdicts, smk.output.duels,
                                       smk.output.questions, smk.output.question_duels))
    forest_figure(duels, list(dict.fromkeys(verdicts.reading)),
                  Path(smk.output.forest).with_suffix(""))
    unswept = [name for name, r in readings(study).items() if "sweep" not in r]
    noise_figure(noise_duels(folds, unswept, study["datasets"]),
                 Path(smk.output.noise).with_suffix(""))
    doc = sensitivity_document(summary, timing, verdicts, duels,
                               reference, Path(smk.output.beta), scope_text(smk.params.config),
                               beta_table(summary, smk.params.config),
                               beta_duels(folds, summary, smk.params.config),
                               chosen_c_table(folds), Path(smk.output.forest),
                               Path(smk.output.noise),
                               reuters_seed_tests(reuters_f1, reference)
                               if source == "sensitivity_reuters" else None,
                               questions, question_duels, Path(smk.output.learners))
    out = Path(smk.output.md).parent
    provenance.add_section(doc, Path.cwd(), results, smk.params.table_sets,
                           Path(smk.input.lock), out,
                           {"sensitivity": smk.params.config["sensitivity"]})
    write_text_atomic(smk.output.md, doc.markdown(out))
    write_text_atomic(smk.output.html, doc.html())


run_step(snakemake, main)  # noqa: F821 - injected by Snakemake
