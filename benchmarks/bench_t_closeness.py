"""t-closeness figures: MDAV on UCI Adult, the closeness profile, pycanon's t-closeness as the peer.

    python benchmarks/bench_t_closeness.py [--quick] [--out benchmarks/results/t_closeness.txt]

Prints figures and ratios measured in this run (never asserts on time):

* MDAV (vectorised, explorer.core.closeness.microaggregation.mdav) on the 32,561 Adult records, k = 10,
  4 quasi-identifiers (age, education-num, hours-per-week, sex); its scaling in n
  (quadratic in the number of clusters n/k), and a record-by-record MDAV baseline
  on a subsample, in the same run;
* the closeness profile of those clusters with sensitive = occupation (ratio and EMD);
* pycanon's ``t_closeness`` on the same clusters (the cluster label as its only
  quasi-identifier), and on Adult's own equivalence classes of the 4 quasi-identifiers.

The results file is written only when ``--out PATH`` is given.  The sha256 of MDAV's labels is printed so
that runs on different numpy versions can be compared (tests/core/test_t_closeness.py pins it).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import math
import os
import platform
import sys

from contextlib import redirect_stdout
from pathlib import Path

import numpy as np

from _common import tee_stdout, timed  # noqa: E402  (benchmarks/_common.py)
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from explorer.core.datasets import adult  # noqa: E402
from explorer.core.closeness import (closeness_profile, group_by, mdav, mdav_labels,  # noqa: E402
                                       t_close_microaggregation)

QIS = ["age", "education-num", "hours-per-week", "sex"]
SENSITIVE = "occupation"




def mdav_record_by_record(x: np.ndarray, k: int) -> np.ndarray:
    """Baseline: MDAV with a Python loop over the remaining records for every distance (textbook style)."""
    remaining = list(range(len(x)))
    labels = np.full(len(x), -1)
    label = 0

    def sq(i, c):
        d = x[i] - c
        return float(d @ d)

    def nearest(c, pool):
        return sorted(pool, key=lambda i: sq(i, c))[:k]

    while len(remaining) >= 3 * k:
        c = x[remaining].mean(axis=0)
        r = max(remaining, key=lambda i: sq(i, c))
        s = max(remaining, key=lambda i: sq(i, x[r]))
        for centre in (x[r], x[s]):
            group = set(nearest(centre, remaining))
            labels[list(group)] = label
            label += 1
            remaining = [i for i in remaining if i not in group]
    if len(remaining) >= 2 * k:
        c = x[remaining].mean(axis=0)
        r = max(remaining, key=lambda i: sq(i, c))
        group = set(nearest(x[r], remaining))
        labels[list(group)] = label
        label += 1
        remaining = [i for i in remaining if i not in group]
    labels[remaining] = label
    return labels


def main(quick: bool) -> None:
    print(f"t-closeness benchmark  (python {platform.python_version()}, numpy {np.__version__}, "
          f"pandas {pd.__version__}, {'quick' if quick else 'full'} run)")
    print(f"load average at start (1, 5, 15 min): {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    frame = adult()
    n = len(frame)
    print(f"UCI Adult: {n:,} records; quasi-identifiers {QIS}; sensitive = {SENSITIVE}")

    # ---------------------------------------------------------------- MDAV on Adult
    clusters, best, median = timed(lambda: mdav(frame, QIS, 10), repeat=1 if quick else 2)
    sizes = clusters.sizes
    print(f"\nMDAV k=10 on all {n:,} records: {best:.2f} s (median {median:.2f} s); "
          f"{clusters.n_clusters:,} clusters, sizes {sizes.min()}..{sizes.max()}")
    digest = hashlib.sha256(clusters.labels.astype("<i8").tobytes()).hexdigest()
    print(f"  labels sha256 {digest} (ties to the lowest record index: the same on every numpy)")
    _, t50, _ = timed(lambda: mdav(frame, QIS, 50))
    print(f"MDAV k=50 on all records (the panel's default, run without a button): {t50:.2f} s")

    # scaling in n: standardised numbers like the encoding MDAV uses
    rng = np.random.default_rng(0)
    base = rng.normal(size=(2 * n, 5))
    sizes_n = [4000, 8000, 16000, 32561] + ([] if quick else [65122])
    print("\nScaling of vectorised MDAV (k = 10, 5 standardised columns, synthetic normal):")
    previous = None
    for m in sizes_n:
        _, seconds, _ = timed(lambda: mdav_labels(base[:m], 10))
        growth = "" if previous is None else f"  x{seconds / previous[1]:.2f} for x{m / previous[0]:.2f} records"
        print(f"  n = {m:>6,}: {seconds:7.2f} s{growth}")
        previous = (m, seconds)
    per_step = previous[1] / (previous[0] / 20)
    print(f"  cost ~ n^2/k: one step (two clusters) over n records costs ~{per_step * 1e3:.2f} ms at "
          f"n = {previous[0]:,}; n = 100,000 at k = 10 would take ~{previous[1] * (1e5 / previous[0]) ** 2:.0f} s, "
          f"at k = 100 ~{previous[1] * (1e5 / previous[0]) ** 2 / 10:.0f} s (extrapolated, not run)")

    sub = 2000 if quick else 4000
    x_sub = base[:sub]
    _, t_loop, _ = timed(lambda: mdav_record_by_record(x_sub, 10))
    _, t_vec, _ = timed(lambda: mdav_labels(x_sub, 10), repeat=3)
    same = np.array_equal(mdav_record_by_record(x_sub[:400], 10), mdav_labels(x_sub[:400], 10))
    print(f"\nBaseline, same run: record-by-record MDAV on {sub:,} records: {t_loop:.2f} s; "
          f"vectorised: {t_vec:.3f} s; ratio {t_loop / t_vec:.0f}x (same labels on 400 records: {same})")

    # ---------------------------------------------------------------- the profile
    profile, best_p, median_p = timed(lambda: closeness_profile(frame, clusters, SENSITIVE, "ratio"), repeat=7)
    emd, best_e, median_e = timed(lambda: closeness_profile(frame, clusters, SENSITIVE, "emd"), repeat=7)
    n_inf = int(np.isinf(profile.distances).sum())
    print(f"\nCloseness profile (ratio distance, Eq. 7) of the {profile.n_clusters:,} MDAV clusters: "
          f"{median_p * 1e3:.1f} ms median (best {best_p * 1e3:.1f} ms); target < 200 ms")
    print(f"  {n_inf:,} of {profile.n_clusters:,} clusters are infinitely far (a value of the "
          f"{len(profile.categories)} missing); H(S) = {profile.data_entropy:.3f} bits, "
          f"H(S | cluster) = {profile.conditional_entropy:.3f} bits")
    print(f"Closeness profile (EMD, equal ground distance): {median_e * 1e3:.1f} ms median; "
          f"max EMD = {emd.max_distance:.6f}")

    # ---------------------------------------------------------------- t-close microaggregation
    for sensitive in ("race", SENSITIVE):
        safe, seconds, _ = timed(lambda: t_close_microaggregation(frame, QIS, sensitive, 10, math.e))
        check = closeness_profile(frame, safe, sensitive, "ratio")
        print(f"t-close microaggregation, k=10, t=e (eps=2), sensitive={sensitive}: {seconds:.2f} s "
              f"(MDAV included), {safe.n_merges:,} merges, {safe.n_clusters:,} clusters left "
              f"(sizes {safe.sizes.min():,}..{safe.sizes.max():,}), max ratio distance {check.max_distance:.4f}")

    # ---------------------------------------------------------------- pycanon peer
    try:
        from pycanon.anonymity import t_closeness as pycanon_t_closeness
    except ImportError as error:
        print(f"\npycanon not importable ({error}); peer not measured")
        pycanon_t_closeness = None
    if pycanon_t_closeness is not None:
        peer_frame = pd.DataFrame({"cluster": clusters.labels,
                                   SENSITIVE: frame[SENSITIVE].astype(str).to_numpy(dtype=object)})
        with redirect_stdout(io.StringIO()):
            t_peer, seconds_peer, _ = timed(lambda: pycanon_t_closeness(peer_frame, ["cluster"], [SENSITIVE]))
        print(f"\npycanon t_closeness on the same {clusters.n_clusters:,} clusters: {seconds_peer:.2f} s, "
              f"t = {t_peer:.6f} (EMD, equal distance)")
        print(f"  explorer EMD profile: {median_e * 1e3:.1f} ms, max = {emd.max_distance:.6f}; "
              f"agree: {abs(t_peer - emd.max_distance) < 1e-9}; ratio pycanon / explorer = "
              f"{seconds_peer / median_e:.0f}x")
        qi_frame = frame[QIS + [SENSITIVE]].copy()
        for column in ("sex", SENSITIVE):
            qi_frame[column] = qi_frame[column].astype(str).astype(object)
        with redirect_stdout(io.StringIO()):
            t_qi, seconds_qi, _ = timed(lambda: pycanon_t_closeness(qi_frame, QIS, [SENSITIVE]))
        classes = group_by(frame, QIS)
        own, _, median_own = timed(lambda: closeness_profile(frame, classes, SENSITIVE, "emd"), repeat=5)
        print(f"pycanon t_closeness on Adult's own equivalence classes of the 4 QIs "
              f"({classes.n_clusters:,} classes): {seconds_qi:.2f} s, t = {t_qi:.6f}; explorer group_by + "
              f"EMD profile: {median_own * 1e3:.1f} ms, max = {own.max_distance:.6f}; "
              f"ratio {seconds_qi / median_own:.0f}x")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats, smaller scaling runs, no 2x Adult")
    parser.add_argument("--out", default=None, help="also write the output to this file (never written otherwise)")
    arguments = parser.parse_args()
    with tee_stdout(arguments.out):
        main(arguments.quick)
        print(f"load average at end (1, 5, 15 min): {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
