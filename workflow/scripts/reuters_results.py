"""Snakemake job: the Reuters cells into results/reuters_f1.csv and results/reuters_curves.csv."""

import pandas as pd

from weightboost.experiment.tables import to_csv_bytes
from weightboost.fileio import write_bytes_atomic
from weightboost.workflow_support import run_step


def main(smk):
    rank_c = {c: i for i, c in enumerate(smk.params.categories)}
    rank_a = {a: i for i, a in enumerate(smk.params.algorithms)}
    rule_order = {"paper": 0, "cv": 1, "best": 2}
    f1 = pd.concat([pd.read_csv(p) for p in smk.input.f1], ignore_index=True)
    f1 = f1.assign(_c=f1.category.map(rank_c), _a=f1.algorithm.map(rank_a),
                   _r=f1.t_rule.map(rule_order)).sort_values(["_c", "_a", "_r"], kind="stable")
    write_bytes_atomic(smk.output.f1, to_csv_bytes(f1.drop(columns=["_c", "_a", "_r"])))
    curves = pd.concat([pd.read_csv(p) for p in smk.input.curves], ignore_index=True)
    curves = curves.assign(_c=curves.category.map(rank_c), _a=curves.algorithm.map(rank_a))
    curves = curves.sort_values(["_c", "_a", "T"], kind="stable").drop(columns=["_c", "_a"])
    write_bytes_atomic(smk.output.curves, to_csv_bytes(curves))


run_step(snakemake, main)  # noqa: F821 - injected by Snakemake
