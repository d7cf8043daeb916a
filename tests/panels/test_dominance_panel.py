"""The Dominance panel: curves, verdicts, calibration; bad input keeps the last valid view."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest

from explorer.core.datasets import DM_EXAMPLE, RUIZ_EXAMPLE, adult6, with_info, dataset_info
from explorer.errors import ConfigurationError, DatasetError
from explorer.state import AppState
from explorer.panels.dominance import ALL, PUBLISHED, THROUGHPUT, DominancePanel


@pytest.fixture
def small_state():
    rng = np.random.default_rng(42)
    frame = pd.DataFrame(rng.normal(size=(300, 3)) * [1, 10, 100], columns=["a", "b", "c"])
    state = AppState()
    state.dataset = with_info(frame, dataset_info(frame))
    state.dataset_name = "synthetic"
    return state


def _assert_ruiz_numbers(panel):
    """Ruiz (2018), Table 3 (definition values) on the printed masked version: the comparison of X against Y."""
    assert panel._columns == ["X1", "X2", "X3"] and panel.methods[0].value == PUBLISHED
    panel.risk_view.value = "2"                          # X3
    published = panel.risk_curves[0]
    assert published.label == "published Y"
    assert published.values[np.argmin(np.abs(published.grid - 1))] == pytest.approx(1.6)   # D_3(1) = 1.6
    panel.loss_view.value = "1,2"                        # X2 & X3
    loss = panel.loss_curves[0]
    assert loss.values[0] == pytest.approx(2.4) and loss.values[-1] == 3.0


def test_without_a_state_it_opens_on_the_ruiz_example_with_the_published_masking():
    panel = DominancePanel()
    assert panel.state.dataset_name == RUIZ_EXAMPLE      # its own state: the notebook's default data set
    assert panel.methods[0].value == PUBLISHED
    assert panel.convention.value == "position"
    assert not panel.status.is_error
    panel.risk_view.value = "2"                          # X3
    published = panel.risk_curves[0]
    grid = published.grid
    # 002 Table 3 (definition values): D_3(1) = 1.6, D_3(0.5) = 1.28.
    assert published.values[np.argmin(np.abs(grid - 1))] == pytest.approx(1.6)
    panel.loss_view.value = "1,2"                        # X2 & X3
    loss = panel.loss_curves[0]
    assert loss.values[0] == pytest.approx(2.4) and loss.values[-1] == 3.0
    assert len(panel.risk_verdicts) == 1


def test_shared_data_two_configurations_give_curves_verdicts_and_calibration(small_state):
    panel = DominancePanel(state=small_state)
    assert panel.convention.value == "rank" and PUBLISHED not in [v for _, v in panel.methods[0].options]
    assert [c.label for c in panel.risk_curves] == ["1. Additive noise, sd fraction = 0.5", "2. Rank swapping, window = 0.1"]
    assert len(panel.risk_artists.lines) == 2
    x, y = panel.risk_artists.lines[0].get_data()
    assert x[-1] == 1.0 and np.all(np.diff(y) >= -1e-9)      # D rises with alpha
    assert panel.risk_verdicts and panel.loss_verdicts
    assert any(w in panel.risk_verdict.value for w in ("dominates", "cross"))
    assert len(panel.points) == 2 and panel.best is not None
    assert "Least information loss" in panel.calibration_text.value
    assert "300 records" in panel.status.message


def test_more_configurations_rebuild_the_lines(small_state):
    panel = DominancePanel(state=small_state)
    panel.n_configs.value = 4
    assert len(panel.risk_artists.lines) == 4 and len(panel.loss_artists.lines) == 4
    assert len(panel.risk_verdicts) == 6
    assert len(panel.points) == 4


def test_aggregated_views_and_beta_pi(small_state):
    panel = DominancePanel(state=small_state)
    panel.risk_view.value = ALL
    panel.loss_view.value = ALL
    assert not panel.beta.disabled and not panel.pi.disabled
    mean_view = panel.risk_curves[0].values.copy()
    panel.beta.value = -5.0
    assert np.all(panel.risk_curves[0].values <= mean_view + 1e-9)     # lower beta: the weakest attribute counts
    loss_mean = panel.loss_curves[0].values.copy()
    panel.pi.value = 10.0
    assert np.all(panel.loss_curves[0].values >= loss_mean - 1e-9)
    assert "D(α, β = -5)" in panel.risk_ax.get_title()


def test_normalised_scales(small_state):
    panel = DominancePanel(state=small_state)
    raw = panel.risk_curves[0].values.copy()
    panel.normalize.value = True
    assert panel.risk_curves[0].values == pytest.approx(raw / 299)
    assert panel.risk_curves[0].values.max() <= 1.0


def test_sweep_mode_traces_a_calibration_path(small_state):
    panel = DominancePanel(state=small_state)
    panel.mode.value = "sweep"
    panel.sweep_values.value = "0, 0.25, 1"
    assert [p.parameter for p in panel.points] == [0.0, 0.25, 1.0]
    assert len(panel.calibration_artists.path.get_xdata()) == 3
    risks = [p.risk for p in panel.points]
    assert risks == sorted(risks)
    panel.risk_target.value = risks[1]
    assert panel.best.parameter == 0.25
    panel.risk_target.value = risks[-1] * 10
    assert panel.best is None and "No configuration" in panel.calibration_text.value


def test_bad_parameter_keeps_the_last_valid_view(small_state):
    panel = DominancePanel(state=small_state)
    before = [c.values.copy() for c in panel.risk_curves]
    panel.parameters[0].value = 99.0                    # sd_fraction must be <= 3
    assert panel.status.is_error and "sd_fraction" in panel.status.message and "99" in panel.status.message
    assert all(np.array_equal(a, c.values) for a, c in zip(before, panel.risk_curves))
    panel.parameters[0].value = 1.0
    assert not panel.status.is_error


@pytest.mark.parametrize("text", ["0.1", "a, b", "0.1, nan", ""])
def test_bad_sweep_values_are_reported(small_state, text):
    panel = DominancePanel(state=small_state)
    panel.mode.value = "sweep"
    panel.sweep_values.value = text
    assert panel.status.is_error and "sweep value" in panel.status.message


def test_forged_out_of_range_controls_are_refused(small_state):
    panel = DominancePanel(state=small_state)
    panel.risk_target.value = -1.0
    assert panel.status.is_error and "risk target" in panel.status.message
    panel.risk_target.value = 0.0
    panel.max_records.value = 1
    assert panel.status.is_error and "records used" in panel.status.message


def test_published_is_refused_on_shared_data(small_state):
    panel = DominancePanel(state=small_state)
    assert PUBLISHED not in [v for _, v in panel.methods[0].options]


def test_one_attribute_data_set_has_no_loss_curves():
    frame = pd.DataFrame({"x": np.arange(50.0)})
    state = AppState()
    state.dataset = with_info(frame, dataset_info(frame))
    panel = DominancePanel(state=state)
    assert not panel.status.is_error
    assert panel.loss_curves == [] and panel.loss_artists is None
    assert panel.points[0].loss == 0.0


def test_data_set_without_numeric_columns_is_reported(small_state):
    panel = DominancePanel(state=small_state)
    frame = pd.DataFrame({"c": pd.Categorical(["a", "b"] * 10)})
    small_state.dataset = with_info(frame, dataset_info(frame))
    assert panel.status.is_error and "numeric" in panel.status.message
    assert len(panel.risk_curves) == 2                  # the last valid view stays


def test_follows_the_shared_data_set(small_state):
    panel = DominancePanel(state=small_state)
    frame = adult6()
    small_state.dataset = frame
    assert not panel.status.is_error, panel.status.message
    assert panel.risk_view.options[0][0] in dataset_info(frame).numeric


def test_switching_to_a_paper_example_in_the_state_and_back(small_state):
    panel = DominancePanel(state=small_state)
    frame = small_state.dataset
    small_state.select_dataset(DM_EXAMPLE)               # the Data tab's choice
    assert panel.methods[0].value == PUBLISHED and panel.convention.value == "position"
    assert "20 records" in panel.status.message and panel._columns == ["X1", "X2", "X3"]
    assert "with its printed masked version" in panel.data_name.value and DM_EXAMPLE in panel.data_name.value
    _use(small_state, frame)
    assert panel.methods[0].value != PUBLISHED and not panel.status.is_error
    assert PUBLISHED not in [v for _, v in panel.methods[0].options] and panel.convention.value == "rank"
    assert "300 records" in panel.status.message


# ------------------------------------------------------------------- the state is the one home of the data set
def test_a_paper_example_chosen_in_the_data_tab_compares_x_with_the_printed_y():
    """The defect: with the Ruiz (2018) example as the state's data set the tab analysed all six columns
    X1..Y3 (masked by its own methods) instead of X against the printed Y."""
    state = AppState()
    state.select_dataset(RUIZ_EXAMPLE)
    panel = DominancePanel(state=state)
    assert not panel.status.is_error, panel.status.message
    assert [label for label, _ in panel.risk_view.options][:3] == ["X1", "X2", "X3"]
    assert len(panel.risk_view.options) == 4             # X1, X2, X3 and "all": no Y columns
    assert panel.convention.value == "position"
    _assert_ruiz_numbers(panel)
    assert "5 records" in panel.status.message


def test_the_tab_has_no_data_source_of_its_own_and_its_configuration_names_none():
    state = AppState()
    state.select_dataset(DM_EXAMPLE)
    panel = DominancePanel(state=state)
    assert not hasattr(panel, "source") and "source" not in panel.controls
    config = panel.config()
    assert "source" not in config
    assert not {"ruiz", "dm", "shared"} & {v for v in config.values() if isinstance(v, str)}


def test_the_app_exports_the_data_set_once_and_no_source_of_the_tab():
    import json

    from explorer.app import build_app

    app = build_app()
    app.state.select_dataset(RUIZ_EXAMPLE)
    panel = app.panel("Dominance")
    assert panel.methods[0].value == PUBLISHED
    config = app.export_config()
    assert config["dataset"] == RUIZ_EXAMPLE and "source" not in config["tabs"]["Dominance"]
    text = json.dumps(config)
    assert '"ruiz"' not in text and '"dm"' not in text
    other = build_app()
    other.load_config(text)
    assert other.state.dataset_name == RUIZ_EXAMPLE
    _assert_ruiz_numbers(other.panel("Dominance"))


def test_a_built_tab_follows_a_loaded_configuration_of_a_paper_example():
    from explorer.app import build_app

    app = build_app()
    app.state.select_dataset(RUIZ_EXAMPLE)
    app.panel("Dominance").risk_view.value = "2"
    config = app.export_config()
    other = build_app()
    other.state.select_dataset("Synthetic normal (n=1000, m=3)")
    panel = other.panel("Dominance")                     # built on other data, then the configuration arrives
    assert panel.methods[0].value != PUBLISHED
    other.load_config(config)
    assert not panel.status.is_error, panel.status.message
    assert panel.config() == config["tabs"]["Dominance"]
    _assert_ruiz_numbers(panel)


def test_an_old_configuration_with_a_source_of_the_tab_still_loads(small_state):
    """A ``source`` of an earlier release is dropped (explorer.state.LEGACY_TAB_KEYS): the configuration's
    data set stays the one of every tab; the rest of the tab's entries are applied."""
    state = AppState()
    state.select_dataset("Synthetic normal (n=1000, m=3)")
    state.load_config({"dataset": "Synthetic normal (n=1000, m=3)", "epsilon": 1.0,
                       "tabs": {"Dominance": {"source": "ruiz", "beta": 0.5, "max_records": 200}}})
    assert state.dataset_name == "Synthetic normal (n=1000, m=3)"
    assert state.tab_params["Dominance"] == {"beta": 0.5, "max_records": 200}
    panel = DominancePanel(state=small_state)
    panel.apply_config({"source": "dm", "beta": 0.5})    # a notebook's old dict: the entry is dropped too
    assert panel.beta.value == 0.5 and small_state.dataset_name == "synthetic" and not panel.status.is_error


def test_as_published_on_a_data_set_without_a_printed_version_is_refused_in_words(small_state):
    panel = DominancePanel(state=small_state)
    before = panel.config()
    with pytest.raises(ConfigurationError, match="'As published' .* needs a data set with a printed masked "
                                                 "version.*'synthetic' has none"):
        panel.apply_config({"methods": [PUBLISHED, "identity", "identity", "identity"]})
    assert panel.config() == before


def test_source_of_the_constructor_selects_the_data_set_in_the_state(small_state):
    panel = DominancePanel(state=small_state, source="dm")          # a notebook of an earlier release
    assert small_state.dataset_name == DM_EXAMPLE and panel.methods[0].value == PUBLISHED
    DominancePanel(state=small_state, source="shared")               # the state's data set, kept
    assert small_state.dataset_name == DM_EXAMPLE
    DominancePanel(state=small_state, source=RUIZ_EXAMPLE)
    assert small_state.dataset_name == RUIZ_EXAMPLE
    with pytest.raises(DatasetError, match="dataset 'nope' is not available"):
        DominancePanel(state=small_state, source="nope")
    assert small_state.dataset_name == RUIZ_EXAMPLE


def test_a_data_set_without_two_complete_records_offers_the_ruiz_example(small_state):
    panel = DominancePanel(state=small_state)
    assert panel.switch_button.layout.display == "none"
    _use(small_state, pd.DataFrame({"x": [1.0, np.nan, np.nan], "y": [np.nan, 2.0, 3.0]}))
    assert panel.status.is_error and "fewer than 2 complete records" in panel.status.message
    assert f"use the {RUIZ_EXAMPLE}" in panel.status.message and panel.switch_button.layout.display is None
    assert RUIZ_EXAMPLE in panel.switch_button.description
    panel.switch_button.click()                          # the shared data set: every tab follows
    assert small_state.dataset_name == RUIZ_EXAMPLE and panel.switch_button.layout.display == "none"
    assert not panel.status.is_error and not panel.stale.stale
    _assert_ruiz_numbers(panel)


def test_a_bad_setting_does_not_offer_another_data_set(small_state):
    panel = DominancePanel(state=small_state)
    panel.max_records.value = 1
    assert panel.status.is_error and "records used" in panel.status.message
    assert panel.switch_button.layout.display == "none"


def test_without_a_data_set_in_a_given_state_it_says_so_and_offers_the_ruiz_example():
    state = AppState()
    panel = DominancePanel(state=state)
    assert state.dataset is None and panel.status.is_error and "There is no data set yet" in panel.status.message
    assert RUIZ_EXAMPLE in panel.status.message
    assert panel.switch_button.layout.display is None
    panel.switch_button.click()
    assert state.dataset_name == RUIZ_EXAMPLE and not panel.status.is_error
    assert panel.risk_curves[0].label == "published Y" and "5 records" in panel.status.message


def test_csv_export(small_state):
    panel = DominancePanel(state=small_state)
    panel.export_button.click()
    assert panel.csv_text.startswith("kind,label,parameter,value,text")
    assert "verdict" in panel.csv_text and "download CSV" in panel.download_link.value


def test_config_round_trip(small_state):
    panel = DominancePanel(state=small_state)
    panel.n_configs.value = 3
    panel.methods[2].value = "data_shuffling"
    panel.alpha1.value = -1.0
    config = panel.config()
    other = DominancePanel(state=small_state)
    other.apply_config(config)
    assert other.config() == config
    assert len(other.risk_curves) == 3
    from explorer.errors import ConfigurationError
    with pytest.raises(ConfigurationError):
        other.apply_config({"colour": "red"})


# ------------------------------------------------------------------------------ slow work in the background
def test_small_inputs_stay_synchronous(small_state):
    panel = DominancePanel(state=small_state)
    assert not panel.needs_compute(panel.work) and not panel.running
    panel.alpha_min.value = -20.0
    assert not panel.running and panel.risk_curves[0].grid[1] == pytest.approx(-20.0)


def test_slow_work_waits_for_compute_and_lands_when_it_finishes(small_state):
    panel = DominancePanel(state=small_state)
    panel.needs_compute = lambda units: True             # every change counts as slow
    before = [c.values.copy() for c in panel.risk_curves]
    panel.risk_view.value = ALL
    assert "press Compute" in panel.status.message and not panel.status.is_error
    assert all(np.array_equal(a, c.values) for a, c in zip(before, panel.risk_curves))   # last view kept
    panel.compute_button.click()
    panel.wait(30)
    assert not panel.running and not panel.compute_button.disabled
    assert panel.task.widget.layout.display == "none" and panel.task.progress.value == 1.0
    assert "D(α, β = 1)" in panel.risk_ax.get_title() and "300 records" in panel.status.message
    assert not all(np.array_equal(a, c.values) for a, c in zip(before, panel.risk_curves))


def test_cancel_keeps_the_last_curves(small_state):
    import threading

    panel = DominancePanel(state=small_state)
    panel.needs_compute = lambda units: True
    before = [c.values.copy() for c in panel.risk_curves]
    started, release = threading.Event(), threading.Event()
    masked = panel._cache.displacements

    def slow(*args):
        started.set()
        release.wait(10)
        return masked(*args)

    panel._cache.displacements = slow
    panel.parameters[0].value = 1.0
    panel.compute_button.click()
    assert started.wait(10) and panel.running and panel.compute_button.disabled
    assert panel.task.widget.layout.display is None
    panel.task.cancel_button.click()
    release.set()
    panel.wait(30)
    assert "Cancelled" in panel.status.message and not panel.status.is_error
    assert all(np.array_equal(a, c.values) for a, c in zip(before, panel.risk_curves))
    assert not panel.compute_button.disabled and panel.task.widget.layout.display == "none"


def test_a_change_during_a_background_run_is_planned_again_when_it_ends(small_state):
    import threading

    panel = DominancePanel(state=small_state)
    panel.needs_compute = lambda units: True
    started, release = threading.Event(), threading.Event()
    masked = panel._cache.displacements

    def slow(*args):
        started.set()
        release.wait(10)
        return masked(*args)

    panel._cache.displacements = slow
    panel.alpha_min.value = -20.0
    panel.compute_button.click()
    assert started.wait(10)
    panel._cache.displacements = masked
    panel.alpha_min.value = -30.0                        # while it runs: its result is for old settings
    assert "previous settings" in panel.status.message
    release.set()
    panel.wait(30)
    assert "press Compute" in panel.status.message       # re-planned for the current settings when it ended
    assert panel.risk_curves[0].grid[1] == pytest.approx(-10.0)
    panel.needs_compute = lambda units: False            # what is left is quick (displacements are cached)
    panel.alpha_min.value = -40.0
    assert not panel.running and panel.risk_curves[0].grid[1] == pytest.approx(-40.0)


@pytest.mark.slow
def test_full_adult_is_estimated_slow_and_computed_behind_the_button():
    from explorer.core.datasets import adult

    state = AppState()
    state.dataset = adult()
    panel = DominancePanel(state=state)                  # the default 5,000-record sample: at once
    assert not panel.running and "5,000 of 32,561" in panel.status.message
    panel.max_records.value = 0
    assert panel.needs_compute(panel.work)                                        # decided on the work
    assert "press Compute" in panel.status.message and THROUGHPUT.describe(panel.work) in panel.status.message
    assert "5,000 of 32,561" not in panel.status.message and len(panel.risk_curves) == 2
    panel.compute_button.click()
    panel.wait(120)
    assert "(32,561 records)" in panel.status.message, panel.status.message
    panel.beta.value = -2.0                              # cached curves: answers at once
    assert not panel.running and "32,561 records" in panel.status.message


# ------------------------------------------------------------------------------------------ redrawing
def _shown(panel):
    """Play the page: count the draw requests of each figure and serve them (a full draw each)."""
    requests = {"risk": 0, "loss": 0, "calibration": 0}
    figures = {"risk": panel.risk_figure, "loss": panel.loss_figure, "calibration": panel.calibration_figure}
    for name, figure in figures.items():
        figure.canvas.draw_idle = (lambda name=name: requests.__setitem__(name, requests[name] + 1))
        figure.canvas.draw()

    def serve():
        for name, figure in figures.items():
            if requests[name]:
                figure.canvas.draw()
        done = dict(requests)
        for name in requests:
            requests[name] = 0
        return done
    return serve


def test_a_move_redraws_only_the_figures_whose_data_changed(small_state):
    panel = DominancePanel(state=small_state)
    panel.risk_view.value = ALL
    panel.loss_view.value = ALL
    serve = _shown(panel)
    counts = lambda r: (r.n_blits, r.n_full, r.n_skipped)          # noqa: E731
    risk, loss, calibration = counts(panel.risk_redraw), counts(panel.loss_redraw), counts(panel.calibration_redraw)
    panel.beta.value = 0.5                       # D(alpha, beta) and the calibration points move; I does not
    requests = serve()
    assert requests["loss"] == 0 and counts(panel.loss_redraw)[2] == loss[2] + 1
    assert counts(panel.risk_redraw)[0] == risk[0] + 1 and requests["risk"] == 0          # blitted
    assert sum(counts(panel.calibration_redraw)[:2]) == sum(calibration[:2]) + 1
    assert "β = 0.5" in panel.risk_ax.get_title()
    risk, loss = counts(panel.risk_redraw), counts(panel.loss_redraw)
    panel.alpha1.value = 0.05                    # only the calibration plane changes
    requests = serve()
    assert requests["risk"] == requests["loss"] == 0
    assert counts(panel.risk_redraw)[2] == risk[2] + 1 and counts(panel.loss_redraw)[2] == loss[2] + 1
    assert "α₁ = 0.05" in panel.calibration_ax.get_title()


def test_a_blit_shows_the_same_picture_as_a_full_draw(small_state):
    panel = DominancePanel(state=small_state)
    panel.risk_view.value = ALL
    serve = _shown(panel)
    blits = panel.risk_redraw.n_blits
    panel.beta.value = 0.25
    serve()
    assert panel.risk_redraw.n_blits == blits + 1
    canvas = panel.risk_figure.canvas
    blitted = np.asarray(canvas.buffer_rgba()).copy()
    canvas.draw()                                 # the whole figure, animated artists included
    full = np.asarray(canvas.buffer_rgba())
    assert blitted.shape == full.shape
    assert np.count_nonzero(np.any(blitted != full, axis=2)) == 0


def test_panel_text_cites_papers_by_authors_and_year():
    panel = DominancePanel(source=DM_EXAMPLE)
    texts = [child.value for child in panel.widget.children if hasattr(child, "value") and isinstance(child.value, str)]
    texts += [label for label, _ in panel.convention.options] + [label for label, _ in panel.methods[0].options]
    texts += [panel.data_name.value, panel.switch_button.description]
    joined = " ".join(texts)
    assert "Ruiz (2018)" in joined and "Domingo-Ferrer and Soria-Comas (2018)" in joined
    assert "Domingo-Ferrer and Muralidhar (2016)" in joined
    for code in ("002", "000 ", "004", "paper 0", "ruiz", "'dm'", "shared data set (Data tab)"):
        assert code not in joined


def test_a_forged_click_on_the_disabled_compute_button_does_not_run(small_state):
    from explorer.panels.browser import guard_widgets

    panel = DominancePanel(state=small_state)
    guard_widgets(panel.widget, panel.status)
    runs = []
    panel._on_compute = lambda: runs.append(1)
    message = {"content": {"data": {"method": "custom", "content": {"event": "click"}}}, "buffers": []}
    panel.compute_button.disabled = True                 # as while a background computation runs
    panel.compute_button._handle_msg(message)            # what the comm does with a browser's message
    assert runs == [] and panel.status.is_error and "disabled; the click was refused" in panel.status.message
    panel.compute_button.disabled = False
    panel.compute_button._handle_msg(message)
    assert runs == [1]


def _greyed(panel) -> list[bool]:
    return ["explorer-stale" in view._dom_classes for view in panel._views()]


def test_slow_work_marks_the_views_out_of_date_until_computed(small_state):
    panel = DominancePanel(state=small_state)
    assert not panel.stale.stale and not any(_greyed(panel))
    panel.needs_compute = lambda units: True             # every change counts as slow
    panel.beta.value = 0.5
    panel.risk_view.value = ALL
    assert panel.stale.stale and all(_greyed(panel))
    assert "out of date: press Compute" in panel.stale.widget.value
    panel.compute_button.click()
    panel.wait(30)
    assert not panel.stale.stale and not any(_greyed(panel)) and panel.stale.widget.value == ""
    assert "β = 0.5" in panel.risk_ax.get_title()


def test_a_new_shared_data_set_is_read_from_the_state_or_marked_out_of_date(small_state):
    panel = DominancePanel(state=small_state)
    panel.needs_compute = lambda units: True
    rng = np.random.default_rng(7)
    frame = pd.DataFrame(rng.normal(size=(120, 2)), columns=["u", "v"])
    small_state.dataset = with_info(frame, dataset_info(frame))
    # the controls follow the state at once; the curves (still of a, b, c) are marked out of date
    assert [label for label, _ in panel.risk_view.options][:2] == ["u", "v"]
    assert panel.stale.stale and all(_greyed(panel)) and "300 records" not in panel.status.message
    panel.compute_button.click()
    panel.wait(30)
    assert not panel.stale.stale and "120 records" in panel.status.message
    assert "attribute u" in panel.risk_ax.get_title() and len(panel.loss_curves[0].values) > 0


# ------------------------------------------------------------------------------- superseded results
def test_a_superseded_background_result_never_reaches_the_views(small_state, monkeypatch):
    """Compute pressed, the controls changed while it runs: the task drops its result and plans the new ones."""
    import threading

    import explorer.panels.dominance as module

    panel = DominancePanel(state=small_state)
    panel.needs_compute = lambda units: True             # every change counts as slow
    shown = panel.risk_curves
    started, release, returned = threading.Event(), threading.Event(), []
    real = module.compare_maskings

    def blocking(*args, **kwargs):
        started.set()
        assert release.wait(30)
        kwargs["progress"] = None                        # ignore stops: the result must be dropped on arrival
        returned.append(real(*args, **kwargs))
        return returned[-1]

    monkeypatch.setattr(module, "compare_maskings", blocking)
    panel.alpha_min.value = -20.0                        # a new grid: curves to compute
    assert panel.stale.stale
    panel.compute_button.click()
    assert started.wait(30) and panel.running
    monkeypatch.setattr(module, "compare_maskings", real)
    panel.alpha_min.value = -30.0                        # newer settings while it runs
    release.set()
    panel.wait(60)
    assert returned and returned[0].risk_curves[0].grid[1] == pytest.approx(-20.0)   # it finished ...
    assert panel.risk_curves is shown                    # ... and never reached the views
    assert panel.risk_curves[0].grid[1] == pytest.approx(-10.0)
    assert panel.stale.stale and all(_greyed(panel)) and "press Compute" in panel.status.message
    panel.compute_button.click()
    panel.wait(60)
    assert not panel.stale.stale and panel.risk_curves[0].grid[1] == pytest.approx(-30.0)


# ---------------------------------------------------------------------------- data the tab cannot use
def _use(state, frame):
    state.dataset = with_info(frame, dataset_info(frame))


@pytest.mark.parametrize("frame, words", [
    (pd.DataFrame({"c": pd.Categorical(["a", "b"] * 10)}), "no numeric attributes"),
    (pd.DataFrame({"x": [1.0, np.nan, np.nan], "y": [np.nan, 2.0, 3.0]}), "fewer than 2 complete records"),
])
def test_a_data_set_it_cannot_use_greys_the_old_curves_and_says_why(small_state, frame, words):
    panel = DominancePanel(state=small_state)
    shown = panel.risk_curves
    assert not panel.stale.stale and len(shown) == 2
    _use(small_state, frame)
    assert panel.risk_curves is shown                    # the old curves stay, for comparison ...
    assert panel.stale.stale and all(_greyed(panel))    # ... greyed: they are not of these data
    assert words in panel.stale.widget.value and "previous data" in panel.stale.widget.value
    assert panel.status.is_error and words in panel.status.message and "previous data" in panel.status.message
    panel.beta.value = 0.5                               # nothing computes on the old data meanwhile
    assert panel.risk_curves is shown and panel.stale.stale and panel.status.is_error
    rng = np.random.default_rng(3)
    _use(small_state, pd.DataFrame(rng.normal(size=(80, 2)), columns=["u", "v"]))
    assert not panel.stale.stale and not any(_greyed(panel)) and not panel.status.is_error
    assert "80 records" in panel.status.message and panel.risk_curves is not shown


def test_an_error_of_the_core_on_new_data_greys_the_old_curves(small_state, monkeypatch):
    import explorer.panels.dominance as module
    from explorer.errors import InvalidParameterError

    panel = DominancePanel(state=small_state)
    shown = panel.risk_curves

    def refuse(*args, **kwargs):
        raise InvalidParameterError("X must be a matrix of at least 2 records and 1 attribute, got shape (1, 2)")

    monkeypatch.setattr(module, "compare_maskings", refuse)
    rng = np.random.default_rng(4)
    _use(small_state, pd.DataFrame(rng.normal(size=(50, 2)), columns=["u", "v"]))
    assert panel.risk_curves is shown and panel.stale.stale and all(_greyed(panel))
    assert panel.status.is_error and "X must be a matrix" in panel.status.message
    assert "previous data" in panel.stale.widget.value


# ------------------------------------------------------------------------------------ users' words
def _visible_texts(panel) -> list[str]:
    """What a user reads: HTML texts (tags stripped), option labels, descriptions, figure texts."""
    import ipywidgets as widgets
    import re

    texts, stack = [], [panel.widget]
    while stack:
        w = stack.pop()
        stack.extend(getattr(w, "children", ()) or ())
        if isinstance(w, widgets.HTML):
            texts.append(re.sub(r"<style>.*?</style>|<[^>]+>", " ", w.value, flags=re.S))
        if hasattr(w, "options") and isinstance(w, widgets.Dropdown):
            texts.extend(str(label) for label, _ in w.options) if w.options and isinstance(w.options[0], tuple) \
                else texts.extend(str(o) for o in w.options)
        if getattr(w, "description", None):
            texts.append(w.description)
    for ax in (panel.risk_ax, panel.loss_ax, panel.calibration_ax):
        texts += [ax.get_title(), ax.get_xlabel(), ax.get_ylabel()]
        legend = ax.get_legend()
        if legend is not None:
            texts += [t.get_text() for t in legend.get_texts()]
    return [t for t in texts if t]


def test_texts_use_the_one_number_format_and_no_underscores_or_raw_words(small_state):
    import re

    from tests.panels.readable import E_NOTATION, RAW_WORDS

    panel = DominancePanel(state=small_state)
    panel.risk_target.value = 20170.0                    # a target no configuration reaches: in the text
    assert "D(α₁, β) ≥ 20,170" in panel.calibration_text.value
    panel.risk_target.value = 0.0
    panel.n_configs.value = 3
    panel.methods[2].value = "multivariate_microaggregation"
    panel.alpha_min.value = -50.0
    panel.risk_view.value = ALL
    texts = _visible_texts(panel)
    joined = "\n".join(texts)
    assert "Additive noise, sd fraction = 0.5" in joined and "D(α, β = 1)" in joined
    assert "D" in panel.calibration_text.value and panel.risk_verdict.value
    for text in texts:
        assert not E_NOTATION.search(text), text
        assert not RAW_WORDS.search(text.replace("None)", "")), text
        assert "_" not in text, text
    assert "D<sub>j</sub>(α)" in panel.widget.children[0].value and "r<sub>j</sub>" in panel.widget.children[0].value
    # the verdicts' numbers are those of the formatter (a crossing of 1,234.5 is "1,234.5"... not "1235")
    from explorer.panels._format import format_value
    result = panel.risk_verdicts
    assert result and all(not re.search(r"\d[eE][+-]?\d", s) for s in result)
    assert f"α = {format_value(-50.0)}" in panel.risk_verdict.value or "cross" in panel.risk_verdict.value


# ------------------------------------------------------------------------------- the Panel contract
def test_a_configuration_of_a_paper_example_loads_whole_and_a_bad_one_changes_nothing(small_state):
    paper_state = AppState()
    paper_state.select_dataset(RUIZ_EXAMPLE)
    paper = DominancePanel(state=paper_state)
    paper.risk_view.value = "2"
    paper.loss_view.value = "1,2"
    config = paper.config()
    assert config["methods"][0] == PUBLISHED and len(config["parameters"]) == 4
    panel = DominancePanel(state=small_state)            # the synthetic data: "As published" is not a choice
    before = panel.config()
    for bad, words in [({"methods": ["nope"] * 4}, "methods must list methods among"),
                       ({"methods": [PUBLISHED, "identity", "identity", "identity"]}, "got 'published'"),
                       ({"risk_view": "7"}, "risk_view must be one of"),
                       ({"parameters": [0.5, "x", 1, 1]}, "parameters must be a number"),
                       ({"source": "ruiz", "beta": 3.0}, "beta must be between -10 and 1, got 3")]:
        with pytest.raises(ConfigurationError, match=words):
            panel.apply_config(bad)
        assert panel.config() == before                  # all or nothing
    small_state.select_dataset(RUIZ_EXAMPLE)             # the data set is the state's (the Data tab's choice)
    panel.apply_config(config)
    assert panel.config() == config and panel.methods[0].value == PUBLISHED
    assert [c.label for c in panel.risk_curves][0] == "published Y" and "attribute X3" in panel.risk_ax.get_title()
    assert panel.risk_curves[0].values[np.argmin(np.abs(panel.risk_curves[0].grid - 1))] == pytest.approx(1.6)


def test_each_figure_is_described_and_tabled_from_the_comparison_it_draws(small_state):
    from explorer.panels._format import format_value

    panel = DominancePanel(state=small_state)
    assert panel.missing_hooks() == []
    risk = panel.table("risk")
    assert list(risk.columns) == [c.label for c in panel.risk_curves]
    for curve, line in zip(panel.risk_curves, panel.risk_artists.lines):
        assert np.array_equal(risk[curve.label].to_numpy(), curve.values)
        x, y = line.get_data()
        assert np.array_equal(risk.loc[np.isfinite(risk.index), curve.label].to_numpy(), y)   # what is drawn
    text = panel.describe("risk")
    assert text.startswith("Line chart, D(α): attribute a") and panel.risk_verdicts[0] in text
    assert f"{panel.risk_curves[0].label} {format_value(risk.iloc[-1, 0])}" in text           # D at α = 1
    loss = panel.table("loss")
    assert np.array_equal(loss.iloc[:, 1].to_numpy(), panel.loss_curves[1].values) and loss.index.name == "θ"
    assert panel.loss_verdicts[0] in panel.describe("loss")
    calibration = panel.table("calibration")
    assert calibration["D(α₁, β)"].tolist() == [p.risk for p in panel.points]
    assert calibration["least loss meeting the target"].sum() == 1
    assert panel.calibration_artists.points.get_offsets().tolist() == calibration[["D(α₁, β)", "I(θ₂, π)"]].values.tolist()
    assert panel.best.label in panel.describe("calibration") and "2 point(s)" in panel.describe("calibration")
    png = panel.export_figure("calibration", "png")
    assert png.startswith(b"\x89PNG")


def test_one_attribute_loss_figure_says_why_it_is_empty():
    frame = pd.DataFrame({"x": np.arange(50.0)})
    state = AppState()
    state.dataset = with_info(frame, dataset_info(frame))
    panel = DominancePanel(state=state)
    assert panel.table("loss").empty and "at least two attributes" in panel.describe("loss")


def _run(code: str) -> dict:
    namespace: dict = {}
    exec(compile(code, "<code of the view>", "exec"), namespace)
    return namespace


def _same_view(panel, result) -> None:
    assert [c.label for c in result.risk_curves] == [c.label for c in panel.risk_curves]
    for mine, theirs in zip(panel.risk_curves + panel.loss_curves, result.risk_curves + result.loss_curves):
        assert np.array_equal(mine.grid, theirs.grid) and np.array_equal(mine.values, theirs.values)
    assert list(result.points) == panel.points and result.best == panel.best
    assert result.risk_sentences() == panel.result["comparison"].risk_sentences()


def test_code_reproduces_the_view_of_a_paper_example(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    panel = DominancePanel()
    panel.risk_view.value = "2"
    panel.beta.value = -2.0
    code = panel.code()
    assert "ruiz_example()" in code and "explorer.panels" not in code
    _same_view(panel, _run(code)["result"])
    assert (tmp_path / "dominance.png").exists()


def test_code_reproduces_the_view_of_a_built_in_data_set_and_a_sweep(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    state = AppState()
    state.select_dataset("Synthetic normal (n=1000, m=3)")
    panel = DominancePanel(state=state, max_records=300, seed=4)
    panel.n_configs.value = 3
    panel.loss_view.value = ALL
    code = panel.code()
    assert "load_builtin('Synthetic normal (n=1000, m=3)')" in code and "sample_records(X, 300, 4)" in code
    _same_view(panel, _run(code)["result"])
    panel.mode.value = "sweep"
    panel.sweep_values.value = "0.1, 0.5, 1"
    panel.risk_target.value = panel.points[1].risk
    code = panel.code()
    assert "sweep=True" in code and "result.points, target=result.risk_target" in code
    _same_view(panel, _run(code)["result"])
