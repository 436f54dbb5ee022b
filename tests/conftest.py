"""Shared fixtures: project paths, the real and the fixture mirror, a loopback HTTP server and a
helper that runs the real Snakemake workflow in a temporary directory."""

from __future__ import annotations

import copy
import fcntl
import hashlib
import http.server
import json
import os
import shlex
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import yaml

import warm_snakemake
from weightboost.pipeline.config import load_config

ROOT = Path(__file__).resolve().parents[1]
# the project's learners outside the package (MadaBoost), on the path as the workflow puts them
# (workflow/rules/common.smk), for the config's checks in the tests' own processes
sys.path.insert(0, str(ROOT / "learners"))
FIXTURES = ROOT / "tests" / "fixtures"
FIXTURE_MIRROR = FIXTURES / "mirror"
CLOSED_URL = "http://127.0.0.1:9"  # discard port: connection refused at once, never the internet
# the hand-made SGML fixture (tests/fixtures/make_fixtures.py, REUTERS_DOCS), counted by hand
FIXTURE_REUTERS_EXPECTED = {"modapte_train": 7, "modapte_test": 3, "n_train": 5, "n_test": 2,
                            "n_categories": 3,
                            "top_categories": {"earn": [3, 1], "grain": [2, 1], "corn": [1, 1]}}


def real_mirror() -> Path | None:
    """The full data mirror: $REPRO_MIRROR, else ../shared/data-mirror beside the repo."""
    candidates = [os.environ.get("REPRO_MIRROR"), ROOT.parent / "shared" / "data-mirror"]
    for candidate in candidates:
        if candidate and Path(candidate, "MANIFEST.tsv").is_file():
            return Path(candidate)
    return None


def pytest_sessionstart(session):
    """Compile the C4.5 kernels (numba, cached on disk) once, before pytest-xdist starts the
    suite's processes (`make test`): on a fresh clone every one of them, and every job process
    of the workflow tests, would otherwise compile them at the same time. A run in one process
    compiles them when a test first needs them, as before."""
    starts_workers = getattr(session.config.option, "numprocesses", None)
    if starts_workers and os.environ.get("PYTEST_XDIST_WORKER") is None:
        from weightboost.pipeline.warm_kernels import warm_up

        warm_up()


def pytest_collection_modifyitems(config, items):
    """The files holding a `slow` or `cluster` test first, each file's tests in their order:
    `make test` gives each file to one process (pytest-xdist), and a long file started last
    would run alone at the end."""
    heavy = {item.path for item in items
             if item.get_closest_marker("slow") or item.get_closest_marker("cluster")}
    items.sort(key=lambda item: item.path not in heavy)


@pytest.fixture(scope="session")
def main_config() -> dict:
    return load_config(ROOT / "config" / "config.yaml")


@pytest.fixture
def mirror_dir() -> Path:
    path = real_mirror()
    if path is None:
        pytest.skip("real data mirror not found (set REPRO_MIRROR or put shared/ beside the repo)")
    return path


@pytest.fixture
def fixture_config(main_config) -> dict:
    return make_fixture_config(main_config)


def make_fixture_config(main_config: dict) -> dict:
    """The project's own dataset specs, restricted to the fixture datasets and re-pinned to
    the fixture files; every network source points at a closed loopback port."""
    pins = yaml.safe_load((FIXTURE_MIRROR / "PINS.yaml").read_text())
    reuters = pins.pop("reuters")
    config = copy.deepcopy(main_config)
    config["datasets"] = {name: {**config["datasets"][name], **pins[name]} for name in pins}
    config["experiment"]["datasets"] = sorted(pins)
    config["reuters"] = {**config["reuters"], "sgml": reuters["sgml"],
                         "stopwords": {**config["reuters"]["stopwords"],
                                       "sha256": reuters["stopwords"]},
                         "remotes": [{"url": CLOSED_URL + "/reuters21578.tar.gz"}],
                         "nltk_package": {**config["reuters"]["nltk_package"],
                                          "sha256": reuters["nltk_package"],
                                          "remotes": [{"url": CLOSED_URL + "/reuters.zip"}]},
                         "exclude_newids": [],
                         "expected": FIXTURE_REUTERS_EXPECTED}
    config.pop("regboost", None)  # its sets include sonar; tests of the study set their own
    config.pop("barrier", None)   # its generated set is not a fixture; its tests set their own
    config["mirror"] = str(FIXTURE_MIRROR)
    config["download"] = {**config.get("download", {}), "uci_legacy_url": CLOSED_URL,
                          "uci_archive_url": CLOSED_URL, "attempts": 1,
                          "backoff_seconds": 0.0, "timeout_seconds": 5,
                          "sources": ["mirror", "uci"]}
    return config


@pytest.fixture
def no_env_mirror(monkeypatch):
    """CI exports REPRO_MIRROR; tests that choose their own mirror must not inherit it."""
    monkeypatch.delenv("REPRO_MIRROR", raising=False)


class Route:
    """What the test server answers for one path: a list of (status, body, headers) replies,
    used in turn (the last one repeats)."""

    def __init__(self, replies):
        self.replies = list(replies)
        self.hits = 0

    def next(self):
        reply = self.replies[min(self.hits, len(self.replies) - 1)]
        self.hits += 1
        return reply


class LoopbackServer:
    def __init__(self):
        self.routes: dict[str, Route] = {}
        routes = self.routes

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - http.server API
                route = routes.get(self.path)
                status, body, headers = route.next() if route else (404, b"not found", {})
                self.send_response(status)
                headers = {"Content-Length": str(len(body)), **headers}
                for key, value in headers.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def serve(self, path: str, *replies):
        """Register replies for ``path``: bytes (200) or (status, body[, headers]) tuples."""
        normalised = []
        for reply in replies:
            if isinstance(reply, bytes):
                reply = (200, reply, {})
            elif len(reply) == 2:
                reply = (*reply, {})
            normalised.append(reply)
        self.routes[path] = Route(normalised)
        return self.routes[path]


@pytest.fixture
def http_server():
    server = LoopbackServer()
    server.thread.start()
    yield server
    server.httpd.shutdown()
    server.httpd.server_close()


def make_tiny_config(main_config: dict) -> dict:
    """Three small datasets, two noise levels, three learners, 2 folds, 3 rounds; one Reuters
    category: a whole workflow in about a minute."""
    config = make_fixture_config(main_config)
    names = ["ionosphere", "pima", "breast_cancer"]
    config["datasets"] = {n: config["datasets"][n] for n in names}
    config["download"] = {**config["download"], "sources": ["mirror"]}
    config["experiment"] = {**config["experiment"], "datasets": names, "folds": 2,
                            "rounds": 3, "noise_levels": [0.0, 0.2],
                            "algorithms": ["C4.5", "AdaBoost", "WeightBoost"]}
    config["reuters_study"] = {**config["reuters_study"], "categories": ["earn"],
                               "algorithms": ["C4.5", "WeightBoost"], "rounds": 3,
                               "cv_folds": 2, "paper_rounds": {"WeightBoost": 2}}
    return config


@pytest.fixture(scope="session")
def tiny_config(main_config) -> dict:
    return make_tiny_config(main_config)


@pytest.fixture(scope="session")
def tiny_run(tmp_path_factory, tiny_config):
    """One finished run of the tiny config, shared by every module (read it, do not change it):
    the reference that other runs of the same config are compared with. Under pytest-xdist
    (`make test`) the first process that needs it runs it, in the session's directory above the
    processes' own, and the others wait for it and read it."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent
    workdir, done = shared / "tiny-run", shared / "tiny-run.done"
    with open(shared / "tiny-run.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        if not done.exists():
            shutil.rmtree(workdir, ignore_errors=True)  # what a failed attempt left
            result = run_snakemake(workdir, tiny_config, "experiments")
            assert result.returncode == 0, result.stderr[-4000:]
            done.touch()
    return workdir, tiny_config


_WARM = warm_snakemake.WarmSnakemake()


def run_snakemake(workdir: Path, config: dict, *args: str, env: dict | None = None,
                  timeout: float = 600, snakefile: Path = ROOT / "Snakefile"):
    """Run the project's Snakefile (or a copy's, ``snakefile``) in ``workdir`` with ``config``
    on 2 cores (under an executor: at most 2 per grouped submission); return the
    CompletedProcess."""
    workdir.mkdir(parents=True, exist_ok=True)
    # named by content: tests that run in one shared directory (the tiny run's) from two
    # processes (`pytest -n 2` without --dist loadfile) must not overwrite each other's config
    text = yaml.safe_dump(config, sort_keys=False)
    config_path = workdir / f"test-config-{hashlib.sha256(text.encode()).hexdigest()[:12]}.yaml"
    config_path.write_text(text)
    run_env = {k: v for k, v in os.environ.items() if k != "REPRO_MIRROR"}
    run_env.update(env or {})
    argv = ["--snakefile", str(snakefile), "--directory", str(workdir), "--configfile",
            str(config_path), "--cores", "2", "--nolock", *args]
    if warm_snakemake.usable():  # the same run without Snakemake's 2 s of imports
        return _WARM.run(argv, Path.cwd(), run_env, timeout)
    return subprocess.run([sys.executable, "-m", "snakemake", *argv], capture_output=True,
                          text=True, env=run_env, timeout=timeout)


def recorded_jobs(workdir: Path, rule: str):
    """The job name and keyword arguments of every ``rule`` job of the finished run in
    ``workdir``, from the commands Snakemake recorded (``python -m weightboost.pipeline.warm job
    NAME LOG ARGUMENTS``), with the paths of files that exist made absolute."""
    for path in sorted((workdir / ".snakemake" / "metadata").iterdir()):
        record = json.loads(path.read_text())
        if record["rule"] == rule:
            command = shlex.split(record["shellcmd"])
            assert command[1:4] == ["-m", "weightboost.pipeline.warm", "job"], command
            yield command[4], {key: str(workdir / value) if isinstance(value, str)
                               and (workdir / value).is_file() else value
                               for key, value in json.loads(command[6]).items()}


def recorded_job(workdir: Path, rule: str, **where) -> tuple[str, dict]:
    """The first ``rule`` job of the finished run in ``workdir`` whose arguments include
    ``where`` (``recorded_jobs``). Its outputs are the run's own files: point them elsewhere
    before running it."""
    for job, arguments in recorded_jobs(workdir, rule):
        if all(arguments.get(k) == v for k, v in where.items()):
            return job, arguments
    raise AssertionError(f"no {rule} job {where or ''} recorded in {workdir}")
