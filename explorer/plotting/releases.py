"""The odds bound of a published release, drawn: how far it can move an intruder's belief about one person.

``plot_release_beliefs(ax, curves, ...)`` draws, against the intruder's belief before the release, the
highest belief he can reach after one release (odds times e^eps) and, for a budget that renews, after the
period read (odds times e^(k eps), a bound); the diagonal is "nothing learnt".  The curves come from
:func:`explorer.core.releases.belief_curves`.  It returns artists whose ``update`` changes the lines in place.
No pyplot state is used.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.axes import Axes
from matplotlib.lines import Line2D
from explorer.plotting.style import BLUE, GREY, RED

__all__ = ["ReleaseArtists", "plot_release_beliefs"]

ONE_COLOR = RED
COMPOSED_COLOR = BLUE
DIAGONAL_COLOR = GREY


@dataclass
class ReleaseArtists:
    """The lines of the belief plot, updated in place."""

    ax: Axes
    diagonal: Line2D
    one: Line2D
    composed: Line2D

    def curves(self) -> dict[str, np.ndarray]:
        """The lines' data as drawn: ``before``, ``one release`` and (when shown) ``composed``."""
        out = {"before": np.asarray(self.one.get_xdata(), dtype=float),
               "one release": np.asarray(self.one.get_ydata(), dtype=float)}
        if self.composed.get_visible():
            out["composed"] = np.asarray(self.composed.get_ydata(), dtype=float)
        return out

    def labels(self) -> dict[str, str]:
        """The legend text of each line shown."""
        out = {"one release": self.one.get_label()}
        if self.composed.get_visible():
            out["composed"] = self.composed.get_label()
        return out

    def update(self, curves: dict[str, np.ndarray], one_label: str, composed_label: str | None = None,
               title: str = "") -> None:
        """Show new curves (any number of points)."""
        before = np.asarray(curves["before"], dtype=float)
        self.diagonal.set_data(before, before)
        self.one.set_data(before, np.asarray(curves["one release"], dtype=float))
        self.one.set_label(one_label)
        if "composed" in curves and composed_label is not None:
            self.composed.set_data(before, np.asarray(curves["composed"], dtype=float))
            self.composed.set_label(composed_label)
            self.composed.set_visible(True)
        else:
            self.composed.set_data([], [])
            self.composed.set_label("_hidden")
            self.composed.set_visible(False)
        self.ax.set_title(title, fontsize=10)
        self.ax.legend(loc="lower right", fontsize=9, frameon=False)


def plot_release_beliefs(ax: Axes, curves: dict[str, np.ndarray], one_label: str, composed_label: str | None = None,
                         title: str = "") -> ReleaseArtists:
    """Draw the belief curves of a release on ``ax``; returns the artists (``update`` them in place).

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw.
    curves : dict
        :func:`explorer.core.releases.belief_curves`: ``before``, ``one release`` and optionally ``composed``.
    one_label, composed_label : str
        The legend of each curve (e.g. "one release, ε = 1.68", "7 days, ε ≤ 11.76").
    title : str
        The Axes' title.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from explorer.core.releases import belief_curves, read_release
    >>> artists = plot_release_beliefs(Figure().add_subplot(), belief_curves(read_release("google-symptoms")),
    ...                                "one day", "7 days")
    >>> sorted(artists.curves())
    ['before', 'composed', 'one release']
    """
    (diagonal,) = ax.plot([], [], color=DIAGONAL_COLOR, linestyle="--", linewidth=1, label="nothing learnt")
    (one,) = ax.plot([], [], color=ONE_COLOR, linewidth=2)
    (composed,) = ax.plot([], [], color=COMPOSED_COLOR, linewidth=2, linestyle="-.")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("intruder's belief before the release")
    ax.set_ylabel("highest belief after it")
    ax.grid(True, alpha=0.3)
    artists = ReleaseArtists(ax, diagonal, one, composed)
    artists.update(curves, one_label, composed_label, title)
    return artists
