"""PermutationPanel: controls wired to the core; bad input shown in words, last valid state kept."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest

from explorer.core.cost import needs_compute, permutation_work
from explorer.core.datasets import domingo_muralidhar_example
from explorer.errors import ConfigurationError
from explorer.state import AppState
from explorer.panels.permutation import PermutationPanel


@pytest.fixture
def panel():
    return PermutationPanel()


def test_default_is_the_004_example_with_the_papers_masking(panel):
    a = panel.analysis
    assert panel.method.value == "paper" and not panel.status.is_error
    assert a.spearman.round(3).tolist() == [0.722, 0.844, 0.776]
    assert a.privacy.d == 1 and a.privacy.v.round(2).tolist() == [0.01, 11.07, 30.26]
    assert a.linkage.n_correct == 6
    assert "6 of 20 records correctly linked" in panel.linkage_summary.value
    assert "linkage is deniable" in panel.verdict.value and "8,000 random records" in panel.verdict.value
    t = domingo_muralidhar_example()
    np.testing.assert_array_equal(a.Z, t[["Z1", "Z2", "Z3"]].to_numpy())
    # the distance plot shows Table 6
    np.testing.assert_allclose(panel.distance_artists.original.get_data().values[:6], [0, 0, 0.2, 0.4, 0.2, 0.2])


def test_subject_view_record_3(panel):
    panel.record.value = 3
    panel.d.value = 4
    panel.v.value = "24, 896, 20167"
    text = panel.subject_text.value
    assert "permutation distance <b>4</b>" in text and "at that distance: 10." in text
    assert "100.41" in text and "5,087.9" in text and "<b>holds</b>" in text
    assert panel.subject_artists.target.get_offsets().tolist() == [[8, 2]]
    panel.v.value = "25, 896, 20167"
    assert "does not hold" in panel.subject_text.value


def test_masking_method_changes_parameter_and_results(panel):
    panel.method.value = "additive_noise"
    assert panel.parameter.description == "sd_fraction" and not panel.parameter.disabled
    assert "fraction of each attribute" in panel.parameter_doc.value
    first = panel.analysis.Y.copy()
    panel.parameter.value = 1.0
    assert not np.array_equal(first, panel.analysis.Y)
    panel.method.value = "identity"
    assert panel.parameter.disabled
    assert np.all(panel.analysis.privacy.distances.distance == 0)
    assert panel.analysis.linkage.n_correct == 20
    assert "not deniable" in panel.verdict.value
    panel.method.value = "univariate_microaggregation"
    assert panel.parameter.description == "k" and panel.parameter.value == 3


def test_attribute_choice_updates_plots_in_place(panel):
    collections = len(panel.values_artists.ax.collections)
    panel.attribute.value = "X3"
    np.testing.assert_array_equal(panel.values_artists.reverse_mapped.get_offsets()[:, 1], panel.analysis.Z[:, 2])
    assert len(panel.values_artists.ax.collections) == collections
    assert "T = 0.80" in panel.displacement_artists.label.get_text()


def _state(name="Synthetic normal (n=1000, m=3)"):
    state = AppState()
    state.select_dataset(name)
    return state


def test_data_sets_and_columns():
    state = _state("Ruiz (2018) example")
    panel = PermutationPanel(state=state)
    assert panel.analysis.extent.tolist() == [0.0, 0.6, 0.8] and panel.method.value == "paper"
    state.select_dataset("Synthetic normal (n=1000, m=3)")
    assert panel.analysis.X.shape == (1000, 3) and panel.method.value == "additive_noise"
    panel.columns.value = ("X1", "X2")
    assert panel.analysis.X.shape == (1000, 2)
    state.select_dataset("UCI Adult")                      # the Data tab's choice: followed at once
    assert panel.analysis.X.shape == (5000, 6) and "sample of 5,000" in panel.status.message
    assert panel.ties.value == "average"


def test_the_papers_example_chosen_in_the_data_tab_brings_its_masked_version():
    panel = PermutationPanel(state=_state("Domingo-Ferrer and Muralidhar (2016) example"))
    assert panel.method.value == "paper" and panel.analysis.linkage.n_correct == 6
    assert "Domingo-Ferrer and Muralidhar (2016) example, 20 records" in panel.caption.value


def test_no_upload_or_source_of_its_own():
    panel = PermutationPanel(state=_state())
    assert not hasattr(panel, "upload") and not hasattr(panel, "source")
    assert "source" not in panel.config()
    assert "Synthetic normal (n=1000, m=3)" in panel.data_name.value


def test_a_csv_upload_in_the_data_tab_is_what_the_tab_shows():
    # issue 22: after an upload the tab still showed "20 records, 3 attribute(s)" of a paper's example
    from explorer.core.datasets import load_csv
    from explorer.panels.data import DataPanel
    state = AppState()
    data = DataPanel(state, dataset="Domingo-Ferrer and Muralidhar (2016) example")
    panel = PermutationPanel(state=state)
    assert panel.analysis.X.shape == (20, 3)
    rows = "\n".join(f"{i},{(7 * i) % 11},{i % 3}" for i in range(12))
    data.load_frame(load_csv(("a,b,c\n" + rows).encode(), name="mine.csv"), "mine.csv")
    assert panel.analysis.X.shape == (12, 3) and "12 records, 3 attribute(s)" in panel.status.message
    assert "Uploaded: mine.csv" in panel.caption.value and panel.method.value != "paper"


def test_a_data_set_the_tab_cannot_use_is_said_in_words_with_a_switch():
    from explorer.core.datasets import load_csv
    state = _state("Ruiz (2018) example")
    panel = PermutationPanel(state=state)
    shown = panel.analysis
    state.use_frame(load_csv(b"name,town\nann,x\nbob,y\n", name="words.csv"), "words.csv")
    assert panel.status.is_error and "needs numeric (or ordinal) attributes" in panel.status.message
    assert "'Uploaded: words.csv' has no numeric or ordinal column" in panel.status.message
    assert panel.stale.stale and panel.analysis is shown                 # not silently other data: marked
    assert panel.switch_button.layout.display != "none"
    panel.switch_button.click()                                          # the shared data set changes
    assert state.dataset_name == "Domingo-Ferrer and Muralidhar (2016) example"
    assert panel.analysis.linkage.n_correct == 6 and not panel.stale.stale
    assert panel.switch_button.layout.display == "none"


def test_legacy_source_arguments_and_configuration_entries_are_read():
    state = AppState()
    panel = PermutationPanel(state=state, source="002")                 # an older notebook's call
    assert state.dataset_name == "Ruiz (2018) example" and panel.method.value == "paper"
    panel.apply_config({"source": "004", "seed": 3})                     # the data set stays the state's
    assert state.dataset_name == "Ruiz (2018) example" and panel.seed.value == 3
    assert not panel.status.is_error


def test_shared_dataset_numeric_columns_and_notice():
    state = AppState()
    frame = pd.DataFrame({"a": np.arange(30.0), "b": np.arange(30.0)[::-1] ** 2,
                          "job": pd.Categorical(["x", "y", "z"] * 10), "c": [np.nan] + list(range(29))})
    state.dataset = frame
    panel = PermutationPanel(state=state)
    assert panel.columns.options == ("a", "b", "c")
    assert "non-numeric column(s) left out (job)" in panel.status.message
    assert "1 record(s) with missing values dropped" in panel.status.message
    assert panel.analysis.X.shape == (29, 3)
    state.dataset = frame[["a", "b"]].iloc[:10]
    assert panel.analysis.X.shape == (10, 2)


def test_forged_sizes_are_rechecked_and_work_is_bounded_by_cost(monkeypatch):
    import explorer.panels.permutation as module
    from explorer.panels.browser import guard_widgets
    state = _state("UCI Adult")
    panel = PermutationPanel(state=state)
    guard_widgets(panel.widget, panel.status)
    valid = panel.analysis
    panel.max_records.set_state({"max": 3_000_000})
    assert panel.status.is_error and "may not set max" in panel.status.message and panel.max_records.max == 50_000
    panel.max_records.set_state({"value": 3_000_000})          # beyond the control's range: refused in words
    assert panel.status.is_error and "must be between 2 and 50000" in panel.status.message
    assert panel.max_records.value == 5_000 and panel.analysis is valid
    panel.max_records.max = 10_000_000                          # even a kernel-side slip is re-checked
    panel.max_records.value = 3_000_000
    assert panel.status.is_error and "records ≤ must be <= 50000" in panel.status.message
    assert panel.analysis is valid
    panel.max_records.max = 50_000
    monkeypatch.setattr(module, "MAX_SECONDS", 1.0)             # the cap is on the estimated cost, not on widgets
    panel.max_records.value = 30_000
    assert panel.status.is_error and "more than the 1 s allowed" in panel.status.message
    assert panel.analysis is valid


def test_bad_input_keeps_last_valid_state(panel):
    before = panel.analysis
    panel.v.value = "a lot"
    assert panel.status.is_error and "v must be numbers" in panel.status.message
    panel.v.value = "1, 2"
    assert "3 non-negative numbers" in panel.status.message
    panel.method.value = "univariate_microaggregation"
    valid = panel.analysis
    panel.parameter.value = 50                      # k larger than n = 20
    assert panel.status.is_error and "k must be <= 20, got 50" in panel.status.message
    assert panel.analysis is valid and before is not valid
    panel.method.value = "identity"
    assert not panel.status.is_error
    panel.columns.value = ()
    assert "choose at least one attribute" in panel.status.message
    panel.columns.value = ("X1",)
    panel.n_random.value = 25                       # more than n^m = 20
    assert "more than the n^m" in panel.status.message
    assert panel.analysis.X.shape == (20, 1)        # the refused n_random kept the last valid analysis
    panel.record.value = 20                         # ... which still answers the subject's view
    text = panel.subject_text.value
    assert "<b>Record 20</b>: permutation distance <b>0</b>" in text       # identity masking: Y = X
    assert "anonymized record(s) at that distance: 20." in text and "<b>holds</b>" in text
    assert "more than the n^m" in panel.status.message                     # and the refusal stays on show


def test_empty_shared_dataset_is_a_message():
    panel = PermutationPanel(state=AppState())
    assert panel.status.is_error and "no data set yet: choose one in the Data tab" in panel.status.message


def test_export_tables(panel):
    panel._on_export()
    assert set(panel.csv_texts) == {"Z", "E", "records"}
    assert panel.csv_texts["Z"].splitlines()[1].startswith("108.21,980.97,4893.5")
    assert "permutation_records.csv" in panel.download.value
    records = pd.read_csv(__import__("io").StringIO(panel.csv_texts["records"]))
    assert records["permutation distance d_i (vs Y)"].tolist()[:4] == [4, 4, 4, 4]


def test_config_roundtrip(panel):
    panel.method.value = "rank_swapping"
    panel.parameter.value = 0.3
    panel.record.value = 5
    config = panel.config()
    other = PermutationPanel()
    other.apply_config(config)
    assert other.method.value == "rank_swapping" and other.parameter.value == pytest.approx(0.3)
    assert other.record.value == 5
    np.testing.assert_array_equal(other.analysis.Y, panel.analysis.Y)
    assert other.config() == config
    shown = other.analysis
    # refused whole, in words naming the key and the value (the Panel contract); every control keeps its value
    with pytest.raises(ConfigurationError, match="method must be one of .* got 'nonsense'"):
        other.apply_config({"method": "nonsense", "seed": 9})
    assert other.config() == config and other.analysis is shown


def test_a_configuration_sets_the_parameter_of_its_own_masking_method(panel):
    panel.apply_config({"method": "univariate_microaggregation", "parameter": 5})
    assert panel.parameter.value == 5 and panel.parameter.description == "k"
    assert "k = 5" in panel.caption.value and not panel.status.is_error
    with pytest.raises(ConfigurationError, match="parameter .* must be a number between 0 and 0.49, got 0.7"):
        panel.apply_config({"method": "top_bottom_coding", "parameter": 0.7})
    assert panel.method.value == "univariate_microaggregation" and panel.parameter.value == 5


def test_staged_analysis_is_the_core_analysis():
    from explorer.core.permutation import permutation_analysis
    from explorer.panels.permutation import staged_analysis
    t = domingo_muralidhar_example()
    X, Y = t[["X1", "X2", "X3"]], t[["Y1", "Y2", "Y3"]].rename(columns=lambda c: c.replace("Y", "X"))
    for ties, n_random in (("random", "all"), ("average", 500)):
        stages = []
        a = staged_analysis(X, Y, n_random=n_random, ties=ties, rng=np.random.default_rng(7), step=stages.append)
        b = permutation_analysis(X, Y, n_random=n_random, ties=ties, rng=np.random.default_rng(7))
        assert stages == ["reverse mapping", "rank displacement", "distances", "linkage", "random records"]
        for field in ("X", "Y", "Z", "E", "spearman", "extent", "displacement"):
            np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
        np.testing.assert_array_equal(a.privacy.distances.distance, b.privacy.distances.distance)
        assert a.linkage.n_correct == b.linkage.n_correct
        assert a.verification.hellinger == b.verification.hellinger
        pd.testing.assert_frame_equal(a.record_table(), b.record_table())


def test_the_compute_rule_keeps_default_sizes_synchronous():
    # the one rule of every tab (explorer.core.cost.needs_compute), replacing the panel's own 0.6 s threshold
    assert not needs_compute(permutation_work(20, 3, 8000))                 # the paper's example, all random records
    assert not needs_compute(permutation_work(1000, 3, 10_000))             # default synthetic sample
    assert not needs_compute(permutation_work(5000, 6, 10_000))             # default Adult sample
    assert needs_compute(permutation_work(32_561, 6, 10_000))               # full Adult
    assert needs_compute(permutation_work(50_000, 3, 10_000))               # 50,000 synthetic records
    assert needs_compute(permutation_work(1000, 2, 1_000_000))              # 'all' random records of 1000^2
    assert needs_compute(permutation_work(10_000, 6, 10_000, "multivariate_microaggregation", 3))


@pytest.fixture
def large_panel():
    state = _state("UCI Adult")
    panel = PermutationPanel(state=state)
    panel.columns.value = ("age", "fnlwgt", "hours-per-week")
    return panel


def _large(panel):
    """Adult, 30,000 records x 3 attributes: above the one Compute rule (1 s of reference work)."""
    panel.max_records.value = 1000
    small = panel.analysis
    assert small.X.shape == (1000, 3) and panel.compute_button.layout.display == "none"
    panel.max_records.value = 30_000
    return small


def test_large_input_waits_for_compute_then_runs_in_the_background(large_panel):
    panel = large_panel
    small = _large(panel)
    assert panel.analysis is small and panel.compute_button.layout.display is None
    assert "Large input: 30,000 records × 3 attribute(s) with 10,000 random records" in panel.status.message
    assert panel.stale.stale and "out of date: press Compute" in panel.stale.widget.value   # the view says so
    assert "explorer-stale" in panel.values_canvas._dom_classes
    assert not panel.task.running
    panel.attribute.value = "fnlwgt"                   # the last view still answers
    assert not panel.status.is_error
    panel.compute_button.click()
    assert panel.compute_button.disabled and panel.task.widget.layout.display is None
    assert "in the background" in panel.status.message
    panel.task.wait(120)
    assert not panel.task.running and panel.analysis.X.shape == (30_000, 3)
    assert panel.task.progress.value == 1.0 and panel.task.widget.layout.display == "none"
    assert panel.compute_button.layout.display == "none" and not panel.compute_button.disabled
    assert panel.status.message.startswith("30,000 records, 3 attribute(s).") and not panel.status.is_error
    assert not panel.stale.stale and "explorer-stale" not in panel.values_canvas._dom_classes
    assert "random records" in panel.verdict.value and panel.record.max == 30_000
    # the same analysis as a synchronous run of the same controls
    from explorer.core.permutation import permutation_analysis
    cols = ["age", "fnlwgt", "hours-per-week"]
    Y = pd.DataFrame(panel._masked(panel.X[cols]), columns=cols)
    direct = permutation_analysis(panel.X[cols], Y, n_random=10_000, ties=panel.ties.value, rng=panel._rng("analysis"))
    np.testing.assert_array_equal(panel.analysis.Z, direct.Z)
    assert panel.analysis.linkage.n_correct == direct.linkage.n_correct


def test_cancel_keeps_the_previous_view_and_compute_can_be_pressed_again(large_panel):
    panel = large_panel
    small = _large(panel)
    panel.compute_button.click()
    panel.task.cancel_button.click()
    panel.task.wait(120)
    assert panel.analysis is small and "Cancelled" in panel.status.message and not panel.status.is_error
    assert panel.compute_button.layout.display is None and not panel.compute_button.disabled
    panel.compute_button.click()
    panel.task.wait(120)
    assert panel.analysis.X.shape == (30_000, 3)


def test_changed_controls_drop_a_running_analysis(large_panel):
    panel = large_panel
    _large(panel)
    panel.compute_button.click()
    panel.max_records.value = 300                   # small again: computed at once
    assert panel.analysis.X.shape == (300, 3)
    panel.task.wait(120)
    assert panel.analysis.X.shape == (300, 3) and panel.compute_button.layout.display == "none"
    assert panel.status.message.startswith("300 records")


def test_errors_in_the_background_are_a_message(large_panel, monkeypatch):
    import explorer.panels.permutation as module
    from explorer.errors import InvalidParameterError
    panel = large_panel
    panel.max_records.value = 10_000
    panel.n_random.value = 100_000                              # (above the one Compute rule of 1 s)
    panel.method.value = "multivariate_microaggregation"
    assert panel.compute_button.layout.display is None          # MDAV on 10,000 records: estimated slow
    valid = panel.analysis

    def refuse(*args, **kwargs):
        raise InvalidParameterError("k must be <= 9, got 10")

    monkeypatch.setattr(module, "mask", refuse)
    panel.seed.value = 2
    panel.compute_button.click()
    panel.task.wait(120)
    assert panel.status.is_error and panel.status.message == "k must be <= 9, got 10"
    assert panel.analysis is valid and not panel.compute_button.disabled


def test_a_long_typed_value_is_not_echoed_whole(panel):
    panel.v.value = "1, " * 300_000 + "x"
    assert panel.status.is_error and "v must be numbers" in panel.status.message
    assert len(panel.status.message) < 200


def test_the_tables_are_in_users_words(panel):
    from tests.panels.readable import problems, table_texts

    assert problems(panel.record_table.value) == []
    headers, cells = table_texts(panel.record_table.value)
    assert "permutation distance di (vs Y)" in headers and "records at di" in headers
    assert "d<sub>i</sub>" in panel.record_table.value
    assert set(cells) & {"yes", "no"}                      # the "correct link" column
    panel.record.value = 3
    assert problems(panel.subject_text.value) == []


def test_large_variances_are_plain_numbers_in_the_summary_and_the_v_box(panel):
    import dataclasses
    import re

    a = panel.analysis                      # the paper's example: v = (0.01, 11.07, 30.26); scaled to 10^4 .. 10^7
    big = dataclasses.replace(a, privacy=dataclasses.replace(a.privacy, v=a.privacy.v * 1e6))
    panel._show(big)
    assert panel.analysis is big
    from explorer.panels._format import format_value
    assert "v = (" + ", ".join(format_value(x) for x in big.privacy.v) + ")" in panel.summary.value
    assert max(big.privacy.v) > 1e7
    assert not re.search(r"\d[eE][+-]?\d", panel.summary.value)
    assert not re.search(r"\d[eE][+-]?\d", panel.v.value)
    np.testing.assert_allclose([float(x) for x in panel.v.value.split(",")], big.privacy.v, rtol=1e-3)


def test_a_superseded_background_result_never_reaches_the_views(panel, monkeypatch):
    """Compute pressed, the controls changed while it runs: its result is dropped by the task, not shown."""
    import threading

    import explorer.panels.permutation as module

    monkeypatch.setattr(module.PermutationPanel, "needs_compute", lambda self, units: True)   # all wait for Compute
    shown = panel.analysis
    started, release, returned = threading.Event(), threading.Event(), []
    real = module.staged_analysis

    def blocking(X, Y, **kwargs):
        started.set()
        assert release.wait(30)
        kwargs["step"] = lambda stage: None               # ignore stops: the result must be dropped on arrival
        returned.append(real(X, Y, **kwargs))
        return returned[-1]

    monkeypatch.setattr(module, "staged_analysis", blocking)
    panel.seed.value = 5
    assert panel.compute_button.layout.display is None and panel.stale.stale
    panel.compute_button.click()
    assert started.wait(30) and panel.task.running
    panel.seed.value = 6                                  # newer controls while it runs
    assert "Large input" in panel.status.message
    release.set()
    panel.task.wait(60)
    assert not panel.task.running and returned            # it finished with a result for seed 5 ...
    assert panel.analysis is shown and panel.analysis is not returned[0]    # ... which never reached the views
    assert panel.stale.stale and "Large input" in panel.status.message and not panel.status.is_error
    assert "seed 5" not in panel.caption.value
    monkeypatch.setattr(module, "staged_analysis", real)
    panel.compute_button.click()                          # the current controls (seed 6) are shown when computed
    panel.task.wait(60)
    assert panel.analysis is not shown and not panel.stale.stale and "seed 6" in panel.caption.value


# ---------------------------------------------------------------------- the Panel contract: hooks and code()

def test_each_figure_says_in_words_and_numbers_what_it_draws(panel):
    from explorer.panels.base import Panel

    assert isinstance(panel, Panel) and panel.missing_hooks() == []
    a = panel.analysis
    panel.attribute.value = "X2"
    values = panel.table("values")
    np.testing.assert_array_equal(values["masked y"], a.Y[:, 1])
    np.testing.assert_array_equal(values["reverse-mapped z"], a.Z[:, 1])
    assert "attribute X2 for 20 records" in panel.describe("values")
    displacement = panel.table("displacement")["rank displacement r"]
    np.testing.assert_array_equal(displacement, np.sort(np.round(a.displacement[:, 1])))
    assert f"T = {a.extent[1]:.2f}" in panel.describe("displacement")
    distances = panel.table("distances")
    np.testing.assert_allclose(distances["original records"], a.verification.original_frequency)
    assert "8,000 random records" in panel.describe("distances")
    assert f"Hellinger distance = {a.verification.hellinger:.3f}" in panel.describe("distances")
    panel.record.value = 3
    panel.d.value = 4
    subject = panel.table("subject")
    np.testing.assert_allclose(subject["variance within d"], [24.7, 896.76, 20167.78], atol=0.005)
    assert "half-width 4, her permutation distance" in panel.describe("subject")
    assert "circled: 10." in panel.describe("subject")
    assert len(panel.export_figure("subject", "svg")) > 1000


def _run(code, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace = {}
    exec(code, namespace)
    assert (tmp_path / "permutation.png").exists()
    assert "explorer.panels" not in code and "state" not in code
    return namespace


def test_code_reproduces_the_papers_example(panel, tmp_path, monkeypatch):
    panel.record.value = 3
    panel.d.value = 4
    panel.v.value = "24, 896, 20167"
    namespace = _run(panel.code(), tmp_path, monkeypatch)
    a, b = panel.analysis, namespace["analysis"]
    for field in ("X", "Y", "Z", "spearman", "extent", "displacement"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
    assert b.linkage.n_correct == 6 and b.verification.hellinger == a.verification.hellinger
    assert namespace["subject"].satisfies and namespace["subject"].distance == panel.subject.distance


def test_code_reproduces_a_masked_sample(tmp_path, monkeypatch):
    panel = PermutationPanel(state=_state())
    panel.apply_config({"max_records": 300, "method": "rank_swapping", "parameter": 0.1, "seed": 4,
                        "columns": ["X1", "X3"], "record": 7})
    assert panel.analysis.X.shape == (300, 2) and not panel.status.is_error
    namespace = _run(panel.code(), tmp_path, monkeypatch)
    a, b = panel.analysis, namespace["analysis"]
    for field in ("X", "Y", "Z", "displacement"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
    np.testing.assert_array_equal(a.privacy.distances.distance, b.privacy.distances.distance)
    assert a.linkage.n_correct == b.linkage.n_correct and a.verification.hellinger == b.verification.hellinger
    np.testing.assert_array_equal(namespace["subject"].variances, panel.subject.variances)


def test_a_configuration_s_attribute_and_record_follow_its_own_columns_and_size():
    panel = PermutationPanel(state=_state())
    panel.apply_config({"max_records": 300, "columns": ["X1", "X2"]})
    assert panel.attribute.options == ("X1", "X2") and panel.record.max == 300          # a sample of 300
    panel.apply_config({"columns": ["X1", "X3"], "attribute": "X3", "record": 12})
    assert panel.attribute.value == "X3" and panel.attribute.options == ("X1", "X3")
    np.testing.assert_array_equal(panel.table("values")["reverse-mapped z"], panel.analysis.Z[:, 1])
    assert panel.record.value == 12 and not panel.status.is_error
    state = _state("UCI Adult")
    adult = PermutationPanel(state=state)
    adult.apply_config({"max_records": 300})
    adult.apply_config({"max_records": 600, "record": 450})
    assert adult.analysis.X.shape[0] == 600 and adult.record.value == 450 and "Record 450" in adult.subject_text.value
    with pytest.raises(ConfigurationError, match="attribute must be one of"):
        adult.apply_config({"attribute": "income"})
