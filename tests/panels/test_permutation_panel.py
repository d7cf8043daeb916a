"""PermutationPanel: controls wired to the core; bad input shown in words, last valid state kept."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest

from explorer.core.datasets import domingo_muralidhar_example
from explorer.panels._base import AppState
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
    assert "100.41" in text and "5087.9" in text and "<b>holds</b>" in text
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


def test_sources_and_columns():
    panel = PermutationPanel(source="002")
    assert panel.analysis.extent.tolist() == [0.0, 0.6, 0.8]
    panel.source.value = "synthetic"
    panel.n.value = 300
    assert panel.analysis.X.shape == (300, 3) and panel.method.value == "additive_noise"
    panel.columns.value = ("X1", "X2")
    assert panel.analysis.X.shape == (300, 2)
    panel.source.value = "adult"
    assert panel.analysis.X.shape == (5000, 6) and "sample of 5,000" in panel.status.message
    assert panel.ties.value == "average"


def test_shared_dataset_numeric_columns_and_notice():
    state = AppState()
    frame = pd.DataFrame({"a": np.arange(30.0), "b": np.arange(30.0)[::-1] ** 2,
                          "job": pd.Categorical(["x", "y", "z"] * 10), "c": [np.nan] + list(range(29))})
    state.dataset = frame
    panel = PermutationPanel(state=state, source="shared")
    assert panel.columns.options == ("a", "b", "c")
    assert "non-numeric column(s) left out (job)" in panel.status.message
    assert "1 record(s) with missing values dropped" in panel.status.message
    assert panel.analysis.X.shape == (29, 3)
    state.dataset = frame[["a", "b"]].iloc[:10]
    assert panel.analysis.X.shape == (10, 2)


def test_upload_csv():
    panel = PermutationPanel()
    content = b"x,y,name\n1,5,a\n2,4,b\n3,3,c\n4,1,d\n5,2,e\n"
    panel.upload.value = ({"name": "t.csv", "type": "text/csv", "size": len(content), "content": memoryview(content),
                           "last_modified": __import__("datetime").datetime(2026, 1, 1)},)
    assert panel.source.value == "upload" and panel.analysis.X.shape == (5, 2)


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
    panel.record.value = 20
    assert "Record 20" in panel.subject_text.value or panel.status.is_error


def test_empty_shared_dataset_is_a_message():
    panel = PermutationPanel(source="shared")
    assert panel.status.is_error and "Data tab has no data set" in panel.status.message


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
    other.apply_config({"method": "nonsense"})
    assert "not applied: method" in other.status.message
