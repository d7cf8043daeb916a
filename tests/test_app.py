"""The app shell: tabs, shared state, configuration export and import, the CLI's settings."""

from __future__ import annotations

import html
import json

import pytest

from explorer import cli
from explorer.app import PANEL_TABS, build_app
from explorer.errors import ConfigurationError


def test_app_opens_on_the_landing_view_then_data_and_about_last():
    app = build_app()
    titles = list(app.tabs.titles)
    assert titles[0] == "Start here" and titles[1] == "Data" and titles[-1] == "About"
    assert app.tabs.selected_index == 0
    assert titles == app.titles
    assert app.state.dataset_name == "UCI Adult"


def test_every_panel_of_the_registry_is_built_when_its_tab_opens():
    app = build_app()
    assert app.titles == ["Start here", "Data"] + [title for title, _, _ in PANEL_TABS] + ["About"]
    assert list(app.panels) == [] and app.state.dataset_name == "UCI Adult"  # every tab waits to be opened
    for index, title in enumerate(app.titles[1:-1], start=1):
        app.tabs.selected_index = index
        assert not app.status.is_error, app.status.message
        assert title in app.panels
        panel = app.panels[title]
        if title == "Lessons":                                  # the lesson's title is the tab's <h2>
            assert app.tabs.children[index].children == (panel.widget,)
            assert "<h2 class='explorer-lesson-title'>Lesson 1 of " in panel.body.children[0].children[1].value
        else:
            heading, shown = app.tabs.children[index].children  # the tab's name, an <h2> for screen readers
            assert shown is panel.widget and heading.value == f"<h2>{html.escape(title)}</h2>"
            assert "explorer-sr-only" in heading._dom_classes
        assert panel.state is app.state
    assert list(app.panels) == app.titles[1:-1]


def test_the_landing_paths_open_their_tabs():
    app = build_app()
    app.landing.buttons["What does ε mean?"].click()
    assert app.titles[app.tabs.selected_index] == "What does ε mean?"
    assert "What does ε mean?" in app.panels
    app.landing.buttons["Start the lessons"].click()
    assert app.titles[app.tabs.selected_index] == "Lessons"
    app.landing.buttons["Data"].click()
    assert app.titles[app.tabs.selected_index] == "Data"


def test_configuration_round_trips_through_json():
    app = build_app()
    app.panels["Data"].dataset.value = "Ruiz (2018) example"
    app.panels["Data"].quasi_identifier["X1"].value = True
    app.state.epsilon = 2.5
    text = json.dumps(app.export_config())
    other = build_app()
    other.load_config(text)
    assert other.state.dataset_name == "Ruiz (2018) example"
    assert other.state.quasi_identifiers == ["X1"]
    assert other.state.epsilon == 2.5


def test_export_button_fills_the_text_and_a_download_link():
    app = build_app()
    app.export_button.click()
    assert json.loads(app.config_text.value)["dataset"] == "UCI Adult"
    assert "data:application/json;base64," in app.download_link.value


@pytest.mark.parametrize("text, message", [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "must be a JSON object"),
    ('{"data": {"dataset": "nope"}}', "dataset 'nope' is not available"),
    ('{"data": {"dataset": "UCI Adult"}, "epsilon": -1}', "epsilon must be >= 0"),
])
def test_bad_configurations_are_refused_in_words(text, message):
    app = build_app()
    app.config_text.value = text
    app.load_button.click()
    assert app.status.is_error and message in app.status.message
    with pytest.raises(ConfigurationError if "JSON" in message else Exception):
        app.load_config(text)


def test_voila_settings_are_those_of_a_public_demo():
    config = cli.voila_config(port=9999, host="127.0.0.1", open_browser=False, preheat=True)
    assert config.MappingKernelManager.cull_connected is True
    assert config.MappingKernelManager.cull_idle_timeout > 0 and config.MappingKernelManager.cull_interval > 0
    assert config.VoilaConfiguration.strip_sources is True
    assert config.VoilaConfiguration.show_tracebacks is False
    assert config.VoilaExecutor.timeout > 0
    assert config.Voila.tornado_settings["websocket_max_message_size"] > cli.DEFAULT_MAX_BYTES
    assert config.VoilaConfiguration.preheat_kernel is True


def test_notebooks_are_found_from_the_package():
    folder = cli.notebooks_dir()
    assert (folder / "app.ipynb").is_file() and (folder / "00_data.ipynb").is_file()


def test_cli_refuses_a_bad_port(capsys):
    assert cli.main(["--port", "70000", "--no-browser"]) == 2
    assert "--port must be between 1 and 65535" in capsys.readouterr().err


def test_configuration_travels_in_the_page_address():
    app = build_app()
    app.panels["Data"].dataset.value = "Domingo-Ferrer and Muralidhar (2016) example"
    app.state.epsilon = 3.0
    other = build_app(query_string=app.config_query())
    assert other.state.dataset_name == "Domingo-Ferrer and Muralidhar (2016) example" and other.state.epsilon == 3.0
    broken = build_app(query_string="config=%%%")
    assert broken.status.is_error and "was not applied" in broken.status.message
    assert broken.state.dataset_name == "UCI Adult"


# ---------------------------------------------------------------------- one state, many views (regressions)

def _app(*tabs):
    app = build_app()
    for title in tabs:
        app.panel(title)
    return app


def test_marking_a_sensitive_attribute_in_the_data_tab_is_what_t_closeness_shows():
    app = _app("t-closeness")
    tc = app.panels["t-closeness"]
    app.panels["Data"].sensitive["income"].value = True
    assert app.state.sensitive == ["income"] and tc.sensitive.value == "income"
    if not tc.stale.stale:
        assert tc.profile.categories == ("<=50K", ">50K")
        assert tc.ratio_figure._suptitle.get_text().startswith("S = income; MDAV, k = 50; ε = 1")
        assert "sensitive income given" in tc.caption.value
    else:
        assert "out of date" in tc.stale.widget.value


@pytest.mark.slow
def test_a_configuration_holds_epsilon_once_and_an_edited_value_reaches_every_tab():
    app = _app("Randomized response", "t-closeness", "Multi-attribute RR")
    text = json.dumps(app.export_config())
    assert text.count('"epsilon"') == 1
    config = json.loads(text)
    config["epsilon"] = 0.5
    other = _app("Randomized response", "t-closeness", "Multi-attribute RR")
    other.config_text.value = json.dumps(config)
    other.load_button.click()
    assert not other.status.is_error and "ε = 0.5" in other.status.message
    for title in ("Randomized response", "t-closeness", "Multi-attribute RR"):
        assert other.panels[title].epsilon.value == 0.5, title
    assert other.export_config()["epsilon"] == 0.5


def test_one_epsilon_range_for_every_tab():
    app = _app("t-closeness", "Multi-attribute RR")
    app.state.epsilon = 9.5
    assert app.panels["t-closeness"].epsilon.value == 9.5 and app.panels["Multi-attribute RR"].epsilon.value == 9.5
    with pytest.raises(Exception, match="epsilon must be <= 10"):
        app.state.epsilon = 12
    with pytest.raises(Exception, match="epsilon must be >= 0"):
        app.state.epsilon = -1.0
    assert app.panels["t-closeness"].epsilon.value == 9.5 and app.state.epsilon == 9.5


@pytest.mark.slow
def test_every_tab_reads_the_data_set_of_the_data_tab():
    app = _app("Permutation", "Multi-attribute RR")
    perm, mdrr = app.panels["Permutation"], app.panels["Multi-attribute RR"]
    assert mdrr.data.n_records == 32_561 and "UCI Adult" in mdrr.data_name.value       # no source of its own
    assert perm.analysis.X.shape[0] == 5000 and "UCI Adult" in perm.caption.value    # no source of its own
    app.panels["Data"].dataset.value = "Synthetic normal (n=1000, m=3)"
    assert perm.analysis.X.shape[0] == 1000
    assert mdrr.status.is_error and "has no categorical attributes" in mdrr.status.message
    assert mdrr.dep_canvas.layout.visibility == "hidden"
    app.panels["Data"].dataset.value = "UCI Adult"
    assert not mdrr.status.is_error and mdrr.data.n_records == 32_561


def test_a_small_upload_lowers_k_for_a_while_only():
    app = _app("t-closeness")
    tc = app.panels["t-closeness"]
    rows = "\n".join(f"{20 + i},{i % 2},{'ab'[i % 2]}" for i in range(8))
    app.panels["Data"].upload.value = ({"name": "tiny.csv", "type": "text/csv", "size": 1,
                                        "content": memoryview(f"age,sex,job\n{rows}\n".encode()),
                                        "last_modified": __import__("datetime").datetime(2026, 1, 1)},)
    assert app.state.dataset_name == "Uploaded: tiny.csv" and tc.k.value == 2
    app.panels["Data"].dataset.value = "UCI Adult"
    assert tc.k.value == 50
    app.export_button.click()
    assert "Configuration exported" in app.status.message
    app.panels["Data"].dataset.value = "Uploaded: tiny.csv"
    app.export_button.click()
    assert "names the uploaded file 'tiny.csv'" in app.status.message


def test_forged_browser_messages_are_refused_in_words_and_never_raise():
    app = _app("t-closeness", "Multi-attribute RR", "Permutation")
    tc, mdrr = app.panels["t-closeness"], app.panels["Multi-attribute RR"]
    tc.method.set_state({"index": 99})                       # out-of-range Dropdown index
    assert tc.status.is_error and "refused" in tc.status.message and tc.method.value == "mdav"
    assert "Traceback" not in tc.status.message
    mdrr.epsilon.set_state({"value": 5.0})                   # the slider is disabled for p-matrices
    assert mdrr.epsilon.disabled and app.state.epsilon == 1.0 and "disabled" in mdrr.status.message
    tc.k.set_state({"min": 500, "max": 2})                   # min > max
    assert "may not set max, min" in tc.status.message and tc.k.max == 10_000_000
    app.panels["Data"].dataset.set_state({"index": 1000})
    assert app.panels["Data"].status.is_error and app.state.dataset_name == "UCI Adult"
    app.tabs.set_state({"selected_index": 99})
    assert app.tabs.selected_index in (0, None)


def test_t_closeness_work_is_bounded_by_the_number_of_bins():
    app = _app("t-closeness")
    tc = app.panels["t-closeness"]
    tc.sensitive.value = "fnlwgt"
    tc.binning.value = "values"
    assert tc.status.is_error and "would make 21,648 bins" in tc.status.message
    tc.sensitive.value = "capital-gain"
    tc.edges.value = ", ".join(str(v) for v in range(0, 100_001, 5))
    tc.binning.value = "edges"
    assert tc.status.is_error and "edges would make 20,000 bins" in tc.status.message
    tc.edges.value = "x" * 1_000_000
    assert tc.status.is_error and len(tc.status.message) < 200


def test_the_page_address_takes_the_same_path_as_load():
    app = _app("t-closeness")
    app.panels["Data"].dataset.value = "Ruiz (2018) example"
    app.state.epsilon = 3.5
    app.panels["t-closeness"].k.value = 2
    config = app.export_config()
    other = build_app(query_string=app.config_query())
    assert other.export_config() == config
    other.panel("t-closeness")
    assert other.panels["t-closeness"].k.value == 2 and other.panels["t-closeness"].epsilon.value == 3.5


@pytest.mark.slow
def test_data_set_switches_do_not_leak_widgets():
    import warnings

    import ipywidgets as widgets

    app = _app("t-closeness", "Permutation", "Multi-attribute RR")
    names = ["Ruiz (2018) example", "Domingo-Ferrer and Muralidhar (2016) example", "Synthetic normal (n=1000, m=3)"]

    def count():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return len(widgets.Widget.widgets)

    for name in names:
        app.panels["Data"].dataset.value = name
    before = count()
    for i in range(9):          # three rounds of the three data sets: a widget left by any switch would show here
        app.panels["Data"].dataset.value = names[i % 3]
    assert count() <= before


def test_tabs_write_their_own_parameters_into_the_state():
    app = _app("t-closeness", "Permutation")
    app.panels["t-closeness"].k.value = 7
    assert app.state.tab_params["t-closeness"]["k"] == 7
    app.panels["Permutation"].seed.value = 5
    assert app.state.tab_params["Permutation"]["seed"] == 5
    assert all("epsilon" not in params for params in app.state.tab_params.values())


def test_the_exported_configuration_holds_the_marks_the_t_closeness_tab_shows():
    # issue 22: after choosing UCI Adult the tab showed marks that the state and the export did not hold
    app = _app("t-closeness")
    tc = app.panels["t-closeness"]
    app.panels["Data"].dataset.value = "Ruiz (2018) example"
    app.panels["Data"].dataset.value = "UCI Adult"
    config = app.export_config()
    assert config["quasi_identifiers"] == list(tc.quasi_identifiers.value) == \
        ["age", "education-num", "hours-per-week", "sex"]
    assert config["sensitive"] == [tc.sensitive.value] == ["income"]
    assert app.panels["Data"].quasi_identifier["sex"].value and app.panels["Data"].sensitive["income"].value


def test_a_page_address_with_an_old_name_and_a_tab_source_loads_under_the_one_name():
    import base64
    app = _app("Permutation")
    old = {"dataset": "002 running example", "epsilon": 1.5, "tabs": {"Permutation": {"source": "004", "seed": 2}}}
    query = base64.urlsafe_b64encode(json.dumps(old).encode()).decode().rstrip("=")
    app.load_query_string(f"config={query}")
    assert app.state.dataset_name == "Ruiz (2018) example"
    assert app.panels["Data"].dataset.value == "Ruiz (2018) example"
    perm = app.panels["Permutation"]
    assert perm.analysis.X.shape == (5, 3) and perm.method.value == "paper" and perm.seed.value == 2
    assert "source" not in app.export_config()["tabs"].get("Permutation", {})
    assert all(name not in app.panels["Data"].dataset.options for name in ("004", "002", "ruiz"))


def test_a_configuration_whose_multi_attribute_rr_attributes_are_not_in_its_data_set_is_refused_whole():
    """Found by the stateful test: the multi-attribute RR tab's attributes of one data set, under another data set
    that has no categorical attribute, refuse the configuration as a whole, in words naming the tab and the value."""
    app = _app("Data", "Multi-attribute RR")
    app.panels["Data"].dataset.value = "Domingo-Ferrer and Muralidhar (2016) example"
    app.state.set_roles({"X2": "ordinal", "X3": "categorical"})
    assert app.panels["Multi-attribute RR"].attributes.value == ("X2", "X3")
    config = app.export_config()
    config.update(dataset="Ruiz (2018) example", roles={}, quasi_identifiers=[], sensitive=[])
    before = app.export_config()
    with pytest.raises(ConfigurationError) as refused:
        app.load_config(json.dumps(config))
    assert "Multi-attribute RR" in str(refused.value) and "'X2'" in str(refused.value)
    assert "no categorical attribute" in str(refused.value) or "nothing to choose from" in str(refused.value)
    assert app.export_config() == before


def test_the_release_picked_in_the_epsilon_view_travels_in_the_configuration_and_the_page_address():
    app = _app("What does ε mean?")
    view = app.panels["What does ε mean?"]
    view.releases.release.value = "census-2020-redistricting"
    config = app.export_config()
    assert config["tabs"]["What does ε mean?"]["release"] == "census-2020-redistricting"
    loaded = build_app()
    loaded.load_config(json.dumps(config))
    assert loaded.panel("What does ε mean?").releases.release.value == "census-2020-redistricting"
    addressed = build_app(query_string=app.config_query())
    section = addressed.panel("What does ε mean?").releases
    assert section.release.value == "census-2020-redistricting"
    assert section.reading.release["key"] == "census-2020-redistricting"
    assert addressed.export_config() == config


def test_an_unknown_release_in_a_configuration_is_refused_whole_in_words():
    app = _app("What does ε mean?")
    app.panels["What does ε mean?"].releases.release.value = "census-2010-ddp-persons"
    before = app.export_config()
    config = json.loads(json.dumps(before))
    config["epsilon"] = 3.0
    config["tabs"]["What does ε mean?"]["release"] = "census-2030"
    with pytest.raises(ConfigurationError) as refused:
        app.load_config(json.dumps(config))
    assert "What does ε mean?" in str(refused.value) and "release must be one of" in str(refused.value)
    assert "got 'census-2030'" in str(refused.value)
    assert app.export_config() == before and app.state.epsilon == before["epsilon"]
    addressed = build_app(query_string="config=" + __import__("base64").urlsafe_b64encode(
        json.dumps(config).encode()).decode())
    assert "release must be one of" in addressed.notice.value and "census-2030" in addressed.notice.value
    assert addressed.state.epsilon != 3.0
