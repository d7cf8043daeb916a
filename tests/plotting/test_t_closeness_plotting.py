"""Plots of explorer.plotting.t_closeness: artists are returned and updated in place."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from matplotlib.figure import Figure

from explorer.plotting.t_closeness import (
    OK_COLOR,
    plot_cluster_deniability,
    plot_cluster_distribution,
    plot_cluster_ratios,
    plot_worst_case,
)


def _ax():
    return Figure().subplots()


def test_ratio_bars_sorted_violators_highlighted_and_infinite_capped():
    ax = _ax()
    artists = plot_cluster_ratios(ax, [1.5, 4.0, math.inf, 2.0], math.e)
    bad_values, bad_edges = artists.violating.get_data()[:2]
    ok_values, ok_edges = artists.ok.get_data()[:2]
    assert len(bad_values) == 2 and bad_values[1] == 4.0          # inf (capped) then 4.0
    assert bad_values[0] > 4.0 and np.isfinite(bad_values[0])
    assert ok_values.tolist() == [2.0, 1.5] and ok_edges.tolist() == [2.0, 3.0, 4.0]
    assert artists.bound.get_ydata()[0] == pytest.approx(math.e)
    assert "2 of 4 clusters above" in artists.note.get_text() and "1 infinite" in artists.note.get_text()
    n_patches = len(ax.patches)
    assert artists.update(np.array([1.0, 1.2]), 1.1, selected=1) == 1   # in place: no new artists
    assert len(ax.patches) == n_patches
    assert artists.selected.get_xdata()[0] == 1.5 and artists.selected.get_visible()


def test_ratio_bars_empty_and_all_within():
    artists = plot_cluster_ratios(_ax(), [], 2.0)
    assert artists.note.get_text().splitlines()[1].startswith("0 of 0")
    assert artists.update(np.ones(5), 2.0) == 0


def test_distribution_bars_and_band_update_in_place():
    ax = _ax()
    artists = plot_cluster_distribution(ax, ["a", "b", "c"], [0.6, 0.3, 0.1], [1 / 3] * 3, 2.0)
    assert [float(b.get_height()) for b in artists.cluster] == pytest.approx([0.6, 0.3, 0.1])
    assert artists.upper.get_ydata() == pytest.approx([2 / 3] * 3)
    assert artists.lower.get_ydata() == pytest.approx([1 / 6] * 3)
    artists.update(np.array([0.2, 0.2, 0.6]), np.array([0.5, 0.25, 0.25]), None, title="x")
    assert float(artists.cluster[2].get_height()) == 0.6 and not artists.upper.get_visible()
    assert ax.get_title() == "x"
    with pytest.raises(ValueError, match="number of categories changed"):
        artists.update(np.ones(2) / 2, np.ones(2) / 2)
    assert artists.cluster[0].get_facecolor() == matplotlib.colors.to_rgba(OK_COLOR)


def test_deniability_steps_and_lines():
    artists = plot_cluster_deniability(_ax(), [1.5, 0.2, 1.0], 1.9, 4)
    values = artists.entropies.get_data()[0]
    assert values.tolist() == [0.2, 1.0, 1.5]
    assert artists.data_entropy.get_ydata()[0] == 1.9 and artists.maximum.get_ydata()[0] == 2.0


def test_worst_case_example_3_text():
    e = math.e
    worst = [0.2 * e] + [(1 - 0.2 * e) / 4] * 4
    artists = plot_worst_case(_ax(), list("abcde"), worst, [0.2] * 5, e, worst[0], 0.2, 1.9, math.log2(5))
    assert "54.4%" in artists.guess.get_text() and "20.0%" in artists.guess.get_text()
    assert float(artists.distribution.cluster[0].get_height()) == pytest.approx(0.2 * e)


def test_ratio_bars_count_is_the_core_count_boundary_included():
    from explorer.core.closeness import cluster_count_over_t

    distances = [1.0, 2.0, 2.0 + 1e-12, math.inf, 3.0]
    count = cluster_count_over_t(distances, 2.0)
    artists = plot_cluster_ratios(_ax(), distances, 2.0)
    assert artists.update(np.asarray(distances), 2.0) == count.n_over == 3       # d = t is within
    assert artists.note.get_text().splitlines()[1].startswith(f"{count.n_over} of {count.n_clusters} clusters")
    assert f"{count.n_infinite} infinite" in artists.note.get_text()
