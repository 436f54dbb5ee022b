# The RegBoost study (Wang & Kegl 2004; config `regboost`, docs/protocol.md §5; target
# `regboost`, part of `all`): one job per cell (dataset, noise level, fold order, missing rule,
# learner cell) over its repeats, one per semi-supervised algorithm over its draws; then the
# study's tables under results/regboost/ and the report page reports/regboost.{md,html}.
import pandas as pd

from weightboost.experiment import regboost as regboost_study

REGBOOST_CELL = ("results/cells/regboost/{dataset}/noise{noise}/{fold_order}-{missing}/"
                 "{algorithm}/reps{repeats}")
REGBOOST_SEMI = "results/cells/regboost/semi/{dataset}/{algorithm}"
REGBOOST_TABLES = {name: f"{RESULTS}/regboost/{name}.csv"
                   for name in ("folds", "summary", "curves", "semi_supervised")}
REGBOOST_REFERENCE = str(Path(workflow.basedir) / "config" / "reference" /
                         "wang_kegl2004_table1.yaml")

if config.get("regboost"):
    REGBOOST = regboost_study.study_section(config)
    REGBOOST_PLAN = pd.DataFrame(remembered(
        "regboost-plan", config, lambda: regboost_study.plan(config).to_dict("records")),
        columns=regboost_study.PLAN_COLUMNS)
    REGBOOST_CELLS = [
        REGBOOST_CELL.format(dataset=job.dataset, noise=format(job.noise, "g"),
                             fold_order=job.fold_order, missing=job.missing,
                             algorithm=job.cell, repeats=job.repeats)
        for job in regboost_study.cell_jobs(REGBOOST_PLAN).itertuples(index=False)]
    SEMI = REGBOOST.get("semi_supervised") or {}
    REGBOOST_SEMI_CELLS = [REGBOOST_SEMI.format(dataset=SEMI["dataset"], algorithm=a)
                           for a in SEMI.get("algorithms", [])]

    def regboost_protocol():
        """What every cell of the study depends on (not its lists of datasets and readings)."""
        return {"seed": EXPERIMENT["seed"], "folds": REGBOOST["folds"],
                "rounds": REGBOOST["rounds"]}

    def regboost_cell_arguments(wildcards, input, output):
        return job_arguments(table=input.table, dataset=wildcards.dataset,
                             noise=wildcards.noise, cell=wildcards.algorithm,
                             spec=algorithm_spec(wildcards), fold_order=wildcards.fold_order,
                             missing=wildcards.missing, repeats=int(wildcards.repeats),
                             protocol=regboost_protocol(), pinned=table_pin(wildcards),
                             output=output.cell, curve_output=output.curve)

    def regboost_semi_arguments(wildcards, input, output):
        return job_arguments(table=input.table, dataset=wildcards.dataset,
                             algorithm=wildcards.algorithm, spec=algorithm_spec(wildcards),
                             draws=SEMI["draws"], labelled=SEMI["labelled"],
                             protocol=regboost_protocol(), pinned=table_pin(wildcards),
                             output=output.cell, curve_output=output.curve)

    rule regboost_cell:
        input:
            unpack(experiment_table),
        output:
            cell=f"{REGBOOST_CELL}.csv",
            curve=f"{REGBOOST_CELL}.curve.csv",
        params:
            code_sha256=package_digest(*TABLE_SET_CODE["regboost"]),
            arguments=regboost_cell_arguments,
        log:
            "logs/regboost_cell/{dataset}/noise{noise}/{fold_order}-{missing}/{algorithm}/reps{repeats}.log",
        benchmark:
            "benchmarks/regboost_cell/{dataset}/noise{noise}/{fold_order}-{missing}/{algorithm}/reps{repeats}.tsv"
        wildcard_constraints:
            fold_order="[a-z_]+",
            missing="[a-z]+",
            repeats="[0-9]+",
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
            code_sha256=package_digest(*TABLE_SET_CODE["regboost"]),
            arguments=regboost_semi_arguments,
            semi={k: SEMI[k] for k in ("labelled", "draws")},
        log:
            "logs/regboost_semi_cell/{dataset}/{algorithm}.log",
        benchmark:
            "benchmarks/regboost_semi_cell/{dataset}/{algorithm}.tsv"
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
            plan=REGBOOST_PLAN.to_dict("records"),
            config=config,
            code_sha256=package_digest(*TABLE_SET_CODE["regboost"]),
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

    def regboost_report_tables(wildcards):
        """The study's tables, once they are known to match the config and their record; read
        as given (not inputs) when only the report is asked for and they all exist."""
        verify_table_set("regboost", wildcards)
        if report_only() and all(Path(p).exists() for p in REGBOOST_TABLES.values()):
            return {}
        return REGBOOST_TABLES

    def regboost_table_digests(wildcards):
        """The SHA-256 of tables read as given (a params trigger, as report_table_digests)."""
        return {name: sha256_file(path) for name, path in REGBOOST_TABLES.items()
                if Path(path).exists()} if not regboost_report_tables(wildcards) else {}

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
