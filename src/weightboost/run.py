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


CONFIG_SUFFIXES = (".yaml", ".yml", ".json")


def check_configfiles(args: list[str]) -> str | None:
    """A message for a ``--configfile`` argument Snakemake would reject without naming the
    file and line: a YAML error, or a target written after ``--configfile`` (which reads every
    following word as a config file). None when all is well."""
    import yaml

    for k, flag in enumerate(args):
        if flag not in ("--configfile", "--configfiles"):
            continue
        for value in args[k + 1:]:
            if value.startswith("-"):
                break
            path = Path(value)
            if not path.exists():
                if path.suffix not in CONFIG_SUFFIXES:
                    return (f"{value!r} follows --configfile, which reads every following word "
                            f"as a config file. Put targets before it: snakemake {value} "
                            "--configfile my.yaml")
                return f"config file {value} does not exist"
            try:
                yaml.safe_load(path.read_text())
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
