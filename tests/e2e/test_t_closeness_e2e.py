"""The t-closeness tab in headless Chromium: Adult, race as sensitive, MDAV k = 50."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.helpers import open_tab, save_screenshot


def test_adult_race_mdav_k50_shows_bars_and_violation_count(app_page, tmp_path):
    page = app_page
    open_tab(page, "t-closeness")
    panel = page.locator(".explorer-t-closeness-panel")
    expect(panel).to_be_visible(timeout=30_000)
    panel.locator(".explorer-tc-sensitive select").select_option("race")
    k = panel.locator(".explorer-tc-k input")
    k.fill("50")
    k.press("Enter")
    panel.locator(".explorer-tc-method select").select_option(label="MDAV microaggregation (k)")
    panel.locator(".explorer-tc-cluster-button").click()
    violations = panel.locator(".explorer-tc-violations")
    expect(violations).to_contain_text("of 651 clusters violate", timeout=30_000)
    expect(panel.locator(".explorer-status")).to_contain_text("651 clusters over 32,561 records")
    expect(panel.locator(".explorer-tc-ratio-plot canvas").first).to_be_visible()
    count_before = violations.inner_text()
    # a larger epsilon (shared slider) raises t = exp(eps/2): fewer clusters violate, no re-clustering
    handle = panel.locator(".explorer-tc-epsilon .noUi-handle")
    handle.focus()
    for _ in range(40):
        handle.press("ArrowRight")
    expect(panel.locator(".explorer-tc-epsilon .widget-readout")).to_have_text("3.00")
    expect(panel.locator(".explorer-tc-t")).to_contain_text("4.482", timeout=30_000)     # exp(3/2)
    expect(violations).to_contain_text("t = 4.482", timeout=30_000)
    assert violations.inner_text() != count_before
    page.wait_for_timeout(1500)                                                        # let the canvases redraw
    save_screenshot(page, tmp_path, "t-closeness-adult-race-k50")
