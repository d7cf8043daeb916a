"""A value typed in a slider's readout out of range, or not a number, is refused in words (issue 25, item 7).

The kernel side of explorer.panels.access: the limits the bridge's rules give each readout, and the bridge's
message handler fed forged messages (a browser can send anything).  The browser side (the bridge's JavaScript
stopping ipywidgets' clamp) is checked in tests/e2e/test_slider_refusal_e2e.py.
"""

from __future__ import annotations

import re

import ipywidgets as widgets
import pytest

from explorer.panels.access import (BRIDGE_ESM, MAX_TYPED_CHARS, RANGE_PATTERNS, TYPED_EVENT, PanelAccess,
                                    typed_numbers, typed_range, typed_refusal)
from explorer.panels.base import Panel
from explorer.panels.controls import RangedIntText, epsilon_slider, outside_range_words
from explorer.state import AppState


class Sliders(Panel):
    """A panel with one slider of each kind, the shared ε among them."""

    def __init__(self, state=None):
        super().__init__(state)
        self.epsilon = self.control("epsilon", epsilon_slider(self.state, self.status, typed=False), state="epsilon")
        self.p = self.control("p", widgets.FloatSlider(value=0.5, min=0.05, max=1.0, step=0.05, description="p",
                                                       readout_format=".2f"))
        self.k = self.control("k", widgets.IntSlider(value=5, min=1, max=20, description="k"))
        self.scale = widgets.FloatLogSlider(value=1.0, min=-2, max=3, description="scale")
        self.band = widgets.FloatRangeSlider(value=(2.0, 5.0), min=0.0, max=10.0, description="band")
        self.ranks = widgets.IntRangeSlider(value=(2, 5), min=0, max=10, description="ranks")
        self.level = widgets.SelectionSlider(options=["low", "high"], description="level")
        self.widget = widgets.VBox([self.epsilon, self.p, self.k, self.scale, self.band, self.ranks, self.level,
                                    self.status.widget])

    def refresh(self):
        pass

    def code(self):
        return ""


@pytest.fixture
def panel():
    return Sliders(AppState())


def _typed(panel, widget, text):
    """Send the bridge's message for ``text`` typed in ``widget``'s readout, as ipywidgets delivers it."""
    panel.access.bridge._handle_custom_msg({"event": TYPED_EVENT, "class": panel.access.mark(widget),
                                           "text": text}, [])
    return panel.status.message


def _values(panel):
    return (panel.state.epsilon, panel.epsilon.value, panel.p.value, panel.k.value, panel.scale.value,
            panel.band.value, panel.ranks.value, panel.level.value)


def test_every_typed_readout_carries_its_kind_and_range_in_value_space(panel):
    def limits(widget):
        attrs = panel.access.bridge.attrs(panel.access.mark(widget), ".widget-readout")
        return attrs.get("data-explorer-kind"), attrs.get("data-explorer-min"), attrs.get("data-explorer-max")

    assert limits(panel.epsilon) == ("float", "0.0", "10.0")
    assert limits(panel.k) == ("int", "1.0", "20.0")
    assert limits(panel.scale) == ("log", "0.01", "1000.0")             # base ** min, base ** max
    assert limits(panel.band) == ("float-range", "0.0", "10.0")
    assert limits(panel.ranks) == ("int-range", "0.0", "10.0")
    assert limits(panel.level) == (None, None, None)                     # its readout cannot be typed in
    panel.p.max = 0.9                                                    # a panel that moves a range moves it
    assert limits(panel.p) == ("float", "0.05", "0.9")
    panel.scale.base = 2
    assert limits(panel.scale)[1:] == ("0.25", "8.0")
    assert typed_range(widgets.Text()) is None


def test_the_javascript_reads_a_range_as_the_kernel_does():
    for pattern in RANGE_PATTERNS.values():
        assert pattern in BRIDGE_ESM
    assert f'event: "{TYPED_EVENT}"' in BRIDGE_ESM
    assert re.search(r'addEventListener\("keydown", onTyped, true\)', BRIDGE_ESM)    # capture: before ipywidgets
    assert re.search(r'addEventListener\("blur", onTyped, true\)', BRIDGE_ESM)


def test_out_of_range_is_refused_in_words_and_the_slider_keeps_its_value(panel):
    before = _values(panel)
    message = _typed(panel, panel.epsilon, "120")
    assert message == "ε, the privacy parameter: '120' is outside the range 0 to 10; it stays 1.00."
    assert panel.status.is_error and "role='alert'" in panel.status.widget.value
    assert "&#x27;120&#x27;" in panel.status.widget.value                    # escaped in the HTML
    assert _typed(panel, panel.epsilon, "-0.5") == ("ε, the privacy parameter: '-0.5' is outside the range 0 to "
                                                    "10; it stays 1.00.")
    assert _typed(panel, panel.p, "0.01") == "p: '0.01' is outside the range 0.05 to 1; it stays 0.50."
    assert _typed(panel, panel.k, "21") == "k: '21' is outside the range 1 to 20; it stays 5."
    assert _typed(panel, panel.epsilon, "1e400") == ("ε, the privacy parameter: '1e400' is outside the range 0 to "
                                                     "10; it stays 1.00.")
    assert _values(panel) == before


def test_not_a_number_is_refused_in_words(panel):
    before = _values(panel)
    for text in ("abc", "nan", "NaN", "", "   ", "−3", "٣"):              # JavaScript's parseFloat: no number
        assert _typed(panel, panel.epsilon, text) == (f"ε, the privacy parameter: {text!r} is not a number; "
                                                      "it stays 1.00.")
    assert _typed(panel, panel.band, "5 – 2") == "band: '5 – 2' is not two numbers, the lower first; it stays " \
                                                 "2.00 to 5.00."
    assert _typed(panel, panel.ranks, "x") == "ranks: 'x' is not two numbers, the lower first; it stays 2 to 5."
    assert _values(panel) == before


def test_a_log_slider_and_range_sliders_compare_in_value_space(panel):
    assert typed_refusal(panel.scale, "500") is None                     # 10 ** 2.7: within 10 ** -2 .. 10 ** 3
    assert typed_refusal(panel.scale, "5000") == "scale: '5000' is outside the range 0.01 to 1,000; it stays 1."
    assert typed_refusal(panel.scale, "0.001") is not None
    assert typed_refusal(panel.band, "2.5 – 7") is None
    assert typed_refusal(panel.band, "2 – 40") == "band: '2 – 40' is outside the range 0 to 10; it stays 2.00 to 5.00."
    assert typed_refusal(panel.ranks, "-1 - 3") == "ranks: '-1 - 3' is outside the range 0 to 10; it stays 2 to 5."
    assert typed_refusal(panel.level, "high") is None                   # no typed readout


def test_an_in_range_value_says_nothing_and_changes_nothing(panel):
    before = _values(panel)
    panel.status.info("ready")
    for widget, text in ((panel.epsilon, "2.5"), (panel.k, "7.9"), (panel.p, "0.7 and more"), (panel.p, "\u00a00.7"),
                         (panel.epsilon, "10"), (panel.epsilon, "0")):
        assert _typed(panel, widget, text) == "ready"                    # the browser's slider takes it itself
    assert _values(panel) == before and not panel.status.is_error
    assert typed_numbers("7.9", "int") == (7.0,)                         # as ipywidgets' parseInt reads it


def test_a_forged_message_is_refused_in_words_and_nothing_escapes(panel):
    before = _values(panel)
    assert "named no slider of this tab ('explorer-aria-999999')" in _typed_class(panel, "explorer-aria-999999")
    assert "named no slider" in _typed_class(panel, "explorer-status")         # a class, but no slider's
    assert "named no slider" in _typed_class(panel, panel.access.mark(panel.level))
    long_class = "x" * 10_000
    message = _typed_class(panel, long_class)
    assert "named no slider" in message and len(message) < 200
    for content in ({"event": TYPED_EVENT, "class": ["explorer-aria-1"], "text": "120"},
                    {"event": TYPED_EVENT, "class": panel.access.mark(panel.epsilon), "text": 120},
                    {"event": TYPED_EVENT, "class": panel.access.mark(panel.epsilon)}):
        panel.status.clear()
        panel.access.bridge._handle_custom_msg(content, [])
        assert panel.status.is_error and "named no slider" in panel.status.message
    panel.status.clear()
    for content in ("120", None, [1, 2], {"event": "other", "class": panel.access.mark(panel.epsilon),
                                          "text": "120"}):
        panel.access.bridge._handle_custom_msg(content, [])              # not the bridge's message: ignored
    assert panel.status.message == ""
    assert _values(panel) == before


def _typed_class(panel, css_class):
    panel.access.bridge._handle_custom_msg({"event": TYPED_EVENT, "class": css_class, "text": "120"}, [])
    return panel.status.message


def test_huge_text_is_quoted_short_and_not_read_as_a_number(panel):
    before = _values(panel)
    huge = "1" * 1_000_000
    message = _typed(panel, panel.epsilon, huge)
    assert message.startswith("ε, the privacy parameter: '111") and message.endswith("... is not a number; it stays 1.00.")
    assert len(message) < 150
    assert "is outside the range" in _typed(panel, panel.epsilon, "9" * MAX_TYPED_CHARS)
    assert "is not a number" in _typed(panel, panel.epsilon, "1" + "0" * MAX_TYPED_CHARS)
    assert _values(panel) == before


def test_an_error_inside_the_handler_never_reaches_the_browser(panel, monkeypatch):
    def broken(self, content):
        raise RuntimeError("a bug")

    monkeypatch.setattr(PanelAccess, "refuse_typed", broken)
    panel.access.bridge._handle_custom_msg({"event": TYPED_EVENT, "class": "x", "text": "1"}, [])   # no raise


def test_a_rebuilt_control_is_forgotten(panel):
    css_class = panel.access.mark(panel.k)
    panel.widget.children = tuple(c for c in panel.widget.children if c is not panel.k)
    assert "named no slider" in _typed_class(panel, css_class)


def test_a_slider_and_a_number_box_say_the_same_sentence(panel):
    box = RangedIntText(status=panel.status, value=5, min=1, max=20, description="k")
    box.value = 21
    boxed = panel.status.message
    assert boxed == outside_range_words("k", "21", 1, 20, "5")
    slid = _typed(panel, panel.k, "21")
    assert slid == outside_range_words("k", "'21'", 1, 20, "5")
    assert boxed.replace("21", "'21'", 1) == slid
