"""The "What does epsilon mean?" view: the shared epsilon read through every model, side by side.

Wiring only: the numbers come from :func:`explorer.core.epsilon_meaning.read_epsilon`, the pictures from
:mod:`explorer.plotting.epsilon_meaning`.
"""

from __future__ import annotations

import math
from typing import Any

import ipywidgets as widgets
import numpy as np

from explorer._validation import check_int
from explorer.core.epsilon_meaning import attribute_codes, epsilon_summary_lines, read_epsilon
from explorer.errors import ExplorerError, InvalidParameterError
from explorer.panels._base import AppState, StatusLine, download_link, epsilon_slider, escape, guarded, make_figure
from explorer.state import check_shared_epsilon
from explorer.plotting.epsilon_meaning import plot_epsilon_reading, summary_bytes
from explorer.references import cite

__all__ = ["EpsilonMeaningPanel", "EXAMPLE3"]

#: The named choice that needs no data set: five equally likely values, as in Example 3.
EXAMPLE3 = "five equally likely values (Example 3)"
MAX_CATEGORIES = 24
#: The attribute the view opens on when the data set has it (UCI Adult: 7 categories, none dominant).
OPENING_ATTRIBUTE = "marital-status"
HEADINGS = {"odds": "Randomized response: the odds", "deniability": "Deniability left",
            "t-closeness": "t-closeness", "accuracy": "What it costs in accuracy"}


class EpsilonMeaningPanel:
    """One epsilon, every model: RR odds and deniability, t-closeness, and estimation accuracy."""

    def __init__(self, state: AppState | None = None, *, attribute: str | None = None, n: int | None = None):
        self.state = state if state is not None else AppState()
        self.status = StatusLine()
        # The shared epsilon, one range for every tab: this slider is a view of the state's value.
        self.epsilon = epsilon_slider(self.state, self.status, layout=widgets.Layout(width="420px"))
        self.epsilon.continuous_update = True
        self.attribute = widgets.Dropdown(options=[EXAMPLE3], value=EXAMPLE3, description="Attribute",
                                          layout=widgets.Layout(width="380px"))
        self.n_reports = widgets.BoundedIntText(value=n or 1000, min=10, max=1_000_000, description="n reports",
                                                layout=widgets.Layout(width="200px"))
        self.use_records = widgets.Checkbox(value=n is None, description="n = the data set's records",
                                            indent=False, layout=widgets.Layout(width="240px"))
        self.export_png = widgets.Button(description="Summary as PNG", icon="download",
                                         layout=widgets.Layout(width="auto"))
        self.export_pdf = widgets.Button(description="Summary as PDF", icon="download",
                                         layout=widgets.Layout(width="auto"))
        self.download = widgets.HTML()
        self.lines = widgets.HTML(layout=widgets.Layout(width="100%"))
        self.figure, self.canvas = make_figure(11.0, 3.6)
        axes = self.figure.subplots(1, 3)
        self.reading = None
        self._attribute_name = "X"
        self._codes: np.ndarray | None = None
        self._labels: list[str] | None = None
        self.artists = None
        self._refresh_attributes(prefer=attribute, opening=True)
        self._recompute(axes=axes)

        self.attribute.observe(self._on_inputs, names="value")
        self.n_reports.observe(self._on_inputs, names="value")
        self.use_records.observe(self._on_inputs, names="value")
        self.state.observe(self._on_state_epsilon, names="epsilon")
        self.state.observe(self._on_dataset, names="dataset")
        self.export_png.on_click(lambda _: self._export("png"))
        self.export_pdf.on_click(lambda _: self._export("pdf"))
        intro = widgets.HTML(
            "<div style='max-width:1000px;line-height:1.4'><b>What does ε mean?</b> One ε, read through every "
            "model the papers connect. Randomized response: how far a report can move the odds, and the "
            "deniability it leaves. t-closeness: exp(ε/2)-closeness gives ε-differential privacy, and how "
            "concentrated a cluster may then be. Accuracy: what a data collector loses estimating the "
            f"distribution. Sources: {escape(cite('rr-dp'))}; {escape(cite('multidim-rr'))}.</div>")
        self.widget = widgets.VBox([
            intro,
            widgets.HBox([self.epsilon, self.attribute], layout=widgets.Layout(flex_flow="row wrap")),
            widgets.HBox([self.n_reports, self.use_records, self.export_png, self.export_pdf, self.download],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
            self.lines, self.canvas, self.status.widget,
        ], layout=widgets.Layout(width="100%"))

    # ------------------------------------------------------------------ inputs

    def _refresh_attributes(self, prefer: str | None = None, *, opening: bool = False) -> None:
        frame, info = self.state.dataset, self.state.info
        options = [EXAMPLE3]
        if frame is not None and info is not None:
            for column in (*info.categorical, *info.ordinal):
                if column in frame.columns and 2 <= frame[column].nunique(dropna=True) <= MAX_CATEGORIES:
                    options.append(str(column))
        current = prefer or self.attribute.value
        self.attribute.options = options
        if current in options and not (opening and current == EXAMPLE3 and prefer is None):
            self.attribute.value = current
        elif len(options) > 1:      # the data set's own attribute: a practitioner reads ε on their data
            self.attribute.value = OPENING_ATTRIBUTE if OPENING_ATTRIBUTE in options else options[1]
        else:
            self.attribute.value = EXAMPLE3

    def _inputs(self) -> dict[str, Any]:
        epsilon = check_shared_epsilon(self.state.epsilon)
        attribute = self.attribute.value
        if attribute not in self.attribute.options:
            raise InvalidParameterError(f"attribute {str(attribute)[:80]!r} is not one of the choices")
        n = check_int(self.n_reports.value, "n reports", minimum=10, maximum=1_000_000)
        if attribute == EXAMPLE3:
            return {"epsilon": epsilon, "prior": np.full(5, 0.2), "labels": list("abcde"), "n": n,
                    "name": "a uniform 5-value attribute"}
        labels, codes = attribute_codes(self.state.dataset, attribute, max_categories=MAX_CATEGORIES)
        prior = np.bincount(codes, minlength=len(labels)).astype(float)
        inputs = {"epsilon": epsilon, "prior": prior, "labels": labels, "name": attribute}
        if bool(self.use_records.value):
            inputs["codes"] = codes
        else:
            inputs["n"] = n
        return inputs

    # ------------------------------------------------------------------ compute and draw

    def _recompute(self, axes=None) -> None:
        inputs = self._inputs()
        name = inputs.pop("name")
        reading = read_epsilon(**inputs)
        self.reading, self._attribute_name = reading, name
        lines = epsilon_summary_lines(reading, name)
        self.lines.value = "<ul style='margin:4px 0;line-height:1.45;max-width:1050px'>" + "".join(
            f"<li><b>{escape(HEADINGS[key])}.</b> {escape(text)}</li>" for key, text in lines.items()) + "</ul>"
        if self.artists is not None and self.artists.n_categories == reading.prior.size and axes is None:
            self.artists.update(reading, name)
        else:
            if axes is None:
                for ax in self.artists.axes:
                    ax.clear()
                axes = self.artists.axes
            self.artists = plot_epsilon_reading(axes, reading, name)
        self.canvas.draw_idle()
        eps = "infinite" if math.isinf(reading.epsilon) else f"{reading.epsilon:g}"
        self.status.info(f"Showing ε = {eps} on {name}, n = {reading.n:,} reports.")
        self.download.value = ""

    @guarded
    def _on_state_epsilon(self, change: Any = None) -> None:
        if self.reading is None or self.reading.epsilon != self.state.epsilon:
            self._recompute()

    @guarded
    def _on_inputs(self, change: Any = None) -> None:
        self.n_reports.disabled = bool(self.use_records.value) and self.attribute.value != EXAMPLE3
        self._recompute()

    @guarded
    def _on_dataset(self, change: Any = None) -> None:
        self._refresh_attributes()
        self._recompute()

    def config(self) -> dict[str, Any]:
        """The view's own controls (epsilon and the data set are the state's)."""
        return {"attribute": self.attribute.value, "n": int(self.n_reports.value),
                "use_records": bool(self.use_records.value)}

    @guarded
    def apply_config(self, config: dict[str, Any]) -> None:
        """Set the controls from :meth:`config` output; a value that is not a choice is refused in words."""
        if not isinstance(config, dict):
            raise InvalidParameterError(f"configuration must be a dict, got {type(config).__name__}")
        if "attribute" in config and config["attribute"] not in self.attribute.options:
            raise InvalidParameterError(f"attribute {str(config['attribute'])[:80]!r} is not a categorical column "
                                        "of the current data set")
        with self.attribute.hold_trait_notifications():
            if "n" in config:
                self.n_reports.value = check_int(config["n"], "n", minimum=10, maximum=1_000_000)
            if "use_records" in config:
                self.use_records.value = bool(config["use_records"])
            if "attribute" in config:
                self.attribute.value = config["attribute"]
        self._recompute()

    @guarded
    def _export(self, fmt: str) -> None:
        if self.reading is None:
            raise ExplorerError("nothing to export yet")
        data = summary_bytes(self.reading, epsilon_summary_lines(self.reading, self._attribute_name),
                             self._attribute_name, fmt=fmt)
        mime = "image/png" if fmt == "png" else "application/pdf"
        filename = f"epsilon-{self.reading.epsilon:g}-{self._attribute_name}.{fmt}".replace(" ", "_")
        self.download.value = download_link(data, filename, mime)
