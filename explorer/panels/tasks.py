"""Work that takes long: one :class:`BackgroundTask` per panel (thread, progress bar, Cancel), and
:class:`Throughput`, the seconds per work unit (:mod:`explorer.core.cost`) measured as the app runs.

Whether work waits for the Compute button is decided by :func:`explorer.core.cost.needs_compute` on the work
itself, never on this machine's load; :class:`Throughput` only says how long it will take here.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import weakref
from typing import Any, Callable

import ipywidgets as widgets

from explorer.errors import CancelledError, ExplorerError
from explorer.panels.status import StatusLine

__all__ = ["BackgroundTask", "Throughput", "Debounced"]

log = logging.getLogger("explorer.panels")


class Debounced:
    """``function()`` called once, ``delay`` seconds after the last of a burst of calls (on the running asyncio
    loop: the kernel's); without a running loop (tests, scripts) at once.  An exception it raises is logged.

    Examples
    --------
    >>> import threading
    >>> calls = []
    >>> later = Debounced(lambda: calls.append(1), 0.25)
    >>> script = threading.Thread(target=lambda: (later(), later()))   # a thread with no event loop, as a script
    >>> script.start(); script.join(); calls          # each call ran at once
    [1, 1]
    """

    def __init__(self, function: Callable[[], Any], delay: float):
        self.function = function
        self.delay = float(delay)
        self._timer: asyncio.TimerHandle | None = None

    def __call__(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None:
            self._run()
            return
        self.cancel()
        self._timer = loop.call_later(self.delay, self._run)

    def cancel(self) -> None:
        """Forget a pending call."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _run(self) -> None:
        self._timer = None
        try:
            self.function()
        except Exception:
            log.exception("a debounced update failed")


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
