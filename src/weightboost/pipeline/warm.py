"""Warm workers: the compute jobs of a local run start in a process that has already imported
the package and loaded its compiled kernels.

Every Snakemake job is a new Python process, and a cell job spends 1.5-2.5 s importing
scikit-learn (which imports SciPy's statistics and pandas), pandas and numba and loading the
cached tree kernels before it grows a single tree. Every job in its own process costs `make
reproduce` 66 % more CPU time and the CI run 3.2 times as much (docs/performance.md). When
Snakemake runs the jobs on this machine, the workflow (``onstart`` in
``workflow/rules/jobs.smk``) starts one **warm server** for the run: it imports and warms the
package once, then forks a child for each job request. The job's own process (the rule's
command, ``python -m weightboost.pipeline.warm job ...``, see ``main``) imports only this
module, sends the job's name and arguments, and waits; the child writes the job's outputs and
log exactly as the job would have, and its status becomes the job's exit status. Snakemake
still schedules every cell as its own job (only new or changed cells are computed; ``--cores``
bounds the children), and a job killed by Snakemake takes its child with it.

In a SLURM job (the SLURM executor's submissions; a grouped one runs up to 20 cells) hooks do
not run, and each cell runs in a job step of its own, through ``srun`` and a Snakemake of its
own, from the job's *batch step*, where the Snakemake that runs the group reads the workflow.
That Snakemake starts the server for its cells as it reads the workflow
(``workflow/rules/jobs.smk``, ``in_batch_step``); the server lives in the batch step, which
lasts the whole job (a process started inside a job step would end with it), leaves with that
Snakemake, and logs to ``logs/warm_server.slurm-<job id>.log``. A cell's job step then holds
only the job's own process, which waits for its answer; the cell's work runs in the batch
step, within the job's allocation.

Where no server answers (another cluster executor, a platform without Linux's abstract sockets,
``WEIGHTBOOST_WARM=off``, a server that is still starting or failed to start) the job runs in
its own process as before; the tables are byte-identical either way (tested). The server
accepts requests only from processes of its own user, and only the job names of ``JOBS``.
Its log is ``logs/warm_server.log``.

A Snakemake process that has itself warmed the package (``warm_up``; the test suite's warm
Snakemake does, once for its many runs) and runs a single thread starts its server by forking
(``_fork_server``) instead of starting a Python that imports it all again: the same server, a
child of the same Snakemake, in the same directory with the same environment and log.

The child's first line says that it started the job. A server that starts none within
``START_TIMEOUT`` seconds of a request (longer than a warm-up that compiles the kernels) is
taken to be stuck: the job process stops it, says so, and runs its job itself, and so do the
run's later jobs (nothing answers any more). A stuck server costs a run minutes, never its
end.
"""

from __future__ import annotations

# Only what a job's process needs (it runs once per cell): logging, pathlib, subprocess,
# secrets and traceback would double its start-up (about 100 ms instead of 45), and are imported
# where the server, the compilation and the rare fallbacks use them.
import contextlib
import importlib
import io
import json
import os
import signal
import socket
import socketserver
import struct
import sys
import threading

ENV = "WEIGHTBOOST_WARM"            # the server's socket name, set for the jobs of a run
NAME_PREFIX = "weightboost-warm-"   # a socket name: the prefix, its Snakemake's pid, random hex
LOG_ENV = "WEIGHTBOOST_WARM_LOG"    # the path of its log, set beside it
JOBS = {                            # job name -> the function that does the job's work
    "uci_cell": "weightboost.experiment.uci:uci_cell",
    "sensitivity_cell": "weightboost.experiment.study_cells:sensitivity_cell",
    "reuters_cell": "weightboost.experiment.reuters:reuters_cell",
    "regboost_cell": "weightboost.experiment.regboost_cells:regboost_cell",
    "regboost_semi_cell": "weightboost.experiment.regboost_cells:regboost_semi_cell",
    "fetch_uci": "weightboost.data.jobs:fetch_uci",
    "parse_uci": "weightboost.data.jobs:parse_uci",
    "fetch_reuters": "weightboost.data.jobs:fetch_reuters",
    "reuters_features": "weightboost.data.jobs:reuters_features",
}
# a cell job's argument: the software environment its outputs' keys were computed for
# (``weightboost.pipeline.environment``), checked and removed before the job's function is called
ENVIRONMENT_ARGUMENT = "environment"
# and the package code they were computed for (its TABLE_SET_CODE parts and their digest),
# checked before and after the job computes (weightboost.pipeline.workflow_support.check_code)
CODE_ARGUMENT = "code"
# the jobs that write cells (results/cells/): each must be given both, which only the workflow's
# cell_job_arguments builds (with its other arguments from the cell's key, path and files)
CELL_JOBS = frozenset(job for job in JOBS if job.endswith("_cell"))
SERVER_LOG = "logs/warm_server.log"
ABANDONED = 75                      # a worker's status when its run ended before its job did
JEMALLOC_CONF = "JE_ARROW_MALLOC_CONF"  # the configuration of pyarrow's bundled jemalloc
# how long a job waits for a child to start its job: a fresh clone's warm-up (compiling the
# kernels, 41-48 s on two idle cores) under the load of the run's other processes, with room
START_TIMEOUT = 300.0
# the server's own messages (to its log, the server's stderr), apart from the jobs' logging,
# which each job sets up afresh in its child: the logging's name
LOGGER = "weightboost-warm-server"
_server: subprocess.Popen | _Forked | None = None
_warm_here = False                  # this process has run ``warm_up`` (see the module docstring)


def _log():
    import logging

    return logging.getLogger(LOGGER)


def available() -> bool:
    """Whether this platform has the abstract Unix sockets the server listens on."""
    return sys.platform.startswith("linux") and hasattr(socket, "SO_PEERCRED")


# -- the job's side ----------------------------------------------------------------------------
def run_job(job: str, log: str | None, **kwargs) -> int:
    """Do ``job`` with ``kwargs`` (JSON values) and return its exit status: in a child of the
    run's warm server if one answers, else in this process. Messages go to stderr as
    ``workflow_support.run_step`` writes them."""
    if job not in JOBS:
        raise ValueError(f"unknown job {job!r} (known: {sorted(JOBS)})")
    name = os.environ.get(ENV, "")
    if name and name != "off" and available():
        try:
            conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            conn.connect("\0" + name)
        except OSError:
            conn = None
        if conn is not None:
            with conn:
                return _remote(conn, name, job, log, kwargs)
    return _local(job, log, kwargs)


def _remote(conn, name, job, log, kwargs) -> int:
    conn.sendall(json.dumps({"job": job, "log": log, "kwargs": kwargs}).encode() + b"\n")
    conn.settimeout(START_TIMEOUT)
    reader = conn.makefile("rb")
    try:
        started = reader.readline()
    except TimeoutError:
        stopped = _stop_stuck_server(conn, name)
        print(f"the warm server started no worker within {START_TIMEOUT:g} s "
              f"({'stopped it' if stopped else 'left it alone'}; see {_server_log()}); running the "
              "job in this process", file=sys.stderr)
        return _local(job, log, kwargs)
    conn.settimeout(None)
    reply = reader.readline() if started else b""
    if not reply and not _run_alive(name):  # the run is over: its jobs must not go on alone
        print("the run's Snakemake is gone: its warm server ended this job unfinished",
              file=sys.stderr)
        return ABANDONED
    if not reply:  # the server went away (stopped, or failed to warm up): do the job here
        print(f"the warm worker ended without an answer (see {_server_log()}); running the job "
              "in this process", file=sys.stderr)
        return _local(job, log, kwargs)
    answer = json.loads(reply)
    if answer.get("stderr"):
        print(answer["stderr"], file=sys.stderr, end="")
    return int(answer["status"])


def _server_name(snakemake_pid: int) -> str:
    return f"{NAME_PREFIX}{snakemake_pid}-{os.urandom(6).hex()}"


def _snakemake_pid(name: str) -> str:
    """The pid of the Snakemake that started the server ``name`` (``_server_name``), as text;
    "" when the name carries none."""
    return name.removeprefix(NAME_PREFIX).split("-")[0] if name.startswith(NAME_PREFIX) else ""


def _run_alive(name: str) -> bool:
    """Whether the Snakemake that started the server ``name`` still runs; True when the name
    says nothing."""
    pid = _snakemake_pid(name)
    return not pid.isdigit() or os.path.exists(f"/proc/{pid}")


def _server_log() -> str:
    """The log of the server this job asked: a run's, or a SLURM job's (``start``)."""
    return os.environ.get(LOG_ENV, SERVER_LOG)


def _stop_stuck_server(conn, name: str) -> bool:
    """Kill the server at the other end of ``conn`` (SO_PEERCRED: the process that listens),
    if it is a warm server of this user serving the socket ``name``; whether it was."""
    pid, uid, _ = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED,
                                                      struct.calcsize("3i")))
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            command = handle.read().split(b"\0")
        with open(f"/proc/{pid}/stat") as handle:
            parent = handle.read().rsplit(")", 1)[1].split()[1]
    except (OSError, IndexError):
        return False
    # the command line ends "-m weightboost.pipeline.warm serve NAME PID" and a NUL; a forked server
    # (_fork_server) is the child of the Snakemake whose pid its socket name carries
    started = command[-5:-2] == [b"weightboost.pipeline.warm", b"serve", name.encode()]
    forked = _snakemake_pid(name) == parent
    if uid != os.getuid() or not (started or forked):
        return False
    try:
        os.kill(pid, signal.SIGKILL)  # a stuck process may not run a SIGTERM handler
    except OSError:
        return False
    return True


def _local(job, log, kwargs) -> int:
    from weightboost.pipeline.workflow_support import job_status

    return job_status(job, log, lambda: _work(job, kwargs), sys.stderr)


def _target(job):
    module, _, function = JOBS[job].partition(":")
    return getattr(importlib.import_module(module), function)


def _work(job, kwargs):
    """The job's work: its outputs restored from a cell archive if one holds them all
    (``weightboost.pipeline.cell_archive``), else the job's function called, in the code its outputs
    are keyed for (checked again after it: a job that fails has its outputs removed by
    Snakemake)."""
    from weightboost.pipeline import environment
    from weightboost.pipeline.cell_archive import restored
    from weightboost.pipeline.workflow_support import check_code

    from weightboost.errors import ReproError

    kwargs = dict(kwargs)
    expected = kwargs.pop(ENVIRONMENT_ARGUMENT, None)
    code = kwargs.pop(CODE_ARGUMENT, None)
    if job in CELL_JOBS and (expected is None or code is None):
        raise ReproError(f"{job} was given no {ENVIRONMENT_ARGUMENT!r} or {CODE_ARGUMENT!r} "
                         "argument: a cell job's arguments are built by cell_job_arguments "
                         "(workflow/rules/common.smk), so that each comes from its key, its "
                         "path or its files")
    if expected is not None:
        environment.check(expected, job)
    # a cell job's outputs are its arguments named *output (a restart cell's twin is an input)
    if not restored([v for k, v in kwargs.items() if k.endswith("output")]):
        if code is not None:
            check_code(code, job)
        _target(job)(**kwargs)
        if code is not None:  # edited while the job ran: it may have imported either code
            check_code(code, job)


# -- the server --------------------------------------------------------------------------------
class _Handler(socketserver.StreamRequestHandler):
    def handle(self):
        # in the forked child: one job
        pid, uid, gid = struct.unpack("3i", self.connection.getsockopt(
            socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")))
        if uid != os.getuid():
            return
        line = self.rfile.readline()
        if not line:  # a probe that connected and left
            return
        request = json.loads(line)
        # the server ends its workers when its Snakemake is gone (_Server.service_actions):
        # the job's process then hears that its run is over rather than an empty reply, which
        # would make it run the job itself (and it checks that Snakemake itself, _run_alive,
        # for a worker ended before this line)
        self._started = False
        signal.signal(signal.SIGTERM, lambda *_: self._abandon())
        self._send({"started": os.getpid()})
        self._started = True
        job = request.get("job")
        if job not in JOBS:
            self._answer(2, f"unknown job {job!r}\n")
            return
        _exit_when_client_leaves(self.connection)
        from weightboost.pipeline.workflow_support import job_status

        _log().info("%s for job process %d: started in worker %d", job, pid, os.getpid())
        # what the job prints (warnings included) goes back to the job's process
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(err):
            status = job_status(job, request.get("log"),
                                lambda: _work(job, request["kwargs"]), err)
        _log().info("%s for job process %d: exit status %d", job, pid, status)
        self._answer(status, err.getvalue())

    def _abandon(self):
        with contextlib.suppress(OSError):
            if not self._started:
                self._send({"started": os.getpid()})
            self._answer(ABANDONED, "the run's Snakemake is gone: the warm server ended this "
                         "job unfinished\n")
        os._exit(ABANDONED)

    def _answer(self, status, stderr):
        self._send({"status": status, "stderr": stderr})

    def _send(self, message):
        self.wfile.write(json.dumps(message).encode() + b"\n")
        self.wfile.flush()


def _exit_when_client_leaves(conn):
    """End this child when the job's process goes away (Snakemake killed the job)."""
    watched = conn.dup()

    def watch():
        try:
            while watched.recv(1):
                pass
        except OSError:
            pass
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


class _Server(socketserver.ForkingMixIn, socketserver.UnixStreamServer):
    max_children = 256
    request_queue_size = 256

    def __init__(self, name, parent):
        super().__init__("\0" + name, _Handler, bind_and_activate=True)
        self.parent = parent

    def service_actions(self):
        super().service_actions()
        if os.getppid() != self.parent:  # the Snakemake run is gone: its jobs go with it
            self.end_workers()
            os._exit(0)

    def end_workers(self, grace: float = 5.0):
        """SIGTERM every worker (each answers its job's process, ``_Handler._abandon``), then
        SIGKILL those still there after ``grace`` seconds (one inside a long compiled call)."""
        import time

        workers = set(self.active_children or ())
        for pid in workers:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + grace
        while workers and time.monotonic() < deadline:
            for pid in list(workers):
                with contextlib.suppress(ChildProcessError):
                    if os.waitpid(pid, os.WNOHANG)[0] == 0:
                        continue
                workers.discard(pid)
            time.sleep(0.05)
        for pid in workers:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


# -- compiling the kernels -----------------------------------------------------------------------
# An empty kernel cache (a fresh clone, an edited kernel) is filled on two cores: numba compiles
# in one thread, and the warm server's jobs and the test suite's processes wait for it. The
# grower and the split selection it calls are about 70 % of the compilation and its longest
# chain (``grow`` needs ``select_split`` compiled first), so a second process compiles them
# while this one compiles pruning and prediction, for which it builds a one-leaf tree of the
# grower's array types; each process writes its kernels to the cache (numba replaces the files
# atomically), and this one then loads the grower from it. Measured: 41-48 s instead of 54-62 s
# on a 2-core machine (alternated with a one-process compile by bench/kernel_compile.py, since
# removed: docs/performance.md, "Finished investigations"). The
# grower's process builds its data view by hand (``tiny_view``: no kernel of ``prepare``), and
# this one compiles the boosters' kernels while it waits for the grower (``compile_boosting``):
# 29.6-40.1 s instead of 33.7-44.9, three alternated pairs, each pair 4-9 s apart.

def grower_cached() -> bool:
    """Whether numba's cache directory holds an index for the grower (``grow.grow-*.nbi``, in
    numba's subdirectory for the package's path). A ``NUMBA_CACHE_DIR`` shared with another
    checkout of the same sources may hold its index only: this checkout then compiles in one
    process, as before."""
    import numba

    import weightboost.c45  # noqa: F401 - sets the versioned cache directory

    from pathlib import Path

    return any(Path(numba.config.CACHE_DIR).rglob("grow.grow-*.nbi"))


def _tiny_data():
    """Six rows, two numeric attributes, two classes: what every warm-up call fits."""
    import numpy as np

    X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 1.0], [3.0, 0.0], [4.0, 1.0], [5.0, 0.0]])
    y = np.array([0, 0, 1, 1, 0, 1], dtype=np.int64)
    return X, y


def tiny_view():
    """The GrowView ``prepare`` gives of ``_tiny_data`` (its array types; every attribute
    storing its known values), built without ``prepare``, whose kernels (2-3 s to compile) the
    other process compiles."""
    import numpy as np

    from weightboost.c45.data import GrowView

    X, _ = _tiny_data()
    n, d = X.shape
    XT = np.ascontiguousarray(X.T)
    order = np.argsort(XT, axis=1, kind="stable")
    return GrowView(XT, np.zeros(d, dtype=np.bool_), np.zeros(d, dtype=np.int64),
                    np.arange(d, dtype=np.int64), np.arange(0, d * n + 1, n, dtype=np.int64),
                    order.astype(np.int32).ravel(), np.take_along_axis(XT, order, 1).ravel(),
                    np.zeros(d, dtype=np.bool_))


def compile_grower() -> None:
    """Compile ``grow`` (and what it calls) as ``C45.fit`` calls it: the second process's part."""
    import numpy as np

    from weightboost.c45.grow import grow
    from weightboost.c45.tree import GrowSettings

    _, y = _tiny_data()
    grow(tiny_view(), y, 2, np.ones(len(y)), GrowSettings(2.0, True))


def compile_pruning_and_prediction() -> None:
    """Compile ``collapse``, ``prune``, ``compact`` and prediction (C- and Fortran-ordered rows)
    without the grower, on a one-leaf tree with the array types ``grow`` returns."""
    import numpy as np

    from weightboost.c45.criteria import z_for_confidence
    from weightboost.c45.data import prepare
    from weightboost.c45.predict import most_probable, predict_distribution
    from weightboost.c45.prune import collapse, prune
    from weightboost.c45.tree import PruneSettings, TreeArrays, compact

    X, y = _tiny_data()
    data = prepare(X)
    leaf = TreeArrays(np.array([[-1, -1, 0]], dtype=np.int32), np.array([[0.0, 1.0]]),
                      np.zeros(1, dtype=np.bool_), np.array([[3.0, 3.0]]),
                      np.array([[0, len(y)]], dtype=np.int64),
                      np.arange(len(y), dtype=np.int32), np.ones(len(y)))
    collapse(leaf.node_int, leaf.dist, 0)
    tree = prune(data.view, data.missing, y, 2, leaf,
                 PruneSettings(0.25, z_for_confidence(0.25), True))
    node_int, node_float, empty, dist = compact(tree.node_int, tree.node_float, tree.empty,
                                                tree.dist, tree.node_int.shape[0])
    for rows in (X, np.asfortranarray(X)):
        predict_distribution(rows, data.nominal, node_int, node_float, empty, dist)
        most_probable(rows, data.nominal, node_int, node_float, empty, dist)


def compile_boosting() -> None:
    """Compile the boosters' own kernels (the C library's exp, the log-sum-exp of the weights,
    Weight Decay's line search) on fits whose base learner is a scikit-learn stump, which needs
    no C4.5 kernel: this process's part while the other compiles the grower (it waits for
    that otherwise; about 5 s)."""
    from sklearn.tree import DecisionTreeClassifier

    from weightboost.boosting import AdaBoost, WeightBoost, WeightDecay

    X, y = _tiny_data()
    stump = DecisionTreeClassifier(max_depth=1)
    for booster in (AdaBoost, WeightBoost, WeightDecay):
        booster(n_estimators=2, base_estimator=stump).fit(X, y).predict(X)


def compile_kernels(second_process: bool = True, meanwhile=None) -> None:
    """Compile (or load) the C4.5 kernels; an empty cache is filled on two cores (above) unless
    ``second_process`` is False. If the second process fails, the grower is compiled here.
    ``meanwhile`` (a function) runs before this process waits for the second."""
    import subprocess

    helper = None
    if second_process and not grower_cached():
        helper = subprocess.Popen([sys.executable, "-c", "from weightboost.pipeline.warm import "
                                   "compile_grower; compile_grower()"], stdin=subprocess.DEVNULL)
    try:
        compile_pruning_and_prediction()
        if meanwhile is not None:
            meanwhile()
    finally:
        if helper is not None:
            helper.wait()
    compile_grower()


def warm_up(second_process: bool = True) -> None:
    """Import what the jobs import and load every compiled kernel they call, once (compiling
    them with ``compile_kernels``, the boosters' with ``compile_boosting`` meanwhile)."""

    def meanwhile():
        compile_boosting()
        from weightboost.data import jobs as data_jobs  # noqa: F401 - the job modules themselves
        from weightboost.experiment import (regboost_cells, reuters,  # noqa: F401
                                            study_cells, uci)
        from weightboost.boosting import regboost  # the stumps' kernels (imported lazily)

        regboost.RegBoost(n_estimators=2, n_neighbors=2).fit(*_tiny_data())  # scan, driver

    compile_kernels(second_process, meanwhile)
    from weightboost.boosting import AdaBoost, WeightDecay
    from weightboost.c45 import C45

    X, y = _tiny_data()
    for sampling in ("reweight", "resample"):
        model = AdaBoost(n_estimators=2, sampling=sampling, random_state=0).fit(X, y)
        model.predict(X)
    WeightDecay(n_estimators=2).fit(X, y)  # with C4.5 trees (its kernels: compile_boosting)
    C45().fit(X, y).predict_proba(X)
    from weightboost.pipeline import environment

    environment.record()  # the versions of what it imported, before anything can replace them
    global _warm_here
    _warm_here = True


def single_thread_environment() -> None:
    """Set, before anything is imported, what keeps a process that forks at one thread: a
    thread alive at fork time may hold a lock that the child then waits on for ever. One BLAS
    thread (as Snakemake gives a job of one thread); and no background purging thread of the
    jemalloc that pyarrow bundles (pandas imports pyarrow), appended to any configuration of
    the user's, which it then overrides."""
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = "1"
    conf = os.environ.get(JEMALLOC_CONF)
    if "background_thread:false" not in (conf or ""):
        os.environ[JEMALLOC_CONF] = f"{conf},background_thread:false" if conf \
            else "background_thread:false"


def serve(name: str, parent: int) -> None:
    single_thread_environment()
    os.environ[ENV] = "off"  # a child that starts a job process of its own runs it there
    server = _Server(name, parent)  # listening: early jobs wait for the warm-up, not fall back
    import logging

    log = _log()
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s warm server: %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    if _warm_here:
        log.info("listening as %s for Snakemake pid %d; forked warm", name, parent)
    else:
        log.info("listening as %s for Snakemake pid %d; warming up", name, parent)
        warm_up()
    _log().info("ready")
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    server.serve_forever(poll_interval=0.5)


def in_batch_step() -> bool:
    """Whether this process runs in the batch step of a SLURM job: ``SLURM_JOB_ID`` is set,
    and ``SLURM_STEP_ID`` is not (``srun`` sets it in every job step it starts)."""
    return "SLURM_JOB_ID" in os.environ and "SLURM_STEP_ID" not in os.environ


def batch_step_log() -> str:
    """The server log of a SLURM job's batch step: one per job, as a cluster's jobs share the
    working directory."""
    return f"logs/warm_server.slurm-{os.environ['SLURM_JOB_ID']}.log"


def _single_threaded() -> bool:
    """Whether this process runs one thread (native ones counted): only then may it fork."""
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


class _Forked:
    """A forked server, driven by ``stop`` and the tests as its ``subprocess.Popen`` would be."""

    def __init__(self, pid: int):
        self.pid, self.returncode = pid, None

    def poll(self):
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:  # reaped elsewhere: gone, status unknown (as Popen says)
                pid, status = self.pid, 0
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None):
        import subprocess
        import time

        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"warm server {self.pid}", timeout)
            time.sleep(0.01)
        return self.returncode

    def terminate(self):
        if self.poll() is None:
            os.kill(self.pid, signal.SIGTERM)

    def kill(self):
        if self.poll() is None:
            os.kill(self.pid, signal.SIGKILL)


def _fork_server(name: str, workdir, log_path) -> _Forked:
    """The run's server as a child of this warm, single-threaded process: what ``python -m
    weightboost.pipeline.warm serve NAME PID`` would be (its directory, standard streams and log), with
    the imports and kernels this process already holds."""
    parent = os.getpid()
    pid = os.fork()
    if pid:
        return _Forked(pid)
    code = 1
    try:
        os.chdir(workdir)
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        log_fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        os.dup2(log_fd, 1)
        os.dup2(log_fd, 2)
        os.close(log_fd)
        # the parent's may be wrapped or redirected
        sys.stdout = open(1, "w", buffering=1, closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", buffering=1, closefd=False)  # noqa: SIM115
        code = main(["serve", name, str(parent)])
    finally:  # none of the parent's exit handlers (they are Snakemake's)
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def start(workdir: str | os.PathLike = ".", log: str = SERVER_LOG) -> str | None:
    """Start the run's server (from Snakemake's ``onstart``, or in a SLURM job's batch step);
    set ``WEIGHTBOOST_WARM`` for the jobs. Returns its socket name, or None where warm workers
    are off or unavailable. ``log``: the server's log, relative to ``workdir``."""
    import subprocess
    from pathlib import Path

    global _server
    if os.environ.get(ENV) == "off" or not available():
        return None
    name = _server_name(os.getpid())
    log_path = Path(workdir) / log
    log_path.parent.mkdir(parents=True, exist_ok=True)
    if _warm_here and _single_threaded():
        _server = _fork_server(name, workdir, log_path)
    else:
        with open(log_path, "a") as handle:
            _server = subprocess.Popen([sys.executable, "-m", "weightboost.pipeline.warm", "serve", name,
                                        str(os.getpid())], stdin=subprocess.DEVNULL,
                                       stdout=handle, stderr=handle, cwd=workdir)
    os.environ[ENV] = name
    os.environ[LOG_ENV] = str(log_path)
    return name


def stop() -> None:
    """Stop the run's server (from ``onsuccess`` and ``onerror``)."""
    import subprocess

    global _server
    if _server is not None and _server.poll() is None:
        _server.terminate()
        try:
            _server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            _server.kill()
    _server = None
    os.environ.pop(ENV, None)
    os.environ.pop(LOG_ENV, None)


def main(argv: list[str]) -> int:
    """``job NAME LOG ARGUMENTS``: a rule's command (``job_command`` in workflow/rules/jobs.smk)
    does job NAME with the keyword arguments of the JSON object ARGUMENTS, logging to LOG
    (``-`` for none), and exits with its status. ``serve NAME PID``: the server (``start``)."""
    if len(argv) == 4 and argv[0] == "job":
        _, job, log, arguments = argv
        return run_job(job, None if log == "-" else log, **json.loads(arguments))
    if len(argv) == 3 and argv[0] == "serve":
        try:
            serve(argv[1], int(argv[2]))
        except Exception:  # noqa: BLE001 - the jobs then run in their own processes
            import traceback

            traceback.print_exc()
            return 1
        return 0
    print("usage: python -m weightboost.pipeline.warm job NAME LOG ARGUMENTS_JSON\n"
          "       python -m weightboost.pipeline.warm serve NAME SNAKEMAKE_PID", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
