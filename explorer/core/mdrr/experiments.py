"""Monte Carlo experiments of Domingo-Ferrer and Soria-Comas (2022), Section 6: Tables 1-2 and Figures 2-3.

A run randomizes the whole data set once (RR-Independent and/or RR-Clusters),
estimates the distributions, optionally adjusts the weights (Algorithm 2), and
answers count queries (Section 6.5): S covers a share sigma of the value
combinations of two random attributes; Eq. (16) gives the absolute and the
relative error; the reported figure is the median over runs.

A set S with X_S = 0 has no relative error (Eq. 16 divides by X_S): such an S
is redrawn (up to 100 times; a run whose S stays empty records NaN, which the
medians skip).  The same S serves every method of a run (paired comparison).

Work is cut into chunks of runs submitted to any ``concurrent.futures.Executor``
(a local process pool by default; ``distributed.Client(...).get_executor()``
runs the same code on a Dask cluster).  Seeds are derived per (cell, run) from
one ``seed`` with ``numpy.random.SeedSequence``, so results do not depend on
the executor or the chunking.  A progress callback, an ``on_result`` callback
(each finished chunk as a DataFrame) and a cancel flag let a panel show runs as
they complete; a cancelled experiment keeps the runs already done.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from concurrent.futures import Executor, Future, ProcessPoolExecutor, wait, FIRST_COMPLETED
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd

from explorer._validation import check_epsilon, check_int, check_number, check_probability
from explorer.core.datasets import adult, adult6
from explorer.core.mdrr.adjustment import rr_adjust
from explorer.core.mdrr.count_queries import (
    count_query_errors,
    query_frequency_clusters,
    query_frequency_independent,
    query_frequency_weighted,
    random_count_query,
)
from explorer.core.mdrr.dependence import DEPENDENCE_METHODS, cluster_attributes, dependence_matrix
from explorer.core.rr.estimation import PROPER_METHODS
from explorer.core.rr.mechanisms import MECHANISMS, n_combinations
from explorer.core.mdrr.protocols import CategoricalData, encode_categorical, rr_clusters, rr_independent
from explorer.errors import DatasetError, ExplorerError, InvalidParameterError

__all__ = ["PAPER_RUNS", 
    "ADULT_MDRR_ATTRIBUTES",
    "METHODS",
    "TABLE_P",
    "TABLE_TD",
    "TABLE_TV",
    "FIGURE_SIGMAS",
    "PAPER_TABLE1",
    "PAPER_TABLE2",
    "ExperimentResult",
    "adult_mdrr_data",
    "run_table",
    "run_figure3",
    "summarize",
    "table_view",
    "compare_with_paper",
    "best_cells",
    "feasible_t_vs",
    "error_curves",
    "table_cells",
    "cli",
]

#: The 8 categorical attributes of Domingo-Ferrer and Soria-Comas (2022), Section 6.1 (1,814,400 combinations).
ADULT_MDRR_ATTRIBUTES = ("workclass", "education", "marital-status", "occupation", "relationship", "race", "sex",
                         "income")
#: The methods of Section 6.2, plus "Randomized" (Figure 2: the raw reports, no Eq. (2)).
METHODS = ("RR-Independent", "RR-Clusters", "RR-Independent + Adjustment", "RR-Clusters + Adjustment", "Randomized")
TABLE_P = (0.1, 0.3, 0.5, 0.7)
TABLE_TD = (0.1, 0.2, 0.3)
TABLE_TV = (50, 100, 300)
#: Runs per cell of the paper's experiments (Section 6.5: "median values over 1000 runs").
PAPER_RUNS = 1000
FIGURE_SIGMAS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)

_PAPER_TABLE1_TEXT = """
0.1 0.1 0.335 0.404 0.495
0.1 0.2 0.357 0.351 0.501
0.1 0.3 0.285 0.426 0.505
0.3 0.1 0.335 0.334 0.426
0.3 0.2 0.262 0.310 0.435
0.3 0.3 0.199 0.306 0.445
0.5 0.1 0.094 0.148 0.214
0.5 0.2 0.107 0.127 0.236
0.5 0.3 0.116 0.119 0.212
0.7 0.1 0.069 0.069 0.074
0.7 0.2 0.070 0.075 0.071
0.7 0.3 0.070 0.068 0.079
"""
_PAPER_TABLE2_TEXT = """
0.1 0.1 0.189 0.312 0.459
0.1 0.2 0.173 0.310 0.449
0.1 0.3 0.183 0.339 0.462
0.3 0.1 0.149 0.202 0.369
0.3 0.2 0.171 0.225 0.376
0.3 0.3 0.178 0.217 0.369
0.5 0.1 0.080 0.084 0.123
0.5 0.2 0.082 0.075 0.126
0.5 0.3 0.083 0.079 0.127
0.7 0.1 0.064 0.066 0.056
0.7 0.2 0.064 0.066 0.057
0.7 0.3 0.065 0.065 0.060
"""


def _parse_table(text: str) -> pd.DataFrame:
    rows = []
    for line in text.strip().splitlines():
        p, td, *cells = (float(x) for x in line.split())
        for tv, value in zip(TABLE_TV, cells):
            rows.append({"p": p, "T_d": td, "T_v": tv, "relative_error": value})
    return pd.DataFrame(rows)


#: Domingo-Ferrer and Soria-Comas (2022), Table 1 as printed (Adult): long form p, T_d, T_v, relative_error.
PAPER_TABLE1 = _parse_table(_PAPER_TABLE1_TEXT)
#: Domingo-Ferrer and Soria-Comas (2022), Table 2 as printed (Adult6).
PAPER_TABLE2 = _parse_table(_PAPER_TABLE2_TEXT)


def adult_mdrr_data(six: bool = False) -> CategoricalData:
    """Adult (or Adult6) restricted to Section 6.1's 8 categorical attributes, encoded.

    Examples
    --------
    >>> adult_mdrr_data().cardinalities
    (9, 16, 7, 15, 6, 5, 2, 2)
    """
    return encode_categorical((adult6 if six else adult)(), list(ADULT_MDRR_ATTRIBUTES))


@dataclass(frozen=True)
class ExperimentResult:
    """Runs of an experiment: one row per (cell, run, sigma, method, query) and the medians.

    ``cancelled`` is True when the experiment stopped early; ``rows`` then holds
    the runs completed before the cancel.
    """

    rows: pd.DataFrame
    summary: pd.DataFrame
    runs_requested: int
    runs_done: int
    cancelled: bool
    elapsed: float


# --------------------------------------------------------------------------- one chunk of runs (picklable)

def _run_chunk(task: dict) -> pd.DataFrame:
    """Run ``task["runs"]`` runs of one cell; top-level so process pools and Dask can ship it."""
    codes = task["codes"].astype(np.int64)
    cards = tuple(task["cardinalities"])
    data = CategoricalData(codes=codes, cardinalities=cards, names=tuple(task["names"]),
                           labels=tuple(() for _ in cards), ordinal=tuple(task["ordinal"]))
    p, epsilon, methods = task["p"], task.get("epsilon"), task["methods"]
    rows: list[dict] = []
    for run in task["runs"]:
        try:
            rows.extend(_one_run(task, data, run))
        except ExplorerError as error:  # e.g. a singular matrix (paper-6.3.1 at p|A| = 1 - p): NaN, with the reason
            for sigma in task["sigmas"]:
                for method in methods:
                    rows.append({"cell": task["cell"], "p": p, "epsilon": epsilon, "T_d": task["t_d"],
                                 "T_v": task["t_v"], "sigma": sigma, "method": method, "run": run, "query": 0,
                                 "attributes": "", "X_S": np.nan, "Y_S": np.nan, "absolute_error": np.nan,
                                 "relative_error": np.nan, "n_clusters": np.nan, "largest_cluster": np.nan,
                                 "note": str(error)})
    return pd.DataFrame(rows)


def _one_run(task: dict, data: CategoricalData, run: int) -> list[dict]:
    codes, cards = data.codes, data.cardinalities
    p, mechanism, proper, epsilon = task["p"], task["mechanism"], task["proper"], task.get("epsilon")
    methods = task["methods"]
    n = codes.shape[0]
    rows: list[dict] = []
    rng = np.random.default_rng(np.random.SeedSequence(task["seed"], spawn_key=(task["cell"], run)))
    clusters = task["clusters"]
    if clusters is None:  # dependences from randomized data: a fresh round per run (Section 4.1)
        dep = dependence_matrix(data, task["dependence"], p=p, mechanism=mechanism, epsilon=epsilon,
                                rng=rng, proper=proper)
        clusters = cluster_attributes(dep, cards, task["t_v"], task["t_d"])
    freq: dict[str, Callable[[Any], float]] = {}
    if any(m in methods for m in ("RR-Independent", "RR-Independent + Adjustment", "Randomized")):
        ind = rr_independent(codes, cards, p, mechanism=mechanism, epsilon=epsilon, rng=rng, method=proper)
        freq["RR-Independent"] = lambda q, ind=ind: query_frequency_independent(ind.marginals, q)
        if "Randomized" in methods:
            flat = np.full(n, 1.0 / n)
            freq["Randomized"] = lambda q, ind=ind, flat=flat: query_frequency_weighted(ind.reports, flat, q)
        if "RR-Independent + Adjustment" in methods:
            adj = rr_adjust(ind.reports, ind.marginals, cardinalities=cards, max_sweeps=task["sweeps"],
                            tolerance=task["tolerance"])
            freq["RR-Independent + Adjustment"] = (
                lambda q, ind=ind, adj=adj: query_frequency_weighted(ind.reports, adj.weights, q))
    if any(m in methods for m in ("RR-Clusters", "RR-Clusters + Adjustment")):
        clu = rr_clusters(codes, cards, clusters, p, mechanism=mechanism, epsilon=epsilon, rng=rng,
                          method=proper)
        freq["RR-Clusters"] = lambda q, clu=clu: query_frequency_clusters(clu, q)
        if "RR-Clusters + Adjustment" in methods:
            reports = clu.report_codes()
            adj = rr_adjust(reports, clu.estimates, blocks=clu.clusters, cardinalities=cards,
                            max_sweeps=task["sweeps"], tolerance=task["tolerance"])
            freq["RR-Clusters + Adjustment"] = (
                lambda q, reports=reports, adj=adj: query_frequency_weighted(reports, adj.weights, q))
    n_clusters = len(clusters)
    largest = max(n_combinations([cards[a] for a in c]) for c in clusters)
    for sigma in task["sigmas"]:
        for qi in range(task["queries"]):
            query, x_s = None, 0
            for _ in range(100):  # X_S = 0 has no relative error: redraw S
                query = random_count_query(cards, sigma, rng)
                x_s = query.true_count(codes)
                if x_s > 0:
                    break
            for method in methods:
                y_s = n * freq[method](query)
                e_abs, e_rel = count_query_errors(y_s, x_s)
                rows.append({"cell": task["cell"], "p": p, "epsilon": epsilon, "T_d": task["t_d"],
                             "T_v": task["t_v"],
                             "sigma": sigma, "method": method, "run": run, "query": qi,
                             "attributes": f"{query.attributes[0]},{query.attributes[1]}",
                             "X_S": x_s, "Y_S": y_s, "absolute_error": e_abs, "relative_error": e_rel,
                             "n_clusters": n_clusters, "largest_cluster": largest, "note": ""})
    return rows


# --------------------------------------------------------------------------- the runner

def _check_common(runs: Any, dependence: str, mechanism: str, proper: str, epsilon: Any = None) -> int:
    runs = check_int(runs, "runs", minimum=1)
    if mechanism == "epsilon":
        check_epsilon(epsilon, "epsilon", allow_zero=False)
    if dependence not in DEPENDENCE_METHODS:
        raise InvalidParameterError(f"dependence must be one of {DEPENDENCE_METHODS}, got {dependence!r}")
    if mechanism not in MECHANISMS:
        raise InvalidParameterError(f"mechanism must be one of {MECHANISMS}, got {mechanism!r}")
    if proper not in PROPER_METHODS:
        raise InvalidParameterError(f"proper must be one of {PROPER_METHODS}, got {proper!r}")
    return runs


def _as_data(data: Any) -> CategoricalData:
    if data is None:
        return adult_mdrr_data()
    if isinstance(data, CategoricalData):
        return data
    if isinstance(data, pd.DataFrame):
        return encode_categorical(data)
    raise DatasetError(f"data must be a DataFrame or CategoricalData, got {type(data).__name__}")


def _cancelled(cancel: Any) -> bool:
    if cancel is None:
        return False
    if hasattr(cancel, "is_set"):
        return bool(cancel.is_set())
    return bool(cancel())


def _execute(cells: list[dict], data: CategoricalData, runs: int, *, seed: int, chunk: int | None,
             executor: Executor | None, progress: Callable | None, on_result: Callable | None,
             cancel: Any, group: Sequence[str]) -> ExperimentResult:
    start = time.perf_counter()
    if len(data.cardinalities) < 2:
        raise InvalidParameterError("count queries need at least 2 attributes, got "
                                    f"{len(data.cardinalities)}")
    chunk = check_int(chunk, "chunk", minimum=1) if chunk is not None else max(1, min(100, math.ceil(runs / 10)))
    codes = data.codes.astype(np.uint16 if max(data.cardinalities) < 65536 else np.int64)
    tasks = []
    for cell in cells:
        for first in range(0, runs, chunk):
            tasks.append(dict(cell, codes=codes, cardinalities=data.cardinalities, names=data.names,
                              ordinal=data.ordinal, seed=seed, runs=list(range(first, min(runs, first + chunk)))))
    total = len(cells) * runs
    own = executor is None
    if own:
        executor = ProcessPoolExecutor(max_workers=max(1, min(os.cpu_count() or 1, len(tasks))))
    frames: list[pd.DataFrame] = []
    done_runs = 0
    cancelled = False
    pending: dict[Future, int] = {}
    queue = list(tasks)
    window = 4 * max(1, getattr(executor, "_max_workers", 2) or 2)
    try:
        while queue or pending:
            if _cancelled(cancel):
                cancelled = True
                break
            while queue and len(pending) < window:
                task = queue.pop(0)
                pending[executor.submit(_run_chunk, task)] = len(task["runs"])
            finished, _ = wait(list(pending), timeout=0.2, return_when=FIRST_COMPLETED)
            for future in finished:
                n_runs = pending.pop(future)
                frame = future.result()
                frames.append(frame)
                done_runs += n_runs
                if on_result is not None:
                    on_result(frame)
                if progress is not None:
                    progress(done_runs, total)
    finally:
        for future in pending:
            future.cancel()
        if own:
            executor.shutdown(wait=True, cancel_futures=True)
    rows = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
        columns=["cell", "p", "epsilon", "T_d", "T_v", "sigma", "method", "run", "query", "attributes", "X_S", "Y_S",
                 "absolute_error", "relative_error", "n_clusters", "largest_cluster", "note"])
    return ExperimentResult(rows=rows, summary=summarize(rows, group), runs_requested=total, runs_done=done_runs,
                            cancelled=cancelled, elapsed=time.perf_counter() - start)


def summarize(rows: pd.DataFrame, group: Sequence[str] = ("p", "T_d", "T_v", "sigma", "method")) -> pd.DataFrame:
    """Medians over runs (NaN relative errors, from X_S = 0, are skipped) and the run counts."""
    group = list(group)
    if rows.empty:
        return pd.DataFrame(columns=group + ["absolute_error", "relative_error", "runs", "n_clusters"])
    out = rows.groupby(group, sort=True).agg(absolute_error=("absolute_error", "median"),
                                             relative_error=("relative_error", "median"),
                                             runs=("run", "nunique"),
                                             n_clusters=("n_clusters", "median")).reset_index()
    return out


def run_table(data: Any = None, *, ps: Sequence[float] = TABLE_P, t_ds: Sequence[float] = TABLE_TD,
              t_vs: Sequence[float] = TABLE_TV, sigma: float = 0.1, runs: int = PAPER_RUNS, seed: int = 0,
              dependence: str = "true", mechanism: str = "keep-or-uniform", proper: str = "clip",
              queries: int = 1, methods: Sequence[str] = ("RR-Clusters",), executor: Executor | None = None,
              chunk: int | None = None, progress: Callable | None = None, on_result: Callable | None = None,
              cancel: Any = None, adjust_sweeps: int = 10, adjust_tolerance: float = 1e-9,
              epsilon: float | None = None) -> ExperimentResult:
    """The grid of Domingo-Ferrer and Soria-Comas (2022), Table 1 (Adult, the default) or Table 2 (``data=adult_mdrr_data(six=True)``).

    Tables 1-2 of Domingo-Ferrer and Soria-Comas (2022).

    One cell per (p, T_d, T_v): RR-Clusters' relative error for S of coverage
    ``sigma``, the median over ``runs`` runs.  With ``dependence="true"`` the
    clusters of a cell are computed once from the true data; other dependence
    methods recompute them each run from freshly randomized data.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
       Transactions on Knowledge and Data Engineering, 2022.

    Computes: Domingo-Ferrer and Soria-Comas (2022), Table 1; Domingo-Ferrer and Soria-Comas (2022), Table 2.

    Examples
    --------
    >>> from concurrent.futures import ThreadPoolExecutor
    >>> with ThreadPoolExecutor(1) as pool:
    ...     out = run_table(ps=[0.7], t_ds=[0.3], t_vs=[50], runs=2, executor=pool)
    >>> out.summary[["p", "T_d", "T_v", "runs"]].values.tolist()
    [[0.7, 0.3, 50.0, 2.0]]
    """
    runs = _check_common(runs, dependence, mechanism, proper, epsilon)
    data = _as_data(data)
    sigma = check_number(sigma, "sigma", minimum=0.0, maximum=1.0, include_minimum=False)
    bad = [m for m in methods if m not in METHODS]
    if bad or not methods:
        raise InvalidParameterError(f"methods must be among {METHODS}, got {list(methods)}")
    dep = dependence_matrix(data, "true") if dependence == "true" else None
    cells = []
    for p in ps:
        p = check_probability(p, "p", allow_zero=False)
        for t_d in t_ds:
            for t_v in t_vs:
                clusters = cluster_attributes(dep, data.cardinalities, t_v, t_d) if dep is not None else None
                if dep is None:  # validate the thresholds now rather than in a worker
                    cluster_attributes(np.eye(len(data.cardinalities)), data.cardinalities, t_v, t_d)
                cells.append(dict(cell=len(cells), p=float(p), t_d=float(t_d), t_v=float(t_v), clusters=clusters,
                                  dependence=dependence, mechanism=mechanism, proper=proper, methods=list(methods),
                                  epsilon=epsilon,
                                  sigmas=[sigma], queries=check_int(queries, "queries", minimum=1),
                                  sweeps=adjust_sweeps, tolerance=adjust_tolerance))
    return _execute(cells, data, runs, seed=seed, chunk=chunk, executor=executor, progress=progress,
                    on_result=on_result, cancel=cancel, group=("p", "T_d", "T_v", "sigma", "method"))


def best_cells(table: pd.DataFrame = PAPER_TABLE1) -> dict[float, tuple[float, float]]:
    """For each p, the (T_v, T_d) of the lowest relative error in a long frame like Domingo-Ferrer and Soria-Comas (2022), Table 1.

    Section 6.5 runs Figure 3 with "the best values for T_v and T_d identified in Table 1".

    Examples
    --------
    >>> best_cells()[0.5]
    (50.0, 0.1)
    """
    out = {}
    for p, part in table.groupby("p"):
        row = part.loc[part["relative_error"].idxmin()]
        out[float(p)] = (float(row["T_v"]), float(row["T_d"]))
    return out


def run_figure3(data: Any = None, *, ps: Sequence[float] = TABLE_P, sigmas: Sequence[float] = FIGURE_SIGMAS,
                thresholds: dict[float, tuple[float, float]] | None = None, runs: int = PAPER_RUNS, seed: int = 0,
                dependence: str = "true", mechanism: str = "keep-or-uniform", proper: str = "clip",
                queries: int = 1, methods: Sequence[str] = METHODS[:4], executor: Executor | None = None,
                chunk: int | None = None, progress: Callable | None = None, on_result: Callable | None = None,
                cancel: Any = None, adjust_sweeps: int = 10, adjust_tolerance: float = 1e-9,
                epsilon: float | None = None) -> ExperimentResult:
    """Domingo-Ferrer and Soria-Comas (2022), Figures 2-3: the methods' errors against the coverage sigma, for each p.

    ``thresholds[p] = (T_v, T_d)`` (default: the best cells of the printed Table 1,
    as Section 6.5 does).  Include "Randomized" in ``methods`` for Figure 2.

    Computes: Domingo-Ferrer and Soria-Comas (2022), Fig. 2; Domingo-Ferrer and Soria-Comas (2022), Fig. 3.
    """
    runs = _check_common(runs, dependence, mechanism, proper, epsilon)
    data = _as_data(data)
    bad = [m for m in methods if m not in METHODS]
    if bad or not methods:
        raise InvalidParameterError(f"methods must be among {METHODS}, got {list(methods)}")
    sigmas = [check_number(s, "sigma", minimum=0.0, maximum=1.0, include_minimum=False) for s in sigmas]
    if not sigmas:
        raise InvalidParameterError("sigmas must hold at least one coverage, got none")
    best = best_cells() if thresholds is None else thresholds
    dep = dependence_matrix(data, "true") if dependence == "true" else None
    cells = []
    for p in ps:
        p = check_probability(p, "p", allow_zero=False)
        t_v, t_d = best.get(float(p), (100.0, 0.2))
        clusters = cluster_attributes(dep, data.cardinalities, t_v, t_d) if dep is not None else None
        cells.append(dict(cell=len(cells), p=float(p), t_d=float(t_d), t_v=float(t_v), clusters=clusters,
                          dependence=dependence, mechanism=mechanism, proper=proper, methods=list(methods),
                          epsilon=epsilon,
                          sigmas=list(sigmas), queries=check_int(queries, "queries", minimum=1),
                          sweeps=adjust_sweeps, tolerance=adjust_tolerance))
    return _execute(cells, data, runs, seed=seed, chunk=chunk, executor=executor, progress=progress,
                    on_result=on_result, cancel=cancel, group=("p", "sigma", "method"))


def table_view(summary: pd.DataFrame, value: str = "relative_error") -> pd.DataFrame:
    """A grid like Domingo-Ferrer and Soria-Comas (2022), Table 1: rows (p, T_d), columns T_v."""
    part = summary[summary["method"] == "RR-Clusters"] if "method" in summary else summary
    return part.pivot_table(index=["p", "T_d"], columns="T_v", values=value, aggfunc="first")


def compare_with_paper(summary: pd.DataFrame, paper: pd.DataFrame = PAPER_TABLE1) -> pd.DataFrame:
    """Measured beside printed, cell by cell, with the ratio and the relative deviation.

    ``compare_with_paper(...).attrs["median_relative_deviation"]`` is the median |measured / printed - 1|.
    """
    part = summary[summary["method"] == "RR-Clusters"] if "method" in summary else summary
    merged = paper.rename(columns={"relative_error": "printed"}).merge(
        part[["p", "T_d", "T_v", "relative_error"]].rename(columns={"relative_error": "measured"}),
        on=["p", "T_d", "T_v"], how="inner")
    merged["ratio"] = merged["measured"] / merged["printed"]
    merged["relative_deviation"] = (merged["ratio"] - 1).abs()
    deviation = float(merged["relative_deviation"].median()) if len(merged) else math.nan
    merged.attrs["median_relative_deviation"] = deviation
    return merged


def feasible_t_vs(cardinalities: Sequence[int], t_vs: Sequence[float] = TABLE_TV) -> list[float]:
    """The T_v of a grid like Domingo-Ferrer and Soria-Comas (2022), Table 1, that its clustering accepts: T_v >= max |A|.

    Parameters
    ----------
    cardinalities : sequence of int
        |A| of each attribute.
    t_vs : sequence of float
        The grid's T_v (default Table 1's 50, 100, 300).

    Returns
    -------
    list
        The T_v of ``t_vs`` that are at least the largest cardinality, in their order.

    Raises
    ------
    InvalidParameterError
        When none is (every cluster would exceed T_v).

    Examples
    --------
    >>> feasible_t_vs((9, 16, 7), (10, 50, 100))
    [50, 100]
    >>> feasible_t_vs((9, 400))
    Traceback (most recent call last):
    ...
    explorer.errors.InvalidParameterError: the Table 1 grid needs T_v >= the largest cardinality (400), but its T_v are (50, 100, 300)
    """
    largest = max(int(c) for c in cardinalities)
    chosen = [tv for tv in t_vs if tv >= largest]
    if not chosen:
        raise InvalidParameterError(f"the Table 1 grid needs T_v >= the largest cardinality "
                                    f"({largest}), but its T_v are {t_vs}")
    return chosen


def error_curves(rows: pd.DataFrame, methods: Sequence[str] = METHODS[:4]
                 ) -> tuple[list[float], dict[str, list[float]]]:
    """The curves of Domingo-Ferrer and Soria-Comas (2022), Fig. 3, from per-run rows: median relative error by sigma.

    Parameters
    ----------
    rows : pandas.DataFrame
        Per-run rows of :func:`run_figure3` (``ExperimentResult.rows``, or the chunks received so far).
    methods : sequence of str
        The methods to draw (NaN where a method has no run at a sigma).

    Returns
    -------
    sigmas : list of float
        The coverages sigma that have runs, ascending.
    curves : dict
        method -> the median relative error at each sigma (:func:`summarize` over sigma and method).

    Notes
    -----
    The curves of Domingo-Ferrer and Soria-Comas (2022), Figure 3, from :func:`run_figure3`'s rows.

    Examples
    --------
    >>> rows = pd.DataFrame({"sigma": [0.1, 0.1, 0.5], "method": ["RR-Clusters"] * 3, "run": [0, 1, 0],
    ...                      "absolute_error": [1.0, 3.0, 2.0], "relative_error": [0.2, 0.4, 0.1],
    ...                      "n_clusters": [2, 2, 2]})
    >>> error_curves(rows, ["RR-Clusters"])
    ([0.1, 0.5], {'RR-Clusters': [0.30000000000000004, 0.1]})
    """
    summary = summarize(rows, ("sigma", "method"))
    sigmas = sorted(float(s) for s in summary["sigma"].unique())
    curves = {}
    for method in methods:
        part = summary[summary["method"] == method].set_index("sigma")["relative_error"]
        curves[method] = [float(part.get(s, np.nan)) for s in sigmas]
    return sigmas, curves


def table_cells(summary: pd.DataFrame, paper: pd.DataFrame | None = None, *, t_ds: Sequence[float] = TABLE_TD,
                t_vs: Sequence[float] = TABLE_TV) -> pd.DataFrame:
    """One p's row of a grid like Domingo-Ferrer and Soria-Comas (2022), Table 1: measured and printed, cell by cell.

    Parameters
    ----------
    summary : pandas.DataFrame
        Medians of :func:`run_table` for one p (``summarize(rows, ("p", "T_d", "T_v", "method"))``).
    paper : pandas.DataFrame, optional
        A printed table (:data:`PAPER_TABLE1` or :data:`PAPER_TABLE2`); None: no printed values.
    t_ds, t_vs : sequence of float
        The grid (default Table 1's).

    Returns
    -------
    pandas.DataFrame
        Columns ``T_d``, ``T_v``, ``measured``, ``printed`` and ``runs``, one row per cell (T_d first):
        ``measured`` is NaN where the cell has no run yet (``runs`` 0), ``printed`` where the paper prints no
        value (its p is matched to two decimals).

    Examples
    --------
    >>> summary = pd.DataFrame({"p": [0.7], "T_d": [0.1], "T_v": [50.0], "relative_error": [0.07]})
    >>> table_cells(summary, PAPER_TABLE1).iloc[0].tolist()
    [0.1, 50.0, 0.07, 0.069, 1.0]
    """
    p = float(summary["p"].iloc[0]) if len(summary) else math.nan
    rows = []
    for td in t_ds:
        for tv in t_vs:
            got = summary[(summary["T_d"] == td) & (summary["T_v"] == tv)]
            measured = float(got["relative_error"].iloc[0]) if len(got) else math.nan
            runs = int(got["runs"].iloc[0]) if len(got) and "runs" in got else len(got)
            printed = math.nan
            if paper is not None:
                ref = paper[(paper["p"] == round(p, 2)) & (paper["T_d"] == td) & (paper["T_v"] == tv)]
                printed = float(ref["relative_error"].iloc[0]) if len(ref) else math.nan
            rows.append({"T_d": float(td), "T_v": float(tv), "measured": measured, "printed": printed, "runs": runs})
    return pd.DataFrame(rows, columns=["T_d", "T_v", "measured", "printed", "runs"])


# --------------------------------------------------------------------------- command line

def cli(argv: list[str] | None = None) -> int:
    """``privacy-explorer experiment mdrr-table1|mdrr-table2|mdrr-figure3 [--runs N] [--out results.csv]``.

    Prints the medians (and, for the tables, the comparison with the printed
    table); writes the per-run rows to ``--out`` when given.  Returns the exit code.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "experiment":
        argv = argv[1:]
    parser = argparse.ArgumentParser(prog="privacy-explorer experiment",
                                     description=("Monte Carlo experiments of Domingo-Ferrer and Soria-Comas (2022) "
                                                  "(Tables 1-2, Figures 2-3)"))
    parser.add_argument("name", choices=["mdrr-table1", "mdrr-table2", "mdrr-figure3"])
    parser.add_argument("--runs", type=int, default=PAPER_RUNS, help=f"runs per cell (default {PAPER_RUNS}, as in the paper)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help="CSV file for the per-run rows")
    parser.add_argument("--summary-out", default=None, help="CSV file for the medians")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    parser.add_argument("--dependence", choices=DEPENDENCE_METHODS, default="true")
    parser.add_argument("--mechanism", choices=["keep-or-uniform", "paper-6.3.1"], default="keep-or-uniform")
    parser.add_argument("--proper", choices=PROPER_METHODS, default="clip")
    parser.add_argument("--queries", type=int, default=1, help="count queries per run and coverage")
    parser.add_argument("--p", type=float, nargs="+", default=list(TABLE_P), help="randomization levels")
    parser.add_argument("--td", type=float, nargs="+", default=list(TABLE_TD), help="T_d values (tables)")
    parser.add_argument("--tv", type=float, nargs="+", default=list(TABLE_TV), help="T_v values (tables)")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    last = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.perf_counter()
        if now - last[0] > 2 or done == total:
            last[0] = now
            print(f"  {done}/{total} runs", file=sys.stderr, flush=True)

    executor = ProcessPoolExecutor(max_workers=args.workers) if args.workers else None
    common = dict(ps=args.p, runs=args.runs, seed=args.seed, dependence=args.dependence, mechanism=args.mechanism,
                  proper=args.proper, queries=args.queries, executor=executor, progress=progress)
    try:
        if args.name == "mdrr-figure3":
            result = run_figure3(methods=METHODS, **common)   # Figure 3's four methods + Figure 2's Randomized
            for value in ("relative_error", "absolute_error"):
                print(f"median {value.replace('_', ' ')}:")
                print(result.summary.pivot_table(index=["p", "sigma"], columns="method",
                                                 values=value).round(4).to_string())
        else:
            six = args.name == "mdrr-table2"
            result = run_table(adult_mdrr_data(six=six), t_ds=args.td, t_vs=args.tv, **common)
            print(table_view(result.summary).round(3).to_string())
            comparison = compare_with_paper(result.summary, PAPER_TABLE2 if six else PAPER_TABLE1)
            print(f"median |measured/printed - 1| = {comparison.attrs['median_relative_deviation']:.3f}")
    except ExplorerError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    finally:
        if executor is not None:
            executor.shutdown()
    print(f"{result.runs_done} runs in {result.elapsed:.1f} s", file=sys.stderr)
    if args.out:
        result.rows.to_csv(args.out, index=False)
    if args.summary_out:
        result.summary.to_csv(args.summary_out, index=False)
    return 0
