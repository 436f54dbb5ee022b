"""The pipeline's machinery, apart from the science: config, cell keys and records, jobs, cell
archive, SLURM check (docs/modules.md). No cell's numbers depend on a module here."""
