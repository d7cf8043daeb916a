"""Choosing epsilon from what you need: every bound is read_epsilon's reading run backwards."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core import rr
from explorer.core.epsilon_choice import (best_guess_curve, choice_summary_lines, choose_epsilon,
                                          deniability_curve, error_curve, repeated_reports)
from explorer.core.epsilon_meaning import read_epsilon
from explorer.errors import InvalidParameterError

EXAMPLES = settings(max_examples=15, deadline=None)
REL = 1e-9
#: "Slightly larger": a relative step no rounding of the readings can hide.
STEP = 1e-6

priors = st.lists(st.floats(0.02, 1.0), min_size=2, max_size=8).map(lambda w: np.array(w) / np.sum(w))
fractions = st.floats(0.02, 0.98)
ks = st.integers(1, 5)


def _read(epsilon, prior, **kwargs):
    return read_epsilon(epsilon, prior, n=kwargs.pop("n", 50), **kwargs)


def _above(x):
    return x * (1 + STEP) + 1e-9


@EXAMPLES
@given(priors, st.floats(1.05, 1e4), ks)
def test_odds_bound_meets_the_odds_at_high_and_breaks_just_above(prior, odds, k):
    choice = choose_epsilon(prior, max_odds=odds, reports_per_person=k)
    assert choice.feasible and choice.high_by == "max_odds" and choice.low == 0
    assert _read(k * choice.high, prior).odds_bound == pytest.approx(odds, rel=REL)
    assert _read(k * _above(choice.high), prior).odds_bound > odds


@EXAMPLES
@given(priors, fractions, ks)
def test_best_guess_bound_meets_it_at_high_and_breaks_just_above(prior, fraction, k):
    p = prior.max() + fraction * (0.995 - prior.max())
    choice = choose_epsilon(prior, max_best_guess=p, reports_per_person=k)
    assert choice.feasible and choice.high_by == "max_best_guess"
    assert _read(k * choice.high, prior).best_guess == pytest.approx(p, rel=REL)
    assert _read(k * _above(choice.high), prior).best_guess > p


@EXAMPLES
@given(priors, fractions, ks)
def test_deniability_bound_meets_it_at_high_and_breaks_just_above(prior, fraction, k):
    h = fraction * read_epsilon(0.0, prior, n=10).prior_entropy
    choice = choose_epsilon(prior, min_deniability=h, reports_per_person=k)
    assert choice.feasible and choice.high_by == "min_deniability"
    assert _read(k * choice.high, prior).conditional_entropy == pytest.approx(h, rel=REL, abs=1e-12)
    assert _read(k * _above(choice.high), prior).conditional_entropy < h


@EXAMPLES
@given(priors, fractions, ks)
def test_cluster_bound_meets_it_at_high_and_breaks_just_above(prior, fraction, k):
    p = prior.max() + fraction * (0.995 - prior.max())
    choice = choose_epsilon(prior, max_cluster_guess=p, reports_per_person=k)
    assert choice.feasible and choice.high_by == "max_cluster_guess"
    assert _read(k * choice.high, prior).cluster.guessing == pytest.approx(p, rel=REL)
    assert _read(k * _above(choice.high), prior).cluster.guessing > p


@EXAMPLES
@given(priors, st.floats(0.05, 6.0), st.integers(50, 50_000), st.sampled_from([0.9, 0.95, 0.99]))
def test_accuracy_bound_meets_it_at_low_and_breaks_just_below(prior, target, n, confidence):
    e = float(error_curve(prior, target, n, confidence))
    choice = choose_epsilon(prior, n, max_error=e, confidence=confidence)
    assert choice.feasible and choice.low_by == "max_error" and math.isinf(choice.high)
    assert choice.low == pytest.approx(target, rel=REL)
    alpha = 1 - confidence
    assert _read(choice.low, prior, n=n, alpha=alpha).estimate_error == pytest.approx(e, rel=REL)
    assert _read(choice.low * (1 - STEP), prior, n=n, alpha=alpha).estimate_error > e


@EXAMPLES
@given(priors, fractions, st.integers(2, 7))
def test_k_reports_per_person_divide_every_privacy_bound_by_k(prior, fraction, k):
    p = prior.max() + fraction * (0.995 - prior.max())
    asked = {"max_odds": 1 + 30 * fraction, "max_best_guess": p, "max_cluster_guess": p,
             "min_deniability": fraction * read_epsilon(0.0, prior, n=10).prior_entropy}
    for name, value in asked.items():
        one = choose_epsilon(prior, **{name: value}).high
        assert choose_epsilon(prior, **{name: value}, reports_per_person=k).high == pytest.approx(one / k, rel=1e-12)


@EXAMPLES
@given(priors, fractions, st.floats(0.005, 0.05), st.integers(20, 2000))
def test_min_reports_is_the_smallest_n_that_makes_the_requirements_feasible(prior, fraction, e, n):
    p = prior.max() + fraction * (0.995 - prior.max())
    choice = choose_epsilon(prior, n, max_best_guess=p, max_error=e)
    m = choice.min_reports
    assert m is not None and m >= 1
    assert choose_epsilon(prior, m, max_best_guess=p, max_error=e).feasible
    if m > 1:
        assert not choose_epsilon(prior, m - 1, max_best_guess=p, max_error=e).feasible
    assert choice.feasible == (m <= n)
    if not choice.feasible:
        assert choice.low > choice.high and f"{m:,} reports would do" in " ".join(choice.reasons)


@EXAMPLES
@given(priors)
def test_the_readings_move_one_way_so_the_roots_are_unique(prior):
    eps = np.concatenate([np.linspace(0.01, 4, 200), np.linspace(4, 25, 100)])
    assert np.all(np.diff(best_guess_curve(prior, eps)) >= 0)
    assert np.all(np.diff(deniability_curve(prior, eps)) <= 1e-15)
    errors = error_curve(prior, eps, 1000)
    assert np.all(np.diff(errors) <= 1e-15 * errors[1:])


def test_curves_equal_read_epsilon():
    prior = np.array([0.5, 0.3, 0.15, 0.05])
    for eps in (0.0, 0.3, 1.0, 4.0, 12.0):
        reading = read_epsilon(eps, prior, n=800)
        assert best_guess_curve(prior, eps) == pytest.approx(reading.best_guess, rel=1e-13)
        assert deniability_curve(prior, eps) == pytest.approx(reading.conditional_entropy, rel=1e-12, abs=1e-14)
        if eps > 0:
            assert error_curve(prior, eps, 800) == pytest.approx(reading.estimate_error, rel=1e-12)


def test_all_five_requirements_and_the_binding_one():
    prior = [0.46, 0.33, 0.14, 0.03, 0.03, 0.01]
    choice = choose_epsilon(prior, 30_000, max_odds=20, max_best_guess=0.8, min_deniability=1.0,
                            max_cluster_guess=0.8, max_error=0.05)
    assert choice.feasible and choice.asked == ("max_odds", "max_best_guess", "min_deniability",
                                                "max_cluster_guess", "max_error")
    highs = {b.name: b.bound for b in choice.bounds if b.side == "high"}
    assert choice.high == min(highs.values()) and highs[choice.high_by] == choice.high
    assert choice.low == choice.bound("max_error").bound < choice.high
    assert choice.low <= choice.suggestion() <= choice.high
    lines = choice_summary_lines(choice, "per day")
    assert lines[0].startswith("Asked: odds ≤ 20; best guess ≤ 0.8; deniability ≥ 1 bits")
    assert any(line.startswith("Band: ") for line in lines)


def test_no_requirement_leaves_every_epsilon():
    choice = choose_epsilon([3, 1])
    assert (choice.low, choice.high, choice.feasible, choice.min_reports) == (0.0, math.inf, True, None)
    assert choice.n == 4           # counts: n defaults to their total


@pytest.mark.parametrize("kwargs, words", [
    ({"max_best_guess": 0.4}, "without any report the best guess is already 0.46"),
    ({"max_cluster_guess": 0.3}, "best guess knowing the cluster of at most 0.3 cannot be met"),
    ({"min_deniability": 3.0}, "the attribute's own entropy H(X) is"),
    ({"max_error": 1e-4}, "even without randomization"),
    ({"max_odds": 1.0, "max_error": 0.1}, "leave only epsilon = 0"),
])
def test_requirements_no_epsilon_meets_are_infeasible_with_a_sentence(kwargs, words):
    choice = choose_epsilon([0.46, 0.34, 0.2], 1000, **kwargs)
    assert not choice.feasible
    assert any(words in reason for reason in choice.reasons), choice.reasons


def test_limits_are_met_at_epsilon_zero_or_never_bound():
    prior = [0.5, 0.25, 0.25]
    assert choose_epsilon(prior, max_best_guess=0.5).high == 0.0
    assert choose_epsilon(prior, max_odds=1.0).high == 0.0
    assert math.isinf(choose_epsilon(prior, max_best_guess=1.0).high)
    assert math.isinf(choose_epsilon(prior, max_odds=math.inf).high)
    assert math.isinf(choose_epsilon(prior, min_deniability=0.0).high)
    assert choose_epsilon(prior, min_deniability=1.5).high == 0.0          # H(X) = 1.5 bits


@pytest.mark.parametrize("kwargs, words", [
    ({"prior": [5]}, "prior must have at least 2 categories"),
    ({"max_best_guess": 0.0}, "max_best_guess must be > 0"),
    ({"max_best_guess": 1.5}, "max_best_guess must be <= 1"),
    ({"max_cluster_guess": -0.1}, "max_cluster_guess must be > 0"),
    ({"max_error": 0.0}, "max_error must be > 0"),
    ({"max_odds": 0.5}, "max_odds must be >= 1"),
    ({"min_deniability": -1.0}, "min_deniability must be >= 0"),
    ({"confidence": 1.0}, "confidence must be < 1"),
    ({"reports_per_person": 0}, "reports_per_person must be"),
    ({"prior": [0.5, 0.5], "max_error": 0.1}, "n is needed with max_error"),
])
def test_bad_input_is_refused_naming_the_parameter(kwargs, words):
    kwargs = {"prior": [30, 20], **kwargs}
    with pytest.raises(InvalidParameterError, match=words.replace("(", r"\(").replace(")", r"\)")):
        choose_epsilon(**kwargs)


def test_k_reports_of_the_same_answer_are_the_worst_case_and_equal_one_report_at_k_epsilon():
    """Every sequence of k reports through the optimal matrix: the largest posterior is one report's at k eps."""
    prior, eps, k = np.array([0.5, 0.3, 0.2]), 0.7, 3
    matrix = rr.optimal_matrix(3, eps)
    worst = 0.0
    for reports in itertools.product(range(3), repeat=k):
        joint = prior * np.prod(matrix[:, list(reports)], axis=1)
        worst = max(worst, (joint / joint.sum()).max())
    assert worst == pytest.approx(read_epsilon(k * eps, prior, n=10).best_guess, rel=1e-12)
    rep = repeated_reports(prior, eps, 5)
    assert rep.fresh[k - 1] == pytest.approx(worst, rel=1e-12)
    assert rep.memoized == pytest.approx([read_epsilon(eps, prior, n=10).best_guess] * 5)
    assert rep.combined_epsilon.tolist() == pytest.approx([0.7, 1.4, 2.1, 2.8, 3.5])
    assert rep.prior_guess == 0.5 and np.all(np.diff(rep.fresh) > 0)
