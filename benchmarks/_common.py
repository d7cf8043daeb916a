"""Helpers shared by the benchmark scripts (run as ``python benchmarks/bench_x.py``)."""

from __future__ import annotations

import io
import statistics
import sys
import time
from contextlib import contextmanager, redirect_stdout
from pathlib import Path


def timed(function, repeat: int = 1):
    """``(result, best seconds, median seconds)`` of ``repeat`` calls of ``function()``."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return result, min(times), statistics.median(times)


@contextmanager
def tee_stdout(path: str | Path | None):
    """Print as usual and, at the end, also write everything printed to ``path`` (if given)."""
    buffer = io.StringIO()

    class Tee(io.TextIOBase):
        def write(self, text):
            sys.__stdout__.write(text)
            sys.__stdout__.flush()
            buffer.write(text)
            return len(text)

    with redirect_stdout(Tee()):
        yield buffer
    if path is not None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(buffer.getvalue())
