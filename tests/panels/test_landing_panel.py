"""The landing view: three paths that open their tabs, the papers cited by authors and year."""

import re

from explorer.panels.landing import PATHS, LandingPanel
from explorer.references import PAPERS


def _text(widget) -> str:
    parts = []
    stack = [widget]
    while stack:
        w = stack.pop()
        parts.append(getattr(w, "value", "") if isinstance(getattr(w, "value", ""), str) else "")
        parts.append(getattr(w, "description", "") or "")
        stack.extend(getattr(w, "children", ()))
    return " ".join(parts)


def test_each_path_opens_its_tab():
    opened = []
    panel = LandingPanel(opened.append, tabs=["Data", "Randomized response"])
    for _, _, target, label in PATHS:
        panel.buttons[label].click()
        assert opened[-1] == target
    panel.buttons["Data"].click()
    assert opened[-1] == "Data"


def test_without_the_app_the_buttons_say_where_to_go():
    panel = LandingPanel()
    panel.buttons["What does ε mean?"].click()
    assert "What does ε mean?" in panel.status.message


def test_papers_are_cited_by_authors_and_year_never_by_file_code():
    text = _text(LandingPanel().widget)
    for paper in PAPERS.values():
        assert paper.short in text and str(paper.year) in text
    assert not re.search(r"(?<![\d.,])00[0-4](?!\d)", re.sub(r"<[^>]+>", " ", text))
    assert "student" in text and "teach" in text and "epsilon" in text.lower()
