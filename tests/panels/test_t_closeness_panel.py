"""TClosenessPanel: controls wired to the core; bad input shown in words, last valid state kept."""

from __future__ import annotations

import io
import math

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest

from explorer.core.datasets import adult
from explorer.core.t_closeness import closeness_for_epsilon
from explorer.panels._base import AppState
from explorer.panels.t_closeness import TClosenessPanel


@pytest.fixture(scope="module")
def small_frame():
    rng = np.random.default_rng(0)
    n = 400
    age = rng.integers(18, 80, n)
    return pd.DataFrame({
        "age": age,
        "hours": rng.integers(10, 60, n),
        "sex": pd.Categorical(rng.choice(["F", "M"], n)),
        "disease": pd.Categorical(np.where(age > 60, "heart", rng.choice(["flu", "none", "cancer"], n))),
        "income": rng.normal(30000, 8000, n).round(),
    })


@pytest.fixture
def panel(small_frame):
    state = AppState()
    state.dataset = small_frame
    state.quasi_identifiers = ["age", "hours"]
    state.sensitive = ["disease"]
    return TClosenessPanel(state=state, k=10)


def test_defaults_from_state_and_first_clustering(panel):
    assert panel.quasi_identifiers.value == ("age", "hours") and panel.sensitive.value == "disease"
    assert panel.clustering is not None and panel.clustering.method == "mdav"
    assert np.all(panel.clustering.sizes >= 10)
    assert panel.profile.n_clusters == 40
    assert "clusters violate" in panel.summary.value and not panel.status.is_error


def test_epsilon_is_shared_and_only_redraws(panel):
    clustering = panel.clustering
    panel.state.epsilon = 2.0
    assert panel.epsilon.value == 2.0
    assert "2.718" in panel.t_label.value
    assert panel.ratio_artists.bound.get_ydata()[0] == pytest.approx(math.e)
    assert panel.clustering is clustering                                 # no re-clustering on a slider move
    assert panel.n_violating == int(np.sum(panel.profile.distances > math.e))
    panel.epsilon.value = 8.0
    assert panel.state.epsilon == 8.0
    assert panel.n_violating == int(np.sum(panel.profile.distances > closeness_for_epsilon(8.0)))


def test_worst_case_view_follows_epsilon(panel):
    panel.epsilon.value = 2.0
    data = panel.profile.data_distribution
    heights = [float(b.get_height()) for b in panel.worst_artists.distribution.cluster]
    j = int(np.argmax(np.array(heights) / data))
    assert heights[j] / data[j] <= math.e + 1e-9
    assert "intruder's guess knowing the cluster" in panel.worst_artists.guess.get_text()


def test_distance_switch_to_emd_and_bound_slider(panel):
    panel.distance.value = "emd"
    assert panel.profile.distance == "emd" and np.all(panel.profile.distances <= 1)
    panel.t_emd.value = 0.05
    assert panel.n_violating == int(np.sum(panel.profile.distances > 0.05))
    panel.t_emd.value = 1.0
    assert panel.n_violating == 0


def test_selected_cluster_is_shown_farthest_first(panel):
    panel.selected.value = 0
    i = int(np.argmax(panel.profile.distances))
    heights = [float(b.get_height()) for b in panel.distribution_artists.cluster]
    np.testing.assert_allclose(heights, panel.profile.distributions[i])
    panel.selected.value = 3
    assert panel.ratio_artists.selected.get_xdata()[0] == 3.5


def test_group_by_and_t_close_microaggregation(panel):
    panel.method.value = "group_by"
    assert panel.clustering.method == "group_by"
    panel.epsilon.value = 2.0
    panel.method.value = "t_close"
    assert panel.clustering.method == "t_close_microaggregation"
    assert panel.profile.max_distance <= math.e + 1e-9 and panel.n_violating == 0
    assert "0</b> of" in panel.summary.value
    panel.epsilon.value = 4.0                                   # t-close clustering depends on t: redone
    assert panel.clustering.t == pytest.approx(math.exp(2.0))


def test_bad_inputs_keep_last_valid_state(panel):
    profile = panel.profile
    panel.sensitive.value = "age"                                 # both QI and sensitive
    assert panel.status.is_error and "cannot be both" in panel.status.message
    assert panel.profile is profile
    panel.quasi_identifiers.value = ("hours",)
    panel.sensitive.value = "income"
    assert panel.profile.categories[0].startswith("[")           # quantile bins by default
    panel.binning.value = "none"
    assert panel.status.is_error and "numeric: choose a binning" in panel.status.message
    panel.binning.value = "quantile"
    panel.k.value = 100000
    assert panel.status.is_error and "k must be <= the number of records (400), got 100000" in panel.status.message
    panel.k.value = 0
    assert panel.k.value == 1                                      # clamped by the widget
    panel.quasi_identifiers.value = ()
    assert panel.status.is_error and "at least one quasi-identifier" in panel.status.message


@pytest.mark.slow
def test_single_valued_sensitive_and_missing_values(small_frame):
    frame = small_frame.copy()
    frame["constant"] = "x"
    frame.loc[:9, "age"] = np.nan
    frame["disease"] = frame["disease"].astype(object)
    frame.loc[10:14, "disease"] = None
    state = AppState()
    state.dataset = frame
    state.quasi_identifiers = ["age", "hours"]
    state.sensitive = ["disease"]
    panel = TClosenessPanel(state=state, k=10)
    assert "10 record(s) with a missing quasi-identifier dropped" in panel.status.message
    assert "(missing)" in panel.profile.categories
    panel.sensitive.value = "constant"
    assert panel.status.is_error and "single value" in panel.status.message


def test_csv_export_escapes_formulas(small_frame):
    frame = small_frame.copy()
    frame["disease"] = frame["disease"].cat.rename_categories({"flu": "=HYPERLINK(1)", "none": "@none"})
    state = AppState()
    state.dataset = frame
    state.quasi_identifiers = ["age"]
    state.sensitive = ["disease"]
    panel = TClosenessPanel(state=state, k=20)
    panel.export_button.click()
    assert panel.csv_text.count("\n") == panel.profile.n_clusters + 1
    assert "share =HYPERLINK(1)" in panel.csv_text.splitlines()[0]     # inside a cell, not at its start
    for line in panel.csv_text.splitlines()[1:]:
        assert not any(cell.startswith(("=", "+", "@")) for cell in line.split(","))
    assert panel.download.value.startswith("<a download='t_closeness_clusters.csv' href='data:text/csv")


def test_config_round_trip(panel):
    panel.distance.value = "emd_ordered"
    panel.k.value = 20
    config = panel.config()
    other = TClosenessPanel(state=panel.state)
    other.apply_config(config)
    assert other.config() == config
    other.apply_config({"method": "nonsense"})
    assert other.status.is_error and "method" in other.status.message
    assert other.method.value == config["method"]


def test_adult_by_default_race_mdav_k50_big_k_behind_button():
    state = AppState()
    state.dataset = adult()
    panel = TClosenessPanel(state=state)
    panel.sensitive.value = "race"
    assert panel.k.value == 50 and panel.profile.n_clusters == 651
    assert panel.profile.categories == ("Amer-Indian-Eskimo", "Asian-Pac-Islander", "Black", "Other", "White")
    assert "clusters violate" in panel.summary.value
    panel.k.value = 10                                          # too slow to run on every change
    assert "press Compute" in panel.status.message and panel.profile.n_clusters == 651


def test_shared_epsilon_out_of_range_is_refused_by_the_state_and_not_applied(panel):
    from explorer.errors import ExplorerError
    from explorer.panels._base import guard_widgets

    panel.state.epsilon = 3.0
    assert panel.epsilon.value == 3.0
    for bad, words in ((-1.0, "epsilon must be >= 0"), (float("nan"), "epsilon must be a number, got NaN"),
                       (float("inf"), "epsilon must be finite"), (50.0, "epsilon must be <= 10"),
                       ("lots", "epsilon must be a number, got 'lots'")):
        with pytest.raises(ExplorerError, match=words.replace("(", r"\(")):
            panel.state.epsilon = bad
        assert panel.state.epsilon == 3.0 and panel.epsilon.value == 3.0 and "4.482" in panel.t_label.value
    guard_widgets(panel.widget, panel.status)
    panel.epsilon.set_state({"max": 100.0})                        # forged from a browser: refused in words
    assert panel.status.is_error and "may not set max" in panel.status.message and panel.epsilon.max == 10
    panel.epsilon.set_state({"value": 1e9})                        # beyond the one range: refused in words
    assert panel.status.is_error and "must be between 0 and 10" in panel.status.message
    assert panel.state.epsilon == 3.0 and panel.epsilon.value == 3.0
    panel.state.epsilon = 2.0
    assert panel.epsilon.value == 2.0
    panel.epsilon.value = 4.0
    assert panel.state.epsilon == 4.0


def test_worst_case_value_can_be_chosen(panel):
    panel.epsilon.value = 2.0
    names = [label for label, _ in panel.worst_value.options[1:]]
    assert tuple(names) == panel.profile.categories
    panel.worst_value.value = 0
    data = panel.profile.data_distribution
    height = float(panel.worst_artists.distribution.cluster[0].get_height())
    assert height == pytest.approx(min(data[0] * math.e, 1 - (1 - data[0]) / math.e))
    assert panel.config()["worst_value"] == 0


def test_switching_data_sets_picks_defaults_and_lowers_k():
    from explorer.core.datasets import load_builtin

    state = AppState()
    state.dataset = load_builtin("Synthetic normal (n=1000, m=3)")
    panel = TClosenessPanel(state=state)
    assert panel.quasi_identifiers.value == ("X1", "X2") and panel.sensitive.value == "X3"   # numeric: binned
    assert panel.profile.n_records == 1000 and len(panel.profile.categories) == 5
    state.dataset = load_builtin("Domingo-Ferrer and Muralidhar (2016) example")
    assert panel.k.value == 5 and "k lowered from 50 to 5" in panel.status.message
    assert panel.profile.n_records == 20 and np.all(panel.clustering.sizes >= 5)


def test_long_clustering_runs_in_background_with_progress(panel):
    panel.background_cost = 0                                   # every clustering counts as long
    panel.k.value = 11
    panel.wait(30)
    assert not panel.running and panel.clustering.k == 11
    assert np.all(panel.clustering.sizes >= 11) and not panel.status.is_error
    assert panel.progress.layout.display == "none" and not panel.cluster_button.disabled


def test_background_clustering_can_be_cancelled():
    rng = np.random.default_rng(1)
    n = 30000
    frame = pd.DataFrame({"x": rng.normal(size=n), "y": rng.normal(size=n), "s": rng.choice(list("abc"), n)})
    state = AppState()
    state.dataset = frame
    state.quasi_identifiers = ["x"]
    state.sensitive = ["s"]
    panel = TClosenessPanel(state=state, k=10000)                # cheap first clustering
    panel.quasi_identifiers.value = ("x", "y")
    first = panel.clustering
    panel.k.value = 2                                           # n^2/(2k) = 2.25e8: waits for the button
    assert "press Compute" in panel.status.message and panel.clustering is first
    panel.cluster_button.click()
    assert panel.running and panel.cluster_button.disabled and panel.progress.layout.display is None
    panel.cancel_button.click()
    panel.wait(60)
    assert "cancelled after" in panel.status.message and "previous view is kept" in panel.status.message
    assert panel.clustering is first and not panel.cluster_button.disabled


def test_fixed_edges_binning(panel):
    panel.quasi_identifiers.value = ("hours",)
    panel.sensitive.value = "income"
    panel.binning.value = "edges"
    assert panel.status.is_error and "edges must list at least two numbers" in panel.status.message
    panel.edges.value = "0, 25000, 35000, 1e6"
    assert not panel.status.is_error
    assert panel.profile.categories == ("[0, 25000]", "(25000, 35000]", "(35000, 1e+06]")
    panel.edges.value = "0, abc"
    assert panel.status.is_error and "edges must be numbers" in panel.status.message
    panel.edges.value = "0, 10"
    assert panel.status.is_error and "do not cover" in panel.status.message
    assert len(panel.profile.categories) == 3                    # last valid profile kept


def test_an_epsilon_move_does_not_hide_another_error(panel):
    panel.sensitive.value = "age"
    assert panel.status.is_error and "cannot be both" in panel.status.message
    panel.epsilon.value = 5.0
    assert panel.status.is_error and "cannot be both" in panel.status.message


def test_background_clustering_uses_the_shared_task_and_drops_a_moot_result(panel, small_frame, monkeypatch):
    import threading

    import explorer.panels.t_closeness as module

    assert panel.progress is panel.task.progress and panel.cancel_button is panel.task.cancel_button
    started, release = threading.Event(), threading.Event()
    real_mdav = module.mdav

    def slow_mdav(*args, **kwargs):
        started.set()
        release.wait(10)
        return real_mdav(*args, **kwargs)

    monkeypatch.setattr(module, "mdav", slow_mdav)
    panel.background_cost = 0
    panel.k.value = 12
    assert started.wait(10) and panel.running and panel.progress.layout.display is None
    monkeypatch.setattr(module, "mdav", real_mdav)
    panel.state.dataset = small_frame.iloc[:200].copy()       # a new data set while it runs
    release.set()
    panel.wait(30)
    assert not panel.running and "its result was discarded" in panel.status.message
    assert panel.progress.layout.display == "none" and not panel.cluster_button.disabled


def test_the_cluster_table_and_the_worst_cluster_sentence_are_in_users_words(panel):
    from tests.panels.readable import problems, table_texts

    panel.epsilon.value = 2.0
    html = panel.table.value
    assert problems(html) == []
    headers, cells = table_texts(html)
    assert "violates" in headers and set(cells) & {"yes", "no"}
    worst = panel._worst(panel.profile)
    label = panel.profile.categories[worst.value]
    assert f"{label} grows" in panel.summary.value or f"cannot bind: {label}" in panel.summary.value
    assert f"value {worst.value} grows" not in panel.summary.value
    # the export keeps the raw values: data, not display
    panel._on_export()
    exported = pd.read_csv(io.StringIO(panel.csv_text))
    assert exported["violates"].dtype == bool
    assert exported["distance"].tolist()[:5] == pytest.approx(np.sort(panel.profile.distances)[::-1][:5].tolist())


def test_the_worst_cluster_sentence_names_adults_occupation_label():
    from explorer.core.t_closeness import worst_case_cluster
    from explorer.panels.t_closeness import worst_note

    counts = adult()["occupation"].value_counts(sort=False)
    categories = [str(c) for c in counts.index]
    worst = worst_case_cluster(counts.to_numpy() / counts.sum(), 2.0)
    note = worst_note(worst, categories)
    assert categories[worst.value] == "Prof-specialty"          # the largest share: the best guess
    assert note.startswith("Prof-specialty grows by the full factor t = exp(ε/2) = 2.718")
    assert f"value {worst.value}" not in note
