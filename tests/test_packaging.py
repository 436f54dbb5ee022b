"""environment.yml must describe the same environment as pyproject.toml (the pip route)."""

import re
import tomllib

import yaml

from conftest import ROOT


def normalise(requirement: str) -> tuple[str, str]:
    name, spec = re.match(r"^\s*([A-Za-z0-9_.\-]+)\s*(.*)$", requirement).groups()
    return name.lower().replace("_", "-"), spec.replace(" ", "")


def test_environment_yml_matches_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = dict(normalise(r) for r in project["dependencies"])
    wanted |= dict(normalise(r) for r in project["optional-dependencies"]["test"])
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    conda = dict(normalise(d) for d in env["dependencies"]
                 if isinstance(d, str) and not d.startswith(("python", "pip")))
    assert conda == wanted
    pip_section = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert "-e ." in pip_section
