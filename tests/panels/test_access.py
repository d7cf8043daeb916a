"""The accessibility layer of every panel (explorer.panels.access): figures that speak, named controls, live regions.

The browser side (the bridge's JavaScript setting the attributes) is checked in tests/e2e/test_aria_e2e.py;
here the kernel side: what the bridge holds, the words and tables of every figure of every panel.
"""

from __future__ import annotations

import html
import re

import ipywidgets as widgets
import pandas as pd
import pytest

from explorer.core import datasets
from explorer.panels.access import (LIVE_CLASS, AriaBridge, PanelAccess, accessible_name, accessible_table,
                                    slider_text, typed_range, valuetext)
from explorer.panels.controls import epsilon_slider, epsilon_words
from explorer.panels.registry import REGISTRY
from explorer.panels.status import StatusLine
from explorer.state import AppState

SLIDERS = (widgets.IntSlider, widgets.FloatSlider, widgets.FloatLogSlider, widgets.SelectionSlider,
           widgets.IntRangeSlider, widgets.FloatRangeSlider, widgets.SelectionRangeSlider)
CONTROLS = (widgets.Text, widgets.Textarea, widgets.IntText, widgets.FloatText, widgets.BoundedIntText,
            widgets.BoundedFloatText, widgets.Dropdown, widgets.Select, widgets.SelectMultiple, widgets.Checkbox,
            widgets.RadioButtons, widgets.ToggleButtons) + SLIDERS


def _tree(root):
    stack, seen = [root], []
    while stack:
        widget = stack.pop()
        if any(widget is w for w in seen):
            continue
        seen.append(widget)
        stack.extend(getattr(widget, "children", ()) or ())
    return seen


def _canvas_rule(panel, access):
    # the bridge of the panel that drew the figure (a lesson page shows its live panel's figures)
    return access.access.bridge.attrs(access.css_class, ".jupyter-matplotlib-canvas-div > canvas:first-child")


@pytest.fixture(scope="module")
def panels():
    """Every panel of the registry on one state with UCI Adult, as the app shows them."""
    state = AppState()
    state.dataset = datasets.adult()
    built = {}
    for item in REGISTRY:
        panel = item.build(state=state)
        panel.wait(120)
        built[item.key] = panel
    return built


@pytest.mark.slow
def test_every_figure_of_every_panel_speaks_and_has_its_table(panels):
    n_figures = 0
    for key, panel in panels.items():
        assert panel.access is not None, key
        assert panel.access.bridge in panel.widget.children, key       # one bridge per panel, in its widget
        panel.access.refresh()
        for view in panel.figures():
            if view.canvas is None:
                continue
            n_figures += 1
            access = view.access
            access.refresh()                        # a browser's frame does it; here no browser is attached
            assert access is not None and any(item is access.widget for item in _tree(panel.widget)), view.key
            rule = _canvas_rule(panel, access)
            assert rule["role"] == "img" and view.title in rule["aria-label"]
            assert rule["aria-describedby"] == access.description_id
            assert f"id='{access.description_id}'" in access.description.value
            words = panel.describe(view.key)
            # numbers, not a vague sentence (or, before the first Compute, what to press)
            assert re.search(r"\d", words) or "Compute" in words, (key, view.key)
            assert html.escape(words) in access.description.value, (key, view.key)
            number = access.views.index(view)
            toggle, table = access.toggles[number], access.tables[number]
            assert table.layout.display == "none"
            toggle.value = True
            assert table.layout.display is None
            assert f"<caption>{html.escape(view.title)}</caption>" in table.value
            frame = panel.table(view.key)
            if len(frame):
                assert table.value.count('<th scope="row">') == len(frame), (key, view.key)
                assert table.value.count('<th scope="col">') == len(frame.columns) + 1
            toggle.value = False
            assert table.layout.display == "none"
    assert n_figures >= 20


@pytest.mark.slow
def test_every_control_of_every_panel_has_a_name_and_every_slider_its_value_in_words(panels):
    for key, panel in panels.items():
        assert panel.access.unnamed == [], (key, [type(w).__name__ for w in panel.access.unnamed])
        for widget in _tree(panel.widget):
            if not isinstance(widget, CONTROLS):
                continue
            assert accessible_name(widget), (key, type(widget).__name__)
            if isinstance(widget, SLIDERS):
                css = widget._explorer_aria_class             # the bridge of the panel that named it
                bridge = next(b for b in _tree(panel.widget) if isinstance(b, AriaBridge) and css in b.rules)
                selector = ".noUi-handle-lower" if "lower end" in str(bridge.rules[css]) else ".noUi-handle"
                assert bridge.attrs(css, selector)["aria-valuetext"] == slider_text(widget), (key, widget.description)
                assert bridge.attrs(css, selector)["aria-label"].startswith(accessible_name(widget))
                limits = typed_range(widget)           # what its typed readout accepts (refused in words otherwise)
                readout = bridge.attrs(css, ".widget-readout")
                if limits is not None:
                    assert (readout["data-explorer-kind"], float(readout["data-explorer-min"]),
                            float(readout["data-explorer-max"])) == limits, (key, widget.description)
        # the status line is a live region (status role), the readouts named by the panel too
        assert "explorer-status" in panel.status.widget._dom_classes
        assert all(LIVE_CLASS in readout._dom_classes for readout in panel._readouts)


def test_the_bridge_holds_the_attributes_and_a_client_cannot_change_them():
    bridge = AriaBridge()
    assert bridge.attrs("explorer-status") == {"role": "status", "aria-live": "polite"}
    assert bridge.attrs(LIVE_CLASS) == {"aria-live": "polite"}
    assert bridge.attrs("explorer-check-feedback") == {"aria-live": "polite"}
    bridge.put("explorer-aria-x", ".noUi-handle", {"aria-label": "ε", "aria-valuetext": "ε = 1.00"})
    bridge.put("explorer-aria-x", ".noUi-handle", {"aria-valuetext": "ε = 2.00"})
    assert bridge.attrs("explorer-aria-x", ".noUi-handle") == {"aria-label": "ε", "aria-valuetext": "ε = 2.00"}
    bridge.set_state({"rules": {"explorer-aria-x": {"": {"onclick": "alert(1)"}}}})
    assert bridge.attrs("explorer-aria-x", ".noUi-handle")["aria-valuetext"] == "ε = 2.00"
    assert bridge.n_refused == 1 and bridge.layout.display == "none"


def test_the_epsilon_slider_says_epsilon_and_the_odds_bound_and_follows_the_state():
    from explorer.panels.randomized_response import RandomizedResponsePanel
    panel = RandomizedResponsePanel()
    assert epsilon_words(1.0) == "ε = 1.00, odds at most ×2.7"
    handle = panel.access.bridge.attrs(panel.access.mark(panel.epsilon), ".noUi-handle")
    assert handle["aria-label"] == "ε, the privacy parameter"
    assert handle["aria-valuetext"] == f"ε = {panel.state.epsilon:.2f}, odds at most ×2.7"
    panel.state.epsilon = 2.0                               # another tab, a configuration: the words follow
    assert panel.access.slider_text(panel.epsilon) == "ε = 2.00, odds at most ×7.4"
    panel.p.value = 0.25
    assert panel.access.slider_text(panel.p) == "p = 0.25, the probability of keeping the true answer"
    panel.n_categories.value = 4
    assert panel.access.slider_text(panel.n_categories) == "r = 4 categories"
    # the figure's words follow a redraw (a browser's frame does it; here refresh())
    panel.access.refresh()
    assert "ε = 2" in panel.access.figures[0].description.value
    from explorer.core import deniability, rr
    posterior = deniability.read_matrix(rr.optimal_matrix(4, 2.0), [0.25] * 4).posterior
    assert (f"after the report 1 it is 1 (right with probability {posterior[0].max():.3f})"
            in panel.access.figures[0].description.value)


def test_a_rebuilt_matrix_grid_gets_names_and_the_old_cells_rules_go():
    from explorer.panels.randomized_response import RandomizedResponsePanel
    panel = RandomizedResponsePanel(n_categories=3)
    old = [panel.access.mark(cell) for row in panel.matrix_grid.cells for cell in row]
    assert all(panel.access.bridge.attrs(css, "input, textarea") for css in old)
    panel.design.value = "custom"
    panel.set_custom_matrix([[0.5, 0.5, 0, 0], [0, 0.5, 0.5, 0], [0, 0, 0.5, 0.5], [0.5, 0, 0, 0.5]])
    cells = [cell for row in panel.matrix_grid.cells for cell in row]
    assert len(cells) == 16
    names = [panel.access.bridge.attrs(panel.access.mark(cell), "input, textarea")["aria-label"] for cell in cells]
    assert names[1] == "P(Y = 2 | X = 1), row 1, column 2"
    assert not any(css in panel.access.bridge.rules for css in old)


def test_status_errors_are_alerts_and_valuetext_and_tables_in_words():
    status = StatusLine()
    status.error("k must be at least 2")
    assert "role='alert'" in status.widget.value
    slider = valuetext(widgets.FloatSlider(value=0.5, description="p"), lambda p: f"keep with {p:.0%}")
    assert slider_text(slider) == "keep with 50%"
    assert slider_text(widgets.IntSlider(value=3, description="bins")) == "bins = 3"
    assert slider_text(epsilon_slider(AppState(), status)) == "ε = 1.00, odds at most ×2.7"
    frame = pd.DataFrame({"H(X | Y = v) [bits]": [1.4071, float("nan")], "misinformative": [True, False]},
                         index=pd.Index(["a", "b"], name="reported Y = v"))
    html = accessible_table(frame, "Deniability <of each report>")
    assert "<caption>Deniability &lt;of each report&gt;</caption>" in html
    assert '<th scope="col">reported Y = v</th>' in html and '<th scope="row">b</th>' in html
    assert "<td>1.407</td>" in html and "<td>yes</td>" in html and "<td>–</td>" in html


def test_every_radio_group_is_a_radiogroup_with_one_keyboard_behaviour():
    # the bridge's JavaScript gives the group its keys (a shared name, or a roving tabindex): tests/e2e/test_keyboard_e2e.py
    from explorer.panels.access import BRIDGE_ESM, PanelAccess

    class _Bare:
        _figures = ()

    radios = widgets.RadioButtons(options=["a", "b"], description="Answer")
    toggles = widgets.ToggleButtons(options=["x", "y"], description="Mode")
    access = PanelAccess(_Bare(), widgets.VBox([radios, toggles]))
    assert access.bridge.attrs(access.mark(radios)) == {"role": "radiogroup", "aria-label": "Answer",
                                                        "data-explorer-group": "radio"}
    assert access.bridge.attrs(access.mark(toggles)) == {"role": "radiogroup", "aria-label": "Mode",
                                                         "data-explorer-group": "buttons"}
    for words in ('kind === "radio"', 'kind === "buttons"', '"aria-checked"', '"tabindex"', "next.click()"):
        assert words in BRIDGE_ESM


def test_a_toggle_button_says_whether_it_is_on_not_by_its_shade_alone():
    # a toggle: aria-pressed, kept with its value
    root = widgets.HBox([widgets.ToggleButton(value=False, description="Presenter view")])
    access = PanelAccess.of_controls(root)
    toggle = root.children[0]
    assert access.bridge in root.children and access.unnamed == []
    assert access.bridge.attrs(toggle._explorer_aria_class) == {"aria-pressed": "false"}
    toggle.value = True
    assert access.bridge.attrs(toggle._explorer_aria_class) == {"aria-pressed": "true"}
    # one that shows a block under it says so instead (aria-expanded), and a re-scan adds no second observer
    code = widgets.ToggleButton(value=False, description="Code")
    code._explorer_disclosure = True
    root.children = (*root.children, code)
    assert access.bridge.attrs(code._explorer_aria_class) == {"aria-expanded": "false"}
    access.scan(root)
    code.value = True
    assert access.bridge.attrs(code._explorer_aria_class) == {"aria-expanded": "true"}
    assert "aria-pressed" not in access.bridge.attrs(code._explorer_aria_class)


def test_the_app_s_toggles_say_their_state():
    from explorer.app import build_app

    app = build_app()
    presenter = app.presenter
    assert app.tools_access.bridge.attrs(presenter._explorer_aria_class) == {"aria-pressed": "false"}
    app.set_presenter(True)
    assert app.tools_access.bridge.attrs(presenter._explorer_aria_class) == {"aria-pressed": "true"}
    app.set_presenter(False)
    assert app.tools_access.bridge.attrs(presenter._explorer_aria_class) == {"aria-pressed": "false"}
    lessons = app.panel("Lessons")
    assert lessons.access.bridge.attrs(lessons.teacher_mode._explorer_aria_class) == {"aria-pressed": "false"}
    rr = app.panel("Randomized response")
    code = rr.code_view.children[0].children[0]              # the "Code" toggle (explorer.panels.slides.code_box)
    assert "explorer-code-button" in code._dom_classes
    assert rr.access.bridge.attrs(code._explorer_aria_class) == {"aria-expanded": "false"}


def test_a_frame_of_one_canvas_renews_the_words_of_every_figure_of_its_panel(debounce_at_once):
    """A computation redraws several canvases, whose frames reach the browser one after the other: the first frame
    renews every figure's words, so that no figure still says "nothing computed" beside one with the new numbers
    (seen in CI: the Dominance tab's loss figure, read right after its calibration figure had spoken)."""
    from explorer.panels.dominance import DominancePanel
    panel = DominancePanel()                                # the Ruiz (2018) example: computed at once
    panel.wait(60)
    panel.access.refresh()
    assert len(panel.access.figures) == 3
    before = [figure.description.value for figure in panel.access.figures]
    assert all("nothing computed" not in text for text in before)
    panel.parameters[1].value = panel.parameters[1].value / 2   # every figure changes; no browser sent a frame
    panel.wait(60)
    assert [figure.description.value for figure in panel.access.figures] == before
    panel.calibration_canvas._frame_sent()                  # the last canvas's frame: renewed at once, no loop
    for figure, old in zip(panel.access.figures, before):
        new = figure.description.value
        assert new != old, figure.views[0].key
        assert html.escape(figure.views[0].describe()) in new
