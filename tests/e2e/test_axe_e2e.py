"""axe-core on every view a student meets: zero violations of the WCAG 2.0 and 2.1 A and AA rules.

axe-core (the copy inside the ``axe-playwright-python`` package: nothing is downloaded) runs with the tags
:data:`TAGS` on the landing view, every tab, every lesson (:func:`explorer.lessons.lessons`), the "demo is
full" page (:data:`explorer.demo.server.DEMO_FULL_HTML`) and two pages of the built documentation, in
headless Chromium at 1366x768.  No rule is turned off and no element is left out of the run.

axe cannot see inside a ``<canvas>``: a clean run says nothing about the figures themselves, which is why each
figure also has a text alternative (tested with the figures) and why ``tests/plotting/test_palette.py``
checks their colours.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from explorer.lessons import lessons
from tests.e2e.figures import settle
from tests.e2e.helpers import open_tab
from tests.extras import missing

#: WCAG 2.0 and 2.1, levels A and AA.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
OPTIONS = {"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]}

TABS = ["Start here", "Data", "What does ε mean?", "Randomized response", "t-closeness", "Permutation",
        "Dominance", "Multi-attribute RR", "Lessons", "About"]
DOCS_PAGES = ["index.html", "accessibility.html"]


def _axe():
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        missing("axe-playwright-python is needed for the accessibility tests: pip install '.[test]'")
    return Axe()


def violations(page) -> list[str]:
    """axe's violations on ``page``, one line each: rule, impact, how many nodes, the first nodes' targets."""
    return report(_axe().run(page, options=OPTIONS).response)


def report(result: dict) -> list[str]:
    """The violations of an axe ``result``, one line each (:func:`violations`)."""
    lines = []
    for rule in result["violations"]:
        targets = [" ".join(map(str, node["target"])) for node in rule["nodes"][:4]]
        summary = (rule["nodes"][0].get("failureSummary") or "").replace("\n", " ")[:200] if rule["nodes"] else ""
        lines.append(f"{rule['id']} ({rule['impact']}): {len(rule['nodes'])} node(s), e.g. {targets}: {summary}")
    return lines


@pytest.fixture(scope="module")
def app(browser, explorer_server):
    """One page of the app at 1366x768, shared by the views of this module (each opens its own tab)."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(explorer_server, timeout=120_000)
    page.wait_for_selector(".explorer-app", timeout=120_000)
    yield page
    context.close()


def test_the_app_has_every_tab_this_test_visits(app):
    titles = [t.strip() for t in app.locator(".explorer-app .lm-TabBar-tab").all_inner_texts()]
    assert titles == TABS


@pytest.mark.parametrize("title", TABS)
def test_every_tab_has_no_axe_violations(app, title):
    open_tab(app, title)
    settle(app)
    assert violations(app) == [], f"axe on the tab {title!r}"


@pytest.mark.parametrize("index", range(len(lessons())), ids=[item.key for item in lessons()])
def test_every_lesson_has_no_axe_violations(app, index):
    item = lessons()[index]
    open_tab(app, "Lessons")
    app.locator(".explorer-lessons select").first.select_option(label=f"{index + 1}. {item.title}")
    expect(app.locator(f".explorer-lesson-{item.key}")).to_be_visible(timeout=120_000)
    settle(app)
    assert violations(app) == [], f"axe on lesson {index + 1} ({item.key})"


def test_the_demo_full_page_has_no_axe_violations(browser):
    from explorer.demo.server import DEMO_FULL_HTML

    context = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = context.new_page()
        page.set_content(DEMO_FULL_HTML.replace("{retry}", "600").replace("{cap}", "4"))
        expect(page.locator("h1")).to_have_text("The demo is full")
        assert violations(page) == []
    finally:
        context.close()


@pytest.mark.parametrize("page_path", DOCS_PAGES)
def test_the_built_docs_pages_have_no_axe_violations(browser, page_path):
    from tests.e2e.test_docs_site_e2e import _site

    page_file = _site() / page_path
    assert page_file.is_file(), page_file
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.route(re.compile(r"^(?!file:|data:|blob:).*"), lambda route: route.abort())   # the site alone
    try:
        page = context.new_page()
        page.goto(page_file.as_uri())
        page.wait_for_load_state("load")
        assert violations(page) == [], f"axe on docs/{page_path}"
    finally:
        context.close()
