"""Benchmark of the permutation paradigm (Domingo-Ferrer and Muralidhar 2016): distances, reverse mapping, verification.

    python benchmarks/bench_permutation.py [--quick] [--only distances,literal,reverse,memory,verify]
                                           [--repeat 3] [--out benchmarks/results/permutation.txt]

Prints wall times with ratios against baselines measured in the same run (never
asserts on time), and the load average at the start and at the end.  Nothing is
written unless ``--out`` is given.

* ``permutation_distances`` (Algorithm 2 via a Chebyshev cKDTree with every
  tie at the minimum) for n = 1,000,000 records, m = 3, against a bare cKDTree
  sketch (ranks, nearest values by searchsorted, build + 1-nearest query on the
  rank vectors) measured here, alternating the two ``--repeat`` times and
  keeping the best of each; once with one thread each, once with
  ``workers=-1`` for both queries;
* the literal transcription of Algorithm 2 at n = 5,000 and its quadratic
  extrapolation to n = 1,000,000;
* ``reverse_map_frame`` (004 Algorithm 1) for 10,000,000 x 3 against one
  ``np.sort`` of X;
* peak memory (peak RSS, VmHWM, of a child process) of the n = 1,000,000 distances;
* random-record verification (004 Section 5.2) with 100,000 random records at
  n = 100,000.

``--quick`` divides the sizes by 10 (literal by 5).
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import scipy

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from scipy.spatial import cKDTree  # noqa: E402

import _common  # noqa: E402

from explorer.core.masking import mask  # noqa: E402
from explorer.core.permutation import (  # noqa: E402
    linkage_verification,
    permutation_distances,
    ranks,
    reverse_map_frame,
)


SECTIONS = ("distances", "literal", "reverse", "memory", "verify")


def timed(func, repeat: int = 1) -> float:
    """Best wall time (seconds) of ``repeat`` calls."""
    return _common.timed(func, repeat)[1]


def alternating(funcs: dict, repeat: int) -> dict:
    """Best wall time of each function, the functions called in turn ``repeat`` times (load drifts hit all)."""
    best = {name: float("inf") for name in funcs}
    for _ in range(repeat):
        for name, func in funcs.items():
            best[name] = min(best[name], timed(func))
    return best


def data(n: int, m: int = 3, seed: int = 0, noise: float = 0.25) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    means, sds = np.array([100.0, 1000.0, 5000.0])[:m], np.array([10.0, 40.0, 200.0])[:m]
    x = rng.normal(means, sds, size=(n, m))
    y = mask(x, "additive_noise", noise, rng=seed + 1)
    return x, y


def sketch(x: np.ndarray, y: np.ndarray, workers: int = 1) -> None:
    """The issue's baseline: ranks of Y, R* by searchsorted, cKDTree(p=inf) build and 1-NN query."""
    r = ranks(y, ties="first")
    s = np.sort(y, axis=0)
    r_star = np.column_stack([np.searchsorted(s[:, j], x[:, j]) for j in range(x.shape[1])]) + 1
    tree = cKDTree(r.astype(float))
    tree.query(r_star.astype(float), k=1, p=np.inf, workers=workers)


CHILD = """
import sys, time
sys.path.insert(0, {root!r})
import numpy as np
from explorer.core.masking import mask
from explorer.core.permutation import permutation_distances


def status(key):
    # VmHWM (peak RSS) of this process; unlike ru_maxrss it does not inherit the parent's peak across exec
    for line in open("/proc/self/status"):
        if line.startswith(key):
            return int(line.split()[1]) / 1024
    return float("nan")


rng = np.random.default_rng(0)
x = rng.normal([100.0, 1000.0, 5000.0], [10.0, 40.0, 200.0], size=({n}, 3))
y = mask(x, "additive_noise", 0.25, rng=1)
base = status("VmHWM")
t = time.perf_counter()
res = permutation_distances(x, y, ties="first")
t = time.perf_counter() - t
peak = status("VmHWM")
print(base, peak, t, int(res.distance.max()))
"""


def main(argv: list[str] | None = None) -> str:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="sizes divided by 10")
    parser.add_argument("--only", default=",".join(SECTIONS),
                        help=f"comma-separated sections to run, of {', '.join(SECTIONS)} (default all)")
    parser.add_argument("--repeat", type=int, default=3, help="alternating repetitions of the distances (default 3)")
    parser.add_argument("--out", default=None,
                        help="write the report here (e.g. benchmarks/results/permutation.txt); default: print only")
    args = parser.parse_args(argv)
    only = [part.strip() for part in args.only.split(",") if part.strip()]
    unknown = sorted(set(only) - set(SECTIONS))
    if unknown:
        parser.error(f"--only: unknown section(s) {unknown}; choose among {list(SECTIONS)}")
    scale = 10 if args.quick else 1
    n_big = 1_000_000 // scale
    n_literal = 5_000 // (5 if args.quick else 1)
    n_reverse = 10_000_000 // scale
    n_verify = 100_000 // scale
    buffer = io.StringIO()

    def say(text: str = "") -> None:
        print(text)
        buffer.write(text + "\n")

    say(f"bench_permutation  {'--quick' if args.quick else 'full'}  sections {','.join(only)}  "
        f"numpy {np.__version__}  scipy {scipy.__version__}  cores {os.cpu_count()}")
    say("load average at start (1, 5, 15 min): " + ", ".join(f"{v:.2f}" for v in os.getloadavg()))
    say(time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
    say()

    # 1. permutation distances, n = 1e6, m = 3
    x, y = data(n_big)
    if "distances" in only:
        best = alternating({
            "sketch": lambda: sketch(x, y),
            "first": lambda: permutation_distances(x, y, ties="first"),
            "random": lambda: permutation_distances(x, y, ties="random", rng=0),
            "sketch-all": lambda: sketch(x, y, workers=-1),
            "first-all": lambda: permutation_distances(x, y, ties="first", workers=-1),
        }, args.repeat)
        say(f"[1] permutation_distances, n = {n_big:,}, m = 3 (additive noise 0.25 sd); best of {args.repeat} "
            "alternating runs")
        say(f"    cKDTree sketch (ranks + searchsorted + build + 1-NN), 1 thread  {best['sketch']:8.2f} s")
        say(f"    permutation_distances, ties='first', 1 thread               {best['first']:8.2f} s   "
            f"ratio to sketch {best['first'] / best['sketch']:5.2f}   (target <= 1.5)")
        say(f"    permutation_distances, ties='random' (seeded), 1 thread     {best['random']:8.2f} s   "
            f"ratio to sketch {best['random'] / best['sketch']:5.2f}")
        say(f"    cKDTree sketch, query workers=-1                            {best['sketch-all']:8.2f} s")
        say(f"    permutation_distances, ties='first', workers=-1             {best['first-all']:8.2f} s   "
            f"ratio to sketch workers=-1 {best['first-all'] / best['sketch-all']:5.2f}")
        say()
        t_fast = best["first"]
    else:
        t_fast = None

    # 2. literal Algorithm 2 at n = 5000 and its quadratic extrapolation
    if "literal" in only:
        literal_section(n_literal, n_big, t_fast, say)
    x = y = None  # free the arrays before the next section
    if "reverse" in only:
        reverse_section(n_reverse, say)
    if "memory" in only:
        memory_section(n_big, say)
    if "verify" in only:
        verify_section(n_verify, say)
    say("load average at end (1, 5, 15 min): " + ", ".join(f"{v:.2f}" for v in os.getloadavg()))
    report = buffer.getvalue()
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(report)
        print(f"written to {args.out}")
    return report


def literal_section(n_literal: int, n_big: int, t_fast: float | None, say) -> None:
    xs, ys = data(n_literal, seed=3)
    t_lit = timed(lambda: permutation_distances(xs, ys, ties="first", method="literal"))
    t_small = timed(lambda: permutation_distances(xs, ys, ties="first"), repeat=3)
    same = np.array_equal(permutation_distances(xs, ys, ties="first", method="literal").distance,
                          permutation_distances(xs, ys, ties="first").distance)
    extrapolated = t_lit * (n_big / n_literal) ** 2
    say(f"[2] literal Algorithm 2 (reference), n = {n_literal:,}")
    say(f"    literal                                           {t_lit:8.2f} s")
    say(f"    cKDTree                                           {t_small:8.3f} s   literal / cKDTree "
        f"{t_lit / t_small:7.1f}x   same distances: {same}")
    versus = f"   vs cKDTree {t_fast:.2f} s: {extrapolated / t_fast:,.0f}x" if t_fast else ""
    say(f"    literal extrapolated to n = {n_big:,} (x (n/{n_literal})^2)  {extrapolated:10.0f} s "
        f"= {extrapolated / 3600:.1f} h{versus}")
    say()


def reverse_section(n_reverse: int, say) -> None:
    rng = np.random.default_rng(5)
    xr = rng.normal(size=(n_reverse, 3))
    yr = xr + 0.3 * rng.normal(size=(n_reverse, 3))
    t_sort = timed(lambda: np.sort(xr, axis=0))
    t_rev_first = timed(lambda: reverse_map_frame(xr, yr, ties="first"))
    t_rev_random = timed(lambda: reverse_map_frame(xr, yr, rng=0))
    t_rev_threads = timed(lambda: reverse_map_frame(xr, yr, ties="first", workers=2))
    say(f"[3] reverse_map_frame (Algorithm 1), {n_reverse:,} x 3")
    say(f"    np.sort of X (baseline)                           {t_sort:8.2f} s")
    say(f"    reverse_map_frame, ties='first'                   {t_rev_first:8.2f} s   ratio {t_rev_first / t_sort:5.2f}"
        f"   (target < 5 s)")
    say(f"    reverse_map_frame, ties='random' (seeded)         {t_rev_random:8.2f} s   ratio "
        f"{t_rev_random / t_sort:5.2f}")
    say(f"    reverse_map_frame, ties='first', workers=2        {t_rev_threads:8.2f} s   ratio "
        f"{t_rev_threads / t_sort:5.2f}")
    say()


def memory_section(n_big: int, say) -> None:
    out = subprocess.run([sys.executable, "-c", CHILD.format(root=str(ROOT), n=n_big)], capture_output=True,
                         text=True, check=True).stdout.split()
    base_mb, peak_mb, t_child = float(out[0]), float(out[1]), float(out[2])
    say(f"[4] peak memory (VmHWM of a child process), permutation_distances n = {n_big:,}, m = 3")
    say(f"    after imports and data {base_mb:7.0f} MB   peak {peak_mb:7.0f} MB   (target < 1500 MB)"
        f"   increase {peak_mb - base_mb:6.0f} MB   ({t_child:.2f} s)")
    say()


def verify_section(n_verify: int, say) -> None:
    xv, yv = data(n_verify, seed=7)
    t_link = timed(lambda: linkage_verification(xv, yv, n_random=n_verify, rng=0))
    t_base = timed(lambda: permutation_distances(xv, yv, ties="random", rng=0))
    lv = linkage_verification(xv, yv, n_random=n_verify, rng=0)
    say(f"[5] linkage_verification: reverse mapping + linkage of {n_verify:,} records + {n_verify:,} random records")
    say(f"    one permutation_distances call (baseline)         {t_base:8.2f} s")
    say(f"    linkage_verification                              {t_link:8.2f} s   ratio {t_link / t_base:5.2f}")
    say(f"    Hellinger {lv.hellinger:.3f}; {lv.verdict()}")
    say()


if __name__ == "__main__":
    main()
