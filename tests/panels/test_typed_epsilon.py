"""A typed ε out of range is refused in words and ε keeps its last valid value (issue 25, item 7)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from explorer.panels.controls import epsilon_slider, parse_typed_epsilon  # noqa: E402
from explorer.panels.status import StatusLine  # noqa: E402
from explorer.state import AppState  # noqa: E402


@pytest.mark.parametrize("typed, words", [("120", "must be <= 10 (the range every tab uses), got '120'"),
                                          ("-1", "must be >= 0"),
                                          ("abc", "must be a number, got 'abc'"),
                                          ("inf", "an infinite epsilon means no randomization")])
def test_the_typed_box_refuses_out_of_range_in_words_and_keeps_epsilon(typed, words):
    state, status = AppState(), StatusLine()
    state.epsilon = 2.0
    slider = epsilon_slider(state, status)
    slider.typed.value = typed
    assert state.epsilon == 2.0 and slider.value == 2.0                # not clamped to 10 (or 0)
    assert slider.typed.value == "2"                                    # the box shows the last valid epsilon
    assert status.is_error and words in status.message and "ε stays 2." in status.message
    slider.typed.value = "3.5"                                          # a valid one is taken
    assert state.epsilon == 3.5 and slider.value == 3.5
    state.epsilon = 1.25                                                # and the box follows the state
    assert slider.typed.value == "1.25"
    assert slider.typed in slider.row.children and slider in slider.row.children
    assert "explorer-epsilon-slider" in slider._dom_classes


def test_parse_typed_epsilon():
    from explorer.errors import InvalidParameterError

    assert parse_typed_epsilon(" 0,25 ", 2.0) == 0.25
    with pytest.raises(InvalidParameterError, match="ε stays 2.$"):
        parse_typed_epsilon("1e400", 2.0)


@pytest.mark.parametrize("module, name", [("explorer.panels.t_closeness", "TClosenessPanel"),
                                          ("explorer.panels.epsilon_meaning", "EpsilonMeaningPanel"),
                                          ("explorer.panels.randomized_response", "RandomizedResponsePanel")])
def test_every_tab_with_epsilon_refuses_a_typed_120(module, name, small_state=None):
    import importlib

    panel = getattr(importlib.import_module(module), name)(AppState())
    panel.state.epsilon = 2.0
    box = panel.epsilon_text if hasattr(panel, "epsilon_text") else panel.epsilon.typed
    box.value = "120"
    assert panel.state.epsilon == 2.0 and panel.epsilon.value == 2.0
    assert "must be <= 10" in panel.status.message and "ε stays 2." in panel.status.message
    assert box.value == "2"
