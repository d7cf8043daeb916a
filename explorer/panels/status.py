"""What a panel says: its status line (information, or an error in words), guarded callbacks, the stale mark.

Errors from the core (:class:`~explorer.errors.ExplorerError`) are shown in words on
the status line and the last valid picture stays; any other exception is shown as a
short sentence, never as a traceback (the traceback is logged kernel-side only).
"""

from __future__ import annotations

import functools
import html
import logging
from typing import Any, Callable

import ipywidgets as widgets

from explorer.errors import ExplorerError
from explorer.panels._format import subscripts_html, subscripts_in_html

__all__ = ["StatusLine", "StaleMark", "guarded", "escape"]

log = logging.getLogger("explorer.panels")


def escape(text: Any) -> str:
    """HTML-escape text for an HTML widget."""
    return html.escape(str(text))


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
        # role=alert: the inserted error is read out at once (the line itself is a polite live region, set by
        # explorer.panels.access on the widget's own element, which persists across value updates)
        self.widget.value = (f"<span class='explorer-error' role='alert' style='color:#b00020'>"
                             f"<b>{subscripts_html(text)}</b></span>")

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


class StaleMark:
    """The one "out of date" rule of every tab: a view whose inputs changed is greyed and labelled until redrawn.

    ``mark(views, reason)`` greys the widgets ``views`` and shows "out of date: press Compute"
    (or the name of the tab's button, ``button=``; with ``reason``); ``clear()`` undoes it when the view is recomputed.  ``.widget`` is the label.
    """

    CSS = ("<style>.explorer-stale{opacity:0.5;filter:grayscale(1)}"
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
