"""The "Multi-attribute RR" tab: RR-Independent, RR-Clusters and RR-Adjustment on real data (Domingo-Ferrer and Soria-Comas, 2022).

Wiring only: every number comes from :mod:`explorer.core.mdrr` (dependences and Algorithm 1's clusters,
:func:`~explorer.core.mdrr.cluster_plan`, :func:`~explorer.core.mdrr.example1_trace`) and
:mod:`explorer.core.mdrr.experiments`; the pictures from :mod:`explorer.plotting.multidim_rr`.  The
dependence heatmap and the clusters follow the controls at once.  A Monte Carlo experiment (Figure 3's
curves, or a Table 1 row for the chosen p) is a sample drawn with a fresh seed: it runs only when Compute is
pressed, in the panel's background task (thread, progress bar, Cancel), and fills the plot as chunks complete;
a cancelled experiment keeps its runs.  When the inputs of the runs on screen change, they are marked "out
of date: press Compute".

The data are the app's data set (:class:`~explorer.state.AppState`) by default, or, as named choices, the
paper's own data (UCI Adult, and Adult x 6 for its Table 2).  Epsilon is the shared one.
"""

from __future__ import annotations

import json
import math
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any, Callable

import ipywidgets as widgets
import numpy as np
import pandas as pd

from explorer.core import datasets
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
from explorer.errors import ConfigurationError, ExplorerError, InvalidParameterError
from explorer.panels._format import format_value, subscripts_html
from explorer.panels.base import Panel, on_change
from explorer.panels.controls import epsilon_slider
from explorer.panels.downloads import csv_download_link
from explorer.panels.figures import make_figure
from explorer.panels.status import escape, guarded
from explorer.plotting.multidim_rr import plot_convergence, plot_dependence, plot_error_curves
from explorer.state import UPLOAD_PREFIX, AppState, shorten

__all__ = ["MultiDimRRPanel"]

SOURCES = ("UCI Adult", "UCI Adult x 6", "Shared data set")
SOURCE_OPTIONS = [("the Data tab's data set", "Shared data set"),
                  ("the paper's data: UCI Adult", "UCI Adult"),
                  ("the paper's data: UCI Adult x 6 (Table 2)", "UCI Adult x 6")]
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

    Its configuration is ``source``, ``attributes``, ``mechanism``, ``p``, ``t_v``, ``t_d``, ``dependence``,
    ``proper``, ``runs``, ``experiment`` and ``sweeps``; the epsilon is the state's.  Three figures:
    ``dependence``, ``error-curves`` and ``example1``.
    """

    def __init__(self, state: AppState | None = None, *, executor_factory: Callable[[], Executor] | None = None):
        super().__init__(state)
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

        style = {"description_width": "110px"}
        self.source = self.control("source", widgets.Dropdown(
            options=SOURCE_OPTIONS, value="Shared data set" if self.state.dataset is not None else "UCI Adult",
            description="Data set", style=style, layout=_layout("300px")))
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
        self.t_v = self.control("t_v", widgets.BoundedIntText(
            value=100, min=1, max=10_000_000, description="T<sub>v</sub>", description_allow_html=True,
            tooltip="max combinations in a cluster", style=style, layout=_layout("230px")))
        self.t_d = self.control("t_d", widgets.FloatSlider(
            value=0.2, min=0.0, max=1.0, step=0.05, description="T<sub>d</sub>", description_allow_html=True,
            tooltip="min dependence to merge two clusters", continuous_update=False, style=style,
            layout=_layout("330px")))
        self.dependence = self.control("dependence", widgets.Dropdown(
            options=DEPENDENCE_OPTIONS, value="true", description="Dependence", style=style, layout=_layout("330px")))
        self.proper = self.control("proper", widgets.Dropdown(
            options=PROPER_OPTIONS, value="clip", description="Proper distr.", style=style, layout=_layout("330px")))
        self.runs = self.control("runs", widgets.BoundedIntText(
            value=20, min=1, max=1000, description="Runs", style=style, layout=_layout("200px")))
        self.experiment = self.control("experiment", widgets.ToggleButtons(
            options=EXPERIMENT_OPTIONS, value="figure3", style={"button_width": "170px"}))
        self.sweeps = self.control("sweeps", widgets.IntSlider(
            value=10, min=1, max=100, description="Sweeps", continuous_update=False, style=style,
            layout=_layout("330px")))
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
        for w, name in ((self.source, "source"), (self.attributes, "attributes"), (self.mechanism, "mechanism"),
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
        self.example_figure, self.example_canvas = make_figure(5.6, 3.0)
        self.example_ax = self.example_figure.add_subplot()
        self.example_artists = None
        for key, figure, canvas, describe, table in (
                ("dependence", self.dep_figure, self.dep_canvas, self._describe_dependence, self._table_dependence),
                ("error-curves", self.curve_figure, self.curve_canvas, self._describe_curves, self._table_curves),
                ("example1", self.example_figure, self.example_canvas, self._describe_example, self._table_example)):
            self.add_figure(key, FIGURES[key], figure, canvas=canvas, describe=describe, table=table)

        # wiring: the source sets the attributes' choices even while the panel sets its controls (a configuration)
        self.source.observe(self._on_source, names="value")
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
            widgets.VBox([self.source, self.attributes]),
            widgets.VBox([self.mechanism, self.p, self.epsilon, self.t_v, self.t_d, self.dependence, self.proper]),
        ], layout=widgets.Layout(flex_flow="row wrap"))
        run_row = widgets.HBox([self.experiment, self.runs, self.run_button, task.widget],
                               layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        progress_row = widgets.HBox([self.progress_label, self.export], layout=widgets.Layout(align_items="center"))
        plots = widgets.HBox([self.dep_canvas, self.curve_canvas], layout=widgets.Layout(flex_flow="row wrap"))
        example = widgets.VBox([
            widgets.HTML("<b>Example 1 of Domingo-Ferrer and Soria-Comas (2022): RR-Adjustment's convergence.</b> Ten randomized records "
                         "(a1,a1)×4, (a2,a1)×2, (a2,a2)×4 are raked to the marginals (1/2, 1/2), (1/2, 1/2): "
                         "the weights tend to 1/8, 0, 1/8, slowly."),
            self.sweeps, self.example_canvas, self.example_info])
        self.widget = widgets.VBox([intro, controls, self.status.widget, run_row, progress_row, self.stale.widget,
                                    plots, self.grid, self.info, example])
        self.widget.add_class("explorer-mdrr-panel")

        self._load_source()
        self.refresh()

    # ------------------------------------------------------------------ data
    def _frame(self, name: str | None = None) -> pd.DataFrame:
        name = self.source.value if name is None else name
        if name not in SOURCES:  # a forged value from the client
            raise InvalidParameterError(f"data set must be one of {SOURCES}, got {shorten(name)}")
        if name == "Shared data set":
            if self.state.dataset is None:
                raise InvalidParameterError("no shared data set: choose one in the Data tab")
            return self.state.dataset
        return datasets.load_builtin(name)

    def _source_name(self) -> str:
        if self.source.value == "Shared data set":
            return self.state.dataset_name or "the Data tab's data set"
        return self.source.value

    def _no_data(self, message: str) -> None:
        """No valid input: say why, and take the views off the screen (they would show other data)."""
        self.data, self.dependence_values, self.clusters, self.plan = None, None, [], None
        self._frame_cache = None
        with self.busy():
            self.attributes.options = []
        self.info.value = ""
        self.dep_canvas.layout.visibility = "hidden"
        raise InvalidParameterError(message)

    @guarded
    def _load_source(self) -> None:
        """The source's categorical attributes become the choices (Section 6.1's eight where it has them)."""
        frame = self._frame()
        columns = _categorical_columns(frame)
        if len(columns) < 2:
            found = f" ({', '.join(columns)})" if columns else ""
            self._no_data(f"the data set {self._source_name()!r} has {len(columns) or 'no'} categorical "
                          f"attribute{'' if len(columns) == 1 else 's'}{found}: multi-attribute RR needs at least 2 "
                          "categorical (or discretized) attributes; mark more columns categorical in the Data tab "
                          "or choose another data set")
        default = [c for c in ADULT_MDRR_ATTRIBUTES if c in columns] or columns[: min(8, len(columns))]
        self._frame_cache = frame
        with self.busy():
            self.attributes.options = columns
            self.attributes.value = tuple(default)

    @guarded
    def _on_source(self, change: Any = None) -> None:
        self._load_source()
        if not self.is_busy:
            self._recompute()

    @on_change
    def _on_shared_dataset(self, change: Any = None) -> None:
        if self.source.value == "Shared data set":
            self._load_source()
            self._recompute()

    def check_config(self, config: Any) -> dict[str, Any]:
        """As :meth:`Panel.check_config`; ``attributes`` are checked against the columns of the new ``source``."""
        if not isinstance(config, dict) or "attributes" not in config \
                or config.get("source", self.source.value) == self.source.value:
            return super().check_config(config)
        checked = super().check_config({k: v for k, v in config.items() if k != "attributes"})
        try:
            columns = _categorical_columns(self._frame(checked["source"]))
        except ExplorerError as error:
            raise ConfigurationError(f"attributes cannot be chosen in {checked['source']!r}: {error}") from None
        value = config["attributes"]
        if not isinstance(value, (list, tuple)):
            raise ConfigurationError(f"attributes must be a list of choices, got {shorten(value)}")
        for item in value:
            if item not in columns:
                raise ConfigurationError(f"attributes must list choices among {shorten(columns, 200)}, "
                                         f"got {shorten(item)}")
        checked["attributes"] = tuple(value)
        return {key: checked[key] for key in self.controls if key in checked}     # source before attributes

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
        dep = dependence_matrix(data, self.dependence.value, rng=0, proper=self.proper.value, **params)
        clusters = cluster_attributes(dep, data.cardinalities, self.t_v.value, self.t_d.value)
        plan = cluster_plan(data.cardinalities, clusters, data.n_records, **params)
        # all checks passed: show
        self.data, self.dependence_values, self.clusters, self.plan = data, dep, clusters, plan
        self._heatmap_of = self._heatmap_inputs()
        self.dep_canvas.layout.visibility = None
        if self.dep_artists is None:
            self.dep_artists = plot_dependence(self.dep_ax, dep, data.names, clusters, data.cardinalities)
        else:
            self.dep_artists.update(dep, data.names, clusters, data.cardinalities)
        eps = f"ε = {params['epsilon']:g} per attribute" if params["mechanism"] == "epsilon" else \
            f"p = {params['p']:g}"
        self.dep_ax.set_title(f"{self._source_name().replace('$', chr(92) + '$')}: dependence ({self.dependence.value}), {eps}, "
                              f"$T_v$ = {self.t_v.value}, $T_d$ = {self.t_d.value:g}", fontsize=9)
        self.dep_figure.canvas.draw_idle()
        self.info.value = self._info_html(data, plan)
        self._check_runs_current()
        self.status.info(subscripts_html(f"{len(data.names)} attributes, {data.n_records:,} records: "
                                         f"{len(clusters)} cluster(s) by Algorithm 1 (T_v = {self.t_v.value}, "
                                         f"T_d = {self.t_d.value:g})."), raw_html=True)

    def _heatmap_inputs(self) -> dict[str, Any]:
        """The inputs of the heatmap and the clusters, as the controls hold them now."""
        return dict(source=self.source.value, name=self._source_name(), dataset=self.state.dataset_name,
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
        if self.data is None:
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
            args.update(t_ds=list(TABLE_TD), t_vs=feasible_t_vs(self.data.cardinalities))
            total = runs * len(TABLE_TD) * len(args["t_vs"])
        return dict(kind=kind, args=args, total=total, p=params["p"], t_v=t_v, t_d=t_d)

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
            self.curve_artists.update([], {})
            self.curve_ax.set_title(f"relative error, p = {run['p']:g}, $T_v$ = {run['t_v']}, "
                                    f"$T_d$ = {run['t_d']:g} (running)", fontsize=9)
            self.curve_figure.canvas.draw_idle()
        else:
            self.grid.value = ""
        self.cancel_button.disabled = False
        self._run, self._run_inputs = run, self._inputs()
        self.stale.clear()
        data = self.data
        self.task.start(lambda report: self._work(run, data), lambda result: None,
                        message=f"Running {total} runs in the background…", disable=(self.run_button,))

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
            self.grid.value = self._grid_html(summarize(rows, ("p", "T_d", "T_v", "method")))

    def _grid_html(self, summary: pd.DataFrame) -> str:
        p = float(summary["p"].iloc[0])
        printed = None if self.source.value == "Shared data set" else \
            PAPER_TABLE2 if self.source.value == "UCI Adult x 6" else PAPER_TABLE1
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
                f"<table style='border-collapse:collapse;font-size:12px'><tr><th></th>{head}</tr>"
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
        """The curves as drawn: the median relative error of each method at each σ (empty cells: no runs yet)."""
        lines = self.curve_artists.lines
        sigmas = next((np.asarray(line.get_xdata(), float) for line in lines.values() if len(line.get_xdata())), None)
        if sigmas is None:
            return pd.DataFrame({method: np.nan for method in lines}, index=pd.Index(FIGURE_SIGMAS, name="σ"))
        return pd.DataFrame({method: np.asarray(line.get_ydata(), float) for method, line in lines.items()},
                            index=pd.Index(sigmas, name="σ"))

    def _describe_curves(self) -> str:
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
        source, name = shown["source"], shown["dataset"]
        if source != "Shared data set":
            lines.append(f"frame = load_builtin({json.dumps(source)})")
        elif name in datasets.BUILTIN_DATASETS or name in datasets.LEGACY_NAMES:
            lines.append(f"frame = load_builtin({json.dumps(name)})   # the Data tab's data set")
        elif name.startswith(UPLOAD_PREFIX):
            lines.append(f"frame = load_csv({json.dumps(name[len(UPLOAD_PREFIX):])})   # the file uploaded in the Data tab")
        else:
            lines.append('frame = load_csv("data.csv")   # the data set given to the app (it has no name to load it by)')
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
                paper = "None" if source == "Shared data set" else \
                    "mdrr.PAPER_TABLE2" if source == "UCI Adult x 6" else "mdrr.PAPER_TABLE1"
                lines += ["cells = mdrr.table_cells(mdrr.summarize(result.rows, (\"p\", \"T_d\", \"T_v\", \"method\")), "
                          f"{paper})", "print(cells)"]
            lines.append("")
        lines += [f"trace = mdrr.example1_trace({int(self.sweeps.value)})",
                  "figure = Figure(figsize=(5.6, 3.0), layout=\"constrained\")",
                  f"plot_convergence(figure.add_subplot(), trace.history, {EXAMPLE1_LABELS!r}, "
                  "limits=list(mdrr.EXAMPLE1_LIMITS), ylabel=\"record weight\")"]
        return "\n".join(lines) + "\n"
