"""Write the page "The papers, item by item" from the docstrings (Sphinx extension of the docs).

At ``builder-inited`` this writes ``docs/generated/paper-map.md`` (not committed): for each of the four papers a
table of its numbered items (:data:`explorer.paper_items.ITEMS`), the functions of :mod:`explorer.core` whose
docstrings name the item in their ``Computes:`` marker (:func:`explorer.paper_items.paper_map`), linked to the
API reference, and the tests that reproduce it.  A test reproduces an item when it calls one of the item's
functions and its code or comments name the item ("Table 3", ``test_..._prop_5``) without naming only other
papers (then, a test named after the function that names the item's paper), and the function's own
doctest when one of its lines names the item.  Each disagreement between the markers and the list (:func:`explorer.paper_items.problems`) is a
warning, which fails the ``-W`` build.
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

from sphinx.util import logging

from explorer.paper_items import ITEMS, PaperItem, core_objects, paper_map, problems
from explorer.references import PAPERS, cite

logger = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "generated" / "paper-map.md"

#: How a test's text names an item's kind: the papers' words, their abbreviations and test-name spellings.
_KIND_WORDS = {
    "Eq.": r"(?:eqs?|equations?|expressions?)", "Prop.": r"(?:props?|propositions?)",
    "Def.": r"(?:defs?|definitions?)", "Corollary": r"(?:corollary|cor)", "Alg.": r"(?:algs?|algorithms?)", "Protocol": r"(?:protocols?)",
    "Table": r"(?:tables?)", "Example": r"(?:examples?)", "Fig.": r"(?:figs?|figures?)",
}
#: How a test names a paper: its authors and year, or the code the test suite uses for it.
_PAPER_WORDS = {
    "rr-dp": r"\b000\b|soria-comas \(?2018|connecting",
    "permutation-paradigm": r"\b002\b|ruiz",
    "multidim-rr": r"\b003\b|2022|multi-?dim|mdrr|adult",
    "new-directions": r"\b004\b|muralidhar|2016",
}
_MAX_TESTS = 3


def _mentions(item: PaperItem) -> re.Pattern:
    return re.compile(rf"(?<![a-z]){_KIND_WORDS[item.kind]}\.?[\s_(]*{item.number}(?![\d])", re.I)


def test_functions(root: Path = ROOT / "tests") -> list[tuple[str, str, set[str]]]:
    """Every ``test_*`` function under ``root``: its pytest id, its source and the names it calls."""
    found = []
    for path in sorted(root.rglob("test_*.py")):
        source = path.read_text(encoding="utf-8")
        for node in ast.parse(source).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                start = node.decorator_list[0].lineno if node.decorator_list else node.lineno
                text = "\n".join(source.splitlines()[start - 1:node.end_lineno])
                # a comment just above the test often names the paper's item it reproduces
                above = source.splitlines()[max(start - 3, 0):start - 1]
                text = "\n".join(line for line in above if line.lstrip().startswith("#")) + "\n" + text
                called = {(call.func.id if isinstance(call.func, ast.Name) else call.func.attr)
                          for call in ast.walk(node) if isinstance(call, ast.Call)
                          and isinstance(call.func, (ast.Name, ast.Attribute))}
                found.append((f"{path.relative_to(ROOT).as_posix()}::{node.name}", text, called))
    return found


def reproducing_tests(item: PaperItem, functions: list[str], tests: list[tuple[str, str, set[str]]]) -> list[str]:
    """The tests that call one of ``functions`` (qualified names) and name ``item`` (best first).

    A test that names only other papers is left out.  First come the tests whose name names the item, then
    those that name its paper, then the rest; after them, a test named after one of the functions that
    names the item's paper but not the item (``test_permutation_extent_002``: the function on the paper's
    example).
    """
    names = {qualified.rsplit(".", 1)[-1] for qualified in functions}
    mention = _mentions(item)
    own = re.compile(_PAPER_WORDS[item.paper], re.I)
    others = [re.compile(words, re.I) for key, words in _PAPER_WORDS.items() if key != item.paper]
    ranked = []
    for test_id, text, called in tests:
        if not names & called:
            continue
        test_name = test_id.rsplit("::", 1)[-1]
        names_paper = bool(own.search(text))
        if not names_paper and any(other.search(text) for other in others):
            continue
        if mention.search(text):
            ranked.append((-(2 * bool(mention.search(test_name)) + names_paper), test_id))
        elif names_paper and any(name in test_name for name in names):
            ranked.append((1, test_id))
    return [test_id for _, test_id in sorted(ranked)[:_MAX_TESTS]]


def _doctest_names(item: PaperItem, obj: object) -> bool:
    """Whether a line of the object's doctest (run by ``pytest --doctest-modules``) names the item."""
    mention = _mentions(item)
    return any(line.lstrip().startswith(">>>") and mention.search(line)
               for line in (inspect.getdoc(obj) or "").splitlines())


def _cell(text: str) -> str:
    """Text for a Markdown table cell: emphasis and cell separators escaped."""
    return re.sub(r"([\\|*_`<>\[\]])", r"\\\1", text)


def _link(qualified: str, obj: object) -> str:
    role = "py:class" if isinstance(obj, type) else "py:func"
    return f"{{{role}}}`{qualified.removeprefix('explorer.core.')} <{qualified}>`"


def render() -> str:
    """The page, in MyST Markdown."""
    mapping = paper_map()
    objects = core_objects()
    tests = test_functions()
    n_computed = sum(1 for names in mapping.values() if names)
    lines = [
        "# The papers, item by item",
        "",
        "Every numbered item of the four papers (equations, propositions, definitions, corollaries, algorithms, "
        "protocols, tables, examples and figures) and the function of `explorer.core` that computes it, with the tests that "
        f"reproduce it where there are some: {len(ITEMS)} items, {n_computed} computed, "
        f"{len(ITEMS) - n_computed} not (a definition that is a preference, a step of a proof, a diagram), "
        "each with the reason.",
        "",
        "Two papers number their items separately, so an item is always named with its paper: "
        f"\"{cite('multidim-rr', 'Alg. 1')}\" (RR-Clusters) is not \"{cite('new-directions', 'Alg. 1')}\" "
        "(reverse mapping).  The page is generated from the docstrings: a function that computes an item says "
        "so in one line of its docstring, for example",
        "",
        "```text",
        f"Computes: {cite('rr-dp', 'Eq. 2')}; {cite('multidim-rr', 'Eq. 2')}.",
        "```",
        "",
        "and a test checks that every item is either computed by a function whose docstring names it or says "
        "why not.  Where a paper's printed number is wrong, the function computes the definition and its "
        "docstring says how it differs (see [Conventions](../conventions.md)).",
    ]
    for key, paper in PAPERS.items():
        lines += ["", f"## {paper.short}", "", f"{paper.full}", "",
                  "| Item | What it is | Computed by | Reproduced in |", "| --- | --- | --- | --- |"]
        for item in (item for item in ITEMS if item.paper == key):
            names = mapping[item]
            if names:
                computed = ", ".join(_link(qualified, objects[qualified]) for qualified in names)
                reproduced = ", ".join([f"`{test_id}`" for test_id in reproducing_tests(item, names, tests)]
                                       + [f"the example of {_link(qualified, objects[qualified])}"
                                          for qualified in names if _doctest_names(item, objects[qualified])])
            else:
                computed, reproduced = f"not computed: {_cell(item.not_computed)}", ""
            lines.append(f"| {item.kind} {item.number} | {_cell(item.title)} | {computed} | {reproduced} |")
    return "\n".join(lines) + "\n"


def write_page(app) -> None:
    for problem in problems():
        logger.warning("paper map: %s", problem)
    text = render()
    PAGE.parent.mkdir(parents=True, exist_ok=True)
    if not PAGE.exists() or PAGE.read_text(encoding="utf-8") != text:
        PAGE.write_text(text, encoding="utf-8")


def setup(app):
    app.connect("builder-inited", write_page)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
