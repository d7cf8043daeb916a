"""The "Randomized response" tab: design an RR matrix and see its epsilon, posterior and deniability.

Wiring only: every number comes from :mod:`explorer.core.rr` and :mod:`explorer.core.deniability`
(:func:`~explorer.core.deniability.read_matrix`, :func:`~explorer.core.deniability.deniability_curve`,
:func:`~explorer.core.rr.simulation.simulate_estimation`); every drawing from
:mod:`explorer.plotting.randomized_response`.  A bad value (in a control or in the custom matrix) is shown
in words on the status line and the last valid picture stays.
"""

from __future__ import annotations

import math
from dataclasses import fields
from typing import Any

import ipywidgets as widgets
import numpy as np
import pandas as pd

from explorer._validation import check_distribution, check_int, check_probability
from explorer.core import deniability as den
from explorer.core import rr
from explorer.core.datasets import dataset_info
from explorer.core.epsilon_meaning import attribute_codes
from explorer.core.rr.estimation import code_frequencies
from explorer.core.rr.simulation import MAX_SAMPLE, simulate_estimation
from explorer.errors import ConfigurationError, ExplorerError, InvalidParameterError
from explorer.panels._format import decisive_decimals, format_value, subscripts_html
from explorer.panels.access import valuetext
from explorer.panels.base import Panel, on_change
from explorer.panels.controls import epsilon_slider, parse_typed_epsilon
from explorer.panels.figures import make_figure
from explorer.panels.matrix_editor import INVALID_ROW_CSS, MatrixEditor
from explorer.panels.snippets import dataset_load_code
from explorer.panels.status import escape, guarded
from explorer.plotting import randomized_response as plots
from explorer.state import EPSILON_MAX, AppState, check_shared_epsilon

__all__ = ["RandomizedResponsePanel"]

MIN_CATEGORIES, MAX_CATEGORIES = 2, 12
NO_ATTRIBUTE = "(none: type labels)"
DESIGN_OPTIONS = [("optimal for ε", "optimal"), ("keep or uniform (p)", "keep_or_uniform"),
                  ("Warner (p, r = 2)", "warner"), ("custom matrix", "custom")]
PRIOR_OPTIONS = [("uniform", "uniform"), ("from the data set", "dataset"), ("typed weights", "typed")]
#: the estimators in users' words (the core's codes are rr.ESTIMATION_METHODS)
METHOD_LABELS = {"inversion": "plain inversion", "clip": "clip and rescale", "simplex": "projection onto the simplex",
                 "ibu": "iterative Bayesian update"}
PRESET_EXAMPLE1 = "Example 1 (ε = 2)"
PRESET_SECRECY = "Perfect secrecy"
CURVE_EPSILONS = np.linspace(0.0, EPSILON_MAX, 201)
#: The figures (key -> title): four share the main figure, the estimates have their own.
FIGURES = {"matrix": "The randomized response matrix P = Pr(Y = v | X = u), the column attaining ε framed",
           "posterior": "The posterior Pr(X = u | Y = v) of each report",
           "deniability": "Deniability H(X | Y = v) of each report against H(X)",
           "curve": "Deniability as ε grows, with the current ε marked",
           "estimates": "The true distribution and the four estimates of one simulated survey"}


#: The snippet of :meth:`RandomizedResponsePanel.code`: the view ...
CODE = """import numpy as np
from matplotlib.figure import Figure

from explorer.core.deniability import deniability_curve, read_matrix
{imports}from explorer.core.rr.simulation import simulate_estimation
from explorer.plotting.randomized_response import (plot_deniability, plot_deniability_curve, plot_estimates,
                                                  plot_matrix, plot_posterior)
{load}
labels = {labels!r}
matrix = {matrix}
prior = np.array({prior!r})   # prior: {prior_name}
reading = read_matrix(matrix, prior)
curve = deniability_curve({r}, prior, np.linspace(0.0, {epsilon_max!r}, {points}))
figure = Figure(figsize=(10, 6.6), layout="constrained")
(ax_matrix, ax_posterior), (ax_deniability, ax_curve) = figure.subplots(2, 2)
plot_matrix(ax_matrix, reading.matrix, epsilon=reading.epsilon, column=reading.column, labels=labels)
plot_posterior(ax_posterior, reading.posterior, labels=labels)
plot_deniability(ax_deniability, reading.entropies, reading.prior_entropy, reading.misinformative, labels=labels)
plot_deniability_curve(ax_curve, curve.epsilons, curve.conditional_entropy, curve.min_entropy, curve.max_guessing,
                       curve.prior_entropy, len(labels), current=reading.epsilon,
                       current_entropy=reading.conditional_entropy)
figure.savefig("randomized-response.png")
"""
#: ... and the simulated survey, when one is shown.
SIMULATION_CODE = """
# one simulated survey: randomize, estimate by the four methods
sim = simulate_estimation(matrix, {n}, {run}, rng={seed})
estimates = Figure(figsize=(10, 3), layout="constrained")
plot_estimates(estimates.add_subplot(), {{"true": sim.true, **sim.estimates}},
               {{method: sim.half_width for method in sim.estimates}}, labels=labels)
estimates.savefig("estimates.png")
"""


def _parse_list(text: str) -> list[str]:
    return [part.strip() for part in str(text).replace(";", ",").split(",") if part.strip()]


def _decimals(value: float, decimals: int) -> str:
    """A number with ``decimals`` decimals, trailing zeros dropped (non-finite numbers in words)."""
    if not math.isfinite(value):
        return format_value(value)
    text = f"{value:.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _epsilon_text(value: float) -> str:
    """The shared epsilon as typed text that reads back as the same number ("2", "1.81195489649449")."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def _non_negative(key: str):
    def check(value: int) -> int:
        if value < 0:
            raise ConfigurationError(f"{key} must be >= 0, got {value}")
        return value
    return check


class RandomizedResponsePanel(Panel):
    """Matrix designer, epsilon, posterior, deniability and frequency estimation, live.

    Its configuration is ``attribute``, ``n_categories``, ``labels``, ``prior``, ``prior_weights``,
    ``design``, ``p``, ``matrix``, ``n_samples`` and ``seed``; the epsilon is the state's.  Five figures:
    ``matrix``, ``posterior``, ``deniability``, ``curve`` (one canvas) and ``estimates``.

    Parameters
    ----------
    state : AppState, optional
        The app's shared state (epsilon and data set); a fresh one when omitted.
    n_categories : int
        Initial number of categories r.

    Examples
    --------
    >>> panel = RandomizedResponsePanel()
    >>> panel.epsilon.value = 2.0
    >>> panel.status.message.split(".")[0]
    'ε = 2 (column 1)'
    """

    #: The paper its exported figures' captions cite (explorer.references).
    paper = "rr-dp"

    def caption_inputs(self) -> dict[str, str]:
        """The caption's inputs: the design's own parameter only (p for the p designs, the matrix when typed)."""
        inputs = super().caption_inputs()
        design = self.design.value
        for name, used in (("p", design in ("keep_or_uniform", "warner")), ("matrix", design == "custom"),
                           ("Weights", self.prior_source.value == "typed"), ("Labels", bool(self.category_labels.value))):
            if not used:
                inputs.pop(name, None)
        return inputs

    def __init__(self, state: AppState | None = None, *, n_categories: int = 3):
        super().__init__(state)
        self.reading: den.MatrixReading | None = None   # the last valid view, and the prior it was read with
        self.prior: np.ndarray | None = None
        self.curve: den.DeniabilityCurve | None = None
        self.labels: list[str] = []
        self.simulation: dict[str, Any] | None = None  # drawn values; ["result"] is core's EstimationSimulation
        style = {"description_width": "initial"}

        # ---------------------------------------------------------------- controls, each declared once
        self.attribute = self.control("attribute", widgets.Dropdown(
            options=[NO_ATTRIBUTE], value=NO_ATTRIBUTE, description="Attribute", style=style,
            layout=widgets.Layout(width="260px")))
        self.n_categories = self.control("n_categories", widgets.IntSlider(
            value=n_categories, min=MIN_CATEGORIES, max=MAX_CATEGORIES, description="categories r", style=style,
            continuous_update=True))
        self.category_labels = self.control("labels", widgets.Text(
            value="", placeholder="labels, comma-separated (default 1..r)", description="Labels",
            continuous_update=False, style=style, layout=widgets.Layout(width="360px")))
        self.prior_source = self.control("prior", widgets.Dropdown(
            options=PRIOR_OPTIONS, value="uniform", description="Prior", style=style,
            layout=widgets.Layout(width="230px")))
        self.prior_weights = self.control("prior_weights", widgets.Text(
            value="", placeholder="weights, e.g. 5, 3, 2", description="Weights", continuous_update=False,
            style=style, layout=widgets.Layout(width="300px")))
        self.design = self.control("design", widgets.Dropdown(
            options=DESIGN_OPTIONS, value="optimal", description="Design", style=style,
            layout=widgets.Layout(width="260px")))
        # The shared epsilon has one home, the state: the slider is a view of state.epsilon and the typed
        # box writes through the state's check (no copy of epsilon is kept in this tab).
        self.epsilon = self.control("epsilon", epsilon_slider(self.state, self.status, typed=False), state="epsilon")
        self.epsilon.continuous_update = True       # the picture is blitted: fast enough to follow the drag
        self.epsilon_text = widgets.Text(value=_epsilon_text(self.state.epsilon), description="typed ε",
                                         continuous_update=False, style=style, layout=widgets.Layout(width="170px"))
        self.p = self.control("p", widgets.FloatSlider(
            value=0.5, min=0.0, max=1.0, step=0.01, description="p", readout_format=".2f", continuous_update=True))
        self.matrix_grid = self.control("matrix", MatrixEditor(
            rr.optimal_matrix(n_categories, check_shared_epsilon(self.state.epsilon)), prefix="explorer-rr"))
        self.n_samples = self.control("n_samples", widgets.IntText(
            value=10_000, description="sample size n", style=style, layout=widgets.Layout(width="200px")),
            check=_non_negative("n_samples"))
        self.seed = self.control("seed", widgets.IntText(
            value=0, description="seed", style=style, layout=widgets.Layout(width="140px")),
            check=_non_negative("seed"))
        self.epsilon_label = widgets.HTML()
        # the sliders' values in words (aria-valuetext; ipywidgets issue 2650: explorer.panels.access)
        valuetext(self.n_categories, lambda r: f"r = {r} categories")
        valuetext(self.p, lambda p: f"p = {p:.2f}, the probability of keeping the true answer")
        self.normalise_rows = widgets.Button(description="normalise rows", icon="balance-scale")
        self.simulate = widgets.Button(description="Compute", button_style="primary", icon="play")
        self.simulation_stale = self.stale          # the simulation on screen was made with other inputs
        self.preset_example1 = widgets.Button(description=PRESET_EXAMPLE1, layout=widgets.Layout(width="auto"),
                                              tooltip="Example 1 of Domingo-Ferrer and Soria-Comas (2018)")
        self.preset_secrecy = widgets.Button(description=PRESET_SECRECY, layout=widgets.Layout(width="auto"))
        self.estimate_info = widgets.HTML()
        for w, name in [(self.attribute, "attribute"), (self.n_categories, "categories"),
                        (self.category_labels, "labels"), (self.prior_source, "prior"),
                        (self.prior_weights, "weights"), (self.design, "design"), (self.epsilon, "epsilon"),
                        (self.epsilon_text, "epsilon-text"), (self.epsilon_label, "epsilon-label"),
                        (self.p, "p"), (self.normalise_rows, "normalise"), (self.matrix_grid, "matrix-grid"),
                        (self.n_samples, "n"), (self.seed, "seed"), (self.simulate, "simulate"),
                        (self.preset_example1, "preset-example1"), (self.preset_secrecy, "preset-secrecy"),
                        (self.estimate_info, "estimate-info")]:
            w.add_class(f"explorer-rr-{name}")

        # ---------------------------------------------------------------- figures: made once, updated in place
        self.figure, self.canvas = make_figure(10.0, 6.6)
        axes = self.figure.subplots(2, 2)
        self.ax_matrix, self.ax_posterior = axes[0]
        self.ax_deniability, self.ax_curve = axes[1]
        self.estimate_figure, self.estimate_canvas = make_figure(10.0, 3.0)
        self.ax_estimates = self.estimate_figure.add_subplot()
        self.ax_estimates.set_title("press “Compute” to randomize a sample and estimate its distribution",
                                    fontsize=10)
        self.ax_estimates.set_axis_off()
        self.blitter = plots.BlitManager(self.figure)
        for figure in (self.figure, self.estimate_figure):
            figure.canvas.mpl_connect("draw_event", plots.layout_done)
        self._static_key: tuple | None = None
        self._drawn_key: tuple | None = None        # (matrix, prior, labels) the figure shows
        self.n_skipped = 0                           # updates that changed nothing drawn (not redrawn)
        self.matrix_artists: plots.MatrixArtists | None = None
        self.posterior_artists: plots.MatrixArtists | None = None
        self.deniability_artists: plots.DeniabilityArtists | None = None
        self.curve_artists: plots.CurveArtists | None = None
        self.estimate_artists: plots.EstimateArtists | None = None
        for key, ax in (("matrix", self.ax_matrix), ("posterior", self.ax_posterior),
                        ("deniability", self.ax_deniability), ("curve", self.ax_curve)):
            self.add_figure(key, FIGURES[key], self.figure, canvas=self.canvas, axes=ax,
                            describe=lambda key=key: self._describe(key), table=lambda key=key: self._table(key))
        self.add_figure("estimates", FIGURES["estimates"], self.estimate_figure, canvas=self.estimate_canvas,
                        describe=lambda: self._describe("estimates"), table=lambda: self._table("estimates"))

        # ---------------------------------------------------------------- wiring
        self.attribute.observe(self._on_attribute, names="value")
        self.n_categories.observe(self._on_categories, names="value")
        for w in (self.category_labels, self.prior_source, self.prior_weights, self.p):
            w.observe(self._on_change, names="value")
        self.design.observe(self._on_design, names="value")
        self.matrix_grid.on_cell_change(self._on_cell)
        self.epsilon_text.observe(self._on_epsilon_text, names="value")
        self.state.observe(self._on_change, names="epsilon")
        self.state.observe(self._on_dataset, names="dataset")
        self.normalise_rows.on_click(self._on_normalise)
        self.simulate.on_click(self._on_simulate)
        for control in (self.n_samples, self.seed):
            control.observe(self._on_simulation_input, names="value")
        self.preset_example1.on_click(lambda _: self.apply_preset(PRESET_EXAMPLE1))
        self.preset_secrecy.on_click(lambda _: self.apply_preset(PRESET_SECRECY))

        self.custom_box = widgets.VBox([
            widgets.HTML("<b>Custom matrix</b> P[u, v] = Pr(Y = v | X = u): rows are true values, "
                         "each must sum to 1"),
            self.matrix_grid, self.normalise_rows])
        controls = widgets.VBox([
            widgets.HBox([self.attribute, self.n_categories, self.category_labels],
                         layout=widgets.Layout(flex_flow="row wrap")),
            widgets.HBox([self.prior_source, self.prior_weights], layout=widgets.Layout(flex_flow="row wrap")),
            widgets.HBox([self.design, self.epsilon.row, self.epsilon_text, self.p],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
            widgets.HBox([widgets.HTML("<b>Presets:</b>"), self.preset_example1, self.preset_secrecy],
                         layout=widgets.Layout(align_items="center")),
            self.custom_box,
        ])
        simulation = widgets.VBox([
            widgets.HBox([self.n_samples, self.seed, self.simulate], layout=widgets.Layout(align_items="center")),
            self.simulation_stale.widget, self.estimate_info, self.estimate_canvas])
        css = widgets.HTML(INVALID_ROW_CSS.format(prefix="explorer-rr"))
        self.announce(self.epsilon_label, self.estimate_info)   # readouts: aria-live regions (explorer.panels.access)
        self.widget = widgets.VBox([css, controls, self.epsilon_label, self.status.widget, self.canvas, simulation])
        self.widget.add_class("explorer-rr-panel")

        with self.busy():
            self._refresh_attributes()
        self.refresh()

    # ================================================================== reading controls
    @property
    def cells(self) -> list[list[widgets.FloatText]]:
        """The custom matrix's cells, ``cells[u][v]``."""
        return self.matrix_grid.cells

    @property
    def row_sums(self) -> list[widgets.HTML]:
        """The custom matrix's row sums."""
        return self.matrix_grid.row_sums

    @property
    def matrix(self) -> np.ndarray | None:
        """The RR matrix of the view on screen (None before the first valid one)."""
        return None if self.reading is None else self.reading.matrix

    @property
    def results(self) -> dict[str, Any]:
        """The numbers on screen by name: the fields of :attr:`reading` and the ``curve``."""
        found = {f.name: getattr(self.reading, f.name) for f in fields(self.reading)} if self.reading else {}
        return {**found, "curve": self.curve}

    def _current_epsilon(self) -> float:
        """The state's epsilon (re-checked: the one range of every tab)."""
        return check_shared_epsilon(self.state.epsilon)

    def _categories(self) -> tuple[int, list[str], np.ndarray | None]:
        """r, labels and (for an attribute) the data set's records as category codes."""
        attribute = self.attribute.value
        if attribute != NO_ATTRIBUTE:
            labels, codes = attribute_codes(self.state.dataset, attribute, max_categories=MAX_CATEGORIES)
            return len(labels), labels, codes
        # the slider's value can be forged beyond its range: re-validate
        r = check_int(self.n_categories.value, "categories r", minimum=MIN_CATEGORIES, maximum=MAX_CATEGORIES)
        labels = _parse_list(self.category_labels.value)
        if not labels:
            labels = [str(i + 1) for i in range(r)]
        elif len(labels) != r:
            raise InvalidParameterError(f"labels: {len(labels)} labels given for r = {r} categories")
        return r, labels, None

    def _prior(self, r: int, codes: np.ndarray | None) -> np.ndarray:
        """The prior chosen: uniform, the data set's shares of the attribute, or the typed weights rescaled."""
        source = self.prior_source.value
        if source == "uniform":
            return np.full(r, 1.0 / r)
        if source == "dataset":
            if codes is None:
                raise InvalidParameterError("prior 'from the data set' needs an attribute of the data set; "
                                            "choose one in Attribute")
            return code_frequencies(codes, r)
        if source == "typed":
            text = self.prior_weights.value
            try:
                weights = [float(part) for part in _parse_list(text)]
            except ValueError:
                raise InvalidParameterError(f"prior weights must be numbers, got {text!r}") from None
            return check_distribution(weights, "prior weights", size=r, normalize=True)
        raise InvalidParameterError(f"prior must be uniform, dataset or typed, got {source!r}")

    def _matrix(self, r: int) -> np.ndarray:
        design = self.design.value
        if design == "optimal":
            return rr.optimal_matrix(r, self._current_epsilon())
        if design == "keep_or_uniform":
            return rr.keep_or_uniform_matrix(r, check_probability(self.p.value, "p"))
        if design == "warner":
            if r != 2:
                raise InvalidParameterError(f"Warner's design is for a yes/no question: it needs r = 2, got {r}")
            return rr.warner_matrix(check_probability(self.p.value, "p"))
        if design == "custom":
            values = self.matrix_grid.values()
            if values.shape != (r, r):
                raise InvalidParameterError(f"the custom matrix is {values.shape[0]} x {values.shape[0]}, "
                                            f"but r = {r}")
            return rr.check_matrix(values, "matrix")
        raise InvalidParameterError(f"design must be optimal, keep_or_uniform, warner or custom, got {design!r}")

    # ================================================================== the live picture
    @guarded
    def refresh(self) -> None:
        """Show the controls that apply, then recompute the view from the controls and the state, and redraw."""
        with self.busy():
            attribute = self.attribute.value != NO_ATTRIBUTE
            self.n_categories.disabled = self.category_labels.disabled = attribute
            self.p.layout.display = "" if self.design.value in ("keep_or_uniform", "warner") else "none"
            self.custom_box.layout.display = "" if self.design.value == "custom" else "none"
            self.epsilon_text.value = _epsilon_text(self.state.epsilon)
        r, labels, codes = self._categories()
        prior = self._prior(r, codes)
        reading = den.read_matrix(self._matrix(r), prior)
        if self.curve is None or self._curve_key != (r, prior.tobytes()):
            # the curve does not move with ε: computed once per prior
            self.curve, self._curve_key = den.deniability_curve(r, prior, CURVE_EPSILONS), (r, prior.tobytes())
        self.reading, self.prior, self.labels = reading, prior, labels
        self._draw(reading, labels)
        odds = "∞" if math.isinf(reading.odds_bound) else format_value(reading.odds_bound, digits=3)
        self.epsilon_label.value = (f"<span class='explorer-rr-epsilon-value'><b>"
                                    f"{escape(plots.format_epsilon(reading.epsilon))}</b> &nbsp; e<sup>ε</sup> = "
                                    f"{odds}</span>")
        self.status.info(self._status_text())
        self._check_simulation()

    def _draw(self, res: den.MatrixReading, labels: list[str]) -> None:
        # Everything drawn is a function of the matrix, the prior and the labels: when none of them
        # changed (e.g. the ε slider under a keep-or-uniform or custom design), nothing is redrawn.
        drawn = (res.matrix.shape, res.matrix.tobytes(), res.prior.tobytes(), tuple(labels))
        if drawn == self._drawn_key and self.matrix_artists is not None and self.blitter.background is not None:
            self.n_skipped += 1
            return
        self._drawn_key = None                       # set again once this picture is drawn
        curve = self.curve
        if self.matrix_artists is None:
            self.matrix_artists = plots.plot_matrix(self.ax_matrix, res.matrix, epsilon=res.epsilon,
                                                    column=res.column, labels=labels)
            self.posterior_artists = plots.plot_posterior(self.ax_posterior, res.posterior, labels=labels)
            self.deniability_artists = plots.plot_deniability(self.ax_deniability, res.entropies, res.prior_entropy,
                                                              res.misinformative, labels=labels)
            self.curve_artists = plots.plot_deniability_curve(
                self.ax_curve, curve.epsilons, curve.conditional_entropy, curve.min_entropy, curve.max_guessing,
                curve.prior_entropy, len(labels), current=res.epsilon, current_entropy=res.conditional_entropy)
        else:
            self.matrix_artists.update(res.matrix, column=res.column, title=plots.matrix_title(res.epsilon, res.column),
                                       labels=labels)
            self.posterior_artists.update(res.posterior, labels=labels)  # type: ignore[union-attr]
            self.deniability_artists.update(res.entropies, res.prior_entropy,  # type: ignore[union-attr]
                                            res.misinformative, labels)
            self.curve_artists.update(curve.epsilons, curve.conditional_entropy,  # type: ignore[union-attr]
                                      curve.min_entropy, curve.max_guessing, curve.prior_entropy, len(labels),
                                      current=res.epsilon, current_entropy=res.conditional_entropy)
        # A slider move (same categories, labels and prior) redraws only the moving artists;
        # anything else redraws the figure once.
        moving = (self.matrix_artists.moving() + self.posterior_artists.moving()  # type: ignore[union-attr]
                  + self.deniability_artists.moving() + self.curve_artists.moving())  # type: ignore[union-attr]
        key = (tuple(labels), res.prior.tobytes(), tuple(id(a) for a in moving))
        if key != self._static_key:
            self._static_key = key
            self.blitter.set_artists(moving)
            plots.layout_once(self.figure, ("main", tuple(labels)))
            self.figure.canvas.draw_idle()
        else:
            self.blitter.update()
        self._drawn_key = drawn

    def _status_text(self) -> str:
        res = self.reading
        column = res.column
        label = self.labels[column] if column < len(self.labels) else None
        named = f": report {label}" if label is not None and label != str(column + 1) else ""
        parts = [f"{plots.format_epsilon(res.epsilon)} (column {column + 1}{named})",
                 den.describe_odds(res.epsilon).capitalize(),
                 f"H(X | Y) = {res.conditional_entropy:.3f} of H(X) = {res.prior_entropy:.3f} bits; "
                 f"best guess after the worst report is right with probability {res.best_guess:.3f}"]
        if res.perfect_secrecy:
            parts.append("Perfect secrecy: the reports say nothing about X, and the true distribution "
                         "cannot be estimated")
        if res.singular:
            parts.append("The matrix is singular: inversion (Eq. 2) is impossible, only IBU estimates")
        if res.n_misinformative:
            parts.append(f"{res.n_misinformative} misinformative report{'s' if res.n_misinformative > 1 else ''} "
                         "(hatched)")
        if self.design.value != "optimal":
            parts.append("The ε slider sets the optimal design; this design's ε is shown")
        return ". ".join(parts) + "."

    # ================================================================== callbacks
    @on_change
    def _on_change(self, change: Any = None) -> None:
        self.refresh()

    @on_change
    def _on_cell(self, change: Any = None) -> None:
        if self.design.value == "custom":
            self.refresh()

    @on_change
    def _on_categories(self, change: Any = None) -> None:
        r = check_int(self.n_categories.value, "categories r", minimum=MIN_CATEGORIES, maximum=MAX_CATEGORIES)
        with self.busy():
            if len(_parse_list(self.category_labels.value)) not in (0, r):
                self.category_labels.value = ""
            if len(self.cells) != r:
                self.matrix_grid.set_matrix(rr.optimal_matrix(r, self._current_epsilon()))
        self.refresh()

    @on_change
    def _on_design(self, change: Any = None) -> None:
        if self.design.value == "custom" and self.matrix is not None and self.matrix.shape[0] == len(self.cells):
            with self.busy():                       # the editor starts from the matrix on screen
                self.matrix_grid.set_matrix(self.matrix)
        self.refresh()

    @on_change
    def _on_epsilon_text(self, change: Any = None) -> None:
        """A typed epsilon goes to the state; a refused one is explained and the box shows the state's value."""
        try:
            value = parse_typed_epsilon(self.epsilon_text.value, self.state.epsilon)
        except ExplorerError:
            with self.busy():
                self.epsilon_text.value = _epsilon_text(self.state.epsilon)
            raise                                   # on_change: the words go to the status line
        if value != self.state.epsilon:
            self.state.epsilon = value              # _on_change redraws
        elif self.epsilon_text.value != _epsilon_text(value):
            with self.busy():
                self.epsilon_text.value = _epsilon_text(value)  # e.g. "2.0" shown as "2"

    @on_change
    def _on_attribute(self, change: Any = None) -> None:
        if self.attribute.value != NO_ATTRIBUTE:
            r, _, _ = self._categories()
            with self.busy():
                if self.prior_source.value == "uniform":
                    self.prior_source.value = "dataset"
                self.n_categories.value = r
                if len(self.cells) != r:
                    self.matrix_grid.set_matrix(rr.optimal_matrix(r, self._current_epsilon()))
        self.refresh()

    @on_change
    def _on_dataset(self, change: Any = None) -> None:
        with self.busy():
            self._refresh_attributes()
        self.refresh()

    def _refresh_attributes(self) -> None:
        frame = self.state.dataset
        options = [NO_ATTRIBUTE]
        if frame is not None:
            try:
                info = dataset_info(frame)
                options += [c for c in (*info.categorical, *info.ordinal) if c in frame.columns]
            except ExplorerError:
                pass
        current = self.attribute.value
        self.attribute.options = options
        self.attribute.value = current if current in options else NO_ATTRIBUTE

    @guarded
    def _on_normalise(self, _: Any = None) -> None:
        normalised = rr.normalise_rows(self.matrix_grid.values())
        with self.busy():
            self.matrix_grid.set_matrix(normalised)
        self.refresh()

    @guarded
    def _on_simulate(self, _: Any = None) -> None:
        self.run_simulation()

    @on_change
    def _on_simulation_input(self, change: Any = None) -> None:
        self._check_simulation()

    # ================================================================== the simulation
    def run_simulation(self) -> dict[str, Any]:
        """Draw a sample, randomize it with the current matrix, estimate with all four methods.

        The numbers come from :func:`explorer.core.rr.simulation.simulate_estimation`; this draws them.
        Returns (and keeps as ``self.simulation``) the drawn values: ``values`` (true and each
        method's estimate), ``errors`` (half-width of the bars), ``bounds``, ``n`` and ``result``
        (the :class:`~explorer.core.rr.simulation.EstimationSimulation`).
        """
        if self.reading is None or self.status.is_error:
            raise InvalidParameterError("fix the error shown above before simulating")
        n = check_int(self.n_samples.value, "sample size n", minimum=1, maximum=MAX_SAMPLE)
        seed = check_int(self.seed.value, "seed", minimum=0)
        attribute, labels = self.attribute.value, self.labels
        records = None
        if attribute != NO_ATTRIBUTE and self.state.dataset is not None:
            # the data set's own records (a random subsample of n when it is larger)
            records = self._categories()[2]
        sim = simulate_estimation(self.reading.matrix, n, prior=self.prior, records=records, rng=seed)
        source = (f"{sim.n:,} records of {attribute}" if sim.from_records
                  else f"{sim.n:,} respondents drawn from the prior")
        values: dict[str, np.ndarray] = {"true": sim.true, **sim.estimates}
        errors = {m: sim.half_width for m in rr.ESTIMATION_METHODS}
        bounds = sim.bounds
        title = (f"true vs estimated distribution: {source}, {plots.format_epsilon(self.reading.epsilon)}; "
                 f"bars ± {sim.half_width:.3f}" if math.isfinite(sim.half_width) else
                 f"true vs estimated distribution: {source}; singular matrix, no error bound")
        if self.estimate_artists is None:
            self.ax_estimates.set_axis_on()
            self.estimate_artists = plots.plot_estimates(self.ax_estimates, values, errors, labels=labels,
                                                         title=title)
        else:
            self.estimate_artists.update(values, errors, labels, title)
        plots.layout_once(self.estimate_figure, ("estimates", tuple(labels)))
        self.estimate_figure.canvas.draw_idle()
        # the errors are read against the bound e_abs: shown with the decimals that decide that comparison
        k = max([decisive_decimals(e, bounds.e_abs, decimals=4) for e in sim.max_abs_errors.values()
                 if math.isfinite(e) and math.isfinite(bounds.e_abs)] or [4])
        errors_text = "; ".join(f"{METHOD_LABELS.get(m, m)}: largest |error| {_decimals(e, k)}"
                                for m, e in sim.max_abs_errors.items())
        info = (f"Error bounds of the reports' shares λ̂ (Domingo-Ferrer and Soria-Comas (2022), Eqs. 5-6): "
                f"e_abs = {_decimals(bounds.e_abs, k)}, e_rel = {bounds.e_rel:.4f} (B = {format_value(bounds.B, digits=4)}, "
                f"α = {format_value(bounds.alpha)}); they bound the reports, not the estimates, whose errors the "
                f"matrix's inverse can magnify (at ε = 0 the reports say nothing of the answers). Estimates: "
                f"{errors_text}.")
        if sim.impossible:
            impossible = ", ".join(METHOD_LABELS.get(m, m) for m in sim.impossible)
            info += f" Singular matrix: {impossible} impossible; use the iterative Bayesian update."
        self.estimate_info.value = f"<small>{subscripts_html(info)}</small>"
        self.simulation = {"values": values, "errors": errors, "bounds": bounds, "n": sim.n, "result": sim,
                           "n_samples": n, "seed": seed, "from_records": records is not None}
        self._simulated_inputs = self._simulation_inputs()
        self.simulation_stale.clear()
        return self.simulation

    def _simulation_inputs(self) -> tuple:
        """What the simulation on screen depends on."""
        return (None if self.matrix is None else self.matrix.tobytes(), None if self.prior is None else
                self.prior.tobytes(), self.attribute.value, self.n_samples.value, self.seed.value)

    def _check_simulation(self) -> None:
        """Mark the simulation out of date when its inputs changed (the rule of every tab)."""
        if self.simulation is None:
            return
        if getattr(self, "_simulated_inputs", None) != self._simulation_inputs():
            self.simulation_stale.mark([self.estimate_canvas, self.estimate_info],
                                       "the simulation shown was made with other inputs")
        else:
            self.simulation_stale.clear()

    # ================================================================== presets and configuration
    @guarded
    def apply_preset(self, name: str) -> None:
        """Load a preset: Example 1 of Domingo-Ferrer and Soria-Comas (2018) (epsilon = 2) or perfect secrecy."""
        if name == PRESET_EXAMPLE1:
            with self.busy():
                self.attribute.value = NO_ATTRIBUTE
                self.prior_source.value = "uniform"
                self.category_labels.value = ""
                self.n_categories.value = 2
                self.state.epsilon = 2.0
            self.set_custom_matrix(den.example1_matrix())
        elif name == PRESET_SECRECY:
            with self.busy():
                self.state.epsilon = 0.0
            self.set_custom_matrix(den.perfect_secrecy_matrix(self.n_categories.value))
        else:
            raise InvalidParameterError(f"preset must be {PRESET_EXAMPLE1!r} or {PRESET_SECRECY!r}, got {name!r}")

    def set_custom_matrix(self, matrix: Any) -> None:
        """Put a matrix in the editor (validated when the picture updates) and select the custom design."""
        values = np.asarray(matrix, dtype=float)
        if values.ndim != 2 or values.shape[0] != values.shape[1]:
            raise InvalidParameterError(f"matrix must be square, got shape {values.shape}")
        with self.busy():
            if self.attribute.value == NO_ATTRIBUTE and values.shape[0] != self.n_categories.value:
                self.n_categories.value = values.shape[0]
            self.matrix_grid.set_matrix(values)
            self.design.value = "custom"
        self.refresh()

    def check_config(self, config: Any) -> dict[str, Any]:
        """The generic check of every control, and the custom matrix's own (a square list of 2 to 12 rows)."""
        if not isinstance(config, dict) or "matrix" not in config:
            return super().check_config(config)
        checked = super().check_config({key: value for key, value in config.items() if key != "matrix"})
        checked["matrix"] = MatrixEditor.check_value("matrix", config["matrix"],
                                                     sizes=(MIN_CATEGORIES, MAX_CATEGORIES))
        return checked

    # ================================================================== the figures in words and numbers
    def _table(self, key: str) -> pd.DataFrame:
        """The numbers figure ``key`` draws: the reading on screen, or the simulation drawn."""
        res, labels = self.reading, pd.Index(self.labels, name="category")
        if key == "matrix":
            return pd.DataFrame(res.matrix, index=labels.rename("true X = u"),
                                columns=labels.rename("reported Y = v"))
        if key == "posterior":
            return pd.DataFrame(res.posterior, index=labels.rename("reported Y = v"),
                                columns=labels.rename("true X = u"))
        if key == "deniability":
            return pd.DataFrame({"H(X | Y = v) [bits]": res.entropies, "misinformative": res.misinformative},
                                index=labels.rename("reported Y = v"))
        if key == "curve":
            curve = self.curve
            return pd.DataFrame({"H(X | Y) [bits]": curve.conditional_entropy,
                                 "min_v H(X | Y = v) [bits]": curve.min_entropy,
                                 "best-guess probability": curve.max_guessing},
                                index=pd.Index(curve.epsilons, name="ε"))
        if self.simulation is None:                 # nothing drawn yet: the categories, no numbers
            return pd.DataFrame(index=labels)
        shown = self.estimate_artists.labels
        table = pd.DataFrame({("true" if name == "true" else METHOD_LABELS[name]): vector
                              for name, vector in self.simulation["values"].items()},
                             index=pd.Index(shown, name="category"))
        table["error bar ±"] = self.simulation["result"].half_width
        return table

    def _describe(self, key: str) -> str:
        """What figure ``key`` shows now, in words, from the numbers of :meth:`_table`."""
        res, table = self.reading, self._table(key)
        eps = plots.format_epsilon(res.epsilon)

        def rows(frame: pd.DataFrame) -> str:
            return "; ".join(f"{name}: " + ", ".join("impossible" if np.isnan(x) else f"{x:.3f}" for x in row)
                             for name, row in zip(frame.index, frame.to_numpy(dtype=float)))

        if key == "matrix":
            return (f"Heatmap of the randomized response matrix P for {len(table)} categories: row u is the true "
                    f"value, column v the report; {eps}, attained in column {res.column + 1} (framed). "
                    f"Rows: {rows(table)}.")
        if key == "posterior":
            guesses = "; ".join(f"after the report {v} it is {row.idxmax()} (right with probability {row.max():.3f})"
                                for v, row in table.iterrows() if not row.isna().all())
            return (f"Heatmap of the posterior Pr(X = u | Y = v): row v is the report, column u the true value; "
                    f"rows: {rows(table)}. The intruder's best guess: {guesses}.")
        if key == "deniability":
            heights = table["H(X | Y = v) [bits]"]
            flagged = [str(v) for v, flag in table["misinformative"].items() if flag]
            return ("Bar chart of the deniability H(X | Y = v) of each report, in bits: "
                    + ", ".join(f"{v} {'impossible' if np.isnan(h) else f'{h:.3f}'}" for v, h in heights.items())
                    + f"; against H(X) = {self.deniability_artists.prior_line.get_ydata()[0]:.3f} (dashed) and log2 r = "
                    f"{self.deniability_artists.max_line.get_ydata()[0]:.3f} (dotted). "
                    + (f"Misinformative (hatched): {', '.join(flagged)}." if flagged else "No report is misinformative."))
        if key == "curve":
            first, last = table.iloc[0], table.iloc[-1]
            where = (f"The current {eps} is marked, with this matrix's H(X | Y) = {res.conditional_entropy:.3f}."
                     if math.isfinite(res.epsilon) else "This matrix's ε is infinite: no marker.")
            return (f"Line chart of the optimal design's deniability for this prior as ε grows from "
                    f"{table.index[0]:g} to {table.index[-1]:g}: H(X | Y) falls from {first.iloc[0]:.3f} to "
                    f"{last.iloc[0]:.3f} bits, min_v H(X | Y = v) from {first.iloc[1]:.3f} to {last.iloc[1]:.3f} "
                    f"bits, and the best-guess probability rises from {first.iloc[2]:.3f} to {last.iloc[2]:.3f}; "
                    f"H(X) = {res.prior_entropy:.3f} bits. {where}")
        if self.simulation is None:
            return "No simulated survey yet: press Compute to randomize a sample and estimate its distribution."
        sim = self.simulation["result"]
        series = "; ".join(f"{name}: " + ", ".join("impossible" if np.isnan(x) else f"{label} {x:.3f}"
                                                   for label, x in column.items())
                           for name, column in table.drop(columns="error bar ±").items())
        bound = (f"error bars ± {sim.half_width:.3f}" if math.isfinite(sim.half_width)
                 else "singular matrix, no error bound")
        stale = " Out of date: made with other inputs." if self.simulation_stale.stale else ""
        return (f"Grouped bar chart of one simulated survey of {sim.n:,} "
                f"{'records' if sim.from_records else 'respondents'}: {series}; {bound}.{stale}")

    def code(self) -> str:
        """The Python snippet (:mod:`explorer.core`, :mod:`explorer.plotting`) that reproduces the view now."""
        design, r, sim = self.design.value, len(self.labels), self.simulation
        matrix = {"optimal": f"optimal_matrix({r}, {float(self.state.epsilon)!r})",
                  "keep_or_uniform": f"keep_or_uniform_matrix({r}, {float(self.p.value)!r})",
                  "warner": f"warner_matrix({float(self.p.value)!r})"}.get(design)
        imports = f"from explorer.core.rr import {matrix.split('(')[0]}\n" if matrix else ""
        records = sim is not None and sim["from_records"]
        if records:
            load, loader = dataset_load_code(self.state)
            imports += f"from explorer.core.datasets import {loader}\nfrom explorer.core.epsilon_meaning import attribute_codes\n"
            load += (f"\n_, codes = attribute_codes(frame, {self.attribute.value!r}, "
                     f"max_categories={MAX_CATEGORIES})\n")
        code = CODE.format(
            imports=imports, load=load if records else "", labels=self.labels, prior=self.prior.tolist(),
            matrix=matrix or f"np.array({self.reading.matrix.tolist()!r})", r=r,
            prior_name={value: label for label, value in PRIOR_OPTIONS}[self.prior_source.value],
            epsilon_max=float(CURVE_EPSILONS[-1]), points=CURVE_EPSILONS.size)
        if sim is None:
            return code
        return code + SIMULATION_CODE.format(n=sim["n_samples"], run="records=codes" if records else "prior=prior",
                                             seed=sim["seed"])
