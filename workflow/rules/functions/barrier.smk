# The barrier study's plan and cells: their paths, keys and job arguments (the rules:
# workflow/rules/barrier.smk).
from weightboost.experiment import barrier as barrier_study

BARRIER_CELL = "results/cells/barrier/{dataset}/noise{noise}/n{n_train}/{algorithm}/{key}"
BARRIER_TABLES = {name: path for name, path in set_files("barrier").items()
                  if name != "barrier_provenance"}

if config.get("barrier"):
    BARRIER = barrier_study.study_section(config)
    # what every cell shares, read once (the data set's entry holds its generator's code digest)
    BARRIER_PROTOCOL = barrier_study.protocol(config)
    BARRIER_DATA = data_content(BARRIER["dataset"])

    def barrier_parts(algorithm):
        """What a barrier cell's numbers depend on besides its path's wildcards."""
        return {"protocol": BARRIER_PROTOCOL, "learner": learner_spec(algorithm),
                "rounds": BARRIER["algorithms"][algorithm], "data": BARRIER_DATA}

    BARRIER_PLAN = barrier_study.plan(config)
    BARRIER_CELLS = [
        BARRIER_CELL.format(dataset=BARRIER["dataset"], noise=noise_wildcard(noise),
                            n_train=n, algorithm=algorithm,
                            key=cell_key("barrier", barrier_parts(algorithm)))
        for noise, n, algorithm in BARRIER_PLAN]

    def barrier_cell_arguments(wildcards, input, output):
        """The job arguments of a cell (weightboost.experiment.barrier.barrier_cell)."""
        return cell_job_arguments("barrier", wildcards, input, output,
                                  barrier_parts(wildcards.algorithm))
