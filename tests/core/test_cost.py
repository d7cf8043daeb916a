"""Work estimates (explorer.core.cost): the shape of each cost, and the comparison's sum of them."""

from __future__ import annotations

import math

import numpy as np
import pytest

from explorer.core.cost import UNITS, curve_work, masking_work, microaggregation_work, permutation_work
from explorer.core.dominance.comparison import ComparisonCache, compare_maskings, comparison_work


def test_masking_work_is_linear_in_records_and_attributes_for_a_pass():
    one = masking_work("additive_noise", 0.5, 1000, 1)
    assert one > 0
    assert masking_work("additive_noise", 0.5, 2000, 3) == pytest.approx(6 * one)
    assert masking_work("data_shuffling", 0.9, 1000, 1) == pytest.approx(one)


def test_rank_swapping_grows_with_its_window():
    n, m = 10_000, 3
    narrow, wide = masking_work("rank_swapping", 0.01, n, m), masking_work("rank_swapping", 0.5, n, m)
    extra = n * m * UNITS["swap_window"] * (math.floor(0.5 * n) - math.floor(0.01 * n))
    assert wide - narrow == pytest.approx(extra) and narrow > masking_work("additive_noise", 0.5, n, m)


def test_mdav_masking_is_quadratic_in_records_and_inverse_in_k():
    base = masking_work("identity", None, 10_000, 2)
    k3 = masking_work("multivariate_microaggregation", 3, 10_000, 2) - base
    k6 = masking_work("multivariate_microaggregation", 6, 10_000, 2) - base
    doubled = masking_work("multivariate_microaggregation", 3, 20_000, 2) - 2 * base
    assert k3 == pytest.approx(2 * k6) and doubled == pytest.approx(4 * k3)


def test_curve_work_is_distinct_values_times_grid_points():
    assert curve_work(100, 10) == pytest.approx(curve_work(10, 100))
    assert curve_work(200, 10) == pytest.approx(2 * curve_work(100, 10)) and curve_work(1, 1) > 0


def test_existing_work_functions_keep_their_shape():
    assert microaggregation_work(2000, 5) == pytest.approx(4 * microaggregation_work(1000, 5))
    per_attribute = permutation_work(100, 2, 0) - permutation_work(100, 1, 0)
    assert per_attribute > 0 and permutation_work(100, 3, 0) - permutation_work(100, 1, 0) == pytest.approx(
        2 * per_attribute)
    assert permutation_work(100, 1, 0) > per_attribute            # showing the result costs too


def _arguments():
    return dict(alphas=np.linspace(-5, 1, 11), thetas=np.linspace(1, 5, 11), seed=3)


def test_comparison_work_adds_masking_and_curves_and_drops_what_the_memo_holds():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 3))
    configs = [("additive_noise", 0.5), ("rank_swapping", 0.1)]
    work = comparison_work(X, configs, **_arguments())
    masking = masking_work("additive_noise", 0.5, 400, 3) + masking_work("rank_swapping", 0.1, 400, 3)
    assert work > masking                                 # plus the curves
    cache = ComparisonCache()
    compare_maskings(X, configs, cache=cache, **_arguments())
    assert comparison_work(X, configs, cache=cache, **_arguments()) == 0.0
    wider = dict(_arguments(), alphas=np.linspace(-9, 1, 11))   # a new grid: only its curves, no masking
    again = comparison_work(X, configs, cache=cache, **wider)
    assert 0 < again < masking


def test_the_papers_published_masking_costs_no_masking():
    X = np.arange(30.0).reshape(10, 3)
    published = X[::-1].copy()
    with_published = comparison_work(X, [("published", None)], published=published, **_arguments())
    with_noise = comparison_work(X, [("additive_noise", 0.5)], **_arguments())
    assert with_noise - with_published == pytest.approx(masking_work("additive_noise", 0.5, 10, 3))


def test_t_close_microaggregation_costs_more_than_its_mdav():
    assert microaggregation_work(10_000, 10, "t_close") > microaggregation_work(10_000, 10, "mdav")
    assert microaggregation_work(10_000, 10, "group_by") < microaggregation_work(10_000, 10, "mdav")


def test_permutation_progress_orders_the_stages_by_their_work():
    from explorer.core.cost import PERMUTATION_STAGES, permutation_progress

    starts = permutation_progress(1000, 3, 10_000, "rank_swapping", 0.1)
    assert list(starts) == ["masking"] + [s for s, _ in PERMUTATION_STAGES] + ["random records"]
    assert starts["masking"] == 0.0 and list(starts.values()) == sorted(starts.values())
    assert 0 < starts["random records"] < 1
    assert permutation_progress(1000, 3, 10_000)["reverse mapping"] == 0.0      # no masking beyond a pass


def test_reference_seconds_is_the_units_at_the_reference_rate():
    from explorer.core.cost import COMPUTE_BUTTON_SECONDS, needs_compute, reference_seconds

    assert reference_seconds(2_000_000) == pytest.approx(2.0)
    assert needs_compute(2_000_000) == (reference_seconds(2_000_000) > COMPUTE_BUTTON_SECONDS)


def test_dependence_work_sends_iterative_bayesian_updates_to_compute_and_keeps_the_rest_at_once():
    from explorer.core.cost import dependence_work, needs_compute

    adult = (9, 16, 7, 15, 6, 5, 2, 2)                 # Section 6.1's eight attributes
    for n in (32_561, 195_366):                        # UCI Adult and UCI Adult x 6
        for method in ("true", "randomized", "secure-sum", "estimated", "pairwise-rr"):
            assert not needs_compute(dependence_work(n, adult, method, "clip")), (n, method)
        assert needs_compute(dependence_work(n, adult, "estimated", "ibu"))      # measured 14 to 30 s
        assert needs_compute(dependence_work(n, adult, "pairwise-rr", "ibu"))    # measured 1.1 to 3.2 s
    assert not needs_compute(dependence_work(32_561, (2, 5, 2), "estimated", "ibu"))   # 0.1 to 0.4 s
    assert dependence_work(100, adult, "true", "ibu") == dependence_work(100, adult, "true", "clip")   # no estimate
    with pytest.raises(ValueError, match="cardinalities must be whole numbers >= 1, got"):
        dependence_work(100, (2, 0), "true")
