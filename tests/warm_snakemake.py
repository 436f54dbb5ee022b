"""Snakemake for the tests without its start-up: a process that has imported Snakemake once
forks a child for each run (the idea of ``weightboost.pipeline.warm``, for the command line instead of a
job).

A ``python -m snakemake ...`` spends about 2.3 s of CPU importing Snakemake, its plugins,
pandas and SQLAlchemy before it reads the workflow; the suite runs Snakemake about a hundred
times. The zygote also warms the package (``weightboost.pipeline.warm_kernels.warm_up``), so that
a run's warm server, which costs about 3 s of imports and kernel loading started afresh, is
forked from the run's Snakemake (tests/forked_server.py). The child of ``WarmSnakemake.run`` is
a fresh process in every way a run can see (its own working directory, environment, standard
streams and process group) that calls Snakemake's command-line entry point
(``snakemake.cli.main``) with the same arguments; only the imports are shared.
``WEIGHTBOOST_TEST_COLD_SNAKEMAKE=1`` runs every Snakemake in its own process.

The zygote's command line ends in ``-m snakemake`` on purpose: a forked child keeps it, and
the launcher (``weightboost.run``) recognises a live Snakemake by its command line and working
directory.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import select
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

COLD_ENV = "WEIGHTBOOST_TEST_COLD_SNAKEMAKE"


def serve() -> None:
    """The zygote: import, then for each request line on stdin fork a child that runs Snakemake,
    answer the child's pid at once and its exit status when it ends."""
    import importlib
    import pkgutil
    import traceback

    import forked_server
    from weightboost.pipeline import warm, warm_kernels

    # one thread, as the warm server runs: a run's server is then forked from its Snakemake,
    # which holds the package warm (below), rather than started afresh
    warm.single_thread_environment()
    import snakemake.api  # noqa: F401
    import snakemake.cli

    warm_kernels.warm_up()
    forked_server.install()

    for module in pkgutil.iter_modules():  # the plugins Snakemake collects at each start
        if module.name.startswith("snakemake_") and "_plugin_" in module.name:
            try:
                importlib.import_module(module.name)
            except Exception:  # the child will meet (and report) it itself
                pass
    for line in sys.stdin:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                os.setpgid(0, 0)  # a timeout stops the run with everything it started
                os.chdir(request["cwd"])
                os.environ.clear()
                os.environ.update(request["env"])
                os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
                for fd, path in ((1, request["stdout"]), (2, request["stderr"])):
                    os.dup2(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), fd)
                sys.argv = ["snakemake", *request["argv"]]
                try:
                    snakemake.cli.main(request["argv"])
                    code = 0
                except SystemExit as exc:
                    code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
            except BaseException:
                traceback.print_exc()
            finally:  # os._exit runs no exit handlers: flush what they would
                logging.shutdown()
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        print(pid, flush=True)
        _, status = os.waitpid(pid, 0)
        print(os.waitstatus_to_exitcode(status), flush=True)


class WarmSnakemake:
    """One zygote per test process, started at the first run; runs are serialised."""

    def __init__(self):
        self._process = None
        self._lock = threading.Lock()
        self._home = Path(tempfile.mkdtemp(prefix="warm-snakemake-"))
        atexit.register(shutil.rmtree, self._home, ignore_errors=True)

    def _zygote(self):
        if self._process is None or self._process.poll() is not None:
            self._process = subprocess.Popen(
                [sys.executable, __file__, "-m", "snakemake"], cwd=self._home,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
            self._pending = b""
            atexit.register(self.close)
        return self._process

    def close(self) -> None:
        """End the zygote (it ends by itself when its stdin closes)."""
        if self._process is not None:
            self._process.stdin.close()
            self._process.wait(timeout=30)
            self._process.stdout.close()
            self._process = None

    def _answer(self, timeout: float | None = None) -> int | None:
        """The zygote's next line as an int; None if none came within ``timeout`` seconds."""
        fd = self._process.stdout.fileno()
        while b"\n" not in self._pending:
            ready, _, _ = select.select([fd], [], [], timeout)
            if not ready:
                return None
            chunk = os.read(fd, 4096)
            if not chunk:
                raise RuntimeError("the warm Snakemake ended; run with "
                                   f"{COLD_ENV}=1 to see the error")
            self._pending += chunk
        line, self._pending = self._pending.split(b"\n", 1)
        return int(line)

    def run(self, argv: list[str], cwd: Path, env: dict, timeout: float,
            ) -> subprocess.CompletedProcess:
        """As ``subprocess.run([python, -m, snakemake, *argv], cwd=cwd, env=env,
        capture_output=True, text=True, timeout=timeout)``."""
        with self._lock:
            zygote = self._zygote()
            out, err = self._home / "stdout", self._home / "stderr"
            zygote.stdin.write((json.dumps({"argv": argv, "cwd": str(cwd), "env": env,
                                            "stdout": str(out), "stderr": str(err)})
                                + "\n").encode())
            pid = self._answer()
            code = self._answer(timeout)
            command = [sys.executable, "-m", "snakemake", *argv]
            if code is None:
                os.killpg(pid, 9)
                self._answer()
                raise subprocess.TimeoutExpired(command, timeout)
            return subprocess.CompletedProcess(command, code, out.read_text(), err.read_text())


def usable() -> bool:
    return os.environ.get(COLD_ENV) != "1" and hasattr(os, "fork")


if __name__ == "__main__":
    serve()
