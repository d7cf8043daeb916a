"""One state, many views, in headless Chromium: the Data tab's marks and a loaded epsilon reach every tab.

The two tests share one page (``shared_app_page``): the first changes the marks only (ε stays 1, as the second
needs), the second loads the configuration it exported with only ε changed."""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from tests.e2e.helpers import open_tab, save_screenshot


def _column_checkbox(page, column: str, which: int):
    """The QI (which=0) or sensitive (which=1) checkbox of ``column`` in the Data tab's column grid."""
    grid = page.locator(".explorer-data-panel .widget-gridbox").first
    cells = grid.locator(":scope > *")
    names = [cells.nth(i).inner_text().strip() for i in range(cells.count())]
    row = names.index(column)                     # the column's name cell; role, QI and sensitive follow
    return cells.nth(row + 4 + which).locator("input[type=checkbox]")


def test_sensitive_attribute_marked_in_the_data_tab_is_named_by_t_closeness(shared_app_page, tmp_path):
    """The marks have one home, the state: the Data tab and the t-closeness tab show and edit the same ones."""
    page = shared_app_page
    open_tab(page, "Data")                        # the app opens on its landing view
    expect(page.locator(".explorer-data-panel .widget-dropdown select").first).to_have_value("UCI Adult",
                                                                                             timeout=30_000)
    # UCI Adult's default marks are the state's: income is marked sensitive already
    expect(_column_checkbox(page, "income", 1)).to_be_checked(timeout=30_000)
    _column_checkbox(page, "income", 1).uncheck()
    _column_checkbox(page, "race", 1).check()
    expect(page.locator(".explorer-data-panel .explorer-status")).to_contain_text("sensitive: race",
                                                                                   timeout=30_000)
    open_tab(page, "t-closeness")
    panel = page.locator(".explorer-t-closeness-panel")
    expect(panel).to_be_visible(timeout=60_000)
    expect(panel.locator(".explorer-tc-sensitive select")).to_have_value("race", timeout=60_000)
    # the tab edits the same marks: income chosen there is what the Data tab shows
    panel.locator(".explorer-tc-sensitive select").select_option("income")
    open_tab(page, "Data")
    expect(_column_checkbox(page, "income", 1)).to_be_checked(timeout=30_000)
    open_tab(page, "t-closeness")
    caption = panel.locator(".explorer-tc-caption")
    stale = panel.locator(".explorer-stale-note")
    for _ in range(120):                          # the caption names it, or the views say they are out of date
        shown = caption.inner_text() + " | " + stale.inner_text()
        if "sensitive income given" in caption.inner_text() or "out of date" in stale.inner_text():
            break
        page.wait_for_timeout(500)
    assert "sensitive income given" in shown or "out of date: press Compute" in shown, shown
    page.wait_for_timeout(1500)
    save_screenshot(page, tmp_path, "state-t-closeness-income")


def test_a_loaded_top_level_epsilon_is_read_back_in_every_tab(shared_app_page, tmp_path):
    page = shared_app_page
    for title in ("t-closeness", "Multi-attribute RR", "Randomized response"):
        open_tab(page, title)
        page.wait_for_timeout(500)
    page.locator(".lm-TabBar-tab", has_text="Data").first.click()
    page.locator(".explorer-config").get_by_text("Configuration").first.click()
    page.get_by_role("button", name="Export configuration").click()
    text_area = page.locator(".explorer-config-text textarea").first
    expect(text_area).to_have_value(re.compile(r'"epsilon": 1'), timeout=30_000)
    config = json.loads(text_area.input_value())
    assert json.dumps(config).count('"epsilon"') == 1
    config["epsilon"] = 0.5
    text_area.fill(json.dumps(config))
    page.get_by_role("button", name="Load configuration").click()
    expect(page.locator(".explorer-app-status")).to_contain_text("ε = 0.5", timeout=60_000)
    for title, readout in (("t-closeness", ".explorer-tc-epsilon .widget-readout"),
                           ("Multi-attribute RR", ".explorer-mdrr-epsilon .widget-readout"),
                           ("Randomized response", ".explorer-rr-epsilon .widget-readout")):
        open_tab(page, title)
        expect(page.locator(readout).first).to_have_text("0.50", timeout=30_000)
    save_screenshot(page, tmp_path, "state-epsilon-loaded")
