"""Benchmark of the dominance measures (explorer.core.dominance) and the Dominance panel.

    python benchmarks/bench_dominance.py [--quick] [--out PATH]

1. A risk curve D_j(alpha), 200 alphas in [-10, 1], on 10^7 integer rank displacements:
   a. the friendly case (few distinct |r|: uniform on [-5000, 5000]) against the direct vectorized formula
      ``mean(|r| ** alpha) ** (1 / alpha)`` over all n values, alpha by alpha;
   b. the displacements of a random permutation (about 0.57 n distinct |r|): time and peak memory
      (tracemalloc) of the chunked computation, against the one-block computation (an alphas x distinct
      values array, the previous method) at n = 10^6 in the same run.
2. The Dominance panel with 4 configurations on Adult's 6 numeric attributes (all 32,561 records),
   aggregated views.  A move of beta, pi, alpha_1 or theta_2 is timed *with the drawing it triggers*:
   the callback (which blits the figures whose data changed) plus the full draws it requests, served as
   ipympl serves them (``canvas.draw()``: render, diff image, PNG), per figure.  Baseline in the same run:
   the same moves followed by a full draw of all three figures (what a ``draw_idle`` on each figure cost
   before).

Prints figures and ratios; never asserts on time.  ``--quick``: 10^6 displacements, fewer moves.
Nothing is written unless ``--out PATH`` is given (the committed results are
``benchmarks/results/dominance.txt``).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
import tracemalloc
from contextlib import contextmanager
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("MPLBACKEND", "Agg")

from benchmarks._common import tee_stdout, timed  # noqa: E402
from explorer.core.dominance import means as power_means_module  # noqa: E402
from explorer.core.dominance import alpha_grid, risk_curve  # noqa: E402


def load() -> str:
    return "load average %.1f" % os.getloadavg()[0]


def direct_curve(r: np.ndarray, alphas: np.ndarray, zero: float = 1e-8) -> np.ndarray:
    """The textbook formula over all n values, one alpha at a time (vectorized over n)."""
    x = np.abs(r).astype(float)
    x[x == 0] = zero
    logs = None
    out = np.empty(alphas.size)
    for i, a in enumerate(alphas):
        if a == 0:
            if logs is None:
                logs = np.log(x)
            out[i] = np.exp(logs.mean())
        else:
            out[i] = np.mean(x ** a) ** (1.0 / a)
    return out


def traced(function):
    """``(result, seconds, CPU seconds, peak MB)`` of one call, peak memory measured by tracemalloc.

    On a shared machine the wall-clock time includes waiting for a core; the CPU time of this process
    does not (the computation is single-threaded: no BLAS).
    """
    tracemalloc.start()
    try:
        start, cpu = time.perf_counter(), time.process_time()
        result = function()
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return result, seconds, cpu, peak / 2 ** 20


def bench_friendly(n: int) -> None:
    rng = np.random.default_rng(0)
    r = rng.integers(-5000, 5001, size=n)          # e.g. rank swapping within 5000 ranks
    alphas = alpha_grid(-10, 200)
    fast, fast_time, _ = timed(lambda: risk_curve(r, alphas).values, repeat=3)
    direct, direct_time, _ = timed(lambda: direct_curve(r, alphas))
    difference = float(np.max(np.abs(fast - direct) / np.abs(direct)))
    print(f"risk curve, {alphas.size} alphas in [-10, 1], n = {n:,} integer displacements, friendly case "
          f"({np.unique(np.abs(r)).size:,} distinct |r|); {load()}")
    print(f"  bincount + weighted power means: {fast_time:.3f} s (best of 3)")
    print(f"  direct vectorized formula over all n: {direct_time:.3f} s; ratio {direct_time / fast_time:.0f}x; "
          f"largest relative difference {difference:.1e}")


def bench_permutation(n: int, baseline_n: int | None) -> None:
    alphas = alpha_grid(-10, 200)
    r = np.random.default_rng(1).permutation(n) - np.arange(n)
    curve, seconds, cpu, peak = traced(lambda: risk_curve(r, alphas).values)
    distinct = np.count_nonzero(np.bincount(np.abs(r)))
    print(f"risk curve, {alphas.size} alphas, displacements of a random permutation, n = {n:,} "
          f"({distinct:,} distinct |r|); {load()}")
    print(f"  chunked: {seconds:.2f} s wall-clock, {cpu:.2f} s CPU; peak memory {peak:.0f} MB "
          f"(the input itself: {r.nbytes / 2 ** 20:.0f} MB)")
    check = [0, 100, 199]
    x = np.where(r == 0, 1e-8, np.abs(r)).astype(float)
    worst = max(abs(curve[k] / direct_curve(x, alphas[k:k + 1])[0] - 1) for k in check)
    print(f"  largest relative difference from the direct formula at alpha = -10, -4.47, 1: {worst:.1e}")
    if baseline_n is None:
        return
    small = np.random.default_rng(1).permutation(baseline_n) - np.arange(baseline_n)
    chunked, chunked_time, _, chunked_peak = traced(lambda: risk_curve(small, alphas).values)
    saved = power_means_module._BLOCK
    power_means_module._BLOCK = 1 << 62              # everything in one block: the previous method
    try:
        whole, whole_time, _, whole_peak = traced(lambda: risk_curve(small, alphas).values)
    finally:
        power_means_module._BLOCK = saved
    print(f"  n = {baseline_n:,}: chunked {chunked_time:.2f} s, peak {chunked_peak:.0f} MB; one block (the previous "
          f"method) {whole_time:.2f} s, peak {whole_peak:.0f} MB; memory ratio {whole_peak / chunked_peak:.0f}x, "
          f"time ratio {whole_time / chunked_time:.1f}x; "
          f"largest relative difference {np.max(np.abs(chunked / whole - 1)):.1e}; {load()}")


class DrawServer:
    """Plays the browser's part for ipympl canvases: a ``draw_idle`` asks for a draw, served as ipympl does.

    ipympl's ``draw_idle`` sends a "draw" request to the page, which answers with "draw": the canvas then
    renders the figure, computes the diff image and encodes it (``canvas.draw()``).  A blit produces its
    diff image at once, inside the callback.
    """

    def __init__(self, figures: dict[str, object]) -> None:
        self.figures = figures
        self.pending: set[str] = set()
        for name, figure in figures.items():
            canvas = figure.canvas
            canvas.draw_idle = (lambda name=name: self.pending.add(name))
            canvas.syncing_data_url = False         # a page is attached: ipympl sends diffs only

    def serve(self) -> dict[str, float]:
        """Serve the pending draws: seconds per figure."""
        times = {}
        for name in sorted(self.pending):
            start = time.perf_counter()
            self.figures[name].canvas.draw()
            times[name] = time.perf_counter() - start
        self.pending.clear()
        return times

    def draw_all(self) -> dict[str, float]:
        self.pending = set(self.figures)
        return self.serve()


@contextmanager
def full_redraws(redraws: dict):
    """The previous behaviour: every figure updated and redrawn in full (``draw_idle``) on every move."""
    for redraw in redraws.values():
        redraw.unchanged = lambda key: False
        redraw.show = (lambda key, moving, static, redraw=redraw: redraw.figure.canvas.draw_idle())
    try:
        yield
    finally:
        for redraw in redraws.values():
            del redraw.unchanged, redraw.show


def bench_panel(repeats: int) -> None:
    from explorer.core.datasets import adult
    from explorer.state import AppState
    from explorer.panels.dominance import ALL, DominancePanel

    state = AppState()
    state.dataset = adult()
    state.dataset_name = "UCI Adult"
    DominancePanel.needs_compute = lambda self, units: False  # compute at once (the app waits for Compute)
    start = time.perf_counter()
    panel = DominancePanel(state=state, max_records=0)
    build = time.perf_counter() - start
    figures = {"risk": panel.risk_figure, "loss": panel.loss_figure, "calibration": panel.calibration_figure}
    server = DrawServer(figures)
    panel.n_configs.value = 4
    panel.risk_view.value = ALL
    panel.loss_view.value = ALL
    assert not panel.status.is_error, panel.status.message
    initial = server.serve()                        # the page shows the figures once
    moves = [(panel.beta, [0.5, -1.0, 0.0, 1.0]), (panel.pi, [2.0, 5.0, 1.0]), (panel.alpha1, [-0.5, 0.5, 0.0]),
             (panel.theta2, [3.0, 5.0, 2.0])]
    names = {id(panel.beta): "beta", id(panel.pi): "pi", id(panel.alpha1): "alpha_1", id(panel.theta2): "theta_2"}
    totals, callbacks, served, cpus = {}, {}, {}, {}
    baseline_totals, baseline_cpus = {}, {}
    redraws = {"risk": panel.risk_redraw, "loss": panel.loss_redraw, "calibration": panel.calibration_redraw}
    counts = {k: [0, 0, 0] for k in redraws}
    for rep in range(repeats):
        for control, values in moves:
            name = names[id(control)]
            for value in values:
                if control in (panel.alpha1, panel.theta2):
                    value = value + 0.05 * (rep + 1)
                previous = control.value
                before = {k: (r.n_blits, r.n_full, r.n_skipped) for k, r in redraws.items()}
                start, cpu = time.perf_counter(), time.process_time()
                control.value = value                 # the callback, blits included
                callback = time.perf_counter() - start
                draws = server.serve()                # the full draws it asked for
                total = time.perf_counter() - start
                cpus.setdefault(name, []).append(time.process_time() - cpu)
                for k, r in redraws.items():
                    for i, count in enumerate((r.n_blits, r.n_full, r.n_skipped)):
                        counts[k][i] += count - before[k][i]
                totals.setdefault(name, []).append(total)
                callbacks.setdefault(name, []).append(callback)
                for figure, seconds in draws.items():
                    served.setdefault(figure, []).append(seconds)
                # Baseline: the same move redrawing the three figures in full (a draw_idle on each, as before).
                control.value = previous
                server.serve()
                with full_redraws(redraws):
                    start, cpu = time.perf_counter(), time.process_time()
                    control.value = value
                    server.serve()
                    baseline_totals.setdefault(name, []).append(time.perf_counter() - start)
                    baseline_cpus.setdefault(name, []).append(time.process_time() - cpu)
    assert not panel.status.is_error, panel.status.message
    all_moves = [t for v in totals.values() for t in v]
    all_base = [t for v in baseline_totals.values() for t in v]
    all_cpu = [t for v in cpus.values() for t in v]
    all_base_cpu = [t for v in baseline_cpus.values() for t in v]
    print(f"Dominance panel, 4 configurations, Adult {panel._X.shape[0]:,} records x {len(panel._columns)} numeric "
          f"attributes, aggregated views D(alpha, beta) and I(theta, pi); {load()}")
    print(f"  panel built: {build:.2f} s; first full draw of the three figures: "
          + ", ".join(f"{k} {1000 * v:.0f} ms" for k, v in sorted(initial.items())))
    print("  one move, callback + the drawing it triggers (blits in the callback, full draws served as "
          "ipympl serves them), median [max] over the moves:")
    for name in ("beta", "pi", "alpha_1", "theta_2"):
        print(f"    {name:8s} ({len(totals[name])} moves): {1000 * statistics.median(totals[name]):.0f} ms "
              f"[{1000 * max(totals[name]):.0f} ms]; callback alone {1000 * statistics.median(callbacks[name]):.0f} ms;"
              f" baseline (full draw of all three figures) {1000 * statistics.median(baseline_totals[name]):.0f} ms")
    print(f"  all moves: median {1000 * statistics.median(all_moves):.0f} ms, max {1000 * max(all_moves):.0f} ms; "
          f"baseline median {1000 * statistics.median(all_base):.0f} ms; ratio "
          f"{statistics.median(all_base) / statistics.median(all_moves):.1f}x")
    print(f"  CPU time of this process per move (no waiting for a core): median "
          f"{1000 * statistics.median(all_cpu):.0f} ms, max {1000 * max(all_cpu):.0f} ms; baseline median "
          f"{1000 * statistics.median(all_base_cpu):.0f} ms; ratio "
          f"{statistics.median(all_base_cpu) / statistics.median(all_cpu):.1f}x")
    for name in ("beta", "pi", "alpha_1", "theta_2"):
        print(f"    {name:8s} CPU median {1000 * statistics.median(cpus[name]):.0f} ms "
              f"[{1000 * max(cpus[name]):.0f} ms]; baseline {1000 * statistics.median(baseline_cpus[name]):.0f} ms")
    text = ", ".join(f"{k}: {c[0]} blits, {c[1]} full draws, {c[2]} untouched" for k, c in counts.items())
    print(f"  per figure over the measured moves: {text}")
    if served:
        print("  full draws served during the moves: " + ", ".join(
            f"{k} {len(v)} x median {1000 * statistics.median(v):.0f} ms" for k, v in sorted(served.items())))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10^6 displacements, fewer panel moves")
    parser.add_argument("--out", help="also write the results to this file")
    args = parser.parse_args(argv)
    with tee_stdout(args.out):
        print(f"bench_dominance ({'quick' if args.quick else 'full'}) on {platform.machine()}, "
              f"{os.cpu_count()} cores, Python {platform.python_version()}, numpy {np.__version__}; {load()}")
        n = 10 ** 6 if args.quick else 10 ** 7
        bench_friendly(n)
        bench_permutation(n, None if args.quick else 10 ** 6)
        bench_panel(1 if args.quick else 3)
    if args.out:
        print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
