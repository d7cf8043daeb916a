"""The Dominance tab in headless Chromium: two configurations give a verdict sentence; changing one updates it;
the tab reads the Data tab's data set (a paper's example brings its printed Y; an upload it cannot use offers the
Ruiz (2018) example).

The tests share one page (``shared_app_page``), in this order: the first sees the tab's default configurations
and puts back the one it changed, the second the default 5,000 records of UCI Adult, the last changes the data
set."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.helpers import open_tab, save_screenshot, upload_csv

RUIZ_EXAMPLE = "Ruiz (2018) example"


def _choose_in_data_tab(page, name: str) -> None:
    open_tab(page, "Data")
    page.locator(".explorer-data-panel .widget-dropdown select").first.select_option(name)
    expect(page.locator(".explorer-data-panel .explorer-status")).to_contain_text(f"Loaded {name}",
                                                                                   timeout=30_000)


def test_two_configurations_give_a_verdict_and_follow_a_change(shared_app_page, tmp_path):
    open_tab(shared_app_page, "Dominance")
    panel = shared_app_page.locator(".explorer-dominance")
    risk = panel.locator(".explorer-dominance-risk-verdict")
    loss = panel.locator(".explorer-dominance-loss-verdict")
    # Default: the shared data set (UCI Adult, a seeded sample), additive noise vs rank swapping.
    expect(risk).to_contain_text("Rank swapping", timeout=30_000)
    expect(risk).to_contain_text("Additive noise")
    expect(risk).to_contain_text("α")
    text = risk.inner_text()
    assert "dominates" in text or "cross" in text, text
    expect(loss).to_contain_text("θ")
    expect(panel.locator(".explorer-dominance-calibration")).to_contain_text("Least information loss")
    canvases = panel.locator("canvas")
    expect(canvases.first).to_be_visible(timeout=30_000)
    shared_app_page.wait_for_timeout(1500)                       # ipympl sends the first image asynchronously
    save_screenshot(shared_app_page, tmp_path, "dominance-default")
    panel.screenshot(path=str(tmp_path / "dominance-panel.png"))

    # Configuration 2 -> data shuffling: the verdicts name it.
    panel.locator(".explorer-dominance-method-2 select").select_option(label="Data shuffling")
    expect(risk).to_contain_text("Data shuffling", timeout=30_000)
    expect(risk).not_to_contain_text("Rank swapping")

    # A parameter out of its range is explained on the status line; the verdict stays.
    parameter = panel.locator(".explorer-dominance-parameter-1 input")
    parameter.fill("99")
    parameter.press("Enter")
    expect(panel.locator(".explorer-status")).to_contain_text("sd_fraction must be <= 3", timeout=30_000)
    expect(risk).to_contain_text("Data shuffling")
    save_screenshot(shared_app_page, tmp_path, "dominance-after-change")
    # the default configurations again (sd fraction 0.5, rank swapping), for the module's next test
    parameter.fill("0.5")
    parameter.press("Enter")
    panel.locator(".explorer-dominance-method-2 select").select_option(label="Rank swapping")
    expect(risk).to_contain_text("Rank swapping", timeout=30_000)
    expect(risk).to_contain_text("sd fraction = 0.5")
    expect(panel.locator(".explorer-status")).not_to_contain_text("must be", timeout=30_000)


def test_full_adult_waits_for_compute_and_runs_with_a_progress_bar(shared_app_page):
    open_tab(shared_app_page, "Dominance")
    panel = shared_app_page.locator(".explorer-dominance")
    status = panel.locator(".explorer-status")
    expect(status).to_contain_text("5,000 of 32,561", timeout=30_000)
    records = panel.locator(".explorer-dominance-max-records input")
    records.fill("0")
    records.press("Enter")
    expect(status).to_contain_text("press Compute", timeout=30_000)
    expect(panel.locator(".explorer-dominance-risk-verdict")).to_contain_text("α")   # the last view stays
    panel.locator(".explorer-dominance-compute").click()
    expect(status).to_contain_text("(32,561 records)", timeout=120_000)
    expect(panel.locator(".explorer-dominance-task")).to_be_hidden()
    expect(panel.locator(".explorer-dominance-compute")).to_be_enabled()


def test_a_papers_example_chosen_in_the_data_tab_is_compared_with_its_printed_y(shared_app_page, tmp_path):
    page = shared_app_page
    _choose_in_data_tab(page, RUIZ_EXAMPLE)             # the example is a data set of the Data tab
    open_tab(page, "Dominance")
    panel = page.locator(".explorer-dominance")
    status = panel.locator(".explorer-status")
    expect(status).to_contain_text("on 3 attribute(s) (5 records); displacements by position", timeout=30_000)
    expect(panel.locator(".explorer-dominance-data-name")).to_contain_text(RUIZ_EXAMPLE)
    expect(panel.locator(".explorer-dominance-data-name")).to_contain_text("with its printed masked version")
    expect(panel.locator(".explorer-dominance-risk-verdict")).to_contain_text("published Y")
    expect(panel.locator(".explorer-dominance-switch")).to_be_hidden()

    # an upload without numbers: said in words, the switch makes the Ruiz (2018) example the shared data set
    upload_csv(page, tmp_path, "towns.csv", "name,town\nann,Reus\nbob,Vic\n")
    expect(page.locator(".explorer-data-panel .explorer-status")).to_contain_text("towns.csv", timeout=30_000)
    open_tab(page, "Dominance")
    expect(status).to_contain_text("'Uploaded: towns.csv' has no numeric attributes", timeout=30_000)
    expect(status).to_contain_text(f"use the {RUIZ_EXAMPLE}")
    switch = panel.locator(".explorer-dominance-switch")
    expect(switch).to_be_visible()
    switch.click()
    expect(status).to_contain_text("(5 records)", timeout=30_000)
    expect(switch).to_be_hidden()
    open_tab(page, "Data")
    expect(page.locator(".explorer-data-panel .widget-dropdown select").first).to_have_value(RUIZ_EXAMPLE,
                                                                                             timeout=30_000)
    save_screenshot(page, tmp_path, "dominance-switch")
