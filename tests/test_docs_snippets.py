"""Every Python snippet of the documentation's pages runs as written (a reader copies them into a notebook)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
PAGES = sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.parts and BLOCK.search(p.read_text()))
#: Pages whose snippets run experiments (Table 1 at 10 runs a cell in a process pool: about 4 CPU seconds): in the
#: whole suite, not the fast tier.
SLOW_PAGES = {"multidim-rr.md"}


@pytest.mark.parametrize("page", [pytest.param(page, marks=[pytest.mark.slow] if page.name in SLOW_PAGES else [],
                                               id=str(page.relative_to(DOCS))) for page in PAGES])
def test_python_snippets_of_a_page_run(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__docs__"}
    for number, match in enumerate(BLOCK.finditer(page.read_text()), 1):
        code = match.group(1)
        if "privacy-explorer" in code or code.lstrip().startswith(("pip ", "!")):
            continue
        try:
            exec(compile(code, f"{page.name} snippet {number}", "exec"), namespace)
        except Exception as error:  # name the page and the snippet
            pytest.fail(f"{page.relative_to(DOCS)}, snippet {number} raised {type(error).__name__}: {error}")
