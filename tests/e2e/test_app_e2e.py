"""The app in headless Chromium: it renders, the Data tab works, a bad upload is explained.

The tests share one page (``shared_app_page``), in this order: the first sees the app as it opens, the bad
upload keeps the data set it found, and only the last one changes the data set."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import open_app
from tests.e2e.helpers import open_tab, save_screenshot, upload_csv


@pytest.fixture(scope="module")
def module_app(browser, explorer_server):
    """The module's one page (``shared_app_page``), timed from the request to the rendered app."""
    started = time.monotonic()
    context, page = open_app(browser, explorer_server)
    print(f"first render of the app: {time.monotonic() - started:.2f} s")
    yield page
    context.close()


def test_app_renders_with_data_and_about_tabs(shared_app_page, tmp_path):
    page = shared_app_page                        # the module's first test: the page as the app opened
    expect(page.locator(".lm-TabBar-tab", has_text="Data")).to_be_visible()
    expect(page.locator(".explorer-landing")).to_contain_text("I am a student")   # the first tab
    open_tab(page, "Data")
    expect(page.locator(".lm-TabBar-tab", has_text="About")).to_be_visible()
    select = page.locator(".explorer-data-panel .widget-dropdown select").first
    expect(select).to_have_value("UCI Adult", timeout=30_000)
    expect(page.locator(".explorer-data-panel")).to_contain_text("32,561 records")
    save_screenshot(page, tmp_path, "app-data-tab")
    open_tab(page, "About")
    expect(page.locator("text=deniability").first).to_be_visible()


def test_uploading_a_malformed_csv_shows_the_error(shared_app_page, tmp_path):
    page = shared_app_page
    open_tab(page, "Data")
    select = page.locator(".explorer-data-panel .widget-dropdown select").first
    expect(select).to_have_value("UCI Adult", timeout=30_000)          # the app's data set, before the upload
    upload_csv(page, tmp_path, "ragged.csv", "a,b,c\n1,2,3\n4,5\n")
    status = page.locator(".explorer-data-panel .explorer-status")
    expect(status).to_contain_text("line 3 has 2 fields", timeout=30_000)
    expect(status).to_contain_text("previous data set is kept")
    expect(select).to_have_value("UCI Adult")
    save_screenshot(page, tmp_path, "data-bad-upload")


def test_picking_the_004_example_shows_its_20_rows(shared_app_page, tmp_path):
    page = shared_app_page
    open_tab(page, "Data")
    select = page.locator(".explorer-data-panel .widget-dropdown select").first
    select.select_option("Domingo-Ferrer and Muralidhar (2016) example")
    panel = page.locator(".explorer-data-panel")
    expect(panel).to_contain_text("20 records", timeout=30_000)
    preview_rows = panel.locator("table.explorer-preview tbody tr")
    select.wait_for()
    expect(preview_rows).to_have_count(10)  # the preview shows the first 10 of the 20
    expect(panel).to_contain_text("103.69")
    save_screenshot(page, tmp_path, "data-004-example")
