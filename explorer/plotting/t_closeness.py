"""Plots of t-closeness profiles (Domingo-Ferrer and Soria-Comas 2018, Section IV), updatable in place.

Each ``plot_x(ax, ...)`` draws once and returns a dataclass of its artists with
an ``update(...)`` method that changes the data of those artists (no new
artists), so a panel can redraw cheaply with ``figure.canvas.draw_idle()``.
No pyplot state is used.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
from matplotlib.axes import Axes
from matplotlib.container import BarContainer
from matplotlib.lines import Line2D
from matplotlib.patches import StepPatch
from matplotlib.text import Text

from explorer.core.closeness.profile import cluster_count_over_t
from explorer.plotting import style

__all__ = [
    "ClusterRatioArtists",
    "plot_cluster_ratios",
    "DistributionArtists",
    "plot_cluster_distribution",
    "DeniabilityArtists",
    "plot_cluster_deniability",
    "WorstCaseArtists",
    "plot_worst_case",
    "VIOLATION_COLOR",
    "OK_COLOR",
]

OK_COLOR = style.BLUE
VIOLATION_COLOR = style.RED
DATA_COLOR = style.GREY


def _display_values(distances: np.ndarray, t: float) -> tuple[np.ndarray, float]:
    """Distances with infinities capped at a ceiling above every finite value and the bound."""
    d = np.asarray(distances, dtype=float)
    finite = d[np.isfinite(d)]
    top = max(finite.max() if finite.size else 0.0, t if math.isfinite(t) else 0.0, 1e-9)
    ceiling = top * 1.25
    return np.where(np.isinf(d), ceiling, d), ceiling


@dataclass
class ClusterRatioArtists:
    """Sorted cluster distances as bars (violators highlighted), the bound t and a selected-cluster marker."""

    ax: Axes
    violating: StepPatch
    ok: StepPatch
    bound: Line2D
    selected: Line2D
    note: Text

    def update(self, distances: np.ndarray, t: float, *, selected: int | None = None,
               ylabel: str | None = None) -> int:
        """Show ``distances`` sorted in decreasing order against ``t``; return the number violating.

        The count comes from :func:`explorer.core.closeness.profile.cluster_count_over_t`.
        """
        d = np.sort(np.asarray(distances, dtype=float))[::-1]
        n = d.size
        count = cluster_count_over_t(d, t)
        n_bad, n_inf = count.n_over, count.n_infinite
        shown, ceiling = _display_values(d, t)
        self.violating.set_data(shown[:n_bad], np.arange(n_bad + 1, dtype=float))
        self.ok.set_data(shown[n_bad:], np.arange(n_bad, n + 1, dtype=float))
        bound = t if math.isfinite(t) else ceiling
        self.bound.set_ydata([bound, bound])
        position = 0.5 if selected is None else float(selected) + 0.5
        self.selected.set_xdata([position, position])
        self.selected.set_visible(selected is not None)
        self.note.set_text("t-closeness cluster ratios\n" + f"{n_bad} of {n} clusters above t = {t:.4g}"
                           + (f"\n{n_inf} infinite (a value missing), drawn at the top" if n_inf else ""))
        self.ax.set_xlim(0, max(n, 1))
        self.ax.set_ylim(0, ceiling * 1.08)
        if ylabel:
            self.ax.set_ylabel(ylabel)
        return n_bad


def plot_cluster_ratios(ax: Axes, distances: Sequence[float], t: float, *,
                        ylabel: str = "ratio distance d (Eq. 7)") -> ClusterRatioArtists:
    """Per-cluster distances to the data set, sorted, as bars against the bound t.

    Bars above t are drawn in red; infinite distances (a sensitive value missing
    from the cluster) are capped above the highest finite bar and counted.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> ax = Figure().subplots()
    >>> artists = plot_cluster_ratios(ax, [1.2, 3.0, float("inf")], 2.718)
    >>> artists.note.get_text().splitlines()[1:]
    ['2 of 3 clusters above t = 2.718', '1 infinite (a value missing), drawn at the top']
    """
    violating = ax.stairs([], [0.0], fill=True, facecolor=VIOLATION_COLOR, edgecolor=style.BAR_EDGE, linewidth=0.6,
                          hatch=style.HATCHES[1], label="violates t")
    ok = ax.stairs([], [0.0], fill=True, facecolor=OK_COLOR, edgecolor=style.BAR_EDGE, linewidth=0.6,
                   label="within t")
    bound = ax.axhline(t if math.isfinite(t) else 1.0, color=style.REFERENCE, linestyle="--", linewidth=1.2,
                       label="bound t")
    selected = ax.axvline(0.5, color=style.ORANGE, linewidth=1.5, linestyle="-.", label="selected cluster")
    note = ax.title                       # title line 2 carries the count: constrained layout keeps it clear
    note.set_fontsize(10)
    ax.set_xlabel("clusters, sorted by distance")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=4, fontsize=9, frameon=False,
              handlelength=1.2, columnspacing=0.8)
    artists = ClusterRatioArtists(ax, violating, ok, bound, selected, note)
    artists.update(np.asarray(distances, dtype=float), t, ylabel=ylabel)
    return artists


@dataclass
class DistributionArtists:
    """Grouped bars: a cluster's distribution against the data set's, with the admissible band."""

    ax: Axes
    cluster: BarContainer
    data: BarContainer
    upper: Line2D
    lower: Line2D
    n_categories: int

    def update(self, cluster: np.ndarray, data: np.ndarray, t: float | None = None, *,
               title: str | None = None) -> None:
        cluster, data = np.asarray(cluster, dtype=float), np.asarray(data, dtype=float)
        if cluster.size != self.n_categories or data.size != self.n_categories:
            raise ValueError("the number of categories changed: draw the plot again")
        for bar, h in zip(self.cluster, cluster):
            bar.set_height(h)
        for bar, h in zip(self.data, data):
            bar.set_height(h)
        x = np.arange(self.n_categories)
        visible = t is not None and math.isfinite(t)
        if visible:
            self.upper.set_data(x, np.minimum(data * t, 1.0))
            self.lower.set_data(x, data / t)
        self.upper.set_visible(visible)
        self.lower.set_visible(visible)
        top = max(float(cluster.max(initial=0)), float(data.max(initial=0)) * (t if visible else 1.0), 0.05)
        self.ax.set_ylim(0, min(1.05, top * 1.15))
        if title is not None:
            self.ax.set_title(title)


def plot_cluster_distribution(ax: Axes, categories: Sequence[str], cluster: Sequence[float],
                              data: Sequence[float], t: float | None = None, *,
                              cluster_label: str = "cluster", data_label: str = "whole data set",
                              title: str = "") -> DistributionArtists:
    """A cluster-level distribution beside the data-set-level one; markers at t·p and p/t (Eq. 7 band).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> ax = Figure().subplots()
    >>> a = plot_cluster_distribution(ax, ["a", "b"], [0.75, 0.25], [0.5, 0.5], 2.0)
    >>> [round(float(b.get_height()), 2) for b in a.cluster]
    [0.75, 0.25]
    """
    x = np.arange(len(categories))
    width = 0.4
    data_bars = ax.bar(x - width / 2, np.asarray(data, dtype=float), width, color=DATA_COLOR,
                       edgecolor=style.BAR_EDGE, linewidth=0.6, label=data_label)
    cluster_bars = ax.bar(x + width / 2, np.asarray(cluster, dtype=float), width, color=OK_COLOR,
                          edgecolor=style.BAR_EDGE, linewidth=0.6, hatch=style.HATCHES[2], label=cluster_label)
    (upper,) = ax.plot([], [], linestyle="none", marker="v", color=VIOLATION_COLOR, markersize=5,
                       label="t x share (upper bound)")
    (lower,) = ax.plot([], [], linestyle="none", marker="^", color=VIOLATION_COLOR, markersize=5,
                       label="share / t (lower bound)")
    many = len(categories) > 8
    ax.set_xticks(x, [str(c) for c in categories], rotation=90 if many else (35 if len(categories) > 4 else 0),
                  ha="center" if many or len(categories) <= 4 else "right", fontsize=9)
    ax.set_ylabel("relative frequency")
    ax.title.set_fontsize(9)
    ax.legend(fontsize=9, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    artists = DistributionArtists(ax, cluster_bars, data_bars, upper, lower, len(categories))
    artists.update(np.asarray(cluster, dtype=float), np.asarray(data, dtype=float), t, title=title)
    return artists


@dataclass
class DeniabilityArtists:
    """Cluster deniability H(S | cluster) (sorted) against H(S) and log2 r."""

    ax: Axes
    entropies: StepPatch
    data_entropy: Line2D
    maximum: Line2D

    def update(self, entropies: np.ndarray, data_entropy: float, n_categories: int) -> None:
        h = np.sort(np.asarray(entropies, dtype=float))
        self.entropies.set_data(h, np.arange(h.size + 1, dtype=float))
        self.data_entropy.set_ydata([data_entropy, data_entropy])
        top = math.log2(n_categories) if n_categories > 0 else 1.0
        self.maximum.set_ydata([top, top])
        self.ax.set_xlim(0, max(h.size, 1))
        self.ax.set_ylim(0, max(top, 1e-3) * 1.1)


def plot_cluster_deniability(ax: Axes, entropies: Sequence[float], data_entropy: float,
                             n_categories: int) -> DeniabilityArtists:
    """H(S | cluster = c) of every cluster, sorted, with H(S) and log2 r.

    Domingo-Ferrer and Soria-Comas (2018), Eq. 4 with the cluster as the reported value (Section IV).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> a = plot_cluster_deniability(Figure().subplots(), [0.5, 1.0], 1.0, 2)
    >>> a.maximum.get_ydata()[0]
    1.0
    """
    steps = ax.stairs([], [0.0], fill=True, color=OK_COLOR, label="H(S | cluster)")
    prior = ax.axhline(data_entropy, color=style.REFERENCE, linestyle="--", linewidth=1.2, label="H(S)")
    maximum = ax.axhline(1.0, color=DATA_COLOR, linestyle=":", linewidth=1.2, label="log2 r")
    ax.set(xlabel="clusters, sorted by deniability", ylabel="bits", title="Cluster deniability")
    ax.legend(fontsize=9, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=3, frameon=False)
    artists = DeniabilityArtists(ax, steps, prior, maximum)
    artists.update(np.asarray(entropies, dtype=float), data_entropy, n_categories)
    return artists


@dataclass
class WorstCaseArtists:
    """Example 3 view (Domingo-Ferrer and Soria-Comas 2018): the worst admissible cluster against the data set.

    With the guessing probabilities.
    """

    distribution: DistributionArtists
    guess: Text
    categories: Sequence[str] = ()

    def update(self, worst: np.ndarray, data: np.ndarray, t: float, guessing: float, data_guessing: float,
               entropy: float, data_entropy: float) -> None:
        self.distribution.update(worst, data, t)
        # the title holds the figures, so constrained layout keeps them clear of the bars and legend; short
        # lines, so that it is not cut at a laptop's width.  The guesses are named: when the cluster changes
        # the best guess (Adult's ">50K"), its rate can be lower than the data set's best guess while the
        # guessed value's own share rose, which is the disclosure.
        worst, data = np.asarray(worst, dtype=float), np.asarray(data, dtype=float)
        names = list(self.categories)
        g_with, g_without = int(np.argmax(worst)), int(np.argmax(data))
        if len(names) == worst.size and g_with != g_without:
            knowing = (f"intruder's guess knowing the cluster: {names[g_with]}, right {guessing:.1%}\n"
                       f"(without it: {names[g_without]}, {data_guessing:.1%}; "
                       f"{names[g_with]} only {data[g_with]:.1%})")
        else:
            knowing = f"intruder's guess knowing the cluster: {guessing:.1%}\n(without it: {data_guessing:.1%})"
        self.guess.set_text(f"Worst exp(ε/2)-close cluster (Example 3), t = {t:.4g}\n{knowing}\n"
                            f"H(S | cluster) = {entropy:.3f} bits, H(S) = {data_entropy:.3f} bits")


def plot_worst_case(ax: Axes, categories: Sequence[str], worst: Sequence[float], data: Sequence[float], t: float,
                    guessing: float, data_guessing: float, entropy: float, data_entropy: float) -> WorstCaseArtists:
    """The most concentrated exp(eps/2)-close cluster (Example 3 generalised) and what an intruder can guess.

    Examples
    --------
    >>> import math
    >>> from matplotlib.figure import Figure
    >>> w = [0.2 * math.e] + [(1 - 0.2 * math.e) / 4] * 4
    >>> a = plot_worst_case(Figure().subplots(), list("abcde"), w, [0.2] * 5, math.e, w[0], 0.2, 1.9, 2.32)
    >>> a.guess.get_text().splitlines()[1:3]
    ["intruder's guess knowing the cluster: 54.4%", '(without it: 20.0%)']
    >>> a = plot_worst_case(Figure().subplots(), ["<=50K", ">50K"], [0.35, 0.65], [0.76, 0.24], math.e, 0.65, 0.76,
    ...                     0.93, 0.8)
    >>> a.guess.get_text().splitlines()[1:3]
    ["intruder's guess knowing the cluster: >50K, right 65.0%", '(without it: <=50K, 76.0%; >50K only 24.0%)']
    """
    dist = plot_cluster_distribution(ax, categories, worst, data, t, cluster_label="worst admissible cluster")
    guess = ax.title
    guess.set_fontsize(9)
    artists = WorstCaseArtists(dist, guess, tuple(str(c) for c in categories))
    artists.update(np.asarray(worst, dtype=float), np.asarray(data, dtype=float), t, guessing, data_guessing,
                   entropy, data_entropy)
    return artists
