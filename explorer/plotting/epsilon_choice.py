"""Plots of choosing epsilon from what you need, and of repeated reports over time.

- :func:`plot_choice`: the epsilon axis, one row per requirement with the epsilons it allows drawn as a line
  (each requirement its own line style and marker, and labelled in place: not told apart by colour alone), the
  feasible band hatched across every row, and the current epsilon;
- :func:`plot_repeated_reports`: the best guess after k reports of the same answer, randomized afresh each time
  (one report at k eps) and memoized (one report's, whatever k), against the best guess without a report.

Each returns artists holding the numbers drawn (the panel's text and data table read them).  No pyplot state.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from matplotlib.axes import Axes

__all__ = ["STYLES", "ChoiceArtists", "plot_choice", "RepeatedArtists", "plot_repeated_reports", "axis_limit"]

#: Line style, marker and colour of each requirement's row.
STYLES = {"max_odds": ("-", "o", "#4c72b0"), "max_best_guess": ("--", "s", "#c44e52"),
          "min_deniability": (":", "^", "#55a868"), "max_cluster_guess": ("-.", "D", "#8172b2"),
          "max_error": ((0, (6, 2, 1, 2)), "v", "#937860")}
BAND_COLOR = "#b8e0b8"


def _eps(value: float) -> str:
    return "∞" if math.isinf(value) else f"{value:.3g}"


def axis_limit(choice, epsilon: float | None = None, maximum: float = 10.0) -> float:
    """The right end of the epsilon axis: a little past every finite bound and the current epsilon, at most ``maximum``."""
    values = [b.bound for b in choice.bounds if math.isfinite(b.bound)] + [
        v for v in (choice.low, choice.high, epsilon) if v is not None and math.isfinite(v)]
    return float(min(maximum, max(1.0, 1.25 * max(values, default=0.0))))


@dataclass
class ChoiceArtists:
    """The rows drawn by :func:`plot_choice`: per requirement, the epsilons it allows (from, to) as drawn."""

    ax: Axes
    rows: list[dict] = field(default_factory=list)
    band: tuple[float, float] | None = None
    epsilon: float | None = None
    xmax: float = 10.0


def plot_choice(ax: Axes, choice, epsilon: float | None = None, *, xmax: float | None = None) -> ChoiceArtists:
    """Draw the requirements of ``choice`` (an :class:`~explorer.core.epsilon_choice.EpsilonChoice`) on the epsilon axis.

    ``epsilon``: the current epsilon (a dotted vertical line); ``xmax``: the axis's right end (default
    :func:`axis_limit`).  Clears ``ax`` first.
    """
    ax.clear()
    xmax = axis_limit(choice, epsilon) if xmax is None else float(xmax)
    artists = ChoiceArtists(ax, xmax=xmax, epsilon=epsilon)
    bounds = list(choice.bounds)
    for y, item in enumerate(bounds):
        style, marker, color = STYLES[item.name]
        if not item.feasible:
            ax.text(0.02 * xmax, y, "no ε meets it", va="center", fontsize=9, color="#8b0000", style="italic")
            artists.rows.append(dict(name=item.name, label=item.label, start=math.nan, end=math.nan, feasible=False))
            continue
        start, end = (0.0, item.bound) if item.side == "high" else (item.bound, math.inf)
        ax.hlines(y, min(start, xmax), min(end, xmax), colors=color, linestyles=style, linewidth=3)
        at = item.bound
        if math.isfinite(at) and at <= xmax:
            ax.plot([at], [y], marker=marker, color=color, markersize=9, linestyle="none")
            text = f"ε ≤ {_eps(at)}" if item.side == "high" else f"ε ≥ {_eps(at)}"
            right = item.side == "high" and at < 0.75 * xmax or item.side == "low" and at < 0.25 * xmax
            ax.text(at + (0.015 if right else -0.015) * xmax, y - 0.28, text, fontsize=9,
                    ha="left" if right else "right", va="bottom", color="black")
        elif math.isfinite(at):
            ax.text(0.98 * xmax, y - 0.28, f"ε ≤ {_eps(at)} (beyond the axis)" if item.side == "high"
                    else f"ε ≥ {_eps(at)} (beyond the axis)", fontsize=9, ha="right", va="bottom")
        artists.rows.append(dict(name=item.name, label=item.label, start=start, end=end, feasible=True))
    if choice.feasible and bounds:
        high = min(choice.high, xmax)
        if choice.low <= high:
            ax.axvspan(choice.low, max(high, choice.low + 1e-3 * xmax), facecolor=BAND_COLOR, edgecolor="#2e7d32",
                       hatch="//", alpha=0.5, zorder=0)
        artists.band = (choice.low, choice.high)
    if epsilon is not None and math.isfinite(epsilon):
        ax.axvline(epsilon, color="black", linestyle=(0, (1, 1.5)), linewidth=1.5)
        ax.text(epsilon, len(bounds) - 0.45 if bounds else 0.5, f" current ε = {epsilon:g}", fontsize=9,
                ha="left" if epsilon < 0.7 * xmax else "right", va="bottom")
    ax.set_xlim(0, xmax)
    ax.set_ylim(len(bounds) - 0.4 if bounds else 1, -0.8)
    ax.set_yticks(range(len(bounds)), [b.label for b in bounds], fontsize=9)
    ax.tick_params(axis="x", labelsize=9)
    ax.set_xlabel("ε per report", fontsize=9)
    k = choice.reports_per_person
    if not bounds:
        title = "No requirement asked: every ε is allowed"
    elif choice.feasible:
        title = f"Feasible band (hatched): {_eps(choice.low)} ≤ ε ≤ {_eps(choice.high)}"
    else:
        title = "No ε meets every requirement"
    ax.set_title(title + (f"\n{k} reports per person: privacy bounds divided by {k}" if k > 1 else ""), fontsize=10)
    return artists


@dataclass
class RepeatedArtists:
    """The curves drawn by :func:`plot_repeated_reports` (their data are the figure's numbers)."""

    ax: Axes
    fresh: object
    memoized: object
    prior: object
    limit: object | None
    epsilon: float


def plot_repeated_reports(ax: Axes, reports, max_best_guess: float | None = None, *, per_person: int | None = None,
                          period: str = "") -> RepeatedArtists:
    """Draw the best guess after k reports: fresh randomization (k eps) vs memoized RR, and without a report.

    ``reports``: a :class:`~explorer.core.epsilon_choice.RepeatedReports`; ``max_best_guess``: a requirement
    to draw as a horizontal line; ``per_person`` (with its ``period`` in words): a person's number of reports,
    marked on the axis.  Clears ``ax`` first.
    """
    ax.clear()
    k = reports.reports
    (fresh,) = ax.plot(k, reports.fresh, linestyle="-", marker="o", markersize=3.5, color="#c44e52")
    (memo,) = ax.plot(k, reports.memoized, linestyle="--", marker="s", markersize=3.5, color="#4c72b0")
    (prior,) = ax.plot(k, np.full(k.size, reports.prior_guess), linestyle=":", color="#555555")
    end = k[-1]
    ax.text(end, reports.fresh[-1] - 0.02, "fresh each time (k·ε)", ha="right", va="top", fontsize=9)
    ax.text(end, reports.memoized[-1] - 0.02, "memoized RR (randomize once)", ha="right", va="top", fontsize=9)
    ax.text(end, reports.prior_guess - 0.02, "no report", ha="right", va="top", fontsize=9, color="#555555")
    limit = None
    if max_best_guess is not None:
        (limit,) = ax.plot(k, np.full(k.size, max_best_guess), linestyle=(0, (6, 2, 1, 2)), color="black",
                           linewidth=1)
        ax.text(k[0] + 0.3 * (end - k[0]), max_best_guess + 0.015, f"asked: best guess ≤ {max_best_guess:g}",
                fontsize=9, va="bottom", ha="center")
    if per_person is not None and 1 < per_person <= end:
        ax.axvline(per_person, color="#555555", linestyle=(0, (1, 2)), linewidth=1)
        ax.text(per_person, 0.03, f" {per_person} reports {period}".rstrip(), fontsize=9, ha="left" if
                per_person < 0.6 * end else "right", va="bottom")
    ax.set_xlim(0.5, end + 0.5)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("k reports of the same answer", fontsize=9)
    ax.set_ylabel("best guess of the true answer", fontsize=9)
    ax.tick_params(labelsize=9)
    ax.set_title(f"Repeated reports at ε = {reports.epsilon:g} each", fontsize=10)
    return RepeatedArtists(ax, fresh, memo, prior, limit, reports.epsilon)
