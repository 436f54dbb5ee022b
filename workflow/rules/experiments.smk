# The UCI grid (docs/protocol.md §2): one job per (dataset, noise level, algorithm, repeat), each
# running every fold; then the tidy tables under results/. The cells' paths, keys and job
# arguments are the experiment grid's (common.smk), which the sensitivity study shares.


UCI_BENCHMARK = "benchmarks/uci_cell/{dataset}/noise{noise}/{algorithm}/{key}/rep{repeat}.tsv"


rule uci_cell:
    input:
        unpack(study_table("experiment.folds", EXPERIMENT["folds"])),
    output:
        output=CELL,
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
        table_config=table_inputs(config, "uci"),
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
