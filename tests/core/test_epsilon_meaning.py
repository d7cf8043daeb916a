"""One epsilon read through every model: the numbers equal the core functions and the papers' examples."""

import math

import numpy as np
import pytest

from explorer.core import deniability as den
from explorer.core import rr
from explorer.core.epsilon_meaning import epsilon_summary_lines, read_epsilon
from explorer.core.closeness import closeness_for_epsilon, worst_case_cluster
from explorer.errors import ExplorerError


def test_example3_of_domingo_ferrer_soria_comas_2018():
    # Example 3: five equally likely values, eps = 2: one value at 0.2 e = 0.54366, the others 0.114086.
    reading = read_epsilon(2.0, [0.2] * 5)
    assert reading.t == pytest.approx(math.e)
    assert reading.cluster.distribution[0] == pytest.approx(0.2 * math.e, abs=5e-7)
    assert reading.cluster.distribution[1:] == pytest.approx([(1 - 0.2 * math.e) / 4] * 4, abs=5e-7)
    assert round(reading.cluster.distribution[1], 6) == 0.114086
    assert reading.odds_bound == pytest.approx(math.exp(2.0))


@pytest.mark.parametrize("epsilon", [0.0, 0.1, 1.0, 2.0, 5.0])
def test_reading_equals_the_core_functions(epsilon):
    prior = np.array([0.5, 0.3, 0.15, 0.05])
    reading = read_epsilon(epsilon, prior, n=5000, rng=3)
    matrix = rr.optimal_matrix(4, epsilon)
    np.testing.assert_allclose(reading.matrix, matrix)
    assert reading.conditional_entropy == pytest.approx(den.conditional_entropy(matrix, prior))
    entropies = den.deniability_entropies(matrix, prior)
    assert reading.worst_report_entropy == pytest.approx(entropies.min())
    assert reading.best_guess == pytest.approx(np.nanmax(den.guessing_probability(matrix, prior)))
    assert reading.t == pytest.approx(closeness_for_epsilon(epsilon))
    np.testing.assert_allclose(reading.cluster.distribution, worst_case_cluster(prior, epsilon).distribution)
    bounds = rr.error_bounds(matrix.T @ prior, 5000)
    assert reading.report_error == pytest.approx(bounds.e_abs)
    if epsilon > 0:
        assert reading.estimate_error == pytest.approx(rr.estimate_error_bound(matrix, bounds))
    else:
        assert math.isinf(reading.estimate_error)     # perfect secrecy: nothing can be estimated


def test_optimal_matrix_best_guess_on_a_uniform_prior():
    # Keep-or-uniform optimal matrix: Pr(X = v | Y = v) = e^eps / (e^eps + r - 1) under a uniform prior.
    reading = read_epsilon(1.5, [1, 1, 1])
    assert reading.best_guess == pytest.approx(math.exp(1.5) / (math.exp(1.5) + 2))


def test_privacy_falls_and_accuracy_rises_with_epsilon():
    prior = [0.4, 0.3, 0.2, 0.1]
    readings = [read_epsilon(e, prior, n=2000) for e in (0.25, 0.5, 1, 2, 4, 8)]
    entropies = [r.conditional_entropy for r in readings]
    guesses = [r.best_guess for r in readings]
    errors = [r.estimate_error for r in readings]
    assert all(a > b for a, b in zip(entropies, entropies[1:]))
    assert all(a < b for a, b in zip(guesses, guesses[1:]))
    assert all(a > b for a, b in zip(errors, errors[1:]))


def test_records_of_the_data_set_are_used_and_the_run_is_seeded():
    codes = np.repeat([0, 1, 2], [600, 300, 100])
    one = read_epsilon(1.0, [0.6, 0.3, 0.1], codes=codes, rng=7)
    two = read_epsilon(1.0, [0.6, 0.3, 0.1], codes=codes, rng=7)
    assert one.n == 1000
    np.testing.assert_array_equal(one.simulated_estimate, two.simulated_estimate)
    assert one.simulated_estimate.sum() == pytest.approx(1.0)
    truth = np.array([0.6, 0.3, 0.1])
    assert one.simulated_error == pytest.approx(np.abs(one.simulated_estimate - truth).max())


def test_infinite_epsilon_means_no_randomization():
    reading = read_epsilon(math.inf, [0.5, 0.5], n=100)
    assert reading.conditional_entropy == 0.0
    assert reading.best_guess == 1.0
    assert math.isinf(reading.odds_bound) and math.isinf(reading.t)
    assert reading.simulated_error == 0.0


@pytest.mark.parametrize("kwargs, words", [
    ({"epsilon": -1.0, "prior": [1, 1]}, "epsilon"),
    ({"epsilon": float("nan"), "prior": [1, 1]}, "epsilon"),
    ({"epsilon": 1.0, "prior": [1]}, "prior"),
    ({"epsilon": 1.0, "prior": [1, -1]}, "prior"),
    ({"epsilon": 1.0, "prior": [1, 1], "n": 0}, "n"),
    ({"epsilon": 1.0, "prior": [1, 1], "labels": ["a"]}, "labels"),
])
def test_bad_input_is_refused_with_the_parameter_named(kwargs, words):
    with pytest.raises(ExplorerError, match=words):
        read_epsilon(**kwargs)


def test_summary_lines_state_the_numbers():
    reading = read_epsilon(2.0, [0.2] * 5, labels=list("abcde"))
    lines = epsilon_summary_lines(reading, "X")
    assert "7.4" in lines["odds"]
    assert "2.718" in lines["t-closeness"] and "0.544" in lines["t-closeness"]
    assert f"{reading.best_guess:.3f}" in lines["deniability"]
    assert f"{reading.estimate_error:.3f}" in lines["accuracy"]


def test_equally_telling_reports_go_to_the_first_category():
    # A uniform prior and the optimal matrix: every report leaves the same deniability; the first one is named.
    reading = read_epsilon(3.0, [0.2] * 5)
    assert reading.worst_report == 0 and reading.best_guess_value == 0
    assert reading.cluster.value == 0
