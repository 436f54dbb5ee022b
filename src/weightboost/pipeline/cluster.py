"""What a SLURM partition can give a submission, checked before the first one is queued: SLURM
keeps a request for more CPUs than its largest node has pending for ever (docs/running.md, "On
a cluster")."""

from __future__ import annotations

import subprocess

from weightboost.errors import ConfigError


def partition_cpus(partition: str | None, sinfo: str = "sinfo") -> int | None:
    """The CPUs of the largest node of ``partition`` (the default partition if None), or None
    when SLURM does not say (no sinfo, no such partition)."""
    command = [sinfo, "--noheader", "--format=%c"]
    if partition:
        command.append(f"--partition={partition}")
    try:
        out = subprocess.run(command, capture_output=True, text=True, timeout=30, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    counts = [int(word.rstrip("+")) for word in out.stdout.split()
              if word.rstrip("+").isdigit()]
    return max(counts) if counts else None


def check_partition_cpus(cores: int, partitions, sinfo: str = "sinfo") -> None:
    """Stop when ``cores`` exceeds the largest node of one of ``partitions``."""
    for partition in sorted(set(partitions), key=str):
        largest = partition_cpus(partition, sinfo)
        if largest is not None and cores > largest:
            name = partition or "the default partition"
            raise ConfigError(
                f"a grouped submission asks for up to {cores} CPUs (the profile's `cores`, or "
                f"--cores), but the largest node of {name} has {largest}: SLURM would keep it "
                f"pending for ever (PartitionConfig). Set `cores` in profiles/slurm/config.yaml "
                f"(or pass --cores) to at most {largest}")
