"""Tests of explorer.plotting.randomized_response: artists returned, updated in place, rebuilt on shape change."""

from __future__ import annotations

import math

import numpy as np
import pytest
from matplotlib.figure import Figure

from explorer.core.deniability import deniability_curve, deniability_entropies, example1_matrix, posterior_matrix
from explorer.core.rr import optimal_matrix
from explorer.plotting._render import encode_png
from explorer.plotting.randomized_response import (
    format_epsilon,
    plot_deniability,
    plot_deniability_curve,
    plot_estimates,
    plot_matrix,
    plot_posterior,
)


def axes():
    return Figure().add_subplot()


def test_no_pyplot_state():
    import explorer.plotting.randomized_response as module
    source = open(module.__file__).read()
    assert "import matplotlib.pyplot" not in source and "from matplotlib import pyplot" not in source


def test_matrix_heatmap_marks_epsilon_column_and_updates_in_place():
    ax = axes()
    art = plot_matrix(ax, example1_matrix(), epsilon=2.0, column=0, labels=["yes", "no"])
    np.testing.assert_allclose(art.image.get_array(), example1_matrix())
    assert art.column_box.get_visible() and art.column_box.get_x() == -0.5
    assert art.texts[1][0].get_text() == "0.10"
    assert "ε = 2 (column 1)" in ax.get_title()
    image = art.image
    art.update(optimal_matrix(2, 1.0), column=1, title="new")
    assert art.image is image
    assert art.column_box.get_x() == 0.5
    assert ax.get_title() == "new"
    art.update(optimal_matrix(4, 1.0), column=None)   # structural change: redrawn with 4 x 4
    assert art.shape == (4, 4) and not art.column_box.get_visible()
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1", "2", "3", "4"]


def test_large_matrix_has_no_cell_texts():
    art = plot_matrix(axes(), optimal_matrix(12, 1.0), epsilon=1.0, column=0)
    assert art.texts == []


def test_posterior_heatmap_blank_for_impossible_reports():
    m = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.5, 0.5, 0.0]])
    art = plot_posterior(axes(), posterior_matrix(m))
    assert np.ma.is_masked(art.image.get_array()[2, 0])
    assert art.texts[2][0].get_text() == ""
    assert art.ax.get_title() == "posterior Pr(X=u | Y=v)"


def test_deniability_bars_and_misinformative_hatching():
    ax = axes()
    m, prior = np.array([[0.9, 0.1], [0.5, 0.5]]), np.array([0.8, 0.2])
    h = deniability_entropies(m, prior)
    art = plot_deniability(ax, h, 0.7219, np.array([False, True]))
    np.testing.assert_allclose(art.heights, h)
    assert art.bars[1].get_hatch() == "//" and art.bars[0].get_hatch() in ("", None)
    assert art.prior_line.get_ydata()[0] == pytest.approx(0.7219)
    assert art.max_line.get_ydata()[0] == pytest.approx(1.0)
    bars = list(art.bars)
    art.update(np.array([0.3, 0.4]), 0.5)
    assert list(art.bars) == bars and art.heights.tolist() == [0.3, 0.4]
    art.update(np.array([0.3, 0.4, 0.5]), 0.5)
    assert len(art.bars) == 3
    assert art.max_line.get_ydata()[0] == pytest.approx(math.log2(3))


def test_curve_marker_and_point():
    eps = np.linspace(0, 10, 11)
    c = deniability_curve(2, None, eps)
    art = plot_deniability_curve(axes(), eps, c.conditional_entropy, c.min_entropy, c.max_guessing,
                                 c.prior_entropy, 2, current=2.0, current_entropy=0.667)
    np.testing.assert_allclose(art.conditional.get_ydata(), c.conditional_entropy)
    assert art.marker.get_xdata()[0] == 2.0
    assert art.point.get_ydata()[0] == 0.667
    line = art.conditional
    art.set_current(math.inf)
    assert not art.marker.get_visible()
    art.update(eps, c.min_entropy, c.min_entropy, c.max_guessing, 1.0, 2, current=3.0)
    assert art.conditional is line and art.marker.get_visible()


def test_estimates_bars_and_error_bars():
    values = {"true": np.array([0.7, 0.3]), "inversion": np.array([0.75, 0.25]), "ibu": np.array([0.72, 0.28])}
    art = plot_estimates(axes(), values, {"inversion": 0.05, "ibu": 0.05}, labels=["a", "b"], title="t")
    np.testing.assert_allclose(art.heights("inversion"), [0.75, 0.25])
    segments = art.errorbars["inversion"][2][0].get_segments()
    np.testing.assert_allclose(segments[0][:, 1], [0.70, 0.80])
    bars = art.bars["true"]
    art.update({**values, "inversion": np.array([-0.1, 1.1])}, {"inversion": math.inf})
    assert art.bars["true"] is bars
    assert not art.errorbars["inversion"][2][0].get_visible()
    assert art.ax.get_ylim()[0] < -0.1


def test_format_epsilon():
    assert format_epsilon(2.0) == "ε = 2"
    assert format_epsilon(math.inf) == "ε = ∞"


def test_encode_png_is_lossless_and_refuses_non_rgba():
    import io

    from PIL import Image
    rng = np.random.default_rng(0)
    rgba = rng.integers(0, 256, size=(37, 53, 4), dtype=np.uint8)
    rgba[:20] = 0                                    # a diff image: mostly transparent zeros
    decoded = Image.open(io.BytesIO(encode_png(rgba)))
    assert decoded.mode == "RGBA" and decoded.size == (53, 37)
    np.testing.assert_array_equal(np.asarray(decoded), rgba)
    with pytest.raises(ValueError, match="RGBA"):
        encode_png(np.zeros((4, 4, 3), dtype=np.uint8))


def test_heatmap_cell_texts_are_cached_bitmaps_on_agg_and_text_in_svg():
    import io

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.text import Text

    from explorer.plotting.randomized_response import CachedText
    figure = Figure(figsize=(3, 3))
    canvas = FigureCanvasAgg(figure)
    art = plot_matrix(figure.add_subplot(), example1_matrix(), epsilon=2.0, column=0)
    assert all(isinstance(text, CachedText) for row in art.texts for text in row)
    canvas.draw()
    first = np.asarray(canvas.buffer_rgba()).copy()
    cached = len(CachedText._bitmaps)
    canvas.draw()                                   # every cell drawn from the cache
    assert len(CachedText._bitmaps) == cached
    np.testing.assert_array_equal(np.asarray(canvas.buffer_rgba()), first)
    # the same picture as plain texts anchored on the nearest whole pixel (at most 1 px of difference)
    for row in art.texts:
        for text in row:
            text.__class__ = Text
    canvas.draw()
    plain = np.asarray(canvas.buffer_rgba()).astype(int)
    assert np.abs(plain - first).max(axis=2).astype(bool).sum() < 0.02 * plain[:, :, 0].size
    for row in art.texts:
        for text in row:
            text.__class__ = CachedText
    svg = io.BytesIO()
    figure.savefig(svg, format="svg")               # vector output keeps the texts as glyphs, not bitmaps
    assert svg.getvalue().decode().count("<image") == 1
