"""Show the widgets of an executed notebook as a static snapshot (Sphinx extension of the docs).

MyST-NB executes the teaching notebooks; nbclient saves the state of every widget they displayed in the
notebook's metadata, and MyST-NB would hand that state to the ipywidgets JavaScript from a CDN.  A lesson
is one widget: without that JavaScript (offline, or blocked) the page would show nothing, and with it the
controls look alive but are not (no kernel answers them).  This extension instead draws each displayed
widget as plain HTML from its saved state: the texts and tables of HTML widgets, each control as its label
and value, the outputs of Output widgets and the figures as PNG images.  No widget JavaScript is loaded.

The figures: an ipympl canvas sends its pixels only when a browser view asks for them, so before the
kernel stops, a hidden last cell (:data:`SNAPSHOT_CELL`, added by :func:`prepare_notebook` to the copy the
site executes) stores each canvas's figure as a PNG data URL in the canvas's state.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

from docutils import nodes
from sphinx.util import logging

logger = logging.getLogger(__name__)

VIEW_MIMETYPE = "application/vnd.jupyter.widget-view+json"
_VIEW_SCRIPT = re.compile(r'<script type="application/vnd\.jupyter\.widget-view\+json">(.*?)</script>', re.S)
_REFERENCE = "IPY_MODEL_"

#: The hidden last cell: every live ipympl canvas keeps its figure as a PNG data URL in its state.
SNAPSHOT_CELL = """\
# Docs build only: keep each figure's pixels in its canvas's saved state, for the page's static snapshot.
import base64 as _b64, io as _io
from ipympl.backend_nbagg import Canvas as _Canvas
try:
    from ipywidgets.widgets.widget import _instances as _widgets       # ipywidgets 8
except ImportError:
    from ipywidgets import Widget as _Widget
    _widgets = _Widget.widgets
for _w in list(_widgets.values()):
    if isinstance(_w, _Canvas):
        _buffer = _io.BytesIO()
        _w.figure.savefig(_buffer, format="png", dpi="figure")
        _w._data_url = "data:image/png;base64," + _b64.b64encode(_buffer.getvalue()).decode("ascii")
"""


def prepare_notebook(notebook: dict) -> dict:
    """Return the notebook with :data:`SNAPSHOT_CELL` appended as a removed cell (the source is untouched)."""
    if any(cell["cell_type"] == "code" for cell in notebook["cells"]):
        cell = {"cell_type": "code", "execution_count": None, "outputs": [],
                "metadata": {"tags": ["remove-cell"]}, "source": SNAPSHOT_CELL}
        if (notebook["nbformat"], notebook["nbformat_minor"]) >= (4, 5):
            cell["id"] = "docs-widget-snapshot"
        notebook = dict(notebook, cells=[*notebook["cells"], cell])
    return notebook


class Snapshot:
    """Draws one widget (and its children) as HTML from a notebook's saved widget state."""

    def __init__(self, state: dict[str, Any]):
        self.state = state

    def model(self, reference: str) -> dict[str, Any] | None:
        entry = self.state.get(reference.removeprefix(_REFERENCE))
        return None if entry is None else entry

    def hidden(self, attributes: dict[str, Any]) -> bool:
        layout = self.model(attributes.get("layout") or "")
        layout_state = layout["state"] if layout else {}
        return layout_state.get("display") == "none" or layout_state.get("visibility") == "hidden"

    def render(self, reference: str) -> str:
        entry = self.model(reference)
        if entry is None:
            raise KeyError(f"no saved state for widget {reference}")
        attributes = entry["state"]
        if self.hidden(attributes):
            return ""
        name = entry["model_name"].removesuffix("Model")
        classes = " ".join(["wsnap", f"wsnap-{name.lower()}", *attributes.get("_dom_classes", [])])
        body = self._body(name, attributes)
        return f'<div class="{html.escape(classes)}">{body}</div>' if body else ""

    def _label(self, attributes: dict[str, Any]) -> str:
        text = attributes.get("description") or ""
        if not text:
            return ""
        text = text if attributes.get("description_allow_html") else html.escape(text)
        return f'<span class="wsnap-label">{text}</span> '

    def _children(self, attributes: dict[str, Any]) -> list[str]:
        return [self.render(child) for child in attributes.get("children", [])]

    def _body(self, name: str, a: dict[str, Any]) -> str:  # noqa: C901 - one branch per kind of widget
        if name in {"VBox", "HBox", "Box", "GridBox"}:
            return "".join(self._children(a))
        if name in {"Tab", "Accordion", "Stack"}:
            titles = a.get("titles") or []
            selected = a.get("selected_index")
            parts = []
            for i, child in enumerate(self._children(a)):
                title = titles[i] if i < len(titles) and titles[i] else f"{i + 1}"
                opened = " open" if i == selected or (selected is None and i == 0) else ""
                parts.append(f"<details{opened}><summary>{html.escape(title)}</summary>{child}</details>")
            return "".join(parts)
        if name in {"HTML", "HTMLMath"}:
            return self._label(a) + (a.get("value") or "")
        if name == "Label":
            return html.escape(a.get("value") or "")
        if name == "Button":
            return f'<button class="wsnap-button" disabled>{html.escape(a.get("description") or "")}</button>'
        if name in {"FloatSlider", "IntSlider", "FloatLogSlider", "BoundedFloatText", "BoundedIntText",
                    "FloatText", "IntText"}:
            spec = a.get("readout_format") or _READOUT.get(name)
            return self._label(a) + f'<span class="wsnap-value">{html.escape(_number(a.get("value"), spec))}</span>'
        if name in {"FloatRangeSlider", "IntRangeSlider"}:
            low, high = a.get("value") or (None, None)
            return self._label(a) + f'<span class="wsnap-value">{_plain(low)} to {_plain(high)}</span>'
        if name in {"Dropdown", "Select", "ToggleButtons", "SelectionSlider"}:
            labels, index = a.get("_options_labels") or [], a.get("index")
            chosen = labels[index] if isinstance(index, int) and 0 <= index < len(labels) else "(none)"
            return self._label(a) + f'<span class="wsnap-value">{html.escape(str(chosen))}</span>'
        if name == "SelectMultiple":
            labels, index = a.get("_options_labels") or [], a.get("index") or []
            chosen = ", ".join(str(labels[i]) for i in index if isinstance(i, int) and 0 <= i < len(labels))
            return self._label(a) + f'<span class="wsnap-value">{html.escape(chosen or "(none)")}</span>'
        if name == "RadioButtons":
            labels, index = a.get("_options_labels") or [], a.get("index")
            chosen = {index}
            items = "".join(f"<li>{'●' if i in chosen else '○'} {html.escape(str(label))}</li>"
                            for i, label in enumerate(labels))
            return self._label(a) + f'<ul class="wsnap-options">{items}</ul>'
        if name in {"Checkbox", "ToggleButton"}:
            mark = "☑" if a.get("value") else "☐"
            return f'<span class="wsnap-value">{mark}</span> {html.escape(a.get("description") or "")}'
        if name in {"Text", "Textarea", "Combobox"}:
            return self._label(a) + f'<span class="wsnap-value">{html.escape(a.get("value") or "")}</span>'
        if name == "Output":
            return "".join(_output(output) for output in a.get("outputs", []))
        if name == "MPLCanvas":
            url = a.get("_data_url")
            if not url:
                return ""
            url = url if url.startswith("data:") else f"data:image/png;base64,{url}"
            return f'<img class="wsnap-figure" src="{url}" alt="{html.escape(a.get("_figure_label") or "figure")}">'
        return ""


#: Said above every snapshot: what the reader sees is not live.
NOTE = ('<p class="wsnap-note">A snapshot of the widget as the notebook first shows it: its controls do nothing '
        "here. To use them, run the notebook in JupyterLab or Voilà, or open the app "
        "(<code>privacy-explorer</code>).</p>")


def _plain(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4f}".rstrip("0").rstrip(".") if value != int(value) else f"{value:.0f}"
    return str(value)


#: ipywidgets' default readout of a slider (a saved state may leave defaults out)
_READOUT = {"FloatSlider": ".2f", "IntSlider": "d", "FloatLogSlider": ".3g"}


def _number(value: Any, spec: str | None) -> str:
    if spec and isinstance(value, (int, float)):
        try:
            return format(value, spec)
        except ValueError:
            pass
    return _plain(value)


def _output(output: dict[str, Any]) -> str:
    if output.get("output_type") == "stream":
        return f'<pre class="wsnap-stream">{html.escape(output.get("text", ""))}</pre>'
    data = output.get("data", {})
    if "text/html" in data:
        return "".join(data["text/html"])
    if "image/png" in data:
        return f'<img class="wsnap-figure" src="data:image/png;base64,{data["image/png"]}" alt="figure">'
    if "text/plain" in data:
        return f'<pre>{html.escape("".join(data["text/plain"]))}</pre>'
    return ""


def _widget_state(env, docname: str) -> dict[str, Any]:
    js_files = getattr(env, "nb_metadata", {}).get(docname, {}).get("js_files", {})
    entry = js_files.pop("ipywidgets_state", None)
    for key in [key for key in js_files if key.startswith("ipywidgets_")]:
        del js_files[key]
    if entry is None:
        return {}
    body = entry[1]["body"]
    return json.loads(body)["state"]


def snapshot_widgets(app, doctree: nodes.document) -> None:
    """Replace every widget view of the document by its static snapshot."""
    views = [node for node in doctree.findall(nodes.raw) if VIEW_MIMETYPE in node.astext()]
    state = _widget_state(app.env, app.env.docname)
    if not views:
        return
    snapshot = Snapshot(state)
    for node in views:
        def draw(match: re.Match) -> str:
            view = json.loads(match.group(1).replace("<\\/", "</"))
            try:
                return f'<div class="wsnap-root">{NOTE}{snapshot.render(view["model_id"])}</div>'
            except KeyError as error:
                logger.warning("%s: widget snapshot failed: %s", app.env.docname, error)
                return ""
        text = _VIEW_SCRIPT.sub(draw, node.astext())
        node.replace_self(nodes.raw("", text, format="html"))


def setup(app):
    app.connect("doctree-read", snapshot_widgets)
    app.add_css_file("widget_snapshots.css")
    return {"version": "1", "parallel_read_safe": False, "parallel_write_safe": True}
