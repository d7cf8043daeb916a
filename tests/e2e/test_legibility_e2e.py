"""The app at 1366x768 in headless Chromium: no text cut, no paper file codes, the landing view first.

A screenshot of every tab but About (``tests/e2e/figures.py``: ``SCREENSHOT_NAMES``, optimized PNGs under
250 kB) is written to the folder ``EXPLORER_SCREENSHOTS`` names, once the tab is built and its figures have
their final size.  The documentation's are made with
``EXPLORER_SCREENSHOTS=docs/_static/screenshots pytest tests/e2e/test_legibility_e2e.py``, so they show the
app as it is; ``tests/test_docs_screenshots.py`` checks that each is referenced by the docs and exists.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from playwright.sync_api import expect

from tests.e2e.conftest import CHROMIUM_ARGS  # noqa: F401  (the browser fixture launches with them)
from tests.e2e.figures import save_small_png, screenshot_name, settle
from tests.e2e.helpers import open_tab

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

PAPER_CODE = re.compile(r"(?<![\d.,/_:-])00[0-4](?![\d_])")


def _open_every_tab(page, titles, shots: Path | None):
    seen = {}
    for title in titles:
        open_tab(page, title)
        settle(page)                     # the tab is built and its figures have their final size
        seen[title] = page.evaluate(CUT_TEXT_JS)
        name = screenshot_name(title)
        if shots is not None and name:
            # The tab bar at the top of the window: the screenshot shows the tab, not the page's title.
            page.evaluate("() => document.querySelector('.explorer-app .lm-TabBar').scrollIntoView({block: 'start'})")
            page.wait_for_timeout(300)
            save_small_png(page, shots / f"{name}.png")
            page.evaluate("() => document.querySelector('.explorer-app').scrollIntoView({block: 'start'})")
    return seen


def test_every_tab_at_1366x768_has_no_cut_text_and_no_paper_codes(browser, explorer_server, tmp_path):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        page.goto(explorer_server, timeout=120_000)
        page.wait_for_selector(".explorer-app", timeout=120_000)
        tabs = page.locator(".lm-TabBar-tab")
        titles = [t.strip() for t in tabs.all_inner_texts()]
        # The landing view is the first tab, and it says what to do first.
        assert titles[0] == "Start here", titles
        expect(page.locator(".explorer-landing")).to_contain_text("I am a student")
        expect(page.locator(".explorer-landing")).to_contain_text("Start the lessons")
        shots = Path(os.environ["EXPLORER_SCREENSHOTS"]) if os.environ.get("EXPLORER_SCREENSHOTS") else tmp_path
        shots.mkdir(parents=True, exist_ok=True)
        cut = _open_every_tab(page, titles, shots)
        assert not any(cut.values()), {k: v[:5] for k, v in cut.items() if v}
        # Cite papers by authors and year: no file code in any visible text of any tab.
        for title in titles:
            open_tab(page, title)
            text = page.locator(".explorer-app").inner_text()
            codes = PAPER_CODE.findall(text)
            assert not codes, f"tab {title!r} shows paper file codes {codes[:3]}"
    finally:
        context.close()
