"""Figures of the panels: a matplotlib Figure on an ipympl canvas (no pyplot), and closing a widget tree."""

from __future__ import annotations

import warnings
from typing import Any

import ipywidgets as widgets
from matplotlib.figure import Figure

__all__ = ["make_figure", "close_tree"]


def make_figure(width: float = 6.0, height: float = 3.6, *, toolbar: bool = False) -> tuple[Figure, Any]:
    """A matplotlib Figure with an ipympl canvas widget, made without pyplot.

    Returns ``(figure, canvas)``; the canvas is an ipywidgets DOMWidget to put in
    a layout.  No pyplot figure registry is involved, so figures a panel replaces
    are freed with it (200 unclosed pyplot figures cost +558 MB).  The canvas is an
    :class:`~explorer.panels._canvas.ExplorerCanvas`: the fast PNG path on the
    matplotlib and ipympl versions it was checked against (ipympl's own path
    elsewhere), and a size that a client's resize message cannot change.  Its width
    follows its container's (:mod:`explorer.panels._resize`): the browser scales it
    down to a narrower column at once, and the kernel re-renders it at that width,
    between ``canvas.min_fit_width`` and the design width ``width`` (see
    ``docs/canvas.md``).  Blitting uses matplotlib's API on the figure's canvas.
    """
    from ipympl.backend_nbagg import FigureManager

    from explorer.panels._canvas import ExplorerCanvas
    from explorer.panels._resize import register_figure

    figure = Figure(figsize=(width, height), layout="constrained")
    canvas = ExplorerCanvas(figure)
    with warnings.catch_warnings():   # ipympl's Toolbar passes its canvas on to traitlets (a deprecation)
        warnings.filterwarnings("ignore", r"Passing unrecognized arguments to super\(Toolbar\)", DeprecationWarning)
        FigureManager(canvas, 0)
    canvas.header_visible = False
    canvas.footer_visible = False
    canvas.toolbar_visible = toolbar
    canvas.resizable = False
    canvas.capture_scroll = False
    register_figure(canvas)          # follows the width of its container (explorer/panels/_resize.py)
    return figure, canvas


def close_tree(widget: widgets.Widget) -> None:
    """Close ``widget``, everything under it (``children``) and their Layout and Style models (no leaks)."""
    stack = [widget]
    while stack:
        item = stack.pop()
        if not isinstance(item, widgets.Widget):
            continue
        stack.extend(getattr(item, "children", ()) or ())
        for part in ("layout", "style"):
            model = getattr(item, part, None) if item.has_trait(part) else None
            if isinstance(model, widgets.Widget):
                model.close()
        item.close()
