"""Benchmark: are the estimates shown before long work within 2x of what it then takes?

    python benchmarks/bench_estimates.py [--quick] [--only permutation,t_closeness,dominance]
                                         [--out benchmarks/results/estimates.txt]

Each tab that shows an estimate before long work is driven through its own panel API, as a user
would: its controls are set to a size, the estimate the panel shows (its ``estimate`` in seconds:
the core's work units of :mod:`explorer.core.cost` times the seconds per unit its ``THROUGHPUT``
has measured in this process) is read, then Compute is pressed and the time until the result is
on the panel (background thread, drawing included) is measured.  Every size goes through the
Compute button (the tab's threshold for running at once is set to 0), from small to a few seconds.

Calibration is the app's: each tab's ``THROUGHPUT`` starts at the reference rate (a fresh kernel),
the panel is opened on UCI Adult with its defaults (its opening view is computed at once and timed,
as in the app) and the rate then learns from every run.  A row estimated before any run was
observed is marked (reference rate) and left out of the summary "all within 2x", which is over
the calibrated rows.  Each case is run 3 times (each anew: a new seed, or the memo emptied); the
measured time is the median, the estimate the one shown before the first run.

Tabs: Permutation (Domingo-Ferrer and Muralidhar (2016)), t-closeness (Domingo-Ferrer and
Soria-Comas (2018)) and Dominance (Ruiz (2018)), on UCI Adult.  The multi-attribute RR tab shows no
time estimate (it shows its runs' progress as they complete), so it has no row.

Prints the load average at the start and the end; never asserts on time.  ``--quick``: fewer,
smaller sizes.  Nothing is written unless ``--out`` is given.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("MPLBACKEND", "Agg")

import _common  # noqa: E402

from explorer.core.datasets import adult  # noqa: E402
from explorer.state import AppState  # noqa: E402
from explorer.panels.tasks import Throughput  # noqa: E402

ROWS: list[dict] = []
REPEAT = 3


def _record(tab: str, case: str, estimate: float, times: list[float], calibrated: bool, error: str = "") -> None:
    measured = sorted(times)[len(times) // 2]
    ratio = measured / estimate if estimate > 0 else float("inf")
    ROWS.append(dict(tab=tab, case=case, estimate=estimate, measured=measured, ratio=ratio,
                     calibrated=calibrated, error=error, spread=max(times) / min(times)))
    flag = "" if calibrated else "  (reference rate: before any calibration)"
    within = "yes" if 0.5 <= ratio <= 2.0 else "NO"
    extra = f"  ERROR: {error}" if error else ""
    spread = f"{min(times):.2f}-{max(times):.2f}"
    print(f"  {case:<50} {estimate:8.2f} s {measured:8.2f} s  {spread:>11} {ratio:6.2f}   {within}{flag}{extra}",
          flush=True)


def _header(tab: str, throughput: Throughput) -> None:
    print(f"\n{tab}")
    print(f"  rate after the tab's opening view: {throughput.seconds_per_unit * 1e6:.3f} µs per unit "
          f"({throughput.observed} run(s) observed; reference 1 µs)")
    print(f"  {'case':<50} {'estimate':>10} {'measured':>10}  {'runs':>11} {'ratio':>6}   within 2x")


def _timed_runs(run, again) -> list[float]:
    """``run()`` timed ``REPEAT`` times, ``again()`` in between (so that each run computes anew)."""
    times = []
    for i in range(REPEAT):
        if i:
            again()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return times


def _adult_state(frame=None) -> AppState:
    state = AppState()
    state.dataset = frame if frame is not None else adult()
    state.dataset_name = "UCI Adult"
    return state


# ----------------------------------------------------------------------------------------- permutation
def bench_permutation(quick: bool) -> None:
    import explorer.panels.permutation as module

    module.THROUGHPUT = Throughput(1e-6)          # a fresh kernel: the reference rate
    panel = module.PermutationPanel(state=_adult_state(), source="shared")     # the app's opening view
    panel.needs_compute = lambda units: True      # every size waits for Compute, so that its estimate is shown
    cases = [(5000, 3, 10_000, "additive_noise", 0.5), (10_000, 3, 10_000, "additive_noise", 0.5),
             (32_561, 3, 10_000, "additive_noise", 0.5), (32_561, 6, 10_000, "additive_noise", 0.5),
             (32_561, 6, 200_000, "additive_noise", 0.5), (32_561, 6, 600_000, "additive_noise", 0.5),
             (32_561, 3, 10_000, "rank_swapping", 0.05), (5000, 3, 10_000, "multivariate_microaggregation", 3),
             (10_000, 3, 10_000, "multivariate_microaggregation", 3)]
    if quick:
        cases = cases[:3] + cases[6:8]
    columns = ["age", "fnlwgt", "education-num", "capital-gain", "capital-loss", "hours-per-week"]
    _header("Permutation (Domingo-Ferrer and Muralidhar (2016)): UCI Adult", module.THROUGHPUT)

    def again():
        panel.seed.value += 1                     # a new analysis of the same size

    def run():
        panel.compute_button.click()
        panel.task.wait()

    for n, m, randoms, method, parameter in cases:
        calibrated = module.THROUGHPUT.observed > 0
        panel.columns.value = tuple(columns[:m])
        panel.method.value = method
        if not panel.parameter.disabled:
            panel.parameter.value = parameter
        panel.max_records.value = n
        panel.n_random.value = randoms
        again()
        if panel._pending is None:
            raise RuntimeError(f"nothing pending for {n} x {m}: {panel.status.message}")
        estimate = panel.estimate
        times = _timed_runs(run, again)
        error = panel.status.message if panel.status.is_error else ""
        _record("Permutation", f"{n:,} x {m}, {randoms:,} random, {method.replace('_', ' ')} {parameter:g}",
                estimate, times, calibrated, error)


# ----------------------------------------------------------------------------------------- t-closeness
def bench_t_closeness(quick: bool) -> None:
    import explorer.panels.t_closeness as module

    module.THROUGHPUT = Throughput(1e-6)
    full = adult()
    state = _adult_state(full)
    panel = module.TClosenessPanel(state=state)   # the app's opening view: full Adult, k = 50, at once
    panel.wait()
    panel.needs_compute = lambda units: True      # every clustering waits for Compute, so that its estimate is shown
    cases = [(32_561, 20, "mdav"), (32_561, 10, "mdav"), (20_000, 5, "mdav"), (32_561, 5, "mdav"),
             (32_561, 3, "mdav"), (20_000, 10, "t_close"), (32_561, 20, "t_close"), (32_561, 10, "t_close")]
    if quick:
        cases = cases[:2] + cases[5:6]
    _header("t-closeness (Domingo-Ferrer and Soria-Comas (2018)): UCI Adult, default quasi-identifiers",
            module.THROUGHPUT)

    def again():
        panel._cache.clear()                      # the memo of clusterings: each run clusters anew

    def run():
        panel.cluster_button.click()
        panel.wait()

    for index, (n, k, method) in enumerate(cases):
        calibrated = module.THROUGHPUT.observed > 0
        frame = full if n >= len(full) else full.sample(n, random_state=index)
        if state.dataset is not frame:
            state.dataset = frame
        panel.method.value = method
        panel.k.value = k
        panel.wait()
        again()
        estimate = module.THROUGHPUT.estimate(panel._units())
        times = _timed_runs(run, again)
        error = panel.status.message if panel.status.is_error else ""
        if panel.clustering is None or panel.clustering.labels.size != n:
            error = error or f"no clustering of {n} records shown ({panel.status.message})"
        _record("t-closeness", f"{n:,} records, {method.replace('_', ' ')}, k = {k}", estimate, times, calibrated,
                error)


# ------------------------------------------------------------------------------------------ dominance
def bench_dominance(quick: bool) -> None:
    import explorer.panels.dominance as module

    module.THROUGHPUT = Throughput(1e-6)
    panel = module.DominancePanel(state=_adult_state())     # the app's opening view: a 5,000-record sample
    panel.needs_compute = lambda units: True     # every change waits for Compute, so that its estimate is shown
    two = [("additive_noise", 0.5), ("rank_swapping", 0.1)]
    four = two + [("univariate_microaggregation", 5.0), ("multivariate_microaggregation", 5.0)]
    cases = [(10_000, two), (20_000, two), (0, two), (0, [("rank_swapping", 0.5), ("additive_noise", 0.5)]),
             (10_000, four), (20_000, four), (0, [("multivariate_microaggregation", 10.0), ("identity", None)])]
    if quick:
        cases = cases[:2] + cases[4:5]
    _header("Dominance (Ruiz (2018)): UCI Adult, 6 numeric attributes, default views", module.THROUGHPUT)

    def again():
        panel.seed.value += 1                     # new masks (and a new sample): nothing in the memo

    def run():
        panel.compute_button.click()
        panel.wait()

    for n, configs in cases:
        calibrated = module.THROUGHPUT.observed > 0
        panel.n_configs.value = len(configs)
        for i, (method, parameter) in enumerate(configs):
            panel.methods[i].value = method
            if parameter is not None:
                panel.parameters[i].value = parameter
        panel.max_records.value = n
        again()
        if not panel.stale.stale:
            raise RuntimeError(f"nothing to compute for {n}, {configs}: {panel.status.message}")
        estimate = panel.estimate
        times = _timed_runs(run, again)
        error = panel.status.message if panel.status.is_error else ""
        names = " + ".join(m.replace("_", " ").replace("microaggregation", "MA") + (f" {p:g}" if p else "")
                           for m, p in configs)
        size = "all 32,561" if n == 0 else f"{n:,}"
        _record("Dominance", f"{size}: {names}"[:50], estimate, times, calibrated, error)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", default="permutation,t_closeness,dominance")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    with _common.tee_stdout(args.out):
        print(f"bench_estimates: estimate shown before Compute vs measured time until the result is shown "
              f"({platform.python_version()}, {os.cpu_count()} cores)")
        print(f"load average at start: {tuple(round(x, 2) for x in os.getloadavg())}")
        print("ratio = measured / estimate; within 2x: 0.5 <= ratio <= 2")
        benches = {"permutation": bench_permutation, "t_closeness": bench_t_closeness, "dominance": bench_dominance}
        for name in args.only.split(","):
            benches[name.strip()](args.quick)
        calibrated = [r for r in ROWS if r["calibrated"]]
        first = [r for r in ROWS if not r["calibrated"]]
        ok = all(0.5 <= r["ratio"] <= 2.0 and not r["error"] for r in calibrated)
        worst = max(calibrated, key=lambda r: max(r["ratio"], 1 / r["ratio"]), default=None)
        print(f"\nload average at end: {tuple(round(x, 2) for x in os.getloadavg())}")
        if worst is not None:
            print(f"calibrated rows: {len(calibrated)}; ratios from {min(r['ratio'] for r in calibrated):.2f} to "
                  f"{max(r['ratio'] for r in calibrated):.2f} (worst: {worst['tab']}, {worst['case']})")
        if first:
            print("rows at the reference rate, before any calibration: "
                  + ", ".join(f"{r['tab']} {r['ratio']:.2f}" for r in first))
        inside = sum(0.5 <= r["ratio"] <= 2.0 and not r["error"] for r in calibrated)
        spreads = sorted(r["spread"] for r in ROWS)
        if spreads:
            print(f"noise of this machine: the slowest of a case's {REPEAT} runs over its fastest, median "
                  f"{spreads[len(spreads) // 2]:.2f}, largest {spreads[-1]:.2f}")
        print(f"within 2x: {inside} of {len(calibrated)} calibrated rows")
        print(f"all within 2x: {'yes' if ok else 'no'}")


if __name__ == "__main__":
    main()
