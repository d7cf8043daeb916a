"""The Voilà server of the explorer, with the fixes a public demo needs.

:class:`DemoVoila` is Voilà's application with four handlers and the kernel websocket connection replaced:

* the page handler refuses a new visitor with ``503 Service Unavailable``, a
  ``Retry-After`` header and a page saying the demo is full once ``kernel_cap``
  visitors' kernels are live, and it issues the ``_xsrf`` cookie that Voilà's
  page sends back with its shutdown request when the tab closes (without it the
  request was refused and the kernel lived on until the culler came);
* the template static-file handler answers ``404`` to a malformed or traversing
  path (Voilà's raised an AssertionError: ``500``);
* the shutdown handler answers ``404`` for a kernel that is not running;
* the kernel websocket handler does not start tornado's keep-alive ping, which jupyter_server
  asks for in milliseconds and tornado reads in seconds (:class:`DemoKernelWebsocketHandler`), and
  its connection is :class:`~explorer.demo.websocket.SafeKernelWebsocketConnection` (set in
  :func:`explorer.cli.voila_config`).

It also hands freed memory back to the system every ``release_memory_interval`` seconds
(:func:`release_memory`): after a class has come and gone the server's own heap holds no
more live objects than before, but glibc keeps the freed pages (a soak took the server
from 148 MB to 313 MB; ``malloc_trim`` brought it to 198 MB).
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import html
import os
import re
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import tornado.ioloop
import tornado.web
from jupyter_core.utils import ensure_async
from jupyter_events import EventLogger
from traitlets import Float, Instance, Int, default
from voila.app import Voila
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
from voila.static_file_handler import TemplateStaticFileHandler
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

from explorer.demo.pool import ReadyPoolMixin, note_page_request

__all__ = ["DemoVoila", "CappedVoilaHandler", "ClassStatusHandler", "DemoKernelWebsocketHandler", "CONTENT_SECURITY_POLICY", "DEMO_FULL_HTML",
           "TEMPLATE_NAME", "add_template_root", "release_memory"]

#: The explorer's Voilà template: Voilà's "lab" page without the stylesheets it links from a CDN
#: (``explorer/_jupyter/voila/templates/explorer``).
TEMPLATE_NAME = "explorer"
#: The package's own Jupyter data directory, where Voilà finds that template.
TEMPLATE_ROOT = Path(__file__).resolve().parent.parent / "_jupyter"


def add_template_root() -> str:
    """Put the package's Jupyter data directory first on ``JUPYTER_PATH`` (once); returns the new value.

    Voilà looks its templates up in the Jupyter data directories when the server starts and again
    for every static file of a template, so the directory must stay on the path for the server's
    life.  Kernels inherit the variable; they find nothing else there.
    """
    root = str(TEMPLATE_ROOT)
    entries = [entry for entry in os.environ.get("JUPYTER_PATH", "").split(os.pathsep) if entry]
    if root not in entries:
        os.environ["JUPYTER_PATH"] = os.pathsep.join([root, *entries])
    return os.environ["JUPYTER_PATH"]


#: What Voilà's page, ipywidgets and ipympl need and nothing else, all from the page's own
#: origin.  Voilà's template loads its bundles from the server and runs inline bootstrap
#: scripts; widget views set inline styles; the buttons' Font Awesome icons come with Voilà's
#: own style bundle (the explorer's template drops the "lab" template's CDN links);
#: ipympl draws PNG frames from ``blob:``/``data:`` URLs; downloads are ``data:`` links; the
#: figure sizer (anywidget) imports its module, sent by the kernel, from a ``blob:`` URL.
#: Websockets and the shutdown beacon go to the same origin.
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self' 'unsafe-inline' 'unsafe-eval' blob:",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
])

#: No timed reload (WCAG 2.2.1: a page must not refresh itself on a timer the visitor cannot stop): the
#: visitor retries with the link when ready; ``Retry-After`` tells a program when.
DEMO_FULL_HTML = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>The demo is full</title></head>
<body style="font-family:sans-serif;max-width:40em;margin:4em auto;padding:0 1em;line-height:1.5;color:#1a1a1a">
<main>
<h1>The demo is full</h1>
<p>The privacy explorer is serving as many visitors as this server can hold ({cap}) right now.
Please try again in {retry} seconds: <a href="" style="color:#0b57a4">try again</a>.</p>
<p>To run it on your own computer: in a copy of the explorer's source, <code>pip install .</code>, then
<code>privacy-explorer</code>.</p>
</main>
</body></html>
"""

#: Longest expected wait for a kernel start (seconds) before new visitors are told the demo is full.
DEFAULT_MAX_WAIT = 90.0

#: The app's widget in a rendered page; without it (or with one of the markers below) the page cannot work.
_WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: What Voilà writes in a page whose cell timed out or raised (tracebacks are not shown in the demo).
_BROKEN_PAGE = ("Cell execution timed out", "There was an error when executing cell",
                "An exception occurred at the server")

_TEMPLATE_PATH = re.compile(r"^[A-Za-z0-9_.-]+/static/[A-Za-z0-9_./@~+-]+$")


def _malloc_trim():
    """glibc's ``malloc_trim`` (None where the C library is not glibc: musl, macOS, Windows)."""
    name = ctypes.util.find_library("c")
    try:
        trim = ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):
        return None
    if trim is not None:
        trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


_MALLOC_TRIM = _malloc_trim()


def release_memory() -> int:
    """Collect garbage and return the C heap's free pages to the system; the bytes of RSS released.

    Python frees the objects of a visitor's page when it ends, but glibc's allocator keeps the
    freed pages mapped, so the server's RSS stays at its peak.  ``malloc_trim(0)`` unmaps them;
    where the C library has no ``malloc_trim`` only the garbage collection runs.  Takes a few
    milliseconds.
    """
    before = _rss()
    gc.collect()
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)
    return max(0, before - _rss())


def _rss() -> int:
    """This process's resident memory in bytes (0 where ``/proc`` is missing)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def visitor_kernel_count(kernel_manager: Any, pages: Iterable[asyncio.Task] = ()) -> int:
    """Visitors holding a kernel or about to: live kernels not waiting in Voilà's preheated pool,
    plus the ``pages`` (their requests' tasks) still being rendered whose kernel is not listed yet.

    With :class:`explorer.demo.kernels.DemoKernelManager` every kernel is known by the task that
    started it or was handed it, so a pool refill starting is not a visitor and a page whose kernel
    is listed is not counted twice.  Any other kernel manager: live kernels minus the pool's
    finished kernels, plus every page still rendering.
    """
    live = set(kernel_manager.list_kernel_ids())
    kernel_of_task = getattr(kernel_manager, "kernel_of_task", None)
    if kernel_of_task is None:
        pooled = 0
        for pool in getattr(kernel_manager, "_pools", {}).values():
            pooled += sum(1 for task in pool if task.done() and not task.cancelled() and task.exception() is None)
        return max(0, len(live) - pooled) + sum(1 for _ in pages)
    visitors = live - kernel_manager.pooled_kernel_ids()
    unlisted = sum(1 for page in pages if kernel_of_task.get(page) not in live)
    return len(visitors) + unlisted


class CappedVoilaHandler(TornadoVoilaHandler):
    """Voilà's page, refused with a "demo is full" page beyond the kernel cap."""

    #: The request task of each admitted page still being rendered, by handler id (its kernel may
    #: not be listed yet: :func:`visitor_kernel_count`).
    pages: dict[int, asyncio.Task] = {}
    _starting: asyncio.Semaphore | None = None

    def initialize(self, **kwargs: Any) -> None:
        self.kernel_cap = int(kwargs.pop("kernel_cap", 0))
        self.retry_after = int(kwargs.pop("retry_after", 60))
        self.max_starting = int(kwargs.pop("max_starting", 0))
        self.max_wait = float(kwargs.pop("max_wait", DEFAULT_MAX_WAIT))
        self._gone = asyncio.Event()
        super().initialize(**kwargs)

    def on_connection_close(self) -> None:
        self._gone.set()
        super().on_connection_close()

    def _pool_ready(self) -> bool:
        ready = getattr(self.kernel_manager, "ready_count", None)
        if ready is not None:
            return ready() > 0
        pools = getattr(self.kernel_manager, "_pools", {})
        return any(task.done() for pool in pools.values() for task in pool)

    async def _render(self, path: str | None) -> None:
        """Voilà's rendering; at most ``max_starting`` kernels start and run the notebook at once.

        Thirty kernels starting together on two cores all finish late (and Voilà's time limits
        start to fail them); queued, the first visitors get their page early.  A visitor served
        from the preheated pool does not queue.  When a new visitor's expected wait (visitors
        waiting / ``max_starting`` x the recent rendering time) exceeds ``max_wait``, they get
        the "demo is full" page at once rather than a page that would time out.
        """
        if self.max_starting <= 0 or self._pool_ready():
            await super().get(path)
            return
        if CappedVoilaHandler._starting is None:
            CappedVoilaHandler._starting = asyncio.Semaphore(self.max_starting)
        CappedVoilaHandler.waiting += 1
        acquire = asyncio.ensure_future(CappedVoilaHandler._starting.acquire())
        gone = asyncio.ensure_future(self._gone.wait())
        try:
            await asyncio.wait({acquire, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            CappedVoilaHandler.waiting -= 1
            gone.cancel()
        if not acquire.done() or acquire.cancelled():
            acquire.cancel()  # the visitor left while in line: no kernel is started for them
            return
        if self._gone.is_set():
            CappedVoilaHandler._starting.release()
            return
        started = time.monotonic()
        try:
            await self._checked_get(path)
        finally:
            CappedVoilaHandler._starting.release()
            CappedVoilaHandler.render_seconds += 0.2 * (time.monotonic() - started
                                                        - CappedVoilaHandler.render_seconds)

    async def _checked_get(self, path: str | None) -> None:
        """Render the app's page with a kernel started for it, and send it only if it works.

        The page is held until the notebook has run: if its kernel failed (a cell ended with an
        error or ran into the time limit on a swamped machine, or the app's widget is missing), the
        kernel is stopped and the visitor gets the "demo is full" page with ``Retry-After`` (which
        reloads itself), never a page that cannot work.  Only for the app's own notebook (the
        ``--notebooks`` folder's pages may hold no widget).
        """
        if not getattr(self, "notebook_path", None):
            await super().get(path)
            return
        held = []
        async for html_snippet in self.get_generator(path=path):
            held.append(html_snippet)
        if self._finished:                   # a redirect
            return
        page = "".join(held)
        if not any(marker in page for marker in _BROKEN_PAGE) and _WIDGET_VIEW in page:
            self.write(page)
            self.flush()
            return
        kernel_of_task = getattr(self.kernel_manager, "kernel_of_task", {})
        kernel_id = kernel_of_task.get(asyncio.current_task())
        self.log.warning("A visitor's kernel %s failed to run the app; the visitor gets the 'demo is full' page",
                         kernel_id)
        if kernel_id is not None and kernel_id in self.kernel_manager:
            asyncio.ensure_future(ensure_async(self.kernel_manager.shutdown_kernel(kernel_id, now=True)))
        self.clear()
        self._send_full()

    def _send_full(self) -> None:
        self.set_status(503)
        self.set_header("Retry-After", str(self.retry_after))
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(DEMO_FULL_HTML.format(retry=self.retry_after,
                                          cap=html.escape(str(self.kernel_cap or "its limit"))))

    #: Pages waiting for their turn to start a kernel.
    waiting = 0
    #: Moving average of a page's rendering time (kernel start and notebook run), seconds.
    render_seconds = 5.0

    #: When each admitted page still being rendered was admitted (time.monotonic()), by handler id.
    rendering: dict[int, float] = {}

    def _full(self) -> str | None:
        """Why a new visitor cannot be served now, or None.

        Besides the cap and the expected wait in line, a server that is behind is full: when a
        page admitted more than ``max_wait`` / 2 seconds ago is still rendering (the cores are
        swamped, whether by kernel starts from the pool's refills or by visitors' computations),
        a new visitor would wait longer still, so they get the "demo is full" page at once.
        """
        if self.kernel_cap > 0:
            busy = visitor_kernel_count(self.kernel_manager, CappedVoilaHandler.pages.values())
            if busy >= self.kernel_cap:
                return f"{busy} of {self.kernel_cap} kernels"
        if self.max_wait > 0 and CappedVoilaHandler.rendering:
            oldest = time.monotonic() - min(CappedVoilaHandler.rendering.values())
            if oldest > self.max_wait / 2:
                return f"a page admitted {oldest:.0f} s ago is still rendering"
        if self.max_starting > 0 and not self._pool_ready():
            wait = (CappedVoilaHandler.waiting + 1) / self.max_starting * CappedVoilaHandler.render_seconds
            if wait > self.max_wait:
                return (f"{CappedVoilaHandler.waiting} visitors waiting for a kernel, about {wait:.0f} s "
                        f"for a new one")
        return None

    @tornado.web.authenticated
    async def get(self, path: str | None = None) -> None:
        renders = not (self.notebook_path and path)
        reason = self._full() if renders else None
        if reason is not None:
            self.log.warning("Demo full (%s): 503 for a new visitor", reason)
            self._send_full()
            return
        if renders:
            self.xsrf_token  # noqa: B018 -- sets the _xsrf cookie the page's shutdown beacon sends back
            note_page_request()      # the pool waits for quiet before it refills
        if renders:
            CappedVoilaHandler.rendering[id(self)] = time.monotonic()
            CappedVoilaHandler.pages[id(self)] = asyncio.current_task()
        try:
            if renders:
                await self._render(path)
            else:
                await super().get(path)
        finally:
            CappedVoilaHandler.rendering.pop(id(self), None)
            CappedVoilaHandler.pages.pop(id(self), None)


CLASS_STATUS_HTML = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="refresh" content="5">
<title>{text}</title></head>
<body style="font-family:sans-serif;max-width:40em;margin:4em auto;line-height:1.5">
<h1 id="class-status">{text}</h1>
<p>{detail}</p>
<p><small>This page reloads itself every 5 seconds. The explorer is at <a href="{base}">{base}</a>.</small></p>
</body></html>
"""


class ClassStatusHandler(tornado.web.RequestHandler):
    """``/class``: how many ready kernels wait for the class ("Class ready: 30 of 30 kernels" or
    "Filling: 12 of 30 kernels ready"); ``/class.json`` the same as JSON.  Counts only, nothing of a visitor."""

    def initialize(self, kernel_manager: Any = None, base_url: str = "/") -> None:
        self._manager = kernel_manager
        self._base = base_url

    def get(self, suffix: str = "") -> None:
        status_of = getattr(self._manager, "pool_status", None)
        status = status_of() if status_of is not None else {
            "ready": 0, "target": 0, "starting": 0, "class": 0, "text": "No pool of ready kernels (--class N or --pool N)",
            "visitors": len(set(self._manager.list_kernel_ids())) if self._manager is not None else 0}
        self.set_header("Cache-Control", "no-store")
        if suffix == ".json":
            self.finish(status)
            return
        detail = (f"{status['visitors']} visitor kernel(s) live; {status['starting']} pool kernel(s) starting. "
                  "A visitor takes a ready kernel at once; the pool refills when no page is being served.")
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(CLASS_STATUS_HTML.format(text=html.escape(status["text"]), detail=html.escape(detail),
                                             base=html.escape(self._base)))


class SafeTemplateStaticFileHandler(TemplateStaticFileHandler):
    """Voilà's template static files; a malformed or traversing path is a 404, not a 500."""

    def parse_url_path(self, path: str) -> str:
        parts = path.split("/")
        if not _TEMPLATE_PATH.match(path) or any(part in ("", ".", "..") for part in parts):
            raise tornado.web.HTTPError(404)
        return super().parse_url_path(path)


class KnownKernelShutdownHandler(VoilaShutdownKernelHandler):
    """The page's shutdown request; 404 for a kernel that is not running."""

    @tornado.web.authenticated
    async def post(self, kernel_id: str) -> None:
        if kernel_id not in self.kernel_manager:
            raise tornado.web.HTTPError(404)
        started = time.monotonic()
        await ensure_async(self.kernel_manager.shutdown_kernel(kernel_id))
        self.log.info("Kernel %s shut down at its page's request in %.1f s", kernel_id, time.monotonic() - started)
        self.set_status(204)
        self.finish()


class DemoKernelWebsocketHandler(VoilaKernelWebsocketHandler):
    """Voilà's kernel websocket, without tornado's keep-alive ping (jupyter_server's own still runs).

    jupyter_server's ``WebSocketMixin.ping_interval`` is in milliseconds (30000) for its own ping,
    and tornado 6.5+ reads the same attribute in seconds for a ping of its own: every connection
    started a task sleeping 30000 s (8.3 hours).  Closing the connection cancels the task, but
    asyncio keeps a cancelled timer in its queue until it is due (it purges them only when more
    than 100 timers are queued and half are cancelled), and the timer holds the request's context,
    which holds this handler: each visitor's handler, request and streams outlived them by hours.
    Upstream: jupyter_server issue 1612.
    """

    def get_websocket_protocol(self) -> Any:
        protocol = super().get_websocket_protocol()
        if protocol is not None:
            protocol.params.ping_interval = None     # tornado: no ping task (jupyter_server pings every 30 s)
        return protocol


class DemoVoila(Voila):
    """Voilà with a kernel cap, the shutdown fix, 4xx for malformed paths and nothing kept of a visitor who left."""

    kernel_cap = Int(0, config=True, help="Most visitors' kernels at once (0: no cap); beyond, a 503 page.")
    retry_after = Int(60, config=True, help="Seconds a refused visitor is told to wait (Retry-After).")
    max_starting = Int(0, config=True, help="Most kernels starting and running the notebook at once; more "
                       "visitors wait in line (0: no limit).")
    max_wait = Float(DEFAULT_MAX_WAIT, config=True,
                     help="A visitor whose expected wait in that line exceeds this many seconds gets the "
                          "'demo is full' page at once.")

    class_size = Int(0, config=True, help="privacy-explorer --class N: the pool is for a class of N (its "
                     "status page says 'Class ready').")

    release_memory_interval = Float(60.0, config=True,
                                    help="Seconds between returns of freed memory to the system (0: never).")

    event_logger = Instance(EventLogger, help="The event logger every kernel's manager shares.")

    @default("event_logger")
    def _default_event_logger(self) -> EventLogger:
        """One event logger for the server, as jupyter_server's own application has.

        jupyter_server's per-kernel manager takes its application's ``event_logger``; Voilà's has
        none, so every kernel made its own, and each registered a logger named after it in
        :mod:`logging`'s global table, where it stayed after the kernel was gone: a few small
        objects per visitor, kept for the server's lifetime.
        """
        return EventLogger(parent=self)

    def setup_template_dirs(self) -> None:
        if self.voila_configuration.template == TEMPLATE_NAME:
            add_template_root()  # before Voilà collects the template's paths
        super().setup_template_dirs()

    def init_settings(self) -> dict:
        import voila.app as voila_app

        factory = voila_app.voila_kernel_manager_factory

        def ready_pool_factory(base_class: Any, preheat_kernel: bool, *args: Any, **kwargs: Any) -> Any:
            made = factory(base_class, preheat_kernel, *args, **kwargs)
            if not preheat_kernel:
                return made
            # Voilà's pool, handing over only ready kernels and refilling when quiet (explorer.demo.pool)
            return type("DemoPoolKernelManager", (ReadyPoolMixin, made), {})

        voila_app.voila_kernel_manager_factory = ready_pool_factory
        try:
            settings = super().init_settings()
        finally:
            voila_app.voila_kernel_manager_factory = factory
        if hasattr(self.kernel_manager, "class_size") and self.class_size:
            self.kernel_manager.class_size = self.class_size
        watch = getattr(self.kernel_manager, "watch_hand_overs", None)
        if watch is not None:
            watch()          # a page served from the pool: its task holds the kernel it was handed
        return settings

    def init_handlers(self) -> list:
        self._memory_release = self.start_memory_release()
        replaced = {TemplateStaticFileHandler: SafeTemplateStaticFileHandler,
                    VoilaShutdownKernelHandler: KnownKernelShutdownHandler,
                    VoilaKernelWebsocketHandler: DemoKernelWebsocketHandler}
        from jupyter_server.utils import url_path_join

        handlers = [(url_path_join(self.server_url, r"/class(\.json)?"), ClassStatusHandler,
                     {"kernel_manager": self.kernel_manager, "base_url": self.base_url})]
        for spec in super().init_handlers():
            pattern, handler, *rest = spec
            if handler is TornadoVoilaHandler:
                kwargs = {**(rest[0] if rest else {}), "kernel_cap": self.kernel_cap, "retry_after": self.retry_after,
                          "max_starting": self.max_starting, "max_wait": self.max_wait}
                handlers.append((pattern, CappedVoilaHandler, kwargs))
            else:
                handlers.append((pattern, replaced.get(handler, handler), *rest))
        return handlers

    def start_memory_release(self) -> tornado.ioloop.PeriodicCallback | None:
        """Start returning freed memory every ``release_memory_interval`` seconds (None when 0)."""
        if self.release_memory_interval <= 0:
            return None
        callback = tornado.ioloop.PeriodicCallback(self._release_memory, self.release_memory_interval * 1000)
        callback.start()
        return callback

    def _release_memory(self) -> None:
        released = release_memory()
        if released > 8 * 2**20:
            self.log.info("Returned %.0f MB of freed memory to the system", released / 2**20)
