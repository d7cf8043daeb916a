"""Plots of explorer.plotting.dominance: artists are returned and updated in place."""

from __future__ import annotations


import matplotlib

matplotlib.use("Agg")

import pytest
from matplotlib.figure import Figure

from explorer.core.dominance import CalibrationPoint, alpha_grid, loss_curve, risk_curve, theta_grid
from explorer.plotting.dominance import plot_calibration, plot_curves

R2 = [3, 0, 0, 1, -4]
R3 = [0, 2, 2, -2, -2]


def test_risk_curves_draw_one_line_per_configuration_and_the_minus_inf_end():
    ax = Figure().subplots()
    grid = alpha_grid(-4, 21, include_minus_inf=True)
    artists = plot_curves(ax, [risk_curve(R2, grid), risk_curve(R3, grid)], ["r2", "r3"])
    assert len(artists.lines) == 2
    x, y = artists.lines[1].get_data()
    assert len(x) == 21 and x[-1] == 1.0 and y[-1] == pytest.approx(1.6)
    # The -inf point is a separate marker left of the axis, at D(-inf) = 1e-8.
    assert artists.limits[0].get_visible()
    assert artists.limits[0].get_ydata()[0] == pytest.approx(1e-8)
    assert artists.limits[0].get_xdata()[0] < -4
    assert ax.get_yscale() == "log"
    assert "-∞" in [t.get_text() for t in ax.get_xticklabels()]


def test_update_moves_data_in_place_and_marks_crossings():
    ax = Figure().subplots()
    grid = alpha_grid(-4, 21)
    artists = plot_curves(ax, [risk_curve(R2, grid), risk_curve(R3, grid)], ["a", "b"])
    line = artists.lines[0]
    artists.update([risk_curve(R3, grid), risk_curve(R2, grid)], crossings=[-1.0], title="swapped")
    assert artists.lines[0] is line
    assert line.get_ydata()[-1] == pytest.approx(1.6)
    assert artists.crossings.get_xdata() == [-1.0]
    assert ax.get_title() == "swapped"
    with pytest.raises(ValueError, match="plot again"):
        artists.update([risk_curve(R2, grid)])


def test_loss_curves_linear_scale_and_inf_marker():
    ax = Figure().subplots()
    grid = theta_grid(6, 11, include_inf=True)
    artists = plot_curves(ax, [loss_curve(R2, R3, grid)], ["pair"])
    assert ax.get_yscale() == "linear"
    assert artists.limits[0].get_ydata()[0] == 3.0                 # I(inf) = 3
    assert artists.limits[0].get_xdata()[0] > 6
    assert ax.get_ylim()[0] == 0 and ax.get_ylim()[1] >= 3.0


def test_calibration_points_path_target_and_best():
    ax = Figure().subplots()
    points = [CalibrationPoint("noise", 2.0, 1.0, 0.5), CalibrationPoint("swap", 3.0, 0.8, 0.1)]
    path = [CalibrationPoint("noise", 0.5, 0.2, 0.1), CalibrationPoint("noise", 2.0, 1.0, 0.5)]
    artists = plot_calibration(ax, points, path, target=1.5, best=points[1])
    assert artists.points.get_offsets().tolist() == [[2.0, 1.0], [3.0, 0.8]]
    assert list(artists.path.get_xdata()) == [0.5, 2.0]
    assert [t.get_text() for t in artists.path_labels] == ["0.1", "0.5"]
    assert artists.target.get_xdata() == [1.5, 1.5] and artists.target.get_visible()
    assert list(artists.best.get_xdata()) == [3.0]
    artists.update(points[:1], target=None, best=None)
    assert artists.points.get_offsets().tolist() == [[2.0, 1.0]]
    assert not artists.target.get_visible()
    assert len(artists.best.get_xdata()) == 0
    assert len(artists.point_labels) == 1          # named when there is no path
    artists.update(points, path)
    assert artists.point_labels == [] and len(artists.path_labels) == 2
