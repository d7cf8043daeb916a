"""Reflow and zoom (WCAG 2.1, 1.4.10 and 1.4.4) and reduced motion, in headless Chromium.

* At 320 CSS pixels wide, every tab reads without scrolling sideways: the page does not scroll horizontally,
  and nothing sticks out past the right edge, except inside figures and tables, which scroll within their own
  box (1.4.10 lets two-dimensional content do that).
* At 200% zoom of a 1366x768 window (a device scale factor of 2 on 683x384 CSS pixels, what a browser's zoom
  gives), the same holds.
* With ``prefers-reduced-motion: reduce`` nothing in the app has a transition or an animation.

Screenshots of the randomized-response tab at each size are written to the test's temporary folder.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.figures import settle
from tests.e2e.helpers import open_tab, save_screenshot

#: Elements past the right edge of the window (or of the page's scrolling box), outside figures and tables.
OVERFLOW_JS = r"""
() => {
  const width = document.documentElement.clientWidth;
  const allowed = '.jupyter-matplotlib, .explorer-fit, table, .explorer-table-scroll, .widget-gridbox, canvas';
  const out = [];
  if (document.documentElement.scrollWidth > width + 1) out.push(`the page scrolls: ${document.documentElement.scrollWidth} > ${width}`);
  for (const el of document.querySelectorAll('body *')) {
    const style = getComputedStyle(el);
    if (['auto', 'scroll'].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1 && !el.closest(allowed)
        && !el.querySelector(':scope > table, :scope > .widget-gridbox')) {
      out.push(`scrolls sideways: ${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 4).join('.')}`);
    }
  }
  for (const el of document.querySelectorAll('.explorer-app *')) {
    const box = el.getBoundingClientRect();
    if (!box.width || el.closest(allowed)) continue;
    const hidden = el.closest('.lm-mod-hidden, .explorer-skip-link');
    if (hidden) continue;
    if (box.right > width + 1) {
      out.push(`past the edge (${Math.round(box.right)} > ${width}): ${el.tagName.toLowerCase()}.`
               + [...el.classList].slice(0, 4).join('.') + ` ${(el.innerText || '').trim().slice(0, 30)}`);
    }
  }
  return out.slice(0, 25);
}
"""

TABS = ["Start here", "Data", "What does ε mean?", "Randomized response", "t-closeness", "Permutation",
        "Dominance", "Multi-attribute RR", "Lessons", "About"]


def _every_tab_fits(page, tmp_path, name: str) -> dict[str, list[str]]:
    found = {}
    for title in TABS:
        open_tab(page, title)
        settle(page)
        problems = page.evaluate(OVERFLOW_JS)
        if problems:
            found[title] = problems
        if title == "Randomized response":
            save_screenshot(page, tmp_path, f"{name}-rr")
    return found


@pytest.mark.parametrize("size", ["320px", "200%"])
def test_every_tab_reflows_without_sideways_scrolling(browser, explorer_server, tmp_path, size):
    if size == "320px":
        context = browser.new_context(viewport={"width": 320, "height": 720})
    else:
        context = browser.new_context(viewport={"width": 683, "height": 384}, device_scale_factor=2)
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        page.goto(explorer_server, timeout=120_000)
        page.wait_for_selector(".explorer-app", timeout=120_000)
        found = _every_tab_fits(page, tmp_path, size.replace("%", "pc"))
        assert found == {}, found
    finally:
        context.close()


def test_reduced_motion_turns_off_transitions_and_animations(browser, explorer_server):
    context = browser.new_context(viewport={"width": 1366, "height": 768}, reduced_motion="reduce")
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        page.goto(explorer_server, timeout=120_000)
        page.wait_for_selector(".explorer-app", timeout=120_000)
        open_tab(page, "Randomized response")
        expect(page.locator(".explorer-rr-panel")).to_be_visible(timeout=60_000)
        moving = page.evaluate(r"""() => [...document.querySelectorAll('.explorer-app, .explorer-app *')]
            .filter(el => { const s = getComputedStyle(el);
                            return s.animationName !== 'none' ||
                                   s.transitionDuration.split(',').some(d => parseFloat(d) > 0); })
            .map(el => el.tagName.toLowerCase() + '.' + [...el.classList].slice(0, 3).join('.')).slice(0, 10)""")
        assert moving == []
    finally:
        context.close()
