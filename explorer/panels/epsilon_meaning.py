"""The "What does epsilon mean?" view: the shared epsilon read through every model, side by side.

Wiring only: the numbers come from :func:`explorer.core.epsilon_meaning.read_epsilon`, the pictures from
:mod:`explorer.plotting.epsilon_meaning`.
"""

from __future__ import annotations

import json
import math
from typing import Any

import ipywidgets as widgets
import numpy as np
import pandas as pd

from explorer._validation import check_int
from explorer.core.epsilon_choice import choice_summary_lines
from explorer.core.epsilon_meaning import attribute_codes, epsilon_summary_lines, read_epsilon
from explorer.errors import ExplorerError, InvalidParameterError
from explorer.panels.base import Panel, on_change
from explorer.panels.controls import RangedIntText, epsilon_slider
from explorer.panels.downloads import download_link
from explorer.panels.epsilon_choice import ChoiceSection
from explorer.panels.figures import make_figure
from explorer.panels.snippets import dataset_load_code
from explorer.panels.status import escape, guarded
from explorer.plotting.epsilon_meaning import plot_epsilon_reading, summary_bytes
from explorer.references import cite
from explorer.state import AppState, check_shared_epsilon

__all__ = ["EpsilonMeaningPanel", "EXAMPLE3"]

#: The named choice that needs no data set: five equally likely values, as in Example 3.
EXAMPLE3 = "five equally likely values (Example 3)"
MAX_CATEGORIES = 24
#: The attribute the view opens on when the data set has it (UCI Adult: 7 categories, none dominant).
OPENING_ATTRIBUTE = "marital-status"
HEADINGS = {"odds": "Randomized response: the odds", "deniability": "Deniability left",
            "t-closeness": "t-closeness", "accuracy": "What it costs in accuracy"}
#: The three figures (key -> title), left to right.
FIGURES = {"deniability": "Deniability: the attribute before any report and after the most telling report",
           "t-closeness": "t-closeness: the data set and the most concentrated cluster still exp(ε/2)-close",
           "accuracy": "Accuracy: the true distribution and one simulated estimate with its error bound"}
#: Table columns of each figure: (series of the bars drawn, column name).
COLUMNS = {"deniability": (("prior", "before any report"), ("posterior", "after the report")),
           "t-closeness": (("data", "whole data set"), ("cluster", "worst cluster")),
           "accuracy": (("truth", "true"), ("estimate", "estimated"))}


def _literal(text: str) -> str:
    """A Python string literal of ``text`` in double quotes (for :meth:`EpsilonMeaningPanel.code`)."""
    return json.dumps(str(text), ensure_ascii=False)


class EpsilonMeaningPanel(Panel):
    """One epsilon, every model: RR odds and deniability, t-closeness, and estimation accuracy.

    Its configuration (:meth:`~explorer.panels.base.Panel.config`) is ``attribute``, ``n`` and
    ``use_records``, and the "From what I need" section's (:class:`~explorer.panels.epsilon_choice.ChoiceSection`)
    ``need_max_odds``, ``need_max_best_guess``, ``need_min_deniability``, ``need_max_cluster_guess``,
    ``need_max_error`` (texts, empty = not asked), ``reports_per_person`` and ``period``, and the published
    releases section's (:class:`~explorer.panels.releases.ReleasesPanel`) ``release`` (a key of
    :func:`~explorer.core.releases.releases`) and ``release_periods``; the epsilon is the state's.  Five figures (:meth:`~explorer.panels.base.Panel.figures`): ``deniability``, ``t-closeness`` and
    ``accuracy``, each with its text and data table read from the bars drawn, then ``choice`` (the band) and
    ``repeated`` (repeated reports vs memoized randomized response).
    """

    #: The paper its exported figures' captions cite (explorer.references).
    paper = "rr-dp"

    def __init__(self, state: AppState | None = None, *, attribute: str | None = None, n: int | None = None):
        super().__init__(state)
        # The shared epsilon, one range for every tab: this slider is a view of the state's value.
        self.epsilon = self.control("epsilon", epsilon_slider(self.state, self.status,
                                                               layout=widgets.Layout(width="420px")), state="epsilon")
        self.epsilon.continuous_update = True
        self.attribute = self.control("attribute", widgets.Dropdown(
            options=[EXAMPLE3], value=EXAMPLE3, description="Attribute", layout=widgets.Layout(width="380px")))
        self.n_reports = self.control("n", RangedIntText(status=self.status,
            value=n or 1000, min=10, max=1_000_000, description="n reports", layout=widgets.Layout(width="200px")))
        self.use_records = self.control("use_records", widgets.Checkbox(
            value=n is None, description="n = the data set's records", indent=False,
            layout=widgets.Layout(width="240px")))
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
        for ax, (key, title) in zip(axes, FIGURES.items()):
            self.add_figure(key, title, self.figure, canvas=self.canvas, axes=ax,
                            describe=lambda key=key: self._describe(key), table=lambda key=key: self._table(key))
        self.choice_section = ChoiceSection(self)        # "From what I need": its controls and figures are this panel's

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
        self.announce(self.lines)   # readouts: aria-live regions (explorer.panels.access)
        self.widget = widgets.VBox([
            intro,
            widgets.HBox([self.epsilon.row, self.attribute], layout=widgets.Layout(flex_flow="row wrap")),
            widgets.HBox([self.n_reports, self.use_records, self.export_png, self.export_pdf, self.download],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
            self.lines, self.canvas, self.status.widget, self.choice_section.widget,
        ], layout=widgets.Layout(width="100%"))
        # Published releases (explorer/panels/releases.py), read on this view's attribute: an embedded section.
        from explorer.panels.releases import ReleasesPanel
        self.releases = ReleasesPanel(self.state, attribute_source=lambda: self.reading and (
            self.reading.prior, self.reading.labels, self._attribute_name))
        # The release picked is this view's setting too: exported, loaded and in the page address with the rest.
        self.control("release", self.releases.release)
        self.control("release_periods", self.releases.periods)
        self.attribute.observe(self.releases.follow, names="value")
        self.state.observe(self.releases.follow, names="dataset")
        self.widget.children += (self.releases.widget,)

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
        section = getattr(self, "choice_section", None)
        if section is not None:
            try:
                section.refresh()
            except ExplorerError as error:
                self.status.error(f"{error} (the last valid band is kept)")

    @on_change
    def _on_state_epsilon(self, change: Any = None) -> None:
        if self.reading is None or self.reading.epsilon != self.state.epsilon:
            self._recompute()

    @on_change
    def _on_inputs(self, change: Any = None) -> None:
        self.refresh()

    @on_change
    def _on_dataset(self, change: Any = None) -> None:
        with self.busy():                   # the attribute's new choices: one recompute below, not two
            self._refresh_attributes()
        self.refresh()

    def caption_inputs(self) -> dict[str, str]:
        """The inputs in words (:meth:`Panel.caption_inputs`); a release's periods only when its budget renews."""
        inputs = super().caption_inputs()
        if self.releases.periods.disabled:
            inputs.pop(str(self.releases.periods.description), None)
        return inputs

    def apply_config(self, config: dict[str, Any]) -> None:
        """Set the controls from a configuration, all or nothing (:meth:`Panel.apply_config`), then read again.

        The releases section waits while the controls are set (it reads on this view's attribute, read anew at
        the end) and reads its release once, after the view.
        """
        with self.releases.busy():
            super().apply_config(config)
        self.releases.refresh()

    def refresh(self) -> None:
        """Recompute the reading from the controls and the state, and redraw."""
        self.n_reports.disabled = bool(self.use_records.value) and self.attribute.value != EXAMPLE3
        self._recompute()

    @guarded
    def _export(self, fmt: str) -> None:
        if self.reading is None:
            raise ExplorerError("nothing to export yet")
        section = self.choice_section
        data = summary_bytes(self.reading, epsilon_summary_lines(self.reading, self._attribute_name),
                             self._attribute_name, fmt=fmt, choice=section.choice,
                             choice_lines=choice_summary_lines(section.choice, section.period.value),
                             release=self.release_lines())
        mime = "image/png" if fmt == "png" else "application/pdf"
        filename = f"epsilon-{self.reading.epsilon:g}-{self._attribute_name}.{fmt}".replace(" ", "_")
        self.download.value = download_link(data, filename, mime)

    def release_lines(self) -> list[str]:
        """The published release read by the embedded releases section (``self.releases``), for the summary.

        Its reading in words (the section's ``reading.lines``, the first of which names the release); empty when
        the view has no releases section or it has read nothing yet.
        """
        reading = getattr(getattr(self, "releases", None), "reading", None)
        if reading is None:
            return []
        return [str(text) for text in reading.lines.values()]

    # ------------------------------------------------------------------ the figures in words and numbers
    def _table(self, key: str) -> pd.DataFrame:
        """The bars of figure ``key`` as drawn (and, for accuracy, the ends of the error bars), by category."""
        heights = self.artists.heights()
        table = pd.DataFrame({name: heights[series] for series, name in COLUMNS[key]},
                             index=pd.Index(list(self.reading.labels), name=self._attribute_name))
        if key == "accuracy":
            table["bound low"], table["bound high"] = self.artists.bound_limits()
        return table

    def _describe(self, key: str) -> str:
        """What figure ``key`` shows now, in words, from the numbers of :meth:`_table` (the bars drawn)."""
        table, reading, name = self._table(key), self.reading, self._attribute_name
        eps = "infinite" if math.isinf(reading.epsilon) else f"{reading.epsilon:g}"

        def series(column: str) -> str:
            return ", ".join(f"{label} {value:.3f}" for label, value in table[column].items())

        if key == "deniability":
            report = reading.labels[reading.worst_report]
            before, after = table["before any report"], table["after the report"]
            others = [label for label in table.index if label != report]
            fall = sum(after[label] < before[label] for label in others)
            moved = (f"the other {len(others)} values fall" if fall == len(others) else
                     f"{fall} of the other {len(others)} values fall")
            best = after.idxmax()
            return (f"Posterior after the report '{report}' (the most telling one), at ε = {eps}: {report} "
                    f"{'rises' if after[report] >= before[report] else 'falls'} from {before[report]:.2f} to "
                    f"{after[report]:.2f}; {moved}; the best guess, {best}, is right with probability "
                    f"{after[best]:.2f}. Bar chart of {name}: the probability of each value before any report "
                    f"({series('before any report')}) and after the report, under the optimal randomized response "
                    f"matrix ({series('after the report')}).")
        if key == "t-closeness":
            t = "infinite" if math.isinf(reading.t) else f"{reading.t:.3g}"
            return (f"Bar chart of {name} at t = exp(ε/2) = {t}: the whole data set's distribution "
                    f"({series('whole data set')}) and the most concentrated cluster still t-close "
                    f"({series('worst cluster')}).")
        low, high = table["bound low"], table["bound high"]
        return (f"Bar chart of {name} with n = {reading.n:,} reports: the true distribution ({series('true')}) "
                f"and one simulated estimate ({series('estimated')}); its error bars "
                f"({100 * (1 - reading.alpha):.0f}% confidence) reach from "
                + ", ".join(f"{label} {a:.3f} to {b:.3f}" for label, a, b in zip(table.index, low, high)) + ".")

    def code(self) -> str:
        """The Python snippet (:mod:`explorer.core`, :mod:`explorer.plotting`) that reproduces the view now."""
        inputs = self._inputs()
        eps = repr(float(inputs["epsilon"]))
        lines = ["import numpy as np", "from matplotlib.figure import Figure", ""]
        if self.attribute.value == EXAMPLE3:
            lines += ["from explorer.core.epsilon_meaning import epsilon_summary_lines, read_epsilon",
                      "from explorer.plotting.epsilon_meaning import plot_epsilon_reading", "",
                      "# five equally likely values, as in Example 3 of Domingo-Ferrer and Soria-Comas (2018)",
                      f"reading = read_epsilon({eps}, np.full(5, 0.2), labels=list(\"abcde\"), n={inputs['n']})",
                      "name = \"a uniform 5-value attribute\""]
        else:
            load, loader = dataset_load_code(self.state)
            run = "codes=codes" if "codes" in inputs else f"n={inputs['n']}"
            lines += [f"from explorer.core.datasets import {loader}",
                      "from explorer.core.epsilon_meaning import attribute_codes, epsilon_summary_lines, read_epsilon",
                      "from explorer.plotting.epsilon_meaning import plot_epsilon_reading", "",
                      load,
                      f"name = {_literal(self.attribute.value)}",
                      f"labels, codes = attribute_codes(frame, name, max_categories={MAX_CATEGORIES})",
                      "prior = np.bincount(codes, minlength=len(labels)).astype(float)",
                      f"reading = read_epsilon({eps}, prior, labels=labels, {run})"]
        lines += ["", "for line in epsilon_summary_lines(reading, name).values():",
                  "    print(line)",
                  "figure = Figure(figsize=(11, 3.6), layout=\"constrained\")",
                  "plot_epsilon_reading(figure.subplots(1, 3), reading, name)",
                  "figure.savefig(\"epsilon.png\")"]
        lines += self.choice_section.code_lines()
        return "\n".join(lines) + "\n"
