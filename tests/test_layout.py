"""The package's layout shows its architecture (the README's "Where things are"): every module
says what it owns, and no two modules import each other, directly or through others, not even
inside a function (an import deferred to call time is still a loop a reader must hold in their
head; the one that came back was cell_archive <-> provenance)."""

import ast
import graphlib

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


@pytest.mark.parametrize("name", MODULES)
def test_every_module_says_what_it_owns(name):
    assert ast.get_docstring(ast.parse(MODULES[name].read_text(encoding="utf-8"))), name
