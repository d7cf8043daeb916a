"""Tests of explorer.core.mdrr.experiments (003 Tables 1-2, Figures 2-3) with few runs."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pandas as pd
import pytest

from explorer.core.mdrr.experiments import (
    METHODS,
    PAPER_TABLE1,
    PAPER_TABLE2,
    best_cells,
    cli,
    compare_with_paper,
    run_figure3,
    run_table,
    table_view,
)
from explorer.errors import ExplorerError


@pytest.fixture(scope="module")
def pool():
    with ThreadPoolExecutor(max_workers=2) as executor:
        yield executor


def test_printed_tables_parsed():
    assert PAPER_TABLE1.shape == (36, 4) and PAPER_TABLE2.shape == (36, 4)
    cell = PAPER_TABLE1[(PAPER_TABLE1.p == 0.3) & (PAPER_TABLE1.T_d == 0.3) & (PAPER_TABLE1.T_v == 50)]
    assert float(cell.relative_error.iloc[0]) == 0.199
    assert best_cells()[0.1] == (50.0, 0.3)


def test_table_grid_shapes_and_trend(pool):
    out = run_table(ps=[0.1, 0.7], t_ds=[0.1, 0.3], t_vs=[50, 300], runs=12, queries=3, executor=pool, seed=1)
    assert not out.cancelled and out.runs_done == out.runs_requested == 8 * 12
    assert len(out.rows) == 8 * 12 * 3
    grid = table_view(out.summary)
    assert grid.shape == (4, 2)
    # the paper's trend: the error falls as p grows
    assert grid.loc[0.7].to_numpy().max() < grid.loc[0.1].to_numpy().min()
    comparison = compare_with_paper(out.summary)
    assert len(comparison) == 8 and "median_relative_deviation" in comparison.attrs


def test_same_seed_same_rows_whatever_the_chunking(pool):
    a = run_table(ps=[0.5], t_ds=[0.2], t_vs=[100], runs=6, chunk=1, executor=pool, seed=3)
    b = run_table(ps=[0.5], t_ds=[0.2], t_vs=[100], runs=6, chunk=4, executor=pool, seed=3)
    cols = ["run", "X_S", "Y_S"]
    pd.testing.assert_frame_equal(a.rows.sort_values("run")[cols].reset_index(drop=True),
                                  b.rows.sort_values("run")[cols].reset_index(drop=True))


def test_figure3_methods_against_sigma(pool):
    seen = []
    out = run_figure3(ps=[0.7], sigmas=[0.1, 0.5, 0.9], runs=6, queries=5, methods=METHODS, executor=pool,
                      on_result=seen.append, seed=2)
    assert set(out.summary.method) == set(METHODS)
    assert out.summary.shape[0] == 3 * len(METHODS)
    assert sum(len(f) for f in seen) == len(out.rows)
    med = out.summary.set_index(["sigma", "method"]).relative_error
    # relative error falls with coverage; RR-Independent corrects Randomized (Figure 2)
    assert med[(0.9, "RR-Independent")] < med[(0.1, "RR-Independent")]
    assert med[(0.1, "RR-Independent")] < med[(0.1, "Randomized")]


def test_dependence_from_randomized_data_reclusters_each_run(pool):
    out = run_table(ps=[0.5], t_ds=[0.1], t_vs=[100], runs=3, dependence="estimated", executor=pool)
    assert out.runs_done == 3 and out.rows.relative_error.notna().all()


def test_cancel_keeps_the_runs_already_done(pool):
    cancel = threading.Event()
    progress = []

    def on_progress(done, total):
        progress.append(done)
        cancel.set()

    out = run_table(ps=[0.1, 0.3, 0.5, 0.7], t_ds=[0.1], t_vs=[50], runs=20, chunk=2, executor=pool,
                    progress=on_progress, cancel=cancel)
    assert out.cancelled
    assert 0 < out.runs_done < out.runs_requested
    assert out.rows.run.size >= 2 and out.summary.runs.sum() <= out.runs_done


def test_default_process_pool_runs(tmp_path):
    out = run_table(ps=[0.7], t_ds=[0.3], t_vs=[50], runs=2)
    assert out.runs_done == 2


def test_cli_writes_csv(tmp_path, capsys):
    target = tmp_path / "results.csv"
    code = cli(["experiment", "mdrr-table1", "--runs", "2", "--p", "0.7", "--td", "0.3", "--tv", "50",
                "--workers", "1", "--out", str(target)])
    assert code == 0
    rows = pd.read_csv(target)
    assert len(rows) == 2 and {"p", "T_d", "T_v", "relative_error"} <= set(rows.columns)
    assert "median |measured/printed - 1|" in capsys.readouterr().out
    assert cli(["mdrr-table1", "--runs", "0", "--p", "0.7"]) == 2
    assert cli(["nonsense"]) == 2


@pytest.mark.parametrize("kwargs, words", [
    (dict(runs=0), "runs"),
    (dict(ps=[0.0]), "p"),
    (dict(ps=[1.2]), "p"),
    (dict(t_vs=[10]), "T_v"),
    (dict(t_ds=[2]), "T_d"),
    (dict(dependence="magic"), "dependence"),
    (dict(methods=["RR-Magic"]), "methods"),
])
def test_bad_experiment_parameters(kwargs, words, pool):
    with pytest.raises(ExplorerError, match=words):
        run_table(**{"runs": 1, "executor": pool, **kwargs})


def test_data_without_categorical_attributes_is_refused(pool):
    with pytest.raises(ExplorerError, match="categorical"):
        run_table(pd.DataFrame({"a": [1.0, 2.0]}), runs=1, executor=pool)


def test_a_singular_reading_gives_nan_cells_with_the_reason(pool):
    # Section 6.3.1 as printed at p = 0.1: p|A|/(1-p) = 1 for workclass (|A| = 9), so epsilon_A = 0 and
    # the (row-normalised) matrix is uniform: Eq. (2) cannot be applied to that attribute.
    out = run_table(ps=[0.1], t_ds=[1.0], t_vs=[50], runs=2, mechanism="paper-6.3.1", executor=pool)
    assert out.rows.relative_error.isna().all()
    assert out.rows.note.str.contains("singular").all()
    assert out.summary.relative_error.isna().all()


def test_feasible_t_vs_keeps_the_grid_s_t_v_above_the_largest_cardinality():
    from explorer.core.mdrr.experiments import TABLE_TV, feasible_t_vs

    assert feasible_t_vs((9, 16, 7)) == list(TABLE_TV)
    assert feasible_t_vs((2, 120)) == [300]
    with pytest.raises(ExplorerError, match=r"needs T_v >= the largest cardinality \(301\)"):
        feasible_t_vs((2, 301))


def test_error_curves_are_the_medians_by_sigma_and_method(pool):
    from explorer.core.mdrr.experiments import error_curves, summarize

    out = run_figure3(ps=[0.7], sigmas=[0.1, 0.5], runs=3, queries=2, executor=pool, seed=4)
    sigmas, curves = error_curves(out.rows, METHODS[:2])
    assert sigmas == [0.1, 0.5] and list(curves) == list(METHODS[:2])
    summary = summarize(out.rows, ("sigma", "method"))
    for method, values in curves.items():
        expected = summary[summary["method"] == method]["relative_error"].tolist()
        assert values == expected
    assert all(v != v for v in error_curves(out.rows, ["Randomized"])[1]["Randomized"])


def test_table_cells_put_measured_beside_printed():
    from explorer.core.mdrr.experiments import table_cells

    summary = pd.DataFrame({"p": [0.7, 0.7], "T_d": [0.1, 0.3], "T_v": [50.0, 300.0],
                            "relative_error": [0.07, 0.08], "runs": [4, 4]})
    cells = table_cells(summary, PAPER_TABLE1)
    assert len(cells) == 9 and cells["runs"].tolist().count(4) == 2
    first = cells.iloc[0]
    assert (first["measured"], first["printed"]) == (0.07, 0.069)
    assert cells["measured"].isna().sum() == 7
    assert cells["printed"].tolist() == PAPER_TABLE1[PAPER_TABLE1.p == 0.7]["relative_error"].tolist()
    assert table_cells(summary)["printed"].isna().all()
