"""Tests of explorer.core.deniability (000 Sections II-III)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.deniability import (
    DeniabilityCurve,
    conditional_entropy,
    deniability_curve,
    deniability_entropies,
    describe_odds,
    entropy,
    example1_matrix,
    guessing_probability,
    is_perfect_secrecy,
    misinformative_reports,
    posterior_matrix,
    posterior_odds_bound,
    reported_distribution,
)
from explorer.core.rr import (
    epsilon_of,
    estimate_frequencies,
    optimal_matrix,
    warner_matrix,
)
from explorer.errors import InvalidDistributionError, InvalidMatrixError, InvalidParameterError, SingularMatrixError


def test_entropy_kept():
    assert entropy([0.5, 0.5]) == 1.0
    assert entropy([1.0, 0.0]) == 0.0


def test_example1():
    # 000 Example 1: epsilon = 2, e^2 = 7.389, column (0.7389, 0.1), uniform prior.
    m = example1_matrix()
    assert math.exp(2) == pytest.approx(7.389, abs=5e-4)
    assert m[0, 0] == pytest.approx(0.7389, abs=5e-5) and m[1, 0] == 0.1
    assert epsilon_of(m) == pytest.approx(2.0, abs=1e-12)
    q = posterior_matrix(m, [0.5, 0.5])
    np.testing.assert_allclose(q[0], [0.881, 0.119], atol=5e-4)
    assert deniability_entropies(m, [0.5, 0.5])[0] == pytest.approx(0.527, abs=5e-4)
    # the printed column gives the same three digits
    printed = np.array([[0.7389, 0.2611], [0.1, 0.9]])
    np.testing.assert_allclose(posterior_matrix(printed)[0], [0.881, 0.119], atol=5e-4)
    assert deniability_entropies(printed)[0] == pytest.approx(0.527, abs=5e-4)
    assert posterior_odds_bound(m) == pytest.approx(7.389, abs=5e-4)
    assert "7.4" in describe_odds(epsilon_of(m))


def test_perfect_secrecy():
    # 000 Section II-A b): equal probabilities within each column -> posterior = prior, H(X|Y) = H(X),
    # and the matrix is singular so the unbiased estimator (Eq. 2) cannot be computed.
    m = np.array([[0.2, 0.5, 0.3], [0.2, 0.5, 0.3], [0.2, 0.5, 0.3]])
    prior = np.array([0.6, 0.3, 0.1])
    q = posterior_matrix(m, prior)
    np.testing.assert_allclose(q, np.tile(prior, (3, 1)))
    assert conditional_entropy(m, prior) == pytest.approx(entropy(prior))
    np.testing.assert_allclose(deniability_entropies(m, prior), entropy(prior))
    assert is_perfect_secrecy(m) and is_perfect_secrecy(m, prior)
    assert epsilon_of(m) == 0.0
    assert posterior_odds_bound(m) == 1.0
    with pytest.raises(SingularMatrixError, match="ibu"):
        estimate_frequencies([10, 20, 30], m, kind="counts")
    assert not is_perfect_secrecy(warner_matrix(0.75))
    assert not misinformative_reports(m, prior).any()


def test_misinformative_report_forces_another_below():
    m = np.array([[0.9, 0.1], [0.5, 0.5]])
    prior = np.array([0.8, 0.2])
    mis = misinformative_reports(m, prior)
    assert mis.tolist() == [False, True]
    h = deniability_entropies(m, prior)
    assert h[1] > entropy(prior) > h[0]
    assert conditional_entropy(m, prior) <= entropy(prior)


def test_impossible_report_is_nan_and_left_out():
    m = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.5, 0.5, 0.0]])
    q = posterior_matrix(m)
    assert np.all(np.isnan(q[2]))
    h = deniability_entropies(m)
    assert np.isnan(h[2])
    assert np.isfinite(conditional_entropy(m))
    assert np.isnan(guessing_probability(m)[2])
    assert misinformative_reports(m).tolist()[2] is False


def test_reported_distribution_and_odds_words():
    np.testing.assert_allclose(reported_distribution(warner_matrix(0.75), [0.8, 0.2]), [0.65, 0.35])
    assert describe_odds(0) .endswith("(perfect secrecy)")
    assert "infinite" in describe_odds(math.inf)
    assert math.isinf(posterior_odds_bound(np.eye(2)))


def test_posterior_odds_bound_holds():
    rng = np.random.default_rng(4)
    for _ in range(20):
        m = rng.dirichlet(np.ones(4), size=4)
        prior = rng.dirichlet(np.ones(4))
        q = posterior_matrix(m, prior)
        ratio = (q / prior)  # posterior / prior per report and value
        factor = (ratio[:, :, None] / ratio[:, None, :]).max()
        assert factor <= posterior_odds_bound(m) * (1 + 1e-9)


@pytest.mark.parametrize("prior, error, text", [
    ([-0.1, 1.1], InvalidDistributionError, "prior must be non-negative: entry 1 is -0.1"),
    ([0, 0], InvalidDistributionError, "prior must not be all zero"),
    ([0.5, 0.3, 0.2], InvalidDistributionError, "prior must have 2 entries, got 3"),
])
def test_bad_prior(prior, error, text):
    with pytest.raises(error, match=text):
        posterior_matrix(warner_matrix(0.75), prior)


def test_bad_matrix_and_curve_arguments():
    with pytest.raises(InvalidMatrixError, match="row 2 sums to 0.9"):
        posterior_matrix([[0.5, 0.5], [0.5, 0.4]])
    with pytest.raises(InvalidParameterError, match="epsilons must be non-negative numbers, got -1"):
        deniability_curve(3, None, [1.0, -1.0])
    with pytest.raises(InvalidParameterError, match="design must be one of"):
        deniability_curve(3, None, [1.0], design="nope")
    with pytest.raises(InvalidParameterError, match="warner"):
        deniability_curve(3, None, [1.0], design="warner")
    with pytest.raises(InvalidParameterError, match="n_categories must be <= 64, got 65"):
        deniability_curve(65, None, [1.0])


def test_deniability_curve_matches_pointwise():
    eps = np.array([0.0, 0.5, 2.0, 5.0, math.inf])
    prior = np.array([0.5, 0.3, 0.2])
    curve = deniability_curve(3, prior, eps)
    assert isinstance(curve, DeniabilityCurve)
    for k, e in enumerate(eps):
        m = optimal_matrix(3, e)
        assert curve.conditional_entropy[k] == pytest.approx(conditional_entropy(m, prior), abs=1e-12)
        assert curve.min_entropy[k] == pytest.approx(np.nanmin(deniability_entropies(m, prior)), abs=1e-12)
        assert curve.max_guessing[k] == pytest.approx(np.nanmax(guessing_probability(m, prior)), abs=1e-12)
    assert curve.conditional_entropy[0] == pytest.approx(entropy(prior))
    assert curve.conditional_entropy[-1] == pytest.approx(0.0)
    # Example 1 in the curve: epsilon = 2 at r = 2 leaves a best guess of e^2/(1+e^2) = 0.881.
    c2 = deniability_curve(2, None, [2.0])
    assert c2.max_guessing[0] == pytest.approx(0.881, abs=5e-4)
    same = deniability_curve(2, None, eps, design="warner")
    np.testing.assert_allclose(same.conditional_entropy, deniability_curve(2, None, eps).conditional_entropy)
    custom = deniability_curve(2, None, [0.5, 1.0], design=lambda e: warner_matrix(0.5 + 0.1 * e))
    assert custom.design == "<lambda>" and custom.conditional_entropy.shape == (2,)


# --------------------------------------------------------------------------- hypothesis properties


@st.composite
def matrix_and_prior(draw, max_r=6):
    r = draw(st.integers(2, max_r))
    seed = draw(st.integers(0, 2**31))
    rng = np.random.default_rng(seed)
    alpha = draw(st.sampled_from([0.2, 1.0, 5.0]))
    m = rng.dirichlet(np.full(r, alpha), size=r)
    m /= m.sum(axis=1, keepdims=True)
    prior = rng.dirichlet(np.full(r, alpha))
    return m, prior


@settings(max_examples=60, deadline=None)
@given(matrix_and_prior())
def test_probabilities_and_entropy_bounds(mp):
    m, prior = mp
    r = m.shape[0]
    q = posterior_matrix(m, prior)
    rows = ~np.isnan(q[:, 0])
    assert np.all((q[rows] >= 0) & (q[rows] <= 1))
    np.testing.assert_allclose(q[rows].sum(axis=1), 1.0, atol=1e-12)
    lam = reported_distribution(m, prior)
    assert np.all(lam >= 0) and lam.sum() == pytest.approx(1.0)
    h = deniability_entropies(m, prior)
    assert np.all(h[rows] >= -1e-12) and np.all(h[rows] <= math.log2(r) + 1e-12)
    assert conditional_entropy(m, prior) <= entropy(prior) + 1e-12
    g = guessing_probability(m, prior)
    assert np.all((g[rows] >= 1 / r - 1e-12) & (g[rows] <= 1 + 1e-12))


@settings(max_examples=40, deadline=None)
@given(matrix_and_prior(), st.integers(0, 2**31))
def test_relabelling_permutes_results(mp, seed):
    m, prior = mp
    perm = np.random.default_rng(seed).permutation(m.shape[0])
    m2, prior2 = m[np.ix_(perm, perm)], prior[perm]
    q, q2 = posterior_matrix(m, prior), posterior_matrix(m2, prior2)
    np.testing.assert_allclose(q2, q[np.ix_(perm, perm)], atol=1e-12)
    np.testing.assert_allclose(deniability_entropies(m2, prior2), deniability_entropies(m, prior)[perm], atol=1e-12)
    np.testing.assert_array_equal(misinformative_reports(m2, prior2), misinformative_reports(m, prior)[perm])
    assert conditional_entropy(m2, prior2) == pytest.approx(conditional_entropy(m, prior), abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 12), st.integers(0, 2**31))
def test_optimal_design_conditional_entropy_never_rises(r, seed):
    prior = np.random.default_rng(seed).dirichlet(np.ones(r))
    eps = np.linspace(0, 12, 121)
    curve = deniability_curve(r, prior, eps)
    assert np.all(np.diff(curve.conditional_entropy) <= 1e-12)
    assert np.all(np.diff(curve.max_guessing) >= -1e-12)
    assert curve.conditional_entropy[0] == pytest.approx(entropy(prior))


# ---------------------------------------------------------------------- one matrix read whole (the RR tab's numbers)
def test_read_matrix_gathers_the_functions_it_reads_with():
    from explorer.core.deniability import (
        conditional_entropy,
        deniability_entropies,
        entropy,
        guessing_probability,
        is_perfect_secrecy,
        misinformative_reports,
        posterior_matrix,
        read_matrix,
    )
    from explorer.core.rr import epsilon_column, epsilon_of
    from explorer.core.rr.simulation import is_singular

    matrix, prior = np.array([[0.9, 0.1], [0.5, 0.5]]), np.array([0.8, 0.2])
    reading = read_matrix(matrix, prior)
    assert reading.epsilon == epsilon_of(matrix) and reading.column == epsilon_column(matrix)
    assert reading.odds_bound == pytest.approx(math.exp(reading.epsilon))
    np.testing.assert_array_equal(reading.posterior, posterior_matrix(matrix, prior))
    np.testing.assert_array_equal(reading.entropies, deniability_entropies(matrix, prior))
    assert reading.prior_entropy == entropy(prior)
    assert reading.conditional_entropy == conditional_entropy(matrix, prior)
    np.testing.assert_array_equal(reading.guessing, guessing_probability(matrix, prior))
    assert reading.best_guess == np.nanmax(guessing_probability(matrix, prior))
    np.testing.assert_array_equal(reading.misinformative, misinformative_reports(matrix, prior))
    assert reading.n_misinformative == 1
    assert reading.perfect_secrecy == is_perfect_secrecy(matrix, prior) is False
    assert reading.singular == is_singular(matrix) is False


def test_read_matrix_odds_bound_at_the_extremes_and_the_uniform_prior():
    from explorer.core.deniability import read_matrix
    assert read_matrix(np.eye(3)).odds_bound == math.inf                  # epsilon infinite
    tiny = np.array([[1 - 1e-305, 1e-305], [0.5, 0.5]])                   # epsilon about 701: e^700, no overflow
    reading = read_matrix(tiny)
    assert reading.epsilon > 700 and reading.odds_bound == math.exp(700)
    np.testing.assert_array_equal(reading.prior, [0.5, 0.5])
    with pytest.raises(InvalidMatrixError, match="row 1 sums to 0.9"):
        read_matrix([[0.5, 0.4], [0.5, 0.5]])


def test_perfect_secrecy_matrix_has_equal_rows_epsilon_0_and_is_singular():
    from explorer.core.deniability import is_perfect_secrecy, perfect_secrecy_matrix, read_matrix
    for r in (2, 3, 12):
        matrix = perfect_secrecy_matrix(r)
        np.testing.assert_allclose(matrix.sum(axis=1), 1.0)
        assert np.all(matrix == matrix[0]) and len(set(matrix[0])) == r     # equal rows, different columns
        assert is_perfect_secrecy(matrix, np.arange(1, r + 1))
        reading = read_matrix(matrix)
        assert reading.epsilon == 0 and reading.singular and reading.perfect_secrecy
    np.testing.assert_array_equal(perfect_secrecy_matrix(3), np.tile(np.arange(3, 0, -1) / 6, (3, 1)))
    with pytest.raises(InvalidParameterError, match="n_categories"):
        perfect_secrecy_matrix(1)
