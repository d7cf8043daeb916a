"""Power-mean disclosure risk and information loss, and dominance (002 Sections 3-5, 000 Section VI-B).

In the permutation paradigm every masking of a numeric attribute is a permutation
of its values (plus small noise).  Paper 002 reads the permutation of attribute
``j`` as a vector ``r_j`` of signed rank displacements and aggregates it with
power means:

* ``T_j = 1 - trace(P_j) / n``: the share of records that moved (Prop. 2);
* ``D_j(alpha)``: the power mean of ``|r_j|`` for ``alpha <= 1`` (Prop. 3).  The
  larger ``D_j``, the further records moved, the *lower* the disclosure risk;
  ``alpha`` is the aversion to disclosure risk (the more negative, the more the
  least-moved records count);
* ``TD_j = T_j * D_j(1)``;
* ``I_k(theta)``: the power mean of ``|r_j - r_j'|`` for a pair of attributes
  ``k = (j, j')`` and ``theta >= 1`` (Prop. 5): how differently the two attributes
  were permuted, i.e. how much their dependence was altered (information loss);
* ``D(alpha, beta)`` and ``I(theta, pi)``: power means of the ``D_j`` over the
  ``p`` attributes (``beta <= 1``, Prop. 6) and of the ``I_k`` over the
  ``p(p-1)/2`` pairs (``pi >= 1``, Prop. 7);
* dominance (Defs. 2 and 4): method A dominates B in disclosure risk when its
  ``D_j(alpha)`` is at least B's for every ``alpha <= 1``, and in information when
  its ``I_k(theta)`` is at most B's for every ``theta >= 1``.

Power means are computed in log space (no overflow for ``1e-8 ** -40``, no loss of
precision near ``alpha = 0``), and curves over a grid of ``alpha`` use the fact that
rank displacements are integers: each distinct ``|r|`` is counted once
(:func:`numpy.bincount`) and the curve is a weighted power mean of the distinct values.

Conventions (``PAPER_NOTES.md``): a zero displacement counts as ``zero = 1e-8`` in
``D_j`` (002 Table 3 note), which is what makes ``alpha <= 0`` meaningful; 002 Table 3's
``alpha = 0.5`` row and Section 4's ``I(1)``, ``I(4)`` are misprinted, and these
functions give the values of the definitions (0.8958, 1.2800; 2.4, 2.5457).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
from numpy.typing import ArrayLike

from explorer._validation import check_number, check_rng, check_weights
from explorer.errors import DomainError, ExplorerTypeError, InvalidParameterError

__all__ = [
    "ZERO_DISPLACEMENT",
    "power_mean",
    "power_means",
    "permutation_extent",
    "displacements_from_matrix",
    "disclosure_risk",
    "td",
    "information_loss",
    "overall_disclosure_risk",
    "overall_information_loss",
    "pairwise_information_loss",
    "attribute_pairs",
    "Curve",
    "Tally",
    "tally",
    "tally_differences",
    "risk_curve",
    "loss_curve",
    "overall_risk_curve",
    "overall_loss_curve",
    "alpha_grid",
    "theta_grid",
    "Segment",
    "DominanceResult",
    "dominance",
    "CalibrationPoint",
    "calibration_point",
    "best_calibration",
    "DISPLACEMENT_CONVENTIONS",
    "displacement_matrix",
    "masked_displacements",
    "calibration_path",
    "sample_records",
    "curves_table",
]

#: Value a zero displacement takes in D_j (002 Table 3 note: "epsilon is assumed equal to 1E-08").
ZERO_DISPLACEMENT = 1e-8

# Below this |alpha| * spread of log-values the log1p/expm1 form is used (no cancellation near alpha = 0).
_SMALL_EXPONENT = 1.0


# ---------------------------------------------------------------------------------------------- checks
def _fmt(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _vector(values: Any, name: str, *, allow_negative: bool = True) -> np.ndarray:
    """A non-empty 1-D vector of finite numbers (the message names ``name`` and what was wrong)."""
    if isinstance(values, (str, bytes)):
        raise ExplorerTypeError(f"{name} must be a vector of numbers, got {_fmt(values)}")
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ExplorerTypeError(f"{name} must be a vector of numbers, got {_fmt(values)}") from None
    if array.ndim == 0:
        array = array.reshape(1)
    if array.ndim != 1:
        raise InvalidParameterError(f"{name} must be a vector, got an array of shape {array.shape}")
    if array.size == 0:
        raise InvalidParameterError(f"{name} must not be empty")
    bad = ~np.isfinite(array)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InvalidParameterError(f"{name} must contain finite numbers: entry {i + 1} is {array[i]}")
    if not allow_negative and np.any(array < 0):
        i = int(np.flatnonzero(array < 0)[0])
        raise InvalidParameterError(f"{name} must be non-negative: entry {i + 1} is {array[i]:g}")
    return array


def _exponent(value: Any, name: str) -> float:
    return check_number(value, name, allow_inf=True)


def _exponents(values: Any, name: str) -> np.ndarray:
    if isinstance(values, (numbers.Real, np.floating, np.integer, str)) and not isinstance(values, bool):
        return np.array([_exponent(values, name)])
    try:
        array = np.asarray(values, dtype=float).ravel()
    except (TypeError, ValueError):
        raise ExplorerTypeError(f"{name} must be numbers, got {_fmt(values)}") from None
    if array.size == 0:
        raise InvalidParameterError(f"{name} must not be empty")
    if np.isnan(array).any():
        raise InvalidParameterError(f"{name} must be numbers, got NaN")
    return array


def _check_domain(values: np.ndarray, name: str, *, maximum: float | None = None, minimum: float | None = None,
                  what: str, strict: bool) -> None:
    """Raise :class:`DomainError` when an aversion parameter leaves the paper's domain (unless not strict)."""
    if not strict:
        return
    if maximum is not None and np.any(values > maximum):
        bad = values[values > maximum][0]
        raise DomainError(f"{name} must be <= {maximum:g} for {what}, got {bad:g} "
                          f"(pass strict=False to compute the power mean anyway)")
    if minimum is not None and np.any(values < minimum):
        bad = values[values < minimum][0]
        raise DomainError(f"{name} must be >= {minimum:g} for {what}, got {bad:g} "
                          f"(pass strict=False to compute the power mean anyway)")


# ---------------------------------------------------------------------------------------- power means
def _weighted_rows(matrix: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``matrix @ weights``; a few rows go through einsum, since a multithreaded BLAS gemv on a busy
    machine can take milliseconds for a single row (measured: median 20 ms for 1 x 30,000)."""
    if matrix.shape[0] < 16:
        return np.einsum("ij,j->i", matrix, weights)
    return matrix @ weights


def _power_means_kernel(values: np.ndarray, weights: np.ndarray, exponents: np.ndarray) -> np.ndarray:
    """Weighted power means of non-negative ``values`` for every exponent, in log space.

    ``values`` and ``weights`` are 1-D (weights > 0); returns one mean per exponent.
    For ``a != 0``: ``log M_a = c + (1/a) log sum_i w_i exp(a (l_i - c))`` with
    ``l_i = log x_i`` and ``c = sum_i w_i l_i`` (the log of the geometric mean).  When
    ``|a (l_i - c)|`` is small the sum is taken as ``log1p(sum w_i expm1(a d_i))``
    so that ``a -> 0`` loses no precision; otherwise it is a shifted log-sum-exp.
    Zeros: they add nothing for ``a > 0`` (a factor ``W_pos / W``) and force the
    mean to 0 for ``a <= 0``.
    """
    w = weights / weights.sum()
    low, high = float(values.min()), float(values.max())
    exponents = np.asarray(exponents, dtype=float)
    result = np.empty(exponents.shape, dtype=float)
    result[exponents == math.inf] = high
    result[exponents == -math.inf] = low
    finite = np.isfinite(exponents)
    positive = values > 0
    if not positive.any():
        result[finite] = 0.0
        return result
    has_zero = not positive.all()
    wp = w[positive]
    share = float(wp.sum())                        # weight of the non-zero values
    wn = wp / share
    logs = np.log(values[positive])
    c = float(np.einsum("i,i->", wn, logs))        # log of the geometric mean of the positive values
    d = logs - c
    spread = float(np.max(np.abs(d)))
    a = exponents[finite]
    out = np.full(a.shape, math.exp(c))            # a = 0: the geometric mean
    if has_zero:
        out[a <= 0] = 0.0                          # a zero drives the mean to 0 for a <= 0
    live = (a != 0) & ((a > 0) | (not has_zero))
    small = live & (np.abs(a) * spread <= _SMALL_EXPONENT)
    large = live & ~small
    s = np.empty(a.shape)
    if small.any():                                # log1p/expm1: no cancellation as a -> 0
        s[small] = np.log1p(_weighted_rows(np.expm1(np.outer(a[small], d)), wn))
    if large.any():                                # shifted log-sum-exp: no overflow
        ad = np.outer(a[large], d)
        m = ad.max(axis=1)
        s[large] = m + np.log(_weighted_rows(np.exp(ad - m[:, None]), wn))
    if has_zero:                                   # a > 0: the zeros dilute the mean of x^a
        s[live] += math.log(share)
    with np.errstate(over="ignore"):
        out[live] = np.exp(c + s[live] / a[live])
    result[finite] = out
    # A mean lies between the min and the max: clip the last-ulp rounding of exp/log.
    return np.clip(result, low, high)


def power_means(values: ArrayLike, exponents: ArrayLike, weights: ArrayLike | None = None) -> np.ndarray:
    """Power means of non-negative ``values`` for every exponent of a grid (see :func:`power_mean`).

    Examples
    --------
    >>> power_means([1, 2, 4], [-np.inf, 0, 1, np.inf]).round(4).tolist()
    [1.0, 2.0, 2.3333, 4.0]
    """
    x = _vector(values, "values", allow_negative=False)
    grid = _exponents(exponents, "alpha")
    w = np.ones_like(x) if weights is None else check_weights(weights, "weights", size=x.size)
    keep = w > 0
    return _power_means_kernel(x[keep], w[keep], grid)


def power_mean(values: ArrayLike, alpha: float, weights: ArrayLike | None = None) -> float:
    """The (weighted) power mean of non-negative values, for every real ``alpha`` and +-inf.

    Parameters
    ----------
    values : array_like
        Non-negative finite numbers (not empty).
    alpha : float
        The exponent: any real number, ``0`` (geometric mean), ``inf`` (maximum) or
        ``-inf`` (minimum).
    weights : array_like, optional
        Non-negative weights, one per value (e.g. counts of distinct values).

    Returns
    -------
    float

    Notes
    -----
    000 Eq. (8) / 002 Prop. 3:

    .. math::

        J(p, \\alpha) = \\Big(\\frac{1}{n}\\sum_{i=1}^n p_i^\\alpha\\Big)^{1/\\alpha} \\ (\\alpha \\ne 0),
        \\qquad J(p, 0) = \\prod_{i=1}^n p_i^{1/n}.

    Computed in log space: ``1e-8 ** -40`` does not overflow and ``n = 10**7``
    loses no precision.  With a zero among the values the mean is 0 for
    ``alpha <= 0``.

    Examples
    --------
    >>> power_mean([1, 4], 0)
    2.0
    >>> round(power_mean([3, 1e-8, 1e-8, 1, 4], 0.5), 4)   # D_2(0.5) of paper 002
    0.8958
    >>> power_mean([1e-8, 1.0], -40) > 0
    True
    """
    a = _exponent(alpha, "alpha")
    return float(power_means(values, [a], weights)[0])


# --------------------------------------------------------------------------------- per-attribute measures
def permutation_extent(permutation: ArrayLike) -> float:
    """T_j = 1 - trace(P_j) / n: the share of records moved by a permutation (002 Prop. 2).

    Parameters
    ----------
    permutation : array_like
        An ``n x n`` permutation matrix, or a vector of ``n`` rank displacements
        (then T_j is the share of non-zero displacements; a displacement of
        ``1e-8`` or less counts as zero).

    Notes
    -----
    .. math:: T_j = 1 - \\frac{\\operatorname{trace}(P_j)}{n}

    Examples
    --------
    >>> permutation_extent(np.eye(5))
    0.0
    >>> permutation_extent([3, 0, 0, 1, -4])
    0.6
    """
    try:
        p = np.asarray(permutation, dtype=float)
    except (TypeError, ValueError):
        raise ExplorerTypeError(f"permutation must be a matrix or a vector of numbers, "
                                f"got {_fmt(permutation)}") from None
    if p.ndim == 1:
        r = _vector(p, "permutation")
        return float(np.mean(np.abs(r) > ZERO_DISPLACEMENT))
    if p.ndim != 2 or p.shape[0] != p.shape[1] or p.shape[0] == 0:
        raise InvalidParameterError(f"permutation must be a square matrix, got an array of shape {p.shape}")
    _check_permutation_matrix(p)
    return float(1.0 - np.trace(p) / p.shape[0])


def _check_permutation_matrix(p: np.ndarray) -> None:
    if not np.all(np.isin(p, (0.0, 1.0))):
        raise InvalidParameterError("permutation must be a 0/1 matrix (a permutation matrix)")
    rows, cols = p.sum(axis=1), p.sum(axis=0)
    if np.any(rows != 1):
        i = int(np.flatnonzero(rows != 1)[0])
        raise InvalidParameterError(f"permutation row {i + 1} has {rows[i]:g} ones, not 1")
    if np.any(cols != 1):
        i = int(np.flatnonzero(cols != 1)[0])
        raise InvalidParameterError(f"permutation column {i + 1} has {cols[i]:g} ones, not 1")


def displacements_from_matrix(permutation: ArrayLike) -> np.ndarray:
    """The rank-displacement vector r_j read off a permutation matrix (002 Section 3).

    ``r[k] = (row of the 1 in column k) - k``: positive when the 1 moved down.

    Examples
    --------
    >>> P2 = [[0, 0, 0, 0, 1], [0, 1, 0, 0, 0], [0, 0, 1, 0, 0], [1, 0, 0, 0, 0], [0, 0, 0, 1, 0]]
    >>> displacements_from_matrix(P2).tolist()
    [3, 0, 0, 1, -4]
    """
    p = np.asarray(permutation, dtype=float)
    if p.ndim != 2 or p.shape[0] != p.shape[1] or p.shape[0] == 0:
        raise InvalidParameterError(f"permutation must be a square matrix, got an array of shape {p.shape}")
    _check_permutation_matrix(p)
    return np.argmax(p, axis=0).astype(np.int64) - np.arange(p.shape[0])


def _displacements(r: ArrayLike, name: str) -> np.ndarray:
    """Signed displacements with Ruiz's epsilon placeholders (|r| <= 1e-8) snapped back to 0."""
    array = _vector(r, name)
    return np.where(np.abs(array) <= ZERO_DISPLACEMENT, 0.0, array)


def _scale(n: int, normalize: bool) -> float:
    return float(max(n - 1, 1)) if normalize else 1.0


def disclosure_risk(r: ArrayLike, alpha: float, *, zero: float = ZERO_DISPLACEMENT, normalize: bool = False,
                    strict: bool = True) -> float:
    """D_j(alpha): the power mean of the absolute rank displacements of an attribute (002 Prop. 3).

    Parameters
    ----------
    r : array_like
        Signed rank displacements ``r_j`` (one per record).
    alpha : float
        Aversion to disclosure risk, ``alpha <= 1`` (``-inf`` allowed: the smallest
        displacement).  The more negative, the more the least-moved records count.
    zero : float
        The value a zero displacement takes (002 Table 3: 1e-8), so that
        ``alpha <= 0`` does not collapse to 0 at once.
    normalize : bool
        Divide by ``n - 1``, the largest possible displacement, for a 0-1 scale.
    strict : bool
        When True (default) ``alpha > 1`` raises :class:`~explorer.errors.DomainError`;
        False computes the power mean anyway.

    Returns
    -------
    float
        The larger, the further records moved: the *lower* the disclosure risk.

    Notes
    -----
    .. math::

        D_j(\\alpha) = \\Big[\\frac{1}{n}\\sum_{i=1}^n |r_{j(i)}|^\\alpha\\Big]^{1/\\alpha},
        \\quad D_j(0) = \\prod_i |r_{j(i)}|^{1/n}, \\quad \\alpha \\le 1.

    Examples
    --------
    >>> r2, r3 = [3, 0, 0, 1, -4], [0, 2, 2, -2, -2]
    >>> round(disclosure_risk(r2, 1), 4), round(disclosure_risk(r3, 1), 4)
    (1.6, 1.6)
    >>> round(disclosure_risk(r2, 0.5), 4), round(disclosure_risk(r3, 0.5), 4)   # 002 prints 0.97, 1.06
    (0.8958, 1.28)
    """
    a = _exponent(alpha, "alpha")
    return float(risk_curve(r, [a], zero=zero, normalize=normalize, strict=strict).values[0])


def td(r: ArrayLike, *, zero: float = ZERO_DISPLACEMENT, normalize: bool = False) -> float:
    """TD_j = T_j * D_j(1): the mean displacement discounted by the share of unmoved records (002 Section 3).

    Notes
    -----
    .. math:: TD_j = T_j \\cdot D_j(1)

    Examples
    --------
    >>> round(td([3, 0, 0, 1, -4]), 4), round(td([0, 2, 2, -2, -2]), 4)
    (0.96, 1.28)
    """
    return permutation_extent(_vector(r, "r")) * disclosure_risk(r, 1.0, zero=zero, normalize=normalize)


def information_loss(r_a: ArrayLike, r_b: ArrayLike, theta: float, *, normalize: bool = False,
                     strict: bool = True) -> float:
    """I_k(theta): the power mean of the relative displacements of two attributes (002 Prop. 5).

    Parameters
    ----------
    r_a, r_b : array_like
        Signed rank displacements of attributes ``j`` and ``j'`` (same length).
    theta : float
        Aversion to information loss, ``theta >= 1`` (``inf``: the largest
        relative displacement).
    normalize : bool
        Divide by ``n - 1`` (the largest possible ``|r_j - r_j'|``) for a 0-1 scale.
    strict : bool
        When True (default) ``theta < 1`` raises :class:`~explorer.errors.DomainError`.

    Notes
    -----
    On the signed difference ``Delta(r_k) = r_j - r_j'``:

    .. math::

        I_k(\\theta) = \\Big[\\frac{1}{n}\\sum_{i=1}^n |\\Delta r_{k(i)}|^\\theta\\Big]^{1/\\theta},
        \\quad \\theta \\ge 1.

    Examples
    --------
    >>> r2, r3 = [3, 0, 0, 1, -4], [0, 2, 2, -2, -2]
    >>> [round(information_loss(r2, r3, t), 4) for t in (1, 4, np.inf)]   # 002 prints 2 and 2.49
    [2.4, 2.5457, 3.0]
    """
    t = _exponent(theta, "theta")
    return float(loss_curve(r_a, r_b, [t], normalize=normalize, strict=strict).values[0])


# ---------------------------------------------------------------------------------- data-set level
def overall_disclosure_risk(risks: ArrayLike, beta: float, *, strict: bool = True) -> np.ndarray | float:
    """D(alpha, beta): the power mean over attributes of their D_j(alpha) (002 Prop. 6).

    Parameters
    ----------
    risks : array_like
        ``D_j(alpha)`` of the ``p`` attributes: a vector, or a ``p x g`` array (one
        column per alpha of a grid), which gives one value per column.
    beta : float
        ``beta <= 1``: the lower, the more the least protected attribute counts.

    Notes
    -----
    .. math::

        D(\\alpha, \\beta) = \\Big[\\frac{1}{p}\\sum_{j=1}^p D_j(\\alpha)^\\beta\\Big]^{1/\\beta},
        \\quad D(\\alpha, 0) = \\prod_j D_j(\\alpha)^{1/p}, \\quad \\beta \\le 1.

    Examples
    --------
    >>> round(overall_disclosure_risk([1e-8, 1.6, 1.6], 1), 4)
    1.0667
    """
    b = _exponent(beta, "beta")
    _check_domain(np.array([b]), "beta", maximum=1.0, what="overall disclosure risk D(alpha, beta)",
                  strict=strict)
    return _aggregate(risks, b, "risks", minimum_rows=1)


def overall_information_loss(losses: ArrayLike, pi: float, *, strict: bool = True) -> np.ndarray | float:
    """I(theta, pi): the power mean over the p(p-1)/2 attribute pairs of their I_k(theta) (002 Prop. 7).

    Parameters
    ----------
    losses : array_like
        ``I_k(theta)`` of the ``p(p-1)/2`` pairs of ``p >= 2`` attributes (see
        :func:`pairwise_information_loss`): a vector, or a ``pairs x g`` array.
    pi : float
        ``pi >= 1``: the higher, the more the least preserved pair counts.

    Notes
    -----
    002 writes ``j(j-1)/2`` for the number of pairs; it is ``p(p-1)/2``:

    .. math::

        I(\\theta, \\pi) = \\Big[\\frac{2}{p(p-1)}\\sum_{k=1}^{p(p-1)/2} I_k(\\theta)^\\pi\\Big]^{1/\\pi},
        \\quad \\pi \\ge 1.

    Examples
    --------
    >>> round(overall_information_loss([0.0, 0.0, 2.4], 1), 4)     # three attributes
    0.8
    """
    q = _exponent(pi, "pi")
    _check_domain(np.array([q]), "pi", minimum=1.0, what="overall information loss I(theta, pi)", strict=strict)
    array = np.asarray(losses, dtype=float) if not isinstance(losses, (str, bytes)) else None
    count = 0 if array is None or array.ndim == 0 else array.shape[0]
    p = int(round((1 + math.sqrt(1 + 8 * count)) / 2)) if count else 0
    if count == 0 or p * (p - 1) // 2 != count:
        raise InvalidParameterError(
            f"losses must hold I_k for all p(p-1)/2 pairs of p >= 2 attributes, got {count} value(s): "
            f"the overall information loss needs at least two attributes")
    return _aggregate(losses, q, "losses", minimum_rows=1)


def _aggregate(values: ArrayLike, exponent: float, name: str, minimum_rows: int) -> np.ndarray | float:
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ExplorerTypeError(f"{name} must be numbers, got {_fmt(values)}") from None
    if array.ndim == 1:
        x = _vector(array, name, allow_negative=False)
        return float(_power_means_kernel(x, np.ones_like(x), np.array([exponent]))[0])
    if array.ndim != 2 or array.shape[0] < minimum_rows or array.shape[1] == 0:
        raise InvalidParameterError(f"{name} must be a vector or a 2-D array, got shape {array.shape}")
    if not np.all(np.isfinite(array)) or np.any(array < 0):
        raise InvalidParameterError(f"{name} must be non-negative finite numbers")
    return _column_power_means(array, exponent)


def _column_power_means(array: np.ndarray, exponent: float) -> np.ndarray:
    """Power mean of each column of a non-negative ``p x g`` array for one exponent, vectorized over columns."""
    if exponent == math.inf:
        return array.max(axis=0)
    if exponent == -math.inf:
        return array.min(axis=0)
    if exponent == 0:                              # the geometric mean (a zero makes it 0)
        with np.errstate(divide="ignore"):
            result = np.exp(np.mean(np.log(array), axis=0))
        return np.clip(result, array.min(axis=0), array.max(axis=0))
    if abs(exponent) < 1e-3:                       # near the geometric mean: the careful kernel, column by column
        ones = np.ones(array.shape[0])
        grid = np.array([exponent])
        return np.array([_power_means_kernel(column, ones, grid)[0] for column in array.T])
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        scaled = exponent * np.log(array)          # log 0 = -inf: x^a = 0 for a > 0, inf for a < 0
        top = scaled.max(axis=0)
        shift = np.where(np.isfinite(top), top, 0.0)
        s = shift + np.log(np.mean(np.exp(scaled - shift), axis=0))
        result = np.exp(s / exponent)
    has_zero = (array == 0).any(axis=0)
    if exponent < 0:
        result = np.where(has_zero, 0.0, result)
    result = np.where((array == 0).all(axis=0), 0.0, result)
    return np.clip(result, array.min(axis=0), array.max(axis=0))


def attribute_pairs(n_attributes: int) -> list[tuple[int, int]]:
    """The p(p-1)/2 pairs ``(j, j')``, ``j < j'``, in the order the pairwise functions use.

    Examples
    --------
    >>> attribute_pairs(3)
    [(0, 1), (0, 2), (1, 2)]
    """
    return [(j, k) for j in range(n_attributes) for k in range(j + 1, n_attributes)]


def pairwise_information_loss(displacements: ArrayLike, theta: float, *, normalize: bool = False,
                              strict: bool = True) -> np.ndarray:
    """I_k(theta) for every pair of columns of an ``n x p`` displacement matrix (order: :func:`attribute_pairs`).

    Examples
    --------
    >>> R = np.array([[0, 3, 0], [0, 0, 2], [0, 0, 2], [0, 1, -2], [0, -4, -2]])
    >>> pairwise_information_loss(R, 1).round(4).tolist()
    [1.6, 1.6, 2.4]
    """
    R = _matrix(displacements, "displacements")
    if R.shape[1] < 2:
        raise InvalidParameterError(f"displacements must have at least two attributes (columns) for I_k, "
                                    f"got {R.shape[1]}")
    t = _exponent(theta, "theta")
    return np.array([information_loss(R[:, j], R[:, k], t, normalize=normalize, strict=strict)
                     for j, k in attribute_pairs(R.shape[1])])


def _matrix(values: ArrayLike, name: str) -> np.ndarray:
    try:
        R = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ExplorerTypeError(f"{name} must be a matrix of numbers, got {_fmt(values)}") from None
    if R.ndim == 1:
        R = R[:, None]
    if R.ndim != 2 or R.shape[0] == 0:
        raise InvalidParameterError(f"{name} must be an n x p matrix (records x attributes), got shape {R.shape}")
    if not np.all(np.isfinite(R)):
        raise InvalidParameterError(f"{name} must contain finite numbers (no NaN)")
    return R


# ------------------------------------------------------------------------------------------- curves
@dataclass(frozen=True)
class Curve:
    """A risk curve D(alpha) or a loss curve I(theta) over a grid of its aversion parameter.

    ``kind`` is ``"risk"`` (higher is better: more protection) or ``"loss"``
    (lower is better); ``grid`` holds alpha or theta, ``values`` the measure.
    """

    kind: str
    grid: np.ndarray
    values: np.ndarray
    label: str = ""
    normalized: bool = False

    @property
    def parameter(self) -> str:
        return "alpha" if self.kind == "risk" else "theta"

    def to_rows(self) -> list[dict[str, Any]]:
        """One dict per grid point (for CSV export)."""
        return [{"label": self.label, "kind": self.kind, self.parameter: float(g), "value": float(v)}
                for g, v in zip(self.grid, self.values)]


@dataclass(frozen=True)
class Tally:
    """Distinct absolute displacements and how many records have each (the fast path's input).

    Made once per attribute (:func:`tally`) or pair (:func:`tally_differences`), it
    lets a panel evaluate D_j or I_k at new exponents without touching the n records.
    """

    values: np.ndarray
    counts: np.ndarray
    n: int


def tally(r: ArrayLike) -> Tally:
    """The distinct |r_j| and their counts (``numpy.bincount`` for integer displacements).

    Examples
    --------
    >>> t = tally([3, 0, 0, 1, -4])
    >>> t.values.tolist(), t.counts.tolist(), t.n
    ([0.0, 1.0, 3.0, 4.0], [2.0, 1.0, 1.0, 1.0], 5)
    """
    array = r if isinstance(r, np.ndarray) else None
    if array is not None and array.dtype.kind in "iu" and array.ndim == 1 and array.size:
        # Integer displacements (the usual case): one pass of abs and one bincount, no float copies.
        counts = np.bincount(np.abs(array))
        values = np.flatnonzero(counts)
        return Tally(values.astype(float), counts[values].astype(float), array.size)
    a = np.abs(_displacements(r, "r"))
    values, counts = _distinct(a)
    return Tally(values, counts, a.size)


def tally_differences(r_a: ArrayLike, r_b: ArrayLike) -> Tally:
    """The distinct |r_j - r_j'| of a pair of attributes and their counts (002 Prop. 5's Delta(r_k)).

    Examples
    --------
    >>> tally_differences([3, 0, 0, 1, -4], [0, 2, 2, -2, -2]).values.tolist()
    [2.0, 3.0]
    """
    a = _displacements(r_a, "r_a")
    b = _displacements(r_b, "r_b")
    if a.size != b.size:
        raise InvalidParameterError(f"r_a and r_b must have the same length (one displacement per record), "
                                    f"got {a.size} and {b.size}")
    values, counts = _distinct(np.abs(a - b))
    return Tally(values, counts, a.size)


def _distinct(abs_values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct values and their counts: bincount for integers, unique otherwise."""
    if abs_values.size and abs_values.max() <= 2 ** 31 and np.all(abs_values == np.floor(abs_values)):
        counts = np.bincount(abs_values.astype(np.int64))
        values = np.flatnonzero(counts)
        return values.astype(float), counts[values].astype(float)
    values, counts = np.unique(abs_values, return_counts=True)
    return values, counts.astype(float)


def risk_curve(r: ArrayLike | Tally, alphas: ArrayLike, *, zero: float = ZERO_DISPLACEMENT, normalize: bool = False,
               strict: bool = True, label: str = "") -> Curve:
    """D_j(alpha) over a grid of alphas, each distinct |r| counted once (002 Prop. 3).

    Rank displacements are integers: ``numpy.bincount`` gives the distinct values
    and their counts, and the curve is a weighted power mean of the distinct values,
    so a 200-point curve costs O(n + distinct x grid), not O(n x grid).  Non-integer
    displacements fall back to :func:`numpy.unique`.  ``r`` may be a :class:`Tally`
    made once (:func:`tally`), which skips the O(n) step.

    Notes
    -----
    .. math::

        D_j(\\alpha) = \\Big[\\sum_v \\frac{c_v}{n} v^\\alpha\\Big]^{1/\\alpha},
        \\quad c_v = \\#\\{i : |r_{j(i)}| = v\\}.

    Examples
    --------
    >>> risk_curve([0, 2, 2, -2, -2], [-4, 0.5, 1]).values.round(4).tolist()
    [0.0, 1.28, 1.6]
    """
    counted = r if isinstance(r, Tally) else tally(r)
    grid = _exponents(alphas, "alphas")
    _check_domain(grid, "alpha", maximum=1.0, what="disclosure risk D_j(alpha)", strict=strict)
    z = check_number(zero, "zero", minimum=0.0)
    values = np.where(counted.values == 0, z, counted.values)
    curve = _power_means_kernel(values, counted.counts, grid) / _scale(counted.n, normalize)
    return Curve("risk", grid, curve, label, normalize)


def loss_curve(r_a: ArrayLike | Tally, r_b: ArrayLike | None, thetas: ArrayLike, *, normalize: bool = False, strict: bool = True,
               label: str = "") -> Curve:
    """I_k(theta) over a grid of thetas on ``|r_a - r_b|``, each distinct value counted once (002 Prop. 5).

    ``r_a`` may be a :class:`Tally` of the differences (from :func:`tally_differences`)
    with ``r_b=None``.

    Examples
    --------
    >>> loss_curve([3, 0, 0, 1, -4], [0, 2, 2, -2, -2], [1, np.inf]).values.tolist()
    [2.4, 3.0]
    """
    counted = r_a if isinstance(r_a, Tally) and r_b is None else tally_differences(r_a, r_b)
    grid = _exponents(thetas, "thetas")
    _check_domain(grid, "theta", minimum=1.0, what="information loss I_k(theta)", strict=strict)
    curve = _power_means_kernel(counted.values, counted.counts, grid) / _scale(counted.n, normalize)
    return Curve("loss", grid, curve, label, normalize)


def overall_risk_curve(displacements: ArrayLike, alphas: ArrayLike, beta: float, *,
                       zero: float = ZERO_DISPLACEMENT, normalize: bool = False, label: str = "") -> Curve:
    """D(alpha, beta) over a grid of alphas for an ``n x p`` displacement matrix (002 Prop. 6).

    Examples
    --------
    >>> R = np.array([[0, 3, 0], [0, 0, 2], [0, 0, 2], [0, 1, -2], [0, -4, -2]])
    >>> overall_risk_curve(R, [1], 1).values.round(4).tolist()
    [1.0667]
    """
    R = _matrix(displacements, "displacements")
    curves = np.array([risk_curve(R[:, j], alphas, zero=zero, normalize=normalize).values
                       for j in range(R.shape[1])])
    grid = _exponents(alphas, "alphas")
    return Curve("risk", grid, np.atleast_1d(overall_disclosure_risk(curves, beta)), label, normalize)


def overall_loss_curve(displacements: ArrayLike, thetas: ArrayLike, pi: float, *, normalize: bool = False,
                       label: str = "") -> Curve:
    """I(theta, pi) over a grid of thetas for an ``n x p`` displacement matrix, ``p >= 2`` (002 Prop. 7).

    Examples
    --------
    >>> R = np.array([[0, 3, 0], [0, 0, 2], [0, 0, 2], [0, 1, -2], [0, -4, -2]])
    >>> overall_loss_curve(R, [1], 1).values.round(4).tolist()
    [1.8667]
    """
    R = _matrix(displacements, "displacements")
    if R.shape[1] < 2:
        raise InvalidParameterError(f"displacements must have at least two attributes for I(theta, pi), "
                                    f"got {R.shape[1]}")
    curves = np.array([loss_curve(R[:, j], R[:, k], thetas, normalize=normalize).values
                       for j, k in attribute_pairs(R.shape[1])])
    grid = _exponents(thetas, "thetas")
    return Curve("loss", grid, np.atleast_1d(overall_information_loss(curves, pi)), label, normalize)


def alpha_grid(minimum: float = -10.0, n_points: int = 200, *, include_minus_inf: bool = False) -> np.ndarray:
    """An evenly spaced grid of alphas from ``minimum`` to 1 (and -inf first on request).

    Examples
    --------
    >>> alpha_grid(-2, 4).tolist()
    [-2.0, -1.0, 0.0, 1.0]
    """
    low = check_number(minimum, "alpha minimum", maximum=1.0, include_maximum=False)
    from explorer._validation import check_int
    count = check_int(n_points, "n_points", minimum=2)
    grid = np.linspace(low, 1.0, count)
    return np.concatenate([[-np.inf], grid]) if include_minus_inf else grid


def theta_grid(maximum: float = 10.0, n_points: int = 200, *, include_inf: bool = False) -> np.ndarray:
    """An evenly spaced grid of thetas from 1 to ``maximum`` (and +inf last on request).

    Examples
    --------
    >>> theta_grid(4, 4).tolist()
    [1.0, 2.0, 3.0, 4.0]
    """
    high = check_number(maximum, "theta maximum", minimum=1.0, include_minimum=False)
    from explorer._validation import check_int
    count = check_int(n_points, "n_points", minimum=2)
    grid = np.linspace(1.0, high, count)
    return np.concatenate([grid, [np.inf]]) if include_inf else grid


# ----------------------------------------------------------------------------------------- dominance
@dataclass(frozen=True)
class Segment:
    """A stretch of the grid, ``[start, end]``, where one side is better (``"A"``, ``"B"`` or ``"equal"``)."""

    start: float
    end: float
    better: str


@dataclass(frozen=True)
class DominanceResult:
    """The verdict of comparing two curves (002 Defs. 2 and 4).

    ``verdict`` is ``"A dominates"``, ``"B dominates"``, ``"equal"`` or ``"cross"``;
    ``crossings`` are the parameter values where the better side changes
    (interpolated linearly between grid points); ``segments`` say who is better where.
    """

    verdict: str
    kind: str
    crossings: tuple[float, ...]
    segments: tuple[Segment, ...]
    grid_min: float
    grid_max: float
    tolerance: float = 1e-9

    @property
    def parameter(self) -> str:
        return "alpha" if self.kind == "risk" else "theta"

    def sentence(self, label_a: str = "A", label_b: str = "B") -> str:
        """The verdict in words, e.g. ``"rank swap 10 dominates noise 0.5 for every ... down to alpha = -10"``."""
        sym = "α" if self.kind == "risk" else "θ"
        if self.kind == "risk":
            scope = f"every disclosure-risk aversion from {sym} = 1 down to {sym} = {_num(self.grid_min)}"
            better = "protects better (larger D)"
        else:
            scope = f"every information-loss aversion from {sym} = 1 up to {sym} = {_num(self.grid_max)}"
            better = "loses less information (smaller I)"
        if self.verdict == "equal":
            return f"{label_a} and {label_b} are equal for {scope}."
        if self.verdict == "A dominates":
            return f"{label_a} dominates {label_b} for {scope}."
        if self.verdict == "B dominates":
            return f"{label_b} dominates {label_a} for {scope}."
        where = ", ".join(f"{sym} = {_num(c)}" for c in self.crossings)
        parts = []
        for seg in self.segments:
            if seg.better == "equal":
                continue
            name = label_a if seg.better == "A" else label_b
            parts.append(f"{name} {better} for {sym} in [{_num(seg.start)}, {_num(seg.end)}]")
        crosses = "cross at" if len(self.crossings) == 1 else f"cross {len(self.crossings)} times, at"
        return f"Neither dominates: {label_a} and {label_b} {crosses} {where}; " + "; ".join(parts) + "."


def _num(value: float) -> str:
    if math.isinf(value):
        return "∞" if value > 0 else "-∞"
    return f"{value:.3g}" if abs(value) < 1000 else f"{value:.4g}"


def dominance(curve_a: Curve, curve_b: Curve, *, tolerance: float = 1e-9) -> DominanceResult:
    """Whether A dominates B, B dominates A, they are equal, or they cross, and where (002 Defs. 2 and 4).

    Parameters
    ----------
    curve_a, curve_b : Curve
        Two risk curves or two loss curves on the same grid (:func:`risk_curve`,
        :func:`loss_curve` or their overall versions).
    tolerance : float
        Differences up to ``tolerance * (1 + max |value|)`` count as equal.

    Notes
    -----
    Risk (Def. 2): A dominates B when ``D_A(alpha) >= D_B(alpha)`` for every
    ``alpha <= 1`` of the grid (more permutation, less disclosure risk).
    Information (Def. 4): A dominates B when ``I_A(theta) <= I_B(theta)`` for every
    ``theta >= 1``.  Crossings are interpolated linearly in the parameter.

    Examples
    --------
    >>> alphas = alpha_grid(-20, 211)
    >>> d = dominance(risk_curve([0, 2, 2, -2, -2], alphas), risk_curve([3, 0, 0, 1, -4], alphas))
    >>> d.verdict
    'A dominates'
    """
    if not isinstance(curve_a, Curve) or not isinstance(curve_b, Curve):
        raise ExplorerTypeError("curve_a and curve_b must be Curve objects (from risk_curve or loss_curve)")
    if curve_a.kind != curve_b.kind:
        raise InvalidParameterError(f"cannot compare a {curve_a.kind} curve with a {curve_b.kind} curve")
    if curve_a.grid.shape != curve_b.grid.shape or not np.array_equal(curve_a.grid, curve_b.grid):
        raise InvalidParameterError("curve_a and curve_b must be computed on the same grid")
    tol = check_number(tolerance, "tolerance", minimum=0.0)
    grid = curve_a.grid
    order = np.argsort(grid, kind="stable")
    grid = grid[order]
    # "goodness" of A over B: positive where A is better.
    diff = curve_a.values[order] - curve_b.values[order]
    if curve_a.kind == "loss":
        diff = -diff
    scale = 1.0 + max(float(np.max(np.abs(curve_a.values[np.isfinite(curve_a.values)]), initial=0.0)),
                      float(np.max(np.abs(curve_b.values[np.isfinite(curve_b.values)]), initial=0.0)))
    sign = np.where(np.abs(diff) <= tol * scale, 0, np.sign(diff)).astype(int)
    gmin = float(grid[0])
    gmax = float(grid[-1])
    if np.all(sign == 0):
        verdict = "equal"
    elif np.all(sign >= 0):
        verdict = "A dominates"
    elif np.all(sign <= 0):
        verdict = "B dominates"
    else:
        verdict = "cross"
    crossings: list[float] = []
    segments: list[Segment] = []
    # Segments of constant sign; crossings between a + and a - (interpolated) or in the middle of a tie run.
    nonzero = np.flatnonzero(sign != 0)
    if nonzero.size:
        start = gmin
        current = sign[nonzero[0]]
        for prev, nxt in zip(nonzero[:-1], nonzero[1:]):
            if sign[nxt] == current:
                continue
            if nxt == prev + 1:
                g0, g1, d0, d1 = grid[prev], grid[nxt], diff[prev], diff[nxt]
                if np.isfinite(g0) and np.isfinite(g1):
                    point = float(g0 + (g1 - g0) * d0 / (d0 - d1))
                else:
                    point = float(g0 if np.isfinite(g0) else g1)
            else:
                point = float(grid[(prev + nxt) // 2])
            crossings.append(point)
            segments.append(Segment(start, point, "A" if current > 0 else "B"))
            start, current = point, sign[nxt]
        segments.append(Segment(start, gmax, "A" if current > 0 else "B"))
    else:
        segments.append(Segment(gmin, gmax, "equal"))
    return DominanceResult(verdict, curve_a.kind, tuple(crossings), tuple(segments), gmin, gmax, tol)


# --------------------------------------------------------------------------------------- calibration
@dataclass(frozen=True)
class CalibrationPoint:
    """Where a masking configuration sits for a controller's aversions (000 Section VI-B).

    ``risk`` is D(alpha_1, beta) (higher: more protection), ``loss`` is I(theta_2, pi)
    (lower: more information kept); ``parameter`` is the masking parameter, if any.
    """

    label: str
    risk: float
    loss: float
    parameter: float | None = None


def calibration_point(displacements: ArrayLike, alpha: float, theta: float, *, beta: float = 1.0, pi: float = 1.0,
                      label: str = "", parameter: float | None = None, zero: float = ZERO_DISPLACEMENT,
                      normalize: bool = False) -> CalibrationPoint:
    """The point (D(alpha_1, beta), I(theta_2, pi)) of one configuration (000 Eq. 8, 002 Props. 6-7).

    Notes
    -----
    000 Section VI-B: a controller with risk aversion ``alpha_1 < 1`` and loss
    aversion ``alpha_2 = theta > 1`` evaluates ``J(p, alpha_1)`` and ``J(p, alpha_2)``
    to calibrate a method; at the data-set level these are D(alpha_1, beta) and
    I(theta_2, pi).  With one attribute the loss is reported as 0.

    Examples
    --------
    >>> R = np.array([[0, 3, 0], [0, 0, 2], [0, 0, 2], [0, 1, -2], [0, -4, -2]])
    >>> point = calibration_point(R, 1, 1)
    >>> round(point.risk, 4), round(point.loss, 4)
    (1.0667, 1.8667)
    """
    R = _matrix(displacements, "displacements")
    a = _exponent(alpha, "alpha")
    t = _exponent(theta, "theta")
    risk = float(overall_risk_curve(R, [a], beta, zero=zero, normalize=normalize).values[0])
    loss = 0.0 if R.shape[1] < 2 else float(overall_loss_curve(R, [t], pi, normalize=normalize).values[0])
    return CalibrationPoint(label, risk, loss, parameter)


def best_calibration(points: Sequence[CalibrationPoint], risk_target: float) -> CalibrationPoint | None:
    """The point with the least loss among those whose D reaches ``risk_target`` (None if none does).

    Examples
    --------
    >>> pts = [CalibrationPoint("a", 1.0, 0.5), CalibrationPoint("b", 2.0, 0.9), CalibrationPoint("c", 3.0, 2.0)]
    >>> best_calibration(pts, 1.5).label
    'b'
    """
    target = check_number(risk_target, "risk_target", minimum=0.0)
    meeting = [p for p in points if p.risk >= target]
    if not meeting:
        return None
    return min(meeting, key=lambda p: (p.loss, -p.risk))


# ------------------------------------------------------------------------- from data to displacements
DISPLACEMENT_CONVENTIONS = ("position", "rank")


def displacement_matrix(X: Any, Y: Any, rng: Any = None, *, ties: str = "first",
                        convention: str = "position") -> np.ndarray:
    """The ``n x p`` matrix of signed rank displacements r_j of an anonymized data set (002 Section 3).

    Each attribute of Y is reverse-mapped onto X (004 Algorithm 1,
    :func:`explorer.core.permutation.reverse_map_frame`) and r_j is read off the
    permutation (:func:`explorer.core.permutation.rank_displacement`); zero
    displacements are written as 0 (the measures turn them into 1e-8 where needed).

    Parameters
    ----------
    X, Y : array_like (n, p) or DataFrame
        Original and anonymized data (same shape).
    rng : numpy Generator or int seed, optional
        Breaks ties at random when ``ties="random"``.
    ties : {"first", "random"}
        ``"first"`` (default) ranks equal values in order of appearance in both X
        and Y, so an unmasked attribute has no displacement even with many ties
        (Adult's capital-gain is 92 % zeros).  ``"random"`` (004's choice, meant for
        tie-free data) breaks ties independently in X and Y: equal values then
        look permuted although nothing was masked.
    convention : {"position", "rank"}
        ``"position"`` (default, 002's convention): ``r[k]`` is how many record
        positions the value of record k moved in ``Z = P X``; it reproduces 002's
        r_1, r_2, r_3 and gives ``Delta(r_k) = 0`` when two attributes share a
        permutation (002 Prop. 4), but it depends on the order of the records.
        ``"rank"``: ``rank(y_k) - rank(x_k)``, the rank distance of 004/000 Eq. (8),
        independent of record order (the same for ``D_j``'s purpose, but two attributes
        permuted together do not give ``Delta = 0``).

    Examples
    --------
    >>> from explorer.core.datasets import ruiz_example
    >>> t = ruiz_example()
    >>> displacement_matrix(t[["X1", "X2", "X3"]], t[["Y1", "Y2", "Y3"]]).T.astype(int).tolist()
    [[0, 0, 0, 0, 0], [3, 0, 0, 1, -4], [0, 2, 2, -2, -2]]
    """
    from explorer.core import permutation

    if convention not in DISPLACEMENT_CONVENTIONS:
        raise InvalidParameterError(f"convention must be one of {DISPLACEMENT_CONVENTIONS}, got {convention!r}")
    generator = check_rng(rng)
    if convention == "rank":
        x, _ = permutation.numeric_matrix(X, "X")
        y, _ = permutation.numeric_matrix(Y, "Y")
        if x.shape != y.shape:
            raise InvalidParameterError(f"X and Y must have the same shape, got {x.shape} and {y.shape}")
        return np.column_stack([
            permutation.ranks(y[:, j], ties, generator).astype(float)
            - permutation.ranks(x[:, j], ties, generator).astype(float) for j in range(x.shape[1])])
    Z = permutation.reverse_map_frame(X, Y, generator, ties=ties)
    x, _ = permutation.numeric_matrix(X, "X")
    z = np.asarray(Z, dtype=float)
    if z.ndim == 1:
        z = z[:, None]
    return np.column_stack([permutation.rank_displacement(x[:, j], z[:, j], ties="first", zero=0.0)
                            for j in range(x.shape[1])])


def masked_displacements(X: Any, method: str, parameter: Any = None, rng: Any = None, *,
                         convention: str = "position") -> np.ndarray:
    """Mask X with a method of :data:`explorer.core.masking.MASKING_METHODS` and return its displacements.

    Examples
    --------
    >>> X = np.arange(20.0).reshape(10, 2)
    >>> float(np.abs(masked_displacements(X, "identity")).max())
    0.0
    """
    from explorer.core import masking

    generator = check_rng(rng)
    x, _ = _numeric(X)
    Y = masking.mask(x, method, parameter, generator)
    return displacement_matrix(x, Y, generator, convention=convention)


def _numeric(X: Any) -> tuple[np.ndarray, list[str]]:
    from explorer.core import permutation

    return permutation.numeric_matrix(X, "X")


def calibration_path(X: Any, method: str, parameters: Sequence[float], alpha: float, theta: float, *,
                     beta: float = 1.0, pi: float = 1.0, rng: Any = None, normalize: bool = False,
                     label: str = "", convention: str = "position") -> list[CalibrationPoint]:
    """The path (D(alpha_1, beta), I(theta_2, pi)) a masking method traces as its parameter grows (000 VI-B).

    Each parameter value masks X afresh with a generator seeded from ``rng``.

    Examples
    --------
    >>> X = np.random.default_rng(0).normal(size=(200, 3))
    >>> path = calibration_path(X, "additive_noise", [0.0, 1.0], 0, 2, rng=1)
    >>> path[0].risk < 1e-7 < 1 < path[1].risk, path[0].loss == 0 < path[1].loss
    (True, True)
    """
    from explorer.core import masking

    generator = check_rng(rng)
    x, _ = _numeric(X)
    seeds = generator.integers(0, 2 ** 63 - 1, size=len(parameters))
    points = []
    for value, seed in zip(parameters, seeds):
        R = displacement_matrix(x, masking.mask(x, method, value, int(seed)), int(seed), convention=convention)
        points.append(calibration_point(R, alpha, theta, beta=beta, pi=pi, label=label, parameter=float(value),
                                        normalize=normalize))
    return points


def sample_records(X: ArrayLike, max_records: int | None, rng: Any = None) -> np.ndarray:
    """At most ``max_records`` rows of X, drawn without replacement (all of X when it is small or None/0).

    The rows keep their original order, so a sample of a sorted file stays sorted.

    Examples
    --------
    >>> sample_records(np.arange(10.0).reshape(5, 2), 3, rng=0).shape
    (3, 2)
    """
    x = np.asarray(X)
    if max_records is None or max_records == 0 or x.shape[0] <= max_records:
        return x
    from explorer._validation import check_int

    size = check_int(max_records, "max_records", minimum=2)
    keep = np.sort(check_rng(rng).choice(x.shape[0], size=size, replace=False))
    return x[keep]


def curves_table(curves: Sequence[Curve], verdicts: Sequence[str] = ()):
    """Curves (and verdict sentences) as one long table for CSV export.

    Columns: ``kind`` (risk, loss or verdict), ``label``, ``parameter`` (alpha or
    theta), ``value``, ``text``.

    Examples
    --------
    >>> table = curves_table([risk_curve([3, 0, 0, 1, -4], [0.5, 1], label="r2")], ["r2 only"])
    >>> table[["kind", "label", "parameter"]].values.tolist()[1:]
    [['risk', 'r2', 1.0], ['verdict', '', nan]]
    """
    import pandas as pd

    rows = [{"kind": c.kind, "label": c.label, "parameter": float(g), "value": float(v), "text": ""}
            for c in curves for g, v in zip(c.grid, c.values)]
    rows += [{"kind": "verdict", "label": "", "parameter": np.nan, "value": np.nan, "text": t} for t in verdicts]
    return pd.DataFrame(rows, columns=["kind", "label", "parameter", "value", "text"])
