# The Reuters study's cells: their paths, keys and job arguments (the rules:
# workflow/rules/reuters_study.smk).
STUDY = config["reuters_study"]
REUTERS_CELL = "results/cells/reuters/{category}/{algorithm}/{key}.csv"
REUTERS_CURVE = "results/cells/reuters/{category}/{algorithm}/{key}.curve.csv"


def reuters_protocol():
    """What every Reuters cell depends on (not the lists of categories and algorithms)."""
    return {"rounds": STUDY["rounds"], "cv_folds": STUDY["cv_folds"],
            "paper_rounds": STUDY["paper_rounds"], "seed": EXPERIMENT["seed"]}


def reuters_parts(algorithm):
    """What a Reuters cell's numbers depend on besides its path's wildcards."""
    return {"study": reuters_protocol(), "learner": learner_spec(algorithm),
            "data": reuters_content(config["reuters"])}


def reuters_key(algorithm):
    return cell_key("reuters", reuters_parts(algorithm))


def reuters_cells(pattern, algorithms=None):
    """The Reuters cell files of ``pattern`` for every category and algorithm (by default the
    study's; the sensitivity study passes its cells)."""
    return [pattern.format(category=c, algorithm=a, key=reuters_key(a))
            for c in STUDY["categories"] for a in (algorithms or STUDY["algorithms"])]


REUTERS_CELLS = reuters_cells(REUTERS_CELL)


def reuters_cell_arguments(wildcards, input, output):
    """The job arguments of a Reuters cell (weightboost.experiment.reuters.reuters_cell)."""
    return cell_job_arguments("reuters", wildcards, input, output,
                              reuters_parts(wildcards.algorithm))
