"""Figures that follow the width of their container (JupyterLab beside the file browser, a narrow Voilà window).

ipympl's front end draws a figure at the pixel size the kernel rendered it and
has no ResizeObserver: a 1000 px figure in an 800 px column is clipped.  Here:

* every figure made by :func:`~explorer.panels.figures.make_figure` is laid out
  (ipywidgets ``Layout``) as a box of its *design width* that may shrink to
  its column (``max-width: 100%``, ``min-width: 0``), tagged with a class
  ``explorer-fit-<id>``; the CSS of :class:`FigureSizer` scales its canvas down
  to that box at once (the first stage, so nothing is ever clipped);
* :class:`FigureSizer`, one small hidden widget (anywidget: its JavaScript is
  the string :data:`SIZER_ESM`, served through the widget's comm, no CDN and no
  build step), observes those boxes with a ``ResizeObserver`` and reports their
  widths to the kernel (debounced in the browser);
* the kernel clamps every width it is told to the figure's own range
  (:meth:`~explorer.panels._canvas.ExplorerCanvas.fit_width`: at least
  :data:`~explorer.panels._canvas.MIN_FIT_PIXELS`, at most the design width),
  debounces again (:data:`DEBOUNCE_SECONDS`), and re-renders the figure at the
  new width with the same fonts: text keeps its size in points (legible), the
  plot gets narrower.  When there is room again the figure grows back, never
  past its design width.

The width is a client message like any other: a forged one can only choose a
width within the figure's range (never a larger frame than the design), and it
never touches the canvas's ``resizable`` trait (ipympl's own resize path stays
refused).  See ``docs/canvas.md``.
"""

from __future__ import annotations

import logging
import uuid
import weakref
from typing import Any

import ipywidgets
import traitlets

from explorer.panels._canvas import KernelOwnedState
from explorer.panels.tasks import Debounced

try:
    import anywidget
    _WidgetBase: type = anywidget.AnyWidget
except ImportError:          # a declared dependency; without it figures do not follow their container (logged)
    anywidget = None
    _WidgetBase = ipywidgets.DOMWidget

__all__ = ["FigureSizer", "figure_sizer", "register_figure", "set_figure_scale", "apply_figure_scale", "figure_scale", "DEBOUNCE_SECONDS", "SIZER_ESM", "SIZER_CSS"]

log = logging.getLogger("explorer.panels.resize")

#: The kernel applies the last width it was told this long after the last report.
DEBOUNCE_SECONDS = 0.15

#: The browser side: observe every registered figure box, report its width (debounced).
SIZER_ESM = r"""
function render({ model, el }) {
  el.classList.add("explorer-figure-sizer");
  const observed = new Map();          // element -> figure id
  let pending = {};
  let timer = null;
  const send = () => {
    timer = null;
    const widths = Object.assign({}, model.get("widths"), pending);
    pending = {};
    model.set("widths", widths);
    model.save_changes();
  };
  const observer = new ResizeObserver((entries) => {
    for (const entry of entries) {
      const id = observed.get(entry.target);
      const width = Math.round(entry.contentRect.width);
      if (id && width > 0) pending[id] = width;      // a hidden tab reports 0: ignored
    }
    if (Object.keys(pending).length && timer === null) timer = setTimeout(send, 120);
  });
  let scanning = null;
  const scan = () => {
    scanning = null;
    for (const id of model.get("targets")) {
      for (const node of document.getElementsByClassName("explorer-fit-" + id)) {
        if (!observed.has(node)) { observed.set(node, id); observer.observe(node); }
      }
    }
  };
  const later = () => { if (scanning === null) scanning = setTimeout(scan, 50); };
  const mutations = new MutationObserver(later);   // figures of a tab built later
  mutations.observe(document.body, { childList: true, subtree: true });
  model.on("change:targets", later);
  scan();
  return () => {
    observer.disconnect(); mutations.disconnect(); model.off("change:targets", later);
    clearTimeout(timer); clearTimeout(scanning);
  };
}
export default { render };
"""

#: The first stage, in the browser alone: a figure's canvas never exceeds its box.  ipympl stacks two
#: absolutely positioned canvases (the frame, and the rubber band over it) in a box of fixed pixel size;
#: here the frame flows (it gives the box its height), both scale with the box's width.
SIZER_CSS = """
.explorer-fit { overflow: hidden; box-sizing: border-box; }
.explorer-fit .jupyter-matplotlib-figure,
.explorer-fit .jupyter-matplotlib-canvas-container { max-width: 100%; min-width: 0; overflow: hidden; margin: 0; }
.explorer-fit .jupyter-matplotlib-canvas-div { margin: 0; max-width: 100%; height: auto !important; }
.explorer-fit .jupyter-matplotlib-canvas-div > canvas:first-child {
  position: relative !important; max-width: 100%; height: auto !important; }
.explorer-fit .jupyter-matplotlib-canvas-div > canvas + canvas { width: 100% !important; height: 100% !important; }
"""


class FigureSizer(KernelOwnedState, _WidgetBase):
    """The hidden widget that reports the width of every figure's box to the kernel.

    One per kernel (:func:`figure_sizer`); shown once by the app and by each
    lesson.  ``targets`` (kernel -> browser) lists the figures to observe;
    ``widths`` (browser -> kernel) maps a figure's id to its box's width in CSS
    pixels.

    Examples
    --------
    >>> from explorer.panels.figures import make_figure
    >>> figure, canvas = make_figure(6.0, 3.0)
    >>> sizer = figure_sizer()
    >>> canvas.fit_id in sizer.targets
    True
    >>> sizer.apply({canvas.fit_id: 10_000, "forged": 5})     # clamped to the design width
    >>> canvas.get_width_height()
    (600, 300)
    >>> sizer.apply({canvas.fit_id: 450})
    >>> canvas.get_width_height()
    (450, 300)
    >>> sizer.apply({canvas.fit_id: 1})                       # never under the smallest width
    >>> canvas.get_width_height()[0] == canvas.min_fit_width
    True
    """

    _esm = SIZER_ESM
    _css = SIZER_CSS
    targets = traitlets.List(traitlets.Unicode()).tag(sync=True)
    widths = traitlets.Dict().tag(sync=True)

    #: Traits the kernel decides; a client's update of them is dropped.
    KERNEL_OWNED = frozenset({"targets"})
    LOG_NAME = "figure sizer"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if anywidget is None:
            log.warning("figure sizer: anywidget is not installed (pip install anywidget): figures do not "
                        "follow the width of their container")
        self.layout.display = "none"
        self._canvases: weakref.WeakValueDictionary[str, Any] = weakref.WeakValueDictionary()
        self._pending: dict[str, Any] = {}
        self._later = Debounced(self._flush, DEBOUNCE_SECONDS)
        self.n_refused = 0
        self.observe(self._on_widths, names="widths")

    # ------------------------------------------------------------------ kernel side
    def register(self, canvas: Any) -> None:
        """Observe ``canvas``'s box from now on (its ``fit_id`` class is set by ``make_figure``)."""
        self._canvases[canvas.fit_id] = canvas
        live = [fid for fid, c in list(self._canvases.items()) if getattr(c, "comm", None) is not None]
        self.targets = live

    def _on_widths(self, change: Any) -> None:
        reported = change["new"] if isinstance(change["new"], dict) else {}
        # Only the figures this kernel registered are read: a forged dict of a million keys costs nothing more.
        for fid in list(self._canvases.keys()):
            if fid in reported:
                self._pending[fid] = reported[fid]
        if self._pending:
            self._later()                      # without an event loop (tests, scripts): applied now

    def _flush(self) -> None:
        pending, self._pending = self._pending, {}
        self.apply(pending)

    def apply(self, widths: dict) -> None:
        """Re-render each registered figure at the width reported for it (clamped); never raises."""
        for fid, width in widths.items():
            canvas = self._canvases.get(fid)
            if canvas is None:
                continue
            try:
                if not canvas.fit_width(width):
                    self.n_refused += 1
            except Exception:
                self.n_refused += 1
                log.exception("figure sizer: resizing figure %s failed", fid)


_sizer: dict[str, FigureSizer] = {}
#: The scale every figure of this kernel is drawn at (:func:`set_figure_scale`; 1 outside the presenter view).
_scale: dict[str, float] = {"figures": 1.0}


def set_figure_scale(scale: float, *, within: Any = None) -> None:
    """Draw the figures of this kernel, and those made later, ``scale`` times larger (the presenter view).

    Each canvas's :meth:`~explorer.panels._canvas.ExplorerCanvas.set_scale`: text, width and height grow
    together, then the figure follows its container's width again.  ``1`` is the designed size.  With
    ``within`` (a widget: the tab on screen), only the figures under it are re-drawn now; the others keep
    their scale until :func:`apply_figure_scale` is called on their part of the page (when their tab is shown),
    so a teacher who switches the presenter view waits for the figures in view only.
    """
    _scale["figures"] = float(scale)
    sizer = _sizer.get("sizer")
    canvases = list(sizer._canvases.values()) if sizer is not None else []
    if within is not None:
        inside = {id(widget) for widget in _widgets_under(within)}
        canvases = [canvas for canvas in canvases if id(canvas) in inside]
    _rescale(canvases)


def apply_figure_scale(root: Any) -> None:
    """Bring the figures under the widget ``root`` to the present scale (:func:`set_figure_scale`), if they are
    not at it yet: a tab hidden when the presenter view was switched, now shown."""
    scale = _scale["figures"]
    sizer = _sizer.get("sizer")
    behind = {id(canvas) for canvas in sizer._canvases.values()
              if getattr(canvas, "scale", scale) != scale} if sizer is not None else set()
    if behind:                  # every tab switch comes here: the tree is walked only when a figure is behind
        _rescale([widget for widget in _widgets_under(root) if id(widget) in behind])


def _widgets_under(root: Any) -> list:
    """``root`` and every widget under it (``children``)."""
    found, stack = [], [root]
    while stack:
        widget = stack.pop()
        found.append(widget)
        stack.extend(getattr(widget, "children", ()) or ())
    return found


def _rescale(canvases: list) -> None:
    scale = _scale["figures"]
    for canvas in canvases:
        try:
            canvas.set_scale(scale)
        except Exception:          # one figure's failure must not stop the others
            log.exception("figure sizer: scaling figure %s failed", getattr(canvas, "fit_id", "?"))


def figure_scale() -> float:
    """The scale figures are drawn at now (:func:`set_figure_scale`)."""
    return _scale["figures"]


def figure_sizer() -> FigureSizer:
    """The kernel's :class:`FigureSizer` (made on first use, made again if it was closed)."""
    sizer = _sizer.get("sizer")
    if sizer is None or sizer.comm is None:
        sizer = _sizer["sizer"] = FigureSizer()
    return sizer


def register_figure(canvas: Any) -> str:
    """Give ``canvas`` a box that may shrink to its column and have its width followed.

    Sets the canvas's layout (its design width, ``max-width: 100%``) and the
    classes the browser side looks for; returns the figure's id.
    """
    fid = uuid.uuid4().hex[:12]
    canvas.fit_id = fid
    width, _height = canvas.design_size
    canvas.layout.width = f"{width}px"
    canvas.layout.max_width = "100%"
    canvas.layout.min_width = "0"
    canvas.layout.flex = "0 1 auto"
    canvas.add_class("explorer-fit")
    canvas.add_class(f"explorer-fit-{fid}")
    figure_sizer().register(canvas)
    if hasattr(canvas, "set_scale"):
        canvas.mark_dpi()
        if _scale["figures"] != 1.0:
            canvas.set_scale(_scale["figures"])
    return fid
