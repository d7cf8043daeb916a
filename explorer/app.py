"""The whole explorer as one widget: tabs of panels around a shared state.

``build_app()`` returns an :class:`ExplorerApp`; display ``app.widget``.  The
shared state (:class:`explorer.state.AppState`: data set, column roles, marks,
the one epsilon and each tab's parameters) lives in ``app.state`` and every panel
reads it.  The configuration is that state written out, each parameter once; the
"Load" button and the page address (``?config=...``) take the same path.  Every
control is guarded (:func:`explorer.panels.browser.guard_widgets`): what a browser
sends is re-checked before any work, and a refused value is said in words on the
tab's status line.
"""

from __future__ import annotations

import base64
import binascii
import importlib
import importlib.util
import json
import os
import urllib.parse
from typing import Any

import ipywidgets as widgets

from explorer import __version__
from explorer.errors import ConfigurationError, ExplorerError
from explorer.panels import registry
from explorer.panels.a11y import A11Y_CLASS, a11y_style, skip_link, tab_heading
from explorer.panels.access import PanelAccess
from explorer.panels.browser import guard_widgets
from explorer.panels.downloads import download_link
from explorer.panels.status import StatusLine, escape, guarded
from explorer.panels.data import DataPanel, data_code
from explorer.panels.landing import LandingPanel
from explorer.panels._resize import apply_figure_scale, figure_sizer, set_figure_scale
from explorer.references import papers_html
from explorer.state import UPLOAD_PREFIX, AppState, shorten

__all__ = ["build_app", "show", "ExplorerApp", "PANEL_TABS", "ABOUT_HTML", "PRESENTER_CSS", "PRESENTER_SCALE", "FIGURE_TEXT_POINTS"]

#: The landing view's title: the app's first tab.
LANDING = registry.entry("landing").title

#: Tabs after "Data": (title, module, class), from the one registry of panels
#: (:data:`explorer.panels.registry.REGISTRY`).  Each panel class takes ``state=``.
PANEL_TABS: list[tuple[str, str, str]] = registry.app_tabs()

ABOUT_HTML = """
<div style="max-width:760px;line-height:1.45">
<h3>The explorer</h3>
<p>An interactive environment to <i>see</i> what privacy models mean. Four papers define what it computes;
it connects randomized response, post-randomization (PRAM), differential privacy and t-closeness through
two ideas: <b>deniability</b> (how uncertain an intruder stays about your true answer after seeing what was
released) and <b>permutation</b> (any masking of numeric data is a permutation of the original values plus
small noise).</p>
{papers}
<p>New here? The <b>Start here</b> tab suggests a path: the lessons for students and teachers, <b>What does
ε mean?</b> for choosing an epsilon. The <b>Data</b> tab picks the data set (UCI Adult, the papers' running
examples, synthetic data, or a CSV) and marks quasi-identifiers and the sensitive attribute; every other tab
reads that choice and the shared epsilon.</p>
<p>Accessibility: the explorer aims at WCAG 2.1 AA (keyboard alone, screen readers, zoom to 200%,
colour-vision-safe figures). Its accessibility statement, in the documentation (<code>docs/accessibility.md</code>),
says what conforms, the known limits and how to report a barrier.</p>
<p><small>UCI Adult: B. Becker and R. Kohavi, UCI Machine Learning Repository (1996), CC BY 4.0.
Explorer version {version}.</small></p>
</div>
"""


#: The smallest text of any figure of the explorer, in points (tests/panels/test_slides.py checks it).
FIGURE_TEXT_POINTS = 9.0
#: How much larger the presenter view draws every figure: 9 pt text at 100 dpi is 12.5 CSS pixels (9.4 CSS
#: points); 1.56 times larger it is 19.5 CSS pixels, 14.6 points, at the figure's rendered size.
PRESENTER_SCALE = 1.56

#: The presenter view (class ``explorer-presenter`` on the app's root): larger text and controls for a projector
#: at 1280x720, and what only the teacher should see (``explorer-teacher-only``) hidden.
PRESENTER_CSS = """<style>
.explorer-presenter { --jp-widgets-font-size: 19px; --jp-ui-font-size1: 19px; --jp-content-font-size1: 19px;
  --jp-widgets-inline-height: 38px; --jp-widgets-inline-label-width: 130px; font-size: 19px; }
.explorer-presenter .widget-html-content, .explorer-presenter .widget-label, .explorer-presenter label,
.explorer-presenter .widget-readout, .explorer-presenter button, .explorer-presenter select,
.explorer-presenter input, .explorer-presenter textarea, .explorer-presenter summary,
.explorer-presenter .lm-TabBar-tab { font-size: 19px !important; line-height: 1.4; }
.explorer-presenter .widget-html-content small { font-size: 17px; }
.explorer-presenter .widget-html-content h1, .explorer-presenter .widget-html-content h2 { font-size: 28px; } .explorer-presenter .widget-html-content h3 { font-size: 24px; }
.explorer-presenter .jupyter-widgets.widget-inline-hbox, .explorer-presenter .widget-button,
.explorer-presenter .widget-toggle-button, .explorer-presenter .widget-dropdown > select { min-height: 38px; height: auto; }
.explorer-presenter .lm-TabBar-tab { min-height: 40px; padding: 6px 12px; }
.explorer-presenter .widget-inline-hbox { min-width: fit-content; }
.explorer-presenter .widget-inline-hbox input { min-width: 4.5em; }
.explorer-presenter .widget-dropdown > select { min-width: 8em; }
.explorer-presenter .lm-TabBar-content { flex-wrap: wrap; }
.explorer-presenter .widget-tab > .lm-TabBar, .explorer-presenter .jupyter-widget-tab > .lm-TabBar {
  overflow: visible; height: auto; min-height: 0; }
.explorer-presenter .explorer-teacher-only { display: none !important; }
.explorer-presenter .explorer-code-text { font-size: 17px !important; }
</style>"""

#: Phones and narrow windows: controls wrap above the figures, rows never push a button off screen.  And the
#: notice of a configuration from the page address.
NARROW_CSS = """<style>
.explorer-config-loaded { border-left: 4px solid #2e7d32; background: #f1f8f1; padding: 4px 12px; margin: 4px 0; }
.explorer-config-refused { border-left: 4px solid #b00020; background: #fdf0f0; padding: 4px 12px; margin: 4px 0; }
.explorer-app .explorer-slide-row, .explorer-app .explorer-app-tools { flex-wrap: wrap; }
.explorer-app .explorer-config-notice { margin-left: 0; margin-right: 0; max-width: 100%; min-width: 0; box-sizing: border-box; }
.explorer-app .widget-vbox > .widget-inline-hbox[style*="width: 100%"] { margin-left: 0; margin-right: 0; max-width: 100%; min-width: 0; }
.explorer-app .widget-hbox { flex-wrap: wrap; }
.explorer-app .widget-hbox > .widget-hbox, .explorer-app .widget-hbox > .widget-vbox { max-width: 100%; min-width: 0; }
@media (max-width: 700px) {
  .explorer-app .lm-TabBar-content { flex-wrap: wrap; }
  .explorer-app .widget-tab > .lm-TabBar, .explorer-app .jupyter-widget-tab > .lm-TabBar { overflow: visible; height: auto; min-height: 0; }
  .explorer-app .lm-TabBar-tab { min-width: 0 !important; flex: 0 1 auto !important; }
  .explorer-app .widget-inline-hbox { max-width: 100%; }
  .explorer-app .widget-inline-hbox:not(.widget-slider) { flex-wrap: wrap; height: auto; }
  .explorer-app .widget-inline-hbox .widget-label { max-width: 100%; }
  .explorer-app .widget-slider .slider-container { min-width: 80px; }
  .explorer-app .widget-text, .explorer-app .widget-dropdown, .explorer-app .widget-slider,
  .explorer-app .widget-select, .explorer-app .widget-textarea, .explorer-app .widget-button,
  .explorer-app .widget-html, .explorer-app .widget-select-multiple { max-width: 100% !important; min-width: 0 !important; }
  .explorer-app .widget-html-content { max-width: 100%; overflow-wrap: anywhere; }
  /* a control shrunk to its column's width keeps no side margin: ipywidgets' 2px would scroll the column */
  .explorer-app .widget-vbox > .jupyter-widgets:not(.widget-box) { margin-left: 0 !important; margin-right: 0 !important; }
  .explorer-app .widget-tab-contents { padding: 4px; }
}
</style>"""


def _deferred_class(module_name: str, class_name: str) -> Any:
    """A callable that imports ``module_name`` on first use and builds its ``class_name``."""
    def build(**kwargs: Any) -> Any:
        return getattr(importlib.import_module(module_name), class_name)(**kwargs)
    return build


class ExplorerApp:
    """The explorer: a tab per concept, a shared state and configuration export/import."""

    def __init__(self, state: AppState | None = None, *, dataset: str = "UCI Adult",
                 tabs: list[tuple[str, str, str]] | None = None):
        self.state = state if state is not None else AppState()
        #: ``?teacher=1`` in the page address: the Lessons page opens with the teachers' answers
        self.teacher_mode = False
        self._loading = False
        self.status = StatusLine()
        # The data set is the state's: chosen now (every tab reads it), its tab's controls built later.
        if self.state.dataset is None or not self.state.dataset_name:
            self.state.select_dataset(dataset)
        #: The panels built so far, by tab title; ``panels[title]`` builds a tab's panel if it is not yet
        #: (as :meth:`panel` does), ``title in panels`` and ``panels.get(title)`` do not.
        self.panels: dict[str, Any] = _Panels(self)
        # Every panel, the Data tab's included, is built when its tab is first opened: the first page renders
        # fast and a visitor who only looks at one tab does not pay (in time and kernel memory) for the others.
        # The Data tab's column grid alone is two thirds of the widgets a page would otherwise send at once.
        self._factories: dict[str, Any] = {"Data": DataPanel}
        # Their modules too are imported then (matplotlib and each tab's core modules cost start-up time).
        for title, module_name, class_name in (PANEL_TABS if tabs is None else tabs):
            if importlib.util.find_spec(module_name) is None:  # that panel is not part of this build
                continue
            self._factories[title] = _deferred_class(module_name, class_name)
        about = widgets.HTML(ABOUT_HTML.replace("{version}", escape(__version__)).replace("{papers}", papers_html()))
        self._titles = [LANDING, *self._factories, "About"]
        self.landing = LandingPanel(self.open_tab, tabs=list(self._factories), state=self.state)
        self._slots = {title: widgets.Box(layout=widgets.Layout(width="100%")) for title in self._factories}
        # Each tab's name is a heading of level 2 under the page's <h1>, for a screen reader's list of headings
        # (the tab bar shows it already; the landing view has a visible one); a tab's sections are <h3>
        # (explorer.panels.a11y.section_heading).
        self._headings = {title: tab_heading(title) for title in [*self._factories, "About"]}
        for title, slot in self._slots.items():
            slot.children = [self._headings[title], widgets.HTML("<i>Loading...</i>")]
        about = widgets.VBox([self._headings["About"], about])
        children = [self.landing.widget, *self._slots.values(), about]
        self.tabs = widgets.Tab(children=children, titles=self._titles)
        self.tabs.observe(self._on_tab, names="selected_index")
        guard_widgets(self.tabs, self.status)

        self.config_text = widgets.Textarea(placeholder="Paste a configuration (JSON) here, then Load",
                                            layout=widgets.Layout(width="100%", height="90px"))
        self.export_button = widgets.Button(description="Export configuration", icon="download")
        self.load_button = widgets.Button(description="Load configuration", icon="upload")
        self.download_link = widgets.HTML()
        self.export_button.on_click(lambda _: self._on_export())
        self.load_button.on_click(lambda _: self._on_load())
        config_box = widgets.Accordion(children=[widgets.VBox([
            widgets.HBox([self.export_button, self.load_button, self.download_link]), self.config_text])],
            titles=("Configuration",))
        config_box.selected_index = None
        config_box.add_class("explorer-config")
        self.config_text.add_class("explorer-config-text")
        self.status.widget.add_class("explorer-app-status")
        title = widgets.HTML("<style>.explorer-app .lm-TabBar-tab{flex:0 0 auto !important;min-width:90px;"
                             "max-width:none !important}"
                             ".explorer-app h1.explorer-title{font-size:1.5em;margin:4px 0}</style>"
                             "<h1 class='explorer-title'>Privacy explorer</h1>"
                             "<div style='color:#555'>deniability and permutation, live</div>")
        # A teacher's tools: the presenter view, and every open tab's code as one notebook.
        self.presenter = widgets.ToggleButton(value=False, description="Presenter view", icon="desktop",
                                              tooltip="Larger text, controls and figures for a projector; "
                                                      "the teacher's answers hidden",
                                              layout=widgets.Layout(width="auto"))
        self.presenter.add_class("explorer-presenter-toggle")
        self.presenter.observe(lambda change: self.set_presenter(change["new"]), names="value")
        self.notebook_button = widgets.Button(description="Download as notebook", icon="book",
                                              tooltip="The code of the data set and of every tab opened so "
                                                      "far, as one Jupyter notebook",
                                              layout=widgets.Layout(width="auto"))
        self.notebook_button.add_class("explorer-notebook-button")
        self.notebook_link = widgets.HTML(layout=widgets.Layout(width="auto"))
        self.notebook_button.on_click(lambda _: self._on_notebook())
        tools = widgets.HBox([self.presenter, self.notebook_button, self.notebook_link],
                             layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        tools.add_class("explorer-app-tools")
        # the presenter toggle says whether it is on (aria-pressed), not by its shade alone
        self.tools_access = PanelAccess.of_controls(tools, self.status)
        # What a configuration from the page address did (or why it was refused), above the tabs.
        self.notice = widgets.HTML(layout=widgets.Layout(width="100%"))
        self.notice.add_class("explorer-config-notice")
        # The skip link is the first Tab stop; it also carries the page's contrast, focus and reflow rules.
        self.skip_link = skip_link()
        self.widget = widgets.VBox([self.skip_link, title, widgets.HTML(PRESENTER_CSS + NARROW_CSS), tools,
                                    self.notice, self.tabs, self.status.widget, config_box, figure_sizer()])
        self.widget.add_class("explorer-app")
        self.widget.add_class(A11Y_CLASS)
        guard_widgets(config_box, self.status)
        guard_widgets(tools, self.status)

    # ------------------------------------------------------------------ for a teacher
    def set_presenter(self, on: bool) -> None:
        """Turn the presenter view on or off: larger text and controls (CSS class ``explorer-presenter`` on the
        app's root), every figure drawn :data:`PRESENTER_SCALE` times larger, the teacher's answers hidden.

        The figures of the tab on screen are re-drawn at once; those of the other tabs when their tab is next
        shown (:meth:`_on_tab`), so the switch answers in the time of one tab's figures."""
        on = bool(on)
        if self.presenter.value != on:
            self.presenter.value = on                  # comes back here through the observer
            return
        if on:
            self.widget.add_class("explorer-presenter")
        else:
            self.widget.remove_class("explorer-presenter")
        set_figure_scale(PRESENTER_SCALE if on else 1.0, within=self.tabs.children[self.tabs.selected_index or 0])

    @property
    def presenting(self) -> bool:
        """Whether the presenter view is on."""
        return "explorer-presenter" in self.widget._dom_classes

    def _code_sections(self) -> list[tuple[str, str]]:
        """``(tab title, code)`` of the Data tab (the data set in use, opened or not) and every other tab
        opened so far, in tab order."""
        sections = []
        for title in self._titles:
            if title == "Data":                     # the Data tab's code is its state's, opened or not
                sections.append((title, data_code(self.state)))
                continue
            panel = self.panels.get(title)
            if panel is None or not hasattr(panel, "code"):
                continue
            try:
                sections.append((title, panel.code()))
            except NotImplementedError:
                continue
        return sections

    def notebook(self) -> dict[str, Any]:
        """The code of the data set in use and of every open tab (in tab order) as one notebook (nbformat 4,
        a dict)."""
        from explorer.panels.slides import notebook_of

        return notebook_of(self._code_sections())

    @guarded
    def _on_notebook(self) -> None:
        from explorer.panels.slides import notebook_of

        sections = self._code_sections()
        text = json.dumps(notebook_of(sections), indent=1, ensure_ascii=False)
        self.notebook_link.value = download_link(text.encode("utf-8"), "explorer-views.ipynb",
                                                 "application/x-ipynb+json", "save explorer-views.ipynb",
                                                 css_class="explorer-notebook-file")
        titles = [title for title, _ in sections]
        self.status.info(f"Notebook ready: the code of {len(titles)} tab(s) ({', '.join(titles)}).")

    def open_tab(self, title: str) -> None:
        """Show the tab ``title`` (built now if it was not yet)."""
        if title not in self._titles:
            raise ConfigurationError(f"tab must be one of {self._titles}, got {shorten(title)}")
        self.tabs.selected_index = self._titles.index(title)

    @property
    def titles(self) -> list[str]:
        """The tab titles, in order."""
        return list(self._titles)

    def panel(self, title: str) -> Any:
        """The panel of tab ``title``, built now if it was not yet."""
        if title not in self.panels:
            if title not in self._factories:
                raise ConfigurationError(f"tab must be one of {self._titles[:-1]}, got {shorten(title)}")
            panel = self._factories[title](state=self.state)
            self.panels[title] = panel
            if title == "Data":
                # its controls write the state itself (data set, roles, marks), not tab parameters; its grid
                # of columns is rebuilt with each data set, and each new grid is guarded too
                panel.guard(lambda root: guard_widgets(root, panel.status))
            else:
                teacher = getattr(panel, "set_teacher_mode", None)     # the Lessons page: ?teacher=1
                if callable(teacher) and self.teacher_mode:
                    teacher(True)
                params = self.state.tab_params.get(title)
                if params and hasattr(panel, "apply_config"):
                    self._apply_tab(title, panel, params)
                guard_widgets(panel.widget, panel.status)
                self._write_on_change(title, panel)
            heading = [] if getattr(panel, "names_its_tab", False) else [self._headings[title]]
            self._slots[title].children = [*heading, panel.widget]
        return self.panels[title]

    def _apply_tab(self, title: str, panel: Any, params: dict[str, Any]) -> None:
        """Set a tab's controls from its parameters in the state; problems go to its status line."""
        try:
            panel.apply_config(dict(params))
        except ExplorerError as error:
            panel.status.error(str(error))
        except (TypeError, KeyError, AttributeError, ValueError) as error:
            panel.status.error(f"the {title} part of the configuration could not be applied "
                               f"({shorten(str(error), 120)})")

    def _write_on_change(self, title: str, panel: Any) -> None:
        """The tab writes its own parameters into the state whenever one of its controls changes."""
        if not hasattr(panel, "config"):
            return

        def write(_change: Any) -> None:
            if self._loading:                        # a configuration being loaded sets the parameters
                return
            try:
                self.state.set_tab(title, panel.config())
            except (ExplorerError, TypeError, ValueError, AttributeError):
                pass                                 # a half-built tab: written at the next change or export

        stack = [panel.widget]
        while stack:
            widget = stack.pop()
            if widget.has_trait("value") and not isinstance(widget, (widgets.HTML, widgets.FileUpload)):
                widget.observe(write, names="value")
            stack.extend(getattr(widget, "children", ()) or ())
        write(None)

    def sync_tabs(self) -> None:
        """Write every built tab's own parameters into the state (epsilon and the data set are the state's)."""
        for title, panel in self.panels.items():
            if title != "Data" and hasattr(panel, "config"):
                self.state.set_tab(title, panel.config())

    def build_all(self) -> None:
        """Build every panel now, the Data tab's included (notebooks that want them all at once)."""
        for title in self._factories:
            self.panel(title)

    @guarded
    def _on_tab(self, change: Any) -> None:
        index = change["new"]
        if index is None or not 0 <= index < len(self._titles):
            return
        title = self._titles[index]
        if title in self._factories:
            self.panel(title)
        apply_figure_scale(self.tabs.children[index])     # the presenter view switched while it was hidden

    def load_query_string(self, query_string: str) -> None:
        """Apply ``?config=...``, ``?presenter=1`` and ``?teacher=1`` from a page URL (Voilà passes it as
        ``QUERY_STRING``; a preheated demo kernel gets it through :meth:`apply_query`)."""
        query = urllib.parse.parse_qs(query_string or "")
        if teacher_mode_requested(query_string):
            self.teacher_mode = True
            for panel in self.panels.values():     # a tab built before the address was known (a preheated kernel)
                teacher = getattr(panel, "set_teacher_mode", None)
                if callable(teacher):
                    teacher(True)
        presenter = query.get("presenter")
        if presenter and presenter[0].strip().lower() in ("1", "true", "yes", "on"):
            self.set_presenter(True)
        values = query.get("config")
        if not values:
            return
        try:
            padded = values[0] + "=" * (-len(values[0]) % 4)
            text = base64.urlsafe_b64decode(padded.encode()).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            raise ConfigurationError("the configuration in the page address could not be decoded") from None
        self.load_config(text)

    def apply_query(self, query_string: str) -> None:
        """Apply a page address's ``?config=`` and ``?presenter=1`` and say what was done, above the tabs.

        A configuration loaded says "Configuration loaded: ..." (what it set, in words, and the tab it opened on);
        a refused one says why, and the explorer keeps its defaults.  Never raises an explorer error.
        """
        try:
            self.load_query_string(query_string)
        except ExplorerError as error:
            message = (f"The configuration in the address was not applied: {error}. "
                       "The explorer opened with its defaults.")
            self.status.error(message)
            self.notice.value = f"<div class='explorer-config-refused' role='alert'>{escape(message)}</div>"
            return
        if urllib.parse.parse_qs(query_string or "").get("config"):
            words = f"Configuration loaded: {self.describe_config()}."
            words += f" Opened on the {self._titles[self.tabs.selected_index or 0]} tab."
            self.status.info(words)
            self.notice.value = f"<div class='explorer-config-loaded' role='status'>{escape(words)}</div>"

    def config_query(self) -> str:
        """``config=...``: the configuration as a URL query (append ``?`` + this to the app's address)."""
        text = json.dumps(self.export_config(), separators=(",", ":"))
        return "config=" + base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")

    # ------------------------------------------------------------------ configuration
    def export_config(self) -> dict[str, Any]:
        """The configuration: the state written out, each parameter once (:meth:`AppState.to_config`), and the
        tab open now (``"open_tab"``: a configuration link opens on it)."""
        self.sync_tabs()
        config = self.state.to_config()
        index = self.tabs.selected_index
        if index is not None and 0 <= index < len(self._titles):
            config["open_tab"] = self._titles[index]
        return config

    def load_config(self, config: dict[str, Any] | str) -> None:
        """Apply a configuration made by :meth:`export_config` (a dict or its JSON text).

        The state checks all of it first, then each tab's panel checks its settings (built now if it was not):
        nothing changes if any part is refused (:class:`ConfigurationError` says which and why).  Then every
        built tab follows the state, and the app opens on the configuration's ``open_tab``.
        """
        config, self._last_open_tab = _without_open_tab(config)
        open_tab = self._open_tab_of(self._last_open_tab)
        self.sync_tabs()
        previous = self.state.to_config()
        self._loading = True
        try:
            self._load_config(config)
            try:
                self._check_tabs()
            except ConfigurationError:
                self._load_config(previous)            # all or nothing: the tabs as they were
                for title in self.state.tab_params.keys() | set(self.panels):
                    if title in self.panels and title != "Data":
                        self.panels[title].status.clear()
                raise
        finally:
            self._loading = False
        self.sync_tabs()
        if open_tab is not None:
            self.open_tab(open_tab)

    def _open_tab_of(self, value: Any) -> str | None:
        """The tab a configuration opens on (its ``open_tab``), checked; None when it names none."""
        if value is None:
            return None
        if value not in self._titles:
            raise ConfigurationError(f"open_tab must be one of {self._titles}, got {shorten(value)}")
        return value

    def _check_tabs(self) -> None:
        """Check every tab's part of the state's configuration with its panel (built now if needed).

        Raises :class:`ConfigurationError` naming the tab and the refused value (the panel's own check).
        """
        for title, params in self.state.tab_params.items():
            if title not in self._factories and title not in self.panels:
                raise ConfigurationError(f"the configuration names a tab this explorer has not: {shorten(title)}")
            panel = self.panel(title)
            if hasattr(panel, "check_config"):
                try:
                    panel.check_config(dict(params))
                except ConfigurationError as error:
                    raise ConfigurationError(f"the {title} tab's settings were refused: {error}") from None

    def describe_config(self) -> str:
        """What the configuration in the state sets, in words: the data set, ε and each tab's settings."""
        import re

        parts = [f"data set {self.state.dataset_name}", f"ε = {self.state.epsilon:g}"]
        for title, params in self.state.tab_params.items():
            panel = self.panels.get(title)
            controls = getattr(panel, "controls", {}) if panel is not None else {}
            # The panel's own words for its settings (a choice by its label; settings its view does not use now,
            # and empty ones, left out), as in the caption of an exported figure.
            shown = panel.caption_inputs() if hasattr(panel, "caption_inputs") else {}
            words = []
            for key in params:
                control = controls.get(key)
                if control is None or control.state is not None:
                    continue
                name = re.sub(r"<[^>]+>", "", str(getattr(control.widget, "description", "") or key)).strip().rstrip(":")
                if name in shown:
                    words.append(f"{name} = {shown[name]}")
            if words:
                parts.append(f"{title}: {', '.join(words)}")
        return "; ".join(parts)

    def _load_config(self, config: dict[str, Any] | str) -> None:
        self.state.load_config(config)
        for title, panel in list(self.panels.items()):
            if title == "Data" or title not in self.state.tab_params or not hasattr(panel, "apply_config"):
                continue
            params = self.state.tab_params[title]
            current = {k: v for k, v in panel.config().items() if k != "epsilon"} if hasattr(panel, "config") \
                else None
            if current != params:                   # a tab already showing these parameters is left alone
                self._apply_tab(title, panel, params)

    _last_open_tab: Any = None

    @guarded
    def _on_export(self) -> None:
        text = json.dumps(self.export_config(), indent=1)
        self.config_text.value = text
        self.download_link.value = (download_link(text.encode(), "explorer-config.json", "application/json",
                                                  "download JSON") + " &nbsp; "
                                    f"<a href='?{self.config_query()}' target='_blank'>link to this configuration</a>")
        note = ""
        if self.state.dataset_name.startswith(UPLOAD_PREFIX):
            note = (f" It names the uploaded file {shorten(self.state.dataset_name[len(UPLOAD_PREFIX):])}, which is "
                    "not part of the configuration: whoever loads it must upload that file first.")
        self.status.info("Configuration exported below (copy it, or download the JSON file)." + note)

    @guarded
    def _on_load(self) -> None:
        try:
            self.load_config(self.config_text.value)
        except ExplorerError:
            raise
        except (TypeError, KeyError, AttributeError) as error:
            raise ConfigurationError(f"configuration could not be applied: {shorten(str(error), 120)}") from None
        problems = [title for title, panel in self.panels.items() if title != "Data" and panel.status.is_error]
        self.status.info(f"Configuration loaded: {self.describe_config()}."
                         + (f" See the status line of: {', '.join(problems)}." if problems else ""))


class _Panels(dict):
    """The app's built panels by tab title: looking one up by ``[title]`` builds it if it is not yet
    (:meth:`ExplorerApp.panel`); ``in``, ``get`` and iteration see only the built ones."""

    def __init__(self, app: ExplorerApp):
        super().__init__()
        self._app = app

    def __missing__(self, title: str) -> Any:
        if title not in self._app._factories:
            raise KeyError(title)
        return self._app.panel(title)


def _without_open_tab(config: Any) -> tuple[Any, Any]:
    """``(config without its "open_tab", the open_tab)``; JSON text is read first (refused in words)."""
    if isinstance(config, (str, bytes)):
        try:
            parsed = json.loads(config)
        except (json.JSONDecodeError, UnicodeDecodeError):
            return config, None                    # the state's parser says why, in words
        config = parsed
    if isinstance(config, dict) and "open_tab" in config:
        config = dict(config)
        return config, config.pop("open_tab")
    return config, None


def show(panel: Any) -> widgets.VBox:
    """One panel (or any widget) to display in a notebook, its figures following the width of their column.

    ``panel.widget`` alone shows the panel with figures of their design width (a narrower column
    scrolls them); ``show(panel)`` adds the kernel's figure sizer, as the app and the lessons do, and the
    explorer's contrast, focus and reflow rules (:mod:`explorer.panels.a11y`).

    Examples
    --------
    >>> from explorer.panels.data import DataPanel
    >>> box = show(DataPanel())
    >>> type(box).__name__, len(box.children)
    ('VBox', 3)
    """
    widget = getattr(panel, "widget", panel)
    if not isinstance(widget, widgets.Widget):
        raise TypeError(f"show() takes a panel or a widget, got {type(panel).__name__}")
    box = widgets.VBox([widget, figure_sizer(), a11y_style()])
    box.add_class(A11Y_CLASS)
    return box


#: values of ``teacher=`` in the page address that turn the teacher mode on
TEACHER_FLAGS = ("1", "true", "yes", "on")


def teacher_mode_requested(query_string: str | None) -> bool:
    """Whether a page address asks for the teacher mode: ``?teacher=1`` (or ``true``, ``yes``, ``on``).

    The Lessons page then opens with the check questions' answers; without it (a student's page) they
    are not on the page at all.

    >>> teacher_mode_requested("teacher=1"), teacher_mode_requested("config=abc&teacher=yes"), teacher_mode_requested("")
    (True, True, False)
    """
    values = urllib.parse.parse_qs(str(query_string or "").lstrip("?")).get("teacher", [])
    return any(value.strip().lower() in TEACHER_FLAGS for value in values)


def build_app(state: AppState | None = None, *, query_string: str | None = None, **kwargs: Any) -> ExplorerApp:
    """Build the whole explorer.  Display ``build_app().widget`` in a notebook or Voilà.

    A ``config=`` parameter in the page address (Voilà's ``QUERY_STRING``, or
    ``query_string``) is applied after the app is built; if it cannot be applied
    the app starts with its defaults and says why on its status line.

    Examples
    --------
    >>> app = build_app()
    >>> app.state.dataset_name, list(app.panels)      # every tab is built when first opened
    ('UCI Adult', [])
    >>> app.open_tab("Data")
    >>> list(app.panels)
    ['Data']
    """
    app = ExplorerApp(state, **kwargs)
    query = os.environ.get("QUERY_STRING", "") if query_string is None else query_string
    app.teacher_mode = teacher_mode_requested(query)    # before any tab is built
    if query:
        app.apply_query(query)
    return app
