"""The "What does epsilon mean?" view: wired to the shared state, numbers from the core, errors in words."""

import math

import numpy as np
import pytest

from explorer.core import datasets
from explorer.core.epsilon_meaning import attribute_codes, read_epsilon
from explorer.errors import ExplorerError
from explorer.panels._base import AppState
from explorer.panels.epsilon_meaning import EXAMPLE3, EpsilonMeaningPanel


@pytest.fixture
def state():
    s = AppState()
    s.dataset = datasets.adult()
    s.epsilon = 2.0
    return s


def test_example3_without_a_data_set_shows_the_paper_numbers():
    panel = EpsilonMeaningPanel(AppState(epsilon=2.0))
    assert panel.attribute.value == EXAMPLE3
    assert panel.reading.cluster.distribution.round(6).tolist() == [0.543656, 0.114086, 0.114086, 0.114086, 0.114086]
    assert "0.544" in panel.lines.value and "7.4" in panel.lines.value


def test_the_view_reads_the_shared_epsilon_and_the_data_set(state):
    panel = EpsilonMeaningPanel(state, attribute="race")
    labels, codes = attribute_codes(state.dataset, "race")
    expected = read_epsilon(2.0, np.bincount(codes), labels=labels, codes=codes)
    assert panel.reading.n == len(codes)
    assert panel.reading.best_guess == pytest.approx(expected.best_guess)
    np.testing.assert_allclose(panel.reading.simulated_estimate, expected.simulated_estimate)
    state.epsilon = 0.5
    assert panel.epsilon.value == 0.5 and panel.reading.epsilon == 0.5
    assert "ε = 0.5 on race" in panel.status.message
    panel.epsilon.value = 4.0
    assert state.epsilon == 4.0 and panel.reading.epsilon == 4.0


def test_titles_name_the_inputs(state):
    panel = EpsilonMeaningPanel(state, attribute="sex")
    titles = [ax.get_title() for ax in panel.artists.axes]
    assert "sex" in titles[0] and "ε = 2" in titles[0]
    assert "2.72" in titles[1]
    assert f"n = {panel.reading.n:,}" in titles[2]


def test_forged_values_are_refused_in_words_and_the_last_view_kept(state):
    panel = EpsilonMeaningPanel(state, attribute="sex")
    before = panel.reading
    panel.epsilon.set_state({"value": -3.0})      # clamped by the widget to its min: still valid
    assert panel.reading.epsilon == 0.0
    panel.n_reports.set_state({"value": 10**9})
    assert panel.reading is not None
    panel.use_records.value = False
    panel.n_reports.value = 500
    assert panel.reading.n == 500
    assert before is not panel.reading


def test_switching_data_set_switches_the_attributes(state):
    panel = EpsilonMeaningPanel(state, attribute="race")
    state.select_dataset("Ruiz (2018) example")        # numeric only: no attribute to read, Example 3 stays
    assert panel.attribute.options == (EXAMPLE3,) and panel.attribute.value == EXAMPLE3
    assert not panel.status.is_error and panel.reading.prior.tolist() == [0.2] * 5


@pytest.mark.slow
def test_summary_exports_png_and_pdf(state):
    panel = EpsilonMeaningPanel(state, attribute="sex")
    panel.export_png.click()
    assert "data:image/png;base64," in panel.download.value
    panel.export_pdf.click()
    assert "data:application/pdf;base64," in panel.download.value


def test_infinite_shared_epsilon_is_refused_in_words():
    s = AppState(epsilon=1.0)
    panel = EpsilonMeaningPanel(s)
    with pytest.raises(ExplorerError, match="epsilon must be finite"):   # refused by the state itself
        s.epsilon = math.inf
    assert s.epsilon == 1.0 and panel.epsilon.value == 1.0
    assert panel.reading.epsilon == 1.0


def test_the_view_opens_on_an_attribute_of_the_data_set_and_example3_stays_a_choice():
    state = AppState(epsilon=1.0)
    state.select_dataset("UCI Adult")
    panel = EpsilonMeaningPanel(state)
    assert panel.attribute.value == "marital-status"
    assert EXAMPLE3 in panel.attribute.options
    panel.attribute.value = EXAMPLE3
    assert panel.reading.prior.tolist() == [0.2] * 5
