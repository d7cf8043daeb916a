"""explorer.core.permutation.inputs: what a permutation analysis is run on (numeric attributes, random records, seeds)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from explorer.core.datasets import domingo_muralidhar_example
from explorer.core.permutation import (
    AUTO_ALL_RANDOM,
    DEFAULT_RANDOM,
    MAX_ALL_RANDOM,
    default_random_records,
    has_ties,
    numeric_attributes,
    permuted_privacy,
    random_records,
    seed_streams,
    subject_check,
)
from explorer.errors import DatasetError, InvalidParameterError


def test_numeric_attributes_keep_numbers_and_ordinals_and_drop_incomplete_records():
    frame = pd.DataFrame({"a": np.arange(30.0), "b": np.arange(30.0)[::-1] ** 2,
                          "job": pd.Categorical(["x", "y", "z"] * 10), "c": [np.nan] + list(range(29))})
    found = numeric_attributes(frame)
    assert list(found.X.columns) == ["a", "b", "c"] and found.X.shape == (29, 3)
    assert found.excluded == ("job",) and found.n_incomplete == 1 and not found.sampled
    assert found.notes()[0].startswith("1 non-numeric column(s) left out (job)")
    assert "1 record(s) with missing values dropped" in found.notes()[1]


def test_numeric_attributes_sample_is_seeded_and_in_order():
    frame = pd.DataFrame({"a": np.arange(100.0), "b": np.arange(100.0) % 7})
    one = numeric_attributes(frame, max_records=10, rng=np.random.default_rng(3))
    two = numeric_attributes(frame, max_records=10, rng=np.random.default_rng(3))
    pd.testing.assert_frame_equal(one.X, two.X)
    assert one.sampled and one.X.shape == (10, 2) and one.X["a"].is_monotonic_increasing
    assert "a seeded random sample of 10 of 100 records is used" in one.notes()


def test_numeric_attributes_say_what_the_data_lack():
    with pytest.raises(DatasetError, match="has no numeric or ordinal column to permute"):
        numeric_attributes(pd.DataFrame({"name": ["ann", "bob"]}))
    with pytest.raises(DatasetError, match="has 1 complete record"):
        numeric_attributes(pd.DataFrame({"a": [1.0, np.nan]}))


def test_ties_and_the_default_random_records():
    assert has_ties(pd.DataFrame({"a": [1, 1, 2]})) and not has_ties(pd.DataFrame({"a": [1, 2, 3]}))
    assert default_random_records(20, 3) == 0                              # 8,000 combinations: all of them
    assert 20 ** 3 <= AUTO_ALL_RANDOM < 1000 ** 3
    assert default_random_records(1000, 3) == DEFAULT_RANDOM
    assert default_random_records(2, 40) == 0                              # 2^min(m, 6) = 64


def test_random_records_all_or_a_number_and_refusals_in_words():
    assert random_records(20, 3, 0).n_random == "all" and random_records(20, 3, 0).count == 8000
    assert random_records(1000, 3, 10_000).count == 10_000
    with pytest.raises(InvalidParameterError, match="'all' random records would be 1000\\^3"):
        random_records(1000, 3, 0)
    assert 1000 ** 3 > MAX_ALL_RANDOM
    with pytest.raises(InvalidParameterError, match="more than the n\\^m = 20 possible"):
        random_records(20, 1, 25)


def test_seed_streams_are_independent_and_reproducible():
    a, b = seed_streams(7), seed_streams(7)
    draws = {k: a[k].random(3).tolist() for k in a}
    assert draws == {k: b[k].random(3).tolist() for k in b}
    assert draws["data"] != draws["mask"] != draws["analysis"]
    first = np.random.SeedSequence(7).spawn(3)[1]                            # the former panel's "mask" stream
    assert np.random.default_rng(first).random(3).tolist() == draws["mask"]


def test_record_check_is_the_subject_check_of_that_record():
    t = domingo_muralidhar_example()
    X, Y = t[["X1", "X2", "X3"]], t[["Y1", "Y2", "Y3"]]
    pp = permuted_privacy(X, Y, rng=0)
    for i in (0, 2, 9):
        ours = pp.record_check(i, 4, [20, 800, 20000])
        theirs = subject_check(X.iloc[i].to_numpy(), Y, 4, [20, 800, 20000], rng=0)
        assert ours.distance == theirs.distance and ours.satisfies == theirs.satisfies
        np.testing.assert_allclose(ours.variances, theirs.variances)
        assert ours.satisfies == bool(pp.satisfies(4, [20, 800, 20000])[i])
    with pytest.raises(InvalidParameterError, match="record must be <= 19"):
        pp.record_check(20, 1, 0)
