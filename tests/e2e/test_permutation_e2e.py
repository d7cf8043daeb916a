"""The Permutation tab in headless Chromium: the tab reads the Data tab's data set (the Domingo-Ferrer and
Muralidhar (2016) example masked with additive noise, UCI Adult behind Compute, an upload it cannot use).

The tests share one page (``shared_app_page``), in this order: the upload on the app's UCI Adult (it ends on the
paper's example), the paper's example, then UCI Adult chosen again (as the app opens: its 5,000 records, additive
noise) behind Compute.  Each test chooses its data set in the Data tab unless it is the one shown."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.helpers import open_tab, save_screenshot, upload_csv


DM_EXAMPLE = "Domingo-Ferrer and Muralidhar (2016) example"


def _choose_in_data_tab(page, name: str) -> None:
    open_tab(page, "Data")
    select = page.locator(".explorer-data-panel .widget-dropdown select").first
    if select.input_value() == name:                # already the shared data set: nothing to load
        return
    page.locator(".explorer-data-panel .widget-dropdown select").first.select_option(name)
    expect(page.locator(".explorer-data-panel .explorer-status")).to_contain_text(f"Loaded {name}",
                                                                                   timeout=30_000)


def test_an_upload_without_numbers_is_said_in_words_and_the_switch_works(shared_app_page, tmp_path):
    page = shared_app_page
    open_tab(page, "Permutation")
    panel = page.locator(".explorer-permutation-panel")
    status = panel.locator(".explorer-status").first
    expect(status).to_contain_text("5,000 records, 6 attribute(s).", timeout=30_000)
    upload_csv(page, tmp_path, "towns.csv", "name,town\nann,Reus\nbob,Vic\n")
    expect(page.locator(".explorer-data-panel .explorer-status")).to_contain_text("towns.csv", timeout=30_000)
    open_tab(page, "Permutation")
    expect(status).to_contain_text("needs numeric (or ordinal) attributes", timeout=30_000)
    expect(status).to_contain_text("'Uploaded: towns.csv' has no numeric or ordinal column")
    expect(panel.locator(".explorer-stale-note")).to_contain_text("out of date")
    switch = panel.locator(".explorer-perm-switch")
    expect(switch).to_be_visible()
    switch.click()
    expect(panel.locator(".explorer-perm-linkage")).to_contain_text("6 of 20 records correctly linked",
                                                                    timeout=30_000)
    expect(switch).to_be_hidden()
    open_tab(page, "Data")
    expect(page.locator(".explorer-data-panel .widget-dropdown select").first).to_have_value(DM_EXAMPLE,
                                                                                             timeout=30_000)
    save_screenshot(page, tmp_path, "permutation-switch")


def test_the_papers_example_additive_noise_shows_histogram_and_linkage(shared_app_page, tmp_path):
    page = shared_app_page
    _choose_in_data_tab(page, DM_EXAMPLE)            # the example is a data set of the Data tab
    open_tab(page, "Permutation")
    panel = page.locator(".explorer-permutation-panel")
    expect(panel).to_be_visible(timeout=30_000)
    # its printed masked Y comes with it (Table 5: 6 correct links)
    expect(panel.locator(".explorer-perm-linkage")).to_contain_text("6 of 20 records correctly linked",
                                                                    timeout=30_000)
    expect(panel.locator(".explorer-perm-data-name")).to_contain_text(DM_EXAMPLE)
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
    save_screenshot(page, tmp_path, "permutation-example-additive-noise")
    assert before  # the summary existed before the change


def test_large_data_of_the_data_tab_runs_behind_compute(shared_app_page, tmp_path):
    page = shared_app_page
    _choose_in_data_tab(page, "UCI Adult")           # the data set the app opens on
    open_tab(page, "Permutation")
    panel = page.locator(".explorer-permutation-panel")
    status = panel.locator(".explorer-status").first
    # UCI Adult: the tab shows it (no source of its own)
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
