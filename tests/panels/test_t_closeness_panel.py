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
from explorer.core.closeness import closeness_for_epsilon
from explorer.errors import ConfigurationError
from explorer.state import AppState
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
    assert panel.k.value == 100000                                 # refused in words, never clamped
    assert panel.status.is_error and "k: 0 is outside the range 1 to 10,000,000; it stays 100,000." in \
        panel.status.message
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
    with pytest.raises(ConfigurationError, match="method must be one of .* got 'nonsense'"):   # the Panel contract
        other.apply_config({"method": "nonsense"})
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
    from explorer.panels.browser import guard_widgets

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


def test_switching_data_sets_shows_the_states_marks_and_lowers_k():
    from explorer.core.datasets import load_builtin

    state = AppState()
    state.dataset = load_builtin("Synthetic normal (n=1000, m=3)")
    panel = TClosenessPanel(state=state)
    # no marks in the state: the tab picks none of its own, says so and offers UCI Adult
    assert panel.quasi_identifiers.value == () and panel.sensitive.value is None
    assert panel.status.is_error and "needs quasi-identifiers and a sensitive attribute" in panel.status.message
    assert panel.switch_button.layout.display != "none" and panel.profile is None
    state.set_marks(["X1", "X2"], ["X3"])                     # marked in the Data tab: the tab follows
    assert panel.quasi_identifiers.value == ("X1", "X2") and panel.sensitive.value == "X3"   # numeric: binned
    assert panel.switch_button.layout.display == "none" and not panel.status.is_error
    assert panel.profile.n_records == 1000 and len(panel.profile.categories) == 5
    state.dataset = load_builtin("Domingo-Ferrer and Muralidhar (2016) example")
    assert panel.k.value == 5 and "k lowered from 50 to 5" in panel.status.message
    assert panel.profile.n_records == 20 and np.all(panel.clustering.sizes >= 5)


def test_long_clustering_runs_in_background_with_progress(panel):
    panel.needs_compute = lambda units: True                    # every clustering counts as long
    panel.k.value = 11
    assert "press Compute" in panel.status.message
    panel.cluster_button.click()
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
    panel.needs_compute = lambda units: True                    # every clustering counts as long
    panel.k.value = 12
    panel.cluster_button.click()
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
    html = panel.table_html.value
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
    from explorer.core.closeness import worst_case_cluster
    from explorer.panels.t_closeness import worst_note

    counts = adult()["occupation"].value_counts(sort=False)
    categories = [str(c) for c in counts.index]
    worst = worst_case_cluster(counts.to_numpy() / counts.sum(), 2.0)
    note = worst_note(worst, categories)
    assert categories[worst.value] == "Prof-specialty"          # the largest share: the best guess
    assert note.startswith("Prof-specialty grows by the full factor t = exp(ε/2) = 2.718")
    assert f"value {worst.value}" not in note


def test_choosing_uci_adult_puts_its_default_marks_in_the_state_and_the_tab_shows_them():
    # issue 22: the tab showed age, education-num, hours-per-week, sex / income while the state held none
    state = AppState()
    state.select_dataset("Ruiz (2018) example")
    panel = TClosenessPanel(state=state)
    state.select_dataset("UCI Adult")
    marks = (["age", "education-num", "hours-per-week", "sex"], ["income"])
    assert (state.quasi_identifiers, state.sensitive) == marks
    config = state.to_config()
    assert (config["quasi_identifiers"], config["sensitive"]) == marks
    assert panel.quasi_identifiers.value == tuple(marks[0]) and panel.sensitive.value == "income"


def test_the_tab_edits_the_states_marks_not_a_copy():
    state = AppState()
    state.select_dataset("UCI Adult")
    panel = TClosenessPanel(state=state)
    panel.quasi_identifiers.value = ("age", "sex")
    panel.sensitive.value = "race"
    assert state.quasi_identifiers == ["age", "sex"] and state.sensitive[0] == "race"
    state.set_marks(["age"], ["occupation"])                  # the Data tab's marks: shown here at once
    assert panel.quasi_identifiers.value == ("age",) and panel.sensitive.value == "occupation"


def test_a_data_set_without_marks_is_said_in_words_and_the_switch_brings_adult():
    state = AppState()
    state.select_dataset("UCI Adult")
    panel = TClosenessPanel(state=state)
    shown = panel.profile
    state.select_dataset("Ruiz (2018) example")
    assert panel.status.is_error and "'Ruiz (2018) example' has no quasi-identifier and no sensitive attribute" \
        in panel.status.message
    assert panel.stale.stale and panel.profile is None and shown is not None
    panel.switch_button.click()
    assert state.dataset_name == "UCI Adult" and state.sensitive == ["income"]
    assert panel.profile is not None and not panel.stale.stale and not panel.status.is_error


# ---------------------------------------------------------------------- the Panel contract: figures, code, config
def _numbers(text):
    import re
    return [float(x) for x in re.findall(r"(?<![\w.])\d+\.\d{3}(?!\d)", text)]


@pytest.fixture(scope="module")
def adult_panel():
    state = AppState()
    state.select_dataset("UCI Adult")
    state.epsilon = 2.0
    return TClosenessPanel(state=state)


def test_nothing_is_missing_from_the_contract(adult_panel):
    assert adult_panel.missing_hooks() == []
    assert [view.key for view in adult_panel.figures()] == ["ratios", "deniability", "distribution", "worst"]


def test_the_ratio_figure_s_text_and_table_are_the_distances_drawn(adult_panel):
    panel, profile = adult_panel, adult_panel.profile
    table = panel.table("ratios")
    drawn = panel.ratio_artists.violating.get_data().values.tolist() + panel.ratio_artists.ok.get_data().values.tolist()
    finite = np.isfinite(table["distance"].to_numpy())
    np.testing.assert_array_equal(table["distance"].to_numpy()[finite], np.array(drawn)[finite])
    assert int(table["violates"].sum()) == panel.n_violating == 290
    text = panel.describe("ratios")
    assert f"of each of {profile.n_clusters:,} clusters" in text and f"{panel.n_violating:,} exceed t" in text
    assert "86 at infinite distance" in text and "t = 2.718" in text


def test_the_deniability_figure_s_text_and_table_are_the_entropies_drawn(adult_panel):
    panel, profile = adult_panel, adult_panel.profile
    table = panel.table("deniability")
    np.testing.assert_array_equal(table["H(S|cluster) bits"].to_numpy(),
                                  panel.deniability_artists.entropies.get_data().values)
    text = panel.describe("deniability")
    h = table["H(S|cluster) bits"]
    assert _numbers(text)[:5] == pytest.approx([round(h.iloc[0], 3), round(h.iloc[-1], 3),
                                                round(profile.conditional_entropy, 3), round(profile.data_entropy, 3),
                                                round(profile.max_entropy, 3)], abs=5e-4)
    assert profile.max_entropy == 1.0                                   # log2 r, r = 2 income values


def test_the_selected_cluster_and_worst_cluster_texts_and_tables_are_the_bars_drawn(adult_panel):
    panel = adult_panel
    panel.selected.value = 5
    table = panel.table("distribution")
    np.testing.assert_array_equal(table.iloc[:, 1].to_numpy(),
                                  [bar.get_height() for bar in panel.distribution_artists.cluster])
    np.testing.assert_array_equal(table["whole data set"].to_numpy(),
                                  [bar.get_height() for bar in panel.distribution_artists.data])
    text = panel.describe("distribution")
    assert "number 6 of 651" in text and all(f"{v:.3f}" in text for v in table.iloc[:, 1])
    worst = panel.table("worst")
    np.testing.assert_array_equal(worst["worst admissible cluster"].to_numpy(),
                                  [bar.get_height() for bar in panel.worst_artists.distribution.cluster])
    text = panel.describe("worst")
    assert all(f"{v:.3f}" in text for v in worst["worst admissible cluster"]) and "t = exp(ε/2) = 2.718" in text
    panel.worst_value.value = 1                                          # raise >50K: Example 3 on Adult
    assert panel.table("worst")["worst admissible cluster"].iloc[1] == pytest.approx(0.24081 * math.e, abs=1e-4)
    assert ">50K grows by the full factor" in panel.describe("worst")
    panel.worst_value.value = -1
    panel.selected.value = 0


def test_the_ratio_description_gives_the_epsilon_the_closeness_level_certifies(panel):
    from explorer.core.closeness import epsilon_for_closeness

    panel.method.value = "t_close"
    level = panel.profile.max_distance
    assert math.isfinite(level)
    assert f"ε = {epsilon_for_closeness(level):.3f}" in panel.describe("ratios")
    assert f"ε = 2 ln d = {epsilon_for_closeness(level):.3f}" in panel.summary.value


@pytest.mark.parametrize("method, distance", [("mdav", "ratio"), ("t_close", "emd"), ("group_by", "ratio")])
def test_code_reproduces_the_view(tmp_path, monkeypatch, method, distance):
    state = AppState()
    state.select_dataset("UCI Adult")
    state.epsilon = 1.5
    panel = TClosenessPanel(state=state, k=100)
    if method == "group_by":
        panel.quasi_identifiers.value = ("sex", "race")
    panel.distance.value = distance
    panel.method.value = method
    panel.worst_value.value = 1
    panel.selected.value = 3
    assert not panel.status.is_error and panel.clustering.method.startswith(method.replace("t_close", "t_close_"))
    monkeypatch.chdir(tmp_path)
    namespace = {}
    exec(panel.code(), namespace)
    profile = namespace["profile"]
    np.testing.assert_array_equal(profile.distances, panel.profile.distances)
    assert namespace["count"].n_over == panel.n_violating
    np.testing.assert_array_equal(namespace["worst"].distribution, panel.worst.distribution)
    assert namespace["selected"] == panel._order[3]
    assert (tmp_path / "t_closeness.png").exists()
    assert "explorer.panels" not in panel.code() and "state" not in panel.code()


def test_the_configuration_keeps_the_k_asked_for_and_sets_the_cluster_and_value_after_the_clustering():
    from explorer.core.datasets import load_builtin

    state = AppState()
    state.select_dataset("UCI Adult")
    panel = TClosenessPanel(state=state)
    state.dataset = load_builtin("Domingo-Ferrer and Muralidhar (2016) example")
    assert panel.k.value == 5 and panel.config()["k"] == 50              # lowered for a while, asked for: 50
    other = TClosenessPanel()                                            # a panel of its own: UCI Adult
    other.apply_config({"binning": "quantile", "bins": 3, "method": "mdav", "k": 60, "selected": 10_000,
                        "worst_value": 1})
    assert other.k.value == 60 and other.config()["k"] == 60
    assert other.selected.value == other.profile.n_clusters - 1          # beyond the last: the last
    assert other.worst_value.value == 1 and other.config()["worst_value"] == 1
    for bad, words in (({"selected": 1.5}, "selected must be a whole number, got 1.5"),
                       ({"worst_value": "x"}, "worst_value must be a whole number, got 'x'"),
                       ({"k": 0}, "k must be between 1 and 10,000,000, got 0")):
        with pytest.raises(ConfigurationError, match=words):
            other.apply_config(bad)
    assert other.k.value == 60
    other.apply_config({"quasi_identifiers": ["age"], "sensitive": "race", "k": 70})   # an older configuration
    assert other.k.value == 70 and other.quasi_identifiers.value == tuple(other.state.quasi_identifiers)
    assert other.sensitive.value == "income"                             # the marks are the state's


def test_the_figures_say_in_words_when_there_is_no_clustering():
    from explorer.core.datasets import load_builtin

    state = AppState()
    state.dataset = load_builtin("Synthetic normal (n=1000, m=3)")
    panel = TClosenessPanel(state=state)
    for index in range(4):
        assert panel.describe(index).startswith("The figure shows no current clustering: This tab needs")
        assert panel.table(index).empty
