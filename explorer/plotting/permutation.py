"""Plots of the permutation paradigm, on a given Axes, updatable in place.

Domingo-Ferrer and Muralidhar (2016), Figures 1-3; Ruiz (2018), Section 3.

Each ``plot_x(ax, ...)`` draws once and returns a dataclass of its artists with
an ``update(...)`` method that changes their data without re-creating them
(the panel then calls ``figure.canvas.draw_idle()``).  No pyplot state.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import PathCollection
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle, StepPatch
from matplotlib.text import Text

from explorer.plotting import style

__all__ = [
    "ValuesArtists",
    "plot_values",
    "DisplacementArtists",
    "plot_rank_displacement",
    "DistanceArtists",
    "plot_distance_distributions",
    "SubjectArtists",
    "plot_subject",
]

ORIGINAL_COLOUR = style.BLUE
MASKED_COLOUR = style.ORANGE
REVERSE_COLOUR = style.BROWN
RANDOM_COLOUR = style.GREY


def _pad_limits(ax: Axes, lo: float, hi: float, axis: str) -> None:
    if not np.isfinite(lo) or not np.isfinite(hi):
        return
    span = hi - lo if hi > lo else max(abs(hi), 1.0)
    limits = (lo - 0.05 * span, hi + 0.05 * span)
    (ax.set_xlim if axis == "x" else ax.set_ylim)(*limits)


# --------------------------------------------------------------------------- original vs masked vs reverse-mapped

@dataclass
class ValuesArtists:
    """Artists of :func:`plot_values`."""

    ax: Axes
    masked: PathCollection
    reverse_mapped: PathCollection
    diagonal: Line2D

    def update(self, x: np.ndarray, y: np.ndarray, z: np.ndarray, attribute: str = "") -> None:
        x, y, z = (np.asarray(a, dtype=float) for a in (x, y, z))
        self.masked.set_offsets(np.column_stack([x, y]))
        self.reverse_mapped.set_offsets(np.column_stack([x, z]))
        lo = float(min(x.min(), y.min(), z.min()))
        hi = float(max(x.max(), y.max(), z.max()))
        self.diagonal.set_data([lo, hi], [lo, hi])
        _pad_limits(self.ax, float(x.min()), float(x.max()), "x")
        _pad_limits(self.ax, min(float(y.min()), float(z.min())), max(float(y.max()), float(z.max())), "y")
        if attribute:
            self.ax.set_title(f"{attribute}: masked Y and reverse-mapped Z against original X", fontsize=9)


def plot_values(ax: Axes, x: np.ndarray, y: np.ndarray, z: np.ndarray, attribute: str = "") -> ValuesArtists:
    """Masked values y_i and reverse-mapped values z_i against the original x_i, one attribute.

    Points on the diagonal are unchanged; Z holds X's own values (Domingo-Ferrer and Muralidhar 2016, Algorithm 1)
    in Y's order, so its vertical spread from the diagonal is the permutation
    and Y - Z the residual noise.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> ax = Figure().subplots()
    >>> art = plot_values(ax, np.array([1.0, 2.0, 3.0]), np.array([1.2, 2.9, 2.1]), np.array([1.0, 3.0, 2.0]))
    >>> art.reverse_mapped.get_offsets()[:, 1].tolist()
    [1.0, 3.0, 2.0]
    """
    masked = ax.scatter([], [], s=14, color=MASKED_COLOUR, alpha=1.0, label="masked Y", edgecolors="none")
    reverse = ax.scatter([], [], s=14, color=REVERSE_COLOUR, alpha=0.85, marker="s",
                         label="reverse-mapped Z", edgecolors="none")
    (diagonal,) = ax.plot([], [], color=ORIGINAL_COLOUR, linewidth=1, linestyle="--", label="unchanged (= X)")
    ax.set(xlabel="original value x", ylabel="anonymized value")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=3, fontsize=9, frameon=False)
    artists = ValuesArtists(ax, masked, reverse, diagonal)
    artists.update(x, y, z, attribute)
    return artists


# --------------------------------------------------------------------------- rank displacement

@dataclass
class DisplacementArtists:
    """Artists of :func:`plot_rank_displacement`."""

    ax: Axes
    line: Line2D
    zero: Line2D
    label: Text

    def update(self, displacement: np.ndarray, rho: float, extent: float, attribute: str = "") -> None:
        r = np.sort(np.round(np.asarray(displacement, dtype=float)))      # Ruiz's epsilon shown as 0
        n = r.size
        self.line.set_data(np.arange(1, n + 1), r)
        self.zero.set_data([1, max(n, 2)], [0, 0])
        self.ax.set_xlim(0.5, n + 0.5)
        top = max(1.0, float(np.abs(r).max()))
        self.ax.set_ylim(-1.08 * top, 1.08 * top)
        self.label.set_text(f"Spearman's rho = {rho:.3f}    T = {extent:.2f}    "
                            f"mean |r| = {np.abs(r).mean():.2f}")
        if attribute:
            self.ax.set_title(f"{attribute}: r = rank(y) − rank(x) of every record, sorted", fontsize=9)


def plot_rank_displacement(ax: Axes, displacement: np.ndarray, rho: float, extent: float,
                           attribute: str = "") -> DisplacementArtists:
    """The rank displacements r = rank(y) - rank(x) of an attribute, sorted, with Spearman's rho and T_j.

    A step line through the sorted displacements (one artist, any n): the flat
    part at 0 is the records that did not move (T_j = share of the others).  The
    axis label states the convention, rank(y) - rank(x) (positive: the record's
    masked value ranks higher), the one the permutation and dominance tabs use
    (:func:`explorer.core.permutation.ranking.rank_shift`: equal values never count as moved).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> ax = Figure().subplots()
    >>> art = plot_rank_displacement(ax, np.array([3, 1e-8, 1e-8, 1, -4]), 0.5, 0.6)
    >>> art.line.get_ydata().tolist()
    [-4.0, 0.0, 0.0, 1.0, 3.0]
    """
    (line,) = ax.plot([], [], drawstyle="steps-mid", color=MASKED_COLOUR, linewidth=1.5)
    (zero,) = ax.plot([], [], color=style.REFERENCE, linewidth=0.6)
    label = ax.text(0.02, 0.95, "", transform=ax.transAxes, fontsize=9, va="top")
    ax.set(xlabel="records, sorted by displacement", ylabel="r = rank(y) − rank(x)  (ranks)")
    artists = DisplacementArtists(ax, line, zero, label)
    artists.update(displacement, rho, extent, attribute)
    return artists


# --------------------------------------------------------------------------- permutation-distance distributions

@dataclass
class DistanceArtists:
    """Artists of :func:`plot_distance_distributions`."""

    ax: Axes
    original: StepPatch
    random: StepPatch
    label: Text

    def update(self, bins: np.ndarray, original: np.ndarray, random: np.ndarray, hellinger: float,
               verdict: str = "", max_bars: int = 60) -> None:
        bins = np.asarray(bins, dtype=float)
        original = np.asarray(original, dtype=float)
        random = np.asarray(random, dtype=float)
        step = float(bins[1] - bins[0]) if bins.size > 1 else 1.0
        edges = np.concatenate([bins - step / 2, [bins[-1] + step / 2]])
        if bins.size > max_bars:
            # many distances (large n): show groups of consecutive distances, each the sum of its bins
            group = int(np.ceil(bins.size / max_bars))
            starts = np.arange(0, bins.size, group)
            original = np.add.reduceat(original, starts)
            random = np.add.reduceat(random, starts)
            edges = np.concatenate([edges[starts], [edges[-1]]])
        self.original.set_data(original, edges)
        self.random.set_data(random, edges)
        self.ax.set_xlim(edges[0], edges[-1])
        top = float(max(np.max(original), np.max(random), 0.01))
        self.ax.set_ylim(0, 1.15 * top)
        self.label.set_text(f"Hellinger distance = {hellinger:.3f}")
        self.ax.set_title(verdict, fontsize=9, wrap=True)


def plot_distance_distributions(ax: Axes, bins: np.ndarray, original: np.ndarray, random: np.ndarray,
                                hellinger: float, verdict: str = "", max_bars: int = 60) -> DistanceArtists:
    """Distribution of the match distance for the original records and for random records (Domingo-Ferrer and Muralidhar 2016, Figures 1-3).

    Similar distributions mean a match is plausible as chance: the intruder
    cannot trust his links (Figure 1); separate ones mean he can (Figure 3).
    With more than ``max_bars`` distances (large n), consecutive distances are
    grouped for display (each bar the sum of its group).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> ax = Figure().subplots()
    >>> art = plot_distance_distributions(ax, np.arange(3), np.array([0.2, 0.5, 0.3]), np.array([0.1, 0.3, 0.6]), 0.2)
    >>> art.original.get_data().values.tolist()
    [0.2, 0.5, 0.3]
    """
    random_patch = ax.stairs([0.0], [0.0, 1.0], fill=True, facecolor=RANDOM_COLOUR, edgecolor=style.BAR_EDGE,
                             linewidth=0.6, alpha=0.85,
                             hatch=style.HATCHES[3], label="random records (chance)")
    original_patch = ax.stairs([0.0], [0.0, 1.0], fill=False, color=ORIGINAL_COLOUR, linewidth=2,
                               label="original records")
    label = ax.text(0.98, 0.95, "", transform=ax.transAxes, ha="right", va="top", fontsize=9)
    ax.set(xlabel="permutation distance of the match in Z", ylabel="relative frequency")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=3, fontsize=9, frameon=False)
    artists = DistanceArtists(ax, original_patch, random_patch, label)
    artists.update(bins, original, random, hellinger, verdict, max_bars)
    return artists  # with more than max_bars distances, consecutive ones are grouped for display


# --------------------------------------------------------------------------- one subject's view

@dataclass
class SubjectArtists:
    """Artists of :func:`plot_subject`."""

    ax: Axes
    records: PathCollection
    matches: PathCollection
    target: PathCollection
    window: Rectangle
    label: Text

    def update(self, anonymized_ranks: np.ndarray, nearest_rank: np.ndarray, matches: np.ndarray,
               distance: float, attributes: tuple[int, int] = (0, 1), names: tuple[str, str] = ("", "")) -> None:
        ranks_ = np.asarray(anonymized_ranks, dtype=float)
        a, b = attributes
        n = ranks_.shape[0]
        self.records.set_offsets(ranks_[:, [a, b]])
        matched = np.asarray(matches, dtype=np.int64)
        self.matches.set_offsets(ranks_[matched][:, [a, b]] if matched.size else np.empty((0, 2)))
        centre = np.asarray(nearest_rank, dtype=float)[[a, b]]
        self.target.set_offsets(centre[None, :])
        d = float(distance)
        self.window.set_bounds(centre[0] - d, centre[1] - d, 2 * d, 2 * d)
        self.ax.set_xlim(0, n + 1)
        self.ax.set_ylim(0, n + 1)
        self.ax.set_xlabel(f"rank of {names[0] or f'attribute {a + 1}'} in Y")
        self.ax.set_ylabel(f"rank of {names[1] or f'attribute {b + 1}'} in Y")
        self.label.set_text(f"distance {d:g}: {matched.size} record(s) in the window")


def plot_subject(ax: Axes, anonymized_ranks: np.ndarray, nearest_rank: np.ndarray, matches: np.ndarray,
                 distance: float, attributes: tuple[int, int] = (0, 1),
                 names: tuple[str, str] = ("", "")) -> SubjectArtists:
    """One subject's permutation distance (Domingo-Ferrer and Muralidhar 2016, Algorithm 2, Table 3) in the plane of two attributes' ranks.

    The star is (R*_a, R*_b), the ranks of the anonymized values nearest to her
    own; the square is the Chebyshev window of half-width d; the circled
    records are those at distance d (her matches).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> ax = Figure().subplots()
    >>> art = plot_subject(ax, np.array([[1, 2], [2, 1]]), np.array([1, 1]), np.array([0, 1]), 1)
    >>> art.window.get_width()
    2.0
    """
    records = ax.scatter([], [], s=10, color=RANDOM_COLOUR, alpha=0.85, edgecolors="none", label="anonymized records")
    matches_ = ax.scatter([], [], s=60, facecolors="none", edgecolors=MASKED_COLOUR, linewidths=1.5,
                          label="matches at distance d")
    target = ax.scatter([], [], s=120, marker="*", color=ORIGINAL_COLOUR, label="ranks of nearest values R*",
                        zorder=3)
    window = Rectangle((0, 0), 0, 0, fill=False, linestyle="--", color=ORIGINAL_COLOUR)
    ax.add_patch(window)
    label = ax.set_title("", fontsize=9)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=1, fontsize=9, frameon=False,
              handletextpad=0.2)
    artists = SubjectArtists(ax, records, matches_, target, window, label)
    artists.update(anonymized_ranks, nearest_rank, matches, distance, attributes, names)
    return artists
