"""The "t-closeness" tab: cluster distributions against the data set, exp(eps/2)-closeness and deniability.

Wiring only: clusterings, profiles and the worst-case cluster come from
:mod:`explorer.core.closeness`; the plots from :mod:`explorer.plotting.t_closeness`.
Clusterings are cached by (data set, quasi-identifiers, method, k, ...) and
computed at once only when cheap (:meth:`~explorer.panels.base.Panel.needs_compute`);
otherwise the views are greyed and marked "out of date: press Compute" until
Compute has run.  Moving epsilon, the EMD bound or the selected cluster only
updates the plots.  The data set, its quasi-identifiers and sensitive attribute,
and epsilon are the app's state (:class:`~explorer.state.AppState`): this tab
shows them and writes the user's changes back; it keeps no marks of its own.  A
data set comes with its default marks (UCI Adult's: quasi-identifiers age,
education-num, hours-per-week, sex; sensitive income); when the state has no
quasi-identifier or no sensitive attribute marked, the tab says so and offers to
switch the shared data set to UCI Adult.
"""

from __future__ import annotations

import math
import time
from dataclasses import replace
from typing import Any

import ipywidgets as widgets
import numpy as np
import pandas as pd
import traitlets

from explorer.core.closeness import (ClosenessProfile, Clustering, check_sensitive_bins, closeness_for_epsilon,
                                     closeness_profile, cluster_count_over_t, cluster_table, epsilon_for_closeness,
                                     group_by, k_for_records, mdav, parse_edges, t_close_microaggregation,
                                     worst_case_cluster)
from explorer.core.cost import microaggregation_work
from explorer.core.export import csv_safe
from explorer.errors import ConfigurationError, DatasetError, ExplorerError, InvalidParameterError
from explorer.panels._format import format_value, html_table
from explorer.panels.access import valuetext
from explorer.panels.base import Panel, on_change
from explorer.panels.controls import RangedIntText, epsilon_slider
from explorer.panels.downloads import csv_download_link
from explorer.panels.figures import make_figure
from explorer.panels.snippets import dataset_load_code
from explorer.panels.status import escape, guarded
from explorer.panels.tasks import Throughput
from explorer.plotting.t_closeness import (plot_cluster_deniability, plot_cluster_distribution, plot_cluster_ratios,
                                           plot_worst_case)
from explorer.state import AppState, shorten

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
#: The four figures (key -> title), in the order they are shown.
FIGURES = {"ratios": "Distance of each cluster to the whole data set, farthest first, against the bound t",
           "deniability": "Deniability of each cluster, H(S | cluster), against H(S) and log2 r",
           "distribution": "The selected cluster's distribution of the sensitive attribute against the data set's",
           "worst": "The most concentrated cluster still exp(ε/2)-close (Example 3) against the data set"}
#: Configuration entries that name a cluster or a value of the clustering the other entries make (set after it).
AFTER_CLUSTERING = ("selected", "worst_value")
#: Entries of configurations written before the column marks were the state's: ignored (the state holds the marks).
LEGACY_KEYS = ("quasi_identifiers", "sensitive")


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


def _distance(d: float) -> str:
    return "infinite distance" if math.isinf(d) else f"distance {d:.3f}"


class TClosenessPanel(Panel):
    """t-closeness and differential privacy on real data (Domingo-Ferrer and Soria-Comas (2018), Section IV).

    Its configuration (:meth:`~explorer.panels.base.Panel.config`) is ``binning``, ``bins``, ``edges``,
    ``method``, ``k`` (the k asked for, which a small data set lowers for a while), ``distance``, ``t_emd``,
    ``selected`` and ``worst_value``; epsilon and the column marks are the state's.  Four figures:
    ``ratios``, ``deniability``, ``distribution`` and ``worst``, each with its text and data table read from
    the closeness profile the figures draw.
    """

    #: The paper its exported figures' captions cite (explorer.references).
    paper = "rr-dp"

    def __init__(self, state: AppState | None = None, *, k: int = 50):
        super().__init__(state)
        if state is None:                    # a notebook's panel of its own: UCI Adult and its default marks
            self.state.select_dataset(FALLBACK_DATASET)
        self._cache: dict[tuple, Clustering] = {}
        self.clustering: Clustering | None = None
        self.profile: ClosenessProfile | None = None
        self.worst = None                    # the worst admissible cluster drawn (WorstCaseCluster)
        self.csv_text = ""
        self._order = np.zeros(0, dtype=int)
        self._epsilon_error = False
        self._k_wanted = int(k)              # the k the user asked for; a small data set may lower it for a while
        self._after_clustering: dict[str, int] = {}
        self.caption = widgets.HTML()        # what the figures and table show, in words (also in the figures)
        self.caption.add_class("explorer-tc-caption")
        self.background(description="clustering", name="t-closeness-clustering")
        self._lock = self.task.lock          # the background result and the kernel's redraws take turns

        box = widgets.Layout
        # The column marks are the state's (set together through state.set_marks): shown and edited here, but
        # not part of this tab's configuration.
        self.quasi_identifiers = widgets.SelectMultiple(options=[], rows=6, description="Quasi-ids",
                                                        layout=box(width="260px"))
        self.sensitive = widgets.Dropdown(options=[], description="Sensitive", layout=box(width="260px"))
        self.binning = self.control("binning", widgets.Dropdown(
            options=BINNING_OPTIONS, value="quantile", description="Binning", layout=box(width="260px")))
        self.bins = self.control("bins", widgets.IntSlider(
            value=5, min=2, max=20, description="bins", continuous_update=False, layout=box(width="260px")))
        self.edges = self.control("edges", widgets.Text(
            value="", placeholder="fixed edges, e.g. 0, 30, 60, 100", description="edges",
            continuous_update=False, layout=box(width="260px")))
        self.method = self.control("method", widgets.Dropdown(
            options=METHODS, value="mdav", description="Clustering", layout=box(width="320px")))
        self.k = self.control("k", RangedIntText(status=self.status,
            value=k, min=1, max=10_000_000, description="k", layout=box(width="180px")))
        self.distance = self.control("distance", widgets.Dropdown(
            options=DISTANCE_OPTIONS, value="ratio", description="Distance", layout=box(width="320px")))
        self.epsilon = self.control("epsilon", epsilon_slider(self.state, self.status), state="epsilon")
        self.t_emd = self.control("t_emd", widgets.FloatSlider(
            value=0.2, min=0.0, max=1.0, step=0.01, description="t (EMD)", continuous_update=False,
            readout_format=".2f"))
        self.selected = self.control("selected", widgets.IntSlider(
            value=0, min=0, max=0, description="cluster #", continuous_update=False, layout=box(width="420px")))
        # the sliders' values in words (aria-valuetext; ipywidgets issue 2650: explorer.panels.access)
        valuetext(self.bins, lambda n: f"{n} bins")
        valuetext(self.t_emd, lambda t: f"t = {t:.2f} for the earth mover's distance")
        valuetext(self.selected, lambda c: f"cluster # {c}, of 0 to {self.selected.max}, farthest first")
        self.worst_value = self.control("worst_value", widgets.Dropdown(
            options=[("the value that gives the best guess", -1)], value=-1, description="raise",
            layout=box(width="420px")))
        self.cluster_button = widgets.Button(description="Compute", icon="play", button_style="primary")
        self.switch_button = widgets.Button(description=f"Use {FALLBACK_DATASET}", icon="exchange",
                                            tooltip="make it the data set of every tab, with its default marks",
                                            layout=box(width="auto", display="none"))
        self.t_label = widgets.HTML()
        self.summary = widgets.HTML()
        self.table_html = widgets.HTML()          # the clusters, farthest first (self.table() is a figure's data)
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
                        (self.table_html, "table"),
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
        for key, figure, canvas, name in (
                ("ratios", self.ratio_figure, self.ratio_canvas, "ratio-plot"),
                ("deniability", self.deniability_figure, self.deniability_canvas, "deniability-plot"),
                ("distribution", self.distribution_figure, self.distribution_canvas, "distribution-plot"),
                ("worst", self.worst_figure, self.worst_canvas, "worst-plot")):
            canvas.add_class(f"explorer-tc-{name}")
            self.add_figure(key, FIGURES[key], figure, canvas=canvas,
                            describe=lambda key=key: self._describe_figure(key),
                            table=lambda key=key: self._figure_table(key))

        self.state.observe(self._on_dataset, names="dataset")
        self.state.observe(self._on_state_roles, names=["quasi_identifiers", "sensitive"])
        for w in (self.method, self.k):
            w.observe(self._on_clustering_change, names="value")
        for w in (self.quasi_identifiers, self.sensitive):
            w.observe(self._on_roles_here, names="value")
        for w in (self.binning, self.bins, self.edges, self.distance):
            w.observe(self._on_sensitive_change, names="value")
        for w in (self.epsilon, self.t_emd, self.worst_value):
            w.observe(self._on_bound_change, names="value")
        self.selected.observe(self._on_selected, names="value")
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
            widgets.VBox([self.method, widgets.HBox([self.k, self.cluster_button]), self.task.widget]),
        ], layout=box(flex_flow="row wrap"))
        bound_row = widgets.HBox([self.distance, self.epsilon.row, self.t_label, self.t_emd],
                                 layout=box(flex_flow="row wrap", align_items="center"))
        self.announce(self.caption, self.t_label, self.summary)   # readouts: aria-live regions (explorer.panels.access)
        self.widget = widgets.VBox([
            intro, controls, bound_row, self.switch_button, self.status.widget, self.stale.widget, self.caption,
            self.summary,
            widgets.HBox([self.ratio_canvas, self.deniability_canvas], layout=box(flex_flow="row wrap")),
            widgets.HBox([self.selected, self.worst_value], layout=box(flex_flow="row wrap")),
            widgets.HBox([self.distribution_canvas, self.worst_canvas], layout=box(flex_flow="row wrap")),
            widgets.HTML("<b>Clusters</b> (farthest first)"), self.table_html,
            widgets.HBox([self.export_button, self.download], layout=box(align_items="center")),
        ])
        self.widget.add_class("explorer-t-closeness-panel")
        self._on_dataset()

    # ------------------------------------------------------------------ data set and column marks (the state's)
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

    def _roles(self, columns: list[str]) -> tuple[list[str], list[str]]:
        """Quasi-identifiers and sensitive attributes: the state's marks (the tab keeps none of its own)."""
        qis = [c for c in self.state.quasi_identifiers if c in columns]
        sensitive = [c for c in self.state.sensitive if c in columns and c not in qis]
        return qis, sensitive

    def _show_state_roles(self) -> None:
        qis, sensitive = self._roles(list(self.quasi_identifiers.options))
        with self.busy():
            self.quasi_identifiers.value = tuple(qis)
            self.sensitive.value = sensitive[0] if sensitive else None

    @on_change
    def _on_dataset(self, change: Any = None) -> None:
        if not self._check_needs() and self.state.dataset is None:
            return
        columns = [str(c) for c in self.frame.columns]
        n_records = len(self.frame)
        k = k_for_records(self._k_wanted, n_records)
        lowered = "" if k == self._k_wanted else (
            f"k lowered from {self._k_wanted} to {k} for {n_records} records (k = {self._k_wanted} "
            "comes back with a larger data set). ")
        with self.busy():
            self.quasi_identifiers.options = columns
            self.sensitive.options = columns
            self.k.value = k
        self._show_state_roles()
        self.clustering, self.profile = None, None
        self._cache.clear()          # keys hold id(frame): never reuse them across data sets
        if not self._check_needs():
            return
        self._cluster(force=False)
        if lowered and not self.status.is_error:
            self.status.info(lowered + self.status.message)

    @on_change
    def _on_state_roles(self, change: Any = None) -> None:
        if list(self.quasi_identifiers.options) != [str(c) for c in self.frame.columns]:
            return                                   # a new data set is on its way: _on_dataset follows it
        qis, sensitive = self._roles(list(self.quasi_identifiers.options))
        if tuple(qis) == tuple(self.quasi_identifiers.value) and (sensitive[:1] or [None])[0] == self.sensitive.value:
            return
        self._show_state_roles()
        if self._check_needs():
            self._cluster(force=False)

    @on_change
    def _on_roles_here(self, change: Any = None) -> None:
        """The tab's quasi-identifiers or sensitive attribute changed: write them into the state, then follow."""
        qis = list(self.quasi_identifiers.value)
        chosen = [self.sensitive.value] if self.sensitive.value is not None else []
        others = [c for c in self.state.sensitive if c not in chosen and c not in qis]
        try:
            with self.busy():                        # the state's observers need not come back here
                self.state.set_marks(qis, [*chosen, *others])
        except ExplorerError:
            self._show_state_roles()                 # show the state's marks again; the views stay
            raise
        self.switch_button.layout.display = "none"
        self._cluster(force=False)                   # says in words what is missing (the user is marking here)

    @guarded
    def _on_switch(self, button: Any = None) -> None:
        self.state.select_dataset(FALLBACK_DATASET)      # the shared data set and its default marks

    # ------------------------------------------------------------------ the other controls
    @on_change
    def _on_clustering_change(self, change: Any = None) -> None:
        if change is not None and change.get("owner") is self.k:
            self._k_wanted = int(self.k.value)
        self._cluster(force=False)

    @on_change
    def _on_sensitive_change(self, change: Any = None) -> None:
        self._cluster(force=False)

    @on_change
    def _on_bound_change(self, change: Any = None) -> None:
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

    @on_change
    def _on_selected(self, change: Any = None) -> None:
        self._redraw_selected()
        self.ratio_figure.canvas.draw_idle()

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

    # ------------------------------------------------------------------ configuration
    def config(self) -> dict[str, Any]:
        """The declared controls' values, with ``k`` the k asked for (a small data set lowers the control's)."""
        return {**super().config(), "k": int(self._k_wanted)}

    def check_config(self, config: Any) -> dict[str, Any]:
        """Check a configuration; ``selected`` and ``worst_value`` are set after the clustering it makes.

        They name a cluster and a value of that clustering, so they are checked as whole numbers here, then
        set by :meth:`refresh` (a cluster beyond the last is the last; a value the clustering lacks is left).
        The marks of older configurations (:data:`LEGACY_KEYS`) are ignored: the state's marks are shown.
        """
        later = {key: config[key] for key in AFTER_CLUSTERING if isinstance(config, dict) and key in config}
        checked = super().check_config({key: value for key, value in config.items()
                                        if key not in later and key not in LEGACY_KEYS}
                                       if isinstance(config, dict) else config)
        for key, value in later.items():
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not float(value).is_integer():
                raise ConfigurationError(f"{key} must be a whole number, got {shorten(value)}")
        self._after_clustering = {key: int(value) for key, value in later.items()}
        if "k" in checked:
            self._after_clustering["k"] = int(checked["k"])
        return checked

    @guarded
    def refresh(self) -> None:
        """Cluster (or reuse the clustering) for the controls, then select the cluster and value configured."""
        after, self._after_clustering = self._after_clustering, {}
        if "k" in after:
            self._k_wanted = after["k"]
        try:
            self._cluster(force=False)
        finally:
            if after.get("worst_value") in [value for _, value in self.worst_value.options]:
                self.worst_value.value = after["worst_value"]
            if "selected" in after:
                self.selected.value = max(0, min(after["selected"], self.selected.max))

    # ------------------------------------------------------------------ inputs of the work
    def _t(self) -> float:
        if getattr(self, "distance", None) is None or self.distance.value == "ratio":
            return closeness_for_epsilon(self.epsilon.value if hasattr(self, "epsilon") else 2.0)
        return float(self.t_emd.value)

    def _key(self) -> tuple:
        method = self.method.value
        key: tuple = (id(self.frame), tuple(self.quasi_identifiers.value), method)
        if method in ("mdav", "t_close"):
            key += (int(self.k.value),)
        if method == "t_close":
            key += (self.sensitive.value, self.binning.value, int(self.bins.value), self.edges.value,
                    self.distance.value, round(self._t(), 12))
        return key

    def _edges(self) -> list[float] | None:
        """The fixed bin edges typed by the user (only read for the "fixed edges" binning)."""
        return parse_edges(self.edges.value) if self.binning.value == "edges" else None

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

    def _check_bins(self) -> None:
        """Refuse binnings whose number of bins (and so their cost) is beyond :data:`MAX_BINS`."""
        check_sensitive_bins(self.frame, self.sensitive.value, self._binning(), self._edges(), MAX_BINS)

    def _units(self) -> float:
        """The clustering's work (:func:`explorer.core.cost.microaggregation_work`)."""
        return microaggregation_work(len(self.frame), int(self.k.value), self.method.value)

    def _describe_inputs(self, *, epsilon: bool = True, short: bool = False) -> str:
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

    # ------------------------------------------------------------------ work
    def _cluster(self, *, force: bool) -> None:
        """Show the clustering of the controls: from the cache, at once when cheap, else after Compute."""
        qis = self._check_roles()
        key = self._key()
        clustering = self._cache.get(key)
        if clustering is None:
            if self.running:
                self.status.info("A clustering is running: wait for it or press Cancel.")
                return
            self._check_bins()
            units = self._units()
            waits = self.needs_compute(units)
            if waits and not force:
                self.stale.mark(self._views(), f"{self._describe_inputs()}; the views show the last clustering")
                self.status.info(f"{len(self.frame):,} records with k = {self.k.value}: press Compute to run "
                                 f"the clustering ({THROUGHPUT.describe(units)} here; it can be cancelled).")
                return
            compute = self._clustering_job(qis, units)
            if waits:                                # slow work runs in the background, with progress and Cancel
                self._start_clustering(key, compute)
                return
            clustering = compute(None)
            self._store(key, clustering)
        with self._lock:
            self.clustering = clustering
            self._caption = self._describe_inputs(epsilon=False)
            self._short = self._describe_inputs(short=True)
            self._refresh_profile()

    def _clustering_job(self, qis: list[str], units: float):
        """The clustering for the current controls, as a function of a progress callback (timed, to learn the
        rate of :data:`THROUGHPUT`)."""
        frame, method, k = self.frame, self.method.value, int(self.k.value)
        sensitive, t, distance = self.sensitive.value, self._t(), self.distance.value
        binning, bins, edges = self._binning(), int(self.bins.value), self._edges()
        jobs = {"mdav": lambda progress: mdav(frame, qis, k, progress=progress),
                "group_by": lambda progress: group_by(frame, qis),
                "t_close": lambda progress: t_close_microaggregation(
                    frame, qis, sensitive, k, t, distance=distance, binning=binning, bins=bins, edges=edges,
                    progress=progress)}

        def timed(progress):
            started = time.perf_counter()
            result = jobs[method](progress)
            THROUGHPUT.observe(units, time.perf_counter() - started)
            return result

        return timed

    def _store(self, key: tuple, clustering: Clustering) -> None:
        if len(self._cache) >= 8:
            self._cache.pop(next(iter(self._cache)))
        self._cache[key] = clustering

    def _start_clustering(self, key: tuple, compute) -> None:
        """Run ``compute(progress)`` in the panel's background task; its clustering is shown when it ends."""
        caption, short = self._describe_inputs(epsilon=False), self._describe_inputs(short=True)

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
            if self.clustering is None:
                return
            self._check_roles()
            self._check_bins()
            profile = closeness_profile(self.frame, self.clustering, self.sensitive.value, self.distance.value,
                                        binning=self._binning(), bins=self.bins.value, edges=self._edges())
            self.profile = profile
            self._order = profile.farthest_first
            if self.distribution_artists is None or self.distribution_artists.n_categories != len(profile.categories):
                self._rebuild_category_plots()
            with self.busy():                        # the redraw below shows the new choices once
                if tuple(label for label, _ in self.worst_value.options[1:]) != profile.categories:
                    self.worst_value.options = [("the value that gives the best guess", -1)] + [
                        (c, i) for i, c in enumerate(profile.categories)]
                    self.worst_value.value = -1
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
        return replace(self.profile, t=self._t())

    def _views(self) -> list:
        return [self.ratio_canvas, self.deniability_canvas, self.distribution_canvas, self.worst_canvas,
                self.table_html, self.summary]

    # ------------------------------------------------------------------ drawing
    def _redraw(self) -> None:
        with self._lock:                 # the background result and the kernel's redraws take turns
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
        self.n_violating = self.ratio_artists.update(profile.distances, t, selected=self.selected.value,
                                                     ylabel=DISTANCE_LABELS[profile.distance])
        self.deniability_artists.update(profile.entropies, profile.data_entropy, len(profile.categories))
        worst = self.worst = self._worst(profile)
        self.worst_artists.update(worst.distribution, profile.data_distribution, worst.t, worst.guessing,
                                  worst.data_guessing, worst.entropy, worst.data_entropy)
        self.table_html.value = self._table_html()               # its "violates" column follows epsilon
        self.summary.value = self._summary(profile, t, worst)
        self._redraw_selected()
        for figure in (self.ratio_figure, self.deniability_figure, self.worst_figure):
            figure.canvas.draw_idle()

    def _summary(self, profile: ClosenessProfile, t: float, worst: Any) -> str:
        """The verdict in words: clusters over t, the closeness level and its ε, the entropies, the worst cluster."""
        count = cluster_count_over_t(profile, t)
        verdict = "is" if count.is_t_close else "is NOT"
        level = profile.max_distance
        eps_line = ""
        if profile.distance == "ratio":
            eps_line = (f" Its closeness level is d = {format_value(level)}"
                        + (f", i.e. ε = 2 ln d = {epsilon_for_closeness(level):.3f}."
                           if math.isfinite(level) and level >= 1
                           else " (infinite: some cluster lacks a sensitive value, no finite ε)."))
        return (
            f"<span class='explorer-tc-violations'><b>{count.n_over:,}</b> of {profile.n_clusters:,} clusters "
            f"violate t = {format_value(t)}</span>: the data set {verdict} {format_value(t)}-close under the "
            f"{escape(profile.distance)} distance.{eps_line} H(S) = {profile.data_entropy:.3f} bits, "
            f"H(S | cluster) = {profile.conditional_entropy:.3f} bits, log₂ r = {profile.max_entropy:.3f}; "
            f"{count.n_clusters - count.n_infinite:,} finite distances. <br><small>Worst admissible cluster at ε = "
            f"{self.epsilon.value:g}: {escape(worst_note(worst, profile.categories))}.</small>")

    def _selected_position(self) -> int:
        """The position in the profile of the selected cluster (the slider counts farthest first)."""
        return int(self._order[min(self.selected.value, len(self._order) - 1)])

    def _redraw_selected(self) -> None:
        profile = self.profile
        if profile is None or self.distribution_artists is None:
            return
        i = self._selected_position()
        t = self._t() if profile.distance == "ratio" else None
        d = profile.distances[i]
        title = (f"cluster {profile.cluster_ids[i]} ({profile.sizes[i]} records): d = {format_value(d, digits=3)}, "
                 f"{profile.categories[profile.attaining[i]]} x{profile.factors[i]:.2f}")
        self.distribution_artists.update(profile.distributions[i], profile.data_distribution, t, title=title)
        self.ratio_artists.selected.set_xdata([self.selected.value + 0.5] * 2)
        self.distribution_figure.canvas.draw_idle()

    def _table_html(self, n_rows: int = 12) -> str:
        table = cluster_table(self._profile_with_bound()).head(n_rows)
        table = table.loc[:, [c for c in table.columns if not c.startswith("share ")]]
        return html_table(table, css_class="explorer-tc-table", max_height="260px",
                          label="clusters, by distance to the data set")

    # ------------------------------------------------------------------ the figures in words and numbers
    def _figure_table(self, key: str) -> pd.DataFrame:
        """The numbers figure ``key`` draws, from the closeness profile it draws (empty before any clustering)."""
        profile = self.profile
        if profile is None:
            return pd.DataFrame()
        if key == "ratios":
            table = cluster_table(self._profile_with_bound())
            return table.loc[:, ["cluster", "size", "distance", "attaining value", "factor", "violates"]]
        if key == "deniability":
            order = np.argsort(profile.entropies, kind="stable")             # the figure's order: lowest first
            return pd.DataFrame({"cluster": profile.cluster_ids[order], "size": profile.sizes[order],
                                 "H(S|cluster) bits": profile.entropies[order],
                                 "guessing probability": profile.guessing[order]})
        index = pd.Index(list(profile.categories), name=str(self.sensitive.value))
        if key == "distribution":
            i = self._selected_position()
            table = pd.DataFrame({"whole data set": profile.data_distribution,
                                  f"cluster {profile.cluster_ids[i]}": profile.distributions[i]}, index=index)
            if profile.distance == "ratio" and math.isfinite(self._t()):
                # the figure's markers: the shares a t-close cluster may reach (Eq. 7)
                table["lowest share (share / t)"] = self.distribution_artists.lower.get_ydata()
                table["highest share (t x share)"] = self.distribution_artists.upper.get_ydata()
            return table
        return pd.DataFrame({"whole data set": profile.data_distribution,
                             "worst admissible cluster": self.worst.distribution}, index=index)

    def _describe_figure(self, key: str) -> str:
        """What figure ``key`` shows now, in words, from the numbers of :meth:`_figure_table`."""
        profile, t = self.profile, self._t()
        if profile is None:
            return ("The figure shows no current clustering: "
                    + (self.status.message or "mark quasi-identifiers and a sensitive attribute."))
        table = self._figure_table(key)
        inputs = f"{self._describe_inputs(epsilon=False)}; ε = {self.epsilon.value:g}"

        def shares(column: str) -> str:
            return ", ".join(f"{label} {value:.3f}" for label, value in table[column].items())

        if key == "ratios":
            count = cluster_count_over_t(table["distance"].to_numpy(), t)
            far = table.iloc[0]
            infinite = f" ({count.n_infinite:,} at infinite distance: a value missing)" if count.n_infinite else ""
            level = ""
            if profile.distance == "ratio" and math.isfinite(profile.max_distance):
                level = f"; the closeness level d = {profile.max_distance:.3f} certifies " \
                        f"ε = {epsilon_for_closeness(profile.max_distance):.3f}"
            return (f"Bars of the {DISTANCE_LABELS[profile.distance]} of each of {count.n_clusters:,} clusters to "
                    f"the whole data set, farthest first, against t = {t:.3f} ({inputs}): {count.n_over:,} exceed "
                    f"t{infinite}. The farthest is cluster {far['cluster']} ({far['size']} records), at "
                    f"{_distance(far['distance'])}, attained by {far['attaining value']} (share x{far['factor']:.2f})"
                    f"{level}.")
        if key == "deniability":
            h = table["H(S|cluster) bits"]
            return (f"Bars of the deniability H(S | cluster) of each of {len(table):,} clusters, lowest first "
                    f"({inputs}): from {h.iloc[0]:.3f} to {h.iloc[-1]:.3f} bits, mean H(S | cluster) = "
                    f"{profile.conditional_entropy:.3f} bits, against H(S) = {profile.data_entropy:.3f} and "
                    f"log2 r = {profile.max_entropy:.3f} bits. The least deniable cluster, {table['cluster'].iloc[0]}, "
                    f"lets an intruder guess the sensitive value with probability "
                    f"{table['guessing probability'].iloc[0]:.3f}.")
        if key == "distribution":
            i = self._selected_position()
            return (f"Bar chart of cluster {profile.cluster_ids[i]} ({profile.sizes[i]} records), number "
                    f"{self.selected.value + 1} of {profile.n_clusters:,} farthest first ({inputs}): its shares of "
                    f"{table.index.name} ({shares(table.columns[1])}) against the whole data set's "
                    f"({shares('whole data set')}); its {_distance(profile.distances[i])} is attained by "
                    f"{profile.categories[profile.attaining[i]]} (share x{profile.factors[i]:.2f}).")
        worst = self.worst
        return (f"Bar chart of the most concentrated cluster still t-close at ε = {self.epsilon.value:g}, "
                f"t = exp(ε/2) = {worst.t:.3f} (Example 3): {worst_note(worst, profile.categories)}; its shares "
                f"({shares('worst admissible cluster')}) against the whole data set's ({shares('whole data set')}). "
                f"An intruder who knows the cluster guesses right with probability {worst.guessing:.3f} "
                f"(without it {worst.data_guessing:.3f}); H(S | cluster) = {worst.entropy:.3f} bits, H(S) = "
                f"{worst.data_entropy:.3f} bits.")

    def code(self) -> str:
        """The Python snippet (:mod:`explorer.core`, :mod:`explorer.plotting`) that reproduces the view now."""
        load, loader = dataset_load_code(self.state)
        qis, sensitive, k = list(self.quasi_identifiers.value), self.sensitive.value, int(self.k.value)
        epsilon, distance, t = float(self.epsilon.value), self.distance.value, self._t()
        binning = {"binning": self._binning(), "bins": int(self.bins.value), "edges": self._edges()}
        options = ", ".join(f"{name}={value!r}" for name, value in binning.items())
        method = self.method.value
        clustering = {"mdav": f"mdav(frame, {qis!r}, {k})", "group_by": f"group_by(frame, {qis!r})",
                      "t_close": f"t_close_microaggregation(frame, {qis!r}, {sensitive!r}, {k}, t, "
                                 f"distance={distance!r}, {options})"}[method]
        value = self.worst_value.value
        bound = "closeness_for_epsilon(epsilon)" if distance == "ratio" else repr(t)
        return "\n".join([
            "from matplotlib.figure import Figure", "",
            "from explorer.core.closeness import (closeness_for_epsilon, closeness_profile, cluster_count_over_t,",
            f"                                     {clustering.split('(')[0]}, worst_case_cluster)",
            f"from explorer.core.datasets import {loader}",
            "from explorer.plotting.t_closeness import (plot_cluster_deniability, plot_cluster_distribution,",
            "                                           plot_cluster_ratios, plot_worst_case)", "",
            load,
            f"epsilon = {epsilon!r}",
            f"t = {bound}",
            f"clustering = {clustering}",
            f"profile = closeness_profile(frame, clustering, {sensitive!r}, {distance!r}, {options})",
            f"worst = worst_case_cluster(profile.data_distribution, epsilon, value={None if value < 0 else value!r})",
            "count = cluster_count_over_t(profile, t)",
            "print(f\"{count.n_over} of {count.n_clusters} clusters above t = {t:.4g}\")", "",
            "selected = profile.farthest_first[" + str(int(self.selected.value)) + "]   # the cluster shown, farthest first",
            "figure = Figure(figsize=(11, 7), layout=\"constrained\")",
            "(ratios, deniability), (distribution, worst_axes) = figure.subplots(2, 2)",
            f"plot_cluster_ratios(ratios, profile.distances, t, ylabel={DISTANCE_LABELS[distance]!r})",
            "plot_cluster_deniability(deniability, profile.entropies, profile.data_entropy, len(profile.categories))",
            "plot_cluster_distribution(distribution, profile.categories, profile.distributions[selected],",
            f"                          profile.data_distribution, {'t' if distance == 'ratio' else 'None'})",
            "plot_worst_case(worst_axes, profile.categories, worst.distribution, profile.data_distribution, worst.t,",
            "                worst.guessing, worst.data_guessing, worst.entropy, worst.data_entropy)",
            "figure.savefig(\"t_closeness.png\")",
        ]) + "\n"
