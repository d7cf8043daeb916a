"""The Data tab: choose a built-in data set or upload a CSV, look at it, give its columns roles.

The chosen data set, its column roles and marks are the app's shared state
(:class:`~explorer.state.AppState`), which the other panels read; this tab only
shows the state and writes the user's choices into it.  A bad upload shows its
message and keeps the previous data set.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
import pandas as pd

from explorer.core import datasets
from explorer.errors import DatasetError
from explorer.panels._base import AppState, StatusLine, close_tree, escape, guarded
from explorer.panels._format import html_table, type_name
from explorer.state import ROLES, shorten

__all__ = ["DataPanel"]

ROLE_OPTIONS = [("numeric", "numeric"), ("categorical", "categorical"), ("ordinal", "ordinal")]


def _preview_html(frame: pd.DataFrame, n_rows: int) -> str:
    """The first rows, formatted for reading (yes/no, thousands separators, 6 significant digits)."""
    return html_table(frame.head(n_rows), css_class="explorer-preview", digits=6, index=True,
                      max_height="330px")


class DataPanel:
    """Pick a data set, preview it and mark its columns (role, quasi-identifier, sensitive)."""

    def __init__(self, state: AppState | None = None, *, dataset: str = "UCI Adult", n_preview: int = 10,
                 max_bytes: int = datasets.DEFAULT_MAX_BYTES):
        self.state = state if state is not None else AppState()
        self.max_bytes = max_bytes
        self.n_preview = n_preview
        self.status = StatusLine()
        self._syncing = False

        self.dataset = widgets.Dropdown(options=self.state.dataset_names(),
                                        value=self.state.dataset_name or datasets.canonical_name(dataset),
                                        description="Data set", layout=widgets.Layout(width="360px"))
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
        self._columns_for: tuple | None = None       # (data set name, columns) the column grid was built for

        self.dataset.observe(self._on_dataset, names="value")
        self.upload.observe(self._on_upload, names="value")
        self.state.observe(self._on_state, names=["dataset", "quasi_identifiers", "sensitive"])

        header = widgets.HBox([self.dataset, self.upload, self.upload_limit],
                              layout=widgets.Layout(align_items="center", flex_flow="row wrap"))
        self.widget = widgets.VBox([
            header, self.status.widget, self.summary,
            widgets.HTML("<b>First rows</b>"), self.preview,
            widgets.HTML("<b>Columns</b>: role, quasi-identifier (QI) and sensitive attribute"),
            self.columns_box,
        ])
        self.widget.add_class("explorer-data-panel")
        if self.state.dataset is not None and self.state.dataset_name:
            self._on_state()
        else:
            self._on_dataset()

    # ------------------------------------------------------------------ choosing data
    @property
    def frame(self) -> pd.DataFrame | None:
        return self.state.dataset

    @guarded
    def _on_dataset(self, change: Any = None) -> None:
        if self._syncing:
            return
        name = self.dataset.value
        if name != self.state.dataset_name or self.state.dataset is None:
            self.state.select_dataset(name)
        frame = self.state.dataset
        marks = ""
        if self.state.quasi_identifiers or self.state.sensitive:      # its default marks, now the state's
            marks = (f" Marked: quasi-identifiers {', '.join(self.state.quasi_identifiers) or 'none'}; "
                     f"sensitive {', '.join(self.state.sensitive) or 'none'}.")
        self.status.info(f"Loaded {self.state.dataset_name}: {len(frame):,} records, {frame.shape[1]} columns."
                         + marks)

    @guarded
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
            self.upload.value = ()
        label = self.state.add_upload(shown_name, frame)
        self.state.select_dataset(label)
        self.status.info(f"Loaded {shown_name}: {len(frame):,} records, {frame.shape[1]} columns.")

    def load_frame(self, frame: pd.DataFrame, name: str) -> None:
        """Use any DataFrame as the app's data set (from a notebook)."""
        self.state.use_frame(frame, name)

    @guarded
    def _on_state(self, change: Any = None) -> None:
        """Show the state: the data set's name, summary, preview and column grid follow it."""
        frame = self.state.dataset
        if frame is None:
            return
        self._syncing = True
        try:
            names = self.state.dataset_names()
            if list(self.dataset.options) != names:
                self.dataset.options = names
            if self.dataset.value != self.state.dataset_name:
                self.dataset.value = self.state.dataset_name
        finally:
            self._syncing = False
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
        self._syncing = True
        try:
            for column in self.role:
                self.role[column].value = roles.get(column, self.role[column].value)
                self.quasi_identifier[column].value = column in self.state.quasi_identifiers
                self.sensitive[column].value = column in self.state.sensitive
                self._dtype[column].value = type_name(frame[column].dtype)
        finally:
            self._syncing = False

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
    @guarded
    def _on_role(self, column: str, change: Any) -> None:
        if self._syncing or self.state.dataset is None or column not in self.state.dataset.columns:
            return
        role = change["new"]
        try:
            self.state.set_roles({column: role})
        except DatasetError:
            self._syncing = True
            try:
                self.role[column].value = change["old"] if change["old"] in ROLES else "categorical"
            finally:
                self._syncing = False
            raise
        self.status.info(f"Column {shorten(column)} is now {role}.")

    @guarded
    def _on_marks(self, change: Any = None) -> None:
        if self._syncing:
            return
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

    # ------------------------------------------------------------------ configuration
    def config(self) -> dict[str, Any]:
        """The data part of the state's configuration."""
        config = self.state.to_config()
        return {k: config[k] for k in ("dataset", "roles", "quasi_identifiers", "sensitive")}

    def apply_config(self, config: dict[str, Any]) -> None:
        """Set the data set, roles and marks from :meth:`config` output (all or nothing)."""
        self.state.load_config({**self.state.to_config(), **dict(config)})
