"""The notebooks as pages (``privacy-explorer --notebooks``, as a teacher serves the lessons): in Chromium, a lesson's
page is titled with the lesson, its headings skip no level from the notebook's title down to the live panel's
sections, and axe finds no violation of the WCAG 2.0 and 2.1 A and AA rules (a link in the notebook's text is
underlined: the explorer's Voilà template)."""

from __future__ import annotations

import pytest

from explorer.lessons import lessons
from tests.e2e.conftest import explorer_on_a_free_port, require_chromium
from tests.e2e.test_every_view_e2e import HEADINGS_JS, violations


@pytest.fixture(scope="module")
def notebooks_server(tmp_path_factory):
    require_chromium()
    with explorer_on_a_free_port(tmp_path_factory.mktemp("notebooks"), "--notebooks") as (url, _, _):
        yield url


def test_a_lesson_notebook_is_titled_outlined_and_passes_axe(browser, notebooks_server):
    number, item = 6, lessons()[5]                    # a lesson whose live panel has sections of its own
    title = f"Lesson {number} of {len(lessons())}: {item.title}"
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    try:
        page.goto(f"{notebooks_server}voila/render/lessons/06_{item.key}.ipynb", timeout=180_000)
        page.wait_for_selector(".explorer-lesson .jupyter-matplotlib-canvas-div canvas", timeout=180_000)
        assert page.title() == title
        headings = page.evaluate(HEADINGS_JS)
        assert headings[0][0] == 1 and headings[0][1].startswith(title), headings
        assert headings[1] == [2, "In the panel below"], headings
        assert [level for level, _ in headings[2:]] == [3] * (len(headings) - 2) and len(headings) > 2, headings
        link = page.get_by_role("link", name=f"Lesson {number + 1}: {lessons()[number].title}")
        assert link.evaluate("a => getComputedStyle(a).textDecorationLine") == "underline"
        assert violations(page) == [], "axe on the lesson notebook"
    finally:
        context.close()
