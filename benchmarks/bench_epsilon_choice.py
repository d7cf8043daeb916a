"""Choosing epsilon from what you need: choose_epsilon on UCI Adult's marital-status, against one read_epsilon.

    python benchmarks/bench_epsilon_choice.py [--repeat 30] [--out benchmarks/results/epsilon_choice.txt]

The "From what I need" view of the "What does ε mean?" tab calls :func:`explorer.core.epsilon_choice.choose_epsilon`
on every keystroke.  Targets (issue 24): all five requirements in < 50 ms; the smallest number of reports
(``min_reports``, requirements in conflict) in < 200 ms.  Printed against a baseline measured in the same run:
one ``read_epsilon`` (the forward reading the view draws anyway) on the same attribute, with the same n.
The last line is what a keystroke costs the view (the band, its two figures redrawn and one frame rendered),
for scale.  Never asserts on time.  The results file is written only when ``--out PATH`` is given.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from _common import tee_stdout, timed  # noqa: E402  (benchmarks/_common.py)

from explorer.core.datasets import adult  # noqa: E402
from explorer.core.epsilon_choice import choose_epsilon  # noqa: E402
from explorer.core.epsilon_meaning import attribute_codes, read_epsilon  # noqa: E402

ALL_FIVE = dict(max_odds=20.0, max_best_guess=0.85, min_deniability=1.0, max_cluster_guess=0.85, max_error=0.03)
CONFLICT = dict(max_best_guess=0.8, min_deniability=1.2, max_error=0.005)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    with tee_stdout(args.out):
        print(f"python {platform.python_version()}, numpy {np.__version__}, {os.cpu_count()} CPUs, "
              f"load average {os.getloadavg()[0]:.2f}")
        labels, codes = attribute_codes(adult(), "marital-status")
        counts = np.bincount(codes, minlength=len(labels))
        n = int(counts.sum())
        print(f"UCI Adult marital-status: {len(labels)} categories, n = {n:,}")

        _, base, base_median = timed(lambda: read_epsilon(1.0, counts, n=n), args.repeat)
        print(f"baseline: one read_epsilon(1.0, n={n:,}):            best {1000 * base:7.2f} ms, "
              f"median {1000 * base_median:7.2f} ms")

        choice, best, median = timed(lambda: choose_epsilon(counts, **ALL_FIVE), args.repeat)
        print(f"choose_epsilon, all five requirements:           best {1000 * best:7.2f} ms, "
              f"median {1000 * median:7.2f} ms  (target < 50 ms; {median / base_median:.2f} x one read_epsilon)")
        print(f"    band {choice.low:.6g} <= eps <= {choice.high:.6g} (high by {choice.high_by}, low by "
              f"{choice.low_by}), feasible {choice.feasible}")

        conflict, best, median = timed(lambda: choose_epsilon(counts, **CONFLICT), args.repeat)
        print(f"choose_epsilon in conflict, with min_reports:    best {1000 * best:7.2f} ms, "
              f"median {1000 * median:7.2f} ms  (target < 200 ms; {median / base_median:.2f} x one read_epsilon)")
        print(f"    feasible {conflict.feasible}: min_reports = {conflict.min_reports:,} (n = {n:,})")

        weekly, best, median = timed(lambda: choose_epsilon(counts, **ALL_FIVE, reports_per_person=7), args.repeat)
        print(f"choose_epsilon, all five, 7 reports per person:  best {1000 * best:7.2f} ms, "
              f"median {1000 * median:7.2f} ms; high {weekly.high:.6g} = {choice.high:.6g} / 7")
        # What a keystroke costs in the view: the band, both figures redrawn and the frame rendered.
        os.environ.setdefault("MPLBACKEND", "Agg")
        from explorer.panels.epsilon_meaning import EpsilonMeaningPanel
        from explorer.state import AppState

        state = AppState(epsilon=1.0)
        state.select_dataset("UCI Adult")
        section = EpsilonMeaningPanel(state).choice_section
        for key, value in ALL_FIVE.items():
            section.fields[key].value = str(value)
        _, best, median = timed(section.refresh, max(3, args.repeat // 3))
        print(f"the view's redraw on a keystroke (band, two figures, one frame): best {1000 * best:7.2f} ms, "
              f"median {1000 * median:7.2f} ms")
        print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
