"""The "Multi-attribute RR" tab: RR-Independent, RR-Clusters and RR-Adjustment on real data (Domingo-Ferrer and Soria-Comas, 2022).

Wiring only: every number comes from :mod:`explorer.core.mdrr` and
:mod:`explorer.core.mdrr.experiments`.  The dependence heatmap and the clusters of
Algorithm 1 follow the controls at once; Monte Carlo runs (Figure 3's curves, or
a Table 1 row for the chosen p) run behind a button in the shared
:class:`~explorer.panels._base.BackgroundTask` (thread, progress bar, Cancel) and
fill the plot as chunks complete; a cancelled experiment keeps its runs.

The data are the app's data set (:class:`~explorer.state.AppState`) by default,
or, as named choices, the paper's own data (UCI Adult, and Adult x 6 for its
Table 2).  Epsilon is the shared one.  When the inputs of the experiment's plot
change, the plot is marked "out of date: press Compute" until it is run again.
"""

from __future__ import annotations

from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any, Callable

import ipywidgets as widgets
import numpy as np
import pandas as pd
import traitlets

from explorer.core import datasets
from explorer.core.mdrr.experiments import (
    ADULT_MDRR_ATTRIBUTES,
    FIGURE_SIGMAS,
    METHODS,
    PAPER_TABLE1,
    PAPER_TABLE2,
    TABLE_TD,
    TABLE_TV,
    ExperimentResult,
    run_figure3,
    run_table,
    summarize,
)
from explorer.core.mdrr import (
    EXAMPLE1_MARGINALS,
    EXAMPLE1_REPORTS,
    attribute_matrix,
    cluster_attributes,
    cluster_matrix,
    dependence_matrix,
    encode_categorical,
    n_combinations,
    relative_error_bound,
    rr_adjust,
)
from explorer.errors import ConfigurationError, InvalidParameterError
from explorer.core.export import csv_safe
from explorer.state import shorten
from explorer.panels._format import format_value, subscripts_html
from explorer.panels._base import (AppState, BackgroundTask, StaleMark, StatusLine, csv_download_link,
                                   epsilon_slider, escape, guarded, make_figure)
from explorer.plotting.multidim_rr import plot_convergence, plot_dependence, plot_error_curves

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


def _layout(width: str) -> widgets.Layout:
    return widgets.Layout(width=width)


class MultiDimRRPanel:
    """Multi-attribute randomized response: dependences, clusters, RR-Clusters, adjustment, experiments."""

    def __init__(self, state: AppState | None = None, *, executor_factory: Callable[[], Executor] | None = None):
        self.state = state if state is not None else AppState()
        self.status = StatusLine()
        self._executor_factory = executor_factory or (lambda: ThreadPoolExecutor(max_workers=1))
        self.task = BackgroundTask(self.status, description="runs", name="explorer-mdrr")
        self._rows: list[pd.DataFrame] = []
        self.last_result: ExperimentResult | None = None
        self.data = None
        self.dependence_values: np.ndarray | None = None
        self.clusters: list[list[int]] = []

        style = {"description_width": "110px"}
        self.source = widgets.Dropdown(options=SOURCE_OPTIONS,
                                       value="Shared data set" if self.state.dataset is not None else "UCI Adult",
                                       description="Data set", style=style, layout=_layout("300px"))
        self.stale = StaleMark()
        self._run_inputs: tuple | None = None     # the inputs of the runs on screen
        self.attributes = widgets.SelectMultiple(options=[], description="Attributes", rows=8, style=style,
                                                 layout=_layout("300px"))
        self.mechanism = widgets.Dropdown(options=MECHANISM_OPTIONS, value="keep-or-uniform",
                                          description="Matrix", style=style, layout=_layout("330px"))
        self.p = widgets.FloatSlider(value=0.5, min=0.05, max=1.0, step=0.05, description="p",
                                     continuous_update=False, style=style, layout=_layout("330px"))
        self.epsilon = epsilon_slider(self.state, self.status, description="ε per attribute", style=style,
                                      layout=_layout("330px"))        # a view of the shared epsilon
        self.t_v = widgets.BoundedIntText(value=100, min=1, max=10_000_000, description="T<sub>v</sub>",
                                          description_allow_html=True, tooltip="max combinations in a cluster",
                                          style=style, layout=_layout("230px"))
        self.t_d = widgets.FloatSlider(value=0.2, min=0.0, max=1.0, step=0.05, description="T<sub>d</sub>",
                                       description_allow_html=True,
                                       tooltip="min dependence to merge two clusters",
                                       continuous_update=False, style=style, layout=_layout("330px"))
        self.dependence = widgets.Dropdown(options=DEPENDENCE_OPTIONS, value="true", description="Dependence",
                                           style=style, layout=_layout("330px"))
        self.proper = widgets.Dropdown(options=PROPER_OPTIONS, value="clip", description="Proper distr.",
                                       style=style, layout=_layout("330px"))
        self.runs = widgets.BoundedIntText(value=20, min=1, max=1000, description="Runs", style=style,
                                           layout=_layout("200px"))
        self.experiment = widgets.ToggleButtons(options=EXPERIMENT_OPTIONS, value="figure3",
                                                style={"button_width": "170px"})
        self.run_button = widgets.Button(description="Compute", button_style="primary", icon="play",
                                         layout=_layout("100px"))
        self.cancel_button = self.task.cancel_button        # the shared task's bar and Cancel, counting runs
        self.cancel_button.disabled = True
        self.progress = self.task.progress
        self.progress.description = ""
        self.progress_label = widgets.HTML("")
        self.export = widgets.HTML("")
        self.info = widgets.HTML("")
        self.grid = widgets.HTML("")
        self.sweeps = widgets.IntSlider(value=10, min=1, max=100, description="Sweeps", continuous_update=False,
                                        style=style, layout=_layout("330px"))
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
        self.curve_figure, self.curve_canvas = make_figure(5.6, 4.0)
        self.curve_ax = self.curve_figure.add_subplot()
        self.curve_artists = plot_error_curves(self.curve_ax, [], {}, methods=CURVE_METHODS)
        self.curve_ax.set_title("relative error of count queries (Figure 3)", fontsize=9)
        self.example_figure, self.example_canvas = make_figure(5.6, 3.0)
        self.example_ax = self.example_figure.add_subplot()
        self.example_artists = None
        self.dep_artists = None

        # wiring
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
        run_row = widgets.HBox([self.experiment, self.runs, self.run_button, self.task.widget],
                               layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        progress_row = widgets.HBox([self.progress_label, self.export], layout=widgets.Layout(align_items="center"))
        plots = widgets.HBox([self.dep_canvas, self.curve_canvas], layout=widgets.Layout(flex_flow="row wrap"))
        example = widgets.VBox([
            widgets.HTML("<b>Example 1 of Domingo-Ferrer and Soria-Comas (2022): RR-Adjustment's convergence.</b> Ten randomized records "
                         "(a1,a1)×4, (a2,a1)×2, (a2,a2)×4 are raked to the marginals (1/2, 1/2), (1/2, 1/2): "
                         "the weights tend to 1/8, 0, 1/8, slowly."),
            self.sweeps, self.example_canvas, self.example_info])
        self.widget = widgets.VBox([intro, controls, self.status.widget, run_row, progress_row, self.stale.widget,
                                    plots, self.grid,
                                    self.info, example])
        self.widget.add_class("explorer-mdrr-panel")

        self.epsilon.disabled = True
        self._load_source()
        self._on_sweeps()

    # ------------------------------------------------------------------ data
    def _frame(self) -> pd.DataFrame:
        name = self.source.value
        if name not in SOURCES:  # a forged value from the client
            raise InvalidParameterError(f"data set must be one of {SOURCES}, got {shorten(name)}")
        if name == "Shared data set":
            if self.state.dataset is None:
                raise InvalidParameterError("no shared data set: choose one in the Data tab")
            return self.state.dataset
        return datasets.load_builtin(name)

    @staticmethod
    def _categorical_columns(frame: pd.DataFrame) -> list[str]:
        info = datasets.dataset_info(frame)
        cols = [c for c in frame.columns if str(c) in set(info.categorical) | set(info.ordinal)]
        return [str(c) for c in cols]

    def _source_name(self) -> str:
        if self.source.value == "Shared data set":
            return self.state.dataset_name or "the Data tab's data set"
        return self.source.value

    def _no_data(self, message: str) -> None:
        """No valid input: say why, and take the views off the screen (they would show other data)."""
        self.data, self.dependence_values, self.clusters = None, None, []
        self._frame_cache = None
        self._quiet = True
        try:
            self.attributes.options = []
        finally:
            self._quiet = False
        self.info.value = ""
        self.dep_canvas.layout.visibility = "hidden"
        raise InvalidParameterError(message)

    @guarded
    def _load_source(self) -> None:
        frame = self._frame()
        columns = self._categorical_columns(frame)
        if len(columns) < 2:
            found = f" ({', '.join(columns)})" if columns else ""
            self._no_data(f"the data set {self._source_name()!r} has {len(columns) or 'no'} categorical "
                          f"attribute{'' if len(columns) == 1 else 's'}{found}: multi-attribute RR needs at least 2 "
                          "categorical (or discretized) attributes; mark more columns categorical in the Data tab "
                          "or choose another data set")
        default = [c for c in ADULT_MDRR_ATTRIBUTES if c in columns] or columns[: min(8, len(columns))]
        self._frame_cache = frame
        self._quiet = True
        try:
            self.attributes.options = columns
            self.attributes.value = tuple(default)
        finally:
            self._quiet = False
        self._recompute()

    @guarded
    def _on_source(self, change: Any = None) -> None:
        self._load_source()

    @guarded
    def _on_shared_dataset(self, change: Any = None) -> None:
        if self.source.value == "Shared data set":
            self._load_source()

    # ------------------------------------------------------------------ controls -> clusters
    @guarded
    def _on_controls(self, change: Any = None) -> None:
        by_epsilon = self.mechanism.value == "epsilon"      # p or the shared epsilon sets the matrices
        self.p.disabled, self.epsilon.disabled = by_epsilon, not by_epsilon
        if not getattr(self, "_quiet", False):
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
        frame = getattr(self, "_frame_cache", None)
        if frame is None:
            return
        chosen = list(self.attributes.value)
        if len(chosen) < 2:
            raise InvalidParameterError(f"choose at least 2 attributes, got {len(chosen)}")
        data = encode_categorical(frame, chosen)
        params = self._params()
        dep = dependence_matrix(data, self.dependence.value, rng=0, proper=self.proper.value, **params)
        clusters = cluster_attributes(dep, data.cardinalities, self.t_v.value, self.t_d.value)
        mats = [attribute_matrix(c, params["p"], mechanism=params["mechanism"], epsilon=params["epsilon"])
                for c in data.cardinalities]
        # all checks passed: show
        self.data, self.dependence_values, self.clusters = data, dep, clusters
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
        self.info.value = self._info_html(data, clusters, mats)
        self._check_runs_current()
        self.status.info(subscripts_html(f"{len(data.names)} attributes, {data.n_records:,} records: "
                                         f"{len(clusters)} cluster(s) by Algorithm 1 (T_v = {self.t_v.value}, "
                                         f"T_d = {self.t_d.value:g})."), raw_html=True)

    def _inputs(self) -> tuple:
        """What an experiment's result depends on (the data and every control)."""
        return (id(getattr(self, "_frame_cache", None)), tuple(self.attributes.value), self.mechanism.value,
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

    def _info_html(self, data, clusters, mats) -> str:
        n = data.n_records
        eps = [m.epsilon for m in mats]
        r_all = n_combinations(data.cardinalities)
        rows = []
        for c in clusters:
            cards = [data.cardinalities[a] for a in c]
            combos = n_combinations(cards)
            eps_c = cluster_matrix(cards, [eps[a] for a in c]).epsilon if len(c) > 1 else eps[c[0]]
            rows.append(f"<li>{escape(', '.join(data.names[a] for a in c))}: {combos:,} combinations, "
                        f"ε = {eps_c:.3g}, best-case relative error sqrt(B(r−1)/n) = "
                        f"{relative_error_bound(cards, n):.3f}</li>")
        eps_text = ", ".join(f"{escape(nm)} {e:.3g}" for nm, e in zip(data.names, eps))
        return (f"<div style='font-size:12px'>ε of the per-attribute matrices actually used: {eps_text} "
                f"(record: {sum(eps):.3g}).<br>RR-Joint on all {len(data.names)} attributes: {r_all:,} "
                f"combinations for n = {n:,} records; best-case relative error (Section 3.3) "
                f"{relative_error_bound(data.cardinalities, n):.2f}.<br>Clusters:<ul style='margin:2px 0'>"
                + "".join(rows) + "</ul></div>")

    # ------------------------------------------------------------------ Example 1
    @guarded
    def _on_sweeps(self, change: Any = None) -> None:
        sweeps = int(self.sweeps.value)
        if not 1 <= sweeps <= 1000:
            raise InvalidParameterError(f"sweeps must be between 1 and 1000, got {sweeps}")
        out = rr_adjust(EXAMPLE1_REPORTS, list(EXAMPLE1_MARGINALS), max_sweeps=sweeps, tolerance=None,
                        keep_history=True)
        history = out.weight_history[:, [0, 4, 6]]
        if self.example_artists is None:
            self.example_artists = plot_convergence(
                self.example_ax, history, ["w of (a1,a1) records", "w of (a2,a1) records", "w of (a2,a2) records"],
                limits=[1 / 8, 0.0, 1 / 8], ylabel="record weight")
        else:
            self.example_artists.update(history, [1 / 8, 0.0, 1 / 8])
        self.example_figure.canvas.draw_idle()
        joint = np.bincount(EXAMPLE1_REPORTS[:, 0] * 2 + EXAMPLE1_REPORTS[:, 1], weights=out.weights, minlength=4)
        self.example_info.value = (
            f"<span style='font-size:12px'>After {sweeps} sweep(s): weight of the (a2,a1) records "
            f"{out.weights[4]:.5f} (= 1/(8(k+1)) = {1 / (8 * (sweeps + 1)):.5f}); joint distribution "
            f"({', '.join(f'{v:.4f}' for v in joint)}) → (1/2, 0, 0, 1/2) of Expression (14); largest weight "
            f"change in the last sweep {format_value(out.trace_change[-1], digits=3)}.</span>")

    # ------------------------------------------------------------------ experiments
    @property
    def running(self) -> bool:
        return self.task.running

    def join(self, timeout: float | None = None) -> None:
        """Wait for a running experiment (tests, notebooks)."""
        self.task.wait(timeout)

    @guarded
    def _on_run(self, button: Any = None) -> None:
        if self.running:
            raise InvalidParameterError("an experiment is already running: cancel it first")
        if self.data is None:
            raise InvalidParameterError("no valid configuration to run: fix the message above first")
        runs = int(self.runs.value)
        if runs < 1 or runs > 1000:
            raise InvalidParameterError(f"runs must be between 1 and 1000, got {runs}")
        params = self._params()
        kind = self.experiment.value
        if kind not in ("figure3", "table"):
            raise InvalidParameterError(f"experiment must be 'figure3' or 'table', got {shorten(kind)}")
        common = dict(runs=runs, seed=int(np.random.SeedSequence().entropy % (2 ** 32)),
                      dependence=self.dependence.value, mechanism=params["mechanism"], proper=self.proper.value,
                      epsilon=params["epsilon"], queries=5)
        p, t_v, t_d = params["p"], int(self.t_v.value), float(self.t_d.value)
        data = self.data
        if kind == "figure3":
            job = dict(func=run_figure3, args=dict(data=data, ps=[p], thresholds={p: (t_v, t_d)},
                                                   sigmas=FIGURE_SIGMAS, methods=CURVE_METHODS, **common))
            total = runs
        else:
            t_vs = [tv for tv in TABLE_TV if tv >= max(data.cardinalities)]
            if not t_vs:
                raise InvalidParameterError(f"the Table 1 grid needs T_v >= the largest cardinality "
                                            f"({max(data.cardinalities)}), but its T_v are {TABLE_TV}")
            job = dict(func=run_table, args=dict(data=data, ps=[p], t_ds=TABLE_TD, t_vs=t_vs, **common))
            total = runs * len(TABLE_TD) * len(t_vs)
        self._rows = []
        self.progress.max, self.progress.value = total, 0
        self.progress_label.value = f"0 / {total} runs"
        self.export.value = ""
        if kind == "figure3":
            self.curve_artists.update([], {})
            self.curve_ax.set_title(f"relative error, p = {p:g}, $T_v$ = {t_v}, $T_d$ = {t_d:g} (running)",
                                    fontsize=9)
            self.curve_figure.canvas.draw_idle()
        else:
            self.grid.value = ""
        self.cancel_button.disabled = False
        self._run_inputs = self._inputs()
        self.stale.clear()
        self.task.start(lambda report: self._work(kind, job, total), lambda result: None,
                        message=f"Running {total} runs in the background…", disable=(self.run_button,))

    def _on_cancel(self, button: Any = None) -> None:
        if self.running:
            self.status.info("Cancelling: the runs already done are kept…")

    def _work(self, kind: str, job: dict, total: int) -> ExperimentResult:
        """The task's compute: run the experiment, showing chunks as they complete (under ``task.lock``).

        A cancelled run returns normally with the runs done (the runner polls the task's
        Cancel); errors are left to the task, which says them on the status line.
        """
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

            result = job["func"](executor=executor, on_result=on_result, progress=progress,
                                 cancel=lambda: self.task.cancelled, **job["args"])
            with self.task.lock:
                self.last_result = result
                self._show_partial(kind, final=True)
                self._make_export(result)
                word = "Cancelled" if result.cancelled else "Done"
                notes = sorted(set(result.rows["note"].dropna()) - {""}) if "note" in result.rows else []
                extra = f" Some runs gave no estimate: {notes[0]}" if notes else ""
                summary = (f"{word}: {result.runs_done} of {result.runs_requested} runs in "
                           f"{result.elapsed:.1f} s (medians of 5 count queries per run and σ).{extra}")
                self.status.info(summary)
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
            summary = summarize(rows, ("sigma", "method"))
            curves = {}
            sigmas = sorted(summary["sigma"].unique())
            for method in CURVE_METHODS:
                part = summary[summary["method"] == method].set_index("sigma")["relative_error"]
                curves[method] = [float(part.get(s, np.nan)) for s in sigmas]
            self.curve_artists.update(sigmas, curves)
            if final:
                runs = int(rows["run"].nunique())
                title = self.curve_ax.get_title().replace(" (running)", "")
                self.curve_ax.set_title(f"{title} — {runs} runs", fontsize=9)
            self.curve_figure.canvas.draw_idle()
        else:
            summary = summarize(rows, ("p", "T_d", "T_v", "method"))
            self.grid.value = self._grid_html(summary)

    def _grid_html(self, summary: pd.DataFrame) -> str:
        p = float(summary["p"].iloc[0])
        printed = PAPER_TABLE2 if (self.source.value == "UCI Adult x 6") else PAPER_TABLE1
        head = "".join(f"<th>{subscripts_html(f'T_v = {format_value(int(tv))}')}</th>" for tv in TABLE_TV)
        body = []
        for td in TABLE_TD:
            cells = []
            for tv in TABLE_TV:
                got = summary[(summary["T_d"] == td) & (summary["T_v"] == tv)]
                ref = printed[(printed["p"] == round(p, 2)) & (printed["T_d"] == td) & (printed["T_v"] == tv)]
                value = f"{float(got['relative_error'].iloc[0]):.3f}" if len(got) else "…"
                paper = f" <small style='color:#666'>({float(ref['relative_error'].iloc[0]):.3f})</small>" \
                    if len(ref) and self.source.value != "Shared data set" else ""
                cells.append(f"<td>{value}{paper}</td>")
            body.append(f"<tr><th>{subscripts_html(f'T_d = {format_value(td)}')}</th>{''.join(cells)}</tr>")
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

    # ------------------------------------------------------------------ configuration
    def config(self) -> dict:
        return {"source": self.source.value, "attributes": list(self.attributes.value),
                "mechanism": self.mechanism.value, "p": self.p.value,
                "t_v": self.t_v.value, "t_d": self.t_d.value, "dependence": self.dependence.value,
                "proper": self.proper.value, "runs": self.runs.value, "experiment": self.experiment.value,
                "sweeps": self.sweeps.value}

    def apply_config(self, config: dict) -> None:
        if not isinstance(config, dict):
            raise ConfigurationError(f"the Multi-attribute RR configuration must be an object, got {shorten(config)}")
        try:
            if "source" in config:
                self.source.value = config["source"]
            if "attributes" in config:
                self.attributes.value = tuple(config["attributes"])
            for key in ("mechanism", "p", "t_v", "t_d", "dependence", "proper", "runs", "experiment",
                        "sweeps"):
                if key in config:
                    getattr(self, key).value = config[key]
        except (traitlets.TraitError, TypeError, ValueError) as error:
            raise ConfigurationError(f"cannot apply the Multi-attribute RR configuration: {error}") from None
