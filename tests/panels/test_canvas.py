"""The canvas every panel draws on (explorer/panels/_canvas.py): the fast path, its gate, bounded messages."""

from __future__ import annotations

import base64
import io
import logging

import ipympl
import matplotlib
import numpy as np
import pytest
from PIL import Image

from explorer.panels import _canvas
from explorer.panels.figures import make_figure
from explorer.panels._canvas import (
    DEVICE_PIXEL_RATIO_RANGE,
    IPYMPL_GATE,
    MATPLOTLIB_GATE,
    MAX_CSS_PIXELS,
    MAX_FRAME_PIXELS,
    ExplorerCanvas,
    encode_png,
    fast_path_supported,
)

MB = 1 << 20


# --------------------------------------------------------------------------- helpers


def attach_view(canvas) -> None:
    """What a browser view does first: ipympl's "initialized" message (diff PNGs from then on)."""
    canvas._handle_message(canvas, {"type": "initialized"}, [])


def record_binaries(canvas) -> list[bytes]:
    """Every PNG the canvas sends to the browser, in order."""
    sent: list[bytes] = []
    send = canvas.send

    def recording(content, buffers=None):
        if buffers and '"binary"' in str(content.get("data", "")):
            sent.append(bytes(buffers[0]))
        return send(content, buffers)

    canvas.send = recording
    return sent


def decode(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))


def comm_message(canvas, content: dict) -> None:
    """A custom message as it arrives from the websocket: through the widget's comm handler."""
    canvas._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})


def comm_update(canvas, state: dict) -> None:
    """A client's state update (ipywidgets' "update" method) through the widget's comm handler."""
    canvas._handle_msg({"content": {"data": {"method": "update", "state": state, "buffer_paths": []}},
                        "buffers": []})


@pytest.fixture
def tracebacks(monkeypatch) -> list:
    """What ipywidgets would send to the client: it calls the shell's ``showtraceback`` when a
    message handler raises (in a kernel, an iopub ``error`` with the traceback)."""
    import ipywidgets.widgets.widget as widget_module
    shown: list = []

    class Shell:
        def showtraceback(self, *args, **kwargs):
            shown.append(args)

    monkeypatch.setattr(widget_module, "get_ipython", lambda: Shell())
    return shown


def rss_bytes() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def drawn_figure(fast_path: bool | None = None, width: float = 4.0, height: float = 3.0):
    """A figure with a line on an ExplorerCanvas made by make_figure (nothing drawn or sent yet)."""
    figure, canvas = make_figure(width, height)
    if fast_path is not None:
        canvas.fast_path = fast_path and canvas.fast_path
    ax = figure.add_subplot()
    (line,) = ax.plot([0, 1, 2], [0, 1, 0], color="#1f77b4")
    ax.set_title("a title")
    return figure, canvas, line


# --------------------------------------------------------------------------- the gate


def test_fast_path_is_active_on_the_versions_the_project_pins():
    """Fails when matplotlib or ipympl left the gate: check the copied code and raise the bound, or not."""
    mpl = _canvas._version_tuple(matplotlib.__version__)
    widget = _canvas._version_tuple(ipympl.__version__)
    assert MATPLOTLIB_GATE[0] <= mpl < MATPLOTLIB_GATE[1], f"matplotlib {matplotlib.__version__} outside the gate"
    assert IPYMPL_GATE[0] <= widget < IPYMPL_GATE[1], f"ipympl {ipympl.__version__} outside the gate"
    assert fast_path_supported()
    figure, canvas, _ = drawn_figure()
    assert isinstance(canvas, ExplorerCanvas) and canvas.fast_path
    sent = record_binaries(canvas)
    attach_view(canvas)
    canvas.draw()
    assert len(sent) == 1
    # the PNG on the wire is encode_png's (Pillow's bytes differ) of the frame just drawn
    pixels = np.asarray(canvas.get_renderer().buffer_rgba())
    assert sent[0] == encode_png(pixels)


def test_every_panel_figure_gets_the_fast_path():
    from explorer.panels.randomized_response import RandomizedResponsePanel
    panel = RandomizedResponsePanel()
    for figure in (panel.figure, panel.estimate_figure):
        assert isinstance(figure.canvas, ExplorerCanvas) and figure.canvas.fast_path


@pytest.mark.parametrize("module, version", [(matplotlib, "3.12.0"), (matplotlib, "3.7.5"), (matplotlib, "4.0"),
                                             (ipympl, "0.11.0"), (ipympl, "0.9.3"), (ipympl, "not-a-version")])
def test_outside_the_gate_the_plain_ipympl_path_is_used_and_works(monkeypatch, caplog, module, version):
    monkeypatch.setattr(module, "__version__", version)
    monkeypatch.setitem(_canvas._said, "outside the gate", False)
    assert not fast_path_supported()
    with caplog.at_level(logging.WARNING, logger="explorer.panels.canvas"):
        figure, canvas, line = drawn_figure()
    assert not canvas.fast_path
    assert any("outside the versions" in record.getMessage() for record in caplog.records)   # said, not silent
    sent = record_binaries(canvas)
    attach_view(canvas)
    canvas.draw()
    first = np.asarray(canvas.get_renderer().buffer_rgba()).copy()
    line.set_ydata([1, 0, 1])
    canvas.draw()
    second = np.asarray(canvas.get_renderer().buffer_rgba()).copy()
    assert len(sent) == 2
    assert sent[0] != encode_png(first)                      # Pillow's PNG, not the fast encoder's
    np.testing.assert_array_equal(decode(sent[0]), first)    # a full frame
    diff = decode(sent[1])                                   # then the changed pixels over transparent zeros
    changed = diff[:, :, 3] != 0
    assert changed.any() and not changed.all()
    np.testing.assert_array_equal(diff[changed], second[changed])
    # asking for the fast path outside the gate still gives the plain one
    assert not ExplorerCanvas(figure, fast_path=True).fast_path


# --------------------------------------------------------------------------- fast == plain


@pytest.mark.slow
def test_fast_diff_images_decode_to_the_plain_path_pixels():
    """The same sequence of frames on two identical figures: the PNGs sent decode to equal pixels."""
    runs = {}
    for fast in (True, False):
        figure, canvas, line = drawn_figure(fast_path=fast)
        assert canvas.fast_path is fast
        sent = record_binaries(canvas)
        modes = []
        canvas.observe(lambda change: modes.append(change["new"]), names="_image_mode")
        attach_view(canvas)
        canvas.draw()                                           # full frame
        line.set_ydata([2, 0, 2])
        canvas.draw()                                           # diff frame
        line.set_color("#d62728")
        canvas.draw()                                           # another diff frame
        canvas._handle_message(canvas, {"type": "refresh"}, [])  # the browser asks for a full frame
        canvas.draw()
        figure.patch.set_alpha(0.5)                             # transparency forces full frames
        canvas.draw()
        runs[fast] = ([decode(png) for png in sent], modes)
    (fast_frames, fast_modes), (plain_frames, plain_modes) = runs[True], runs[False]
    assert len(fast_frames) == len(plain_frames) == 5
    for a, b in zip(fast_frames, plain_frames):
        np.testing.assert_array_equal(a, b)
    assert fast_modes == plain_modes and "diff" in fast_modes


def test_data_url_before_a_view_attaches_decodes_to_the_plain_path_pixels():
    urls = {}
    for fast in (True, False):
        figure, canvas, line = drawn_figure(fast_path=fast)
        assert canvas.syncing_data_url                          # no browser view yet
        canvas.draw()
        line.set_ydata([2, 0, 2])
        canvas.draw()
        urls[fast] = decode(base64.b64decode(canvas._data_url))
    np.testing.assert_array_equal(urls[True], urls[False])


def test_encode_png_is_lossless_and_refuses_non_rgba():
    rgba = np.random.default_rng(1).integers(0, 256, size=(31, 47, 4), dtype=np.uint8)
    rgba[:, :20] = 0
    np.testing.assert_array_equal(decode(encode_png(rgba)), rgba)
    with pytest.raises(ValueError, match="RGBA"):
        encode_png(np.zeros((4, 4), dtype=np.uint8))


def test_old_encode_png_name_still_works():
    from explorer.plotting import randomized_response as plots
    with pytest.warns(DeprecationWarning, match="moved"):
        assert plots.encode_png is encode_png


# --------------------------------------------------------------------------- forged client messages


def rr_sized_figure():
    """The Randomized response panel's main figure size (10 x 6.6 in: 1000 x 660 px), first frame sent."""
    figure, canvas = make_figure(10.0, 6.6)
    figure.subplots(2, 2)
    attach_view(canvas)
    canvas.draw()
    canvas.draw()
    return figure, canvas


@pytest.mark.slow
def test_forged_resize_of_a_fixed_size_figure_is_ignored_and_costs_no_memory():
    figure, canvas = rr_sized_figure()
    size = canvas.get_width_height()
    before = rss_bytes()
    for _ in range(3):
        comm_message(canvas, {"type": "resize", "width": 10000, "height": 6600})
        comm_message(canvas, {"type": "draw"})
    assert canvas.get_width_height() == size == (1000, 660)
    assert rss_bytes() - before < 50 * MB
    # a client's update of the kernel-owned trait does not lift the refusal
    comm_update(canvas, {"resizable": True})
    assert canvas.resizable is False
    comm_message(canvas, {"type": "resize", "width": 10000, "height": 6600})
    comm_message(canvas, {"type": "draw"})
    assert canvas.get_width_height() == (1000, 660)
    assert rss_bytes() - before < 50 * MB


@pytest.mark.slow
def test_resize_of_a_resizable_figure_is_clamped():
    figure, canvas = rr_sized_figure()
    canvas.resizable = True
    before = rss_bytes()
    comm_message(canvas, {"type": "resize", "width": 10000, "height": 6600})
    comm_message(canvas, {"type": "draw"})
    width, height = canvas.get_width_height(physical=True)
    assert width <= MAX_CSS_PIXELS and height <= MAX_CSS_PIXELS and width * height <= MAX_FRAME_PIXELS
    assert width > 1000                                         # a bounded resize is still honoured
    assert rss_bytes() - before < 50 * MB
    comm_message(canvas, {"type": "resize", "width": 640, "height": 480})
    assert canvas.get_width_height() == (640, 480)


@pytest.mark.parametrize("content", [{"type": "set_device_pixel_ratio", "device_pixel_ratio": 10},
                                     {"type": "set_dpi_ratio", "dpi_ratio": 10},
                                     {"type": "set_device_pixel_ratio", "device_pixel_ratio": 1e9}])
def test_forged_device_pixel_ratio_is_clamped_and_costs_no_memory(content):
    figure, canvas = rr_sized_figure()
    before = rss_bytes()
    comm_message(canvas, content)
    comm_message(canvas, {"type": "draw"})
    low, high = DEVICE_PIXEL_RATIO_RANGE
    assert low <= canvas.device_pixel_ratio <= high
    width, height = canvas.get_width_height(physical=True)
    assert width * height <= MAX_FRAME_PIXELS
    assert canvas.device_pixel_ratio > 2                        # what a real high-density screen asks is kept
    assert rss_bytes() - before < 50 * MB
    comm_message(canvas, {"type": "set_device_pixel_ratio", "device_pixel_ratio": 0.001})
    assert canvas.device_pixel_ratio == low
    comm_message(canvas, {"type": "set_device_pixel_ratio", "device_pixel_ratio": 2})
    assert canvas.device_pixel_ratio == 2


@pytest.mark.parametrize("content", [
    {"type": "set_device_pixel_ratio", "device_pixel_ratio": float("nan")},
    {"type": "set_device_pixel_ratio", "device_pixel_ratio": "10"},
    {"type": "set_dpi_ratio", "dpi_ratio": -3},
    {"type": "resize", "width": float("inf"), "height": 10},
    {"type": "resize", "width": "wide"},
    {"type": 42},
    {"no type": True},
    ["not", "a", "dict"],
    {"type": "button_press"},                                # missing coordinates: a KeyError in matplotlib
])
def test_malformed_messages_are_ignored_without_a_traceback(tracebacks, content):
    figure, canvas = rr_sized_figure()
    canvas.resizable = True
    size, ratio = canvas.get_width_height(physical=True), canvas.device_pixel_ratio
    comm_message(canvas, content)
    assert (canvas.get_width_height(physical=True), canvas.device_pixel_ratio) == (size, ratio)
    assert tracebacks == []
    assert canvas.n_refused >= 1


@pytest.mark.parametrize("state", [{"_rubberband_x": "not a number"}, {"resizable": "yes"}, {"_size": "big"}])
def test_a_state_update_the_traits_refuse_sends_no_traceback(tracebacks, state):
    figure, canvas = rr_sized_figure()
    comm_update(canvas, state)
    assert tracebacks == []
    assert canvas.resizable is False and canvas.get_width_height() == (1000, 660)


def test_an_exception_while_acting_on_a_message_never_leaves_the_handler(monkeypatch, caplog, tracebacks):
    figure, canvas = rr_sized_figure()

    def out_of_memory():
        raise MemoryError("no room for the frame")

    monkeypatch.setattr(canvas, "draw", out_of_memory)
    figure.stale = True                 # the figure changed: the browser's draw request renders it again
    with caplog.at_level(logging.WARNING, logger="explorer.panels.canvas"):
        comm_message(canvas, {"type": "draw"})
    assert tracebacks == []
    assert any("MemoryError" in (record.exc_text or "") or record.exc_info for record in caplog.records
               if record.name == "explorer.panels.canvas")


# --------------------------------------------------------------------------- no render twice for the same frame


def _pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))


def test_a_view_s_draw_requests_render_an_unchanged_figure_once_and_get_the_same_full_frame():
    """A browser view asks for a draw when it starts and again when the kernel tells it the figure's size
    (ipympl's "initialized" message, then the view's "refresh"): the second gets the first render again."""
    figure, canvas = make_figure(6.0, 4.0)
    figure.add_subplot().plot([0, 1, 2], [1, 0, 2])
    sent = record_binaries(canvas)
    for message in ("refresh", "draw"):            # the view starts: a refresh, then the draw it is asked for
        comm_message(canvas, {"type": message})
    attach_view(canvas)                            # the kernel sends the size: the view asks for a frame again
    for message in ("refresh", "draw"):
        comm_message(canvas, {"type": message})
    assert (canvas.n_renders, canvas.n_renders_reused) == (1, 1)
    assert len(sent) == 2
    first, second = (_pixels(png) for png in sent)
    assert second.shape == first.shape == (400, 600, 4)
    assert (second == first).all() and (second[..., 3] == 255).all()     # a full frame, not a diff of zeros


@pytest.mark.parametrize("change", ["artist", "draw_idle", "size", "device pixel ratio"])
def test_a_changed_figure_is_rendered_again_when_the_browser_asks(change):
    figure, canvas = make_figure(6.0, 4.0)
    axes = figure.add_subplot()
    (line,) = axes.plot([0, 1, 2], [1, 0, 2])
    canvas.draw()
    if change == "artist":
        axes.set_title("a new title")
    elif change == "draw_idle":                    # a panel that changed data in place says so with draw_idle
        line.get_ydata()[:] = [2, 0, 1]
        canvas.draw_idle()
    elif change == "size":
        figure.set_size_inches(5.0, 4.0)
        figure.stale = False                       # the renderer's size alone tells
    else:
        comm_message(canvas, {"type": "set_device_pixel_ratio", "device_pixel_ratio": 2})
    comm_message(canvas, {"type": "draw"})
    assert (canvas.n_renders, canvas.n_renders_reused) == (2, 0)
    comm_message(canvas, {"type": "draw"})         # then nothing changed
    assert (canvas.n_renders, canvas.n_renders_reused) == (2, 1)


def test_a_panel_s_own_draw_always_renders(monkeypatch):
    """``canvas.draw()`` called by a panel (a blit's background) is a render even when nothing changed."""
    figure, canvas = make_figure(6.0, 4.0)
    figure.add_subplot().plot([0, 1], [1, 0])
    canvas.draw()
    canvas.draw()
    assert (canvas.n_renders, canvas.n_renders_reused) == (2, 0)
