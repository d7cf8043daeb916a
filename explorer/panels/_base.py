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
from typing import Any, Callable

import ipywidgets as widgets
import pandas as pd
import traitlets
from matplotlib.figure import Figure

from explorer.errors import CancelledError, ExplorerError

__all__ = ["AppState", "StatusLine", "BackgroundTask", "make_figure", "guarded", "escape", "csv_download_link"]

log = logging.getLogger("explorer.panels")


class AppState(traitlets.HasTraits):
    """The app's shared state: the data set every panel reads and the shared epsilon.

    ``dataset`` is a pandas DataFrame whose ``attrs["dataset"]`` is a
    :class:`~explorer.core.datasets.DatasetInfo` (column roles, source).
    ``quasi_identifiers`` and ``sensitive`` are the columns the user chose in the
    Data tab.
    """

    dataset = traitlets.Instance(pd.DataFrame, allow_none=True)
    dataset_name = traitlets.Unicode("")
    epsilon = traitlets.Float(1.0)
    quasi_identifiers = traitlets.List(traitlets.Unicode())
    sensitive = traitlets.List(traitlets.Unicode())


def make_figure(width: float = 6.0, height: float = 3.6, *, toolbar: bool = False) -> tuple[Figure, Any]:
    """A matplotlib Figure with an ipympl canvas widget, made without pyplot.

    Returns ``(figure, canvas)``; the canvas is an ipywidgets DOMWidget to put in
    a layout.  No pyplot figure registry is involved, so figures a panel replaces
    are freed with it (200 unclosed pyplot figures cost +558 MB).  The canvas is an
    :class:`~explorer.panels._canvas.ExplorerCanvas`: the fast PNG path on the
    matplotlib and ipympl versions it was checked against (ipympl's own path
    elsewhere), and a fixed size that a client message cannot change (see
    ``docs/canvas.md``).  Blitting uses matplotlib's API on the figure's canvas.
    """
    from ipympl.backend_nbagg import FigureManager

    from explorer.panels._canvas import ExplorerCanvas

    figure = Figure(figsize=(width, height), layout="constrained")
    canvas = ExplorerCanvas(figure)
    FigureManager(canvas, 0)
    canvas.header_visible = False
    canvas.footer_visible = False
    canvas.toolbar_visible = toolbar
    canvas.resizable = False
    canvas.capture_scroll = False
    return figure, canvas


def escape(text: Any) -> str:
    """HTML-escape text for an HTML widget."""
    return html.escape(str(text))


def csv_download_link(text: str, filename: str, label: str | None = None, *, css_class: str = "") -> str:
    """An HTML link that downloads ``text`` as the CSV file ``filename`` (a data: URI, no server round trip).

    Build ``text`` with :func:`explorer.core.export.csv_safe` so that spreadsheet formulas are escaped.
    """
    payload = base64.b64encode(text.encode("utf-8")).decode("ascii")
    extra = f" class='{escape(css_class)}'" if css_class else ""
    return (f"<a download='{escape(filename)}' href='data:text/csv;charset=utf-8;base64,{payload}'{extra}>"
            f"{escape(label or filename)}</a>")


class StatusLine:
    """One line of status under a panel: information, or an error in words."""

    def __init__(self) -> None:
        self.widget = widgets.HTML(value="", layout=widgets.Layout(min_height="1.6em"))
        self.widget.add_class("explorer-status")
        self.message = ""
        self.is_error = False

    def info(self, text: str, *, raw_html: bool = False) -> None:
        self.message, self.is_error = text, False
        body = text if raw_html else escape(text)
        self.widget.value = f"<span class='explorer-info'>{body}</span>"

    def error(self, text: str) -> None:
        self.message, self.is_error = text, True
        self.widget.value = f"<span class='explorer-error' style='color:#b00020'><b>{escape(text)}</b></span>"

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


class BackgroundTask:
    """Long work in a thread, with a progress bar and a Cancel button (ARCHITECTURE.md: Panels).

    ``start(compute, on_done)`` runs ``compute(progress)`` in a thread, where
    ``progress(fraction)`` moves the bar and returns False once the user pressed
    Cancel: ``compute`` then either raises :class:`CancelledError` (the previous
    view is kept) or returns what it has (partial results, which ``on_done`` shows);
    ``on_done(result)`` updates the panel.  Until it ends the panel keeps
    its last valid view; errors go to the status line in words.  Put ``.widget``
    in the panel's layout; it is hidden while nothing runs.
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

    def report(self, fraction: float) -> bool:
        """Move the bar; False once Cancel was pressed."""
        self.progress.value = min(max(float(fraction), 0.0), 1.0)
        return not self._cancel.is_set()

    def start(self, compute: Callable[[Callable[[float], bool]], Any], on_done: Callable[[Any], None], *,
              message: str = "Working... (Cancel stops it; the last view stays until then)",
              disable: tuple = ()) -> None:
        """Run ``compute(progress)`` in a thread and ``on_done(result)`` when it ends (unless cancelled)."""
        if self.running:
            self.cancel()
            self.wait()
        self._cancel.clear()
        self.progress.value = 0.0
        self.widget.layout.display = None
        for control in disable:
            control.disabled = True
        self.status.info(message)

        def run() -> None:
            try:
                result = compute(self.report)      # a compute that stops early with partial results returns them
                with self.lock:
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
