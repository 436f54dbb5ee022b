"""What a SLURM partition can give a submission, checked before the first one is queued: SLURM
keeps a request for more CPUs than its largest node has pending for ever (docs/running.md, "On
a cluster")."""

from __future__ import annotations

import subprocess

from weightboost.errors import ConfigError


def check_partition_cpus(cores: int, partitions) -> None:
    """Stop when ``cores`` exceeds the CPUs of the largest node of one of ``partitions`` (None:
    the default partition); one SLURM says nothing of (no sinfo, no such partition) passes."""
    for partition in sorted(set(partitions), key=str):
        command = ["sinfo", "--noheader", "--format=%c"]
        if partition:
            command.append(f"--partition={partition}")
        try:
            out = subprocess.run(command, capture_output=True, text=True, timeout=30, check=True)
        except (OSError, subprocess.SubprocessError):
            continue
        counts = [int(word.rstrip("+")) for word in out.stdout.split()
                  if word.rstrip("+").isdigit()]
        if counts and cores > max(counts):
            name, largest = partition or "the default partition", max(counts)
            raise ConfigError(
                f"a grouped submission asks for up to {cores} CPUs (the profile's `cores`, or "
                f"--cores), but the largest node of {name} has {largest}: SLURM would keep it "
                f"pending for ever (PartitionConfig). Set `cores` in profiles/slurm/config.yaml "
                f"(or pass --cores) to at most {largest}")
