"""The "Permutation" tab: masking as permutation plus residual noise, permuted privacy and the intruder.

The data are the app's data set (:class:`~explorer.state.AppState`, chosen or
uploaded in the Data tab; its numeric and ordinal columns); the papers' running
examples are data sets there, and their printed masked versions come with them
(:meth:`~explorer.state.AppState.masked_version`).  The tab has no data source
or upload of its own: when the data set lacks what the analysis needs (numeric
attributes, 2 complete records), the tab says so and offers a button that makes
the Domingo-Ferrer and Muralidhar (2016) example the shared data set.

Wiring only: the inputs from :mod:`explorer.core.permutation.inputs`, masking
methods from :mod:`explorer.core.masking`, every number from
:func:`explorer.core.permutation.permutation_analysis`, the work from
:func:`explorer.core.cost.permutation_work`, the plots from
:mod:`explorer.plotting.permutation`.  Changing the data or the masking
recomputes the analysis; choosing an attribute, a record or (d, v) only updates
the plots and texts.  An analysis that needs Compute (:meth:`Panel.needs_compute`)
waits for the "Compute" button and then runs in the background, stage by stage,
with a progress bar and Cancel; the last view stays until it lands.
"""

from __future__ import annotations

import math
import time
from typing import Any

import ipywidgets as widgets
import numpy as np
import pandas as pd

from explorer._validation import check_int
from explorer.core import cost, datasets
from explorer.core.cost import permutation_progress, permutation_work
from explorer.core.export import csv_safe
from explorer.core.masking import MASKING_METHODS, mask
from explorer.core.permutation import (
    PermutationAnalysis,
    default_random_records,
    has_ties,
    numeric_attributes,
    permutation_analysis,
    random_records,
    seed_streams,
)
from explorer.errors import CancelledError, ConfigurationError, DatasetError, InvalidParameterError
from explorer.panels._format import format_value, html_table
from explorer.panels.a11y import section_heading
from explorer.panels.access import valuetext
from explorer.panels.base import Panel, on_change
from explorer.panels.controls import RangedFloatText, RangedIntText
from explorer.panels.downloads import csv_download_link
from explorer.panels.figures import make_figure
from explorer.panels.snippets import dataset_load_code
from explorer.panels.status import escape, guarded
from explorer.panels.tasks import Throughput
from explorer.plotting.permutation import (
    plot_distance_distributions,
    plot_rank_displacement,
    plot_subject,
    plot_values,
)
from explorer.state import AppState, shorten

__all__ = ["PermutationPanel", "staged_analysis"]

#: The data set the tab offers to switch to when the shared one lacks what it needs (and a notebook's default).
FALLBACK_DATASET = datasets.DM_EXAMPLE
#: Analyses longer than this on the reference machine (:func:`explorer.core.cost.reference_seconds`) are refused
#: with words: the work is bounded by its cost, whatever the widgets say.
MAX_SECONDS = 300.0
MAX_RECORDS = 50_000
MAX_RANDOM = 1_000_000
PAPER_METHOD = "paper"
TIE_OPTIONS = [("at random (the papers' choice)", "random"), ("mid-ranks (equal values coincide)", "average")]
#: MDAV is quadratic in n / k: refuse it above this many records in the panel.
MDAV_MAX_RECORDS = 10_000
#: Seconds per work unit of :func:`explorer.core.cost.permutation_work`, measured on the analyses this kernel runs
#: (what the status line says a large analysis will take here; the Compute decision is the core's).
THROUGHPUT = Throughput(1e-6)
#: Keys of earlier releases' configurations, read and ignored (the data set is the state's).
LEGACY_KEYS = ("source",)
DISTANCE_TITLE = "match distances: original vs random records"
#: What a figure's description says before any analysis is on show.
NO_VIEW = "Nothing is drawn yet: the tab needs a data set with numeric attributes (see the status line)."


def staged_analysis(X: pd.DataFrame, Y: pd.DataFrame, *, n_random: Any, ties: str, rng: Any,
                    step: Any = None) -> PermutationAnalysis:
    """:func:`explorer.core.permutation.permutation_analysis` on Y aligned to X's columns, with
    ``step(stage)`` called before each stage (progress and Cancel); ``step`` may raise to stop."""
    return permutation_analysis(X, Y[list(X.columns)], n_random=n_random, ties=ties, rng=rng, step=step)


def _parameter_range(spec: Any) -> tuple[float, float]:
    """The parameter slider's range for a masking method (integers shown up to 100, top-coding below 0.5)."""
    maximum = float(spec.maximum) if not spec.integer else float(min(spec.maximum, 100))
    return float(spec.minimum), (maximum if spec.name != "top_bottom_coding" else 0.49)


class PermutationPanel(Panel):
    """Any masking is a permutation plus residual noise: see it, measure it, attack it."""

    #: The paper its exported figures' captions cite (explorer.references).
    paper = "permutation-paradigm"

    def __init__(self, state: AppState | None = None, *, dataset: str | None = None, source: str | None = None):
        """``dataset`` (a data set's name) is made the state's data set first; without a state of the app, the
        tab opens on the Domingo-Ferrer and Muralidhar (2016) example.  ``source`` is the former name of
        ``dataset`` (``"004"``, ``"002"`` and ``"shared"``, the state's data set, are still read)."""
        own_state = state is None
        super().__init__(state)
        if dataset is None and source not in (None, "shared"):
            dataset = source
        if dataset is None and own_state and self.state.dataset is None:
            dataset = FALLBACK_DATASET
        if dataset is not None:
            self.state.select_dataset(dataset)
        self.analysis: PermutationAnalysis | None = None
        self.subject = None                  # the SubjectCheck the subject's view shows, and its record (from 0)
        self._subject_record = 0
        self.X: pd.DataFrame | None = None
        self.paper_Y: pd.DataFrame | None = None
        self.csv_texts: dict[str, str] = {}
        self._loaded: tuple[int, int] | None = None     # (records ≤, seed) the data X were read with
        self._shown = ""                     # the inputs of the views on show, in words
        self._notes: list[str] = []
        self._pending: Any = None            # the large analysis waiting for the Compute button
        self._inputs: dict[str, Any] = {}    # the inputs of the analysis on show (for code())
        self._deferred: dict[str, Any] = {}  # configuration values set once the data are read (refresh)
        self.estimate = 0.0                  # seconds the last analysis was estimated to take (THROUGHPUT's rate)
        task = self.background(description="analysis", name="explorer-permutation")
        self.caption = widgets.HTML()                 # what the views show, in words
        self.caption.add_class("explorer-perm-caption")
        task.progress.style.description_width = "initial"
        task.progress.layout.width = "420px"

        box = widgets.Layout
        self.switch_button = widgets.Button(description=f"Use the {FALLBACK_DATASET}", icon="exchange",
                                            tooltip="make it the data set of every tab (the Data tab's choice)",
                                            layout=box(width="auto", display="none"))
        self.data_name = widgets.HTML()
        # The controls, in the order a configuration sets them (config() and apply_config() follow from these).
        self.max_records = self.control("max_records", RangedIntText(status=self.status,
            value=5000, min=2, max=MAX_RECORDS, description="records ≤", layout=box(width="190px")))
        self.columns = self.control("columns", widgets.SelectMultiple(
            options=[], rows=4, description="Attributes", layout=box(width="300px")))
        self.method = self.control("method", widgets.Dropdown(options=[], description="Masking",
                                                              layout=box(width="380px")))
        self.parameter = self.control("parameter", widgets.FloatSlider(
            value=0.25, min=0, max=3, step=0.01, description="parameter", continuous_update=False,
            readout_format=".2f", layout=box(width="380px")))
        # its value in words (aria-valuetext; ipywidgets issue 2650: explorer.panels.access)
        valuetext(self.parameter, lambda v: f"parameter of {self.method.label or 'the masking method'} = {v:.2f}")
        self.seed = self.control("seed", RangedIntText(status=self.status, value=1, min=0, max=2 ** 31 - 1, description="seed",
                                                                layout=box(width="170px")))
        self.ties = self.control("ties", widgets.Dropdown(options=TIE_OPTIONS, value="random", description="ties",
                                                          layout=box(width="320px")))
        self.n_random = self.control("n_random", RangedIntText(status=self.status,
            value=0, min=0, max=MAX_RANDOM, description="random rec.", layout=box(width="200px")))
        self.attribute = self.control("attribute", widgets.Dropdown(options=[], description="Attribute",
                                                                    layout=box(width="260px")))
        self.record = self.control("record", RangedIntText(status=self.status, value=1, min=1, max=1, description="Record #",
                                                                    layout=box(width="180px")))
        self.d = self.control("d", RangedFloatText(status=self.status, value=1, min=0, max=1e9, step=1, description="d",
                                                            layout=box(width="150px")))
        self.v = self.control("v", widgets.Text(value="", description="v", placeholder="one number per attribute",
                                                layout=box(width="320px")))
        self.parameter_doc = widgets.HTML()
        self.summary = widgets.HTML()
        self.linkage_summary = widgets.HTML()
        self.verdict = widgets.HTML()
        self.subject_text = widgets.HTML()
        self.record_table = widgets.HTML()
        self.export_button = widgets.Button(description="Export tables (CSV)", icon="download",
                                            layout=widgets.Layout(width="auto"))
        self.compute_button = widgets.Button(description="Compute", icon="play", button_style="primary",
                                             tooltip="run the analysis of this large input in the background",
                                             layout=box(width="120px", display="none"))
        self.download = widgets.HTML()
        for w, name in ((self.switch_button, "switch"), (self.max_records, "max-records"),
                        (self.data_name, "data-name"), (self.columns, "columns"), (self.method, "method"),
                        (self.parameter, "parameter"), (self.parameter_doc, "parameter-doc"), (self.seed, "seed"),
                        (self.ties, "ties"), (self.n_random, "n-random"), (self.attribute, "attribute"),
                        (self.record, "record"), (self.d, "d"), (self.v, "v"), (self.summary, "summary"),
                        (self.linkage_summary, "linkage"), (self.verdict, "verdict"),
                        (self.subject_text, "subject"), (self.record_table, "table"), (self.export_button, "export"),
                        (self.download, "download"), (self.compute_button, "compute"), (task.widget, "task")):
            w.add_class(f"explorer-perm-{name}")

        empty = np.zeros(2)
        self.values_figure, self.values_canvas = make_figure(5.0, 3.4)
        self.values_artists = plot_values(self.values_figure.subplots(), empty, empty, empty)
        self.displacement_figure, self.displacement_canvas = make_figure(5.0, 3.4)
        self.displacement_artists = plot_rank_displacement(self.displacement_figure.subplots(), empty, 1.0, 0.0)
        self.distance_figure, self.distance_canvas = make_figure(5.0, 3.4)
        self.distance_artists = plot_distance_distributions(self.distance_figure.subplots(), np.arange(2),
                                                            np.zeros(2), np.zeros(2), 0.0)
        self.subject_figure, self.subject_canvas = make_figure(4.2, 3.8)
        self.subject_artists = plot_subject(self.subject_figure.subplots(), np.ones((2, 2)), np.ones(2),
                                            np.zeros(0, dtype=int), 0)
        for canvas, name in ((self.values_canvas, "values-plot"), (self.displacement_canvas, "displacement-plot"),
                             (self.distance_canvas, "distance-plot"), (self.subject_canvas, "subject-plot")):
            canvas.add_class(f"explorer-perm-{name}")
        self.add_figure("values", "Masked and reverse-mapped values against the original values", self.values_figure,
                        canvas=self.values_canvas, describe=self._describe_values, table=self._table_values)
        self.add_figure("displacement", "Rank displacement r = rank(y) − rank(x) of every record, sorted", self.displacement_figure,
                        canvas=self.displacement_canvas, describe=self._describe_displacement,
                        table=self._table_displacement)
        self.add_figure("distances", "The intruder's match distances: original against random records",
                        self.distance_figure, canvas=self.distance_canvas, describe=self._describe_distances,
                        table=self._table_distances)
        self.add_figure("subject", "A subject's view: her permutation distance in the ranks of Y",
                        self.subject_figure, canvas=self.subject_canvas, describe=self._describe_subject,
                        table=self._table_subject)

        self.switch_button.on_click(self._on_switch)
        self.max_records.observe(self._on_max_records, names="value")
        self.method.observe(self._fit_parameter, names="value")      # always, also while a configuration loads
        self.method.observe(self._on_method, names="value")
        for w in (self.columns, self.parameter, self.seed, self.ties, self.n_random):
            w.observe(self._on_inputs, names="value")
        self.attribute.observe(self._on_attribute, names="value")
        for w in (self.record, self.d, self.v):
            w.observe(self._on_subject, names="value")
        self.export_button.on_click(self._on_export)
        self.compute_button.on_click(self._on_compute)
        self.state.observe(self._on_dataset, names="dataset")

        intro = widgets.HTML(
            "<b>The permutation paradigm</b> (Domingo-Ferrer and Muralidhar (2016); Ruiz (2018)). Any masking of numeric data is, functionally, "
            "a <i>permutation</i> of the original values (reverse mapping, Domingo-Ferrer and Muralidhar (2016), Algorithm 1) plus a small "
            "<i>residual noise</i> that changes no rank. Protection against record linkage comes only from the "
            "permutation: a subject can check her own <i>permutation distance</i> (Algorithm 2) and an intruder "
            "who knows everything can test whether his links beat chance (Section 5). The rank displacement "
            "plotted is r = rank(y) − rank(x), the convention of the Dominance tab too; equal values never "
            "count as moved, so r and T do not depend on how ties are broken.")
        data_row = widgets.HBox([self.data_name, self.max_records, self.switch_button],
                                layout=box(flex_flow="row wrap", align_items="center"))
        mask_row = widgets.HBox([self.columns, widgets.VBox([self.method, self.parameter, self.parameter_doc]),
                                 widgets.VBox([self.seed, self.ties, self.n_random])],
                                layout=box(flex_flow="row wrap"))
        subject_row = widgets.HBox([self.record, self.d, self.v], layout=box(flex_flow="row wrap"))
        self.announce(self.caption, self.summary, self.linkage_summary, self.verdict, self.subject_text)   # readouts: aria-live regions (explorer.panels.access)
        self.widget = widgets.VBox([
            intro, data_row, mask_row,
            widgets.HBox([self.compute_button, task.widget], layout=box(align_items="center")),
            self.status.widget, self.stale.widget, self.caption, self.summary,
            self.attribute,
            widgets.HBox([self.values_canvas, self.displacement_canvas], layout=box(flex_flow="row wrap")),
            widgets.HTML(section_heading("The intruder", inline=True) + " (Domingo-Ferrer and Muralidhar (2016), Section 5): links every original record to Z by Algorithm 2, "
                         "then compares his match distances with those of random records."),
            self.linkage_summary, self.verdict, self.distance_canvas,
            widgets.HTML(section_heading("A subject's view", inline=True) + " (Domingo-Ferrer and Muralidhar (2016), Section 4): only her record and the anonymized data."),
            subject_row, widgets.HBox([self.subject_canvas, self.subject_text], layout=box(flex_flow="row wrap")),
            widgets.HTML(section_heading("Per record", inline=True) + " (Domingo-Ferrer and Muralidhar (2016), Tables 4-5; record numbers from 1)"),
            self.record_table,
            widgets.HBox([self.export_button, self.download], layout=box(align_items="center")),
        ])
        self.widget.add_class("explorer-permutation-panel")
        self._on_dataset()

    # ------------------------------------------------------------------ data
    def _rng(self, purpose: str) -> np.random.Generator:
        """Independent streams from the one seed (the same seed for data and noise would correlate them)."""
        return seed_streams(int(self.seed.value))[purpose]

    def _show_inputs(self) -> None:
        has_masked = self.state.masked_version() is not None
        self.max_records.layout.display = "none" if has_masked or self.state.dataset is None else ""
        name = self.state.dataset_name or "none yet"
        self.data_name.value = (f"<small>Data set (chosen in the Data tab): <b>{escape(name)}</b>"
                                + (", with its printed masked version" if has_masked else "") + "</small>")

    def _read_data(self) -> None:
        """Read X (numeric attributes) and the printed masked Y, if any, from the state's data set.

        Raises :class:`DatasetError` saying what the state's data set lacks."""
        frame = self.state.dataset
        if frame is None:
            raise DatasetError("is not chosen yet")      # (said in words by _lacking)
        printed = self.state.masked_version()
        self._loaded = (int(self.max_records.value), int(self.seed.value))
        if printed is not None:
            self.X, self.paper_Y, self._notes = frame[list(printed.columns)].astype(float), printed.astype(float), []
            return
        limit = check_int(self.max_records.value, "records ≤", minimum=2, maximum=MAX_RECORDS)
        found = numeric_attributes(frame, max_records=limit, rng=self._rng("data"))
        self.X, self.paper_Y, self._notes = found.X, None, found.notes()

    def _lacking(self, problem: str) -> None:
        """The state's data set lacks what the tab needs: say so, offer the switch, mark the last view."""
        self.task.supersede()
        self.X, self.paper_Y, self._pending = None, None, None
        self.compute_button.layout.display = "none"
        self.switch_button.layout.display = None
        if self.analysis is not None:
            self.stale.mark(self._views(), f"the views show {self._shown}, not the data set chosen now",
                            button=f"'Use the {FALLBACK_DATASET}', or choose another data set in the Data tab")
        if self.state.dataset is None:
            self.status.error(f"There is no data set yet: choose one in the Data tab, or use the {FALLBACK_DATASET} "
                              "(button above).")
            return
        self.status.error(f"The permutation analysis needs numeric (or ordinal) attributes and at least 2 complete "
                          f"records; the data set {self.state.dataset_name!r} {problem}. Choose another data set in "
                          f"the Data tab, or use the {FALLBACK_DATASET} (button above).")

    @guarded
    def _on_switch(self, button: Any = None) -> None:
        self.state.select_dataset(FALLBACK_DATASET)      # the shared data set: every tab follows

    def _load(self, *, new_dataset: bool) -> None:
        """Read the data and fit the controls to them: a new data set starts over (its printed Y first, its
        first 6 attributes); another size keeps the masking and the attributes."""
        self.task.supersede()                      # other data: a running analysis is moot
        self._show_inputs()
        try:
            self._read_data()
        except DatasetError as error:
            self._lacking(str(error))
            return
        self.switch_button.layout.display = "none"
        X, paper_Y = self.X, self.paper_Y
        with self.busy():
            options = [(m.label, m.name) for m in MASKING_METHODS.values()]
            if paper_Y is not None:
                options = [("the paper's masked Y", PAPER_METHOD)] + options
            current = self.method.value
            self.method.options = options
            names = [v for _, v in options]
            if paper_Y is not None and new_dataset:                 # a new data set: its printed Y first
                self.method.value = PAPER_METHOD
            else:
                self.method.value = current if current in names else "additive_noise"
            self._fit_parameter()
            self.parameter.value = self._default_parameter()
            cols = [str(c) for c in X.columns]
            keep = tuple(c for c in self.columns.value if c in cols)
            self.columns.options = cols
            self.columns.value = keep if keep and not new_dataset else tuple(cols[: min(len(cols), 6)])
            ties = has_ties(X)
            self.ties.value = "average" if ties else "random"
            if ties:
                self._notes.append("the data have equal values: ranks use mid-ranks, so equal values coincide")
            self.n_random.value = default_random_records(len(X), len(cols))
            self.record.max = len(X)
            self.record.value = min(self.record.value, len(X))
        self._recompute()

    @on_change
    def _on_dataset(self, change: Any = None) -> None:
        self._load(new_dataset=True)

    @on_change
    def _on_max_records(self, change: Any = None) -> None:
        self._load(new_dataset=False)

    @guarded
    def refresh(self) -> None:
        """After a configuration: read the data again if its size changed, then recompute once (a refusal of
        the work is said on the status line, as when the controls are set by hand; the last view stays)."""
        if self.state.dataset is not None and self._loaded is not None and \
                self._loaded[0] != int(self.max_records.value):
            self._show_inputs()
            try:
                self._read_data()
            except DatasetError as error:
                self._lacking(str(error))
                return
            self.record.max = len(self.X)
        deferred, self._deferred = self._deferred, {}
        with self.busy():
            if "record" in deferred:
                self.record.value = min(deferred["record"], self.record.max)
            if "attribute" in deferred:                    # shown with the analysis of its columns
                self.attribute.options = [*self.attribute.options, deferred["attribute"]]
                self.attribute.value = deferred["attribute"]
        self._recompute()

    def check_config(self, config: Any) -> dict[str, Any]:
        """The generic checks, with what earlier releases wrote: a ``source`` entry is ignored (the data set is
        the state's), attributes the data set lacks are left out, the parameter is checked against the masking
        method of the same configuration, and an attribute among the configuration's columns or a record within
        its size is set once the data are read (:meth:`refresh`)."""
        if not isinstance(config, dict):
            return super().check_config(config)
        config = {key: value for key, value in config.items() if key not in LEGACY_KEYS}
        if isinstance(config.get("columns"), list):
            config["columns"] = [c for c in config["columns"] if c in self.columns.options]
            if not config["columns"]:
                del config["columns"]
        for key in ("method", "attribute"):                # nothing chosen (no data yet): nothing to set
            if key in config and config[key] is None:
                del config[key]
        has_parameter, parameter = "parameter" in config, config.pop("parameter", None)
        # an attribute or a record the configuration's own columns and size allow, set once the data are read
        deferred = {}
        if "attribute" in config and config["attribute"] not in self.attribute.options and \
                config["attribute"] in config.get("columns", ()):
            deferred["attribute"] = config.pop("attribute")
        record = config.get("record")
        if isinstance(record, int) and not isinstance(record, bool) and self.record.max < record <= MAX_RECORDS:
            deferred["record"] = config.pop("record")
        checked = super().check_config(config)
        spec = MASKING_METHODS.get(checked.get("method", self.method.value))
        if has_parameter and spec is not None and spec.parameter is not None:
            low, high = _parameter_range(spec)
            if isinstance(parameter, bool) or not isinstance(parameter, (int, float)) or \
                    not math.isfinite(parameter) or not low <= parameter <= high:
                raise ConfigurationError(f"parameter ({spec.parameter} of {spec.label}) must be a number between "
                                         f"{low:g} and {high:g}, got {shorten(parameter)}")
            checked["parameter"] = float(parameter)
        self._deferred = deferred                          # (the whole configuration is valid)
        return checked

    # ------------------------------------------------------------------ masking
    def _default_parameter(self) -> float:
        spec = MASKING_METHODS.get(self.method.value)
        return self.parameter.value if spec is None or spec.parameter is None else float(spec.default)

    def _fit_parameter(self, change: Any = None) -> None:
        """Fit the parameter slider (range, step, label, help) to the masking method; its value stays if it fits."""
        spec = MASKING_METHODS.get(self.method.value)
        with self.busy():
            if spec is None or spec.parameter is None:
                self.parameter.disabled = True
                self.parameter.description = "parameter"
                self.parameter_doc.value = ("<small>The masked attributes printed in the paper.</small>"
                                            if self.method.value == PAPER_METHOD or spec is None else
                                            f"<small>{escape(spec.parameter_doc)}</small>")
                return
            self.parameter.disabled = False
            low, high = _parameter_range(spec)
            self.parameter.min, self.parameter.max = -1e12, 1e12          # avoid clamping while changing bounds
            self.parameter.step = spec.step
            self.parameter.readout_format = "d" if spec.integer else ".2f"
            self.parameter.min, self.parameter.max = low, high
            self.parameter.description = spec.parameter
            self.parameter_doc.value = f"<small>{escape(spec.parameter_doc)}</small>"

    @on_change
    def _on_method(self, change: Any = None) -> None:
        with self.busy():
            self.parameter.value = self._default_parameter()
        self._recompute()

    @on_change
    def _on_inputs(self, change: Any = None) -> None:
        self._recompute()

    def _mask_job(self, X: pd.DataFrame) -> tuple[Any, float | None]:
        """Check the masking now; return ``(make_Y, parameter)`` where ``make_Y()`` masks with today's controls."""
        method = self.method.value
        if method == PAPER_METHOD:
            if self.paper_Y is None:
                raise InvalidParameterError("this data set has no printed masked version; choose a masking method")
            printed = self.paper_Y[list(X.columns)].to_numpy(dtype=float)
            return (lambda: printed), None
        spec = MASKING_METHODS.get(method)
        if spec is None:
            raise InvalidParameterError(f"unknown masking method {shorten(method)}")
        if spec.name == "multivariate_microaggregation" and len(X) > MDAV_MAX_RECORDS:
            raise InvalidParameterError(f"MDAV on {len(X):,} records would take too long here; lower 'records ≤' "
                                        f"to {MDAV_MAX_RECORDS:,} or fewer")
        value = None if spec.parameter is None else self.parameter.value
        if spec.integer and value is not None:
            value = int(round(value))
        x, rng = X.to_numpy(dtype=float), self._rng("mask")
        return (lambda: mask(x, spec, value, rng=rng)), value

    def _masked(self, X: pd.DataFrame) -> np.ndarray:
        return self._mask_job(X)[0]()

    def _recompute(self) -> None:
        """Validate the controls; run the analysis now if it is quick, else offer the Compute button."""
        if self.X is None:
            return
        self.task.supersede()                      # a background result for older controls is dropped
        self._pending = None
        self.compute_button.layout.display = "none"
        chosen = [c for c in self.columns.value if c in self.X.columns]
        if not chosen:
            raise DatasetError("choose at least one attribute")
        X = self.X[chosen]
        make_Y, parameter = self._mask_job(X)
        n, m = len(X), len(chosen)
        randoms = random_records(n, m, check_int(self.n_random.value, "random records", minimum=0,
                                                 maximum=MAX_RANDOM))
        units = permutation_work(n, m, randoms.count, self.method.value, parameter)
        seconds = self.estimate = THROUGHPUT.estimate(units)     # what the status line shows, in seconds
        if cost.reference_seconds(units) > MAX_SECONDS:
            raise InvalidParameterError(
                f"{n:,} records × {m} attribute(s) with {randoms.count:,} random records would take about "
                f"{seconds:,.0f} s, more than the {MAX_SECONDS:.0f} s allowed here: lower 'records ≤' or the "
                "random records; the last view is kept")
        inputs = {"columns": chosen, "method": self.method.value, "parameter": parameter,
                  "n_random": randoms.n_random, "ties": self.ties.value, "seed": int(self.seed.value),
                  "max_records": self._loaded[0], "data_seed": self._loaded[1]}
        job = self._analysis_job(X, make_Y, randoms.n_random, parameter)
        if not self.needs_compute(units):          # decided on the work, not on this machine's load
            started = time.perf_counter()
            self._show(job(None), inputs)
            THROUGHPUT.observe(units, time.perf_counter() - started)   # the rate of the analysis and its views
            return
        text = f"{n:,} records × {m} attribute(s) with {randoms.count:,} random records"
        self._pending = (job, text, units, inputs)
        self.compute_button.layout.display = None
        if self.analysis is not None:
            self.stale.mark(self._views(), f"the views show {self.analysis.X.shape[0]:,} records × "
                                           f"{len(self.analysis.columns)} attribute(s)")
        self.status.info(f"Large input: {text}, {THROUGHPUT.describe(units)}. Press Compute to run it in the "
                         "background (Cancel stops it); the current view stays until then.")

    def _analysis_job(self, X: pd.DataFrame, make_Y: Any, n_random: Any, parameter: Any) -> Any:
        """``job(progress)``: masking and the staged analysis with the controls of now (progress None: no bar)."""
        chosen = list(X.columns)
        ties, rng = self.ties.value, self._rng("analysis")
        n, m = len(X), len(chosen)
        randoms = float(n) ** m if n_random == "all" else float(n_random)
        starts = permutation_progress(n, m, randoms, self.method.value, parameter)

        def job(progress: Any) -> PermutationAnalysis:
            def step(stage: str) -> None:
                if progress is None:
                    return
                self.task.progress.description = stage
                if not progress(starts.get(stage, 1.0)):    # Cancel, or newer controls (the task drops it)
                    raise CancelledError("cancelled")

            step("masking")
            Y = pd.DataFrame(make_Y(), columns=chosen)
            analysis = staged_analysis(X, Y, n_random=n_random, ties=ties, rng=rng, step=step)
            step("done")
            return analysis

        return job

    def _show(self, analysis: PermutationAnalysis, inputs: dict[str, Any] | None = None) -> None:
        """Show an analysis (a background one only reaches here while still current: the task drops the rest)."""
        with self.task.lock:
            if self.X is None:
                return
            chosen = list(analysis.columns)
            self.analysis = analysis
            self._inputs = dict(inputs or self._inputs)
            self._pending = None
            self.stale.clear()
            self._shown = self._describe_inputs(analysis)
            self.caption.value = f"<small>Shown: {escape(self._shown)}</small>"
            self.compute_button.layout.display = "none"
            with self.busy():
                current = self.attribute.value
                self.attribute.options = chosen
                self.attribute.value = current if current in chosen else chosen[0]
                self.record.max = analysis.X.shape[0]
                self.d.value = float(analysis.privacy.d)
                self.v.value = ", ".join(                 # numbers to edit: plain, no e-notation, no separators
                    np.format_float_positional(v, precision=4, unique=False, fractional=False, trim="-")
                    for v in analysis.privacy.v)
            self._render_all()
            notes = "; ".join(self._notes)
            self.status.info(f"{analysis.X.shape[0]:,} records, {len(chosen)} attribute(s)."
                             + (f" Note: {notes}." if notes else ""))

    def _describe_inputs(self, analysis: PermutationAnalysis) -> str:
        """The inputs of the views: data, masking and its parameter, seed, ties, size."""
        data = self.state.dataset_name or "data"
        method = self.method.value
        label = "the paper's masked Y" if method == PAPER_METHOD else MASKING_METHODS[method].label
        spec = MASKING_METHODS.get(method)
        parameter = f" ({spec.parameter} = {self.parameter.value:g})" if spec is not None and spec.parameter else ""
        return (f"{data}, {analysis.X.shape[0]:,} records × {len(analysis.columns)} attribute(s); {label}"
                f"{parameter}; seed {self.seed.value}; ties {self.ties.value}")

    def _views(self) -> list:
        return [self.values_canvas, self.displacement_canvas, self.distance_canvas, self.subject_canvas,
                self.summary, self.linkage_summary, self.verdict, self.subject_text, self.record_table]

    @guarded
    def _on_compute(self, button: Any = None) -> None:
        if self._pending is None:
            self.status.info("The view is up to date: nothing to compute.")
            return
        job, text, units, inputs = self._pending
        self.task.progress.description = "analysis"
        started = time.perf_counter()

        def show(analysis: PermutationAnalysis) -> None:      # timed with its views: what the estimate covers
            self._show(analysis, inputs)
            THROUGHPUT.observe(units, time.perf_counter() - started)

        # newer controls supersede it (see _recompute): it stops at its next stage and is dropped quietly,
        # the status line already saying what the new controls need
        self.task.start(job, show, message=f"Computing {text} in the background... (Cancel stops it; the "
                                           "last view stays until then)",
                        disable=(self.compute_button,), on_superseded=lambda: None, stop_when_superseded=True)

    # ------------------------------------------------------------------ rendering
    def _render_all(self) -> None:
        a = self.analysis
        if a is None:
            return
        rho = ", ".join(f"{c}: {r:.3f}" if math.isfinite(r) else f"{c}: n/a (constant)"
                        for c, r in zip(a.columns, a.spearman))
        self.summary.value = (
            f"<b>(d, v)-permuted privacy of Y</b>: d = {a.privacy.d:g}, v = ("
            + ", ".join(format_value(v) for v in a.privacy.v) + f") &nbsp; · &nbsp; Spearman's rho {escape(rho)}"
            f" &nbsp; · &nbsp; T = (" + ", ".join(f"{t:.2f}" for t in a.extent) + ")")
        self.linkage_summary.value = f"<b>Linkage</b>: {escape(a.linkage.summary())}"
        ver = a.verification
        self.verdict.value = (f"<b>Verdict</b>: {escape(ver.verdict())} (Hellinger distance {ver.hellinger:.3f}, "
                              f"{ver.random.n_random:,} random records"
                              f"{', all combinations' if ver.random.exhaustive else ''})")
        self.distance_artists.update(ver.bins, ver.original_frequency, ver.random_frequency, ver.hellinger,
                                     DISTANCE_TITLE)
        self.distance_figure.canvas.draw_idle()
        self._render_attribute()
        self._render_subject()
        table = a.record_table()
        self.record_table.value = html_table(table.head(20), css_class="explorer-perm-records",
                                             label="records: original, masked and reverse-mapped") + (
            f"<small>first 20 of {len(table):,} records; export for all</small>" if len(table) > 20 else "")

    def _render_attribute(self) -> None:
        a = self.analysis
        if a is None or self.attribute.value not in a.columns:
            return
        j = a.columns.index(self.attribute.value)
        self.values_artists.update(a.X[:, j], a.Y[:, j], a.Z[:, j], a.columns[j])
        self.values_figure.canvas.draw_idle()
        rho = a.spearman[j] if math.isfinite(a.spearman[j]) else 1.0      # a constant attribute: drawn as rho 1
        self.displacement_artists.update(a.displacement[:, j], rho, a.extent[j], a.columns[j])
        self.displacement_figure.canvas.draw_idle()

    def _parse_v(self, m: int) -> np.ndarray:
        text = self.v.value.strip()
        if not text:
            return np.zeros(m)
        try:
            values = [float(t) for t in text.replace(";", ",").split(",") if t.strip()]
        except ValueError:
            raise InvalidParameterError(f"v must be numbers separated by commas, got {shorten(text)}") from None
        if len(values) == 1:
            values = values * m
        if len(values) != m or any(not math.isfinite(v) or v < 0 for v in values):
            raise InvalidParameterError(f"v must be {m} non-negative numbers (one per attribute), got {shorten(text)}")
        return np.array(values)

    def _subject_pair(self) -> tuple[int, int]:
        return (0, 1) if len(self.analysis.columns) > 1 else (0, 0)

    def _render_subject(self) -> None:
        a = self.analysis
        if a is None:
            return
        i = int(self.record.value) - 1
        n = a.X.shape[0]
        if not 0 <= i < n:
            raise InvalidParameterError(f"record must be between 1 and {n}, got {i + 1}")
        d = float(self.d.value)
        check = a.privacy.record_check(i, d, self._parse_v(len(a.columns)))
        self.subject, self._subject_record = check, i
        dist = a.privacy.distances
        pair = self._subject_pair()
        self.subject_artists.update(dist.anonymized_ranks, check.nearest_rank, check.matches, check.distance,
                                    pair, (a.columns[pair[0]], a.columns[pair[1]]))
        self.subject_figure.canvas.draw_idle()
        verdict = "holds" if check.satisfies else "does not hold"
        self.subject_text.value = (
            f"<b>Record {i + 1}</b>: permutation distance <b>{check.distance:g}</b>, "
            f"anonymized record(s) at that distance: {', '.join(str(k + 1) for k in check.matches)}.<br>"
            + html_table(self._table_subject(), css_class="explorer-perm-subject", digits=6,
                         label="the record's attributes") +
            f"(d, v)-permuted privacy with d = {d:g} <b>{verdict}</b> for her record "
            f"(distance ≥ d and every window variance ≥ v).")

    @on_change
    def _on_attribute(self, change: Any = None) -> None:
        self._render_attribute()

    @on_change
    def _on_subject(self, change: Any = None) -> None:
        self._render_subject()

    @guarded
    def _on_export(self, button: Any = None) -> None:
        if self.analysis is None:
            raise DatasetError("there is nothing to export yet")
        links = []
        self.csv_texts = {}
        for name, frame in self.analysis.frames().items():
            text = csv_safe(frame)
            self.csv_texts[name] = text
            links.append(csv_download_link(text, f"permutation_{name}.csv"))
        self.download.value = " · ".join(links)
        self.status.info("Tables ready: Z (reverse-mapped), E (residual noise) and the per-record table.")

    # ------------------------------------------------------------------ figures in words and numbers
    def _attribute_index(self) -> int:
        a = self.analysis
        if a is None:
            raise DatasetError("there is no analysis on show yet")
        name = self.attribute.value if self.attribute.value in a.columns else a.columns[0]
        return a.columns.index(name)

    def _table_values(self) -> pd.DataFrame:
        """The points of the values figure: per record, x and the y and z drawn against it."""
        if self.analysis is None:
            return pd.DataFrame()
        offsets_y = self.values_artists.masked.get_offsets()
        offsets_z = self.values_artists.reverse_mapped.get_offsets()
        return pd.DataFrame({"original x": np.asarray(offsets_y[:, 0], dtype=float),
                             "masked y": np.asarray(offsets_y[:, 1], dtype=float),
                             "reverse-mapped z": np.asarray(offsets_z[:, 1], dtype=float)},
                            index=pd.RangeIndex(1, len(offsets_y) + 1, name="record"))

    def _describe_values(self) -> str:
        if self.analysis is None or self.subject is None:
            return NO_VIEW
        table, name = self._table_values(), self.analysis.columns[self._attribute_index()]
        x, y, z = (table[c] for c in table.columns)
        return (f"Scatter plot of attribute {name} for {len(table):,} records: the masked value y (circles) and "
                f"the reverse-mapped value z (squares) of each record against its original value x, with the "
                f"diagonal where a value is unchanged. x runs from {format_value(x.min())} to {format_value(x.max())}, "
                f"y from {format_value(y.min())} to {format_value(y.max())}; z takes the original values in the "
                "order of y (the permutation), and y - z is the residual noise.")

    def _table_displacement(self) -> pd.DataFrame:
        """The step line of the displacement figure: the rank displacements, sorted."""
        if self.analysis is None:
            return pd.DataFrame()
        ydata = np.asarray(self.displacement_artists.line.get_ydata(), dtype=float)
        return pd.DataFrame({"rank displacement r": ydata},
                            index=pd.RangeIndex(1, ydata.size + 1, name="position (sorted)"))

    def _describe_displacement(self) -> str:
        if self.analysis is None or self.subject is None:
            return NO_VIEW
        r = self._table_displacement()["rank displacement r"]
        name = self.analysis.columns[self._attribute_index()]
        return (f"Step line of the rank displacement r = rank(y) − rank(x) of attribute {name} for each of "
                f"{len(r):,} records, sorted (equal values never count as moved): from {r.min():g} to {r.max():g} "
                f"ranks "
                f"({self.displacement_artists.label.get_text().strip()}).")

    def _table_distances(self) -> pd.DataFrame:
        """The two step histograms of the distance figure, bar by bar (as drawn: grouped when there are many)."""
        if self.analysis is None:
            return pd.DataFrame()
        original, edges = self.distance_artists.original.get_data()[:2]
        random = self.distance_artists.random.get_data()[0]
        return pd.DataFrame({"from": edges[:-1], "to": edges[1:], "original records": original,
                             "random records": random}).rename_axis("bar")

    def _describe_distances(self) -> str:
        if self.analysis is None or self.subject is None:
            return NO_VIEW
        table, ver = self._table_distances(), self.analysis.verification
        peak_o = table.loc[table["original records"].idxmax()]
        peak_r = table.loc[table["random records"].idxmax()]
        return (f"Histogram of the permutation distance of the intruder's matches in Z, as relative frequencies, "
                f"for the {len(self.analysis.linkage.distances.distance):,} original records (outline) and "
                f"{ver.random.n_random:,} random records (filled), in {len(table)} bars. The original records peak "
                f"at distances {peak_o['from']:g} to {peak_o['to']:g} ({peak_o['original records']:.3f}), the "
                f"random records at {peak_r['from']:g} to {peak_r['to']:g} ({peak_r['random records']:.3f}). "
                f"{self.distance_artists.label.get_text()}. {ver.verdict()}")

    def _table_subject(self) -> pd.DataFrame:
        """The subject's record, the values nearest to hers in Y and their windows (what her view shows)."""
        if self.analysis is None or self.subject is None:
            return pd.DataFrame()
        a, check = self.analysis, self.subject
        return pd.DataFrame({"attribute": list(a.columns), "her value": a.X[self._subject_record],
                             "nearest in Y": check.nearest_value, "its rank R*": check.nearest_rank,
                             "variance within d": check.variances, "v": check.v})

    def _describe_subject(self) -> str:
        if self.analysis is None or self.subject is None:
            return NO_VIEW
        a, check = self.analysis, self.subject
        pair = self._subject_pair()
        centre = self.subject_artists.target.get_offsets()[0]
        names = (a.columns[pair[0]], a.columns[pair[1]])
        matches = ", ".join(str(k + 1) for k in check.matches)
        return (f"Scatter plot of the ranks in Y of {names[0]} and {names[1]} for the {a.Y.shape[0]:,} anonymized "
                f"records. Record {self._subject_record + 1}'s nearest values have ranks ({centre[0]:g}, {centre[1]:g}) "
                f"(a star); the square around it has half-width {check.distance:g}, her permutation distance, and "
                f"{len(check.matches)} record(s) at that distance are circled: {matches}.")

    # ------------------------------------------------------------------ the code of the view
    def code(self) -> str:
        """The Python snippet (:mod:`explorer.core`, :mod:`explorer.plotting`) that reproduces the view now."""
        if self.analysis is None:
            return "# There is no analysis on show yet: choose a data set with numeric attributes.\n"
        inputs, a = self._inputs, self.analysis
        load, loader = dataset_load_code(self.state)
        j, i = self._attribute_index(), self._subject_record
        pair = self._subject_pair()
        lines = ["import numpy as np",
                 "import pandas as pd",
                 "from matplotlib.figure import Figure",
                 "",
                 f"from explorer.core.datasets import dataset_info, {loader}",
                 "from explorer.core.masking import MASKING_METHODS, mask",
                 "from explorer.core.permutation import numeric_attributes, permutation_analysis, seed_streams",
                 "from explorer.plotting.permutation import (plot_distance_distributions, plot_rank_displacement,",
                 "                                           plot_subject, plot_values)",
                 "",
                 "",
                 "def permutation_tab():",
                 '    """The tab\'s analysis (its data, masking, seeds and tie policy) and its subject\'s check."""',
                 *("    " + line for line in load.splitlines()),
                 f"    columns = {list(inputs['columns'])!r}"]
        if inputs["method"] == PAPER_METHOD:
            lines += ["    printed = dataset_info(frame).masked_frame(frame)   # the masked version printed in the paper",
                      "    X = frame[list(printed.columns)].astype(float)[columns]",
                      "    Y = printed.astype(float)[columns]"]
        else:
            lines += [f"    X = numeric_attributes(frame, max_records={inputs['max_records']}, "
                      f"rng=seed_streams({inputs['data_seed']})[\"data\"]).X[columns]",
                      f"    Y = pd.DataFrame(mask(X.to_numpy(dtype=float), MASKING_METHODS[{inputs['method']!r}], "
                      f"{inputs['parameter']!r}, rng=seed_streams({inputs['seed']})[\"mask\"]), columns=columns)"]
        lines += [f"    analysis = permutation_analysis(X, Y, n_random={inputs['n_random']!r}, ties={inputs['ties']!r}, "
                  f"rng=seed_streams({inputs['seed']})[\"analysis\"])",
                  f"    subject = analysis.privacy.record_check({i}, {self.subject.d!r}, "
                  f"{[float(x) for x in self.subject.v]!r})   # record {i + 1}",
                  "    ver = analysis.verification",
                  "    print(analysis.linkage.summary())",
                  "    print(ver.verdict())",
                  "",
                  "    figure = Figure(figsize=(10, 7.5), layout=\"constrained\")",
                  "    (values, displacement), (distances, subject_view) = figure.subplots(2, 2)",
                  f"    j = {j}   # attribute {a.columns[j]}",
                  "    plot_values(values, analysis.X[:, j], analysis.Y[:, j], analysis.Z[:, j], analysis.columns[j])",
                  "    rho = analysis.spearman[j] if np.isfinite(analysis.spearman[j]) else 1.0   # a constant attribute",
                  "    plot_rank_displacement(displacement, analysis.displacement[:, j], rho, analysis.extent[j], "
                  "analysis.columns[j])",
                  "    bars = plot_distance_distributions(distances, ver.bins, ver.original_frequency, "
                  f"ver.random_frequency, ver.hellinger, {DISTANCE_TITLE!r})",
                  f"    pair = {pair!r}",
                  "    plot_subject(subject_view, analysis.privacy.distances.anonymized_ranks, subject.nearest_rank, "
                  "subject.matches, subject.distance, pair, (analysis.columns[pair[0]], analysis.columns[pair[1]]))",
                  "    # the bars drawn (many distances: each bar sums a group of consecutive distances)",
                  "    heights = {\"original\": bars.original.get_data().values, \"random\": bars.random.get_data().values}",
                  "    return figure, heights, subject, ver, analysis",
                  "",
                  "",
                  "figure, heights, subject, ver, analysis = permutation_tab()   # what is drawn first, then the rest",
                  "figure.savefig(\"permutation.png\")"]
        return "\n".join(lines) + "\n"
