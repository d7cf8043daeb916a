"""The Permutation tab in headless Chromium: the 004 example masked with additive noise."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.helpers import open_tab, save_screenshot


def test_004_example_additive_noise_shows_histogram_and_linkage(app_page, tmp_path):
    page = app_page
    open_tab(page, "Permutation")
    panel = page.locator(".explorer-permutation-panel")
    expect(panel).to_be_visible(timeout=30_000)
    # the default is the running example of Domingo-Ferrer and Muralidhar (2016) with the paper's masked Y (Table 5: 6 correct links)
    expect(panel.locator(".explorer-perm-linkage")).to_contain_text("6 of 20 records correctly linked",
                                                                    timeout=30_000)
    panel.locator(".explorer-perm-source select").select_option(
        label="the paper's example: Domingo-Ferrer and Muralidhar (2016), 20 records")
    panel.locator(".explorer-perm-method select").select_option(label="Additive noise")
    expect(panel.locator(".explorer-perm-parameter .widget-label").first).to_have_text("sd_fraction",
                                                                                     timeout=20_000)
    expect(panel.locator(".explorer-perm-parameter-doc")).to_contain_text("fraction of each attribute")
    linkage = panel.locator(".explorer-perm-linkage")
    expect(linkage).to_contain_text("records correctly linked", timeout=20_000)
    expect(panel.locator(".explorer-perm-verdict")).to_contain_text("random records", timeout=20_000)
    expect(panel.locator(".explorer-perm-verdict")).to_contain_text("8,000 random records, all combinations")
    expect(panel.locator(".explorer-perm-distance-plot canvas").first).to_be_visible()
    expect(panel.locator(".explorer-status")).not_to_contain_text("wrong")
    # stronger noise: the parameter slider moves, the analysis follows
    before = linkage.inner_text()
    handle = panel.locator(".explorer-perm-parameter .noUi-handle")
    handle.focus()
    for _ in range(75):
        handle.press("ArrowRight")
    expect(panel.locator(".explorer-perm-parameter .widget-readout")).to_have_text("1.00", timeout=20_000)
    page.wait_for_timeout(1500)
    assert "records correctly linked" in linkage.inner_text()
    assert "8,000 random records" in panel.locator(".explorer-perm-verdict").inner_text()
    panel.locator(".explorer-perm-distance-plot").scroll_into_view_if_needed()
    page.wait_for_timeout(1000)
    save_screenshot(page, tmp_path, "permutation-004-additive-noise")
    assert before  # the summary existed before the change


def test_large_data_of_the_data_tab_runs_behind_compute(app_page, tmp_path):
    page = app_page
    open_tab(page, "Permutation")
    panel = page.locator(".explorer-permutation-panel")
    status = panel.locator(".explorer-status").first
    expect(panel.locator(".explorer-perm-linkage")).to_contain_text("6 of 20 records correctly linked",
                                                                    timeout=30_000)
    panel.locator(".explorer-perm-source select").select_option(label="the Data tab's data set (numeric columns)")
    expect(status).to_contain_text("5,000 records, 6 attribute(s).", timeout=30_000)
    expect(panel.locator(".explorer-perm-data-name")).to_contain_text("UCI Adult")
    expect(panel.locator(".explorer-perm-compute")).to_be_hidden()
    records = panel.locator(".explorer-perm-max-records input")
    records.fill("30000")
    records.press("Enter")
    # estimated slow: nothing runs until Compute, the last view stays and says it is out of date
    expect(status).to_contain_text("Large input: 30,000 records", timeout=30_000)
    expect(panel.locator(".explorer-stale-note")).to_contain_text("out of date: press Compute")
    expect(panel.locator(".explorer-perm-linkage")).to_contain_text("of 5000 records")
    compute = panel.locator(".explorer-perm-compute")
    expect(compute).to_be_visible()
    compute.click()
    expect(status).to_contain_text("30,000 records, 6 attribute(s).", timeout=120_000)
    expect(compute).to_be_hidden()
    expect(panel.locator(".explorer-perm-task")).to_be_hidden()
    expect(panel.locator(".explorer-perm-linkage")).to_contain_text("of 30000 records")
    expect(panel.locator(".explorer-stale-note")).not_to_contain_text("out of date")
    expect(status).not_to_contain_text("wrong")
    save_screenshot(page, tmp_path, "permutation-large-adult")
