"""Tests of explorer.core.rr (Domingo-Ferrer and Soria-Comas 2018, Sections II-III;
Domingo-Ferrer and Soria-Comas 2022, Sections 2.1-2.3, 6.3-6.4)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.rr import (
    ErrorBounds,
    FrequencyEstimate,
    IllConditionedMatrixWarning,
    clip_and_rescale,
    epsilon_column,
    epsilon_of,
    error_bounds,
    estimate_error_bound,
    estimate_frequencies,
    identity_matrix,
    inversion_estimate,
    iterative_bayesian_update,
    keep_or_uniform_matrix,
    keep_probability_for_epsilon,
    optimal_matrix,
    project_to_simplex,
    randomize,
    report_counts,
    warner_matrix,
)
from explorer.core.rr.mechanisms import GRRMatrix, KroneckerMatrix
from explorer.errors import (
    ExplorerTypeError,
    InvalidDistributionError,
    InvalidMatrixError,
    InvalidParameterError,
    SingularMatrixError,
)

# --------------------------------------------------------------------------- designs


def test_warner_p_075_gives_ln3():
    # 000 Section III: Warner's design with p = 3/4 is ln 3-DP.
    assert epsilon_of(warner_matrix(0.75)) == pytest.approx(math.log(3), rel=1e-12)


def test_designs_are_row_stochastic():
    for matrix in (warner_matrix(0.3), keep_or_uniform_matrix(5, 0.4), optimal_matrix(7, 1.3), identity_matrix(4)):
        assert matrix.dtype == float
        np.testing.assert_allclose(matrix.sum(axis=1), 1.0, atol=1e-12)
        assert np.all(matrix >= 0)


@pytest.mark.parametrize("r", [2, 3, 5, 12, 64])
@pytest.mark.parametrize("epsilon", [0.0, 0.1, 1.0, 2.0, 5.0, 30.0])
def test_optimal_matrix_attains_its_epsilon(r, epsilon):
    assert epsilon_of(optimal_matrix(r, epsilon)) == pytest.approx(epsilon, rel=1e-12, abs=1e-12)


def test_optimal_matrix_entries_and_infinity():
    m = optimal_matrix(4, 2.0)
    e = math.exp(2.0)
    assert m[0, 0] == pytest.approx(e / (e + 3))
    assert m[0, 1] == pytest.approx(1 / (e + 3))
    np.testing.assert_array_equal(optimal_matrix(3, math.inf), np.eye(3))
    # e^-1000 underflows (the smallest double is about e^-744.4): the off-diagonal entries of the
    # float matrix are exactly 0, so the matrix returned is the identity and its epsilon is infinite.
    # Below the underflow the epsilon is recovered: e^-700 is still representable.
    big = optimal_matrix(3, 1000.0)
    np.testing.assert_array_equal(big, np.eye(3))
    assert math.isinf(epsilon_of(big))
    assert epsilon_of(optimal_matrix(3, 700.0)) == pytest.approx(700.0, rel=1e-12)


def test_keep_or_uniform_is_the_prop1_mechanism_and_its_epsilon():
    # docs/conventions.md erratum (Domingo-Ferrer and Soria-Comas 2022, Section 6.3.1):
    # diagonal p + (1-p)/r, off (1-p)/r, eps = ln(1 + p r/(1-p)).
    r, p = 4, 0.6
    m = keep_or_uniform_matrix(r, p)
    assert m[1, 1] == pytest.approx(p + (1 - p) / r)
    assert m[1, 2] == pytest.approx((1 - p) / r)
    assert epsilon_of(m) == pytest.approx(math.log(1 + p * r / (1 - p)))
    # At the p that gives epsilon it equals the optimal matrix.
    eps = 1.7
    np.testing.assert_allclose(keep_or_uniform_matrix(r, keep_probability_for_epsilon(r, eps)),
                               optimal_matrix(r, eps), atol=1e-14)


def test_epsilon_conventions():
    assert epsilon_of([[0.5, 0.5], [0.5, 0.5]]) == 0.0
    assert math.isinf(epsilon_of(identity_matrix(3)))
    # an all-zero column is ignored
    assert epsilon_of([[0.5, 0.5, 0.0], [0.25, 0.75, 0.0], [0.5, 0.5, 0.0]]) == pytest.approx(math.log(2))
    assert epsilon_column([[0.6, 0.4], [0.1, 0.9]]) == 0
    assert epsilon_column([[0.5, 0.5, 0.0], [0.5, 0.3, 0.2], [0.5, 0.5, 0.0]]) == 2


def test_example1_epsilon_two_column():
    # 000 Example 1: e^2 = 7.389; a column (0.7389, 0.1) has ratio e^2.
    m = np.array([[0.7389, 0.2611], [0.1, 0.9]])
    assert math.exp(2) == pytest.approx(7.389, abs=5e-4)
    assert epsilon_of(m) == pytest.approx(math.log(7.389), abs=1e-12)
    assert epsilon_column(m) == 0


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("bad, error, text", [
    (-1, InvalidParameterError, "epsilon must be >= 0, got -1"),
    (float("nan"), InvalidParameterError, "epsilon must be a number, got NaN"),
    ("abc", ExplorerTypeError, "epsilon must be a number, got 'abc'"),
])
def test_bad_epsilon(bad, error, text):
    with pytest.raises(error, match=text):
        optimal_matrix(3, bad)


@pytest.mark.parametrize("r", [1, 65, 0, -3])
def test_bad_number_of_categories(r):
    with pytest.raises(InvalidParameterError, match=f"n_categories .* got {r}"):
        optimal_matrix(r, 1.0)


@pytest.mark.parametrize("matrix, text", [
    ([[0.5, 0.5, 0.0], [0.5, 0.5, 0.0]], "must be square, got 2 rows and 3 columns"),
    ([[1.2, -0.2], [0.5, 0.5]], "row 1, column 1 is 1.2"),
    ([[float("nan"), 1.0], [0.5, 0.5]], "row 1, column 1 is nan"),
    ([[0.5, 0.5, 0.0], [0.5, 0.3, 0.1], [0.0, 0.0, 1.0]], "row 2 sums to 0.9, not 1"),
])
def test_bad_matrices_name_row(matrix, text):
    with pytest.raises(InvalidMatrixError, match=text):
        epsilon_of(matrix)
    with pytest.raises(InvalidMatrixError):
        randomize([0, 1], matrix, rng=0)


def test_bad_probability():
    with pytest.raises(InvalidParameterError, match="p must be <= 1, got 1.5"):
        warner_matrix(1.5)


def test_empty_sample_and_bad_codes():
    with pytest.raises(InvalidDistributionError, match="empty"):
        estimate_frequencies([], warner_matrix(0.75))
    with pytest.raises(InvalidParameterError, match="codes 0..1, got 2"):
        randomize([0, 2], warner_matrix(0.75), rng=0)
    with pytest.raises(ExplorerTypeError):
        randomize([0.5, 1], warner_matrix(0.75), rng=0)
    with pytest.raises(InvalidDistributionError, match="counts must be non-negative"):
        estimate_frequencies([-1, 3], warner_matrix(0.75), kind="counts")
    with pytest.raises(InvalidDistributionError, match="all zero"):
        estimate_frequencies([0, 0], warner_matrix(0.75), kind="counts")
    with pytest.raises(InvalidParameterError, match="method must be one of"):
        estimate_frequencies([1, 1], warner_matrix(0.75), "magic", kind="counts")
    assert randomize([], warner_matrix(0.75), rng=0).size == 0


def test_singular_matrix_inversion_refuses_and_suggests_ibu():
    with pytest.raises(SingularMatrixError, match="ibu"):
        estimate_frequencies([3, 7], warner_matrix(0.5), kind="counts")
    result = estimate_frequencies([3, 7], warner_matrix(0.5), "ibu", kind="counts")
    assert np.all(np.isnan(result.raw))
    np.testing.assert_allclose(result.estimate.sum(), 1.0)


def test_ill_conditioned_warns():
    with pytest.warns(IllConditionedMatrixWarning):
        estimate_frequencies([3, 7], warner_matrix(0.5 + 1e-8), kind="counts")


# --------------------------------------------------------------------------- randomize


def test_randomize_is_seeded_and_respects_zeros():
    m = np.array([[0.5, 0.0, 0.5], [0.0, 1.0, 0.0], [0.2, 0.3, 0.5]])
    codes = np.repeat([0, 1, 2], 20_000)
    a = randomize(codes, m, rng=7)
    b = randomize(codes, m, rng=7)
    np.testing.assert_array_equal(a, b)
    assert not np.any(a[codes == 0] == 1)
    assert np.all(a[codes == 1] == 1)
    for u in range(3):
        freq = np.bincount(a[codes == u], minlength=3) / 20_000
        np.testing.assert_allclose(freq, m[u], atol=0.015)


def test_randomize_edge_draws_stay_in_row():
    # A generator that returns draws next to 0 and 1 must not leak into a neighbouring row.
    class Edge(np.random.Generator):
        def random(self, size=None, dtype=np.float64, out=None):
            return np.where(np.arange(size) % 2 == 0, 1 - 2**-53, 0.0)

    m = np.array([[0.3, 0.7, 0.0], [0.2, 0.3, 0.5], [0.0, 0.4, 0.6]])
    out = randomize(np.array([0, 0, 1, 1, 2, 2]), m, rng=Edge(np.random.PCG64(0)))
    assert out.tolist() == [1, 0, 2, 0, 2, 1]


# --------------------------------------------------------------------------- estimation


def test_003_section21_negative_inversion_estimate():
    # 003 Section 2.1: a first column all above 0.5 with lambda_1 below 0.5 forces negative estimates.
    m = np.array([[0.8, 0.1, 0.1], [0.6, 0.3, 0.1], [0.55, 0.05, 0.4]])
    assert np.all(m[:, 0] > 0.5)
    counts = np.array([45, 30, 25])  # lambda_1 = 0.45 < 0.5
    result = estimate_frequencies(counts, m, kind="counts")
    assert np.any(result.estimate < 0)
    assert result.estimate.sum() == pytest.approx(1.0)
    for method in ("clip", "simplex", "ibu"):
        est = estimate_frequencies(counts, m, method, kind="counts").estimate
        assert np.all(est >= 0) and est.sum() == pytest.approx(1.0)


def test_paper_notes_clip_vs_simplex():
    # docs/conventions.md (Domingo-Ferrer and Soria-Comas 2022, Section 6.4 erratum):
    # (0.9, 0.3, -0.2) -> clip (0.75, 0.25, 0), projection (0.8, 0.2, 0).
    np.testing.assert_allclose(clip_and_rescale([0.9, 0.3, -0.2]), [0.75, 0.25, 0.0])
    np.testing.assert_allclose(project_to_simplex([0.9, 0.3, -0.2]), [0.8, 0.2, 0.0])


def test_estimate_from_reports_matches_counts():
    m = optimal_matrix(4, 1.0)
    reports = randomize(np.repeat(np.arange(4), [100, 200, 300, 400]), m, rng=3)
    a = estimate_frequencies(reports, m, "simplex")
    b = estimate_frequencies(report_counts(reports, 4), m, "simplex", kind="counts")
    assert isinstance(a, FrequencyEstimate)
    np.testing.assert_allclose(a.estimate, b.estimate)
    assert a.n == 1000 and a.method == "simplex" and a.converged and a.iterations == 0


def test_ibu_matches_inversion_when_inside_simplex():
    # A strictly positive inversion is the update's fixed point: one step confirms it.
    m = optimal_matrix(3, 1.5)
    pi = np.array([0.5, 0.3, 0.2])
    counts = m.T @ pi * 10_000
    ibu = estimate_frequencies(counts, m, "ibu", kind="counts")
    assert ibu.converged and ibu.iterations == 1
    np.testing.assert_allclose(ibu.estimate, pi, atol=1e-12)


def test_ibu_on_the_boundary_iterates_from_uniform_and_maximises_likelihood():
    m = optimal_matrix(3, 1.5)
    counts = np.array([45.0, 50.0, 5.0])            # inversion has a negative entry
    assert estimate_frequencies(counts, m, kind="counts").estimate.min() < 0
    ibu = estimate_frequencies(counts, m, "ibu", kind="counts", tol=1e-13, max_iter=200_000)
    plain = estimate_frequencies(counts, m, "ibu", kind="counts", tol=1e-13, max_iter=200_000, accelerate=False)
    assert ibu.converged and plain.converged and 1 < ibu.iterations < plain.iterations
    np.testing.assert_allclose(ibu.estimate, plain.estimate, atol=1e-9)
    assert np.all(ibu.estimate >= 0) and ibu.estimate.sum() == pytest.approx(1.0)

    def loglik(pi):
        return float(counts @ np.log(m.T @ pi))
    rng = np.random.default_rng(0)
    for candidate in rng.dirichlet(np.ones(3), size=500):
        assert loglik(candidate) <= loglik(ibu.estimate) + 1e-9
    capped = estimate_frequencies(counts, m, "ibu", kind="counts", tol=1e-15, max_iter=3)
    assert not capped.converged and capped.iterations == 3


def test_project_to_simplex_is_the_euclidean_projection():
    rng = np.random.default_rng(5)
    for _ in range(20):
        v = rng.normal(size=5)
        proj = project_to_simplex(v)
        # any other point of the simplex is at least as far (check random candidates)
        candidates = rng.dirichlet(np.ones(5), size=2000)
        assert np.linalg.norm(proj - v) <= np.min(np.linalg.norm(candidates - v, axis=1)) + 1e-12


def test_error_bounds_eqs_5_6():
    lam = np.array([0.2, 0.3, 0.5])
    n = 1000
    b = error_bounds(lam, n, 0.05)
    assert isinstance(b, ErrorBounds)
    from scipy.stats import chi2
    assert b.B == pytest.approx(chi2.isf(0.05 / 3, 1))
    assert b.e_abs == pytest.approx(math.sqrt(b.B * 0.5 * 0.5 / n))
    assert b.e_rel == pytest.approx(math.sqrt(b.B * 0.8 / 0.2 / n))
    assert math.isinf(error_bounds([0.0, 1.0], 10).e_rel)
    with pytest.raises(InvalidParameterError, match="alpha"):
        error_bounds(lam, n, 1.5)
    with pytest.raises(InvalidParameterError, match="n must be >= 1"):
        error_bounds(lam, 0)


# --------------------------------------------------------------------------- properties


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 8), st.floats(0.05, 8), st.integers(0, 2**31))
def test_estimates_are_distributions(r, epsilon, seed):
    rng = np.random.default_rng(seed)
    m = optimal_matrix(r, epsilon)
    counts = rng.integers(0, 50, size=r)
    counts[0] += 1
    for method in ("clip", "simplex", "ibu"):
        est = estimate_frequencies(counts, m, method, kind="counts", max_iter=2000).estimate
        assert np.all(est >= 0) and np.all(est <= 1)
        assert est.sum() == pytest.approx(1.0)


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 6), st.floats(0.2, 4), st.integers(0, 2**31))
def test_relabelling_permutes_estimates(r, epsilon, seed):
    rng = np.random.default_rng(seed)
    m = rng.dirichlet(np.ones(r), size=r) * 0.5 + optimal_matrix(r, epsilon) * 0.5
    counts = rng.integers(1, 100, size=r).astype(float)
    perm = rng.permutation(r)
    for method in ("inversion", "simplex", "ibu"):
        a = estimate_frequencies(counts, m, method, kind="counts").estimate
        b = estimate_frequencies(counts[perm], m[np.ix_(perm, perm)], method, kind="counts").estimate
        np.testing.assert_allclose(b, a[perm], atol=1e-7)
    assert epsilon_of(m[np.ix_(perm, perm)]) == pytest.approx(epsilon_of(m))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_randomize_then_inversion_is_unbiased(seed):
    # Seeded; tolerance from error_bounds (003 Eq. 5) propagated through (P^T)^-1.
    r, n = 5, 200_000
    m = optimal_matrix(r, 1.0)
    pi = np.array([0.4, 0.25, 0.15, 0.15, 0.05])
    rng = np.random.default_rng(seed)
    codes = rng.choice(r, size=n, p=pi)
    truth = np.bincount(codes, minlength=r) / n
    result = estimate_frequencies(randomize(codes, m, rng), m)
    bound = estimate_error_bound(m, error_bounds(result.lambda_hat, n, alpha=0.01))
    assert np.max(np.abs(result.estimate - truth)) <= bound


def test_average_of_many_inversions_is_close_to_truth():
    m = optimal_matrix(3, 0.5)
    codes = np.repeat([0, 1, 2], [500, 300, 200])
    rng = np.random.default_rng(11)
    estimates = np.array([estimate_frequencies(randomize(codes, m, rng), m).estimate for _ in range(300)])
    spread = estimates.std(axis=0) / math.sqrt(300)
    assert np.all(np.abs(estimates.mean(axis=0) - [0.5, 0.3, 0.2]) < 4 * spread)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        estimate_frequencies([1, 2, 3], m, kind="counts")  # well-conditioned: no warning


@pytest.mark.parametrize("r, n", [(3, 100), (16, 300_000), (150, 40_000)])
def test_randomize_table_path_is_exact(r, n):
    # The bin-table path must give exactly the inverse CDF (count of cumulative entries <= draw).
    from explorer.core.rr.mechanisms import _category_of_draws, _row_cumulative
    rng = np.random.default_rng(r)
    m = rng.dirichlet(np.full(r, 0.3), size=r)
    m[:, 1] = 0.0
    m[0, -1] = 0.0
    m /= m.sum(axis=1, keepdims=True)
    cumulative = _row_cumulative(m)
    rows = rng.integers(0, r, size=n)
    draws = rng.random(n)
    draws[:5] = [0.0, 1 - 2**-53, 0.5, 0.25, 0.75]
    expected = (draws[:, None] >= cumulative[rows]).sum(axis=1)
    np.testing.assert_array_equal(_category_of_draws(cumulative, rows, draws), expected)
    assert not np.any(expected == 1)
    assert not np.any(expected[rows == 0] == r - 1)


# --------------------------------------------------------------------------- one inversion, one IBU


def _stochastic(rng: np.random.Generator, r: int) -> np.ndarray:
    """A random well-conditioned RR matrix: a strong diagonal plus random rows."""
    m = rng.dirichlet(np.ones(r), size=r) + np.eye(r) * rng.uniform(1.0, 3.0)
    return m / m.sum(axis=1, keepdims=True)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 7), st.integers(0, 2**31), st.sampled_from(["dense", "grr", "kronecker"]))
def test_the_inversion_agrees_with_numpy_solve(r, seed, kind):
    rng = np.random.default_rng(seed)
    if kind == "dense":
        matrix = _stochastic(rng, r)
        dense = matrix
    elif kind == "grr":
        matrix = GRRMatrix(r, rng.uniform(1.0 / r + 0.05, 1.0))
        dense = matrix.to_dense()
    else:
        matrix = KroneckerMatrix((GRRMatrix(r, rng.uniform(1.0 / r + 0.05, 1.0)), _stochastic(rng, 3)))
        dense = np.kron(matrix.factors[0].to_dense(), matrix.factors[1])
    lam = rng.dirichlet(np.ones(dense.shape[0]))
    np.testing.assert_allclose(inversion_estimate(matrix, lam), np.linalg.solve(dense.T, lam), atol=1e-10)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 7), st.integers(0, 2**31), st.booleans())
def test_one_ibu_step_is_its_definition(r, seed, structured):
    # pi_1(u) = sum_v lambda_v pi_0(u) P[u, v] / sum_u' pi_0(u') P[u', v] (Agrawal and Aggarwal 2001)
    rng = np.random.default_rng(seed)
    dense = _stochastic(rng, r) if not structured else GRRMatrix(r, rng.uniform(0.1, 1.0)).to_dense()
    matrix = GRRMatrix(r, float(dense[0, 0])) if structured else dense
    lam = rng.dirichlet(np.ones(r))
    lam[rng.random(r) < 0.3] = 0.0                      # some reports never seen
    if lam.sum() == 0:
        lam[0] = 1.0
    lam /= lam.sum()
    start = rng.dirichlet(np.ones(r))
    expected = start * (dense @ np.where(lam > 0, lam / (dense.T @ start), 0.0))
    expected /= expected.sum()
    step = iterative_bayesian_update(matrix, lam, start=start, max_iter=1, accelerate=False, tol=1e-300)
    assert step.iterations == 1 and not step.converged
    np.testing.assert_allclose(step.estimate, expected, rtol=1e-12, atol=1e-15)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), st.floats(0.3, 3.0), st.integers(0, 2**31), st.booleans())
def test_accelerated_ibu_reaches_the_plain_fixed_point_from_any_start(r, epsilon, seed, structured):
    # Counts with empty categories put the maximum on the boundary (the inversion has negative
    # entries); the plain update crawls there, SQUAREM extrapolates.  Same fixed point either way.
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, 50, size=r).astype(float)
    counts[rng.random(r) < 0.4] = 0.0
    if counts.sum() == 0:
        counts[0] = 1.0
    matrix = GRRMatrix.optimal(r, epsilon) if structured else optimal_matrix(r, epsilon)
    start = rng.dirichlet(np.ones(r) * rng.uniform(0.2, 5.0))
    fast = iterative_bayesian_update(matrix, counts, start=start, tol=1e-13, max_iter=100_000)
    slow = iterative_bayesian_update(matrix, counts, start=start, tol=1e-13, max_iter=2_000_000, accelerate=False)
    assert fast.converged and slow.converged and fast.accelerated and not slow.accelerated
    assert np.abs(fast.estimate - slow.estimate).sum() < 1e-6
    assert fast.log_likelihood >= slow.log_likelihood - 1e-12
    # and it is a fixed point of the plain update
    again = iterative_bayesian_update(matrix, counts, start=fast.estimate, max_iter=1, accelerate=False,
                                      tol=1e-300)
    np.testing.assert_allclose(again.estimate, fast.estimate, atol=1e-10)


def test_ibu_of_a_singular_matrix_stays_at_its_start():
    # Perfect secrecy: every report is as likely under any pi, so any start is a fixed point.
    result = iterative_bayesian_update(warner_matrix(0.5), [3, 7], start=[0.2, 0.8])
    assert result.converged and result.iterations == 1
    np.testing.assert_allclose(result.estimate, [0.2, 0.8])


def test_ibu_validates_its_inputs():
    with pytest.raises(InvalidDistributionError, match="lambda_hat must have 2 entries, got 3"):
        iterative_bayesian_update(warner_matrix(0.75), [1, 2, 3])
    with pytest.raises(InvalidDistributionError, match="start must be non-negative: entry 1 is -1"):
        iterative_bayesian_update(warner_matrix(0.75), [1, 2], start=[-1, 2])
    with pytest.raises(InvalidParameterError, match="tol must be > 0, got 0"):
        iterative_bayesian_update(warner_matrix(0.75), [1, 2], tol=0)
    with pytest.raises(InvalidParameterError, match="max_iter must be >= 1, got 0"):
        iterative_bayesian_update(warner_matrix(0.75), [1, 2], max_iter=0)


# ---------------------------------------------------------------------- a matrix being typed: rows checked, normalised
def test_row_check_names_each_rows_sum_and_validity():
    from explorer.core.rr import row_check
    sums, valid = row_check([[0.2, 0.5, 0.2], [0.25, 0.25, 0.5], [1.5, -0.5, 0.0], [np.nan, 0.5, 0.5]])
    np.testing.assert_allclose(sums[:3], [0.9, 1.0, 1.0])
    assert np.isnan(sums[3])
    assert valid.tolist() == [False, True, False, False]      # a sum of 1 is not enough: entries in [0, 1]
    assert row_check([[1 - 1e-10, 1e-10 + 1e-10]])[1].tolist() == [True]   # within the row-sum tolerance


def test_normalise_rows_rescales_and_refuses_in_words():
    from explorer.core.rr import normalise_rows
    np.testing.assert_allclose(normalise_rows([[0.2, 0.5, 0.2], [2, 1, 1]]), [[2 / 9, 5 / 9, 2 / 9], [0.5, 0.25, 0.25]])
    with pytest.raises(InvalidParameterError, match="cannot normalise: row 2 has a negative or missing entry"):
        normalise_rows([[0.5, 0.5], [np.nan, 1.0]])
    with pytest.raises(InvalidParameterError, match="cannot normalise: row 1 sums to 0"):
        normalise_rows([[0.0, 0.0], [0.5, 0.5]])
