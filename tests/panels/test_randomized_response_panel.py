"""Tests of the "Randomized response" panel: controls drive the right artists; bad input keeps the last state."""

from __future__ import annotations

import math
import re

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from explorer.core import datasets  # noqa: E402
from explorer.core.rr import optimal_matrix  # noqa: E402
from explorer.errors import ExplorerError
from explorer.state import AppState  # noqa: E402
from explorer.panels.randomized_response import (  # noqa: E402
    PRESET_EXAMPLE1,
    RandomizedResponsePanel,
)


@pytest.fixture
def panel():
    return RandomizedResponsePanel()


def matrix_shown(panel):
    return np.asarray(panel.matrix_artists.image.get_array())


def snapshot(panel):
    return (matrix_shown(panel).copy(), np.asarray(panel.posterior_artists.image.get_array()).copy(),
            panel.deniability_artists.heights.copy(), np.asarray(panel.curve_artists.marker.get_xdata()).copy())


def assert_same(a, b):
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)


def test_builds_with_own_state_and_widget():
    panel = RandomizedResponsePanel()
    assert isinstance(panel.state, AppState)
    assert "explorer-rr-panel" in panel.widget._dom_classes
    assert not panel.status.is_error
    assert panel.status.message.startswith("ε = 1 (column 1)")
    np.testing.assert_allclose(matrix_shown(panel), optimal_matrix(3, 1.0))


def test_epsilon_moves_matrix_posterior_bars_curve_and_state(panel):
    before = snapshot(panel)
    panel.epsilon.value = 2.0
    after = snapshot(panel)
    for x, y in zip(before, after):
        assert not np.array_equal(x, y)
    np.testing.assert_allclose(matrix_shown(panel), optimal_matrix(3, 2.0))
    assert panel.curve_artists.marker.get_xdata()[0] == pytest.approx(2.0)
    assert panel.state.epsilon == 2.0
    assert panel.epsilon_text.value == "2"
    assert "ε = 2" in panel.epsilon_label.value
    assert "by at most 7.4" in panel.status.message


def test_shared_epsilon_drives_panel():
    state = AppState()
    panel = RandomizedResponsePanel(state=state)
    state.epsilon = 0.5
    assert panel.epsilon.value == 0.5 and panel.epsilon_text.value == "0.5"
    np.testing.assert_allclose(matrix_shown(panel), optimal_matrix(3, 0.5))
    with pytest.raises(ExplorerError, match="epsilon must be <= 10"):   # the shared epsilon has one range
        state.epsilon = 25.0
    assert state.epsilon == 0.5 and panel.epsilon.value == 0.5
    panel.epsilon_text.value = "25"   # beyond the range: refused in the state's words, no tab-only epsilon
    assert panel.status.is_error and "typed epsilon must be <= 10 (the range every tab uses)" in panel.status.message
    assert state.epsilon == 0.5 and panel.epsilon_text.value == "0.5" and panel.epsilon.value == 0.5
    assert panel.results["epsilon"] == pytest.approx(0.5)


def test_typed_epsilon_and_bad_text(panel):
    panel.epsilon_text.value = "3"
    assert panel.epsilon.value == 3.0 and panel.state.epsilon == 3.0
    good = snapshot(panel)
    for bad, words in [("abc", "typed epsilon must be a number, got 'abc'"), ("-1", "typed epsilon must be >= 0"),
                       ("nan", "typed epsilon must be a number, got NaN"),
                       ("12", "typed epsilon must be <= 10 (the range every tab uses), got '12'"),
                       ("inf", "an infinite epsilon means no randomization")]:
        panel.epsilon_text.value = bad
        assert panel.status.is_error and words in panel.status.message
        assert panel.epsilon_text.value == "3" and panel.state.epsilon == 3.0 and panel.epsilon.value == 3.0
        assert_same(snapshot(panel), good)
    panel.epsilon_text.value = "2.50"               # a valid value is shown as the state holds it
    assert not panel.status.is_error and panel.state.epsilon == 2.5 and panel.epsilon_text.value == "2.5"


def test_the_identity_matrix_without_an_infinite_epsilon(panel):
    panel.design.value = "keep_or_uniform"          # p = 1: every answer kept (epsilon infinite)
    panel.p.value = 1.0
    np.testing.assert_array_equal(matrix_shown(panel), np.eye(3))
    assert "reveal the answer for certain" in panel.status.message
    assert panel.state.epsilon == 1.0               # the shared epsilon is untouched


def test_categories_and_labels(panel):
    panel.n_categories.value = 5
    assert matrix_shown(panel).shape == (5, 5)
    assert len(panel.deniability_artists.bars) == 5
    panel.category_labels.value = "a, b, c, d, e"
    assert [t.get_text() for t in panel.ax_matrix.get_xticklabels()] == list("abcde")
    good = snapshot(panel)
    panel.category_labels.value = "a, b"
    assert panel.status.is_error and "2 labels given for r = 5" in panel.status.message
    assert_same(snapshot(panel), good)


def test_forged_values_are_revalidated(panel):
    good = snapshot(panel)
    panel.n_categories.max = 100      # a client can forge max as well as value
    panel.n_categories.value = 50
    assert panel.status.is_error and "categories r must be <= 12, got 50" in panel.status.message
    assert_same(snapshot(panel), good)
    panel.n_categories.max = 12
    panel.n_categories.value = 3
    panel.epsilon.max = 1000
    panel.epsilon.value = 500
    assert panel.status.is_error and "epsilon must be <= 10" in panel.status.message
    assert panel.epsilon.value == panel.state.epsilon == 1.0   # the slider shows the state's value again
    panel.epsilon.max = 10
    panel.epsilon.value = 2.0
    assert not panel.status.is_error and panel.state.epsilon == 2.0
    panel.n_samples.value = -5
    panel.simulate.click()
    assert panel.status.is_error and "sample size n must be >= 1, got -5" in panel.status.message


def test_prior_controls(panel):
    panel.prior_source.value = "typed"
    assert panel.status.is_error and "prior weights must not be empty" in panel.status.message
    panel.prior_weights.value = "5, 3, 2"
    assert not panel.status.is_error
    np.testing.assert_allclose(panel.prior, [0.5, 0.3, 0.2])
    assert panel.deniability_artists.prior_line.get_ydata()[0] == pytest.approx(1.4854752972)
    good = snapshot(panel)
    panel.prior_weights.value = "5, -3, 2"
    assert panel.status.is_error and "prior weights must be non-negative: entry 2 is -3" in panel.status.message
    assert_same(snapshot(panel), good)
    panel.prior_weights.value = "0, 0, 0"
    assert "must not be all zero" in panel.status.message
    panel.prior_source.value = "dataset"
    assert "needs an attribute of the data set" in panel.status.message


def test_designs_and_p(panel):
    panel.design.value = "keep_or_uniform"
    panel.p.value = 0.6
    m = matrix_shown(panel)
    assert m[0, 0] == pytest.approx(0.6 + 0.4 / 3) and m[0, 1] == pytest.approx(0.4 / 3)
    assert panel.p.layout.display == "" and panel.custom_box.layout.display == "none"
    panel.design.value = "warner"
    assert panel.status.is_error and "needs r = 2, got 3" in panel.status.message
    panel.n_categories.value = 2
    panel.p.value = 0.75
    assert panel.results["epsilon"] == pytest.approx(math.log(3))
    assert "by at most 3.0" in panel.status.message


def test_custom_matrix_row_09_keeps_last_plot(panel):
    panel.design.value = "custom"
    assert panel.custom_box.layout.display == ""
    good = snapshot(panel)
    # row 2 becomes (0.2, 0.5, 0.2): sum 0.9
    panel.cells[1][0].value = 0.2
    panel.cells[1][1].value = 0.5
    panel.cells[1][2].value = 0.2
    assert panel.status.is_error
    assert "row 2 sums to 0.9" in panel.status.message
    assert_same(snapshot(panel), good)
    assert "explorer-rr-invalid-row" in panel.matrix_grid.children[1]._dom_classes
    assert "0.9" in panel.row_sums[1].value
    panel.normalise_rows.click()
    assert not panel.status.is_error
    np.testing.assert_allclose(matrix_shown(panel)[1], [2 / 9, 5 / 9, 2 / 9])
    assert "explorer-rr-invalid-row" not in panel.matrix_grid.children[1]._dom_classes
    panel.cells[0][0].value = -0.5
    assert "row 1, column 1 is -0.5" in panel.status.message
    panel.normalise_rows.click()
    assert "cannot normalise: row 1" in panel.status.message


def test_preset_example1(panel):
    panel.apply_preset(PRESET_EXAMPLE1)
    assert not panel.status.is_error
    assert panel.results["epsilon"] == pytest.approx(2.0)
    np.testing.assert_allclose(panel.results["posterior"][0], [0.881, 0.119], atol=5e-4)
    assert panel.results["entropies"][0] == pytest.approx(0.527, abs=5e-4)
    assert panel.matrix_artists.texts[0][0].get_text() == "0.74"
    assert panel.matrix_artists.column_box.get_x() == -0.5
    assert panel.preset_example1.description == PRESET_EXAMPLE1


def test_preset_perfect_secrecy_and_simulation(panel):
    panel.preset_secrecy.click()
    assert panel.results["perfect_secrecy"]
    assert "Perfect secrecy" in panel.status.message and "singular" in panel.status.message
    np.testing.assert_allclose(panel.deniability_artists.heights, math.log2(3))
    panel.simulate.click()
    sim = panel.simulation
    assert np.all(np.isnan(sim["values"]["inversion"]))
    assert np.isfinite(sim["values"]["ibu"]).all()
    assert "Singular matrix" in panel.estimate_info.value


def test_simulation_draws_true_and_four_estimates(panel):
    panel.n_samples.value = 20_000
    panel.simulate.click()
    art = panel.estimate_artists
    assert art.series == ["true", "inversion", "clip", "simplex", "ibu"]
    truth = art.heights("true")
    assert truth.sum() == pytest.approx(1.0)
    for method in ("inversion", "clip", "simplex", "ibu"):
        assert np.max(np.abs(art.heights(method) - truth)) < 0.05
    assert "e<sub>abs</sub>" in panel.estimate_info.value
    first = art.heights("inversion").copy()
    panel.seed.value = 1
    panel.simulate.click()
    assert not np.array_equal(first, art.heights("inversion"))


def test_attribute_from_dataset_supplies_labels_and_prior():
    state = AppState()
    state.dataset = datasets.load_builtin("UCI Adult")
    panel = RandomizedResponsePanel(state=state)
    assert "race" in panel.attribute.options
    panel.attribute.value = "race"
    assert panel.n_categories.value == 5 and panel.n_categories.disabled
    assert panel.prior_source.value == "dataset"
    assert panel.labels[-1] == "White" and panel.prior[-1] == pytest.approx(0.854, abs=1e-3)
    assert panel.results["misinformative"].sum() >= 1
    panel.n_samples.value = 5000
    panel.simulate.click()
    assert panel.simulation["n"] == 5000
    good = snapshot(panel)
    panel.attribute.value = "native-country"
    assert panel.status.is_error and "has 42 categories" in panel.status.message
    assert_same(snapshot(panel), good)


def test_config_round_trip(panel):
    panel.n_categories.value = 4
    panel.design.value = "custom"
    panel.cells[0][0].value = 0.5
    panel.cells[0][1].value = 0.5 - panel.cells[0][2].value - panel.cells[0][3].value
    config = panel.config()
    other = RandomizedResponsePanel()
    other.apply_config(config)
    assert other.config() == config
    np.testing.assert_allclose(matrix_shown(other), matrix_shown(panel))
    from explorer.errors import ConfigurationError
    with pytest.raises(ConfigurationError):
        other.apply_config({"design": "magic"})
    with pytest.raises(ConfigurationError):
        other.apply_config({"bogus": 1})


def test_update_is_in_place(panel):
    image, bars = panel.matrix_artists.image, list(panel.deniability_artists.bars)
    panel.epsilon.value = 3.0
    assert panel.matrix_artists.image is image
    assert list(panel.deniability_artists.bars) == bars


def test_slider_moves_blit_only_the_moving_artists(panel):
    panel.figure.canvas.draw()                 # what the browser's first draw request does
    assert panel.blitter.background is not None
    blits = panel.blitter.n_blits
    panel.epsilon.value = 2.5
    assert panel.blitter.n_blits == blits + 1
    np.testing.assert_allclose(matrix_shown(panel), optimal_matrix(3, 2.5))
    panel.prior_source.value = "typed"
    panel.prior_weights.value = "1, 2, 3"    # the prior changes the static curve: a full redraw is due
    assert panel.blitter.background is None


@pytest.mark.slow
def test_saved_figures_contain_the_moving_artists(panel, tmp_path):
    import io
    panel.figure.canvas.draw()
    panel.epsilon.value = 2.0                       # blitted
    svg = io.BytesIO()
    panel.figure.savefig(svg, format="svg")
    text = svg.getvalue().decode()
    assert text.count("<image") == 2                # both heatmaps (moving artists), once each
    panel.figure.savefig(tmp_path / "big.png", dpi=150)
    blits = panel.blitter.n_blits
    panel.epsilon.value = 2.5                       # still blitted, onto the saved background
    assert panel.blitter.n_blits == blits + 1
    blitted = np.asarray(panel.figure.canvas.get_renderer().buffer_rgba()).copy()
    panel.figure.canvas.draw()                      # a full redraw gives the same pixels
    np.testing.assert_array_equal(np.asarray(panel.figure.canvas.get_renderer().buffer_rgba()), blitted)


def _decode(png):
    import io

    from PIL import Image
    return np.asarray(Image.open(io.BytesIO(png))).view(np.uint32).squeeze(2)


def test_blitted_move_sends_a_diff_png_that_rebuilds_the_canvas(panel):
    import base64
    canvas = panel.figure.canvas
    sent = []
    canvas.send = lambda content, buffers=None: buffers and sent.append(bytes(buffers[0]))
    canvas.draw()                                   # before a browser view: a data URL is kept as well
    shown = _decode(sent[-1])                       # a full image
    np.testing.assert_array_equal(_decode(base64.b64decode(canvas._data_url)), shown)
    canvas._handle_message(canvas, {"type": "initialized"}, [])   # a browser view attached
    url = canvas._data_url
    for epsilon in (2.0, 2.5, 0.2):
        count = len(sent)
        panel.epsilon.value = epsilon               # blitted
        assert len(sent) == count + 1 and canvas._current_image_mode == "diff"
        diff = _decode(sent[-1])
        assert 0 < np.count_nonzero(diff) < diff.size // 2   # only the changed pixels
        shown = np.where(diff != 0, diff, shown)    # what the browser does with a diff image
        current = np.asarray(canvas.get_renderer().buffer_rgba()).view(np.uint32).squeeze(2)
        np.testing.assert_array_equal(shown, current)
    assert canvas._data_url == url                  # no more data URLs once a view is attached


def test_deniability_curve_is_computed_once_per_prior(panel, monkeypatch):
    from explorer.core import deniability
    calls = []
    original = deniability.deniability_curve
    monkeypatch.setattr(deniability, "deniability_curve", lambda *a, **k: calls.append(a) or original(*a, **k))
    for epsilon in (0.5, 1.5, 2.5):
        panel.epsilon.value = epsilon
    assert calls == []                              # ε moves: the curve is reused
    panel.prior_source.value = "typed"
    panel.prior_weights.value = "1, 2, 3"
    assert len(calls) == 1
    np.testing.assert_allclose(panel.curve_artists.conditional.get_ydata(),
                               original(3, np.array([1, 2, 3]) / 6, panel.results["curve"].epsilons)
                               .conditional_entropy)


def test_moves_that_change_nothing_drawn_are_not_redrawn(panel):
    panel.design.value = "keep_or_uniform"
    panel.figure.canvas.draw()
    blits, skipped = panel.blitter.n_blits, panel.n_skipped
    shown = snapshot(panel)
    panel.epsilon.value = 4.0                       # this design does not depend on the ε slider
    assert panel.blitter.n_blits == blits and panel.n_skipped == skipped + 1
    assert_same(snapshot(panel), shown)
    assert panel.state.epsilon == 4.0 and "The ε slider sets the optimal design" in panel.status.message
    panel.p.value = 0.8                             # the matrix changes: blitted
    assert panel.blitter.n_blits == blits + 1
    assert matrix_shown(panel)[0, 0] == pytest.approx(0.8 + 0.2 / 3)


@pytest.mark.slow
def test_a_simulation_shown_is_marked_out_of_date_when_its_inputs_change():
    state = AppState()
    panel = RandomizedResponsePanel(state=state)
    panel.run_simulation()
    assert not panel.simulation_stale.stale
    state.epsilon = 2.0                                   # e.g. after a configuration load
    assert panel.simulation_stale.stale and "out of date: press Compute" in panel.simulation_stale.widget.value
    panel.simulate.click()
    assert not panel.simulation_stale.stale and "ε = 2" in panel.ax_estimates.get_title()
    panel.seed.value = 3
    assert panel.simulation_stale.stale


@pytest.mark.slow
def test_changing_the_number_of_categories_closes_the_replaced_cells():
    import warnings

    import ipywidgets as widgets

    panel = RandomizedResponsePanel(state=AppState())

    def count():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return len(widgets.Widget.widgets)

    panel.n_categories.value = 11
    panel.n_categories.value = 12
    before = count()
    for i in range(6):          # three round trips: a cell left open by any change would show here
        panel.n_categories.value = 11 + i % 2
    assert count() <= before


# ---------------------------------------------------------------------- one epsilon: the state's
def rr_epsilon_is_the_states(panel):
    """Every place the tab shows epsilon holds the state's value."""
    state = panel.state.epsilon
    assert panel.epsilon.value == state
    assert panel.epsilon_text.value == f"{state:g}"
    assert panel._current_epsilon() == state
    if panel.design.value == "optimal" and not panel.status.is_error:
        assert panel.results["epsilon"] == pytest.approx(state)
        np.testing.assert_allclose(matrix_shown(panel), optimal_matrix(panel.n_categories.value, state))


def test_the_tab_keeps_no_copy_of_epsilon():
    panel = RandomizedResponsePanel(state=AppState())
    assert not hasattr(panel, "_epsilon_override") and not hasattr(panel, "_syncing")
    assert "epsilon" not in panel.config()


def test_epsilon_equals_the_states_after_slider_typed_and_state_changes():
    state = AppState()
    panel = RandomizedResponsePanel(state=state)
    rr_epsilon_is_the_states(panel)
    for value in (2.0, 0.0, 10.0, 0.35):             # slider moves
        panel.epsilon.value = value
        assert state.epsilon == value
        rr_epsilon_is_the_states(panel)
    for text, expected in (("3", 3.0), ("0.5", 0.5), ("10", 10.0)):   # typed values
        panel.epsilon_text.value = text
        assert state.epsilon == expected and not panel.status.is_error
        rr_epsilon_is_the_states(panel)
    for text in ("12", "inf", "-1", "nan", "1e400", "ε"):             # refused typed values
        panel.epsilon_text.value = text
        assert panel.status.is_error and "typed epsilon" in panel.status.message
        assert state.epsilon == 10.0
        rr_epsilon_is_the_states(panel)
    for value in (4.0, 0.0, 7.25):                    # the state changed elsewhere (another tab)
        state.epsilon = value
        assert not panel.status.is_error
        rr_epsilon_is_the_states(panel)
    for bad in (12, float("inf"), -1.0, float("nan")):
        with pytest.raises(ExplorerError):
            state.epsilon = bad
        rr_epsilon_is_the_states(panel)


# A value beyond the slider's own [min, max] (which ipywidgets would clamp silently), NaN, a forged max or
# a non-number: no browser control sends it, so the guard refuses it in words and the state keeps 2.
@pytest.mark.parametrize("forged, expected", [({"value": 50.0}, 2.0), ({"value": -3.0}, 2.0),
                                              ({"value": float("inf")}, 2.0), ({"value": float("nan")}, 2.0),
                                              ({"max": 1000.0, "value": 500.0}, 2.0), ({"value": "x"}, 2.0)])
def test_a_forged_slider_message_keeps_the_states_epsilon(forged, expected):
    from explorer.panels.browser import guard_widgets
    state = AppState()
    panel = RandomizedResponsePanel(state=state)
    guard_widgets(panel.widget, panel.status)          # what the app does to every tab
    panel.epsilon.set_state({"value": 2.0})            # a real slider move through the websocket path
    assert state.epsilon == 2.0
    panel.epsilon.set_state(dict(forged))              # must not raise
    assert state.epsilon == expected
    assert 0.0 <= panel.epsilon.value <= 10.0
    rr_epsilon_is_the_states(panel)


@pytest.mark.parametrize("forged", ["12", "inf", "-1", "NaN", "", "1" * 10_000, None, 5])
def test_a_forged_typed_box_message_keeps_the_states_epsilon(forged):
    from explorer.panels.browser import guard_widgets
    state = AppState()
    panel = RandomizedResponsePanel(state=state)
    guard_widgets(panel.widget, panel.status)
    panel.epsilon_text.set_state({"value": "2.5"})
    assert state.epsilon == 2.5
    panel.epsilon_text.set_state({"value": forged})    # must not raise
    assert state.epsilon == 2.5 and panel.status.is_error
    assert len(panel.status.message) < 400             # a long input is not echoed whole
    rr_epsilon_is_the_states(panel)


def test_unguarded_forged_values_do_not_raise_either():
    panel = RandomizedResponsePanel(state=AppState())
    panel.epsilon.max = 1000.0                         # a forged range as well as a forged value
    panel.epsilon.set_state({"value": 99.0})
    assert panel.state.epsilon == 1.0 and panel.status.is_error
    panel.epsilon_text.set_state({"value": "inf"})
    assert panel.state.epsilon == 1.0 and panel.status.is_error
    rr_epsilon_is_the_states(panel)


def test_a_configuration_load_sets_the_tabs_epsilon_and_redraws_it():
    from explorer.app import ExplorerApp
    from explorer.panels.randomized_response import __name__ as module
    tabs = [("Randomized response", module, "RandomizedResponsePanel")]
    app = ExplorerApp(tabs=tabs)
    panel = app.panel("Randomized response")
    panel.n_categories.value = 5
    panel.run_simulation()
    config = app.export_config()
    assert "epsilon" not in config["tabs"]["Randomized response"]
    config["epsilon"] = 3.5
    config["tabs"]["Randomized response"]["n_categories"] = 4
    other = ExplorerApp(tabs=tabs)
    other_panel = other.panel("Randomized response")
    other_panel.run_simulation()
    other.load_config(config)
    assert other.state.epsilon == 3.5 and other_panel.n_categories.value == 4
    rr_epsilon_is_the_states(other_panel)
    # the simulation on screen was made with other inputs: marked until recomputed
    assert other_panel.simulation_stale.stale
    other_panel.simulate.click()
    assert "ε = 3.5" in other_panel.ax_estimates.get_title()
    assert other.export_config()["epsilon"] == 3.5
    # an older export of this tab with its own epsilon: ignored, the top-level value counts
    config["tabs"]["Randomized response"]["epsilon"] = 9.0
    other.load_config(config)
    assert other.state.epsilon == 3.5
    rr_epsilon_is_the_states(other_panel)
    other_panel.apply_config({"epsilon": 9.0, "seed": 4})
    assert other.state.epsilon == 3.5 and other_panel.seed.value == 4


def test_simulation_numbers_are_cores():
    from explorer.core.rr.simulation import simulate_estimation
    panel = RandomizedResponsePanel(state=AppState())
    panel.n_samples.value, panel.seed.value = 3_000, 9
    shown = panel.run_simulation()
    sim = simulate_estimation(panel.matrix, 3_000, prior=panel.prior, rng=9)
    assert shown["result"].n == sim.n == shown["n"]
    for method, estimate in sim.estimates.items():
        np.testing.assert_array_equal(shown["values"][method], estimate)
    np.testing.assert_array_equal(shown["values"]["true"], sim.true)
    assert f"e<sub>abs</sub> = {sim.bounds.e_abs:.4f}" in panel.estimate_info.value


def test_the_typed_epsilon_never_rounds_the_shared_value():
    from explorer.panels.randomized_response import RandomizedResponsePanel
    from explorer.state import AppState
    state = AppState()
    panel = RandomizedResponsePanel(state=state)
    state.epsilon = 1.81195489649449
    assert state.epsilon == 1.81195489649449
    assert float(panel.epsilon_text.value) == state.epsilon
    state.epsilon = 2.0
    assert panel.epsilon_text.value == "2"


def _shown_texts(widget) -> list[str]:
    """The text of every HTML widget of the panel, as a reader sees it (tags, styles dropped)."""
    from html import unescape

    import ipywidgets as widgets
    texts = []
    if isinstance(widget, (widgets.HTML, widgets.HTMLMath, widgets.Label)):
        value = re.sub(r"<style.*?</style>", "", widget.value, flags=re.S)
        texts.append(unescape(re.sub(r"<[^>]+>", "", value)))
    for child in getattr(widget, "children", ()):
        texts.extend(_shown_texts(child))
    return [t for t in texts if t.strip()]


def _not_in_users_words(panel) -> list[str]:
    from tests.panels.readable import E_NOTATION, RAW_WORDS, UNDERSCORE_SUBSCRIPT
    found = []
    for text in _shown_texts(panel.widget):
        for name, pattern in (("raw word", RAW_WORDS), ("e-notation", E_NOTATION),
                              ("underscore subscript", UNDERSCORE_SUBSCRIPT)):
            if pattern.search(text):
                found.append(f"{name} in {text!r}")
        for code in rr_methods():
            if re.search(rf"(^|[;,.]\s*){code}:", text):
                found.append(f"method code {code!r} in {text!r}")
    return found


def rr_methods():
    from explorer.core.rr import ESTIMATION_METHODS
    return ESTIMATION_METHODS



def test_texts_are_in_users_words_at_a_large_epsilon_on_data_labels():
    state = AppState()
    state.dataset = datasets.adult()
    panel = RandomizedResponsePanel(state)
    panel.attribute.value = "race"
    panel.prior_source.value = "dataset"
    state.epsilon = 10.0                                   # e^10 = 22,026: the odds once, in one format
    panel.run_simulation()
    assert not panel.status.is_error
    assert _not_in_users_words(panel) == []
    assert "22,026" in panel.epsilon_label.value and "e+0" not in panel.epsilon_label.value
    column = panel.results["column"]                       # the category, not only its column number
    assert f"(column {column + 1}: report {panel.labels[column]})" in panel.status.message
    assert set(panel.labels) == set(state.dataset["race"].dropna().astype(str))
    assert "plain inversion: largest |error|" in panel.estimate_info.value
    assert "iterative Bayesian update: largest |error|" in panel.estimate_info.value
    assert "e<sub>rel</sub> = " in panel.estimate_info.value


def test_texts_are_in_users_words_for_a_singular_matrix(panel):
    panel.preset_secrecy.click()
    panel.run_simulation()
    assert "Singular matrix: plain inversion" in panel.estimate_info.value
    assert _not_in_users_words(panel) == []


# ---------------------------------------------------------------------- the Panel contract
def test_on_the_panel_contract_with_declared_controls_and_no_hand_set_flags(panel):
    from explorer.panels.base import Panel
    assert isinstance(panel, Panel) and not hasattr(panel, "_building")
    assert list(panel.config()) == ["attribute", "n_categories", "labels", "prior", "prior_weights", "design", "p",
                                    "matrix", "n_samples", "seed"]
    assert panel.controls["epsilon"].state == "epsilon"
    assert panel.missing_hooks() == []
    assert [view.key for view in panel.figures()] == ["matrix", "posterior", "deniability", "curve", "estimates"]


@pytest.mark.parametrize("config, words", [
    ({"matrix": [[0.5, 0.5]]}, "matrix must be square with 2 to 12 rows"),
    ({"matrix": [[0.5] * 13] * 13}, "matrix must be square with 2 to 12 rows"),
    ({"matrix": "eye"}, "matrix must be a list of rows"),
    ({"matrix": [[0.5, "x"], [0.5, 0.5]]}, "matrix entries must be finite numbers, got 'x'"),
    ({"n_samples": -1}, "n_samples must be >= 0, got -1"),
    ({"seed": 1.5}, "seed must be a whole number"),
    ({"n_categories": 13}, "n_categories must be between 2 and 12, got 13"),
    ({"prior": "magic"}, "prior must be one of"),
    ({"attribute": "race"}, "attribute must be one of"),
])
def test_a_refused_configuration_names_the_key_and_keeps_every_control(panel, config, words):
    from explorer.errors import ConfigurationError
    before = panel.config()
    with pytest.raises(ConfigurationError, match=re.escape(words)):
        panel.apply_config({"design": "custom", **config})
    assert panel.config() == before and panel.design.value == "optimal"


def test_a_configured_matrix_fills_the_editor_and_shows_with_the_custom_design(panel):
    panel.apply_config({"n_categories": 2, "design": "custom", "matrix": [[0.75, 0.25], [0.25, 0.75]]})
    assert panel.config()["matrix"] == [[0.75, 0.25], [0.25, 0.75]] and not panel.status.is_error
    assert panel.reading.epsilon == pytest.approx(math.log(3))
    assert panel.custom_box.layout.display == "" and panel.p.layout.display == "none"


def test_descriptions_and_tables_read_the_numbers_drawn(panel):
    panel.apply_preset(PRESET_EXAMPLE1)
    np.testing.assert_allclose(panel.table("matrix").to_numpy(), matrix_shown(panel))
    np.testing.assert_allclose(panel.table("posterior").to_numpy(), panel.posterior_artists.image.get_array())
    np.testing.assert_allclose(panel.table("deniability").iloc[:, 0], panel.deniability_artists.heights)
    curve = panel.table("curve")
    np.testing.assert_allclose(curve.index, panel.curve_artists.conditional.get_xdata())
    np.testing.assert_allclose(curve.iloc[:, 0], panel.curve_artists.conditional.get_ydata())
    np.testing.assert_allclose(curve.iloc[:, 2], panel.curve_artists.guessing.get_ydata())
    assert "ε = 2, attained in column 1" in panel.describe("matrix") and "1: 0.739, 0.261" in panel.describe(0)
    assert "1: 0.881, 0.119" in panel.describe("posterior")
    assert "1 0.527, 2 0.769" in panel.describe("deniability") and "H(X) = 1.000" in panel.describe("deniability")
    assert "The current ε = 2 is marked" in panel.describe("curve")
    assert panel.describe("estimates").startswith("No simulated survey yet")
    assert list(panel.table("estimates").index) == ["1", "2"]
    shown = panel.run_simulation()
    table = panel.table("estimates")
    for method, column in (("true", "true"), ("inversion", "plain inversion"), ("ibu", "iterative Bayesian update")):
        np.testing.assert_allclose(table[column], panel.estimate_artists.heights(method))
        np.testing.assert_array_equal(table[column], shown["values"][method])
    assert f"error bars ± {shown['result'].half_width:.3f}" in panel.describe("estimates")
    panel.seed.value = 5
    assert panel.describe("estimates").endswith("Out of date: made with other inputs.")


def _run(code):
    namespace = {}
    exec(compile(code, "<code()>", "exec"), namespace)
    return namespace


@pytest.mark.parametrize("setup", ["optimal", "keep_or_uniform", "warner", "custom", "typed prior", "ten categories"])
def test_code_reproduces_the_view(panel, setup, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    if setup == "keep_or_uniform":
        panel.design.value, panel.p.value = "keep_or_uniform", 0.7
    elif setup == "warner":
        panel.n_categories.value = 2
        panel.design.value, panel.p.value = "warner", 0.8
    elif setup == "custom":
        panel.apply_preset(PRESET_EXAMPLE1)
    elif setup == "ten categories":             # 10 x 0.1 does not sum to 1: the prior is passed as the tab does
        panel.n_categories.value = 10
    elif setup == "typed prior":
        panel.epsilon.value = 2.5
        panel.category_labels.value = "a, b, c"
        panel.prior_source.value, panel.prior_weights.value = "typed", "5, 3, 2"
    assert not panel.status.is_error
    ns = _run(panel.code())
    for name in ("matrix", "posterior", "entropies", "guessing"):
        np.testing.assert_array_equal(getattr(ns["reading"], name), getattr(panel.reading, name))
    assert ns["reading"].epsilon == panel.reading.epsilon and ns["labels"] == panel.labels
    np.testing.assert_array_equal(ns["curve"].conditional_entropy, panel.curve.conditional_entropy)
    assert (tmp_path / "randomized-response.png").exists()
    panel.n_samples.value, panel.seed.value = 2_000, 4
    shown = panel.run_simulation()
    ns = _run(panel.code())
    for method, values in shown["values"].items():
        np.testing.assert_array_equal(ns["sim"].true if method == "true" else ns["sim"].estimates[method], values)
    assert (tmp_path / "estimates.png").exists()


def test_code_reproduces_a_simulation_of_a_data_sets_records(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    state = AppState()
    state.select_dataset("UCI Adult")
    panel = RandomizedResponsePanel(state)
    panel.attribute.value = "race"
    panel.n_samples.value = 3_000
    shown = panel.run_simulation()
    code = panel.code()
    assert "load_builtin('UCI Adult')" in code and "records=codes" in code
    ns = _run(code)
    np.testing.assert_array_equal(ns["reading"].posterior, panel.reading.posterior)
    for method in ("inversion", "ibu"):
        np.testing.assert_array_equal(ns["sim"].estimates[method], shown["values"][method])
