"""The experiment runner of Domingo-Ferrer and Soria-Comas (2022), unchanged, on a Dask distributed executor.

    pip install ".[bench]" && python benchmarks/bench_multidim_rr_dask.py [--out PATH]

Runs the same Table 1 cells with the default local process pool and with a
``distributed.LocalCluster`` (2 worker processes) through ``Client.get_executor()``,
checks that the per-run rows are identical (results do not depend on the executor),
and prints both times (written to PATH only with ``--out``; the committed figures are
``benchmarks/results/multidim_rr_dask.txt``).  On a real cluster, pass
``Client("scheduler:8786").get_executor()``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from explorer.core.mdrr import experiments as ex

ORDER = ["cell", "method", "run", "query"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=None, help="also write the figures to this file")
    args = parser.parse_args(argv)
    from distributed import Client, LocalCluster   # optional: pip install ".[bench]"

    kw = dict(ps=[0.3, 0.7], t_ds=[0.2], t_vs=[100], runs=100, seed=11)
    started = time.perf_counter()
    local = ex.run_table(**kw)
    t_local = time.perf_counter() - started
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        started = time.perf_counter()
        dask = ex.run_table(**kw, executor=client.get_executor())
        t_dask = time.perf_counter() - started
    a = local.rows.sort_values(ORDER).reset_index(drop=True)
    b = dask.rows.sort_values(ORDER).reset_index(drop=True)
    lines = [
        f"Table 1 cells (Domingo-Ferrer and Soria-Comas 2022) p in {kw['ps']}, T_d = 0.2, T_v = 100, {kw['runs']} runs each ({len(a)} rows)",
        f"default local process pool: {t_local:.2f} s",
        f"dask.distributed LocalCluster, 2 worker processes, Client.get_executor(): {t_dask:.2f} s",
        f"per-run rows identical: {a.equals(b)}",
    ]
    text = "\n".join(lines)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
