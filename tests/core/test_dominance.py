"""Power-mean disclosure risk, information loss and dominance (Ruiz (2018), Sections 3-5; Domingo-Ferrer and
Soria-Comas (2018), Section VI-B)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import pmean

from explorer.core import permutation as permutation_module
from explorer.core.dominance import means as power_means_module
from explorer.core.datasets import ruiz_example
from explorer.core.dominance import (
    Curve,
    CalibrationPoint,
    alpha_grid,
    attribute_pairs,
    best_calibration,
    calibration_point,
    disclosure_risk,
    displacements_from_matrix,
    dominance,
    information_loss,
    loss_curve,
    overall_disclosure_risk,
    overall_information_loss,
    overall_loss_curve,
    overall_risk_curve,
    pairwise_information_loss,
    permutation_extent,
    power_mean,
    power_means,
    relative_displacement,
    risk_curve,
    td,
    theta_grid,
)
from explorer.errors import DomainError, ExplorerError, ExplorerTypeError, InvalidParameterError

# 002 Section 2: the permutation matrices of the running example (Z = P X).
P1 = np.eye(5, dtype=int)
P2 = np.array([[0, 0, 0, 0, 1], [0, 1, 0, 0, 0], [0, 0, 1, 0, 0], [1, 0, 0, 0, 0], [0, 0, 0, 1, 0]])
P3 = np.array([[1, 0, 0, 0, 0], [0, 0, 0, 1, 0], [0, 0, 0, 0, 1], [0, 1, 0, 0, 0], [0, 0, 1, 0, 0]])
# 002 Section 3: r_1, r_2, r_3 as printed (epsilon written as 0 here; D_j turns it into 1e-8).
R1 = np.array([0, 0, 0, 0, 0])
R2 = np.array([3, 0, 0, 1, -4])
R3 = np.array([0, 2, 2, -2, -2])

settings.register_profile("dominance", max_examples=60, deadline=None)
FAST = settings(max_examples=60, deadline=None)

displacement_vectors = st.lists(st.integers(min_value=-40, max_value=40), min_size=1, max_size=40)
positive_values = st.lists(st.floats(min_value=1e-6, max_value=1e6, allow_nan=False), min_size=1, max_size=30)


def direct_power_mean(x, alpha):
    """The textbook formula, vectorized over n (the baseline the fast path must equal)."""
    x = np.asarray(x, dtype=float)
    if alpha == 0:
        return float(np.exp(np.mean(np.log(x))))
    return float(np.mean(x ** alpha) ** (1.0 / alpha))


# ------------------------------------------------------------------------------ 002's running example
def test_displacements_read_off_002_matrices():
    assert displacements_from_matrix(P1).tolist() == R1.tolist()
    assert displacements_from_matrix(P2).tolist() == R2.tolist()
    assert displacements_from_matrix(P3).tolist() == R3.tolist()


def test_permutation_extent_002():
    assert [permutation_extent(P) for P in (P1, P2, P3)] == pytest.approx([0.0, 0.6, 0.8])
    assert [permutation_extent(r) for r in (R1, R2, R3)] == pytest.approx([0.0, 0.6, 0.8])


def test_permutation_extent_is_one_function_with_one_zero_rule():
    # The same object under both names; matrix, displacement vector and (x, z) give the same T_j.
    assert permutation_module.permutation_extent is permutation_extent
    frame = ruiz_example()
    for j, (P, r) in enumerate(((P1, R1), (P2, R2), (P3, R3)), start=1):
        x, y = frame[f"X{j}"].to_numpy(), frame[f"Y{j}"].to_numpy()
        z = permutation_module.reverse_map(x, y)
        with_eps = permutation_module.rank_displacement(x, z)          # zeros written as Ruiz's 1e-8
        values = {permutation_extent(P), permutation_extent(r), permutation_extent(with_eps),
                  permutation_extent(x, z), permutation_extent(x, y)}
        assert values == {[0.0, 0.6, 0.8][j - 1]}
    # One zero rule: |r| <= 1e-8 is a record that stayed, anything larger moved.
    assert permutation_extent([1e-8, -1e-8, 0.0, 2e-8]) == 0.25


def test_relative_displacement_is_the_printed_delta_of_prop_5():
    # Ruiz (2018), Prop. 5's example: Delta(r_(2,3)) = (3, -2, -2, 3, -2).
    assert relative_displacement(R2, R3).tolist() == [3, -2, -2, 3, -2]
    eps = 1e-8
    assert relative_displacement(np.where(R2 == 0, eps, R2), np.where(R3 == 0, eps, R3)).tolist() == [3, -2, -2, 3, -2]
    assert relative_displacement(R3, R2).tolist() == [-3, 2, 2, -3, 2]
    # I_k is the power mean of |Delta| (2.4, 42^(1/4) and 3 for theta = 1, 4, inf).
    delta = np.abs(relative_displacement(R2, R3))
    for theta in (1, 4, math.inf):
        assert information_loss(R2, R3, theta) == pytest.approx(power_mean(delta, theta))
    # Prop. 4: two attributes permuted the same way have Delta = 0.
    assert not np.any(relative_displacement(R2, R2))
    with pytest.raises(InvalidParameterError, match="same length.*5 and 4"):
        relative_displacement(R2, [1, 2, 3, 4])
    with pytest.raises(ExplorerError, match="r_b"):
        relative_displacement(R2, [1, 2, float("nan"), 4, 5])


def test_disclosure_risk_alpha_1_table_3():
    # Table 3, alpha = 1: 0, 1.60, 1.60 (zeros count as 1e-8).
    assert disclosure_risk(R1, 1) == pytest.approx(1e-8)
    assert round(disclosure_risk(R2, 1), 2) == 1.60
    assert round(disclosure_risk(R3, 1), 2) == 1.60


def test_disclosure_risk_alpha_half_follows_the_definition_not_the_misprint():
    # Ruiz's Table 3 prints 0.97 and 1.06 (an outer exponent alpha instead of 1/alpha, docs/conventions.md);
    # Prop. 3 gives 0.8958 and 1.2800.
    assert disclosure_risk(R1, 0.5) == pytest.approx(1e-8)
    assert round(disclosure_risk(R2, 0.5), 4) == 0.8958
    assert round(disclosure_risk(R3, 0.5), 4) == 1.2800
    # What the misprint is: (mean |r|^alpha)^alpha.
    assert round(np.mean(np.where(R2 == 0, 1e-8, np.abs(R2)) ** 0.5) ** 0.5, 2) == 0.97


def test_disclosure_risk_alpha_minus_4_rounds_to_zero():
    for r in (R1, R2, R3):
        value = disclosure_risk(r, -4)
        assert 0 < value < 1e-7
        assert round(value, 2) == 0


def test_information_loss_002_section_4():
    delta = R2 - R3
    assert delta.tolist() == [3, -2, -2, 3, -2]
    # Printed I(1) = 2 and I(4) = 2.49 are misprints; the definition gives 2.4 and 42^(1/4).
    assert information_loss(R2, R3, 1) == pytest.approx(2.4)
    assert round(information_loss(R2, R3, 4), 4) == 2.5457
    assert information_loss(R2, R3, 4) == pytest.approx(42 ** 0.25)
    assert information_loss(R2, R3, math.inf) == 3.0
    # |Delta| does not depend on the order of the pair.
    assert information_loss(R3, R2, 4) == pytest.approx(information_loss(R2, R3, 4))


def test_td_002():
    assert td(R2) == pytest.approx(0.96)
    assert td(R3) == pytest.approx(1.28)
    assert td(R1) == 0.0


def test_attribute_3_dominates_attribute_2_for_alpha_in_minus_20_to_1():
    alphas = alpha_grid(-20, 421)
    result = dominance(risk_curve(R3, alphas), risk_curve(R2, alphas))
    assert result.verdict == "A dominates"
    assert result.crossings == ()
    text = result.sentence("attribute 3", "attribute 2")
    assert text.startswith("attribute 3 dominates attribute 2") and "-20" in text
    # And the other way round.
    assert dominance(risk_curve(R2, alphas), risk_curve(R3, alphas)).verdict == "B dominates"


def test_ruiz_example_through_the_permutation_module():
    permutation = pytest.importorskip("explorer.core.permutation")
    frame = ruiz_example()
    expected = {1: R1, 2: R2, 3: R3}
    for j in (1, 2, 3):
        x = frame[f"X{j}"].to_numpy()
        y = frame[f"Y{j}"].to_numpy()
        z = permutation.reverse_map(x, y)
        r = np.asarray(permutation.rank_displacement(x, z, zero=0))
        assert r.tolist() == expected[j].tolist()
        # Their default writes zeros as Ruiz's 1e-8; the measures read both the same way.
        with_eps = permutation.rank_displacement(x, z)
        assert disclosure_risk(with_eps, 0.5) == disclosure_risk(r, 0.5)
    assert information_loss(R2 + np.where(R2 == 0, 1e-8, 0), R3 + np.where(R3 == 0, 1e-8, 0), 1) == 2.4


def test_overall_measures_on_the_example():
    R = np.column_stack([R1, R2, R3])
    risks = [disclosure_risk(R[:, j], 1) for j in range(3)]
    assert overall_disclosure_risk(risks, 1) == pytest.approx((1e-8 + 3.2) / 3)
    assert overall_risk_curve(R, [1.0], 1.0).values[0] == pytest.approx((1e-8 + 3.2) / 3)
    # Pairs (1,2), (1,3), (2,3): I(1) = 1.6, 1.6, 2.4.
    assert pairwise_information_loss(R, 1).tolist() == pytest.approx([1.6, 1.6, 2.4])
    assert overall_information_loss([1.6, 1.6, 2.4], 1) == pytest.approx(5.6 / 3)
    assert overall_information_loss([1.6, 1.6, 2.4], math.inf) == pytest.approx(2.4)
    assert overall_loss_curve(R, [1.0], 1.0).values[0] == pytest.approx(5.6 / 3)
    # beta = 0: geometric mean of the D_j; beta -> -inf: the least protected attribute.
    assert overall_disclosure_risk(risks, 0) == pytest.approx(float(np.prod(risks) ** (1 / 3)))
    assert overall_disclosure_risk(risks, -math.inf) == pytest.approx(1e-8)


def test_overall_disclosure_risk_over_a_grid():
    R = np.column_stack([R1, R2, R3])
    alphas = alpha_grid(-4, 11)
    curves = np.array([risk_curve(R[:, j], alphas).values for j in range(3)])
    values = overall_disclosure_risk(curves, 0.5)
    assert values.shape == (11,)
    for k in range(11):
        assert values[k] == pytest.approx(power_mean(curves[:, k], 0.5))


def test_attribute_pairs_count():
    assert len(attribute_pairs(6)) == 15


def test_normalized_scales():
    assert disclosure_risk(R2, 1, normalize=True) == pytest.approx(1.6 / 4)
    assert information_loss(R2, R3, math.inf, normalize=True) == pytest.approx(3 / 4)
    # The largest possible displacement gives 1.
    assert disclosure_risk([4, 0, 0, 0, -4], math.inf, strict=False, normalize=True) == pytest.approx(1.0)


# --------------------------------------------------------------------------------------- power means
def test_power_mean_special_cases():
    assert power_mean([1, 4], 0) == pytest.approx(2.0)
    assert power_mean([1, 2, 4], 1) == pytest.approx(7 / 3)
    assert power_mean([1, 2, 4], -1) == pytest.approx(3 / (1 + 0.5 + 0.25))
    assert power_mean([1, 2, 4], math.inf) == 4.0
    assert power_mean([1, 2, 4], -math.inf) == 1.0
    assert power_mean([3.0], -7.5) == pytest.approx(3.0)
    assert power_mean([0, 4], 1) == pytest.approx(2.0)
    assert power_mean([0, 4], 0) == 0.0
    assert power_mean([0, 4], -2) == 0.0
    assert power_mean([0, 0], 2) == 0.0


def test_power_mean_weights_equal_repetition():
    assert power_mean([1, 3], 0.5, weights=[3, 1]) == pytest.approx(power_mean([1, 1, 1, 3], 0.5))
    assert power_mean([1, 3, 100], 2, weights=[1, 1, 0]) == pytest.approx(power_mean([1, 3], 2))


def test_power_mean_no_overflow_and_no_precision_loss_large_n():
    n = 10 ** 6
    x = np.full(n, 1e-8)
    assert power_mean(x, -4) == pytest.approx(1e-8, rel=1e-12)        # (1e-8)^-4 = 1e32 per term, n of them
    assert power_mean(x, -40) == pytest.approx(1e-8, rel=1e-12)       # 1e320 would overflow a float
    x[::2] = 3.0
    # (0.5 * 1e-8^-40 + 0.5 * 3^-40)^(-1/40) = 2^(1/40) 1e-8 (the sum alone overflows a float).
    assert power_mean(x, -40) == pytest.approx(2 ** (1 / 40) * 1e-8, rel=1e-12)
    assert power_mean([1e300, 1e300], 2) == pytest.approx(1e300)


def test_power_mean_near_zero_alpha_is_continuous():
    x = [1.0, 2.0, 7.0, 40.0]
    geometric = power_mean(x, 0)
    for a in (1e-12, -1e-12, 1e-8, -1e-8):
        assert power_mean(x, a) == pytest.approx(geometric, rel=1e-7)
    # Second-order behaviour: M_a ~ G (1 + a var(log x) / 2).
    var = float(np.var(np.log(x)))
    assert (power_mean(x, 1e-6) / geometric - 1) / 1e-6 == pytest.approx(var / 2, rel=1e-4)


def test_power_means_grid_matches_single_calls():
    x = [0.5, 2, 2, 9]
    grid = [-math.inf, -3, 0, 0.5, 1, 3, math.inf]
    assert power_means(x, grid).tolist() == pytest.approx([power_mean(x, a) for a in grid])


@FAST
@given(positive_values, st.floats(min_value=-30, max_value=30, allow_nan=False))
def test_power_mean_between_min_and_max(values, alpha):
    m = power_mean(values, alpha)
    assert min(values) * (1 - 1e-12) <= m <= max(values) * (1 + 1e-12)


@FAST
@given(positive_values, st.floats(min_value=-20, max_value=20), st.floats(min_value=0, max_value=20))
def test_power_mean_rises_with_alpha(values, alpha, step):
    assert power_mean(values, alpha) <= power_mean(values, alpha + step) * (1 + 1e-9)


@FAST
@given(positive_values)
def test_power_mean_limits_agree_with_infinite_alpha(values):
    n = len(values)
    top, bottom = power_mean(values, math.inf), power_mean(values, -math.inf)
    assert top == max(values) and bottom == min(values)
    # M_a lies within a factor n^(1/|a|) of the extreme value.
    a = 4000.0
    assert power_mean(values, a) == pytest.approx(top, rel=n ** (1 / a) - 1 + 1e-12)
    assert power_mean(values, -a) == pytest.approx(bottom, rel=n ** (1 / a) - 1 + 1e-12)


@FAST
@given(positive_values, st.sampled_from([-5.0, -1.0, -0.3, 0.0, 0.5, 1.0, 2.0, 6.0]))
def test_power_mean_equals_textbook_formula(values, alpha):
    assert power_mean(values, alpha) == pytest.approx(direct_power_mean(values, alpha), rel=1e-9)


# ------------------------------------------------------------------------------------ curve properties
@FAST
@given(displacement_vectors, st.randoms(use_true_random=False))
def test_disclosure_risk_invariant_to_relabelling_records(r, random):
    shuffled = list(r)
    random.shuffle(shuffled)
    alphas = [-6, -1, 0, 0.5, 1]
    assert risk_curve(shuffled, alphas).values.tolist() == pytest.approx(risk_curve(r, alphas).values.tolist())


@FAST
@given(displacement_vectors, st.sampled_from([-8.0, -2.0, -0.5, 0.0, 0.25, 1.0]))
def test_bincount_fast_path_equals_direct_formula(r, alpha):
    x = np.where(np.asarray(r) == 0, 1e-8, np.abs(r)).astype(float)
    assert risk_curve(r, [alpha]).values[0] == pytest.approx(direct_power_mean(x, alpha), rel=1e-9)


@FAST
@given(displacement_vectors, displacement_vectors, st.sampled_from([1.0, 1.5, 3.0, 10.0]))
def test_loss_curve_fast_path_equals_direct_formula(ra, rb, theta):
    n = min(len(ra), len(rb))
    a, b = np.asarray(ra[:n]), np.asarray(rb[:n])
    direct = direct_power_mean(np.abs(a - b), theta) if np.any(a != b) else 0.0
    assert loss_curve(a, b, [theta]).values[0] == pytest.approx(direct, rel=1e-9, abs=1e-300)


def test_fast_path_on_non_integer_displacements():
    r = [0.5, 1.5, 1.5, 0.0, 2.25]
    x = np.where(np.asarray(r) == 0, 1e-8, np.abs(r))
    assert risk_curve(r, [0.5]).values[0] == pytest.approx(direct_power_mean(x, 0.5))


@FAST
@given(displacement_vectors, st.data(), st.sampled_from([-6.0, -1.0, 0.0, 0.5, 1.0]))
def test_sub_block_consistency_risk(r, data, alpha):
    # 002 Section 5.1: more permutation on a sub-block of records, same elsewhere -> D rises.  (For
    # alpha << 0 a 1e-8 elsewhere can make the rise smaller than a float's precision: check >= there.)
    r = np.asarray(r)
    subset = data.draw(st.lists(st.integers(0, len(r) - 1), min_size=1, unique=True))
    raised = r.copy()
    raised[subset] = np.sign(r[subset] + 0.5) * (np.abs(r[subset]) + 1)
    before, after = disclosure_risk(r, alpha), disclosure_risk(raised, alpha)
    assert after >= before * (1 - 1e-12)
    if alpha > 0:
        assert after > before


@FAST
@given(displacement_vectors, st.data(), st.sampled_from([1.0, 2.0, 5.0]))
def test_sub_block_consistency_loss(r, data, theta):
    a = np.asarray(r)
    b = np.zeros_like(a)
    subset = data.draw(st.lists(st.integers(0, len(a) - 1), min_size=1, unique=True))
    moved = b.copy()
    moved[subset] = -np.sign(a[subset] + 0.5)        # pushes |a - b| up by 1 on the subset
    assert information_loss(a, moved, theta) > information_loss(a, b, theta)


# ------------------------------------------------------------------------------------------- dominance
def test_dominance_crossing_is_found_and_interpolated():
    alphas = alpha_grid(-10, 221)
    steady = risk_curve([1, 1, 1, 1], alphas)           # D = 1 for every alpha
    spread = risk_curve([0.5, 3, 3, 3], alphas)         # D(1) = 2.375 > 1, D(-inf) = 0.5 < 1
    result = dominance(spread, steady)
    assert result.verdict == "cross"
    assert len(result.crossings) == 1
    # Exact crossing: mean of x^a equals 1, solved numerically on a fine scale.
    from scipy.optimize import brentq
    exact = brentq(lambda a: 0.25 * 0.5 ** a + 0.75 * 3 ** a - 1, -10, -0.01)
    assert result.crossings[0] == pytest.approx(exact, abs=0.01)
    assert [s.better for s in result.segments] == ["B", "A"]
    text = result.sentence("noise", "swap")
    assert "cross at α = " in text and "swap" in text and "noise" in text


def test_dominance_of_loss_curves_prefers_smaller():
    thetas = theta_grid(10, 50, include_inf=True)
    low = loss_curve([0, 1, 0, 0], [0, 0, 0, 0], thetas)
    high = loss_curve([0, 2, 0, 0], [0, 0, 0, 0], thetas)
    assert dominance(low, high).verdict == "A dominates"
    assert dominance(high, low).verdict == "B dominates"
    assert dominance(low, low).verdict == "equal"
    assert "equal" in dominance(low, low).sentence()


def test_dominance_rejects_mismatched_curves():
    a = risk_curve(R2, [0, 1])
    with pytest.raises(InvalidParameterError, match="same grid"):
        dominance(a, risk_curve(R2, [0, 0.5]))
    with pytest.raises(InvalidParameterError, match="loss curve"):
        dominance(a, loss_curve(R2, R3, [1, 2]))
    with pytest.raises(ExplorerTypeError):
        dominance(a, [1, 2])


def test_curve_rows_for_csv():
    rows = risk_curve(R2, [0, 1], label="x").to_rows()
    assert rows[1] == {"label": "x", "kind": "risk", "alpha": 1.0, "value": pytest.approx(1.6)}
    assert isinstance(risk_curve(R2, [1]), Curve)


# -------------------------------------------------------------------------------------------- calibration
def test_calibration_point_and_best_choice():
    R = np.column_stack([R1, R2, R3])
    point = calibration_point(R, 1, 1, label="example", parameter=0.1)
    assert point.risk == pytest.approx((1e-8 + 3.2) / 3)
    assert point.loss == pytest.approx(5.6 / 3)
    points = [CalibrationPoint("weak", 0.5, 0.1, 1), CalibrationPoint("mid", 2.0, 0.7, 2),
              CalibrationPoint("strong", 4.0, 1.5, 3)]
    assert best_calibration(points, 1.0).label == "mid"
    assert best_calibration(points, 5.0) is None
    assert calibration_point(R[:, [1]], 0, 2).loss == 0.0


# -------------------------------------------------------------------------------------------- bad input
def test_alpha_above_one_names_the_domain_and_can_be_forced():
    with pytest.raises(DomainError, match=r"alpha must be <= 1 .*got 2.*strict=False"):
        disclosure_risk(R2, 2)
    with pytest.raises(DomainError, match="alpha"):
        risk_curve(R2, [0, 1.5])
    assert disclosure_risk(R2, 2, strict=False) == pytest.approx(power_mean([3, 1e-8, 1e-8, 1, 4], 2))


def test_theta_below_one_names_the_domain_and_can_be_forced():
    with pytest.raises(DomainError, match=r"theta must be >= 1 .*got 0.5"):
        information_loss(R2, R3, 0.5)
    assert information_loss(R2, R3, 0.5, strict=False) == pytest.approx(power_mean([3, 2, 2, 3, 2], 0.5))


@pytest.mark.parametrize("bad", [[], [1, float("nan")], [1, float("inf")], "abc", [[1, 2], [3, 4]]])
def test_bad_displacements(bad):
    with pytest.raises(ExplorerError, match="r"):
        disclosure_risk(bad, 1)


def test_bad_exponents():
    with pytest.raises(ExplorerError, match="alpha"):
        disclosure_risk(R2, float("nan"))
    with pytest.raises(ExplorerTypeError, match="alpha"):
        disclosure_risk(R2, "x")
    with pytest.raises(ExplorerError, match="alphas"):
        risk_curve(R2, [])


def test_different_lengths_for_information_loss():
    with pytest.raises(InvalidParameterError, match="same length.*5 and 4"):
        information_loss(R2, [1, 2, 3, 4], 1)


def test_beta_above_one_and_pi_below_one():
    with pytest.raises(DomainError, match="beta must be <= 1.*got 1.5"):
        overall_disclosure_risk([1, 2], 1.5)
    with pytest.raises(DomainError, match="pi must be >= 1.*got 0.5"):
        overall_information_loss([1, 2, 3], 0.5)


def test_fewer_than_two_attributes_for_overall_information_loss():
    with pytest.raises(InvalidParameterError, match="at least two attributes"):
        overall_information_loss([], 1)
    with pytest.raises(InvalidParameterError, match="at least two attributes"):
        overall_information_loss([1.0, 2.0], 1)          # 2 is not p(p-1)/2
    with pytest.raises(InvalidParameterError, match="at least two attributes"):
        pairwise_information_loss(np.array([[1], [2]]), 1)
    with pytest.raises(InvalidParameterError, match="at least two attributes"):
        overall_loss_curve(np.array([[1], [2]]), [1], 1)


def test_power_mean_rejects_negative_values_and_bad_weights():
    with pytest.raises(InvalidParameterError, match="non-negative.*entry 2"):
        power_mean([1, -2], 1)
    with pytest.raises(ExplorerError, match="weights"):
        power_mean([1, 2], 1, weights=[1])
    with pytest.raises(ExplorerError, match="permutation"):
        permutation_extent([[1, 1], [0, 0]])


# --------------------------------------------------------------------------------- data to displacements
def test_displacement_matrix_reproduces_002_section_3():
    from explorer.core.dominance import displacement_matrix

    t = ruiz_example()
    R = displacement_matrix(t[["X1", "X2", "X3"]], t[["Y1", "Y2", "Y3"]], rng=0)
    assert R.T.astype(int).tolist() == [R1.tolist(), R2.tolist(), R3.tolist()]
    # The rank convention: rank(y) - rank(x), independent of the order of the records.
    ranked = displacement_matrix(t[["X1", "X2", "X3"]], t[["Y1", "Y2", "Y3"]], rng=0, convention="rank")
    assert ranked[:, 1].astype(int).tolist() == [1, 0, 0, -2, 1]      # ascending ranks of Table 1's X_2, Y_2
    with pytest.raises(InvalidParameterError, match="convention"):
        displacement_matrix(t[["X1"]], t[["Y1"]], convention="diagonal")


def test_rank_convention_is_invariant_to_record_order():
    from explorer.core.dominance import displacement_matrix

    rng = np.random.default_rng(3)
    X = rng.normal(size=(300, 2))
    Y = X + rng.normal(scale=0.3, size=X.shape)
    order = rng.permutation(300)
    a = displacement_matrix(X, Y, 0, convention="rank")
    b = displacement_matrix(X[order], Y[order], 0, convention="rank")
    assert risk_curve(a[:, 0], [-2, 0.5, 1]).values.tolist() == pytest.approx(
        risk_curve(b[:, 0], [-2, 0.5, 1]).values.tolist())


def test_same_permutation_on_two_attributes_loses_no_information():
    # 002 Prop. 4: permuting a block of attributes with the same P preserves their joint distribution.
    from explorer.core.dominance import displacement_matrix

    rng = np.random.default_rng(5)
    X = rng.normal(size=(50, 2))
    Y = X[rng.permutation(50)]                       # whole records permuted: the same P for both columns
    R = displacement_matrix(X, Y, 0)
    assert information_loss(R[:, 0], R[:, 1], 1) == 0.0
    assert disclosure_risk(R[:, 0], 1) > 1


def test_masked_displacements_and_calibration_path():
    from explorer.core.dominance import calibration_path, masked_displacements

    X = np.random.default_rng(0).normal(size=(400, 3))
    assert np.all(masked_displacements(X, "identity") == 0)
    path = calibration_path(X, "additive_noise", [0.0, 0.1, 0.5, 1.5], 1, 2, rng=1, convention="rank")
    risks = [p.risk for p in path]
    losses = [p.loss for p in path]
    assert risks == sorted(risks) and losses == sorted(losses)     # more noise: more protection, more loss
    assert [p.parameter for p in path] == [0.0, 0.1, 0.5, 1.5]
    best = best_calibration(path, risks[2])
    assert best.parameter == 0.5


def test_identity_masking_with_many_ties_has_no_displacement():
    from explorer.core.dominance import displacement_matrix

    rng = np.random.default_rng(0)
    X = np.column_stack([rng.integers(0, 3, 500), np.where(rng.random(500) < 0.9, 0.0, rng.normal(size=500))])
    for convention in ("position", "rank"):
        for ties in ("first", "random"):
            # equal values never count as moved, however their ties are broken (issue 25)
            assert np.all(displacement_matrix(X, X.copy(), 0, ties=ties, convention=convention) == 0)


@FAST
@given(displacement_vectors)
def test_integer_array_fast_path_equals_float_path(r):
    from explorer.core.dominance import tally

    as_int, as_float = tally(np.asarray(r, dtype=np.int64)), tally(np.asarray(r, dtype=float))
    assert as_int.values.tolist() == as_float.values.tolist()
    assert as_int.counts.tolist() == as_float.counts.tolist() and as_int.n == as_float.n == len(r)
    grid = [-3.0, 0.0, 0.5, 1.0]
    assert risk_curve(np.asarray(r), grid).values.tolist() == pytest.approx(risk_curve(list(r), grid).values.tolist())


# -------------------------------------------------------------------------- power means against scipy
@FAST
@given(st.lists(st.floats(min_value=1e-3, max_value=1e3), min_size=1, max_size=30),
       st.just(0.0) | st.floats(min_value=-20, max_value=20).filter(lambda a: abs(a) >= 1e-4),
       st.none() | st.lists(st.floats(min_value=0.1, max_value=10), min_size=30, max_size=30))
def test_power_means_agree_with_scipy_pmean_where_it_is_accurate(values, alpha, weights):
    # Values in [1e-3, 1e3] and 1e-4 <= |alpha| <= 20: x**alpha stays within 1e-60..1e60, where scipy's
    # textbook formula (mean(x**p))**(1/p) is accurate (near alpha = 0 it loses digits: at
    # alpha = 1e-89 it returns 1 for the mean of [2]).
    w = None if weights is None else weights[:len(values)]
    expected = float(pmean(np.asarray(values), alpha, weights=w)) if alpha != 0 else \
        float(np.exp(np.average(np.log(values), weights=w)))
    assert power_mean(values, alpha, weights=w) == pytest.approx(expected, rel=1e-9)
    assert power_means(values, [alpha], weights=w)[0] == pytest.approx(expected, rel=1e-9)


def test_power_mean_where_scipy_pmean_overflows():
    # alpha = -40 on a 1e-8 (Ruiz's zero displacement): 1e-8 ** -40 = 1e320 overflows a float, and
    # scipy.stats.pmean returns 0; the mean is 2^(1/40) 1e-8.
    with np.errstate(over="ignore"):
        assert pmean(np.array([1e-8, 1.0]), -40) == 0.0
    assert power_mean([1e-8, 1.0], -40) == pytest.approx(2 ** (1 / 40) * 1e-8, rel=1e-12)
    assert disclosure_risk([0, 1], -40) == pytest.approx(2 ** (1 / 40) * 1e-8, rel=1e-12)


def _uneven_grid(data):
    grid = data.draw(st.lists(st.floats(min_value=-40, max_value=40), min_size=1, max_size=60))
    return np.array(grid + data.draw(st.lists(st.sampled_from([0.0, 1e-9, -1e-3, 0.02, -np.inf, np.inf]),
                                              max_size=4)))


@FAST
@given(st.data(), st.integers(min_value=1, max_value=3000), st.booleans())
def test_chunked_power_means_equal_the_one_block_computation(data, n, with_zero):
    # Large problems are cut into chunks (bounded memory); shrink the limits so that small ones are too.
    rng = np.random.default_rng(n)
    values = rng.integers(0 if with_zero else 1, 10 * n + 2, size=n).astype(float)
    weights = rng.integers(1, 5, size=n).astype(float)
    grid = data.draw(st.sampled_from([None, "linspace"]))
    alphas = np.linspace(-30, 1, 200) if grid == "linspace" else _uneven_grid(data)
    whole = power_means_module._power_means_kernel(values, weights, alphas)
    saved = power_means_module._BLOCK, power_means_module._CHUNK
    power_means_module._BLOCK, power_means_module._CHUNK = 64, 16
    try:
        chunked = power_means_module._power_means_kernel(values, weights, alphas)
    finally:
        power_means_module._BLOCK, power_means_module._CHUNK = saved
    np.testing.assert_allclose(chunked, whole, rtol=1e-11, atol=0)


def test_risk_curve_of_a_random_permutation_in_bounded_memory():
    # 200 alphas over the displacements of a random permutation (about 0.57 n distinct |r|): an
    # alphas x distinct-values array would take 200 * 570,000 * 8 bytes = 0.9 GB (several times that
    # with temporaries); the chunked computation stays within a few times the size of the input.
    import tracemalloc

    n = 10 ** 6
    r = np.random.default_rng(0).permutation(n) - np.arange(n)
    alphas = alpha_grid(-10, 200)
    tracemalloc.start()
    try:
        curve = risk_curve(r, alphas)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 100 * 2 ** 20
    sample = [0, 57, 120, 199]
    x = np.where(r == 0, 1e-8, np.abs(r)).astype(float)
    for k in sample:
        assert curve.values[k] == pytest.approx(direct_power_mean(x, alphas[k]), rel=1e-10)


def test_benchmark_figures_quoted_in_the_docs_are_those_of_the_results_file():
    # docs/models/dominance.md quotes benchmarks/results/dominance.txt: every number in bold there is in the file.
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    page = (root / "docs" / "models" / "dominance.md").read_text(encoding="utf-8")
    results = (root / "benchmarks" / "results" / "dominance.txt").read_text(encoding="utf-8")
    section = page[page.index("## Benchmark"):page.index("## Dependencies")]
    quoted = [n for bold in re.findall(r"\*\*(.+?)\*\*", section) for n in re.findall(r"\d[\d,]*(?:\.\d+)?", bold)]
    assert len(quoted) >= 6
    numbers = set(re.findall(r"\d[\d,]*(?:\.\d+)?", results))
    assert [n for n in quoted if n not in numbers] == []
