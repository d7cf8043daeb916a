"""The "What does epsilon mean?" view: wired to the shared state, numbers from the core, errors in words."""

import math
import re

import numpy as np
import pytest

from explorer.core import datasets
from explorer.core.epsilon_meaning import attribute_codes, read_epsilon
from explorer.errors import ConfigurationError, ExplorerError
from explorer.state import AppState
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


# ---------------------------------------------------------------------- the Panel contract: figures, code, config


def _numbers(text):
    return [float(x) for x in re.findall(r"(?<![\w.])\d+\.\d{3}(?!\d)", text)]


def _bar_heights(bars):
    return [bar.get_height() for bar in bars]


@pytest.mark.parametrize("attribute", [None, "race"])
def test_each_figure_s_description_and_table_are_the_bars_drawn(state, attribute):
    panel = EpsilonMeaningPanel(state, attribute=attribute) if attribute else EpsilonMeaningPanel(AppState(epsilon=2.0))
    a = panel.artists
    drawn = {"deniability": (a.prior_bars, a.posterior_bars), "t-closeness": (a.data_bars, a.cluster_bars),
             "accuracy": (a.truth_bars, a.estimate_bars)}
    assert [view.key for view in panel.figures()][:3] == list(drawn)
    for index, (key, bars) in enumerate(drawn.items()):
        table = panel.table(key)
        assert table.index.tolist() == list(panel.reading.labels)
        for column, series in zip(table.columns, bars):
            np.testing.assert_array_equal(table[column].to_numpy(), _bar_heights(series))
        expected = [round(v, 3) for column in table.columns[:2] for v in table[column]]
        if key == "accuracy":
            _, _, (segments,) = a.bound.lines
            ends = [y for segment in segments.get_segments() for y in (segment[0][1], segment[1][1])]
            np.testing.assert_allclose(table[["bound low", "bound high"]].to_numpy().ravel(), ends)
            expected += [round(v, 3) for v in ends]
        text = panel.describe(index)
        chart = text[text.index("Bar chart"):]          # the deniability text opens with its reading in words
        assert _numbers(chart) == pytest.approx(expected, abs=5e-4), key
        assert panel.reading.labels[0] in text
        if key == "deniability":                         # "a rises from 0.20 to 0.41; ...; right with probability 0.41"
            report = panel.reading.labels[panel.reading.worst_report]
            before, after = table.iloc[:, 0][report], table.iloc[:, 1][report]
            assert f"{report} rises from {before:.2f} to {after:.2f}" in text
            assert f"right with probability {table.iloc[:, 1].max():.2f}" in text


def test_the_description_follows_the_view():
    state = AppState(epsilon=2.0)
    panel = EpsilonMeaningPanel(state)
    assert "0.544" in panel.describe("t-closeness") and "2.72" in panel.describe("t-closeness")   # Example 3
    state.epsilon = 0.5
    assert "0.544" not in panel.describe("t-closeness") and "ε = 0.5" in panel.describe("deniability")
    assert _numbers(panel.describe("t-closeness"))[5:] == pytest.approx(
        [round(h, 3) for h in _bar_heights(panel.artists.cluster_bars)], abs=5e-4)


def test_nothing_is_missing_from_the_contract():
    assert EpsilonMeaningPanel(AppState()).missing_hooks() == []


@pytest.mark.parametrize("use_records", [True, False])
def test_code_reproduces_the_reading_shown(tmp_path, monkeypatch, use_records):
    state = AppState(epsilon=1.5)
    state.select_dataset("UCI Adult")
    panel = EpsilonMeaningPanel(state, attribute="sex")
    panel.apply_config({"use_records": use_records, "n": 700})
    monkeypatch.chdir(tmp_path)
    namespace = {}
    exec(panel.code(), namespace)
    reading = namespace["reading"]
    assert reading.epsilon == 1.5 and reading.labels == panel.reading.labels and reading.n == panel.reading.n
    np.testing.assert_array_equal(reading.simulated_estimate, panel.reading.simulated_estimate)
    assert (tmp_path / "epsilon.png").exists()
    assert "explorer.panels" not in panel.code() and "state" not in panel.code()


def test_code_of_example3_reproduces_it(tmp_path, monkeypatch):
    panel = EpsilonMeaningPanel(AppState(epsilon=2.0))
    monkeypatch.chdir(tmp_path)
    namespace = {}
    exec(panel.code(), namespace)
    np.testing.assert_array_equal(namespace["reading"].cluster.distribution, panel.reading.cluster.distribution)


#: The configuration of the "From what I need" section when nothing is asked.
NOTHING_ASKED = {"need_max_odds": "", "need_max_best_guess": "", "need_min_deniability": "",
                 "need_max_cluster_guess": "", "need_max_error": "", "reports_per_person": 1, "period": "per day",
                 "release": "google-symptoms", "release_periods": 7}


def test_config_round_trip_and_refusals_keep_the_view(state):
    panel = EpsilonMeaningPanel(state, attribute="race")
    assert panel.config() == {"attribute": "race", "n": 1000, "use_records": True, **NOTHING_ASKED}
    panel.apply_config({"attribute": "sex", "n": 500, "use_records": False})
    assert panel.config() == {"attribute": "sex", "n": 500, "use_records": False, **NOTHING_ASKED}
    assert panel.reading.n == 500 and not panel.n_reports.disabled
    other = EpsilonMeaningPanel(state)
    other.apply_config(panel.config())
    assert other.config() == panel.config() and other.reading.n == 500
    before = panel.reading
    for bad, words in (({"attribute": "nope", "n": 20}, "attribute must be one of"),
                       ({"n": 5}, "n must be between 10 and 1,000,000, got 5"),
                       ({"use_records": "yes"}, "use_records must be true or false, got 'yes'")):
        with pytest.raises(ConfigurationError, match=words):
            panel.apply_config(bad)
        assert panel.config() == {"attribute": "sex", "n": 500, "use_records": False, **NOTHING_ASKED}
        assert panel.reading is before


def test_each_figure_exports():
    """Each figure drawn once for a slide, as Panel.export_figure draws it, and written in each format (PNG,
    PDF, SVG; export_figure itself is tests/panels/test_slides.py's)."""
    from explorer.panels import slides

    panel = EpsilonMeaningPanel(AppState(epsilon=1.0))
    for index, view in enumerate(panel.figures()):
        figure = slides.slide_figure(view, panel.figure_caption(index))
        for fmt in slides.MIME:
            assert len(slides.write_figure(figure, fmt, slides.SLIDE_DPI)) > 1000, (view.key, fmt)


def test_code_of_a_data_set_without_a_name_says_so(state):
    code = EpsilonMeaningPanel(state, attribute="sex").code()
    assert 'load_csv("data.csv")' in code and "no name to load it by" in code


# ------------------------------------------------------------------ the release picked is part of the configuration
def test_the_release_picked_round_trips_through_the_configuration(state):
    panel = EpsilonMeaningPanel(state, attribute="race")
    panel.releases.release.value = "linkedin-audience"
    panel.releases.periods.value = 3
    config = panel.config()
    assert config["release"] == "linkedin-audience" and config["release_periods"] == 3
    other = EpsilonMeaningPanel(state)
    other.apply_config(config)
    assert other.config() == config
    assert other.releases.reading.release["key"] == "linkedin-audience"
    assert other.releases.reading.composed_epsilon == pytest.approx(3 * 34.9)


def test_a_loaded_local_release_is_read_on_the_attribute_loaded_with_it(state):
    panel = EpsilonMeaningPanel(state, attribute="race")
    panel.apply_config({"attribute": "sex", "release": "google-chrome-rappor"})
    labels, _ = attribute_codes(state.dataset, "sex")
    assert panel.releases.reading.rr.labels == tuple(labels)
    assert "On sex" in panel.releases.reading.lines["deniability"]


@pytest.mark.parametrize("bad, words", [
    ({"release": "made-up-release"}, r"release must be one of \['google-symptoms', .*, got 'made-up-release'"),
    ({"attribute": "sex", "release": "census 2020"}, r"release must be one of .*, got 'census 2020'"),
    ({"release": 3}, "release must be one of .*, got 3"),
    ({"release_periods": 0}, "release_periods must be between 1 and 3,650, got 0"),
])
def test_an_unknown_release_is_refused_in_words_and_nothing_changes(state, bad, words):
    panel = EpsilonMeaningPanel(state, attribute="race")
    panel.releases.release.value = "census-2010-ddp-persons"
    before, reading, lines = panel.config(), panel.releases.reading, panel.releases.lines.value
    with pytest.raises(ConfigurationError, match=words):
        panel.apply_config(bad)
    assert panel.config() == before and panel.releases.reading is reading and panel.releases.lines.value == lines


def test_the_summary_page_prints_the_requirements_the_band_and_the_release_read(state):
    from explorer.core.epsilon_choice import choice_summary_lines
    from explorer.core.epsilon_meaning import epsilon_summary_lines
    from explorer.plotting.epsilon_meaning import summary_figure

    panel = EpsilonMeaningPanel(state, attribute="sex")
    with panel.busy():
        panel.choice_section.fields["max_odds"].value = "3"
        panel.choice_section.fields["max_best_guess"].value = "0.8"
    panel.choice_section._on_inputs()
    for key in ("census-2020-redistricting", "google-chrome-rappor", "linkedin-audience"):
        panel.releases.release.value = key
        section = panel.choice_section
        figure = summary_figure(panel.reading, epsilon_summary_lines(panel.reading, "sex"), "sex",
                                choice=section.choice, choice_lines=choice_summary_lines(section.choice, "per day"),
                                release=panel.release_lines())
        texts = []
        stack = [figure]
        while stack:
            sub = stack.pop()
            texts += [text.get_text() for text in sub.texts]
            stack += list(getattr(sub, "subfigs", []))
        page = " ".join(" ".join(texts).split())
        lines = panel.releases.reading.lines
        asked = choice_summary_lines(section.choice, "per day")
        assert asked[0] == "Asked: odds ≤ 3; best guess ≤ 0.8." and any(line.startswith("Band: ") for line in asked)
        for line in asked:                       # the requirements and the band, whole
            assert line in page, line
        for name in ("release", "conversion", "odds", "period", "local models", "deniability", "accuracy"):
            if name in lines:                    # every reading of the release but its source is printed whole
                assert " ".join(lines[name].split()) in page, (key, name)
