"""The Data tab: choose a built-in data set or upload a CSV, look at it, give its columns roles.

The chosen data set is the app's shared state (:class:`~explorer.panels._base.AppState`),
which the other panels read.  A bad upload shows its message and keeps the
previous data set.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
import pandas as pd

from explorer.core import datasets
from explorer.core.datasets import DatasetInfo, dataset_info, with_info
from explorer.errors import DatasetError
from explorer.panels._base import AppState, StatusLine, escape, guarded

__all__ = ["DataPanel"]

ROLE_OPTIONS = [("numeric", "numeric"), ("categorical", "categorical"), ("ordinal", "ordinal")]


def _preview_html(frame: pd.DataFrame, n_rows: int) -> str:
    table = frame.head(n_rows).to_html(index=True, escape=True, border=0, float_format=lambda v: f"{v:.2f}",
                                       classes="explorer-preview")
    style = ("<style>.explorer-preview{border-collapse:collapse;font-size:12px}"
             ".explorer-preview td,.explorer-preview th{padding:2px 8px;border-bottom:1px solid #ddd;"
             "text-align:right;line-height:1.3;white-space:nowrap}</style>")
    return style + f"<div style='max-height:330px;overflow:auto'>{table}</div>"


class DataPanel:
    """Pick a data set, preview it and mark its columns (role, quasi-identifier, sensitive)."""

    def __init__(self, state: AppState | None = None, *, dataset: str = "UCI Adult", n_preview: int = 10,
                 max_bytes: int = datasets.DEFAULT_MAX_BYTES):
        self.state = state if state is not None else AppState()
        self.max_bytes = max_bytes
        self.n_preview = n_preview
        self._uploaded: dict[str, pd.DataFrame] = {}
        self.status = StatusLine()

        self.dataset = widgets.Dropdown(options=list(datasets.BUILTIN_DATASETS), value=dataset,
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

        self.dataset.observe(self._on_dataset, names="value")
        self.upload.observe(self._on_upload, names="value")

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
            self._show(self.state.dataset)
        else:
            self._on_dataset()

    # ------------------------------------------------------------------ choosing data
    @property
    def frame(self) -> pd.DataFrame | None:
        return self.state.dataset

    @guarded
    def _on_dataset(self, change: Any = None) -> None:
        name = self.dataset.value
        if name in self._uploaded:
            frame = self._uploaded[name]
        else:
            frame = datasets.load_builtin(name)
        self._set_dataset(name, frame)
        self.status.info(f"Loaded {name}: {len(frame):,} records, {frame.shape[1]} columns.")

    @guarded
    def _on_upload(self, change: Any = None) -> None:
        files = self.upload.value
        if not files:
            return
        item = files[0]
        content = bytes(item.get("content", b""))  # the real bytes; the client's size field is display only
        shown_name = str(item.get("name", "upload.csv"))[:80]
        try:
            frame = datasets.load_csv(content, name=shown_name, max_bytes=self.max_bytes)
        except DatasetError as error:
            self.status.error(f"Could not use {shown_name}: {error}. The previous data set is kept.")
            return
        finally:
            self.upload.value = ()
        label = f"Uploaded: {shown_name}"
        self._uploaded[label] = frame
        options = [o for o in self.dataset.options if o != label] + [label]
        with self.dataset.hold_trait_notifications():
            self.dataset.options = options
        self._set_dataset_value(label)
        self.status.info(f"Loaded {shown_name}: {len(frame):,} records, {frame.shape[1]} columns.")

    def _set_dataset_value(self, label: str) -> None:
        if self.dataset.value == label:
            self._on_dataset()
        else:
            self.dataset.value = label

    def load_frame(self, frame: pd.DataFrame, name: str) -> None:
        """Use any DataFrame as the app's data set (from a notebook)."""
        label = f"Uploaded: {name}"
        self._uploaded[label] = frame
        self.dataset.options = [o for o in self.dataset.options if o != label] + [label]
        self._set_dataset_value(label)

    def _set_dataset(self, name: str, frame: pd.DataFrame) -> None:
        info = dataset_info(frame)
        qi = [c for c in self.state.quasi_identifiers if c in frame.columns]
        sensitive = [c for c in self.state.sensitive if c in frame.columns]
        with self.state.hold_trait_notifications():
            self.state.dataset_name = name
            self.state.quasi_identifiers = qi
            self.state.sensitive = sensitive
            self.state.dataset = with_info(frame, info)
        self._show(frame)

    # ------------------------------------------------------------------ display
    def _show(self, frame: pd.DataFrame) -> None:
        info = dataset_info(frame)
        parts = [f"<b>{escape(info.name)}</b>: {len(frame):,} records, {frame.shape[1]} columns"]
        if info.source:
            parts.append(f"source: {escape(info.source)}")
        if info.licence:
            parts.append(f"licence: {escape(info.licence)}")
        if info.description:
            parts.append(escape(info.description))
        self.summary.value = "<br>".join(parts)
        self.preview.value = _preview_html(frame, self.n_preview)
        self._build_columns(frame, info)

    def _build_columns(self, frame: pd.DataFrame, info: DatasetInfo) -> None:
        self.role, self.quasi_identifier, self.sensitive = {}, {}, {}
        head = [widgets.HTML(f"<b>{t}</b>") for t in ("column", "type", "distinct", "role", "QI", "sensitive")]
        cells: list[widgets.Widget] = list(head)
        nunique = frame.nunique(dropna=False)
        for column in frame.columns:
            column = str(column)
            role = widgets.Dropdown(options=ROLE_OPTIONS, value=info.role(column),
                                    layout=widgets.Layout(width="120px"))
            qi = widgets.Checkbox(value=column in self.state.quasi_identifiers, indent=False,
                                  layout=widgets.Layout(width="40px"))
            sens = widgets.Checkbox(value=column in self.state.sensitive, indent=False,
                                    layout=widgets.Layout(width="40px"))
            role.observe(lambda change, c=column: self._on_role(c, change), names="value")
            qi.observe(self._on_marks, names="value")
            sens.observe(self._on_marks, names="value")
            self.role[column], self.quasi_identifier[column], self.sensitive[column] = role, qi, sens
            cells += [widgets.HTML(escape(column)), widgets.HTML(escape(frame[column].dtype)),
                      widgets.HTML(f"{int(nunique[column]):,}"), role, qi, sens]
        grid = widgets.GridBox(cells, layout=widgets.Layout(
            grid_template_columns="220px 90px 80px 130px 50px 70px", grid_gap="2px 8px"))
        self.columns_box.children = [grid]

    # ------------------------------------------------------------------ column marks
    @guarded
    def _on_role(self, column: str, change: Any) -> None:
        frame = self.state.dataset
        if frame is None or column not in frame.columns:
            return
        role = change["new"]
        if role not in ("numeric", "categorical", "ordinal"):  # forged value
            raise DatasetError(f"role of column {column!r} must be numeric, categorical or ordinal, got {role!r}")
        if role == "numeric" and not pd.api.types.is_numeric_dtype(frame[column].dtype):
            converted = pd.to_numeric(frame[column].astype("string"), errors="coerce")
            if converted.isna().any() and not frame[column].isna().all():
                self.role[column].value = change["old"]
                raise DatasetError(f"column {column!r} has values that are not numbers; it cannot be numeric")
        info = dataset_info(frame).with_roles({column: role})
        new = frame.copy(deep=False)
        if role == "numeric" and not pd.api.types.is_numeric_dtype(frame[column].dtype):
            new[column] = pd.to_numeric(frame[column].astype("string"))
        elif role in ("categorical", "ordinal") and pd.api.types.is_numeric_dtype(frame[column].dtype):
            new[column] = pd.Categorical(frame[column], ordered=(role == "ordinal"))
        elif role in ("categorical", "ordinal"):
            new[column] = frame[column].cat.as_ordered() if role == "ordinal" else frame[column].cat.as_unordered()
        self.state.dataset = with_info(new, info)
        self.status.info(f"Column {column!r} is now {role}.")

    @guarded
    def _on_marks(self, change: Any = None) -> None:
        qi = [c for c, box in self.quasi_identifier.items() if box.value]
        sensitive = [c for c, box in self.sensitive.items() if box.value]
        both = sorted(set(qi) & set(sensitive))
        if both:
            raise DatasetError(f"column {both[0]!r} cannot be both a quasi-identifier and sensitive")
        with self.state.hold_trait_notifications():
            self.state.quasi_identifiers = qi
            self.state.sensitive = sensitive
        self.status.info(f"Quasi-identifiers: {', '.join(qi) or 'none'}; sensitive: {', '.join(sensitive) or 'none'}.")

    # ------------------------------------------------------------------ configuration
    def config(self) -> dict[str, Any]:
        frame = self.state.dataset
        roles = {c: dataset_info(frame).role(str(c)) for c in frame.columns} if frame is not None else {}
        return {"dataset": self.dataset.value, "roles": roles,
                "quasi_identifiers": list(self.state.quasi_identifiers), "sensitive": list(self.state.sensitive)}

    def apply_config(self, config: dict[str, Any]) -> None:
        name = config.get("dataset", self.dataset.value)
        if name not in self.dataset.options:
            raise DatasetError(f"dataset {name!r} is not available here (uploads are not part of a configuration)")
        self.dataset.value = name
        for column, role in dict(config.get("roles", {})).items():
            if column in self.role and self.role[column].value != role:
                self.role[column].value = role
        qi, sensitive = set(config.get("quasi_identifiers", [])), set(config.get("sensitive", []))
        for column in self.quasi_identifier:
            self.quasi_identifier[column].value = column in qi
            self.sensitive[column].value = column in sensitive
