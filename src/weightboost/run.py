"""``python -m weightboost.run [snakemake arguments]``: Snakemake, resuming after a crash: with
no live Snakemake in the directory, it stops the jobs a killed one left and removes its stale
lock first (docs/integrity.md, "Resuming after a kill")."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from weightboost.pipeline.stuck_server import alive


def _workdir(args: list[str], cwd: Path) -> Path:
    """The directory Snakemake works in when run with ``args`` from ``cwd``."""
    for flag in ("--directory", "-d"):
        if flag in args and args.index(flag) + 1 < len(args):
            return (cwd / args[args.index(flag) + 1]).resolve()
    return cwd.resolve()


def _processes():
    """(pid, command-line words, cwd) of every process of this user but this one and its parent."""
    me, uid = os.getpid(), os.getuid()
    for entry in Path("/proc").glob("[0-9]*"):
        if int(entry.name) in (me, os.getppid()):
            continue
        try:
            if entry.stat().st_uid != uid:
                continue
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            cwd = Path(os.readlink(entry / "cwd")).resolve()
        except OSError:
            continue
        yield int(entry.name), [a.decode(errors="replace") for a in argv if a], cwd


def _is_snakemake(words: list[str]) -> bool:
    """Whether a command line runs Snakemake itself (``snakemake ...``, ``python -m snakemake
    ...``); not a job it started, whose words may name ``.snakemake/scripts/...``."""
    if any(w == "-m" and nxt == "snakemake" for w, nxt in zip(words, words[1:])):
        return True
    return any(Path(w).name == "snakemake" for w in words[:2])


def _live_snakemake_in(directory: Path) -> bool:
    # another Snakemake's directory is read from its own cwd, not ours
    return any(_is_snakemake(words) and _workdir(words, cwd) == directory
               for _, words, cwd in _processes())


def orphaned_jobs(directory: Path) -> list[int]:
    """The processes working in ``directory`` whose command line names
    ``weightboost.pipeline.warm`` or a script of Snakemake's (``.snakemake/scripts/``)."""
    scripts = str(directory / ".snakemake" / "scripts") + "/"
    return sorted(pid for pid, words, cwd in _processes()
                  if cwd == directory and not _is_snakemake(words)
                  and any("weightboost.pipeline.warm" in w or w.startswith(scripts)
                          or w.startswith(".snakemake/scripts/") for w in words))


def stop_orphaned_jobs(directory: Path, wait: float = 10.0) -> int:
    """SIGKILL the ``orphaned_jobs`` of ``directory`` and wait (up to ``wait`` seconds) until
    they are gone; how many there were. Call only when no Snakemake works there."""
    pids = orphaned_jobs(directory)
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline and any(map(alive, pids)):
        time.sleep(0.05)
    return len(pids)


def check_configfiles(args: list[str]) -> str | None:
    """A message for a ``--configfile`` argument Snakemake would reject without naming the file
    and line (a YAML error, a target after ``--configfile``); None when all is well."""
    import yaml

    from weightboost.fileio import read_yaml

    for k, flag in enumerate(args):
        if flag not in ("--configfile", "--configfiles"):
            continue
        for value in args[k + 1:]:
            if value.startswith("-"):
                break
            path = Path(value)
            if not path.exists():
                if path.suffix not in (".yaml", ".yml", ".json"):
                    return (f"{value!r} follows --configfile, which reads every following word "
                            f"as a config file. Put targets before it: snakemake {value} "
                            "--configfile my.yaml")
                return f"config file {value} does not exist"
            try:
                read_yaml(path)
            except yaml.YAMLError as exc:
                mark = getattr(exc, "problem_mark", None)
                where = f", line {mark.line + 1}, column {mark.column + 1}" if mark else ""
                problem = getattr(exc, "problem", None) or str(exc)
                return f"config file {value}{where}: {problem}. Fix the YAML and run again"
    return None


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    problem = check_configfiles(args)
    if problem:
        print(f"weightboost.run: {problem}", file=sys.stderr)
        return 2
    directory = _workdir(args, Path.cwd())
    locks = directory / ".snakemake" / "locks"
    if not _live_snakemake_in(directory):
        stopped = stop_orphaned_jobs(directory)
        if stopped:
            print(f"weightboost.run: stopped {stopped} job processes that a killed Snakemake "
                  f"left running in {directory}", file=sys.stderr)
        if locks.is_dir() and any(locks.iterdir()):
            print(f"weightboost.run: removing the stale Snakemake lock in {directory} (no "
                  "Snakemake process is running there)", file=sys.stderr)
            subprocess.run([sys.executable, "-m", "snakemake", *args, "--unlock"], check=True,
                           stdout=subprocess.DEVNULL)
    return subprocess.run([sys.executable, "-m", "snakemake", *args]).returncode


if __name__ == "__main__":
    sys.exit(main())
