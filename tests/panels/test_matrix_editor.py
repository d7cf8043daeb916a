"""Tests of explorer.panels.matrix_editor: a square matrix typed cell by cell, its rows marked."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.errors import ConfigurationError
from explorer.panels.matrix_editor import MatrixEditor


def test_value_round_trips_and_rows_are_marked():
    editor = MatrixEditor([[0.5, 0.5], [0.2, 0.7]], prefix="x")
    assert editor.value == ((0.5, 0.5), (0.2, 0.7))
    assert "x-invalid-row" not in editor.children[0]._dom_classes and "sum 1 ✓" in editor.row_sums[0].value
    assert "x-invalid-row" in editor.children[1]._dom_classes and "0.9" in editor.row_sums[1].value
    assert "x-cell-2-1" in editor.cells[1][0]._dom_classes
    seen = []
    editor.on_cell_change(seen.append)
    editor.cells[1][1].value = 0.8                       # the row is fixed: unmarked before the callback runs
    assert len(seen) == 1 and "x-invalid-row" not in editor.children[1]._dom_classes


def test_the_same_size_keeps_the_cells_another_size_replaces_and_closes_them():
    editor = MatrixEditor(np.eye(2))
    cells = editor.cells
    editor.value = [[0.0, 1.0], [1.0, 0.0]]
    assert editor.cells is cells and editor.value == ((0.0, 1.0), (1.0, 0.0))
    old = editor.cells[0][0]
    editor.value = np.full((3, 3), 1 / 3)
    assert len(editor.cells) == 3 and old.comm is None          # the replaced cell is closed
    np.testing.assert_allclose(editor.values(), 1 / 3)


@pytest.mark.parametrize("value, words", [
    ("eye", "m must be a list of rows"), ([[1.0]], "m must be square with 2 to 4 rows"),
    ([[1, 0], [0]], "m must be square"), ([[1, 0], [0, True]], "m entries must be finite numbers, got True"),
    ([[1, 0], [0, float("nan")]], "m entries must be finite numbers"),
])
def test_a_configurations_matrix_is_checked_in_words(value, words):
    with pytest.raises(ConfigurationError, match=words):
        MatrixEditor.check_value("m", value, sizes=(2, 4))
