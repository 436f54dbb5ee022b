"""User-facing errors of the pipeline.

Every error a user can cause (bad config, bad or missing input file, unreachable sources) is a
``ReproError`` whose message names the dataset, file or config key involved and says what to do.
The workflow and the command line print the message alone, without a traceback.
"""


class ReproError(Exception):
    """Base class for errors caused by input or configuration, not by a bug."""


class ConfigError(ReproError):
    """A config value is missing, malformed or names something unknown."""


class UnknownDatasetError(ConfigError):
    """A dataset key that is not defined under ``datasets`` in the config."""

    def __init__(self, name, known):
        known_list = ", ".join(sorted(known))
        super().__init__(
            f"unknown dataset {name!r}: it is not a key of the config section 'datasets' "
            f"(known: {known_list}). Fix the name, or add a spec for it in config/config.yaml."
        )
        self.name = name


class ChecksumError(ReproError):
    """A file's SHA-256 differs from the pinned value."""


class InputFileError(ReproError):
    """A raw file is empty, truncated or does not parse."""


class SourceUnavailableError(ReproError):
    """No configured source could deliver a file."""


class DiskFullError(ReproError):
    """The device ran out of space (or quota) while an output was written."""
