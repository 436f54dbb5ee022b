"""The experiment workflow end to end on fixture data through Snakemake (docs/protocol.md §2)."""

import copy
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

from conftest import ROOT, recorded_job, recorded_jobs, run_snakemake
from weightboost.pipeline.package_code import PACKAGE, package_digest, package_files
from weightboost.pipeline.provenance import PLUMBING, TABLE_SET_CODE

# a job's command (python -m weightboost.pipeline.warm job ...), then the package's modules it loaded
# and, on the last line, the distributions (weightboost.pipeline.environment) of every module loaded
LOADED = """import json, sys
from pathlib import Path
import weightboost
from weightboost.pipeline import warm
status = warm.main(sys.argv[1:])
root = Path(weightboost.__file__).parent
print(json.dumps([str(Path(m.__file__).relative_to(root)) for name, m in list(sys.modules.items())
                  if name.startswith("weightboost") and getattr(m, "__file__", None)]))
from importlib import metadata
owners = metadata.packages_distributions()
print(json.dumps(sorted({d for name in list(sys.modules)
                         for d in owners.get(name.partition(".")[0], ())})))
sys.exit(status)
"""


def run_loaded(job: str, arguments: dict, cwd) -> tuple[set[str], set[str]]:
    """Run a recorded job in its own process without a warm server (``LOADED``): the package
    modules it loaded (less PLUMBING) and the distributions of every module it imported."""
    from weightboost.pipeline.provenance import PLUMBING

    ran = subprocess.run([sys.executable, "-c", LOADED, "job", job, "-", json.dumps(arguments)],
                         cwd=cwd, capture_output=True, text=True,
                         env={**os.environ, "WEIGHTBOOST_WARM": "off"})
    assert ran.returncode == 0, ran.stderr[-3000:]
    lines = ran.stdout.splitlines()
    return set(json.loads(lines[-2])) - set(PLUMBING), set(json.loads(lines[-1]))


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
    # keyed like its cell (docs/integrity.md, "Cell keys")
    (cell,) = (workdir / "results/cells/uci/pima/noise0.2/AdaBoost").glob("*/rep0.csv")
    key = cell.parent.name
    assert (workdir / f"benchmarks/uci_cell/pima/noise0.2/AdaBoost/{key}/rep0.tsv").is_file()
    record = __import__("json").loads((workdir / "results/uci.provenance.json").read_text())
    cells = len(list((workdir / "results/cells/uci").rglob("*.csv")))
    assert [s["jobs"] for s in record["stages"] if s["stage"] == "uci_cell"] == [cells]


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


def test_an_edit_to_another_studys_config_reruns_nothing_here(tiny_run):
    # a table set's rule reruns when the config keys of its tables change (its table_config
    # param), not on any edit: the Reuters study's inner folds and an unused learner entry
    # leave the UCI tables as they are
    workdir, config = tiny_run
    edited = copy.deepcopy(config)
    edited["reuters_study"]["cv_folds"] = 4
    edited["algorithms"]["AdaBoost-unpruned"] = {"learner": "AdaBoost",
                                                 "params": {"base": {"pruning": False}}}
    dry = run_snakemake(workdir, edited, "uci_results", "-n")
    assert dry.returncode == 0, dry.stderr[-3000:]
    assert "Nothing to be done" in dry.stdout + dry.stderr, dry.stdout[-3000:]


def test_adding_an_algorithm_schedules_only_its_cells(tiny_run):
    workdir, config = tiny_run
    more = copy.deepcopy(config)
    more["experiment"]["algorithms"] = ["C4.5", "AdaBoost", "WeightBoost", "EpsilonBoost"]
    more["run"] = "more_algorithms"
    dry = run_snakemake(workdir, more, "experiments", "-n")
    jobs = scheduled(dry.stdout)
    # datasets x noise levels
    assert jobs.get("uci_cell") == 3 * 2, dry.stdout[-3000:] + dry.stderr[-3000:]


def test_an_edited_learner_entry_gets_new_cells_never_the_old_ones(tiny_run):
    # Snakemake records no callable param: the cells' arguments (a learner's params) were no
    # rerun trigger, and the old cells were read as current. With the key of its code and
    # config in every cell path, the edited entry's cells are new (docs/integrity.md, "Cell keys")
    workdir, config = tiny_run
    edited = copy.deepcopy(config)
    edited["algorithms"]["WeightBoost"]["params"]["beta"] = 0.25
    edited["run"] = "beta025"
    dry = run_snakemake(workdir, edited, "experiments", "-n")
    assert dry.returncode == 0, dry.stderr[-3000:]
    jobs = scheduled(dry.stdout)
    assert jobs.get("uci_cell") == 3 * 2  # WeightBoost's: datasets x noise levels
    assert jobs.get("reuters_cell") == 1  # WeightBoost's on the one category


def test_a_cell_key_holds_the_code_and_every_part():
    from weightboost.pipeline.provenance import computation_key

    parts = ({"seed": 1, "folds": 2, "rounds": 3}, {"learner": "AdaBoost", "params": {}})
    key = computation_key("a" * 64, *parts)
    assert len(key) == 12 and key == computation_key("a" * 64, *parts)
    assert key != computation_key("b" * 64, *parts)  # other code
    assert key != computation_key("a" * 64, parts[0], {"learner": "AdaBoost", "params": {"x": 1}})
    assert key != computation_key("a" * 64, *parts, {"rows": 20})  # another dataset entry


def test_a_cell_key_moves_with_the_software_environment():
    # cells of an upgraded environment never land where the old environment's cells lie
    from weightboost.pipeline import environment
    from weightboost.pipeline.provenance import computation_key

    here = environment.record()
    upgraded = {**here, "scikit-learn": "99.0"}
    assert environment.digest(upgraded) != environment.digest(here)
    assert computation_key("a" * 64, environment.digest(here), {"seed": 1}) != \
        computation_key("a" * 64, environment.digest(upgraded), {"seed": 1})
    assert environment.differences(upgraded) == [f"scikit-learn: 99.0 -> {here['scikit-learn']}"]
    assert set(environment.DISTRIBUTIONS) <= here.keys() and {"python", "c_library"} <= here.keys()


# the parts a cell's key digests after its code and environment, in their order
KEY_PARTS = {"uci_cell": ("protocol", "learner", "data"),
             "sensitivity_cell": ("protocol", "learner", "data"),
             "reuters_cell": ("study", "learner", "data"),
             "regboost_cell": ("protocol", "learner", "data"),
             "regboost_semi_cell": ("protocol", "learner", "data")}


def assert_cell_arguments_are_keyed(workdir, rules) -> int:
    """Every recorded ``rules`` job of the run in ``workdir``: its key recomputed from its
    arguments is the key in its path, and each other argument is one of its input files, an
    output (named ``*output``) or a wildcard's value in its path. Returns the jobs checked."""
    from weightboost.pipeline import environment
    from weightboost.pipeline.provenance import computation_key

    checked = 0
    for path in (workdir / ".snakemake/metadata").iterdir():
        record = json.loads(path.read_text())
        if record["rule"] not in rules:
            continue
        arguments = json.loads(shlex.split(record["shellcmd"])[6])
        cell = next(v for k, v in arguments.items() if k.endswith("output"))
        key = re.search(r"/([0-9a-f]{12})[/.]", cell).group(1)
        parts = KEY_PARTS[record["rule"]]
        assert computation_key(arguments["code"]["sha256"],
                               environment.digest(arguments["environment"]),
                               *(arguments[name] for name in parts)) == key, cell
        below = cell.split("/", 3)[3]  # below results/cells/<set>/
        for name, value in arguments.items():
            if name in (*parts, "code", "environment") or name.endswith("output"):
                continue
            assert value in record["input"] or re.search(
                rf"(?:^|/|-|noise|reps?){re.escape(value)}(?:/|-|\.|$)", below), (name, value)
        checked += 1
    return checked


def test_a_cell_jobs_arguments_are_its_files_its_path_and_what_its_key_digests(tiny_run):
    # an argument passed beside the key (a config value the job reads but the key does not
    # digest) would let a config edit change a cell's numbers under its old key: every
    # argument of every cell job is a file of the job, a wildcard of its path, or a value the
    # key in its path digests, by name; the key recomputed from the arguments is the path's
    workdir, _ = tiny_run
    # 3 datasets x 2 noise levels x 3 learners, and 2 Reuters cells
    assert assert_cell_arguments_are_keyed(workdir, ("uci_cell", "reuters_cell")) >= 18 + 2


def test_a_cell_path_asked_for_with_another_key_is_refused(tmp_path, tiny_config):
    # a cell path typed by hand (or kept from another config) holds a key this config and code
    # do not give that cell: its job would store this config's numbers under that key, so the
    # workflow refuses it as it plans, naming the key and what to ask for instead
    cell = "results/cells/uci/pima/noise0.2/AdaBoost/000000000000/rep0.csv"
    dry = run_snakemake(tmp_path, tiny_config, cell, "-n")
    assert dry.returncode != 0
    assert ("000000000000 is not the key of AdaBoost under this config and code: ask for a "
            "target") in dry.stdout + dry.stderr


def test_a_cell_job_built_without_cell_job_arguments_stops_before_computing(tmp_path, monkeypatch):
    # the one place that builds cell arguments (cell_job_arguments) is what keeps them inside
    # the key, and only it adds the environment and code: a cell job built any other way
    # (a rule with arguments of its own) is refused before it computes or writes anything
    import pytest

    from weightboost.pipeline import environment, warm
    from weightboost.errors import ReproError

    ran = []
    monkeypatch.setattr(warm, "_target", lambda job: lambda **kwargs: ran.append(kwargs))
    output = {"output": str(tmp_path / "cell.csv")}
    code = {"modules": ["c45"], "sha256": package_digest("c45")}
    # every rule that writes cells runs one of these jobs (the workflow's job commands)
    assert warm.CELL_JOBS == {"uci_cell", "sensitivity_cell", "reuters_cell", "regboost_cell",
                              "regboost_semi_cell", "barrier_cell"}
    for job in sorted(warm.CELL_JOBS):
        for missing in (warm.ENVIRONMENT_ARGUMENT, warm.CODE_ARGUMENT):
            given = {warm.ENVIRONMENT_ARGUMENT: environment.record(), warm.CODE_ARGUMENT: code}
            given.pop(missing)
            with pytest.raises(ReproError, match="cell_job_arguments"):
                warm._work(job, {**output, **given})
    assert ran == []
    warm._work("fetch_uci", output)  # a data job is not keyed: it needs neither
    assert ran == [output]


def test_every_cell_carries_the_digest_of_the_code_it_runs(tiny_run):
    # the code argument its job checks the disk against; the key in its path digests the same
    # code, and the tables' provenance records it
    workdir, _ = tiny_run
    records = [json.loads(p.read_text()) for p in (workdir / ".snakemake/metadata").iterdir()]
    for rule, table_set in (("uci_cell", "uci"), ("reuters_cell", "reuters")):
        digest = package_digest(*TABLE_SET_CODE[table_set])
        cells = [r for r in records if r["rule"] == rule]
        assert cells and all(f'"sha256": "{digest}"' in r["shellcmd"] for r in cells)
        recorded = json.loads((workdir / f"results/{table_set}.provenance.json").read_text())
        assert recorded["code_sha256"] == digest


def test_the_code_digest_covers_exactly_the_modules_a_cell_runs(tiny_run, tmp_path):
    # a module a cell loads but the digest leaves out could change a table without rerunning
    # its cells; one it lists but no cell loads would rerun them for nothing
    from weightboost.pipeline import environment
    from weightboost.pipeline.lockfile import normalise

    workdir, _ = tiny_run
    # a booster's cell: a C4.5 cell loads no boosting module (the learners are imported by
    # name), so its digest is a superset, as for every cell of a table set that runs boosters
    for rule, table_set in (("uci_cell", "uci"), ("reuters_cell", "reuters")):
        job, arguments = recorded_job(workdir, rule, algorithm="WeightBoost")
        for key in ("output", "f1_output", "curve_output"):  # not the shared run's files
            if key in arguments:
                arguments[key] = str(tmp_path / f"{rule}-{key}.csv")
        ran = subprocess.run([sys.executable, "-c", LOADED, "job", job, "-",
                              json.dumps(arguments)], cwd=tmp_path, capture_output=True,
                             text=True, env={**os.environ, "WEIGHTBOOST_WARM": "off"})
        assert ran.returncode == 0, ran.stderr[-3000:]
        loaded = set(json.loads(ran.stdout.splitlines()[-2])) - set(PLUMBING)
        listed = {str(p.relative_to(PACKAGE)) for p in package_files(*TABLE_SET_CODE[table_set])}
        # WeightDecayCV's module, which the sensitivity study's weight_decay_cv reading loads
        # (and a user's entry may): listed for every C4.5 table set, loaded by its cells only
        inner_cv = {"boosting/selection.py"}
        assert loaded == listed - inner_cv, (sorted(loaded - listed), sorted(listed - loaded))
        # and its key holds the versions of the distributions that compute its numbers
        # (weightboost.pipeline.environment): one that it loads but neither list names could change a
        # table after an upgrade while every cell kept its key
        distributions = {normalise(d)
                         for d in json.loads(ran.stdout.splitlines()[-1])}
        classified = set(environment.DISTRIBUTIONS) | set(environment.OTHER_DISTRIBUTIONS)
        assert distributions <= classified, sorted(distributions - classified)
        assert {"numpy", "scikit-learn", "numba"} <= distributions


def test_a_table_sets_record_names_the_code_and_environment_its_cells_were_computed_with(
        tiny_run):
    # every cell job of a set got one code and one environment, and the set's record (which the
    # report prints, and which a rebuilt table is checked against) names those: a record written
    # from another module list or environment than the jobs' would describe other numbers
    from weightboost.pipeline.warm import CODE_ARGUMENT, ENVIRONMENT_ARGUMENT

    workdir, _ = tiny_run
    for rule, table_set in (("uci_cell", "uci"), ("reuters_cell", "reuters")):
        given = [arguments for _, arguments in recorded_jobs(workdir, rule)]
        assert len(given) > 1
        codes = {json.dumps(a[CODE_ARGUMENT], sort_keys=True) for a in given}
        environments = {json.dumps(a[ENVIRONMENT_ARGUMENT], sort_keys=True) for a in given}
        assert len(codes) == len(environments) == 1, (codes, environments)
        record = json.loads((workdir / f"results/{table_set}.provenance.json").read_text())
        assert record["code_sha256"] == json.loads(codes.pop())["sha256"]
        assert record["environment"] == json.loads(environments.pop())


def test_a_cell_job_in_another_environment_stops_and_writes_nothing(tiny_run, tmp_path):
    # the workflow keyed the cell for the environment it passes; a job that runs elsewhere
    # (a cluster node, a venv replaced under a running Snakemake) would store other numbers
    # under that key
    from weightboost.pipeline.warm import ENVIRONMENT_ARGUMENT

    workdir, _ = tiny_run
    job, arguments = recorded_job(workdir, "uci_cell", algorithm="AdaBoost")
    arguments["output"] = str(tmp_path / "cell.csv")
    arguments[ENVIRONMENT_ARGUMENT] = {**arguments[ENVIRONMENT_ARGUMENT], "numpy": "0.0.1"}
    ran = subprocess.run([sys.executable, "-m", "weightboost.pipeline.warm", "job", job, "-",
                          json.dumps(arguments)], cwd=tmp_path, capture_output=True, text=True,
                         env={**os.environ, "WEIGHTBOOST_WARM": "off"})
    assert ran.returncode == 1
    assert "another environment" in ran.stderr and "numpy: 0.0.1 ->" in ran.stderr
    assert not (tmp_path / "cell.csv").exists()


def test_a_cell_job_whose_code_changed_on_disk_stops_and_writes_nothing(tiny_run, tmp_path):
    # a job that imports the package itself (no warm server, a SLURM job) after an edit under
    # src/ would run the new code and store its numbers under the old code's key
    from weightboost.pipeline.warm import CODE_ARGUMENT

    workdir, _ = tiny_run
    job, arguments = recorded_job(workdir, "uci_cell", algorithm="AdaBoost")
    arguments["output"] = str(tmp_path / "cell.csv")
    arguments[CODE_ARGUMENT] = {**arguments[CODE_ARGUMENT], "sha256": "0" * 64}
    ran = subprocess.run([sys.executable, "-m", "weightboost.pipeline.warm", "job", job, "-",
                          json.dumps(arguments)], cwd=tmp_path, capture_output=True, text=True,
                         env={**os.environ, "WEIGHTBOOST_WARM": "off"})
    assert ran.returncode == 1
    assert "changed on disk" in ran.stderr and "000000000000 ->" in ran.stderr, ran.stderr
    assert not (tmp_path / "cell.csv").exists()


def test_code_edited_while_a_cell_job_runs_fails_the_job(tmp_path, monkeypatch):
    # the job may have imported either code: it fails after computing, and Snakemake removes
    # the outputs of a failed job
    import pytest

    from weightboost.pipeline import environment, package_code, warm
    from weightboost.pipeline.workflow_support import CodeChangedError

    digests = iter(["a" * 64, "b" * 64])
    monkeypatch.setattr(package_code, "code_digest", lambda files: next(digests))
    ran = []
    monkeypatch.setattr(warm, "_target", lambda job: lambda **kwargs: ran.append(kwargs))
    code = {"modules": ["c45"], "sha256": "a" * 64}
    with pytest.raises(CodeChangedError, match="a{12} -> b{12}"):
        warm._work("uci_cell", {"output": str(tmp_path / "cell.csv"),
                                warm.CODE_ARGUMENT: code,
                                warm.ENVIRONMENT_ARGUMENT: environment.record()})
    assert ran == [{"output": str(tmp_path / "cell.csv")}]  # computed once, then refused


def checkout_and_run(tiny_run, tmp_path):
    """A copy of the workflow (its Snakefile) and of the tiny run's directory, the outputs'
    times kept, so that a test may edit the one and run in the other."""
    workdir, _ = tiny_run
    checkout, run = tmp_path / "checkout", tmp_path / "run"
    checkout.mkdir()
    for part in ("Snakefile", "workflow", "profiles", "config", "learners", "requirements.lock",
                 "environment.yml"):
        source = ROOT / part
        (shutil.copytree if source.is_dir() else shutil.copy2)(source, checkout / part)
    shutil.copytree(workdir, run, symlinks=True)  # copy2 keeps the outputs' times
    return checkout / "Snakefile", run


def edit_script(snakefile, name):
    with open(snakefile.parent / "workflow" / "scripts" / name, "a") as script:
        script.write("# edited\n")


def edit_parser(snakefile):
    """What an edit of the UCI parser's code does to its rule: a new code digest param."""
    rules = snakefile.parent / "workflow" / "rules" / "data.smk"
    digest = 'package_digest(*DATA_JOB_CODE["parse_uci"])'
    assert digest in rules.read_text()
    rules.write_text(rules.read_text().replace(digest, digest + ' + "-edited"'))


def test_a_script_rewritten_alike_reruns_nothing_and_an_edited_one_its_rule(tiny_run, tmp_path):
    # Snakemake's `code` trigger judged a script rule by the script file's time: a checkout or
    # `git pull` that rewrote the scripts (same content, new time) replanned the data rules and,
    # through their outputs' new times, every cell. A copy of the workflow whose scripts are
    # newer than the tiny run's outputs must plan nothing; an edit of one script its rule only.
    _, config = tiny_run
    snakefile, run = checkout_and_run(tiny_run, tmp_path)
    later = time.time() + 60
    for script in (snakefile.parent / "workflow" / "scripts").glob("*.py"):
        os.utime(script, (later, later))
    dry = run_snakemake(run, config, "experiments", "-n", snakefile=snakefile)
    assert dry.returncode == 0, dry.stderr[-3000:]
    assert "Nothing to be done" in dry.stdout + dry.stderr, scheduled(dry.stdout)
    edit_script(snakefile, "uci_results.py")
    dry = run_snakemake(run, config, "experiments", "-n", snakefile=snakefile)
    assert scheduled(dry.stdout) == {"uci_results": 1, "experiments": 1}, dry.stdout[-3000:]


def test_a_pinned_table_parsed_again_alike_reruns_no_cell(tiny_run, tmp_path):
    # an edited parser reruns the parse jobs, which write the same pinned tables (another
    # table would fail its pin): Snakemake reran every cell below them, hours of the
    # sensitivity study for the same numbers. A cell is keyed by its table's pin and reads a
    # pinned table as `ancient`: the parse jobs and the aggregation run, no cell. An unpinned
    # table (a user's new dataset) binds no key and keeps Snakemake's rule
    _, config = tiny_run
    snakefile, run = checkout_and_run(tiny_run, tmp_path)
    edit_parser(snakefile)
    dry = run_snakemake(run, config, "experiments", "-n", snakefile=snakefile)
    jobs = scheduled(dry.stdout)
    assert jobs.get("parse_uci") == 3 and "uci_results" in jobs, dry.stdout[-3000:]
    assert "uci_cell" not in jobs, jobs
    unpinned = copy.deepcopy(config)
    unpinned["datasets"]["pima"]["table_sha256"] = None
    unpinned["run"] = "unpinned"
    done = run_snakemake(run, unpinned, "experiments", snakefile=snakefile)
    assert done.returncode == 0, done.stderr[-3000:]
    edit_parser(snakefile)
    dry = run_snakemake(run, unpinned, "experiments", "-n", snakefile=snakefile)
    assert scheduled(dry.stdout).get("uci_cell") == 2 * 3, dry.stdout[-3000:]  # pima's
