"""Plots of risk and loss curves and of the calibration view (002 Sections 3-5, 000 Section VI-B).

Each ``plot_x(ax, ...)`` draws once and returns a dataclass of its artists with an
``update(...)`` method that changes their data in place, so a panel redraws with
``figure.canvas.draw_idle()``.  The number of lines is structural: a panel that
changes the number of configurations clears the Axes and plots again.  No pyplot
state is used.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import PathCollection
from matplotlib.lines import Line2D
from matplotlib.text import Text

from explorer.core.dominance import CalibrationPoint, Curve

__all__ = ["COLORS", "CurveArtists", "plot_curves", "CalibrationArtists", "plot_calibration"]

#: One colour per configuration (up to four, colour-blind safe).
COLORS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9")


def _finite_part(curve: Curve) -> tuple[np.ndarray, np.ndarray]:
    keep = np.isfinite(curve.grid)
    return curve.grid[keep], curve.values[keep]


def _infinite_value(curve: Curve) -> float | None:
    inf = np.flatnonzero(np.isinf(curve.grid))
    return None if inf.size == 0 else float(curve.values[inf[0]])


@dataclass
class CurveArtists:
    """One line per configuration, optional markers for the +-inf end, crossing markers and a note."""

    ax: Axes
    lines: list[Line2D]
    limits: list[Line2D]
    crossings: Line2D
    note: Text
    kind: str
    log_scale: bool = False
    labels: list[str] = field(default_factory=list)

    def update(self, curves: Sequence[Curve], *, crossings: Sequence[float] = (), title: str | None = None,
               ylabel: str | None = None) -> None:
        """Set the curves' data (same number of curves as when plotted) and the crossing markers."""
        if len(curves) != len(self.lines):
            raise ValueError(f"plotted {len(self.lines)} curves, got {len(curves)}: plot again")
        ys: list[np.ndarray] = []
        xs: list[np.ndarray] = []
        for line, limit, curve in zip(self.lines, self.limits, curves):
            x, y = _finite_part(curve)
            line.set_data(x, y)
            xs.append(x)
            ys.append(y)
            end = _infinite_value(curve)
            if end is None:
                limit.set_visible(False)
            else:
                limit.set_visible(True)
                limit.set_data([self._inf_position(x)], [end])
                ys.append(np.array([end]))
        grid = np.concatenate(xs) if xs else np.array([0.0, 1.0])
        low, high = float(grid.min()), float(grid.max())
        values = np.concatenate(ys) if ys else np.array([0.0])
        crossing_x = [c for c in crossings if math.isfinite(c)]
        crossing_y = [self._value_at(curves[0], c) for c in crossing_x]
        self.crossings.set_data(crossing_x, crossing_y)
        has_inf = any(_infinite_value(c) is not None for c in curves)
        span = high - low if high > low else 1.0
        pad = 0.08 * span
        self.ax.set_xlim(low - (pad if self.kind == "risk" and has_inf else 0.0),
                         high + (pad if self.kind == "loss" and has_inf else 0.0))
        self._set_ylim(values)
        if has_inf:
            finite_ticks = [t for t in self.ax.get_xticks() if low <= t <= high]
            inf_at = self._inf_position(grid)
            self.ax.set_xticks(finite_ticks + [inf_at],
                               [f"{t:g}" for t in finite_ticks] + ["-∞" if self.kind == "risk" else "∞"])
        if title is not None:
            self.ax.set_title(title, fontsize=10)
        if ylabel is not None:
            self.ax.set_ylabel(ylabel)

    def _inf_position(self, grid: np.ndarray) -> float:
        low, high = float(np.min(grid)), float(np.max(grid))
        span = high - low if high > low else 1.0
        return low - 0.06 * span if self.kind == "risk" else high + 0.06 * span

    @staticmethod
    def _value_at(curve: Curve, x: float) -> float:
        gx, gy = _finite_part(curve)
        order = np.argsort(gx)
        return float(np.interp(x, gx[order], gy[order]))

    def _set_ylim(self, values: np.ndarray) -> None:
        v = values[np.isfinite(values)]
        if self.log_scale:
            v = v[v > 0]
            if v.size == 0:
                self.ax.set_ylim(1e-9, 1.0)
                return
            low, high = float(v.min()), float(v.max())
            if high <= low:
                low, high = low / 2, high * 2
            self.ax.set_ylim(low / 1.6, high * 1.6)
            return
        if v.size == 0:
            self.ax.set_ylim(0, 1)
            return
        high = float(v.max())
        self.ax.set_ylim(0, high * 1.08 if high > 0 else 1.0)


def plot_curves(ax: Axes, curves: Sequence[Curve], labels: Sequence[str], *, log_scale: bool | None = None,
                title: str = "", ylabel: str | None = None, crossings: Sequence[float] = ()) -> CurveArtists:
    """Draw risk curves D(alpha) or loss curves I(theta), one line per configuration.

    Points of the grid at +-inf are drawn as a marker beyond the axis end, labelled
    with the infinity sign; ``crossings`` (parameter values) are marked on the first
    curve.  Risk curves use a log y-axis by default (zero displacements count as
    1e-8, so D spans many decades).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from explorer.core.dominance import risk_curve, alpha_grid
    >>> ax = Figure().subplots()
    >>> g = alpha_grid(-4, 20, include_minus_inf=True)
    >>> artists = plot_curves(ax, [risk_curve([3, 0, 0, 1, -4], g), risk_curve([0, 2, 2, -2, -2], g)], ["r2", "r3"])
    >>> len(artists.lines), round(float(artists.lines[1].get_ydata()[-1]), 2)
    (2, 1.6)
    """
    if not curves:
        raise ValueError("plot_curves needs at least one curve")
    kind = curves[0].kind
    log = (kind == "risk") if log_scale is None else bool(log_scale)
    lines, limits = [], []
    for index, (curve, label) in enumerate(zip(curves, labels)):
        color = COLORS[index % len(COLORS)]
        (line,) = ax.plot([], [], color=color, lw=2, label=label)
        (limit,) = ax.plot([], [], "o", color=color, ms=6, mfc="white", mew=2)
        lines.append(line)
        limits.append(limit)
    (cross,) = ax.plot([], [], "x", color="black", ms=9, mew=2, label="crossing", zorder=5)
    symbol = "α" if kind == "risk" else "θ"
    ax.set_xlabel(f"{symbol}  ({'aversion to disclosure risk' if kind == 'risk' else 'aversion to information loss'})")
    ax.set_ylabel(ylabel or ("D  (higher: more protection)" if kind == "risk" else "I  (lower: more information)"))
    if log:
        ax.set_yscale("log")
    ax.grid(True, alpha=0.3)
    note = ax.text(0.01, 0.02, "", transform=ax.transAxes, fontsize=8, color="#555555")
    ax.legend(loc="best", fontsize=8)
    artists = CurveArtists(ax, lines, limits, cross, note, kind, log, list(labels))
    artists.update(curves, crossings=crossings, title=title)
    return artists


@dataclass
class CalibrationArtists:
    """The calibration view: one point per configuration, a path for a parameter sweep, the risk target."""

    ax: Axes
    points: PathCollection
    point_labels: list[Text]
    path: Line2D
    path_labels: list[Text]
    target: Line2D
    best: Line2D

    def update(self, points: Sequence[CalibrationPoint], path: Sequence[CalibrationPoint] = (), *,
               target: float | None = None, best: CalibrationPoint | None = None,
               xlabel: str | None = None, ylabel: str | None = None) -> None:
        """Move the points, the sweep path, the target line and the best-choice marker."""
        xy = np.array([[p.risk, p.loss] for p in points], dtype=float).reshape(-1, 2)
        self.points.set_offsets(xy)
        self.points.set_facecolors([COLORS[i % len(COLORS)] for i in range(len(points))])
        for text in self.point_labels:
            text.remove()
        # Name the points of a comparison; a sweep's points are named by the parameter labels of the path.
        named = [] if path or len(points) > 4 else points
        self.point_labels = [self.ax.annotate(p.label, (p.risk, p.loss), textcoords="offset points",
                                              xytext=(5, 5), fontsize=8) for p in named]
        path_xy = np.array([[p.risk, p.loss] for p in path], dtype=float).reshape(-1, 2)
        self.path.set_data(path_xy[:, 0], path_xy[:, 1])
        for text in self.path_labels:
            text.remove()
        self.path_labels = [self.ax.annotate(f"{p.parameter:g}", (p.risk, p.loss), textcoords="offset points",
                                             xytext=(-4, -11), fontsize=7, color="#555555")
                            for p in path if p.parameter is not None]
        if target is None or not math.isfinite(target):
            self.target.set_visible(False)
        else:
            self.target.set_visible(True)
            self.target.set_xdata([target, target])
        if best is None:
            self.best.set_data([], [])
        else:
            self.best.set_data([best.risk], [best.loss])
        everything = np.vstack([xy, path_xy]) if path_xy.size else xy
        if target is not None and math.isfinite(target):
            everything = np.vstack([everything, [[target, everything[:, 1].min() if everything.size else 0.0]]])
        if everything.size:
            x_low, x_high = float(everything[:, 0].min()), float(everything[:, 0].max())
            y_high = float(everything[:, 1].max())
            span = x_high - x_low if x_high > x_low else max(abs(x_high), 1.0)
            self.ax.set_xlim(x_low - 0.1 * span, x_high + 0.15 * span)
            self.ax.set_ylim(0, y_high * 1.15 if y_high > 0 else 1.0)
        if xlabel is not None:
            self.ax.set_xlabel(xlabel)
        if ylabel is not None:
            self.ax.set_ylabel(ylabel)


def plot_calibration(ax: Axes, points: Sequence[CalibrationPoint], path: Sequence[CalibrationPoint] = (), *,
                     target: float | None = None, best: CalibrationPoint | None = None) -> CalibrationArtists:
    """Draw the calibration plane of 000 Section VI-B: protection D(alpha_1) across, loss I(theta_2) up.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> ax = Figure().subplots()
    >>> a = plot_calibration(ax, [CalibrationPoint("swap", 2.0, 1.0)], [CalibrationPoint("n", 1, 0.5, 0.1)], target=1.5)
    >>> a.points.get_offsets().tolist(), a.target.get_xdata()
    ([[2.0, 1.0]], [1.5, 1.5])
    """
    scatter = ax.scatter([], [], s=60, zorder=4, edgecolors="black")
    (path_line,) = ax.plot([], [], "-o", color="#777777", ms=4, lw=1.2, zorder=3, label="parameter sweep")
    target_line = ax.axvline(0.0, color="#b00020", ls="--", lw=1.2, label="risk target")
    (best_marker,) = ax.plot([], [], "*", color="#b00020", ms=16, zorder=6, label="least loss meeting the target")
    ax.set_xlabel("D(α₁, β)  (protection: higher is safer)")
    ax.set_ylabel("I(θ₂, π)  (information loss)")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper left", fontsize=8)
    artists = CalibrationArtists(ax, scatter, [], path_line, [], target_line, best_marker)
    artists.update(points, path, target=target, best=best)
    return artists
