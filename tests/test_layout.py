"""The package's layout shows its architecture (the README's "Where things are"): every module
says what it owns, in its docstring and in its row of the package's map (docs/modules.md, which
lists every module once and nothing else), and no two modules import each other, directly or through others, not even
inside a function (an import deferred to call time is still a loop a reader must hold in their
head; the one that came back was cell_archive <-> provenance)."""

import ast
import graphlib
import re
from collections import Counter

import pytest

from conftest import ROOT

SRC = ROOT / "src"
MODULES = {".".join(p.relative_to(SRC).with_suffix("").parts[:-1] if p.name == "__init__.py"
                    else p.relative_to(SRC).with_suffix("").parts): p
           for p in sorted((SRC / "weightboost").rglob("*.py"))}


def _imported(name: str, path) -> set[str]:
    """The package's modules that ``name`` (at ``path``) imports anywhere in its code."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package
                for _ in range(node.level - 1):
                    anchor = anchor.rpartition(".")[0]
                base = f"{anchor}.{base}".rstrip(".")
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                       for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in MODULES:  # a name inside a module: that module
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def test_no_modules_import_each_other_in_a_loop():
    graph = {name: _imported(name, path) for name, path in MODULES.items()}
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as exc:
        pytest.fail(f"modules that import each other: {' -> '.join(exc.args[1])}")


def test_the_loop_check_sees_an_import_inside_a_function(tmp_path, monkeypatch):
    # the loop this test file was written for was made of two imports inside functions
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text('"""a"""\n\ndef f():\n    from weightboost.b import g\n')
    b.write_text('"""b"""\nfrom weightboost.a import f\n')
    monkeypatch.setitem(MODULES, "weightboost.a", a)
    monkeypatch.setitem(MODULES, "weightboost.b", b)
    with pytest.raises(pytest.fail.Exception, match="weightboost.a"):
        test_no_modules_import_each_other_in_a_loop()


MAP = ROOT / "docs" / "modules.md"
ROW = re.compile(r"^\| `([^`]+)` \| (.+) \|$")


def map_rows(text: str) -> list[tuple[str, str]]:
    """(path below src/weightboost, what it owns) of each row of the map's tables."""
    return [m.groups() for m in map(ROW.match, text.splitlines()) if m and m[1] != "module"]


def map_path(name: str) -> str:
    """How the map writes a module: its path below src/weightboost, a package as its
    directory."""
    path = MODULES[name].relative_to(SRC / "weightboost")
    if path.name == "__init__.py":
        return f"{path.parent}/" if path.parent.parts else "weightboost/"
    return path.as_posix()


@pytest.mark.parametrize("name", MODULES)
def test_every_module_says_what_it_owns(name):
    assert ast.get_docstring(ast.parse(MODULES[name].read_text(encoding="utf-8"))), name
    owns = dict(map_rows(MAP.read_text(encoding="utf-8")))
    assert map_path(name) in owns, f"{map_path(name)} has no row in docs/modules.md"
    assert len(owns[map_path(name)].split()) >= 4, f"{map_path(name)}: say what it owns"


def test_the_map_lists_every_module_once_and_nothing_else():
    listed = [path for path, _ in map_rows(MAP.read_text(encoding="utf-8"))]
    assert Counter(listed) == Counter(map_path(name) for name in MODULES)
