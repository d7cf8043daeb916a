"""Typing a value out of range is refused in words, never clamped (issue 25, item 7), in headless Chromium."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.helpers import open_tab, save_screenshot


def test_typed_epsilon_120_and_k_0_are_refused_in_words(app_page, tmp_path):
    page = app_page
    open_tab(page, "t-closeness")
    panel = page.locator(".explorer-t-closeness-panel")
    expect(panel).to_be_visible(timeout=30_000)
    readout = panel.locator(".explorer-tc-epsilon .widget-readout")
    before = readout.inner_text()
    typed = panel.locator(".explorer-epsilon-typed input")
    typed.fill("120")
    typed.press("Enter")
    status = panel.locator(".explorer-status")
    expect(status).to_contain_text("must be <= 10 (the range every tab uses), got '120'", timeout=30_000)
    expect(status).to_contain_text("ε stays")
    expect(readout).to_have_text(before)                                   # not clamped to 10.00
    expect(typed).not_to_have_value("120", timeout=30_000)
    # the slider's own readout can be typed in too: a value out of range is refused there in words
    # (tests/e2e/test_slider_refusal_e2e.py), never clamped
    assert readout.evaluate("e => e.isContentEditable && getComputedStyle(e).pointerEvents !== 'none'")
    k = panel.locator(".explorer-tc-k input")
    k.fill("0")
    k.press("Enter")
    expect(status).to_contain_text("must be between 1 and", timeout=30_000)
    expect(status).to_contain_text("got 0; the change was refused")
    expect(k).not_to_have_value("0", timeout=30_000)
    save_screenshot(page, tmp_path, "typed-epsilon-refused")
