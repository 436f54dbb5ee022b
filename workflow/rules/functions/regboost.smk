# The RegBoost study's plan and cells: their paths, keys and job arguments (the rules:
# workflow/rules/regboost.smk).
import pandas as pd

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
        REGBOOST_CELL.format(dataset=job["dataset"], noise=noise_wildcard(job["noise"]),
                             fold_order=job["fold_order"], missing=job["missing"],
                             algorithm=job["cell"], repeats=job["repeats"],
                             key=regboost_key(job["dataset"], job["cell"], regboost_protocol()))
        for job in REGBOOST_JOBS]
    REGBOOST_SEMI_CELLS = [
        REGBOOST_SEMI.format(dataset=SEMI["dataset"], algorithm=a,
                             key=regboost_key(SEMI["dataset"], a, semi_protocol()))
        for a in SEMI.get("algorithms", [])]

    def regboost_cell_arguments(wildcards, input, output):
        """The job arguments of a cell (weightboost.experiment.regboost_cells.regboost_cell)."""
        uci_spec(wildcards)
        return cell_job_arguments(
            "regboost", wildcards, input, output,
            regboost_parts(wildcards.dataset, wildcards.algorithm, regboost_protocol()))

    def regboost_semi_arguments(wildcards, input, output):
        """The job arguments of a semi-supervised cell (its protocol holds its draws)."""
        uci_spec(wildcards)
        return cell_job_arguments(
            "regboost", wildcards, input, output,
            regboost_parts(wildcards.dataset, wildcards.algorithm, semi_protocol()))

    regboost_report_tables = report_inputs(("regboost",))
    regboost_table_digests = given_digests(("regboost",))
