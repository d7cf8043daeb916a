"""The browser boundary: what a websocket message may change in a control, and nothing else.

:func:`guard_widgets` guards every control of a panel (or of the app): a browser may set only
:data:`CLIENT_KEYS` of an enabled control, a number must lie within its control's range, and no error
of a handler reaches the client (it goes to the panel's status line in words).  This is a security
boundary: keep it small, and change it only with its tests (``tests/panels/test_base.py`` and the
panels' forged-message tests).
"""

from __future__ import annotations

import functools
import logging
from typing import Any, Callable

import ipywidgets as widgets
import traitlets
from ipywidgets.widgets.widget import CallbackDispatcher

from explorer.errors import ExplorerError, InvalidParameterError
from explorer.panels.status import StatusLine
from explorer.state import shorten

__all__ = ["CLIENT_KEYS", "guard_widgets"]

log = logging.getLogger("explorer.panels")


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
                and (type(widget).__module__.startswith("ipywidgets") or getattr(widget, "_explorer_guardable", False)):
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
