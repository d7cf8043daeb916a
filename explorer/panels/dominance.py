"""The "Dominance" tab: power-mean disclosure risk and information loss curves, verdicts, calibration.

Wiring only: the comparison (masking, displacements, curves, verdicts, calibration)
is :func:`explorer.core.dominance.comparison.compare_maskings`, with its work estimate
:func:`~explorer.core.dominance.comparison.comparison_work` (units of
:mod:`explorer.core.cost`, times the seconds per unit measured in this kernel,
:data:`THROUGHPUT`); the plots are
:mod:`explorer.plotting.dominance`.  The core's memo (:class:`ComparisonCache`, one
per data set) keeps displacements and curves, so moving beta, pi, alpha_1, theta_2
or switching attributes only redraws.

What a change needs (masking, curves not in the cache) is estimated first: work
under ``background_seconds`` (0.5 s) on the reference machine runs at once;
slower work (full UCI Adult, aggregated views, MDAV, wide rank swapping)
waits for the "Compute" button and then runs in a :class:`BackgroundTask` with a
progress bar per configuration and attribute, and Cancel.  Until it ends the
last curves stay on screen, greyed and labelled "out of date: press Compute"
(:class:`~explorer.panels._base.StaleMark`, the rule of every tab); so do they,
with the reason in words, when the data set changes to one the tab cannot use.
The data are
read from the shared state (``state.dataset``) or a paper example chosen by name;
the tab has no epsilon.
"""

from __future__ import annotations

import math
import time
from typing import Any

import ipywidgets as widgets
import numpy as np
import traitlets

from explorer._validation import check_int, check_number
from explorer.core import dominance as dom
from explorer.core.datasets import dataset_info, domingo_muralidhar_example, ruiz_example
from explorer.core.masking import MASKING_METHODS
from explorer.core.cost import REFERENCE_SECONDS_PER_UNIT
from explorer.core.dominance.comparison import (
    PUBLISHED,
    ComparisonCache,
    MaskingConfig,
    comparison_work,
    compare_maskings,
    config_label,
)
from explorer.errors import ConfigurationError, DatasetError, ExplorerError, InvalidParameterError
from explorer.core.export import csv_safe
from explorer.panels._base import (AppState, BackgroundTask, StaleMark, StatusLine, Throughput, csv_download_link,
                                   escape, guarded, make_figure)
from explorer.panels._format import format_value
from explorer.plotting.dominance import FigureRedraw, plot_calibration, plot_curves
from explorer.references import cite

__all__ = ["DominancePanel", "PUBLISHED", "THROUGHPUT"]

RUIZ = cite("permutation-paradigm")
SOURCES = [("Shared data set (Data tab)", "shared"), (f"Running example of {RUIZ}, Table 1", "ruiz"),
           (f"Running example of {cite('new-directions')}, Table 1", "dm")]
CONVENTIONS = [("rank: rank(y) − rank(x)", "rank"), (f"record position ({RUIZ}'s rⱼ)", "position")]
ALL = "__all__"
N_GRID = 121
MAX_CONFIGS = 4
DEFAULTS = [("additive_noise", 0.5), ("rank_swapping", 0.1), ("univariate_microaggregation", 5.0),
            ("data_shuffling", 0.9)]
#: Seconds per work unit of :func:`~explorer.core.dominance.comparison.comparison_work`, measured on the
#: comparisons this kernel runs (the reference rate until the first one of at least 0.05 s).
THROUGHPUT = Throughput(REFERENCE_SECONDS_PER_UNIT)


def _method_options(source: str) -> list[tuple[str, str]]:
    options = [(m.label, m.name) for m in MASKING_METHODS.values()]
    if source in ("ruiz", "dm"):
        options.insert(0, ("As published (the paper's Y)", PUBLISHED))
    return options


class DominancePanel:
    """Risk curves D(α), loss curves I(θ), dominance verdicts (Ruiz (2018)) and the calibration view
    (Domingo-Ferrer and Soria-Comas (2018), Section VI-B).

    A move of β, π, α₁ or θ₂ redraws only the figures whose data changed, by blitting
    their moving artists when nothing else in the figure changed (:class:`FigureRedraw`).
    """

    #: work estimated slower than this (seconds) waits for "Compute" and runs in the background
    BACKGROUND_SECONDS = 0.5

    def __init__(self, state: AppState | None = None, *, source: str | None = None, max_records: int = 5000,
                 seed: int = 0):
        self.state = state if state is not None else AppState()
        self.status = StatusLine()
        self.stale = StaleMark()           # the one "out of date" rule: slow work waiting for Compute greys the views
        self.task = BackgroundTask(self.status, description="computing", name="dominance-curves")
        self.background_seconds = self.BACKGROUND_SECONDS
        self.estimate = 0.0                # seconds the last change was estimated to need (at THROUGHPUT's rate)
        self.work = 0.0                    # its work units (explorer.core.cost)
        self._computing = False
        self._data_error: str | None = None   # why the chosen data cannot be used (None: they can)
        self._cache = ComparisonCache()    # displacements, tallies and curves of the current data (core's memo)
        self._X: np.ndarray | None = None
        self._columns: list[str] = []
        self._published: np.ndarray | None = None
        self._n_total = 0
        self.risk_verdicts: list[str] = []
        self.loss_verdicts: list[str] = []
        self.risk_curves: list[dom.Curve] = []
        self.loss_curves: list[dom.Curve] = []
        self.points: list[dom.CalibrationPoint] = []
        self.best: dom.CalibrationPoint | None = None
        self.csv_text = ""

        style = {"description_width": "initial"}
        wide = widgets.Layout(width="420px")
        default_source = source or ("shared" if self.state.dataset is not None else "ruiz")
        self.source = widgets.Dropdown(options=SOURCES, value=default_source, description="Data", style=style,
                                       layout=wide)
        self.max_records = widgets.IntText(value=max_records, description="Records used (0 = all)", style=style,
                                           layout=widgets.Layout(width="220px"))
        self.max_records.add_class("explorer-dominance-max-records")
        self.seed = widgets.IntText(value=seed, description="Seed", style=style,
                                    layout=widgets.Layout(width="140px"))
        self.convention = widgets.Dropdown(options=CONVENTIONS, value="position" if default_source != "shared"
                                           else "rank", description="Displacement", style=style,
                                           layout=widgets.Layout(width="330px"))
        self.mode = widgets.ToggleButtons(options=[("Compare configurations", "compare"),
                                                   ("Sweep one method", "sweep")], value="compare",
                                          style={"button_width": "auto"})
        self.n_configs = widgets.Dropdown(options=[2, 3, 4], value=2, description="Configurations", style=style,
                                          layout=widgets.Layout(width="180px"))
        self.methods: list[widgets.Dropdown] = []
        self.parameters: list[widgets.FloatText] = []
        self.parameter_help: list[widgets.HTML] = []
        for i in range(MAX_CONFIGS):
            method, parameter = DEFAULTS[i]
            dropdown = widgets.Dropdown(options=_method_options(default_source), description=f"{i + 1}.",
                                        layout=widgets.Layout(width="330px"), style=style)
            dropdown.value = PUBLISHED if (i == 0 and default_source != "shared") else method
            dropdown.add_class(f"explorer-dominance-method-{i + 1}")
            self.methods.append(dropdown)
            text = widgets.FloatText(value=parameter, description="parameter", style=style,
                                     layout=widgets.Layout(width="180px"))
            text.add_class(f"explorer-dominance-parameter-{i + 1}")
            self.parameters.append(text)
            self.parameter_help.append(widgets.HTML(layout=widgets.Layout(width="420px")))
        self.sweep_method = widgets.Dropdown(options=_method_options("shared"), value="additive_noise",
                                             description="Method", style=style, layout=widgets.Layout(width="330px"))
        self.sweep_values = widgets.Text(value="0.05, 0.1, 0.25, 0.5, 1, 2", description="Parameter values",
                                         style=style, layout=widgets.Layout(width="420px"))

        self.alpha_min = widgets.FloatSlider(value=-10.0, min=-50.0, max=0.0, step=0.5, description="α from",
                                             style=style, continuous_update=False)
        self.risk_view = widgets.Dropdown(description="Attribute", style=style, layout=widgets.Layout(width="300px"))
        self.beta = widgets.FloatSlider(value=1.0, min=-10.0, max=1.0, step=0.25, description="β", style=style,
                                        continuous_update=False)
        self.theta_max = widgets.FloatSlider(value=10.0, min=1.5, max=50.0, step=0.5, description="θ up to",
                                             style=style, continuous_update=False)
        self.loss_view = widgets.Dropdown(description="Pair", style=style, layout=widgets.Layout(width="300px"))
        self.pi = widgets.FloatSlider(value=1.0, min=1.0, max=20.0, step=0.5, description="π", style=style,
                                      continuous_update=False)
        self.normalize = widgets.Checkbox(value=False, description="Normalised (0–1) scales", indent=False)
        self.alpha1 = widgets.FloatSlider(value=0.0, min=-10.0, max=0.95, step=0.05, description="α₁", style=style,
                                          continuous_update=False)
        self.theta2 = widgets.FloatSlider(value=2.0, min=1.05, max=20.0, step=0.05, description="θ₂", style=style,
                                          continuous_update=False)
        self.risk_target = widgets.FloatText(value=0.0, description="Risk target: D(α₁, β) ≥", style=style,
                                             layout=widgets.Layout(width="260px"))
        self.export_button = widgets.Button(description="Export curves (CSV)", icon="download",
                                            layout=widgets.Layout(width="auto"))
        self.compute_button = widgets.Button(description="Compute", icon="play", button_style="primary",
                                             tooltip="Compute the curves for the current settings (large data)")
        self.compute_button.add_class("explorer-dominance-compute")
        self.task.widget.add_class("explorer-dominance-task")
        self.download_link = widgets.HTML()
        self.risk_verdict = widgets.HTML()
        self.risk_verdict.add_class("explorer-dominance-risk-verdict")
        self.loss_verdict = widgets.HTML()
        self.loss_verdict.add_class("explorer-dominance-loss-verdict")
        self.calibration_text = widgets.HTML()
        self.calibration_text.add_class("explorer-dominance-calibration")

        self.risk_figure, self.risk_canvas = make_figure(6.4, 3.4)
        self.loss_figure, self.loss_canvas = make_figure(6.4, 3.4)
        self.calibration_figure, self.calibration_canvas = make_figure(6.4, 3.6)
        self.risk_ax = self.risk_figure.subplots()
        self.loss_ax = self.loss_figure.subplots()
        self.calibration_ax = self.calibration_figure.subplots()
        self.risk_artists = None
        self.loss_artists = None
        self.calibration_artists = None
        self.risk_redraw = FigureRedraw(self.risk_figure)
        self.loss_redraw = FigureRedraw(self.loss_figure)
        self.calibration_redraw = FigureRedraw(self.calibration_figure)

        self._config_rows = [widgets.HBox([self.methods[i], self.parameters[i], self.parameter_help[i]])
                             for i in range(MAX_CONFIGS)]
        self.compare_box = widgets.VBox([self.n_configs] + self._config_rows)
        self.sweep_box = widgets.VBox([widgets.HBox([self.sweep_method, self.sweep_values])])
        intro = widgets.HTML(
            f"<b>Dominance</b> ({escape(RUIZ)}; {escape(cite('rr-dp', 'Section VI-B'))}). Mask the data with "
            "two to four configurations; each attribute's permutation gives rank displacements r<sub>j</sub>. "
            "<i>D<sub>j</sub>(α)</i> (α ≤ 1) is their power mean: the higher, the further records moved, the "
            "lower the disclosure risk; the more negative α, the more the least-moved records count. "
            "<i>I<sub>k</sub>(θ)</i> (θ ≥ 1) is the power mean of |r<sub>j</sub> − r<sub>j′</sub>| for a pair "
            "of attributes: the higher, the more their relation was altered. A configuration <i>dominates</i> "
            "when it is better for every aversion.")
        data_row = widgets.HBox([self.source, self.max_records, self.seed, self.convention])
        risk_controls = widgets.HBox([self.risk_view, self.alpha_min, self.beta])
        loss_controls = widgets.HBox([self.loss_view, self.theta_max, self.pi])
        calibration_controls = widgets.HBox([self.alpha1, self.theta2, self.risk_target])
        self.widget = widgets.VBox([
            intro, data_row, self.mode, self.compare_box, self.sweep_box,
            widgets.HBox([self.normalize, self.export_button, self.download_link]),
            widgets.HBox([self.compute_button, self.task.widget]),
            self.status.widget, self.stale.widget,
            widgets.HTML("<h4 style='margin:6px 0 0'>Disclosure risk D(α)</h4>"), risk_controls,
            self.risk_canvas, self.risk_verdict,
            widgets.HTML("<h4 style='margin:6px 0 0'>Information loss I(θ)</h4>"), loss_controls,
            self.loss_canvas, self.loss_verdict,
            widgets.HTML(f"<h4 style='margin:6px 0 0'>Calibration ({escape(cite('rr-dp', 'Section VI-B'))})</h4>"),
            calibration_controls,
            self.calibration_canvas, self.calibration_text,
        ])
        self.widget.add_class("explorer-dominance")

        if self._reload():
            self._sync_visibility()
            self._refresh()

        for control in (self.source,):
            control.observe(self._on_source, names="value")
        for control in (self.max_records, self.seed):
            control.observe(self._on_data_setting, names="value")
        for control in [self.convention, self.mode, self.n_configs, self.sweep_method, self.sweep_values,
                        self.alpha_min, self.risk_view, self.beta, self.theta_max, self.loss_view, self.pi,
                        self.normalize, self.alpha1, self.theta2, self.risk_target] + self.methods + self.parameters:
            control.observe(self._on_change, names="value")
        self.export_button.on_click(lambda _: self._on_export())
        self.compute_button.on_click(lambda _: self._on_compute())
        self.state.observe(self._on_dataset, names="dataset")

    # ------------------------------------------------------------------------------------------ data
    def _load_data(self) -> None:
        """Read the chosen data (numeric attributes), sample it, and reset the caches."""
        source = self.source.value
        published = None
        if source == "ruiz":
            frame = ruiz_example()
            X = frame[["X1", "X2", "X3"]].to_numpy(dtype=float)
            published = frame[["Y1", "Y2", "Y3"]].to_numpy(dtype=float)
            columns = ["X1", "X2", "X3"]
        elif source == "dm":
            frame = domingo_muralidhar_example()
            X = frame[["X1", "X2", "X3"]].to_numpy(dtype=float)
            published = frame[["Y1", "Y2", "Y3"]].to_numpy(dtype=float)
            columns = ["X1", "X2", "X3"]
        else:
            frame = self.state.dataset
            if frame is None:
                raise DatasetError("no shared data set yet: choose one in the Data tab, or a paper example")
            numeric = [c for c in dataset_info(frame).numeric if c in frame.columns]
            if not numeric:
                raise DatasetError("the shared data set has no numeric attributes; choose a paper example")
            complete = frame[numeric].dropna()
            if len(complete) < 2:
                raise DatasetError("the shared data set has fewer than 2 complete records in its numeric attributes")
            X = complete.to_numpy(dtype=float)
            columns = [str(c) for c in numeric]
        limit = check_int(self.max_records.value, "records used", minimum=0)
        if limit == 1:
            raise InvalidParameterError("records used must be 0 (all) or at least 2, got 1")
        self._n_total = X.shape[0]
        if published is None:
            X = dom.sample_records(X, limit or None, self.seed.value)
        self._X, self._columns, self._published = X, columns, published
        self._cache = ComparisonCache()    # a running background computation keeps the old one
        self._set_view_options()

    def _reload(self) -> bool:
        """Read the chosen data; when they cannot be used, grey the curves, say why, and return False.

        The curves of the previous data stay on screen for comparison, marked out of date
        (:class:`StaleMark`, the one rule of every tab), and nothing computes until usable
        data are chosen.
        """
        self.task.supersede()              # other data: a background result for the old ones is moot
        try:
            self._load_data()
        except ExplorerError as error:
            self._data_unusable(str(error))
            return False
        self._data_error = None
        return True

    def _data_unusable(self, words: str) -> None:
        """The data chosen cannot be used: the curves shown (of other data) are marked out of date, with why."""
        self._data_error = words
        self._X, self._cache = None, ComparisonCache()
        self.stale.mark(self._views(), f"they show the previous data; {words}",
                        button="Compute after choosing usable data")
        self.status.error(f"These data cannot be used here: {words}. The curves shown are of the previous data.")

    def _set_view_options(self) -> None:
        columns = self._columns
        risk_options = [(c, str(j)) for j, c in enumerate(columns)] + [("All attributes: D(α, β)", ALL)]
        pairs = dom.attribute_pairs(len(columns))
        loss_options = [(f"{columns[j]} & {columns[k]}", f"{j},{k}") for j, k in pairs]
        if len(columns) >= 2:
            loss_options.append(("All pairs: I(θ, π)", ALL))
        keep_risk, keep_loss = self.risk_view.value, self.loss_view.value
        self.risk_view.options = risk_options
        self.risk_view.value = keep_risk if keep_risk in [v for _, v in risk_options] else risk_options[0][1]
        self.loss_view.options = loss_options or [("(needs two attributes)", "")]
        values = [v for _, v in self.loss_view.options]
        self.loss_view.value = keep_loss if keep_loss in values else values[0]

    # --------------------------------------------------------------------------------- configurations
    def _configurations(self) -> list[MaskingConfig]:
        """(method, parameter, label) of each active configuration, validated."""
        if self.mode.value == "sweep":
            method = self.sweep_method.value
            spec = MASKING_METHODS.get(method)
            if spec is None or spec.parameter is None:
                raise InvalidParameterError(f"sweep method must have a parameter, got {method!r}")
            values = self._sweep_values()
            return [MaskingConfig(method, spec.check_parameter(v), config_label(method, spec.check_parameter(v)))
                    for v in values]
        configs = []
        for i in range(self.n_configs.value):
            method = self.methods[i].value
            if method == PUBLISHED:
                if self._published is None:
                    raise InvalidParameterError("'As published' is only available for the paper examples")
                configs.append(MaskingConfig(method, None, config_label(method, None)))
                continue
            spec = MASKING_METHODS[method]
            value = spec.check_parameter(self.parameters[i].value) if spec.parameter is not None else None
            configs.append(MaskingConfig(method, value, f"{i + 1}. " + config_label(method, value)))
        return configs

    def _sweep_values(self) -> list[float]:
        text = self.sweep_values.value
        parts = [p for p in text.replace(";", ",").split(",") if p.strip()]
        if len(parts) < 2:
            raise InvalidParameterError(f"sweep values must list at least two parameter values, got {text!r}")
        if len(parts) > 12:
            raise InvalidParameterError(f"sweep values: at most 12 values, got {len(parts)}")
        values = [check_number(p, "sweep value") for p in parts]
        return sorted(values)

    def _settings(self) -> dict[str, Any]:
        """The controls, validated, as plain values: what a computation reads (never the widgets themselves)."""
        if self._X is None:
            raise DatasetError(f"these data cannot be used here: {self._data_error or 'none chosen'}")
        configs = self._configurations()
        return {
            "configs": configs, "alphas": self._alpha_grid(), "thetas": self._theta_grid(),
            "beta": check_number(self.beta.value, "β", maximum=1.0, allow_inf=True),
            "pi": check_number(self.pi.value, "π", minimum=1.0, allow_inf=True),
            "alpha1": check_number(self.alpha1.value, "α₁", maximum=1.0, include_maximum=False),
            "theta2": check_number(self.theta2.value, "θ₂", minimum=1.0, include_minimum=False),
            "target": check_number(self.risk_target.value, "risk target", minimum=0.0),
            "risk_view": self.risk_view.value, "loss_view": self.loss_view.value,
            "normalize": bool(self.normalize.value), "mode": self.mode.value, "seed": self.seed.value,
            "convention": self.convention.value, "X": self._X,
            "published": self._published, "columns": list(self._columns), "n_total": self._n_total,
            "cache": self._cache,
        }

    @staticmethod
    def _arguments(s: dict[str, Any]) -> dict[str, Any]:
        """The keyword arguments of :func:`compare_maskings` for the settings ``s``."""
        return dict(alphas=s["alphas"], thetas=s["thetas"], beta=s["beta"], pi=s["pi"], alpha1=s["alpha1"],
                    theta2=s["theta2"], risk_target=s["target"],
                    risk_attribute=None if s["risk_view"] == ALL else int(s["risk_view"]),
                    loss_pair=(None if s["loss_view"] in (ALL, "") else
                               tuple(int(v) for v in s["loss_view"].split(","))),
                    normalize=s["normalize"], seed=int(s["seed"]), convention=s["convention"],
                    sweep=s["mode"] == "sweep", published=s["published"], cache=s["cache"])

    # ------------------------------------------------------------------------------------------ curves
    def _alpha_grid(self) -> np.ndarray:
        return dom.alpha_grid(check_number(self.alpha_min.value, "α from", maximum=0.0), N_GRID,
                              include_minus_inf=True)

    def _theta_grid(self) -> np.ndarray:
        return dom.theta_grid(check_number(self.theta_max.value, "θ up to", minimum=1.0, include_minimum=False),
                              N_GRID, include_inf=True)

    def _work(self, s: dict[str, Any]) -> float:
        """Work units of what these settings need and the memo does not hold (core's :func:`comparison_work`)."""
        return comparison_work(s["X"], s["configs"], **self._arguments(s))

    def _compute(self, s: dict[str, Any], progress=None, work: float = 0.0) -> dict[str, Any]:
        """Curves, verdicts and calibration for the settings ``s`` (:func:`compare_maskings`); timed, to learn
        :data:`THROUGHPUT`'s rate from ``work`` units."""
        started = time.perf_counter()
        result = compare_maskings(s["X"], s["configs"], progress=progress, **self._arguments(s))
        THROUGHPUT.observe(work, time.perf_counter() - started)
        return {"comparison": result, "configs": result.configs, "risk": list(result.risk_curves),
                "loss": list(result.loss_curves), "risk_results": list(result.risk_results),
                "loss_results": list(result.loss_results), "points": list(result.points), "best": result.best,
                "target": result.risk_target, "settings": s}

    # ---------------------------------------------------------------------------------------- drawing
    @staticmethod
    def _draw_curves(ax, artists, curves, labels, title, crossings):
        """Update the curves in place, or redraw the Axes when the set of configurations changed."""
        if artists is None or len(artists.lines) != len(labels) or artists.labels != labels:
            ax.clear()
            return plot_curves(ax, curves, labels, title=title, crossings=crossings)
        artists.update(curves, crossings=crossings, title=title)
        return artists

    @staticmethod
    def _curves_key(curves: list, title: str, crossings: list) -> tuple:
        """Everything a curve figure shows: when it is unchanged, the figure is not redrawn."""
        return (title, tuple(crossings), tuple((c.label, c.grid.tobytes(), c.values.tobytes()) for c in curves))

    def _draw(self, result: dict[str, Any]) -> None:
        """Update each figure whose data changed; blit when only its moving artists changed (see FigureRedraw)."""
        s = result["settings"]             # the settings the result was computed for (not the widgets: they may
        columns = s["columns"]             # have moved on while it ran in the background)
        labels = [c.label for c in result["risk"]]
        risk_crossings = [c for _, _, r in result["risk_results"][:1] for c in r.crossings]
        view = f"all attributes, D(α, β = {format_value(s['beta'])})" if s["risk_view"] == ALL else \
            f"attribute {columns[int(s['risk_view'])]}"
        risk_title = f"D(α): {view}" + (" (normalised)" if s["normalize"] else "")
        key = self._curves_key(result["risk"], risk_title, risk_crossings)
        if not self.risk_redraw.unchanged(key):
            self.risk_artists = self._draw_curves(self.risk_ax, self.risk_artists, result["risk"], labels,
                                                  risk_title, risk_crossings)
            self.risk_redraw.show(key, self.risk_artists.moving(), self.risk_artists.static_key())
        if result["loss"]:
            loss_crossings = [c for _, _, r in result["loss_results"][:1] for c in r.crossings]
            if s["loss_view"] == ALL:
                view = f"all pairs, I(θ, π = {format_value(s['pi'])})"
            else:
                j, k = (int(v) for v in s["loss_view"].split(","))
                view = f"pair {columns[j]} & {columns[k]}"
            loss_title = f"I(θ): {view}" + (" (normalised)" if s["normalize"] else "")
            key = self._curves_key(result["loss"], loss_title, loss_crossings)
            if not self.loss_redraw.unchanged(key):
                self.loss_artists = self._draw_curves(self.loss_ax, self.loss_artists, result["loss"], labels,
                                                      loss_title, loss_crossings)
                self.loss_redraw.show(key, self.loss_artists.moving(), self.loss_artists.static_key())
        elif not self.loss_redraw.unchanged("no pairs"):
            self.loss_ax.clear()
            self.loss_artists = None
            self.loss_ax.text(0.5, 0.5, "Information loss needs at least two attributes", ha="center",
                              transform=self.loss_ax.transAxes)
            self.loss_redraw.show("no pairs", [], ("no pairs",))
        path = result["points"] if s["mode"] == "sweep" else []
        target = result["target"] if result["target"] > 0 else None
        title = f"Calibration at α₁ = {format_value(s['alpha1'])}, θ₂ = {format_value(s['theta2'])}"
        key = (title, tuple(result["points"]), tuple(path), target, result["best"])
        if not self.calibration_redraw.unchanged(key):
            if self.calibration_artists is None:
                self.calibration_artists = plot_calibration(self.calibration_ax, result["points"], path,
                                                            target=target, best=result["best"])
            else:
                self.calibration_artists.update(result["points"], path, target=target, best=result["best"])
            self.calibration_ax.set_title(title, fontsize=10)
            self.calibration_redraw.show(key, self.calibration_artists.moving(),
                                         self.calibration_artists.static_key())

    def _views(self) -> list[widgets.DOMWidget]:
        """What a computation draws: greyed by :attr:`stale` while it shows other settings than the controls."""
        return [self.risk_canvas, self.risk_verdict, self.loss_canvas, self.loss_verdict, self.calibration_canvas,
                self.calibration_text]

    def _show(self, result: dict[str, Any]) -> None:
        self.stale.clear()
        labels = [c.label for c in result["risk"]]
        self.risk_curves, self.loss_curves = result["risk"], result["loss"]
        self.points, self.best = result["points"], result["best"]
        self.risk_verdicts = result["comparison"].risk_sentences(number=format_value)
        self.loss_verdicts = result["comparison"].loss_sentences(number=format_value)
        self.risk_verdict.value = "<br>".join(escape(s) for s in self.risk_verdicts)
        self.loss_verdict.value = "<br>".join(escape(s) for s in self.loss_verdicts)
        best = result["best"]
        target = format_value(result["target"])
        if best is None:
            calibration = (f"No configuration reaches D(α₁, β) ≥ {target}: strengthen the masking "
                           f"or lower the target.")
        else:
            calibration = (f"Least information loss with D(α₁, β) ≥ {target}: {best.label} "
                           f"(D = {format_value(best.risk)}, I = {format_value(best.loss)}).")
        self.calibration_text.value = escape(calibration)
        self._draw(result)
        s = result["settings"]
        n, n_total = s["X"].shape[0], s["n_total"]
        sampled = (f" (a seeded sample of {n:,} of {n_total:,} records)" if n < n_total else f" ({n:,} records)")
        self.status.info(f"{len(labels)} configuration(s) on {len(s['columns'])} attribute(s){sampled}; "
                         f"displacements by {s['convention']}.")

    def _sync_visibility(self) -> None:
        compare = self.mode.value == "compare"
        self.compare_box.layout.display = None if compare else "none"
        self.sweep_box.layout.display = None if not compare else "none"
        for i, row in enumerate(self._config_rows):
            row.layout.display = None if i < self.n_configs.value else "none"
            spec = MASKING_METHODS.get(self.methods[i].value)
            if spec is None or spec.parameter is None:
                self.parameters[i].disabled = True
                self.parameter_help[i].value = "<small>no parameter</small>"
            else:
                self.parameters[i].disabled = False
                self.parameter_help[i].value = (
                    f"<small>{escape(spec.parameter.replace('_', ' '))}: {escape(spec.parameter_doc)} "
                    f"[{escape(format_value(spec.minimum))}, {escape(format_value(spec.maximum))}]</small>")
        self.beta.disabled = self.risk_view.value != ALL
        self.pi.disabled = self.loss_view.value != ALL

    def _refresh(self, *, force: bool = False, in_task: bool = False) -> None:
        """Recompute for the current controls: at once when cheap, else behind "Compute" in the background.

        ``force`` (the Compute button) starts the background computation of slow work; ``in_task``: called
        from a background result that came too late for the current settings.
        """
        self.task.supersede()             # a background result for other settings is dropped when it arrives
        s = self._settings()              # raises on bad input: nothing below runs, the last view stays
        work = self.work = self._work(s)
        self.estimate = THROUGHPUT.estimate(work)
        if work * REFERENCE_SECONDS_PER_UNIT <= self.background_seconds:   # decided on the work, not the load
            result = self._compute(s, work=work)
            with self.task.lock:
                self._show(result)
            return
        n = s["X"].shape[0]
        if self.task.running and not in_task:
            self.stale.mark(self._views(), "the curves shown were computed for other settings")
            self.status.info("Computing for the previous settings; the current ones are applied when it ends "
                             "(Cancel stops it; the plots show the last curves).")
            return
        if not force:
            self.stale.mark(self._views(), f"the curves shown were computed for other settings; "
                                           f"{THROUGHPUT.describe(work)} here")
            self.status.info(f"{n:,} records: press Compute to update the curves ({THROUGHPUT.describe(work)} "
                             f"here; it can be cancelled). The plots show the last curves.")
            return
        # a result for settings changed meanwhile is dropped by the task, which then plans the current ones
        # (the caches it filled make that quicker)
        self.task.start(lambda progress: self._compute(s, progress, work), self._show,
                        on_superseded=lambda: self._refresh(in_task=True),
                        message=f"Computing the curves on {n:,} records ({THROUGHPUT.describe(work)})... "
                                f"(Cancel stops it; the plots show the last curves until then)",
                        disable=(self.compute_button,))

    def wait(self, timeout: float | None = None) -> None:
        """Block until a background computation (if any) has ended (notebooks, tests)."""
        self.task.wait(timeout)

    @property
    def running(self) -> bool:
        """Whether curves are being computed in the background."""
        return self.task.running

    # -------------------------------------------------------------------------------------- callbacks
    @guarded
    def _on_change(self, change: dict | None = None) -> None:
        if self._computing:                # a batch of programmatic changes: refreshed once at the end
            return
        self._sync_visibility()
        if change is not None and change.get("owner") in self.methods:
            i = self.methods.index(change["owner"])
            spec = MASKING_METHODS.get(change["new"])
            if spec is not None and spec.parameter is not None:
                current = self.parameters[i].value
                if spec.minimum is not None and not (spec.minimum <= current <= (spec.maximum or math.inf)):
                    self.parameters[i].value = float(spec.default)
                    return                 # that change refreshes
        self._refresh()

    @guarded
    def _on_compute(self) -> None:
        self._sync_visibility()
        self._refresh(force=True)

    @guarded
    def _on_source(self, change: dict | None = None) -> None:
        source = self.source.value
        self._computing = True
        try:
            for i, dropdown in enumerate(self.methods):
                current = dropdown.value
                options = _method_options(source)
                dropdown.options = options
                names = [v for _, v in options]
                dropdown.value = current if current in names else DEFAULTS[i][0]
            self.convention.value = "rank" if source == "shared" else "position"
            if source != "shared":
                self.methods[0].value = PUBLISHED
            usable = self._reload()
        finally:
            self._computing = False
        self._sync_visibility()
        if usable:
            self._refresh_data()

    @guarded
    def _on_data_setting(self, change: dict | None = None) -> None:
        if self._computing:
            return
        self._computing = True
        try:
            usable = self._reload()
        finally:
            self._computing = False
        if usable:
            self._refresh_data()

    @guarded
    def _on_dataset(self, change: dict | None = None) -> None:
        if self.source.value != "shared":
            return
        self._computing = True
        try:
            usable = self._reload()
        finally:
            self._computing = False
        self._sync_visibility()
        if usable:
            self._refresh_data()

    def _refresh_data(self) -> None:
        """Refresh after new data; an error (the core refusing them) greys the old curves and says why."""
        try:
            self._refresh()
        except ExplorerError as error:     # the data are kept: the next valid change computes on them
            self.stale.mark(self._views(), f"they show the previous data; {error}")
            self.status.error(f"The curves shown are of the previous data: {error}.")

    @guarded
    def _on_export(self) -> None:
        if not self.risk_curves:
            raise InvalidParameterError("nothing to export yet")
        table = dom.curves_table(self.risk_curves + self.loss_curves, self.risk_verdicts + self.loss_verdicts)
        self.csv_text = csv_safe(table)
        self.download_link.value = csv_download_link(self.csv_text, "dominance-curves.csv",
                                                     f"download CSV ({len(table)} rows)")
        self.status.info(f"Curves and verdicts exported: {len(table)} rows.")

    # ---------------------------------------------------------------------------------- configuration
    _CONTROLS = ("source", "max_records", "seed", "convention", "mode", "n_configs", "sweep_method", "sweep_values",
                 "alpha_min", "risk_view", "beta", "theta_max", "loss_view", "pi", "normalize", "alpha1", "theta2",
                 "risk_target")

    def config(self) -> dict[str, Any]:
        """The panel's controls as a JSON-serialisable dict."""
        config = {name: getattr(self, name).value for name in self._CONTROLS}
        config["methods"] = [d.value for d in self.methods]
        config["parameters"] = [float(t.value) for t in self.parameters]
        return config

    def apply_config(self, config: dict[str, Any]) -> None:
        """Set the controls from :meth:`config`'s dict (unknown keys are refused)."""
        if not isinstance(config, dict):
            raise ConfigurationError("the Dominance configuration must be a JSON object")
        unknown = set(config) - set(self._CONTROLS) - {"methods", "parameters"}
        if unknown:
            raise ConfigurationError(f"unknown Dominance settings: {sorted(unknown)}")
        try:
            if "source" in config:
                self.source.value = config["source"]
            self._computing = True         # one refresh at the end, not one per control
            for name in self._CONTROLS:
                if name in config and name not in ("source", "risk_view", "loss_view"):
                    getattr(self, name).value = config[name]
            for dropdown, value in zip(self.methods, config.get("methods", [])):
                dropdown.value = value
            for text, value in zip(self.parameters, config.get("parameters", [])):
                text.value = float(value)
            self._reload()                 # records used and seed may have changed (unusable: greyed, in words)
            for name in ("risk_view", "loss_view"):
                if name in config:
                    getattr(self, name).value = config[name]
        except (traitlets.TraitError, ValueError, TypeError) as error:
            raise ConfigurationError(f"Dominance configuration could not be applied: {error}") from None
        finally:
            self._computing = False
        self._on_change()
