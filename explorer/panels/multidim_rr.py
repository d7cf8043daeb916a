"""The "Multi-attribute RR" tab: RR-Independent, RR-Clusters and RR-Adjustment on real data (Domingo-Ferrer and Soria-Comas, 2022).

Wiring only: every number comes from :mod:`explorer.core.mdrr` (dependences and Algorithm 1's clusters,
:func:`~explorer.core.mdrr.cluster_plan`, :func:`~explorer.core.mdrr.example1_trace`) and
:mod:`explorer.core.mdrr.experiments`; the pictures from :mod:`explorer.plotting.multidim_rr`.  The
dependence heatmap and the clusters follow the controls at once.  A Monte Carlo experiment (Figure 3's
curves, or a Table 1 row for the chosen p) is a sample drawn with a fresh seed: it runs only when Compute is
pressed, in the panel's background task (thread, progress bar, Cancel), and fills the plot as chunks complete;
a cancelled experiment keeps its runs.  When the inputs of the runs on screen change, they are marked "out
of date: press Compute".

The dependence heatmap and the clusters follow the controls at once when their work is short, by the one
rule of every tab (:meth:`~explorer.panels.base.Panel.needs_compute` on
:func:`explorer.core.cost.dependence_work`): a dependence step estimated above one second on the reference
machine (for example (b') with the iterative Bayesian update on UCI Adult, about 14 s) marks the heatmap
"out of date: press Compute" and runs, on Compute, in the panel's background task before the experiment.
The experiments themselves (Table 1 / Figure 3 runs) run only on Compute, whatever their size: each press
draws a new random sample.

The data are the app's data set (:class:`~explorer.state.AppState`, chosen in the Data tab; its categorical
and ordinal attributes): the tab has no data source of its own.  The paper's data are data sets there ("UCI
Adult", and "UCI Adult x 6" for its Table 2); the printed values a Table 1-style grid is compared with are
those of Table 1 when the state's data set is UCI Adult, of Table 2 when it is UCI Adult x 6, none otherwise.
When the data set has fewer than 2 categorical attributes the tab says so and offers a button that makes UCI
Adult the shared data set.  Epsilon is the shared one.
"""

from __future__ import annotations

import json
import math
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any, Callable

import ipywidgets as widgets
import numpy as np
import pandas as pd
from matplotlib.ticker import AutoLocator

from explorer.core import datasets
from explorer.core.cost import REFERENCE_SECONDS_PER_UNIT, dependence_work
from explorer.core.export import csv_safe
from explorer.core.mdrr.adjustment import EXAMPLE1_KINDS, EXAMPLE1_LIMITS, Example1Trace, example1_trace
from explorer.core.mdrr.dependence import cluster_attributes, dependence_matrix
from explorer.core.mdrr.experiments import (
    ADULT_MDRR_ATTRIBUTES,
    FIGURE_SIGMAS,
    METHODS,
    PAPER_TABLE1,
    PAPER_TABLE2,
    TABLE_TD,
    TABLE_TV,
    ExperimentResult,
    error_curves,
    feasible_t_vs,
    run_figure3,
    run_table,
    summarize,
    table_cells,
)
from explorer.core.mdrr.protocols import CategoricalData, ClusterPlan, cluster_plan, encode_categorical
from explorer.errors import ConfigurationError, InvalidParameterError
from explorer.panels._format import format_value, subscripts_html
from explorer.panels.a11y import section_heading
from explorer.panels.access import valuetext
from explorer.panels.base import Panel, on_change
from explorer.panels.controls import RangedIntText, epsilon_slider
from explorer.panels.downloads import csv_download_link
from explorer.panels.figures import make_figure
from explorer.panels.snippets import dataset_load_code
from explorer.panels.status import escape, guarded
from explorer.plotting.multidim_rr import plot_convergence, plot_dependence, plot_error_curves
from explorer.state import AppState, shorten

__all__ = ["MultiDimRRPanel"]

#: The data set the tab offers to switch to when the shared one lacks categorical attributes (and a notebook's
#: default): the paper's data (Section 6.1).
FALLBACK_DATASET = "UCI Adult"
#: The paper's printed grids, by the name of the state's data set they belong to (Tables 1 and 2).
PRINTED_TABLES = {"UCI Adult": ("PAPER_TABLE1", PAPER_TABLE1), "UCI Adult x 6": ("PAPER_TABLE2", PAPER_TABLE2)}
#: The former ``source`` choice that meant "the state's data set" (configurations and notebooks of earlier releases).
SHARED_SOURCE = "Shared data set"
MECHANISM_OPTIONS = [("keep-or-uniform (Prop. 1)", "keep-or-uniform"), ("paper 6.3.1 as printed", "paper-6.3.1"),
                     ("ε per attribute (shared ε)", "epsilon")]
DEPENDENCE_OPTIONS = [("(a) true data (trusted view)", "true"), ("(b) randomized data (4.1)", "randomized"),
                      ("(b') Eq. (2) pair estimates (4.1)", "estimated"), ("(c) secure sum (4.2)", "secure-sum"),
                      ("(d) pairwise RR (4.3)", "pairwise-rr")]
PROPER_OPTIONS = [("clip and rescale (6.4)", "clip"), ("simplex projection", "simplex"),
                  ("iterative Bayesian update", "ibu"), ("none (Eq. 2 as is)", "none")]
EXPERIMENT_OPTIONS = [("Figure 3: error vs σ", "figure3"), ("Table 1 row for this p", "table")]
CURVE_METHODS = METHODS[:4]
#: Count queries per run and coverage in the tab's experiments.
QUERIES = 5
#: The lines of Example 1's figure: one record of each kind.
EXAMPLE1_LABELS = [f"w of {kind} records" for kind in EXAMPLE1_KINDS]
FIGURES = {"dependence": "Dependence between the attributes, in the clusters of Algorithm 1",
           "error-curves": "Relative error of count queries against the coverage σ (Figure 3)",
           "example1": "RR-Adjustment's record weights on Example 1, sweep by sweep"}


def _layout(width: str) -> widgets.Layout:
    return widgets.Layout(width=width)


def _categorical_columns(frame: pd.DataFrame) -> list[str]:
    info = datasets.dataset_info(frame)
    return [str(c) for c in frame.columns if str(c) in set(info.categorical) | set(info.ordinal)]


class MultiDimRRPanel(Panel):
    """Multi-attribute randomized response: dependences, clusters, RR-Clusters, adjustment, experiments.

    Its configuration is ``attributes``, ``mechanism``, ``p``, ``t_v``, ``t_d``, ``dependence``, ``proper``,
    ``runs``, ``experiment`` and ``sweeps``; the data set and the epsilon are the state's.  Three figures:
    ``dependence``, ``error-curves`` and ``example1``.

    Parameters
    ----------
    state : AppState, optional
        The shared state; without one, the panel makes its own on UCI Adult.
    executor_factory : callable, optional
        Makes the executor of the experiments' runs.
    dataset : str, optional
        A data set's name, made the state's data set first (a notebook's choice).
    source : str, optional
        The former name of ``dataset`` (``"UCI Adult"``, ``"UCI Adult x 6"``; ``"Shared data set"`` is the
        state's data set as it is).
    """

    #: The paper its exported figures' captions cite (explorer.references).
    paper = "multidim-rr"

    def __init__(self, state: AppState | None = None, *, executor_factory: Callable[[], Executor] | None = None,
                 dataset: str | None = None, source: str | None = None):
        own_state = state is None
        super().__init__(state)
        if dataset is None and source not in (None, SHARED_SOURCE):
            dataset = source
        if dataset is None and own_state and self.state.dataset is None:
            dataset = FALLBACK_DATASET
        if dataset is not None:
            self.state.select_dataset(dataset)
        self._executor_factory = executor_factory or (lambda: ThreadPoolExecutor(max_workers=1))
        task = self.background(description="runs", name="explorer-mdrr")
        self._rows: list[pd.DataFrame] = []
        self.last_result: ExperimentResult | None = None
        self._frame_cache: pd.DataFrame | None = None
        self.data: CategoricalData | None = None
        self.dependence_values: np.ndarray | None = None
        self.clusters: list[list[int]] = []
        self.plan: ClusterPlan | None = None
        self.trace: Example1Trace | None = None
        self._run_inputs: tuple | None = None     # the inputs of the runs on screen
        self._run: dict[str, Any] | None = None   # the experiment on screen: its kind and arguments
        self._curves_run: dict[str, Any] | None = None   # the Figure 3 run the curves show
        self._heatmap_of: dict[str, Any] = {}             # the inputs of the heatmap on screen
        self._pending: dict[str, Any] | None = None       # a slow heatmap waiting for Compute: its inputs

        style = {"description_width": "110px"}
        self.data_name = widgets.HTML("")
        self.switch_button = widgets.Button(description=f"Use {FALLBACK_DATASET}", icon="exchange",
                                            tooltip="make it the data set of every tab (the Data tab's choice)",
                                            layout=widgets.Layout(width="auto", display="none"))
        self.attributes = self.control("attributes", widgets.SelectMultiple(
            options=[], description="Attributes", rows=8, style=style, layout=_layout("300px")))
        self.mechanism = self.control("mechanism", widgets.Dropdown(
            options=MECHANISM_OPTIONS, value="keep-or-uniform", description="Matrix", style=style,
            layout=_layout("330px")))
        self.p = self.control("p", widgets.FloatSlider(
            value=0.5, min=0.05, max=1.0, step=0.05, description="p", continuous_update=False, style=style,
            layout=_layout("330px")))
        self.epsilon = self.control("epsilon", epsilon_slider(
            self.state, self.status, description="ε per attribute", style=style, layout=_layout("330px")),
            state="epsilon")
        self.t_v = self.control("t_v", RangedIntText(status=self.status,
            value=100, min=1, max=10_000_000, description="T<sub>v</sub>", description_allow_html=True,
            tooltip="max combinations in a cluster", style=style, layout=_layout("230px")))
        self.t_d = self.control("t_d", widgets.FloatSlider(
            value=0.2, min=0.0, max=1.0, step=0.05, description="T<sub>d</sub>", description_allow_html=True,
            tooltip="min dependence to merge two clusters", continuous_update=False, style=style,
            layout=_layout("330px")))
        # names and values in words (aria-label, aria-valuetext; ipywidgets issue 2650: explorer.panels.access)
        self.t_v._explorer_name = "T_v, the most combinations in a cluster"
        self.t_d._explorer_name = "T_d, the least dependence to merge two clusters"
        valuetext(self.p, lambda p: f"p = {p:.2f}, the probability of keeping each true value")
        valuetext(self.t_d, lambda t: f"T_d = {t:.2f}")
        self.dependence = self.control("dependence", widgets.Dropdown(
            options=DEPENDENCE_OPTIONS, value="true", description="Dependence", style=style, layout=_layout("330px")))
        self.proper = self.control("proper", widgets.Dropdown(
            options=PROPER_OPTIONS, value="clip", description="Proper distr.", style=style, layout=_layout("330px")))
        self.runs = self.control("runs", RangedIntText(status=self.status,
            value=20, min=1, max=1000, description="Runs", style=style, layout=_layout("200px")))
        self.experiment = self.control("experiment", widgets.ToggleButtons(
            options=EXPERIMENT_OPTIONS, value="figure3", style={"button_width": "170px"}))
        self.experiment._explorer_name = "Experiment"    # its accessible name (explorer.panels.access)
        self.sweeps = self.control("sweeps", widgets.IntSlider(
            value=10, min=1, max=100, description="Sweeps", continuous_update=False, style=style,
            layout=_layout("330px")))
        valuetext(self.sweeps, lambda n: f"{n} sweep{'s' if n != 1 else ''} of RR-Adjustment")
        self.run_button = widgets.Button(description="Compute", button_style="primary", icon="play",
                                         layout=_layout("100px"))
        self.cancel_button = task.cancel_button        # the task's bar and Cancel, counting runs
        self.cancel_button.disabled = True
        self.progress = task.progress
        self.progress.description = ""
        self.progress_label = widgets.HTML("")
        self.export = widgets.HTML("")
        self.info = widgets.HTML("")
        self.grid = widgets.HTML("")
        self.example_info = widgets.HTML("")
        for w, name in ((self.data_name, "data-name"), (self.switch_button, "switch"), (self.attributes, "attributes"), (self.mechanism, "mechanism"),
                        (self.p, "p"), (self.epsilon, "epsilon"), (self.t_v, "tv"), (self.t_d, "td"),
                        (self.dependence, "dependence"), (self.proper, "proper"), (self.runs, "runs"),
                        (self.experiment, "experiment"), (self.run_button, "run"), (self.cancel_button, "cancel"),
                        (self.progress, "progress"), (self.progress_label, "progress-label"),
                        (self.export, "export"), (self.info, "info"), (self.grid, "grid"),
                        (self.sweeps, "sweeps"), (self.example_info, "example-info")):
            w.add_class(f"explorer-mdrr-{name}")

        # figures, made once
        self.dep_figure, self.dep_canvas = make_figure(5.2, 4.4)
        self.dep_ax = self.dep_figure.add_subplot()
        self.dep_artists = None
        self.curve_figure, self.curve_canvas = make_figure(5.6, 4.0)
        self.curve_ax = self.curve_figure.add_subplot()
        self.curve_artists = plot_error_curves(self.curve_ax, [], {}, methods=CURVE_METHODS)
        self.curve_ax.set_title("relative error of count queries (Figure 3)", fontsize=9)
        self._table_lines: list = []            # the Table 1 grid's lines, when the experiment is "table"
        self._table_shown: pd.DataFrame | None = None
        self.example_figure, self.example_canvas = make_figure(5.6, 3.0)
        self.example_ax = self.example_figure.add_subplot()
        self.example_artists = None
        for key, figure, canvas, describe, table in (
                ("dependence", self.dep_figure, self.dep_canvas, self._describe_dependence, self._table_dependence),
                ("error-curves", self.curve_figure, self.curve_canvas, self._describe_curves, self._table_curves),
                ("example1", self.example_figure, self.example_canvas, self._describe_example, self._table_example)):
            self.add_figure(key, FIGURES[key], figure, canvas=canvas, describe=describe, table=table)

        # wiring
        self.switch_button.on_click(self._on_switch)
        for w in (self.attributes, self.mechanism, self.p, self.epsilon, self.t_v, self.t_d, self.dependence,
                  self.proper):
            w.observe(self._on_controls, names="value")
        self.sweeps.observe(self._on_sweeps, names="value")
        self.state.observe(self._on_shared_dataset, names="dataset")
        self.run_button.on_click(self._on_run)
        self.cancel_button.on_click(self._on_cancel)         # besides the task's own handler: say it in words

        intro = widgets.HTML(
            "<style>.explorer-mdrr-panel sub{line-height:0}</style>"
            "<b>Multi-dimensional randomized response</b> (Domingo-Ferrer and Soria-Comas (2022)). Randomizing each attribute separately "
            "(RR-Independent) loses the relations between attributes; randomizing all of them jointly (RR-Joint) "
            "needs n ≫ the number of combinations. <b>RR-Clusters</b> randomizes jointly within clusters of "
            "dependent attributes (Algorithm 1: at most T<sub>v</sub> combinations, dependence ≥ T<sub>d</sub>) and "
            "<b>RR-Adjustment</b> (Algorithm 2) reweights the randomized records to the estimated marginals.")
        controls = widgets.HBox([
            widgets.VBox([self.data_name, self.switch_button, self.attributes]),
            widgets.VBox([self.mechanism, self.p, self.epsilon.row, self.t_v, self.t_d, self.dependence, self.proper]),
        ], layout=widgets.Layout(flex_flow="row wrap"))
        run_row = widgets.HBox([self.experiment, self.runs, self.run_button, task.widget],
                               layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        progress_row = widgets.HBox([self.progress_label, self.export], layout=widgets.Layout(align_items="center"))
        plots = widgets.HBox([self.dep_canvas, self.curve_canvas], layout=widgets.Layout(flex_flow="row wrap"))
        example = widgets.VBox([
            widgets.HTML(section_heading("Example 1 of Domingo-Ferrer and Soria-Comas (2022): RR-Adjustment's "
                                         "convergence.", inline=True)
                         + " Ten randomized records "
                         "(a1,a1)×4, (a2,a1)×2, (a2,a2)×4 are raked to the marginals (1/2, 1/2), (1/2, 1/2): "
                         "the weights tend to 1/8, 0, 1/8, slowly."),
            self.sweeps, self.example_canvas, self.example_info])
        self.announce(self.info, self.example_info)   # readouts: aria-live regions (explorer.panels.access)
        self.widget = widgets.VBox([intro, controls, self.status.widget, run_row, progress_row, self.stale.widget,
                                    plots, self.grid, self.info, example])
        self.widget.add_class("explorer-mdrr-panel")

        self._load_data()
        self.refresh()

    # ------------------------------------------------------------------ data
    def _source_name(self) -> str:
        return self.state.dataset_name or "the Data tab's data set"

    def _printed(self, name: str | None) -> tuple[str, Any] | tuple[None, None]:
        """The paper's printed grid for the data set ``name`` (Table 1 for UCI Adult, Table 2 for Adult x 6)."""
        return PRINTED_TABLES.get(name or "", (None, None))

    def _no_data(self, message: str) -> None:
        """No valid input: say why, offer the switch, take the views off the screen (they would show other data)."""
        self.data, self.dependence_values, self.clusters, self.plan = None, None, [], None
        self._frame_cache, self._pending = None, None
        with self.busy():
            self.attributes.options = []
        self.info.value = ""
        self.dep_canvas.layout.visibility = "hidden"
        self.switch_button.layout.display = None
        raise InvalidParameterError(message)

    def _show_data_name(self) -> None:
        name = self.state.dataset_name if self.state.dataset is not None else "none yet"
        self.data_name.value = (f"<small>Data set (chosen in the Data tab): <b>{escape(name or 'data')}</b>"
                                "</small>")

    @guarded
    def _load_data(self) -> None:
        """The state's categorical attributes become the choices (Section 6.1's eight where it has them)."""
        self._show_data_name()
        frame = self.state.dataset
        if frame is None:
            self._no_data(f"there is no data set yet: choose one in the Data tab, or use {FALLBACK_DATASET} "
                          "(button above)")
        columns = _categorical_columns(frame)
        if len(columns) < 2:
            found = f" ({', '.join(columns)})" if columns else ""
            self._no_data(f"the data set {self._source_name()!r} has {len(columns) or 'no'} categorical "
                          f"attribute{'' if len(columns) == 1 else 's'}{found}: multi-attribute RR needs at least 2 "
                          "categorical (or discretized) attributes; mark more columns categorical in the Data tab, "
                          f"choose another data set there, or use {FALLBACK_DATASET} (button above)")
        self.switch_button.layout.display = "none"
        default = [c for c in ADULT_MDRR_ATTRIBUTES if c in columns] or columns[: min(8, len(columns))]
        self._frame_cache = frame
        with self.busy():
            self.attributes.options = columns
            self.attributes.value = tuple(default)

    @guarded
    def _on_switch(self, button: Any = None) -> None:
        self.state.select_dataset(FALLBACK_DATASET)      # the shared data set: every tab follows

    @on_change
    def _on_shared_dataset(self, change: Any = None) -> None:
        self._load_data()
        self._recompute()

    def check_config(self, config: Any) -> dict[str, Any]:
        """As :meth:`Panel.check_config`, and a ``source`` of an earlier release is read as the data set.

        ``source`` (``"UCI Adult"``, ``"UCI Adult x 6"``, any data set's name) is returned under the key
        ``"dataset"`` (:meth:`apply_config` makes it the state's data set first), and ``attributes`` are checked
        against that data set's columns; ``"Shared data set"`` (the state's) is dropped.
        """
        if not isinstance(config, dict) or "source" not in config:
            return super().check_config(config)
        config = dict(config)
        source = config.pop("source")
        if source == SHARED_SOURCE or (isinstance(source, str)
                                       and datasets.canonical_name(source) == self.state.dataset_name):
            return super().check_config(config)
        if not isinstance(source, str):
            raise ConfigurationError(f"source must be a data set's name, got {shorten(source)}")
        name = datasets.canonical_name(source)
        names = self.state.dataset_names()
        if name not in names:
            raise ConfigurationError(f"source must be one of {shorten([SHARED_SOURCE, *names], 200)}, "
                                     f"got {shorten(source)}")
        if "attributes" not in config:
            return {"dataset": name, **super().check_config(config)}
        checked = super().check_config({k: v for k, v in config.items() if k != "attributes"})
        frame = self.state.uploads[name] if name in self.state.uploads else datasets.load_builtin(name)
        columns = _categorical_columns(frame)
        value = config["attributes"]
        if not isinstance(value, (list, tuple)):
            raise ConfigurationError(f"attributes must be a list of choices, got {shorten(value)}")
        for item in value:
            if item not in columns and not columns:
                raise ConfigurationError(f"attributes: the data set {name!r} has no categorical attribute, "
                                         f"got {shorten(item)}")
            if item not in columns:
                raise ConfigurationError(f"attributes must list choices among {shorten(columns, 200)}, "
                                         f"got {shorten(item)}")
        checked["attributes"] = tuple(value)
        return {"dataset": name, **{key: checked[key] for key in self.controls if key in checked}}

    def apply_config(self, config: dict[str, Any]) -> None:
        """As :meth:`Panel.apply_config`; a ``source`` of an earlier release selects that data set in the state."""
        checked = self.check_config(config)
        name = checked.pop("dataset", None)
        with self.busy():
            if name is not None:
                self.state.select_dataset(name)      # every tab follows; this one reloads its choices here
                self._load_data()
            for key, value in checked.items():
                self._controls[key].widget.value = value
        self.refresh()

    # ------------------------------------------------------------------ controls -> clusters
    def refresh(self) -> None:
        """Recompute the clusters and Example 1 from the controls (after a configuration is applied)."""
        self._follow_controls()
        self._show_example()

    @on_change
    def _on_controls(self, change: Any = None) -> None:
        self._follow_controls()

    def _follow_controls(self) -> None:
        by_epsilon = self.mechanism.value == "epsilon"      # p or the shared epsilon sets the matrices
        self.p.disabled, self.epsilon.disabled = by_epsilon, not by_epsilon
        self._recompute()

    def _params(self) -> dict:
        mechanism = self.mechanism.value
        if mechanism not in dict(MECHANISM_OPTIONS).values():
            raise InvalidParameterError(f"mechanism must be one of {[v for _, v in MECHANISM_OPTIONS]}, "
                                        f"got {shorten(mechanism)}")
        return dict(p=float(self.p.value), mechanism=mechanism,
                    epsilon=float(self.epsilon.value) if mechanism == "epsilon" else None)

    @guarded
    def _recompute(self) -> None:
        frame = self._frame_cache
        if frame is None:
            return
        chosen = list(self.attributes.value)
        if len(chosen) < 2:
            raise InvalidParameterError(f"choose at least 2 attributes, got {len(chosen)}")
        data = encode_categorical(frame, chosen)
        params = self._params()
        inputs = self._heatmap_inputs()
        units = dependence_work(data.n_records, data.cardinalities, inputs["dependence"], inputs["proper"])
        if self.needs_compute(units):          # the one rule: slow work waits for Compute
            cluster_attributes(np.eye(data.n_attributes), data.cardinalities, inputs["t_v"], inputs["t_d"])  # checks
            self._wait_for_compute(dict(data=data, inputs=inputs, params=params, units=units))
            return
        self._pending = None
        self._show_heatmap(data, *self._heatmap(data, inputs, params), inputs)

    def _heatmap(self, data: CategoricalData, inputs: dict[str, Any], params: dict[str, Any]) -> tuple:
        """The dependences, Algorithm 1's clusters and their plan for ``inputs`` (the step that may be slow)."""
        dep = dependence_matrix(data, inputs["dependence"], rng=0, proper=inputs["proper"], **params)
        clusters = cluster_attributes(dep, data.cardinalities, inputs["t_v"], inputs["t_d"])
        plan = cluster_plan(data.cardinalities, clusters, data.n_records, **params)
        return dep, clusters, plan

    def _wait_for_compute(self, pending: dict[str, Any]) -> None:
        """A heatmap whose work is above the one rule's threshold: mark the one on screen, say what Compute does."""
        self._pending = pending
        data, inputs = pending["data"], pending["inputs"]
        views = [self.dep_canvas, self.info] + ([self.curve_canvas, self.grid] if self._run_inputs is not None else [])
        self.stale.mark(views, "the heatmap and clusters shown were made with other controls"
                        if self.dep_artists is not None else "no heatmap yet for these controls")
        self.status.info(f"The dependence ({inputs['dependence']}, proper distribution {inputs['proper']}) of "
                         f"{data.n_records:,} records × {data.n_attributes} attributes is about "
                         f"{pending['units'] * REFERENCE_SECONDS_PER_UNIT:,.0f} s of work on the reference machine: "
                         "press Compute to compute the heatmap and the clusters in the background (then the "
                         "experiment runs); the last heatmap stays until then.")

    def _show_heatmap(self, data: CategoricalData, dep: np.ndarray, clusters: list[list[int]], plan: ClusterPlan,
                      inputs: dict[str, Any]) -> None:
        """Show a heatmap and its clusters (all checks passed)."""
        params = {key: inputs[key] for key in ("p", "mechanism", "epsilon")}
        self.data, self.dependence_values, self.clusters, self.plan = data, dep, clusters, plan
        self._heatmap_of = inputs
        self.dep_canvas.layout.visibility = None
        if self.dep_artists is None:
            self.dep_artists = plot_dependence(self.dep_ax, dep, data.names, clusters, data.cardinalities)
        else:
            self.dep_artists.update(dep, data.names, clusters, data.cardinalities)
        eps = f"ε = {params['epsilon']:g} per attribute" if params["mechanism"] == "epsilon" else \
            f"p = {params['p']:g}"
        self.dep_ax.set_title(f"{inputs['name'].replace('$', chr(92) + '$')}: dependence ({inputs['dependence']}), "
                              f"{eps}, $T_v$ = {inputs['t_v']}, $T_d$ = {inputs['t_d']:g}", fontsize=9)
        self.dep_figure.canvas.draw_idle()
        self.info.value = self._info_html(data, plan)
        if not self.running:
            self.stale.clear()
        self._check_runs_current()
        self.status.info(subscripts_html(f"{len(data.names)} attributes, {data.n_records:,} records: "
                                         f"{len(clusters)} cluster(s) by Algorithm 1 (T_v = {inputs['t_v']}, "
                                         f"T_d = {inputs['t_d']:g})."), raw_html=True)

    def _heatmap_inputs(self) -> dict[str, Any]:
        """The inputs of the heatmap and the clusters, as the controls hold them now."""
        return dict(name=self._source_name(), dataset=self.state.dataset_name,
                    attributes=list(self.attributes.value), dependence=self.dependence.value,
                    proper=self.proper.value, t_v=int(self.t_v.value), t_d=float(self.t_d.value), **self._params())

    def _inputs(self) -> tuple:
        """What an experiment's result depends on (the data and every control)."""
        return (id(self._frame_cache), tuple(self.attributes.value), self.mechanism.value,
                float(self.p.value), float(self.state.epsilon), int(self.t_v.value), float(self.t_d.value),
                self.dependence.value, self.proper.value, self.experiment.value)

    def _check_runs_current(self) -> None:
        """Mark the experiment's plot and grid out of date when their inputs changed (one rule for all tabs)."""
        if self._run_inputs is None or self.running:
            return
        if self._run_inputs != self._inputs():
            self.stale.mark([self.curve_canvas, self.grid], "the runs shown were made with other controls")
        else:
            self.stale.clear()

    @staticmethod
    def _info_html(data: CategoricalData, plan: ClusterPlan) -> str:
        rows = [f"<li>{escape(', '.join(data.names[a] for a in c))}: {combos:,} combinations, "
                f"ε = {eps:.3g}, best-case relative error sqrt(B(r−1)/n) = {bound:.3f}</li>"
                for c, combos, eps, bound in zip(plan.clusters, plan.cluster_combinations, plan.cluster_epsilons,
                                                 plan.cluster_error_bounds)]
        eps_text = ", ".join(f"{escape(nm)} {e:.3g}" for nm, e in zip(data.names, plan.attribute_epsilons))
        return (f"<div style='font-size:12px'>ε of the per-attribute matrices actually used: {eps_text} "
                f"(record: {plan.record_epsilon:.3g}).<br>RR-Joint on all {len(data.names)} attributes: "
                f"{plan.joint_combinations:,} combinations for n = {plan.n_records:,} records; best-case relative "
                f"error (Section 3.3) {plan.joint_error_bound:.2f}.<br>Clusters:<ul style='margin:2px 0'>"
                + "".join(rows) + "</ul></div>")

    # ------------------------------------------------------------------ Example 1
    @on_change
    def _on_sweeps(self, change: Any = None) -> None:
        self._show_example()

    @guarded
    def _show_example(self) -> None:
        trace = self.trace = example1_trace(int(self.sweeps.value))
        if self.example_artists is None:
            self.example_artists = plot_convergence(self.example_ax, trace.history, EXAMPLE1_LABELS,
                                                    limits=list(EXAMPLE1_LIMITS), ylabel="record weight")
        else:
            self.example_artists.update(trace.history, list(EXAMPLE1_LIMITS))
        self.example_figure.canvas.draw_idle()
        self.example_info.value = (
            f"<span style='font-size:12px'>After {trace.sweeps} sweep(s): weight of the (a2,a1) records "
            f"{trace.weights[EXAMPLE1_KINDS['(a2,a1)']]:.5f} (= 1/(8(k+1)) = {trace.closed_form:.5f}); joint "
            f"distribution ({', '.join(f'{v:.4f}' for v in trace.joint)}) → (1/2, 0, 0, 1/2) of Expression (14); "
            f"largest weight change in the last sweep {format_value(trace.last_change, digits=3)}.</span>")

    # ------------------------------------------------------------------ experiments
    def join(self, timeout: float | None = None) -> None:
        """Wait for a running experiment (tests, notebooks): :meth:`Panel.wait`."""
        self.wait(timeout)

    def _experiment(self) -> dict[str, Any]:
        """The experiment the controls ask for: its kind, the runner's arguments and the runs it counts."""
        data = self.data if self._pending is None else self._pending["data"]
        if data is None or self._frame_cache is None:
            raise InvalidParameterError("no valid configuration to run: fix the message above first")
        runs = int(self.runs.value)
        if runs < 1 or runs > 1000:
            raise InvalidParameterError(f"runs must be between 1 and 1000, got {runs}")
        params = self._params()
        kind = self.experiment.value
        if kind not in ("figure3", "table"):
            raise InvalidParameterError(f"experiment must be 'figure3' or 'table', got {shorten(kind)}")
        args = dict(ps=[params["p"]], runs=runs, seed=int(np.random.SeedSequence().entropy % (2 ** 32)),
                    dependence=self.dependence.value, mechanism=params["mechanism"], proper=self.proper.value,
                    epsilon=params["epsilon"], queries=QUERIES)
        t_v, t_d = int(self.t_v.value), float(self.t_d.value)
        if kind == "figure3":
            args.update(thresholds={params["p"]: (t_v, t_d)}, sigmas=list(FIGURE_SIGMAS), methods=list(CURVE_METHODS))
            total = runs
        else:
            args.update(t_ds=list(TABLE_TD), t_vs=feasible_t_vs(data.cardinalities))
            total = runs * len(TABLE_TD) * len(args["t_vs"])
        return dict(kind=kind, args=args, total=total, p=params["p"], t_v=t_v, t_d=t_d, data=data,
                    dataset=self.state.dataset_name)

    @guarded
    def _on_run(self, button: Any = None) -> None:
        if self.running:
            raise InvalidParameterError("an experiment is already running: cancel it first")
        run = self._experiment()
        kind, total = run["kind"], run["total"]
        self._rows = []
        self.progress.max, self.progress.value = total, 0
        self.progress_label.value = f"0 / {total} runs"
        self.export.value = ""
        if kind == "figure3":
            self._curves_run = run
            self._clear_table_figure()
            self.curve_artists.update([], {})
            self.curve_ax.set_title(f"relative error, p = {run['p']:g}, $T_v$ = {run['t_v']}, "
                                    f"$T_d$ = {run['t_d']:g} (running)", fontsize=9)
            self.curve_figure.canvas.draw_idle()
        else:
            self.grid.value = ""
        self.cancel_button.disabled = False
        previous = self._run, self._run_inputs, self._curves_run
        self._run, self._run_inputs = run, self._inputs()
        pending = self._pending
        if pending is None:
            self.stale.clear()
        data = run["data"]

        def no_runs(words: str | None) -> None:
            """The runs are not made: the experiment on screen stays the one made before (if any)."""
            self._run, self._run_inputs, self._curves_run = previous
            self.cancel_button.disabled = True
            self.progress_label.value = ""
            if kind == "figure3":
                self.curve_ax.set_title("relative error of count queries (Figure 3)", fontsize=9)
                self.curve_figure.canvas.draw_idle()
            if words:
                self.status.info(words)

        def job(report: Callable[[float], bool]) -> ExperimentResult | None:
            if pending is not None:                 # the slow heatmap first (the one rule), then the runs
                self.progress_label.value = "computing the dependences…"
                result = self._heatmap(pending["data"], pending["inputs"], pending["params"])
                with self.task.lock:
                    if self._pending is not pending:     # newer controls: their words stand, nothing to show
                        no_runs(None)
                        return None
                    self._pending = None
                    self._show_heatmap(pending["data"], *result, pending["inputs"])
                    self.stale.clear()              # the heatmap is current, and the runs are for these inputs
                    if self.task.cancelled:
                        no_runs("Cancelled: the heatmap and clusters are shown; no runs were made.")
                        return None
                self.progress_label.value = f"0 / {total} runs"
            return self._work(run, data)

        what = f"Computing the dependences, then running {total} runs" if pending is not None else \
            f"Running {total} runs"
        self.task.start(job, lambda result: None, message=f"{what} in the background…",
                        disable=(self.run_button,))

    def _on_cancel(self, button: Any = None) -> None:
        if self.running:
            self.status.info("Cancelling: the runs already done are kept…")

    def _work(self, run: dict[str, Any], data: CategoricalData) -> ExperimentResult:
        """The task's compute: run the experiment, showing chunks as they complete (under ``task.lock``).

        A cancelled run returns normally with the runs done (the runner polls the task's
        Cancel); errors are left to the task, which says them on the status line.
        """
        kind = run["kind"]
        executor = None
        try:
            executor = self._executor_factory()

            def on_result(frame: pd.DataFrame) -> None:
                with self.task.lock:
                    self._rows.append(frame)
                    self._show_partial(kind)

            def progress(done: int, total_: int) -> None:
                self.progress.value = min(done, self.progress.max)
                self.progress_label.value = f"{done} / {total_} runs"

            runner = run_figure3 if kind == "figure3" else run_table
            result = runner(data=data, executor=executor, on_result=on_result, progress=progress,
                            cancel=lambda: self.task.cancelled, **run["args"])
            with self.task.lock:
                self.last_result = result
                self._show_partial(kind, final=True)
                self._make_export(result)
                word = "Cancelled" if result.cancelled else "Done"
                notes = sorted(set(result.rows["note"].dropna()) - {""}) if "note" in result.rows else []
                extra = f" Some runs gave no estimate: {notes[0]}" if notes else ""
                self.status.info(f"{word}: {result.runs_done} of {result.runs_requested} runs in "
                                 f"{result.elapsed:.1f} s (medians of {QUERIES} count queries per run and σ).{extra}")
            return result
        finally:
            if executor is not None:
                executor.shutdown(wait=False, cancel_futures=True)
            self.cancel_button.disabled = True

    def _show_partial(self, kind: str, final: bool = False) -> None:
        if not self._rows:
            return
        rows = pd.concat(self._rows, ignore_index=True)
        if kind == "figure3":
            sigmas, curves = error_curves(rows, CURVE_METHODS)
            self.curve_artists.update(sigmas, curves)
            if final:
                runs = int(rows["run"].nunique())
                self._curves_run = dict(self._curves_run or {}, runs_done=runs)
                title = self.curve_ax.get_title().replace(" (running)", "")
                self.curve_ax.set_title(f"{title} — {runs} runs", fontsize=9)
            self.curve_figure.canvas.draw_idle()
        else:
            summary = summarize(rows, ("p", "T_d", "T_v", "method"))
            self.grid.value = self._grid_html(summary)
            self._draw_table_figure(summary, final)

    def _clear_table_figure(self) -> None:
        """Back to Figure 3's axes: the Table 1 grid's lines removed, the methods' legend and σ axis restored."""
        if not self._table_lines and self._table_shown is None:
            return
        for line in self._table_lines:
            line.remove()
        self._table_lines, self._table_shown = [], None
        self.curve_ax.xaxis.set_major_locator(AutoLocator())
        self.curve_ax.set(xlabel="coverage σ of S", ylabel="median relative error")
        self.curve_ax.legend(fontsize=9, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
        self.curve_ax.set_title("relative error of count queries (Figure 3)", fontsize=9)

    def _draw_table_figure(self, summary: pd.DataFrame, final: bool) -> None:
        """The Table 1-style grid in the figure: RR-Clusters' median relative error against T_v, a line per T_d.

        So that the figure never says "no runs yet" while the runs of a grid are done (the grid's
        table, with the paper's printed values, stays below it).
        """
        _, printed = self._printed((self._run or {}).get("dataset"))
        cells = table_cells(summary, printed)
        for line in self._table_lines:
            line.remove()
        self._table_lines = []
        self.curve_artists.update([], {})                  # Figure 3's lines are not this experiment's
        measured = cells[cells["runs"] > 0]
        for index, td in enumerate(TABLE_TD):                # one colour per T_d, the same on every update
            row = measured[measured["T_d"] == float(td)]
            (line,) = self.curve_ax.plot(row["T_v"].to_numpy(float), row["measured"].to_numpy(float), marker="o",
                                         color=f"C{index}", label=f"$T_d$ = {format_value(td)}")
            self._table_lines.append(line)
        self._table_shown = cells
        drawn = bool(len(measured))
        if self.curve_artists.hint is not None:
            self.curve_artists.hint.set_visible(not drawn)
        if drawn:
            self.curve_ax.set_xticks(sorted(set(measured["T_v"].astype(float))))
            self.curve_ax.relim()
            self.curve_ax.set_autoscale_on(True)
            self.curve_ax.autoscale_view()
            self.curve_ax.set_ylim(bottom=0.0)
        self.curve_ax.set(xlabel="cluster size limit $T_v$ (combinations)",
                          ylabel="median relative error at σ = 0.1")
        self.curve_ax.legend(handles=self._table_lines, fontsize=9, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                             frameon=False)
        p = float(summary["p"].iloc[0]) if len(summary) else math.nan
        runs = int(measured["runs"].max()) if drawn else 0
        self.curve_ax.set_title(f"Table 1-style grid, p = {p:g}: RR-Clusters, {runs} runs per cell"
                                + ("" if final else " (running)"), fontsize=9)
        self.curve_figure.canvas.draw_idle()

    def _grid_html(self, summary: pd.DataFrame) -> str:
        p = float(summary["p"].iloc[0])
        _, printed = self._printed((self._run or {}).get("dataset"))
        cells = table_cells(summary, printed).set_index(["T_d", "T_v"])
        head = "".join(f"<th>{subscripts_html(f'T_v = {format_value(int(tv))}')}</th>" for tv in TABLE_TV)
        body = []
        for td in TABLE_TD:
            row = []
            for tv in TABLE_TV:
                cell = cells.loc[(float(td), float(tv))]
                value = f"{cell['measured']:.3f}" if cell["runs"] else "…"
                ref = "" if math.isnan(cell["printed"]) else f" <small style='color:#666'>({cell['printed']:.3f})</small>"
                row.append(f"<td>{value}{ref}</td>")
            body.append(f"<tr><th>{subscripts_html(f'T_d = {format_value(td)}')}</th>{''.join(row)}</tr>")
        return (f"<div class='explorer-mdrr-table'><b>Table 1-style grid, p = {p:g}</b>: median relative error "
                f"of RR-Clusters at σ = 0.1 (printed value of the paper in brackets where it has one)"
                f"<table style='border-collapse:collapse;font-size:12px'><tr><td></td>{head}</tr>"
                f"{''.join(body)}</table></div>")

    def _make_export(self, result: ExperimentResult) -> None:
        if result.rows.empty:
            return
        self.export.value = "&nbsp;&middot;&nbsp;" + csv_download_link(
            csv_safe(result.rows), "multidim_rr_runs.csv", "Download the runs (CSV)", css_class="explorer-mdrr-csv")

    def results_csv(self) -> str:
        """The per-run rows of the last experiment as CSV text."""
        if self.last_result is None:
            return ""
        return csv_safe(self.last_result.rows)

    # ------------------------------------------------------------------ the figures in words and numbers
    def _table_dependence(self) -> pd.DataFrame:
        """The heatmap as drawn: dependences in cluster order, rows and columns named by attribute."""
        if self.data is None or self.dep_artists is None:
            return pd.DataFrame()
        names = [self.data.names[a] for a in self.dep_artists.order]
        return pd.DataFrame(np.asarray(self.dep_artists.image.get_array(), dtype=float),
                            index=pd.Index(names, name="attribute"), columns=names)

    def _describe_dependence(self) -> str:
        table = self._table_dependence()
        if table.empty:
            reason = self.status.message if self.status.is_error else "no data set with 2 categorical attributes"
            return f"No heatmap: {reason}"
        values = table.to_numpy().copy()
        np.fill_diagonal(values, -np.inf)
        i, j = np.unravel_index(np.argmax(values), values.shape)
        groups = "; ".join(f"{', '.join(self.data.names[a] for a in c)} ({combos:,} combinations)"
                           for c, combos in zip(self.plan.clusters, self.plan.cluster_combinations))
        shown = self._heatmap_of
        return (f"Heatmap of the dependence ({shown['dependence']}) between the {len(table)} attributes of "
                f"{shown['name']}, from 0 to 1, in cluster order. Algorithm 1 (T_v = {shown['t_v']}, "
                f"T_d = {shown['t_d']:g}) forms {len(self.plan.clusters)} cluster(s): {groups}. The strongest "
                f"dependence is {table.index[i]} and {table.columns[j]}, {values[i, j]:.3f}.")

    def _table_curves(self) -> pd.DataFrame:
        """The curves as drawn: the median relative error of each method at each σ (empty cells: no runs yet);
        for a Table 1 grid, RR-Clusters' median error at each (T_d, T_v) with the paper's printed value."""
        if self._table_shown is not None:
            return self._table_shown.set_index(["T_d", "T_v"])
        lines = self.curve_artists.lines
        sigmas = next((np.asarray(line.get_xdata(), float) for line in lines.values() if len(line.get_xdata())), None)
        if sigmas is None:
            return pd.DataFrame({method: np.nan for method in lines}, index=pd.Index(FIGURE_SIGMAS, name="σ"))
        return pd.DataFrame({method: np.asarray(line.get_ydata(), float) for method, line in lines.items()},
                            index=pd.Index(sigmas, name="σ"))

    def _describe_curves(self) -> str:
        if self._table_shown is not None:
            cells = self._table_shown[self._table_shown["runs"] > 0]
            if cells.empty:
                return "No runs yet: press Compute."
            parts = [f"T_d = {format_value(td)}: " + ", ".join(
                f"{value:.3f} at T_v = {format_value(int(tv))}" for tv, value in zip(group["T_v"], group["measured"]))
                for td, group in cells.groupby("T_d")]
            return (f"Line chart of the Table 1-style grid: RR-Clusters' median relative error at σ = 0.1 against "
                    f"the cluster size limit T_v, one line per T_d, {int(cells['runs'].max())} run(s) per cell. "
                    + "; ".join(parts) + ".")
        table = self._table_curves()
        if table.isna().all().all():
            return "No runs yet: press Compute."
        run = self._curves_run or {}
        runs = run.get("runs_done")
        heading = (f"Line chart of the median relative error of count queries against the coverage σ of S, "
                   f"p = {run.get('p', math.nan):g}, T_v = {run.get('t_v')}, T_d = {run.get('t_d', math.nan):g}"
                   + (f", {runs} run(s)" if runs is not None else " (running)") + ". ")
        parts = [f"{method}: " + ", ".join(f"{value:.3f} at σ = {sigma:g}" for sigma, value in column.items()
                                           if not math.isnan(value))
                 for method, column in table.items()]
        return heading + "; ".join(parts) + "."

    def _table_example(self) -> pd.DataFrame:
        """Example 1's lines as drawn: the weight of one record of each kind after each sweep."""
        lines = self.example_artists.lines
        return pd.DataFrame({label: np.asarray(line.get_ydata(), float) for label, line in zip(EXAMPLE1_LABELS, lines)},
                            index=pd.Index(np.asarray(lines[0].get_xdata(), int), name="sweep"))

    def _describe_example(self) -> str:
        table = self._table_example()
        last = table.iloc[-1]
        values = ", ".join(f"{label} {value:.5f}" for label, value in last.items())
        return (f"Line chart of the record weights of Example 1 over {len(table)} sweep(s) of RR-Adjustment "
                f"(Algorithm 2), with their limits 1/8, 0 and 1/8 dashed. After the last sweep: {values}; the "
                f"closed form 1/(8(k+1)) of the (a2,a1) weight is {self.trace.closed_form:.5f}.")

    def code(self) -> str:
        """The Python snippet (:mod:`explorer.core`, :mod:`explorer.plotting`) that reproduces the view now.

        The heatmap's inputs are those of the heatmap on screen (a refused control leaves it as it was).
        """
        shown = self._heatmap_of or self._heatmap_inputs()
        kw = f"p={shown['p']!r}, mechanism={shown['mechanism']!r}, epsilon={shown['epsilon']!r}"
        lines = ["from concurrent.futures import ThreadPoolExecutor", "", "from matplotlib.figure import Figure", "",
                 "from explorer.core import mdrr", "from explorer.core.datasets import load_builtin, load_csv",
                 "from explorer.plotting.multidim_rr import plot_convergence, plot_dependence, plot_error_curves", ""]
        lines.append(dataset_load_code(shown["dataset"] or "")[0])
        lines += [f"data = mdrr.encode_categorical(frame, {json.dumps(shown['attributes'])})",
                  f"dependence = mdrr.dependence_matrix(data, {shown['dependence']!r}, rng=0, "
                  f"proper={shown['proper']!r}, {kw})",
                  f"clusters = mdrr.cluster_attributes(dependence, data.cardinalities, {shown['t_v']}, "
                  f"{shown['t_d']!r})",
                  f"plan = mdrr.cluster_plan(data.cardinalities, clusters, data.n_records, {kw})",
                  "figure = Figure(figsize=(5.2, 4.4), layout=\"constrained\")",
                  "plot_dependence(figure.add_subplot(), dependence, data.names, clusters, data.cardinalities)", ""]
        run = self._run
        if run is not None and self.last_result is not None:
            args = ", ".join(f"{key}={value!r}" for key, value in run["args"].items())
            runner = "run_figure3" if run["kind"] == "figure3" else "run_table"
            lines += ["# the experiment on screen, with its seed (a cancelled one shows only its first runs)",
                      "with ThreadPoolExecutor(1) as pool:",
                      f"    result = mdrr.{runner}(data, {args}, executor=pool)"]
            if run["kind"] == "figure3":
                lines += [f"sigmas, curves = mdrr.error_curves(result.rows, {list(CURVE_METHODS)!r})",
                          "figure = Figure(figsize=(5.6, 4.0), layout=\"constrained\")",
                          f"plot_error_curves(figure.add_subplot(), sigmas, curves, methods={list(CURVE_METHODS)!r})"]
            else:
                printed, _ = self._printed(run.get("dataset"))
                paper = f"mdrr.{printed}" if printed else "None"
                lines += ["cells = mdrr.table_cells(mdrr.summarize(result.rows, (\"p\", \"T_d\", \"T_v\", \"method\")), "
                          f"{paper})", "print(cells)"]
            lines.append("")
        lines += [f"trace = mdrr.example1_trace({int(self.sweeps.value)})",
                  "figure = Figure(figsize=(5.6, 3.0), layout=\"constrained\")",
                  f"plot_convergence(figure.add_subplot(), trace.history, {EXAMPLE1_LABELS!r}, "
                  "limits=list(mdrr.EXAMPLE1_LIMITS), ylabel=\"record weight\")"]
        return "\n".join(lines) + "\n"
