# The UCI grid (docs/protocol.md §2): one job per (dataset, noise level, algorithm, repeat), each
# running every fold; then the tidy tables under results/.

EXPERIMENT = config["experiment"]
ALGORITHMS = EXPERIMENT["algorithms"]
NOISE = [noise_name(p) for p in EXPERIMENT["noise_levels"]]
REPEATS = list(range(EXPERIMENT["repeats"]))
CELL = "results/cells/uci/{dataset}/noise{noise}/{algorithm}/{key}/rep{repeat}.csv"


def cell_protocol():
    """Only what every cell depends on: a new noise level or algorithm must not rerun others."""
    return grid_protocol(config)


def grid_parts(dataset, algorithm):
    """What a UCI grid or sensitivity cell's numbers depend on besides its path's wildcards."""
    return {"protocol": cell_protocol(), "learner": learner_spec(algorithm),
            "data": data_content(dataset)}


# a grid or study cell's arguments from its key's parts (cell_job_arguments)
GRID_KEYED = {"experiment": ("protocol",), "spec": ("learner",),
              "pinned": ("data", "table_sha256?")}


def grid_key(dataset, algorithm, kind="uci"):
    """The key of a UCI grid cell, or (``kind`` "sensitivity") of a sensitivity study cell: the
    same computation from the same protocol, and the study's cell job's code besides."""
    return cell_key(kind, grid_parts(dataset, algorithm))


def grid_cells(pattern, datasets, noise_levels, algorithms, kind="uci", **wildcards):
    """The paths of ``pattern`` over datasets x noise levels x algorithms, each with its key."""
    return [pattern.format(dataset=d, noise=n, algorithm=a, key=grid_key(d, a, kind),
                           **wildcards)
            for d in datasets for n in noise_levels for a in algorithms]


def grid_cell_arguments(wildcards, input, output):
    """The job arguments of a UCI grid cell (its wildcards are arguments too). (A params
    function takes no other arguments: Snakemake passes whatever it names.)"""
    uci_spec(wildcards)  # an unknown dataset's message
    return cell_job_arguments(
        "uci", wildcards, input, output, grid_parts(wildcards.dataset, wildcards.algorithm),
        GRID_KEYED, files={"table": input.table, "output": output[0]},
        from_path={w: w for w in ("dataset", "noise", "algorithm", "repeat")})


wildcard_constraints:
    dataset="[A-Za-z0-9_]+",
    noise="[0-9.e-]+",
    algorithm="[A-Za-z0-9_.+=,~-]+",
    repeat="[0-9]+",
    key=KEY,


UCI_CELLS = [path for repeat in REPEATS
             for path in grid_cells(CELL, EXPERIMENT["datasets"], NOISE, ALGORITHMS,
                                    repeat=repeat)]
UCI_BENCHMARK = "benchmarks/uci_cell/{dataset}/noise{noise}/{algorithm}/{key}/rep{repeat}.tsv"


rule uci_cell:
    input:
        unpack(study_table("experiment.folds", EXPERIMENT["folds"])),
    output:
        CELL,
    params:
        arguments=grid_cell_arguments,
    log:
        "logs/uci_cell/{dataset}/noise{noise}/{algorithm}/{key}/rep{repeat}.log",
    benchmark:
        UCI_BENCHMARK
    threads: 1
    resources:
        mem_mb=2048,
        runtime=60,
    conda:
        "../../environment.yml"
    shell:
        job_command("uci_cell")


rule uci_results:
    input:
        cells=checked("uci", UCI_CELLS),
        sidecars=expand("data/processed/uci/{dataset}.json", dataset=EXPERIMENT["datasets"]),
    output:
        folds=report(f"{RESULTS}/uci_folds.csv", caption="../report/uci_folds.rst",
                     category="Result tables"),
        summary=report(f"{RESULTS}/uci_summary.csv", caption="../report/uci_summary.rst",
                       category="Result tables"),
        provenance=f"{RESULTS}/uci.provenance.json",
    params:
        script_sha256=script_digest("uci_results.py"),
        datasets=EXPERIMENT["datasets"],
        algorithms=ALGORITHMS,
        config=config,
        code_sha256=package_digest(*TABLE_SET_CODE["uci"]),
        stages={"uci_cell": benchmark_files("uci_cell", UCI_CELLS, "results/cells/uci/")},
    log:
        "logs/uci_results.log",
    localrule: True
    threads: 1
    resources:
        mem_mb=1024,
        runtime=5,
    conda:
        "../../environment.yml"
    script:
        "../scripts/uci_results.py"


rule experiments:
    input:
        rules.uci_results.output,
        f"{RESULTS}/reuters_f1.csv",
        f"{RESULTS}/reuters_curves.csv",
