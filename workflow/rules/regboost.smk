# The RegBoost study (Wang & Kegl 2004; config `regboost`, docs/protocol.md §5; target
# `regboost`, part of `all`): one job per cell (dataset, noise level, fold order, missing rule,
# learner cell) over its repeats, one per semi-supervised algorithm over its draws; then the
# study's tables under results/regboost/ and the report page reports/regboost.{md,html}.
import pandas as pd

from weightboost.experiment import regboost as regboost_study

# A cell's path holds `key`, the digest of everything its numbers depend on besides its other
# wildcards and the code (whose digest is the rules' code_sha256 param): the protocol and the
# learner's config entry. Snakemake records no callable param, so a cell computed under another
# config (a named run's, an edited entry's) must never sit at the path this config reads.
REGBOOST_CELL = ("results/cells/regboost/{dataset}/noise{noise}/{fold_order}-{missing}/"
                 "{algorithm}/{key}/reps{repeats}")
REGBOOST_SEMI = "results/cells/regboost/semi/{dataset}/{algorithm}/{key}"
REGBOOST_TABLES = {name: f"{RESULTS}/regboost/{name}.csv"
                   for name in ("folds", "summary", "curves", "semi_supervised")}
REGBOOST_REFERENCE = str(Path(workflow.basedir) / "config" / "reference" /
                         "wang_kegl2004_table1.yaml")

if config.get("regboost"):
    REGBOOST = regboost_study.study_section(config)
    REGBOOST_PLAN = pd.DataFrame(remembered(
        "regboost-plan", config, lambda: regboost_study.plan(config).to_dict("records")),
        columns=regboost_study.PLAN_COLUMNS)
    SEMI = REGBOOST.get("semi_supervised") or {}

    def regboost_protocol():
        """What every cell of the study depends on (not its lists of datasets and readings)."""
        return {"seed": EXPERIMENT["seed"], "folds": REGBOOST["folds"],
                "rounds": REGBOOST["rounds"]}

    def semi_protocol():
        return {**regboost_protocol(), "labelled": SEMI["labelled"], "draws": SEMI["draws"]}

    def cell_spec(algorithm):
        try:
            return resolve_spec(config["algorithms"], algorithm)
        except ReproError as exc:
            raise WorkflowError(str(exc))

    REGBOOST_JOBS = regboost_study.cell_jobs(REGBOOST_PLAN).to_dict("records")
    REGBOOST_CELLS = [
        REGBOOST_CELL.format(dataset=job["dataset"], noise=format(job["noise"], "g"),
                             fold_order=job["fold_order"], missing=job["missing"],
                             algorithm=job["cell"], repeats=job["repeats"],
                             key=regboost_study.computation_key(regboost_protocol(),
                                                                cell_spec(job["cell"])))
        for job in REGBOOST_JOBS]
    REGBOOST_SEMI_CELLS = [
        REGBOOST_SEMI.format(dataset=SEMI["dataset"], algorithm=a,
                             key=regboost_study.computation_key(semi_protocol(), cell_spec(a)))
        for a in SEMI.get("algorithms", [])]

    def keyed_spec(wildcards, protocol):
        """The learner entry of a cell, once its path's key is this config's."""
        spec = algorithm_spec(wildcards)
        if wildcards.key != regboost_study.computation_key(protocol, spec):
            raise WorkflowError(f"{wildcards.key} is not the key of {wildcards.algorithm} under "
                                "this config: ask for the study's target, not a cell path")
        return spec

    def regboost_cell_arguments(wildcards, input, output):
        return job_arguments(table=input.table, dataset=wildcards.dataset,
                             noise=wildcards.noise, cell=wildcards.algorithm,
                             spec=keyed_spec(wildcards, regboost_protocol()),
                             fold_order=wildcards.fold_order,
                             missing=wildcards.missing, repeats=int(wildcards.repeats),
                             protocol=regboost_protocol(), pinned=table_pin(wildcards),
                             output=output.cell, curve_output=output.curve)

    def regboost_semi_arguments(wildcards, input, output):
        return job_arguments(table=input.table, dataset=wildcards.dataset,
                             algorithm=wildcards.algorithm,
                             spec=keyed_spec(wildcards, semi_protocol()),
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
            "logs/regboost_cell/{dataset}/noise{noise}/{fold_order}-{missing}/{algorithm}/{key}/reps{repeats}.log",
        benchmark:
            "benchmarks/regboost_cell/{dataset}/noise{noise}/{fold_order}-{missing}/{algorithm}/{key}/reps{repeats}.tsv"
        wildcard_constraints:
            fold_order="[a-z_]+",
            missing="[a-z]+",
            key="[0-9a-f]{12}",
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
        log:
            "logs/regboost_semi_cell/{dataset}/{algorithm}/{key}.log",
        benchmark:
            "benchmarks/regboost_semi_cell/{dataset}/{algorithm}/{key}.tsv"
        wildcard_constraints:
            key="[0-9a-f]{12}",
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
            jobs=REGBOOST_JOBS,
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
