"""Plots of multi-dimensional RR (Domingo-Ferrer and Soria-Comas, 2022): dependence heatmap with clusters, error curves, adjustment trace.

Each ``plot_x(ax, ...)`` draws on a given Axes (no pyplot state) and returns a
dataclass of its artists with an ``update(...)`` method that changes them in
place (the heatmap's cluster outlines are rebuilt when the clusters change).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np
from matplotlib.axes import Axes
from matplotlib import patheffects
from matplotlib.image import AxesImage
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.text import Text

from explorer.plotting import style

__all__ = ["DependenceArtists", "plot_dependence", "CurveArtists", "plot_error_curves", "ConvergenceArtists",
           "plot_convergence", "cluster_order"]

_METHOD_STYLE = {
    "RR-Independent": dict(color=style.BLUE, marker="o"),
    "RR-Clusters": dict(color=style.RED, marker="s"),
    "RR-Independent + Adjustment": dict(color=style.BLUE, marker="o", linestyle="--", markerfacecolor="white"),
    "RR-Clusters + Adjustment": dict(color=style.RED, marker="s", linestyle="--", markerfacecolor="white"),
    "Randomized": dict(color=style.GREY, marker="^", linestyle=":"),
}


def cluster_order(clusters: Sequence[Sequence[int]]) -> list[int]:
    """Attribute order that makes every cluster a contiguous block.

    Examples
    --------
    >>> cluster_order([[0, 3], [1], [2, 4]])
    [0, 3, 1, 2, 4]
    """
    return [a for c in clusters for a in c]


@dataclass
class DependenceArtists:
    """The heatmap, one outline and one label (number of combinations) per cluster."""

    ax: Axes
    image: AxesImage
    outlines: list[Rectangle] = field(default_factory=list)
    labels: list[Text] = field(default_factory=list)
    order: list[int] = field(default_factory=list)

    def update(self, dependence: np.ndarray, names: Sequence[str], clusters: Sequence[Sequence[int]],
               cardinalities: Sequence[int]) -> None:
        dep = np.asarray(dependence, dtype=float)
        order = cluster_order(clusters) if clusters else list(range(dep.shape[0]))
        self.order = order
        shown = dep[np.ix_(order, order)]
        self.image.set_data(shown)
        m = len(order)
        self.image.set_extent((-0.5, m - 0.5, m - 0.5, -0.5))
        self.ax.set_xlim(-0.5, m - 0.5)
        self.ax.set_ylim(m - 0.5, -0.5)
        self.ax.set_xticks(range(m), [names[a] for a in order], rotation=60, ha="right", fontsize=9)
        self.ax.set_yticks(range(m), [names[a] for a in order], fontsize=9)
        for artist in self.outlines + self.labels:
            artist.remove()
        self.outlines, self.labels = [], []
        start = 0
        for cluster in clusters:
            size = len(cluster)
            combos = int(np.prod([cardinalities[a] for a in cluster]))
            rect = Rectangle((start - 0.5, start - 0.5), size, size, fill=False, edgecolor="black", linewidth=2.2,
                             path_effects=[patheffects.withStroke(linewidth=4.5, foreground="white")])
            self.ax.add_patch(rect)
            self.outlines.append(rect)
            if size > 1:
                text = self.ax.text(start + size - 0.55, start - 0.45, f"{combos:,}", ha="right", va="top",
                                    fontsize=9, color="black",
                                    bbox=dict(boxstyle="round,pad=0.15", facecolor="white", alpha=0.8, lw=0))
                self.labels.append(text)
            start += size


def plot_dependence(ax: Axes, dependence: np.ndarray, names: Sequence[str], clusters: Sequence[Sequence[int]],
                    cardinalities: Sequence[int], *, title: str = "dependence (Cramér's V / |Pearson|)"
                    ) -> DependenceArtists:
    """Heatmap of the dependence matrix in cluster order, clusters outlined with their number of combinations.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> ax = Figure().add_subplot()
    >>> art = plot_dependence(ax, np.eye(3), ["a", "b", "c"], [[0, 2], [1]], [2, 3, 4])
    >>> art.order, len(art.outlines), art.labels[0].get_text()
    ([0, 2, 1], 2, '8')
    """
    m = np.asarray(dependence).shape[0]
    image = ax.imshow(np.zeros((m, m)), vmin=0.0, vmax=1.0, cmap=style.HEATMAP, interpolation="nearest")
    ax.figure.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    ax.set_title(title, fontsize=9)
    artists = DependenceArtists(ax=ax, image=image)
    artists.update(dependence, names, clusters, cardinalities)
    return artists


@dataclass
class CurveArtists:
    """One line per method (Figure 3: relative error against the coverage sigma)."""

    ax: Axes
    lines: dict[str, Line2D]
    hint: Any = None

    def update(self, sigmas: Sequence[float], curves: Mapping[str, Sequence[float]]) -> None:
        shown = False
        for method, line in self.lines.items():
            values = curves.get(method)
            if values is None:
                line.set_data([], [])
            else:
                line.set_data(np.asarray(sigmas, float), np.asarray(values, float))
                shown = shown or np.isfinite(np.asarray(values, float)).any()
        if self.hint is not None:
            self.hint.set_visible(not shown)
        if shown:  # axes fitted to the measured errors (the empty frame's limits switched autoscaling off)
            self.ax.relim()
            self.ax.set_autoscale_on(True)
            self.ax.autoscale_view()
            self.ax.set_ylim(bottom=0.0)
        else:  # nothing measured yet: an empty frame over sigma's range, with a hint
            self.ax.set_xlim(0.0, 1.0)
            self.ax.set_ylim(0.0, 1.0)


def plot_error_curves(ax: Axes, sigmas: Sequence[float], curves: Mapping[str, Sequence[float]], *,
                      methods: Sequence[str] | None = None, ylabel: str = "median relative error"
                      ) -> CurveArtists:
    """Figure 3-style lines of the median error against sigma, one per method.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> ax = Figure().add_subplot()
    >>> art = plot_error_curves(ax, [0.1, 0.5], {"RR-Clusters": [0.2, 0.05]})
    >>> art.lines["RR-Clusters"].get_ydata().tolist()
    [0.2, 0.05]
    """
    methods = list(methods) if methods is not None else list(curves)
    lines = {}
    for method in methods:
        (line,) = ax.plot([], [], label=method, **_METHOD_STYLE.get(method, {}))
        lines[method] = line
    ax.set(xlabel="coverage σ of S", ylabel=ylabel)
    ax.grid(alpha=0.3)
    if lines:  # beside the axes, never over the curves
        ax.legend(fontsize=9, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    hint = ax.text(0.5, 0.5, "no runs yet: press Compute", transform=ax.transAxes, ha="center", va="center",
                   color=style.NOTE, fontsize=10)
    artists = CurveArtists(ax=ax, lines=lines, hint=hint)
    artists.update(sigmas, curves)
    return artists


@dataclass
class ConvergenceArtists:
    """Lines of the adjustment trace (one per series) and dashed limits."""

    ax: Axes
    lines: list[Line2D]
    limits: list[Line2D]

    def update(self, history: np.ndarray, limits: Sequence[float] | None = None) -> None:
        history = np.atleast_2d(np.asarray(history, dtype=float))
        sweeps = np.arange(1, history.shape[0] + 1)
        for k, line in enumerate(self.lines):
            line.set_data(sweeps, history[:, k] if k < history.shape[1] else [])
        for k, line in enumerate(self.limits):
            if limits is not None and k < len(limits):
                line.set_ydata([limits[k], limits[k]])
        self.ax.relim()
        self.ax.autoscale_view()


def plot_convergence(ax: Axes, history: np.ndarray, labels: Sequence[str], *, limits: Sequence[float] | None = None,
                     ylabel: str = "weight", log: bool = False) -> ConvergenceArtists:
    """RR-Adjustment's trace: a quantity per sweep (e.g. Example 1's record weights), with its limits.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> ax = Figure().add_subplot()
    >>> art = plot_convergence(ax, [[0.1, 0.2], [0.05, 0.25]], ["x", "y"], limits=[0, 0.25])
    >>> art.lines[0].get_ydata().tolist()
    [0.1, 0.05]
    """
    history = np.atleast_2d(np.asarray(history, dtype=float))
    lines = []
    for k, label in enumerate(labels):
        (line,) = ax.plot([], [], label=label, markersize=4, **style.line_style(k))
        lines.append(line)
    limit_lines = []
    for k, value in enumerate(limits or []):
        color = lines[k].get_color() if k < len(lines) else "grey"
        limit_lines.append(ax.axhline(value, color=color, linestyle="--", linewidth=0.8))
    if log:
        ax.set_yscale("log")
    ax.set(xlabel="sweep of Algorithm 2", ylabel=ylabel)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=9, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    artists = ConvergenceArtists(ax=ax, lines=lines, limits=limit_lines)
    artists.update(history, limits)
    return artists
