"""Plots of randomized response and deniability (Domingo-Ferrer and Soria-Comas 2018, Sections II-III; Domingo-Ferrer and Soria-Comas 2022, Section 2).

Each ``plot_x(ax, ...)`` draws on a matplotlib Axes (no pyplot state) and returns
an artists object whose ``update(...)`` changes the drawing in place; a change of
shape (another number of categories) redraws the Axes once.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
from matplotlib import patheffects
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.text import Text
from matplotlib.transforms import IdentityTransform

from explorer.plotting import style

__all__ = [
    "BlitManager",
    "layout_once",
    "layout_done",
    "CachedText",
    "MatrixArtists",
    "DeniabilityArtists",
    "CurveArtists",
    "EstimateArtists",
    "plot_matrix",
    "plot_posterior",
    "plot_deniability",
    "plot_deniability_curve",
    "plot_estimates",
    "format_epsilon",
]

#: Cell values are written in heatmaps up to this many categories (text is the costly part of a redraw).
MAX_ANNOTATED = 3

#: Each estimate's series number in :mod:`explorer.plotting.style` (colour and hatch): "true" plain grey.
ESTIMATE_SERIES = {"true": 5, "inversion": 0, "clip": 4, "simplex": 2, "ibu": 3}
ESTIMATE_COLORS = {name: style.series_color(index) for name, index in ESTIMATE_SERIES.items()}


class BlitManager:
    """Redraw only the artists that move, over a saved background (matplotlib's blitting pattern).

    The chosen artists are marked animated, so a full draw leaves them out; after
    every full draw (``draw_event``) the background is saved and they are drawn
    on top.  :meth:`update` then restores the background, draws those artists and
    blits: a slider move costs a few artists instead of the whole figure (axes,
    ticks, legends).  Without a saved background (nothing drawn yet) it asks for
    a full draw instead.

    Examples
    --------
    >>> from matplotlib.backends.backend_agg import FigureCanvasAgg
    >>> figure = Figure(); _ = FigureCanvasAgg(figure); ax = figure.add_subplot()
    >>> (line,) = ax.plot([0, 1], [0, 1])
    >>> manager = BlitManager(figure); manager.set_artists([line])
    >>> manager.update()          # nothing drawn yet: a full draw is requested
    False
    >>> figure.canvas.draw(); line.set_ydata([1, 0]); manager.update()
    True
    """

    def __init__(self, figure: Figure) -> None:
        self.figure = figure
        self.artists: list = []
        self.background = None
        self._size: tuple = (0, 0)
        self.suspended = False
        self.n_blits = 0
        self.n_full = 0
        figure.canvas.mpl_connect("draw_event", self._on_draw)

    def set_artists(self, artists: list) -> None:
        """Choose the moving artists (the background must be redrawn: a full draw is next)."""
        for artist in self.artists:
            artist.set_animated(False)
        self.artists = list(artists)
        for artist in self.artists:
            artist.set_animated(True)
        self.background = None

    def invalidate(self) -> None:
        self.background = None

    def _on_draw(self, event) -> None:
        """After a full draw of the interactive canvas: save the background, draw the moving artists.

        ``savefig`` (any format) draws animated artists itself (``canvas.is_saving()``),
        so nothing is done then.
        """
        canvas = self.figure.canvas
        if self.suspended or canvas.is_saving() or not hasattr(canvas, "copy_from_bbox"):
            return
        self.n_full += 1
        self.background = canvas.copy_from_bbox(self.figure.bbox)
        renderer = canvas.get_renderer()
        self._size = (renderer.width, renderer.height)
        self._draw_animated()

    def _draw_animated(self) -> None:
        for artist in self.artists:
            self.figure.draw_artist(artist)

    def update(self) -> bool:
        """Blit the moving artists; True if blitted, False if a full draw was requested instead."""
        canvas = self.figure.canvas
        if self.background is not None:
            renderer = canvas.get_renderer()
            if (renderer.width, renderer.height) != self._size:   # e.g. a savefig at another dpi
                self.background = None
        if self.background is None:
            canvas.draw_idle()
            return False
        canvas.restore_region(self.background)
        self._draw_animated()
        canvas.blit(self.figure.bbox)
        self.n_blits += 1
        return True


def layout_once(figure: Figure, key: tuple) -> None:
    """Run the constrained layout only on the next full draw after a structural change ``key``.

    The layout measures every text on every draw; after one draw :func:`layout_done` (connected to the
    figure's ``draw_event``) switches it off and the axes stay where it put them, so later draws (and blits)
    cost only the drawing.

    Examples
    --------
    >>> from matplotlib.backends.backend_agg import FigureCanvasAgg
    >>> figure = Figure()
    >>> _ = FigureCanvasAgg(figure).mpl_connect("draw_event", layout_done)
    >>> layout_once(figure, ("main", ("a", "b")))
    >>> type(figure.get_layout_engine()).__name__
    'ConstrainedLayoutEngine'
    >>> figure.canvas.draw(); type(figure.get_layout_engine()).__name__     # laid out once, then left as is
    'PlaceHolderLayoutEngine'
    """
    if getattr(figure, "_explorer_layout_key", None) == key:
        return
    figure.set_layout_engine("constrained")
    figure._explorer_layout_key = key
    figure._explorer_layout_pending = True


def layout_done(event: Any) -> None:
    """A ``draw_event`` handler: switch the layout off after the draw :func:`layout_once` asked for."""
    figure = event.canvas.figure
    if getattr(figure, "_explorer_layout_pending", False):
        figure._explorer_layout_pending = False
        figure.set_layout_engine("none")


class CachedText(Text):
    """A Text that an Agg canvas draws from a cached bitmap: ~20x faster than rendering its glyphs.

    Heatmap cells show few distinct strings ("0.00" to "1.00", two colours) at fixed
    places, yet a blitted slider move redraws every one, and glyph rendering is most of
    that cost.  The bitmap is keyed by string, colour, font, alignment and dpi, and is
    the text as Text draws it with its anchor on the nearest whole pixel (at most half a
    pixel from the unrounded place), so a blit and a full draw give the same pixels.
    Other renderers (SVG, PDF) and texts with rotation, wrapping, boxes, path effects,
    TeX or math draw as plain Text.

    Examples
    --------
    >>> from matplotlib.backends.backend_agg import FigureCanvasAgg
    >>> def picture(cls, color):          # the anchor on a whole pixel: (40, 30)
    ...     figure = Figure(figsize=(1, 1), facecolor="#08306b"); canvas = FigureCanvasAgg(figure)
    ...     figure.add_artist(cls(40, 30, "0.74", color=color, ha="center", va="center",
    ...                           transform=IdentityTransform()))
    ...     canvas.draw(); return np.asarray(canvas.buffer_rgba()).copy()
    >>> all(np.array_equal(picture(CachedText, c), picture(Text, c)) for c in ("white", "black", "#d62728"))
    True
    """

    _bitmaps: OrderedDict = OrderedDict()      # shared by every CachedText of the process (LRU)
    MAX_BITMAPS = 2048                         # ~1 kB each (cropped)

    def _plain(self, renderer) -> bool:
        text = self.get_text()
        return (not isinstance(renderer, RendererAgg) or not text or "\n" in text or "$" in text
                or self.get_rotation() % 360 != 0 or self.get_wrap() or self.get_usetex()
                or self.get_bbox_patch() is not None or bool(self.get_path_effects())
                or getattr(self, "get_fontfeatures", lambda: None)() is not None
                or getattr(self, "get_language", lambda: None)() is not None)

    def _antialiased_flag(self):
        return getattr(self, "get_antialiased", lambda: None)()     # Text has it from matplotlib 3.10

    def draw(self, renderer) -> None:
        if not self.get_visible():
            return
        if self._plain(renderer):
            super().draw(renderer)
            return
        x, y = self.get_transform().transform(self.get_unitless_position())
        if not (math.isfinite(x) and math.isfinite(y)):
            return
        font = self.get_fontproperties()
        key = (self.get_text(), to_rgba(self.get_color(), self.get_alpha()),
               (tuple(font.get_family()), font.get_style(), font.get_variant(), font.get_weight(),
                font.get_stretch(), font.get_size_in_points(), font.get_file()),
               self.get_ha(), self.get_va(), self._antialiased_flag(), renderer.dpi)
        bitmap = self._bitmaps.get(key)
        if bitmap is None:
            bitmap = self._render(renderer)
            self._bitmaps[key] = bitmap
            if len(self._bitmaps) > self.MAX_BITMAPS:
                self._bitmaps.popitem(last=False)
        else:
            self._bitmaps.move_to_end(key)
        rgba, dx, dy = bitmap
        if rgba.size:
            gc = renderer.new_gc()
            self._clip(gc)
            renderer.draw_image(gc, round(x) + dx, round(y) + dy, rgba)
            gc.restore()
        self.stale = False

    def _clip(self, gc) -> None:
        """Clip ``gc`` as Text.draw does, through the Artist's public clip getters."""
        if self.get_clip_on():
            if self.get_clip_box() is not None:
                gc.set_clip_rectangle(self.get_clip_box())
            gc.set_clip_path(self.get_clip_path())
        else:
            gc.set_clip_rectangle(None)
            gc.set_clip_path(None)

    def _render(self, renderer) -> tuple:
        """This text alone on a small transparent Agg canvas, anchored at a whole pixel, cropped.

        Returns the RGBA rows bottom-up (as ``draw_image`` takes them) and the offset of
        their lower-left corner from the anchor, in pixels.
        """
        w, h, _ = renderer.get_text_width_height_descent(self.get_text(), self.get_fontproperties(), False)
        width, height = 2 * math.ceil(w) + 8, 2 * math.ceil(h) + 8
        cx, cy = width // 2, height // 2
        offscreen = RendererAgg(width, height, renderer.dpi)
        clone = Text(cx, cy, self.get_text(), color=self.get_color(), alpha=self.get_alpha(),
                     fontproperties=self.get_fontproperties(), ha=self.get_ha(), va=self.get_va(),
                     transform=IdentityTransform())
        if self._antialiased_flag() is not None:
            clone.set_antialiased(self._antialiased_flag())
        clone.set_figure(self.figure)
        clone.draw(offscreen)
        rgba = np.asarray(offscreen.buffer_rgba())[::-1]          # row 0 = the bottom (y = 0)
        rows, cols = np.nonzero(rgba[:, :, 3].any(axis=1))[0], np.nonzero(rgba[:, :, 3].any(axis=0))[0]
        if rows.size == 0:
            return np.zeros((0, 0, 4), dtype=np.uint8), 0, 0
        crop = rgba[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1].copy()
        return crop, int(cols[0]) - cx, int(rows[0]) - cy


def __getattr__(name: str):
    """``encode_png`` moved to :mod:`explorer.plotting._render` (the PNG encoder of the canvas); this
    name keeps working for one release, with a DeprecationWarning."""
    if name == "encode_png":
        import warnings

        from explorer.plotting._render import encode_png
        warnings.warn("explorer.plotting.randomized_response.encode_png moved to explorer.plotting._render.encode_png",
                      DeprecationWarning, stacklevel=2)
        return encode_png
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def format_epsilon(epsilon: float) -> str:
    """epsilon as shown in titles: ``"ε = 1.099"``, ``"ε = ∞"``.

    Examples
    --------
    >>> format_epsilon(math.log(3)), format_epsilon(math.inf)
    ('ε = 1.099', 'ε = ∞')
    """
    return "ε = ∞" if math.isinf(epsilon) else f"ε = {epsilon:.4g}"


def _set_category_ticks(ax: Axes, axis: str, names: list[str]) -> None:
    ticks = np.arange(len(names))
    slanted = axis == "x" and (len(names) > 6 or max(len(n) for n in names) > 4)
    if axis == "x":
        ax.set_xticks(ticks, names, fontsize=9, rotation=30 if slanted else 0, ha="right" if slanted else "center",
                      rotation_mode="anchor")
    else:
        ax.set_yticks(ticks, names, fontsize=9)


def _labels(labels: Sequence[str] | None, r: int) -> list[str]:
    if labels is None or len(labels) != r:
        return [str(i + 1) for i in range(r)]
    return [str(label)[:12] for label in labels]


# --------------------------------------------------------------------------- heatmaps


@dataclass
class MatrixArtists:
    """A heatmap with its cell texts, and a frame marking one column.

    ``image.get_array()`` holds the values; ``column_box`` frames the marked
    column (invisible when none); ``texts[u][v]`` are the cell labels.
    """

    ax: Axes
    image: object
    texts: list = field(default_factory=list)
    column_box: Rectangle | None = None
    kind: str = "matrix"
    labels: list[str] = field(default_factory=list)
    title: str = ""

    @property
    def shape(self) -> tuple[int, int]:
        return tuple(np.shape(self.image.get_array()))  # type: ignore[attr-defined]

    def moving(self) -> list:
        """The artists an update changes (for blitting)."""
        found = [self.image, *(t for row in self.texts for t in row)]
        if self.kind == "matrix":          # its title carries epsilon; the posterior's never changes
            found.append(self.ax.title)
        return found + ([self.column_box] if self.column_box is not None else [])

    def update(self, values: np.ndarray, *, column: int | None = None, title: str | None = None,
               labels: Sequence[str] | None = None) -> None:
        values = np.asarray(values, dtype=float)
        if values.shape != self.shape or (labels is not None and _labels(labels, values.shape[0]) != self.labels):
            _draw_heatmap(self, values, labels)
        self.image.set_data(np.ma.masked_invalid(values))  # type: ignore[attr-defined]
        for u, row in enumerate(self.texts):
            for v, text in enumerate(row):
                value = values[u, v]
                text.set_text("" if np.isnan(value) else f"{value:.2f}")
                text.set_color("black" if np.isnan(value) else
                               style.text_color_on(self.image.cmap(self.image.norm(value))))  # type: ignore
        if self.column_box is not None:
            if column is None:
                self.column_box.set_visible(False)
            else:
                self.column_box.set_x(column - 0.5)
                self.column_box.set_visible(True)
        if title is not None:
            self.title = title
        self.ax.set_title(self.title, fontsize=10)


def _draw_heatmap(artists: MatrixArtists, values: np.ndarray, labels: Sequence[str] | None) -> None:
    ax = artists.ax
    ax.clear()
    r = values.shape[0]
    names = _labels(labels, r)
    artists.labels = names
    artists.image = ax.imshow(np.ma.masked_invalid(values), vmin=0.0, vmax=1.0, cmap=style.HEATMAP,
                              interpolation="nearest", aspect="equal")
    _set_category_ticks(ax, "x", names)
    _set_category_ticks(ax, "y", names)
    if artists.kind == "matrix":
        ax.set(xlabel="reported Y = v", ylabel="true X = u")
    else:
        ax.set(xlabel="true X = u", ylabel="reported Y = v")
    size = 9
    # cached bitmaps: the texts are most of a blitted move's drawing (see CachedText)
    artists.texts = [[ax.add_artist(CachedText(v, u, "", ha="center", va="center", fontsize=size, in_layout=False,
                                               transform=ax.transData))
                      for v in range(r)] for u in range(r)] if r <= MAX_ANNOTATED else []
    if artists.kind == "matrix":
        artists.column_box = Rectangle((-0.5, -0.5), 1.0, r, fill=False, edgecolor=style.REFERENCE, linewidth=2.5,
                                       path_effects=[patheffects.withStroke(linewidth=5.5, foreground="white")],
                                       visible=False)
        ax.add_patch(artists.column_box)
    ax.set_xlim(-0.5, r - 0.5)
    ax.set_ylim(r - 0.5, -0.5)


def plot_matrix(ax: Axes, matrix: np.ndarray, *, epsilon: float | None = None, column: int | None = None,
                labels: Sequence[str] | None = None) -> MatrixArtists:
    """The RR matrix P as a heatmap, the column attaining epsilon (Domingo-Ferrer and Soria-Comas 2018, Eq. 6) framed in red.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> art = plot_matrix(Figure().add_subplot(), np.eye(2), epsilon=math.inf, column=0)
    >>> art.column_box.get_visible(), art.ax.get_title()
    (True, 'P = Pr(Y=v | X=u),  ε = ∞ (column 1)')
    """
    artists = MatrixArtists(ax=ax, image=None, kind="matrix")
    values = np.asarray(matrix, dtype=float)
    _draw_heatmap(artists, values, labels)
    artists.update(values, column=column, title=_matrix_title(epsilon, column), labels=labels)
    return artists


def _matrix_title(epsilon: float | None, column: int | None) -> str:
    title = "P = Pr(Y=v | X=u)"
    if epsilon is not None:
        title += f",  {format_epsilon(epsilon)}"
        if column is not None:
            title += f" (column {column + 1})"
    return title


def matrix_title(epsilon: float | None, column: int | None) -> str:
    """The title :func:`plot_matrix` uses (for panels updating it)."""
    return _matrix_title(epsilon, column)


def plot_posterior(ax: Axes, posterior: np.ndarray, *, labels: Sequence[str] | None = None) -> MatrixArtists:
    """The posterior Q[v, u] = Pr(X = u | Y = v) (Domingo-Ferrer and Soria-Comas 2018, Eq. 3) as a heatmap; impossible reports blank.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> art = plot_posterior(Figure().add_subplot(), np.array([[0.881, 0.119], [0.225, 0.775]]))
    >>> art.texts[0][0].get_text()
    '0.88'
    """
    artists = MatrixArtists(ax=ax, image=None, kind="posterior")
    values = np.asarray(posterior, dtype=float)
    _draw_heatmap(artists, values, labels)
    artists.update(values, title="posterior Pr(X=u | Y=v)", labels=labels)
    return artists


# --------------------------------------------------------------------------- deniability bars


@dataclass
class DeniabilityArtists:
    """Bars of H(X|Y=v), the H(X) and log2 r lines, misinformative bars hatched."""

    ax: Axes
    bars: object
    prior_line: object
    max_line: object
    labels: list[str] = field(default_factory=list)

    @property
    def heights(self) -> np.ndarray:
        return np.array([bar.get_height() for bar in self.bars])  # type: ignore[attr-defined]

    def moving(self) -> list:
        """The artists an update for the same prior changes (for blitting)."""
        return list(self.bars)  # type: ignore[call-overload]

    def update(self, entropies: np.ndarray, prior_entropy: float, misinformative: np.ndarray | None = None,
               labels: Sequence[str] | None = None) -> None:
        h = np.asarray(entropies, dtype=float)
        r = h.size
        if r != len(self.bars) or (labels is not None and _labels(labels, r) != self.labels):  # type: ignore
            _draw_deniability(self, r, labels)
        mis = np.zeros(r, dtype=bool) if misinformative is None else np.asarray(misinformative, dtype=bool)
        for bar, height, flag in zip(self.bars, h, mis):  # type: ignore[call-overload]
            bar.set_height(0.0 if np.isnan(height) else height)
            bar.set_facecolor(style.RED if flag else style.BLUE)
            bar.set_hatch(style.HATCHES[1] if flag else "")
        self.prior_line.set_ydata([prior_entropy, prior_entropy])  # type: ignore[attr-defined]


def _draw_deniability(artists: DeniabilityArtists, r: int, labels: Sequence[str] | None) -> None:
    ax = artists.ax
    ax.clear()
    names = _labels(labels, r)
    artists.labels = names
    artists.bars = ax.bar(np.arange(r), np.zeros(r), color=style.BLUE, edgecolor=style.BAR_EDGE, linewidth=0.6,
                          label="H(X | Y=v)")
    artists.prior_line = ax.axhline(0.0, linestyle="--", color=style.REFERENCE, label="H(X)")
    top = math.log2(r)
    artists.max_line = ax.axhline(top, color=style.GREY, linestyle=":", label="log2 r")
    _set_category_ticks(ax, "x", names)
    ax.set_ylim(0, top * 1.3)
    ax.set(xlabel="reported value v", ylabel="bits")
    ax.set_title("deniability H(X | Y=v); hatched: misinformative", fontsize=10)
    ax.legend(fontsize=9, loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=3, frameon=False)


def plot_deniability(ax: Axes, entropies: np.ndarray, prior_entropy: float,
                     misinformative: np.ndarray | None = None, *,
                     labels: Sequence[str] | None = None) -> DeniabilityArtists:
    """H(X | Y = v) per report (Domingo-Ferrer and Soria-Comas 2018, Eq. 4) against H(X) and log2 r; misinformative reports hatched red.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> art = plot_deniability(Figure().add_subplot(), np.array([0.527, 0.769]), 1.0)
    >>> art.heights.round(3).tolist()
    [0.527, 0.769]
    """
    h = np.asarray(entropies, dtype=float)
    artists = DeniabilityArtists(ax=ax, bars=[], prior_line=None, max_line=None)
    _draw_deniability(artists, h.size, labels)
    artists.update(h, prior_entropy, misinformative, labels)
    return artists


# --------------------------------------------------------------------------- curve


@dataclass
class CurveArtists:
    """Deniability curve lines and the marker of the current epsilon."""

    ax: Axes
    conditional: object
    minimum: object
    guessing: object
    prior_line: object
    marker: object
    guess_axis: Axes | None = None
    point: object = None
    legend: object = None

    def update(self, epsilons: np.ndarray, conditional: np.ndarray, minimum: np.ndarray, guessing: np.ndarray,
               prior_entropy: float, n_categories: int, current: float | None = None,
               current_entropy: float | None = None) -> None:
        x = np.asarray(epsilons, dtype=float)
        self.conditional.set_data(x, conditional)  # type: ignore[attr-defined]
        self.minimum.set_data(x, minimum)  # type: ignore[attr-defined]
        self.guessing.set_data(x, guessing)  # type: ignore[attr-defined]
        self.prior_line.set_ydata([prior_entropy, prior_entropy])  # type: ignore[attr-defined]
        top = max(math.log2(n_categories), prior_entropy) * 1.3
        self.ax.set_ylim(0, top)
        self.ax.set_xlim(float(x.min()), float(x.max()))
        self.set_current(current, current_entropy)

    def moving(self) -> list:
        """The artists that follow the current epsilon (for blitting)."""
        return [self.marker, self.point]

    def set_current(self, current: float | None, current_entropy: float | None = None) -> None:
        """Move the epsilon marker (and the point H(X|Y) of the shown matrix, which may not be on the curve)."""
        visible = current is not None and math.isfinite(current)
        self.marker.set_visible(visible)  # type: ignore[attr-defined]
        self.point.set_visible(visible and current_entropy is not None)  # type: ignore[attr-defined]
        if visible:
            self.marker.set_xdata([current, current])  # type: ignore[attr-defined]
            if current_entropy is not None:
                self.point.set_data([current], [current_entropy])  # type: ignore[attr-defined]


def plot_deniability_curve(ax: Axes, epsilons: np.ndarray, conditional: np.ndarray, minimum: np.ndarray,
                           guessing: np.ndarray, prior_entropy: float, n_categories: int,
                           current: float | None = None, current_entropy: float | None = None) -> CurveArtists:
    """H(X|Y) and min_v H(X|Y=v) (left axis, bits) and the largest guessing probability (right axis)
    against epsilon, with the current epsilon marked (and the shown matrix's H(X|Y) as a dot).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> art = plot_deniability_curve(Figure().add_subplot(), np.array([0.0, 2.0]), np.array([1.0, 0.53]),
    ...                              np.array([1.0, 0.53]), np.array([0.5, 0.88]), 1.0, 2, current=2.0)
    >>> art.marker.get_xdata()
    [2.0, 2.0]
    """
    (cond,) = ax.plot([], [], color=style.BLUE, label="H(X | Y)")
    (minimum_line,) = ax.plot([], [], color=style.ORANGE, linestyle="--", label="min_v H(X | Y=v)")
    prior = ax.axhline(prior_entropy, color=style.REFERENCE, linestyle=":", linewidth=1, label="H(X)")
    # the marker stops below the legend band (the top quarter of the axes: y limits are 1.3 x the data)
    marker = ax.axvline(0.0, ymax=0.76, color=style.RED, linewidth=1.5, linestyle=(0, (6, 2)), label="current ε")
    (point,) = ax.plot([], [], "o", color=style.RED, markersize=6, label="H(X | Y) of this matrix")
    guess_axis = ax.twinx()
    (guess,) = guess_axis.plot([], [], color=style.PURPLE, linestyle="-.", label="best-guess probability")
    guess_axis.set_ylim(0, 1.3)
    guess_axis.set_ylabel("max Pr(X=u | Y=v)", fontsize=9)
    ax.set(xlabel="ε", ylabel="bits")
    ax.set_title("deniability as ε grows", fontsize=10)
    handles = [cond, minimum_line, prior, marker, point, guess]
    # the legend goes on the right-hand axes, drawn after the lines of both
    legend = guess_axis.legend(handles=handles, fontsize=9, loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=3,
                               frameon=False)
    artists = CurveArtists(ax=ax, conditional=cond, minimum=minimum_line, guessing=guess, prior_line=prior,
                           marker=marker, guess_axis=guess_axis, point=point, legend=legend)
    artists.update(epsilons, conditional, minimum, guessing, prior_entropy, n_categories, current, current_entropy)
    return artists


# --------------------------------------------------------------------------- estimates


@dataclass
class EstimateArtists:
    """Grouped bars: the true distribution and each estimate, with error bars."""

    ax: Axes
    series: list[str]
    bars: dict = field(default_factory=dict)
    errorbars: dict = field(default_factory=dict)
    n_categories: int = 0
    labels: list[str] = field(default_factory=list)

    def heights(self, name: str) -> np.ndarray:
        return np.array([bar.get_height() for bar in self.bars[name]])

    def update(self, values: dict[str, np.ndarray], errors: dict[str, float] | None = None,
               labels: Sequence[str] | None = None, title: str | None = None) -> None:
        r = len(next(iter(values.values())))
        if (r != self.n_categories or list(values) != self.series
                or (labels is not None and _labels(labels, r) != self.labels)):
            _draw_estimates(self, list(values), r, labels)
        errors = errors or {}
        low = 0.0
        high = 1.0
        for name, vector in values.items():
            vector = np.asarray(vector, dtype=float)
            for bar, height in zip(self.bars[name], vector):
                bar.set_height(0.0 if np.isnan(height) else height)
            low = min(low, float(np.nanmin(vector)) if np.any(np.isfinite(vector)) else 0.0)
            high = max(high, float(np.nanmax(vector)) if np.any(np.isfinite(vector)) else 1.0)
            bound = errors.get(name)
            container = self.errorbars.get(name)
            if container is not None:
                _set_errorbar(container, self._x(name), vector, bound)
        self.ax.set_ylim(min(-0.05, low - 0.05), high + 0.2)
        if title is not None:
            self.ax.set_title(title, fontsize=10)

    def _x(self, name: str) -> np.ndarray:
        k, width = self.series.index(name), 0.8 / len(self.series)
        return np.arange(self.n_categories) - 0.4 + width * (k + 0.5)


def _set_errorbar(container, x: np.ndarray, y: np.ndarray, bound: float | None) -> None:
    """Move an errorbar's vertical segments in place (hidden when there is no finite bound)."""
    _, _, (segments,) = container
    visible = bound is not None and math.isfinite(bound)
    if visible:
        segments.set_segments([np.array([[xi, yi - bound], [xi, yi + bound]]) for xi, yi in zip(x, y)])
    segments.set_visible(visible)


def _draw_estimates(artists: EstimateArtists, series: list[str], r: int, labels: Sequence[str] | None) -> None:
    ax = artists.ax
    ax.clear()
    artists.series, artists.n_categories = series, r
    artists.labels = _labels(labels, r)
    artists.bars, artists.errorbars = {}, {}
    width = 0.8 / len(series)
    for name in series:
        x = artists._x(name)
        index = ESTIMATE_SERIES.get(name, len(artists.bars))
        artists.bars[name] = ax.bar(x, np.zeros(r), width=width, label=name, **style.bar_style(index))
        if name != "true":
            artists.errorbars[name] = ax.errorbar(x, np.zeros(r), yerr=np.zeros(r), fmt="none", ecolor="black",
                                                  elinewidth=0.8, capsize=0)
    ax.axhline(0.0, color="black", linewidth=0.6)
    _set_category_ticks(ax, "x", _labels(labels, r))
    ax.set(xlabel="category u", ylabel="proportion")
    ax.legend(fontsize=9, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)


def plot_estimates(ax: Axes, values: dict[str, np.ndarray], errors: dict[str, float] | None = None, *,
                   labels: Sequence[str] | None = None, title: str | None = None) -> EstimateArtists:
    """The true distribution beside the estimates, each with a +/- error bar (Domingo-Ferrer and Soria-Comas 2022, Eq. 5 propagated).

    ``values`` maps a series name ("true", "inversion", "clip", "simplex", "ibu")
    to a vector; ``errors`` maps a name to a half-width (NaN/inf hides its bars).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> art = plot_estimates(Figure().add_subplot(), {"true": np.array([0.7, 0.3]),
    ...                                              "inversion": np.array([0.72, 0.28])}, {"inversion": 0.05})
    >>> art.heights("inversion").round(2).tolist()
    [0.72, 0.28]
    """
    artists = EstimateArtists(ax=ax, series=[])
    r = len(next(iter(values.values())))
    _draw_estimates(artists, list(values), r, labels)
    artists.update(values, errors, labels, title)
    return artists
