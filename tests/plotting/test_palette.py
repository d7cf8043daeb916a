"""Every figure of every tab reads without colour vision: series stay apart under simulated colour-vision
deficiencies, never differ by colour alone, and keep 3:1 against the white background.

Each panel of the registry (:data:`explorer.panels.registry.REGISTRY`, the Lessons tab with its first lesson)
is built headless, as the panel tests build them, and every Axes of every registered figure is walked.  A
figure's *series* are the entries of its legends (what a reader tells apart); for any two of them:

* they differ in form: marker, line style, hatch, filled or not, or kind (a bar against a line);
* if they differ in colour (at all, for normal vision), they stay at least
  :data:`explorer.plotting.style.MIN_CVD_DISTANCE` (10) apart in CAM02-UCS after simulating deuteranopia,
  protanopia and tritanopia (``colorspacious``, severity 100); two series of the same colour (a method and its
  adjusted variant) are told apart by form alone, which the first rule checks.  Why 10: one unit is about
  one just-noticeable difference between large patches, and thin lines and small markers need several times
  that to be told apart (Stone, Szafir and Setlur 2014, "An engineering model for color difference as a
  function of size"); the palette itself keeps 14.9.

Each series' colour (over white, after its alpha) also has a contrast of at least 3:1 with the white figure
(WCAG 2.1, 1.4.11), or its outline has; every heatmap uses the palette's colour map (cividis).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from matplotlib.collections import Collection
from matplotlib.colors import to_rgba
from matplotlib.image import AxesImage
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from explorer.panels.registry import REGISTRY
from explorer.plotting import style

colorspacious = pytest.importorskip("colorspacious", reason="the palette test needs colorspacious: pip install '.[test]'")

pytestmark = pytest.mark.slow

CVD = ("deuteranomaly", "protanomaly", "tritanomaly")   # at severity 100: deuteranopia, protanopia, tritanopia


def _over_white(rgba) -> np.ndarray:
    r, g, b, a = to_rgba(rgba)
    return np.array([r, g, b]) * a + (1 - a)


def _ucs(rgb: np.ndarray, cvd: str | None) -> np.ndarray:
    if cvd is not None:
        rgb = np.clip(colorspacious.cspace_convert(rgb, {"name": "sRGB1+CVD", "cvd_type": cvd, "severity": 100},
                                                   "sRGB1"), 0, 1)
    return colorspacious.cspace_convert(rgb, "sRGB1", "CAM02-UCS")


def distance(first: np.ndarray, second: np.ndarray, cvd: str | None = None) -> float:
    """CAM02-UCS distance of two sRGB colours as a reader with ``cvd`` (None: normal vision) sees them."""
    return float(np.linalg.norm(_ucs(first, cvd) - _ucs(second, cvd)))


def _dashes(line: Line2D) -> tuple:
    offset, pattern = line._unscaled_dash_pattern  # the pattern of "-", "--", (0, (5, 1)), ...
    return tuple(np.round(pattern, 2)) if pattern else ()


def series(handle) -> dict:
    """A legend entry's colour (over white), outline colour and form."""
    if isinstance(handle, Line2D):
        shown_line = handle.get_linestyle() not in ("None", "none", "", " ")
        alpha = handle.get_alpha() if handle.get_alpha() is not None else 1.0
        color = handle.get_color() if shown_line else handle.get_markeredgecolor()
        rgba = to_rgba(color, alpha)
        face = handle.get_markerfacecolor()
        hollow = str(face).lower() in ("white", "none", "#ffffff") or to_rgba(face)[3] == 0
        form = ("line", _dashes(handle) if shown_line else None, str(handle.get_marker()), hollow)
        return {"color": _over_white(rgba), "edge": None, "form": form}
    if isinstance(handle, Patch):
        filled = handle.get_fill() and to_rgba(handle.get_facecolor())[3] > 0
        face = handle.get_facecolor() if filled else handle.get_edgecolor()
        edge = handle.get_edgecolor() if filled and handle.get_linewidth() > 0 else None
        form = ("patch", handle.get_hatch() or "", bool(filled))
        return {"color": _over_white(face), "edge": None if edge is None else _over_white(edge), "form": form}
    if isinstance(handle, Collection):
        faces, edges = handle.get_facecolor(), handle.get_edgecolor()
        filled = len(faces) > 0 and faces[0][3] > 0
        color = faces[0] if filled else edges[0]
        paths = handle.get_paths()
        shape = tuple(np.round(paths[0].vertices, 2).ravel()[:16]) if paths else ()
        edge = edges[0] if len(edges) and filled and np.max(handle.get_linewidths()) > 0 else None
        form = ("points", shape, bool(filled))
        return {"color": _over_white(color), "edge": None if edge is None else _over_white(edge), "form": form}
    raise AssertionError(f"a legend entry of an unexpected kind: {type(handle).__name__}")


def _build(item):
    panel = item.build()
    getattr(panel, "wait", lambda *_: None)(120)
    return panel


def _figures():
    """(panel key, figure key, figure) for every figure of every panel of the registry."""
    found = []
    for item in REGISTRY:
        panel = _build(item)
        for view in panel.figures():
            found.append((item.key, view.key, view.figure))
    return found


@pytest.fixture(scope="module")
def figures():
    found = _figures()
    assert len({(panel, key) for panel, key, _ in found}) >= 10, "the panels' figures were not found"
    return found


def _legends(figure):
    for ax in figure.axes:
        legend = ax.get_legend()
        if legend is None:
            continue
        labels = [text.get_text() for text in legend.get_texts()]
        handles = legend.legend_handles
        yield ax, [(label, series(handle)) for label, handle in zip(labels, handles) if handle is not None]


def test_the_palette_itself_keeps_its_colours_apart_for_every_colour_vision():
    rgb = [_over_white(c) for c in style.SERIES]
    for (a, b), cvd in itertools.product(itertools.combinations(rgb, 2), CVD):
        assert distance(a, b, cvd) >= style.MIN_CVD_DISTANCE
    assert all(style.contrast_ratio(c) >= 3.0 for c in style.SERIES)


def test_every_figure_s_series_differ_in_form_and_stay_apart_under_simulated_cvd(figures):
    problems = []
    checked = 0
    for panel, key, figure in figures:
        for ax, entries in _legends(figure):
            for (label_a, a), (label_b, b) in itertools.combinations(entries, 2):
                checked += 1
                where = f"{panel}/{key}: {label_a!r} and {label_b!r}"
                if a["form"] == b["form"]:
                    problems.append(f"{where} differ by colour alone ({a['form']})")
                if distance(a["color"], b["color"]) < 2.0:       # the same colour: told apart by form only
                    continue
                for cvd in CVD:
                    d = distance(a["color"], b["color"], cvd)
                    if d < style.MIN_CVD_DISTANCE:
                        problems.append(f"{where}: CAM02-UCS distance {d:.1f} under {cvd} (< {style.MIN_CVD_DISTANCE})")
    assert checked > 20, "too few pairs of series were found to check"
    assert problems == []


def test_every_series_and_heatmap_can_be_seen_against_the_white_figure(figures):
    problems = []
    for panel, key, figure in figures:
        for ax, entries in _legends(figure):
            for label, entry in entries:
                contrasts = [style.contrast_ratio(entry["color"])]
                if entry["edge"] is not None:
                    contrasts.append(style.contrast_ratio(entry["edge"]))
                if max(contrasts) < 3.0:
                    problems.append(f"{panel}/{key}: {label!r} has contrast {max(contrasts):.2f} with white")
        for ax in figure.axes:
            for image in ax.get_images():
                if isinstance(image, AxesImage) and image.get_cmap().name != style.HEATMAP:
                    problems.append(f"{panel}/{key}: heatmap in {image.get_cmap().name}, not {style.HEATMAP}")
    assert problems == []
