"""The "From what I need" section of the "What does ε mean?" view: the band from the core, the shared ε set from it."""

import math

import numpy as np
import pytest

from explorer.core.epsilon_choice import choose_epsilon, repeated_reports
from explorer.panels.epsilon_meaning import EpsilonMeaningPanel
from explorer.state import AppState


@pytest.fixture
def panel():
    state = AppState(epsilon=2.0)
    state.select_dataset("UCI Adult")
    return EpsilonMeaningPanel(state)


def _ask(panel, **asked):
    with panel.busy():
        for key, value in asked.items():
            panel.choice_section.fields[key].value = str(value)
    panel.choice_section._on_inputs()


def test_the_band_is_choose_epsilon_s_for_the_reading_shown(panel):
    _ask(panel, max_best_guess=0.8, max_error=0.03)
    reading, section = panel.reading, panel.choice_section
    expected = choose_epsilon(reading.prior, reading.n, max_best_guess=0.8, max_error=0.03)
    assert (section.choice.low, section.choice.high) == (expected.low, expected.high)
    assert "Feasible band 1.45 ≤ ε ≤ 1.55, set by the best guess" in panel.status.message
    assert "lower end by accuracy" in section.lines.value
    table = panel.table("choice")
    assert table.loc["feasible band", "ε from"] == expected.low and table.loc["feasible band", "ε to"] == expected.high
    text = panel.describe("choice")
    assert "best guess ≤ 0.8: ε up to 1.55" in text and "runs from 1.45 to 1.55" in text


def test_using_the_band_sets_the_shared_epsilon_and_the_forward_reading_follows(panel):
    _ask(panel, max_best_guess=0.8, max_error=0.03)
    section = panel.choice_section
    assert section.use.description == "use ε = 1.5" and not section.use.disabled
    section.use.click()
    assert panel.state.epsilon == 1.5 and panel.reading.epsilon == 1.5 and panel.epsilon.value == 1.5
    assert section.choose(1.46) and panel.state.epsilon == 1.45          # on the sliders' step: in the band
    assert section.choose(1.54) and panel.state.epsilon == 1.54          # 1.55 is past the band (1.547): 0.01
    assert not section.choose(3.0) and panel.state.epsilon == 1.54
    assert "outside the feasible band" in panel.status.message


def test_conflicting_requirements_name_the_smallest_number_of_reports(panel):
    _ask(panel, max_best_guess=0.6, max_error=0.01)
    section = panel.choice_section
    assert not section.choice.feasible and section.use.disabled
    assert f"{section.choice.min_reports:,} reports would do" in panel.status.message
    assert "no ε meets every requirement" in panel.describe("choice")


def test_bad_text_is_refused_in_words_and_the_last_band_kept(panel):
    _ask(panel, max_odds=20)
    before = panel.choice_section.choice
    _ask(panel, max_best_guess="abc")
    assert "Best guess at most: max_best_guess must be a number, got 'abc'" in panel.status.message
    assert panel.choice_section.choice is before
    _ask(panel, max_best_guess=1.5)
    assert "max_best_guess must be <= 1" in panel.status.message and panel.choice_section.choice is before


def test_reports_per_person_divide_the_privacy_bounds_and_the_period_is_in_words(panel):
    _ask(panel, max_odds=20)
    one = panel.choice_section.choice.high
    panel.apply_config({"reports_per_person": 7, "period": "per week"})
    assert panel.choice_section.choice.high == pytest.approx(one / 7)
    assert "Each person reports 7 times per week" in panel.choice_section.lines.value
    assert panel.config()["need_max_odds"] == "20"


def test_repeated_reports_figure_is_the_core_s_curves(panel):
    table = panel.table("repeated")
    expected = repeated_reports(panel.reading.prior, 2.0)
    np.testing.assert_array_equal(table["fresh each time"].to_numpy(), expected.fresh)
    np.testing.assert_array_equal(table["memoized"].to_numpy(), expected.memoized)
    assert "stays at 0.863" in panel.describe("repeated")


def test_code_reproduces_the_band_and_the_figures(panel, tmp_path, monkeypatch):
    _ask(panel, max_odds=20, max_best_guess=0.8, min_deniability=1, max_cluster_guess=0.85, max_error=0.03)
    panel.apply_config({"reports_per_person": 2})
    monkeypatch.chdir(tmp_path)
    namespace = {}
    exec(panel.code(), namespace)
    choice = namespace["choice"]
    assert (choice.low, choice.high, choice.high_by) == (panel.choice_section.choice.low,
                                                          panel.choice_section.choice.high,
                                                          panel.choice_section.choice.high_by)
    assert (tmp_path / "epsilon-choice.png").exists()


def test_summary_includes_the_requirements_and_the_band(panel, monkeypatch):
    from explorer.plotting import epsilon_meaning as plotting

    seen = {}
    original = plotting.summary_figure

    def spy(*args, **kwargs):
        seen.update(kwargs)
        return original(*args, **kwargs)

    monkeypatch.setattr("explorer.plotting.epsilon_meaning.summary_figure", spy)
    _ask(panel, max_best_guess=0.8)
    panel._export("png")
    assert "download" in panel.download.value and seen["choice"] is panel.choice_section.choice
    assert any(line.startswith("Band: 0 <= epsilon <= 1.547") for line in seen["choice_lines"])
    assert math.isinf(choose_epsilon([1, 1]).high)


def test_code_after_a_refused_text_reproduces_the_band_shown(panel, tmp_path, monkeypatch):
    _ask(panel, max_best_guess=0.8)
    _ask(panel, max_odds="abc")
    monkeypatch.chdir(tmp_path)
    namespace = {}
    exec(panel.code(), namespace)
    assert namespace["choice"].high == panel.choice_section.choice.high and namespace["choice"].asked == (
        "max_best_guess",)


def test_the_summary_reads_the_release_the_releases_section_shows(panel, monkeypatch):
    from types import SimpleNamespace

    from explorer.plotting import epsilon_meaning as plotting

    seen = {}
    original = plotting.summary_figure
    monkeypatch.setattr("explorer.plotting.epsilon_meaning.summary_figure",
                        lambda *a, **k: seen.update(k) or original(*a, **k))
    assert panel.release_lines() == [] or hasattr(panel, "releases")
    panel.releases = SimpleNamespace(reading=SimpleNamespace(lines={
        "release": "Example: a release: ε = 4 per user per day.", "odds": "The odds move by at most 54.6."}))
    panel._export("pdf")
    assert seen["release"] == ["Example: a release: ε = 4 per user per day.", "The odds move by at most 54.6."]
