"""A dataset spec: one entry of the config section ``datasets``, which says how a raw UCI file is
laid out (separator, number of fields, which field is the class and which classes are +1, which
fields are dropped, which are nominal, the missing-value marker) and where it comes from.

Kept apart from ``weightboost.data.uci``, which parses the raw files with pandas: the fetch
jobs and the config checks read specs only, and a job process that does not import pandas
starts about a second sooner.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from weightboost.errors import ConfigError


@dataclass(frozen=True)
class DatasetSpec:
    """Layout of one raw UCI file; built from a config entry by ``DatasetSpec.from_config``."""

    name: str
    file: str
    fields: int
    label: int
    positive: tuple[str, ...]
    negative: tuple[str, ...]
    separator: str = ","
    drop: tuple[int, ...] = ()
    nominal: tuple[int, ...] = ()
    missing: str | None = "?"
    names: tuple[str, ...] | None = None
    sha256: str | None = None
    rows: int | None = None
    table_sha256: str | None = None
    uci_archive: dict | None = None
    openml: dict | None = None
    description: str = ""
    extra: dict = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_config(cls, name: str, entry: dict) -> "DatasetSpec":
        known = {f for f in cls.__dataclass_fields__ if f not in ("name", "extra")}
        values = {k: v for k, v in entry.items() if k in known}
        for key in ("positive", "negative", "drop", "nominal", "names"):
            if values.get(key) is not None:
                values[key] = tuple(str(v) if key in ("positive", "negative", "names") else int(v)
                                    for v in values[key])
        spec = cls(name=name, **values)
        spec.check()
        return spec

    def key(self, what: str) -> str:
        return f"datasets.{self.name}.{what}"

    def check(self) -> None:
        """Cross-field checks that a JSON schema cannot express."""
        in_range = range(self.fields)
        if self.label not in in_range:
            raise ConfigError(f"{self.key('label')} = {self.label} is not a field index "
                              f"0..{self.fields - 1}")
        for what, indices in (("drop", self.drop), ("nominal", self.nominal)):
            bad = [i for i in indices if i not in in_range or i == self.label]
            if bad:
                raise ConfigError(f"{self.key(what)} has invalid field indices {bad}: they must "
                                  f"be in 0..{self.fields - 1} and not the label field")
        if set(self.positive) & set(self.negative):
            raise ConfigError(f"{self.key('positive')} and {self.key('negative')} overlap")
        if self.names is not None and len(self.names) != self.fields:
            raise ConfigError(f"{self.key('names')} has {len(self.names)} names for "
                              f"{self.fields} fields")
        if self.separator not in (",", "whitespace"):
            raise ConfigError(f"{self.key('separator')} must be ',' or 'whitespace'")

    @property
    def attribute_fields(self) -> list[int]:
        dropped = set(self.drop)
        return [i for i in range(self.fields) if i != self.label and i not in dropped]

    def field_name(self, index: int) -> str:
        return self.names[index] if self.names else f"f{index}"

    def kind(self, index: int) -> str:
        return "nominal" if index in self.nominal else "numeric"
