# The UCI grid's cells: their paths, keys and job arguments (the rules: workflow/rules/experiments.smk).
EXPERIMENT = config["experiment"]
ALGORITHMS = EXPERIMENT["algorithms"]
REPEATS = list(range(EXPERIMENT["repeats"]))
CELL = "results/cells/uci/{dataset}/noise{noise}/{algorithm}/{key}/rep{repeat}.csv"


def cell_protocol():
    """Only what every cell depends on: a new noise level or algorithm must not rerun others."""
    return grid_protocol(config)


def grid_parts(dataset, algorithm):
    """What a UCI grid or sensitivity cell's numbers depend on besides its path's wildcards."""
    return {"protocol": cell_protocol(), "learner": learner_spec(algorithm),
            "data": data_content(dataset)}


def grid_key(dataset, algorithm, kind="uci"):
    """The key of a UCI grid cell, or (``kind`` "sensitivity") of a sensitivity study cell: the
    same computation from the same protocol, and the study's cell job's code besides."""
    return cell_key(kind, grid_parts(dataset, algorithm))


def grid_cells(pattern, datasets, noise_levels, algorithms, kind="uci", **wildcards):
    """The paths of ``pattern`` over datasets x noise levels x algorithms, each with its key (a
    noise level as ``noise_wildcard`` writes it)."""
    return [pattern.format(dataset=d, noise=noise_wildcard(n), algorithm=a,
                           key=grid_key(d, a, kind), **wildcards)
            for d in datasets for n in noise_levels for a in algorithms]


def grid_cell_arguments(wildcards, input, output):
    """The job arguments of a UCI grid cell (weightboost.experiment.uci.uci_cell)."""
    uci_spec(wildcards)  # an unknown dataset's message
    return cell_job_arguments("uci", wildcards, input, output,
                              grid_parts(wildcards.dataset, wildcards.algorithm))


UCI_CELLS = [path for repeat in REPEATS
             for path in grid_cells(CELL, EXPERIMENT["datasets"], EXPERIMENT["noise_levels"],
                                    ALGORITHMS, repeat=repeat)]
