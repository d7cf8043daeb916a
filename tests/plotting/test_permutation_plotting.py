"""Plots of explorer.plotting.permutation: artists are returned and updated in place."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from matplotlib.figure import Figure

from explorer.core.datasets import domingo_muralidhar_example
from explorer.core.permutation import linkage_verification, permutation_distances, rank_displacement
from explorer.plotting.permutation import (
    plot_distance_distributions,
    plot_rank_displacement,
    plot_subject,
    plot_values,
)


def _ax():
    return Figure().subplots()


@pytest.fixture(scope="module")
def dm():
    t = domingo_muralidhar_example()
    return t[["X1", "X2", "X3"]].to_numpy(), t[["Y1", "Y2", "Y3"]].to_numpy(), t[["Z1", "Z2", "Z3"]].to_numpy()


def test_values_plot_updates_in_place(dm):
    X, Y, Z = dm
    ax = _ax()
    art = plot_values(ax, X[:, 0], Y[:, 0], Z[:, 0], "X1")
    np.testing.assert_array_equal(art.masked.get_offsets(), np.column_stack([X[:, 0], Y[:, 0]]))
    np.testing.assert_array_equal(art.reverse_mapped.get_offsets()[:, 1], Z[:, 0])
    n_collections = len(ax.collections)
    art.update(X[:, 1], Y[:, 1], Z[:, 1], "X2")
    assert len(ax.collections) == n_collections
    np.testing.assert_array_equal(art.reverse_mapped.get_offsets()[:, 1], Z[:, 1])
    assert ax.get_xlim()[0] < X[:, 1].min() and ax.get_xlim()[1] > X[:, 1].max()
    assert "X2" in ax.get_title()


def test_displacement_plot_sorted_with_rho_and_T():
    ax = _ax()
    r2 = rank_displacement([135, 52, 123, 165, 160], [160, 52, 123, 135, 165])
    art = plot_rank_displacement(ax, r2, 0.5, 0.6, "X2")
    assert art.line.get_ydata().tolist() == [-4, 0, 0, 1, 3]
    assert "T = 0.60" in art.label.get_text() and "rho = 0.500" in art.label.get_text()
    n_lines = len(ax.lines)
    art.update(np.arange(100) - 50.0, 0.1, 0.99)
    assert len(ax.lines) == n_lines and len(art.line.get_xdata()) == 100
    assert ax.get_ylim()[1] >= 50


def test_distance_distributions_table6(dm):
    X, Y, _ = dm
    lv = linkage_verification(X, Y, rng=0)
    ax = _ax()
    art = plot_distance_distributions(ax, lv.bins, lv.original_frequency, lv.random_frequency, lv.hellinger,
                                      lv.verdict())
    values = art.original.get_data().values
    np.testing.assert_allclose(values[:6], [0, 0, 0.2, 0.4, 0.2, 0.2])
    assert art.random.get_data().values[0] == pytest.approx(0.0025)
    assert "Hellinger" in art.label.get_text() and "deniable" in ax.get_title()
    n_patches = len(ax.patches)
    art.update(np.arange(0, 3, 0.5), np.full(6, 1 / 6), np.full(6, 1 / 6), 0.0, "same")
    assert len(ax.patches) == n_patches
    assert art.original.get_data().edges.tolist() == [-0.25, 0.25, 0.75, 1.25, 1.75, 2.25, 2.75]


def test_subject_plot_window_and_matches(dm):
    X, Y, _ = dm
    res = permutation_distances(X, Y, rng=0)
    ax = _ax()
    art = plot_subject(ax, res.anonymized_ranks, res.nearest_rank[2], res.matches(2), res.distance[2], (0, 1),
                       ("Y1", "Y2"))
    assert art.target.get_offsets().tolist() == [[8, 2]]
    assert art.window.get_width() == 8 and art.window.get_xy() == (4, -2)
    assert art.matches.get_offsets().tolist() == [[12, 3]]           # record 10's ranks of Y1, Y2
    art.update(res.anonymized_ranks, res.nearest_rank[0], np.array([], dtype=int), 0, (1, 2))
    assert art.matches.get_offsets().shape == (0, 2) and "rank of attribute 2" in ax.get_xlabel()


def test_distance_plot_groups_many_distances_for_display():
    ax = _ax()
    bins = np.arange(1000)
    freq = np.full(1000, 1 / 1000)
    art = plot_distance_distributions(ax, bins, freq, freq, 0.0, max_bars=60)
    values = art.original.get_data().values
    assert len(values) <= 60 and values.sum() == pytest.approx(1.0)
    assert art.original.get_data().edges[-1] == pytest.approx(999.5)
