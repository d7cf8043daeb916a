"""The app in a lecture hall: the presenter view (toggle and ?presenter=1), "Download as notebook", and
configuration links that say what they did, open on the teacher's tab, and are refused whole with a reason."""

from __future__ import annotations

import base64
import json

import nbformat
import pytest

from explorer.app import PRESENTER_SCALE, build_app
from explorer.panels import _resize
from explorer.panels._resize import figure_scale, set_figure_scale


def _query(config: dict, extra: str = "") -> str:
    return "config=" + base64.urlsafe_b64encode(json.dumps(config).encode()).decode().rstrip("=") + extra


@pytest.fixture(autouse=True)
def _own_figures_at_their_designed_size_after(monkeypatch):
    """A test scales only its own figures: it gets a figure sizer of its own, since the kernel's one holds
    every canvas still open from earlier tests of this process (the presenter view would scale and re-fit
    each of them, twice); after it, the designed size and the kernel's sizer again."""
    monkeypatch.delitem(_resize._sizer, "sizer", raising=False)
    yield
    set_figure_scale(1.0)
    own = _resize._sizer.get("sizer")
    if own is not None:
        own.close()


def test_presenter_view_from_the_address_and_the_toggle():
    app = build_app(query_string="presenter=1")
    assert app.presenting and app.presenter.value and figure_scale() == PRESENTER_SCALE
    panel = app.panel("t-closeness")                       # a tab built later is drawn larger too
    canvas = panel.figures()[0].canvas
    assert canvas.scale == PRESENTER_SCALE and canvas.figure.dpi == pytest.approx(100 * PRESENTER_SCALE)
    assert "explorer-dpi-156" in canvas._dom_classes
    design = canvas.design_size
    app.open_tab("t-closeness")
    app.presenter.value = False                           # the toggle, as a click sets it
    assert not app.presenting and canvas.scale == 1.0 and canvas.figure.dpi == 100
    assert canvas.design_size[0] == round(design[0] / PRESENTER_SCALE)
    assert "explorer-dpi-100" in canvas._dom_classes
    assert not build_app(query_string="presenter=0").presenting


def test_the_switch_redraws_the_tab_on_screen_and_each_other_tab_when_it_is_shown():
    app = build_app()
    shown, hidden = app.panel("Randomized response"), app.panel("t-closeness")
    app.open_tab("Randomized response")
    app.set_presenter(True)
    assert figure_scale() == PRESENTER_SCALE
    assert {figure.canvas.scale for figure in shown.figures()} == {PRESENTER_SCALE}
    # the hidden tab's figures are not re-drawn for a view nobody sees ...
    assert {figure.canvas.scale for figure in hidden.figures()} == {1.0}
    app.open_tab("t-closeness")
    # ... until their tab is shown
    assert {figure.canvas.scale for figure in hidden.figures()} == {PRESENTER_SCALE}
    assert all(view.figure.dpi == pytest.approx(100 * PRESENTER_SCALE) for view in hidden.figures())
    app.set_presenter(False)
    assert {figure.canvas.scale for figure in hidden.figures()} == {1.0}
    assert {figure.canvas.scale for figure in shown.figures()} == {PRESENTER_SCALE}
    app.open_tab("Randomized response")
    assert {figure.canvas.scale for figure in shown.figures()} == {1.0}
    app.open_tab("About")                                  # a tab without figures: nothing to do
    assert figure_scale() == 1.0


def test_download_as_notebook_writes_the_open_tabs_code():
    app = build_app()
    app.panel("Randomized response")
    app._on_notebook()
    link = app.notebook_link.value
    assert "download='explorer-views.ipynb'" in link
    notebook = nbformat.reads(base64.b64decode(link.split("base64,")[1].split("'")[0]).decode(), as_version=4)
    nbformat.validate(notebook)
    headings = [cell.source for cell in notebook.cells if cell.cell_type == "markdown"][1:]
    assert headings == ["## Data", "## Randomized response"]
    codes = [cell.source for cell in notebook.cells if cell.cell_type == "code"]
    assert codes[-1] == app.panels["Randomized response"].code().rstrip("\n")


def test_a_configuration_link_says_what_it_set_and_opens_on_the_exported_tab():
    teacher = build_app()
    teacher.open_tab("Randomized response")
    teacher.panel("Randomized response").n_categories.value = 4
    teacher.state.epsilon = 2.0
    config = teacher.export_config()
    assert config["open_tab"] == "Randomized response"

    student = build_app(query_string=_query(config))
    assert student.titles[student.tabs.selected_index] == "Randomized response"
    assert student.panels["Randomized response"].n_categories.value == 4 and student.state.epsilon == 2.0
    notice = student.notice.value
    assert "explorer-config-loaded" in notice and "Configuration loaded: data set UCI Adult; ε = 2;" in notice
    assert "categories r = 4" in notice and "Design = optimal for ε" in notice and "p = " not in notice
    assert "Opened on the Randomized response tab." in notice
    assert student.export_config() == config                 # loaded and exported again: the same


def test_a_refused_configuration_link_says_why_and_keeps_the_defaults():
    bad_tab = {"dataset": "UCI Adult", "epsilon": 2.0, "open_tab": "Randomized response",
               "tabs": {"Randomized response": {"n_categories": 99}}}
    app = build_app(query_string=_query(bad_tab))
    assert "explorer-config-refused" in app.notice.value
    assert "the Randomized response tab&#x27;s settings were refused: n_categories must be between 2 and" \
        in app.notice.value and "opened with its defaults" in app.notice.value
    assert app.state.epsilon == 1.0 and app.state.tab_params.get("Randomized response", {}).get("n_categories") != 99
    assert app.panels["Randomized response"].n_categories.value == 3 and app.tabs.selected_index == 0
    assert not app.panels["Randomized response"].status.is_error

    unknown_tab = {"dataset": "UCI Adult", "open_tab": "Nope"}
    app = build_app(query_string=_query(unknown_tab))
    assert "open_tab must be one of" in app.notice.value and app.tabs.selected_index == 0


def test_a_preheated_kernel_says_what_the_visitor_s_link_did(monkeypatch):
    """privacy-explorer --demo runs the notebook before the visitor arrives: the link is applied at hand-over, and said."""
    from explorer.demo import kernel

    monkeypatch.setattr(kernel, "_PREHEATED_APP", None)    # restored after the test
    # apply_visitor_query sets QUERY_STRING: setenv records it (delenv of a missing variable records nothing, and
    # the link's open_tab would reach every later build_app of this worker)
    monkeypatch.setenv("QUERY_STRING", "")
    app = build_app(query_string="")
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    kernel.apply_preheated_query(app)                      # the cell ends at once: no visitor, no link yet
    assert "Configuration loaded" not in app.notice.value
    # the server hands the kernel over with the visitor's query string
    assert kernel.apply_visitor_query(_query({"dataset": "UCI Adult", "epsilon": 3.0, "open_tab": "Data"}))
    assert "Configuration loaded: data set UCI Adult; ε = 3" in app.notice.value
    assert app.titles[app.tabs.selected_index] == "Data"
