"""Tests of the RR estimation simulation (Domingo-Ferrer and Soria-Comas (2022), Eqs. 5-6)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from explorer.core import rr
from explorer.core.rr.simulation import EstimationSimulation, is_singular, simulate_estimation
from explorer.errors import ExplorerError


def test_prior_sample_is_estimated_within_the_bound_by_every_method():
    matrix = rr.optimal_matrix(4, 2.0)
    sim = simulate_estimation(matrix, 50_000, prior=[0.1, 0.2, 0.3, 0.4], rng=1)
    assert isinstance(sim, EstimationSimulation) and sim.n == 50_000 and not sim.from_records
    assert sim.impossible == ()
    np.testing.assert_allclose(sim.true, [0.1, 0.2, 0.3, 0.4], atol=0.01)
    # the bound of Eq. 5 carried through (P^T)^-1 holds for the unbiased inversion (95 %; this seed)
    assert sim.max_abs_errors["inversion"] <= sim.half_width
    for method in rr.ESTIMATION_METHODS:
        assert sim.max_abs_errors[method] == pytest.approx(np.max(np.abs(sim.estimates[method] - sim.true)))
    for method in ("clip", "simplex", "ibu"):                       # proper estimates are distributions
        assert sim.estimates[method].sum() == pytest.approx(1.0) and np.all(sim.estimates[method] >= 0)


def test_bounds_are_eqs_5_and_6_of_the_reports():
    matrix = rr.optimal_matrix(3, 1.0)
    sim = simulate_estimation(matrix, 2_000, rng=7)
    # recompute the reports with the same stream: draw, then randomize
    rng = np.random.default_rng(7)
    codes = rng.choice(3, size=2_000, p=np.full(3, 1 / 3))
    counts = rr.report_counts(rr.randomize(codes, matrix, rng), 3)
    lam = counts / counts.sum()
    expected = rr.error_bounds(lam, 2_000)
    assert sim.bounds == expected
    assert sim.bounds.e_abs == pytest.approx(np.max(np.sqrt(expected.B * lam * (1 - lam) / 2_000)))
    assert sim.bounds.e_rel == pytest.approx(np.max(np.sqrt(expected.B * (1 - lam) / (lam * 2_000))))
    assert sim.half_width == pytest.approx(rr.estimate_error_bound(matrix, expected))


def test_records_are_subsampled_without_replacement_and_missing_dropped():
    records = np.array([0, 0, 1, 2, -1, 2, 2, 1])
    sim = simulate_estimation(rr.optimal_matrix(3, 2.0), 100,
                              records=records, rng=0)
    assert sim.from_records and sim.n == 7
    np.testing.assert_allclose(sim.true, np.bincount([0, 0, 1, 2, 2, 2, 1]) / 7)
    small = simulate_estimation(rr.optimal_matrix(3, 2.0), 3, records=records, rng=0)
    assert small.n == 3


def test_same_seed_same_run_and_result_is_frozen():
    a = simulate_estimation(rr.optimal_matrix(3, 1.0), 500, rng=3)
    b = simulate_estimation(rr.optimal_matrix(3, 1.0), 500, rng=3)
    np.testing.assert_array_equal(a.estimates["ibu"], b.estimates["ibu"])
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.n = 1


def test_singular_matrix_only_ibu():
    equal_rows = np.tile([0.5, 0.3, 0.2], (3, 1))
    assert is_singular(equal_rows) and not is_singular(rr.optimal_matrix(3, 0.5))
    sim = simulate_estimation(equal_rows, 1_000, rng=0)
    assert sim.impossible == ("inversion", "clip", "simplex")
    assert math.isinf(sim.half_width)
    assert np.all(np.isnan(sim.estimates["inversion"])) and set(sim.max_abs_errors) == {"ibu"}


@pytest.mark.parametrize("kwargs, words", [
    ({"n": 0}, "sample size n must be >= 1, got 0"),
    ({"n": 10, "records": np.array([0, 5])}, "codes must be below r = 3, got 5"),
    ({"n": 10, "records": np.array([-1, -1])}, "all missing"),
    ({"n": 10, "records": np.array([0.5, 1.0])}, "integer codes"),
    ({"n": 10, "prior": [1, 2]}, "prior"),
])
def test_bad_input_is_refused_in_words(kwargs, words):
    with pytest.raises(ExplorerError, match=words):
        simulate_estimation(rr.optimal_matrix(3, 1.0), **kwargs)
