"""Tests of explorer.core.mdrr (paper 003: Protocols 1-2, Sections 4-6, Algorithms 1-2)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats.contingency import association

from explorer.core.datasets import adult
from explorer.core.mdrr.experiments import ADULT_MDRR_ATTRIBUTES, adult_mdrr_data
from explorer.core.mdrr import (
    CountQuery,
    GRRMatrix,
    KroneckerMatrix,
    attribute_matrix,
    chi2_factor,
    cluster_attributes,
    cluster_dependence,
    cluster_matrix,
    count_query_errors,
    cramers_v,
    dependence_matrix,
    encode_categorical,
    estimate_joint,
    joint_codes,
    make_proper,
    n_combinations,
    query_frequency_clusters,
    query_frequency_independent,
    query_frequency_weighted,
    random_count_query,
    relative_error_bound,
    rr_adjust,
    rr_clusters,
    rr_independent,
    rr_joint,
    secure_sum_count,
)
from explorer.core.rr import epsilon_of, estimate_frequencies, keep_or_uniform_matrix
from explorer.errors import (
    DatasetError,
    ExplorerError,
    ExplorerTypeError,
    InvalidParameterError,
    SingularMatrixError,
)


def _random_stochastic(k: int, rng: np.random.Generator) -> np.ndarray:
    m = rng.random((k, k)) + np.eye(k) * k
    return m / m.sum(axis=1, keepdims=True)


# --------------------------------------------------------------------------- Example 1 (Algorithm 2)

EXAMPLE1 = np.array([[0, 0]] * 4 + [[1, 0]] * 2 + [[1, 1]] * 4)


def test_example1_first_adjust_weights_gives_one_eighth_and_one_twelfth():
    # lambda^1 = (4/10, 6/10) before any adjustment
    assert np.bincount(EXAMPLE1[:, 0], minlength=2).tolist() == [4, 6]
    out = rr_adjust(EXAMPLE1[:, :1], [[0.5, 0.5]], max_sweeps=1, tolerance=None)
    np.testing.assert_allclose(out.weights[:4], 1 / 8)
    np.testing.assert_allclose(out.weights[4:], 1 / 12)
    lambda2 = np.bincount(EXAMPLE1[:, 1], weights=out.weights, minlength=2)
    np.testing.assert_allclose(lambda2, [2 / 3, 1 / 3])


def test_example1_converges_slowly_toward_half_zero_zero_half():
    out = rr_adjust(EXAMPLE1, [[0.5, 0.5], [0.5, 0.5]], max_sweeps=2000, tolerance=1e-12, keep_history=True)
    joint = np.bincount(joint_codes(EXAMPLE1, (2, 2)), weights=out.weights, minlength=4)
    np.testing.assert_allclose(joint, [0.5, 0, 0, 0.5], atol=2e-3)
    # docs/conventions.md: the vanishing weights are 1/(8(k+1)) after k sweeps
    for k in (1, 2, 5, 10):
        np.testing.assert_allclose(out.weight_history[k - 1][4], 1 / (8 * (k + 1)), rtol=1e-12)
    # the trace shows the slow (1/k) convergence: the change decreases but is still > 1e-6 after 100 sweeps
    assert out.trace_change[99] > 1e-6
    assert np.all(np.diff(out.trace_gap[1:]) <= 1e-15)


def test_adjustment_leaves_categories_without_weight_unchanged_and_matches_marginals():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, size=(500, 3))
    targets = [np.array([0.2, 0.3, 0.5]), np.array([0.6, 0.3, 0.1]), np.array([0.1, 0.1, 0.8])]
    out = rr_adjust(y, targets, max_sweeps=500, tolerance=1e-13)
    assert out.converged
    for j, t in enumerate(targets):
        np.testing.assert_allclose(np.bincount(y[:, j], weights=out.weights, minlength=3), t, atol=1e-9)
    # a category no record reports: its target cannot be met, the others are still raked
    y2 = np.array([[0], [0], [1]])
    out2 = rr_adjust(y2, [[0.5, 0.25, 0.25]], cardinalities=[3], max_sweeps=3)
    assert np.isfinite(out2.weights).all()


# --------------------------------------------------------------------------- domains and matrices

def test_adult_has_1814400_combinations():
    data = adult_mdrr_data()
    assert data.cardinalities == (9, 16, 7, 15, 6, 5, 2, 2)
    assert n_combinations(data.cardinalities) == 1_814_400


def test_attribute_matrix_mechanisms_and_their_epsilons():
    k, p = 9, 0.5
    ku = attribute_matrix(k, p)
    np.testing.assert_allclose(ku.to_dense(), keep_or_uniform_matrix(k, p))
    assert ku.epsilon == pytest.approx(math.log(1 + p * k / (1 - p)))
    assert epsilon_of(ku.to_dense()) == pytest.approx(ku.epsilon)
    printed = attribute_matrix(k, p, mechanism="paper-6.3.1")
    assert printed.epsilon == pytest.approx(abs(math.log(p / ((1 - p) / k))))    # Section 6.3.1 as printed
    assert epsilon_of(printed.to_dense()) == pytest.approx(printed.epsilon)
    # p small: the printed matrix has its diagonal below the off-diagonal, epsilon is |ln(.)|
    low = attribute_matrix(2, 0.1, mechanism="paper-6.3.1")
    assert low.diagonal < low.off_diagonal
    assert low.epsilon == pytest.approx(abs(math.log(0.1 * 2 / 0.9)))
    eps = attribute_matrix(5, mechanism="epsilon", epsilon=1.0)
    assert eps.epsilon == pytest.approx(1.0)
    assert attribute_matrix(4, 1.0).epsilon == math.inf


@given(st.lists(st.integers(2, 6), min_size=1, max_size=3), st.floats(0.05, 0.95))
@settings(max_examples=25, deadline=None)
def test_cluster_matrix_attains_exactly_the_sum_of_epsilons(cards, p):
    eps = [attribute_matrix(c, p).epsilon for c in cards]
    m = cluster_matrix(cards, eps)
    dense = m.to_dense()
    np.testing.assert_allclose(dense.sum(axis=1), 1.0)
    assert epsilon_of(dense) == pytest.approx(sum(eps), rel=1e-9)
    r = int(np.prod(cards))
    assert m.diagonal == pytest.approx(1 / (1 + (r - 1) * math.exp(-sum(eps))))   # corrected p_C


def test_grr_closed_form_equals_explicit_matrix():
    rng = np.random.default_rng(0)
    for k, diag in ((2, 0.8), (6, 0.4), (12, 0.05)):
        m = GRRMatrix(k, diag)
        lam = rng.dirichlet(np.ones(k))
        np.testing.assert_allclose(m.solve(lam), np.linalg.solve(m.to_dense().T, lam), atol=1e-12)
        np.testing.assert_allclose(m.forward(lam), m.to_dense().T @ lam, atol=1e-12)


def test_closed_form_rr_joint_equals_explicit_matrix_on_small_domain():
    rng = np.random.default_rng(1)
    cards = (3, 4, 2)
    codes = np.column_stack([rng.integers(0, c, 400) for c in cards])
    grr = cluster_matrix(cards, [0.7, 0.5, 0.4])
    reports = grr.randomize(joint_codes(codes, cards), rng)
    for method in ("none", "clip", "simplex", "ibu"):
        fast, raw_fast, _ = estimate_joint(reports, cards, grr, method=method)
        dense, raw_dense, _ = estimate_joint(reports, cards, grr.to_dense(), method=method)
        np.testing.assert_allclose(raw_fast, raw_dense, atol=1e-10)
        np.testing.assert_allclose(fast, dense, atol=1e-7)
    # the structured IBU equals the RR module's dense IBU
    lam = np.bincount(reports, minlength=24) / reports.size
    ibu, _ = make_proper(grr.solve(lam), "ibu", matrix=grr, lam=lam)
    ref = estimate_frequencies(np.bincount(reports, minlength=24), grr.to_dense(), "ibu", kind="counts").estimate
    np.testing.assert_allclose(ibu, ref, atol=1e-6)


def test_closed_form_randomization_follows_the_matrix():
    rng = np.random.default_rng(2)
    m = GRRMatrix(5, 0.3)
    reports = m.randomize(np.full(200_000, 2), rng)
    freq = np.bincount(reports, minlength=5) / reports.size
    np.testing.assert_allclose(freq, m.to_dense()[2], atol=0.005)


def test_kronecker_solve_equals_full_solve():
    rng = np.random.default_rng(4)
    for factors in ((GRRMatrix(3, 0.6), GRRMatrix(4, 0.5), GRRMatrix(2, 0.9)),
                    (_random_stochastic(3, rng), GRRMatrix(4, 0.5), _random_stochastic(2, rng))):
        kron = KroneckerMatrix(factors)
        full = kron.to_dense()
        expected = full[0].copy()
        np.testing.assert_allclose(full, np.kron(np.kron(*(f if isinstance(f, np.ndarray) else f.to_dense()
                                                             for f in factors[:2])),
                                                 factors[2] if isinstance(factors[2], np.ndarray)
                                                 else factors[2].to_dense()))
        lam = rng.dirichlet(np.ones(24))
        np.testing.assert_allclose(kron.solve(lam), np.linalg.solve(full.T, lam), atol=1e-10)
        np.testing.assert_allclose(kron.forward(lam), full.T @ lam, atol=1e-12)
        assert expected.sum() == pytest.approx(1.0)


def test_structured_kronecker_paths_agree_with_dense_factors():
    rng = np.random.default_rng(9)
    for cards in ((30, 40, 3), (9, 16, 5, 2, 2), (7, 2)):
        grr = KroneckerMatrix(tuple(GRRMatrix(c, d) for c, d in zip(cards, rng.uniform(0.3, 0.9, len(cards)))))
        dense = KroneckerMatrix(tuple(f.to_dense() for f in grr.factors))
        lam = rng.dirichlet(np.ones(grr.n_categories))
        for mode in ("solve", "forward", "backward"):
            np.testing.assert_allclose(getattr(grr, mode)(lam), getattr(dense, mode)(lam), atol=1e-10)


def test_rr_joint_on_full_adult_domain_runs_and_is_a_distribution():
    data = adult_mdrr_data()
    eps = [attribute_matrix(c, 0.5).epsilon for c in data.cardinalities]
    out = rr_joint(data.codes, data.cardinalities, cluster_matrix(data.cardinalities, eps), rng=0)
    assert out.estimate.size == 1_814_400
    assert out.estimate.sum() == pytest.approx(1.0)
    assert out.epsilon == pytest.approx(sum(eps))
    kron = rr_joint(data.codes, data.cardinalities, [attribute_matrix(c, 0.5) for c in data.cardinalities], rng=0)
    assert kron.estimate.sum() == pytest.approx(1.0)
    assert kron.marginal([6]).shape == (2,)


def test_rr_joint_without_noise_recovers_the_joint_distribution():
    codes = np.array([[0, 1], [1, 2], [0, 1], [1, 0]])
    out = rr_joint(codes, (2, 3), GRRMatrix(6, 1.0), rng=0, method="none")
    assert out.estimate.tolist() == [0, 0.5, 0, 0.25, 0, 0.25]
    np.testing.assert_allclose(out.marginal([1, 0]), [[0, 0.25], [0.5, 0], [0, 0.25]])


# --------------------------------------------------------------------------- unbiasedness (seeded)

def test_independent_marginals_are_unbiased():
    rng = np.random.default_rng(5)
    cards = (3, 4)
    codes = np.column_stack([rng.choice(3, 2000, p=[0.6, 0.3, 0.1]), rng.choice(4, 2000, p=[0.1, 0.2, 0.3, 0.4])])
    truth = [np.bincount(codes[:, j], minlength=c) / 2000 for j, c in enumerate(cards)]
    raws = [rr_independent(codes, cards, p=0.4, rng=rng, method="none").raw_marginals for _ in range(300)]
    for j in range(2):
        mean = np.mean([r[j] for r in raws], axis=0)
        np.testing.assert_allclose(mean, truth[j], atol=0.01)


def test_joint_estimate_is_unbiased():
    rng = np.random.default_rng(6)
    cards = (2, 3)
    codes = np.column_stack([rng.integers(0, 2, 1500), rng.integers(0, 3, 1500)])
    truth = np.bincount(joint_codes(codes, cards), minlength=6) / 1500
    m = cluster_matrix(cards, [1.0, 1.0])
    mean = np.mean([rr_joint(codes, cards, m, rng=rng, method="none").raw for _ in range(300)], axis=0)
    np.testing.assert_allclose(mean, truth, atol=0.01)


# --------------------------------------------------------------------------- RR-Clusters and queries

def test_singleton_clusters_are_rr_independent():
    rng = np.random.default_rng(7)
    cards = (3, 2, 4)
    codes = np.column_stack([rng.integers(0, c, 300) for c in cards])
    ind = rr_independent(codes, cards, p=0.5, rng=11)
    clu = rr_clusters(codes, cards, [[0], [1], [2]], p=0.5, rng=11)
    np.testing.assert_array_equal(ind.reports, clu.report_codes())
    q = CountQuery((2, 0), np.arange(12).reshape(4, 3) % 3 == 0)
    assert query_frequency_independent(ind.marginals, q) == pytest.approx(query_frequency_clusters(clu, q))


def test_clusters_without_noise_answer_queries_exactly():
    data = adult_mdrr_data()
    codes = data.codes[:3000]
    clu = rr_clusters(codes, data.cardinalities, [[0, 3], [1, 7], [2, 4, 6], [5]], p=1.0, rng=0)
    for seed in range(5):
        q = random_count_query(data.cardinalities, 0.3, rng=seed)
        same = clu.cluster_of(q.attributes[0]) == clu.cluster_of(q.attributes[1])
        est = 3000 * query_frequency_clusters(clu, q)
        if same:
            assert est == pytest.approx(q.true_count(codes))
        w = np.full(3000, 1 / 3000)
        assert 3000 * query_frequency_weighted(clu.report_codes(), w, q) == pytest.approx(q.true_count(codes))


def test_random_count_query_covers_sigma_of_the_combinations():
    q = random_count_query((9, 16, 7, 15), 0.25, rng=3)
    a, b = q.attributes
    assert a != b and q.mask.shape == ((9, 16, 7, 15)[a], (9, 16, 7, 15)[b])
    assert q.mask.sum() == round(0.25 * q.mask.size)
    assert count_query_errors(5, 0)[1] != count_query_errors(5, 0)[1]   # NaN when X_S = 0


# --------------------------------------------------------------------------- dependence

@given(st.integers(0, 10_000))
@settings(max_examples=20, deadline=None)
def test_cramers_v_equals_scipy_without_correction(seed):
    rng = np.random.default_rng(seed)
    table = rng.integers(1, 30, size=(rng.integers(2, 5), rng.integers(2, 6)))
    assert cramers_v(table) == pytest.approx(association(table, method="cramer", correction=False), abs=1e-12)


@given(st.lists(st.integers(0, 1), min_size=1, max_size=60), st.integers(0, 1000))
@settings(max_examples=30, deadline=None)
def test_secure_sum_returns_exact_counts(indicators, seed):
    assert secure_sum_count(indicators, rng=seed) == sum(indicators)


def test_secure_sum_dependence_equals_true_dependence():
    frame = adult()[list(ADULT_MDRR_ATTRIBUTES[:3])].iloc[:120]
    data = encode_categorical(frame)
    np.testing.assert_allclose(dependence_matrix(data, "secure-sum", rng=0), dependence_matrix(data, "true"))


def test_prop1_covariance_attenuated_by_pa_pb():
    rng = np.random.default_rng(8)
    n = 200_000
    xa = rng.integers(0, 4, n)
    xb = np.where(rng.random(n) < 0.9, xa % 3, rng.integers(0, 3, n))     # dependent on xa
    codes = np.column_stack([xa, xb])
    pa, pb = 0.6, 0.3
    mats = [attribute_matrix(4, pa), attribute_matrix(3, pb)]   # keep-or-uniform: Prop. 1's mechanism
    cov_x = np.cov(xa, xb)[0, 1]
    cov_y = np.mean([np.cov(*rr_independent(codes, (4, 3), matrices=mats, rng=rng).reports.T)[0, 1]
                     for _ in range(10)])
    assert cov_y == pytest.approx(pa * pb * cov_x, rel=0.08)


def test_dependence_methods_on_adult_rank_the_strong_pairs_alike():
    data = adult_mdrr_data()
    true = dependence_matrix(data, "true")
    for method in ("randomized", "estimated", "pairwise-rr"):
        dep = dependence_matrix(data, method, p=0.7, rng=0)
        assert dep.shape == (8, 8) and np.allclose(dep, dep.T)
        iu = np.triu_indices(8, 1)
        # the strongest true pair (relationship, sex) stays among the 3 strongest
        top = np.argsort(dep[iu])[::-1][:3]
        assert int(np.argmax(true[iu])) in top
    randomized = dependence_matrix(data, "randomized", p=0.5, rng=0)
    assert randomized[4, 6] < true[4, 6]          # attenuated (Section 4.1)
    assert dependence_matrix(data, "estimated", p=0.9, rng=0)[4, 6] == pytest.approx(true[4, 6], abs=0.05)


# --------------------------------------------------------------------------- Algorithm 1

def _random_dependence(m: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    d = rng.random((m, m)) * 0.99
    d = (d + d.T) / 2
    np.fill_diagonal(d, 1.0)
    return d


def test_algorithm1_extremes():
    d = _random_dependence(6, 0)
    cards = [3, 4, 2, 5, 2, 3]
    assert cluster_attributes(d, cards, t_v=1e9, t_d=1.0) == [[a] for a in range(6)]
    assert cluster_attributes(d, cards, t_v=1e9, t_d=0.0) == [list(range(6))]


@given(st.integers(2, 7), st.integers(0, 10_000), st.floats(0, 1), st.integers(5, 400))
@settings(max_examples=40, deadline=None)
def test_algorithm1_never_exceeds_t_v_and_partitions(m, seed, t_d, t_v):
    rng = np.random.default_rng(seed)
    cards = list(rng.integers(2, 6, m))
    d = _random_dependence(m, seed)
    clusters = cluster_attributes(d, cards, t_v=t_v, t_d=t_d)
    assert sorted(a for c in clusters for a in c) == list(range(m))
    assert all(n_combinations([cards[a] for a in c]) <= t_v for c in clusters)


def test_algorithm1_merges_by_cluster_dependence_max_and_restarts():
    d = np.array([[1, .9, .1, .1], [.9, 1, .5, .1], [.1, .5, 1, .35], [.1, .1, .35, 1]])
    # {0,1} first; then {0,1}-{2} at max(.1,.5)=.5; {0,1,2} x {3} = 24 > T_v so {3} stays alone
    assert cluster_attributes(d, [2, 2, 3, 2], t_v=12, t_d=0.3) == [[0, 1, 2], [3]]
    # with T_v = 6, {0,1}x{2} = 12 is too big: the next pair in the list, {2},{3} at .35, merges
    assert cluster_attributes(d, [2, 2, 3, 2], t_v=6, t_d=0.3) == [[0, 1], [2, 3]]


def test_cluster_dependence_is_the_max_over_pairs_across_the_clusters():
    d = np.array([[1, .9, .1, .1], [.9, 1, .5, .1], [.1, .5, 1, .35], [.1, .1, .35, 1]])
    assert cluster_dependence(d, [0, 1], [2]) == 0.5                 # max(d[0, 2], d[1, 2])
    assert cluster_dependence(d, [2], [0, 1]) == 0.5                 # symmetric in the two clusters
    assert cluster_dependence(d, [0, 1, 2], [3]) == 0.35
    assert cluster_dependence(d, [0], [3]) == d[0, 3]                # single attributes: the pair's dependence


@given(st.integers(2, 7), st.integers(0, 10_000), st.data())
@settings(max_examples=40, deadline=None)
def test_cluster_dependence_by_brute_force(m, seed, data):
    d = _random_dependence(m, seed)
    order = data.draw(st.permutations(range(m)))
    cut = data.draw(st.integers(1, m - 1))
    first, second = order[:cut], order[cut:]
    assert cluster_dependence(d, first, second) == max(d[a, b] for a in first for b in second)


def test_algorithm1_merges_the_pair_of_clusters_of_largest_cluster_dependence(monkeypatch):
    # Algorithm 1 measures clusters with cluster_dependence itself: counting its calls shows it.
    import explorer.core.mdrr.dependence as module
    calls = []
    original = module.cluster_dependence

    def spy(dependence, cluster, other):
        calls.append((tuple(cluster), tuple(other)))
        return original(dependence, cluster, other)
    monkeypatch.setattr(module, "cluster_dependence", spy)
    d = np.array([[1, .9, .1], [.9, 1, .5], [.1, .5, 1]])
    assert module.cluster_attributes(d, [2, 2, 3], t_v=12, t_d=0.3) == [[0, 1, 2]]
    assert ((0,), (1,)) in calls and ((2,), (0, 1)) in calls


@pytest.mark.parametrize("call, error, text", [
    (lambda: cluster_dependence([[1, .5], [.5, 1]], [0], [2]), InvalidParameterError,
     r"other must be a non-empty list of attribute indices 0..1, got \[2\]"),
    (lambda: cluster_dependence([[1, .5], [.5, 1]], [], [1]), InvalidParameterError,
     r"cluster must be a non-empty list of attribute indices 0..1, got \[\]"),
    (lambda: cluster_dependence([[1, .5], [.5, 1]], [0, 1], [1]), InvalidParameterError,
     "cluster and other must be disjoint, both hold attribute 1"),
    (lambda: cluster_dependence([[1, .5, 0], [.5, 1, 0]], [0], [1]), InvalidParameterError,
     r"dependence must be a square matrix, got shape \(2, 3\)"),
    (lambda: cluster_dependence([[1, np.nan], [.5, 1]], [0], [1]), InvalidParameterError,
     "dependence must contain finite numbers only"),
    (lambda: cluster_dependence([[1, .5], [.5, 1]], ["a"], [1]), ExplorerTypeError,
     "cluster must be a list of attribute indices, got \\['a'\\]"),
    (lambda: cluster_dependence([[1, .5], [.5, 1]], [0.5], [1]), InvalidParameterError,
     r"cluster must be a non-empty list of attribute indices 0..1, got \[0.5\]"),
])
def test_cluster_dependence_refuses_bad_input_naming_it(call, error, text):
    with pytest.raises(error, match=text):
        call()


# --------------------------------------------------------------------------- error bounds (Figure 1, Eqs. 5-7)

def test_sqrt_b_grows_with_r_and_joint_bound_explodes():
    values = [math.sqrt(chi2_factor(r)) for r in (2, 10, 100, 1000)]
    assert values == sorted(values)
    n = 32_561
    assert relative_error_bound([9], n) < 0.1
    assert relative_error_bound([9, 16, 7, 15, 6, 5, 2, 2], n) > 10 * relative_error_bound([9, 16, 7], n)


# --------------------------------------------------------------------------- bad input

@pytest.mark.parametrize("call, words", [
    (lambda: attribute_matrix(3, 0.0), "p"),
    (lambda: attribute_matrix(3, 1.5), "p"),
    (lambda: attribute_matrix(3, mechanism="epsilon", epsilon=0), "epsilon"),
    (lambda: attribute_matrix(3, mechanism="epsilon", epsilon=-1), "epsilon"),
    (lambda: attribute_matrix(3, 0.5, mechanism="nonsense"), "mechanism"),
    (lambda: cluster_attributes(np.eye(2), [9, 16], t_v=10, t_d=0.1), "T_v"),
    (lambda: cluster_attributes(np.eye(2), [9, 16], t_v=100, t_d=1.5), "T_d"),
    (lambda: cluster_attributes(np.eye(2), [9, 16], t_v=100, t_d=-0.1), "T_d"),
    (lambda: estimate_joint(np.zeros(3, int), [1000] * 4, GRRMatrix(10 ** 12, 0.5)), "combinations"),
    (lambda: rr_joint(np.zeros((3, 2), int), (2, 2), np.eye(3)), "matrix"),
    (lambda: GRRMatrix(4, 0.25).solve(np.ones(4) / 4), "singular"),
    (lambda: make_proper(np.ones(3), "magic"), "proper"),
    (lambda: dependence_matrix(pd.DataFrame({"a": ["x", "y"]}), "psychic"), "dependence"),
    (lambda: rr_clusters(np.zeros((3, 2), int), (2, 2), [[0]]), "clusters"),
])
def test_bad_input_gives_clear_messages(call, words):
    with pytest.raises(ExplorerError, match=words):
        call()


def test_one_category_and_no_categorical_attributes_are_refused():
    with pytest.raises(DatasetError, match="1 category"):
        encode_categorical(pd.DataFrame({"a": pd.Categorical(["x", "x"]), "b": ["u", "v"]}))
    with pytest.raises(DatasetError, match="no categorical"):
        encode_categorical(pd.DataFrame({"a": [1.0, 2.0]}))
    with pytest.raises(SingularMatrixError):
        rr_independent(np.zeros((4, 1), int), (2,), p=1e-300, mechanism="keep-or-uniform", rng=0)
    with pytest.raises(InvalidParameterError, match="codes"):
        rr_independent(np.full((4, 1), 5), (2,), p=0.5)


# --------------------------------------------------------------------------- what the Multi-attribute RR tab shows

def test_example1_trace_follows_the_closed_form_and_rr_adjust():
    from explorer.core.mdrr import EXAMPLE1_KINDS, EXAMPLE1_LIMITS, example1_trace, example1_weight

    for k in (1, 3, 10, 100):
        out = example1_trace(k)
        direct = rr_adjust(EXAMPLE1, [[0.5, 0.5], [0.5, 0.5]], max_sweeps=k, tolerance=None, keep_history=True)
        np.testing.assert_array_equal(out.history, direct.weight_history[:, [0, 4, 6]])
        np.testing.assert_array_equal(out.weights, direct.weights)
        assert out.weights[EXAMPLE1_KINDS["(a2,a1)"]] == pytest.approx(example1_weight(k)) == 1 / (8 * (k + 1))
        assert out.joint.sum() == pytest.approx(1.0) and out.last_change == direct.trace_change[-1]
    np.testing.assert_allclose(example1_trace(1000).history[-1], EXAMPLE1_LIMITS, atol=2e-4)
    with pytest.raises(InvalidParameterError, match="sweeps must be <= 1000, got 1001"):
        example1_trace(1001)
    with pytest.raises(InvalidParameterError, match="sweeps must be >= 1, got 0"):
        example1_weight(0)


def test_cluster_plan_spends_what_rr_clusters_spends():
    from explorer.core.mdrr import cluster_plan

    cards, clusters = (2, 3, 4, 2), [[0, 2], [1], [3]]
    plan = cluster_plan(cards, clusters, 500, p=0.6)
    codes = np.zeros((5, 4), dtype=int)
    out = rr_clusters(codes, cards, clusters, p=0.6, rng=0)
    assert plan.cluster_epsilons == pytest.approx(out.epsilons)
    assert plan.attribute_epsilons == pytest.approx([attribute_matrix(c, 0.6).epsilon for c in cards])
    assert plan.record_epsilon == pytest.approx(sum(plan.attribute_epsilons))
    assert plan.cluster_combinations == (8, 3, 2) and plan.joint_combinations == 48
    assert plan.cluster_error_bounds[0] == relative_error_bound([2, 4], 500)
    assert plan.joint_error_bound == relative_error_bound(cards, 500)
    by_eps = cluster_plan(cards, clusters, 500, mechanism="epsilon", epsilon=0.5)
    assert by_eps.attribute_epsilons == pytest.approx([0.5] * 4) and by_eps.cluster_epsilons[0] == pytest.approx(1.0)
    with pytest.raises(InvalidParameterError, match="clusters must partition"):
        cluster_plan(cards, [[0, 1]], 500)
