"""The figures' colours, markers, line styles and hatches: one place for every plotting function.

Every ``plot_x`` of :mod:`explorer.plotting` takes its colours from here, so the whole explorer reads the same
way to everyone, including the one reader in twelve (men) who sees colours differently:

* :data:`SERIES`: the six colours of a figure's series, in this order.  They are the six colours of Matthew
  Petroff's ten-colour cycle (matplotlib's ``petroff10`` style, written out here so that any matplotlib
  the explorer supports has them) that keep a contrast of at least 3:1 with the white figure background
  (WCAG 2.1, 1.4.11 non-text contrast).  Simulated deuteranopia, protanopia and tritanopia
  (``colorspacious``, severity 100) leave any two of them at least 14.9 apart in CAM02-UCS;
  ``tests/plotting/test_palette.py`` checks every figure of every tab against :data:`MIN_CVD_DISTANCE`.
* :data:`HEATMAP`: ``cividis``, a sequential map that reads the same with and without a colour-vision
  deficiency; :func:`text_color_on` picks black or white text for a cell, whichever contrasts more.
* Colour is never the only difference: series also differ by marker (:data:`MARKERS`), line style
  (:data:`LINESTYLES`) or hatch (:data:`HATCHES`), and carry a legend entry or a direct label.

No widgets and no pyplot: this module only names values.
"""

from __future__ import annotations

from typing import Any

from matplotlib.colors import to_rgb

__all__ = ["SERIES", "BLUE", "RED", "PURPLE", "BROWN", "ORANGE", "GREY", "REFERENCE", "NOTE", "HEATMAP",
           "MARKERS", "LINESTYLES", "HATCHES", "BAR_EDGE", "MIN_CVD_DISTANCE", "series_color", "line_style",
           "bar_style", "contrast_ratio", "text_color_on"]

#: The series colours, in the order a figure uses them (petroff10 colours with >= 3:1 against white).
SERIES: tuple[str, ...] = ("#3f90da", "#bd1f01", "#832db6", "#a96b59", "#e76300", "#717581")
BLUE, RED, PURPLE, BROWN, ORANGE, GREY = SERIES

#: Reference lines (a prior entropy, a bound t, the zero line): black, told apart by their line style.
REFERENCE = "black"
#: Notes written on a figure: dark grey, 7.5:1 against white.
NOTE = "#555555"
#: The colour map of every heatmap.
HEATMAP = "cividis"
#: Bar outlines (they also colour the hatches).
BAR_EDGE = "black"

MARKERS: tuple[str, ...] = ("o", "s", "^", "D", "v", "P")
LINESTYLES: tuple[Any, ...] = ("-", "--", "-.", ":", (0, (5, 1, 1, 1, 1, 1)), (0, (1, 1)))
HATCHES: tuple[str, ...] = ("", "//", "\\\\", "xx", "..", "++")

#: The least CAM02-UCS distance between two series' colours under simulated deuteranopia, protanopia and
#: tritanopia that the palette test accepts: about ten just-noticeable differences for large patches; thin
#: lines and small markers need several times the difference of large patches to be told apart (Stone,
#: Szafir and Setlur 2014), so 10 keeps lines and markers distinct, not merely different in a swatch.
MIN_CVD_DISTANCE = 10.0


def series_color(index: int) -> str:
    """The colour of series ``index`` (the palette repeats after six; markers and styles still differ)."""
    return SERIES[index % len(SERIES)]


def line_style(index: int) -> dict[str, Any]:
    """Colour, marker and line style of line series ``index``: no two of the first six alike in any of them."""
    return {"color": series_color(index), "marker": MARKERS[index % len(MARKERS)],
            "linestyle": LINESTYLES[index % len(LINESTYLES)]}


def bar_style(index: int) -> dict[str, Any]:
    """Colour, hatch and outline of bar series ``index`` (the first has no hatch)."""
    return {"color": series_color(index), "hatch": HATCHES[index % len(HATCHES)], "edgecolor": BAR_EDGE,
            "linewidth": 0.6}


def _luminance(color: Any) -> float:
    channels = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in to_rgb(color)]
    return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]


def contrast_ratio(first: Any, second: Any = "white") -> float:
    """The WCAG 2.1 contrast ratio of two colours (1 to 21).

    Examples
    --------
    >>> round(contrast_ratio("black", "white"), 1)
    21.0
    >>> all(contrast_ratio(c) >= 3 for c in SERIES)
    True
    """
    high, low = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def text_color_on(background: Any) -> str:
    """``"black"`` or ``"white"``: whichever contrasts more with ``background`` (a heatmap cell's colour).

    Examples
    --------
    >>> from matplotlib import colormaps
    >>> text_color_on(colormaps[HEATMAP](0.0)), text_color_on(colormaps[HEATMAP](1.0))
    ('white', 'black')
    """
    return "black" if contrast_ratio(background, "black") >= contrast_ratio(background, "white") else "white"
