"""Benchmark of explorer.core.dominance and the Dominance panel (issue 6).

    python benchmarks/bench_dominance.py [--quick]

1. A risk curve D_j(alpha) over 200 alphas in [-10, 1] for 10^7 integer rank
   displacements: the bincount fast path (:func:`risk_curve`, one weighted power
   mean over the distinct |r|) against the direct vectorized formula
   ``mean(|r| ** alpha) ** (1 / alpha)`` over all n values, alpha by alpha, in the
   same run; both timings, the ratio and the largest relative difference.
2. The Dominance panel with 4 configurations on Adult's 6 numeric attributes (all
   32,561 records), aggregated views D(alpha, beta) and I(theta, pi): median time of
   an update (beta, pi, alpha_1, theta_2, attribute and pair selectors) once the
   masked data and curves are computed, against the same update with the curve
   cache cleared (everything recomputed from the cached displacements).

Prints figures and ratios; never asserts on time.  ``--quick`` uses 10^6
displacements and fewer panel repetitions.
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("MPLBACKEND", "Agg")

from explorer.core.dominance import alpha_grid, risk_curve  # noqa: E402


def timed(function, repeat: int = 1) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return best, result


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


def bench_curve(n: int, lines: list[str]) -> None:
    rng = np.random.default_rng(0)
    r = rng.integers(-5000, 5001, size=n)          # e.g. rank swapping within 5000 ranks; about n/10001 zeros
    alphas = alpha_grid(-10, 200)
    fast_time, fast = timed(lambda: risk_curve(r, alphas).values, repeat=3)
    direct_time, direct = timed(lambda: direct_curve(r, alphas), repeat=1)
    difference = float(np.max(np.abs(fast - direct) / np.abs(direct)))
    lines += [
        f"risk curve, {alphas.size} alphas in [-10, 1], n = {n:,} integer displacements "
        f"({np.unique(np.abs(r)).size:,} distinct |r|)",
        f"  fast path (bincount + weighted power means): {fast_time:.3f} s (best of 3)",
        f"  direct vectorized formula over all n:        {direct_time:.3f} s",
        f"  ratio direct / fast: {direct_time / fast_time:.0f}x; largest relative difference {difference:.1e}",
    ]


def bench_panel(repeats: int, lines: list[str]) -> None:
    from explorer.core.datasets import adult
    from explorer.panels._base import AppState
    from explorer.panels.dominance import ALL, DominancePanel

    state = AppState()
    state.dataset = adult()
    state.dataset_name = "UCI Adult"
    # measure the computation itself, synchronously (in the app, work this large waits for Compute
    # and runs in a background task)
    DominancePanel.BACKGROUND_SECONDS = float("inf")
    start = time.perf_counter()
    panel = DominancePanel(state=state, max_records=0)
    build = time.perf_counter() - start
    start = time.perf_counter()
    panel.n_configs.value = 4
    four = time.perf_counter() - start
    start = time.perf_counter()
    panel.risk_view.value = ALL
    panel.loss_view.value = ALL
    aggregated = time.perf_counter() - start
    assert not panel.status.is_error, panel.status.message

    moves = [(panel.beta, [0.5, -1.0, 0.0, 1.0]), (panel.pi, [2.0, 5.0, 1.0]), (panel.alpha1, [-0.5, 0.5, 0.0]),
             (panel.theta2, [3.0, 5.0, 2.0])]
    cached, fresh = [], []
    for rep in range(repeats):
        for control, values in moves:
            for value in values:
                # beta and pi only re-aggregate cached curves; a new alpha_1 or theta_2 needs 84 new power means
                if control in (panel.alpha1, panel.theta2):
                    value = value + 0.05 * (rep + 1)
                start = time.perf_counter()
                control.value = value
                (fresh if control in (panel.alpha1, panel.theta2) else cached).append(time.perf_counter() - start)
    uncached = []
    for _ in range(max(1, repeats // 3)):
        for control, values in moves[:2]:
            value = values[0]
            panel._curve_cache.clear()
            start = time.perf_counter()
            control.value = value if control.value != value else values[1]
            uncached.append(time.perf_counter() - start)
    selectors = []
    for _ in range(repeats):
        for view in ("0", "3", ALL):
            start = time.perf_counter()
            panel.risk_view.value = view
            selectors.append(time.perf_counter() - start)
    assert not panel.status.is_error, panel.status.message
    lines += [
        f"Dominance panel, 4 configurations, Adult {panel._X.shape[0]:,} records x {len(panel._columns)} numeric "
        f"attributes, {panel.alpha_min.value:g} <= alpha <= 1 and 1 <= theta <= {panel.theta_max.value:g} "
        f"(121 points + the infinite end)",
        f"  panel built (mask + displacements + curves of 2 configurations): {build:.2f} s",
        f"  4 configurations (2 more masked): {four:.2f} s; aggregated views (all 6 D_j and 15 I_k curves): "
        f"{aggregated:.2f} s",
        f"  update once computed, beta or pi ({len(cached)} moves): median "
        f"{1000 * statistics.median(cached):.0f} ms, max {1000 * max(cached):.0f} ms",
        f"  update once computed, a new alpha_1 or theta_2 ({len(fresh)} moves): median "
        f"{1000 * statistics.median(fresh):.0f} ms, max {1000 * max(fresh):.0f} ms",
        f"  attribute selector ({len(selectors)} moves): median {1000 * statistics.median(selectors):.0f} ms",
        f"  same update with the curve cache cleared (baseline, {len(uncached)} moves): median "
        f"{1000 * statistics.median(uncached):.0f} ms; ratio {statistics.median(uncached) / statistics.median(cached):.0f}x",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10^6 displacements, fewer panel repetitions")
    args = parser.parse_args(argv)
    lines = [f"bench_dominance ({'quick' if args.quick else 'full'}) on {platform.machine()}, "
             f"{os.cpu_count()} cores, Python {platform.python_version()}, numpy {np.__version__}; "
             f"load average {os.getloadavg()[0]:.1f}"]
    bench_curve(10 ** 6 if args.quick else 10 ** 7, lines)
    bench_panel(2 if args.quick else 5, lines)
    text = "\n".join(lines)
    print(text)
    if not args.quick:
        out = Path(__file__).resolve().parent / "results" / "dominance.txt"
        out.parent.mkdir(exist_ok=True)
        out.write_text(text + "\n")
        print(f"written to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
