"""The app shell: tabs, shared state, configuration export and import, the CLI's settings."""

from __future__ import annotations

import json

import pytest

from explorer import cli
from explorer.app import PANEL_TABS, build_app
from explorer.errors import ConfigurationError


def test_app_has_data_first_and_about_last():
    app = build_app()
    titles = list(app.tabs.titles)
    assert titles[0] == "Data" and titles[-1] == "About"
    assert titles == app.titles
    assert app.state.dataset_name == "UCI Adult"


def test_every_panel_of_the_registry_is_built_when_its_tab_opens():
    app = build_app()
    assert app.titles == ["Data"] + [title for title, _, _ in PANEL_TABS] + ["About"]
    assert list(app.panels) == ["Data"]  # the others wait for their tab
    for index, title in enumerate(app.titles[1:-1], start=1):
        app.tabs.selected_index = index
        assert not app.status.is_error, app.status.message
        panel = app.panels[title]
        assert app.tabs.children[index].children == (panel.widget,)
        assert panel.state is app.state
    assert list(app.panels) == app.titles[:-1]


def test_configuration_round_trips_through_json():
    app = build_app()
    app.panels["Data"].dataset.value = "002 running example"
    app.panels["Data"].quasi_identifier["X1"].value = True
    app.state.epsilon = 2.5
    text = json.dumps(app.export_config())
    other = build_app()
    other.load_config(text)
    assert other.state.dataset_name == "002 running example"
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
    app.panels["Data"].dataset.value = "004 running example"
    app.state.epsilon = 3.0
    other = build_app(query_string=app.config_query())
    assert other.state.dataset_name == "004 running example" and other.state.epsilon == 3.0
    broken = build_app(query_string="config=%%%")
    assert broken.status.is_error and "was not applied" in broken.status.message
    assert broken.state.dataset_name == "UCI Adult"
