"""The canvas's fast path: PNG encoders, a slider move through the canvas, and cached cell texts.

    python benchmarks/bench_canvas.py [--quick] [--out benchmarks/results/canvas.txt]

Prints figures and ratios measured in this run (never asserts on time; writes a file
only with ``--out``).  All on the Randomized response panel's main figure (10 x 6.6 in
at 100 dpi: 1000 x 660 px), whose epsilon slider is the app's most frequent redraw:

* the PNG of one frame, three encoders on the same frames: Pillow's default (what
  matplotlib's web backend uses: the baseline), Pillow with ``compress_level=1``, and
  the explorer's :func:`~explorer.panels._canvas.encode_png`; for the diff frames of
  slider moves (epsilon steps of 0.05, as a drag sends) and for full frames; the
  median time, the median size, and that each decodes to the same pixels;
* one slider move end to end (panel update, blit, diff image, PNG, send) on the same
  panel with the canvas's fast path on and off, alternated, with a browser view
  attached and before one attaches (ipympl then also keeps a data URL of the frame);
* drawing the heatmaps' cell values in a blitted move, as cached bitmaps
  (:class:`~explorer.plotting.randomized_response.CachedText`) and as plain Text;
* fitting every figure of the app to a phone's column (246 CSS px) and to a 700 px one
  (:meth:`~explorer.panels._canvas.ExplorerCanvas.fit_width`, what a narrow window costs the kernel), measuring each
  width tried with two layout passes (the explorer's way) and with the layout and Agg draw it used before (the
  baseline), alternated; the widths found must be the same;
* a browser view's start for every figure of the app, as ipympl's front end sends it (a refresh and the draw it
  asks for; the ``initialized`` message, then the refresh and draw that the size the kernel sends brings), with the
  last render sent again when nothing changed (:meth:`~explorer.panels._canvas.ExplorerCanvas.handle_draw`, the
  explorer's way) and with a render for every draw request (matplotlib's, the baseline), alternated; as many frames
  are sent both ways, and the frame sent again has the pixels of the render it repeats.
"""

from __future__ import annotations

import argparse
import io
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from _common import tee_stdout, timed  # noqa: E402  (benchmarks/_common.py)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("MPLBACKEND", "Agg")


def median_ms(function, repeat: int) -> float:
    return 1e3 * timed(function, repeat)[2]


def view_attached(canvas, attached: bool = True) -> None:
    """What ipympl does when a browser view reports "initialized": no more data URL, diff PNGs only."""
    if attached:
        canvas._handle_message(canvas, {"type": "initialized"}, [])
    canvas.syncing_data_url = not attached


def slider_frames(panel, r: int, n_moves: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """The full frame at r categories and the diff images of ``n_moves`` slider steps of 0.05."""
    panel.n_categories.value = r
    panel.epsilon.value = 1.0
    canvas = panel.figure.canvas
    canvas.draw()
    frames = [np.asarray(canvas.get_renderer().buffer_rgba()).copy()]
    for k in range(1, n_moves + 1):
        panel.epsilon.value = 1.0 + 0.05 * k
        frames.append(np.asarray(canvas.get_renderer().buffer_rgba()).copy())
    diffs = []
    for before, after in zip(frames, frames[1:]):
        old, new = before.view(np.uint32).squeeze(2), after.view(np.uint32).squeeze(2)
        diffs.append(np.where(new != old, new, 0).view(np.uint8).reshape(after.shape))
    return frames[-1], diffs


def encoder_benchmark(panel, quick: bool) -> None:
    from PIL import Image

    from explorer.panels._canvas import encode_png

    def pillow(rgba, **options):
        with io.BytesIO() as png:
            Image.fromarray(rgba).save(png, format="png", **options)
            return png.getvalue()

    encoders = [("Pillow default (baseline)", pillow),
                ("Pillow compress_level=1", lambda rgba: pillow(rgba, compress_level=1)),
                ("encode_png (explorer)", encode_png)]
    repeat = 5 if quick else 15
    print("PNG of one frame (median ms; median kB; ratio: baseline time / this time):")
    for r in (3, 12):
        full, diffs = slider_frames(panel, r, 6 if quick else 20)
        changed = statistics.median(float((d[:, :, 3] != 0).mean()) for d in diffs)
        for label, images in (("diff", diffs), ("full", [full])):
            times: list[list[float]] = [[] for _ in encoders]
            for image in images:
                for _ in range(repeat if label == "diff" else 4 * repeat):
                    for k, (_, encode) in enumerate(encoders):       # interleaved: the same load on each
                        times[k].append(median_ms(lambda image=image: encode(image), 1))
            results = []
            for k, (name, encode) in enumerate(encoders):
                sizes = [len(encode(image)) for image in images]
                exact = all(np.array_equal(np.asarray(Image.open(io.BytesIO(encode(image)))), image)
                            for image in images)
                results.append((name, statistics.median(times[k]), statistics.median(sizes) / 1e3, exact))
            base = results[0][1]
            what = (f"diff frames of {len(diffs)} slider moves ({100 * changed:.0f}% of pixels changed, median)"
                    if label == "diff" else "a full frame")
            print(f"  r = {r:2d}, {what}:")
            for name, ms, kb, exact in results:
                print(f"    {name:28s} {ms:6.1f} ms  {kb:6.1f} kB  {base / ms:5.1f}x"
                      f"{'' if exact else '  DECODES DIFFERENTLY'}")


def move_benchmark(panel, quick: bool) -> None:
    from PIL import Image

    from explorer.panels import _canvas

    def pillow_level1(rgba):
        with io.BytesIO() as png:
            Image.fromarray(rgba).save(png, format="png", compress_level=1)
            return png.getvalue()

    canvases = (panel.figure.canvas, panel.estimate_figure.canvas)
    print("one slider move end to end (panel update + blit + diff image + PNG + send; median ms):")
    print("  plain: ipympl's path (Pillow default); level 1: the fast path with Pillow compress_level=1 "
          "instead of encode_png; fast: the fast path")
    n_moves = 10 if quick else 30
    variants = (("plain", False, _canvas.encode_png), ("level 1", True, pillow_level1),
                ("fast", True, _canvas.encode_png))
    encoder = _canvas.encode_png
    try:
        for attached in (True, False):
            for canvas in canvases:
                view_attached(canvas, attached)
            for r in (3, 12):
                panel.n_categories.value = r
                panel.figure.canvas.draw()
                times: dict[str, list[float]] = {name: [] for name, _, _ in variants}
                for k in range(n_moves):
                    for j, (name, fast, encode) in enumerate(variants):   # interleaved: the same load on all
                        for canvas in canvases:
                            canvas.fast_path = fast
                        _canvas.encode_png = encode
                        start = time.perf_counter()
                        panel.epsilon.value = 1.0 + 0.05 * k + 0.01 * (j + 1)
                        times[name].append(time.perf_counter() - start)
                plain, level1, fast = (1e3 * statistics.median(times[name]) for name, _, _ in variants)
                when = "browser view attached" if attached else "before a view attaches (data URL kept too)"
                print(f"  r = {r:2d}, {when:43s}: plain {plain:5.1f} ms, level 1 {level1:5.1f} ms, "
                      f"fast {fast:5.1f} ms; plain / fast {plain / fast:3.1f}x, level 1 / fast {level1 / fast:3.1f}x")
    finally:
        _canvas.encode_png = encoder
        for canvas in canvases:
            view_attached(canvas, True)
            canvas.fast_path = True


def text_benchmark(panel, quick: bool) -> None:
    from matplotlib.text import Text

    from explorer.plotting.randomized_response import CachedText
    print("drawing the moving artists of a blitted move, r = 3 (9 + 9 cell values; median ms):")
    panel.n_categories.value = 3
    canvas = panel.figure.canvas
    canvas.draw()
    texts = [text for artists in (panel.matrix_artists, panel.posterior_artists)
             for row in artists.texts for text in row]
    repeat = 10 if quick else 40
    results = {}
    for cls in (Text, CachedText, Text, CachedText):          # twice each, alternated; the second is kept
        for text in texts:
            text.__class__ = cls
        canvas.restore_region(panel.blitter.background)
        results[cls.__name__] = median_ms(panel.blitter._draw_animated, repeat)
    for text in texts:
        text.__class__ = CachedText
    print(f"  plain Text {results['Text']:.1f} ms, CachedText {results['CachedText']:.1f} ms, "
          f"ratio {results['Text'] / results['CachedText']:.1f}x")


#: The tabs whose panels draw figures.
FIGURE_TABS = ("What does ε mean?", "Randomized response", "t-closeness", "Permutation", "Dominance",
               "Multi-attribute RR")


def build_every_figure() -> list:
    """A new app with every figure tab built; the canvases of every figure this process has built so far."""
    from explorer.app import build_app
    from explorer.panels._resize import figure_sizer

    app = build_app()
    for title in FIGURE_TABS:
        app.panel(title)
    return list(figure_sizer()._canvases.values())


def fit_benchmark(quick: bool) -> None:
    """Fit every figure of the app to narrow columns, measured the explorer's way and the former way."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from explorer.panels import _canvas

    def former_overflow(self) -> float:                  # a layout without rendering, then an Agg draw
        import warnings
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", "constrained_layout not applied", UserWarning)
            self.figure.draw_without_rendering()
            FigureCanvasAgg.draw(self)
        box = self.figure.get_tightbbox(self.get_renderer())
        inches = max(0.0, -box.x0) + max(0.0, box.x1 - self.figure.get_figwidth())
        self._overflow_last = inches * self.figure.dpi / self.device_pixel_ratio
        self._measured_width = self.get_width_height(physical=False)[0]
        return self._overflow_last

    canvases = build_every_figure()
    widths = (246,) if quick else (246, 700)
    explorer_way = _canvas.ExplorerCanvas._overflow
    for canvas in canvases:                # a first fit lays out figures never drawn yet: not what is compared
        canvas.fit_width(widths[0])
        canvas._fit_request = None
        canvas.fit_width(10_000)
    print(f"\n## Fitting all {len(canvases)} figures of the app to a column (fit_width), seconds of one core")
    for width in widths:
        found, seconds = {}, {"two layouts (explorer)": [], "layout + Agg draw (before)": []}
        for _ in range(1 if quick else 2):
            for name, overflow in (("layout + Agg draw (before)", former_overflow),
                                   ("two layouts (explorer)", explorer_way)):
                _canvas.ExplorerCanvas._overflow = overflow
                try:
                    start = time.perf_counter()
                    for canvas in canvases:
                        canvas._fit_request = None
                        canvas._design_overflow = None
                        canvas.fit_width(width)
                    seconds[name].append(time.perf_counter() - start)
                finally:
                    _canvas.ExplorerCanvas._overflow = explorer_way
                found[name] = [canvas.get_width_height(physical=False)[0] for canvas in canvases]
                for canvas in canvases:                    # back to the design width for the next round
                    canvas._fit_request = None
                    canvas.fit_width(10_000)
        gaps = [abs(a - b) for a, b in zip(found["two layouts (explorer)"], found["layout + Agg draw (before)"])]
        before, now = (statistics.median(seconds[k]) for k in ("layout + Agg draw (before)", "two layouts (explorer)"))
        # A constrained layout starts from where the axes are: after the warm-up fit, both ways start alike.
        print(f"column {width} px: before {before:.2f} s, explorer {now:.2f} s, ratio {before / now:.2f}x; "
              f"widths found: {sum(g == 0 for g in gaps)} of {len(gaps)} the same, the largest gap {max(gaps)} px")
        for canvas, gap, a, b in zip(canvases, gaps, found["two layouts (explorer)"], found["layout + Agg draw (before)"]):
            if gap:
                title = canvas.figure.axes[0].get_title() if canvas.figure.axes else ""
                print(f"  not the same: {canvas.design_size[0]} px figure '{title[:50]}': explorer {a} px, before {b} px")


def view_start_benchmark(quick: bool) -> None:
    """Every figure of the app through a view's start, the explorer's way and with a render per draw request."""
    from matplotlib.backends.backend_webagg_core import FigureCanvasWebAggCore
    from PIL import Image

    from explorer.panels import _canvas

    canvases = build_every_figure()
    explorer_way = _canvas.ExplorerCanvas.handle_draw

    def start(canvas) -> list[bytes]:
        sent: list[bytes] = []
        send = canvas.send

        def recording(content, buffers=None):
            if buffers:
                sent.append(bytes(buffers[0]))
            return send(content, buffers)

        canvas.send = recording
        try:
            canvas.figure.stale = True                    # a figure as a panel leaves it: not drawn yet
            canvas.syncing_data_url = True
            for content in ({"type": "refresh"}, {"type": "draw"}, {"type": "initialized"}, {"type": "refresh"},
                            {"type": "draw"}):
                canvas._handle_message(canvas, content, [])
        finally:
            del canvas.send
        return sent

    print(f"\n## A browser view's start for {len(canvases)} figures (every figure this run has built: refresh, draw, initialized, "
          "refresh, draw), seconds of one core")
    seconds: dict[str, list[float]] = {"a render per draw (before)": [], "last render reused (explorer)": []}
    frames: dict[str, list[list[bytes]]] = {}
    for _ in range(1 if quick else 3):
        for name, handle in (("a render per draw (before)", FigureCanvasWebAggCore.handle_draw),
                             ("last render reused (explorer)", explorer_way)):
            _canvas.ExplorerCanvas.handle_draw = handle
            try:
                start_time = time.process_time()
                frames[name] = [start(canvas) for canvas in canvases]
                seconds[name].append(time.process_time() - start_time)
            finally:
                _canvas.ExplorerCanvas.handle_draw = explorer_way
    before, now = (statistics.median(seconds[k]) for k in seconds)

    def pixels(png: bytes) -> np.ndarray:
        return np.asarray(Image.open(io.BytesIO(png)))

    counts = [len(f) for f in frames["a render per draw (before)"]] == [len(f) for f in frames["last render reused (explorer)"]]
    resent = all(np.array_equal(pixels(f[0]), pixels(f[-1])) for f in frames["last render reused (explorer)"])
    moved = sum(not np.array_equal(pixels(f[0]), pixels(f[-1])) for f in frames["a render per draw (before)"])
    print(f"before {before:.2f} s, explorer {now:.2f} s, ratio {before / now:.2f}x; frames sent: "
          f"{sum(map(len, frames['last render reused (explorer)']))}, as many both ways: {counts}; the frame sent again "
          f"has the render's pixels: {resent}; figures whose second render differs from their first (a constrained "
          f"layout still moving): {moved} of {len(canvases)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer frames and moves")
    parser.add_argument("--out", default=None, help="also write what is printed to this file")
    args = parser.parse_args(argv)
    import ipympl
    import matplotlib
    import PIL

    from explorer.panels._canvas import fast_path_supported
    from explorer.panels.randomized_response import RandomizedResponsePanel
    with tee_stdout(args.out):
        print(f"# bench_canvas ({'quick' if args.quick else 'full'}) on {platform.platform()}, "
              f"Python {platform.python_version()}, matplotlib {matplotlib.__version__}, ipympl "
              f"{ipympl.__version__}, Pillow {PIL.__version__}, numpy {np.__version__}, {os.cpu_count()} CPUs, "
              f"load average {os.getloadavg()[0]:.2f} at start")
        print(time.strftime("# %Y-%m-%d %H:%M UTC", time.gmtime()))
        print(f"fast path supported on these versions: {fast_path_supported()}")
        panel = RandomizedResponsePanel()
        for canvas in (panel.figure.canvas, panel.estimate_figure.canvas):
            view_attached(canvas, True)
        encoder_benchmark(panel, args.quick)
        move_benchmark(panel, args.quick)
        text_benchmark(panel, args.quick)
        fit_benchmark(args.quick)
        view_start_benchmark(args.quick)
        print(f"# load average {os.getloadavg()[0]:.2f} at the end (the machine is shared: times are inflated "
              "by load; the ratios are measured side by side)")
    if args.out:
        print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
