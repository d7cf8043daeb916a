"""What every panel shares: the app state, figures without pyplot state, a status line.

Panels wire controls to ``explorer.core`` and ``explorer.plotting``; they hold no
formulas.  Errors from the core (:class:`~explorer.errors.ExplorerError`) are shown
in words on the status line and the last valid picture stays; any other exception
is shown as a short sentence, never as a traceback.
"""

from __future__ import annotations

import base64
import functools
import html
import logging
import threading
import warnings
import weakref
from typing import Any, Callable

import ipywidgets as widgets
import traitlets
from ipywidgets.widgets.widget import CallbackDispatcher
from matplotlib.figure import Figure

from explorer.errors import CancelledError, ExplorerError, InvalidParameterError
from explorer.panels._format import subscripts_html, subscripts_in_html
from explorer.state import EPSILON_MAX, EPSILON_MIN, EPSILON_STEP, AppState, shorten

__all__ = ["AppState", "StatusLine", "BackgroundTask", "make_figure", "guarded", "escape", "csv_download_link", "download_link",
           "guard_widgets", "epsilon_slider", "StaleMark", "CLIENT_KEYS", "close_tree", "Throughput"]

log = logging.getLogger("explorer.panels")


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


def escape(text: Any) -> str:
    """HTML-escape text for an HTML widget."""
    return html.escape(str(text))


def download_link(data: bytes, filename: str, mime: str, label: str | None = None, *, css_class: str = "") -> str:
    """An HTML link that downloads ``data`` as the file ``filename`` (a data: URI, no server round trip)."""
    payload = base64.b64encode(data).decode("ascii")
    extra = f" class='{escape(css_class)}'" if css_class else ""
    return (f"<a download='{escape(filename)}' href='data:{escape(mime)};base64,{payload}'{extra}>"
            f"{escape(label or filename)}</a>")


def csv_download_link(text: str, filename: str, label: str | None = None, *, css_class: str = "") -> str:
    """An HTML link that downloads ``text`` as the CSV file ``filename``.

    Build ``text`` with :func:`explorer.core.export.csv_safe` so that spreadsheet formulas are escaped.
    """
    return download_link(text.encode("utf-8"), filename, "text/csv;charset=utf-8", label, css_class=css_class)


class StatusLine:
    """One line of status under a panel: information, or an error in words.

    Messages keep the plain-text names of the core's errors (``T_v must be at least ...``: the
    parameter as the docs and docstrings write it, in :attr:`message`); what the line shows renders a
    one-letter symbol's ``_`` index as a subscript (T<sub>v</sub>), by :func:`._format.subscripts_html`,
    so no reader sees a code-like underscore.
    """

    def __init__(self) -> None:
        self.widget = widgets.HTML(value="", layout=widgets.Layout(min_height="1.6em"))
        self.widget.add_class("explorer-status")
        self.message = ""
        self.is_error = False

    def info(self, text: str, *, raw_html: bool = False) -> None:
        self.message, self.is_error = text, False
        body = subscripts_in_html(text) if raw_html else subscripts_html(text)
        self.widget.value = f"<span class='explorer-info'>{body}</span>"

    def error(self, text: str) -> None:
        self.message, self.is_error = text, True
        self.widget.value = f"<span class='explorer-error' style='color:#b00020'><b>{subscripts_html(text)}</b></span>"

    def clear(self) -> None:
        self.message, self.is_error = "", False
        self.widget.value = ""


def guarded(method: Callable) -> Callable:
    """Decorate a panel callback: core errors go to ``self.status`` in words; nothing escapes.

    The callback returns normally either way, so an observer chain is never
    broken and the last valid state stays on screen.
    """

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except ExplorerError as error:
            self.status.error(str(error))
        except Exception as error:  # a bug: say so in words, log the traceback kernel-side only
            log.exception("panel callback failed")
            self.status.error(f"Something went wrong ({type(error).__name__}); the last valid view is kept.")
        return None

    return wrapper


class Throughput:
    """Seconds per work unit (:mod:`explorer.core.cost`) of one kind of work, measured as the app runs.

    ``estimate(units)`` gives seconds; ``observe(units, seconds)`` records a run (runs
    shorter than ``min_seconds`` are too noisy and ignored) and moves the rate half-way
    (in log scale) to the measured one, so that estimates follow this machine and its load.
    """

    def __init__(self, seconds_per_unit: float = 1e-6, *, min_seconds: float = 0.05):
        self.seconds_per_unit = float(seconds_per_unit)
        self.min_seconds = min_seconds
        self.observed = 0

    def estimate(self, units: float) -> float:
        return float(units) * self.seconds_per_unit

    def describe(self, units: float) -> str:
        """The estimate in words: "about 0.4 s", "about 12 s"."""
        seconds = self.estimate(units)
        return f"about {seconds:.1f} s" if seconds < 10 else f"about {seconds:,.0f} s"

    def observe(self, units: float, seconds: float) -> None:
        if units <= 0 or seconds < self.min_seconds:
            return
        measured = seconds / units
        self.seconds_per_unit = (self.seconds_per_unit * measured) ** 0.5 if self.observed else measured
        self.observed += 1


class BackgroundTask:
    """Long work in a thread, with a progress bar and a Cancel button; the one owner of superseded results.

    ``start(compute, on_done)`` runs ``compute(progress)`` in a thread, where
    ``progress(fraction)`` moves the bar and returns False once the user pressed
    Cancel: ``compute`` then either raises :class:`CancelledError` (the previous
    view is kept) or returns what it has (partial results, which ``on_done`` shows);
    ``on_done(result)`` updates the panel.  Until it ends the panel keeps
    its last valid view; errors go to the status line in words.  Put ``.widget``
    in the panel's layout; it is hidden while nothing runs.

    Superseded results: a panel calls :meth:`supersede` whenever its inputs change
    (or passes ``still_current=`` to :meth:`start`).  A result computed for inputs
    that changed meanwhile never reaches ``on_done``: the task drops it (under
    :attr:`lock`, so a panel drawing under the same lock never sees it either) and
    calls ``on_superseded`` instead, or says so on the status line.  Panels keep no
    counter of their own.
    """

    def __init__(self, status: StatusLine, *, description: str = "working", name: str = "explorer-task"):
        self.status = status
        self.name = name
        self.progress = widgets.FloatProgress(value=0.0, min=0.0, max=1.0, description=description,
                                              layout=widgets.Layout(width="320px"))
        self.cancel_button = widgets.Button(description="Cancel", icon="stop", button_style="warning",
                                            layout=widgets.Layout(width="100px"))
        self.cancel_button.on_click(lambda _: self.cancel())
        self.widget = widgets.HBox([self.progress, self.cancel_button])
        self.widget.add_class("explorer-task")
        self.widget.layout.display = "none"
        self.lock = threading.RLock()
        self._thread: threading.Thread | None = None
        self._cancel = threading.Event()
        self._generation = 0                # bumped by supersede(): results of older generations are dropped
        BackgroundTask._instances.add(self)

    #: every task made in this kernel (weakly: a closed panel's task goes with it)
    _instances: "weakref.WeakSet[BackgroundTask]" = weakref.WeakSet()

    @classmethod
    def cancel_all(cls, timeout: float | None = 5.0) -> int:
        """Cancel every running task in this kernel (e.g. on kernel shutdown); return how many were running.

        Each running task's Cancel is pressed, then each is waited for up to ``timeout``
        seconds (``None``: as long as it takes).
        """
        running = [task for task in list(cls._instances) if task.running]
        for task in running:
            task.cancel()
        for task in running:
            task.wait(timeout)
        return len(running)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def wait(self, timeout: float | None = None) -> None:
        """Block until the running task (if any) has ended (notebooks, tests)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def generation(self) -> int:
        """How many times the inputs changed (:meth:`supersede`); a task started now computes for this one."""
        return self._generation

    def supersede(self) -> int:
        """The panel's inputs changed: the result of a task started before is dropped when it arrives.

        Returns the new generation.  Taken under :attr:`lock`: a result being shown
        right now is shown whole before the inputs count as changed.
        """
        with self.lock:
            self._generation += 1
            return self._generation

    def is_current(self, generation: int) -> bool:
        """Whether no :meth:`supersede` came after ``generation``."""
        return generation == self._generation

    def report(self, fraction: float) -> bool:
        """Move the bar; False once Cancel was pressed."""
        self.progress.value = min(max(float(fraction), 0.0), 1.0)
        return not self._cancel.is_set()

    def start(self, compute: Callable[[Callable[[float], bool]], Any], on_done: Callable[[Any], None], *,
              message: str = "Working... (Cancel stops it; the last view stays until then)",
              disable: tuple = (), still_current: Callable[[], bool] | None = None,
              on_superseded: Callable[[], None] | None = None, stop_when_superseded: bool = False) -> None:
        """Run ``compute(progress)`` in a thread and ``on_done(result)`` when it ends (unless cancelled).

        The result is for the inputs of the current :attr:`generation`.  When it
        arrives after a :meth:`supersede`, or ``still_current()`` (if given) says
        False, the panel's inputs changed meanwhile: the result is dropped (a
        superseded result never reaches the screen) and ``on_superseded()`` is called
        instead, or, without it, a sentence goes to the status line.  With
        ``stop_when_superseded`` the compute's ``progress`` also returns False once
        superseded, so that work for old inputs stops early (its CancelledError is
        then dropped the same way, not reported as a Cancel).
        """
        if self.running:
            self.cancel()
            self.wait()
        self._cancel.clear()
        generation = self._generation
        self.progress.value = 0.0
        self.widget.layout.display = None
        for control in disable:
            control.disabled = True
        self.status.info(message)

        def superseded() -> bool:
            return generation != self._generation or (still_current is not None and not still_current())

        def progress(fraction: float) -> bool:
            going = self.report(fraction)
            return going and not (stop_when_superseded and generation != self._generation)

        def dropped() -> None:
            if on_superseded is not None:
                on_superseded()
            else:
                self.status.info("The inputs changed while this was computed: its result was discarded "
                                 "(press Compute for the new ones).")

        def run() -> None:
            try:
                try:
                    result = compute(progress)      # a compute that stops early with partial results returns them
                except CancelledError:
                    with self.lock:
                        if self._cancel.is_set() or not superseded():
                            raise
                        dropped()                   # stopped because it was superseded: not a user's Cancel
                    return
                with self.lock:
                    if superseded():
                        dropped()
                    else:
                        on_done(result)
            except CancelledError as error:     # the compute's own words, e.g. "clustering cancelled after ..."
                words = str(error).strip().rstrip(".")
                words = words[:1].upper() + words[1:] if words else "Cancelled"
                self.status.info(f"{words}; the previous view is kept.")
            except ExplorerError as error:
                self.status.error(str(error))
            except Exception as error:  # a bug: say so in words, log the traceback kernel-side only
                log.exception("background task %s failed", self.name)
                self.status.error(f"Something went wrong ({type(error).__name__}); the last valid view is kept.")
            finally:
                self.widget.layout.display = "none"
                for control in disable:
                    control.disabled = False

        self._thread = threading.Thread(target=run, name=self.name, daemon=True)
        self._thread.start()


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


# ---------------------------------------------------------------------- the browser boundary

#: The only widget attributes a browser may set: what a user changes by using the control.  A message that
#: sets anything else (min, max, options, disabled, ...) is refused; so is any change to a disabled control.
CLIENT_KEYS = frozenset({"value", "index", "selected_index"})


def _guarded_set_state(widget: widgets.Widget, original: Callable, status: "StatusLine", sync_data: dict) -> None:
    try:
        if not isinstance(sync_data, dict):
            raise InvalidParameterError(f"a widget message must be an object, got {shorten(sync_data)}")
        refused = sorted(k for k in sync_data if k not in CLIENT_KEYS)
        if refused:
            names = ", ".join(str(k)[:30] for k in refused[:4]) + (", ..." if len(refused) > 4 else "")
            raise InvalidParameterError(f"the browser may not set {names} of a control; the change was refused")
        if getattr(widget, "disabled", False):
            raise InvalidParameterError(f"the control {_label(widget)} is disabled; the change was refused")
        _check_bounds(widget, sync_data)
        original(sync_data)
    except ExplorerError as error:
        status.error(str(error))
        _resync(widget)
    except traitlets.TraitError as error:         # e.g. an out-of-range Dropdown index: words, no traceback
        status.error(f"the value sent for {_label(widget)} was refused ({shorten(str(error), 120)}); "
                     "the last valid view is kept")
        _resync(widget)
    except Exception as error:  # a bug: say so in words, log the traceback kernel-side only
        log.exception("widget set_state failed")
        status.error(f"Something went wrong ({type(error).__name__}); the last valid view is kept.")
        _resync(widget)


def _check_bounds(widget: widgets.Widget, sync_data: dict) -> None:
    """A number sent for a bounded control (slider, bounded box) must lie within its range.

    ipywidgets would clamp it silently; a value no browser control can produce is a forged message, so it
    is refused in words instead.
    """
    if "value" not in sync_data or not (widget.has_trait("min") and widget.has_trait("max")):
        return
    value = sync_data["value"]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return                                     # ranges (pairs) and text are left to the traits
    low, high = widget.min, widget.max
    if not (low <= value <= high):                 # also refuses NaN
        raise InvalidParameterError(f"{_label(widget)} must be between {low:g} and {high:g}, got "
                                    f"{shorten(value)}; the change was refused")


def _label(widget: widgets.Widget) -> str:
    return shorten(getattr(widget, "description", "") or type(widget).__name__)


def _report(status: "StatusLine", error: Exception, what: str) -> None:
    """An error of a browser message's handler in words on ``status`` (bugs logged kernel-side only)."""
    if isinstance(error, ExplorerError):
        status.error(str(error))
    else:
        log.error("%s failed", what, exc_info=error)
        status.error(f"Something went wrong ({type(error).__name__}); the last valid view is kept.")


def _guarded_custom_msg(widget: widgets.Widget, status: "StatusLine", content: Any, buffers: Any) -> None:
    """A custom comm message (a Button's ``{"event": "click"}``): refused on a disabled control, and no
    error of its handlers reaches the client (ipywidgets would print their traceback to the page)."""
    try:
        if not isinstance(content, dict):
            raise InvalidParameterError(f"a widget message must be an object, got {shorten(content)}")
        if getattr(widget, "disabled", False):
            event = "click" if content.get("event") == "click" else "message"     # never echo the input
            raise InvalidParameterError(f"the control {_label(widget)} is disabled; the {event} was refused")
    except ExplorerError as error:
        status.error(str(error))
        _resync(widget)
        return
    for callback in list(widget._msg_callbacks.callbacks):
        try:
            callback(widget, content, buffers)
        except Exception as error:
            _report(status, error, "widget message handler")


class _GuardedDispatcher(CallbackDispatcher):
    """A Button's click handlers whose errors go to the status line in words, never to the client."""

    def __init__(self, status: "StatusLine", callbacks: list) -> None:
        super().__init__()
        self.callbacks = list(callbacks)
        self._status = status

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        value = None
        for callback in list(self.callbacks):
            try:
                result = callback(*args, **kwargs)
            except Exception as error:
                _report(self._status, error, "click handler")
            else:
                value = result if result is not None else value
        return value


def _resync(widget: widgets.Widget) -> None:
    """Send the kernel's value back so the browser shows what the kernel holds."""
    try:
        widget.send_state([k for k in CLIENT_KEYS if widget.has_trait(k)])
    except Exception:  # the comm may be closed (tests, shut kernels)
        pass


def guard_widgets(root: widgets.Widget, status: "StatusLine") -> int:
    """Guard the ``set_state`` of ``root`` and every widget under it (``children``): return how many.

    ``set_state`` is the path a websocket message takes into the kernel.  Guarded,
    it accepts only :data:`CLIENT_KEYS`, refuses changes to disabled controls, and
    turns any error (a TraitError for an out-of-range Dropdown index, an explorer
    error from a handler) into words on ``status``; nothing raises to the client.
    Custom messages (a Button's ``{"event": "click"}``, which bypass ``set_state``)
    are refused on a disabled control, and errors of their handlers and of a
    Button's click handlers become words on ``status`` too.
    Widgets put into a guarded container later are guarded when they arrive.
    Guarding twice is harmless.
    """
    seen: set[int] = set()
    stack = [root]
    count = 0
    while stack:
        widget = stack.pop()
        if id(widget) in seen or not isinstance(widget, widgets.Widget):
            continue
        seen.add(id(widget))
        if not getattr(widget, "_explorer_guarded", False) and isinstance(widget, widgets.DOMWidget) \
                and type(widget).__module__.startswith("ipywidgets"):
            widget.set_state = functools.partial(_guarded_set_state, widget, widget.set_state, status)
            widget._handle_custom_msg = functools.partial(_guarded_custom_msg, widget, status)
            if isinstance(widget, widgets.Button):
                widget._click_handlers = _GuardedDispatcher(status, widget._click_handlers.callbacks)
            widget._explorer_guarded = True
            count += 1
            if isinstance(widget, widgets.Box):       # children added later (a rebuilt grid) are guarded too
                widget.observe(lambda change: [guard_widgets(child, status) for child in change["new"]],
                               names="children")
        stack.extend(getattr(widget, "children", ()) or ())
    return count


def epsilon_slider(state: AppState, status: "StatusLine", *, description: str = "ε",
                   layout: widgets.Layout | None = None, style: dict | None = None) -> widgets.FloatSlider:
    """A slider that is a view of ``state.epsilon`` (the same range in every tab).

    The slider writes through the state's check; a refused value shows its words on
    ``status`` and the slider goes back to the state's value.
    """
    slider = widgets.FloatSlider(value=state.epsilon, min=EPSILON_MIN, max=EPSILON_MAX, step=EPSILON_STEP,
                                 description=description, continuous_update=False, readout_format=".2f",
                                 **({"layout": layout} if layout is not None else {}),
                                 **({"style": style} if style is not None else {}))

    def to_state(change: Any) -> None:
        if change["new"] == state.epsilon:
            return
        try:
            state.epsilon = change["new"]
        except ExplorerError as error:
            status.error(str(error))
            slider.value = state.epsilon

    def from_state(change: Any) -> None:
        if slider.value != state.epsilon:
            slider.value = state.epsilon

    slider.observe(to_state, names="value")
    state.observe(from_state, names="epsilon")
    slider._explorer_unlink = lambda: state.unobserve(from_state, names="epsilon")
    return slider


class StaleMark:
    """The one "out of date" rule of every tab: a view whose inputs changed is greyed and labelled until redrawn.

    ``mark(views, reason)`` greys the widgets ``views`` and shows "out of date: press Compute"
    (or the name of the tab's button, ``button=``; with ``reason``); ``clear()`` undoes it when the view is recomputed.  ``.widget`` is the label.
    """

    CSS = ("<style>.explorer-stale{opacity:0.35;filter:grayscale(1)}"
           ".explorer-stale-label{color:#8a4b00;font-weight:bold}</style>")

    def __init__(self) -> None:
        self.widget = widgets.HTML("")
        self.widget.add_class("explorer-stale-note")
        self.stale = False
        self._views: list[widgets.DOMWidget] = []

    def mark(self, views: list, reason: str = "", *, button: str = "Compute") -> None:
        self.clear()
        self.stale = True
        self._views = list(views)
        for view in self._views:
            view.add_class("explorer-stale")
        extra = f" ({escape(reason)})" if reason else ""
        self.widget.value = (f"{self.CSS}<span class='explorer-stale-label'>out of date: press {escape(button)}</span>"
                             f"<small>{extra}</small>")

    def clear(self) -> None:
        for view in self._views:
            view.remove_class("explorer-stale")
        self._views = []
        self.stale = False
        self.widget.value = ""
