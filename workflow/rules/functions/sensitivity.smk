# The sensitivity study's plan, cells, cell inputs and job arguments (the rules:
# workflow/rules/sensitivity.smk).
import pandas as pd

from weightboost.experiment.cell_names import stop_twin
from weightboost.experiment.sensitivity import (PLAN_COLUMNS, REUTERS_PLAN_COLUMNS, cell_jobs,
                                               plan as sensitivity_plan, reuters_plan,
                                               reuters_source, study_algorithms,
                                               study_section)
from weightboost.experiment.study_cells import differs_only_in_restart


SENSITIVITY = study_section(config) if config.get("sensitivity") else {}
# the table sets the sensitivity report reads: the study's, and its Reuters table when it reruns
# Reuters under the readings (`sensitivity.reuters`); else the main run's Reuters tables (the
# Reuters claim is then decided on the main run's split: the committed Reuters tables are read
# as they are, computed first only when missing)
REUTERS_SOURCE = reuters_source(config) if SENSITIVITY else "reuters"
SENSITIVITY_SETS = ("sensitivity", REUTERS_SOURCE)
STUDY_GIVEN = ("reuters",) if REUTERS_SOURCE == "reuters" else ()
STUDY_F1 = (f"{RESULTS}/{TABLE_SETS['sensitivity_reuters'][0]}"
            if REUTERS_SOURCE == "sensitivity_reuters" else None)
SENSITIVITY_CELL = ("results/cells/sensitivity/{dataset}/noise{noise}/{algorithm}/{key}/"
                    "reps{repeats}.csv")
if SENSITIVITY:
    SENSITIVITY_PLAN = pd.DataFrame(sensitivity_plan(config).to_dict("records"),
                                    columns=PLAN_COLUMNS)
    SENSITIVITY_JOBS = {(noise_wildcard(job.noise), job.cell): job.repeats
                        for job in cell_jobs(SENSITIVITY_PLAN).itertuples(index=False)}
    SENSITIVITY_CELLS = [
        path for (noise, cell), repeats in SENSITIVITY_JOBS.items()
        for path in grid_cells(SENSITIVITY_CELL, SENSITIVITY["datasets"], [noise], [cell],
                               kind="sensitivity", repeats=repeats)]


def study_twin(wildcards):
    """The stop twin of a restart cell, when the study computes it too and its entry is
    the restart cell's with on_degenerate=stop: the restart cell copies the twin's
    repeats that met no degenerate round (weightboost.experiment.study_cells)."""
    twin = stop_twin(wildcards.algorithm)
    repeats = SENSITIVITY_JOBS.get((wildcards.noise, twin))
    if repeats is None or not differs_only_in_restart(learner_spec(wildcards.algorithm),
                                                      learner_spec(twin)):
        return None
    return twin, SENSITIVITY_CELL.format(
        dataset=wildcards.dataset, noise=wildcards.noise, algorithm=twin,
        key=grid_key(wildcards.dataset, twin, "sensitivity"), repeats=repeats)


def study_cell_inputs(wildcards):
    """A study cell's inputs: its table, and a restart cell's stop twin (``study_twin``)."""
    twin = study_twin(wildcards)
    return {**study_table("experiment.folds", EXPERIMENT["folds"])(wildcards),
            **({"stop_cell": twin[1]} if twin else {})}


def study_cell_arguments(wildcards, input, output):
    """A study cell's job arguments (weightboost.experiment.study_cells.sensitivity_cell): a
    grid cell's, keyed as the study's, and a restart cell's twin (an input: ``study_twin``
    keys its path with the twin's own entry)."""
    uci_spec(wildcards)
    return cell_job_arguments("sensitivity", wildcards, input, output,
                              grid_parts(wildcards.dataset, wildcards.algorithm))
