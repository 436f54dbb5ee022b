"""The README is a front door and the docs stay readable: its length and first screen, the
width of every line of prose, and every relative link pointing at a file that exists."""

import re

import pytest

from conftest import ROOT

PAGES = [ROOT / "README.md", ROOT / "config" / "README.md", ROOT / "reports" / "README.md",
         *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_the_readme_opens_with_the_two_commands_and_stays_short():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 300
    first = "\n".join(lines[:40])
    assert "make reproduce" in first and "make test" in first
    assert "](reports/article.pdf)" in first  # the result, one click away


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_lines_of_the_docs_are_at_most_120_characters(page):
    long = [n for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
            if len(line) > 120]
    assert long == [], f"{page.name}: lines {long} are longer than 120 characters"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_relative_links_of_the_docs_resolve(page):
    targets = [t for t in LINK.findall(page.read_text(encoding="utf-8"))
               if not re.match(r"[a-z]+:", t)]
    missing = [t for t in targets if not (page.parent / t).exists()]
    assert missing == []
