"""Figures are legible at their rendered size: text of at least 9 pt, legends that do not cover the data.

Every figure of every panel, as the app builds them on UCI Adult with its defaults (no browser: the Agg
renderer measures where each artist lands).
"""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.collections import PathCollection, PolyCollection
from matplotlib.figure import Figure
from matplotlib.text import Text

from explorer.app import build_app

pytestmark = pytest.mark.slow          # its fixture builds the whole app and draws every figure

MIN_POINTS = 9.0
#: A legend may sit over at most this share of a plot's data points, or of its own area in bars.
MAX_COVERED = 0.05


def panel_figures() -> list[tuple[str, Figure]]:
    """Every figure of every panel of a freshly built app, named "tab: attribute"."""
    app = build_app()
    app.build_all()
    out = [(f"{title}: {name}", value) for title, panel in app.panels.items()
           for name, value in vars(panel).items() if isinstance(value, Figure)]
    assert len(out) >= 10
    return out


@pytest.fixture(scope="module")
def figures() -> list[tuple[str, Figure]]:
    out = panel_figures()
    for _, figure in out:
        figure.canvas.draw()
    return out


def _visible_texts(figure: Figure) -> list[Text]:
    return [t for t in figure.findobj(Text) if t.get_visible() and t.get_text().strip()
            and (t.axes is None or t.axes.get_visible())]


def test_every_text_is_at_least_9_points(figures):
    small = [(name, t.get_text()[:40], t.get_fontsize()) for name, figure in figures
             for t in _visible_texts(figure) if t.get_fontsize() < MIN_POINTS]
    assert not small, f"{len(small)} texts under {MIN_POINTS} pt, e.g. {small[:6]}"


def _points_inside(points: np.ndarray, box) -> int:
    if points.size == 0:
        return 0
    x, y = points[:, 0], points[:, 1]
    return int(np.sum((x >= box.x0) & (x <= box.x1) & (y >= box.y0) & (y <= box.y1)))


def _share_of_box_under_shapes(ax, box) -> float:
    """Share of a grid of points over the legend's box that fall inside bars, steps or filled areas."""
    gx, gy = np.meshgrid(np.linspace(box.x0, box.x1, 16), np.linspace(box.y0, box.y1, 8))
    grid = np.column_stack([gx.ravel(), gy.ravel()])
    under = np.zeros(len(grid), dtype=bool)
    shapes = [(patch.get_path(), patch.get_transform()) for patch in ax.patches
              if patch.get_visible() and patch.get_fill()]
    for collection in ax.collections:
        if isinstance(collection, PolyCollection) and collection.get_visible():
            shapes += [(path, collection.get_transform()) for path in collection.get_paths()]
    for path, transform in shapes:
        under |= path.transformed(transform).contains_points(grid)
    return float(under.mean())


def test_no_legend_covers_the_data(figures):
    offenders = []
    for name, figure in figures:
        renderer = figure.canvas.get_renderer()
        for ax in figure.axes:
            legend = ax.get_legend()
            if legend is None or not legend.get_visible() or not ax.get_visible():
                continue
            box = legend.get_window_extent(renderer)
            n_points = inside = 0
            for line in ax.lines:
                if not line.get_visible() or line in legend.legend_handles:
                    continue
                xy = line.get_xydata()
                if xy.size == 0 or len(xy) < 3:     # reference lines (thresholds) are not data
                    continue
                pts = ax.transData.transform(xy)
                n_points += len(pts)
                inside += _points_inside(pts, box)
            for collection in ax.collections:
                if isinstance(collection, PathCollection) and collection.get_visible():
                    pts = ax.transData.transform(collection.get_offsets())
                    n_points += len(pts)
                    inside += _points_inside(pts, box)
            if n_points and inside / n_points > MAX_COVERED:
                offenders.append((name, "points", round(inside / n_points, 3)))
            covered = _share_of_box_under_shapes(ax, box)
            if covered > MAX_COVERED:
                offenders.append((name, "filled shapes", round(covered, 3)))
    assert not offenders, f"legends over the data: {offenders}"
