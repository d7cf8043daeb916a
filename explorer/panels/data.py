"""The Data tab: choose a built-in data set or upload a CSV, look at it, give its columns roles.

The chosen data set, its column roles and marks are the app's shared state
(:class:`~explorer.state.AppState`), which the other panels read; this tab only
shows the state and writes the user's choices into it.  Its one declared control,
the data set's name, is a view of the state (so the tab's own configuration is
empty: the app's configuration writes the data set, roles and marks once, at its
top).  A bad upload shows its message and keeps the previous data set.
"""

from __future__ import annotations

import json
from typing import Any

import ipywidgets as widgets
import pandas as pd

from explorer.core import datasets
from explorer.core.datasets import dataset_info
from explorer.errors import DatasetError
from explorer.panels._format import html_table, type_name
from explorer.panels.a11y import section_heading
from explorer.panels.base import Panel, on_change
from explorer.panels.controls import state_view
from explorer.panels.figures import close_tree
from explorer.panels.status import escape, guarded
from explorer.state import ROLES, UPLOAD_PREFIX, AppState, shorten

__all__ = ["DataPanel", "data_code"]

ROLE_OPTIONS = [("numeric", "numeric"), ("categorical", "categorical"), ("ordinal", "ordinal")]


def _preview_html(frame: pd.DataFrame, n_rows: int) -> str:
    """The first rows, formatted for reading (yes/no, thousands separators, 6 significant digits)."""
    return html_table(frame.head(n_rows), css_class="explorer-preview", digits=6, index=True,
                      max_height="330px", label="first rows of the data set")


def _literal(value: Any) -> str:
    """A Python literal of a text or a list of texts (for :meth:`DataPanel.code`)."""
    return json.dumps(value, ensure_ascii=False)


class DataPanel(Panel):
    """Pick a data set, preview it and mark its columns (role, quasi-identifier, sensitive).

    The data set's name (:attr:`dataset`, configuration key ``"dataset"``) is a view of the state's
    ``dataset_name``: a choice goes through :meth:`~explorer.state.AppState.select_dataset`.  The column grid
    (a role, a quasi-identifier box and a sensitive box per column) is rebuilt for each data set and writes
    through :meth:`~explorer.state.AppState.set_roles` and :meth:`~explorer.state.AppState.set_marks`.  The
    panel has no figure; :meth:`code` loads the current data set, roles and marks with the public API.

    Parameters
    ----------
    state : AppState, optional
        The shared state; when it holds no data set yet, ``dataset`` is loaded into it.
    dataset : str
        The data set to start with when the state has none.
    n_preview : int
        How many first rows the preview shows.
    max_bytes : int
        The largest upload accepted (bytes).
    """

    def __init__(self, state: AppState | None = None, *, dataset: str = "UCI Adult", n_preview: int = 10,
                 max_bytes: int = datasets.DEFAULT_MAX_BYTES):
        super().__init__(state)
        self.max_bytes = max_bytes
        self.n_preview = n_preview
        selected = self.state.dataset is None or not self.state.dataset_name
        if selected:
            self.state.select_dataset(dataset)

        # The panel follows the state's list of names before the dropdown follows its value (an upload's name
        # must be an option first): this observer is registered before the view's own.
        self.state.observe(self._follow_names, names="dataset_name")
        self.dataset = self.control("dataset", state_view(
            widgets.Dropdown(options=self._names(), value=self.state.dataset_name, description="Data set",
                             layout=widgets.Layout(width="360px")),
            self.state, "dataset_name", self.status, write=self._select), state="dataset_name")
        self.upload = widgets.FileUpload(accept=".csv,text/csv", multiple=False,
                                         description="Upload CSV", layout=widgets.Layout(width="160px"))
        limit_mb = max_bytes / (1024 * 1024)
        self.upload_limit = widgets.HTML(f"<small>CSV, at most {limit_mb:g} MB, "
                                         f"{datasets.DEFAULT_MAX_ROWS:,} rows and "
                                         f"{datasets.DEFAULT_MAX_COLUMNS} columns</small>")
        self.summary = widgets.HTML()
        self.preview = widgets.HTML()
        self.columns_box = widgets.VBox()
        self.role: dict[str, widgets.Dropdown] = {}
        self.quasi_identifier: dict[str, widgets.Checkbox] = {}
        self.sensitive: dict[str, widgets.Checkbox] = {}
        self._dtype: dict[str, widgets.HTML] = {}
        self._columns_for: tuple | None = None       # (data set name, columns) the column grid was built for

        self.upload.observe(self._on_upload, names="value")
        self.state.observe(self._on_state, names=["dataset", "quasi_identifiers", "sensitive"])

        header = widgets.HBox([self.dataset, self.upload, self.upload_limit],
                              layout=widgets.Layout(align_items="center", flex_flow="row wrap"))
        self.announce(self.summary)   # readouts: aria-live regions (explorer.panels.access)
        self.widget = widgets.VBox([
            header, self.status.widget, self.summary,
            widgets.HTML(section_heading("First rows")), self.preview,
            widgets.HTML(section_heading("Columns", inline=True)
                         + ": role, quasi-identifier (QI) and sensitive attribute"),
            self.columns_box,
        ])
        self.widget.add_class("explorer-data-panel")
        self.refresh()
        if self.state.dataset is not None:       # chosen now, or before (the app chooses it before the tab opens)
            self.status.info(self._loaded())

    # ------------------------------------------------------------------ choosing data
    @property
    def frame(self) -> pd.DataFrame | None:
        """The shared data set (the state's)."""
        return self.state.dataset

    def _names(self) -> list[str]:
        """The dropdown's choices: the state's data sets (and the current name, should it be none of them)."""
        names = self.state.dataset_names()
        current = self.state.dataset_name
        return names if not current or current in names else [*names, current]

    def _select(self, name: str) -> None:
        """The dropdown's writer: a user's choice of data set goes to the state (and is said on the status line).

        While the panel sets the dropdown itself (new choices after an upload), the transient values are not
        choices and are not written.
        """
        if self.is_busy:
            return
        self.state.select_dataset(name)
        self.status.info(self._loaded())

    def _loaded(self) -> str:
        """The status line after a data set is chosen: its size and (its default) marks."""
        frame = self.state.dataset
        marks = ""
        if self.state.quasi_identifiers or self.state.sensitive:      # its default marks, now the state's
            marks = (f" Marked: quasi-identifiers {', '.join(self.state.quasi_identifiers) or 'none'}; "
                     f"sensitive {', '.join(self.state.sensitive) or 'none'}.")
        return f"Loaded {self.state.dataset_name}: {len(frame):,} records, {frame.shape[1]} columns." + marks

    @guarded
    def _follow_names(self, change: Any = None) -> None:
        """The dropdown's choices and value follow the state's data set (an upload, a loaded configuration)."""
        with self.busy():
            names = self._names()
            if list(self.dataset.options) != names:
                self.dataset.options = names
            if self.dataset.value != self.state.dataset_name:
                self.dataset.value = self.state.dataset_name

    @on_change
    def _on_upload(self, change: Any = None) -> None:
        files = self.upload.value
        if not files:
            return
        try:
            item = files[0]
            content = bytes(item.get("content", b""))  # the real bytes; the client's size field is display only
            shown_name = str(item.get("name", "upload.csv"))[:80]
        except (TypeError, KeyError, AttributeError, IndexError):
            raise DatasetError("the upload could not be read; the previous data set is kept") from None
        try:
            frame = datasets.load_csv(content, name=shown_name, max_bytes=self.max_bytes)
        except DatasetError as error:
            self.status.error(f"Could not use {shown_name}: {error}. The previous data set is kept.")
            return
        finally:
            with self.busy():
                self.upload.value = ()
        label = self.state.add_upload(shown_name, frame)
        self.state.select_dataset(label)
        self.status.info(f"Loaded {shown_name}: {len(frame):,} records, {frame.shape[1]} columns.")

    def load_frame(self, frame: pd.DataFrame, name: str) -> None:
        """Use any DataFrame as the app's data set (from a notebook)."""
        self.state.use_frame(frame, name)

    @guarded
    def _on_state(self, change: Any = None) -> None:
        """Show the state: the summary, preview and column grid follow it."""
        self.refresh()

    def refresh(self) -> None:
        """Show the state's data set: its summary, first rows and column grid."""
        frame = self.state.dataset
        if frame is not None:
            self._show(frame)

    # ------------------------------------------------------------------ display
    def _show(self, frame: pd.DataFrame) -> None:
        info = self.state.info
        name = self.state.dataset_name or "data"                  # the one name the other tabs show too
        parts = [f"<b>{escape(name)}</b>: {len(frame):,} records, {frame.shape[1]} columns"]
        if info is not None and info.source:
            parts.append(f"source: {escape(info.source)}")
        if info is not None and info.licence:
            parts.append(f"licence: {escape(info.licence)}")
        if info is not None and info.description:
            parts.append(escape(info.description))
        if info is not None and info.masked:
            pairs = ", ".join(f"{y} of {x}" for x, y in info.masked.items())
            parts.append(f"printed masked version: {escape(pairs)} (the Permutation tab analyses it)")
        self.summary.value = "<br>".join(parts)
        self.preview.value = _preview_html(frame, self.n_preview)
        key = (self.state.dataset_name, tuple(map(str, frame.columns)))
        if key != self._columns_for:
            self._build_columns(frame)
            self._columns_for = key
        self._sync_columns(frame)

    def _sync_columns(self, frame: pd.DataFrame) -> None:
        """Set the column grid's controls to the state (roles, marks, dtypes) without rebuilding it."""
        roles = self.state.roles()
        with self.busy():
            for column in self.role:
                self.role[column].value = roles.get(column, self.role[column].value)
                self.quasi_identifier[column].value = column in self.state.quasi_identifiers
                self.sensitive[column].value = column in self.state.sensitive
                self._dtype[column].value = type_name(frame[column].dtype)

    def _close_columns(self) -> None:
        """Close the widgets of the previous column grid (no leaks over data-set switches)."""
        old = self.columns_box.children
        self.columns_box.children = ()
        for child in old:
            close_tree(child)

    def _build_columns(self, frame: pd.DataFrame) -> None:
        self._close_columns()
        roles = self.state.roles()
        self.role, self.quasi_identifier, self.sensitive, self._dtype = {}, {}, {}, {}
        head = [widgets.HTML(f"<b>{t}</b>") for t in ("column", "type", "distinct", "role", "QI", "sensitive")]
        cells: list[widgets.Widget] = list(head)
        nunique = frame.nunique(dropna=False)
        for column in frame.columns:
            column = str(column)
            role = widgets.Dropdown(options=ROLE_OPTIONS, value=roles[column],
                                    layout=widgets.Layout(width="120px"))
            qi = widgets.Checkbox(value=column in self.state.quasi_identifiers, indent=False,
                                  layout=widgets.Layout(width="40px"))
            sens = widgets.Checkbox(value=column in self.state.sensitive, indent=False,
                                    layout=widgets.Layout(width="40px"))
            role.description_allow_html = False
            # their accessible names (the grid's header cells are not tied to them: ipywidgets issue 2650)
            role._explorer_name = f"role of column {column}"
            qi._explorer_name = f"{column} is a quasi-identifier"
            sens._explorer_name = f"{column} is sensitive"
            role.observe(lambda change, c=column: self._on_role(c, change), names="value")
            qi.observe(self._on_marks, names="value")
            sens.observe(self._on_marks, names="value")
            self.role[column], self.quasi_identifier[column], self.sensitive[column] = role, qi, sens
            self._dtype[column] = widgets.HTML(type_name(frame[column].dtype))
            cells += [widgets.HTML(escape(column)), self._dtype[column],
                      widgets.HTML(f"{int(nunique[column]):,}"), role, qi, sens]
        grid = widgets.GridBox(cells, layout=widgets.Layout(
            grid_template_columns="220px 110px 80px 130px 50px 70px", grid_gap="2px 8px"))
        self.columns_box.children = [grid]

    # ------------------------------------------------------------------ column marks
    @on_change
    def _on_role(self, column: str, change: Any) -> None:
        if self.state.dataset is None or column not in self.state.dataset.columns:
            return
        role = change["new"]
        try:
            self.state.set_roles({column: role})
        except DatasetError:
            with self.busy():                          # the control shows the state's role again
                self.role[column].value = change["old"] if change["old"] in ROLES else "categorical"
            raise
        self.status.info(f"Column {shorten(column)} is now {role}.")

    @on_change
    def _on_marks(self, change: Any = None) -> None:
        qi = [c for c, box in self.quasi_identifier.items() if box.value]
        sensitive = [c for c, box in self.sensitive.items() if box.value]
        try:
            self.state.set_marks(qi, sensitive)
        except DatasetError:
            self._sync_columns(self.state.dataset)     # the boxes show the state again
            raise
        self.status.info(f"Quasi-identifiers: {', '.join(qi) or 'none'}; sensitive: {', '.join(sensitive) or 'none'}.")

    def guard(self, guard: Any) -> None:
        """Guard the column grid now and every grid built later (``guard(widget)``: see the app)."""
        self._guard = guard
        guard(self.widget)

    # ------------------------------------------------------------------ the code of the view
    def code(self) -> str:
        """The snippet that loads the current data set, its roles and marks with the public API
        (:func:`data_code` of the panel's state)."""
        return data_code(self.state)

    # ------------------------------------------------------------------ closing
    def close(self) -> None:
        """Stop following the state and close every widget of the panel."""
        for observer, names in ((self._follow_names, "dataset_name"),
                                (self._on_state, ["dataset", "quasi_identifiers", "sensitive"])):
            try:
                self.state.unobserve(observer, names=names)
            except ValueError:                         # already closed
                pass
        super().close()


def data_code(state: AppState) -> str:
    """The snippet that loads ``state``'s data set, its roles and marks with the public API: the Data tab's
    view as code, written from the state alone (the app writes it whether or not the tab was opened).

    A built-in data set is chosen by its one name (:meth:`~explorer.state.AppState.select_dataset`); an
    upload is read again from its file with :func:`explorer.core.datasets.load_csv`.  Only the roles that
    differ from the data set's own description are set; the marks are always set.
    """
    name = state.dataset_name
    lines = ["from explorer.state import AppState", "", "state = AppState()"]
    if name.startswith(UPLOAD_PREFIX):
        file_name = name[len(UPLOAD_PREFIX):]
        source = state.uploads.get(name)
        lines[0:0] = ["from explorer.core import datasets"]
        lines += [f"frame = datasets.load_csv({_literal(file_name)}, name={_literal(file_name)})"
                  "   # the file uploaded",
                  f"state.use_frame(frame, {_literal(file_name)})"]
    else:
        source = datasets.load_builtin(name)
        lines += [f"state.select_dataset({_literal(name)})"]
    own = dataset_info(source) if source is not None else None
    roles = {column: role for column, role in state.roles().items()
             if own is None or own.role(column) != role}
    if roles:
        lines += [f"state.set_roles({{{', '.join(f'{_literal(c)}: {_literal(r)}' for c, r in roles.items())}}})"]
    lines += [f"state.set_marks({_literal(list(state.quasi_identifiers))}, "
              f"{_literal(list(state.sensitive))})",
              "frame = state.dataset                      # the columns' roles are its dtypes",
              "print(state.dataset_name, frame.shape, state.quasi_identifiers, state.sensitive)"]
    return "\n".join(lines) + "\n"
