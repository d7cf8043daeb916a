"""Tests of explorer.plotting.multidim_rr: artists drawn and updated in place."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
from matplotlib.figure import Figure

from explorer.plotting.multidim_rr import cluster_order, plot_convergence, plot_dependence, plot_error_curves


def _ax():
    return Figure().add_subplot()


def test_dependence_heatmap_in_cluster_order_with_outlines():
    dep = np.array([[1, .1, .8], [.1, 1, .2], [.8, .2, 1]])
    art = plot_dependence(_ax(), dep, ["a", "b", "c"], [[0, 2], [1]], [3, 4, 5])
    assert art.order == [0, 2, 1]
    np.testing.assert_allclose(art.image.get_array(), dep[np.ix_([0, 2, 1], [0, 2, 1])])
    assert len(art.outlines) == 2 and art.outlines[0].get_width() == 2
    assert art.labels[0].get_text() == "15"
    assert [t.get_text() for t in art.ax.get_xticklabels()] == ["a", "c", "b"]
    # clusters change: outlines rebuilt, image updated in place
    image = art.image
    art.update(dep, ["a", "b", "c"], [[0], [1], [2]], [3, 4, 5])
    assert art.image is image and len(art.outlines) == 3 and art.labels == []
    assert len(art.ax.patches) == 3


def test_error_curves_update_in_place():
    art = plot_error_curves(_ax(), [0.1, 0.2], {"RR-Independent": [0.3, 0.2]},
                            methods=["RR-Independent", "RR-Clusters"])
    assert np.asarray(art.lines["RR-Clusters"].get_xdata()).size == 0
    line = art.lines["RR-Clusters"]
    art.update([0.1, 0.2, 0.3], {"RR-Clusters": [0.1, 0.05, 0.01], "RR-Independent": [0.3, 0.2, 0.1]})
    assert art.lines["RR-Clusters"] is line
    assert line.get_ydata().tolist() == [0.1, 0.05, 0.01]
    assert art.ax.get_ylim()[1] >= 0.3


def test_convergence_trace():
    hist = np.array([[0.125, 1 / 16, 0.125], [0.125, 1 / 24, 0.125]])
    art = plot_convergence(_ax(), hist, ["(a1,a1)", "(a2,a1)", "(a2,a2)"], limits=[0.125, 0, 0.125])
    assert art.lines[1].get_ydata().tolist() == [1 / 16, 1 / 24]
    art.update(np.vstack([hist, [[0.125, 1 / 32, 0.125]]]))
    assert art.lines[1].get_xdata().tolist() == [1, 2, 3]
    assert cluster_order([[2], [0, 1]]) == [2, 0, 1]
