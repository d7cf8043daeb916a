"""The published-releases section: a release read in words, its source, "use this ε" and the embedding."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.core import datasets
from explorer.core.epsilon_meaning import attribute_codes
from explorer.core.releases import belief_curves, read_release, releases
from explorer.errors import ConfigurationError
from explorer.panels.epsilon_meaning import EpsilonMeaningPanel
from explorer.panels.releases import ReleasesPanel
from explorer.panels.status import escape
from explorer.state import EPSILON_MAX, EPSILON_STEP, AppState


def test_dropdown_lists_every_release_by_organisation_and_name():
    panel = ReleasesPanel()
    table = releases()
    assert [label for label, _ in panel.release.options] == [f"{o}: {n}" for o, n in zip(table.organisation, table.name)]
    assert [key for _, key in panel.release.options] == table["key"].tolist()


def test_the_reading_in_words_is_the_cores():
    panel = ReleasesPanel(release="google-symptoms", periods=7)
    expected = read_release("google-symptoms", periods=7)
    for text in expected.lines.values():
        assert escape(text) in panel.lines.value
    assert "Randomized response" in panel.lines.value and "do not apply" in panel.lines.value
    assert "href='https://arxiv.org/abs/2009.01265'" in panel.link.value


def test_the_figure_draws_the_cores_curves_and_its_text_reads_them():
    panel = ReleasesPanel(release="google-symptoms", periods=7)
    curves = belief_curves(read_release("google-symptoms", periods=7))
    table = panel.table()
    np.testing.assert_allclose(table.index.to_numpy(), curves["before"])
    np.testing.assert_allclose(table.iloc[:, 0], curves["one release"])
    np.testing.assert_allclose(table.iloc[:, 1], curves["composed"])
    text = panel.describe()
    assert "at most 0.843" in text and "7 days, ε ≤ 11.76" in text
    panel.release.value = "israel-births"                   # one release, no renewal: one curve
    assert panel.table().shape[1] == 1 and panel.periods.disabled
    assert "after the release, ε = 9.98" in panel.describe()


def test_use_this_epsilon_sets_the_shared_epsilon():
    state = AppState(epsilon=1.0)
    panel = ReleasesPanel(state, release="census-2010-ddp-persons")
    panel.use_epsilon()
    assert state.epsilon == 4.0
    assert panel.status.message.startswith("The shared ε is now 4, ") and "every tab" in panel.status.message


def test_an_epsilon_between_the_sliders_steps_goes_to_the_nearest_step_and_says_so():
    state = AppState(epsilon=1.0)
    panel = ReleasesPanel(state, release="google-vaccination")
    panel.use_epsilon()
    assert state.epsilon == pytest.approx(round(2.19 / EPSILON_STEP) * EPSILON_STEP) == pytest.approx(2.2)
    message = panel.status.message
    assert "now 2.2" in message and "nearest to" in message and "ε = 2.19" in message
    assert "ε = 2.19" in panel.lines.value                      # the reading stays the release's own


def test_an_epsilon_beyond_the_slider_is_said_in_words_not_clamped():
    state = AppState(epsilon=1.5)
    panel = ReleasesPanel(state, release="census-2020-redistricting")
    panel.use_button.click()
    assert state.epsilon == 1.5                                # not clamped to the slider's maximum
    message = panel.status.message
    assert "ε = 17.9" in message and f"0 to {EPSILON_MAX:g}" in message and "stays at 1.5" in message
    assert "ε = 17.14" in panel.lines.value                     # the reading stays the release's own


def test_zcdp_release_uses_the_converted_epsilon():
    state = AppState()
    panel = ReleasesPanel(state, release="wikimedia-pageviews")
    panel.use_epsilon()
    assert read_release("wikimedia-pageviews").epsilon == pytest.approx(0.9984, abs=1e-4)
    assert state.epsilon == 1.0 and "ε = 0.9984" in panel.status.message


def test_configuration_round_trip_and_refusals_keep_the_view():
    panel = ReleasesPanel(release="census-2010-ddp-persons")
    panel.apply_config({"release": "linkedin-audience", "periods": 3})
    assert panel.config() == {"release": "linkedin-audience", "periods": 3}
    assert panel.reading.composed_epsilon == pytest.approx(3 * 34.9)
    before = panel.lines.value
    with pytest.raises(ConfigurationError, match="release must be one of"):
        panel.apply_config({"release": "made-up"})
    with pytest.raises(ConfigurationError, match="periods"):
        panel.apply_config({"periods": 0})
    assert panel.lines.value == before and panel.release.value == "linkedin-audience"


def test_code_reproduces_the_view():
    panel = ReleasesPanel(release="google-symptoms", periods=5)
    namespace: dict = {}
    source = panel.code()
    assert "read_release('google-symptoms', periods=5)" in source
    exec(compile(source.replace('figure.savefig("release.png")', ""), "<code>", "exec"), namespace)
    assert namespace["reading"].composed_epsilon == pytest.approx(8.4)


def test_only_chrome_rappor_in_the_dropdown_is_read_as_randomized_response():
    panel = ReleasesPanel()
    for _, key in panel.release.options:
        panel.release.value = key
        local = key == "google-chrome-rappor"
        assert (panel.reading.rr is not None) == local and ("do not apply" in panel.lines.value) != local


def test_embedded_in_the_epsilon_view_it_reads_local_releases_on_its_attribute():
    state = AppState()
    state.dataset = datasets.adult()
    view = EpsilonMeaningPanel(state, attribute="race")
    assert view.releases.widget in view.widget.children
    view.releases.release.value = "google-chrome-rappor"
    labels, codes = attribute_codes(state.dataset, "race")
    assert view.releases.reading.rr.labels == tuple(labels)
    assert "On race" in view.releases.reading.lines["deniability"]
    view.attribute.value = "sex"
    assert "On sex" in view.releases.reading.lines["deniability"]
    view.releases.use_epsilon()
    # 4 ln 3 = 4.3944 goes to the slider's nearest step, 4.4, and the view follows the shared ε
    assert state.epsilon == pytest.approx(4.4) and view.reading.epsilon == pytest.approx(4.4)
