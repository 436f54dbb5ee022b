# The convex-potential barrier study (config `barrier`, docs/protocol.md §8; target `barrier`,
# not part of `all`): one job per cell (noise level, training size, learner) over its repeats,
# each repeat drawing its samples from the data set's generator; then the study's tables under
# results/barrier/ and its page reports/barrier.md (its questions answered, its figure).


if config.get("barrier"):

    rule barrier_cell:
        output:
            output=f"{BARRIER_CELL}.csv",
            curve_output=f"{BARRIER_CELL}.curve.csv",
        params:
            arguments=barrier_cell_arguments,
        log:
            "logs/barrier_cell/{dataset}/noise{noise}/n{n_train}/{algorithm}/{key}.log",
        benchmark:
            "benchmarks/barrier_cell/{dataset}/noise{noise}/n{n_train}/{algorithm}/{key}.tsv"
        wildcard_constraints:
            n_train="[0-9]+",
        # the largest samples first, so that no long cell starts when the others are done; below
        # the data jobs' priority (jobs.smk), which come first in a run with `all`
        priority: lambda w: min(int(w.n_train) // 1000, DATA_PRIORITY - 1)
        threads: 1
        resources:
            mem_mb=2048,
            runtime=120,
        conda:
            "../../environment.yml"
        shell:
            job_command("barrier_cell")

    rule barrier_results:
        input:
            cells=checked("barrier", [f"{c}.csv" for c in BARRIER_CELLS]),
            curves=[f"{c}.curve.csv" for c in BARRIER_CELLS],
        output:
            folds=BARRIER_TABLES["folds"],
            summary=BARRIER_TABLES["summary"],
            curves=BARRIER_TABLES["curves"],
            provenance=f"{RESULTS}/barrier.provenance.json",
        params:
            script_sha256=script_digest("barrier_results.py"),
            table_config=table_inputs(config, "barrier"),
            code_sha256=package_digest(*TABLE_SET_CODE["barrier"]),
            stages={"barrier_cell": benchmark_files("barrier_cell", [f"{c}.csv" for c in
                                                                     BARRIER_CELLS],
                                                    "results/cells/barrier/")},
        log:
            "logs/barrier_results.log",
        localrule: True
        threads: 1
        resources:
            mem_mb=2048,
            runtime=10,
        conda:
            "../../environment.yml"
        script:
            "../scripts/barrier_results.py"

    rule barrier_report:
        input:
            unpack(report_inputs(("barrier",))),
            questions=str(Path(workflow.basedir) / "config/reference/barrier_questions.yaml"),
        output:
            md=f"{REPORTS}/barrier.md",
            answers=f"{REPORTS}/tables/barrier_answers.csv",
            figure=f"{REPORTS}/figures/barrier.svg",
            figure_png=f"{REPORTS}/figures/barrier.png",
        params:
            script_sha256=script_digest("barrier_report.py"),
            code_sha256=package_digest(*REPORT_CODE),
            config=config,
            results=RESULTS,
            tables_sha256=given_digests(("barrier",)),
        log:
            "logs/barrier_report.log",
        localrule: True
        threads: 1
        resources:
            mem_mb=2048,
            runtime=10,
        conda:
            "../../environment.yml"
        script:
            "../scripts/barrier_report.py"

    rule barrier:
        input:
            rules.barrier_results.output,
            rules.barrier_report.output,
