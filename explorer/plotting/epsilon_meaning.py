"""Plots of one epsilon read through every model: three small pictures side by side.

- deniability: the attribute's distribution before any report, and the posterior after the most telling
  report under the optimal RR matrix;
- t-closeness: the data set's distribution and the most concentrated cluster still exp(eps/2)-close;
- accuracy: the true distribution and one simulated estimate from n randomized reports, with the error bound.

``plot_epsilon_reading(axes, reading)`` draws once and returns artists whose ``update(reading)`` changes
their heights in place; :func:`summary_figure` draws a one-page summary (text plus the three pictures) for
the PNG/PDF export. No pyplot state is used.
"""

from __future__ import annotations

import io
import textwrap
from dataclasses import dataclass
from typing import Sequence

import numpy as np
from matplotlib.axes import Axes
from matplotlib.container import BarContainer, ErrorbarContainer
from matplotlib.figure import Figure

from explorer.plotting import style

__all__ = ["EpsilonArtists", "plot_epsilon_reading", "summary_figure", "summary_bytes"]

#: Each pair of bars: "before" (the data, the truth) plain grey, "after" (the report, the cluster) red and
#: hatched, the estimate blue and cross-hatched (:mod:`explorer.plotting.style`).
BEFORE = dict(color=style.GREY, edgecolor=style.BAR_EDGE, linewidth=0.6)
AFTER = dict(color=style.RED, hatch=style.HATCHES[1], edgecolor=style.BAR_EDGE, linewidth=0.6)
ESTIMATE = dict(color=style.BLUE, hatch=style.HATCHES[2], edgecolor=style.BAR_EDGE, linewidth=0.6)
BEFORE_COLOR, AFTER_COLOR, ESTIMATE_COLOR = BEFORE["color"], AFTER["color"], ESTIMATE["color"]
WIDTH = 0.4
#: Lines of text the one-page summary has room for under its pictures (requirements and a release read).
SUMMARY_LINES = 15


def _short(labels: Sequence[str], limit: int = 10) -> list[str]:
    return [label if len(label) <= limit else label[: limit - 1] + "…" for label in labels]


@dataclass
class EpsilonArtists:
    """The three pictures' bars, updated in place while the category count stays the same."""

    axes: tuple[Axes, Axes, Axes]
    prior_bars: BarContainer
    posterior_bars: BarContainer
    data_bars: BarContainer
    cluster_bars: BarContainer
    truth_bars: BarContainer
    estimate_bars: BarContainer
    bound: ErrorbarContainer
    n_categories: int

    def heights(self) -> dict[str, np.ndarray]:
        """The heights of the bars as drawn, by series (the figure's own numbers, for its text and data table).

        Keys: ``prior`` and ``posterior`` (deniability), ``data`` and ``cluster`` (t-closeness), ``truth`` and
        ``estimate`` (accuracy).
        """
        series = {"prior": self.prior_bars, "posterior": self.posterior_bars, "data": self.data_bars,
                  "cluster": self.cluster_bars, "truth": self.truth_bars, "estimate": self.estimate_bars}
        return {key: np.array([bar.get_height() for bar in bars]) for key, bars in series.items()}

    def bound_limits(self) -> tuple[np.ndarray, np.ndarray]:
        """The lower and upper ends of the error bars drawn on the estimate (clipped to [0, 1])."""
        _, _, (segments,) = self.bound.lines
        ends = np.array([[y for _, y in segment] for segment in segments.get_segments()]).reshape(-1, 2)
        return ends[:, 0], ends[:, 1]

    def update(self, reading, attribute: str = "the attribute") -> None:
        """Show ``reading`` (same number of categories as when drawn)."""
        if reading.prior.size != self.n_categories:
            raise ValueError(f"reading has {reading.prior.size} categories, the plot {self.n_categories}")
        posterior = _posterior_after(reading)
        for bars, heights in ((self.prior_bars, reading.prior), (self.posterior_bars, posterior),
                              (self.data_bars, reading.prior), (self.cluster_bars, reading.cluster.distribution),
                              (self.truth_bars, reading.truth), (self.estimate_bars, reading.simulated_estimate)):
            for bar, height in zip(bars, heights):
                bar.set_height(float(height))
        _set_bound(self.bound, reading.simulated_estimate, reading.estimate_error)
        _titles(self.axes, reading, attribute)


def _posterior_after(reading) -> np.ndarray:
    p = reading.matrix[:, reading.worst_report] * reading.prior
    return p / p.sum()


def _set_bound(container: ErrorbarContainer, estimate: np.ndarray, bound: float) -> None:
    _, _, (segments,) = container.lines
    x = np.arange(estimate.size) + WIDTH / 2
    half = min(bound, 1.0) if np.isfinite(bound) else 1.0
    segments.set_segments([[(xi, max(0.0, y - half)), (xi, min(1.0, y + half))] for xi, y in zip(x, estimate)])


def _titles(axes, reading, attribute: str) -> None:
    eps = "∞" if not np.isfinite(reading.epsilon) else f"{reading.epsilon:g}"
    label = reading.labels[reading.worst_report]
    axes[0].set_title(f"Deniability: {attribute}, ε = {eps}\nafter the report '{textwrap.shorten(label, 18)}'",
                      fontsize=10)
    t = "∞" if not np.isfinite(reading.t) else f"{reading.t:.3g}"
    axes[1].set_title(f"t-closeness: t = exp(ε/2) = {t}\nthe most concentrated cluster allowed", fontsize=10)
    axes[2].set_title(f"Accuracy: n = {reading.n:,} reports\nestimate ± bound ({100 * (1 - reading.alpha):.0f}%)",
                      fontsize=10)


def plot_epsilon_reading(axes: Sequence[Axes], reading, attribute: str = "the attribute") -> EpsilonArtists:
    """Draw the three pictures of ``reading`` (an :class:`~explorer.core.epsilon_meaning.EpsilonReading`)."""
    ax_den, ax_tc, ax_acc = axes
    r = reading.prior.size
    x = np.arange(r)
    labels = _short(reading.labels)
    prior_bars = ax_den.bar(x - WIDTH / 2, reading.prior, WIDTH, **BEFORE, label="before any report")
    posterior_bars = ax_den.bar(x + WIDTH / 2, _posterior_after(reading), WIDTH, **AFTER,
                                label="after the report")
    data_bars = ax_tc.bar(x - WIDTH / 2, reading.prior, WIDTH, **BEFORE, label="whole data set")
    cluster_bars = ax_tc.bar(x + WIDTH / 2, reading.cluster.distribution, WIDTH, **AFTER,
                             label="worst cluster")
    truth_bars = ax_acc.bar(x - WIDTH / 2, reading.truth, WIDTH, **BEFORE, label="true")
    estimate_bars = ax_acc.bar(x + WIDTH / 2, reading.simulated_estimate, WIDTH, **ESTIMATE,
                               label="estimated")
    bound = ax_acc.errorbar(x + WIDTH / 2, reading.simulated_estimate, yerr=np.zeros(r), fmt="none",
                            ecolor="black", elinewidth=1, capsize=0)
    for ax in axes:
        ax.set_xticks(x, labels, rotation=35 if r > 4 else 0, ha="right" if r > 4 else "center", fontsize=9)
        ax.tick_params(axis="y", labelsize=9)
        ax.set_ylim(0, 1.05)
        ax.legend(fontsize=9, loc="upper center", bbox_to_anchor=(0.5, -0.3 if r > 4 else -0.1), ncol=2,
                  frameon=False)
    ax_den.set_ylabel("probability", fontsize=9)
    artists = EpsilonArtists((ax_den, ax_tc, ax_acc), prior_bars, posterior_bars, data_bars, cluster_bars,
                             truth_bars, estimate_bars, bound, r)
    artists.update(reading, attribute)
    return artists


def summary_figure(reading, lines: dict[str, str], attribute: str = "the attribute", *, choice=None,
                   choice_lines: Sequence[str] | None = None, release: Sequence[str] | None = None) -> Figure:
    """A one-page summary (A4 landscape): the reading in words above the three pictures.

    With ``choice`` (an :class:`~explorer.core.epsilon_choice.EpsilonChoice` with requirements asked) and its
    ``choice_lines``, a band at the bottom adds the requirements, the feasible band and its picture; ``release``
    adds a published release read through the models (:func:`explorer.core.export.summary_sections`).
    """
    from explorer.core.export import summary_sections
    from explorer.plotting.epsilon_choice import plot_choice

    sections = summary_sections(lines, choice_lines if choice is not None else None, release)
    extra = {key: text for key, text in sections.items() if key in ("From what I need", "A published release")}
    figure = Figure(figsize=(11.69, 8.27), layout="constrained")
    if extra:
        top, bottom, foot = figure.subfigures(3, 1, height_ratios=[1, 1.2, 1.0])
    else:
        (top, bottom), foot = figure.subfigures(2, 1, height_ratios=[1, 1.5]), None
    eps = "∞" if not np.isfinite(reading.epsilon) else f"{reading.epsilon:g}"
    top.suptitle(f"What does ε = {eps} mean for {attribute}?", fontsize=16, x=0.02, ha="left")
    body = {key: text for key, text in sections.items() if key not in extra}
    text = "\n\n".join(textwrap.fill(f"{key}: {line}", 120) for key, line in body.items())
    top.text(0.02, 0.9, text, va="top", ha="left", fontsize=10.5 if not extra else 9.5)
    top.text(0.02, 0.02, "Domingo-Ferrer and Soria-Comas (2018), Eq. 6, Proposition 1 and Example 3; "
             "Domingo-Ferrer and Soria-Comas (2022), Eqs. 5-6. Made with the privacy explorer.",
             fontsize=9, color=style.NOTE)
    axes = bottom.subplots(1, 3)
    plot_epsilon_reading(axes, reading, attribute)
    if foot is not None:
        left, right = foot.subfigures(1, 2, width_ratios=[1.2, 1])
        # At most SUMMARY_LINES lines of text fit under the pictures.  The requirements and band take what they
        # need, up to half; a release read gets the rest, so it keeps its odds bound and its period (a long one
        # is shortened at its end, with …).
        remaining, parts = SUMMARY_LINES * 88, []
        for index, (key, line) in enumerate(extra.items()):
            text = f"{key}: {line}"
            allowance = remaining if index == len(extra) - 1 else min(len(text) + 100, remaining // 2)
            shown = textwrap.fill(textwrap.shorten(text, allowance, placeholder=" …"), 100)
            parts.append(shown)
            remaining -= 100 * (shown.count("\n") + 1)
        words = "\n".join(parts)
        left.text(0.02, 0.97, words, va="top", ha="left", fontsize=8)
        if choice is not None and choice.bounds:
            plot_choice(right.subplots(), choice, reading.epsilon)
    return figure


def summary_bytes(reading, lines: dict[str, str], attribute: str = "the attribute", *, fmt: str = "png",
                  choice=None, choice_lines: Sequence[str] | None = None,
                  release: Sequence[str] | None = None) -> bytes:
    """The one-page summary as PNG or PDF bytes (``choice``, ``choice_lines``, ``release``: :func:`summary_figure`)."""
    if fmt not in ("png", "pdf"):
        raise ValueError(f"fmt must be 'png' or 'pdf', got {fmt!r}")
    buffer = io.BytesIO()
    summary_figure(reading, lines, attribute, choice=choice, choice_lines=choice_lines,
                   release=release).savefig(buffer, format=fmt, dpi=110)
    return buffer.getvalue()
