"""Warm workers: one server per local run (or SLURM job) imports the package and loads its
kernels once, then forks a child for each job; a job's own process (the rule's command,
``main``) imports only this module, sends the job and waits, or runs the job itself where no
server answers. The server takes requests only from its own user and for ``JOBS`` only
(docs/running.md, "Warm workers" and "On a cluster").
"""

from __future__ import annotations

# only what a job's process needs: it starts once per cell (the rest is imported where used)
import contextlib
import importlib
import io
import json
import os
import signal
import socket
import socketserver
import sys
import threading

from weightboost.pipeline import stuck_server, warm_kernels

ENV = "WEIGHTBOOST_WARM"            # the server's socket name, set for the jobs of a run
LOG_ENV = "WEIGHTBOOST_WARM_LOG"    # the path of its log, set beside it
JOBS = {                            # job name -> the function that does the job's work
    "uci_cell": "weightboost.experiment.uci:uci_cell",
    "sensitivity_cell": "weightboost.experiment.study_cells:sensitivity_cell",
    "reuters_cell": "weightboost.experiment.reuters:reuters_cell",
    "regboost_cell": "weightboost.experiment.regboost_cells:regboost_cell",
    "regboost_semi_cell": "weightboost.experiment.regboost_cells:regboost_semi_cell",
    "barrier_cell": "weightboost.experiment.barrier:barrier_cell",
    "fetch_uci": "weightboost.data.jobs:fetch_uci",
    "parse_uci": "weightboost.data.jobs:parse_uci",
    "generate_dataset": "weightboost.data.jobs:generate_dataset",
    "fetch_reuters": "weightboost.data.jobs:fetch_reuters",
    "reuters_features": "weightboost.data.jobs:reuters_features",
}
# a cell job's arguments naming the software environment and the package code its key was
# computed for, checked (and removed) by ``_work`` before its function is called
ENVIRONMENT_ARGUMENT = "environment"
CODE_ARGUMENT = "code"
CELL_JOBS = frozenset(job for job in JOBS if job.endswith("_cell"))
SERVER_LOG = "logs/warm_server.log"
ABANDONED = 75                      # a job's status when its run ended before its job did
JEMALLOC_CONF = "JE_ARROW_MALLOC_CONF"  # the configuration of pyarrow's bundled jemalloc
# how long a job waits for a child to start its job: longer than a fresh clone's warm-up
START_TIMEOUT = 300.0
# whether this platform has the abstract Unix sockets the server listens on
AVAILABLE = sys.platform.startswith("linux") and hasattr(socket, "SO_PEERCRED")
LOGGER = "weightboost-warm-server"
_server: subprocess.Popen | None = None


def run_job(job: str, log: str | None, **kwargs) -> int:
    """Do ``job`` with ``kwargs`` (JSON values) and return its exit status: in a child of the
    run's warm server if one answers, else in this process. Messages go to stderr as
    ``workflow_support.run_step`` writes them."""
    if job not in JOBS:
        raise ValueError(f"unknown job {job!r} (known: {sorted(JOBS)})")
    name = os.environ.get(ENV, "")
    if name and name != "off" and AVAILABLE:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            if conn.connect_ex("\0" + name) == 0:
                return _remote(conn, name, job, log, kwargs)
    return _local(job, log, kwargs)


def _remote(conn, name, job, log, kwargs) -> int:
    server_log = os.environ.get(LOG_ENV, SERVER_LOG)  # a run's, or a SLURM job's (``start``)
    conn.settimeout(START_TIMEOUT)
    reader = conn.makefile("rb")
    try:
        conn.sendall(json.dumps({"job": job, "log": log, "kwargs": kwargs}).encode() + b"\n")
        started = reader.readline()
    except TimeoutError:
        stopped = stuck_server.stop_stuck_server(conn, name)
        print(f"the warm server started no worker within {START_TIMEOUT:g} s "
              f"({'stopped it' if stopped else 'left it alone'}; see {server_log}); running the "
              "job in this process", file=sys.stderr)
        return _local(job, log, kwargs)
    except OSError:  # the server ended before it took the job (it resets a queued connection)
        started = b""
    conn.settimeout(None)
    try:
        reply = reader.readline() if started else b""
    except OSError:
        reply = b""
    if not reply and not stuck_server.run_alive(name):  # the run is over: its jobs must end
        print("the run's Snakemake is gone: its warm server ended this job unfinished",
              file=sys.stderr)
        return ABANDONED
    if not reply:  # the server went away (stopped, or failed to warm up): do the job here
        print(f"the warm worker ended without an answer (see {server_log}); running the job "
              "in this process", file=sys.stderr)
        return _local(job, log, kwargs)
    answer = json.loads(reply)
    if answer.get("stderr"):
        print(answer["stderr"], file=sys.stderr, end="")
    return int(answer["status"])


def _local(job, log, kwargs) -> int:
    from weightboost.pipeline.workflow_support import job_status

    return job_status(job, log, lambda: _work(job, kwargs), sys.stderr)


def _target(job):
    module, _, function = JOBS[job].partition(":")
    return getattr(importlib.import_module(module), function)


def _work(job, kwargs):
    """The job's work: its outputs restored from a cell archive if one holds them all, else the
    job's function called, in the code its outputs are keyed for (checked again after it)."""
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


class _Handler(socketserver.StreamRequestHandler):
    def handle(self):
        # in the forked child: one job
        pid, uid = stuck_server.peer(self.connection)
        if uid != os.getuid():
            return
        line = self.rfile.readline()
        if not line:  # a probe that connected and left
            return
        request = json.loads(line)
        self._send({"started": os.getpid()})
        job = request.get("job")
        if job not in JOBS:
            self._send({"status": 2, "stderr": f"unknown job {job!r}\n"})
            return
        watched = self.connection.dup()

        def watch():  # end this child when the job's process goes away (Snakemake killed it)
            with contextlib.suppress(OSError):
                while watched.recv(1):
                    pass
            os._exit(1)

        threading.Thread(target=watch, daemon=True).start()
        import logging

        from weightboost.pipeline.workflow_support import job_status

        log = logging.getLogger(LOGGER)
        log.info("%s for job process %d: started in worker %d", job, pid, os.getpid())
        # what the job prints (warnings included) goes back to the job's process
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(err):
            status = job_status(job, request.get("log"),
                                lambda: _work(job, request["kwargs"]), err)
        log.info("%s for job process %d: exit status %d", job, pid, status)
        self._send({"status": status, "stderr": err.getvalue()})

    def _send(self, message):
        self.wfile.write(json.dumps(message).encode() + b"\n")
        self.wfile.flush()


class _Server(socketserver.ForkingMixIn, socketserver.UnixStreamServer):
    max_children = 256
    request_queue_size = 256

    def __init__(self, name, parent):
        super().__init__("\0" + name, _Handler, bind_and_activate=True)
        self.parent = parent

    def service_actions(self):
        super().service_actions()
        if os.getppid() != self.parent:  # the Snakemake run is gone: so are its jobs (each job's
            # process, left without a reply, sees run_alive false and ends with ABANDONED)
            for pid in self.active_children or ():
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)  # a compiled call would delay a SIGTERM
            os._exit(0)


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

    log = logging.getLogger(LOGGER)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s warm server: %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    log.info("listening as %s for Snakemake pid %d; warming up", name, parent)
    warm_kernels.warm_up()
    log.info("ready")
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    server.serve_forever(poll_interval=0.5)


def batch_step_log() -> str | None:
    """The server log of a SLURM job's batch step (one per job: a cluster's jobs share the
    working directory); None outside one (``srun`` sets ``SLURM_STEP_ID`` in every job step)."""
    if "SLURM_JOB_ID" in os.environ and "SLURM_STEP_ID" not in os.environ:
        return f"logs/warm_server.slurm-{os.environ['SLURM_JOB_ID']}.log"
    return None


def launch(name: str, workdir, log_path):
    """The server process ``serve NAME PID``, logging to ``log_path``: a ``subprocess.Popen``,
    or what behaves as one (the test suite's warm Snakemake forks its servers instead)."""
    import subprocess

    with open(log_path, "a") as handle:
        return subprocess.Popen([sys.executable, "-m", "weightboost.pipeline.warm", "serve", name,
                                 str(os.getpid())], stdin=subprocess.DEVNULL, stdout=handle,
                                stderr=handle, cwd=workdir)


def start(workdir: str | os.PathLike = ".", log: str = SERVER_LOG) -> str | None:
    """Start the run's server (from Snakemake's ``onstart``, or in a SLURM job's batch step);
    set ``WEIGHTBOOST_WARM`` for the jobs. Returns its socket name, or None where warm workers
    are off or unavailable. ``log``: the server's log, relative to ``workdir``."""
    from pathlib import Path

    global _server
    if os.environ.get(ENV) == "off" or not AVAILABLE:
        return None
    name = stuck_server.server_name(os.getpid())
    log_path = Path(workdir) / log
    log_path.parent.mkdir(parents=True, exist_ok=True)
    _server = launch(name, workdir, log_path)
    os.environ[ENV] = name
    os.environ[LOG_ENV] = str(log_path)
    return name


def stop() -> None:
    """Stop the run's server (from ``onsuccess`` and ``onerror``)."""
    global _server
    if _server is not None:
        _server.kill()  # a no-op once it has exited
        _server.wait()
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
    if len(argv) == 3 and argv[0] == "serve":  # if it fails, the jobs run in their own processes
        serve(argv[1], int(argv[2]))
        return 0
    print("usage: python -m weightboost.pipeline.warm job NAME LOG ARGUMENTS_JSON\n"
          "       python -m weightboost.pipeline.warm serve NAME SNAKEMAKE_PID", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
