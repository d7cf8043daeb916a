"""The demo's pool of ready kernels: handed over only when ready, refilled only when the server is quiet.

Voilà's preheated pool (``VoilaKernelManager``) hands the first kernel of its pool to a visitor whether
or not it has finished starting, and starts a replacement one second later.  In a burst every visitor
therefore took a kernel that was still starting and started one more: 30 visitors started 60 kernels,
and the refills competed with the visitors for the cores (issue 26: about 10 CPU-seconds per visitor).

:class:`ReadyPoolMixin`, put in front of Voilà's pool manager by :class:`explorer.demo.server.DemoVoila`:

* hands a visitor only a **ready** kernel (started, the app notebook run to its end); with none ready the
  visitor's page starts a kernel of its own, as without a pool, and nothing else starts;
* **refills** in the background only when the server is quiet: no page being rendered, no page
  requested and no visitor's kernel active for ``refill_quiet`` seconds (at most ``refill_max_wait``
  seconds of waiting, then it refills anyway); it starts ``fill_parallel`` kernels at a time;
* starts pool kernels at a lower CPU priority (``pool_nice``, :func:`os.nice` in the new process) and
  gives a kernel its normal priority back when a visitor takes it, where the system allows that;
* hands the visitor's query string (``?config=...``) to the kernel it takes by running
  :func:`explorer.demo.kernel.apply_visitor_query` in it: the pool kernel never waits in a cell for its
  visitor, so no cell can run into the execution time limit however long the kernel waits;
* drops a pool kernel that failed (its start or its notebook) and starts another;
* says how full it is (:meth:`pool_status`): "Class ready: 30 of 30 kernels" or "Filling: 12 of 30",
  in the server's log as it fills and on the status page (``/class``).
"""

from __future__ import annotations

import asyncio
import contextvars
import os
import time
import urllib.parse
from typing import Any

from traitlets import Float, Int
from traitlets.config import LoggingConfigurable

__all__ = ["ReadyPoolMixin", "POOL_NICE", "pool_entry_ready", "quiet_since"]

#: Niceness of a pool kernel while it starts (0: the server's own priority).
POOL_NICE = 10
#: Set while a pool refill starts its kernel: :meth:`explorer.demo.kernels.DemoKernelManager.start_kernel`
#: launches it with this niceness.
KERNEL_NICE: contextvars.ContextVar[int] = contextvars.ContextVar("explorer_kernel_nice", default=0)


def _notebook_failed(content: dict) -> bool:
    """Whether the pool kernel's notebook ended with an error or a timed-out cell (its page would be broken)."""
    executor = getattr(content.get("renderer"), "executor", None)
    notebook = getattr(executor, "nb", None)
    cells = notebook.get("cells", ()) if isinstance(notebook, dict) else getattr(notebook, "cells", ())
    for cell in cells or ():
        for output in cell.get("outputs", ()) or ():
            if output.get("output_type") == "error":
                return True
    return False


def pool_entry_ready(task: asyncio.Task) -> bool:
    """Whether a pool entry (a task of Voilà's pool) holds a started kernel whose notebook ran to its end
    without an error."""
    if not task.done() or task.cancelled() or task.exception() is not None:
        return False
    content = task.result()
    render = content.get("task")
    return (render is not None and render.done() and not render.cancelled() and render.exception() is None
            and not _notebook_failed(content))


def pool_entry_failed(task: asyncio.Task) -> bool:
    """Whether a pool entry failed: its kernel did not start, or its notebook's render raised, ended with an
    error or timed out."""
    if not task.done():
        return False
    if task.cancelled() or task.exception() is not None:
        return True
    content = task.result()
    render = content.get("task")
    if render is None:
        return True
    return render.done() and (render.cancelled() or render.exception() is not None or _notebook_failed(content))


def _nice_child(increment: int):
    def lower_priority() -> None:          # runs in the new kernel process, before it executes
        try:
            os.nice(increment)
        except OSError:
            pass
    return lower_priority


class _Activity:
    """When the server last served a visitor (a page request), shared by the page handler and the pool."""

    last_page = 0.0


def note_page_request() -> None:
    """Record that a visitor asked for a page now (called by the page handler)."""
    _Activity.last_page = time.monotonic()


def quiet_since() -> float:
    """Seconds since the last page request."""
    return time.monotonic() - _Activity.last_page


class ReadyPoolMixin(LoggingConfigurable):
    """Voilà's pool manager, handing over only ready kernels and refilling only when the server is quiet.

    Mixed in front of the class that ``voila_kernel_manager_factory`` makes (see the module docstring).
    """

    refill_quiet = Float(5.0, config=True,
                         help="Refill the pool only after this many seconds without a page request, a page "
                              "being rendered or a visitor's kernel active.")
    refill_max_wait = Float(120.0, config=True,
                            help="Refill anyway (at low priority) after waiting this many seconds for quiet.")
    fill_parallel = Int(0, config=True, help="Pool kernels started at once (0: one per CPU core).")
    pool_nice = Int(POOL_NICE, config=True,
                    help="Niceness added to a pool kernel while it waits for a visitor (0: none).")
    class_size = Int(0, config=True, help="The class the pool is for (privacy-explorer --class N); 0: a plain pool.")

    # ------------------------------------------------------------------ filling
    def fill_if_needed(self, delay: float | None = None, notebook_name: str | None = None,
                       extra_kernel_env_variables: dict | None = None, **kwargs: Any) -> None:
        """Voilà asks for a refill (at start and after each hand-over): the filler does it when quiet."""
        if notebook_name is None:
            return
        self._fill_kwargs = getattr(self, "_fill_kwargs", {})
        self._fill_kwargs.setdefault(notebook_name, dict(kwargs))
        self._pools.setdefault(notebook_name, [])
        wake = self._filler_wake()
        wake.set()
        filler = getattr(self, "_filler", None)
        if filler is None or filler.done():
            try:
                loop = asyncio.get_event_loop()
            except RuntimeError:
                loop = asyncio.new_event_loop()
                asyncio.set_event_loop(loop)
            # outside any request's context: the filler lives as long as the server
            self._filler = contextvars.Context().run(loop.create_task, self._fill_forever())

    def _filler_wake(self) -> asyncio.Event:
        wake = getattr(self, "_wake", None)
        if wake is None:
            wake = self._wake = asyncio.Event()
        return wake

    def pool_target(self, notebook_name: str | None = None) -> int:
        """How many ready kernels the pool keeps for ``notebook_name``."""
        default = self.kernel_pools_config.get("default", {})
        config = self.kernel_pools_config.get(notebook_name, default)
        return int(config.get("pool_size", default.get("pool_size", 0)))

    def _parallel(self) -> int:
        return self.fill_parallel if self.fill_parallel > 0 else max(1, os.cpu_count() or 1)

    def server_busy(self) -> str | None:
        """Why the pool should not start a kernel now (a visitor is being served), or None when quiet."""
        from explorer.demo.server import CappedVoilaHandler

        if CappedVoilaHandler.pages:
            return f"{len(CappedVoilaHandler.pages)} page(s) rendering"
        if quiet_since() < self.refill_quiet:
            return "a page was requested"
        pooled = self.pooled_kernel_ids() if hasattr(self, "pooled_kernel_ids") else set()
        now = time.time()
        for kernel_id in set(self.list_kernel_ids()) - pooled:
            kernel = self._kernels.get(kernel_id)
            last = getattr(kernel, "last_activity", None)
            if last is not None and now - last.timestamp() < self.refill_quiet:
                return "a visitor's kernel is active"
        return None

    async def _fill_forever(self) -> None:
        """Keep every pool at its target (see :meth:`_fill`); an error is logged and the filling goes on."""
        while True:
            try:
                await self._fill()
            except asyncio.CancelledError:
                raise
            except Exception:
                self.log.exception("Filling the pool failed; trying again in 10 s")
                await asyncio.sleep(10)

    async def _fill(self) -> None:
        """Keep every pool at its target: start kernels when quiet, ``_parallel()`` at a time."""
        wake = self._filler_wake()
        self._fill_started = getattr(self, "_fill_started", time.monotonic())
        announced = None
        failures = 0
        while True:
            missing = {}
            failed_now = 0
            for name, pool in self._pools.items():
                for task in [t for t in pool if pool_entry_failed(t)]:
                    failed_now += 1
                    pool.remove(task)
                    self.log.warning("A pool kernel for %s failed to start or to run the notebook; starting "
                                     "another", name)
                    if task.done() and not task.cancelled() and task.exception() is None:
                        kernel_id = task.result().get("kernel_id")
                        if kernel_id in self:
                            asyncio.ensure_future(self.shutdown_kernel(kernel_id, now=True))
                short = self.pool_target(name) - len(pool)
                if short > 0:
                    missing[name] = short
            failures = failures + failed_now if failed_now else (0 if self.ready_count() else failures)
            if failed_now:       # a machine too busy to start kernels within the time limit: back off
                await asyncio.sleep(min(60.0, 5.0 * failures))
            status = self.pool_status()
            if status["text"] != announced:
                announced = status["text"]
                self.log.info("%s", announced)
            starting = sum(1 for pool in self._pools.values() for t in pool if not pool_entry_ready(t))
            if not missing or starting >= self._parallel():
                wake.clear()
                try:
                    await asyncio.wait_for(wake.wait(), 1.0)
                except asyncio.TimeoutError:
                    pass
                continue
            waited = time.monotonic()
            while (reason := self.server_busy()) is not None and time.monotonic() - waited < self.refill_max_wait:
                await asyncio.sleep(0.5)
            if reason is not None:
                self.log.info("Refilling the pool at low priority although %s", reason)
            name, short = next(iter(missing.items()))
            self._start_pool_kernels(name, min(short, self._parallel() - starting))
            await asyncio.sleep(0)

    def _start_pool_kernels(self, notebook_name: str, count: int) -> None:
        """Start ``count`` pool kernels for ``notebook_name`` (Voilà's own fill, at lower priority)."""
        pool = self._pools.setdefault(notebook_name, [])
        config = dict(self.kernel_pools_config)
        default = dict(config.get("default", {}))
        wanted = {**default, "pool_size": len(pool) + count}
        token = KERNEL_NICE.set(self.pool_nice)
        try:
            self.kernel_pools_config = {**config, "default": wanted, notebook_name: wanted}
            super().fill_if_needed(delay=0, notebook_name=notebook_name,
                                   **dict(getattr(self, "_fill_kwargs", {}).get(notebook_name, {})))
        finally:
            self.kernel_pools_config = config
            KERNEL_NICE.reset(token)
        for task in pool[-count:]:
            task.add_done_callback(lambda _: self._filler_wake().set())

    async def shutdown_kernel(self, kernel_id: str, *args: Any, **kwargs: Any) -> Any:
        # Voilà's own shutdown reads every finished pool entry's result: drop the failed ones first
        for pool in self._pools.values():
            for task in [t for t in pool if t.done() and (t.cancelled() or t.exception() is not None)]:
                pool.remove(task)
        return await super().shutdown_kernel(kernel_id, *args, **kwargs)

    # ------------------------------------------------------------------ handing over
    def get_pool_size(self, notebook_name: str) -> int:
        """Ready kernels in the pool: Voilà's page handler uses the pool only when one is ready."""
        return sum(1 for task in self._pools.get(notebook_name, ()) if pool_entry_ready(task))

    def ready_count(self) -> int:
        """Ready kernels in all pools."""
        return sum(1 for pool in self._pools.values() for task in pool if pool_entry_ready(task))

    async def get_rendered_notebook(self, notebook_name: str, extra_kernel_env_variables: dict | None = None,
                                    **kwargs: Any) -> tuple:
        """Hand a ready kernel to a visitor: its rendered page, its kernel id; the filler refills later."""
        if notebook_name is None:
            raise NameError("Notebook name must be provided!")
        pool = self._pools.get(notebook_name, [])
        ready = next((task for task in pool if pool_entry_ready(task)), None)
        if ready is None:
            raise Exception(f"Kernel pool for {notebook_name} has no ready kernel")
        pool.remove(ready)
        content = ready.result()
        renderer, render_task, kernel_id = content["renderer"], content["task"], content["kernel_id"]
        renderer.stop_generator = True
        self.log.info("Using pre-heated kernel: %s for %s (%d ready left)", kernel_id, notebook_name,
                      self.get_pool_size(notebook_name))
        self._restore_priority(kernel_id)
        url = (extra_kernel_env_variables or {}).get("VOILA_REQUEST_URL", "")
        query = urllib.parse.urlsplit(url).query
        if query:
            asyncio.ensure_future(self._send_query(kernel_id, query))
        self.fill_if_needed(notebook_name=notebook_name)
        return render_task, renderer.rendered_cache, kernel_id

    def _restore_priority(self, kernel_id: str) -> None:
        """Give a handed-over kernel the server's priority back (needs the right to raise priority)."""
        if self.pool_nice <= 0:
            return
        kernel = self._kernels.get(kernel_id)
        pid = getattr(getattr(getattr(kernel, "provisioner", None), "process", None), "pid", None)
        if pid is None:
            return
        try:
            priority = os.getpriority(os.PRIO_PROCESS, 0)
            try:           # Linux keeps a niceness per thread: the kernel's threads started niced too
                threads = [int(tid) for tid in os.listdir(f"/proc/{pid}/task")]
            except OSError:
                threads = [pid]
            for tid in threads:
                try:
                    os.setpriority(os.PRIO_PROCESS, tid, priority)
                except ProcessLookupError:
                    pass
        except (OSError, AttributeError):
            if not getattr(self, "_told_nice", False):
                self._told_nice = True
                self.log.info("Pool kernels keep their lower priority when handed over (raising a priority "
                              "needs CAP_SYS_NICE); visitors' kernels from the pool all share it")

    async def _send_query(self, kernel_id: str, query: str) -> None:
        """Run :func:`explorer.demo.kernel.apply_visitor_query` with the visitor's query in their kernel."""
        try:
            kernel = self.get_kernel(kernel_id)
            client = kernel.client()
            client.start_channels(shell=True, iopub=False, stdin=False, hb=False, control=False)
            try:
                code = f"from explorer.demo.kernel import apply_visitor_query as _q; _q({query!r}); del _q"
                msg_id = client.execute(code, silent=True, store_history=False)
                deadline = time.monotonic() + 120
                while time.monotonic() < deadline:
                    try:
                        reply = await asyncio.wait_for(client.get_shell_msg(), 5)
                    except asyncio.TimeoutError:
                        continue
                    if reply.get("parent_header", {}).get("msg_id") == msg_id:
                        break
            finally:
                client.stop_channels()
        except Exception:  # the visitor's page still works, with the app's defaults
            self.log.exception("Could not hand the page's query string to kernel %s", kernel_id)

    # ------------------------------------------------------------------ status
    def pool_status(self) -> dict:
        """``ready``, ``target``, ``starting``, ``visitors`` and ``text``: the pool as a teacher reads it."""
        target = sum(self.pool_target(name) for name in self._pools) if self._pools else self.pool_target(None)
        ready = self.ready_count()
        starting = sum(1 for pool in self._pools.values() for t in pool if not t.done() or not pool_entry_ready(t))
        visitors = len(set(self.list_kernel_ids()) - (self.pooled_kernel_ids() if hasattr(self, "pooled_kernel_ids")
                                                     else set()))
        label = "Class" if self.class_size else "Pool"
        if target and ready >= target:
            text = f"{label} ready: {ready} of {target} kernels"
        else:
            text = f"Filling: {ready} of {target} kernels ready"
        return {"ready": ready, "target": target, "starting": starting, "visitors": visitors, "text": text,
                "class": self.class_size}
