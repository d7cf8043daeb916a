"""Narrow windows, reflow and zoom (WCAG 2.1, 1.4.10 and 1.4.4) and reduced motion, in headless Chromium.

* At 320 CSS pixels wide, every tab reads without scrolling sideways: the page does not scroll horizontally,
  and nothing sticks out past the right edge, except inside figures and tables, which scroll within their own
  box (1.4.10 lets two-dimensional content do that).
* The same page as a phone at 390x844: every tab of the (wrapping) tab bar and every Compute button is in the
  window, nothing outside figures, tables and scroll boxes passes the right edge, and the figures' smallest text
  as drawn is printed (a figure too small to read offers its data table).  Screenshots of the Randomized response
  and t-closeness tabs go to the folder ``EXPLORER_SCREENSHOTS`` names (else the test's temporary folder).
* At 200% zoom of a 1366x768 window (a device scale factor of 2 on 683x384 CSS pixels, what a browser's zoom
  gives), every tab reflows as at 320 px; and with ``prefers-reduced-motion: reduce`` set on that window, nothing
  in the app has a transition or an animation.

The two window sizes of a narrow screen share one page (one kernel, each tab built once): in both windows every
figure's column is narrower than ``MIN_FIT_PIXELS`` (320 px; the columns measured 226-246 and 296-316 px), so each
figure is already at its narrowest legible width and the phone's sweep re-renders none.
Screenshots of the randomized-response tab at 320 px and at 200% are written to the test's temporary folder.
"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import expect

from tests.e2e.figures import FIGURE_SCALE_JS, drawn_points, save_small_png, screenshot_name, settle
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


#: Elements that reach past the right edge of the window, outside figures, tables and scroll containers.
PHONE_OVERFLOW_JS = r"""
() => {
  const width = document.documentElement.clientWidth, out = [];
  for (const el of document.querySelectorAll('.explorer-app *')) {
    const r = el.getBoundingClientRect();
    if (!r.width || el.offsetParent === null) continue;
    if (el.closest('.jupyter-matplotlib, table, pre, .explorer-code, canvas')) continue;
    let scrolled = false;
    for (let p = el.parentElement; p && !p.classList.contains('explorer-app'); p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === 'auto' || o === 'scroll' || o === 'hidden') { scrolled = true; break; }
    }
    if (scrolled) continue;
    if (r.right > width + 1) out.push(`${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 2).join('.')} ` +
                                      `${Math.round(r.left)}-${Math.round(r.right)}: ${(el.innerText || '').slice(0, 40)}`);
  }
  return out.slice(0, 12);
}
"""


def phone_checks(page, tmp_path) -> None:
    """A phone at 390x844 (the page already that size): every tab and Compute button in the window, nothing past
    its right edge outside figures, tables and scroll boxes; screenshots of two tabs."""
    shots = Path(os.environ["EXPLORER_SCREENSHOTS"]) if os.environ.get("EXPLORER_SCREENSHOTS") else Path(tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    tabs = page.locator(".explorer-app .lm-TabBar-tab")
    titles = [t.strip() for t in tabs.all_inner_texts()]
    for index in range(tabs.count()):           # every tab in the window's width (the bar wraps)
        box = tabs.nth(index).bounding_box()
        assert box and box["x"] >= -1 and box["x"] + box["width"] <= 391, (titles[index], box)
    problems = {}
    for title in titles:
        open_tab(page, title)
        settle(page)
        overflow = page.evaluate(PHONE_OVERFLOW_JS)
        # The figures' smallest text as drawn here (said, not asserted: a figure too small to read offers its
        # data table, issue 25 item 6).
        sizes = [drawn_points(f) for f in page.evaluate(FIGURE_SCALE_JS)]
        if sizes:
            print(f"390 px, {title}: smallest figure text {min(sizes):.1f} pt (largest {max(sizes):.1f} pt)")
        if overflow:
            problems[title] = overflow
        buttons = page.locator(".explorer-app .widget-button", has_text="Compute")
        for index in range(buttons.count()):
            button = buttons.nth(index)
            if not button.is_visible():
                continue
            button.scroll_into_view_if_needed()
            box = button.bounding_box()
            assert box and box["x"] >= -1 and box["x"] + box["width"] <= 391, (title, box)
        if title in ("Randomized response", "t-closeness"):
            page.evaluate("() => document.querySelector('.explorer-app .lm-TabBar').scrollIntoView({block: 'start'})")
            save_small_png(page, shots / f"phone-{screenshot_name(title)}.png")
    assert not problems, problems
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 391, f"the page scrolls sideways: {width} px wide"


def _open(browser, url: str, **options):
    context = browser.new_context(**options)
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(url, timeout=120_000)
    page.wait_for_selector(".explorer-app", timeout=120_000)
    return context, page


def test_at_320px_every_tab_reflows_and_as_a_phone_at_390x844_keeps_every_tab_and_compute_button_on_screen(
        browser, explorer_server, tmp_path):
    context, page = _open(browser, explorer_server, viewport={"width": 320, "height": 720})
    try:
        found = _every_tab_fits(page, tmp_path, "320px")
        assert found == {}, found
        page.set_viewport_size({"width": 390, "height": 844})
        phone_checks(page, tmp_path)
    finally:
        context.close()


def test_at_200pc_zoom_every_tab_reflows_and_reduced_motion_turns_off_transitions_and_animations(
        browser, explorer_server, tmp_path):
    context, page = _open(browser, explorer_server, viewport={"width": 683, "height": 384}, device_scale_factor=2,
                          reduced_motion="reduce")
    try:
        found = _every_tab_fits(page, tmp_path, "200pc")
        assert found == {}, found
        open_tab(page, "Randomized response")     # every tab and lesson has been built and shown by now
        expect(page.locator(".explorer-rr-panel").first).to_be_visible(timeout=60_000)
        moving = page.evaluate(r"""() => [...document.querySelectorAll('.explorer-app, .explorer-app *')]
            .filter(el => { const s = getComputedStyle(el);
                            return s.animationName !== 'none' ||
                                   s.transitionDuration.split(',').some(d => parseFloat(d) > 0); })
            .map(el => el.tagName.toLowerCase() + '.' + [...el.classList].slice(0, 3).join('.')).slice(0, 10)""")
        assert moving == []
    finally:
        context.close()
