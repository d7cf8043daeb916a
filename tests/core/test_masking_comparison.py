"""The comparison of masking configurations (Ruiz (2018)) as a pure core function."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from explorer.core.datasets import ruiz_example
from explorer.core.dominance import alpha_grid, theta_grid
from explorer.core.dominance.comparison import (
    PUBLISHED,
    ComparisonCache,
    MaskingConfig,
    compare_maskings,
    comparison_seconds,
)
from explorer.errors import CancelledError, ExplorerError


@pytest.fixture
def ruiz():
    frame = ruiz_example()
    return frame[["X1", "X2", "X3"]].to_numpy(float), frame[["Y1", "Y2", "Y3"]].to_numpy(float)


def test_ruiz_running_example_gives_the_printed_measures(ruiz):
    X, Y = ruiz
    result = compare_maskings(X, [(PUBLISHED, None), ("identity", None)], published=Y, alphas=[0.5, 1.0],
                              thetas=[1.0, math.inf], convention="position", alpha1=0.5, theta2=4.0)
    # Ruiz (2018) Section 3 / Table 3: D_j(1) = 0 (1e-8), 1.6, 1.6, so D(1, beta = 1) = 3.2 / 3;
    # pairwise I_k(1) = 1.6, 1.6, 2.4, so I(1, pi = 1) = 5.6 / 3; the pair X2 & X3 has I(inf) = 3.
    assert result.risk_curves[0].values[1] == pytest.approx((1e-8 + 3.2) / 3)
    assert result.loss_curves[0].values[0] == pytest.approx(5.6 / 3)
    assert result.risk_curves[0].label == "published Y"
    # no masking moves nobody: D = 1e-8 everywhere, I = 0
    assert np.allclose(result.risk_curves[1].values, 1e-8) and np.allclose(result.loss_curves[1].values, 0)
    (a, b, verdict), = result.risk_results
    assert (a, b) == (0, 1) and result.risk_sentences()[0].startswith("published Y dominates")
    assert len(result.points) == 2 and result.points[1].loss == pytest.approx(0.0)
    one = compare_maskings(X, [(PUBLISHED, None)], published=Y, alphas=[1.0], thetas=[1.0, math.inf],
                           convention="position", risk_attribute=2, loss_pair=(1, 2))
    assert one.risk_curves[0].values[0] == pytest.approx(1.6)
    assert one.loss_curves[0].values.tolist() == pytest.approx([2.4, 3.0])


def test_result_is_frozen_and_the_memo_changes_nothing():
    X = np.random.default_rng(1).normal(size=(200, 3))
    configs = [MaskingConfig("additive_noise", 0.5, "noise"), ("rank_swapping", 0.1)]
    kwargs = dict(alphas=alpha_grid(-5, 21, include_minus_inf=True), thetas=theta_grid(5, 21, include_inf=True),
                  beta=0.5, pi=2.0, risk_target=0.1, seed=3)
    cache = ComparisonCache()
    before = comparison_seconds(X, configs, cache=cache, **kwargs)
    first = compare_maskings(X, configs, cache=cache, **kwargs)
    assert before > 0 and comparison_seconds(X, configs, cache=cache, **kwargs) == 0.0   # all in the memo
    fresh = compare_maskings(X, configs, **kwargs)
    for a, b in zip(first.risk_curves + first.loss_curves, fresh.risk_curves + fresh.loss_curves):
        np.testing.assert_array_equal(a.values, b.values)
    assert first.points == fresh.points and first.best == fresh.best
    assert [c.label for c in first.risk_curves] == ["noise", "Rank swapping, window = 0.1"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.best = None
    # a change of beta only: nothing is masked again
    stored = len(cache.displacement_store)
    compare_maskings(X, configs, cache=cache, **{**kwargs, "beta": -1.0})
    assert len(cache.displacement_store) == stored


def test_sweep_compares_neighbours_only_and_every_pair_otherwise():
    X = np.random.default_rng(2).normal(size=(100, 2))
    configs = [("additive_noise", v) for v in (0.1, 0.5, 1.0)]
    grids = dict(alphas=[0.0, 1.0], thetas=[1.0, 2.0])
    assert [(a, b) for a, b, _ in compare_maskings(X, configs, sweep=True, **grids).risk_results] == [(0, 1), (1, 2)]
    assert len(compare_maskings(X, configs, **grids).risk_results) == 3


def test_cancel_through_progress():
    X = np.random.default_rng(3).normal(size=(50, 2))
    with pytest.raises(CancelledError):
        compare_maskings(X, [("additive_noise", 0.5)], alphas=[1.0], thetas=[1.0], progress=lambda f: False)


@pytest.mark.parametrize("configs, kwargs, words", [
    ([(PUBLISHED, None)], {}, "published"),
    ([("no_such_method", None)], {}, "no_such_method"),
    ([], {}, "at least one"),
    ([("identity", None)], {"risk_attribute": 5}, "risk_attribute"),
    ([("identity", None)], {"loss_pair": (1, 0)}, "loss_pair"),
    ([("identity", None)], {"alpha1": 1.0}, "alpha1"),
])
def test_bad_input_is_refused_in_words(configs, kwargs, words):
    X = np.arange(12.0).reshape(6, 2)
    with pytest.raises(ExplorerError, match=words):
        compare_maskings(X, configs, alphas=[1.0], thetas=[1.0], **kwargs)


def test_one_record_is_refused():
    with pytest.raises(ExplorerError, match="X must be"):
        compare_maskings([[1.0, 2.0]], [("identity", None)], alphas=[1.0], thetas=[1.0])


def test_numeric_records_keeps_the_complete_records_of_the_numeric_attributes():
    import pandas as pd

    from explorer.core.datasets import dataset_info, with_info
    from explorer.core.dominance import numeric_records
    from explorer.errors import DatasetError, ExplorerTypeError

    frame = pd.DataFrame({"a": [1.0, np.nan, 3.0, 4.0], "c": pd.Categorical(list("xyxy")), "b": [10, 20, 30, 40]})
    frame = with_info(frame, dataset_info(frame))
    X, columns = numeric_records(frame)
    assert columns == ["a", "b"] and X.tolist() == [[1.0, 10.0], [3.0, 30.0], [4.0, 40.0]]
    X, columns = numeric_records(frame, ["b", "gone"])             # a column the frame lacks is left out
    assert columns == ["b"] and X.shape == (4, 1)
    with pytest.raises(DatasetError, match="the shared data set has no numeric attributes"):
        numeric_records(frame[["c"]], name="the shared data set")
    with pytest.raises(DatasetError, match="fewer than 2 complete records"):
        numeric_records(pd.DataFrame({"x": [1.0, np.nan], "y": [np.nan, 2.0]}))
    with pytest.raises(ExplorerTypeError, match="frame must be a pandas DataFrame, got list"):
        numeric_records([[1.0, 2.0]])
