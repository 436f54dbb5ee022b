"""The test suite's warm Snakemake (tests/warm_snakemake.py) holds the package warm and runs one
thread: it starts each run's warm server by forking itself (``install``) instead of starting a
Python that imports it all again (``weightboost.pipeline.warm.launch``), about 3 s of CPU a run.
The same server, a child of the same Snakemake, in the same directory with the same environment
and log; a process running other threads starts it afresh (a thread alive at fork time may hold
a lock the child then waits on for ever)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time

from weightboost.pipeline import warm


class Forked:
    """A forked server, driven by ``warm.stop`` and the tests as its ``subprocess.Popen`` would
    be."""

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


def single_threaded() -> bool:
    """Whether this process runs one thread (native ones counted): only then may it fork."""
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


def fork_server(name: str, workdir, log_path) -> Forked:
    """What ``warm.launch`` starts, as a child of this process: ``serve NAME PID`` in
    ``workdir``, its standard streams on ``log_path``."""
    parent = os.getpid()
    pid = os.fork()
    if pid:
        return Forked(pid)
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
        code = warm.main(["serve", name, str(parent)])
    finally:  # none of the parent's exit handlers (they are Snakemake's)
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def install() -> None:
    """From now on, this process (and the processes it forks) fork their warm servers while
    they run one thread."""
    started = warm.launch

    def launch(name, workdir, log_path):
        if single_threaded():
            return fork_server(name, workdir, log_path)
        return started(name, workdir, log_path)

    warm.launch = launch
