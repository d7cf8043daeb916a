"""Benchmark: are the estimates shown before long work within 2x of what it then takes?

    python benchmarks/bench_estimates.py [--quick] [--only permutation,t_closeness,dominance]
                                         [--out benchmarks/results/estimates.txt]

Each tab that shows an estimate before long work is driven through its own panel API, as a user
would: its controls are set to a size, the estimate the panel shows (its ``estimate`` in seconds:
the core's work units of :mod:`explorer.core.cost` times the seconds per unit its ``THROUGHPUT``
has measured in this process) is read, then Compute is pressed and the time until the result is
on the panel (background thread, drawing included) is measured.  Every size goes through the
Compute button (the tab's threshold for running at once is set to 0), from small to a few seconds.

Calibration is the app's: each tab's ``THROUGHPUT`` starts at the reference rate (a fresh kernel)
and learns from every run it times; the first row of each tab is therefore an estimate at the
reference rate, before any calibration, and is reported apart.  The summary
"all within 2x" is over the calibrated rows (every row after each tab's first).

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
from explorer.panels._base import AppState, Throughput  # noqa: E402

ROWS: list[dict] = []


def _record(tab: str, case: str, estimate: float, measured: float, calibrated: bool, error: str = "") -> None:
    ratio = measured / estimate if estimate > 0 else float("inf")
    ROWS.append(dict(tab=tab, case=case, estimate=estimate, measured=measured, ratio=ratio,
                     calibrated=calibrated, error=error))
    flag = "" if calibrated else "  (reference rate: before any calibration)"
    within = "yes" if 0.5 <= ratio <= 2.0 else "NO"
    extra = f"  ERROR: {error}" if error else ""
    print(f"  {case:<52} {estimate:8.2f} s {measured:8.2f} s {ratio:7.2f}   {within}{flag}{extra}", flush=True)


def _header(tab: str) -> None:
    print(f"\n{tab}")
    print(f"  {'case':<52} {'estimate':>10} {'measured':>10} {'ratio':>7}   within 2x")


def _adult_state(frame=None) -> AppState:
    state = AppState()
    state.dataset = frame if frame is not None else adult()
    state.dataset_name = "UCI Adult"
    return state


# ----------------------------------------------------------------------------------------- permutation
def bench_permutation(quick: bool) -> None:
    import explorer.panels.permutation as module

    module.THROUGHPUT = Throughput(1e-6)          # a fresh kernel: the reference rate
    module.SLOW_SECONDS = 0.0                     # every size waits for Compute, so that its estimate is shown
    panel = module.PermutationPanel(state=_adult_state(), source="shared")
    cases = [(2000, 3, "additive_noise", 0.5), (5000, 3, "additive_noise", 0.5),
             (10_000, 3, "additive_noise", 0.5), (20_000, 3, "additive_noise", 0.5),
             (32_561, 3, "additive_noise", 0.5), (32_561, 6, "additive_noise", 0.5),
             (20_000, 3, "rank_swapping", 0.05), (5000, 3, "multivariate_microaggregation", 3),
             (10_000, 3, "multivariate_microaggregation", 5)]
    if quick:
        cases = cases[:3] + cases[6:8]
    columns = ["age", "fnlwgt", "education-num", "capital-gain", "capital-loss", "hours-per-week"]
    _header("Permutation (Domingo-Ferrer and Muralidhar (2016)): UCI Adult, 10,000 random records")
    for index, (n, m, method, parameter) in enumerate(cases):
        panel.columns.value = tuple(columns[:m])
        panel.method.value = method
        if not panel.parameter.disabled:
            panel.parameter.value = parameter
        panel.max_records.value = n
        panel.n_random.value = 10_000
        panel.seed.value = index + 1              # a change that always needs a new analysis
        if panel._pending is None:
            raise RuntimeError(f"nothing pending for {n} x {m}: {panel.status.message}")
        estimate = panel.estimate
        start = time.perf_counter()
        panel.compute_button.click()
        panel.task.wait()
        measured = time.perf_counter() - start
        error = panel.status.message if panel.status.is_error else ""
        _record("Permutation", f"{n:,} x {m}, {method.replace('_', ' ')} {parameter:g}", estimate, measured,
                index > 0, error)


# ----------------------------------------------------------------------------------------- t-closeness
def bench_t_closeness(quick: bool) -> None:
    import explorer.panels.t_closeness as module

    module.THROUGHPUT = Throughput(1e-6)
    full = adult()
    cases = [(5000, 10, "mdav"), (10_000, 10, "mdav"), (20_000, 20, "mdav"), (32_561, 20, "mdav"),
             (32_561, 10, "mdav"), (10_000, 20, "t_close"), (20_000, 20, "t_close")]
    if quick:
        cases = cases[:3] + cases[5:6]
    state = _adult_state(full.sample(1000, random_state=0))
    panel = module.TClosenessPanel(state=state, k=10)
    panel.AUTO_COST = 0.0                         # every clustering waits for Compute, so that its estimate is shown
    panel.background_cost = 0.0
    _header("t-closeness (Domingo-Ferrer and Soria-Comas (2018)): UCI Adult sample, default quasi-identifiers")
    for index, (n, k, method) in enumerate(cases):
        frame = full if n >= len(full) else full.sample(n, random_state=index)
        state.dataset = frame
        panel.method.value = method
        panel.k.value = k
        panel.wait()
        estimate = panel._seconds()
        start = time.perf_counter()
        panel.cluster_button.click()
        panel.wait()
        measured = time.perf_counter() - start
        error = panel.status.message if panel.status.is_error else ""
        if panel.clustering is None or panel.clustering.labels.size != n:
            error = error or f"no clustering of {n} records shown ({panel.status.message})"
        _record("t-closeness", f"{n:,} records, {method.replace('_', ' ')}, k = {k}", estimate, measured,
                index > 0, error)


# ------------------------------------------------------------------------------------------ dominance
def bench_dominance(quick: bool) -> None:
    import explorer.panels.dominance as module

    module.THROUGHPUT = Throughput(1e-6)
    panel = module.DominancePanel(state=_adult_state(), max_records=1000)
    panel.background_seconds = 0.0               # every change waits for Compute, so that its estimate is shown
    two = [("additive_noise", 0.5), ("rank_swapping", 0.1)]
    four = two + [("univariate_microaggregation", 5.0), ("multivariate_microaggregation", 5.0)]
    cases = [(2000, two, None), (5000, two, None), (10_000, two, None), (20_000, two, None), (0, two, None),
             (0, two, -30.0), (5000, four, None), (10_000, four, None), (0, [("rank_swapping", 0.5)] + two[:1],
                                                                        None)]
    if quick:
        cases = cases[:3] + cases[6:7]
    _header("Dominance (Ruiz (2018)): UCI Adult, 6 numeric attributes, default views")
    for index, (n, configs, alpha_min) in enumerate(cases):
        panel.n_configs.value = len(configs)
        for i, (method, parameter) in enumerate(configs):
            panel.methods[i].value = method
            panel.parameters[i].value = parameter
        panel.max_records.value = n
        panel.alpha_min.value = alpha_min if alpha_min is not None else -10.0
        if not panel.stale.stale:
            raise RuntimeError(f"nothing to compute for case {index}: {panel.status.message}")
        estimate = panel.estimate
        start = time.perf_counter()
        panel.compute_button.click()
        panel.wait()
        measured = time.perf_counter() - start
        error = panel.status.message if panel.status.is_error else ""
        names = " + ".join(f"{m.replace('_', ' ')} {p:g}" for m, p in configs)
        size = "all 32,561" if n == 0 else f"{n:,}"
        what = f"{size}: {names}" if alpha_min is None else f"{size}: new α grid only (curves from the memo)"
        _record("Dominance", what[:52], estimate, measured, index > 0, error)


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
        print("first row of each tab (reference rate, before calibration): "
              + ", ".join(f"{r['tab']} {r['ratio']:.2f}" for r in first))
        print(f"all within 2x: {'yes' if ok else 'no'}")


if __name__ == "__main__":
    main()
