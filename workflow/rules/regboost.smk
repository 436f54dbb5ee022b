# The RegBoost study (Wang & Kegl 2004; config `regboost`, docs/protocol.md §5; target
# `regboost`, part of `all`): one job per cell (dataset, noise level, fold order, missing rule,
# learner cell) over its repeats, one per semi-supervised algorithm over its draws; then the
# study's tables under results/regboost/ and the report page reports/regboost.{md,html}.


if config.get("regboost"):

    rule regboost_cell:
        input:
            unpack(study_table("regboost.folds", REGBOOST["folds"])),
        output:
            output=f"{REGBOOST_CELL}.csv",
            curve_output=f"{REGBOOST_CELL}.curve.csv",
        params:
            arguments=regboost_cell_arguments,
        log:
            "logs/regboost_cell/{dataset}/noise{noise}/{fold_order}-{missing}/{algorithm}/{key}/reps{repeats}.log",
        benchmark:
            "benchmarks/regboost_cell/{dataset}/noise{noise}/{fold_order}-{missing}/{algorithm}/{key}/reps{repeats}.tsv"
        wildcard_constraints:
            fold_order="[a-z_]+",
            missing="[a-z]+",
            repeats="[0-9]+",
        # longest first, so that no long cell starts when the others are done: a cell costs
        # its repeats, and an R2 cell (a log per admissible candidate) about four R1 cells
        priority: lambda w: int(w.repeats) * (4 if "objective=R2" in w.algorithm else 1)
        threads: 1
        resources:
            mem_mb=2048,
            runtime=240,
        conda:
            "../../environment.yml"
        shell:
            job_command("regboost_cell")

    rule regboost_semi_cell:
        input:
            unpack(experiment_table),
        output:
            output=f"{REGBOOST_SEMI}.csv",
            curve_output=f"{REGBOOST_SEMI}.curve.csv",
        params:
            arguments=regboost_semi_arguments,
        log:
            "logs/regboost_semi_cell/{dataset}/{algorithm}/{key}.log",
        benchmark:
            "benchmarks/regboost_semi_cell/{dataset}/{algorithm}/{key}.tsv"
        threads: 1
        resources:
            mem_mb=2048,
            runtime=240,
        conda:
            "../../environment.yml"
        shell:
            job_command("regboost_semi_cell")

    rule regboost_results:
        input:
            cells=checked("regboost", [f"{c}.csv" for c in REGBOOST_CELLS]),
            curves=[f"{c}.curve.csv" for c in REGBOOST_CELLS],
            semi=[f"{c}.csv" for c in REGBOOST_SEMI_CELLS],
            semi_curves=[f"{c}.curve.csv" for c in REGBOOST_SEMI_CELLS],
            sidecars=expand("data/processed/uci/{dataset}.json", dataset=REGBOOST["datasets"]),
        output:
            folds=report(REGBOOST_TABLES["folds"], caption="../report/regboost_tables.rst",
                         category="RegBoost"),
            summary=report(REGBOOST_TABLES["summary"], caption="../report/regboost_tables.rst",
                           category="RegBoost"),
            curves=REGBOOST_TABLES["curves"],
            semi=REGBOOST_TABLES["semi_supervised"],
            provenance=f"{RESULTS}/regboost.provenance.json",
        params:
            script_sha256=script_digest("regboost_results.py"),
            plan=REGBOOST_PLAN.to_dict("records"),
            jobs=REGBOOST_JOBS,
            table_config=table_inputs(config, "regboost"),
            code_sha256=package_digest(*TABLE_SET_CODE["regboost"]),
            stages={"regboost_cell": benchmark_files("regboost_cell", REGBOOST_CELLS,
                                                     "results/cells/regboost/"),
                    "regboost_semi_cell": benchmark_files("regboost_semi_cell",
                                                          REGBOOST_SEMI_CELLS,
                                                          "results/cells/regboost/semi/")},
        log:
            "logs/regboost_results.log",
        localrule: True
        threads: 1
        resources:
            mem_mb=2048,
            runtime=10,
        conda:
            "../../environment.yml"
        script:
            "../scripts/regboost_results.py"

    rule regboost_report:
        input:
            unpack(regboost_report_tables),
            reference=REGBOOST_REFERENCE,
            lock=LOCK_FILE,
        output:
            md=f"{REPORTS}/regboost.md",
            html=report(f"{REPORTS}/regboost.html", caption="../report/regboost.rst",
                        category="RegBoost"),
            table1=f"{REPORTS}/tables/regboost_table1.csv",
            table1_tex=f"{REPORTS}/tables/regboost_table1.tex",
            claims=f"{REPORTS}/tables/regboost_claims.csv",
            figure3=report(f"{REPORTS}/figures/regboost_figure3.png",
                           caption="../report/regboost_figure3.rst", category="RegBoost"),
        params:
            script_sha256=script_digest("regboost_report.py"),
            code_sha256=package_digest(*REPORT_CODE),
            config=config,
            results=RESULTS,
            tables_sha256=regboost_table_digests,
        log:
            "logs/regboost_report.log",
        localrule: True
        threads: 1
        resources:
            mem_mb=2048,
            runtime=10,
        conda:
            "../../environment.yml"
        script:
            "../scripts/regboost_report.py"

    rule regboost:
        input:
            rules.regboost_report.output,
