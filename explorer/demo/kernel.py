"""Kernel-side hardening of the app notebook: no traceback text for the client, work cancelled on shutdown.

The app notebook calls :func:`harden_kernel` first.  In a kernel it

* replaces IPython's ``showtraceback`` (which ipywidgets calls when applying a
  client's message fails, e.g. a TraitError for min > max) by a function that
  writes the traceback to the server's log and sends nothing to the page;
* sends warnings and log records (the comm manager logs "Exception in comm_msg"
  with its traceback) to the server's log instead of the kernel's ``stderr``,
  which the kernel would forward to the page;
* cancels running background work (``BackgroundTask.cancel_all()``) when the
  kernel is asked to shut down, before its process exits.

The server side (:mod:`explorer.demo.websocket`) also drops ``stderr`` streams and
redacts error messages, so either layer alone keeps tracebacks from clients.
Outside a kernel (plain Python, tests) :func:`harden_kernel` does nothing.
"""

from __future__ import annotations

import logging
import os
import sys
import traceback
import warnings
from typing import Any, TextIO

__all__ = ["harden_kernel", "cancel_background_work", "apply_preheated_query", "apply_visitor_query"]

_LOG_NAME = "explorer.kernel"


def _server_log_stream() -> TextIO:
    """The kernel process's original stderr (the server's log), not the one forwarded to the page."""
    original = getattr(sys.stderr, "_original_stdstream_copy", None)
    if isinstance(original, int):
        try:
            return os.fdopen(os.dup(original), "w", buffering=1, errors="replace")
        except OSError:
            pass
    return sys.__stderr__


def cancel_background_work() -> int:
    """Cancel every running ``BackgroundTask`` of this kernel, if the panels offer it.

    Returns
    -------
    int
        1 if ``BackgroundTask.cancel_all`` exists and was called, else 0.
    """
    module = sys.modules.get("explorer.panels.tasks")
    cancel_all = getattr(getattr(module, "BackgroundTask", None), "cancel_all", None)
    if cancel_all is None:
        return 0
    try:
        cancel_all()
    except Exception:  # shutting down: never let this stop the kernel from exiting
        logging.getLogger(_LOG_NAME).exception("cancelling background work failed")
    return 1


def harden_kernel(shell: Any | None = None) -> bool:
    """Install the hooks described in the module docstring in the running IPython kernel.

    Parameters
    ----------
    shell : IPython InteractiveShell, optional
        Default: ``get_ipython()``.

    Returns
    -------
    bool
        True if hooks were installed (False outside a kernel).
    """
    if shell is None:
        try:
            from IPython import get_ipython
        except ImportError:
            return False
        shell = get_ipython()
    kernel = getattr(shell, "kernel", None)
    if shell is None or kernel is None or getattr(shell, "_explorer_hardened", False):
        return False
    stream = _server_log_stream()
    handler = logging.StreamHandler(stream)
    handler.setLevel(logging.WARNING)
    handler.setFormatter(logging.Formatter("[kernel %(process)d] %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    for existing in list(root.handlers):
        root.removeHandler(existing)
    root.addHandler(handler)
    for name in ("IPKernelApp", "Comm", "traitlets"):
        logger = logging.getLogger(name)
        for existing in list(logger.handlers):
            if isinstance(existing, logging.StreamHandler):
                logger.removeHandler(existing)
        logger.propagate = True
    log = logging.getLogger(_LOG_NAME)

    def showtraceback(*args: Any, **kwargs: Any) -> None:
        etype, value, tb = sys.exc_info()
        log.error("error while handling a client message:\n%s",
                  "".join(traceback.format_exception(etype, value, tb)) if etype else "(no exception)")

    def showwarning(message: Any, category: Any, filename: str, lineno: int, file: Any = None,
                    line: str | None = None) -> None:
        log.warning("%s", warnings.formatwarning(message, category, filename, lineno, line).rstrip())

    shell.showtraceback = showtraceback
    shell.showsyntaxerror = showtraceback
    warnings.showwarning = showwarning

    do_shutdown = kernel.do_shutdown

    def shutdown_with_cancel(restart: bool) -> Any:
        cancel_background_work()
        return do_shutdown(restart)

    kernel.do_shutdown = shutdown_with_cancel
    shell._explorer_hardened = True
    return True


#: The app of a preheated kernel, for :func:`apply_visitor_query`.
_PREHEATED_APP: Any = None


def apply_preheated_query(app: Any) -> None:
    """In a preheated Voilà kernel, keep ``app`` for the visitor's ``?config=`` and return at once.

    A preheated kernel runs the notebook before anyone asks for it, so the page's query string is not
    in its environment.  Voilà's own way (``voila.utils.get_query_string``) blocks the cell until a
    visitor takes the kernel: a kernel that waited in the pool longer than the cell time limit then
    served a page whose cell had timed out.  Here the cell ends at once; the server runs
    :func:`apply_visitor_query` with the visitor's query string when it hands the kernel over
    (:class:`explorer.demo.pool.ReadyPoolMixin`).  The kernel also returns the memory its start-up
    freed to the system, since it may wait a long time.  Outside preheating this does nothing
    (``build_app`` already read ``QUERY_STRING``).
    """
    global _PREHEATED_APP
    if os.environ.get("VOILA_PREHEAT") != "True":
        return
    _PREHEATED_APP = app
    prebuild_tabs(app, os.environ.get(PREHEAT_TABS_ENV, DEFAULT_PREHEAT_TABS))
    _release_heap()


#: Tabs a preheated kernel imports and builds before any visitor comes (``;``-separated titles): what a
#: visitor opens first costs them neither the import nor the build (for Randomized response about 0.5
#: CPU-seconds, a few MB per kernel); its widgets reach the page with the landing view's.
DEFAULT_PREHEAT_TABS = "Randomized response"
PREHEAT_TABS_ENV = "EXPLORER_PREHEAT_TABS"


def preimport_tabs(titles: str) -> list[str]:
    """Import the modules of the app's tabs named in ``titles`` (``;``-separated); the modules imported."""
    import importlib

    wanted = {title.strip() for title in (titles or "").split(";") if title.strip()}
    if not wanted:
        return []
    from explorer.app import PANEL_TABS

    done = []
    for title, module_name, _ in PANEL_TABS:
        if title in wanted:
            try:
                importlib.import_module(module_name)
            except ImportError:       # that panel is not part of this build
                continue
            done.append(module_name)
    return done


def prebuild_tabs(app: Any, titles: str) -> list[str]:
    """Import and build the tabs of ``app`` named in ``titles`` (``;``-separated); the titles built.

    A tab that cannot be built is left for the visitor's click (which says why in its status line)."""
    preimport_tabs(titles)
    built = []
    for title in (t.strip() for t in (titles or "").split(";")):
        if not title:
            continue
        try:
            app.panel(title)
        except Exception:             # noqa: BLE001 -- the visitor's page still works; the tab builds on click
            logging.getLogger(_LOG_NAME).exception("could not build the %r tab before the visitor came", title)
            continue
        built.append(title)
    return built


def _release_heap() -> None:
    """Collect garbage and hand the C heap's free pages back (glibc's ``malloc_trim``; elsewhere only the gc)."""
    import ctypes
    import ctypes.util
    import gc

    gc.collect()
    name = ctypes.util.find_library("c")
    try:
        trim = ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):
        trim = None
    if trim is not None:
        trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
        trim(0)


def apply_visitor_query(query: str, app: Any | None = None) -> bool:
    """Apply the visitor's query string (``config=...``) to the preheated kernel's app.

    Returns True if a configuration was applied; one that cannot be applied is said on the app's
    status line, as ``build_app`` does.
    """
    app = app if app is not None else _PREHEATED_APP
    if app is None or not query:
        return False
    os.environ["QUERY_STRING"] = query
    from explorer.errors import ExplorerError

    if hasattr(app, "apply_query"):             # says what it set (or why not) above the tabs
        app.apply_query(query)
        return "explorer-config-refused" not in str(getattr(getattr(app, "notice", None), "value", ""))
    try:
        app.load_query_string(query)
    except ExplorerError as error:
        app.status.error(f"The configuration in the address was not applied: {error}")
        return False
    return True
