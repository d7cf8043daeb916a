"""Plots of risk and loss curves and of the calibration view (Ruiz (2018), Sections 3-5 [1]_;
Domingo-Ferrer and Soria-Comas (2018), Section VI-B [2]_).

Each ``plot_x(ax, ...)`` draws once and returns a dataclass of its artists with an
``update(...)`` method that changes their data in place, ``moving()`` (the artists an
update changes) and ``static_key()`` (what the rest of the picture depends on: limits,
ticks, labels).  :class:`FigureRedraw` uses them to redraw a figure as little as
possible: nothing when its data did not change, a blit of the moving artists over the
saved background when only they changed (matplotlib's ``copy_from_bbox`` /
``restore_region`` / ``draw_artist`` / ``blit``), a full draw otherwise.  Axis limits
are sticky (they change only when the data leave them or fill too little of them), so
that a slider move usually blits.  The number of lines is structural: a panel that
changes the number of configurations clears the Axes and plots again.  No pyplot
state is used.

References
----------
.. [1] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization: centrality
   of permutation matrices, universal measures of disclosure risk and information loss, evaluation by
   dominance", Information Sciences, 2018.
.. [2] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
   differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.
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
from matplotlib.transforms import offset_copy

from matplotlib.figure import Figure

from explorer.core.dominance import CalibrationPoint, Curve
from explorer.plotting import style
from explorer.plotting.randomized_response import BlitManager, CachedText

__all__ = ["COLORS", "CurveArtists", "plot_curves", "CalibrationArtists", "plot_calibration", "FigureRedraw"]

#: One colour per configuration (:data:`explorer.plotting.style.SERIES`); each curve also has its own line style.
COLORS = style.SERIES
#: Sticky limits: kept while the data fit in them and span at least 1 / LOOSENESS of the wanted span
#: (curves; the calibration plane, whose points jump further with alpha_1 and theta_2, keeps them longer).
LOOSENESS = 1.6
CALIBRATION_LOOSENESS = 3.0


def _sticky(current: tuple[float, float], wanted: tuple[float, float], data: tuple[float, float],
            looseness: float = LOOSENESS, headroom: tuple[float, float] = (0.0, 0.0)) -> tuple[float, float]:
    """The current limits if the data fit in them and they are not much wider than wanted; else wanted.

    New limits get ``headroom`` (fractions of the wanted span) added below and above, so that the next
    small move of the data still fits.

    >>> _sticky((0.0, 10.0), (0.0, 8.0), (0.0, 7.5))     # fits, not too loose: kept
    (0.0, 10.0)
    >>> _sticky((0.0, 10.0), (0.0, 12.0), (0.0, 11.0))   # the data leave them: the wanted limits
    (0.0, 12.0)
    """
    low, high = current
    fits = low <= data[0] and data[1] <= high
    span = wanted[1] - wanted[0]
    if fits and (high - low) <= looseness * span:
        return current
    return (wanted[0] - headroom[0] * span, wanted[1] + headroom[1] * span)


def _static_key(ax: Axes, moving: Sequence) -> tuple:
    """What a full draw of ``ax`` depends on besides its moving artists (a blit is valid while it stays)."""
    return (tuple(ax.get_xlim()), tuple(ax.get_ylim()), ax.get_xscale(), ax.get_yscale(),
            tuple(ax.get_xticks()), tuple(t.get_text() for t in ax.get_xticklabels()),
            ax.get_xlabel(), ax.get_ylabel(), tuple(id(a) for a in moving), tuple(ax.figure.bbox.bounds))


class FigureRedraw:
    """Redraw one figure as little as possible after its artists were updated.

    :meth:`unchanged` says whether the data shown are the same as last time (then
    nothing is drawn); :meth:`show` blits the moving artists when the rest of the
    picture (``static_key``) is unchanged and a background is saved, and asks for a
    full draw otherwise.  ``n_skipped``, ``n_blits`` and ``n_full`` count what happened.

    Examples
    --------
    >>> from matplotlib.backends.backend_agg import FigureCanvasAgg
    >>> figure = Figure(); _ = FigureCanvasAgg(figure); ax = figure.add_subplot()
    >>> (line,) = ax.plot([0, 1], [0, 1])
    >>> redraw = FigureRedraw(figure)
    >>> redraw.show("a", [line], ("limits",))       # the first time: a full draw is requested
    'full'
    >>> figure.canvas.draw(); redraw.unchanged("a")
    True
    >>> line.set_ydata([1, 0]); redraw.show("b", [line], ("limits",))
    'blit'
    """

    def __init__(self, figure: Figure) -> None:
        self.figure = figure
        self.blitter = BlitManager(figure)
        self._data_key: object = None
        self._static_key: object = None
        self._layout_key: object = None
        self._relayout = False
        self.n_skipped = 0
        self.n_blits = 0
        self.n_full = 0
        figure.canvas.mpl_connect("draw_event", self._after_draw)

    def _layout(self, moving: Sequence) -> tuple:
        """What the constrained layout depends on: the artists, the labels and the width of the tick labels."""
        parts: list = [tuple(self.figure.bbox.bounds), tuple(id(a) for a in moving)]
        for ax in self.figure.axes:
            parts += [ax.get_xlabel(), ax.get_ylabel(), bool(ax.get_title()),
                      tuple(len(t.get_text()) for t in ax.get_yticklabels())]
        return tuple(parts)

    def _after_draw(self, event) -> None:
        # The constrained layout measures every text on every draw: after the draw that placed the axes,
        # it is switched off (the axes stay where it put them) until the layout key changes.
        if self._relayout and not self.figure.canvas.is_saving():
            self._relayout = False
            self.figure.set_layout_engine("none")

    def unchanged(self, data_key: object) -> bool:
        """True (and counted as skipped) when ``data_key`` is what the figure shows already."""
        if self._data_key is not None and data_key == self._data_key:
            self.n_skipped += 1
            return True
        return False

    def invalidate(self) -> None:
        """Forget what is shown (the next :meth:`show` draws the whole figure)."""
        self._data_key = self._static_key = self._layout_key = None
        self.blitter.invalidate()

    def show(self, data_key: object, moving: Sequence, static_key: object) -> str:
        """Show the updated artists: ``"blit"`` or ``"full"`` (a ``draw_idle`` request)."""
        self._data_key = data_key
        if static_key == self._static_key and self.blitter.background is not None and self.blitter.update():
            self.n_blits += 1
            return "blit"
        self._static_key = static_key
        self.blitter.set_artists(list(moving))
        layout = self._layout(moving)
        if layout != self._layout_key:
            self._layout_key = layout
            self.figure.set_layout_engine("constrained")
            self._relayout = True
        self.figure.canvas.draw_idle()
        self.n_full += 1
        return "full"


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

    def moving(self) -> list:
        """The artists an update changes (blitted over the background): lines, markers, notes, title."""
        return [*self.lines, *self.limits, self.crossings, self.note, self.ax.title]

    def static_key(self) -> tuple:
        """What the rest of the picture depends on (limits, ticks, labels, the artists themselves)."""
        return _static_key(self.ax, self.moving()) + (tuple(self.labels),)

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
            current = tuple(math.log10(b) if b > 0 else -math.inf for b in self.ax.get_ylim())
            wanted = (math.log10(low / 1.6), math.log10(high * 1.6))
            limits = _sticky(current, wanted, (math.log10(low), math.log10(high)))  # type: ignore[arg-type]
            self.ax.set_ylim(10 ** limits[0], 10 ** limits[1])
            return
        if v.size == 0:
            self.ax.set_ylim(0, 1)
            return
        high = float(v.max())
        wanted = (0.0, high * 1.08 if high > 0 else 1.0)
        self.ax.set_ylim(*_sticky(tuple(self.ax.get_ylim()), wanted, (0.0, high)))  # type: ignore[arg-type]


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
        (line,) = ax.plot([], [], color=color, lw=2, linestyle=style.LINESTYLES[index % len(style.LINESTYLES)],
                          label=label)
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
    note = ax.text(0.01, 0.02, "", transform=ax.transAxes, fontsize=9, color=style.NOTE)
    ax.legend(loc="best", fontsize=9)
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
        # Name the points of a comparison; a sweep's points are named by the parameter labels of the path.
        named = [] if path or len(points) > 4 else points
        self.point_labels = self._annotations(self.point_labels, [(p.label, p.risk, p.loss) for p in named],
                                              offset=(5, 5), fontsize=9)
        path_xy = np.array([[p.risk, p.loss] for p in path], dtype=float).reshape(-1, 2)
        self.path.set_data(path_xy[:, 0], path_xy[:, 1])
        self.path_labels = self._annotations(
            self.path_labels, [(f"{p.parameter:g}", p.risk, p.loss) for p in path if p.parameter is not None],
            offset=(-4, -12), fontsize=9, color=style.NOTE)
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
        if target is not None and math.isfinite(target) and target > 0:
            everything = np.vstack([everything, [[target, everything[:, 1].min() if everything.size else 0.0]]])
        xs = everything[:, 0][everything[:, 0] > 0] if everything.size else np.array([])
        if xs.size:                        # the protection axis is logarithmic: D spans many decades
            x_low, x_high = math.log10(float(xs.min())), math.log10(float(xs.max()))
            span = max(x_high - x_low, 0.5)
            current = tuple(math.log10(b) if b > 0 else -math.inf for b in self.ax.get_xlim())
            limits = _sticky(current, (x_low - 0.1 * span, x_high + 0.15 * span),  # type: ignore[arg-type]
                             (x_low - 0.05 * span, x_high + 0.1 * span), CALIBRATION_LOOSENESS, (0.25, 0.25))
            self.ax.set_xlim(10 ** limits[0], 10 ** limits[1])
        if everything.size:
            y_high = float(everything[:, 1].max())
            self.ax.set_ylim(*_sticky(tuple(self.ax.get_ylim()),  # type: ignore[arg-type]
                                      (0.0, y_high * 1.15 if y_high > 0 else 1.0), (0.0, y_high * 1.08),
                                      CALIBRATION_LOOSENESS, (0.0, 0.25)))
        if xlabel is not None:
            self.ax.set_xlabel(xlabel)
        if ylabel is not None:
            self.ax.set_ylabel(ylabel)

    def _annotations(self, texts: list[Text], items: list[tuple[str, float, float]], *,
                     offset: tuple[float, float], **style) -> list[Text]:
        """Labels beside points, ``offset`` points away: the same artists moved and renamed when their number
        is unchanged.  They are :class:`CachedText` (drawn from cached bitmaps: a blit redraws them all)."""
        if len(texts) == len(items):
            for text, (label, x, y) in zip(texts, items):
                text.set_text(label)
                text.set_position((x, y))
            return texts
        for text in texts:
            text.remove()
        transform = offset_copy(self.ax.transData, fig=self.ax.figure, x=offset[0], y=offset[1], units="points")
        return [self.ax.add_artist(CachedText(x, y, label, transform=transform, in_layout=False, **style))
                for label, x, y in items]

    def moving(self) -> list:
        """The artists an update changes (blitted over the background)."""
        return [self.points, self.path, self.target, self.best, *self.point_labels, *self.path_labels,
                self.ax.title]

    def static_key(self) -> tuple:
        """What the rest of the picture depends on (limits, ticks, labels, the artists themselves)."""
        return _static_key(self.ax, self.moving())


def plot_calibration(ax: Axes, points: Sequence[CalibrationPoint], path: Sequence[CalibrationPoint] = (), *,
                     target: float | None = None, best: CalibrationPoint | None = None) -> CalibrationArtists:
    """Draw the calibration plane (Domingo-Ferrer and Soria-Comas (2018), Section VI-B): protection
    D(alpha_1, beta) across, information loss I(theta_2, pi) up.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> ax = Figure().subplots()
    >>> a = plot_calibration(ax, [CalibrationPoint("swap", 2.0, 1.0)], [CalibrationPoint("n", 1, 0.5, 0.1)], target=1.5)
    >>> a.points.get_offsets().tolist(), a.target.get_xdata()
    ([[2.0, 1.0]], [1.5, 1.5])
    """
    scatter = ax.scatter([], [], s=60, zorder=4, edgecolors="black")
    (path_line,) = ax.plot([], [], "-o", color=style.GREY, ms=4, lw=1.2, zorder=3, label="parameter sweep")
    target_line = ax.axvline(1.0, color=style.RED, ls="--", lw=1.2, label="risk target")
    (best_marker,) = ax.plot([], [], "*", color=style.RED, ms=16, zorder=6, label="least loss meeting the target")
    ax.set_xscale("log")
    ax.set_xlabel("D(α₁, β)  (protection: higher is safer; log scale)")
    ax.set_ylabel("I(θ₂, π)  (information loss)")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper left", fontsize=9)
    artists = CalibrationArtists(ax, scatter, [], path_line, [], target_line, best_marker)
    artists.update(points, path, target=target, best=best)
    return artists
