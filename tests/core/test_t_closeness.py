"""Tests of explorer.core.closeness: Domingo-Ferrer and Soria-Comas (2018), Section IV (Eq. 7, Prop. 1, Examples 2-3)."""

from __future__ import annotations

import dataclasses
import hashlib
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.closeness import (
    MISSING_LABEL,
    closeness_for_epsilon,
    closeness_profile,
    cluster_count_over_t,
    cluster_table,
    csv_safe,
    distribution_distance,
    emd_equal,
    emd_ordered,
    encode_sensitive,
    epsilon_for_closeness,
    group_by,
    mdav,
    mdav_labels,
    ratio_distance,
    t_close_microaggregation,
    worst_case_cluster,
)
from explorer.core.datasets import adult
from explorer.core.closeness.microaggregation import encode_quasi_identifiers
from explorer.errors import DatasetError, ExplorerError, ExplorerTypeError, InvalidParameterError

E = math.e
#: sha256 of MDAV's labels (int64, little-endian) on Adult, k = 10, age, education-num, hours-per-week, sex.
ADULT_MDAV_K10_SHA256 = "24c1af90582bb03928f7bac8d4492438cfa69a0e33d55b98bd592ae8fba2a104"


# ----------------------------------------------------------------- paper examples
def test_example_3_distribution_is_exactly_one_value_at_0_2e():
    worst = worst_case_cluster([0.2] * 5, 2.0)
    # Example 3 prints 0.5436 (0.2e = 0.54366 truncated, an erratum of docs/conventions.md) and 0.1141
    np.testing.assert_allclose(worst.distribution, [0.2 * E] + [(1 - 0.2 * E) / 4] * 4, rtol=0, atol=1e-15)
    assert round(worst.distribution[0], 5) == 0.54366
    assert round(worst.distribution[1], 6) == 0.114086
    assert worst.value == 0 and worst.binds
    assert worst.distance == pytest.approx(E, abs=1e-12)
    assert worst.guessing > 0.5 and worst.data_guessing == pytest.approx(0.2)
    assert worst.data_entropy == pytest.approx(math.log2(5))
    assert worst.entropy < worst.data_entropy


def test_example_3_cluster_satisfies_exp1_closeness_boundary_included():
    q = np.array([0.2 * E] + [(1 - 0.2 * E) / 4] * 4)
    d = ratio_distance(q, [0.2] * 5)
    assert d == pytest.approx(E)
    assert d <= closeness_for_epsilon(2.0) * (1 + 1e-15)     # d = e up to rounding: on the boundary
    assert epsilon_for_closeness(d) == pytest.approx(2.0)
    # through a profile: the boundary is included in the verdict (d <= t)
    frame = pd.DataFrame({"s": list("aaab" "bbba")})            # clusters (3/4, 1/4) and (1/4, 3/4): d = 2
    p = closeness_profile(frame, [0] * 4 + [1] * 4, "s", t=2.0)
    assert p.max_distance == 2.0 and p.is_t_close() and not p.is_t_close(1.999)


def test_example_2_factor_is_e():
    assert closeness_for_epsilon(2) == pytest.approx(2.718281828, abs=1e-9)
    assert epsilon_for_closeness(closeness_for_epsilon(3.7)) == pytest.approx(3.7)
    assert closeness_for_epsilon(0) == 1.0
    assert closeness_for_epsilon(math.inf) == math.inf


def test_one_cluster_holding_everything_has_distance_1():
    counts = np.array([200, 200, 200, 200, 200])
    frame = pd.DataFrame({"s": np.repeat(list("abcde"), counts)})
    labels = np.zeros(len(frame), dtype=int)
    p = closeness_profile(frame, labels, "s", t=closeness_for_epsilon(2))
    assert p.distances.tolist() == [1.0] and p.is_t_close()
    assert p.data_entropy == pytest.approx(math.log2(5))


# ----------------------------------------------------------------- distances
def test_zero_cells_give_infinity_and_zero_zero_is_zero():
    assert ratio_distance([0.5, 0.5, 0.0], [0.4, 0.4, 0.2]) == math.inf
    assert ratio_distance([0.4, 0.4, 0.2], [0.5, 0.5, 0.0]) == math.inf
    assert ratio_distance([0.5, 0.5, 0.0], [0.5, 0.5, 0.0]) == 1.0
    # the EMDs stay finite where the ratio distance is infinite (ARX/pycanon report finite figures)
    assert emd_equal([0.5, 0.5, 0.0], [0.4, 0.4, 0.2]) == pytest.approx(0.2)


def test_emd_textbook_cases_li_et_al():
    q = [1 / 9] * 9                                    # salaries 3k..11k
    p1 = [1 / 3] * 3 + [0] * 6                         # {3k, 4k, 5k}
    p2 = [0, 0, 0, 1 / 3, 0, 1 / 3, 0, 0, 1 / 3]       # {6k, 8k, 11k}
    assert emd_ordered(p1, q) == pytest.approx(0.375)
    assert emd_ordered(p2, q) == pytest.approx(1 / 6)
    assert emd_equal(p1, q) == pytest.approx(2 / 3)
    assert emd_equal([1, 0], [0, 1]) == 1.0
    assert emd_ordered([1, 0, 0], [0, 0, 1]) == 1.0
    assert distribution_distance([1, 0, 0], [0, 0, 1], "emd") == 1.0


def test_distances_vectorised_over_rows():
    rows = np.array([[0.5, 0.5], [1.0, 0.0]])
    np.testing.assert_allclose(ratio_distance(rows, [0.5, 0.5]), [1.0, math.inf])
    np.testing.assert_allclose(emd_equal(rows, [0.5, 0.5]), [0.0, 0.5])


def test_bad_distance_inputs():
    with pytest.raises(ExplorerError, match="same number of categories"):
        ratio_distance([0.5, 0.5], [1.0])
    with pytest.raises(ExplorerError, match="non-negative"):
        ratio_distance([-0.5, 1.5], [0.5, 0.5])
    with pytest.raises(InvalidParameterError, match="distance must be one of"):
        distribution_distance([1], [1], "kl")


# shares are 0 or at least 1e-9: a ratio against a denormal share overflows to inf in floating point
probabilities = st.lists(st.one_of(st.just(0.0), st.floats(1e-9, 1)), min_size=2, max_size=6)


@settings(max_examples=60, deadline=None)
@given(probabilities, probabilities)
def test_ratio_distance_properties(a, b):
    n = min(len(a), len(b))
    a, b = np.array(a[:n]), np.array(b[:n])
    if a.sum() == 0 or b.sum() == 0:
        return
    a, b = a / a.sum(), b / b.sum()
    d = ratio_distance(a, b)
    assert d == ratio_distance(b, a)                                   # symmetric
    assert d >= 1 - 1e-12                                              # >= 1 for proper distributions
    assert math.isinf(d) == bool(np.any((a > 0) != (b > 0)))          # infinite iff supports differ


# ----------------------------------------------------------------- epsilon / t
def test_epsilon_out_of_range():
    with pytest.raises(InvalidParameterError, match="epsilon must be >= 0, got -1"):
        closeness_for_epsilon(-1)
    with pytest.raises(ExplorerTypeError, match="epsilon must be a number"):
        closeness_for_epsilon("abc")
    with pytest.raises(InvalidParameterError, match="t must be >= 1"):
        epsilon_for_closeness(0.5)
    with pytest.raises(InvalidParameterError, match="epsilon"):
        worst_case_cluster([0.5, 0.5], float("nan"))


def test_worst_case_bound_cannot_bind():
    worst = worst_case_cluster([0.7, 0.2, 0.1], 2.0)        # 0.7 * e > 1
    assert not worst.binds and "cannot bind" in worst.note
    assert worst.distribution.sum() == pytest.approx(1.0)
    assert worst.distance <= worst.t + 1e-12                # still exp(eps/2)-close
    assert worst.distribution[0] == pytest.approx(1 - 0.3 / E)
    # raising a chosen value
    small = worst_case_cluster([0.7, 0.2, 0.1], 2.0, value=2)
    assert small.distribution[2] == pytest.approx(0.1 * E) and small.binds
    assert worst_case_cluster([0.5, 0.5], 0.0).distribution.tolist() == [0.5, 0.5]
    with pytest.raises(InvalidParameterError, match="value must be <= 2"):
        worst_case_cluster([0.7, 0.2, 0.1], 2.0, value=3)


# ----------------------------------------------------------------- MDAV
@pytest.mark.parametrize("n,k", [(1, 1), (5, 2), (29, 3), (30, 10), (100, 7), (1000, 10), (57, 57)])
def test_mdav_cluster_sizes(n, k):
    x = np.random.default_rng(n).normal(size=(n, 3))
    labels = mdav_labels(x, k)
    sizes = np.bincount(labels)
    assert labels.min() == 0 and sizes.size == labels.max() + 1
    assert np.all(sizes >= k)
    assert np.sum(sizes >= 2 * k) <= 1 and np.sum(sizes != k) <= 1


def _mdav_reference(x, k):
    """Textbook MDAV, one record at a time, with the stated tie rule: the lowest record index wins.

    The farthest record is the first at the largest distance (``max`` over records in increasing order);
    a cluster is its centre, then the k - 1 nearest others, sorted by (distance, record index).
    """
    remaining = list(range(len(x)))
    labels = np.full(len(x), -1)
    label = 0

    def sq(i, centre):
        return np.sum((x[i] - centre) ** 2)

    def cluster_around(centre, pool):
        first = [centre] if centre in pool else []
        others = sorted((i for i in pool if i != centre), key=lambda i: (sq(i, x[centre]), i))
        return first + others[:k - len(first)]

    while len(remaining) >= 3 * k:
        c = x[remaining].mean(axis=0)
        r = max(remaining, key=lambda i: sq(i, c))
        s = max(remaining, key=lambda i: sq(i, x[r]))
        for centre in (r, s):
            group = cluster_around(centre, remaining)
            labels[group] = label
            label += 1
            remaining = [i for i in remaining if i not in group]
    if len(remaining) >= 2 * k:
        c = x[remaining].mean(axis=0)
        r = max(remaining, key=lambda i: sq(i, c))
        group = cluster_around(r, remaining)
        labels[group] = label
        label += 1
        remaining = [i for i in remaining if i not in group]
    labels[remaining] = label
    return labels


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mdav_agrees_with_textbook_algorithm(seed):
    x = np.random.default_rng(seed).normal(size=(80, 2))
    np.testing.assert_array_equal(mdav_labels(x, 4), _mdav_reference(x, 4))


def test_mdav_ties_go_to_the_lowest_record_index():
    # centroid 7/6: record 0 is farthest (r); the farthest from r is record 4, the first of the two 2s (s).
    # r's cluster takes the first 1 (record 1), not record 2 or 3; s's cluster is {4, 5}; {2, 3} are left.
    x = [[0.0], [1.0], [1.0], [1.0], [2.0], [2.0]]
    assert mdav_labels(x, 2).tolist() == [0, 0, 2, 2, 1, 1]
    # identical records: clusters are runs of consecutive indices
    assert mdav_labels(np.zeros((7, 2)), 2).tolist() == [0, 0, 1, 1, 2, 2, 2]


@pytest.mark.parametrize("seed", range(6))
def test_mdav_with_many_ties_agrees_with_the_stated_rule(seed):
    # small integers: most distances tie (exactly, integer arithmetic), so any other tie rule differs
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 4, size=(int(rng.integers(30, 90)), int(rng.integers(1, 4)))).astype(float)
    k = int(rng.integers(2, 6))
    np.testing.assert_array_equal(mdav_labels(x, k), _mdav_reference(x, k))


@pytest.mark.slow
def test_mdav_on_adult_gives_the_pinned_clusters():
    # The benchmark's settings.  Adult's quasi-identifiers repeat (9,885 distinct of 32,561 records), so
    # the clusters depend on the tie rule; they are the same on numpy 1.26, 2.0 and 2.4 (docs/models).
    frame = adult()
    clusters = mdav(frame, ["age", "education-num", "hours-per-week", "sex"], 10)
    assert clusters.n_clusters == 3256 and clusters.sizes.min() == 10 and clusters.sizes.max() == 11
    digest = hashlib.sha256(clusters.labels.astype("<i8").tobytes()).hexdigest()
    assert digest == ADULT_MDAV_K10_SHA256


def test_mdav_bad_k_and_values():
    x = np.zeros((5, 2))
    with pytest.raises(InvalidParameterError, match="k must be <= the number of records \\(5\\), got 6"):
        mdav_labels(x, 6)
    with pytest.raises(InvalidParameterError, match="k must be >= 1, got 0"):
        mdav_labels(x, 0)
    with pytest.raises(InvalidParameterError, match="finite"):
        mdav_labels([[np.nan], [1.0]], 1)
    assert np.bincount(mdav_labels(x, 2)).tolist() == [2, 3]          # all ties: still valid sizes


def test_mdav_on_frame_encodes_categories_and_drops_missing():
    frame = pd.DataFrame({"age": [20, 21, np.nan, 40, 41, 42, 60, 61],
                          "sex": pd.Categorical(list("FMFMFMFM"))})
    c = mdav(frame, ["age", "sex"], 2)
    assert c.n_dropped == 1 and c.labels[2] == -1 and "dropped" in c.note
    assert np.all(c.sizes >= 2)
    imputed = mdav(frame, ["age", "sex"], 2, missing="impute")
    assert imputed.n_dropped == 0 and np.all(imputed.labels >= 0)
    with pytest.raises(DatasetError, match="'nope' is not in the data set"):
        mdav(frame, ["nope"], 2)
    with pytest.raises(InvalidParameterError, match="k must be <= the number of records \\(7\\), got 100"):
        mdav(frame, ["age"], 100)
    with pytest.raises(InvalidParameterError, match="missing must be"):
        mdav(frame, ["age"], 2, missing="zero")


def test_quasi_identifiers_are_standardised_numbers_and_one_hot_categories():
    frame = pd.DataFrame({"age": [20.0, 40.0, np.nan, 60.0], "sex": pd.Categorical(list("FMFF")),
                          "edu": pd.Categorical(["lo", "hi", "lo", "mid"], categories=["lo", "mid", "hi"],
                                                ordered=True)})
    values, keep, note = encode_quasi_identifiers(frame, ["age", "sex", "edu"])
    assert keep.tolist() == [True, True, False, True] and "1 record(s)" in note
    np.testing.assert_allclose(values[:, 0], [-math.sqrt(1.5), 0.0, math.sqrt(1.5)])    # mean 0, sd 1
    np.testing.assert_allclose(values[:, 1:3], [[0.5 ** 0.5, 0], [0, 0.5 ** 0.5], [0.5 ** 0.5, 0]])
    np.testing.assert_allclose(values[:, 3], [-math.sqrt(1.5), math.sqrt(1.5), 0.0])     # ordered codes 0, 2, 1
    imputed, keep_all, note_all = encode_quasi_identifiers(frame, ["age"], missing="impute")
    assert keep_all.all() and imputed.shape == (4, 1) and "imputed by the median" in note_all
    with pytest.raises(InvalidParameterError, match="missing must be 'drop' or 'impute', got 'zero'"):
        encode_quasi_identifiers(frame, ["age"], missing="zero")


def test_t_close_merging_ties_go_to_the_lowest_cluster_label():
    # MDAV clusters: ages 0 (label 0), 20 (label 1), 10 (label 2).  Cluster 2 holds only "a" (infinitely far);
    # the centroids of clusters 0 and 1 are exactly as near to it, and the merge goes to cluster 0.
    frame = pd.DataFrame({"age": [0, 0, 10, 10, 20, 20], "s": list("abaaab")})
    assert mdav(frame, ["age"], 2).labels.tolist() == [0, 0, 2, 2, 1, 1]
    merged = t_close_microaggregation(frame, ["age"], "s", 2, 1.6)
    assert merged.labels.tolist() == [0, 0, 0, 0, 1, 1] and merged.n_merges == 1
    assert closeness_profile(frame, merged, "s").max_distance == pytest.approx(1.5)


def test_group_by_keeps_missing_as_a_group():
    frame = pd.DataFrame({"a": ["x", "y", None, "x"]})
    c = group_by(frame, ["a"])
    assert c.n_clusters == 3 and c.labels[0] == c.labels[3]


# ----------------------------------------------------------------- profile
def _toy():
    return pd.DataFrame({"age": [20, 21, 22, 23, 50, 51, 52, 53],
                         "s": ["a", "a", "a", "b", "b", "b", "a", "b"]})


def test_profile_rows_and_verdict():
    frame = _toy()
    p = closeness_profile(frame, [0, 0, 0, 0, 1, 1, 1, 1], "s", t=2.0)
    assert p.categories == ("a", "b")
    np.testing.assert_allclose(p.data_distribution, [0.5, 0.5])
    np.testing.assert_allclose(p.distances, [2.0, 2.0])             # max(0.75/0.5, 0.5/0.25)
    assert p.sizes.tolist() == [4, 4] and p.is_t_close() and not p.is_t_close(1.9)
    assert [p.categories[i] for i in p.attaining] == ["b", "a"]     # the value that halved
    np.testing.assert_allclose(p.factors, [0.5, 0.5])
    np.testing.assert_allclose(p.guessing, [0.75, 0.75])
    np.testing.assert_allclose(p.entropies, [0.811278, 0.811278], atol=1e-6)
    assert p.data_entropy == 1.0 and p.conditional_entropy == pytest.approx(0.811278, abs=1e-6)
    emd = closeness_profile(frame, [0, 0, 0, 0, 1, 1, 1, 1], "s", "emd")
    np.testing.assert_allclose(emd.distances, [0.25, 0.25])


def test_profile_bad_inputs():
    frame = _toy()
    with pytest.raises(DatasetError, match="single value"):
        closeness_profile(frame.assign(s="a"), np.zeros(8, int), "s")
    with pytest.raises(DatasetError, match="'age' is numeric: choose a binning"):
        closeness_profile(frame, np.zeros(8, int), "age")
    with pytest.raises(InvalidParameterError, match="one label per record \\(8\\)"):
        closeness_profile(frame, [0, 1], "s")
    with pytest.raises(DatasetError, match="no record is left"):
        closeness_profile(frame, np.full(8, -1), "s")
    # a cluster of zero records (an unused label) is simply absent from the profile
    p = closeness_profile(frame, [0, 0, 0, 0, 2, 2, 2, 2], "s")
    assert p.cluster_ids.tolist() == [0, 2]


def test_numeric_sensitive_binnings():
    frame = _toy()
    q = closeness_profile(frame, [0] * 4 + [1] * 4, "age", binning="quantile", bins=2)
    assert q.categories == ("[20, 36.5]", "(36.5, 53]")
    assert q.distances.tolist() == [math.inf, math.inf]
    f = encode_sensitive(frame, "age", binning="edges", edges=[0, 30, 60])
    assert f.categories == ("[0, 30]", "(30, 60]")
    with pytest.raises(InvalidParameterError, match="do not cover"):
        encode_sensitive(frame, "age", binning="edges", edges=[0, 30])
    with pytest.raises(InvalidParameterError, match="binning must be one of"):
        encode_sensitive(frame, "age", binning="deciles")
    assert len(encode_sensitive(frame, "age", binning="values").categories) == 8


def test_missing_sensitive_kept_as_category_or_dropped():
    frame = _toy()
    frame.loc[0, "s"] = None
    kept = closeness_profile(frame, [0] * 4 + [1] * 4, "s")
    assert MISSING_LABEL in kept.categories and kept.n_records == 8
    assert any("missing" in n for n in kept.notes)
    dropped = closeness_profile(frame, [0] * 4 + [1] * 4, "s", missing="drop")
    assert dropped.n_records == 7 and dropped.n_dropped == 1


# ----------------------------------------------------------------- t-close microaggregation
@pytest.mark.parametrize("distance,t", [("ratio", 1.5), ("ratio", E), ("emd", 0.1), ("emd_ordered", 0.05)])
def test_t_close_microaggregation_satisfies_its_bound(distance, t):
    rng = np.random.default_rng(3)
    n = 600
    age = rng.integers(18, 80, n)
    s = np.where(rng.random(n) < (age - 18) / 70, "high", np.where(rng.random(n) < 0.5, "mid", "low"))
    frame = pd.DataFrame({"age": age, "hours": rng.integers(10, 60, n), "s": s})
    c = t_close_microaggregation(frame, ["age", "hours"], "s", 5, t, distance=distance)
    p = closeness_profile(frame, c, "s", distance)
    assert p.max_distance <= t + 1e-9
    assert np.all(c.sizes >= 5) and c.n_clusters >= 1 and "cluster(s) remain" in c.note
    assert c.t == t and c.distance == distance


def test_t_close_microaggregation_bad_t():
    with pytest.raises(InvalidParameterError, match="t must be >= 1"):
        t_close_microaggregation(_toy(), ["age"], "s", 2, 0.5)
    with pytest.raises(InvalidParameterError, match="t must be <= 1"):
        t_close_microaggregation(_toy(), ["age"], "s", 2, 2.0, distance="emd")
    with pytest.raises(DatasetError, match="single value"):
        t_close_microaggregation(_toy().assign(s="a"), ["age"], "s", 2, 2.0)


# ----------------------------------------------------------------- table / CSV
def test_cluster_table_and_csv_escaping():
    frame = pd.DataFrame({"s": ["=cmd", "+x", "-y", "@z", "ok", "=cmd"]})
    p = closeness_profile(frame, [0, 0, 0, 1, 1, 1], "s", t=2.0)
    table = cluster_table(p)
    assert table["distance"].is_monotonic_decreasing and "violates" in table
    text = csv_safe(table)
    assert "'+x" in text and "'@z" in text
    assert csv_safe(pd.DataFrame({"v": ["=cmd", "-y", "ok"], "n": [-1.5, 2, 3]})).splitlines() == [
        "v,n", "'=cmd,-1.5", "'-y,2.0", "ok,3.0"]
    for line in text.splitlines():  # numbers may be negative; text never begins a formula
        for cell in line.split(","):
            assert not cell.startswith(("=", "+", "@")) and not (cell.startswith("-") and not cell[1:2].isdigit())


def test_progress_is_reported_and_can_cancel():
    from explorer.errors import CancelledError

    x = np.random.default_rng(0).normal(size=(3000, 2))
    seen = []
    mdav_labels(x, 2, progress=seen.append)
    assert seen and all(0 < f <= 1 for f in seen) and seen == sorted(seen)
    with pytest.raises(CancelledError, match="cancelled after"):
        mdav_labels(x, 2, progress=lambda fraction: False)


# ----------------------------------------------------------------- count of clusters over t
def test_cluster_count_over_t_counts_strictly_above_the_bound():
    count = cluster_count_over_t([1.5, 4.0, math.inf, 2.0, E], E)
    assert (count.n_clusters, count.n_over, count.n_infinite, count.n_within) == (5, 2, 1, 3)
    assert count.t == E and not count.is_t_close and count.fraction_over == pytest.approx(2 / 5)
    assert cluster_count_over_t([2.0, 1.0], 2.0).is_t_close             # d = t is t-close (Example 3)
    assert cluster_count_over_t([2.0, 1.0], math.inf).n_over == 0
    empty = cluster_count_over_t([], 1.0)
    assert (empty.n_clusters, empty.n_over, empty.is_t_close, empty.fraction_over) == (0, 0, True, 0.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        count.n_over = 0


def test_cluster_count_over_t_of_a_profile_uses_its_bound():
    frame = pd.DataFrame({"s": list("aaab" "bbba" "abab")})     # clusters (3/4, 1/4), (1/4, 3/4), (1/2, 1/2)
    profile = closeness_profile(frame, [0] * 4 + [1] * 4 + [2] * 4, "s", t=1.4)
    count = cluster_count_over_t(profile)
    assert (count.n_clusters, count.n_over, count.t) == (3, 2, 1.4)
    assert cluster_count_over_t(profile, 2.0).n_over == 0 == profile.n_violating(2.0)   # d = 2, 2, 1
    assert profile.n_violating() == 2
    with pytest.raises(InvalidParameterError, match="t must be given"):
        cluster_count_over_t(closeness_profile(frame, [0] * 6 + [1] * 6, "s"))


@pytest.mark.parametrize("distances, t, message", [
    ([1.0, float("nan")], 1.0, "distances must be non-negative numbers, got nan at position 1"),
    ([1.0, -2.0], 1.0, "distances must be non-negative numbers, got -2.0 at position 1"),
    ([[1.0]], 1.0, r"distances must be a vector, got an array of shape \(1, 1\)"),
    (["a"], 1.0, "distances must be an array of numbers"),
    ([1.0], -1.0, "t must be >= 0"),
    ([1.0], None, "t must be given"),
])
def test_cluster_count_over_t_refuses_bad_input(distances, t, message):
    with pytest.raises(ExplorerError, match=message):
        cluster_count_over_t(distances, t)


# ----------------------------------------------------------------- documentation
def test_benchmark_figures_in_the_docs_are_those_of_the_results_file():
    root = Path(__file__).resolve().parents[2]
    page = (root / "docs" / "models" / "t-closeness.md").read_text(encoding="utf-8")
    section = page[page.index("## Benchmark"):page.index("## Dependencies")]
    results = (root / "benchmarks" / "results" / "t_closeness.txt").read_text(encoding="utf-8")
    numbers = set(re.findall(r"\d[\d,]*\.\d+|\d{1,3}(?:,\d{3})+|\d+x", section))
    assert len(numbers) > 20
    assert sorted(n for n in numbers if n not in results) == []


def test_profile_max_entropy_is_log2_of_the_number_of_values():
    from explorer.core.closeness import closeness_profile

    frame = pd.DataFrame({"s": list("abcde" * 4)})
    profile = closeness_profile(frame, np.repeat([0, 1, 2, 3], 5), "s")
    assert profile.max_entropy == pytest.approx(math.log2(5))
    assert np.all(profile.entropies <= profile.max_entropy + 1e-12)


def test_profile_farthest_first_is_the_cluster_table_s_order():
    from explorer.core.closeness import closeness_profile, cluster_table

    rng = np.random.default_rng(4)
    frame = pd.DataFrame({"s": rng.choice(list("abc"), 300)})
    profile = closeness_profile(frame, np.repeat(np.arange(30), 10), "s")
    order = profile.farthest_first
    assert np.all(np.diff(profile.distances[order]) <= 0)
    np.testing.assert_array_equal(cluster_table(profile)["cluster"].to_numpy(), profile.cluster_ids[order])
    ties = closeness_profile(pd.DataFrame({"s": list("abab" * 3)}), np.repeat([0, 1, 2], 4), "s")
    assert ties.farthest_first.tolist() == [0, 1, 2]                 # equal distances keep the clusters' order


def test_k_for_records_lowers_k_only_for_a_small_data_set():
    from explorer.core.closeness import k_for_records

    assert k_for_records(50, 32_561) == 50 and k_for_records(50, 50) == 50
    assert k_for_records(50, 49) == 12 and k_for_records(50, 8) == 2 and k_for_records(50, 0) == 1
    with pytest.raises(InvalidParameterError, match="k must be >= 1, got 0"):
        k_for_records(0, 10)
    with pytest.raises(InvalidParameterError, match="n_records must be >= 0, got -1"):
        k_for_records(5, -1)


def test_parse_edges_reads_numbers_and_refuses_in_words():
    from explorer.core.closeness import parse_edges

    assert parse_edges(" 0, 25000; 35000 1e6 ") == [0.0, 25000.0, 35000.0, 1e6]
    for text, words in (("", "edges must list at least two numbers"), ("0, abc", "edges must be numbers"),
                        ("1" * 200_001, "edges must be at most 200,000 characters, got 200,001")):
        with pytest.raises(InvalidParameterError, match=words):
            parse_edges(text)


def test_check_sensitive_bins_bounds_the_categories_a_binning_makes():
    from explorer.core.closeness import check_sensitive_bins

    frame = pd.DataFrame({"x": np.arange(500.0), "s": [f"v{i % 250}" for i in range(500)], "few": list("ab") * 250})
    check_sensitive_bins(frame, "x", "quantile", None, 200)                  # quantile bins: at most 100
    check_sensitive_bins(frame, "few", None, None, 200)
    check_sensitive_bins(frame, "missing column", "values", None, 200)       # encode_sensitive says what is wrong
    check_sensitive_bins(frame, "x", "edges", list(range(201)), 200)         # 200 bins: allowed
    for args, words in ((("x", "values", None), "binning 'each value' of 'x' would make 500 bins; at most 200"),
                        (("s", None, None), "the sensitive attribute 's' has 250 values; at most 200 are shown"),
                        (("x", "edges", list(range(202))), "edges would make 201 bins of 'x'; at most 200")):
        with pytest.raises(InvalidParameterError, match=words):
            check_sensitive_bins(frame, *args, 200)
