"""The Multi-attribute RR tab in headless Chromium: clusters shown, bad T_v explained, a background run completes."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.helpers import open_tab, save_screenshot


def test_clusters_bad_threshold_and_a_background_run(app_page, tmp_path):
    open_tab(app_page, "Multi-attribute RR")
    panel = app_page.locator(".explorer-mdrr-panel")
    status = panel.locator(".explorer-status").first
    info = panel.locator(".explorer-mdrr-info")
    expect(info).to_contain_text("1,814,400 combinations", timeout=30_000)
    # the data set is the Data tab's (no source of its own), and the Compute-free heatmap is current
    expect(panel.locator(".explorer-mdrr-data-name")).to_contain_text("UCI Adult")
    expect(panel.locator(".explorer-mdrr-source")).to_have_count(0)
    expect(status).to_contain_text("cluster(s) by Algorithm 1", timeout=30_000)
    expect(info).to_contain_text("marital-status, relationship, sex")
    expect(panel.locator("canvas").first).to_be_visible(timeout=30_000)
    app_page.wait_for_timeout(1500)                      # ipympl sends the first image asynchronously
    save_screenshot(app_page, tmp_path, "mdrr-default")

    # T_v below education's 16 categories: explained, the clusters stay.
    t_v = panel.locator(".explorer-mdrr-tv input")
    t_v.fill("10")
    t_v.press("Enter")
    # the core's "T_v must be ..." shown with v as a subscript
    expect(status).to_contain_text("Tv must be at least the largest attribute cardinality (16)", timeout=30_000)
    expect(status.locator("sub")).to_have_text("v")
    expect(info).to_contain_text("marital-status, relationship, sex")
    t_v.fill("100")
    t_v.press("Enter")
    expect(status).to_contain_text("cluster(s) by Algorithm 1", timeout=30_000)

    # (b') with IBU on Adult is about 16 s of work: the heatmap waits for Compute, marked out of date.
    panel.locator(".explorer-mdrr-proper select").select_option(label="iterative Bayesian update")
    panel.locator(".explorer-mdrr-dependence select").select_option(label="(b') Eq. (2) pair estimates (4.1)")
    expect(status).to_contain_text("press Compute to compute the heatmap", timeout=30_000)
    expect(panel.locator(".explorer-stale-note")).to_contain_text("out of date: press Compute")
    panel.locator(".explorer-mdrr-dependence select").select_option(label="(a) true data (trusted view)")
    expect(status).to_contain_text("cluster(s) by Algorithm 1", timeout=30_000)
    expect(panel.locator(".explorer-stale-note")).not_to_contain_text("out of date")
    panel.locator(".explorer-mdrr-proper select").select_option(label="clip and rescale (6.4)")

    # A short Figure 3 run in the background: progress, then done and a CSV link.
    runs = panel.locator(".explorer-mdrr-runs input")
    runs.fill("2")
    runs.press("Enter")
    panel.locator(".explorer-mdrr-run").click()
    expect(status).to_contain_text("Done: 2 of 2 runs", timeout=90_000)
    expect(panel.locator(".explorer-mdrr-progress-label")).to_contain_text("2 / 2 runs")
    expect(panel.locator("a.explorer-mdrr-csv")).to_be_visible()
    app_page.wait_for_timeout(1500)
    save_screenshot(app_page, tmp_path, "mdrr-after-run")
    panel.screenshot(path=str(tmp_path / "mdrr-panel.png"))
