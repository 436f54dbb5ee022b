"""``python -m weightboost.run [snakemake arguments]``: Snakemake, resuming after a crash.

A run killed part-way (SIGKILL, power loss) leaves Snakemake's lock in ``.snakemake/locks``,
and the next run refuses to start until ``snakemake --unlock``. This launcher removes the lock
only when it is stale, that is when no live Snakemake process works in the same directory,
then runs Snakemake with the given arguments; the default profile's ``rerun-incomplete`` redoes
the jobs that were interrupted. ``make reproduce`` uses it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def _workdir(args: list[str]) -> Path:
    for flag in ("--directory", "-d"):
        if flag in args and args.index(flag) + 1 < len(args):
            return Path(args[args.index(flag) + 1]).resolve()
    return Path.cwd().resolve()


def _live_snakemake_in(directory: Path) -> bool:
    me = os.getpid()
    for entry in Path("/proc").glob("[0-9]*"):
        if int(entry.name) in (me, os.getppid()):
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            cwd = Path(os.readlink(entry / "cwd")).resolve()
        except OSError:
            continue
        words = [a.decode(errors="replace") for a in argv if a]
        if not any("snakemake" in w for w in words) or any("weightboost.run" in w for w in words):
            continue
        if _workdir(words) == directory or (cwd == directory and "--directory" not in words):
            return True
    return False


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    directory = _workdir(args)
    locks = directory / ".snakemake" / "locks"
    if locks.is_dir() and any(locks.iterdir()) and not _live_snakemake_in(directory):
        print(f"weightboost.run: removing the stale Snakemake lock in {directory} (no Snakemake "
              "process is running there)", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "snakemake", *args, "--unlock"], check=True,
                       stdout=subprocess.DEVNULL)
    return subprocess.run([sys.executable, "-m", "snakemake", *args]).returncode


if __name__ == "__main__":
    sys.exit(main())
