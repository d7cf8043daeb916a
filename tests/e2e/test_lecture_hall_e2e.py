"""The explorer in a lecture hall, in headless Chromium: the presenter view at 1280x720 (``?presenter=1``) and a
configuration link that says what it did.  A phone at 390x844 shares the narrow window's page in
``tests/e2e/test_reflow_e2e.py``.

Screenshots go to the folder ``EXPLORER_SCREENSHOTS`` names (else the test's temporary folder).
"""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path

from playwright.sync_api import expect

from tests.e2e.figures import FIGURE_SCALE_JS, clipped, drawn_points, save_small_png, screenshot_name, settle
from tests.e2e.helpers import open_tab

#: Tabs with figures (the presenter test measures their text), in the app's order.
FIGURE_TABS = ["What does ε mean?", "Randomized response", "t-closeness", "Permutation", "Dominance",
               "Multi-attribute RR"]

def _shots(tmp_path: Path) -> Path:
    folder = Path(os.environ["EXPLORER_SCREENSHOTS"]) if os.environ.get("EXPLORER_SCREENSHOTS") else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _new_page(browser, url: str, width: int, height: int):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(url, timeout=120_000)
    page.wait_for_selector(".explorer-app", timeout=120_000)
    return context, page


def test_presenter_view_at_1280x720_keeps_figure_text_at_14_pt_and_nothing_clipped(browser, explorer_server,
                                                                                      tmp_path):
    context, page = _new_page(browser, explorer_server + "?presenter=1", 1280, 720)
    shots = _shots(tmp_path)
    try:
        expect(page.locator(".explorer-app.explorer-presenter")).to_have_count(1)
        toggle = page.locator(".explorer-presenter-toggle")
        expect(toggle).to_have_attribute("aria-pressed", "true")     # said, not shown by its shade alone
        # Text and controls enlarged for a projector.
        size = page.evaluate("() => parseFloat(getComputedStyle(document.querySelector("
                             "'.explorer-app .lm-TabBar-tab')).fontSize)")
        assert size >= 18, size
        small = {}
        for title in FIGURE_TABS:
            open_tab(page, title)
            figures = settle(page)
            assert figures, title
            assert not clipped(figures), (title, clipped(figures))
            for figure in page.evaluate(FIGURE_SCALE_JS):
                points = drawn_points(figure)
                if points < 14 - 0.05:
                    small[f"{title} {figure['id']}"] = round(points, 1)
            if title in ("Randomized response", "Permutation"):
                save_small_png(page, shots / f"presenter-{screenshot_name(title)}.png")
        assert not small, f"figure text under 14 pt in the presenter view: {small}"
        # The teacher's answers are hidden (the Lessons tab's list of answers).
        open_tab(page, "Lessons")
        page.wait_for_selector(".explorer-lessons", timeout=120_000)
        answers = page.locator(".explorer-teacher-only")
        for index in range(answers.count()):
            expect(answers.nth(index)).to_be_hidden()
        # Off again: figures back to their designed size (100 dpi).
        page.locator(".explorer-presenter-toggle").click()
        # the kernel re-draws the figures of the tab on screen now, and those of each other tab when it is shown
        expect(page.locator(".explorer-app.explorer-presenter")).to_have_count(0, timeout=60_000)
        expect(toggle).to_have_attribute("aria-pressed", "false")
        open_tab(page, "Randomized response")
        settle(page)
        assert {f["dpi"] for f in page.evaluate(FIGURE_SCALE_JS)} == {100}
    finally:
        context.close()


def _link(config: dict) -> str:
    return "?config=" + base64.urlsafe_b64encode(json.dumps(config).encode()).decode().rstrip("=")


def test_a_configuration_link_says_what_it_set_and_opens_on_the_teacher_s_tab(browser, explorer_server, tmp_path):
    config = {"dataset": "UCI Adult", "epsilon": 2.0, "open_tab": "Randomized response",
              "tabs": {"Randomized response": {"n_categories": 4}}}
    context, page = _new_page(browser, explorer_server + _link(config), 1366, 768)
    try:
        notice = page.locator(".explorer-config-loaded")
        expect(notice).to_contain_text("Configuration loaded: data set UCI Adult; ε = 2")
        expect(notice).to_contain_text("categories r = 4")
        expect(notice).to_contain_text("Opened on the Randomized response tab")
        expect(page.locator(".lm-TabBar-tab.lm-mod-current")).to_contain_text("Randomized response")
        save_small_png(page, _shots(tmp_path) / "config-link-loaded.png")
    finally:
        context.close()
    refused = dict(config, tabs={"Randomized response": {"n_categories": 99}})
    context, page = _new_page(browser, explorer_server + _link(refused), 1366, 768)
    try:
        notice = page.locator(".explorer-config-refused")
        expect(notice).to_contain_text("was not applied")
        expect(notice).to_contain_text("n_categories must be between 2 and")
        expect(notice).to_contain_text("opened with its defaults")
        expect(page.locator(".lm-TabBar-tab.lm-mod-current")).to_contain_text("Start here")
    finally:
        context.close()
