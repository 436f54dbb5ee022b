"""Warm workers (weightboost.pipeline.warm): a job done by a child of the run's server writes what the job
writes in its own process, fails as it fails there, dies with its job process, and the server
leaves with its Snakemake run."""

import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from contextlib import redirect_stderr
from pathlib import Path

import pandas as pd
import pytest

from conftest import recorded_job
from weightboost.pipeline import environment, stuck_server, warm, warm_kernels
from weightboost.pipeline.provenance import TABLE_SET_CODE, package_digest
from weightboost.pipeline.workflow_support import job_resources, job_status

pytestmark = pytest.mark.skipif(not warm.AVAILABLE, reason="needs Linux abstract sockets")

TIMING = ["fit_seconds", "predict_seconds"]


def answering(name: str, timeout: float = 60) -> bool:
    """Whether the server ``name`` accepts connections (waiting up to ``timeout`` s)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            try:
                probe.connect("\0" + name)
                return True
            except OSError:
                time.sleep(0.1)
    return False


@pytest.fixture
def server(tmp_path, monkeypatch):
    monkeypatch.delenv(warm.ENV, raising=False)
    monkeypatch.delenv(warm.LOG_ENV, raising=False)
    name = warm.start(tmp_path)
    assert name and answering(name)
    yield name
    warm.stop()


def cell_kwargs(tiny_run, output, **changes):
    workdir, config = tiny_run
    kwargs = {"table": str(workdir / "data/processed/uci/pima.csv"),
              "sidecar": str(workdir / "data/processed/uci/pima.json"), "dataset": "pima",
              "noise": "0.2", "algorithm": "AdaBoost", "learner": config["algorithms"]["AdaBoost"],
              "repeat": "0", "protocol": {"seed": 7, "folds": 3, "rounds": 5},
              "data": {"table_sha256": config["datasets"]["pima"]["table_sha256"]},
              "output": str(output),
              # what cell_job_arguments adds to every cell job: the environment and code keyed
              warm.ENVIRONMENT_ARGUMENT: environment.record(),
              warm.CODE_ARGUMENT: {"modules": list(TABLE_SET_CODE["uci"]),
                                   "sha256": package_digest(*TABLE_SET_CODE["uci"])}}
    return {**kwargs, **changes}


def run(job, log, within=None, **kwargs):
    """``warm.run_job``'s status and stderr; with ``within``, fail if it takes longer than that
    many seconds (instead of hanging)."""
    err = io.StringIO()
    with redirect_stderr(err):
        done = []
        worker = threading.Thread(target=lambda: done.append(warm.run_job(job, log, **kwargs)),
                                  daemon=True)
        worker.start()
        worker.join(within)
    assert done, f"{job} did not end within {within} s"
    return done[0], err.getvalue()


def test_a_job_in_a_warm_worker_writes_what_it_writes_in_its_own_process(tiny_run, tmp_path,
                                                                         server, monkeypatch):
    # a UCI cell and a Reuters cell (sparse data), each in a warm worker and in this process
    # (no server by the name given)
    job, reuters = recorded_job(tiny_run[0], "reuters_cell")
    for where, name in (("warm", server), ("own", "weightboost-warm-nobody")):
        monkeypatch.setenv(warm.ENV, name)
        status, _ = run("uci_cell", str(tmp_path / f"{where}.log"),
                        **cell_kwargs(tiny_run, tmp_path / f"{where}.csv"))
        assert status == 0
        status, _ = run(job, None, **{**reuters, "f1_output": str(tmp_path / f"{where}-f1.csv"),
                                      "curve_output": str(tmp_path / f"{where}-curve.csv")})
        assert status == 0
    assert "started in worker" in (tmp_path / warm.SERVER_LOG).read_text()
    for where in ("warm", "own"):  # both logs end with the job's own resource use
        cpu, rss = job_resources(tmp_path / f"{where}.log")
        assert 0 < cpu < 60 and rss > 10
    a, b = (pd.read_csv(tmp_path / f"{n}.csv").drop(columns=TIMING) for n in ("warm", "own"))
    pd.testing.assert_frame_equal(a, b)
    assert len(a) == 3 and a.rounds.max() > 1
    for table in ("f1", "curve"):
        assert (tmp_path / f"warm-{table}.csv").read_bytes() == \
            (tmp_path / f"own-{table}.csv").read_bytes(), table


def test_a_failing_job_fails_alike_in_a_warm_worker(tiny_run, tmp_path, server, monkeypatch):
    bad = cell_kwargs(tiny_run, tmp_path / "warm.csv", data={"table_sha256": "0" * 64})
    warm_status, warm_err = run("uci_cell", str(tmp_path / "warm.log"), **bad)
    monkeypatch.setenv(warm.ENV, "off")
    own_status, own_err = run("uci_cell", str(tmp_path / "own.log"),
                              **{**bad, "output": str(tmp_path / "own.csv")})
    assert warm_status == own_status == 1
    assert "ERROR (uci_cell): " in warm_err and "datasets.pima.table_sha256" in warm_err
    stamp = re.compile(r"^\d{4}-\d\d-\d\d [\d:,]+ ", re.M)
    assert stamp.sub("", warm_err.replace("warm.csv", "own.csv")) == stamp.sub("", own_err)
    assert not (tmp_path / "warm.csv").exists()
    assert "datasets.pima.table_sha256" in (tmp_path / "warm.log").read_text()


def process_state(pid: int) -> str:
    """What the kernel says the process is doing (state, wait channel, system call, kernel
    stack where readable): for the message of a test that finds a server not answering."""
    parts = []
    for name in ("stat", "wchan", "syscall", "stack"):
        try:
            parts.append(f"{name}: {Path(f'/proc/{pid}/{name}').read_text().strip()}")
        except OSError as exc:
            parts.append(f"{name}: {exc}")
    return "\n".join(parts)


def running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            state, ppid = (entry / "stat").read_text().rsplit(")", 1)[1].split()[:2]
            if int(ppid) == pid and state != "Z":
                out.append(int(entry.name))
        except (OSError, ValueError, IndexError):
            continue
    return out


def test_the_server_forks_from_a_single_thread(tmp_path, server):
    # a thread alive at fork time (pyarrow's jemalloc purging thread was one) may hold a lock
    # that the child then waits on for ever: the job hangs
    deadline = time.time() + 300
    while time.time() < deadline and "ready" not in (tmp_path / warm.SERVER_LOG).read_text():
        time.sleep(0.1)
    tasks = Path(f"/proc/{warm._server.pid}/task")
    names = [(task / "comm").read_text().strip() for task in tasks.iterdir()]
    assert len(names) == 1, names


def test_a_killed_job_takes_its_worker_with_it(tiny_run, tmp_path, server):
    # a job process that goes away (Snakemake killed the job) ends the child doing its work
    request = cell_kwargs(tiny_run, tmp_path / "never.csv",
                          protocol={"seed": 7, "folds": 10, "rounds": 100})
    request.update(repeats="200")  # about half a minute of work for the child
    del request["repeat"]
    payload = {"job": "sensitivity_cell", "log": None, "kwargs": request}
    server_log = tmp_path / warm.SERVER_LOG
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.connect("\0" + server)
    conn.sendall(json.dumps(payload).encode() + b"\n")
    server_pid = warm._server.pid
    conn.settimeout(warm.START_TIMEOUT)  # the worker's first line: it started the job
    try:
        started = json.loads(conn.makefile("rb").readline())
    except TimeoutError:
        pytest.fail("the server started no worker; its log:\n"
                    + server_log.read_text() + "the server process:\n"
                    + process_state(server_pid))
    worker = started["started"]
    assert worker in children(server_pid)
    conn.close()
    deadline = time.time() + 30
    while time.time() < deadline and worker in children(server_pid):
        time.sleep(0.05)
    assert worker not in children(server_pid), server_log.read_text()
    assert not (tmp_path / "never.csv").exists()


def test_a_job_bypasses_a_server_that_starts_no_worker(tiny_run, tmp_path, server, monkeypatch):
    # a server that accepts connections but forks nothing (here: stopped by SIGSTOP) must not
    # hang the run: after START_TIMEOUT the job stops it and runs itself, as do later jobs
    os.kill(warm._server.pid, signal.SIGSTOP)
    monkeypatch.setattr(warm, "START_TIMEOUT", 2.0)
    status, err = run("uci_cell", str(tmp_path / "stuck.log"), within=120,
                      **cell_kwargs(tiny_run, tmp_path / "stuck.csv"))
    assert status == 0 and (tmp_path / "stuck.csv").exists()
    assert "started no worker within 2 s (stopped it;" in err
    assert f"see {tmp_path / warm.SERVER_LOG})" in err  # the log of the server it asked
    assert warm._server.wait(timeout=10) == -signal.SIGKILL
    status, err = run("uci_cell", str(tmp_path / "later.log"),
                      **cell_kwargs(tiny_run, tmp_path / "later.csv"))
    assert status == 0 and err == ""  # nothing answers: no wait, no message


def test_a_stuck_server_that_is_not_ours_is_left_alone(tiny_run, tmp_path, monkeypatch):
    # what listens under the run's socket name is killed only if it is the run's warm server
    # a name that carries a live pid, this process's, which is not the listener's parent: the
    # parent check (stuck_server.stop_stuck_server) is what leaves it alone
    name = stuck_server.server_name(os.getpid())
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
        listener.bind("\0" + name)
        listener.listen()                       # this test process: never accepts
        monkeypatch.setenv(warm.ENV, name)
        monkeypatch.setattr(warm, "START_TIMEOUT", 1.0)
        status, err = run("uci_cell", str(tmp_path / "own.log"), within=120,
                          **cell_kwargs(tiny_run, tmp_path / "own.csv"))
    assert status == 0 and (tmp_path / "own.csv").exists()
    assert "started no worker within 1 s (left it alone;" in err


def test_the_server_leaves_with_its_snakemake_run(tmp_path):
    # a parent that starts a server and dies at once (a Snakemake run killed with SIGKILL)
    code = ("import sys; from weightboost.pipeline import warm; "
            f"print(warm.start({str(tmp_path)!r}), flush=True)")
    name = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, warm.ENV: ""}, check=True).stdout.strip()
    assert name.startswith("weightboost-warm-")
    deadline = time.time() + 60
    gone = False
    while time.time() < deadline and not gone:
        gone = not answering(name, timeout=0.2) and "ready" in \
            (tmp_path / warm.SERVER_LOG).read_text()
        time.sleep(0.2)
    assert gone, (tmp_path / warm.SERVER_LOG).read_text()


def test_a_server_whose_snakemake_is_gone_ends_its_workers(tiny_run, tmp_path, monkeypatch):
    # Snakemake killed alone (an out-of-memory killer): the server that leaves with it ends the
    # worker of a running job, and the job's process says so and ends, instead of running the
    # cell itself after the run it belonged to is over
    code = ("import sys; from weightboost.pipeline import warm; "
            f"print(warm.start({str(tmp_path)!r}), flush=True); sys.stdin.read()")
    parent = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, env={**os.environ, warm.ENV: ""})
    name = parent.stdout.readline().strip()
    server_log = tmp_path / warm.SERVER_LOG
    assert answering(name), server_log.read_text()
    monkeypatch.setenv(warm.ENV, name)
    monkeypatch.setenv(warm.LOG_ENV, str(server_log))
    request = cell_kwargs(tiny_run, tmp_path / "never.csv",
                          protocol={"seed": 7, "folds": 10, "rounds": 100})
    request.update(repeats="200")  # about half a minute of work for the worker
    del request["repeat"]
    done = []
    job = threading.Thread(target=lambda: done.append(run("sensitivity_cell", None, **request)),
                           daemon=True)
    job.start()
    deadline = time.time() + 60
    started = []
    while time.time() < deadline and not started:
        text = server_log.read_text() if server_log.exists() else ""
        started = re.findall(r"sensitivity_cell for job process \d+: started in worker (\d+)",
                             text)
        time.sleep(0.05)
    assert started, server_log.read_text()
    parent.kill()
    parent.wait()
    job.join(30)
    assert done, "the job process did not end with its run"
    status, err = done[0]
    assert status == warm.ABANDONED and "Snakemake is gone" in err, err
    worker = int(started[0])
    deadline = time.time() + 10
    while time.time() < deadline and running(worker):
        time.sleep(0.05)
    assert not running(worker)
    assert not (tmp_path / "never.csv").exists()


def ended_pid() -> int:
    """The pid of a process that has ended and been reaped (a Snakemake that is gone)."""
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    return dead.pid


def test_a_job_whose_worker_vanished_runs_itself_only_while_its_snakemake_lives():
    # the server's name holds the pid of the Snakemake that started it (warm.start)
    assert not stuck_server.run_alive(stuck_server.server_name(ended_pid()))
    assert stuck_server.run_alive(stuck_server.server_name(os.getpid()))
    assert stuck_server.run_alive("weightboost-warm-test-42")  # a name that says nothing: as before
    # a Snakemake killed but not yet reaped by its parent (a zombie) has ended too
    zombie = subprocess.Popen([sys.executable, "-c", "pass"])
    deadline = time.time() + 30
    while time.time() < deadline and stuck_server.process_stat(zombie.pid)[:1] != ["Z"]:
        time.sleep(0.01)
    assert not stuck_server.run_alive(stuck_server.server_name(zombie.pid))
    zombie.wait()


def test_the_pruning_compiled_beside_the_grower_has_the_grower_s_types(tmp_path, monkeypatch):
    """warm_kernels.warm_up compiles pruning and prediction on a hand-made one-leaf tree while
    a second process compiles the grower: the leaf must have exactly the array types that
    ``grow`` returns (and the collapse its argument types in ``build.fit_tree``), or compiling
    ``fit_tree``, which calls them, would compile pruning a second time."""
    import numba
    import numpy as np

    from weightboost.c45.data import prepare
    from weightboost.c45.grow import grow
    from weightboost.c45.predict import most_probable, predict_distribution
    from weightboost.c45.prune import collapse, prune
    from weightboost.c45.tree import GrowSettings, compact

    X, y = warm_kernels._tiny_data()
    data = prepare(X)
    tree = grow(data.view, y, 2, np.ones(len(y)), GrowSettings(2.0, True))  # fit_tree's call
    warm_kernels.compile_pruning_and_prediction()
    grown = numba.typeof(tree)
    assert any(signature[4] == grown for signature in prune.signatures)
    assert (numba.typeof(tree.node_int), numba.typeof(tree.dist), numba.int64) in \
        collapse.signatures
    assert tuple(numba.typeof(a) for a in (tree.node_int, tree.node_float, tree.empty,
                                           tree.dist)) + (numba.int64,) in compact.signatures
    for kernel in (predict_distribution, most_probable):  # C- and Fortran-ordered rows
        assert {signature[0].layout for signature in kernel.signatures} == {"C", "F"}
    assert warm_kernels.grower_cached()
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))  # restored after
    assert not warm_kernels.grower_cached()


def test_a_job_process_imports_only_what_asking_the_server_needs():
    """The rule's command runs once per cell: the module it starts must not import the
    package's science or the server's machinery (numpy, pandas, logging, subprocess)."""
    heavy = ["numpy", "pandas", "numba", "logging", "subprocess", "pathlib", "traceback"]
    code = ("import sys, weightboost.pipeline.warm; "
            f"print(' '.join(m for m in {heavy!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == []


def test_read_only_and_strided_inputs_reuse_the_compiled_kernels():
    """A read-only array (a memory map, as joblib passes to parallel fits) or a strided one is
    another numba type: passed as it is, it would compile the whole grower again (half a
    minute) for a fit that differs in nothing. ``C45.fit`` hands the kernels its usual types."""
    import numpy as np

    from weightboost.c45 import C45
    from weightboost.c45.build import fit_tree
    from weightboost.c45.estimator import _counted_classes, _weights_valid

    rng = np.random.RandomState(0)
    X = rng.rand(40, 3)
    y = (X[:, 0] > 0.5).astype(np.int64)
    wide = rng.rand(80)
    expected = C45().fit(X, y, sample_weight=wide[::2].copy()).predict(X)
    kernels = (fit_tree, _weights_valid, _counted_classes)
    before = [len(kernel.signatures) for kernel in kernels]
    X_ro, y_ro, w_ro = X.copy(), y.copy(), wide[::2].copy()
    for array in (X_ro, y_ro, w_ro):
        array.setflags(write=False)
    np.testing.assert_array_equal(C45().fit(X_ro, y_ro, sample_weight=w_ro).predict(X_ro),
                                  expected)
    np.testing.assert_array_equal(C45().fit(X, y, sample_weight=wide[::2]).predict(X), expected)
    assert [len(kernel.signatures) for kernel in kernels] == before


def test_the_warm_up_leaves_no_booster_kernel_to_compile_in_a_worker():
    """After ``warm_up`` (in a process of its own, as a server's), fitting and predicting the
    grid's boosters of C4.5 trees adds no signature to the boosters' kernels: each forked
    worker would otherwise compile (or load) it again."""
    code = """if True:
        from weightboost.pipeline import warm_kernels
        warm_kernels.warm_up()
        from weightboost.boosting import AdaBoost, EpsilonBoost, WeightBoost, WeightDecay
        from weightboost.boosting import libm, rules, variants
        kernels = (libm.distribution, libm.misclassified_weight, rules.weight_log,
                   rules.coefficient, rules.round_constant, rules.combine, rules.outcome,
                   variants._decay_losses)
        warmed = [list(kernel.signatures) for kernel in kernels]
        X, y = warm_kernels._tiny_data()
        for booster in (AdaBoost, WeightBoost, WeightDecay, EpsilonBoost):
            booster(n_estimators=3).fit(X, y).predict(X)
        assert all(warmed), warmed
        assert [list(kernel.signatures) for kernel in kernels] == warmed
    """
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-3000:]


def test_a_job_queued_when_its_server_ended_ends_with_its_run():
    """A server that ends (its Snakemake gone) resets the connections it had not accepted yet:
    their jobs end as the run's other jobs do, not with a traceback."""
    name = stuck_server.server_name(ended_pid())
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
        listener.bind("\0" + name)
        listener.listen(1)
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        conn.connect("\0" + name)
    err = io.StringIO()
    with conn, redirect_stderr(err):
        status = warm._remote(conn, name, "uci_cell", None, {})
    assert status == warm.ABANDONED and "Snakemake is gone" in err.getvalue()


def test_a_jobs_log_ends_with_the_resources_of_its_work_alone(tmp_path):
    # the CPU of the work, not of the process before it (a warm worker's counts start at its
    # fork; a test process has spent seconds before), in the log and not on stderr
    def burn():
        start = time.process_time()
        while time.process_time() - start < 0.3:
            pass

    stream = io.StringIO()
    assert job_status("burn", str(tmp_path / "burn.log"), burn, stream) == 0
    cpu, rss = job_resources(tmp_path / "burn.log")
    assert 0.29 <= cpu < 1.0 and rss > 10
    assert "job resources" not in stream.getvalue()
    assert job_status("fail", str(tmp_path / "fail.log"), lambda: 1 / 0, stream) == 1
    assert job_resources(tmp_path / "fail.log") is not None  # a failed job's too
    assert job_resources(tmp_path / "absent.log") is None


def warm_parent(tmp_path, extra_thread=False):
    """A process that has warmed the package (as the suite's warm Snakemake does) and starts a
    server; with ``extra_thread`` a second thread runs when it does, and the process only says
    that it is warm. Returns the process (its stdin open: it lives until that closes), the
    server's name and pid."""
    code = (f"import sys, threading; sys.path.insert(0, {str(Path(__file__).parent)!r}); "
            "import forked_server; from weightboost.pipeline import warm, warm_kernels; "
            "warm.single_thread_environment(); forked_server.install(); "
            + ("threading.Thread(target=sys.stdin.read, daemon=True).start(); " if extra_thread
               else "warm_kernels.warm_up(); ")
            + f"name = warm.start({str(tmp_path)!r}); "
              "print(name, warm._server.pid, flush=True); sys.stdin.read()")
    parent = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, env={**os.environ, warm.ENV: ""})
    name, pid = parent.stdout.readline().split()
    return parent, name, int(pid)


def command_line(pid: int) -> list[bytes]:
    return Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[:-1]


def test_a_warm_single_threaded_process_forks_its_server(tiny_run, tmp_path, monkeypatch):
    # forked, not started: the parent's child with the parent's command line, warm at once,
    # one thread; its jobs write what they write in their own process; stuck, it is known as
    # the run's server (by its parent) and stopped; it leaves with its parent
    parent, name, pid = warm_parent(tmp_path)
    server_log = tmp_path / warm.SERVER_LOG
    try:
        assert answering(name), server_log.read_text()
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        assert int(stat[1]) == parent.pid
        assert command_line(pid) == command_line(parent.pid)
        deadline = time.time() + 30
        while time.time() < deadline and "ready" not in server_log.read_text():
            time.sleep(0.05)
        assert len(list(Path(f"/proc/{pid}/task").iterdir())) == 1
        monkeypatch.setenv(warm.ENV, name)
        monkeypatch.setenv(warm.LOG_ENV, str(server_log))
        status, _ = run("uci_cell", None, within=120,
                        **cell_kwargs(tiny_run, tmp_path / "warm.csv"))
        assert status == 0 and "started in worker" in server_log.read_text()
        monkeypatch.setenv(warm.ENV, "off")
        status, _ = run("uci_cell", None, **cell_kwargs(tiny_run, tmp_path / "own.csv"))
        assert status == 0
        a, b = (pd.read_csv(tmp_path / f"{n}.csv").drop(columns=TIMING) for n in ("warm", "own"))
        pd.testing.assert_frame_equal(a, b)
        os.kill(pid, signal.SIGSTOP)
        monkeypatch.setenv(warm.ENV, name)
        monkeypatch.setattr(warm, "START_TIMEOUT", 2.0)
        status, err = run("uci_cell", None, within=120,
                          **cell_kwargs(tiny_run, tmp_path / "stuck.csv"))
        assert status == 0 and "started no worker within 2 s (stopped it;" in err
    finally:
        parent.kill()
        parent.wait()
    deadline = time.time() + 30
    while time.time() < deadline and running(pid):
        time.sleep(0.1)
    assert not running(pid)


def test_a_warm_process_running_threads_starts_its_server_afresh(tmp_path):
    # forking a process while another of its threads runs may hand the child a held lock
    parent, name, pid = warm_parent(tmp_path, extra_thread=True)
    try:
        assert answering(name)
        assert command_line(pid)[-4:-1] == [b"weightboost.pipeline.warm", b"serve", name.encode()]
        deadline = time.time() + 60
        while time.time() < deadline and "ready" not in (tmp_path / warm.SERVER_LOG).read_text():
            time.sleep(0.05)
        assert "warming up" in (tmp_path / warm.SERVER_LOG).read_text()
    finally:
        parent.kill()
        parent.wait()
