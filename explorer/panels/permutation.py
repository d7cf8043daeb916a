"""The "Permutation" tab: masking as permutation plus residual noise, permuted privacy and the intruder.

The data are the app's data set (:class:`~explorer.state.AppState`, chosen or
uploaded in the Data tab; its numeric and ordinal columns); the papers' running
examples are data sets there, and their printed masked versions come with them
(:meth:`~explorer.state.AppState.masked_version`).  The tab has no data source
or upload of its own: when the data set lacks what the analysis needs (numeric
attributes, 2 complete records), the tab says so and offers a button that makes
the Domingo-Ferrer and Muralidhar (2016) example the shared data set.

Wiring only: masking methods come from :mod:`explorer.core.masking`, every
number from :mod:`explorer.core.permutation` (:func:`permutation_analysis`),
the plots from :mod:`explorer.plotting.permutation`.  Changing the data or the
masking recomputes the analysis; choosing an attribute, a record or (d, v)
only updates the plots and texts.  An analysis estimated to take longer than
:data:`SLOW_SECONDS` (records x attributes, plus random records) waits for the
"Compute" button and then runs in a background thread, stage by stage, with a
progress bar and Cancel; the last view stays until it lands.
"""

from __future__ import annotations

import math
import time
from typing import Any

import ipywidgets as widgets
import numpy as np
import pandas as pd

from explorer.core import datasets
from explorer.core.datasets import dataset_info
from explorer.core.masking import MASKING_METHODS, mask
from explorer.core.permutation import (
    MAX_ALL_RANDOM,
    PermutationAnalysis,
    permutation_analysis,
    window_variances,
)
from explorer._validation import check_int
from explorer.errors import CancelledError, DatasetError, InvalidParameterError
from explorer.core.export import csv_safe
from explorer.core.cost import UNITS, permutation_work
from explorer.state import shorten
from explorer.panels._format import format_value, html_table
from explorer.panels._base import (AppState, BackgroundTask, StaleMark, StatusLine, Throughput, csv_download_link,
                                   escape, guarded, make_figure)
from explorer.plotting.permutation import (
    plot_distance_distributions,
    plot_rank_displacement,
    plot_subject,
    plot_values,
)

__all__ = ["PermutationPanel", "estimate_seconds", "staged_analysis"]

#: The data set the tab offers to switch to when the shared one lacks what it needs (and a notebook's default).
FALLBACK_DATASET = datasets.DM_EXAMPLE
#: Analyses estimated longer than this are refused with words (the work is bounded by its cost).
MAX_SECONDS = 300.0
MAX_RECORDS = 50_000
MAX_RANDOM = 1_000_000
PAPER_METHOD = "paper"
TIE_OPTIONS = [("at random (the papers' choice)", "random"), ("mid-ranks (equal values coincide)", "average")]
#: MDAV is quadratic in n / k: refuse it above this many records in the panel.
MDAV_MAX_RECORDS = 10_000
#: 'all' random records when n^m is at most this; otherwise this many random records by default.
AUTO_ALL_RANDOM = 200_000
DEFAULT_RANDOM = 10_000
#: Analyses estimated slower than this (seconds) wait for the Compute button and run in the background.
SLOW_SECONDS = 0.6
#: Seconds per work unit of :func:`explorer.core.cost.permutation_work`, measured on the analyses this kernel runs.
THROUGHPUT = Throughput(1e-6)
#: The stages of the analysis and their share of the record-attribute cost (the progress bar moves by these).
STAGES = (("reverse mapping", 0.15), ("rank displacement", 0.15), ("distances", 0.4), ("linkage", 0.3))


def estimate_seconds(n: int, m: int, n_random: int, method: str = "", parameter: float | None = None, *,
                     throughput: Throughput | None = None) -> float:
    """Duration of masking plus :func:`permutation_analysis` for n records, m attributes: the core's work
    estimate (:func:`explorer.core.cost.permutation_work`) at the rate measured here (reference rate if none)."""
    rate = throughput if throughput is not None else Throughput(1e-6)
    return rate.estimate(permutation_work(n, m, n_random, method, parameter))


def staged_analysis(X: pd.DataFrame, Y: pd.DataFrame, *, n_random: Any, ties: str, rng: Any,
                    step: Any = None) -> PermutationAnalysis:
    """:func:`explorer.core.permutation.permutation_analysis` on Y aligned to X's columns, with
    ``step(stage)`` called before each stage (progress and Cancel); ``step`` may raise to stop."""
    return permutation_analysis(X, Y[list(X.columns)], n_random=n_random, ties=ties, rng=rng, step=step)


class PermutationPanel:
    """Any masking is a permutation plus residual noise: see it, measure it, attack it."""

    def __init__(self, state: AppState | None = None, *, dataset: str | None = None, source: str | None = None):
        """``dataset`` (a data set's name) is made the state's data set first; without a state of the app, the
        tab opens on the Domingo-Ferrer and Muralidhar (2016) example.  ``source`` is the former name of
        ``dataset`` (``"004"``, ``"002"`` and ``"shared"``, the state's data set, are still read)."""
        own_state = state is None
        self.state = state if state is not None else AppState()
        if dataset is None and source not in (None, "shared"):
            dataset = source
        if dataset is None and own_state and self.state.dataset is None:
            dataset = FALLBACK_DATASET
        if dataset is not None:
            self.state.select_dataset(dataset)
        self.status = StatusLine()
        self.analysis: PermutationAnalysis | None = None
        self.X: pd.DataFrame | None = None
        self.paper_Y: pd.DataFrame | None = None
        self.csv_texts: dict[str, str] = {}
        self._loading = False
        self._shown = ""                     # the inputs of the views on show, in words
        self._notes: list[str] = []
        self._pending: Any = None            # the large analysis waiting for the Compute button
        self.estimate = 0.0                  # seconds the last analysis was estimated to take (THROUGHPUT's rate)
        self.task = BackgroundTask(self.status, description="analysis", name="explorer-permutation")
        self.stale = StaleMark()
        self.caption = widgets.HTML()                 # what the views show, in words
        self.caption.add_class("explorer-perm-caption")
        self.task.progress.style.description_width = "initial"
        self.task.progress.layout.width = "420px"

        box = widgets.Layout
        self.switch_button = widgets.Button(description=f"Use the {FALLBACK_DATASET}", icon="exchange",
                                            tooltip="make it the data set of every tab (the Data tab's choice)",
                                            layout=box(width="auto", display="none"))
        self.max_records = widgets.BoundedIntText(value=5000, min=2, max=MAX_RECORDS, description="records ≤",
                                                  layout=box(width="190px"))
        self.data_name = widgets.HTML()
        self.columns = widgets.SelectMultiple(options=[], rows=4, description="Attributes",
                                              layout=box(width="300px"))
        self.method = widgets.Dropdown(options=[], description="Masking", layout=box(width="380px"))
        self.parameter = widgets.FloatSlider(value=0.25, min=0, max=3, step=0.01, description="parameter",
                                             continuous_update=False, readout_format=".2f",
                                             layout=box(width="380px"))
        self.parameter_doc = widgets.HTML()
        self.seed = widgets.BoundedIntText(value=1, min=0, max=2 ** 31 - 1, description="seed",
                                           layout=box(width="170px"))
        self.ties = widgets.Dropdown(options=TIE_OPTIONS, value="random", description="ties",
                                     layout=box(width="320px"))
        self.n_random = widgets.BoundedIntText(value=0, min=0, max=MAX_RANDOM, description="random rec.",
                                               layout=box(width="200px"))
        self.attribute = widgets.Dropdown(options=[], description="Attribute", layout=box(width="260px"))
        self.record = widgets.BoundedIntText(value=1, min=1, max=1, description="Record #",
                                             layout=box(width="180px"))
        self.d = widgets.BoundedFloatText(value=1, min=0, max=1e9, step=1, description="d",
                                          layout=box(width="150px"))
        self.v = widgets.Text(value="", description="v", placeholder="one number per attribute",
                              layout=box(width="320px"))
        self.summary = widgets.HTML()
        self.linkage_summary = widgets.HTML()
        self.verdict = widgets.HTML()
        self.subject_text = widgets.HTML()
        self.table = widgets.HTML()
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
                        (self.subject_text, "subject"), (self.table, "table"), (self.export_button, "export"),
                        (self.download, "download"), (self.compute_button, "compute"),
                        (self.task.widget, "task")):
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

        self.switch_button.on_click(self._on_switch)
        self.max_records.observe(self._on_source, names="value")
        self.columns.observe(self._on_columns, names="value")
        self.method.observe(self._on_method, names="value")
        for w in (self.parameter, self.seed, self.ties, self.n_random):
            w.observe(self._on_masking, names="value")
        self.attribute.observe(self._on_attribute, names="value")
        for w in (self.record, self.d, self.v):
            w.observe(self._on_subject, names="value")
        self.export_button.on_click(self._on_export)
        self.compute_button.on_click(self._on_compute)
        self.state.observe(self._on_shared_dataset, names="dataset")

        intro = widgets.HTML(
            "<b>The permutation paradigm</b> (Domingo-Ferrer and Muralidhar (2016); Ruiz (2018)). Any masking of numeric data is, functionally, "
            "a <i>permutation</i> of the original values (reverse mapping, Domingo-Ferrer and Muralidhar (2016), Algorithm 1) plus a small "
            "<i>residual noise</i> that changes no rank. Protection against record linkage comes only from the "
            "permutation: a subject can check her own <i>permutation distance</i> (Algorithm 2) and an intruder "
            "who knows everything can test whether his links beat chance (Section 5).")
        data_row = widgets.HBox([self.data_name, self.max_records, self.switch_button],
                                layout=box(flex_flow="row wrap", align_items="center"))
        mask_row = widgets.HBox([self.columns, widgets.VBox([self.method, self.parameter, self.parameter_doc]),
                                 widgets.VBox([self.seed, self.ties, self.n_random])],
                                layout=box(flex_flow="row wrap"))
        subject_row = widgets.HBox([self.record, self.d, self.v], layout=box(flex_flow="row wrap"))
        self.widget = widgets.VBox([
            intro, data_row, mask_row,
            widgets.HBox([self.compute_button, self.task.widget], layout=box(align_items="center")),
            self.status.widget, self.stale.widget, self.caption, self.summary,
            self.attribute,
            widgets.HBox([self.values_canvas, self.displacement_canvas], layout=box(flex_flow="row wrap")),
            widgets.HTML("<b>The intruder</b> (Domingo-Ferrer and Muralidhar (2016), Section 5): links every original record to Z by Algorithm 2, "
                         "then compares his match distances with those of random records."),
            self.linkage_summary, self.verdict, self.distance_canvas,
            widgets.HTML("<b>A subject's view</b> (Domingo-Ferrer and Muralidhar (2016), Section 4): only her record and the anonymized data."),
            subject_row, widgets.HBox([self.subject_canvas, self.subject_text], layout=box(flex_flow="row wrap")),
            widgets.HTML("<b>Per record</b> (Domingo-Ferrer and Muralidhar (2016), Tables 4-5; record numbers from 1)"), self.table,
            widgets.HBox([self.export_button, self.download], layout=box(align_items="center")),
        ])
        self.widget.add_class("explorer-permutation-panel")
        self._on_source()

    # ------------------------------------------------------------------ data
    def _rng(self, purpose: str) -> np.random.Generator:
        """Independent streams from the one seed (the same seed for data and noise would correlate them)."""
        streams = np.random.SeedSequence(int(self.seed.value)).spawn(3)
        return np.random.default_rng(streams[("data", "mask", "analysis").index(purpose)])

    def _show_inputs(self) -> None:
        has_masked = self.state.masked_version() is not None
        self.max_records.layout.display = "none" if has_masked or self.state.dataset is None else ""
        name = self.state.dataset_name or "none yet"
        self.data_name.value = (f"<small>Data set (chosen in the Data tab): <b>{escape(name)}</b>"
                                + (", with its printed masked version" if has_masked else "") + "</small>")

    def _load(self) -> tuple[pd.DataFrame, pd.DataFrame | None, list[str]]:
        """The original attributes X (numeric), the printed masked Y if the data set has one, notes for the user.

        Raises :class:`DatasetError` saying what the state's data set lacks."""
        notes: list[str] = []
        frame = self.state.dataset
        if frame is None:
            raise DatasetError("is not chosen yet")      # (said in words by _lacking)
        printed = self.state.masked_version()
        if printed is not None:
            return frame[list(printed.columns)].astype(float), printed.astype(float), notes
        info = dataset_info(frame)
        usable = [c for c in frame.columns if str(c) in info.numeric or str(c) in info.ordinal]
        excluded = [str(c) for c in frame.columns if c not in usable]
        if excluded:
            shown = ", ".join(excluded[:6]) + (" ..." if len(excluded) > 6 else "")
            notes.append(f"{len(excluded)} non-numeric column(s) left out ({shown}); ordinal columns are ranked "
                         "by their category order")
        if not usable:
            raise DatasetError("has no numeric or ordinal column to permute")
        frame = frame[usable]
        numeric = pd.DataFrame({c: frame[c].cat.codes.where(frame[c].cat.codes >= 0)
                                if isinstance(frame[c].dtype, pd.CategoricalDtype) else
                                pd.to_numeric(frame[c], errors="coerce") for c in usable})
        complete = numeric.dropna()
        if len(complete) < len(numeric):
            notes.append(f"{len(numeric) - len(complete)} record(s) with missing values dropped (policy 'drop')")
        limit = check_int(self.max_records.value, "records ≤", minimum=2, maximum=MAX_RECORDS)
        if len(complete) > limit:
            complete = complete.sample(n=limit, random_state=self._rng("data")).sort_index()
            notes.append(f"a seeded random sample of {limit:,} of {len(numeric):,} records is used")
        if len(complete) < 2:
            raise DatasetError(f"has {len(complete)} complete record(s) with numeric values; the analysis needs "
                               "at least 2")
        return complete.reset_index(drop=True).astype(float), None, notes

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

    @guarded
    def _on_source(self, change: Any = None) -> None:
        self.task.supersede()                      # other data: a running analysis is moot
        self._show_inputs()
        try:
            X, paper_Y, notes = self._load()
        except DatasetError as error:
            self._lacking(str(error))
            return
        self.switch_button.layout.display = "none"
        self.X, self.paper_Y, self._notes = X, paper_Y, notes
        self._loading = True
        try:
            options = [(m.label, m.name) for m in MASKING_METHODS.values()]
            if paper_Y is not None:
                options = [("the paper's masked Y", PAPER_METHOD)] + options
            current = self.method.value
            self.method.options = options
            names = [v for _, v in options]
            owner = change.get("owner") if isinstance(change, dict) else None
            if paper_Y is not None and owner is not self.max_records:   # a new data set: its printed Y first
                self.method.value = PAPER_METHOD
            elif current in names:
                self.method.value = current
            else:
                self.method.value = "additive_noise"
            self._set_parameter_widget()
            cols = [str(c) for c in X.columns]
            keep = tuple(c for c in self.columns.value if c in cols)
            self.columns.options = cols
            self.columns.value = keep if keep and owner is self.max_records else tuple(cols[: min(len(cols), 6)])
            ties = np.any([X[c].duplicated().any() for c in X.columns])
            self.ties.value = "average" if ties else "random"
            if ties:
                self._notes.append("the data have equal values: ranks use mid-ranks, so equal values coincide")
            n = len(X)
            self.n_random.value = 0 if float(n) ** min(len(cols), 6) <= AUTO_ALL_RANDOM else DEFAULT_RANDOM
            self.record.max = n
            self.record.value = min(self.record.value, n)
        finally:
            self._loading = False
        self._recompute()

    @guarded
    def _on_shared_dataset(self, change: Any = None) -> None:
        self._on_source()

    # ------------------------------------------------------------------ masking
    def _set_parameter_widget(self) -> None:
        spec = MASKING_METHODS.get(self.method.value)
        if spec is None or spec.parameter is None:
            self.parameter.disabled = True
            self.parameter.description = "parameter"
            self.parameter_doc.value = ("<small>The masked attributes printed in the paper.</small>"
                                        if self.method.value == PAPER_METHOD else
                                        f"<small>{escape(spec.parameter_doc)}</small>")
            return
        self.parameter.disabled = False
        maximum = float(spec.maximum) if not spec.integer else float(min(spec.maximum, 100))
        self.parameter.min, self.parameter.max = -1e12, 1e12              # avoid clamping while changing bounds
        self.parameter.step = spec.step
        self.parameter.readout_format = "d" if spec.integer else ".2f"
        self.parameter.min = float(spec.minimum)
        self.parameter.max = maximum if spec.name != "top_bottom_coding" else 0.49
        self.parameter.value = float(spec.default)
        self.parameter.description = spec.parameter
        self.parameter_doc.value = f"<small>{escape(spec.parameter_doc)}</small>"

    @guarded
    def _on_method(self, change: Any = None) -> None:
        if self._loading:
            return
        self._loading = True
        try:
            self._set_parameter_widget()
        finally:
            self._loading = False
        self._recompute()

    @guarded
    def _on_masking(self, change: Any = None) -> None:
        if self._loading:
            return
        self._recompute()

    @guarded
    def _on_columns(self, change: Any = None) -> None:
        if self._loading:
            return
        self._recompute()

    def _mask_job(self, X: pd.DataFrame) -> tuple[Any, float | None]:
        """Check the masking now; return ``(make_Y, parameter)`` where ``make_Y()`` masks with today's controls."""
        method = self.method.value
        if method == PAPER_METHOD:
            if self.paper_Y is None:
                raise InvalidParameterError("this data set has no printed masked version; choose a masking method")
            cols = [self.X.columns.get_loc(c) for c in X.columns]
            printed = self.paper_Y.to_numpy(dtype=float)[:, cols]
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
        n_random: Any = check_int(self.n_random.value, "random records", minimum=0, maximum=MAX_RANDOM)
        if n_random == 0:
            total = float(len(X)) ** len(chosen)
            if total > MAX_ALL_RANDOM:
                raise InvalidParameterError(f"'all' random records would be {len(X)}^{len(chosen)} = {total:,.0f}; "
                                            "set a number of random records (e.g. 10000)")
            n_random = "all"
        elif n_random > float(len(X)) ** len(chosen):
            raise InvalidParameterError(f"random records = {n_random:,} is more than the n^m = "
                                        f"{float(len(X)) ** len(chosen):,.0f} possible; use 0 (all)")
        n, m = len(X), len(chosen)
        randoms = int(round(float(n) ** m)) if n_random == "all" else int(n_random)
        units = permutation_work(n, m, randoms, self.method.value, parameter)
        seconds = self.estimate = THROUGHPUT.estimate(units)     # what the status line shows, in seconds
        slow = units * 1e-6 > SLOW_SECONDS          # what runs at once is decided on the work, not on the load
        if units * 1e-6 > MAX_SECONDS:
            raise InvalidParameterError(
                f"{n:,} records × {m} attribute(s) with {randoms:,} random records would take about "
                f"{seconds:,.0f} s, more than the {MAX_SECONDS:.0f} s allowed here: lower 'records ≤' or the "
                "random records; the last view is kept")
        job = self._analysis_job(X, make_Y, n_random, units)
        if not slow:
            started = time.perf_counter()
            self._show(job(None))
            THROUGHPUT.observe(units, time.perf_counter() - started)   # the rate of the analysis and its views
            return
        text = f"{n:,} records × {m} attribute(s) with {randoms:,} random records"
        self._pending = (job, text, units)
        self.compute_button.layout.display = None
        if self.analysis is not None:
            self.stale.mark(self._views(), f"the views show {self.analysis.X.shape[0]:,} records × "
                                           f"{len(self.analysis.columns)} attribute(s)")
        self.status.info(f"Large input: {text}, {THROUGHPUT.describe(units)}. Press Compute to run it in the "
                         "background (Cancel stops it); the current view stays until then.")

    def _analysis_job(self, X: pd.DataFrame, make_Y: Any, n_random: Any, units: float) -> Any:
        """``job(progress)``: masking and the staged analysis with the controls of now (progress None: no bar)."""
        chosen = list(X.columns)
        ties, rng = self.ties.value, self._rng("analysis")
        n, m = len(X), len(chosen)
        randoms = float(n) ** m if n_random == "all" else float(n_random)
        base = m * n * UNITS["record_attribute"]
        random_work = m * randoms * UNITS["random_attribute"]
        showing = n * UNITS["record_view"] + UNITS["analysis_fixed"]
        costs = [("masking", max(units - base - random_work - showing, 0.0))]
        costs += [(stage, share * base) for stage, share in STAGES]
        costs.append(("random records", random_work))
        total = sum(c for _, c in costs) or 1.0
        starts, done = {}, 0.0
        for stage, cost in costs:
            starts[stage] = done / total
            done += cost

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

    def _show(self, analysis: PermutationAnalysis) -> None:
        """Show an analysis (a background one only reaches here while still current: the task drops the rest)."""
        with self.task.lock:
            if self.X is None:
                return
            chosen = list(analysis.columns)
            self.analysis = analysis
            self._pending = None
            self.stale.clear()
            self._shown = self._describe(analysis)
            self.caption.value = f"<small>Shown: {escape(self._shown)}</small>"
            self.compute_button.layout.display = "none"
            self._loading = True
            try:
                current = self.attribute.value
                self.attribute.options = chosen
                self.attribute.value = current if current in chosen else chosen[0]
                self.record.max = analysis.X.shape[0]
                self.d.value = float(analysis.privacy.d)
                self.v.value = ", ".join(                 # numbers to edit: plain, no e-notation, no separators
                    np.format_float_positional(v, precision=4, unique=False, fractional=False, trim="-")
                    for v in analysis.privacy.v)
            finally:
                self._loading = False
            self._render_all()
            notes = "; ".join(self._notes)
            self.status.info(f"{analysis.X.shape[0]:,} records, {len(chosen)} attribute(s)."
                             + (f" Note: {notes}." if notes else ""))

    def _describe(self, analysis: PermutationAnalysis) -> str:
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
                self.summary, self.linkage_summary, self.verdict, self.subject_text, self.table]

    @guarded
    def _on_compute(self, button: Any = None) -> None:
        if self._pending is None:
            self.status.info("The view is up to date: nothing to compute.")
            return
        job, text, units = self._pending
        self.task.progress.description = "analysis"
        started = time.perf_counter()

        def show(analysis: PermutationAnalysis) -> None:      # timed with its views: what the estimate covers
            self._show(analysis)
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
        link = a.linkage
        self.linkage_summary.value = f"<b>Linkage</b>: {escape(link.summary())}"
        ver = a.verification
        self.verdict.value = (f"<b>Verdict</b>: {escape(ver.verdict())} (Hellinger distance {ver.hellinger:.3f}, "
                              f"{ver.random.n_random:,} random records"
                              f"{', all combinations' if ver.random.exhaustive else ''})")
        self.distance_artists.update(ver.bins, ver.original_frequency, ver.random_frequency, ver.hellinger,
                                     "match distances: original vs random records")
        self.distance_figure.canvas.draw_idle()
        self._render_attribute()
        self._render_subject()
        table = a.record_table()
        self.table.value = html_table(table.head(20), css_class="explorer-perm-records") + (
            f"<small>first 20 of {len(table):,} records; export for all</small>" if len(table) > 20 else "")

    def _render_attribute(self) -> None:
        a = self.analysis
        if a is None or self.attribute.value not in a.columns:
            return
        j = a.columns.index(self.attribute.value)
        self.values_artists.update(a.X[:, j], a.Y[:, j], a.Z[:, j], a.columns[j])
        self.values_figure.canvas.draw_idle()
        rho = a.spearman[j] if math.isfinite(a.spearman[j]) else 1.0
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

    def _render_subject(self) -> None:
        a = self.analysis
        if a is None:
            return
        i = int(self.record.value) - 1
        n = a.X.shape[0]
        if not 0 <= i < n:
            raise InvalidParameterError(f"record must be between 1 and {n}, got {i + 1}")
        d = float(self.d.value)
        v = self._parse_v(len(a.columns))
        dist = a.privacy.distances
        variances = window_variances(a.privacy.sorted_values, dist.nearest_rank[i:i + 1], d,
                                     dist.nearest_half_width if np.isscalar(dist.nearest_half_width)
                                     else dist.nearest_half_width[i:i + 1])[0]
        holds = bool(dist.distance[i] >= d and np.all(variances >= v))
        matches = dist.matches(i)
        pair = (0, 1) if len(a.columns) > 1 else (0, 0)
        self.subject_artists.update(dist.anonymized_ranks, dist.nearest_rank[i], matches, dist.distance[i],
                                    pair, (a.columns[pair[0]], a.columns[pair[1]]))
        self.subject_figure.canvas.draw_idle()
        rows = pd.DataFrame({"attribute": list(a.columns), "her value": a.X[i], "nearest in Y": dist.nearest_value[i],
                             "its rank R*": dist.nearest_rank[i], "variance within d": variances, "v": v})
        verdict = "holds" if holds else "does not hold"
        self.subject_text.value = (
            f"<b>Record {i + 1}</b>: permutation distance <b>{dist.distance[i]:g}</b>, "
            f"anonymized record(s) at that distance: {', '.join(str(k + 1) for k in matches)}.<br>"
            + html_table(rows, css_class="explorer-perm-subject", digits=6) +
            f"(d, v)-permuted privacy with d = {d:g} <b>{verdict}</b> for her record "
            f"(distance ≥ d and every window variance ≥ v).")

    @guarded
    def _on_attribute(self, change: Any = None) -> None:
        if not self._loading:
            self._render_attribute()

    @guarded
    def _on_subject(self, change: Any = None) -> None:
        if not self._loading:
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

    # ------------------------------------------------------------------ configuration
    _CONFIG = ("max_records", "method", "parameter", "seed", "ties", "n_random",
               "attribute", "record", "d", "v")

    def config(self) -> dict[str, Any]:
        """The panel's controls as a JSON-serialisable dict."""
        config = {name: getattr(self, name).value for name in self._CONFIG}
        config["columns"] = list(self.columns.value)
        return config

    def apply_config(self, config: dict[str, Any]) -> None:
        """Set the controls from :meth:`config` output; invalid entries are reported, not applied.

        The data set is the state's: a ``source`` entry of an earlier release is ignored."""
        if not isinstance(config, dict):
            raise InvalidParameterError(f"configuration must be a dict, got {type(config).__name__}")
        problems = []
        order = ("max_records", "columns", "method", "parameter", "seed", "ties", "n_random",
                 "attribute", "record", "d", "v")
        for name in order:
            if name not in config:
                continue
            try:
                if name == "columns":
                    cols = tuple(c for c in config["columns"] if c in self.columns.options)
                    if cols:
                        self.columns.value = cols
                else:
                    getattr(self, name).value = config[name]
            except Exception:  # a forged or stale value: report it, keep the rest
                problems.append(name)
        if problems:
            self.status.error(f"configuration entries not applied: {', '.join(problems)}")
