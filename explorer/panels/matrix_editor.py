"""A square matrix typed cell by cell, each row's sum shown and a row that is not a probability vector marked.

:class:`MatrixEditor` is one control of a panel (``panel.control("matrix", editor, check=...)``): its
``value`` is the matrix as a tuple of rows.  The row rule is :func:`explorer.core.rr.row_check`.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import ipywidgets as widgets
import numpy as np

from explorer.core.rr import row_check
from explorer.errors import ConfigurationError
from explorer.panels._format import format_value
from explorer.panels.figures import close_tree
from explorer.state import shorten

__all__ = ["MatrixEditor", "INVALID_ROW_CSS"]

#: The style of a marked row (put once in the panel's layout).
INVALID_ROW_CSS = ("<style>.{prefix}-invalid-row input{{border:2px solid #b00020 !important;"
                   "background:#fdecea}}</style>")


class MatrixEditor(widgets.VBox):
    """The cells of a square matrix (``FloatText``), a row label and the row's sum, row by row.

    Parameters
    ----------
    matrix : array_like, shape (r, r)
        The matrix shown first.
    prefix : str
        The CSS class prefix: cells get ``<prefix>-cell`` and ``<prefix>-cell-<u>-<v>`` (from 1), rows
        ``<prefix>-row`` (and ``<prefix>-invalid-row`` while marked), sums ``<prefix>-row-sum``.

    Attributes
    ----------
    cells : list of list of ipywidgets.FloatText
        ``cells[u][v]``.
    row_sums : list of ipywidgets.HTML
        The sum of each row, with a tick or a cross.
    """

    def __init__(self, matrix: Any, *, prefix: str = "explorer-matrix", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.prefix = prefix
        self.cells: list[list[widgets.FloatText]] = []
        self.row_sums: list[widgets.HTML] = []
        self._callbacks: list[Callable[[Any], None]] = []
        self.set_matrix(matrix)

    @property
    def value(self) -> tuple[tuple[float, ...], ...]:
        """The matrix as typed, a tuple of rows (set it to show another matrix)."""
        return tuple(tuple(float(cell.value) for cell in row) for row in self.cells)

    @value.setter
    def value(self, matrix: Any) -> None:
        self.set_matrix(matrix)

    @staticmethod
    def check_value(key: str, value: Any, *, sizes: tuple[int, int]) -> tuple[tuple[float, ...], ...]:
        """A configuration's matrix for the editor: a square list of ``sizes[0]`` to ``sizes[1]`` rows of finite
        numbers (whether it is an RR matrix is checked where it is used); refused in words naming ``key``.

        Examples
        --------
        >>> MatrixEditor.check_value("matrix", [[1, 0], [0.5, 0.5]], sizes=(2, 12))
        ((1.0, 0.0), (0.5, 0.5))
        """
        if not isinstance(value, (list, tuple)) or not all(isinstance(row, (list, tuple)) for row in value):
            raise ConfigurationError(f"{key} must be a list of rows, got {shorten(value)}")
        if not sizes[0] <= len(value) <= sizes[1] or any(len(row) != len(value) for row in value):
            raise ConfigurationError(f"{key} must be square with {sizes[0]} to {sizes[1]} rows, got {shorten(value)}")
        for entry in (entry for row in value for entry in row):
            if isinstance(entry, bool) or not isinstance(entry, (int, float)) or not math.isfinite(entry):
                raise ConfigurationError(f"{key} entries must be finite numbers, got {shorten(entry)}")
        return tuple(tuple(float(entry) for entry in row) for row in value)

    def values(self) -> np.ndarray:
        """The matrix as typed, as a float array."""
        return np.array([[cell.value for cell in row] for row in self.cells], dtype=float)

    def on_cell_change(self, callback: Callable[[Any], None]) -> None:
        """Call ``callback(change)`` whenever a cell's value changes (the rows are marked before)."""
        self._callbacks.append(callback)

    def set_matrix(self, matrix: Any) -> None:
        """Show ``matrix``: the same cells take the values when the size is the same, new cells otherwise."""
        values = np.asarray(matrix, dtype=float)
        if values.shape == (len(self.cells), len(self.cells)):
            for u, row in enumerate(self.cells):
                for v, cell in enumerate(row):
                    cell.value = float(values[u, v])
        else:
            self._rebuild(values)
        self.mark_rows()

    def _rebuild(self, values: np.ndarray) -> None:
        r = values.shape[0]
        for row in self.cells:
            for cell in row:
                cell.unobserve(self._on_cell, names="value")
        self.cells = [[widgets.FloatText(value=float(values[u, v]), step=0.01, layout=widgets.Layout(width="72px"))
                       for v in range(r)] for u in range(r)]
        self.row_sums = [widgets.HTML() for _ in range(r)]
        rows = []
        for u in range(r):
            for v, cell in enumerate(self.cells[u]):
                cell.add_class(f"{self.prefix}-cell")
                cell.add_class(f"{self.prefix}-cell-{u + 1}-{v + 1}")
                cell._explorer_name = f"P(Y = {v + 1} | X = {u + 1}), row {u + 1}, column {v + 1}"   # its label
                cell.observe(self._on_cell, names="value")
            self.row_sums[u].add_class(f"{self.prefix}-row-sum")
            box = widgets.HBox([widgets.HTML(f"<small>row {u + 1}</small>", layout=widgets.Layout(width="44px")),
                                *self.cells[u], self.row_sums[u]], layout=widgets.Layout(align_items="center"))
            box.add_class(f"{self.prefix}-row")
            rows.append(box)
        old = self.children
        self.children = rows
        for box in old:                              # no leaks: the replaced cells, labels and boxes are closed
            close_tree(box)

    def mark_rows(self) -> None:
        """Show each row's sum; mark the rows that are not probability vectors."""
        if not self.cells:
            return
        sums, valid = row_check(self.values())
        for u, (label, total, ok) in enumerate(zip(self.row_sums, sums, valid)):
            box = self.children[u]
            if ok:
                label.value = f"<span style='color:#2e7d32'>sum {format_value(float(total), digits=6)} ✓</span>"
                box.remove_class(f"{self.prefix}-invalid-row")
            else:
                label.value = (f"<span style='color:#b00020'><b>sum {format_value(float(total), digits=6)} ✗"
                               "</b></span>")
                box.add_class(f"{self.prefix}-invalid-row")

    def _on_cell(self, change: Any) -> None:
        self.mark_rows()
        for callback in self._callbacks:
            callback(change)
