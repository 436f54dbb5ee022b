# The sensitivity study's cell inputs and job arguments (the rules: workflow/rules/sensitivity.smk).
from weightboost.experiment.sensitivity import stop_twin
from weightboost.experiment.study_cells import differs_only_in_restart


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
    """A study cell's job arguments: a grid cell's, keyed as the study's, and a restart cell's
    twin (its path, name and entry: the twin's path holds the key of its entry)."""
    uci_spec(wildcards)
    twin = study_twin(wildcards)
    files = {"table": input.table, "output": output[0]}
    from_path = {w: w for w in ("dataset", "noise", "algorithm", "repeats")}
    keyed, read_cells = dict(GRID_KEYED), None
    if twin:
        files["stop_cell"] = twin[1]
        from_path["stop_algorithm"] = ("algorithm", stop_twin)
        keyed["stop_spec"] = ("stop_cell", "learner")
        read_cells = {"stop_cell": grid_parts(wildcards.dataset, twin[0])}
    return cell_job_arguments("sensitivity", wildcards, input, output,
                              grid_parts(wildcards.dataset, wildcards.algorithm), keyed,
                              files=files, from_path=from_path, read_cells=read_cells)
