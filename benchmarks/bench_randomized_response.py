"""Randomized response figures: explorer vs multi-freq-ldpy's GRR, and the panel's update cost.

    python benchmarks/bench_randomized_response.py [--quick] [--out benchmarks/results/randomized_response.txt]

Prints figures and ratios measured in this run (never asserts on time):

* on the same true data (n = 1,000,000 respondents, r = 16 categories, epsilon = 1; n = 100,000
  with --quick): ``randomize`` + ``estimate_frequencies`` (inversion and IBU) against
  multi-freq-ldpy's ``GRR_Client`` (one call per respondent, as the library is meant to be
  used) + ``GRR_Aggregator_MI`` + ``GRR_Aggregator_IBU``; the peer's first (JIT-compiling)
  call is timed apart from the warm calls; the estimates' errors against the truth;
* the IBU alone on the same counts from a uniform start (the boundary case), per iteration;
* the Randomized response panel's update as epsilon moves, r = 2..12: the core computation,
  the blitted redraw (moving artists + the PNG ipympl sends), and a full figure redraw.  The
  canvases are told a browser view is attached (ipympl's "initialized" message, as in the app):
  before that, ipympl also re-encodes the whole image as a data URL on every update, which a
  last line measures apart.
"""

from __future__ import annotations

import argparse
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
from explorer.core import randomized_response as rr  # noqa: E402

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
    # without the warm start: the same update from the uniform distribution, as the peer iterates
    lam = counts / counts.sum()
    (_, iterations, _), t_cold, _ = timed(lambda: rr._ibu(matrix, lam, 1e-12, 10_000), 3)
    _, t_count, _ = timed(lambda: np.bincount(reports_peer, minlength=R), 3)
    print(f"  IBU from the uniform start (no warm start) on those reports: {t_count + t_cold:.4f} s "
          f"({iterations} iterations + counting), ratio {t_ibu / (t_count + t_cold):.1f}x")


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
    print(f"  003 Eq. 5 bound on max |error| of the inversion (alpha = 0.05): {bound:.5f}")
    # IBU from a uniform start on a boundary case (a category with no reports)
    counts = np.bincount(reports, minlength=R).astype(float)
    counts[-1] = 0.0
    hard, t_hard, _ = timed(lambda: rr.estimate_frequencies(counts, matrix, "ibu", kind="counts", tol=1e-12), 3)
    print(f"  ibu, boundary case (last category emptied; uniform start): {t_hard:.4f} s, {hard.iterations} "
          f"iterations, {1e6 * t_hard / max(hard.iterations, 1):.1f} us per iteration")
    peer_benchmark(codes, truth, {"randomize": t_rand, "inversion": t_inv, "ibu": t_ibu})


def view_attached(canvas) -> None:
    """What ipympl does when a browser view of the canvas reports "initialized" (it then stops
    keeping a data URL of the whole image, and sends only diff PNGs)."""
    handle = getattr(canvas, "_handle_message", None)
    if handle is not None:
        handle(canvas, {"type": "initialized"}, [])


def panel_benchmark(quick: bool) -> None:
    from explorer.panels.randomized_response import RandomizedResponsePanel

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
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent / "results" / "randomized_response.txt"))
    args = parser.parse_args(argv)
    out = Path(args.out)
    with tee_stdout(out):
        load = os.getloadavg() if hasattr(os, "getloadavg") else ("?",)
        print(f"# bench_randomized_response ({'quick' if args.quick else 'full'}) on {platform.platform()}, "
              f"Python {platform.python_version()}, numpy {np.__version__}, {os.cpu_count()} CPUs, "
              f"load average {load[0]:.2f} at start")
        print(time.strftime("# %Y-%m-%d %H:%M UTC", time.gmtime()))
        core_benchmark(100_000 if args.quick else 1_000_000)
        panel_benchmark(args.quick)
        load = os.getloadavg() if hasattr(os, "getloadavg") else ("?",)
        print(f"# load average {load[0]:.2f} at the end (the machine is shared: times are inflated by load)")
    print(f"written to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
