# The Reuters study (docs/protocol.md §2): one job per (category, algorithm), then the tables.

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
    """The job arguments of a Reuters cell."""
    # a sensitivity cell (`WeightBoost~sampling=resample,...`) runs as its entry: the paper's T
    # (`paper_rounds`) is the entry's under every reading
    return cell_job_arguments(
        "reuters", wildcards, input, output, reuters_parts(wildcards.algorithm),
        {"spec": ("learner",), "study": ("study",)},
        files={"matrices": input.matrices, "stats": input.stats, "f1_output": output.f1,
               "curve_output": output.curve},
        from_path={"category": "category",
                   "algorithm": ("algorithm", lambda name: parse_cell_name(name)[0])})


rule reuters_cell:
    input:
        unpack(reuters_matrices),
    output:
        f1=REUTERS_CELL,
        curve=REUTERS_CURVE,
    params:
        arguments=reuters_cell_arguments,
    log:
        "logs/reuters_cell/{category}/{algorithm}/{key}.log",
    benchmark:
        "benchmarks/reuters_cell/{category}/{algorithm}/{key}.tsv"
    priority: LONG_CELL_PRIORITY
    threads: 1
    resources:
        mem_mb=4096,
        runtime=60,
    conda:
        "../../environment.yml"
    shell:
        job_command("reuters_cell")


rule reuters_results:
    input:
        f1=checked("reuters", REUTERS_CELLS),
        curves=reuters_cells(REUTERS_CURVE),
        receipts=reuters_receipts,
    output:
        f1=report(f"{RESULTS}/reuters_f1.csv", caption="../report/reuters_f1.rst",
                  category="Result tables"),
        curves=report(f"{RESULTS}/reuters_curves.csv", caption="../report/reuters_curves.rst",
                      category="Result tables"),
        provenance=f"{RESULTS}/reuters.provenance.json",
    params:
        script_sha256=script_digest("reuters_results.py"),
        categories=STUDY["categories"],
        algorithms=STUDY["algorithms"],
        config=config,
        code_sha256=package_digest(*TABLE_SET_CODE["reuters"]),
        stages={"reuters_features": ["benchmarks/reuters_features.tsv"],
                "reuters_cell": benchmark_files("reuters_cell", REUTERS_CELLS,
                                                "results/cells/reuters/")},
    log:
        "logs/reuters_results.log",
    localrule: True
    threads: 1
    resources:
        mem_mb=1024,
        runtime=5,
    conda:
        "../../environment.yml"
    script:
        "../scripts/reuters_results.py"
