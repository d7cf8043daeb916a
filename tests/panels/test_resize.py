"""Figures follow the width of their container (explorer/panels/_resize.py): bounded, debounced, legible."""

from __future__ import annotations

import asyncio
import io

import pytest
from matplotlib.figure import Figure
from matplotlib.layout_engine import ConstrainedLayoutEngine
from matplotlib.text import Text
from PIL import Image

from explorer.app import build_app
from explorer.panels import _resize
from explorer.panels.figures import make_figure
from explorer.panels._canvas import FIT_TOLERANCE, MIN_FIT_PIXELS, MIN_FIT_SHARE
from explorer.panels._resize import DEBOUNCE_SECONDS, FigureSizer, figure_sizer
from tests.plotting import test_legibility
from tests.plotting.test_legibility import MIN_POINTS


@pytest.fixture(autouse=True)
def no_running_loop(request):
    """Reports apply at once, as in a script (``debounce_at_once``).  The debounce test runs its own loop in a
    thread of its own."""
    if not request.node.name.startswith("test_reports_are_debounced"):
        request.getfixturevalue("debounce_at_once")


def _width(canvas) -> int:
    return canvas.get_width_height(physical=False)[0]


def _client_update(widget, state: dict) -> None:
    """A state update as it arrives from the websocket: through the widget's comm handler."""
    widget._handle_msg({"content": {"data": {"method": "update", "state": state, "buffer_paths": []}},
                        "buffers": []})


def test_a_figure_is_laid_out_to_shrink_to_its_column_and_is_observed():
    figure, canvas = make_figure(6.0, 3.0)
    assert canvas.design_size == (600, 300)
    assert canvas.layout.width == "600px" and canvas.layout.max_width == "100%" and canvas.layout.min_width == "0"
    assert "explorer-fit" in canvas._dom_classes and f"explorer-fit-{canvas.fit_id}" in canvas._dom_classes
    sizer = figure_sizer()
    assert canvas.fit_id in sizer.targets
    assert canvas.min_fit_width == max(MIN_FIT_PIXELS, round(MIN_FIT_SHARE * 600))


def test_a_reported_width_rerenders_the_figure_narrower_with_the_same_height_and_fonts():
    figure, canvas = make_figure(10.0, 3.0)
    figure.add_subplot().set_title("a title", fontsize=10)
    _client_update(figure_sizer(), {"widths": {canvas.fit_id: 700}})
    assert canvas.get_width_height(physical=False) == (700, 300)
    assert figure.axes[0].title.get_fontsize() == 10
    _client_update(figure_sizer(), {"widths": {canvas.fit_id: 1400}})     # room again: back to the design
    assert canvas.get_width_height(physical=False) == (1000, 300)


@pytest.mark.parametrize("forged", [10**9, -5, 0, float("nan"), float("inf"), "800", None, True, [800], {"w": 1}])
def test_a_forged_width_stays_within_the_figure_range(forged):
    figure, canvas = make_figure(8.0, 4.0)
    sizer = figure_sizer()
    before = sizer.n_refused
    _client_update(sizer, {"widths": {canvas.fit_id: forged}})
    width, height = canvas.get_width_height(physical=False)
    assert canvas.min_fit_width <= width <= 800 and height == 400
    assert sizer.n_refused == before + 1
    assert canvas.resizable is False                 # the client's own resize path stays refused
    canvas._handle_message(canvas, {"type": "resize", "width": 5000, "height": 5000}, [])
    assert canvas.get_width_height(physical=False)[1] == 400


def test_the_client_cannot_choose_what_is_observed_nor_break_the_kernel():
    figure, canvas = make_figure(6.0, 3.0)
    sizer = figure_sizer()
    targets = list(sizer.targets)
    _client_update(sizer, {"targets": ["x" * 50] * 1000})
    assert sizer.targets == targets
    _client_update(sizer, {"widths": "not a dict"})               # refused by the trait, logged, not raised
    many = {f"forged{i}": 400 for i in range(100_000)}
    many[canvas.fit_id] = 450
    _client_update(sizer, {"widths": many})                        # only this kernel's figures are read
    assert _width(canvas) == 450


def test_reports_are_debounced_in_the_kernel(monkeypatch):
    figure, canvas = make_figure(9.0, 3.0)
    sizer = FigureSizer()
    sizer.register(canvas)
    resizes = []
    original = canvas.fit_width
    monkeypatch.setattr(canvas, "fit_width", lambda width: resizes.append(width) or original(width))

    async def burst():
        for width in (880, 860, 700, 650):          # a window dragged narrower: four reports
            sizer.widths = {canvas.fit_id: width}
            await asyncio.sleep(DEBOUNCE_SECONDS / 10)
        assert resizes == []                         # nothing yet: still moving
        await asyncio.sleep(DEBOUNCE_SECONDS * 3)

    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:   # a thread with no loop of its own yet
        pool.submit(asyncio.run, burst()).result()
    assert resizes == [650] and _width(canvas) == 650
    sizer.close()


def test_the_fast_path_sends_frames_at_the_new_size():
    figure, canvas = make_figure(8.0, 3.0)
    assert canvas.fast_path
    figure.add_subplot().plot([0, 1], [0, 1])
    canvas._handle_message(canvas, {"type": "initialized"}, [])
    canvas.fit_width(500)
    canvas.draw()
    canvas._png_is_old = True
    png = canvas.get_diff_image()
    assert Image.open(io.BytesIO(png)).size == (500, 300)


def test_a_closed_sizer_is_made_again():
    sizer = figure_sizer()
    sizer.close()
    again = figure_sizer()
    assert again is not sizer and again.comm is not None


# --------------------------------------------------------------------------- legible when narrower


def _overflow_px(figure: Figure) -> float:
    """How far (px) the drawn figure reaches past its left and right edges.

    Laid out as the canvas draws it (layout, ticks, text, the draw handlers of a panel), without rendering:
    neither ipympl's PNG frame for a browser that is not there nor Agg's pixels are measured here (the same
    extents, in about two thirds of the time of Agg's ``draw``).
    """
    figure.draw_without_rendering()
    box = figure.get_tightbbox(figure.canvas.get_renderer())
    return (max(0.0, -box.x0) + max(0.0, box.x1 - figure.get_figwidth())) * figure.dpi


@pytest.fixture(scope="module")
def narrow_figures() -> list[tuple[str, Figure, float, int]]:
    """Every figure of every panel, asked to fit a column 60% of its design width.

    Each item: name, figure, how far it reached past its edges at the design width, its width now.
    """
    out = []
    for name, figure in test_legibility.panel_figures():
        design_overflow = _overflow_px(figure)
        figure.canvas.fit_width(0.6 * figure.canvas.design_size[0])
        out.append((name, figure, design_overflow, _width(figure.canvas)))
    return out


@pytest.mark.slow
def test_a_narrower_figure_keeps_its_text_inside_and_at_least_9_points(narrow_figures):
    small, outside = [], []
    for name, figure, design_overflow, width in narrow_figures:
        assert figure.canvas.min_fit_width <= width <= figure.canvas.design_size[0], name
        overflow = _overflow_px(figure)
        if overflow > design_overflow + FIT_TOLERANCE + 0.5:
            outside.append((name, width, round(overflow, 1)))
        small += [(name, t.get_text()[:30]) for t in figure.findobj(Text)
                  if t.get_visible() and t.get_text().strip() and t.get_fontsize() < MIN_POINTS]
    assert not small, small[:5]
    assert not outside, f"text cut at the figure's edge: {outside}"
    # The mechanism does something: some figures did get narrower (the others are as narrow as their text allows).
    assert any(width < figure.canvas.design_size[0] for _, figure, _, width in narrow_figures)


@pytest.mark.slow
def test_a_narrower_figure_has_no_legend_over_the_data(narrow_figures):
    test_legibility.test_no_legend_covers_the_data([(name, figure) for name, figure, _, _ in narrow_figures])


def test_the_sizer_is_shown_by_the_app_and_the_lessons():
    from explorer.panels.lesson import lesson_widget
    app = build_app()
    assert figure_sizer() in app.widget.children
    assert figure_sizer() in lesson_widget("deniability").children
    assert "ResizeObserver" in _resize.SIZER_ESM and "http" not in _resize.SIZER_ESM   # no CDN
    assert _resize.anywidget is not None, "anywidget (a dependency in pyproject.toml) is not installed"
    assert isinstance(figure_sizer(), _resize.anywidget.AnyWidget)


@pytest.mark.slow
def test_a_layout_a_panel_switched_off_is_run_again_for_the_new_width_then_left_off():
    from explorer.panels.randomized_response import RandomizedResponsePanel

    panel = RandomizedResponsePanel()
    figure, canvas = panel.figure, panel.canvas
    canvas.draw()                                        # the panel's first draw: its layout is then switched off
    assert not isinstance(figure.get_layout_engine(), ConstrainedLayoutEngine)
    before = [ax.get_position().bounds for ax in figure.axes]
    canvas.fit_width(0.85 * canvas.design_size[0])
    assert _width(canvas) < canvas.design_size[0]
    assert not isinstance(figure.get_layout_engine(), ConstrainedLayoutEngine)     # left as the panel wants it
    assert [ax.get_position().bounds for ax in figure.axes] != before               # the axes were placed anew
    # the panel's blitting keeps a background of the narrower frame
    canvas.draw()
    assert panel.blitter.background.get_extents()[2] == canvas.get_width_height(physical=True)[0]


def test_the_browser_is_told_only_the_width_found_and_what_it_was_fitted_for(monkeypatch):
    """The widths fit_width tries are laid out in the kernel alone: one resize message reaches the browser, at
    the width found; the class explorer-fitted-<box>-<width> says which box width it answers (browser tests
    wait for it, tests/e2e/figures.py)."""
    figure, canvas = make_figure(6.0, 3.0)
    axes = figure.add_subplot()
    axes.set_ylabel("a long label on the y axis, so that a narrow width cuts it")
    axes.set_yticks([0, 1], ["a long tick label", "another long tick label"])
    sent = []
    monkeypatch.setattr(canvas.manager, "_send_event", lambda kind, **kw: sent.append((kind, kw.get("size"))))
    canvas.fit_width(200)                                 # under the smallest width: clamped, then widened
    resizes = [size for kind, size in sent if kind == "resize"]
    assert len(resizes) == 1 and round(resizes[0][0]) == _width(canvas)
    assert f"explorer-fitted-200-{_width(canvas)}" in canvas._dom_classes
    canvas.fit_width(210)                                 # the same width found: the class follows the box only
    assert [c for c in canvas._dom_classes if c.startswith("explorer-fitted-")] == [
        f"explorer-fitted-210-{_width(canvas)}"]
    assert len([kind for kind, _ in sent if kind == "resize"]) == 1


def test_a_figure_at_its_design_width_in_a_wide_column_is_neither_measured_nor_rendered_again(monkeypatch):
    """Every figure of a wide window is told a column at least as wide as its design: nothing to do, so no
    resize reaches the browser (it would ask for a new frame) and the figure is not laid out again."""
    figure, canvas = make_figure(6.0, 3.0)
    axes = figure.add_subplot()
    axes.set_ylabel("a long label on the y axis, so that a narrow width cuts it")
    canvas.draw()
    sent = []
    monkeypatch.setattr(canvas.manager, "_send_event", lambda kind, **kw: sent.append((kind, kw.get("size"))))
    layouts = []
    overflow = canvas._overflow
    monkeypatch.setattr(canvas, "_overflow", lambda: layouts.append(1) or overflow())
    assert canvas.fit_width(1400) is False                # clamped to the design width: said so
    assert sent == [] and layouts == [] and not figure.stale
    assert "explorer-fitted-1400-600" in canvas._dom_classes
    canvas.fit_width(400)                                 # narrower: laid out, and the browser is told once
    resizes = [size for kind, size in sent if kind == "resize"]
    assert len(resizes) == 1 and layouts
    canvas.fit_width(1400)                                # wide again: back to the design width, told once
    resizes = [size for kind, size in sent if kind == "resize"]
    assert len(resizes) == 2 and round(resizes[-1][0]) == 600
    assert _width(canvas) == 600
