"""The map from the papers' numbered items to the functions that compute them agrees with the docstrings.

The canonical list is :data:`explorer.paper_items.ITEMS`; the map is read off the ``Computes:`` markers of the
docstrings of :mod:`explorer.core` (found by walking the package, wherever a module has moved to).
"""

import importlib
import inspect
import re
import sys
from pathlib import Path

import pytest

from explorer import paper_items
from explorer.paper_items import ITEMS, KINDS, core_objects, paper_map, parse_marker, problems
from explorer.references import PAPERS
from tests.extras import needs_module

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_markers_and_the_canonical_list_agree():
    assert problems() == []


def test_every_item_is_computed_by_an_importable_function_or_says_why_not():
    for item in ITEMS:
        assert item.paper in PAPERS and item.kind in KINDS and item.number >= 1 and item.title, item
        if item.not_computed:
            assert not item.functions, item.label
            assert item.not_computed.strip() and "\n" not in item.not_computed, item.label
            continue
        assert item.functions, f"{item.label} names no function and gives no reason"
    for item, names in paper_map().items():
        for qualified in names:
            module_name, _, qualname = qualified.rpartition(".")
            obj = importlib.import_module(module_name)
            assert getattr(obj, qualname) is core_objects()[qualified]


def test_the_list_has_each_item_once_in_the_papers_numbering():
    keys = [item.key for item in ITEMS]
    assert len(keys) == len(set(keys))
    for paper in PAPERS:
        for kind in KINDS:
            numbers = [item.number for item in ITEMS if item.paper == paper and item.kind == kind]
            assert numbers == list(range(1, len(numbers) + 1)), (paper, kind, numbers)


def test_the_papers_numbered_items_are_all_listed():
    # Counted in the four papers: their equations, propositions, definitions, corollaries, algorithms, protocols, tables,
    # examples and figures.
    counts = {}
    for item in ITEMS:
        counts[(item.paper, item.kind)] = counts.get((item.paper, item.kind), 0) + 1
    assert counts == {
        ("rr-dp", "Eq."): 8, ("rr-dp", "Prop."): 1, ("rr-dp", "Example"): 3,
        ("permutation-paradigm", "Prop."): 7, ("permutation-paradigm", "Def."): 4,
        ("permutation-paradigm", "Table"): 4, ("permutation-paradigm", "Fig."): 1,
        ("multidim-rr", "Eq."): 16, ("multidim-rr", "Def."): 2, ("multidim-rr", "Prop."): 1,
        ("multidim-rr", "Corollary"): 1, ("multidim-rr", "Alg."): 2, ("multidim-rr", "Protocol"): 2, ("multidim-rr", "Example"): 1,
        ("multidim-rr", "Table"): 2, ("multidim-rr", "Fig."): 3,
        ("new-directions", "Alg."): 2, ("new-directions", "Def."): 4, ("new-directions", "Table"): 7,
        ("new-directions", "Fig."): 3,
    }


def test_no_function_is_listed_for_an_item_its_docstring_does_not_name():
    for item, names in paper_map().items():
        for qualified in names:
            text = " ".join(inspect.getdoc(core_objects()[qualified]).split())
            assert f"{item.label}." in text or f"{item.label};" in text, (item.label, qualified)


def test_every_marker_in_the_source_is_one_the_walk_finds():
    # A marker on a method, a private function or in a module the walk skips would be silently ignored.
    import explorer.core

    root = Path(explorer.core.__file__).parent
    in_source = sum(line.strip().startswith(paper_items.MARKER)
                    for path in root.rglob("*.py") for line in path.read_text(encoding="utf-8").splitlines())
    found = sum(inspect.cleandoc(obj.__doc__ or "").count("\n" + paper_items.MARKER)
                + inspect.cleandoc(obj.__doc__ or "").startswith(paper_items.MARKER)
                for obj in core_objects().values())
    assert in_source == found


def test_deleting_a_marker_fails_the_check(monkeypatch):
    qualified = next(q for q, obj in core_objects().items() if obj.__qualname__ == "rr_adjust")
    obj = core_objects()[qualified]
    doc = obj.__doc__
    without = re.sub(r"\n\s*Computes:.*?\n\s*\n", "\n\n", doc, count=1, flags=re.S)
    assert without != doc
    monkeypatch.setattr(obj, "__doc__", without)
    found = problems()
    assert any("Alg. 2: the docstring of rr_adjust has no marker" in p for p in found), found


def test_a_marker_for_an_unlisted_function_fails_the_check(monkeypatch):
    obj = core_objects()[next(q for q, o in core_objects().items() if o.__qualname__ == "entropy")]
    monkeypatch.setattr(obj, "__doc__", obj.__doc__ + "\n\nComputes: Ruiz (2018), Prop. 3.\n")
    assert any("entropy's marker names it" in p for p in problems())


@pytest.mark.parametrize("entry, message", [
    ("Algorithm 1", "is not '<Authors> (<year>), <kind> <number>'"),          # names no paper
    ("Alg. 1", "is not '<Authors> (<year>), <kind> <number>'"),
    ("Ruiz (2018), Algorithm 1", "is not '<Authors> (<year>), <kind> <number>'"),  # kinds are abbreviated
    ("Ruiz (2019), Prop. 2", "cites no known paper"),
    ("Domingo-Ferrer and Soria-Comas (2018), Alg. 1", "no item Alg. 1 in paper 'rr-dp'"),   # not numbered there
    ("Ruiz (2018), Prop. 8", "no item Prop. 8"),
])
def test_a_marker_must_name_a_listed_item_qualified_by_its_paper(entry, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_marker(f"Summary.\n\nComputes: {entry}.\n")


def test_a_marker_may_wrap_onto_several_lines():
    doc = """Summary.

    References
    ----------
    .. [1] A paper.

    Computes: Domingo-Ferrer and Soria-Comas (2022), Alg. 1; Domingo-Ferrer
    and Muralidhar (2016), Alg. 1.

    Examples
    --------
    """
    assert parse_marker(doc) == [("multidim-rr", "Alg.", 1), ("new-directions", "Alg.", 1)]


def test_summary_lines_that_name_a_numbered_item_name_its_paper():
    # "Algorithm 1" is RR-Clusters in Domingo-Ferrer and Soria-Comas (2022) and reverse mapping in Domingo-Ferrer
    # and Muralidhar (2016), "Eq. 2" is in two papers; the API tables show summary lines without their context.
    numbered = re.compile(r"\b(Eqs?\.|Equations?|Expressions?|Props?\.|Propositions?|Defs?\.|Definitions?|Corollary"
                          r"|Algorithms?|Alg\.|Protocols?|Tables?|Examples?|Fig\.|Figures?) ?\(?\d")
    citations = [re.compile(rf"{re.escape(paper.short_authors)},? \(?{paper.year}") for paper in PAPERS.values()]
    unqualified = [qualified for qualified, obj in core_objects().items()
                   if numbered.search(summary := " ".join((inspect.getdoc(obj) or "").split("\n\n")[0].split()))
                   and not any(citation.search(summary) for citation in citations)]
    assert unqualified == []


def _load_extension():
    needs_module("sphinx", "docs")          # the page's generator is a Sphinx extension
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        return importlib.import_module("paper_map")
    finally:
        sys.path.remove(str(DOCS / "_ext"))


def test_the_docs_page_has_a_row_per_item_and_links_each_function():
    page = _load_extension().render()
    for paper in PAPERS.values():
        assert f"## {paper.short}" in page
    rows = [line for line in page.splitlines() if line.startswith("| ") and not line.startswith(("| Item", "| ---"))]
    assert len(rows) == len(ITEMS)
    for item, names in paper_map().items():
        row = next(r for r in rows if r.startswith(f"| {item.kind} {item.number} |")
                   and r in page.split(f"## {PAPERS[item.paper].short}")[1].split("\n## ")[0])
        for qualified in names:
            assert f"<{qualified}>`" in row, (item.label, qualified)
        if item.not_computed:
            assert "not computed" in row
