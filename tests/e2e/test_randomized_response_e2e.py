"""The "Randomized response" tab in headless Chromium: epsilon moves the picture; a bad matrix is explained.

The tests share one page (``shared_app_page``): the first puts ε back to 1 when it is done, the second finds the
tab as the app opens it (ε = 1, the default design)."""

from __future__ import annotations

import io
import time

import numpy as np
from PIL import Image
from playwright.sync_api import expect

from tests.e2e.helpers import open_tab, save_screenshot

TIMEOUT = 20_000


def _open(page):
    open_tab(page, "Randomized response")
    panel = page.locator(".explorer-rr-panel")
    expect(panel).to_be_visible(timeout=60_000)
    status = panel.locator(".explorer-status")
    expect(status).to_contain_text("ε = 1 (column 1)", timeout=TIMEOUT)
    return panel, status


def _pixels(locator) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(locator.screenshot())).convert("RGB")).astype(int)


def _wait_for_pixels(locator, accept, timeout: float = TIMEOUT / 1000) -> np.ndarray:
    deadline = time.monotonic() + timeout
    while True:
        pixels = _pixels(locator)
        if accept(pixels) or time.monotonic() > deadline:
            return pixels
        time.sleep(0.25)


def test_moving_epsilon_changes_status_and_label(shared_app_page, tmp_path):
    panel, status = _open(shared_app_page)
    label = panel.locator(".explorer-rr-epsilon-label")
    expect(label).to_contain_text("ε = 1", timeout=TIMEOUT)
    # the four plots' canvas: drawn (not blank) before the slider moves
    figure = panel.locator(".jupyter-matplotlib-canvas-div").first
    expect(figure).to_be_visible(timeout=TIMEOUT)
    before = _wait_for_pixels(figure, lambda p: (p.min(axis=2) < 200).mean() > 0.05)
    assert (before.min(axis=2) < 200).mean() > 0.05, "the figure was not drawn in the browser"
    handle = panel.locator(".explorer-rr-epsilon .noUi-handle").first
    handle.focus()
    for _ in range(2):                                  # the shared slider's step is 0.05
        handle.press("ArrowRight")
    expect(label).to_contain_text("ε = 1.1", timeout=TIMEOUT)
    expect(status).to_contain_text("ε = 1.1 (column 1)", timeout=TIMEOUT)
    expect(status).to_contain_text("by at most 3.0", timeout=TIMEOUT)
    # the slider moves are blitted: the browser decodes the kernel's diff PNGs and the picture changes
    after = _wait_for_pixels(figure, lambda p: p.shape == before.shape and np.abs(p - before).max() > 40)
    assert after.shape == before.shape and np.abs(after - before).max() > 40, "the figure did not change"
    assert (after.min(axis=2) < 200).mean() > 0.05
    typed = panel.locator(".explorer-rr-epsilon-text input")
    typed.fill("2")
    typed.press("Enter")
    expect(status).to_contain_text("multiply the odds of one answer over another by at most 7.4", timeout=TIMEOUT)
    expect(label).to_contain_text("ε = 2", timeout=TIMEOUT)
    save_screenshot(shared_app_page, tmp_path, "rr-epsilon-2")
    # beyond the one range of every tab: the state's words, and the box shows the state's value again
    typed.fill("12")
    typed.press("Enter")
    expect(status).to_contain_text("typed epsilon must be <= 10 (the range every tab uses)", timeout=TIMEOUT)
    expect(typed).to_have_value("2", timeout=TIMEOUT)
    expect(label).to_contain_text("ε = 2", timeout=TIMEOUT)
    # ε = 1 again, as the app opens, for the module's next test
    typed.fill("1")
    typed.press("Enter")
    expect(status).to_contain_text("ε = 1 (column 1)", timeout=TIMEOUT)


def test_invalid_custom_matrix_shows_row_and_sum(shared_app_page, tmp_path):
    panel, status = _open(shared_app_page)
    panel.locator(".explorer-rr-design select").select_option(label="custom matrix")
    expect(panel.locator(".explorer-rr-cell-2-1 input")).to_be_visible(timeout=TIMEOUT)
    for column, value in ((1, "0.2"), (2, "0.5"), (3, "0.2")):
        cell = panel.locator(f".explorer-rr-cell-2-{column} input")
        cell.fill(value)
        cell.press("Enter")
    expect(status).to_contain_text("row 2 sums to 0.9", timeout=TIMEOUT)
    expect(panel.locator(".explorer-rr-invalid-row")).to_have_count(1, timeout=TIMEOUT)
    save_screenshot(shared_app_page, tmp_path, "rr-invalid-matrix")
    panel.locator(".explorer-rr-normalise").click()
    expect(status).not_to_contain_text("sums to", timeout=TIMEOUT)
    expect(panel.locator(".explorer-rr-invalid-row")).to_have_count(0, timeout=TIMEOUT)
