"""The "t-closeness" tab: cluster distributions against the data set, exp(eps/2)-closeness and deniability.

Wiring only: clusterings, profiles and the worst-case cluster come from
:mod:`explorer.core.closeness`; the plots from :mod:`explorer.plotting.t_closeness`.
Clusterings are cached by (data set, quasi-identifiers, method, k, ...) and
computed automatically only when cheap; otherwise the views are greyed and
marked "out of date: press Compute" until Compute has run.  Moving
epsilon, the EMD bound or the selected cluster only updates the plots.  The
data set, its quasi-identifiers and sensitive attribute, and epsilon are the
app's state (:class:`~explorer.state.AppState`): this tab shows them and writes
the user's changes back; it keeps no marks of its own.  A data set comes with
its default marks (UCI Adult's: quasi-identifiers age, education-num,
hours-per-week, sex; sensitive income); when the state has no quasi-identifier
or no sensitive attribute marked, the tab says so and offers to switch the
shared data set to UCI Adult.
"""

from __future__ import annotations

import math
import time
from typing import Any

import ipywidgets as widgets
import numpy as np
import pandas as pd
import traitlets

from explorer.core.closeness import (
    ClosenessProfile,
    Clustering,
    closeness_for_epsilon,
    closeness_profile,
    cluster_table,
    group_by,
    mdav,
    t_close_microaggregation,
    worst_case_cluster,
)
from explorer.errors import DatasetError, ExplorerError, InvalidParameterError
from explorer.core.export import csv_safe
from explorer.core.cost import microaggregation_work
from explorer.panels._base import (AppState, BackgroundTask, StaleMark, StatusLine, Throughput, csv_download_link,
                                   epsilon_slider, escape, guarded, make_figure)
from explorer.panels._format import format_value, html_table
from explorer.state import shorten
from explorer.plotting.t_closeness import (
    plot_cluster_deniability,
    plot_cluster_distribution,
    plot_cluster_ratios,
    plot_worst_case,
)

__all__ = ["TClosenessPanel"]

METHODS = [("MDAV microaggregation (k)", "mdav"), ("group by the quasi-identifiers", "group_by"),
           ("t-close microaggregation (k, t)", "t_close")]
DISTANCE_OPTIONS = [("ratio, Eq. (7)", "ratio"), ("EMD, equal ground distance", "emd"),
                    ("EMD, ordered ground distance", "emd_ordered")]
BINNING_OPTIONS = [("quantile bins", "quantile"), ("fixed edges", "edges"), ("each value", "values"),
                   ("none", "none")]
#: The data set the tab offers when the shared one has no marks (its default marks are the opening picture).
FALLBACK_DATASET = "UCI Adult"
#: Seconds per work unit of :func:`explorer.core.cost.microaggregation_work`, measured on this kernel's clusterings.
THROUGHPUT = Throughput(1e-6)
#: "each value" or fixed-edge binnings with more bins than this are refused (their cost grows with the bins)
MAX_BINS = 200
DISTANCE_LABELS = {"ratio": "ratio distance d (Eq. 7)", "emd": "EMD (equal)", "emd_ordered": "EMD (ordered)"}



def worst_note(worst: Any, categories: Any) -> str:
    """The worst admissible cluster in words, naming the raised value by its category label.

    ``worst`` is a :class:`~explorer.core.closeness.profile.WorstCaseCluster`; its
    ``note`` names the value by its index, which users do not see anywhere.
    """
    label = str(categories[worst.value]) if 0 <= worst.value < len(categories) else f"value {worst.value}"
    share = format_value(float(worst.distribution[worst.value]))
    if worst.binds:
        return f"{label} grows by the full factor t = exp(ε/2) = {format_value(worst.t)}, to a share of {share}"
    if math.isinf(worst.t):
        return "ε is infinite: the cluster can hold a single value"
    return (f"the bound cannot bind: {label} grows by a factor {format_value(worst.factor)} only (less than "
            f"t = {format_value(worst.t)}), to a share of {share}, so that the other values keep at least "
            f"their shares divided by t")

class TClosenessPanel:
    """t-closeness and differential privacy on real data (Domingo-Ferrer and Soria-Comas (2018), Section IV)."""

    #: clusterings whose estimated cost n^2 / (2k) is below this run without pressing Compute
    AUTO_COST = 2.2e7
    #: clusterings costlier than this run in a background thread with a progress bar and Cancel
    BACKGROUND_COST = 2.2e7

    def __init__(self, state: AppState | None = None, *, k: int = 50):
        self.state = state if state is not None else AppState()
        if state is None:                    # a notebook's panel of its own: UCI Adult and its default marks
            self.state.select_dataset(FALLBACK_DATASET)
        self.status = StatusLine()
        self._cache: dict[tuple, Clustering] = {}
        self.clustering: Clustering | None = None
        self.profile: ClosenessProfile | None = None
        self.csv_text = ""
        self._order = np.zeros(0, dtype=int)
        self._busy = False
        self._epsilon_error = False
        self._k_wanted = int(k)              # the k the user asked for; a small data set may lower it for a while
        self.stale = StaleMark()
        self.caption = widgets.HTML()            # what the figures and table show, in words (also in the figures)
        self.caption.add_class("explorer-tc-caption")
        self.task = BackgroundTask(self.status, description="clustering", name="t-closeness-clustering")
        self._lock = self.task.lock          # the background result and the kernel's redraws take turns
        self.background_cost = self.BACKGROUND_COST

        box = widgets.Layout
        self.quasi_identifiers = widgets.SelectMultiple(options=[], rows=6, description="Quasi-ids",
                                                        layout=box(width="260px"))
        self.sensitive = widgets.Dropdown(options=[], description="Sensitive", layout=box(width="260px"))
        self.binning = widgets.Dropdown(options=BINNING_OPTIONS, value="quantile", description="Binning",
                                        layout=box(width="260px"))
        self.bins = widgets.IntSlider(value=5, min=2, max=20, description="bins", continuous_update=False,
                                      layout=box(width="260px"))
        self.edges = widgets.Text(value="", placeholder="fixed edges, e.g. 0, 30, 60, 100", description="edges",
                                  continuous_update=False, layout=box(width="260px"))
        self.method = widgets.Dropdown(options=METHODS, value="mdav", description="Clustering",
                                       layout=box(width="320px"))
        self.k = widgets.BoundedIntText(value=k, min=1, max=10_000_000, description="k", layout=box(width="180px"))
        self.cluster_button = widgets.Button(description="Compute", icon="play", button_style="primary")
        self.switch_button = widgets.Button(description=f"Use {FALLBACK_DATASET}", icon="exchange",
                                            tooltip="make it the data set of every tab, with its default marks",
                                            layout=box(width="auto", display="none"))
        self.distance = widgets.Dropdown(options=DISTANCE_OPTIONS, value="ratio", description="Distance",
                                         layout=box(width="320px"))
        self.epsilon = epsilon_slider(self.state, self.status)        # a view of the shared epsilon
        self.t_label = widgets.HTML()
        self.t_emd = widgets.FloatSlider(value=0.2, min=0.0, max=1.0, step=0.01, description="t (EMD)",
                                         continuous_update=False, readout_format=".2f")
        self.worst_value = widgets.Dropdown(options=[("the value that gives the best guess", -1)], value=-1,
                                            description="raise", layout=box(width="420px"))
        self.selected = widgets.IntSlider(value=0, min=0, max=0, description="cluster #",
                                          continuous_update=False, layout=box(width="420px"))
        self.summary = widgets.HTML()
        self.table = widgets.HTML()
        self.progress = self.task.progress   # the shared task's bar and Cancel button, shown while it runs
        self.cancel_button = self.task.cancel_button
        traitlets.dlink((self.task.widget.layout, "display"), (self.progress.layout, "display"))
        self.export_button = widgets.Button(description="Export clusters (CSV)", icon="download",
                                            layout=widgets.Layout(width="auto"))
        self.download = widgets.HTML()
        for w, name in ((self.quasi_identifiers, "qis"), (self.sensitive, "sensitive"), (self.binning, "binning"),
                        (self.bins, "bins"), (self.edges, "edges"), (self.method, "method"), (self.k, "k"),
                        (self.cluster_button, "cluster-button"), (self.switch_button, "switch"),
                        (self.distance, "distance"),
                        (self.epsilon, "epsilon"), (self.t_label, "t"), (self.t_emd, "t-emd"),
                        (self.selected, "selected"), (self.worst_value, "worst-value"), (self.summary, "summary"),
                        (self.table, "table"),
                        (self.export_button, "export"), (self.download, "download"),
                        (self.progress, "progress"), (self.cancel_button, "cancel")):
            w.add_class(f"explorer-tc-{name}")

        self.ratio_figure, self.ratio_canvas = make_figure(6.2, 3.4)
        self.ratio_ax = self.ratio_figure.subplots()
        self.ratio_artists = plot_cluster_ratios(self.ratio_ax, [], self._t())
        self.deniability_figure, self.deniability_canvas = make_figure(4.6, 3.4)
        self.deniability_ax = self.deniability_figure.subplots()
        self.deniability_artists = plot_cluster_deniability(self.deniability_ax, [], 0.0, 1)
        self.distribution_figure, self.distribution_canvas = make_figure(5.4, 3.4)
        self.distribution_ax = self.distribution_figure.subplots()
        self.distribution_artists = None
        self.worst_figure, self.worst_canvas = make_figure(5.4, 3.4)
        self.worst_ax = self.worst_figure.subplots()
        self.worst_artists = None
        for canvas, name in ((self.ratio_canvas, "ratio-plot"), (self.deniability_canvas, "deniability-plot"),
                             (self.distribution_canvas, "distribution-plot"), (self.worst_canvas, "worst-plot")):
            canvas.add_class(f"explorer-tc-{name}")

        self.state.observe(self._on_dataset, names="dataset")
        self.state.observe(self._on_state_roles, names=["quasi_identifiers", "sensitive"])
        for w in (self.method, self.k):
            w.observe(self._on_clustering_change, names="value")
        self.quasi_identifiers.observe(self._on_roles_here, names="value")
        self.sensitive.observe(self._on_roles_here, names="value")
        for w in (self.binning, self.bins, self.edges):
            w.observe(self._on_sensitive_change, names="value")
        self.distance.observe(self._on_distance_change, names="value")
        self.epsilon.observe(self._on_bound_change, names="value")
        self.t_emd.observe(self._on_bound_change, names="value")
        self.selected.observe(self._on_selected, names="value")
        self.worst_value.observe(self._on_bound_change, names="value")
        self.cluster_button.on_click(self._on_cluster_button)
        self.switch_button.on_click(self._on_switch)
        self.export_button.on_click(self._on_export)

        intro = widgets.HTML(
            "<b>t-closeness and differential privacy</b> (Domingo-Ferrer and Soria-Comas (2018), Section IV). Records are grouped into "
            "clusters; an intruder who learns a person's cluster sees the cluster's distribution of the "
            "sensitive attribute. The data set is <i>t</i>-close when every cluster is within <i>t</i> of the "
            "whole data set; with the ratio distance of Eq. (7), exp(ε/2)-closeness gives ε-differential "
            "privacy (Proposition 1).")
        controls = widgets.HBox([
            self.quasi_identifiers,
            widgets.VBox([self.sensitive, self.binning, self.bins, self.edges]),
            widgets.VBox([self.method, widgets.HBox([self.k, self.cluster_button]),
                          self.task.widget]),
        ], layout=box(flex_flow="row wrap"))
        bound_row = widgets.HBox([self.distance, self.epsilon, self.t_label, self.t_emd],
                                 layout=box(flex_flow="row wrap", align_items="center"))
        self.widget = widgets.VBox([
            intro, controls, bound_row, self.switch_button, self.status.widget, self.stale.widget, self.caption, self.summary,
            widgets.HBox([self.ratio_canvas, self.deniability_canvas], layout=box(flex_flow="row wrap")),
            widgets.HBox([self.selected, self.worst_value], layout=box(flex_flow="row wrap")),
            widgets.HBox([self.distribution_canvas, self.worst_canvas], layout=box(flex_flow="row wrap")),
            widgets.HTML("<b>Clusters</b> (farthest first)"), self.table,
            widgets.HBox([self.export_button, self.download], layout=box(align_items="center")),
        ])
        self.widget.add_class("explorer-t-closeness-panel")
        self._on_dataset()

    # ------------------------------------------------------------------ data and defaults
    @property
    def frame(self) -> pd.DataFrame:
        """The data set in use: the state's (refused in words when there is none)."""
        if self.state.dataset is None:
            raise DatasetError("there is no data set yet: choose one in the Data tab")
        return self.state.dataset

    def _lacks(self) -> str:
        """What the tab needs and the state lacks, in words ("" when nothing)."""
        if self.state.dataset is None:
            return "There is no data set yet: choose one in the Data tab"
        missing = [what for what, value in (("quasi-identifier", self.quasi_identifiers.value),
                                            ("sensitive attribute", self.sensitive.value)) if not value]
        if not missing:
            return ""
        name = repr(self.state.dataset_name) if self.state.dataset_name else "in use"
        return (f"This tab needs quasi-identifiers and a sensitive attribute; the data set "
                f"{name} has no {' and no '.join(missing)} marked. Mark them here or in the "
                f"Data tab, or use {FALLBACK_DATASET} and its default marks (button above)")

    def _check_needs(self) -> bool:
        """Say what the state lacks (and offer the switch); True when the tab has what it needs."""
        lacks = self._lacks()
        offer = bool(lacks) and self.state.dataset_name != FALLBACK_DATASET
        self.switch_button.layout.display = None if offer else "none"
        if lacks:
            self.stale.mark(self._views(), "the views show the last clustering",
                            button="Compute after marking quasi-identifiers and a sensitive attribute")
            self.status.error(lacks + ".")
        return not lacks

    @guarded
    def _on_switch(self, button: Any = None) -> None:
        self.state.select_dataset(FALLBACK_DATASET)      # the shared data set and its default marks

    def _t(self) -> float:
        if getattr(self, "distance", None) is None or self.distance.value == "ratio":
            return closeness_for_epsilon(self.epsilon.value if hasattr(self, "epsilon") else 2.0)
        return float(self.t_emd.value)

    @guarded
    def _on_dataset(self, change: Any = None) -> None:
        if not self._check_needs() and self.state.dataset is None:
            return
        frame = self.frame
        columns = [str(c) for c in frame.columns]
        qis, sensitive = self._roles(columns)
        n_records = len(frame)
        lowered = ""
        k = self._k_wanted
        if k > n_records:
            k = max(1, n_records // 4)
            lowered = (f"k lowered from {self._k_wanted} to {k} for {n_records} records (k = {self._k_wanted} "
                       "comes back with a larger data set). ")
        self._busy = True
        try:
            self.quasi_identifiers.options = columns
            self.quasi_identifiers.value = tuple(qis)
            self.sensitive.options = columns
            self.sensitive.value = sensitive[0] if sensitive else None
            self.k.value = k
        finally:
            self._busy = False
        self.clustering, self.profile = None, None
        self._cache.clear()          # keys hold id(frame): never reuse them across data sets
        if not self._check_needs():
            return
        self._cluster(force=False)
        if lowered and not self.status.is_error:
            self.status.info(lowered + self.status.message)

    def _roles(self, columns: list[str]) -> tuple[list[str], list[str]]:
        """Quasi-identifiers and sensitive attributes: the state's marks (the tab keeps none of its own)."""
        qis = [c for c in self.state.quasi_identifiers if c in columns]
        sensitive = [c for c in self.state.sensitive if c in columns and c not in qis]
        return qis, sensitive

    @guarded
    def _on_state_roles(self, change: Any = None) -> None:
        columns = [str(c) for c in self.frame.columns]
        if self._busy or list(self.quasi_identifiers.options) != columns:
            return                                   # a new data set is on its way: _on_dataset follows it
        qis, sensitive = self._roles(columns)
        wanted = sensitive[0] if sensitive else None
        if tuple(qis) == tuple(self.quasi_identifiers.value) and wanted == self.sensitive.value:
            return
        self._busy = True
        try:
            self.quasi_identifiers.value = tuple(qis)
            self.sensitive.value = wanted
        finally:
            self._busy = False
        if self._check_needs():
            self._cluster(force=False)

    def _show_state_roles(self) -> None:
        columns = set(self.quasi_identifiers.options)
        qis = tuple(c for c in self.state.quasi_identifiers if c in columns)
        sensitive = [c for c in self.state.sensitive if c in columns]
        self._busy = True
        try:
            self.quasi_identifiers.value = qis
            self.sensitive.value = sensitive[0] if sensitive else None
        finally:
            self._busy = False

    @guarded
    def _on_roles_here(self, change: Any = None) -> None:
        """The tab's quasi-identifiers or sensitive attribute changed: write them into the state, then follow."""
        if self._busy:
            return
        qis = list(self.quasi_identifiers.value)
        chosen = [self.sensitive.value] if self.sensitive.value is not None else []
        others = [c for c in self.state.sensitive if c not in chosen and c not in qis]
        self._busy = True                           # the state's observers need not come back here
        try:
            self.state.set_marks(qis, [*chosen, *others])
        except ExplorerError:
            self._busy = False
            self._show_state_roles()                # show the state's marks again; the views stay
            raise
        finally:
            self._busy = False
        self.switch_button.layout.display = "none"
        self._cluster(force=False)               # says in words what is missing (the user is marking here)

    # ------------------------------------------------------------------ callbacks
    @guarded
    def _on_clustering_change(self, change: Any = None) -> None:
        if self._busy:
            return
        if change is not None and change.get("owner") is self.k:
            self._k_wanted = int(self.k.value)
        self._cluster(force=False)

    @guarded
    def _on_sensitive_change(self, change: Any = None) -> None:
        if self._busy:
            return
        self._cluster(force=False)

    @guarded
    def _on_distance_change(self, change: Any = None) -> None:
        self._cluster(force=False)

    @guarded
    def _on_bound_change(self, change: Any = None) -> None:
        if self._busy:
            return
        check = self.epsilon.value if self.distance.value == "ratio" else self.t_emd.value
        if not (isinstance(check, (int, float)) and math.isfinite(check) and check >= 0):
            self._epsilon_error = True
            raise InvalidParameterError(f"the bound must be a non-negative number, got {check!r}")
        if self.method.value == "t_close":
            self._cluster(force=False)
        else:
            self._redraw()
            self._clear_error()

    def _clear_error(self) -> None:
        """Replace an error about the bound once a valid value arrives (other errors stay)."""
        if self.status.is_error and self._epsilon_error:
            self._epsilon_error = False
            t = closeness_for_epsilon(self.epsilon.value)
            self.status.info(f"ε = {self.epsilon.value:g}, t = exp(ε/2) = {format_value(t)}.")

    @guarded
    def _on_selected(self, change: Any = None) -> None:
        self._redraw_selected()
        self._redraw_figures(ratio=True)

    @guarded
    def _on_cluster_button(self, button: Any = None) -> None:
        self._cluster(force=True)

    @guarded
    def _on_export(self, button: Any = None) -> None:
        if self.profile is None:
            raise DatasetError("there is no clustering to export yet: press Compute first")
        self.csv_text = csv_safe(cluster_table(self._profile_with_bound()))
        self.download.value = csv_download_link(
            self.csv_text, "t_closeness_clusters.csv",
            f"Download t_closeness_clusters.csv ({self.profile.n_clusters} clusters)")
        self.status.info(f"Cluster table ready: {self.profile.n_clusters} rows.")

    # ------------------------------------------------------------------ work
    def _key(self) -> tuple:
        method = self.method.value
        key: tuple = (id(self.frame), tuple(self.quasi_identifiers.value), method)
        if method in ("mdav", "t_close"):
            key += (int(self.k.value),)
        if method == "t_close":
            key += (self.sensitive.value, self.binning.value, int(self.bins.value), self.edges.value,
                    self.distance.value,
                    round(self._t(), 12))
        return key

    def _cost(self) -> float:
        n = len(self.frame)
        if self.method.value == "group_by":
            return float(n)
        return n * n / (2.0 * max(int(self.k.value), 1))

    def _edges(self) -> list[float] | None:
        """The fixed bin edges typed by the user (only read for the "fixed edges" binning)."""
        if self.binning.value != "edges":
            return None
        text = str(self.edges.value).replace(";", ",").strip()
        if len(text) > 200_000:
            raise InvalidParameterError(f"edges must be at most 200,000 characters, got {len(text):,}")
        if not text:
            raise InvalidParameterError("edges must list at least two numbers for the fixed-edges binning, "
                                        "e.g. 0, 30, 60, 100; got nothing")
        try:
            return [float(part) for part in text.replace(",", " ").split()]
        except ValueError:
            raise InvalidParameterError(f"edges must be numbers separated by commas, got {text[:60]!r}") from None

    def _binning(self) -> str | None:
        return None if self.binning.value == "none" else self.binning.value

    def _check_roles(self) -> list[str]:
        qis = list(self.quasi_identifiers.value)
        if not qis:
            raise DatasetError("choose at least one quasi-identifier")
        if self.sensitive.value is None:
            raise DatasetError("choose a sensitive attribute")
        if self.sensitive.value in qis:
            raise DatasetError(f"column {self.sensitive.value!r} cannot be both a quasi-identifier and sensitive")
        return qis

    def _cluster(self, *, force: bool) -> None:
        qis = self._check_roles()
        key = self._key()
        clustering = self._cache.get(key)
        if clustering is None:
            if self.running:
                self.status.info("A clustering is running: wait for it or press Cancel.")
                return
            self._check_bins()
            cost = self._cost()
            if not force and cost > self.AUTO_COST:
                self.stale.mark(self._views(), f"{self._describe()}; the views show the last clustering")
                self.status.info(f"{len(self.frame):,} records with k = {self.k.value}: press Compute to run "
                                 f"the clustering ({self._estimate()} here; it can be "
                                 f"cancelled).")
                return
            compute = self._clustering_job(qis)
            if cost > self.background_cost:
                self._start_clustering(key, compute)
                return
            clustering = compute(None)
            self._store(key, clustering)
        with self._lock:
            self.clustering = clustering
            self._caption = self._describe(epsilon=False)
            self._short = self._describe(short=True)
            self._refresh_profile()

    def _views(self) -> list:
        return [self.ratio_canvas, self.deniability_canvas, self.distribution_canvas, self.worst_canvas,
                self.table, self.summary]

    def _describe(self, *, epsilon: bool = True, short: bool = False) -> str:
        """The inputs of the views, in words: attribute, quasi-identifiers, method, k, epsilon."""
        method = dict((v, label) for label, v in METHODS).get(self.method.value, self.method.value)
        method = method.split(" (")[0]
        k = f", k = {self.k.value}" if self.method.value in ("mdav", "t_close") else ""
        if short:                                # for figure titles: attribute, method, k
            name = {"mdav": "MDAV", "group_by": "grouped by QIs", "t_close": "t-close MDAV"}.get(
                self.method.value, method)
            return f"S = {self.sensitive.value}; {name}{k}"
        return (f"sensitive {self.sensitive.value} given {', '.join(self.quasi_identifiers.value)}; "
                f"{method}{k}" + (f"; ε = {self.epsilon.value:g}" if epsilon else ""))

    def _check_bins(self) -> None:
        """Refuse binnings whose number of bins (and so their cost) is beyond :data:`MAX_BINS`."""
        sensitive = self.sensitive.value
        if sensitive not in self.frame.columns:
            return
        column = self.frame[sensitive]
        numeric = pd.api.types.is_numeric_dtype(column.dtype) and not pd.api.types.is_bool_dtype(column.dtype)
        if not numeric:
            if column.nunique() > MAX_BINS:
                raise InvalidParameterError(f"the sensitive attribute {shorten(sensitive)} has "
                                            f"{column.nunique():,} values; at most {MAX_BINS} are shown here")
            return
        if self.binning.value == "values" and column.nunique() > MAX_BINS:
            raise InvalidParameterError(
                f"binning 'each value' of {shorten(sensitive)} would make {column.nunique():,} bins; at most "
                f"{MAX_BINS} are computed here: choose quantile bins or fixed edges")
        if self.binning.value == "edges":
            edges = self._edges() or []
            if len(edges) - 1 > MAX_BINS:
                raise InvalidParameterError(f"edges would make {len(edges) - 1:,} bins of {shorten(sensitive)}; "
                                            f"at most {MAX_BINS} are computed here")

    def _seconds(self) -> float:
        """Estimated seconds of the clustering: the core's work estimate at the rate measured here."""
        return THROUGHPUT.estimate(self._units())

    def _units(self) -> float:
        return microaggregation_work(len(self.frame), int(self.k.value), self.method.value)

    def _estimate(self) -> str:
        return THROUGHPUT.describe(self._units())

    def _clustering_job(self, qis: list[str]):
        """The clustering for the current controls, as a function of a progress callback (timed, to learn the
        rate of :data:`THROUGHPUT`)."""
        job = self._clustering_call(qis)
        units = microaggregation_work(len(self.frame), int(self.k.value), self.method.value)

        def timed(progress):
            started = time.perf_counter()
            result = job(progress)
            THROUGHPUT.observe(units, time.perf_counter() - started)
            return result

        return timed

    def _clustering_call(self, qis: list[str]):
        frame, method, k = self.frame, self.method.value, int(self.k.value)
        if method == "mdav":
            return lambda progress: mdav(frame, qis, k, progress=progress)
        if method == "group_by":
            return lambda progress: group_by(frame, qis)
        sensitive, t, distance = self.sensitive.value, self._t(), self.distance.value
        binning, bins, edges = self._binning(), int(self.bins.value), self._edges()
        return lambda progress: t_close_microaggregation(frame, qis, sensitive, k, t, distance=distance,
                                                         binning=binning, bins=bins, edges=edges,
                                                         progress=progress)

    def _store(self, key: tuple, clustering: Clustering) -> None:
        if len(self._cache) >= 8:
            self._cache.pop(next(iter(self._cache)))
        self._cache[key] = clustering

    # ------------------------------------------------------------------ background work
    @property
    def running(self) -> bool:
        """Whether a clustering runs in the background."""
        return self.task.running

    def wait(self, timeout: float | None = None) -> None:
        """Block until the background clustering (if any) has finished (for notebooks and tests)."""
        self.task.wait(timeout)

    def _start_clustering(self, key: tuple, compute) -> None:
        """Run ``compute(progress)`` in the shared background task; its clustering is shown when it ends."""
        caption, short = self._describe(epsilon=False), self._describe(short=True)

        def done(clustering: Clustering) -> None:
            self._store(key, clustering)
            self.clustering = clustering
            self._caption, self._short = caption, short
            self._refresh_profile()

        # a cancel raises CancelledError in the core's words ("clustering cancelled after ...")
        self.task.start(compute, done, disable=(self.cluster_button,), still_current=lambda: key == self._key(),
                        message="Clustering... (press Cancel to stop; the plots show the last clustering until then)")

    def _refresh_profile(self) -> None:
        with self._lock:
            self._refresh_profile_locked()

    def _refresh_profile_locked(self) -> None:
        if self.clustering is None:
            return
        self._check_roles()
        self._check_bins()
        profile = closeness_profile(self.frame, self.clustering, self.sensitive.value, self.distance.value,
                                    binning=self._binning(), bins=self.bins.value, edges=self._edges())
        self.profile = profile
        self._order = np.argsort(-profile.distances, kind="stable")
        structure_changed = (self.distribution_artists is None
                             or self.distribution_artists.n_categories != len(profile.categories))
        if structure_changed:
            self._rebuild_category_plots()
        if tuple(label for label, _ in self.worst_value.options[1:]) != profile.categories:
            self._busy = True
            try:
                self.worst_value.options = [("the value that gives the best guess", -1)] + [
                    (c, i) for i, c in enumerate(profile.categories)]
                self.worst_value.value = -1
            finally:
                self._busy = False
        self.selected.max = max(profile.n_clusters - 1, 0)
        self.selected.value = min(self.selected.value, self.selected.max)
        self.download.value = ""
        self.csv_text = ""
        self.stale.clear()
        self._redraw()
        notes = "; ".join(profile.notes)
        self.status.info(f"{self.clustering.method.replace('_', ' ')}: {profile.n_clusters:,} clusters over "
                         f"{profile.n_records:,} records" + (f" ({notes})" if notes else "") + ".")

    def _rebuild_category_plots(self) -> None:
        profile = self.profile
        for ax in (self.distribution_ax, self.worst_ax):
            ax.clear()
        r = len(profile.categories)
        self.distribution_artists = plot_cluster_distribution(
            self.distribution_ax, profile.categories, np.zeros(r), profile.data_distribution, None)
        worst = self._worst(profile)
        self.worst_artists = plot_worst_case(self.worst_ax, profile.categories, worst.distribution,
                                             profile.data_distribution, worst.t, worst.guessing,
                                             worst.data_guessing, worst.entropy, worst.data_entropy)

    def _worst(self, profile: ClosenessProfile):
        value = self.worst_value.value
        return worst_case_cluster(profile.data_distribution, float(self.epsilon.value),
                                  value=None if value is None or value < 0 else value)

    def _profile_with_bound(self) -> ClosenessProfile:
        from dataclasses import replace
        return replace(self.profile, t=self._t())

    # ------------------------------------------------------------------ drawing
    def _redraw(self) -> None:
        with self._lock:
            self._redraw_locked()

    def _redraw_locked(self) -> None:
        profile = self.profile
        t = self._t()
        self.t_label.value = (f"t = exp(ε/2) = <b>{format_value(closeness_for_epsilon(self.epsilon.value))}</b>"
                              + ("" if self.distance.value == "ratio" else " (bound for the ratio distance)"))
        self.t_emd.layout.display = "none" if self.distance.value == "ratio" else None
        if profile is None:
            return
        caption = f"{getattr(self, '_caption', '')}; ε = {self.epsilon.value:g}, {profile.distance} distance"
        short = f"{getattr(self, '_short', '')}; ε = {self.epsilon.value:g}"
        for figure in (self.ratio_figure, self.deniability_figure, self.distribution_figure, self.worst_figure):
            figure.suptitle(short, fontsize=9, color="#333")
        self.caption.value = f"<small>Shown: {escape(caption)}</small>"
        n_bad = self.ratio_artists.update(profile.distances, t, selected=self.selected.value,
                                          ylabel=DISTANCE_LABELS[profile.distance])
        self.deniability_artists.update(profile.entropies, profile.data_entropy, len(profile.categories))
        worst = self._worst(profile)
        self.worst_artists.update(worst.distribution, profile.data_distribution, worst.t, worst.guessing,
                                  worst.data_guessing, worst.entropy, worst.data_entropy)
        self.n_violating = n_bad
        self.table.value = self._table_html()               # its "violates" column follows epsilon
        verdict = "is" if n_bad == 0 else "is NOT"
        finite = profile.distances[np.isfinite(profile.distances)]
        level = profile.max_distance
        eps_line = ""
        if profile.distance == "ratio":
            eps_line = (f" Its closeness level is d = {format_value(level)}"
                        + (f", i.e. ε = 2 ln d = {2 * math.log(level):.3f}." if math.isfinite(level) and level >= 1
                           else " (infinite: some cluster lacks a sensitive value, no finite ε)."))
        self.summary.value = (
            f"<span class='explorer-tc-violations'><b>{n_bad:,}</b> of {profile.n_clusters:,} clusters violate "
            f"t = {format_value(t)}</span>: the data set {verdict} {format_value(t)}-close under the {escape(profile.distance)} "
            f"distance.{eps_line} H(S) = {profile.data_entropy:.3f} bits, H(S | cluster) = "
            f"{profile.conditional_entropy:.3f} bits, log₂ r = {math.log2(len(profile.categories)):.3f}; "
            f"{len(finite):,} finite distances. <br><small>Worst admissible cluster at ε = "
            f"{self.epsilon.value:g}: {escape(worst_note(worst, profile.categories))}.</small>")
        self._redraw_selected()
        self._redraw_figures(ratio=True, deniability=True, worst=True)

    def _redraw_selected(self) -> None:
        profile = self.profile
        if profile is None or self.distribution_artists is None:
            return
        i = int(self._order[min(self.selected.value, len(self._order) - 1)])
        t = self._t() if profile.distance == "ratio" else None
        d = profile.distances[i]
        title = (f"cluster {profile.cluster_ids[i]} ({profile.sizes[i]} records): d = {format_value(d, digits=3)}, "
                 f"{profile.categories[profile.attaining[i]]} x{profile.factors[i]:.2f}")
        self.distribution_artists.update(profile.distributions[i], profile.data_distribution, t, title=title)
        self.ratio_artists.selected.set_xdata([self.selected.value + 0.5] * 2)
        self._redraw_figures(distribution=True)

    def _redraw_figures(self, *, ratio: bool = False, deniability: bool = False, distribution: bool = False,
                        worst: bool = False) -> None:
        for flag, figure in ((ratio, self.ratio_figure), (deniability, self.deniability_figure),
                             (distribution, self.distribution_figure), (worst, self.worst_figure)):
            if flag:
                figure.canvas.draw_idle()

    def _table_html(self, n_rows: int = 12) -> str:
        table = cluster_table(self._profile_with_bound()).head(n_rows)
        table = table.loc[:, [c for c in table.columns if not c.startswith("share ")]]
        return html_table(table, css_class="explorer-tc-table", max_height="260px")

    # ------------------------------------------------------------------ configuration
    def config(self) -> dict[str, Any]:
        """The tab's own controls as a JSON-serialisable dict (epsilon and the column marks are the state's)."""
        return {"binning": self.binning.value, "bins": int(self.bins.value), "edges": self.edges.value,
                "method": self.method.value,
                "k": int(self._k_wanted), "distance": self.distance.value, "t_emd": float(self.t_emd.value),
                "selected": int(self.selected.value),
                "worst_value": int(self.worst_value.value)}

    @guarded
    def apply_config(self, config: dict[str, Any]) -> None:
        """Set the controls from :meth:`config` output; unknown or invalid entries are reported, not applied."""
        if not isinstance(config, dict):
            raise InvalidParameterError(f"configuration must be a dict, got {type(config).__name__}")
        self._busy = True
        problems = []
        try:
            for name in ("binning", "bins", "edges", "method", "k", "distance", "t_emd"):
                if name in config:
                    try:
                        getattr(self, name).value = config[name]
                    except (traitlets.TraitError, ValueError, TypeError):
                        problems.append(name)
            if "k" in config and "k" not in problems:
                self._k_wanted = int(self.k.value)
        finally:
            self._busy = False
        self._cluster(force=False)
        if config.get("worst_value") in [v for _, v in self.worst_value.options]:
            self.worst_value.value = config["worst_value"]
        if "selected" in config and isinstance(config["selected"], int):
            self.selected.value = max(0, min(config["selected"], self.selected.max))
        if problems:
            self.status.error(f"configuration entries not applied: {', '.join(problems)}")
