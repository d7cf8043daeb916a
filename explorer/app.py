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
from explorer.panels.a11y import A11Y_CLASS, a11y_style, skip_link
from explorer.panels.browser import guard_widgets
from explorer.panels.downloads import download_link
from explorer.panels.status import StatusLine, escape, guarded
from explorer.panels.data import DataPanel
from explorer.panels.landing import LandingPanel
from explorer.panels._resize import figure_sizer
from explorer.references import papers_html
from explorer.state import UPLOAD_PREFIX, AppState, shorten

__all__ = ["build_app", "show", "ExplorerApp", "PANEL_TABS", "ABOUT_HTML"]

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
        self._loading = False
        self.status = StatusLine()
        self.panels: dict[str, Any] = {"Data": DataPanel(self.state, dataset=dataset)}
        self.panels["Data"].guard(lambda root: guard_widgets(root, self.panels["Data"].status))
        # Other panels are built when their tab is first opened: the first page renders fast and a
        # visitor who only looks at one tab does not pay (in time and kernel memory) for the others.
        self._factories: dict[str, Any] = {}
        # Their modules too are imported then (matplotlib and each tab's core modules cost start-up time).
        for title, module_name, class_name in (PANEL_TABS if tabs is None else tabs):
            if importlib.util.find_spec(module_name) is None:  # that panel is not part of this build
                continue
            self._factories[title] = _deferred_class(module_name, class_name)
        about = widgets.HTML(ABOUT_HTML.replace("{version}", escape(__version__)).replace("{papers}", papers_html()))
        self._titles = [LANDING, "Data", *self._factories, "About"]
        self.landing = LandingPanel(self.open_tab, tabs=["Data", *self._factories], state=self.state)
        self._slots = {title: widgets.Box(layout=widgets.Layout(width="100%")) for title in self._factories}
        for slot in self._slots.values():
            slot.children = [widgets.HTML("<i>Loading...</i>")]
        children = [self.landing.widget, self.panels["Data"].widget, *self._slots.values(), about]
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
                             "max-width:none !important}</style>"
                             "<h2 style='margin:4px 0'>Privacy explorer</h2>"
                             "<div style='color:#555'>deniability and permutation, live</div>")
        # The skip link is the first Tab stop; it also carries the page's contrast, focus and reflow rules.
        self.skip_link = skip_link()
        self.widget = widgets.VBox([self.skip_link, title, self.tabs, self.status.widget, config_box,
                                    figure_sizer()])
        self.widget.add_class("explorer-app")
        self.widget.add_class(A11Y_CLASS)
        guard_widgets(config_box, self.status)

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
            params = self.state.tab_params.get(title)
            if params and hasattr(panel, "apply_config"):
                self._apply_tab(title, panel, params)
            guard_widgets(panel.widget, panel.status)
            self._write_on_change(title, panel)
            self._slots[title].children = [panel.widget]
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
        """Build every panel now (notebooks that want them all at once)."""
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

    def load_query_string(self, query_string: str) -> None:
        """Apply ``?config=...`` from a page URL (Voilà passes it to the kernel as ``QUERY_STRING``)."""
        values = urllib.parse.parse_qs(query_string or "").get("config")
        if not values:
            return
        try:
            padded = values[0] + "=" * (-len(values[0]) % 4)
            text = base64.urlsafe_b64decode(padded.encode()).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            raise ConfigurationError("the configuration in the page address could not be decoded") from None
        self.load_config(text)

    def config_query(self) -> str:
        """``config=...``: the configuration as a URL query (append ``?`` + this to the app's address)."""
        text = json.dumps(self.export_config(), separators=(",", ":"))
        return "config=" + base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")

    # ------------------------------------------------------------------ configuration
    def export_config(self) -> dict[str, Any]:
        """The configuration: the state written out, each parameter once (:meth:`AppState.to_config`)."""
        self.sync_tabs()
        return self.state.to_config()

    def load_config(self, config: dict[str, Any] | str) -> None:
        """Apply a configuration made by :meth:`export_config` (a dict or its JSON text).

        The state checks all of it first (nothing changes if any part is refused); then every
        built tab follows the state, and tabs built later read their parameters from it.
        """
        self._loading = True
        try:
            self._load_config(config)
        finally:
            self._loading = False
        self.sync_tabs()

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
        self.status.info(f"Configuration loaded: {self.state.dataset_name}, ε = {self.state.epsilon:g}."
                         + (f" See the status line of: {', '.join(problems)}." if problems else ""))


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


def build_app(state: AppState | None = None, *, query_string: str | None = None, **kwargs: Any) -> ExplorerApp:
    """Build the whole explorer.  Display ``build_app().widget`` in a notebook or Voilà.

    A ``config=`` parameter in the page address (Voilà's ``QUERY_STRING``, or
    ``query_string``) is applied after the app is built; if it cannot be applied
    the app starts with its defaults and says why on its status line.

    Examples
    --------
    >>> app = build_app()
    >>> list(app.panels)[0]
    'Data'
    """
    app = ExplorerApp(state, **kwargs)
    query = os.environ.get("QUERY_STRING", "") if query_string is None else query_string
    if query:
        try:
            app.load_query_string(query)
        except ExplorerError as error:
            app.status.error(f"The configuration in the address was not applied: {error}")
    return app
