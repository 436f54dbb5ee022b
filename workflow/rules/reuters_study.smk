# The Reuters study (docs/protocol.md §2): one job per (category, algorithm), then the tables.


rule reuters_cell:
    input:
        unpack(reuters_matrices),
    output:
        f1_output=REUTERS_CELL,
        curve_output=REUTERS_CURVE,
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
        table_config=table_inputs(config, "reuters"),
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
