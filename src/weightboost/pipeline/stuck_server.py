"""What a job process does about a warm server that does not answer: the server's socket name
says which Snakemake started it (``server_name``), so that a job can tell a run that is over
(``run_alive``) from a server that is stuck, which it stops (``stop_stuck_server``) before it
runs its job itself (``weightboost.pipeline.warm``, docs/running.md "Warm workers").

Imported by every job process: only what asking a server needs.
"""

from __future__ import annotations

import os
import signal
import socket
import struct

NAME_PREFIX = "weightboost-warm-"   # a socket name: the prefix, its Snakemake's pid, random hex


def server_name(snakemake_pid: int) -> str:
    return f"{NAME_PREFIX}{snakemake_pid}-{os.urandom(6).hex()}"


def snakemake_pid(name: str) -> str:
    """The pid of the Snakemake that started the server ``name``, as text ("" if none)."""
    return name.removeprefix(NAME_PREFIX).split("-")[0] if name.startswith(NAME_PREFIX) else ""


def process_stat(pid) -> list[str]:
    """The fields of ``/proc/PID/stat`` after the command (state, parent, ...); [] if none."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


def alive(pid) -> bool:
    """Whether process ``pid`` runs (a zombie has ended)."""
    return process_stat(pid)[:1] not in ([], ["Z"])


def run_alive(name: str) -> bool:
    """Whether the Snakemake that started the server ``name`` still runs (True when the name
    carries no pid)."""
    pid = snakemake_pid(name)
    return not pid.isdigit() or alive(pid)


def peer(conn: socket.socket) -> tuple[int, int]:
    """The pid and user id of the process at the other end of a Unix socket."""
    pid, uid, _ = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED,
                                                      struct.calcsize("3i")))
    return pid, uid


def stop_stuck_server(conn: socket.socket, name: str) -> bool:
    """Kill the server at the other end of ``conn`` if it is a warm server of this user: the
    child of the Snakemake whose pid its socket ``name`` carries. Whether it was."""
    pid, uid = peer(conn)
    parent = process_stat(pid)[1:2]
    if uid != os.getuid() or parent != [snakemake_pid(name)]:
        return False
    try:
        os.kill(pid, signal.SIGKILL)  # a stuck process may not run a SIGTERM handler
    except OSError:
        return False
    return True
