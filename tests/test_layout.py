"""The package's layout shows its architecture (the README's "Where things are"): every module
says what it owns, in its docstring and in its row of the package's map (docs/modules.md, which
lists every module once and nothing else), and no two modules import each other, directly or
through others, not even inside a function (an import deferred to call time is still a loop a
reader must hold in their head; the one that came back was cell_archive <-> provenance). The
workflow's files read in their include order: each uses only what common.smk and the files
before it define."""

import ast
import graphlib
import io
import re
import tokenize
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


WORKFLOW = ROOT / "workflow"
# a name a Snakemake file defines for the others: a function or an assignment at the top level,
# or a capitalised one inside a top-level block (``if SENSITIVITY:``)
SMK_DEFINITION = re.compile(
    r"^(?:(?:    )?def\s+(\w+)|([A-Za-z_]\w*)\s*=(?!=)|    ([A-Z_][A-Z0-9_]*)\s*=(?!=))", re.M)


def forward_references(texts: list[tuple[str, str]]) -> list[str]:
    """``file uses NAME of later`` for each name a Snakemake file (``texts``: name and text, in
    include order) uses that only a file included after it defines."""
    first = {}
    for index, (_, text) in enumerate(texts):
        for match in SMK_DEFINITION.finditer(text):
            first.setdefault(next(filter(None, match.groups())), index)
    found = []
    for index, (name, text) in enumerate(texts):
        tokens = tokenize.generate_tokens(io.StringIO(text).readline)
        for used in sorted({t.string for t in tokens if t.type == tokenize.NAME}):
            if first.get(used, -1) > index:
                found.append(f"{name} uses {used} of {texts[first[used]][0]}")
    return found


def test_each_snakemake_file_uses_only_what_the_files_before_it_define():
    # read in order, as a reader would: common.smk first, a study's functions before its rules
    order = re.findall(r'^include: "([^"]+)"', (WORKFLOW / "Snakefile").read_text(), re.M)
    assert order[0] == "rules/common.smk"
    texts = [(name, (WORKFLOW / name).read_text()) for name in order]
    assert forward_references(texts) == []
    # the check sees the kind it was written for: common.smk calling a later file's function
    moved = [(n, t + "\n\ndef uci_spec(w):\n    pass\n" if n.endswith("functions/data.smk")
              else t.replace("def uci_spec(", "def _was_uci_spec(")) for n, t in texts]
    assert "rules/common.smk uses uci_spec of rules/functions/data.smk" in \
        forward_references(moved)


def test_no_file_of_the_pipeline_s_machinery_is_above_400_lines():
    # one concern per file (the server, the warm-up, the stuck server apart): a file that grows
    # past this holds two, as warm.py did at 688 lines
    long = {path.name: n for path in (SRC / "weightboost" / "pipeline").glob("*.py")
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > 400}
    assert long == {}
