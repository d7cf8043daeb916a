"""The canvas every panel's figure is drawn on: ipympl's, with a faster PNG and bounded client messages.

How a figure reaches the browser: after a draw (or a blit) ipympl's canvas asks
matplotlib's web backend for a *diff image* (the pixels that changed since the
last frame, over transparent zeros; a full frame after a size change) and sends
it as a PNG over the widget's comm.  The browser paints it over the last frame.

:class:`ExplorerCanvas` is that canvas (a subclass of ``ipympl.backend_nbagg.Canvas``)
with these changes, and nothing else:

**A faster PNG (the fast path), version-gated.**  Encoding the PNG is most of
what a blitted slider move costs once the drawing is done.  Pillow, which
matplotlib uses, tries five row filters on every row at zlib level 6;
:func:`encode_png` writes the rows unfiltered at zlib level 1.  Is it worth
keeping over Pillow with ``compress_level=1``?  Measured side by side by
``benchmarks/bench_canvas.py`` (``benchmarks/results/canvas.txt``: one run on a
shared 2-core machine, load average 10.12 at the start and 9.61 at the end, so
the times are inflated and the ratios are what counts) on the Randomized
response figure (1000 x 660 px), r = 3:

* the diff PNG of a slider move: Pillow default 36.1 ms, ``compress_level=1``
  25.1 ms, :func:`encode_png` 12.6 ms (2.0x faster than level 1), for 27.5 kB
  against 22.1 kB (12.2 kB by default);
* a full frame (every figure's first frame, every full redraw, and the data URL
  ipympl re-encodes on each update before a browser view attaches): 83.9, 59.1
  and 22.3 ms (2.7x faster than level 1);
* a whole slider move with a browser view attached: 82.2 ms on the plain path,
  72.4 ms with level 1, 65.0 ms with :func:`encode_png`; before a view attaches
  207.8, 153.4 and 101.2 ms.

Part of the gain does come from the compression level alone, but
:func:`encode_png` halves what is left, and it is 20 lines of numpy and zlib that
read no private state.  Its cost is 5.4 kB more per diff PNG: under a
millisecond on a class's local network, about 4 ms on a 10 Mbit/s link, where
the kernel's CPU (shared by every visitor of a public demo) is what runs out
first.  So it is kept.

Choosing the encoder means replacing matplotlib's ``get_diff_image`` (which reads
the backend's private frame state: ``_png_is_old``, ``_force_full``,
``_last_buff``) and ipympl's ``send_binary`` (its data URL before a browser view
attaches).  Both are copied here; their upstream code is the same in matplotlib
3.8.4 and 3.11.2 and in ipympl 0.9.4 and 0.10.0 (the releases compared), and the
copies are used only when the installed versions
are within :data:`MATPLOTLIB_GATE` and :data:`IPYMPL_GATE`
(:func:`fast_path_supported`).  Outside the gate every canvas takes the plain
ipympl path (Pillow's PNG): slower, never wrong.  The test suite fails when the
fast path is not active on the versions the project pins, so raising a bound is
a decision made with the tests, not a silent fallback.

**Bounded client messages, on every version.**  The browser sends the canvas
its size and device pixel ratio; a forged message could ask for a
10000 x 6600 px figure (half a gigabyte of frame buffers) or a ratio of 10
(a MemoryError).  :meth:`ExplorerCanvas._handle_message` checks every message
before the canvas acts on it: a resize is ignored unless the kernel made the
figure resizable (the ``resizable`` trait is kernel-owned: a client update of
it is dropped) and is clamped to :data:`MAX_CSS_PIXELS`; the device pixel ratio
is clamped to :data:`DEVICE_PIXEL_RATIO_RANGE`; the frame never exceeds
:data:`MAX_FRAME_PIXELS` physical pixels; a malformed message is ignored; and no
exception leaves the handler (it is logged kernel-side: ipywidgets would send
its traceback to the client).

**No render twice for the same frame.**  ipympl's browser view asks for a draw when it
starts, again once the kernel has told it the figure's size, and after every resize;
:meth:`ExplorerCanvas.handle_draw` sends the last render again (a full frame) when
nothing changed since it was made, instead of rendering the figure anew.

**Following the container's width.**  :meth:`ExplorerCanvas.fit_width` re-renders
the figure at a width the kernel was told (by :mod:`explorer.panels._resize`),
clamped between :attr:`ExplorerCanvas.min_fit_width` and the design width and
widened until its text stays inside (a figure at its design width in a column at
least that wide is left as it is); ``resizable`` and the bounds above are
untouched.

See ``docs/canvas.md`` ("How figures reach the browser fast, and the limits on
what a client may ask").
"""

from __future__ import annotations

import json
import logging
import math
import warnings
import weakref
from base64 import b64encode
from typing import Any

import numpy as np
from ipympl.backend_nbagg import Canvas
from matplotlib.layout_engine import ConstrainedLayoutEngine

from explorer.plotting._render import encode_png   # the encoder lives in plotting (no import runs up)

__all__ = [
    "ExplorerCanvas",
    "KernelOwnedState",
    "encode_png",
    "fast_path_supported",
    "MATPLOTLIB_GATE",
    "IPYMPL_GATE",
    "MAX_CSS_PIXELS",
    "MIN_CSS_PIXELS",
    "DEVICE_PIXEL_RATIO_RANGE",
    "MAX_FRAME_PIXELS",
    "MIN_FIT_PIXELS",
    "MIN_FIT_SHARE",
    "FIT_TRIES",
    "MAX_SCALE",
    "FIT_TOLERANCE",
]

log = logging.getLogger("explorer.panels.canvas")

#: matplotlib versions whose web backend the fast path was checked against: [lower, upper).
MATPLOTLIB_GATE = ((3, 8), (3, 12))
#: ipympl versions whose canvas the fast path was checked against: [lower, upper).
IPYMPL_GATE = ((0, 9, 4), (0, 11))

#: A client's resize request is clamped to this range, per side, in CSS pixels.
MIN_CSS_PIXELS, MAX_CSS_PIXELS = 50, 3000
#: A client's device pixel ratio is clamped to this range.
DEVICE_PIXEL_RATIO_RANGE = (0.5, 3.0)
#: No frame larger than this many physical pixels (16 MB of RGBA per frame buffer).
MAX_FRAME_PIXELS = 4_000_000
#: A figure that follows its container's width (``fit_width``) is never narrower than this many CSS
#: pixels, nor than this share of its design width: below, the browser scales it down instead.
MIN_FIT_PIXELS, MIN_FIT_SHARE = 320, 0.5
#: The largest :meth:`ExplorerCanvas.set_scale` (the presenter view draws figures 1.5 times larger).
MAX_SCALE = 2.0
#: Draws ``fit_width`` tries before it settles on the design width.
FIT_TRIES = 6
#: ``fit_width`` accepts a width at which the figure reaches at most this many CSS pixels further past its
#: edges than at its design width (the end of a tick label).
FIT_TOLERANCE = 4

# --------------------------------------------------------------------------- the gate


def _version_tuple(text: str) -> tuple[int, ...]:
    """The leading numeric release of a version string: "3.11.2" -> (3, 11, 2), "0.10.0rc1" -> (0, 10, 0)."""
    from packaging.version import InvalidVersion, Version     # matplotlib's own dependency
    try:
        return Version(str(text)).release
    except InvalidVersion:
        return ()


def _within(version: tuple[int, ...], gate: tuple[tuple[int, ...], tuple[int, ...]]) -> bool:
    low, high = gate
    return bool(version) and low <= version < high


_said = {"outside the gate": False}


def _gate_text(gate: tuple[tuple[int, ...], tuple[int, ...]]) -> str:
    low, high = (".".join(map(str, bound)) for bound in gate)
    return f">={low},<{high}"


def fast_path_supported() -> bool:
    """True when the installed matplotlib and ipympl are within the fast path's gate.

    Read at each canvas's creation (``ExplorerCanvas.fast_path``).

    Examples
    --------
    >>> isinstance(fast_path_supported(), bool)
    True
    """
    import ipympl
    import matplotlib
    return (_within(_version_tuple(matplotlib.__version__), MATPLOTLIB_GATE)
            and _within(_version_tuple(ipympl.__version__), IPYMPL_GATE))


# --------------------------------------------------------------------------- bounds on client messages


def _finite_number(value: Any) -> float | None:
    """``value`` as a finite float, or None (bools, strings, NaN and infinities are refused)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def _clamp(value: float, low: float, high: float) -> float:
    return min(max(value, low), high)


class KernelOwnedState:
    """A widget mixin: a client's state update never changes the traits in ``KERNEL_OWNED`` and never raises.

    A value a trait refuses is logged kernel-side, not sent back as a traceback.
    ``n_refused`` counts the updates dropped or failed.
    """

    #: Traits the kernel decides; a client's update of them is dropped.
    KERNEL_OWNED: frozenset[str] = frozenset()
    #: How the log names the widget.
    LOG_NAME = "widget"
    n_refused = 0

    def set_state(self, sync_data):
        """Apply a client's state update, except for the traits the kernel owns; never raises."""
        try:
            dropped = self.KERNEL_OWNED.intersection(sync_data)
            if dropped:
                self.n_refused += 1
                log.warning("%s: client update of %s ignored", self.LOG_NAME, sorted(dropped))
                sync_data = {key: value for key, value in sync_data.items() if key not in dropped}
            super().set_state(sync_data)
        except Exception:
            self.n_refused += 1
            log.exception("%s: a client state update failed and was ignored", self.LOG_NAME)


class ExplorerCanvas(KernelOwnedState, Canvas):
    """ipympl's canvas with the fast PNG path (within the version gate) and bounded client messages.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
        The figure to draw.
    fast_path : bool, optional
        Use the fast PNG path; by default when :func:`fast_path_supported`.  It is
        never used outside the gate, even when asked for.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from ipympl.backend_nbagg import FigureManager
    >>> canvas = ExplorerCanvas(Figure(figsize=(4, 3), dpi=100)); _ = FigureManager(canvas, 0)
    >>> canvas.resizable = False
    >>> canvas._handle_message(canvas, {"type": "resize", "width": 10000, "height": 6600}, [])
    >>> canvas.get_width_height()
    (400, 300)
    >>> canvas._handle_message(canvas, {"type": "set_device_pixel_ratio", "device_pixel_ratio": 10}, [])
    >>> canvas.device_pixel_ratio
    3.0
    """

    #: Traits the kernel decides; a client's update of them is dropped (ipympl's front end sets
    #: ``resizable`` itself, and a forged update could otherwise lift the resize refusal).
    KERNEL_OWNED = frozenset({"resizable"})
    LOG_NAME = "canvas"

    def __init__(self, figure, *args, fast_path: bool | None = None, **kwargs):
        super().__init__(figure, *args, **kwargs)
        supported = fast_path_supported()
        self.fast_path = supported if fast_path is None else bool(fast_path) and supported
        if not supported and not _said["outside the gate"]:      # said once, not silently
            import ipympl
            import matplotlib
            _said["outside the gate"] = True
            log.warning("canvas: matplotlib %s / ipympl %s are outside the versions the fast PNG path was checked "
                        "against (matplotlib %s, ipympl %s): figures use ipympl's plain path",
                        matplotlib.__version__, ipympl.__version__, _gate_text(MATPLOTLIB_GATE),
                        _gate_text(IPYMPL_GATE))
        self.n_refused = 0          # client messages ignored or clamped (for tests and logs)
        # The size the figure was designed at: the most a container's width may ask for (fit_width).
        self.design_size: tuple[int, int] = self.get_width_height(physical=False)
        self._design_inches = tuple(float(v) for v in figure.get_size_inches())
        design_width = self.design_size[0]
        self.min_fit_width = min(design_width, max(MIN_FIT_PIXELS, round(MIN_FIT_SHARE * design_width)))
        self.fit_id = ""            # set by explorer.panels._resize.register_figure
        self._fit_request: int | None = None
        self._design_overflow: float | None = None
        self._overflow_last = 0.0
        self._measured_width: int | None = None     # the width of the last layout fit_width measured
        self._frame_listeners: list = []              # called after each frame sent (the figure's words follow it)
        self._base_dpi = float(getattr(figure, "_original_dpi", figure.dpi))
        self._container_width: float | None = None  # the last width fit_width was asked for
        self.scale = 1.0                             # set_scale: the presenter view draws figures larger
        self._render_key: tuple | None = None        # _current_key() of the last render; None while none is valid
        self._asked_to_draw = False                  # draw_idle was called by a panel since the last render
        self._refreshing = False                     # in handle_refresh: its draw_idle asks for no new render
        self._rendered_size: tuple | None = None     # (w, h, dpi) of the last render
        self.n_renders = 0                           # full renders (for tests and benchmarks)
        self.n_renders_reused = 0                    # client draws answered with the last render

    def add_frame_listener(self, listener) -> None:
        """Call ``listener()`` after every frame this canvas sends to the browser (:mod:`explorer.panels.access`:
        the figure's text alternative is recomputed from what was just drawn).  A failing listener is logged."""
        self._frame_listeners.append(listener)

    def _frame_sent(self) -> None:
        for listener in list(self._frame_listeners):
            try:
                listener()
            except Exception:
                log.exception("canvas: a frame listener failed")

    # ------------------------------------------------------------------ the presenter view: larger figures
    def _mark(self, prefix: str, name: str) -> None:
        """Let ``name`` be the figure's only class starting with ``prefix``: one state message, none if unchanged."""
        kept = [c for c in self._dom_classes if not c.startswith(prefix)]
        if len(kept) + 1 != len(self._dom_classes) or name not in self._dom_classes:
            self._dom_classes = (*kept, name)

    def mark_dpi(self) -> None:
        """Name the figure's dots per inch (CSS pixels per inch) in a class, ``explorer-dpi-156``: a browser test
        reads the text size a figure is rendered at from it and the canvas's scale."""
        self._mark("explorer-dpi-", f"explorer-dpi-{int(round(self._base_dpi * self.scale))}")

    def mark_fitted(self, container: float, fitted: int) -> None:
        """Name the container width the figure was last fitted for and the width it was rendered at, in a class
        ``explorer-fitted-<container>-<fitted>`` (CSS pixels).  A browser test knows a figure has followed its box
        when the box is that wide and the canvas that wide (``tests/e2e/figures.py``, ``settle``)."""
        self._mark("explorer-fitted-", f"explorer-fitted-{int(round(container))}-{int(fitted)}")

    def set_scale(self, scale: Any) -> bool:
        """Draw the figure ``scale`` times larger (clamped to [1, :data:`MAX_SCALE`]): width, height and text.

        The figure's dots per inch are multiplied by ``scale``, so its design width in CSS pixels and its text grow
        together (the layout in inches is the one designed).  It then follows its container's width as before
        (:meth:`fit_width`, at the last width it was told): a narrower column re-renders it narrower with the same
        text size.  Returns False when ``scale`` was refused or clamped.
        """
        number = _finite_number(scale)
        if number is None:
            log.warning("canvas: scale %r ignored", scale)
            return False
        value = _clamp(number, 1.0, MAX_SCALE)
        if value != self.scale:
            self.scale = value
            self.figure._original_dpi = self._base_dpi * value
            self.figure._set_dpi(self.device_pixel_ratio * self._base_dpi * value, forward=False)
            inches_w, inches_h = self._design_inches
            self.design_size = (int(round(inches_w * self._base_dpi * value)),
                                int(round(inches_h * self._base_dpi * value)))
            design_width = self.design_size[0]
            self.min_fit_width = min(design_width, max(MIN_FIT_PIXELS, round(MIN_FIT_SHARE * design_width)))
            self._design_overflow, self._fit_request = None, None
            if self.fit_id:
                self.layout.width = f"{design_width}px"
            self.figure.set_size_inches(inches_w, inches_h, forward=True)
            self.mark_dpi()
            if self._container_width is not None:
                self.fit_width(self._container_width)
            self._png_is_old = True
            self.draw_idle()
        return value == number

    # ------------------------------------------------------------------ no render twice for the same frame
    def draw(self):
        """matplotlib's draw (a full Agg render, then the frame to the browser), noting what it rendered.

        The first render at a size runs a constrained layout twice, as two draws did before a render was reused
        (a layout starts from where the axes are: the second pass places them for the ticks the first gave)."""
        self._asked_to_draw = False
        self._render_key = None
        self.n_renders += 1
        size = self._current_key()[:3]
        engine = self.figure.get_layout_engine()
        if size != self._rendered_size and isinstance(engine, ConstrainedLayoutEngine) and self.figure.axes:
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", "constrained_layout not applied", UserWarning)
                engine.execute(self.figure)
        super().draw()
        self._render_key = self._current_key()
        self._rendered_size = self._render_key[:3]

    def draw_idle(self, *args, **kwargs):
        """Ask the browser for a draw (matplotlib's web backend); a panel's call means the figure changed."""
        if not self._refreshing:
            self._asked_to_draw = True
        super().draw_idle(*args, **kwargs)

    def handle_refresh(self, event):
        """A browser view asks for a full frame (a new view, or its canvas resized): it gets one, and the draw
        it is sent for re-renders the figure only if something changed since the last render (:meth:`handle_draw`)."""
        self._refreshing = True
        try:
            super().handle_refresh(event)
        finally:
            self._refreshing = False

    def handle_draw(self, event):
        """The browser's draw request: the last render is sent again when nothing changed since it was made.

        ipympl asks for a draw on every view's start, again when the kernel tells it the figure's size (the
        ``initialized`` message) and after each resize; each would re-render a figure that had not changed.  The
        render is reused when the figure is not stale (matplotlib marks it stale on any change to an artist, its
        size or its dots per inch), no panel called ``draw_idle`` since, and the renderer is the one drawn at this
        size; the frame sent is the same as a new render's (a full one after a refresh).  Only this browser
        request is answered so: a panel's own ``canvas.draw()`` (a blit's background) always renders."""
        if (self._render_key is not None and not self._asked_to_draw and not self.figure.stale
                and self._render_key == self._current_key()):
            self.n_renders_reused += 1
            self._png_is_old = True
            self.manager.refresh_all()
            return
        self.draw()

    def _current_key(self) -> tuple:
        """The figure's size and dots per inch, and the renderer that would draw it now (held weakly)."""
        width, height = self.figure.bbox.size
        renderer = getattr(self, "renderer", None)
        return (float(width), float(height), float(self.figure.dpi),
                weakref.ref(renderer) if renderer is not None else None)

    # ------------------------------------------------------------------ following the container's width
    def fit_width(self, width: Any) -> bool:
        """Re-render the figure as close to ``width`` CSS pixels wide as its text allows.

        ``width`` is clamped to [``min_fit_width``, design width].  If at that width
        some text or artist would stick out of the figure's left or right edge
        further than it does at the design width (by more than
        :data:`FIT_TOLERANCE`), the figure is widened by twice what sticks out and
        laid out again, then the gap between the widest width that cut text and the
        narrowest that did not is halved (:data:`FIT_TRIES` layouts in all).  So the
        figure gets the narrowest *legible* width found at or above the one asked
        for (at worst its design width); the browser scales it down the rest of the
        way.  The height and the fonts stay as designed (text keeps its size in
        points).  A constrained layout a panel switched off after a draw is run
        again for the new width, then left off.  Kernel-side only: ``resizable`` and
        the bounds on client resize messages are untouched.

        Returns False when the width was refused (not a finite number) or clamped
        to the range, True otherwise.
        """
        number = _finite_number(width)
        if number is None:
            log.warning("canvas: container width %r ignored", width)
            return False
        self._container_width = number
        design_width = self.design_size[0]
        target = int(round(_clamp(number, self.min_fit_width, design_width)))
        if target == self._fit_request:                 # the same container width again: already fitted
            self.mark_fitted(number, self.get_width_height(physical=False)[0])
            return target == number
        self._fit_request = target
        if target >= design_width and self._at_design_width():
            # Already at its design width, laid out for it by its last draw: nothing to measure, re-render or
            # tell the browser (a resize message would make it ask for a new frame).
            self.mark_fitted(number, design_width)
            return target == number
        # A panel may have switched its constrained layout off after a draw (the axes stay where it put
        # them: later draws are cheaper).  A new width needs the layout again: on for the fit, then as it was.
        previous = self.figure.get_layout_engine()
        relayout = not isinstance(previous, ConstrainedLayoutEngine)
        try:
            if self._design_overflow is None:
                self._set_css_width(design_width, forward=False)
                self._design_overflow = self._overflow()
            failing, fitting = None, design_width          # widths known to cut text / to keep it inside
            for attempt in range(FIT_TRIES):
                if target >= fitting or (failing is not None and fitting - failing <= 8):
                    break
                self._set_css_width(target, forward=False)     # tried in the kernel: the browser sees none
                if self._overflow() - self._design_overflow <= FIT_TOLERANCE:
                    fitting = target
                    if failing is None:                     # the width asked for keeps the text inside
                        break
                    target = int(math.ceil((failing + fitting) / 2))
                    continue
                excess = self._overflow_last - self._design_overflow
                failing = target
                # Widen by twice what sticks out first (the layout gives only part of a new width to the text
                # that sticks out), else halve the gap.
                grown = target + 2 * excess + 8
                if attempt >= FIT_TRIES // 2 or grown >= fitting:
                    grown = (failing + fitting) / 2
                target = int(math.ceil(grown))
            self._set_css_width(fitting)                 # the one size the browser is told of
            self.mark_fitted(number, fitting)
            if relayout and self._measured_width != fitting:
                self._overflow()                          # the axes placed for the final width
        finally:
            if self.figure.get_layout_engine() is not previous:
                self.figure.set_layout_engine(previous)
        self._png_is_old = True                           # the next frame is a full one at the new size
        self.draw_idle()
        return int(round(_clamp(number, self.min_fit_width, design_width))) == number

    def _at_design_width(self) -> bool:
        return bool(np.allclose(self.figure.get_size_inches(), self._design_inches, rtol=0, atol=1e-9))

    def _set_css_width(self, width: int, forward: bool = True) -> None:
        """Lay the figure out ``width`` CSS pixels wide; ``forward`` tells the browser (a resize message)."""
        inches_w, inches_h = self._design_inches
        self.figure.set_size_inches(inches_w * width / self.design_size[0], inches_h, forward=forward)

    def _overflow(self) -> float:
        """How far (CSS pixels) the laid-out figure reaches past its left and right edges.

        The constrained layout is run twice, as the two draws of a fit used to run it (a layout without rendering,
        then the Agg draw for the browser), and nothing is drawn: the ticks follow the new size and the text's
        extents are measured by the Agg renderer.  The widths found are the ones those two draws gave, in about
        60 % of their time, and nothing is sent to the browser."""
        if not isinstance(self.figure.get_layout_engine(), ConstrainedLayoutEngine):
            self.figure.set_layout_engine("constrained")   # a panel's draw handler may have switched it off
        with warnings.catch_warnings():                    # too narrow for the layout: measured as overflow
            warnings.filterwarnings("ignore", "constrained_layout not applied", UserWarning)
            if self.figure.axes:                           # as Figure.draw: no axes, no layout
                engine = self.figure.get_layout_engine()
                engine.execute(self.figure)                # ticks and tick labels follow the new size
                engine.execute(self.figure)                # the second pass places the axes for them
        box = self.figure.get_tightbbox(self.get_renderer())
        inches = max(0.0, -box.x0) + max(0.0, box.x1 - self.figure.get_figwidth())
        self._overflow_last = inches * self.figure.dpi / self.device_pixel_ratio
        self._measured_width = self.get_width_height(physical=False)[0]
        return self._overflow_last

    # ------------------------------------------------------------------ the fast path
    def get_diff_image(self):
        """matplotlib's ``FigureCanvasWebAggCore.get_diff_image`` with :func:`encode_png` (fast path).

        The same protocol: a full frame after a size change, on request or with
        transparency, else the changed pixels over transparent zeros.
        """
        if not self.fast_path:
            return super().get_diff_image()
        if not self._png_is_old:
            return None
        pixels = np.asarray(self.get_renderer().buffer_rgba())
        buff = pixels.view(np.uint32).squeeze(2)
        if self._force_full or buff.shape != self._last_buff.shape or (pixels[:, :, 3] != 255).any():
            self.set_image_mode("full")
            output = buff
        else:
            self.set_image_mode("diff")
            output = np.where(buff != self._last_buff, buff, 0)
        self._last_buff = buff.copy()
        self._force_full = False
        self._png_is_old = False
        return encode_png(output.view(dtype=np.uint8).reshape((*output.shape, 4)))

    def send_binary(self, data):
        """ipympl's ``Canvas.send_binary`` (the data URL kept until a browser view attaches) with
        :func:`encode_png` (fast path)."""
        if not self.fast_path:
            super().send_binary(data)
            self._frame_sent()
            return
        if self.syncing_data_url:
            last = self._last_buff.view(dtype=np.uint8).reshape((*self._last_buff.shape, 4))
            self._data_url = b64encode(encode_png(last)).decode("utf-8")
        self.send({"data": json.dumps({"type": "binary"})}, buffers=[data])
        self._frame_sent()

    # ------------------------------------------------------------------ client messages
    def _handle_message(self, object, content, buffers):
        """Every message the browser sends the canvas: checked and bounded, then ipympl's handling.

        Never raises: a failure is logged kernel-side (ipywidgets would send the
        traceback to the client).
        """
        try:
            checked = self._check_message(content)
            if checked is None:
                self.n_refused += 1
                return
            super()._handle_message(object, checked, buffers)
        except Exception:                     # MemoryError included
            self.n_refused += 1
            log.exception("canvas: a client message failed and was ignored")

    def _check_message(self, content: Any) -> dict | None:
        """The message to act on (sizes and ratio bounded), or None to ignore it."""
        if not isinstance(content, dict) or not isinstance(content.get("type"), str):
            log.warning("canvas: malformed client message ignored")
            return None
        kind = content["type"]
        if kind == "resize":
            if not self.resizable:
                log.info("canvas: resize of a fixed-size figure ignored")
                return None
            width, height = _finite_number(content.get("width")), _finite_number(content.get("height"))
            if width is None or height is None:
                log.warning("canvas: resize without finite width and height ignored")
                return None
            width, height = self._bounded_size(width, height, self.device_pixel_ratio)
            if (width, height) != (content["width"], content["height"]):
                self.n_refused += 1
            return {**content, "width": width, "height": height}
        if kind in ("set_device_pixel_ratio", "set_dpi_ratio"):
            key = "device_pixel_ratio" if kind == "set_device_pixel_ratio" else "dpi_ratio"
            ratio = _finite_number(content.get(key, 1))
            if ratio is None or ratio <= 0:
                log.warning("canvas: device pixel ratio %r ignored", content.get(key))
                return None
            bounded = self._bounded_ratio(ratio)
            if bounded != ratio:
                self.n_refused += 1
            return {**content, key: bounded}
        return content

    def _bounded_ratio(self, ratio: float) -> float:
        """The ratio clamped to DEVICE_PIXEL_RATIO_RANGE, lowered until the frame fits MAX_FRAME_PIXELS."""
        ratio = _clamp(ratio, *DEVICE_PIXEL_RATIO_RANGE)
        width, height = self.get_width_height(physical=False)      # CSS pixels at the current ratio
        area = max(width * height, 1)
        if area * ratio * ratio > MAX_FRAME_PIXELS:
            ratio = max(math.sqrt(MAX_FRAME_PIXELS / area), DEVICE_PIXEL_RATIO_RANGE[0])
        return ratio

    @staticmethod
    def _bounded_size(width: float, height: float, ratio: float) -> tuple[int, int]:
        """A resize request clamped per side to [MIN_CSS_PIXELS, MAX_CSS_PIXELS], then scaled to
        fit MAX_FRAME_PIXELS physical pixels at ``ratio``."""
        width = _clamp(width, MIN_CSS_PIXELS, MAX_CSS_PIXELS)
        height = _clamp(height, MIN_CSS_PIXELS, MAX_CSS_PIXELS)
        physical = width * height * ratio * ratio
        if physical > MAX_FRAME_PIXELS:
            scale = math.sqrt(MAX_FRAME_PIXELS / physical)
            width, height = width * scale, height * scale
        return int(width), int(height)
