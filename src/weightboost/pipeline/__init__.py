"""The pipeline's machinery, apart from the science: the config's validation (``config``), the
cell keys and the table sets' records (``provenance``, ``package_code``, ``environment``,
``lockfile``), how a job runs (``warm``, ``workflow_support``), the committed cell archive
(``cell_archive``) and the SLURM check (``cluster``). No cell's numbers depend on a module
here: none is part of a table set's code digest."""
