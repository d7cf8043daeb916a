"""What a screen reader gets from the app in Chromium (explorer.panels.access): one page load for the whole module.

In every model tab: every visible figure canvas is ``role="img"`` with a label and an ``aria-describedby`` text;
one control is changed and the figure's text follows with the core's numbers (computed here with the core);
every slider handle has a name and ``aria-valuetext`` in words; every status line is a live region.  Then the
randomized-response ε moves with the keyboard (arrows, Home) and says so.
"""

from __future__ import annotations

import math
import re
import time

import numpy as np
import pandas as pd
import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import open_app
from tests.e2e.helpers import open_tab

TIMEOUT = 60_000

#: Every figure on screen in the shown tab: its canvas's role, label and the text its aria-describedby names.
FIGURES_JS = """() => [...document.querySelectorAll('.jupyter-matplotlib-canvas-div > canvas:first-child')]
  .filter(c => c.getClientRects().length > 0)
  .map(c => { const id = c.getAttribute('aria-describedby'); const d = id && document.getElementById(id);
              return {role: c.getAttribute('role'), label: c.getAttribute('aria-label') || '',
                      text: d ? d.textContent.trim() : ''}; })"""
HANDLES_JS = """() => [...document.querySelectorAll('.noUi-handle')].filter(h => h.getClientRects().length > 0)
  .map(h => ({name: h.getAttribute('aria-label') || '', text: h.getAttribute('aria-valuetext') || '',
              role: h.getAttribute('role')}))"""
LIVE_JS = """() => [...document.querySelectorAll('.explorer-status')].filter(s => s.getClientRects().length > 0)
  .map(s => s.getAttribute('aria-live'))"""


@pytest.fixture(scope="module")
def page(browser, explorer_server):
    context, page = open_app(browser, explorer_server, timeout_ms=180_000)
    page.set_default_timeout(TIMEOUT)
    yield page
    context.close()


def _figure_text(page, title: str, *, changed_from: str | None = None, contains: str = "",
                 timeout: float = 120.0) -> str:
    """The text alternative of the shown figure whose label has ``title``, once it differs from ``changed_from``
    and contains ``contains`` (the words follow the frames the kernel sends, debounced)."""
    deadline = time.monotonic() + timeout
    text = ""
    while time.monotonic() < deadline:
        for figure in page.evaluate(FIGURES_JS):
            if title in figure["label"]:
                text = figure["text"]
        if text and text != changed_from and contains in text and "being drawn" not in text:
            return text
        page.wait_for_timeout(500)
    raise AssertionError(f"the text of {title!r} did not change to contain {contains!r}; last: {text[:400]!r}")


def _check_tab(page, tab: str) -> None:
    """Every visible figure speaks, every slider says its name and value, every status line is live.

    A figure whose first frame has not reached the page yet says "The figure is being drawn."; the tab's other
    figures may still be on their way when the one a test waited for speaks, so they are waited for too."""
    deadline = time.monotonic() + TIMEOUT / 1000
    figures = page.evaluate(FIGURES_JS)
    while any("being drawn" in figure["text"] for figure in figures) and time.monotonic() < deadline:
        page.wait_for_timeout(500)
        figures = page.evaluate(FIGURES_JS)
    assert figures, f"{tab}: no figure on screen"
    for figure in figures:
        assert figure["role"] == "img" and figure["label"], (tab, figure)
        assert re.search(r"\d", figure["text"]) or "Compute" in figure["text"], (tab, figure)
    for handle in page.evaluate(HANDLES_JS):
        assert handle["role"] == "slider" and handle["name"], (tab, handle)
        assert re.search(r"[A-Za-zα-ωΑ-Ω]", handle["text"]), (tab, handle)   # words, not a bare number
    live = page.evaluate(LIVE_JS)
    assert live and all(value == "polite" for value in live), (tab, live)


def _press(page, name: str, key: str, times: int = 1) -> None:
    handle = page.get_by_role("slider", name=name, exact=True)
    handle.focus()
    for _ in range(times):
        handle.press(key)


def _rows(matrix) -> str:
    return "; ".join(f"{i + 1}: " + ", ".join(f"{x:.3f}" for x in row) for i, row in enumerate(matrix))


def test_every_tab_s_figures_speak_and_follow_a_control_with_the_core_s_numbers(page):
    from explorer.core import datasets, deniability, rr
    from explorer.core.closeness.profile import worst_case_cluster
    from explorer.core.mdrr.adjustment import example1_trace
    from explorer.core.dominance import alpha_grid, compare_maskings, numeric_records, sample_records, theta_grid
    from explorer.core.masking import MASKING_METHODS, mask
    from explorer.core.permutation import numeric_attributes, permutation_analysis, seed_streams
    from explorer.panels._format import format_value

    adult = datasets.adult()
    epsilon = 1.0                                       # the app's ε: no test step here changes it

    # ---- What does ε mean?: Example 3, five equally likely values
    open_tab(page, "What does ε mean?")
    before = _figure_text(page, "Deniability")
    _check_tab(page, "What does ε mean?")
    page.get_by_role("combobox", name="Attribute", exact=True).select_option(label="five equally likely values "
                                                                                  "(Example 3)")
    text = _figure_text(page, "Deniability", changed_from=before, contains="uniform 5-value")
    posterior = deniability.read_matrix(rr.optimal_matrix(5, epsilon), np.full(5, 0.2)).posterior[0]
    assert f"a rises from 0.20 to {posterior[0]:.2f}" in text
    assert f"right with probability {posterior.max():.2f}" in text
    assert ", ".join(f"{label} {p:.3f}" for label, p in zip("abcde", posterior)) in text

    # ---- Randomized response: one more category
    open_tab(page, "Randomized response")
    before = _figure_text(page, "randomized response matrix")
    _check_tab(page, "Randomized response")
    _press(page, "categories r", "ArrowRight")
    text = _figure_text(page, "randomized response matrix", changed_from=before, contains="for 4 categories")
    matrix = rr.optimal_matrix(4, epsilon)
    assert f"Rows: {_rows(matrix)}." in text
    reading = deniability.read_matrix(matrix, np.full(4, 0.25))
    assert f"rows: {_rows(reading.posterior)}." in text
    assert page.get_by_role("slider", name="categories r").get_attribute("aria-valuetext") == "r = 4 categories"
    # the data table of the posterior: a caption and header cells, the same numbers
    page.get_by_role("button", name=re.compile("^Data table: posterior")).click()
    table = page.get_by_role("table", name=re.compile("posterior"))
    expect(table).to_be_visible(timeout=TIMEOUT)
    assert table.locator("th[scope=col]").count() == 5 and table.locator("th[scope=row]").count() == 4
    assert table.locator("tbody tr").first.locator("td").all_inner_texts() == [f"{x:.4g}" for x in
                                                                              reading.posterior[0]]
    page.get_by_role("button", name=re.compile("^Data table: posterior")).click()
    expect(table).to_be_hidden(timeout=TIMEOUT)

    # ---- t-closeness: raise >50K in the worst admissible cluster
    open_tab(page, "t-closeness")
    before = _figure_text(page, "most concentrated cluster", contains="shares", timeout=300)
    _check_tab(page, "t-closeness")
    page.get_by_role("combobox", name="raise", exact=True).select_option(index=2)
    text = _figure_text(page, "most concentrated cluster", changed_from=before)
    prior = adult["income"].value_counts(normalize=True).sort_index().to_numpy()
    worst = worst_case_cluster(prior, epsilon, value=1)
    assert f"t = exp(ε/2) = {math.exp(epsilon / 2):.3f}" in text
    assert re.search(rf">50K {worst.distribution[1]:.3f}", text), text

    # ---- Permutation: the masking parameter one step up
    open_tab(page, "Permutation")
    before = _figure_text(page, "Rank displacement", contains="Spearman", timeout=300)
    _check_tab(page, "Permutation")
    _press(page, page.get_by_role("slider").first.get_attribute("aria-label"), "ArrowRight")
    text = _figure_text(page, "Rank displacement", changed_from=before, timeout=300)
    columns = ['age', 'fnlwgt', 'education', 'education-num', 'capital-gain', 'capital-loss']
    X = numeric_attributes(adult, max_records=5000, rng=seed_streams(1)["data"]).X
    columns = [c for c in columns if c in X.columns]
    X = X[columns]
    Y = mask(X.to_numpy(dtype=float), MASKING_METHODS["additive_noise"], 0.26, rng=seed_streams(1)["mask"])

    analysis = permutation_analysis(X, pd.DataFrame(Y, columns=columns), n_random=10000, ties="average",
                                    rng=seed_streams(1)["analysis"])
    shift = analysis.displacement[:, 0]
    assert f"from {shift.min():.0f} to {shift.max():.0f} ranks" in text, text
    assert f"rho = {analysis.spearman[0]:.3f}" in text

    # ---- Dominance: θ₂ of the calibration one step up
    open_tab(page, "Dominance")
    before = _figure_text(page, "Calibration", contains="D =", timeout=300)
    _check_tab(page, "Dominance")
    _press(page, "θ₂", "ArrowRight")
    text = _figure_text(page, "Calibration", changed_from=before, contains="θ₂ = 2.05", timeout=300)
    X, _ = numeric_records(adult, ['age', 'fnlwgt', 'education-num', 'capital-gain', 'capital-loss',
                                   'hours-per-week'])
    result = compare_maskings(sample_records(X, 5000, 0),
                              [("additive_noise", 0.5, "1. Additive noise, sd fraction = 0.5"),
                               ("rank_swapping", 0.1, "2. Rank swapping, window = 0.1")],
                              published=None, alphas=alpha_grid(-10.0, 121, include_minus_inf=True),
                              thetas=theta_grid(10.0, 121, include_inf=True), beta=1.0, pi=1.0, alpha1=0.0,
                              theta2=2.05, risk_target=0.0, risk_attribute=0, loss_pair=(0, 1), normalize=False,
                              seed=0, convention="rank", sweep=False)
    for point in result.points:
        assert f"D = {format_value(point.risk)}" in text and f"I = {format_value(point.loss)}" in text, text

    # ---- Multi-attribute RR: one more sweep of RR-Adjustment on Example 1
    open_tab(page, "Multi-attribute RR")
    before = _figure_text(page, "RR-Adjustment", contains="sweep")
    _check_tab(page, "Multi-attribute RR")
    _press(page, "Sweeps", "ArrowRight")
    text = _figure_text(page, "RR-Adjustment", changed_from=before, contains="over 11 sweep(s)")
    trace = example1_trace(11)
    w = trace.weights
    assert (f"w of (a1,a1) records {w[0]:.5f}, w of (a2,a1) records {w[4]:.5f}, w of (a2,a2) records "
            f"{w[6]:.5f}") in text
    assert f"is {trace.closed_form:.5f}" in text


def test_the_randomized_response_epsilon_moves_by_keyboard_and_says_its_value(page):
    open_tab(page, "Randomized response")
    panel = page.locator(".explorer-rr-panel")
    status = panel.locator(".explorer-status")
    handle = page.get_by_role("slider", name="ε, the privacy parameter", exact=True)
    expect(handle).to_have_attribute("aria-valuetext", "ε = 1.00, odds at most ×2.7", timeout=TIMEOUT)
    handle.focus()
    handle.press("ArrowRight")
    handle.press("ArrowRight")                           # the shared slider's step is 0.05
    expect(handle).to_have_attribute("aria-valuenow", "1.1", timeout=TIMEOUT)
    expect(handle).to_have_attribute("aria-valuetext", "ε = 1.10, odds at most ×3.0", timeout=TIMEOUT)
    expect(status).to_contain_text("ε = 1.1 (column 1)", timeout=TIMEOUT)      # the state's ε followed
    expect(status).to_have_attribute("aria-live", "polite")
    _figure_text(page, "randomized response matrix", contains="ε = 1.1, attained")
    handle.press("Home")
    expect(handle).to_have_attribute("aria-valuetext", "ε = 0.00, odds at most ×1.0", timeout=TIMEOUT)
    expect(status).to_contain_text("ε = 0 ", timeout=TIMEOUT)
    # the typed box and the readout have names too
    expect(page.get_by_role("textbox", name="typed ε", exact=True)).to_have_value("0", timeout=TIMEOUT)


def test_under_the_demo_csp_the_bridge_runs_and_the_figures_speak(browser, demo_server):
    """``privacy-explorer --demo`` (its Content-Security-Policy): the bridge's module loads like the sizer's."""
    from tests.e2e.test_demo_e2e import close_and_wait

    url, server, _log = demo_server
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    page.set_default_timeout(TIMEOUT)
    try:
        page.goto(url, timeout=180_000)
        page.wait_for_selector(".explorer-app", timeout=180_000)
        open_tab(page, "Randomized response")
        assert "ε = 1, attained" in _figure_text(page, "randomized response matrix")
        _check_tab(page, "Randomized response (demo)")
        violations = [line for line in console if "Content Security Policy" in line]
        assert violations == [], violations
    finally:
        left = close_and_wait(page, server)         # the shared demo server is left with no kernel
        context.close()
    assert left == 0, "closing the page did not stop its kernel within 10 s"
