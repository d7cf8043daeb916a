"""Randomized response figures: explorer vs multi-freq-ldpy's GRR, and the panel's update cost.

    python benchmarks/bench_randomized_response.py [--quick] [--no-panel] [--out PATH]

Prints figures and ratios measured in this run (never asserts on time); writes them to PATH
only when ``--out`` is given (the committed figures are benchmarks/results/randomized_response.txt):

* on the same true data (n = 1,000,000 respondents, r = 16 categories, epsilon = 1; n = 100,000
  with --quick): ``randomize`` + ``estimate_frequencies`` (inversion and IBU) against
  multi-freq-ldpy's ``GRR_Client`` (one call per respondent, as the library is meant to be
  used) + ``GRR_Aggregator_MI`` + ``GRR_Aggregator_IBU``; the peer's first (JIT-compiling)
  call is timed apart from the warm calls; the estimates' errors against the truth;
* the iterative Bayesian update from the uniform start (no warm start), end to end from the
  reports (counting them, then iterating, tol 1e-12), on all categories present and on some
  categories empty (the maximum on the boundary, the inversion negative): the explorer's
  SQUAREM-accelerated update, its plain update, and multi-freq-ldpy's ``GRR_Aggregator_IBU``
  with a cap of 10^7 iterations (its default 10,000 stops short), with iterations and the L1
  distance between the fixed points reached;
* the Randomized response panel's update as epsilon moves, r = 2..12: the core computation,
  the blitted redraw (moving artists + the PNG ipympl sends), and a full figure redraw.  The
  canvases are told a browser view is attached (ipympl's "initialized" message, as in the app):
  before that, ipympl also re-encodes the whole image as a data URL on every update, which a
  last line measures apart.
"""

from __future__ import annotations

import argparse
import math
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

from explorer.core import deniability as den  # noqa: E402
from explorer.core import rr  # noqa: E402

R, EPSILON = 16, 1.0




def peer_benchmark(codes: np.ndarray, truth: np.ndarray, ours: dict) -> None:
    try:
        from multi_freq_ldpy.pure_frequency_oracles.GRR import GRR_Aggregator_IBU, GRR_Aggregator_MI, GRR_Client
    except Exception as error:  # the peer is optional
        print(f"multi-freq-ldpy not importable ({type(error).__name__}: {error}); peer figures skipped")
        return
    import multi_freq_ldpy
    print(f"peer: multi-freq-ldpy {getattr(multi_freq_ldpy, '__version__', '0.2.x')} (numba-jitted GRR client "
          "called once per respondent; aggregators count reports in a Python loop)")
    values = codes.tolist()
    np.random.seed(0)
    _, cold_client, _ = timed(lambda: GRR_Client(values[0], R, EPSILON))
    reports_peer, t_client, _ = timed(lambda: np.array([GRR_Client(x, R, EPSILON) for x in values]), 2)
    _, cold_mi, _ = timed(lambda: GRR_Aggregator_MI(reports_peer[:10], R, EPSILON))
    est_mi, t_mi, _ = timed(lambda: GRR_Aggregator_MI(reports_peer, R, EPSILON), 3)
    _, cold_ibu, _ = timed(lambda: GRR_Aggregator_IBU(reports_peer[:10], R, EPSILON))
    est_ibu, t_ibu, _ = timed(lambda: GRR_Aggregator_IBU(reports_peer, R, EPSILON), 3)
    print(f"  first calls (numba JIT compile): client {cold_client:.3f} s, MI {cold_mi:.3f} s, IBU {cold_ibu:.3f} s "
          "(not counted below; below: best of 2 client runs, best of 3 aggregator runs)")
    print(f"  GRR_Client x n         {t_client:9.3f} s")
    print(f"  GRR_Aggregator_MI      {t_mi:9.3f} s   max |error| {np.max(np.abs(est_mi - truth)):.5f}")
    print(f"  GRR_Aggregator_IBU     {t_ibu:9.3f} s   max |error| {np.max(np.abs(est_ibu - truth)):.5f}")
    peer_total = t_client + t_mi + t_ibu
    our_total = ours["randomize"] + ours["inversion"] + ours["ibu"]
    print("ratios (peer time / explorer time, same run, same true data):")
    print(f"  randomize                 {t_client / ours['randomize']:8.1f}x")
    print(f"  inversion (MI)            {t_mi / ours['inversion']:8.1f}x")
    print(f"  IBU                       {t_ibu / ours['ibu']:8.1f}x")
    print(f"  end to end (randomize + MI + IBU) {peer_total / our_total:8.1f}x "
          f"({peer_total:.3f} s vs {our_total:.3f} s)")
    # the estimators alone on identical reports (the peer's), to separate counting from estimation
    counts = np.bincount(reports_peer, minlength=R)
    matrix = rr.optimal_matrix(R, EPSILON)
    _, t_our_ibu_peer, _ = timed(lambda: rr.estimate_frequencies(reports_peer, matrix, "ibu", tol=1e-12), 3)
    ours_on_peer = rr.estimate_frequencies(counts, matrix, "ibu", kind="counts", tol=1e-12).estimate
    print(f"  IBU on the peer's own reports: explorer {t_our_ibu_peer:.4f} s, ratio {t_ibu / t_our_ibu_peer:.1f}x; "
          f"max |explorer - peer| = {np.max(np.abs(ours_on_peer - est_ibu)):.2e}")


def peer_iterations(obs_freq: np.ndarray, matrix: np.ndarray, cap: int) -> int:
    """The iterations the peer's (numba-compiled) IBU runs, counted on its Python original."""
    from multi_freq_ldpy.estimators import Histogram_estimator as peer

    class CountingNumpy:
        calls = 0

        def __getattr__(self, name):
            return getattr(np, name)

        def dot(self, *args):
            CountingNumpy.calls += 1
            return np.dot(*args)

    saved = peer.np
    peer.np = CountingNumpy()
    try:
        peer.IBU.py_func(R, matrix, obs_freq, cap, 1e-12, "max_abs")
    finally:
        peer.np = saved
    return CountingNumpy.calls // 2                   # two products per iteration


def ibu_benchmark(n: int, reports_all: np.ndarray, rng: np.random.Generator) -> None:
    """IBU from the uniform start, end to end from n reports, with and without empty categories."""
    try:
        from multi_freq_ldpy.pure_frequency_oracles.GRR import GRR_Aggregator_IBU
    except Exception as error:  # the peer is optional
        GRR_Aggregator_IBU = None
        print(f"multi-freq-ldpy not importable ({type(error).__name__}: {error}); peer figures skipped")
    matrix = rr.optimal_matrix(R, EPSILON)
    cap = 10_000_000
    # true categories 12-15 empty: the maximum lies on the boundary, the inversion is negative there
    prior = 1.0 / np.arange(1, R + 1)
    prior[12:] = 0.0
    prior /= prior.sum()
    codes = np.random.default_rng(0).choice(R, size=n, p=prior)
    reports_empty = rr.randomize(codes, matrix, np.random.default_rng(10))
    negative = int((rr.estimate_frequencies(reports_empty, matrix).estimate < 0).sum())
    # no report of categories 13 and 15 at all
    missing = [13, 15]
    extra = rr.randomize(rng.choice(R, size=2 * n), matrix, rng)
    kept = np.concatenate([reports_all[~np.isin(reports_all, missing)], extra[~np.isin(extra, missing)]])[:n]
    print(f"IBU from the uniform start, end to end from {n:,} reports (count, then iterate; tol 1e-12), "
          f"r = {R}, epsilon = {EPSILON}; best of 3:")
    print(f"  cases: all categories present (Zipf prior); true categories 12-15 empty (Zipf prior on 0-11: "
          f"{negative} negative entries in the inversion); no report of categories {missing}")
    if GRR_Aggregator_IBU is not None:
        GRR_Aggregator_IBU(reports_all[:10], R, EPSILON)             # numba compilation, not timed
    print("  case                      method                              time      iterations   L1 to the peer")
    cases = (("all categories present", reports_all), ("true 12-15 empty", reports_empty),
             (f"no reports of {missing}", kept))
    for label, reports in cases:
        def ours(accelerate: bool, reports=reports):
            counts = rr.report_counts(reports, R)
            return rr.iterative_bayesian_update(matrix, counts, tol=1e-12, max_iter=cap, accelerate=accelerate)
        fast, t_fast, _ = timed(lambda: ours(True), 3)
        slow, t_slow, _ = timed(lambda: ours(False), 3)
        peer_estimate, t_peer, peer_its = None, math.nan, 0
        if GRR_Aggregator_IBU is not None:
            peer_estimate, t_peer, _ = timed(lambda: GRR_Aggregator_IBU(reports, R, EPSILON, nb_iter=cap, tol=1e-12), 3)
            counts = np.bincount(reports, minlength=R)
            peer_its = peer_iterations(counts / counts.sum(), np.asarray(matrix), cap)

        def l1(estimate):
            return np.abs(estimate - peer_estimate).sum() if peer_estimate is not None else math.nan
        print(f"  {label:26s}explorer, SQUAREM-accelerated      {1e3 * t_fast:8.2f} ms  {fast.iterations:9d}      "
              f"{l1(fast.estimate):.1e}")
        print(f"  {label:26s}explorer, plain update             {1e3 * t_slow:8.2f} ms  {slow.iterations:9d}      "
              f"{l1(slow.estimate):.1e}")
        if peer_estimate is not None:
            print(f"  {label:26s}multi-freq-ldpy GRR_Aggregator_IBU {1e3 * t_peer:8.2f} ms  {peer_its:9d}")
            print(f"  {label:26s}ratio peer / explorer accelerated: {t_peer / t_fast:.1f}x "
                  f"(plain: {t_peer / t_slow:.1f}x)")


def core_benchmark(n: int) -> None:
    rng = np.random.default_rng(0)
    prior = 1.0 / np.arange(1, R + 1)
    prior /= prior.sum()
    codes = rng.choice(R, size=n, p=prior)
    truth = np.bincount(codes, minlength=R) / n
    matrix = rr.optimal_matrix(R, EPSILON)
    print(f"data: n = {n:,} true codes, r = {R} (Zipf prior), epsilon = {EPSILON}, optimal (GRR) matrix")
    reports, t_rand, t_rand_med = timed(lambda: rr.randomize(codes, matrix, np.random.default_rng(1)), 5)
    inv, t_inv, _ = timed(lambda: rr.estimate_frequencies(reports, matrix, "inversion"), 5)
    ibu, t_ibu, _ = timed(lambda: rr.estimate_frequencies(reports, matrix, "ibu", tol=1e-12), 5)
    clip, t_clip, _ = timed(lambda: rr.estimate_frequencies(reports, matrix, "clip"), 5)
    simplex, t_simplex, _ = timed(lambda: rr.estimate_frequencies(reports, matrix, "simplex"), 5)
    bound = rr.estimate_error_bound(matrix, rr.error_bounds(inv.lambda_hat, n))
    print("explorer (best of repeats):")
    print(f"  randomize              {t_rand:9.4f} s   (median {t_rand_med:.4f} s)")
    print(f"  inversion              {t_inv:9.4f} s   max |error| {np.max(np.abs(inv.estimate - truth)):.5f}")
    print(f"  clip                   {t_clip:9.4f} s   max |error| {np.max(np.abs(clip.estimate - truth)):.5f}")
    print(f"  simplex                {t_simplex:9.4f} s   max |error| {np.max(np.abs(simplex.estimate - truth)):.5f}")
    print(f"  ibu                    {t_ibu:9.4f} s   max |error| {np.max(np.abs(ibu.estimate - truth)):.5f} "
          f"({ibu.iterations} iteration(s): the inversion is positive, so it is the fixed point)")
    print(f"  Eq. 5 bound (Domingo-Ferrer and Soria-Comas 2022) on max |error| of the inversion (alpha = 0.05): {bound:.5f}")
    peer_benchmark(codes, truth, {"randomize": t_rand, "inversion": t_inv, "ibu": t_ibu})
    ibu_benchmark(n, reports, np.random.default_rng(2))


def view_attached(canvas) -> None:
    """What ipympl does when a browser view of the canvas reports "initialized" (it then stops
    keeping a data URL of the whole image, and sends only diff PNGs)."""
    handle = getattr(canvas, "_handle_message", None)
    if handle is not None:
        handle(canvas, {"type": "initialized"}, [])


def panel_benchmark(quick: bool) -> None:
    try:
        from explorer.panels.randomized_response import RandomizedResponsePanel
    except ImportError as error:
        print(f"panel figures skipped: the widgets are not importable here ({error})")
        return

    print("panel update as epsilon moves (kernel side, median over moves):")
    print("   r   core compute   blitted update (incl. PNG)   full redraw")
    panel = RandomizedResponsePanel()
    moves = np.linspace(0.3, 6.0, 8 if quick else 20)
    for canvas in (panel.figure.canvas, panel.estimate_figure.canvas):
        view_attached(canvas)
    for r in (2, 3, 4, 8, 12):
        panel.n_categories.value = r
        panel.figure.canvas.draw()                      # the browser's first draw request
        prior = np.full(r, 1.0 / r)

        def compute(e):
            m = rr.optimal_matrix(r, e)
            rr.epsilon_of(m), rr.epsilon_column(m)
            den.posterior_matrix(m, prior), den.deniability_entropies(m, prior)
            den.misinformative_reports(m, prior), den.conditional_entropy(m, prior)
            den.guessing_probability(m, prior), den.is_perfect_secrecy(m, prior)
            den.deniability_curve(r, prior, np.linspace(0.0, 10.0, 201))

        core = [timed(lambda e=e: compute(float(e)))[1] for e in moves]
        blits = []
        for e in moves:
            start = time.perf_counter()
            panel.epsilon.value = float(e) + 0.001
            blits.append(time.perf_counter() - start)
        full = []
        for e in moves[: 4 if quick else 8]:
            start = time.perf_counter()
            panel.epsilon.value = float(e) + 0.002
            panel.figure.canvas.draw()
            full.append(time.perf_counter() - start)
        print(f"  {r:2d}   {1e3 * statistics.median(core):8.1f} ms    {1e3 * statistics.median(blits):14.1f} ms"
              f"           {1e3 * statistics.median(full):8.1f} ms")
    print(f"  (blits done: {panel.blitter.n_blits}; full draws: {panel.blitter.n_full})")
    print("  breakdown of a blitted update (median): panel logic + artist updates | drawing the moving "
          "artists | ipympl's diff image + PNG encoding")
    for r in (3, 12):
        panel.n_categories.value = r
        panel.figure.canvas.draw()
        blitter, canvas = panel.blitter, panel.figure.canvas
        update = blitter.update
        blitter.update = lambda: True                  # time the three parts separately
        parts: list[list[float]] = [[], [], []]
        try:
            for e in moves:
                t0 = time.perf_counter()
                panel.epsilon.value = float(e) + 0.003
                t1 = time.perf_counter()
                canvas.restore_region(blitter.background)
                blitter._draw_animated()
                t2 = time.perf_counter()
                canvas._png_is_old = True
                canvas.get_diff_image()
                t3 = time.perf_counter()
                for part, value in zip(parts, (t1 - t0, t2 - t1, t3 - t2)):
                    part.append(value)
        finally:
            blitter.update = update
        print(f"  r = {r:2d}: " + " | ".join(f"{1e3 * statistics.median(p):.1f} ms" for p in parts))
    canvas = panel.figure.canvas
    canvas.syncing_data_url = True                      # as before any browser view attached
    no_view = []
    for e in moves:
        start = time.perf_counter()
        panel.epsilon.value = float(e) + 0.004
        no_view.append(time.perf_counter() - start)
    canvas.syncing_data_url = False
    print(f"  r = 12 before a browser view attaches (ipympl also re-encodes a data URL each update): "
          f"{1e3 * statistics.median(no_view):.1f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="n = 100,000 and fewer panel moves")
    parser.add_argument("--no-panel", action="store_true", help="skip the panel figures")
    parser.add_argument("--out", default=None,
                        help="also write the figures to this file (e.g. benchmarks/results/randomized_response.txt)")
    args = parser.parse_args(argv)
    out = Path(args.out) if args.out else None
    with tee_stdout(out):
        load = os.getloadavg() if hasattr(os, "getloadavg") else ("?",)
        print(f"# bench_randomized_response ({'quick' if args.quick else 'full'}) on {platform.platform()}, "
              f"Python {platform.python_version()}, numpy {np.__version__}, {os.cpu_count()} CPUs, "
              f"load average {load[0]:.2f} at start")
        print(time.strftime("# %Y-%m-%d %H:%M UTC", time.gmtime()))
        core_benchmark(100_000 if args.quick else 1_000_000)
        if not args.no_panel:
            panel_benchmark(args.quick)
        load = os.getloadavg() if hasattr(os, "getloadavg") else ("?",)
        print(f"# load average {load[0]:.2f} at the end (the machine is shared: times are inflated by load)")
    if out is not None:
        print(f"written to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
