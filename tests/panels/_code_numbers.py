"""Run panels' code() snippets in this fresh interpreter and print every number each one made.

Used by tests/panels/test_registry.py: stdin is a JSON object ``{case: snippet}``.  Each snippet runs in a
namespace of its own (nothing it did not import or define itself), in a directory of its own (the files it
saves), with matplotlib's settings, numpy's and Python's global random state and the warning filters as
this interpreter started with them, and its Figures closed after it.  The numbers of its variables (numpy
arrays, pandas frames, scalars, the explorer's result objects) and of what it drew on its matplotlib Figures
(lines, bars, images, points, segments) are printed as JSON ``{case: {"numbers": [...]}}``, or
``{case: {"error": traceback}}`` when it raised, after the marker ``@@NUMBERS@@`` (snippets may print too).
A script, not a test module: it does its work only when run (``--doctest-modules`` imports it).
"""

from __future__ import annotations

import json
import numbers
import sys
from typing import Any

import numpy as np
import pandas as pd

MARKER = "@@NUMBERS@@"
#: At most this many numbers from one array, one container, one figure's segments, and in all.
MAX_ARRAY, MAX_ITEMS, MAX_TOTAL = 20_000, 5_000, 200_000


class Numbers:
    """The finite numbers found in a snippet's namespace, in the order met."""

    def __init__(self) -> None:
        self.found: list[float] = []

    def add(self, value: Any) -> None:
        try:
            array = np.asarray(value, dtype=float).ravel()
        except Exception:       # not numbers (labels, objects): nothing to compare
            return
        self.found.extend(array[np.isfinite(array)][:MAX_ARRAY].tolist())

    def walk(self, obj: Any, depth: int = 0) -> None:
        if depth > 3 or isinstance(obj, bool):
            return
        if isinstance(obj, (numbers.Number, np.ndarray)):
            self.add(obj if isinstance(obj, np.ndarray) else [obj])
        elif isinstance(obj, pd.DataFrame):
            for column in obj.columns:
                self.add(obj[column].to_numpy())
            self.add(obj.index.to_numpy())
        elif isinstance(obj, pd.Series):
            self.add(obj.to_numpy())
            if obj.index.dtype.kind in "if":
                self.add(obj.index.to_numpy())
        elif isinstance(obj, (list, tuple)):
            for item in obj[:MAX_ITEMS]:
                self.walk(item, depth + 1)
        elif isinstance(obj, dict):
            for item in list(obj.values())[:MAX_ITEMS]:
                self.walk(item, depth + 1)
        elif _is_figure(obj):
            self.figure(obj)
        elif hasattr(obj, "__dataclass_fields__") or (
                hasattr(obj, "__dict__") and type(obj).__module__.startswith("explorer")):
            for item in list(vars(obj).values()):
                self.walk(item, depth + 1)

    def figure(self, figure: Any) -> None:
        from matplotlib.collections import Collection
        from matplotlib.image import AxesImage
        from matplotlib.lines import Line2D
        from matplotlib.patches import Rectangle, StepPatch

        for artist in figure.findobj():
            if isinstance(artist, Line2D):
                self.add(artist.get_xydata())
            elif isinstance(artist, Rectangle):
                x, width = artist.get_x(), artist.get_width()
                self.add([artist.get_height(), width, artist.get_y(), x, x + width / 2])
            elif isinstance(artist, StepPatch):     # a histogram drawn with stairs: its heights
                self.add(artist.get_data().values)
            elif isinstance(artist, AxesImage):
                self.add(artist.get_array())
            elif isinstance(artist, Collection):
                self.add(artist.get_offsets())
                for segment in (artist.get_segments() if hasattr(artist, "get_segments") else [])[:MAX_ARRAY]:
                    self.add(segment)


def _is_figure(obj: Any) -> bool:
    from matplotlib.figure import Figure

    return isinstance(obj, Figure)


def numbers_of(code: str) -> list[float]:
    """Run ``code`` in a namespace of its own and return the numbers it made (figures first)."""
    namespace: dict[str, Any] = {}
    exec(compile(code, "<code()>", "exec"), namespace)
    found = Numbers()
    # what was drawn first (figures), then the variables: the cap on how many numbers are kept never hides a figure
    items = sorted(namespace.items(), key=lambda item: not _is_figure(item[1]))
    for name, value in items:
        if name.startswith("__") or type(value).__name__ == "module":
            continue
        if callable(value) and not hasattr(value, "__dataclass_fields__"):
            continue
        found.walk(value)
    return found.found[:MAX_TOTAL]


def main() -> None:
    import os
    import random
    import traceback
    import warnings
    from pathlib import Path

    import matplotlib
    import matplotlib.pyplot as plt

    snippets: dict[str, str] = json.loads(sys.stdin.read())
    home = Path.cwd()
    numpy_state, python_state = np.random.get_state(), random.getstate()
    results: dict[str, dict[str, Any]] = {}
    for number, (case, code) in enumerate(snippets.items()):
        folder = home / f"case{number}"
        folder.mkdir(exist_ok=True)
        os.chdir(folder)
        np.random.set_state(numpy_state)
        random.setstate(python_state)
        try:
            with matplotlib.rc_context(), warnings.catch_warnings():
                results[case] = {"numbers": numbers_of(code)}
        except BaseException:  # the case fails with its traceback; the next case still runs
            results[case] = {"error": traceback.format_exc()[-1500:]}
        finally:
            plt.close("all")
            os.chdir(home)
    print("\n" + MARKER + json.dumps(results))


if __name__ == "__main__":
    main()
