"""The "Randomized response" tab: design an RR matrix and see its epsilon, posterior and deniability.

Wiring only: every number comes from :mod:`explorer.core.rr`
and :mod:`explorer.core.deniability`; every drawing from
:mod:`explorer.plotting.randomized_response`.  A bad value (in a control or in
the custom matrix) is shown in words on the status line and the last valid
picture stays.
"""

from __future__ import annotations

import math
from typing import Any

import ipywidgets as widgets
import numpy as np
import pandas as pd

from explorer._validation import check_int, check_probability, check_weights
from explorer.core import deniability as den
from explorer.core import rr
from explorer.core.datasets import dataset_info
from explorer.core.rr.simulation import MAX_SAMPLE, is_singular, simulate_estimation
from explorer.errors import (
    ConfigurationError,
    DatasetError,
    ExplorerError,
    InvalidParameterError,
)
from explorer.panels._base import (AppState, StaleMark, StatusLine, close_tree, epsilon_slider, escape, guarded,
                                   make_figure)
from explorer.panels._format import format_value, subscripts_html
from explorer.plotting import randomized_response as plots
from explorer.state import EPSILON_MAX, check_shared_epsilon

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


def _parse_list(text: str) -> list[str]:
    return [part.strip() for part in str(text).replace(";", ",").split(",") if part.strip()]


def _epsilon_text(value: float) -> str:
    """The shared epsilon as typed text that reads back as the same number ("2", "1.81195489649449")."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


class RandomizedResponsePanel:
    """Matrix designer, epsilon, posterior, deniability and frequency estimation, live.

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

    def __init__(self, state: AppState | None = None, *, n_categories: int = 3):
        self.state = state if state is not None else AppState()
        self.status = StatusLine()
        self._building = True
        self.matrix: np.ndarray | None = None          # last valid state
        self.prior: np.ndarray | None = None
        self.labels: list[str] = []
        self.simulation: dict[str, Any] | None = None  # drawn values; ["result"] is core's EstimationSimulation

        style = {"description_width": "initial"}
        # ---------------------------------------------------------------- controls
        self.attribute = widgets.Dropdown(options=[NO_ATTRIBUTE], value=NO_ATTRIBUTE, description="Attribute",
                                          style=style, layout=widgets.Layout(width="260px"))
        self.n_categories = widgets.IntSlider(value=n_categories, min=MIN_CATEGORIES, max=MAX_CATEGORIES,
                                              description="categories r", style=style, continuous_update=True)
        self.category_labels = widgets.Text(value="", placeholder="labels, comma-separated (default 1..r)",
                                            description="Labels", continuous_update=False, style=style,
                                            layout=widgets.Layout(width="360px"))
        self.prior_source = widgets.Dropdown(options=PRIOR_OPTIONS, value="uniform", description="Prior",
                                             style=style, layout=widgets.Layout(width="230px"))
        self.prior_weights = widgets.Text(value="", placeholder="weights, e.g. 5, 3, 2", description="Weights",
                                          continuous_update=False, style=style, layout=widgets.Layout(width="300px"))
        self.design = widgets.Dropdown(options=DESIGN_OPTIONS, value="optimal", description="Design", style=style,
                                       layout=widgets.Layout(width="260px"))
        # The shared epsilon has one home, the state: the slider is a view of state.epsilon and the
        # typed box writes through the state's check (no copy of epsilon is kept in this tab).
        self.epsilon = epsilon_slider(self.state, self.status)
        self.epsilon.continuous_update = True       # the picture is blitted: fast enough to follow the drag
        self.epsilon_text = widgets.Text(value=_epsilon_text(self.state.epsilon), description="typed ε",
                                         continuous_update=False, style=style, layout=widgets.Layout(width="170px"))
        self.epsilon_label = widgets.HTML()
        self.p = widgets.FloatSlider(value=0.5, min=0.0, max=1.0, step=0.01, description="p",
                                     readout_format=".2f", continuous_update=True)
        self.normalise_rows = widgets.Button(description="normalise rows", icon="balance-scale")
        self.matrix_grid = widgets.VBox()
        self.cells: list[list[widgets.FloatText]] = []
        self.row_sums: list[widgets.HTML] = []
        self.n_samples = widgets.IntText(value=10_000, description="sample size n", style=style,
                                         layout=widgets.Layout(width="200px"))
        self.seed = widgets.IntText(value=0, description="seed", style=style, layout=widgets.Layout(width="140px"))
        self.simulate = widgets.Button(description="Compute", button_style="primary", icon="play")
        self.simulation_stale = StaleMark()       # the simulation on screen was made with other inputs
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

        # ---------------------------------------------------------------- figures
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
            figure.canvas.mpl_connect("draw_event", self._layout_done)
        self._curve_cache: tuple | None = None     # (r, prior bytes, curve): the curve does not move with ε
        self._static_key: tuple | None = None
        self._drawn_key: tuple | None = None        # (matrix, prior, labels) the figure shows
        self.n_skipped = 0                           # updates that changed nothing drawn (not redrawn)
        self.matrix_artists: plots.MatrixArtists | None = None
        self.posterior_artists: plots.MatrixArtists | None = None
        self.deniability_artists: plots.DeniabilityArtists | None = None
        self.curve_artists: plots.CurveArtists | None = None
        self.estimate_artists: plots.EstimateArtists | None = None

        # ---------------------------------------------------------------- wiring
        self.attribute.observe(self._on_attribute, names="value")
        self.n_categories.observe(self._on_categories, names="value")
        for w in (self.category_labels, self.prior_source, self.prior_weights, self.p):
            w.observe(self._on_change, names="value")
        self.design.observe(self._on_design, names="value")
        self.epsilon_text.observe(self._on_epsilon_text, names="value")
        self.state.observe(self._on_state_epsilon, names="epsilon")
        self.state.observe(self._on_dataset, names="dataset")
        self.normalise_rows.on_click(self._on_normalise)
        self.simulate.on_click(self._on_simulate)
        for control in (self.n_samples, self.seed):
            control.observe(lambda _: self._check_simulation(), names="value")
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
            widgets.HBox([self.design, self.epsilon, self.epsilon_text, self.p],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
            widgets.HBox([widgets.HTML("<b>Presets:</b>"), self.preset_example1, self.preset_secrecy],
                         layout=widgets.Layout(align_items="center")),
            self.custom_box,
        ])
        simulation = widgets.VBox([
            widgets.HBox([self.n_samples, self.seed, self.simulate], layout=widgets.Layout(align_items="center")),
            self.simulation_stale.widget, self.estimate_info, self.estimate_canvas])
        css = widgets.HTML("<style>.explorer-rr-invalid-row input{border:2px solid #b00020 !important;"
                           "background:#fdecea}</style>")
        self.widget = widgets.VBox([css, controls, self.epsilon_label, self.status.widget, self.canvas, simulation])
        self.widget.add_class("explorer-rr-panel")

        self._refresh_attributes()
        self._rebuild_grid(rr.optimal_matrix(self.n_categories.value, self._current_epsilon()))
        self._show_design_controls()
        self._building = False
        self._recompute()

    # ================================================================== reading controls
    def _current_epsilon(self) -> float:
        """The state's epsilon (re-checked: the one range of every tab)."""
        return check_shared_epsilon(self.state.epsilon)

    def _categories(self) -> tuple[int, list[str], np.ndarray | None]:
        """r, labels and (for an attribute) the data set's counts per category."""
        attribute = self.attribute.value
        if attribute != NO_ATTRIBUTE:
            frame = self.state.dataset
            if frame is None or attribute not in frame.columns:
                raise DatasetError(f"attribute {attribute!r} is not a column of the current data set")
            column = frame[attribute]
            counts = column.value_counts(sort=False, dropna=True)
            if isinstance(column.dtype, pd.CategoricalDtype):
                counts = counts.reindex(column.cat.categories, fill_value=0)
            else:
                counts = counts.sort_index()
            counts = counts[counts > 0]
            r = len(counts)
            if r < MIN_CATEGORIES or r > MAX_CATEGORIES:
                raise InvalidParameterError(
                    f"attribute {attribute!r} has {r} categories; this tab shows {MIN_CATEGORIES} to "
                    f"{MAX_CATEGORIES}")
            return r, [str(c) for c in counts.index], counts.to_numpy(dtype=float)
        # the slider's value can be forged beyond its range: re-validate
        r = check_int(self.n_categories.value, "categories r", minimum=MIN_CATEGORIES, maximum=MAX_CATEGORIES)
        labels = _parse_list(self.category_labels.value)
        if not labels:
            labels = [str(i + 1) for i in range(r)]
        elif len(labels) != r:
            raise InvalidParameterError(f"labels: {len(labels)} labels given for r = {r} categories")
        return r, labels, None

    def _prior(self, r: int, counts: np.ndarray | None) -> np.ndarray:
        source = self.prior_source.value
        if source == "uniform":
            return np.full(r, 1.0 / r)
        if source == "dataset":
            if counts is None:
                raise InvalidParameterError("prior 'from the data set' needs an attribute of the data set; "
                                            "choose one in Attribute")
            return counts / counts.sum()
        if source == "typed":
            text = self.prior_weights.value
            try:
                weights = [float(part) for part in _parse_list(text)]
            except ValueError:
                raise InvalidParameterError(f"prior weights must be numbers, got {text!r}") from None
            weights = check_weights(weights, "prior weights", size=r)
            return weights / weights.sum()
        raise InvalidParameterError(f"prior must be uniform, dataset or typed, got {source!r}")

    def _grid_values(self) -> np.ndarray:
        return np.array([[cell.value for cell in row] for row in self.cells], dtype=float)

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
            values = self._grid_values()
            if values.shape != (r, r):
                raise InvalidParameterError(f"the custom matrix is {values.shape[0]} x {values.shape[0]}, "
                                            f"but r = {r}")
            self._mark_rows(values)
            return rr.check_matrix(values, "matrix")
        raise InvalidParameterError(f"design must be optimal, keep_or_uniform, warner or custom, got {design!r}")

    # ================================================================== the live picture
    @guarded
    def _recompute(self) -> None:
        if self._building:
            return
        r, labels, counts = self._categories()
        prior = self._prior(r, counts)
        matrix = self._matrix(r)
        epsilon = rr.epsilon_of(matrix)
        column = rr.epsilon_column(matrix)
        posterior = den.posterior_matrix(matrix, prior)
        entropies = den.deniability_entropies(matrix, prior)
        prior_entropy = float(den.entropy(prior))
        misinformative = den.misinformative_reports(matrix, prior)
        conditional = den.conditional_entropy(matrix, prior)
        guessing = den.guessing_probability(matrix, prior)
        curve_key = (r, prior.tobytes())
        if self._curve_cache is None or self._curve_cache[0] != curve_key:
            self._curve_cache = (curve_key, den.deniability_curve(r, prior, CURVE_EPSILONS))
        curve = self._curve_cache[1]
        secrecy = den.is_perfect_secrecy(matrix, prior)
        singular = is_singular(matrix)

        self.matrix, self.prior, self.labels = matrix, prior, labels
        self.results = {"epsilon": epsilon, "column": column, "posterior": posterior, "entropies": entropies,
                        "prior_entropy": prior_entropy, "misinformative": misinformative,
                        "conditional_entropy": conditional, "guessing": guessing, "curve": curve,
                        "perfect_secrecy": secrecy, "singular": singular}
        self._draw(matrix, labels)
        self._mark_rows(matrix if self.design.value == "custom" else None)
        self.epsilon_label.value = self._epsilon_html(epsilon)
        self.status.info(self._status_text())
        self._check_simulation()

    def _draw(self, matrix: np.ndarray, labels: list[str]) -> None:
        res = self.results
        # Everything drawn is a function of the matrix, the prior and the labels: when none of them
        # changed (e.g. the ε slider under a keep-or-uniform or custom design), nothing is redrawn.
        drawn = (matrix.shape, matrix.tobytes(), self.prior.tobytes(), tuple(labels))  # type: ignore[union-attr]
        if drawn == self._drawn_key and self.matrix_artists is not None and self.blitter.background is not None:
            self.n_skipped += 1
            return
        self._drawn_key = None                       # set again once this picture is drawn
        title = plots.matrix_title(res["epsilon"], res["column"])
        if self.matrix_artists is None:
            self.matrix_artists = plots.plot_matrix(self.ax_matrix, matrix, epsilon=res["epsilon"],
                                                    column=res["column"], labels=labels)
            self.posterior_artists = plots.plot_posterior(self.ax_posterior, res["posterior"], labels=labels)
            self.deniability_artists = plots.plot_deniability(self.ax_deniability, res["entropies"],
                                                              res["prior_entropy"], res["misinformative"],
                                                              labels=labels)
            curve = res["curve"]
            self.curve_artists = plots.plot_deniability_curve(
                self.ax_curve, curve.epsilons, curve.conditional_entropy, curve.min_entropy, curve.max_guessing,
                curve.prior_entropy, len(labels), current=res["epsilon"],
                current_entropy=res["conditional_entropy"])
        else:
            self.matrix_artists.update(matrix, column=res["column"], title=title, labels=labels)
            self.posterior_artists.update(res["posterior"], labels=labels)  # type: ignore[union-attr]
            self.deniability_artists.update(res["entropies"], res["prior_entropy"],  # type: ignore[union-attr]
                                            res["misinformative"], labels)
            curve = res["curve"]
            self.curve_artists.update(curve.epsilons, curve.conditional_entropy,  # type: ignore[union-attr]
                                      curve.min_entropy, curve.max_guessing, curve.prior_entropy, len(labels),
                                      current=res["epsilon"], current_entropy=res["conditional_entropy"])
        # A slider move (same categories, labels and prior) redraws only the moving artists;
        # anything else redraws the figure once.
        moving = (self.matrix_artists.moving() + self.posterior_artists.moving()  # type: ignore[union-attr]
                  + self.deniability_artists.moving() + self.curve_artists.moving())  # type: ignore[union-attr]
        key = (tuple(labels), self.prior.tobytes(), tuple(id(a) for a in moving))  # type: ignore[union-attr]
        if key != self._static_key:
            self._static_key = key
            self.blitter.set_artists(moving)
            self._freeze_layout(("main", tuple(labels)), self.figure)
            self.figure.canvas.draw_idle()
        else:
            self.blitter.update()
        self._drawn_key = drawn

    def _freeze_layout(self, key: tuple, figure) -> None:
        """Run the constrained layout only on the next full draw after a structural change.

        The layout measures every text on every draw; after one draw it is switched
        off and the axes stay where it put them, so later draws cost only the drawing.
        """
        if getattr(figure, "_explorer_layout_key", None) == key:
            return
        figure.set_layout_engine("constrained")
        figure._explorer_layout_key = key
        figure._explorer_layout_pending = True

    @staticmethod
    def _layout_done(event) -> None:
        figure = event.canvas.figure
        if getattr(figure, "_explorer_layout_pending", False):
            figure._explorer_layout_pending = False
            figure.set_layout_engine("none")

    def _epsilon_html(self, epsilon: float) -> str:
        odds = "∞" if math.isinf(epsilon) else format_value(math.exp(min(epsilon, 700)), digits=3)
        return (f"<span class='explorer-rr-epsilon-value'><b>{escape(plots.format_epsilon(epsilon))}</b>"
                f" &nbsp; e<sup>ε</sup> = {odds}</span>")

    def _status_text(self) -> str:
        res = self.results
        epsilon = res["epsilon"]
        eps_text = plots.format_epsilon(epsilon)
        column = res["column"]
        label = self.labels[column] if self.labels is not None and column < len(self.labels) else None
        named = f": report {label}" if label is not None and label != str(column + 1) else ""
        parts = [f"{eps_text} (column {column + 1}{named})",
                 den.describe_odds(epsilon).capitalize(),
                 f"H(X | Y) = {res['conditional_entropy']:.3f} of H(X) = {res['prior_entropy']:.3f} bits; "
                 f"best guess after the worst report is right with probability {np.nanmax(res['guessing']):.3f}"]
        if res["perfect_secrecy"]:
            parts.append("Perfect secrecy: the reports say nothing about X, and the true distribution "
                         "cannot be estimated")
        if res["singular"]:
            parts.append("The matrix is singular: inversion (Eq. 2) is impossible, only IBU estimates")
        n_mis = int(np.sum(res["misinformative"]))
        if n_mis:
            parts.append(f"{n_mis} misinformative report{'s' if n_mis > 1 else ''} (hatched)")
        if self.design.value != "optimal":
            parts.append("The ε slider sets the optimal design; this design's ε is shown")
        return ". ".join(parts) + "."

    # ================================================================== custom matrix editor
    def _rebuild_grid(self, matrix: np.ndarray) -> None:
        r = matrix.shape[0]
        for row in self.cells:
            for cell in row:
                cell.unobserve(self._on_cell, names="value")
        self.cells = [[widgets.FloatText(value=float(matrix[u, v]), step=0.01,
                                         layout=widgets.Layout(width="72px")) for v in range(r)] for u in range(r)]
        self.row_sums = [widgets.HTML() for _ in range(r)]
        rows = []
        for u in range(r):
            for v, cell in enumerate(self.cells[u]):
                cell.add_class("explorer-rr-cell")
                cell.add_class(f"explorer-rr-cell-{u + 1}-{v + 1}")
                cell.observe(self._on_cell, names="value")
            self.row_sums[u].add_class("explorer-rr-row-sum")
            box = widgets.HBox([widgets.HTML(f"<small>row {u + 1}</small>", layout=widgets.Layout(width="44px")),
                                *self.cells[u], self.row_sums[u]], layout=widgets.Layout(align_items="center"))
            box.add_class("explorer-rr-row")
            rows.append(box)
        old = self.matrix_grid.children
        self.matrix_grid.children = rows
        for box in old:                              # no leaks: the replaced cells, labels and boxes are closed
            close_tree(box)
        self._mark_rows(matrix)

    def _mark_rows(self, values: np.ndarray | None) -> None:
        """Show each row's sum; highlight rows that are not probability vectors."""
        if values is None:
            values = self._grid_values() if self.cells else None
        if values is None or values.shape[0] != len(self.row_sums):
            return
        for u, label in enumerate(self.row_sums):
            row = values[u]
            total = float(np.sum(row))
            bad = (not np.all(np.isfinite(row))) or np.any(row < 0) or np.any(row > 1) or abs(total - 1) > 1e-9
            box = self.matrix_grid.children[u]
            if bad:
                label.value = f"<span style='color:#b00020'><b>sum {format_value(total, digits=6)} ✗</b></span>"
                box.add_class("explorer-rr-invalid-row")
            else:
                label.value = f"<span style='color:#2e7d32'>sum {format_value(total, digits=6)} ✓</span>"
                box.remove_class("explorer-rr-invalid-row")

    def set_custom_matrix(self, matrix: Any) -> None:
        """Put a matrix in the editor (validated when the picture updates) and select the custom design."""
        values = np.asarray(matrix, dtype=float)
        if values.ndim != 2 or values.shape[0] != values.shape[1]:
            raise InvalidParameterError(f"matrix must be square, got shape {values.shape}")
        self._building = True
        try:
            if self.attribute.value == NO_ATTRIBUTE and values.shape[0] != self.n_categories.value:
                self.n_categories.value = values.shape[0]
            self._rebuild_grid(values)
            self.design.value = "custom"
            self._show_design_controls()
        finally:
            self._building = False
        self._recompute()

    # ================================================================== callbacks
    @guarded
    def _on_change(self, change: Any = None) -> None:
        self._recompute()

    @guarded
    def _on_cell(self, change: Any = None) -> None:
        self._mark_rows(None)
        if self.design.value == "custom":
            self._recompute()

    @guarded
    def _on_categories(self, change: Any = None) -> None:
        r = check_int(self.n_categories.value, "categories r", minimum=MIN_CATEGORIES, maximum=MAX_CATEGORIES)
        if self._building:
            return
        if len(_parse_list(self.category_labels.value)) not in (0, r):
            self._building = True
            self.category_labels.value = ""
            self._building = False
        if len(self.cells) != r:
            self._rebuild_grid(rr.optimal_matrix(r, self._current_epsilon()))
        self._recompute()

    @guarded
    def _on_design(self, change: Any = None) -> None:
        self._show_design_controls()
        if self._building:
            return
        if self.design.value == "custom" and self.matrix is not None and self.matrix.shape[0] == len(self.cells):
            self._building = True
            try:
                self._rebuild_grid(self.matrix)
            finally:
                self._building = False
        self._recompute()

    def _show_design_controls(self) -> None:
        design = self.design.value
        self.p.layout.display = "" if design in ("keep_or_uniform", "warner") else "none"
        self.custom_box.layout.display = "" if design == "custom" else "none"

    @guarded
    def _on_epsilon_text(self, change: Any = None) -> None:
        """A typed epsilon goes to the state; a refused one is explained and the box shows the state's value."""
        try:
            value = check_shared_epsilon(self.epsilon_text.value, "typed epsilon")
        except ExplorerError:
            self.epsilon_text.value = _epsilon_text(self.state.epsilon)
            raise                                   # guarded: the words go to the status line
        if value != self.state.epsilon:
            self.state.epsilon = value              # _on_state_epsilon redraws
        elif self.epsilon_text.value != _epsilon_text(value):
            self.epsilon_text.value = _epsilon_text(value)  # e.g. "2.0" shown as "2"

    @guarded
    def _on_state_epsilon(self, change: Any = None) -> None:
        """The state's epsilon changed (slider, typed box, another tab, a configuration): follow it."""
        self.epsilon_text.value = _epsilon_text(self.state.epsilon)
        self._recompute()

    @guarded
    def _on_attribute(self, change: Any = None) -> None:
        attribute = self.attribute.value
        self.n_categories.disabled = attribute != NO_ATTRIBUTE
        self.category_labels.disabled = attribute != NO_ATTRIBUTE
        if attribute != NO_ATTRIBUTE:
            r, _, _ = self._categories()
            self._building = True
            try:
                if self.prior_source.value == "uniform":
                    self.prior_source.value = "dataset"
                if self.n_categories.value != r:
                    self.n_categories.value = r
                if len(self.cells) != r:
                    self._rebuild_grid(rr.optimal_matrix(r, self._current_epsilon()))
            finally:
                self._building = False
        self._recompute()

    @guarded
    def _on_dataset(self, change: Any = None) -> None:
        self._refresh_attributes()
        self._recompute()

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
        self._building = True
        try:
            self.attribute.options = options
            self.attribute.value = current if current in options else NO_ATTRIBUTE
        finally:
            self._building = False
        self.n_categories.disabled = self.attribute.value != NO_ATTRIBUTE
        self.category_labels.disabled = self.attribute.value != NO_ATTRIBUTE

    @guarded
    def _on_normalise(self, _: Any = None) -> None:
        values = self._grid_values()
        if not np.all(np.isfinite(values)) or np.any(values < 0):
            u = int(np.argwhere(~np.isfinite(values) | (values < 0))[0][0])
            raise InvalidParameterError(f"cannot normalise: row {u + 1} has a negative or missing entry")
        sums = values.sum(axis=1)
        if np.any(sums <= 0):
            u = int(np.flatnonzero(sums <= 0)[0])
            raise InvalidParameterError(f"cannot normalise: row {u + 1} sums to 0")
        self._building = True
        try:
            normalised = values / sums[:, None]
            for u, row in enumerate(self.cells):
                for v, cell in enumerate(row):
                    cell.value = float(normalised[u, v])
        finally:
            self._building = False
        self._mark_rows(None)
        self._recompute()

    @guarded
    def _on_simulate(self, _: Any = None) -> None:
        self.run_simulation()

    def run_simulation(self) -> dict[str, Any]:
        """Draw a sample, randomize it with the current matrix, estimate with all four methods.

        The numbers come from :func:`explorer.core.rr.simulation.simulate_estimation`; this draws them.
        Returns (and keeps as ``self.simulation``) the drawn values: ``values`` (true and each
        method's estimate), ``errors`` (half-width of the bars), ``bounds``, ``n`` and ``result``
        (the :class:`~explorer.core.rr.simulation.EstimationSimulation`).
        """
        if self.matrix is None or self.status.is_error:
            raise InvalidParameterError("fix the error shown above before simulating")
        n = check_int(self.n_samples.value, "sample size n", minimum=1, maximum=MAX_SAMPLE)
        seed = check_int(self.seed.value, "seed", minimum=0)
        matrix, prior, labels = self.matrix, self.prior, self.labels
        attribute = self.attribute.value
        records = None
        if attribute != NO_ATTRIBUTE and self.state.dataset is not None:
            # the data set's own records (a random subsample of n when it is larger)
            column = self.state.dataset[attribute]
            records = pd.Categorical(column.map(str, na_action="ignore"), categories=labels).codes.astype(np.int64)
        sim = simulate_estimation(matrix, n, prior=prior, records=records, rng=seed)
        source = (f"{sim.n:,} records of {attribute}" if sim.from_records
                  else f"{sim.n:,} respondents drawn from the prior")
        values: dict[str, np.ndarray] = {"true": sim.true, **sim.estimates}
        errors = {m: sim.half_width for m in rr.ESTIMATION_METHODS}
        bounds = sim.bounds
        title = (f"true vs estimated distribution: {source}, {plots.format_epsilon(self.results['epsilon'])}; "
                 f"bars ± {sim.half_width:.3f}" if math.isfinite(sim.half_width) else
                 f"true vs estimated distribution: {source}; singular matrix, no error bound")
        if self.estimate_artists is None:
            self.ax_estimates.set_axis_on()
            self.estimate_artists = plots.plot_estimates(self.ax_estimates, values, errors, labels=labels,
                                                         title=title)
        else:
            self.estimate_artists.update(values, errors, labels, title)
        self._freeze_layout(("estimates", tuple(labels)), self.estimate_figure)
        self.estimate_figure.canvas.draw_idle()
        errors_text = "; ".join(f"{METHOD_LABELS.get(m, m)}: largest |error| {format_value(e, digits=3)}"
                                for m, e in sim.max_abs_errors.items())
        info = (f"Error bounds of Domingo-Ferrer and Soria-Comas (2022), Eqs. 5-6, from the reports: "
                f"e_abs = {bounds.e_abs:.4f}, e_rel = {bounds.e_rel:.4f} (B = {format_value(bounds.B, digits=4)}, "
                f"α = {format_value(bounds.alpha)}). {errors_text}.")
        if sim.impossible:
            impossible = ", ".join(METHOD_LABELS.get(m, m) for m in sim.impossible)
            info += f" Singular matrix: {impossible} impossible; use the iterative Bayesian update."
        self.estimate_info.value = f"<small>{subscripts_html(info)}</small>"
        self.simulation = {"values": values, "errors": errors, "bounds": bounds, "n": sim.n, "result": sim}
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
            self._building = True
            try:
                self.attribute.value = NO_ATTRIBUTE
                self.prior_source.value = "uniform"
                self.category_labels.value = ""
                self.n_categories.value = 2
                self.state.epsilon = 2.0
            finally:
                self._building = False
            self.set_custom_matrix(den.example1_matrix())
        elif name == PRESET_SECRECY:
            r = self.n_categories.value
            row = np.arange(r, 0, -1, dtype=float)
            self._building = True
            try:
                self.state.epsilon = 0.0
            finally:
                self._building = False
            # equal rows: every column constant, columns different (Domingo-Ferrer and Soria-Comas (2018), Section II-A b)
            self.set_custom_matrix(np.tile(row / row.sum(), (r, 1)))
        else:
            raise InvalidParameterError(f"preset must be {PRESET_EXAMPLE1!r} or {PRESET_SECRECY!r}, got {name!r}")

    def config(self) -> dict:
        """The panel's own settings as a JSON-able dict (epsilon is the state's, exported once at the top level)."""
        return {
            "attribute": self.attribute.value,
            "n_categories": int(self.n_categories.value),
            "labels": self.category_labels.value,
            "prior": self.prior_source.value,
            "prior_weights": self.prior_weights.value,
            "design": self.design.value,
            "p": float(self.p.value),
            "matrix": self._grid_values().tolist(),
            "n_samples": int(self.n_samples.value),
            "seed": int(self.seed.value),
        }

    def apply_config(self, config: dict) -> None:
        """Load settings from :meth:`config`'s dict; a bad entry raises ConfigurationError.

        Epsilon is the state's (:meth:`explorer.state.AppState.load_config` sets it); an
        ``"epsilon"`` entry of an older export of this tab is ignored.
        """
        if not isinstance(config, dict):
            raise ConfigurationError(f"randomized response configuration must be a dict, got {type(config).__name__}")
        known = {"attribute", "n_categories", "labels", "prior", "prior_weights", "design", "epsilon", "p",
                 "matrix", "n_samples", "seed"}
        unknown = set(config) - known
        if unknown:
            raise ConfigurationError(f"randomized response configuration has unknown keys: {sorted(unknown)}")
        try:
            self._building = True
            if "attribute" in config:
                if config["attribute"] not in self.attribute.options:
                    raise ConfigurationError(f"attribute {config['attribute']!r} is not in the current data set")
                self.attribute.value = config["attribute"]
            if "n_categories" in config:
                self.n_categories.value = check_int(config["n_categories"], "n_categories",
                                                    minimum=MIN_CATEGORIES, maximum=MAX_CATEGORIES)
            for key, w in (("labels", self.category_labels), ("prior_weights", self.prior_weights)):
                if key in config:
                    w.value = str(config[key])
            if "prior" in config:
                if config["prior"] not in dict(PRIOR_OPTIONS).values():
                    raise ConfigurationError(f"prior must be uniform, dataset or typed, got {config['prior']!r}")
                self.prior_source.value = config["prior"]
            if "p" in config:
                self.p.value = check_probability(config["p"], "p")
            for key, w in (("n_samples", self.n_samples), ("seed", self.seed)):
                if key in config:
                    w.value = check_int(config[key], key, minimum=0)
            if "matrix" in config:
                values = np.asarray(config["matrix"], dtype=float)
                if values.ndim != 2 or values.shape[0] != values.shape[1]:
                    raise ConfigurationError(f"matrix must be square, got shape {values.shape}")
                self._rebuild_grid(values)
            if "design" in config:
                if config["design"] not in dict(DESIGN_OPTIONS).values():
                    raise ConfigurationError(f"design must be one of optimal, keep_or_uniform, warner, custom, "
                                             f"got {config['design']!r}")
                self.design.value = config["design"]
        except (ValueError, TypeError) as error:
            if isinstance(error, ConfigurationError):
                raise
            raise ConfigurationError(f"randomized response configuration: {error}") from None
        finally:
            self._building = False
        self._show_design_controls()
        self._recompute()
