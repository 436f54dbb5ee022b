"""The experiment workflow end to end on fixture data through Snakemake (docs/protocol.md §2)."""

import copy
import json
import re

import pandas as pd

from conftest import run_snakemake
from weightboost.experiment.provenance import TABLE_SET_CODE, package_digest


def test_tiny_config_produces_every_table(tiny_run):
    workdir, config = tiny_run
    folds = pd.read_csv(workdir / "results/uci_folds.csv")
    for column in ("dataset", "noise", "algorithm", "repeat", "fold", "n_train", "n_test",
                   "error", "rounds", "fit_seconds"):
        assert column in folds.columns
    assert len(folds) == 3 * 2 * 3 * 2  # datasets x noise levels x algorithms x folds
    assert set(folds.algorithm) == {"C4.5", "AdaBoost", "WeightBoost"}
    assert folds.error.between(0, 1).all() and set(folds.noise) == {0.0, 0.2}
    # every algorithm saw the same folds and the same number of flipped labels
    shape = folds.groupby(["dataset", "noise", "fold"])[["n_train", "n_flipped"]].nunique()
    assert (shape == 1).all().all()
    summary = pd.read_csv(workdir / "results/uci_summary.csv")
    assert len(summary) == 3 * 2 * 3
    f1 = pd.read_csv(workdir / "results/reuters_f1.csv")
    assert set(f1.t_rule) == {"paper", "cv", "best"}
    assert f1[(f1.algorithm == "WeightBoost") & (f1.t_rule == "paper")]["T"].tolist() == [2]
    assert set(f1.columns) >= {"category", "algorithm", "t_rule", "T", "precision", "recall",
                               "f1"}
    curves = pd.read_csv(workdir / "results/reuters_curves.csv")
    assert curves[curves.algorithm == "WeightBoost"]["T"].tolist() == [1, 2, 3]
    assert (workdir / "benchmarks/uci_cell/pima/noise0.2/AdaBoost/rep0.tsv").is_file()


def scheduled(dry_run_output: str) -> dict[str, int]:
    """Job counts from the table Snakemake prints for a dry run."""
    counts = {}
    for line in dry_run_output.splitlines():
        match = re.match(r"^([a-z_]+)\s+(\d+)$", line.strip())
        if match and match.group(1) != "total":
            counts[match.group(1)] = int(match.group(2))
    return counts


def test_adding_a_noise_level_schedules_only_the_new_cells(tiny_run):
    workdir, config = tiny_run
    nothing = run_snakemake(workdir, config, "experiments", "-n")
    assert "Nothing to be done" in nothing.stdout + nothing.stderr
    more = copy.deepcopy(config)
    more["experiment"]["noise_levels"] = [0.0, 0.2, 0.4]
    more["run"] = "more_noise"  # its tables go to results/runs/more_noise/; cells are shared
    result = run_snakemake(workdir, more, "experiments", "-n")
    assert result.returncode == 0, result.stderr[-3000:]
    jobs = scheduled(result.stdout + result.stderr)
    assert jobs.get("uci_cell") == 3 * 3  # the new level only: datasets x algorithms
    assert "fetch_uci" not in jobs and "parse_uci" not in jobs and "reuters_cell" not in jobs
    assert "uci_results" in jobs


def test_adding_an_algorithm_schedules_only_its_cells(tiny_run):
    workdir, config = tiny_run
    more = copy.deepcopy(config)
    more["experiment"]["algorithms"] = ["C4.5", "AdaBoost", "WeightBoost", "EpsilonBoost"]
    more["run"] = "more_algorithms"
    jobs = scheduled("\n".join(run_snakemake(workdir, more, "experiments", "-n")
                               .stdout.splitlines()))
    assert jobs.get("uci_cell") == 3 * 2  # datasets x noise levels


def test_every_cell_carries_the_digest_of_the_code_it_runs(tiny_run):
    # a change of that code changes the param and reruns the cell (the params rerun trigger);
    # the tables' provenance records the same digest
    workdir, _ = tiny_run
    records = [json.loads(p.read_text()) for p in (workdir / ".snakemake/metadata").iterdir()]
    for rule, table_set in (("uci_cell", "uci"), ("reuters_cell", "reuters")):
        digest = package_digest(*TABLE_SET_CODE[table_set])
        cells = [r for r in records if r["rule"] == rule]
        assert cells and all(repr(digest) in r["params"] for r in cells)
        recorded = json.loads((workdir / f"results/{table_set}.provenance.json").read_text())
        assert recorded["code_sha256"] == digest
