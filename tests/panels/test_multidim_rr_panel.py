"""The Multi-attribute RR panel: controls -> clusters, background runs with progress and cancel, bad input."""

from __future__ import annotations

import re

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest

from explorer.core.datasets import adult
from explorer.state import AppState
from explorer.panels.multidim_rr import MultiDimRRPanel


@pytest.fixture(scope="module")
def panel():
    return MultiDimRRPanel()


def test_defaults_cluster_adult_eight_attributes(panel):
    assert panel.state.dataset_name == "UCI Adult"          # a panel alone makes its state on the paper's data
    assert len(panel.attributes.value) == 8
    assert panel.data.n_records == 32_561
    assert sorted(a for c in panel.clusters for a in c) == list(range(8))
    assert len(panel.dep_artists.outlines) == len(panel.clusters)
    assert "1,814,400 combinations" in panel.info.value
    assert not panel.status.is_error


def test_t_d_one_gives_singletons_and_bad_t_v_keeps_the_last_state(panel):
    panel.t_d.value = 1.0
    assert panel.clusters == [[a] for a in range(8)]
    assert len(panel.dep_artists.outlines) == 8
    panel.t_v.value = 10                       # below education's 16 categories
    assert panel.status.is_error and "T_v" in panel.status.message and "16" in panel.status.message
    assert "T<sub>v</sub> must be at least" in panel.status.widget.value   # shown as a subscript
    assert panel.clusters == [[a] for a in range(8)]
    panel.t_v.value = 100
    panel.t_d.value = 0.2
    assert not panel.status.is_error and len(panel.clusters) < 8


def test_fewer_than_two_attributes_is_explained(panel):
    before = panel.clusters
    panel.attributes.value = ("sex",)
    assert panel.status.is_error and "at least 2 attributes" in panel.status.message
    assert panel.clusters == before
    panel.attributes.value = ("sex", "race", "income")
    assert not panel.status.is_error and panel.data.n_attributes == 3


def test_epsilon_is_shared_with_the_app_state():
    state = AppState()
    state.select_dataset("UCI Adult")
    panel = MultiDimRRPanel(state=state)
    state.epsilon = 2.0
    assert panel.epsilon.value == 2.0
    panel.mechanism.value = "epsilon"
    assert "ε of the per-attribute matrices actually used: workclass 2, " in panel.info.value
    panel.epsilon.value = 1.5
    assert state.epsilon == 1.5


def test_figure3_run_fills_the_curves_and_exports_csv():
    panel = MultiDimRRPanel()
    panel.p.value = 0.7
    panel.runs.value = 2
    panel.run_button.click()
    panel.join(120)
    assert not panel.running
    assert "Done: 2 of 2 runs" in panel.status.message
    assert panel.progress.value == panel.progress.max == 2
    for line in panel.curve_artists.lines.values():
        assert len(line.get_ydata()) == 9 and np.all(np.isfinite(line.get_ydata()))
    assert "data:text/csv;charset=utf-8;base64," in panel.export.value
    assert panel.results_csv().startswith("cell,p,")
    assert not panel.run_button.disabled and panel.cancel_button.disabled


def test_table_row_run_shows_measured_and_printed():
    panel = MultiDimRRPanel()
    panel.p.value = 0.7
    panel.runs.value = 1
    panel.experiment.value = "table"
    panel.run_button.click()
    panel.join(120)
    assert "Done: 9 of 9 runs" in panel.status.message
    assert "(0.069)" in panel.grid.value            # Table 1's printed p = 0.7, T_d = 0.1, T_v = 50
    assert panel.grid.value.count("<td>") == 1 + 9       # the empty corner (a data cell, not an empty header), 3x3
    assert "<th></th>" not in panel.grid.value
    from tests.panels.readable import problems
    assert problems(panel.grid.value) == [] and "T<sub>v</sub> = 50" in panel.grid.value


def test_cancel_keeps_the_runs_done():
    panel = MultiDimRRPanel()
    panel.runs.value = 1000
    panel.run_button.click()
    assert panel.running and not panel.cancel_button.disabled
    panel.cancel_button.click()
    panel.join(120)
    assert "Cancelled" in panel.status.message
    assert panel.last_result.cancelled and panel.last_result.runs_done < 1000


def test_shared_data_set_without_categorical_attributes_is_explained():
    state = AppState()
    state.dataset = pd.DataFrame({"x": [1.0, 2.0, 3.0], "y": [3.0, 1.0, 2.0]})
    panel = MultiDimRRPanel(state=state)
    assert panel.status.is_error and "has no categorical attributes" in panel.status.message
    assert panel.data is None and panel.dep_canvas.layout.visibility == "hidden"   # no heatmap of other data
    state.dataset = adult().iloc[:3000]
    assert not panel.status.is_error and panel.data.n_records == 3000
    assert panel.dep_canvas.layout.visibility is None and "dependence" in panel.dep_ax.get_title()


def test_shared_data_set_with_one_categorical_attribute_is_words_not_a_stale_heatmap():
    state = AppState()
    state.select_dataset("UCI Adult")
    panel = MultiDimRRPanel(state=state)
    assert panel.data.n_records == 32_561
    state.dataset = pd.DataFrame({"x": [1.0, 2.0, 3.0], "job": pd.Categorical(["a", "b", "a"])})
    assert panel.status.is_error and "has 1 categorical attribute (job)" in panel.status.message
    assert "at least 2" in panel.status.message and panel.data is None
    assert panel.dep_canvas.layout.visibility == "hidden"


def test_epsilon_slider_has_the_one_range_and_a_disabled_slider_refuses_forged_values():
    from explorer.panels.browser import guard_widgets
    state = AppState()
    state.select_dataset("UCI Adult")
    panel = MultiDimRRPanel(state=state)
    guard_widgets(panel.widget, panel.status)
    assert (panel.epsilon.min, panel.epsilon.max) == (0.0, 10.0)
    state.epsilon = 9.5
    assert panel.epsilon.value == 9.5                       # not clamped to another range
    assert panel.mechanism.value == "keep-or-uniform" and panel.epsilon.disabled
    panel.epsilon.set_state({"value": 3.0})                 # a forged change of a disabled control
    assert state.epsilon == 9.5 and panel.status.is_error and "disabled" in panel.status.message
    panel.attributes.set_state({"index": [0, 99]})          # an out-of-range index: words, no exception
    assert panel.status.is_error and "refused" in panel.status.message


def test_example1_view_follows_the_sweeps(panel):
    panel.sweeps.value = 3
    ys = panel.example_artists.lines[1].get_ydata()
    assert len(ys) == 3 and ys[-1] == pytest.approx(1 / 32)      # 1/(8(k+1)), k = 3
    assert "0.03125" in panel.example_info.value
    assert not re.search(r"\d[eE][+-]?\d", panel.example_info.value)     # no e-notation shown


def test_config_round_trip():
    a = MultiDimRRPanel()
    a.t_v.value, a.t_d.value, a.proper.value, a.dependence.value = 300, 0.3, "simplex", "estimated"
    b = MultiDimRRPanel()
    b.apply_config(a.config())
    assert b.config() == a.config()
    assert b.clusters == a.clusters


def test_forged_run_count_is_refused(panel):
    before = panel.runs.value
    panel.runs.value = 0                   # refused in words, never clamped
    assert panel.runs.value == before
    assert panel.status.is_error and "Runs: 0 is outside the range 1 to 1,000" in panel.status.message


@pytest.mark.slow
def test_runs_use_the_shared_background_task():
    panel = MultiDimRRPanel()
    assert panel.progress is panel.task.progress and panel.cancel_button is panel.task.cancel_button
    assert panel.task.widget.layout.display == "none"
    panel.runs.value = 200                        # chunks of 20 runs: one lands in about a second, nine more to cancel
    panel.run_button.click()
    assert panel.running and panel.task.running and panel.run_button.disabled
    assert panel.task.widget.layout.display is None and "Running 200 runs" in panel.status.message
    for _ in range(600):                          # let a few chunks land: the curves fill as they complete
        if panel.progress.value >= 2:
            break
        panel.join(0.2)
    panel.cancel_button.click()
    panel.join(120)
    result = panel.last_result
    assert result.cancelled and 0 < result.runs_done < 200
    # the run's own summary, not the task's generic words: the runs done are kept and shown
    assert panel.status.message.startswith(f"Cancelled: {result.runs_done} of 200 runs")
    assert "previous view" not in panel.status.message and not panel.status.is_error
    for line in panel.curve_artists.lines.values():
        assert np.all(np.isfinite(line.get_ydata()))
    assert "data:text/csv" in panel.export.value
    assert panel.task.widget.layout.display == "none" and not panel.run_button.disabled
    assert panel.cancel_button.disabled


def test_an_error_in_a_run_is_said_in_words(monkeypatch):
    import explorer.panels.multidim_rr as module
    from explorer.errors import InvalidParameterError

    def refuse(**kwargs):
        raise InvalidParameterError("sigma grid must not be empty")

    monkeypatch.setattr(module, "run_figure3", refuse)
    panel = MultiDimRRPanel()
    panel.run_button.click()
    panel.join(60)
    assert panel.status.is_error and panel.status.message == "sigma grid must not be empty"
    assert not panel.run_button.disabled and panel.cancel_button.disabled and not panel.running
    assert panel.clusters                           # the last valid view stays


def test_runs_on_screen_are_marked_out_of_date_when_their_inputs_change():
    state = AppState()
    state.dataset = adult().iloc[:400]
    panel = MultiDimRRPanel(state=state)
    panel.runs.value = 1
    panel.run_button.click()
    panel.join(120)
    assert not panel.stale.stale and panel.last_result is not None
    panel.t_d.value = 0.5
    assert panel.stale.stale and "out of date: press Compute" in panel.stale.widget.value
    assert "explorer-stale" in panel.curve_canvas._dom_classes
    panel.t_d.value = 0.2                                   # back to the inputs of the runs shown
    assert not panel.stale.stale


# ------------------------------------------------------------------ the Panel contract

KEYS = ["attributes", "mechanism", "p", "t_v", "t_d", "dependence", "proper", "runs", "experiment", "sweeps"]


def test_configuration_keeps_its_keys_and_refuses_bad_values_in_words():
    from explorer.errors import ConfigurationError

    panel = MultiDimRRPanel()
    config = panel.config()
    assert list(config) == KEYS and "epsilon" not in config        # the epsilon is the state's
    assert config["attributes"] == list(panel.attributes.value)
    before = panel.clusters
    for bad, words in (({"t_v": 0}, "t_v must be between 1 and 10,000,000, got 0"),
                       ({"dependence": "magic"}, "dependence must be one of"),
                       ({"attributes": ["sex", "nope"]}, "attributes must list choices among .* got 'nope'"),
                       ({"source": "UCI Adult x 6", "attributes": ["nope"]}, "attributes must list choices among"),
                       ({"sweeps": 1.5}, "sweeps must be a whole number, got 1.5")):
        with pytest.raises(ConfigurationError, match=words):
            panel.apply_config(bad)
        assert panel.config() == config and panel.clusters == before


def test_a_panel_configuration_with_a_former_source_selects_that_data_set_in_the_state():
    state = AppState()
    state.dataset = adult().iloc[:500]
    panel = MultiDimRRPanel(state=state)
    assert panel.data.n_records == 500 and "source" not in panel.config()
    panel.apply_config({"source": "UCI Adult", "attributes": ["sex", "race", "income"], "t_d": 0.5, "sweeps": 2})
    assert state.dataset_name == "UCI Adult" and panel.data.n_records == 32_561      # the one home: the state
    assert set(panel.data.names) == {"sex", "race", "income"}
    assert panel.t_d.value == 0.5 and len(panel.table("example1")) == 2 and not panel.status.is_error
    panel.apply_config({"source": "Shared data set", "t_d": 0.2})       # the state's data set, as it is
    assert state.dataset_name == "UCI Adult" and set(panel.data.names) == {"sex", "race", "income"}
    from explorer.errors import ConfigurationError
    with pytest.raises(ConfigurationError, match="source must be one of .* got 'nope'"):
        panel.apply_config({"source": "nope"})
    assert state.dataset_name == "UCI Adult"


def test_each_figure_s_text_and_table_read_what_it_draws():
    panel = MultiDimRRPanel()
    order = panel.dep_artists.order
    dependence = panel.table("dependence")
    assert list(dependence.index) == [panel.data.names[a] for a in order]
    np.testing.assert_array_equal(dependence.to_numpy(), panel.dependence_values[np.ix_(order, order)])
    text = panel.describe("dependence")
    assert f"forms {len(panel.clusters)} cluster(s)" in text and "T_v = 100, T_d = 0.2" in text
    assert "marital-status, relationship, sex" in text
    panel.t_v.value = 10                                   # refused: the heatmap and its text stay as they were
    assert panel.status.is_error and panel.describe("dependence") == text
    panel.t_v.value = 100
    assert panel.describe("error-curves") == "No runs yet: press Compute."
    assert panel.table("error-curves").isna().all().all() and panel.missing_hooks() == []
    panel.sweeps.value = 5
    example = panel.table("example1")
    assert example.index.tolist() == [1, 2, 3, 4, 5]
    assert example["w of (a2,a1) records"].iloc[-1] == pytest.approx(1 / 48)       # 1/(8(k+1)), k = 5
    assert "(a2,a1) records 0.02083" in panel.describe("example1") and "is 0.02083" in panel.describe("example1")


def test_no_data_is_said_by_the_heatmap_s_text_too():
    state = AppState()
    state.dataset = pd.DataFrame({"x": [1.0, 2.0, 3.0], "y": [3.0, 1.0, 2.0]})
    panel = MultiDimRRPanel(state=state)
    assert panel.table("dependence").empty
    assert panel.describe("dependence").startswith("No heatmap: the data set") and "categorical" in \
        panel.describe("dependence")


def test_code_reproduces_the_view_and_its_runs(tmp_path):
    panel = MultiDimRRPanel()
    panel.apply_config({"attributes": ["workclass", "education", "race", "sex", "income"], "p": 0.7, "runs": 2,
                        "sweeps": 4, "t_d": 0.1})
    panel.run_button.click()
    panel.join(120)
    assert "Done: 2 of 2 runs" in panel.status.message
    code = panel.code()
    assert "explorer.panels" not in code and "state" not in code
    namespace: dict = {}
    exec(code, namespace)
    np.testing.assert_array_equal(namespace["dependence"], panel.dependence_values)
    assert [list(c) for c in namespace["clusters"]] == [list(c) for c in panel.clusters]
    assert namespace["plan"] == panel.plan
    curves = panel.table("error-curves")
    assert namespace["sigmas"] == curves.index.tolist()
    for method, values in namespace["curves"].items():
        np.testing.assert_array_equal(values, curves[method].to_numpy())
    text = panel.describe("error-curves")
    assert "p = 0.7, T_v = 100, T_d = 0.1, 2 run(s)" in text and f"{curves.iloc[0, 0]:.3f} at σ = 0.1" in text
    np.testing.assert_array_equal(namespace["trace"].history, panel.table("example1").to_numpy())


def test_code_of_a_table_row_reproduces_the_grid():
    from explorer.core.mdrr import summarize, table_cells

    panel = MultiDimRRPanel()
    panel.apply_config({"attributes": ["race", "sex", "income"], "p": 0.7, "runs": 1, "experiment": "table"})
    panel.run_button.click()
    panel.join(120)
    namespace: dict = {}
    exec(panel.code(), namespace)
    shown = table_cells(summarize(panel.last_result.rows, ("p", "T_d", "T_v", "method")))
    np.testing.assert_array_equal(namespace["cells"]["measured"], shown["measured"])
    assert f"<td>{shown['measured'].iloc[0]:.3f} <small" in panel.grid.value


# ------------------------------------------------------------------ the state is the one home of the data set

def test_the_tab_has_no_data_source_of_its_own_it_reads_the_state_s():
    state = AppState()
    state.select_dataset("UCI Adult")
    panel = MultiDimRRPanel(state=state)
    assert "source" not in panel.controls and not hasattr(panel, "source")
    assert panel.data.n_records == 32_561 and "UCI Adult" in panel.data_name.value
    state.select_dataset("UCI Adult x 6")                  # the Data tab's choice: this tab follows
    assert panel.data.n_records == 195_366 and "UCI Adult x 6" in panel.describe("dependence")
    assert panel.switch_button.layout.display == "none"


def test_a_notebook_s_source_selects_the_data_set_of_the_panel_s_state():
    state = AppState()
    state.dataset = adult().iloc[:300]
    panel = MultiDimRRPanel(state=state, source="UCI Adult")
    assert state.dataset_name == "UCI Adult" and panel.data.n_records == 32_561
    shared = AppState()
    shared.dataset = adult().iloc[:300]
    assert MultiDimRRPanel(state=shared, source="Shared data set").data.n_records == 300


def test_without_two_categorical_attributes_the_tab_offers_to_switch_to_uci_adult():
    state = AppState()
    state.select_dataset("Synthetic normal (n=1000, m=3)")
    panel = MultiDimRRPanel(state=state)
    assert panel.status.is_error and "has no categorical attributes" in panel.status.message
    assert "Use UCI Adult" in panel.status.message or "use UCI Adult" in panel.status.message
    assert panel.switch_button.layout.display is None and panel.data is None
    panel.switch_button.click()
    assert state.dataset_name == "UCI Adult"               # the shared data set: every tab follows
    assert panel.data.n_records == 32_561 and not panel.status.is_error
    assert panel.switch_button.layout.display == "none" and panel.dep_canvas.layout.visibility is None


def test_the_printed_values_are_those_of_the_state_s_data_set_table_2_for_adult_x_6():
    state = AppState()
    state.select_dataset("UCI Adult x 6")
    panel = MultiDimRRPanel(state=state)
    panel.apply_config({"attributes": ["race", "sex", "income"], "p": 0.7, "runs": 1, "experiment": "table"})
    panel.run_button.click()
    panel.join(300)
    assert "Done: 9 of 9 runs" in panel.status.message
    assert "(0.064)" in panel.grid.value and "(0.069)" not in panel.grid.value   # Table 2, p = 0.7, T_d = 0.1, T_v = 50
    assert "mdrr.PAPER_TABLE2" in panel.code()


def test_an_app_configuration_with_a_former_multi_attribute_rr_source_loads_without_it():
    old = {"dataset": "UCI Adult", "tabs": {"Multi-attribute RR": {"source": "UCI Adult x 6", "t_d": 0.3}}}
    state = AppState()
    state.load_config(old)
    assert state.dataset_name == "UCI Adult"               # the configuration's data set is every tab's
    assert state.tab_params["Multi-attribute RR"] == {"t_d": 0.3}
    panel = MultiDimRRPanel(state=state)
    panel.apply_config(state.tab_params["Multi-attribute RR"])
    assert panel.t_d.value == 0.3 and panel.data.n_records == 32_561


# ------------------------------------------------------------------ slow dependences wait for Compute

def test_a_slow_dependence_waits_for_compute_and_a_fast_one_is_at_once():
    import time

    state = AppState()
    state.select_dataset("UCI Adult")
    panel = MultiDimRRPanel(state=state)
    shown = panel.dependence_values.copy()
    panel.dependence.value = "randomized"                  # fast: at once
    assert not panel.stale.stale and panel._heatmap_of["dependence"] == "randomized"
    shown = panel.dependence_values.copy()
    started = time.perf_counter()
    panel.proper.value = "ibu"
    panel.dependence.value = "estimated"                   # (b') with IBU on Adult: about 16 s of work
    assert time.perf_counter() - started < 5
    assert panel.stale.stale and "out of date: press Compute" in panel.stale.widget.value
    assert "explorer-stale" in panel.dep_canvas._dom_classes
    assert "press Compute" in panel.status.message and "16 s" in panel.status.message
    np.testing.assert_array_equal(panel.dependence_values, shown)       # the last heatmap stays, marked
    assert "(randomized)" in panel.describe("dependence") and "'randomized'" in panel.code()
    panel.dependence.value = "true"                        # fast again: at once, the mark goes
    assert not panel.stale.stale and panel._heatmap_of["dependence"] == "true"


def test_compute_computes_a_waiting_heatmap_in_the_background_then_runs(monkeypatch):
    import explorer.panels.multidim_rr as module

    state = AppState()
    state.dataset = adult().iloc[:2000]
    panel = MultiDimRRPanel(state=state)
    monkeypatch.setattr(module, "dependence_work", lambda *args, **kwargs: 2e6)    # 2 s: every heatmap waits
    panel.t_d.value = 0.5
    assert panel.stale.stale and panel._heatmap_of["t_d"] == 0.2
    panel.t_v.value = 10                                   # thresholds are still checked at once, in words
    assert panel.status.is_error and "T_v must be at least" in panel.status.message
    panel.t_v.value = 100
    panel.runs.value = 1
    panel.run_button.click()
    panel.join(120)
    assert panel._heatmap_of["t_d"] == 0.5 and not panel.stale.stale
    assert "Done: 1 of 1 runs" in panel.status.message and panel.last_result is not None
    assert "T_d = 0.5" in panel.describe("dependence")


def test_a_state_without_a_data_set_is_said_in_words_with_the_switch():
    state = AppState()
    panel = MultiDimRRPanel(state=state)
    assert panel.status.is_error and "there is no data set yet" in panel.status.message
    assert panel.switch_button.layout.display is None
    panel.switch_button.click()
    assert state.dataset_name == "UCI Adult" and panel.data.n_records == 32_561


def test_cancel_while_the_dependences_are_computed_shows_them_and_makes_no_runs(monkeypatch):
    import threading

    import explorer.panels.multidim_rr as module

    state = AppState()
    state.dataset = adult().iloc[:1000]
    panel = MultiDimRRPanel(state=state)
    monkeypatch.setattr(module, "dependence_work", lambda *args, **kwargs: 2e6)
    panel.t_d.value = 0.4
    started, release = threading.Event(), threading.Event()
    heatmap = panel._heatmap

    def slow(*args):
        started.set()
        release.wait(30)
        return heatmap(*args)

    monkeypatch.setattr(panel, "_heatmap", slow)
    panel.run_button.click()
    assert started.wait(30) and "Computing the dependences, then running 20 runs" in panel.status.message
    panel.cancel_button.click()
    release.set()
    panel.join(60)
    assert panel.status.message == "Cancelled: the heatmap and clusters are shown; no runs were made."
    assert panel._heatmap_of["t_d"] == 0.4 and not panel.stale.stale and panel.last_result is None
    assert panel.cancel_button.disabled and not panel.run_button.disabled
