"""A value typed in a slider's readout out of range, or not a number, is refused in words, never silently clamped
(issue 25, item 7), in headless Chromium: the randomized-response ε (Enter and leaving the readout), and the
Multi-attribute RR tab's p, another panel with its own bridge; and in the t-closeness tab, ε typed in its text box
and k in its own box.

The tests share one page (``shared_app_page``): each acts on its own tab and controls.
"""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.helpers import open_tab, save_screenshot

TIMEOUT = 30_000


def _type(readout, text: str, key: str = "Enter") -> None:
    """Focus the slider's readout, replace its text with ``text`` and press ``key`` (Enter, or Tab to leave)."""
    readout.click()
    readout.fill(text)
    readout.press(key)


def _ready(readout, maximum: str) -> None:
    """Wait until the panel's bridge has given the readout its range (the bridge's rules reached the page)."""
    expect(readout).to_have_attribute("data-explorer-max", maximum, timeout=TIMEOUT)


def test_typed_epsilon_120_is_refused_in_words_and_2_5_is_taken(shared_app_page, tmp_path):
    page = shared_app_page
    open_tab(page, "Randomized response")
    panel = page.locator(".explorer-rr-panel")
    expect(panel).to_be_visible(timeout=60_000)
    status = panel.locator(".explorer-status").first
    expect(status).to_contain_text("ε = 1 (column 1)", timeout=TIMEOUT)
    slider = panel.locator(".explorer-rr-epsilon").first
    readout, handle = slider.locator(".widget-readout"), slider.locator(".noUi-handle").first
    typed_box = panel.locator(".explorer-rr-epsilon-text input")
    _ready(readout, "10.0")
    expect(readout).to_have_text("1.00")
    assert readout.evaluate("e => e.isContentEditable")
    value_before = handle.get_attribute("aria-valuenow")

    _type(readout, "120")
    expect(status).to_contain_text("ε, the privacy parameter: '120' is outside the range 0 to 10; it stays 1.00.",
                                   timeout=TIMEOUT)
    assert status.locator("[role=alert]").count() == 1                    # read out at once by a screen reader
    expect(readout).to_have_text("1.00")                                    # not clamped to 10.00
    page.wait_for_timeout(1000)                                             # nothing reaches the kernel later
    expect(readout).to_have_text("1.00")
    assert handle.get_attribute("aria-valuenow") == value_before
    expect(typed_box).to_have_value("1")                                    # the kernel's ε did not move
    save_screenshot(page, tmp_path, "slider-typed-120-refused")

    _type(readout, "2.5")                                                   # in range: ipywidgets takes it
    expect(readout).to_have_text("2.50", timeout=TIMEOUT)
    expect(typed_box).to_have_value("2.5", timeout=TIMEOUT)
    expect(status).to_contain_text("ε = 2.5 (column 1)", timeout=TIMEOUT)

    _type(readout, "abc", key="Tab")                                       # leaving the readout: refused too
    expect(status).to_contain_text("ε, the privacy parameter: 'abc' is not a number; it stays 2.50.",
                                   timeout=TIMEOUT)
    expect(readout).to_have_text("2.50")
    expect(typed_box).to_have_value("2.5")


def test_typed_p_out_of_range_is_refused_in_another_tab(shared_app_page, tmp_path):
    page = shared_app_page
    open_tab(page, "Multi-attribute RR")
    panel = page.locator(".explorer-mdrr-panel")
    expect(panel).to_be_visible(timeout=60_000)
    status = panel.locator(".explorer-status").first
    readout = panel.locator(".explorer-mdrr-p .widget-readout").first
    _ready(readout, "1.0")
    before = readout.inner_text()
    _type(readout, "5")
    expect(status).to_contain_text(f"p: '5' is outside the range 0.05 to 1; it stays {before}.", timeout=TIMEOUT)
    expect(readout).to_have_text(before)
    _type(readout, "0.01")
    expect(status).to_contain_text(f"p: '0.01' is outside the range 0.05 to 1; it stays {before}.",
                                   timeout=TIMEOUT)
    expect(readout).to_have_text(before)
    _type(readout, "0.7")
    expect(readout).to_have_text("0.70", timeout=TIMEOUT)
    save_screenshot(page, tmp_path, "slider-typed-p-refused")


def test_typed_epsilon_120_and_k_0_are_refused_in_words(shared_app_page, tmp_path):
    page = shared_app_page
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
    # (the tests above), never clamped
    assert readout.evaluate("e => e.isContentEditable && getComputedStyle(e).pointerEvents !== 'none'")
    k = panel.locator(".explorer-tc-k input")
    k.fill("0")
    k.press("Enter")
    expect(status).to_contain_text("must be between 1 and", timeout=30_000)
    expect(status).to_contain_text("got 0; the change was refused")
    expect(k).not_to_have_value("0", timeout=30_000)
    save_screenshot(page, tmp_path, "typed-epsilon-refused")
