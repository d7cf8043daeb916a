"""Every view a student meets, in headless Chromium at 1366x768: one visit per view serves every check made there.

* **axe-core** (the copy inside the ``axe-playwright-python`` package: nothing is downloaded) runs with the tags
  :data:`TAGS` on the landing view, every tab, every lesson (:func:`explorer.lessons.lessons`), the "demo is full"
  page (:data:`explorer.demo.server.DEMO_FULL_HTML`) and two pages of the built documentation: zero violations of
  the WCAG 2.0 and 2.1 A and AA rules.  No rule is turned off and no element is left out of the run.
* **Legibility**: on every tab no text is cut (wider than its box without scrolling) and no paper file code
  (000-004) shows: papers are cited by authors and year.  The app opens on "Start here", which says what to do first.
* **Figure widths**: at 1366 px every figure keeps its design width, drawn 1:1, and none is clipped
  (narrower windows: ``tests/e2e/test_reflow_e2e.py``).
* **Screenshots**: one of every tab but About (``tests/e2e/figures.py``: ``SCREENSHOT_NAMES``, optimized PNGs under
  250 kB), written once the tab is built and its figures have their final size, to the folder
  ``EXPLORER_SCREENSHOTS`` names (else the test's temporary folder).  The documentation's are made with
  ``EXPLORER_SCREENSHOTS=docs/_static/screenshots pytest tests/e2e/test_every_view_e2e.py``, so they show the app
  as it is; ``tests/test_docs_screenshots.py`` checks that each is referenced by the docs and exists.

The tabs are visited on one page, in the app's order, as a student would (one kernel, one build of each tab).
axe cannot see inside a ``<canvas>``: a clean run says nothing about the figures themselves, which is why each
figure also has a text alternative (tested with the figures) and why ``tests/plotting/test_palette.py``
checks their colours.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from explorer.lessons import lessons
from tests.e2e.figures import clipped, save_small_png, screenshot_name, settle
from tests.e2e.helpers import open_tab
from tests.extras import missing

#: WCAG 2.0 and 2.1, levels A and AA.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
OPTIONS = {"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]}

TABS = ["Start here", "Data", "What does ε mean?", "Randomized response", "t-closeness", "Permutation",
        "Dominance", "Multi-attribute RR", "Lessons", "About"]
DOCS_PAGES = ["index.html", "accessibility.html"]
#: Tabs with figures (the others are checked for clipping all the same).
FIGURE_TABS = ["What does ε mean?", "Randomized response", "t-closeness", "Permutation", "Dominance",
               "Multi-attribute RR", "Lessons"]

#: Elements whose text is wider than their box and that do not scroll: text a user cannot read whole.
CUT_TEXT_JS = r"""
() => {
  const cut = [];
  for (const el of document.querySelectorAll('.explorer-app *')) {
    if (!(el.offsetWidth || el.offsetHeight || el.getClientRects().length)) continue;   // not rendered
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    if (['auto', 'scroll'].includes(style.overflowX)) continue;                          // a scroll container
    if (el.closest('.jupyter-matplotlib, canvas, svg, .widget-html-content table, .lm-TabBar-content')) continue;
    if (el.closest('.explorer-sr-only')) continue;        // a figure's text for screen readers, hidden on purpose
    const text = (el.innerText || '').trim();
    if (!text) continue;
    if (el.scrollWidth > el.clientWidth + 1 && style.overflowX !== 'visible') {
      cut.push(`${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 2).join('.')}: ${text.slice(0, 50)}`);
    }
  }
  return cut;
}
"""

#: axe's rules on headings (best practices, outside the WCAG tags): one <h1>, no level skipped, none empty.
OUTLINE_OPTIONS = {"runOnly": {"type": "rule", "values": ["page-has-heading-one", "heading-order", "empty-heading"]},
                   "resultTypes": ["violations"]}

#: The headings a screen reader lists on the page as shown (hidden tabs left out; visually hidden ones kept):
#: [level, text].
HEADINGS_JS = r"""
() => [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]
  .filter(h => h.checkVisibility() && !h.closest('.lm-mod-hidden, [hidden], [aria-hidden="true"]'))
  .map(h => [Number(h.tagName[1]), h.textContent.trim()])
"""

#: A paper's file code (000-004) in visible text.
PAPER_CODE = re.compile(r"(?<![\d.,/_:-])00[0-4](?![\d_])")


def _axe():
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        missing("axe-playwright-python is needed for the accessibility tests: pip install '.[test]'")
    return Axe()


def _check_outline(page, title: str, heading: str | None = None) -> None:
    """The headings are the outline of the page as shown: the app's title the one <h1>, then ``heading`` as an
    <h2> (the tab's name; on "Start here" the landing view's own heading, on a lesson its title), then its
    sections; no level skipped."""
    assert report(_axe().run(page, options=OUTLINE_OPTIONS).response) == [], f"axe's heading rules on {title!r}"
    headings = page.evaluate(HEADINGS_JS)
    assert headings[0] == [1, "Privacy explorer"] and [level for level, _ in headings].count(1) == 1, headings
    heading = heading or {"Start here": "See what privacy models mean",
                          "Lessons": f"Lesson 1 of {len(lessons())}: {lessons()[0].title}"}.get(title, title)
    assert headings[1] == [2, heading], headings
    levels = [level for level, _ in headings]
    assert all(b <= a + 1 for a, b in zip(levels, levels[1:])), headings


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


def _shots(tmp_path_factory) -> Path:
    if os.environ.get("EXPLORER_SCREENSHOTS"):
        folder = Path(os.environ["EXPLORER_SCREENSHOTS"])
        folder.mkdir(parents=True, exist_ok=True)
        return folder
    return tmp_path_factory.mktemp("screenshots")


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    """Where this module's screenshots go (``EXPLORER_SCREENSHOTS``, else a temporary folder)."""
    return _shots(tmp_path_factory)


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


def test_the_app_opens_on_start_here_which_says_what_to_do_first_and_has_every_tab(app):
    titles = [t.strip() for t in app.locator(".explorer-app .lm-TabBar-tab").all_inner_texts()]
    assert titles == TABS
    assert titles[0] == "Start here" and "Start here" in app.locator(".lm-TabBar-tab.lm-mod-current").inner_text()
    expect(app.locator(".explorer-landing")).to_contain_text("I am a student")
    expect(app.locator(".explorer-landing")).to_contain_text("Start the lessons")
    expect(app).to_have_title("Privacy explorer")      # the notebook's metadata.title, not its file name
    # the whole explorer is the page's main landmark (a screen reader's landmark list reaches it at once)
    expect(app.get_by_role("main", name="Privacy explorer").locator(".explorer-app")).to_have_count(1)


@pytest.mark.parametrize("title", TABS)
def test_every_tab_passes_axe_shows_its_text_whole_and_its_figures_at_design_width(app, title, shots):
    open_tab(app, title)
    figures = settle(app)                  # the tab is built and its figures have their final size
    assert violations(app) == [], f"axe on the tab {title!r}"
    _check_outline(app, title)
    cut = app.evaluate(CUT_TEXT_JS)
    assert cut == [], f"text cut on the tab {title!r}: {cut[:5]}"
    # Cite papers by authors and year: no file code in any visible text of the tab.
    codes = PAPER_CODE.findall(app.locator(".explorer-app").inner_text())
    assert not codes, f"tab {title!r} shows paper file codes {codes[:3]}"
    if title in FIGURE_TABS:
        assert figures, f"tab {title!r} shows no figure"
    assert not clipped(figures), (title, clipped(figures))
    for f in figures:
        assert abs(f["rendered"] - f["design"]) <= 1, (title, f)      # rendered at its design width
        assert abs(f["canvas"][2] - f["design"]) <= 1, (title, f)     # drawn 1:1, not scaled
    name = screenshot_name(title)
    if name:
        # The tab bar at the top of the window: the screenshot shows the tab, not the page's title.
        app.evaluate("() => document.querySelector('.explorer-app .lm-TabBar').scrollIntoView({block: 'start'})")
        app.wait_for_timeout(300)
        save_small_png(app, shots / f"{name}.png")
        app.evaluate("() => document.querySelector('.explorer-app').scrollIntoView({block: 'start'})")


@pytest.mark.parametrize("index", range(len(lessons())), ids=[item.key for item in lessons()])
def test_every_lesson_has_no_axe_violations(app, index):
    item = lessons()[index]
    open_tab(app, "Lessons")
    app.locator(".explorer-lessons select").first.select_option(label=f"{index + 1}. {item.title}")
    expect(app.locator(f".explorer-lesson-{item.key}")).to_be_visible(timeout=120_000)
    settle(app)
    assert violations(app) == [], f"axe on lesson {index + 1} ({item.key})"
    _check_outline(app, "Lessons", f"Lesson {index + 1} of {len(lessons())}: {item.title}")


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
