# The RegBoost study (Wang & Kegl 2004; config `regboost`, docs/protocol.md §5; target
# `regboost`, part of `all`): one job per cell (dataset, noise level, fold order, missing rule,
# learner cell) over its repeats, one per semi-supervised algorithm over its draws; then the
# study's tables under results/regboost/ and the report page reports/regboost.{md,html}.
from weightboost.experiment import regboost as regboost_study

REGBOOST_CELL = ("results/cells/regboost/{dataset}/noise{noise}/{fold_order}-{missing}/"
                 "{algorithm}/{key}/reps{repeats}")
REGBOOST_SEMI = "results/cells/regboost/semi/{dataset}/{algorithm}/{key}"
REGBOOST_TABLES = {name: path for name, path in set_files("regboost").items()
                   if name != "regboost_provenance"}
REGBOOST_REFERENCE = str(Path(workflow.basedir) / WANG_KEGL2004)

if config.get("regboost"):
    REGBOOST = regboost_study.study_section(config)
    REGBOOST_PLAN = pd.DataFrame(regboost_study.plan(config).to_dict("records"),
                                 columns=regboost_study.PLAN_COLUMNS)
    SEMI = REGBOOST.get("semi_supervised") or {}

    def regboost_protocol():
        """What every cell of the study depends on (not its lists of datasets and readings)."""
        return {"seed": EXPERIMENT["seed"], "folds": REGBOOST["folds"],
                "rounds": REGBOOST["rounds"]}

    def semi_protocol():
        return {**regboost_protocol(), "labelled": SEMI["labelled"], "draws": SEMI["draws"]}

    def regboost_parts(dataset, cell, protocol):
        """What a RegBoost cell's numbers depend on besides its path's wildcards."""
        return {"protocol": protocol, "learner": learner_spec(cell),
                "data": data_content(dataset)}

    def regboost_key(dataset, cell, protocol):
        return cell_key("regboost", regboost_parts(dataset, cell, protocol))

    REGBOOST_JOBS = regboost_study.cell_jobs(REGBOOST_PLAN).to_dict("records")
    REGBOOST_CELLS = [
        REGBOOST_CELL.format(dataset=job["dataset"], noise=noise_name(job["noise"]),
                             fold_order=job["fold_order"], missing=job["missing"],
                             algorithm=job["cell"], repeats=job["repeats"],
                             key=regboost_key(job["dataset"], job["cell"], regboost_protocol()))
        for job in REGBOOST_JOBS]
    REGBOOST_SEMI_CELLS = [
        REGBOOST_SEMI.format(dataset=SEMI["dataset"], algorithm=a,
                             key=regboost_key(SEMI["dataset"], a, semi_protocol()))
        for a in SEMI.get("algorithms", [])]

    REGBOOST_KEYED = {"spec": ("learner",), "protocol": ("protocol",),
                      "pinned": ("data", "table_sha256?")}

    def regboost_cell_arguments(wildcards, input, output):
        uci_spec(wildcards)
        return cell_job_arguments(
            "regboost", wildcards, input, output,
            regboost_parts(wildcards.dataset, wildcards.algorithm, regboost_protocol()),
            REGBOOST_KEYED,
            files={"table": input.table, "output": output.cell, "curve_output": output.curve},
            from_path={"dataset": "dataset", "noise": "noise", "cell": "algorithm",
                       "fold_order": "fold_order", "missing": "missing",
                       "repeats": ("repeats", int)})

    def regboost_semi_arguments(wildcards, input, output):
        uci_spec(wildcards)
        return cell_job_arguments(
            "regboost", wildcards, input, output,
            regboost_parts(wildcards.dataset, wildcards.algorithm, semi_protocol()),
            {**REGBOOST_KEYED, "draws": ("protocol", "draws"),
             "labelled": ("protocol", "labelled")},
            files={"table": input.table, "output": output.cell, "curve_output": output.curve},
            from_path={"dataset": "dataset", "algorithm": "algorithm"})

    regboost_report_tables = report_inputs(("regboost",))
    regboost_table_digests = given_digests(("regboost",))


if config.get("regboost"):

    rule regboost_cell:
        input:
            unpack(study_table("regboost.folds", REGBOOST["folds"])),
        output:
            cell=f"{REGBOOST_CELL}.csv",
            curve=f"{REGBOOST_CELL}.curve.csv",
        params:
            arguments=regboost_cell_arguments,
        log:
            "logs/regboost_cell/{dataset}/noise{noise}/{fold_order}-{missing}/{algorithm}/{key}/reps{repeats}.log",
        benchmark:
            "benchmarks/regboost_cell/{dataset}/noise{noise}/{fold_order}-{missing}/{algorithm}/{key}/reps{repeats}.tsv"
        wildcard_constraints:
            fold_order="[a-z_]+",
            missing="[a-z]+",
            key=KEY,
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
            cell=f"{REGBOOST_SEMI}.csv",
            curve=f"{REGBOOST_SEMI}.curve.csv",
        params:
            arguments=regboost_semi_arguments,
        log:
            "logs/regboost_semi_cell/{dataset}/{algorithm}/{key}.log",
        benchmark:
            "benchmarks/regboost_semi_cell/{dataset}/{algorithm}/{key}.tsv"
        wildcard_constraints:
            key=KEY,
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
            config=config,
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
