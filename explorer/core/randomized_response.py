"""Randomized response (RR) matrices, randomization and frequency estimation.

Papers: 000 Sections II-III (Eqs. 1, 2 and 6) and 003 Sections 2.1-2.3 and
6.3-6.4.  An RR matrix is row-stochastic, ``P[u, v] = Pr(Y = v | X = u)``
(000 Eq. 1).  Categories are integer codes ``0 .. r-1``.

Designs
    :func:`warner_matrix`, :func:`keep_or_uniform_matrix` (003 Prop. 1, see the
    erratum of 003 Section 6.3.1 in PAPER_NOTES.md), :func:`optimal_matrix`
    (the least randomization that is epsilon-DP, 003 Section 2.3) and
    :func:`identity_matrix` (no randomization, epsilon = inf).
Privacy
    :func:`epsilon_of` (000 Eq. 6) and :func:`epsilon_column`.
Data
    :func:`randomize` (vectorized, O(n)), :func:`estimate_frequencies`
    (inversion, clip-and-rescale, Euclidean simplex projection, iterative
    Bayesian update) and :func:`error_bounds` (003 Eqs. 5-6).
"""

from __future__ import annotations

import math
import numbers
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from explorer._validation import (
    check_epsilon,
    check_int,
    check_number,
    check_probability,
    check_rng,
    check_rr_matrix,
    check_weights,
)
from explorer.errors import (
    ExplorerTypeError,
    InvalidDistributionError,
    InvalidParameterError,
    SingularMatrixError,
)

__all__ = [
    "MAX_CATEGORIES",
    "ESTIMATION_METHODS",
    "IllConditionedMatrixWarning",
    "FrequencyEstimate",
    "ErrorBounds",
    "warner_matrix",
    "keep_or_uniform_matrix",
    "optimal_matrix",
    "identity_matrix",
    "check_matrix",
    "epsilon_of",
    "epsilon_column",
    "randomize",
    "report_counts",
    "estimate_frequencies",
    "clip_and_rescale",
    "project_to_simplex",
    "error_bounds",
    "estimate_error_bound",
    "keep_probability_for_epsilon",
]

#: Largest number of categories the matrix designs accept by default (the issue's domain).
MAX_CATEGORIES = 64

#: The estimation methods of :func:`estimate_frequencies`.
ESTIMATION_METHODS = ("inversion", "clip", "simplex", "ibu")

#: A matrix whose condition number exceeds this is singular for the inversion estimator.
SINGULAR_CONDITION = 1e12
#: Above this condition number the inversion estimator warns that it amplifies noise.
ILL_CONDITIONED = 1e6


class IllConditionedMatrixWarning(UserWarning):
    """The RR matrix is nearly singular: Eq. (2) amplifies sampling noise a lot."""


@dataclass(frozen=True)
class FrequencyEstimate:
    """The result of :func:`estimate_frequencies`.

    Attributes
    ----------
    estimate : ndarray
        The estimated true distribution pi-hat (a proper distribution except for
        ``method="inversion"``, whose entries may be negative or above 1).
    raw : ndarray
        The plain inversion (000 Eq. 2); NaN when the matrix is singular
        (possible only with ``method="ibu"``).
    method : str
        The method used.
    iterations : int
        Iterations of the iterative Bayesian update (0 for the closed forms).
    converged : bool
        Whether the update met its tolerance (always True for closed forms).
    lambda_hat : ndarray
        The observed distribution of the reports.
    n : int
        The number of reports.
    """

    estimate: np.ndarray
    raw: np.ndarray
    method: str
    iterations: int
    converged: bool
    lambda_hat: np.ndarray | None = None
    n: int = 0


@dataclass(frozen=True)
class ErrorBounds:
    """Error of the observed report distribution lambda-hat (003 Eqs. 5-6).

    Attributes
    ----------
    e_abs : float
        Absolute error, Eq. (5).
    e_rel : float
        Relative error, Eq. (6) (infinite when some lambda_u is 0).
    B : float
        The upper alpha/r point of chi-square with one degree of freedom.
    alpha : float
        One minus the confidence level.
    n : int
        The sample size.
    """

    e_abs: float
    e_rel: float
    B: float
    alpha: float = 0.05
    n: int = 0


# --------------------------------------------------------------------------- designs


def _check_categories(n_categories: Any, max_categories: int) -> int:
    return check_int(n_categories, "n_categories", minimum=2, maximum=max_categories)


def warner_matrix(p: float) -> np.ndarray:
    """Warner's RR matrix for a yes/no question: tell the truth with probability ``p``.

    Parameters
    ----------
    p : float
        Probability of reporting the true answer, in [0, 1].

    Returns
    -------
    ndarray, shape (2, 2)
        ``[[p, 1 - p], [1 - p, p]]``.

    Notes
    -----
    Its epsilon (000 Eq. 6) is ``|ln(p / (1 - p))|``: p = 0.75 gives ln 3.
    p = 1/2 gives perfect secrecy (and a singular matrix).

    Examples
    --------
    >>> warner_matrix(0.75).tolist()
    [[0.75, 0.25], [0.25, 0.75]]
    """
    p = check_probability(p, "p")
    return np.array([[p, 1.0 - p], [1.0 - p, p]])


def keep_or_uniform_matrix(n_categories: int, p: float, *, max_categories: int = MAX_CATEGORIES) -> np.ndarray:
    """Keep the true value with probability ``p``, otherwise draw uniformly from all categories.

    Parameters
    ----------
    n_categories : int
        Number of categories r (2 to ``max_categories``).
    p : float
        Probability of keeping the true value, in [0, 1].

    Returns
    -------
    ndarray, shape (r, r)
        ``p + (1 - p) / r`` on the diagonal, ``(1 - p) / r`` off it.

    Notes
    -----
    This is the mechanism 003 analyses in Prop. 1 and Corollary 1.  The matrix
    printed in 003 Section 6.3.1 (p on the diagonal, (1 - p)/r off it) is not
    row-stochastic (PAPER_NOTES.md erratum); this function implements the
    mechanism, whose epsilon is ``ln(1 + p r / (1 - p))``.

    Examples
    --------
    >>> keep_or_uniform_matrix(2, 0.5).tolist()
    [[0.75, 0.25], [0.25, 0.75]]
    """
    r = _check_categories(n_categories, max_categories)
    p = check_probability(p, "p")
    off = (1.0 - p) / r
    matrix = np.full((r, r), off)
    np.fill_diagonal(matrix, p + off)
    return matrix


def keep_probability_for_epsilon(n_categories: int, epsilon: float,
                                 *, max_categories: int = MAX_CATEGORIES) -> float:
    """The ``p`` of :func:`keep_or_uniform_matrix` whose epsilon is ``epsilon``.

    Notes
    -----
    Inverts ``epsilon = ln(1 + p r / (1 - p))``: ``p = (e^eps - 1) / (e^eps - 1 + r)``.
    At that p the keep-or-uniform matrix equals :func:`optimal_matrix`.

    Examples
    --------
    >>> round(keep_probability_for_epsilon(2, math.log(3)), 6)
    0.5
    """
    r = _check_categories(n_categories, max_categories)
    epsilon = check_epsilon(epsilon)
    if math.isinf(epsilon):
        return 1.0
    grow = math.expm1(epsilon)
    return grow / (grow + r) if math.isfinite(grow) else 1.0


def optimal_matrix(n_categories: int, epsilon: float, *, max_categories: int = MAX_CATEGORIES) -> np.ndarray:
    """The least randomization that is epsilon-DP: the error-propagation-optimal matrix.

    Parameters
    ----------
    n_categories : int
        Number of categories r (2 to ``max_categories``).
    epsilon : float
        Non-negative; ``inf`` gives the identity (no randomization).

    Returns
    -------
    ndarray, shape (r, r)
        ``e^eps / (e^eps + r - 1)`` on the diagonal, ``1 / (e^eps + r - 1)`` off it.

    Notes
    -----
    The form p_u on the diagonal and p_d off it minimizes error propagation
    (003 Section 2.3); the largest p_u / p_d allowed by 000 Eq. (6) is e^eps.
    Computed as ``1 / (1 + (r - 1) e^-eps)`` so that large epsilons do not
    overflow.  ``epsilon_of(optimal_matrix(r, eps)) == eps`` up to rounding.

    Examples
    --------
    >>> optimal_matrix(2, math.log(3)).round(4).tolist()
    [[0.75, 0.25], [0.25, 0.75]]
    >>> optimal_matrix(3, float("inf")).tolist()[0]
    [1.0, 0.0, 0.0]
    """
    r = _check_categories(n_categories, max_categories)
    epsilon = check_epsilon(epsilon)
    if math.isinf(epsilon):
        return np.eye(r)
    shrink = math.exp(-epsilon)
    diagonal = 1.0 / (1.0 + (r - 1) * shrink)
    off = shrink * diagonal
    matrix = np.full((r, r), off)
    np.fill_diagonal(matrix, diagonal)
    return matrix


def identity_matrix(n_categories: int, *, max_categories: int = MAX_CATEGORIES) -> np.ndarray:
    """No randomization: the r x r identity (epsilon = inf).

    Examples
    --------
    >>> identity_matrix(2).tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    r = _check_categories(n_categories, max_categories)
    return np.eye(r)


def check_matrix(matrix: ArrayLike, name: str = "matrix") -> np.ndarray:
    """Validate a custom RR matrix (square, entries in [0, 1], rows summing to 1).

    A thin alias of :func:`explorer._validation.check_rr_matrix`; the message
    names the first bad row and its sum.

    Examples
    --------
    >>> check_matrix([[0.5, 0.4], [0.5, 0.5]])
    Traceback (most recent call last):
    ...
    explorer.errors.InvalidMatrixError: matrix row 1 sums to 0.9, not 1
    """
    return check_rr_matrix(matrix, name)


# --------------------------------------------------------------------------- epsilon


def _column_ratios(p: np.ndarray) -> np.ndarray:
    """Per column max/min (000 Eq. 6); inf for a column mixing 0 and non-0; 1 for an all-zero column."""
    column_max, column_min = p.max(axis=0), p.min(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios = np.where(column_max > 0, column_max / np.where(column_min > 0, column_min, 0.0), 1.0)
    return ratios


def epsilon_of(matrix: ArrayLike) -> float:
    """Smallest epsilon for which the RR matrix is epsilon-DP (000 Eq. 6).

    Parameters
    ----------
    matrix : array_like, shape (r, r)
        A row-stochastic RR matrix.

    Returns
    -------
    float
        ``ln max_v (max_u P[u, v] / min_u P[u, v])``; ``inf`` when a column mixes
        zero and non-zero entries; a column nobody reports (all zero) is ignored.

    Notes
    -----
    000 Eq. (6): e^eps >= max_v max_u p_uv / min_u p_uv (003 Eq. 4).

    Examples
    --------
    >>> round(epsilon_of([[0.75, 0.25], [0.25, 0.75]]), 4)   # ln 3
    1.0986
    >>> epsilon_of([[0.5, 0.5], [0.5, 0.5]])
    0.0
    """
    p = check_rr_matrix(matrix)
    ratio = float(np.max(_column_ratios(p)))
    return math.inf if math.isinf(ratio) else max(0.0, math.log(ratio))


def epsilon_column(matrix: ArrayLike) -> int:
    """The (0-based) column of ``matrix`` whose max/min ratio gives :func:`epsilon_of`.

    Ties go to the lowest column.

    Examples
    --------
    >>> epsilon_column([[0.6, 0.4], [0.1, 0.9]])
    0
    """
    p = check_rr_matrix(matrix)
    return int(np.argmax(_column_ratios(p)))


# --------------------------------------------------------------------------- data


def _check_codes(codes: Any, r: int, name: str = "codes", *, allow_empty: bool = True) -> np.ndarray:
    try:
        array = np.asarray(codes)
    except (TypeError, ValueError):
        raise ExplorerTypeError(f"{name} must be an array of integer codes") from None
    if array.ndim != 1:
        raise InvalidParameterError(f"{name} must be a 1-D array of codes, got shape {array.shape}")
    if array.size == 0:
        if not allow_empty:
            raise InvalidDistributionError(f"{name} must not be empty (an empty sample)")
        return array.astype(np.int64)
    if array.dtype.kind == "b" or array.dtype.kind not in "iuf":
        raise ExplorerTypeError(f"{name} must be integer codes 0..{r - 1}, got values of type {array.dtype}")
    if array.dtype.kind == "f":
        if not np.all(np.isfinite(array)) or not np.all(array == np.round(array)):
            raise ExplorerTypeError(f"{name} must be integer codes 0..{r - 1}, got non-integer values")
    low, high = array.min(), array.max()
    if low < 0 or high > r - 1:
        bad = low if low < 0 else high
        raise InvalidParameterError(f"{name} must be integer codes 0..{r - 1}, got {bad:g}")
    return array.astype(np.intp, copy=False)


def _row_cumulative(p: np.ndarray) -> np.ndarray:
    """Cumulative rows, with every entry from a row's last non-zero category on set to exactly 1.

    A category of probability 0 then never holds a draw in [0, 1): its interval is empty even
    after rounding (000 Eq. 1 rows sum to 1 only within 1e-9).
    """
    cumulative = np.cumsum(p, axis=1)
    r = p.shape[1]
    last = r - 1 - np.argmax(p[:, ::-1] > 0, axis=1)
    cumulative[np.arange(r)[None, :] >= last[:, None]] = 1.0
    return cumulative


def _category_of_draws(cumulative: np.ndarray, rows: np.ndarray, draws: np.ndarray) -> np.ndarray:
    """Exact inverse CDF per respondent: the number of entries of ``cumulative[rows[i]]`` <= ``draws[i]``.

    Small inputs: one comparison per (respondent, category).  Large inputs: a table of
    K = 1024 equal bins per row gives the category of every draw whose bin holds no
    boundary; the few others (at most r - 1 bins of K per row) are resolved exactly
    with ``searchsorted`` after grouping them by row.  No Python loop over respondents.
    """
    n_rows, r = cumulative.shape
    n = rows.size
    if n * r <= 2_000_000:
        return (draws[:, None] >= cumulative[rows]).sum(axis=1)
    bins = 1024                                              # a power of 2: draws * bins is exact
    edges = np.arange(bins + 1) / bins
    dtype = np.int8 if r < 127 else np.int16 if r < 32_000 else np.int64
    table = np.empty((n_rows, bins), dtype=dtype)            # category of a bin, -1 if a boundary is inside
    for u in range(n_rows):                                  # a loop over categories, not respondents
        low = np.searchsorted(cumulative[u], edges[:-1], side="right")
        high = np.searchsorted(cumulative[u], edges[1:], side="left")
        table[u] = np.where(low == high, low, -1)
    cell = rows * bins
    cell += (draws * bins).astype(np.intp)
    out = table.ravel()[cell].astype(np.int64)
    unsure = np.flatnonzero(out < 0)
    if unsure.size:
        order = unsure[np.argsort(rows[unsure], kind="stable")]
        sorted_rows = rows[order]
        bounds = np.searchsorted(sorted_rows, np.arange(n_rows + 1))
        for u in np.flatnonzero(np.diff(bounds)):
            chosen = order[bounds[u]:bounds[u + 1]]
            out[chosen] = np.searchsorted(cumulative[u], draws[chosen], side="right")
    return out


def randomize(codes: ArrayLike, matrix: ArrayLike, rng: Any = None) -> np.ndarray:
    """Randomize true codes with an RR matrix: each ``u`` is reported as ``v`` w.p. ``P[u, v]``.

    Parameters
    ----------
    codes : array_like of int, shape (n,)
        True categories, integer codes ``0 .. r-1``.
    matrix : array_like, shape (r, r)
        The RR matrix (000 Eq. 1).
    rng : numpy.random.Generator, int or None
        Source of randomness (same seed, same reports).

    Returns
    -------
    ndarray of int, shape (n,)
        The reported codes.

    Notes
    -----
    One uniform draw d per respondent; the report is the smallest v with
    d < P[u, 0] + ... + P[u, v] (inverse CDF of row u), found for all respondents
    at once (a per-row bin table plus an exact fallback near the boundaries), so
    the work is O(n) with no Python loop over respondents.  A category of
    probability 0 is never reported.

    Examples
    --------
    >>> randomize([0, 1, 1, 0], identity_matrix(2), rng=0).tolist()
    [0, 1, 1, 0]
    >>> reports = randomize([0] * 1000, warner_matrix(0.75), rng=1)
    >>> 0.7 < float((reports == 0).mean()) < 0.8
    True
    """
    p = check_rr_matrix(matrix)
    r = p.shape[0]
    x = _check_codes(codes, r)
    generator = check_rng(rng)
    if x.size == 0:
        return np.zeros(0, dtype=np.int64)
    draws = generator.random(x.size)
    return _category_of_draws(_row_cumulative(p), x, draws).astype(np.int64, copy=False)


def report_counts(reports: ArrayLike, n_categories: int) -> np.ndarray:
    """Counts of each reported code ``0 .. r-1`` (an empty sample is an error).

    Examples
    --------
    >>> report_counts([0, 1, 1], 3).tolist()
    [1, 2, 0]
    """
    r = check_int(n_categories, "n_categories", minimum=1)
    y = _check_codes(reports, r, "reports", allow_empty=False)
    return np.bincount(y, minlength=r)


def clip_and_rescale(vector: ArrayLike) -> np.ndarray:
    """Replace negative entries by 0 and rescale to sum 1 (003 Section 6.4's procedure).

    Notes
    -----
    003 Section 6.4 calls this the closest proper distribution in Euclidean
    distance; it is not (PAPER_NOTES.md erratum): for (0.9, 0.3, -0.2) it gives
    (0.75, 0.25, 0), the projection (:func:`project_to_simplex`) gives (0.8, 0.2, 0).

    Examples
    --------
    >>> clip_and_rescale([0.9, 0.3, -0.2]).round(4).tolist()
    [0.75, 0.25, 0.0]
    """
    v = _check_vector(vector, "vector")
    clipped = np.clip(v, 0.0, None)
    total = clipped.sum()
    if not total > 0:
        raise InvalidDistributionError(
            f"vector has no positive entry to rescale: {np.array2string(v, precision=4)}")
    return clipped / total


def project_to_simplex(vector: ArrayLike) -> np.ndarray:
    """The Euclidean projection of a vector onto the probability simplex.

    Notes
    -----
    The sort-based algorithm (Held, Wolfe and Crowder 1974; Duchi et al. 2008):
    sort ``v`` decreasingly as ``s``; ``rho = max {j : s_j - (sum_{i<=j} s_i - 1)/j > 0}``;
    ``theta = (sum_{i<=rho} s_i - 1)/rho``; the projection is ``max(v - theta, 0)``.

    Examples
    --------
    >>> project_to_simplex([0.9, 0.3, -0.2]).round(4).tolist()
    [0.8, 0.2, 0.0]
    """
    v = _check_vector(vector, "vector")
    s = np.sort(v)[::-1]
    cumulative = np.cumsum(s) - 1.0
    j = np.arange(1, v.size + 1)
    rho = int(np.flatnonzero(s - cumulative / j > 0)[-1]) + 1
    theta = cumulative[rho - 1] / rho
    projected = np.maximum(v - theta, 0.0)
    return projected / projected.sum()  # removes rounding drift; the sum is 1 already


def _check_vector(vector: Any, name: str) -> np.ndarray:
    try:
        v = np.asarray(vector, dtype=float)
    except (TypeError, ValueError):
        raise ExplorerTypeError(f"{name} must be an array of numbers") from None
    if v.ndim != 1 or v.size == 0:
        raise InvalidParameterError(f"{name} must be a non-empty vector, got shape {v.shape}")
    if not np.all(np.isfinite(v)):
        raise InvalidParameterError(f"{name} must be finite numbers, got {np.array2string(v, precision=4)}")
    return v


def _inverse_transpose(p: np.ndarray) -> np.ndarray | None:
    """(P^T)^-1, or None when P is singular (condition number above SINGULAR_CONDITION)."""
    condition = np.linalg.cond(p)
    if not np.isfinite(condition) or condition > SINGULAR_CONDITION:
        return None
    if condition > ILL_CONDITIONED:
        warnings.warn(
            f"the RR matrix is ill-conditioned (condition number {condition:.3g}): "
            "the inversion estimate amplifies sampling noise; consider method='ibu'",
            IllConditionedMatrixWarning, stacklevel=3)
    try:
        return np.linalg.inv(p.T)
    except np.linalg.LinAlgError:
        return None


def _ibu(p: np.ndarray, lambda_hat: np.ndarray, tol: float, max_iter: int,
         start: np.ndarray | None = None) -> tuple[np.ndarray, int, bool]:
    """Iterative Bayesian update (Agrawal and Aggarwal 2001; 003 Section 2.1, ref. [2]).

    pi_{t+1}(u) = sum_v lambda_hat(v) pi_t(u) P[u, v] / sum_u' pi_t(u') P[u', v],
    from ``start`` (uniform if None), until no entry moves by ``tol`` or more.
    """
    r = p.shape[0]
    pi = np.full(r, 1.0 / r) if start is None else start.copy()
    used = lambda_hat > 0
    pu = np.ascontiguousarray(p[:, used])
    lu = lambda_hat[used]
    predicted = np.empty(lu.size)
    weight = np.empty(lu.size)
    new = np.empty(r)
    change = np.empty(r)
    with np.errstate(divide="ignore", invalid="ignore"):
        for iteration in range(1, max_iter + 1):
            np.dot(pi, pu, out=predicted)                 # lambda under the current pi
            np.divide(lu, predicted, out=weight)
            np.dot(pu, weight, out=new)
            np.multiply(new, pi, out=new)
            total = new.sum()
            if not math.isfinite(total):                  # a report impossible under pi: drop its term
                ok = predicted > 0
                new = pi * (pu[:, ok] @ (lu[ok] / predicted[ok]))
                total = new.sum()
            if total > 0:
                new /= total
            np.subtract(new, pi, out=change)
            np.abs(change, out=change)
            pi, new = new, pi
            if change.max() < tol:
                return pi, iteration, True
    return pi, max_iter, False


def estimate_frequencies(values: ArrayLike, matrix: ArrayLike, method: str = "inversion", *,
                         kind: str = "reports", tol: float = 1e-10, max_iter: int = 10_000) -> FrequencyEstimate:
    """Estimate the true distribution pi from randomized reports (000 Eq. 2, 003 Sections 2.1 and 6.4).

    Parameters
    ----------
    values : array_like
        Reported codes (``kind="reports"``) or counts per reported category
        (``kind="counts"``).
    matrix : array_like, shape (r, r)
        The RR matrix that produced the reports.
    method : {"inversion", "clip", "simplex", "ibu"}
        ``"inversion"``: pi-hat = (P^T)^-1 lambda-hat, unbiased but possibly
        negative; ``"clip"``: negatives to 0 then rescale (003 Section 6.4);
        ``"simplex"``: the Euclidean projection of the inversion onto the
        simplex; ``"ibu"``: iterative Bayesian update (also works for a singular
        matrix).  The update starts from the inversion when that is strictly
        positive (it is then the update's fixed point and the maximum-likelihood
        estimate, so one step confirms it), otherwise from the uniform distribution.
    kind : {"reports", "counts"}
    tol, max_iter
        Stopping rule of ``"ibu"`` (largest change of an entry, iteration cap).

    Returns
    -------
    FrequencyEstimate

    Raises
    ------
    SingularMatrixError
        When ``P`` is singular and the method needs the inversion (use "ibu").

    Notes
    -----
    lambda = P^T pi (003 Section 2.1), so pi-hat = (P^T)^-1 lambda-hat (Eq. 2).
    An ill-conditioned matrix gives an :class:`IllConditionedMatrixWarning`.

    Examples
    --------
    >>> result = estimate_frequencies([60, 40], warner_matrix(0.75), kind="counts")
    >>> result.estimate.round(4).tolist()
    [0.7, 0.3]
    >>> estimate_frequencies([20, 80], warner_matrix(0.75), kind="counts").estimate.round(4).tolist()
    [-0.1, 1.1]
    >>> estimate_frequencies([20, 80], warner_matrix(0.75), "simplex", kind="counts").estimate.round(4).tolist()
    [0.0, 1.0]
    """
    p = check_rr_matrix(matrix)
    r = p.shape[0]
    if not isinstance(method, str) or method not in ESTIMATION_METHODS:
        raise InvalidParameterError(f"method must be one of {', '.join(ESTIMATION_METHODS)}, got {method!r}")
    if kind == "reports":
        counts = np.bincount(_check_codes(values, r, "reports", allow_empty=False), minlength=r).astype(float)
    elif kind == "counts":
        counts = check_weights(values, "counts", size=r)
    else:
        raise InvalidParameterError(f"kind must be 'reports' or 'counts', got {kind!r}")
    tol = check_number(tol, "tol", minimum=0.0, include_minimum=False)
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    n = counts.sum()
    lambda_hat = counts / n

    inverse = _inverse_transpose(p)
    if inverse is None:
        if method != "ibu":
            raise SingularMatrixError(
                f"matrix is singular (its rows are linearly dependent, as under perfect secrecy), "
                f"so method {method!r} cannot invert it; use method='ibu'")
        raw = np.full(r, np.nan)
    else:
        raw = inverse @ lambda_hat

    iterations, converged = 0, True
    if method == "inversion":
        estimate = raw
    elif method == "clip":
        estimate = clip_and_rescale(raw)
    elif method == "simplex":
        estimate = project_to_simplex(raw)
    else:
        # A strictly positive inversion is already the fixed point of the update (P^T raw = lambda-hat,
        # so one step returns it): start there; otherwise start from the uniform distribution.
        start = raw if np.all(np.isfinite(raw)) and np.all(raw > 0) else None
        estimate, iterations, converged = _ibu(p, lambda_hat, tol, max_iter, start)
    n_int = int(round(n)) if isinstance(n, (numbers.Real, np.floating)) else 0
    return FrequencyEstimate(estimate=estimate, raw=raw, method=method, iterations=iterations,
                             converged=converged, lambda_hat=lambda_hat, n=n_int)


def error_bounds(lambda_hat: ArrayLike, n: int, alpha: float = 0.05) -> ErrorBounds:
    """Absolute and relative error of the report frequencies lambda-hat (003 Eqs. 5-6).

    Parameters
    ----------
    lambda_hat : array_like, shape (r,)
        Observed report distribution (rescaled to sum 1).
    n : int
        Number of reports.
    alpha : float
        One minus the confidence level, in (0, 1).

    Returns
    -------
    ErrorBounds
        ``e_abs``, ``e_rel`` and ``B``.

    Notes
    -----
    e_abs = max_u sqrt(B lambda_u (1 - lambda_u) / n)   (Eq. 5)

    e_rel = max_u sqrt(B (1 - lambda_u) / (lambda_u n))  (Eq. 6)

    B is the upper alpha/r point of chi-square with 1 degree of freedom,
    ``scipy.stats.chi2.isf(alpha / r, 1)`` (PAPER_NOTES.md).  e_rel is infinite
    when some lambda_u is 0.

    Examples
    --------
    >>> bounds = error_bounds([0.5, 0.5], 100)
    >>> round(bounds.B, 4), round(bounds.e_abs, 4), round(bounds.e_rel, 4)
    (5.0239, 0.1121, 0.2241)
    """
    lam = check_weights(lambda_hat, "lambda_hat")
    lam = lam / lam.sum()
    n = check_int(n, "n", minimum=1)
    alpha = check_number(alpha, "alpha", minimum=0.0, maximum=1.0, include_minimum=False, include_maximum=False)
    r = lam.size
    b = float(stats.chi2.isf(alpha / r, 1))
    e_abs = float(np.max(np.sqrt(b * lam * (1.0 - lam) / n)))
    with np.errstate(divide="ignore"):
        e_rel = float(np.max(np.sqrt(b * (1.0 - lam) / (lam * n)))) if np.all(lam > 0) else math.inf
    return ErrorBounds(e_abs=e_abs, e_rel=e_rel, B=b, alpha=alpha, n=n)


def estimate_error_bound(matrix: ArrayLike, bounds: ErrorBounds) -> float:
    """Bound on max_u |pi-hat_u - pi_u| of the inversion estimate implied by e_abs.

    Notes
    -----
    pi-hat - pi = (P^T)^-1 (lambda-hat - lambda), so with every
    |lambda-hat_u - lambda_u| <= e_abs (Eq. 5, confidence 1 - alpha) each
    |pi-hat_u - pi_u| <= ||(P^T)^-1||_inf e_abs.  Infinite for a singular matrix.

    Examples
    --------
    >>> round(estimate_error_bound(warner_matrix(0.75), error_bounds([0.5, 0.5], 100)), 4)
    0.2241
    """
    p = check_rr_matrix(matrix)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IllConditionedMatrixWarning)
        inverse = _inverse_transpose(p)
    if inverse is None:
        return math.inf
    return float(np.max(np.abs(inverse).sum(axis=1)) * bounds.e_abs)
