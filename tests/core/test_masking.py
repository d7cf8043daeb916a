"""Tests of explorer.core.masking: every method seeded, documented, and in the permutation paradigm."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from explorer._validation import check_matrix
from explorer.core.masking import MASKING_METHODS, MaskingMethod, mask, mask_frame, pram
from explorer.core.permutation import numeric_matrix, permutation_distances, reverse_map_frame, spearman
from explorer.errors import DatasetError, ExplorerError, ExplorerTypeError, InvalidParameterError

RNG = np.random.default_rng(12345)
X = np.round(RNG.normal([10, 100, 1000], [10, 40, 2000], size=(300, 3)), 2)


def test_registry_documents_every_method():
    expected = {"identity", "additive_noise", "multiplicative_noise", "rank_swapping",
                "univariate_microaggregation", "multivariate_microaggregation", "pram", "data_shuffling",
                "top_bottom_coding"}
    assert set(MASKING_METHODS) == expected
    for name, method in MASKING_METHODS.items():
        assert isinstance(method, MaskingMethod) and method.name == name
        assert method.kind in ("numeric", "categorical")
        assert method.label and method.parameter_doc
        if method.parameter is not None:
            assert method.minimum is not None and method.maximum is not None
            assert method.minimum <= method.default <= method.maximum
    # the units are stated in words
    assert "fraction of each attribute's standard deviation" in MASKING_METHODS["additive_noise"].parameter_doc
    assert "proportion of the number of records" in MASKING_METHODS["rank_swapping"].parameter_doc
    with pytest.raises(AttributeError):
        MASKING_METHODS["identity"].name = "x"                      # frozen


@pytest.mark.parametrize("name", sorted(set(MASKING_METHODS) - {"pram"}))
def test_methods_are_seeded_and_keep_shape(name):
    a = mask(X, name, rng=7)
    b = mask(X, name, rng=7)
    assert a.shape == X.shape
    np.testing.assert_array_equal(a, b)
    assert np.all(np.isfinite(a))


def test_identity_and_zero_strength_give_distance_zero():
    for name, parameter in [("identity", None), ("additive_noise", 0.0), ("multiplicative_noise", 0.0),
                            ("rank_swapping", 0.0), ("data_shuffling", 1.0), ("univariate_microaggregation", 1),
                            ("top_bottom_coding", 0.0)]:
        y = mask(X, name, parameter, rng=1)
        # X has a few equal values (rounded to cents): mid-ranks make equal values coincide
        assert np.all(permutation_distances(X, y, ties="average").distance == 0), name


def test_additive_noise_sd_is_a_fraction_of_the_attribute_sd():
    x = RNG.normal([0, 1000], [1, 500], size=(20_000, 2))
    y = mask(x, "additive_noise", 0.5, rng=3)
    ratio = (y - x).std(axis=0) / x.std(axis=0)
    np.testing.assert_allclose(ratio, [0.5, 0.5], rtol=0.03)


def test_multiplicative_noise_relative():
    x = np.full((20_000, 1), 200.0)
    y = mask(x, "multiplicative_noise", 0.1, rng=3)
    assert y.std() / 200.0 == pytest.approx(0.1, rel=0.03)


def test_rank_swapping_is_a_permutation_within_the_window():
    x = np.arange(1000.0)[:, None]
    y = mask(x, "rank_swapping", 0.01, rng=5)                      # window: 10 ranks
    np.testing.assert_array_equal(np.sort(y[:, 0]), x[:, 0])
    assert np.abs(y[:, 0] - x[:, 0]).max() <= 10
    assert (y[:, 0] != x[:, 0]).mean() > 0.9
    # a pure permutation: reverse mapping gives Y back (no residual noise)
    np.testing.assert_array_equal(reverse_map_frame(x, y, rng=0), y)


def test_microaggregation_group_sizes():
    y = mask(X, "univariate_microaggregation", 5)
    for j in range(3):
        _, counts = np.unique(y[:, j], return_counts=True)
        assert counts.min() >= 5
    y = mask(X, "multivariate_microaggregation", 4)
    _, counts = np.unique(y, axis=0, return_counts=True)
    assert counts.min() >= 4
    np.testing.assert_allclose(y.mean(axis=0), X.mean(axis=0))   # centroids keep the mean


def test_data_shuffling_is_a_permutation_and_rho_orders_strength():
    strong = mask(X, "data_shuffling", 0.0, rng=2)
    weak = mask(X, "data_shuffling", 0.95, rng=2)
    for y in (strong, weak):
        np.testing.assert_array_equal(np.sort(y, axis=0), np.sort(X, axis=0))
    assert spearman(X[:, 0], weak[:, 0]) > 0.8 > abs(spearman(X[:, 0], strong[:, 0]))


def test_top_bottom_coding():
    x = np.arange(101.0)[:, None]
    y = mask(x, "top_bottom_coding", 0.1)
    assert y.min() == 10 and y.max() == 90
    with pytest.raises(InvalidParameterError, match="q must be < 0.5"):
        mask(x, "top_bottom_coding", 0.5)


def test_pram_keeps_categories_and_p():
    codes = RNG.integers(0, 4, size=(20_000, 2)).astype(float)
    y = pram(codes, 0.6, rng=1)
    assert set(np.unique(y)) <= {0.0, 1.0, 2.0, 3.0}
    kept = (y == codes).mean()
    assert kept == pytest.approx(0.6 + 0.4 / 4, abs=0.01)          # keep-or-uniform: p + (1 - p) / r
    warner = np.array([[0.75, 0.25], [0.25, 0.75]])
    y2 = pram(codes[:, :1] % 2, rng=1, matrix=warner)
    assert (y2 == codes[:, :1] % 2).mean() == pytest.approx(0.75, abs=0.01)
    with pytest.raises(DatasetError, match="PRAM is for categorical attributes"):
        mask(RNG.normal(size=(1500, 1)), "pram", 0.5)


def test_mask_frame_numeric_and_categorical_columns():
    frame = pd.DataFrame({"age": [20.0, 30.0, 40.0, 50.0], "job": pd.Categorical(["a", "b", "a", "c"])})
    out = mask_frame(frame, "additive_noise", 0.1, rng=0)
    assert out["job"].equals(frame["job"]) and not out["age"].equals(frame["age"])
    out = mask_frame(frame, "pram", 1.0, rng=0, columns=["job"])
    assert out["job"].tolist() == ["a", "b", "a", "c"]
    with pytest.raises(DatasetError, match="needs numeric columns"):
        mask_frame(frame, "additive_noise", 0.1, columns=["job"])
    assert mask(frame, "identity").shape == (4, 1)                 # a DataFrame's numeric columns


def test_bad_input_messages():
    with pytest.raises(InvalidParameterError, match="method must be one of"):
        mask(X, "swap")
    with pytest.raises(InvalidParameterError, match="sd_fraction must be >= 0, got -1"):
        mask(X, "additive_noise", -1)
    with pytest.raises(InvalidParameterError, match="window must be <= 1"):
        mask(X, "rank_swapping", 5)
    with pytest.raises(ExplorerError, match="k must be"):
        mask(X, "univariate_microaggregation", 0)
    with pytest.raises(DatasetError, match="missing or infinite"):
        mask([[1.0], [np.nan]], "identity")
    with pytest.raises(DatasetError, match="no numeric columns"):
        mask(pd.DataFrame({"s": ["x", "y"]}), "identity")
    with pytest.raises(ExplorerError, match="must be a number"):
        mask(X, "additive_noise", "lots")


def test_one_coercion_of_data_sets_for_masking_and_ranking():
    # masking and the permutation views read arrays through the same check (explorer._validation.check_matrix)
    assert check_matrix([1, 2, 3]).shape == (3, 1)
    same = np.zeros((4, 2))
    assert check_matrix(same) is same                              # no copy of a float array
    with pytest.raises(ExplorerTypeError, match="X must be a numeric array, got 'abc'"):
        check_matrix("abc")
    with pytest.raises(InvalidParameterError, match=r"X must be a 2-D array \(records x attributes\), got shape"):
        mask(np.zeros((2, 2, 2)), "identity")
    with pytest.raises(DatasetError, match="X has no records"):
        mask(np.zeros((0, 2)), "identity")
    with pytest.raises(DatasetError, match="X column 2 has 1 missing or infinite values; drop or fill them first"):
        mask([[1.0, np.inf], [2.0, 3.0]], "identity")
    with pytest.raises(DatasetError, match="Y column 'b' has 1 infinite values"):
        numeric_matrix(pd.DataFrame({"a": [1.0, 2.0], "b": [np.inf, 1.0]}), "Y", allow_missing=True)
    with pytest.raises(DatasetError, match="column 'b' has 1 missing or infinite values; use missing='drop'"):
        numeric_matrix(pd.DataFrame({"a": [1.0, 2.0], "b": [np.nan, 1.0]}))
    kept, names = numeric_matrix(pd.DataFrame({"a": [1.0, 2.0], "b": [np.nan, 1.0]}), allow_missing=True)
    assert names == ["a", "b"] and np.isnan(kept[0, 1])
