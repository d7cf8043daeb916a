"""The "Dominance" tab: power-mean disclosure risk and information loss curves, verdicts, calibration.

Wiring only: the data a comparison reads are :func:`explorer.core.dominance.comparison.numeric_records`
(or, for a paper's running example, its original columns and the printed masked Y of
:meth:`~explorer.state.AppState.masked_version`), the comparison (masking, displacements, curves, verdicts,
calibration) is :func:`~explorer.core.dominance.comparison.compare_maskings` and its work, in the units of
:mod:`explorer.core.cost`, :func:`~explorer.core.dominance.comparison.comparison_work`; the plots are
:mod:`explorer.plotting.dominance`.  The core's memo (:class:`ComparisonCache`, one per data set) keeps
displacements and curves, so moving beta, pi, alpha_1, theta_2 or switching attributes only redraws.

Work that needs Compute (:meth:`~explorer.panels.base.Panel.needs_compute`, the one rule of every tab: full UCI
Adult, aggregated views, MDAV, wide rank swapping) waits for the "Compute" button and then runs in the panel's
background task, with a progress bar and Cancel; meanwhile the last curves stay on screen, greyed ("out of
date: press Compute").  So do they, with the reason in words, when the data set changes to one the tab cannot
use.  The data are the shared state's (``state.dataset``, chosen in the Data tab): the tab has no data
source of its own and no epsilon.  With a paper's running example (:data:`~explorer.core.datasets.RUIZ_EXAMPLE`,
:data:`~explorer.core.datasets.DM_EXAMPLE`) the first configuration is the paper's printed masked version
("As published"); when the data set has fewer than 2 complete numeric records, the tab says so and offers a
button that makes the Ruiz (2018) example the shared data set.
"""

from __future__ import annotations

import time
from typing import Any, Sequence

import ipywidgets as widgets
import numpy as np
import pandas as pd
import traitlets

from explorer._validation import check_int, check_number
from explorer.core.datasets import DM_EXAMPLE, RUIZ_EXAMPLE
from explorer.core.cost import REFERENCE_SECONDS_PER_UNIT
from explorer.core.dominance import alpha_grid, attribute_pairs, curves_table, sample_records, theta_grid
from explorer.core.dominance.comparison import (
    PUBLISHED,
    ComparisonCache,
    MaskingConfig,
    comparison_work,
    compare_maskings,
    config_label,
    numeric_records,
)
from explorer.core.export import csv_safe
from explorer.core.masking import MASKING_METHODS
from explorer.errors import ConfigurationError, DatasetError, ExplorerError, InvalidParameterError
from explorer.panels._format import format_value
from explorer.panels.a11y import section_heading
from explorer.panels.access import valuetext
from explorer.panels.base import Panel, on_change
from explorer.panels.downloads import csv_download_link
from explorer.panels.figures import make_figure
from explorer.panels.snippets import dataset_load_code
from explorer.panels.status import escape, guarded
from explorer.panels.tasks import Throughput
from explorer.plotting.dominance import FigureRedraw, plot_calibration, plot_curves
from explorer.references import cite
from explorer.state import LEGACY_TAB_KEYS, AppState, shorten

__all__ = ["DominancePanel", "PUBLISHED", "THROUGHPUT"]

RUIZ = cite("permutation-paradigm")
#: The data set the tab offers to switch to when the shared one lacks what it needs (and a notebook's default).
FALLBACK_DATASET = RUIZ_EXAMPLE
#: The papers' running examples: their loader's name in the code of a view, and what the code says they are.
EXAMPLES = {RUIZ_EXAMPLE: ("ruiz_example", f"{RUIZ}, Table 1"),
            DM_EXAMPLE: ("domingo_muralidhar_example", f"{cite('new-directions')}, Table 1")}
CONVENTIONS = [("rank: rank(y) − rank(x)", "rank"), (f"record position ({RUIZ}'s rⱼ)", "position")]
ALL = "__all__"
N_GRID = 121
MAX_CONFIGS = 4
DEFAULTS = [("additive_noise", 0.5), ("rank_swapping", 0.1), ("univariate_microaggregation", 5.0),
            ("data_shuffling", 0.9)]
#: Seconds per work unit of :func:`~explorer.core.dominance.comparison.comparison_work`, measured on the
#: comparisons this kernel runs (the reference rate until the first one of at least 0.05 s); it only says how
#: long work takes here, on the status line (what waits for Compute is decided on the work alone).
THROUGHPUT = Throughput(REFERENCE_SECONDS_PER_UNIT)
#: The three figures (key -> title), top to bottom.
FIGURES = {"risk": "Disclosure risk D(α) of each configuration",
           "loss": "Information loss I(θ) of each configuration",
           "calibration": "Calibration: each configuration's protection D(α₁, β) and information loss I(θ₂, π)"}


def _method_options(printed: bool) -> list[tuple[str, str]]:
    """The masking choices of a configuration row; ``printed``: the data set has a printed masked version."""
    options = [(m.label, m.name) for m in MASKING_METHODS.values()]
    if printed:
        options.insert(0, ("As published (the paper's Y)", PUBLISHED))
    return options


def _view_options(columns: Sequence[str]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The choices of the risk view (an attribute, or all) and of the loss view (a pair, or all) for ``columns``."""
    risk = [(c, str(j)) for j, c in enumerate(columns)] + [("All attributes: D(α, β)", ALL)]
    loss = [(f"{columns[j]} & {columns[k]}", f"{j},{k}") for j, k in attribute_pairs(len(columns))]
    loss = loss + [("All pairs: I(θ, π)", ALL)] if loss else [("(needs two attributes)", "")]
    return risk, loss


def _plain(value: Any) -> Any:
    """A value as a Python literal writes it (numpy numbers as Python numbers, tuples of them too)."""
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    return value.item() if isinstance(value, np.generic) else value


class _Together(traitlets.HasTraits):
    """Several controls as one configuration entry: its value is the tuple of theirs (set: each of them)."""

    def __init__(self, members: Sequence[widgets.ValueWidget]) -> None:
        super().__init__()
        self.members = list(members)

    @property
    def value(self) -> tuple:
        return tuple(member.value for member in self.members)

    @value.setter
    def value(self, values: Sequence[Any]) -> None:
        for member, value in zip(self.members, values):
            member.value = value


class DominancePanel(Panel):
    """Risk curves D(α), loss curves I(θ), dominance verdicts (Ruiz (2018)) and the calibration view
    (Domingo-Ferrer and Soria-Comas (2018), Section VI-B).

    The data are the state's data set (the Data tab's choice): with a paper's running example, its original
    columns and the printed masked version (the first configuration, "As published"); otherwise its numeric
    columns (a seeded sample of at most ``max_records``).  Its configuration is that of its declared controls
    (``max_records``, ``seed``, ``convention``, ``mode``, ``n_configs``, ``methods`` and ``parameters`` (one per
    configuration row), ``sweep_method``, ``sweep_values``, the views and exponents); the data set is the
    state's, written once at the top of the app's configuration.  Three figures: ``risk``, ``loss`` and ``calibration``, each with
    its text and data table read from the comparison drawn.  A move of β, π, α₁ or θ₂ redraws only the
    figures whose data changed, by blitting their moving artists when nothing else in the figure changed
    (:class:`FigureRedraw`).

    Parameters
    ----------
    state : AppState, optional
        The shared state.  Without one, the panel makes its own and opens on the Ruiz (2018) example.
    source : str, optional
        A data set's name (:meth:`~explorer.state.AppState.dataset_names`, or an older name such as ``"ruiz"``
        or ``"dm"``), made the state's data set first; ``"shared"`` (or None) keeps the state's.  For notebooks
        written for earlier releases, where the tab had a data source of its own.
    max_records : int
        The records used of a data set without a printed masked version (0: all).
    seed : int
        The seed of the sample and of the maskings.
    """

    #: The paper its exported figures' captions cite (explorer.references).
    paper = "permutation-paradigm"

    def __init__(self, state: AppState | None = None, *, source: str | None = None, max_records: int = 5000,
                 seed: int = 0):
        own_state = state is None
        super().__init__(state)
        if source not in (None, "shared"):
            self.state.select_dataset(source)        # refused in words (DatasetError) when it is no data set
        elif own_state and self.state.dataset is None:
            self.state.select_dataset(FALLBACK_DATASET)
        self.estimate = 0.0                # seconds the last change was estimated to need (at THROUGHPUT's rate)
        self.work = 0.0                    # its work units (explorer.core.cost)
        self._data_error: str | None = None   # why the chosen data cannot be used (None: they can)
        self._cache = ComparisonCache()    # displacements, tallies and curves of the current data (core's memo)
        self._X: np.ndarray | None = None
        self._columns: list[str] = []
        self._published: np.ndarray | None = None
        self._origin: dict[str, Any] = {}  # where the data come from (for code())
        self._n_total = 0
        self.result: dict[str, Any] | None = None   # what the figures show: the comparison and its settings
        self.risk_verdicts: list[str] = []
        self.loss_verdicts: list[str] = []
        self.risk_curves: list = []
        self.loss_curves: list = []
        self.points: list = []
        self.best = None
        self.csv_text = ""

        style = {"description_width": "initial"}
        printed = self.state.masked_version() is not None
        self.data_name = widgets.HTML()
        self.data_name.add_class("explorer-dominance-data-name")
        self.switch_button = widgets.Button(description=f"Use the {FALLBACK_DATASET}", icon="exchange",
                                            tooltip="make it the data set of every tab (the Data tab's choice)",
                                            layout=widgets.Layout(width="auto", display="none"))
        self.switch_button.add_class("explorer-dominance-switch")
        self.max_records = self.control("max_records", widgets.IntText(
            value=max_records, description="Records used (0 = all)", style=style, layout=widgets.Layout(width="220px")))
        self.max_records.add_class("explorer-dominance-max-records")
        self.seed = self.control("seed", widgets.IntText(value=seed, description="Seed", style=style,
                                                         layout=widgets.Layout(width="140px")))
        self.convention = self.control("convention", widgets.Dropdown(
            options=CONVENTIONS, value="position" if printed else "rank",
            description="Displacement", style=style, layout=widgets.Layout(width="330px")))
        self.mode = self.control("mode", widgets.ToggleButtons(
            options=[("Compare configurations", "compare"), ("Sweep one method", "sweep")], value="compare",
            style={"button_width": "auto"}))
        self.mode._explorer_name = "Mode"                # its accessible name (explorer.panels.access)
        self.n_configs = self.control("n_configs", widgets.Dropdown(
            options=[2, 3, 4], value=2, description="Configurations", style=style, layout=widgets.Layout(width="180px")))
        self.methods: list[widgets.Dropdown] = []
        self.parameters: list[widgets.FloatText] = []
        self.parameter_help: list[widgets.HTML] = []
        for i, (method, parameter) in enumerate(DEFAULTS):
            dropdown = widgets.Dropdown(options=_method_options(printed), description=f"{i + 1}.",
                                        value=PUBLISHED if i == 0 and printed else method,
                                        style=style, layout=widgets.Layout(width="330px"))
            dropdown.add_class(f"explorer-dominance-method-{i + 1}")
            text = widgets.FloatText(value=parameter, description="parameter", style=style,
                                     layout=widgets.Layout(width="180px"))
            text.add_class(f"explorer-dominance-parameter-{i + 1}")
            self.methods.append(dropdown)
            self.parameters.append(text)
            self.parameter_help.append(widgets.HTML(layout=widgets.Layout(width="420px")))
        # One entry each in the configuration, a list over the rows (their choices follow the data set: check_config)
        self.control("methods", _Together(self.methods))
        self.control("parameters", _Together(self.parameters))
        self.sweep_method = self.control("sweep_method", widgets.Dropdown(
            options=_method_options(False), value="additive_noise", description="Method", style=style,
            layout=widgets.Layout(width="330px")))
        self.sweep_values = self.control("sweep_values", widgets.Text(
            value="0.05, 0.1, 0.25, 0.5, 1, 2", description="Parameter values", style=style,
            layout=widgets.Layout(width="420px")))
        self.alpha_min = self.control("alpha_min", widgets.FloatSlider(
            value=-10.0, min=-50.0, max=0.0, step=0.5, description="α from", style=style, continuous_update=False))
        self.risk_view = self.control("risk_view", widgets.Dropdown(
            description="Attribute", style=style, layout=widgets.Layout(width="300px")))
        self.beta = self.control("beta", widgets.FloatSlider(
            value=1.0, min=-10.0, max=1.0, step=0.25, description="β", style=style, continuous_update=False))
        self.theta_max = self.control("theta_max", widgets.FloatSlider(
            value=10.0, min=1.5, max=50.0, step=0.5, description="θ up to", style=style, continuous_update=False))
        self.loss_view = self.control("loss_view", widgets.Dropdown(
            description="Pair", style=style, layout=widgets.Layout(width="300px")))
        self.pi = self.control("pi", widgets.FloatSlider(
            value=1.0, min=1.0, max=20.0, step=0.5, description="π", style=style, continuous_update=False))
        self.normalize = self.control("normalize", widgets.Checkbox(
            value=False, description="Normalised (0–1) scales", indent=False))
        self.alpha1 = self.control("alpha1", widgets.FloatSlider(
            value=0.0, min=-10.0, max=0.95, step=0.05, description="α₁", style=style, continuous_update=False))
        self.theta2 = self.control("theta2", widgets.FloatSlider(
            value=2.0, min=1.05, max=20.0, step=0.05, description="θ₂", style=style, continuous_update=False))
        # the sliders' values in words (aria-valuetext; ipywidgets issue 2650: explorer.panels.access)
        valuetext(self.alpha_min, lambda a: f"risk curve D(α) for α from {a:g} to 1")
        valuetext(self.beta, lambda b: f"β = {b:g}, the order over the records")
        valuetext(self.theta_max, lambda t: f"loss curve I(θ) for θ from 1 up to {t:g}")
        valuetext(self.pi, lambda p: f"π = {p:g}, the order over the records")
        valuetext(self.alpha1, lambda a: f"α₁ = {a:.2f}, the risk order of the calibration")
        valuetext(self.theta2, lambda t: f"θ₂ = {t:.2f}, the loss order of the calibration")
        self.risk_target = self.control("risk_target", widgets.FloatText(
            value=0.0, description="Risk target: D(α₁, β) ≥", style=style, layout=widgets.Layout(width="260px")))

        self.export_button = widgets.Button(description="Export curves (CSV)", icon="download",
                                            layout=widgets.Layout(width="auto"))
        self.compute_button = widgets.Button(description="Compute", icon="play", button_style="primary",
                                             tooltip="Compute the curves for the current settings (large data)")
        self.compute_button.add_class("explorer-dominance-compute")
        self.background(description="computing", name="dominance-curves").widget.add_class("explorer-dominance-task")
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
        self.risk_artists = self.loss_artists = self.calibration_artists = None
        self.risk_redraw = FigureRedraw(self.risk_figure)
        self.loss_redraw = FigureRedraw(self.loss_figure)
        self.calibration_redraw = FigureRedraw(self.calibration_figure)
        for key, figure, canvas in (("risk", self.risk_figure, self.risk_canvas),
                                    ("loss", self.loss_figure, self.loss_canvas),
                                    ("calibration", self.calibration_figure, self.calibration_canvas)):
            self.add_figure(key, FIGURES[key], figure, canvas=canvas, describe=lambda key=key: self._describe(key),
                            table=lambda key=key: self._table(key))

        self._config_rows = [widgets.HBox([self.methods[i], self.parameters[i], self.parameter_help[i]])
                             for i in range(MAX_CONFIGS)]
        self.compare_box = widgets.VBox([self.n_configs] + self._config_rows)
        self.sweep_box = widgets.VBox([widgets.HBox([self.sweep_method, self.sweep_values])])
        for box, name in ((self.mode, "mode"), (self.compare_box, "compare"), (self.sweep_box, "sweep")):
            box.add_class(f"explorer-dominance-{name}")
        intro = widgets.HTML(
            f"<b>Dominance</b> ({escape(RUIZ)}; {escape(cite('rr-dp', 'Section VI-B'))}). Mask the data with "
            "two to four configurations; each attribute's permutation gives rank displacements r<sub>j</sub>. "
            "<i>D<sub>j</sub>(α)</i> (α ≤ 1) is their power mean: the higher, the further records moved, the "
            "lower the disclosure risk; the more negative α, the more the least-moved records count. "
            "<i>I<sub>k</sub>(θ)</i> (θ ≥ 1) is the power mean of |r<sub>j</sub> − r<sub>j′</sub>| for a pair "
            "of attributes: the higher, the more their relation was altered. A configuration <i>dominates</i> "
            "when it is better for every aversion.")

        def heading(text: str) -> widgets.HTML:
            return widgets.HTML(section_heading(text, margin="6px 0 0"))

        self.announce(self.risk_verdict, self.loss_verdict, self.calibration_text)   # readouts: aria-live regions (explorer.panels.access)

        self.widget = widgets.VBox([
            intro, widgets.HBox([self.data_name, self.switch_button],
                                layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
            widgets.HBox([self.max_records, self.seed, self.convention]),
            self.mode, self.compare_box, self.sweep_box,
            widgets.HBox([self.normalize, self.export_button, self.download_link]),
            widgets.HBox([self.compute_button, self.task.widget]),
            self.status.widget, self.stale.widget,
            heading("Disclosure risk D(α)"), widgets.HBox([self.risk_view, self.alpha_min, self.beta]),
            self.risk_canvas, self.risk_verdict,
            heading("Information loss I(θ)"), widgets.HBox([self.loss_view, self.theta_max, self.pi]),
            self.loss_canvas, self.loss_verdict,
            heading(f"Calibration ({escape(cite('rr-dp', 'Section VI-B'))})"),
            widgets.HBox([self.alpha1, self.theta2, self.risk_target]),
            self.calibration_canvas, self.calibration_text,
        ])
        self.widget.add_class("explorer-dominance")

        if self._reload():
            self._sync_visibility()
            self._refresh()

        self.switch_button.on_click(lambda _: self._on_switch())
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
    def _read(self) -> tuple[np.ndarray, list[str], np.ndarray | None]:
        """The state's data set as the comparison reads it: ``(X, columns, published)``.

        With a printed masked version (a paper's running example): the original columns and the printed Y
        (:meth:`~explorer.state.AppState.masked_version`); otherwise the complete records of its numeric
        columns and None.  Raises :class:`DatasetError` in words when there is nothing the tab can use.
        """
        frame, name = self.state.dataset, self.state.dataset_name or "data"
        if frame is None:
            raise DatasetError("there is no data set yet")
        printed = self.state.masked_version()
        if printed is not None:
            columns = [str(c) for c in printed.columns]
            return frame[columns].to_numpy(dtype=float), columns, printed.to_numpy(dtype=float)
        X, columns = numeric_records(frame, name=f"the data set {name!r}")
        return X, columns, None

    def _load_data(self) -> None:
        """Read the state's data set (numeric attributes), sample it, and reset the caches."""
        X, columns, published = self._read()
        limit = check_int(self.max_records.value, "records used", minimum=0)
        if limit == 1:
            raise InvalidParameterError("records used must be 0 (all) or at least 2, got 1")
        self._n_total = X.shape[0]
        if published is None:
            X = sample_records(X, limit or None, self.seed.value)
        self._X, self._columns, self._published = X, columns, published
        self._origin = {"printed": published is not None, "limit": limit, "seed": int(self.seed.value),
                        "dataset": self.state.dataset_name}
        self._cache = ComparisonCache()    # a running background computation keeps the old one
        self._set_view_options()

    def _show_data_name(self) -> None:
        """Which data set the tab reads (the Data tab's choice), and whether it brings its printed masked version."""
        name = self.state.dataset_name or "none yet"
        printed = self.state.masked_version() is not None
        self.data_name.value = (f"<small>Data set (chosen in the Data tab): <b>{escape(name)}</b>"
                                + (", with its printed masked version" if printed else "") + "</small>")

    def _reload(self) -> bool:
        """Read the state's data set; when it cannot be used, grey the curves, say why, and return False.

        The curves of the previous data stay on screen for comparison, marked out of date (the one rule of
        every tab), and nothing computes until usable data are chosen.
        """
        self.task.supersede()              # other data: a background result for the old ones is moot
        self._show_data_name()
        try:
            self._load_data()
        except ExplorerError as error:
            self._data_unusable(str(error))
            return False
        self._data_error = None
        self.switch_button.layout.display = "none"
        return True

    def _data_unusable(self, words: str) -> None:
        """The data set cannot be used: the curves shown (of other data) are marked out of date, with why; a
        data set without 2 complete numeric records gets the offer of the Ruiz (2018) example."""
        self._data_error = words
        self._X, self._cache = None, ComparisonCache()
        lacking = isinstance(self._read_error(), DatasetError)
        self.switch_button.layout.display = None if lacking else "none"
        offer = f" Choose another data set in the Data tab, or use the {FALLBACK_DATASET} (button above)." \
            if lacking else ""
        self.stale.mark(self._views(), f"they show the previous data; {words}",
                        button=(f"'Use the {FALLBACK_DATASET}', or choose another data set in the Data tab"
                                if lacking else "Compute after choosing usable data"))
        if self.state.dataset is None:
            self.status.error(f"There is no data set yet: choose one in the Data tab, or use the {FALLBACK_DATASET} "
                              "(button above).")
            return
        self.status.error(f"These data cannot be used here: {words}. The curves shown are of the previous data."
                          + offer)

    def _read_error(self) -> ExplorerError | None:
        """What the data set itself lacks (None: it has 2 complete numeric records; a setting may still be bad)."""
        try:
            self._read()
        except ExplorerError as error:
            return error
        return None

    def _set_view_options(self) -> None:
        for control, options in zip((self.risk_view, self.loss_view), _view_options(self._columns)):
            keep = control.value
            control.options = options
            values = [v for _, v in options]
            control.value = keep if keep in values else values[0]

    # ------------------------------------------------------------------------------- configuration
    def check_config(self, config: Any) -> dict[str, Any]:
        """The generic check, and the entries whose choices follow the state's data set: ``methods`` (a data set
        with a printed masked version offers "As published") and ``risk_view`` and ``loss_view`` (its
        attributes).  The data set is the state's: a configuration of this tab never names one (the ``source``
        entry of an earlier release is dropped, as :data:`~explorer.state.LEGACY_TAB_KEYS` says)."""
        if not isinstance(config, dict):
            return super().check_config(config)
        config = {k: v for k, v in config.items() if k not in LEGACY_TAB_KEYS["Dominance"]}   # the state's now
        dependent = ("methods", "risk_view", "loss_view")
        checked = super().check_config({k: v for k, v in config.items() if k not in dependent})
        printed = self.state.masked_version() is not None
        if "methods" in config:
            allowed = [v for _, v in _method_options(printed)]
            methods = config["methods"]
            if not isinstance(methods, list) or len(methods) != MAX_CONFIGS:
                raise ConfigurationError(f"methods must be a list of {MAX_CONFIGS} methods, got {shorten(methods)}")
            for method in methods:
                if method == PUBLISHED and not printed:
                    raise ConfigurationError(
                        f"methods: 'As published' (got {shorten(method)}) needs a data set with a printed masked "
                        f"version, a paper's running example chosen in the Data tab; the data set "
                        f"{self.state.dataset_name or 'none'!r} has none")
                if method not in allowed:
                    raise ConfigurationError(f"methods must list methods among {shorten(allowed, 200)}, "
                                             f"got {shorten(method)}")
            checked["methods"] = tuple(methods)
        if "risk_view" in config or "loss_view" in config:
            try:
                columns = self._read()[1]
            except ExplorerError:          # unusable data: the views cannot be chosen (the panel says why)
                columns = None
            for key, options in zip(("risk_view", "loss_view"), _view_options(columns or [])):
                if key in config and columns is not None:
                    allowed = [v for _, v in options]
                    if config[key] not in allowed:
                        raise ConfigurationError(f"{key} must be one of {shorten(allowed, 200)}, "
                                                 f"got {shorten(config[key])}")
                    checked[key] = config[key]
        return {key: checked[key] for key in self.controls if key in checked}   # set in declaration order

    @guarded
    def refresh(self) -> None:
        """Read the data again (data set, records used, seed may have changed) and recompute the view once."""
        with self.busy():                  # the views' new choices: recomputed once below
            usable = self._reload()
        self._sync_visibility()
        if usable:
            self._refresh()

    # --------------------------------------------------------------------------------- configurations
    def _configurations(self) -> list[MaskingConfig]:
        """(method, parameter, label) of each active configuration, validated."""
        if self.mode.value == "sweep":
            method = self.sweep_method.value
            spec = MASKING_METHODS.get(method)
            if spec is None or spec.parameter is None:
                raise InvalidParameterError(f"sweep method must have a parameter, got {method!r}")
            values = [spec.check_parameter(v) for v in self._sweep_values()]
            return [MaskingConfig(method, v, config_label(method, v)) for v in values]
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
        return sorted(check_number(p, "sweep value") for p in parts)

    def _settings(self) -> dict[str, Any]:
        """The controls, validated, as plain values: what a computation reads (never the widgets themselves)."""
        if self._X is None:
            raise DatasetError(f"these data cannot be used here: {self._data_error or 'none chosen'}")
        return {
            "configs": self._configurations(),
            "alphas": alpha_grid(check_number(self.alpha_min.value, "α from", maximum=0.0), N_GRID,
                                 include_minus_inf=True),
            "thetas": theta_grid(check_number(self.theta_max.value, "θ up to", minimum=1.0, include_minimum=False),
                                 N_GRID, include_inf=True),
            "alpha_min": float(self.alpha_min.value), "theta_max": float(self.theta_max.value),
            "beta": check_number(self.beta.value, "β", maximum=1.0, allow_inf=True),
            "pi": check_number(self.pi.value, "π", minimum=1.0, allow_inf=True),
            "alpha1": check_number(self.alpha1.value, "α₁", maximum=1.0, include_maximum=False),
            "theta2": check_number(self.theta2.value, "θ₂", minimum=1.0, include_minimum=False),
            "target": check_number(self.risk_target.value, "risk target", minimum=0.0),
            "risk_view": self.risk_view.value, "loss_view": self.loss_view.value,
            "normalize": bool(self.normalize.value), "mode": self.mode.value, "seed": self.seed.value,
            "convention": self.convention.value, "X": self._X, "origin": dict(self._origin),
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

    def _compute(self, s: dict[str, Any], progress=None, work: float = 0.0) -> dict[str, Any]:
        """The comparison for the settings ``s`` (:func:`compare_maskings`); timed, to learn :data:`THROUGHPUT`'s
        rate from ``work`` units."""
        started = time.perf_counter()
        comparison = compare_maskings(s["X"], s["configs"], progress=progress, **self._arguments(s))
        THROUGHPUT.observe(work, time.perf_counter() - started)
        return {"comparison": comparison, "settings": s}

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

    @staticmethod
    def _titles(s: dict[str, Any]) -> dict[str, str]:
        """The titles of the three figures for the settings ``s``."""
        columns, scale = s["columns"], " (normalised)" if s["normalize"] else ""
        risk = (f"all attributes, D(α, β = {format_value(s['beta'])})" if s["risk_view"] == ALL
                else f"attribute {columns[int(s['risk_view'])]}")
        if s["loss_view"] == ALL:
            loss = f"all pairs, I(θ, π = {format_value(s['pi'])})"
        elif s["loss_view"]:
            j, k = (int(v) for v in s["loss_view"].split(","))
            loss = f"pair {columns[j]} & {columns[k]}"
        else:
            loss = ""
        # the displacement convention, on the figure (the same words as the permutation tab's axis)
        reading = ("r = rank(y) − rank(x)" if s.get("convention", "rank") == "rank"
                   else "r = record position moved (Ruiz)")
        return {"risk": f"D(α): {risk}{scale}, {reading}", "loss": f"I(θ): {loss}{scale}",
                "calibration": f"Calibration at α₁ = {format_value(s['alpha1'])}, θ₂ = {format_value(s['theta2'])}"}

    @staticmethod
    def _crossings(results: Sequence) -> list[float]:
        """The crossings marked on the first curve: those of the first compared pair."""
        return [c for _, _, r in results[:1] for c in r.crossings]

    def _draw(self, result: dict[str, Any]) -> None:
        """Update each figure whose data changed; blit when only its moving artists changed (see FigureRedraw)."""
        comparison, s = result["comparison"], result["settings"]   # the settings the result was computed for
        titles = self._titles(s)
        labels = [c.label for c in comparison.risk_curves]
        risk, loss = list(comparison.risk_curves), list(comparison.loss_curves)
        crossings = self._crossings(comparison.risk_results)
        key = self._curves_key(risk, titles["risk"], crossings)
        if not self.risk_redraw.unchanged(key):
            self.risk_artists = self._draw_curves(self.risk_ax, self.risk_artists, risk, labels, titles["risk"],
                                                  crossings)
            self.risk_redraw.show(key, self.risk_artists.moving(), self.risk_artists.static_key())
        if loss:
            crossings = self._crossings(comparison.loss_results)
            key = self._curves_key(loss, titles["loss"], crossings)
            if not self.loss_redraw.unchanged(key):
                self.loss_artists = self._draw_curves(self.loss_ax, self.loss_artists, loss, labels, titles["loss"],
                                                      crossings)
                self.loss_redraw.show(key, self.loss_artists.moving(), self.loss_artists.static_key())
        elif not self.loss_redraw.unchanged("no pairs"):
            self.loss_ax.clear()
            self.loss_artists = None
            self.loss_ax.text(0.5, 0.5, "Information loss needs at least two attributes", ha="center",
                              transform=self.loss_ax.transAxes)
            self.loss_redraw.show("no pairs", [], ("no pairs",))
        points = list(comparison.points)
        path = points if s["mode"] == "sweep" else []
        target = comparison.risk_target if comparison.risk_target > 0 else None
        key = (titles["calibration"], tuple(points), tuple(path), target, comparison.best)
        if not self.calibration_redraw.unchanged(key):
            if self.calibration_artists is None:
                self.calibration_artists = plot_calibration(self.calibration_ax, points, path, target=target,
                                                            best=comparison.best)
            else:
                self.calibration_artists.update(points, path, target=target, best=comparison.best)
            self.calibration_ax.set_title(titles["calibration"], fontsize=10)
            self.calibration_redraw.show(key, self.calibration_artists.moving(),
                                         self.calibration_artists.static_key())

    def _views(self) -> list[widgets.DOMWidget]:
        """What a computation draws: greyed by :attr:`stale` while it shows other settings than the controls."""
        return [self.risk_canvas, self.risk_verdict, self.loss_canvas, self.loss_verdict, self.calibration_canvas,
                self.calibration_text]

    def _calibration_sentence(self) -> str:
        comparison = self.result["comparison"]
        best, target = comparison.best, format_value(comparison.risk_target)
        if best is None:
            return f"No configuration reaches D(α₁, β) ≥ {target}: strengthen the masking or lower the target."
        return (f"Least information loss with D(α₁, β) ≥ {target}: {best.label} "
                f"(D = {format_value(best.risk)}, I = {format_value(best.loss)}).")

    def _show(self, result: dict[str, Any]) -> None:
        self.stale.clear()
        comparison, s = result["comparison"], result["settings"]
        self.result = result
        self.risk_curves, self.loss_curves = list(comparison.risk_curves), list(comparison.loss_curves)
        self.points, self.best = list(comparison.points), comparison.best
        self.risk_verdicts = comparison.risk_sentences(number=format_value)
        self.loss_verdicts = comparison.loss_sentences(number=format_value)
        self.risk_verdict.value = "<br>".join(escape(s) for s in self.risk_verdicts)
        self.loss_verdict.value = "<br>".join(escape(s) for s in self.loss_verdicts)
        self.calibration_text.value = escape(self._calibration_sentence())
        self._draw(result)
        n, n_total = s["X"].shape[0], s["n_total"]
        sampled = (f" (a seeded sample of {n:,} of {n_total:,} records)" if n < n_total else f" ({n:,} records)")
        self.status.info(f"{len(self.risk_curves)} configuration(s) on {len(s['columns'])} attribute(s){sampled}; "
                         f"displacements by {s['convention']}.")

    def _sync_visibility(self) -> None:
        compare = self.mode.value == "compare"
        self.compare_box.layout.display = None if compare else "none"
        self.sweep_box.layout.display = None if not compare else "none"
        for i, row in enumerate(self._config_rows):
            row.layout.display = None if i < self.n_configs.value else "none"
            spec = MASKING_METHODS.get(self.methods[i].value)
            self.parameters[i].disabled = spec is None or spec.parameter is None
            self.parameter_help[i].value = "<small>no parameter</small>" if self.parameters[i].disabled else (
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
        work = self.work = comparison_work(s["X"], s["configs"], **self._arguments(s))
        self.estimate = THROUGHPUT.estimate(work)
        if not self.needs_compute(work):  # decided on the work, not on this machine's load
            result = self._compute(s, work=work)
            with self.task.lock:
                self._show(result)
            return
        n, here = s["X"].shape[0], THROUGHPUT.describe(work)
        if self.task.running and not in_task:
            self.stale.mark(self._views(), "the curves shown were computed for other settings")
            self.status.info("Computing for the previous settings; the current ones are applied when it ends "
                             "(Cancel stops it; the plots show the last curves).")
            return
        if not force:
            self.stale.mark(self._views(), f"the curves shown were computed for other settings; {here} here")
            self.status.info(f"{n:,} records: press Compute to update the curves ({here} here; it can be "
                             f"cancelled). The plots show the last curves.")
            return
        # a result for settings changed meanwhile is dropped by the task, which then plans the current ones
        # (the caches it filled make that quicker)
        self.task.start(lambda progress: self._compute(s, progress, work), self._show,
                        on_superseded=lambda: self._refresh(in_task=True),
                        message=f"Computing the curves on {n:,} records ({here})... "
                                f"(Cancel stops it; the plots show the last curves until then)",
                        disable=(self.compute_button,))

    def _refresh_data(self) -> None:
        """Refresh after new data; an error (the core refusing them) greys the old curves and says why."""
        try:
            self._refresh()
        except ExplorerError as error:     # the data are kept: the next valid change computes on them
            self.stale.mark(self._views(), f"they show the previous data; {error}")
            self.status.error(f"The curves shown are of the previous data: {error}.")

    # -------------------------------------------------------------------------------------- callbacks
    @on_change
    def _on_change(self, change: dict | None = None) -> None:
        self._sync_visibility()
        if change is not None and change.get("owner") in self.methods:
            i = self.methods.index(change["owner"])
            spec = MASKING_METHODS.get(change["new"])
            if spec is not None and spec.parameter is not None:
                try:
                    spec.check_parameter(self.parameters[i].value)
                except ExplorerError:      # the new method's parameter out of its range: its default
                    with self.busy():
                        self.parameters[i].value = float(spec.default)
        self._refresh()

    @guarded
    def _on_compute(self) -> None:
        self._sync_visibility()
        self._refresh(force=True)

    @guarded
    def _on_switch(self) -> None:
        self.state.select_dataset(FALLBACK_DATASET)      # the shared data set: every tab follows

    @on_change
    def _on_data_setting(self, change: dict | None = None) -> None:
        with self.busy():
            usable = self._reload()
        if usable:
            self._refresh_data()

    @guarded
    def _on_dataset(self, change: dict | None = None) -> None:
        """A new data set: the choices follow it at once, also while a configuration is applied (its methods and
        views must then be among them; with a printed masked version the first configuration is "As published"
        and displacements go by record position, as in the papers).  The curves are recomputed unless the panel
        is busy (then at the end)."""
        printed = self.state.masked_version() is not None
        with self.busy():
            for i, dropdown in enumerate(self.methods):
                current, options = dropdown.value, _method_options(printed)
                dropdown.options = options
                dropdown.value = current if current in [v for _, v in options] else DEFAULTS[i][0]
            self.convention.value = "position" if printed else "rank"
            if printed:
                self.methods[0].value = PUBLISHED
            usable = self._reload()
        if self.is_busy:
            return
        self._sync_visibility()
        if usable:
            self._refresh_data()

    @guarded
    def _on_export(self) -> None:
        if not self.risk_curves:
            raise InvalidParameterError("nothing to export yet")
        table = curves_table(self.risk_curves + self.loss_curves, self.risk_verdicts + self.loss_verdicts)
        self.csv_text = csv_safe(table)
        self.download_link.value = csv_download_link(self.csv_text, "dominance-curves.csv",
                                                     f"download CSV ({len(table)} rows)")
        self.status.info(f"Curves and verdicts exported: {len(table)} rows.")

    # ------------------------------------------------------------------ the figures in words and numbers
    def _table(self, key: str) -> pd.DataFrame:
        """The numbers figure ``key`` draws: the curves (one column per configuration) or the calibration points."""
        if self.result is None:
            return pd.DataFrame()
        comparison = self.result["comparison"]
        if key == "calibration":
            return pd.DataFrame({
                "parameter": [p.parameter for p in comparison.points],
                "D(α₁, β)": [p.risk for p in comparison.points],
                "I(θ₂, π)": [p.loss for p in comparison.points],
                "least loss meeting the target": [p == comparison.best for p in comparison.points],
            }, index=pd.Index([p.label for p in comparison.points], name="configuration"))
        curves = comparison.risk_curves if key == "risk" else comparison.loss_curves
        symbol = "α" if key == "risk" else "θ"
        if not curves:
            return pd.DataFrame(index=pd.Index([], name=symbol, dtype=float))
        return pd.DataFrame({c.label: c.values for c in curves}, index=pd.Index(curves[0].grid, name=symbol))

    def _describe(self, key: str) -> str:
        """What figure ``key`` shows now, in words, from the comparison it draws (:meth:`_table`'s numbers)."""
        if self.result is None:
            return f"No curves yet: {self._data_error or 'nothing computed'}."
        comparison, s = self.result["comparison"], self.result["settings"]
        title, table = self._titles(s)[key], self._table(key)
        if key == "calibration":
            points = "; ".join(f"{label}: D = {format_value(row['D(α₁, β)'])}, I = {format_value(row['I(θ₂, π)'])}"
                               for label, row in table.iterrows())
            path = " joined in the order of the parameter" if s["mode"] == "sweep" else ""
            target = (f" The risk target is D(α₁, β) ≥ {format_value(comparison.risk_target)}."
                      if comparison.risk_target > 0 else "")
            return (f"Scatter plot, {title}: each configuration's protection D(α₁, β) across (log scale) and "
                    f"information loss I(θ₂, π) up, with β = {format_value(s['beta'])} and π = "
                    f"{format_value(s['pi'])}; {len(table)} point(s){path}. {points}.{target} "
                    f"{self._calibration_sentence()}")
        if table.empty:
            return (f"No information loss curves: information loss needs at least two attributes, and these data "
                    f"have {len(s['columns'])}.")
        symbol, name = ("α", "D") if key == "risk" else ("θ", "I")
        finite = table.index[np.isfinite(table.index)]
        ends = sorted({table.index.min(), finite.min(), finite.max(), table.index.max()})
        values = "; ".join(f"at {symbol} = {format_value(at)}: " + ", ".join(
            f"{label} {format_value(value)}" for label, value in table.loc[at].items()) for at in ends)
        verdicts = comparison.risk_sentences(number=format_value) if key == "risk" else \
            comparison.loss_sentences(number=format_value)
        return (f"Line chart, {title}: {name} of {len(table.columns)} configuration(s) for {symbol} from "
                f"{format_value(table.index.min())} to {format_value(table.index.max())}; {values}. "
                + " ".join(verdicts))

    def code(self) -> str:
        """The Python snippet (:mod:`explorer.core`, :mod:`explorer.plotting`) that reproduces the view shown."""
        if self.result is None:
            raise InvalidParameterError(f"nothing is shown yet: {self._data_error or 'nothing computed'}")
        comparison, s = self.result["comparison"], self.result["settings"]
        origin, arguments = s["origin"], self._arguments(s)
        lines = ["from matplotlib.figure import Figure", ""]
        if origin["printed"]:
            dataset = origin["dataset"]
            if dataset in EXAMPLES:
                loader, words = EXAMPLES[dataset]
                load = f"frame = {loader}()   # {words}: X and its printed masked version Y"
            else:
                loader, load = "load_builtin", f"frame = load_builtin({dataset!r})   # with its printed masked version"
            lines += [f"from explorer.core.datasets import dataset_info, {loader}",
                      "from explorer.core.dominance import alpha_grid, compare_maskings, theta_grid",
                      "from explorer.plotting.dominance import plot_calibration, plot_curves", "",
                      load,
                      "printed = dataset_info(frame).masked_frame(frame)   # the printed Y, named like X's columns",
                      f"X = frame[{s['columns']!r}].to_numpy(dtype=float)",
                      f"published = printed[{s['columns']!r}].to_numpy(dtype=float)"]
        else:
            load, loader = dataset_load_code(origin["dataset"])
            limit = origin["limit"] or None
            lines += [f"from explorer.core.datasets import {loader}",
                      "from explorer.core.dominance import (alpha_grid, compare_maskings, numeric_records, "
                      "sample_records,", "                                     theta_grid)",
                      "from explorer.plotting.dominance import plot_calibration, plot_curves", "",
                      load,
                      f"X, columns = numeric_records(frame, {s['columns']!r})   # complete records",
                      f"X = sample_records(X, {limit!r}, {origin['seed']!r})"
                      + (f"   # a seeded sample of {s['X'].shape[0]:,} records" if limit else ""),
                      "published = None"]
        configs = ",\n           ".join(repr((c.method, _plain(c.parameter), c.label)) for c in comparison.configs)
        lines += [f"configs = [{configs}]",
                  "result = compare_maskings(X, configs, published=published,",
                  f"                          alphas=alpha_grid({s['alpha_min']!r}, {N_GRID}, include_minus_inf=True),",
                  f"                          thetas=theta_grid({s['theta_max']!r}, {N_GRID}, include_inf=True),"]
        for name in ("beta", "pi", "alpha1", "theta2", "risk_target", "risk_attribute", "loss_pair", "normalize",
                     "seed", "convention", "sweep"):
            lines.append(f"                          {name}={_plain(arguments[name])!r},")
        lines[-1] = lines[-1][:-1] + ")"
        titles = self._titles(s)
        lines += ["for sentence in result.risk_sentences() + result.loss_sentences():", "    print(sentence)",
                  "labels = [curve.label for curve in result.risk_curves]",
                  'figure = Figure(figsize=(6.4, 10.4), layout="constrained")',
                  "risk_ax, loss_ax, calibration_ax = figure.subplots(3, 1)",
                  f"plot_curves(risk_ax, result.risk_curves, labels, title={titles['risk']!r},",
                  "            crossings=[c for _, _, r in result.risk_results[:1] for c in r.crossings])"]
        if comparison.loss_curves:
            lines += [f"plot_curves(loss_ax, result.loss_curves, labels, title={titles['loss']!r},",
                      "            crossings=[c for _, _, r in result.loss_results[:1] for c in r.crossings])"]
        path = "result.points" if s["mode"] == "sweep" else "[]"
        target = "result.risk_target" if comparison.risk_target > 0 else "None"
        lines += [f"plot_calibration(calibration_ax, result.points, {path}, target={target}, best=result.best)",
                  f"calibration_ax.set_title({titles['calibration']!r})",
                  'figure.savefig("dominance.png")']
        return "\n".join(lines) + "\n"
