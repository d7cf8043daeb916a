"""The Panel contract (explorer/panels/base.py): declared config, all-or-nothing loading, busy(), the Compute
rule, the figure hooks."""

from __future__ import annotations

import io

import ipywidgets as widgets
import numpy as np
import pandas as pd
import pytest

from explorer.core import cost
from explorer.errors import ConfigurationError, InvalidParameterError
from explorer.panels.base import Panel, on_change
from explorer.panels.figures import make_figure
from explorer.state import AppState


class Toy(Panel):
    """A small panel as a new engineer writes one: declared controls, one figure, refresh and code."""

    def __init__(self, state=None):
        super().__init__(state)
        self.epsilon = self.control("epsilon", widgets.FloatSlider(min=0, max=10), state="epsilon")
        self.method = self.control("method", widgets.Dropdown(options=[("Mean", "mean"), ("Median", "median")]))
        self.k = self.control("k", widgets.BoundedIntText(value=5, min=1, max=100))
        self.p = self.control("p", widgets.FloatSlider(value=0.5, min=0, max=1))
        self.columns = self.control("columns", widgets.SelectMultiple(options=["a", "b", "c"], value=("a",)))
        self.show = self.control("show", widgets.Checkbox(value=True))
        self.label = self.control("label", widgets.Text(value="x"),
                                  check=lambda v: v if v.strip() else _refuse("label", v))
        self.figure, self.canvas = make_figure(4, 3)
        self.ax = self.figure.subplots()
        self.bars = self.ax.bar([0, 1], [0.0, 0.0])
        self.add_figure("bars", "Two bars", self.figure, canvas=self.canvas,
                        describe=lambda: f"Bars of height {self.heights()[0]:g} and {self.heights()[1]:g}.",
                        table=lambda: pd.DataFrame({"height": self.heights()}))
        self.refreshes = 0
        self.calls = 0
        self.k.observe(self._on_k, names="value")
        self.widget = widgets.VBox([self.epsilon, self.method, self.k, self.canvas, self.status.widget])
        self.refresh()

    def heights(self):
        return [bar.get_height() for bar in self.bars]

    @on_change
    def _on_k(self, change=None):
        self.calls += 1
        self.refresh()

    def refresh(self):
        self.refreshes += 1
        for bar, height in zip(self.bars, (self.k.value, self.p.value)):
            bar.set_height(height)

    def code(self):
        return f"k = {self.k.value}"


def _refuse(key, value):
    raise InvalidParameterError(f"{key} must not be blank, got {value!r}")


class Bare(Panel):
    def __init__(self):
        super().__init__()
        figure, canvas = make_figure(3, 2)
        self.add_figure("empty", "Nothing yet", figure, canvas=canvas)
        self.widget = widgets.VBox([canvas])


def test_config_follows_the_declaration_and_leaves_the_state_out():
    panel = Toy(AppState(epsilon=2.0))
    assert panel.config() == {"method": "mean", "k": 5, "p": 0.5, "columns": ["a"], "show": True, "label": "x"}
    assert panel.epsilon.value == 2.0
    assert list(panel.controls) == ["epsilon", "method", "k", "p", "columns", "show", "label"]


def test_config_round_trip_sets_every_control_and_refreshes_once():
    panel = Toy()
    other = {"method": "median", "k": 12, "p": 0.25, "columns": ["b", "c"], "show": False, "label": "y"}
    before = panel.refreshes
    panel.apply_config(other)
    assert panel.config() == other
    assert panel.refreshes == before + 1 and panel.calls == 0     # the k observer waited: one refresh
    again = Toy()
    again.apply_config(panel.config())
    assert again.config() == panel.config()


def test_json_text_of_the_config_loads_back():
    import json

    panel = Toy()
    panel.apply_config(json.loads(json.dumps({**panel.config(), "k": 7.0})))    # 7.0 from JSON is a whole number
    assert panel.k.value == 7 and isinstance(panel.config()["k"], int)


@pytest.mark.parametrize("bad, words", [
    ({"method": "mode"}, "method must be one of ['mean', 'median'], got 'mode'"),
    ({"k": 0}, "k must be between 1 and 100, got 0"),
    ({"k": 2.5}, "k must be a whole number, got 2.5"),
    ({"k": True}, "k must be a number, got True"),
    ({"p": float("nan")}, "p must be a finite number, got nan"),
    ({"p": "0.3"}, "p must be a number, got '0.3'"),
    ({"columns": ["a", "z"]}, "columns must list choices among ['a', 'b', 'c'], got 'z'"),
    ({"columns": "a"}, "columns must be a list of choices, got 'a'"),
    ({"show": 1}, "show must be true or false, got 1"),
    ({"label": 3}, "label must be a text, got 3"),
    ({"label": "  "}, "label must not be blank"),
    ({"colour": "red"}, "unknown entries for this tab: ['colour']"),
])
def test_a_refused_value_names_key_and_value_and_nothing_changes(bad, words):
    panel = Toy()
    before, refreshes = panel.config(), panel.refreshes
    with pytest.raises((ConfigurationError, InvalidParameterError)) as error:
        panel.apply_config({"method": "median", "k": 9, **bad})      # valid entries first: still nothing is set
    assert words in str(error.value)
    assert panel.config() == before and panel.refreshes == refreshes


def test_a_configuration_must_be_an_object():
    with pytest.raises(ConfigurationError, match="must be a JSON object, got"):
        Toy().apply_config(["k", 3])


def test_the_shared_value_is_the_state_s_and_an_old_export_s_epsilon_is_ignored():
    state = AppState(epsilon=1.0)
    panel = Toy(state)
    panel.apply_config({"epsilon": 7.0, "k": 3})
    assert state.epsilon == 1.0 and panel.k.value == 3
    panel.epsilon.value = 3.0
    assert state.epsilon == 3.0
    state.epsilon = 4.0
    assert panel.epsilon.value == 4.0


def test_declaring_a_key_twice_is_a_bug_said_at_once():
    panel = Toy()
    with pytest.raises(ValueError, match="declared twice"):
        panel.control("k", widgets.IntText())


def test_busy_nests_and_silences_on_change_observers():
    panel = Toy()
    assert not panel.is_busy
    with panel.busy():
        with panel.busy():
            panel.k.value = 20
        assert panel.is_busy
        panel.k.value = 21
    assert not panel.is_busy and panel.calls == 0
    panel.k.value = 22
    assert panel.calls == 1


def test_busy_is_left_on_an_exception():
    panel = Toy()
    with pytest.raises(RuntimeError):
        with panel.busy():
            raise RuntimeError("boom")
    assert not panel.is_busy


def test_on_change_observers_say_errors_in_words():
    class Faulty(Toy):
        @on_change
        def _on_k(self, change=None):
            raise InvalidParameterError("k must be even, got 3")

    panel = Faulty()
    panel.k.value = 3
    assert panel.status.is_error and panel.status.message == "k must be even, got 3"


def test_needs_compute_is_the_one_rule_of_core_cost():
    panel = Toy()
    limit = cost.COMPUTE_BUTTON_SECONDS / cost.REFERENCE_SECONDS_PER_UNIT
    assert cost.COMPUTE_BUTTON_SECONDS == 1.0
    assert not panel.needs_compute(limit) and panel.needs_compute(limit * 1.001)
    assert panel.needs_compute(cost.microaggregation_work(32_561, 5))          # MDAV on all of UCI Adult
    assert not panel.needs_compute(cost.curve_work(1000, 121))                  # a power-mean curve
    for bad in (-1, float("nan"), float("inf"), "many", True):
        with pytest.raises(InvalidParameterError, match="units must be a finite number >= 0"):
            panel.needs_compute(bad)


def test_one_background_task_and_one_stale_mark_made_when_asked():
    panel = Toy()
    assert panel._task is None and not panel.running
    task = panel.background(description="clustering")
    assert panel.task is task and panel.background() is task
    assert task.progress.description == "clustering"
    assert panel.stale is panel.stale
    panel.wait(1)


def test_figure_hooks_read_the_figure_s_numbers():
    panel = Toy()
    panel.apply_config({"k": 4, "p": 0.75})
    [view] = panel.figures()
    assert view.key == "bars" and panel.figure_view("bars") is view
    assert panel.describe() == "Bars of height 4 and 0.75."
    assert panel.table(0)["height"].tolist() == panel.heights() == [4, 0.75]
    assert panel.missing_hooks() == []
    with pytest.raises(InvalidParameterError, match="figure must be a position 0 to 0 or one of"):
        panel.describe(3)


@pytest.mark.parametrize("fmt, magic", [("png", b"\x89PNG"), ("pdf", b"%PDF"), ("svg", b"<?xml")])
def test_export_figure_writes_the_format_and_leaves_the_screen_alone(fmt, magic):
    panel = Toy()
    size = panel.figure.get_size_inches().tolist()
    data = panel.export_figure(0, fmt)
    assert data.startswith(magic)
    assert panel.figure.get_size_inches().tolist() == size and panel.figure.canvas is panel.canvas


def test_export_figure_refuses_other_formats_in_words():
    with pytest.raises(InvalidParameterError, match=r"fmt must be one of \['png', 'pdf', 'svg'\], got 'gif'"):
        Toy().export_figure(0, "gif")


def test_export_of_one_axes_is_cut_to_it():
    from PIL import Image

    panel = Toy()
    whole = Image.open(io.BytesIO(panel.export_figure(0, "png", dpi=50, slide=False)))
    figure, canvas = make_figure(9, 3)
    axes = figure.subplots(1, 3)
    for ax in axes:
        ax.plot([0, 1], [0, 1])
    panel.add_figure("middle", "The middle one", figure, canvas=canvas, axes=axes[1])
    part = Image.open(io.BytesIO(panel.export_figure("middle", "png", dpi=50, slide=False)))
    assert part.size[0] < 9 * 50 / 2 and whole.size[0] > 0


def test_missing_hooks_are_listed_and_raise_instead_of_an_empty_text():
    panel = Bare()
    assert panel.missing_hooks() == ["code", "describe: empty", "table: empty"]
    with pytest.raises(NotImplementedError, match="Bare has no text description of its figure 'empty'"):
        panel.describe()
    with pytest.raises(NotImplementedError, match="no data table"):
        panel.table()
    with pytest.raises(NotImplementedError, match="Bare has no code"):
        panel.code()


def test_close_unlinks_the_state():
    state = AppState(epsilon=1.0)
    panel = Toy(state)
    panel.close()
    state.epsilon = 5.0
    assert panel.epsilon.value == 1.0


def test_json_values_only():
    panel = Toy()
    panel.k.value = np.int64(8)
    assert type(panel.config()["k"]) is int


def test_the_example_panel_of_the_developers_page_works():
    """docs/developing.md shows a complete panel: it runs, and keeps the contract it describes."""
    import re
    import types
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "developing.md").read_text(encoding="utf-8")
    source = next(block for block in re.findall(r"```python\n(.*?)```", page, re.S) if "(Panel):" in block)
    module = types.ModuleType("deniability_bars")
    exec(compile(source, "docs/developing.md", "exec"), module.__dict__)
    state = AppState(epsilon=1.0)
    panel = module.DeniabilityBarsPanel(state)
    assert panel.config() == {"n_categories": 4} and panel.missing_hooks() == []
    with pytest.raises(ConfigurationError, match="n_categories must be between 2 and 10, got 11"):
        panel.apply_config({"n_categories": 11})
    panel.apply_config({"n_categories": 6})
    state.epsilon = 2.0
    heights = panel.artists.heights
    assert panel.table()["H(X | Y = v) [bits]"].tolist() == heights.tolist() and heights.size == 6
    assert f"{heights[0]:.3f}" in panel.describe() and "ε = 2" in panel.describe()
    namespace = {}
    exec(panel.code(), namespace)
    np.testing.assert_allclose(namespace["entropies"], heights)


def test_choices_that_are_not_json_scalars_round_trip():
    class Pairs(Panel):
        def __init__(self):
            super().__init__()
            self.pair = self.control("pair", widgets.Dropdown(options=[("low", (0, 1)), ("high", (1, 2))]))
            self.widget = widgets.VBox([self.pair])

    panel = Pairs()
    panel.apply_config({"pair": [1, 2]})            # what JSON gives back for the tuple (1, 2)
    assert panel.pair.value == (1, 2) and panel.config() == {"pair": [1, 2]}
    with pytest.raises(ConfigurationError, match=r"pair must be one of"):
        panel.apply_config({"pair": [2, 3]})


def test_a_view_of_the_state_declared_under_another_trait_is_a_bug_said_at_once():
    from explorer.panels.controls import epsilon_slider

    panel = Toy()
    with pytest.raises(ValueError, match="view of the state's 'epsilon'"):
        panel.control("eps2", epsilon_slider(panel.state, panel.status))
