# The sensitivity study (config `sensitivity`; target `sensitivity`, not part of `all`): the
# UCI grid under every reading of the protocol with repeated cross-validation. One job per
# (dataset, noise level, cell) runs every repeat; a cell is named `entry~param=value,...` when
# a reading changes a learner, so readings that leave an algorithm as it is share its cell.
# Then the study's tables, the verdicts and the β figure.


if SENSITIVITY:

    rule sensitivity_cell:
        input:
            unpack(study_cell_inputs),
        output:
            output=SENSITIVITY_CELL,
        params:
            arguments=study_cell_arguments,
        log:
            "logs/sensitivity_cell/{dataset}/noise{noise}/{algorithm}/{key}/reps{repeats}.log",
        benchmark:
            "benchmarks/sensitivity_cell/{dataset}/noise{noise}/{algorithm}/{key}/reps{repeats}.tsv"
        wildcard_constraints:
            repeats="[0-9]+",
        threads: 1
        resources:
            mem_mb=2048,
            runtime=240,
        conda:
            "../../environment.yml"
        shell:
            job_command("sensitivity_cell")

    rule sensitivity_results:
        input:
            cells=checked("sensitivity", SENSITIVITY_CELLS),
            sidecars=expand("data/processed/uci/{dataset}.json",
                            dataset=SENSITIVITY["datasets"]),
        output:
            folds=f"{RESULTS}/sensitivity/folds.csv",
            summary=f"{RESULTS}/sensitivity/summary.csv",
            timing=f"{RESULTS}/sensitivity/timing.csv",
            provenance=f"{RESULTS}/sensitivity.provenance.json",
        params:
            script_sha256=script_digest("sensitivity_results.py"),
            plan=SENSITIVITY_PLAN.to_dict("records"),
            datasets=SENSITIVITY["datasets"],
            algorithms=study_algorithms(SENSITIVITY),
            table_config=table_inputs(config, "sensitivity"),
            code_sha256=package_digest(*TABLE_SET_CODE["sensitivity"]),
            stages={"sensitivity_cell": benchmark_files("sensitivity_cell", SENSITIVITY_CELLS,
                                                        "results/cells/sensitivity/")},
        log:
            "logs/sensitivity_results.log",
        localrule: True
        threads: 1
        resources:
            mem_mb=4096,
            runtime=10,
        conda:
            "../../environment.yml"
        script:
            "../scripts/sensitivity_results.py"

    if STUDY_F1:
        SENSITIVITY_REUTERS_PLAN = pd.DataFrame(reuters_plan(config).to_dict("records"),
                                                columns=REUTERS_PLAN_COLUMNS)
        STUDY_REUTERS_ALGORITHMS = list(dict.fromkeys(SENSITIVITY_REUTERS_PLAN.cell))
        SENSITIVITY_REUTERS_CELLS = reuters_cells(REUTERS_CELL, STUDY_REUTERS_ALGORITHMS)

        rule sensitivity_reuters_results:
            input:
                cells=checked("sensitivity_reuters", SENSITIVITY_REUTERS_CELLS),
                receipts=reuters_receipts,
            output:
                f1=STUDY_F1,
                provenance=f"{RESULTS}/sensitivity_reuters.provenance.json",
            params:
                script_sha256=script_digest("sensitivity_reuters_results.py"),
                plan=SENSITIVITY_REUTERS_PLAN.to_dict("records"),
                categories=STUDY["categories"],
                algorithms=STUDY["algorithms"],
                table_config=table_inputs(config, "sensitivity_reuters"),
                code_sha256=package_digest(*TABLE_SET_CODE["sensitivity_reuters"]),
                stages={"reuters_cell": benchmark_files("reuters_cell", SENSITIVITY_REUTERS_CELLS,
                                                        "results/cells/reuters/")},
            log:
                "logs/sensitivity_reuters_results.log",
            localrule: True
            threads: 1
            resources:
                mem_mb=1024,
                runtime=5,
            conda:
                "../../environment.yml"
            script:
                "../scripts/sensitivity_reuters_results.py"

    rule sensitivity_report:
        input:
            unpack(report_inputs(SENSITIVITY_SETS, STUDY_GIVEN)),
            reference=REFERENCE,
            lock=LOCK_FILE,
        output:
            verdicts=f"{REPORTS}/tables/verdicts.csv",
            duels=f"{REPORTS}/tables/sensitivity_duels.csv",
            questions=f"{REPORTS}/tables/questions.csv",
            question_duels=f"{REPORTS}/tables/question_duels.csv",
            learners=report(f"{REPORTS}/figures/sensitivity_learners.png",
                            caption="../report/sensitivity_learners.rst", category="Figures"),
            beta=report(f"{REPORTS}/figures/beta_curves.png", caption="../report/beta.rst",
                        category="Figures"),
            forest=report(f"{REPORTS}/figures/sensitivity_forest.png",
                          caption="../report/forest.rst", category="Figures"),
            noise=report(f"{REPORTS}/figures/sensitivity_noise.png",
                         caption="../report/sensitivity_noise.rst", category="Figures"),
            md=f"{REPORTS}/sensitivity.md",
            html=report(f"{REPORTS}/sensitivity.html", caption="../report/sensitivity.rst",
                        category="Report"),
        params:
            script_sha256=script_digest("sensitivity_report.py"),
            code_sha256=package_digest(*REPORT_CODE),
            config=config,
            results=RESULTS,
            table_sets=SENSITIVITY_SETS,
            tables_sha256=given_digests(SENSITIVITY_SETS, STUDY_GIVEN),
        log:
            "logs/sensitivity_report.log",
        localrule: True
        threads: 1
        resources:
            mem_mb=2048,
            runtime=10,
        conda:
            "../../environment.yml"
        script:
            "../scripts/sensitivity_report.py"

    # The study's cells packed under their keys (weightboost.pipeline.cell_archive): committed, so that a
    # fresh clone whose config adds a reading or a noise level computes only the new cells. Its
    # UCI cells, and its Reuters cells with their curves but those of the default run, which
    # `make reproduce` always computes.
    DEFAULT_RUN_CELLS = set(REUTERS_CELLS)
    ARCHIVED_CELLS = SENSITIVITY_CELLS + ([
        path for f1, curve in zip(SENSITIVITY_REUTERS_CELLS,
                                  reuters_cells(REUTERS_CURVE, STUDY_REUTERS_ALGORITHMS))
        if f1 not in DEFAULT_RUN_CELLS for path in (f1, curve)] if STUDY_F1 else [])

    rule sensitivity_archive:
        input:
            ARCHIVED_CELLS,
        output:
            f"{RESULTS}/archive/sensitivity.zip",
        log:
            "logs/sensitivity_archive.log",
        localrule: True
        run:
            packed = cell_archive.pack(output[0], input)
            Path(log[0]).write_text(f"{packed} cells packed into {output[0]}\n")

    rule sensitivity:
        input:
            rules.sensitivity_report.output,
            rules.sensitivity_archive.output,
            # the study's tables too: with its page present, Snakemake would not compute a
            # table the page needs and that is missing (e.g. after sensitivity.reuters is set)
            [path for kind in SENSITIVITY_SETS if kind not in STUDY_GIVEN
             for path in set_files(kind).values()],
