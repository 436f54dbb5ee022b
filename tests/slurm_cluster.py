"""A one-node SLURM cluster for the tests: munged, slurmctld and slurmd started from Debian's
packages with a private key, sockets, ports, state and logs under one temporary directory, in
the foreground so that they are stopped by their own pids. No accounting database: job states
come from squeue and scontrol, as on many small clusters."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

# Where srun looks when SLURM_CONF is unset: the executor's job step removes SLURM_CONF (with
# every SLURM_* variable but the job's identity) before it calls srun, so the test cluster's
# configuration must be here too while it runs. It is written only where none exists.
SYSTEM_CONF = Path("/etc/slurm/slurm.conf")
CLUSTER_NAME = "weightboost-test"  # the test cluster's name in its configuration
DAEMONS = ("munged", "slurmctld", "slurmd")
CLIENTS = ("sbatch", "squeue", "scontrol", "sinfo")


def clear_leftover() -> bool:
    """Remove what a killed test run (kill -9: ``stop`` never ran) left behind, and say whether
    there was any: its configuration at ``SYSTEM_CONF``, recognised by ``CLUSTER_NAME``, which
    the next run would take for the machine's own SLURM and skip, and its daemons, by the pid
    files its configuration names (munged's beside its socket). Any other configuration is the
    machine's and is left alone."""
    try:
        lines = SYSTEM_CONF.read_text().splitlines()
    except OSError:
        return False
    if f"ClusterName={CLUSTER_NAME}" not in lines:
        return False
    settings = dict(line.split("=", 1) for line in lines if "=" in line)
    pid_files = [Path(settings[key]) for key in ("SlurmdPidFile", "SlurmctldPidFile")
                 if key in settings]
    if settings.get("AuthInfo", "").startswith("socket="):
        pid_files.append(Path(settings["AuthInfo"][len("socket="):]).with_name("munged.pid"))
    for pid_file in pid_files:
        try:
            os.kill(int(pid_file.read_text().split()[0]), signal.SIGKILL)
        except (OSError, ValueError, IndexError):
            pass  # gone already, or never started
    SYSTEM_CONF.unlink(missing_ok=True)
    return True


def missing_programs() -> list[str]:
    return [p for p in DAEMONS + CLIENTS if shutil.which(p) is None]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class OneNodeSlurm:
    def __init__(self, root: Path, partition: str):
        self.root, self.partition = Path(root), partition
        self.cpus = os.cpu_count() or 1
        # what slurmd finds on the machine, less a margin (a larger RealMemory drains the node)
        self.memory_mb = int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**20
                             * 0.9)
        self.node = socket.gethostname().split(".")[0]
        self.conf = self.root / "slurm.conf"
        self.processes: list[subprocess.Popen] = []

    @property
    def env(self) -> dict:
        """What a client (sbatch, squeue, the executor plugin) needs to find this cluster."""
        return {"SLURM_CONF": str(self.conf)}

    def start(self, timeout: float = 60) -> None:
        for sub in ("state", "spool"):
            (self.root / sub).mkdir(parents=True, exist_ok=True)
        key = self.root / "munge.key"
        key.write_bytes(os.urandom(1024))
        key.chmod(0o400)
        socket_path = self.root / "munge.socket"
        self._spawn("munged", ["munged", "--foreground", "--force", f"--key-file={key}",
                               f"--socket={socket_path}", f"--pid-file={self.root}/munged.pid",
                               f"--log-file={self.root}/munged.log",
                               f"--seed-file={self.root}/munged.seed"])
        self._wait(socket_path.exists, timeout, "munged did not create its socket")
        self.conf.write_text(self._slurm_conf(socket_path))
        SYSTEM_CONF.parent.mkdir(parents=True, exist_ok=True)
        with open(SYSTEM_CONF, "x") as handle:  # never replaces a machine's own configuration
            handle.write(self.conf.read_text())
        self.wrote_system_conf = True
        self._spawn("slurmctld", ["slurmctld", "-D", "-f", str(self.conf)])
        self._spawn("slurmd", ["slurmd", "-D", "-f", str(self.conf), "-N", self.node])
        self._wait(self._node_idle, timeout, "the node did not become idle")

    def stop(self) -> None:
        for process in reversed(self.processes):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in reversed(self.processes):
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.processes.clear()
        if getattr(self, "wrote_system_conf", False):
            SYSTEM_CONF.unlink(missing_ok=True)
            self.wrote_system_conf = False

    def job(self, job_id: str) -> dict:
        """scontrol's record of a job: JobState, ExitCode, Partition, NumCPUs, ..."""
        out = self.run(["scontrol", "show", "job", "--oneliner", str(job_id)]).stdout
        return dict(item.split("=", 1) for item in out.split() if "=" in item)

    def run(self, command: list[str]) -> subprocess.CompletedProcess:
        return subprocess.run(command, capture_output=True, text=True, timeout=60,
                              env={**os.environ, **self.env})

    def log(self) -> str:
        return "\n".join(f"--- {name}\n" + (self.root / f"{name}.out").read_text()[-2000:]
                         for name in DAEMONS if (self.root / f"{name}.out").exists())

    def _spawn(self, name: str, command: list[str]) -> None:
        out = open(self.root / f"{name}.out", "w")
        self.processes.append(subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                               env={**os.environ, **self.env}))

    def _node_idle(self) -> bool:
        result = self.run(["sinfo", "--noheader", "--format=%T", "--nodes", self.node])
        return result.returncode == 0 and result.stdout.strip() == "idle"

    def _wait(self, ready, timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if ready():
                return
            if any(p.poll() is not None for p in self.processes):
                break
            time.sleep(0.5)
        self.stop()
        raise RuntimeError(f"{what}\n{self.log()}")

    def _slurm_conf(self, munge_socket: Path) -> str:
        r = self.root
        return "\n".join([
            f"ClusterName={CLUSTER_NAME}", f"SlurmctldHost={self.node}",
            "SlurmUser=root", "SlurmdUser=root",
            f"SlurmctldPort={_free_port()}", f"SlurmdPort={_free_port()}",
            "AuthType=auth/munge", "CredType=cred/munge", f"AuthInfo=socket={munge_socket}",
            f"StateSaveLocation={r}/state", f"SlurmdSpoolDir={r}/spool",
            f"SlurmctldPidFile={r}/slurmctld.pid", f"SlurmdPidFile={r}/slurmd.pid",
            f"SlurmctldLogFile={r}/slurmctld.log", f"SlurmdLogFile={r}/slurmd.log",
            "ProctrackType=proctrack/linuxproc", "TaskPlugin=task/none",
            "AccountingStorageType=accounting_storage/none",
            "JobAcctGatherType=jobacct_gather/none", "JobCompType=jobcomp/none",
            "SchedulerType=sched/backfill", "SelectType=select/cons_tres",
            "SelectTypeParameters=CR_CPU", "MpiDefault=none", "ReturnToService=2",
            "MinJobAge=3600",  # finished jobs stay visible to squeue/scontrol during the test
            f"NodeName={self.node} CPUs={self.cpus} RealMemory={self.memory_mb} State=UNKNOWN",
            f"PartitionName={self.partition} Nodes={self.node} Default=YES MaxTime=INFINITE "
            "State=UP", ""])
