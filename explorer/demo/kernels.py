"""Kernels of a public demo: culled once their page is gone, busy or not, and capped in number.

jupyter_server culls a kernel after ``cull_idle_timeout`` seconds without kernel
activity, and never a busy one unless ``cull_busy`` (which would also cull a
visitor's long computation).  A kernel whose page has gone (tab closed without the
shutdown request arriving, network gone) is culled here after
``cull_unconnected_timeout`` seconds without a connection and without kernel
activity, busy or idle: it is the case of the kernel that stayed busy for 36
minutes with nobody connected.  A kernel whose page never connected (the visitor
left while it loaded) gets ``cull_never_connected_timeout``: longer, because under
load a browser may take minutes to load the page's scripts and connect.
"""

from __future__ import annotations

import asyncio
import contextvars
import os
import weakref
from datetime import timedelta

from jupyter_server._tz import utcnow
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from jupyter_core.utils import ensure_async
from traitlets import Float, Unicode, validate

__all__ = ["DemoKernelManager", "default_kernel_cap", "kernel_processes", "KERNEL_MEMORY_BYTES"]

#: Budget per live kernel for the default cap: the app's kernel at its landing view
#: measures about 190 MB (benchmarks/results/demo_load.txt); the rest is headroom for a
#: visitor's computation and plots.
KERNEL_MEMORY_BYTES = 400 * 2**20
#: Kernels per CPU core for the default cap (most sit idle; their start-up and a visitor's
#: computations are what take the cores).
KERNELS_PER_CORE = 15
#: Memory kept for the server itself, the operating system and the reverse proxy.
RESERVED_BYTES = 2 * 2**30


def default_kernel_cap(total_bytes: int | None = None, cores: int | None = None) -> int:
    """The default cap on live kernels: the machine's memory over a per-kernel budget, and
    at most ``KERNELS_PER_CORE`` per core.

    Parameters
    ----------
    total_bytes : int, optional
        Physical memory in bytes (default: this machine's).
    cores : int, optional
        CPU cores (default: this machine's).

    Returns
    -------
    int
        ``max(1, min((total_bytes - RESERVED_BYTES) // KERNEL_MEMORY_BYTES, KERNELS_PER_CORE * cores))``.

    Notes
    -----
    Memory alone allows 55 kernels on a 2-core, 24 GB machine, but the soak of
    ``benchmarks/bench_demo_load.py`` showed the two cores swamped well before that; a burst of 30
    visitors on those two cores all rendered.

    Examples
    --------
    >>> default_kernel_cap(24 * 2**30, cores=8)
    56
    >>> default_kernel_cap(24 * 2**30, cores=2)
    30
    >>> default_kernel_cap(2**30, cores=2)
    1
    """
    if total_bytes is None:
        total_bytes = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    if cores is None:
        cores = os.cpu_count() or 1
    by_memory = (int(total_bytes) - RESERVED_BYTES) // KERNEL_MEMORY_BYTES
    return max(1, min(by_memory, KERNELS_PER_CORE * int(cores)))


class DemoKernelManager(AsyncMappingKernelManager):
    """jupyter_server's kernel manager, plus culling of kernels that lost their page."""

    cull_unconnected_timeout = Float(
        60.0, config=True,
        help="Cull a kernel (busy or idle) after this many seconds with no websocket connection and "
             "no kernel activity, once a page has been connected to it; 0 disables.")
    cull_never_connected_timeout = Float(
        300.0, config=True,
        help="Cull a kernel (busy or idle) that no page ever connected to after this many seconds without "
             "kernel activity; 0 disables.")

    server_id = Unicode(
        "", config=True,
        help="Name of this server among several behind one proxy (letters and digits): every kernel id starts "
             "with it and an underscore, so that the proxy sends a page's websocket and shutdown request to the "
             "server that started its kernel (deploy/nginx/privacy-explorer-cluster.conf).")

    @validate("server_id")
    def _valid_server_id(self, proposal: dict) -> str:
        value = proposal["value"]
        if value and not (value.isascii() and value.isalnum() and len(value) <= 16):
            raise ValueError(f"server_id must be 1-16 ASCII letters and digits, got {value!r}")
        return value

    def new_kernel_id(self, **kwargs: object) -> str:
        """A new kernel id: a UUID, prefixed with ``server_id`` and ``_`` when it is set."""
        kernel_id = super().new_kernel_id(**kwargs)
        return f"{self.server_id}_{kernel_id}" if self.server_id else kernel_id

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._connected_once: set[str] = set()
        self._shutting_down: set[str] = set()
        #: The kernel each task started or was handed: a page's request, or a refill of Voilà's pool.
        self.kernel_of_task: weakref.WeakKeyDictionary[asyncio.Task, str] = weakref.WeakKeyDictionary()

    async def start_kernel(self, *args: object, kernel_id: str | None = None, **kwargs: object) -> str:
        """Start a kernel, noting which task asked for it (before the kernel is listed)."""
        kernel_id = kernel_id or self.new_kernel_id()
        self.note_kernel_of_current_task(kernel_id)
        from explorer.demo.pool import KERNEL_NICE, _nice_child

        nice = KERNEL_NICE.get()
        if nice > 0 and os.name == "posix":
            kwargs.setdefault("preexec_fn", _nice_child(nice))   # a pool kernel: started at low priority
        return await super().start_kernel(*args, kernel_id=kernel_id, **kwargs)

    def note_kernel_of_current_task(self, kernel_id: str) -> None:
        """Record that the running task (a page's request or a pool refill) holds ``kernel_id``."""
        try:
            task = asyncio.current_task()
        except RuntimeError:       # no running loop
            task = None
        if task is not None:
            self.kernel_of_task[task] = kernel_id

    def watch_hand_overs(self) -> None:
        """Note the kernel that Voilà's preheated pool hands to a page, against the page's task.

        Voilà's ``get_rendered_notebook`` (defined by the pool's subclass of this manager, so
        it cannot be overridden here) is wrapped on this instance; without a pool it does not exist.
        """
        get_rendered_notebook = getattr(self, "get_rendered_notebook", None)
        if get_rendered_notebook is None:
            return

        async def handed_over(*args: object, **kwargs: object) -> tuple:
            rendered = await get_rendered_notebook(*args, **kwargs)
            self.note_kernel_of_current_task(rendered[2])
            return rendered

        self.get_rendered_notebook = handed_over

    def initialize_culler(self) -> None:
        """Start the culler outside any request's context.

        jupyter_server starts it when the first kernel starts, inside that visitor's page request:
        its periodic timer would carry that request's context, and with it the first visitor's page
        handler, for the server's whole life.
        """
        contextvars.Context().run(super().initialize_culler)

    def pooled_kernel_ids(self) -> set[str]:
        """Live kernels started for Voilà's preheated pool and not yet handed to a visitor.

        A refill's kernel is listed while it starts, before its task in the pool is done; it is
        still the pool's, not a visitor's.
        """
        ids = set()
        for pool in getattr(self, "_pools", {}).values():
            for task in pool:
                kernel_id = self.kernel_of_task.get(task)
                if kernel_id is None and task.done() and not task.cancelled() and task.exception() is None:
                    kernel_id = task.result().get("kernel_id")
                if kernel_id is not None:
                    ids.add(kernel_id)
        return ids & set(self.list_kernel_ids())

    async def shutdown_kernel(self, kernel_id: str, now: bool = False, restart: bool = False) -> None:
        self._shutting_down.add(kernel_id)
        try:
            await super().shutdown_kernel(kernel_id, now=now, restart=restart)
        finally:
            self._shutting_down.discard(kernel_id)

    def start_buffering(self, kernel_id: str, session_key: str, channels: dict) -> None:
        """Buffer a kernel's messages while its page is away, unless the kernel is being shut down.

        A page that closes sends its shutdown request and then drops its websocket; jupyter_server
        clears a kernel's buffer when the shutdown starts, so a websocket that closes while the
        kernel process is still stopping started a new buffer that nothing ever cleared: the
        buffer's ZMQ streams (and every message they received) stayed in the server, about one
        set per visitor.  Here the streams are closed at once instead.
        """
        if kernel_id in self._shutting_down or kernel_id not in self:
            for stream in channels.values():
                if not stream.closed():
                    stream.close()
            return
        super().start_buffering(kernel_id, session_key, channels)

    def notify_connect(self, kernel_id: str) -> None:
        super().notify_connect(kernel_id)
        self._connected_once.add(kernel_id)

    def remove_kernel(self, kernel_id: str) -> object:
        self._connected_once.discard(kernel_id)
        try:                      # Voilà keeps each handed-over pool kernel's request info for a kernel that
            from voila.request_info_handler import RequestInfoSocketHandler    # may never ask for it

            RequestInfoSocketHandler._cache.pop(kernel_id, None)
        except ImportError:
            pass
        buffered = self._kernel_buffers.pop(kernel_id, None)     # a buffer the shutdown missed
        for stream in (buffered or {}).get("channels", {}).values():
            if not stream.closed():
                stream.on_recv(None)
                stream.close()
        return super().remove_kernel(kernel_id)

    def notify_page_left(self, kernel_id: str) -> None:
        """A page's websocket closed: the unconnected clock starts now."""
        kernel = self._kernels.get(kernel_id)
        if kernel is not None and self._kernel_connections.get(kernel_id, 0) <= 0:
            kernel.last_activity = utcnow()

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        kernel = self._kernels.get(kernel_id)
        if kernel is None:
            return
        timeout = (self.cull_unconnected_timeout if kernel_id in self._connected_once
                   else self.cull_never_connected_timeout)
        if timeout > 0 and not self._kernel_connections.get(kernel_id, 0) and hasattr(kernel, "last_activity"):
            quiet = utcnow() - kernel.last_activity
            if quiet > timedelta(seconds=timeout):
                self.log.warning("Culling %s kernel %s: no page connected and no activity for %d s "
                                 "(%s)", getattr(kernel, "execution_state", "?"), kernel_id, quiet.total_seconds(),
                                 "its page left" if kernel_id in self._connected_once else "no page ever connected")
                await ensure_async(self.shutdown_kernel(kernel_id))
                return
        await super().cull_kernel_if_idle(kernel_id)


def kernel_processes(server_pid: int) -> list:
    """The live ipykernel processes under the server process ``server_pid`` (psutil.Process objects).

    For operators and the benchmarks: Voilà does not list its kernels over HTTP.
    """
    import psutil

    found = []
    for child in psutil.Process(server_pid).children(recursive=True):
        try:
            if child.status() != psutil.STATUS_ZOMBIE and "ipykernel" in " ".join(child.cmdline()):
                found.append(child)
        except psutil.Error:  # it exited meanwhile
            pass
    return found
