"""Frequency estimation from randomized reports, and its error bounds.

One inversion and one iterative Bayesian update serve single-attribute RR
(:func:`estimate_frequencies`) and multi-attribute RR (:func:`make_proper`, used by
RR-Independent, RR-Joint and RR-Clusters), for dense matrices and for the structured
:class:`~explorer.core.rr.mechanisms.GRRMatrix` and
:class:`~explorer.core.rr.mechanisms.KroneckerMatrix` alike.

Estimation
    :func:`inversion_estimate` (pi-hat = (P^T)^-1 lambda-hat, Domingo-Ferrer and Soria-Comas
    (2018), Eq. 2), :func:`clip_and_rescale`, :func:`project_to_simplex`,
    :func:`iterative_bayesian_update` (plain or SQUAREM-accelerated), :func:`make_proper`,
    :func:`estimate_frequencies` and :func:`report_counts`.
Error bounds
    :func:`chi2_factor` (B of Domingo-Ferrer and Soria-Comas (2022), Eqs. 5-6),
    :func:`error_bounds`, :func:`estimate_error_bound`, :func:`relative_error_bound`.

The choices and errata followed are listed in the documentation page "Conventions and errata
followed" (``docs/conventions.md``).

References
----------
.. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
   differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.
.. [2] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
   Transactions on Knowledge and Data Engineering, 2022.
.. [3] R. Agrawal and C. C. Aggarwal, "On the design and quantification of privacy preserving data
   mining algorithms", Proceedings of the 20th ACM SIGMOD-SIGACT-SIGART Symposium on Principles of
   Database Systems (PODS), 247-255, 2001.
.. [4] R. Varadhan and C. Roland, "Simple and globally convergent methods for accelerating the
   convergence of any EM algorithm", Scandinavian Journal of Statistics 35(2):335-353, 2008.
"""

from __future__ import annotations

import math
import numbers
import warnings
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, Callable, Sequence

import numpy as np
from numpy.typing import ArrayLike

from explorer._validation import (
    check_distribution,
    check_int,
    check_number,
    check_probability,
    check_rr_matrix,
    check_weights,
)
from explorer.core.rr.mechanisms import (
    ILL_CONDITIONED,
    SINGULAR_CONDITION,
    GRRMatrix,
    IllConditionedMatrixWarning,
    KroneckerMatrix,
    check_codes,
    matrix_size,
    _solve_transpose,
    n_combinations,
)
from explorer.errors import (
    ExplorerTypeError,
    InvalidDistributionError,
    InvalidParameterError,
    SingularMatrixError,
)

__all__ = [
    "ESTIMATION_METHODS",
    "PROPER_METHODS",
    "SINGULAR_CONDITION",
    "ILL_CONDITIONED",
    "IllConditionedMatrixWarning",
    "FrequencyEstimate",
    "IBUResult",
    "ErrorBounds",
    "report_counts",
    "inversion_estimate",
    "clip_and_rescale",
    "project_to_simplex",
    "iterative_bayesian_update",
    "make_proper",
    "estimate_frequencies",
    "chi2_factor",
    "error_bounds",
    "estimate_error_bound",
    "relative_error_bound",
]

#: The estimation methods of :func:`estimate_frequencies`.
ESTIMATION_METHODS = ("inversion", "clip", "simplex", "ibu")
#: Ways :func:`make_proper` turns an Eq. (2) estimate into a proper distribution.
PROPER_METHODS = ("clip", "simplex", "ibu", "none")
#: SQUAREM's growth factor of the largest step (``mstep``).
_STEP_GROWTH = 4.0
#: SQUAREM's first largest step (``step.max0``).
_STEP_START = 16.0
#: A zero entry whose EM multiplier exceeds 1 by more than this is not at the maximum (KKT check).
_KKT_SLACK = 1e-9
#: The accelerated update stops on a change ``tol * _TIGHTER`` (but not below ``_ROUNDING``, rounding noise).
_TIGHTER = 1e-3
_ROUNDING = 1e-14


@dataclass(frozen=True)
class FrequencyEstimate:
    """The result of :func:`estimate_frequencies`.

    Attributes
    ----------
    estimate : ndarray
        The estimated true distribution pi-hat (a proper distribution except for
        ``method="inversion"``, whose entries may be negative or above 1).
    raw : ndarray
        The plain inversion (Eq. 2); NaN when the matrix is singular (possible only with
        ``method="ibu"``).
    method : str
        The method used.
    iterations : int
        EM updates evaluated by the iterative Bayesian update (0 for the closed forms).
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
class IBUResult:
    """The result of :func:`iterative_bayesian_update`.

    Attributes
    ----------
    estimate : ndarray
        The fixed point reached (a distribution).
    iterations : int
        EM updates evaluated (each costs one product with P^T and one with P).
    converged : bool
        Whether the last EM update moved no entry by ``tol`` or more.
    log_likelihood : float
        ``sum_v lambda_v ln (P^T pi)_v`` at the estimate.
    accelerated : bool
        Whether SQUAREM extrapolation was used.
    """

    estimate: np.ndarray
    iterations: int
    converged: bool
    log_likelihood: float
    accelerated: bool


@dataclass(frozen=True)
class ErrorBounds:
    """Error of the observed report distribution lambda-hat (Domingo-Ferrer and Soria-Comas (2022), Eqs. 5-6).

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

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
       Transactions on Knowledge and Data Engineering, 2022.
    """

    e_abs: float
    e_rel: float
    B: float
    alpha: float = 0.05
    n: int = 0


# --------------------------------------------------------------------------- counting


def report_counts(reports: ArrayLike, n_categories: int) -> np.ndarray:
    """Counts of each reported code 0 to r-1 (an empty sample is an error).

    Examples
    --------
    >>> report_counts([0, 1, 1], 3).tolist()
    [1, 2, 0]
    """
    r = check_int(n_categories, "n_categories", minimum=1)
    y = check_codes(reports, r, "reports")
    return np.bincount(y, minlength=r)


def code_frequencies(flat: np.ndarray, r: int) -> np.ndarray:
    """Relative frequencies of the codes 0 to r - 1 in ``flat``."""
    return np.bincount(flat, minlength=r).astype(float) / max(flat.size, 1)


# --------------------------------------------------------------------------- the inversion


def inversion_estimate(matrix: Any, lambda_hat: ArrayLike) -> np.ndarray:
    """Domingo-Ferrer and Soria-Comas (2018), Eq. (2): pi-hat = (P^T)^-1 lambda-hat, the unbiased estimate of the true distribution.

    Parameters
    ----------
    matrix : array_like (r, r), GRRMatrix or KroneckerMatrix
        The RR matrix.  A dense matrix is solved by LU factorization (``numpy.linalg.solve``,
        with numpy's 1-norm condition number); the structured ones in closed form, factor by
        factor.
    lambda_hat : array_like, shape (r,) or (r, k)
        The observed report distribution (or several, as columns; dense and GRR only).

    Returns
    -------
    ndarray
        pi-hat; its entries may be negative or above 1.

    Raises
    ------
    SingularMatrixError
        When P is singular (1-norm condition number above :data:`SINGULAR_CONDITION`).

    Notes
    -----
    lambda = P^T pi (Domingo-Ferrer and Soria-Comas (2022), Section 2.1), so
    pi-hat = (P^T)^-1 lambda-hat.  A condition number above :data:`ILL_CONDITIONED` gives an
    :class:`IllConditionedMatrixWarning`.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
       differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.
    .. [2] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
       Transactions on Knowledge and Data Engineering, 2022.

    Computes: Domingo-Ferrer and Soria-Comas (2018), Eq. 2; Domingo-Ferrer and Soria-Comas (2022), Eq. 2.

    Examples
    --------
    >>> inversion_estimate([[0.75, 0.25], [0.25, 0.75]], [0.6, 0.4]).round(4).tolist()
    [0.7, 0.3]
    >>> inversion_estimate(GRRMatrix(2, 0.75), [0.6, 0.4]).round(4).tolist()
    [0.7, 0.3]
    """
    lam = np.asarray(lambda_hat, dtype=float)
    if isinstance(matrix, (GRRMatrix, KroneckerMatrix)):
        return matrix.solve(lam)
    return _solve_transpose(check_rr_matrix(matrix), lam)


# --------------------------------------------------------------------------- proper distributions


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


def clip_and_rescale(vector: ArrayLike) -> np.ndarray:
    """Replace negative entries by 0 and rescale to sum 1 (Domingo-Ferrer and Soria-Comas (2022), Section 6.4).

    Notes
    -----
    The paper calls this the closest proper distribution in Euclidean distance; it is not
    (see ``docs/conventions.md``): for (0.9, 0.3, -0.2) it gives (0.75, 0.25, 0), the
    projection (:func:`project_to_simplex`) gives (0.8, 0.2, 0).

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
       Transactions on Knowledge and Data Engineering, 2022.

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
    The sort-based algorithm: sort ``v`` decreasingly as ``s``;
    ``rho = max {j : s_j - (sum_{i<=j} s_i - 1)/j > 0}``; ``theta = (sum_{i<=rho} s_i - 1)/rho``;
    the projection is ``max(v - theta, 0)``.

    References
    ----------
    .. [1] M. Held, P. Wolfe and H. P. Crowder, "Validation of subgradient optimization",
       Mathematical Programming 6:62-88, 1974.
    .. [2] J. Duchi, S. Shalev-Shwartz, Y. Singer and T. Chandra, "Efficient projections onto the
       l1-ball for learning in high dimensions", Proceedings of the 25th International Conference
       on Machine Learning (ICML), 272-279, 2008.

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


# --------------------------------------------------------------------------- the iterative Bayesian update


def _products(matrix: Any) -> tuple[Callable[[np.ndarray], np.ndarray], Callable[[np.ndarray], np.ndarray]]:
    """``(pi -> P^T pi, w -> P w)`` for a GRR or Kronecker matrix."""
    return matrix.forward, matrix.backward


def _em_map(matrix: Any, lam: np.ndarray, with_likelihood: bool):
    """The EM (IBU) update ``pi -> pi * m(pi)``, ``m(pi) = P (lambda / P^T pi)``, and the log-likelihood.

    Returns ``(step, multipliers, likelihood)``: ``step(pi)`` gives the update and the
    log-likelihood at ``pi`` (NaN unless ``with_likelihood``); ``multipliers(pi)`` gives m(pi) and
    that log-likelihood; ``likelihood(pi)`` the log-likelihood alone.  Reports never seen
    (lambda_v = 0) drop out; a seen report impossible under pi (P^T pi = 0) drops its term and
    makes the log-likelihood -inf.  The caller silences numpy's division warnings.
    """
    used = np.flatnonzero(lam > 0)                  # integer indices: fast when few reports are seen
    lu = np.ascontiguousarray(lam[used])
    if isinstance(matrix, (GRRMatrix, KroneckerMatrix)):
        forward, backward = _products(matrix)
        every = used.size == lam.size
        weights = np.zeros(lam.size)

        def predict(pi: np.ndarray) -> np.ndarray:
            return forward(pi) if every else forward(pi).take(used)

        def spread(ratio: np.ndarray) -> np.ndarray:
            if every:
                return backward(ratio)
            weights[used] = ratio
            return backward(weights)
    else:                                           # dense: only the columns of seen reports
        p = np.ascontiguousarray(np.asarray(matrix, dtype=float)[:, used])
        predicted = np.empty(lu.size)

        def predict(pi: np.ndarray) -> np.ndarray:
            return np.dot(pi, p, out=predicted)

        def spread(ratio: np.ndarray) -> np.ndarray:
            return np.dot(p, ratio)

    def multipliers(pi: np.ndarray) -> tuple[np.ndarray, float]:
        pu = predict(pi)
        ratio = lu / pu
        loglik = float(lu @ np.log(pu)) if with_likelihood else math.nan
        if not pu.min() > 0:                        # a seen report impossible under pi: drop its term
            ratio[~(pu > 0)] = 0.0
        return spread(ratio), loglik

    def step(pi: np.ndarray) -> tuple[np.ndarray, float]:
        new, loglik = multipliers(pi)
        new *= pi
        total = new.sum()
        if total > 0:
            new /= total
        return new, loglik

    def likelihood(pi: np.ndarray) -> float:
        pu = predict(pi)
        return float(lu @ np.log(pu)) if pu.min() > 0 else -math.inf

    return step, multipliers, likelihood


def _plain(step, x: np.ndarray, tol: float, max_iter: int) -> tuple[np.ndarray, int, bool, float]:
    loglik = math.nan
    for iteration in range(1, max_iter + 1):
        new, loglik = step(x)
        if np.abs(new - x).max() < tol:
            return new, iteration, True, loglik
        x = new
    return x, max_iter, False, loglik


def _squarem(step, x: np.ndarray, tol: float, max_iter: int) -> tuple[np.ndarray, int, bool, float]:
    """SQUAREM (scheme SqS3 of Varadhan and Roland 2008) with the monotone safeguard.

    From x: F1 = F(x), F2 = F(F1), r = F1 - x, v = F2 - F1 - r, step a = ||r|| / ||v|| in
    [1, a_max]; the extrapolated x' = x + 2 a r + a^2 v (a = 1 gives F2), with negative entries
    set to 0 (the simplex's boundary, where the maximum lies for a category without reports).
    x' is accepted when its log-likelihood is at least that of x (so the likelihood never
    decreases); otherwise the cycle falls back to F2, which an EM update never makes worse.
    It stops, like the plain update, when one EM update moves no entry by ``tol`` or more.
    """
    def small(change: np.ndarray) -> bool:
        return max(change.max(), -change.min()) < tol

    fx, loglik = step(x)
    evaluations = 1
    step_max = _STEP_START
    while True:
        r = fx - x
        if small(r):
            return fx, evaluations, True, loglik
        if evaluations + 2 > max_iter:
            return fx, evaluations, False, loglik
        f2, loglik_f1 = step(fx)
        evaluations += 1
        v = f2 - fx
        if small(v):
            return f2, evaluations, True, loglik_f1
        v -= r
        sv = float(v @ v)
        a = math.sqrt(float(r @ r) / sv) if sv > 0 else step_max
        a = min(max(a, 1.0), step_max)
        if a > 1.0:
            xp = r * (2.0 * a)
            xp += x
            v *= a * a
            xp += v
            np.maximum(xp, 0.0, out=xp)
            xp /= xp.sum()
            fp, loglik_p = step(xp)
            evaluations += 1
            if loglik_p >= loglik:
                if a == step_max:
                    step_max *= _STEP_GROWTH
                x, fx, loglik = xp, fp, loglik_p
                continue
            step_max = max(1.0, step_max / _STEP_GROWTH)
        elif a == step_max:
            step_max *= _STEP_GROWTH
        if evaluations >= max_iter:
            return f2, evaluations, False, loglik_f1
        fp, loglik_p = step(f2)                     # a = 1: two plain EM updates
        evaluations += 1
        x, fx, loglik = f2, fp, loglik_p


def _settle_boundary(step, multipliers, estimate: np.ndarray, support: np.ndarray, tol: float, budget: int,
                     converged: bool) -> tuple[np.ndarray, int, bool]:
    """Settle the entries on the simplex's boundary by the KKT conditions of the maximum.

    At the maximum, m_u(pi) = 1 where pi_u > 0 and m_u(pi) <= 1 where pi_u = 0.  An entry the
    extrapolation set to 0 with m_u > 1 is not at the maximum: it restarts positive.  An entry
    still tiny (below sqrt(tol)) with m_u < 1 is heading for 0, slowly when m_u is close to 1:
    it is set to 0 and the others re-converge; should its m_u then exceed 1, it restarts
    positive and is left alone after that.  Entries 0 in the start stay 0, as in the EM update.
    """
    r = estimate.size
    protected = np.zeros(r, dtype=bool)
    evaluations = 0
    for _ in range(2 * r):
        if not converged or evaluations >= budget:
            break
        m = multipliers(estimate)[0]
        revive = support & (estimate <= 0) & (m > 1.0 + _KKT_SLACK)
        settle = support & ~protected & (estimate > 0) & (estimate < math.sqrt(tol)) & (m < 1.0)
        if not revive.any() and not settle.any():
            break
        protected |= revive
        seed = estimate.copy()
        seed[settle] = 0.0
        seed[revive] = 1.0 / r
        seed /= seed.sum()
        estimate, more, converged, _ = _squarem(step, seed, tol, max(1, budget - evaluations))
        evaluations += more
    return estimate, evaluations, converged


def iterative_bayesian_update(matrix: Any, lambda_hat: ArrayLike, *, start: ArrayLike | None = None,
                              tol: float = 1e-10, max_iter: int = 10_000, accelerate: bool = True) -> IBUResult:
    """The iterative Bayesian update: the maximum-likelihood distribution behind the reports.

    Parameters
    ----------
    matrix : array_like (r, r), GRRMatrix or KroneckerMatrix
        The RR matrix (it may be singular).
    lambda_hat : array_like, shape (r,)
        The observed report distribution (weights, rescaled to sum 1).
    start : array_like, shape (r,), optional
        The starting distribution (rescaled to sum 1; entries that are 0 stay 0); uniform by
        default.  Any strictly positive start leads to the same fixed point.
    tol : float
        Stop when one EM update moves no entry by ``tol`` or more (the accelerated update stops on
        ``tol / 1000``, not below 1e-14: its last cycles are cheap, and the estimate then lies within
        about ``tol`` of the fixed point even where the plain update crawls).
    max_iter : int
        At most this many EM updates.
    accelerate : bool
        Use SQUAREM extrapolation (with the monotone safeguard); False runs the plain update.

    Returns
    -------
    IBUResult

    Notes
    -----
    The update (Agrawal and Aggarwal 2001; reference [2] of Domingo-Ferrer and Soria-Comas 2022)
    is the EM algorithm for the likelihood ``L(pi) = sum_v lambda_v ln (P^T pi)_v``:

        pi_{t+1}(u) = sum_v lambda_v pi_t(u) P[u, v] / sum_u' pi_t(u') P[u', v].

    It converges slowly when the maximum lies on the boundary of the simplex (a category with
    no reports: tens of thousands of updates).  SQUAREM (Varadhan and Roland 2008) extrapolates
    along the last two updates, ``x' = x + 2 a r + a^2 v`` with ``r = F(x) - x``,
    ``v = F(F(x)) - 2 F(x) + x`` and ``a = ||r|| / ||v||``; the extrapolated point is kept only
    when it does not lower the likelihood, so the iteration stays monotone.  At the end the
    entries on the boundary are settled by the KKT conditions of the maximum (``m_u = 1`` where
    pi_u > 0, ``m_u <= 1`` where pi_u = 0, with ``m = P (lambda / P^T pi)``): an entry wrongly
    at 0 restarts positive, a tiny entry heading for 0 is set to 0.  The accelerated update
    reaches the same fixed point as the plain one from any strictly positive start, in far
    fewer updates.

    References
    ----------
    .. [1] R. Agrawal and C. C. Aggarwal, "On the design and quantification of privacy preserving
       data mining algorithms", Proceedings of the 20th ACM SIGMOD-SIGACT-SIGART Symposium on
       Principles of Database Systems (PODS), 247-255, 2001.
    .. [2] R. Varadhan and C. Roland, "Simple and globally convergent methods for accelerating the
       convergence of any EM algorithm", Scandinavian Journal of Statistics 35(2):335-353, 2008.
    .. [3] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
       Transactions on Knowledge and Data Engineering, 2022.

    Examples
    --------
    >>> p = [[0.75, 0.25], [0.25, 0.75]]
    >>> iterative_bayesian_update(p, [0.6, 0.4], tol=1e-12).estimate.round(6).tolist()
    [0.7, 0.3]
    >>> fast = iterative_bayesian_update(p, [0.2, 0.8], tol=1e-12)
    >>> slow = iterative_bayesian_update(p, [0.2, 0.8], tol=1e-12, accelerate=False, max_iter=10**6)
    >>> bool(abs(fast.estimate - slow.estimate).max() < 1e-9), fast.iterations < slow.iterations
    (True, True)
    """
    if isinstance(matrix, (GRRMatrix, KroneckerMatrix)):
        r = matrix_size(matrix)
    else:
        matrix = check_rr_matrix(matrix)
        r = matrix.shape[0]
    lam = check_distribution(lambda_hat, "lambda_hat", size=r, normalize=True)
    x = None if start is None else check_distribution(start, "start", size=r, normalize=True)
    tol = check_number(tol, "tol", minimum=0.0, include_minimum=False)
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    return _ibu(matrix, lam, x, tol, max_iter, bool(accelerate), with_likelihood=True)


def _ibu(matrix: Any, lam: np.ndarray, start: np.ndarray | None, tol: float, max_iter: int,
         accelerate: bool = True, with_likelihood: bool = False) -> IBUResult:
    r = lam.size
    x = np.full(r, 1.0 / r) if start is None else np.array(start, dtype=float)
    step, multipliers, likelihood = _em_map(matrix, lam, with_likelihood=accelerate)
    with np.errstate(divide="ignore", invalid="ignore"):
        if not accelerate:
            estimate, iterations, converged, loglik = _plain(step, x, tol, max_iter)
        else:
            # SQUAREM is cheap near the end: it stops on a stricter change, which keeps the estimate
            # within about tol of the fixed point even where the plain update crawls (rate near 1).
            tol = min(tol, max(tol * _TIGHTER, _ROUNDING))
            estimate, iterations, converged, loglik = _squarem(step, x, tol, max_iter)
            estimate, more, converged = _settle_boundary(step, multipliers, estimate, x > 0, tol,
                                                         max_iter - iterations, converged)
            iterations += more
        loglik = likelihood(estimate) if with_likelihood else math.nan
    return IBUResult(estimate=estimate, iterations=iterations, converged=converged, log_likelihood=loglik,
                     accelerated=accelerate)


def _warm_start(raw: np.ndarray) -> np.ndarray | None:
    """The inversion when strictly positive (it is then the update's fixed point), else None (uniform)."""
    return raw if np.all(np.isfinite(raw)) and np.all(raw > 0) else None


def make_proper(raw: np.ndarray, method: str = "clip", *, matrix: Any = None, lam: np.ndarray | None = None,
                max_iterations: int = 10_000, tolerance: float = 1e-10) -> tuple[np.ndarray, int]:
    """Turn an estimate by Eq. (2) of Domingo-Ferrer and Soria-Comas (2018) into a proper distribution; returns ``(estimate, iterations)``.

    ``"clip"`` is Section 6.4's procedure of Domingo-Ferrer and Soria-Comas (2022) (negatives
    to 0, rescale); ``"simplex"`` is the Euclidean projection onto the simplex (what Section
    6.4 calls "closest", which clipping is not: see ``docs/conventions.md``); ``"ibu"`` the
    iterative Bayesian update (:func:`iterative_bayesian_update`, accelerated, from ``raw``
    when that is strictly positive), which needs the ``matrix`` and the report frequencies
    ``lam``; ``"none"`` returns Eq. (2) as is.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
       Transactions on Knowledge and Data Engineering, 2022.

    Examples
    --------
    >>> make_proper(np.array([0.9, 0.3, -0.2]), "clip")[0].round(4).tolist()
    [0.75, 0.25, 0.0]
    >>> make_proper(np.array([0.9, 0.3, -0.2]), "simplex")[0].round(4).tolist()
    [0.8, 0.2, 0.0]
    """
    raw = np.asarray(raw, dtype=float)
    if method == "none":
        return raw.copy(), 0
    if method == "clip":
        return clip_and_rescale(raw), 0
    if method == "simplex":
        return project_to_simplex(raw), 0
    if method == "ibu":
        if matrix is None or lam is None:
            raise InvalidParameterError("method 'ibu' needs the RR matrix and the report frequencies")
        result = _ibu(matrix, np.asarray(lam, dtype=float), _warm_start(raw), tolerance, max_iterations)
        return result.estimate, result.iterations
    raise InvalidParameterError(f"proper-distribution method must be one of {PROPER_METHODS}, got {method!r}")


def estimate_frequencies(values: ArrayLike, matrix: ArrayLike, method: str = "inversion", *,
                         kind: str = "reports", tol: float = 1e-10, max_iter: int = 10_000,
                         accelerate: bool = True) -> FrequencyEstimate:
    """Estimate the true distribution pi from randomized reports.

    Parameters
    ----------
    values : array_like
        Reported codes (``kind="reports"``) or counts per reported category
        (``kind="counts"``).
    matrix : array_like, shape (r, r)
        The RR matrix that produced the reports.
    method : {"inversion", "clip", "simplex", "ibu"}
        ``"inversion"``: pi-hat = (P^T)^-1 lambda-hat, unbiased but possibly
        negative; ``"clip"``: negatives to 0 then rescale (Domingo-Ferrer and Soria-Comas
        (2022), Section 6.4); ``"simplex"``: the Euclidean projection of the inversion onto
        the simplex; ``"ibu"``: iterative Bayesian update (also works for a singular
        matrix).  The update starts from the inversion when that is strictly
        positive (it is then the update's fixed point and the maximum-likelihood
        estimate, so one step confirms it), otherwise from the uniform distribution.
    kind : {"reports", "counts"}
    tol, max_iter, accelerate
        Stopping rule of ``"ibu"`` (largest change of an entry, cap on EM updates) and whether
        it uses SQUAREM extrapolation (:func:`iterative_bayesian_update`).

    Returns
    -------
    FrequencyEstimate

    Raises
    ------
    SingularMatrixError
        When ``P`` is singular and the method needs the inversion (use "ibu").

    Notes
    -----
    lambda = P^T pi, so pi-hat = (P^T)^-1 lambda-hat (Domingo-Ferrer and Soria-Comas (2018),
    Eq. 2; :func:`inversion_estimate`).  An ill-conditioned matrix gives an
    :class:`IllConditionedMatrixWarning`.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
       differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.
    .. [2] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
       Transactions on Knowledge and Data Engineering, 2022.

    Computes: Domingo-Ferrer and Soria-Comas (2018), Eq. 2; Domingo-Ferrer and Soria-Comas (2022), Eq. 2.

    Examples
    --------
    >>> result = estimate_frequencies([60, 40], [[0.75, 0.25], [0.25, 0.75]], kind="counts")
    >>> result.estimate.round(4).tolist()
    [0.7, 0.3]
    >>> estimate_frequencies([20, 80], [[0.75, 0.25], [0.25, 0.75]], kind="counts").estimate.round(4).tolist()
    [-0.1, 1.1]
    >>> estimate_frequencies([20, 80], [[0.75, 0.25], [0.25, 0.75]], "simplex",
    ...                      kind="counts").estimate.round(4).tolist()
    [0.0, 1.0]
    """
    p = check_rr_matrix(matrix)
    r = p.shape[0]
    if not isinstance(method, str) or method not in ESTIMATION_METHODS:
        raise InvalidParameterError(f"method must be one of {', '.join(ESTIMATION_METHODS)}, got {method!r}")
    if kind == "reports":
        counts = np.bincount(check_codes(values, r, "reports"), minlength=r).astype(float)
    elif kind == "counts":
        counts = check_weights(values, "counts", size=r)
    else:
        raise InvalidParameterError(f"kind must be 'reports' or 'counts', got {kind!r}")
    tol = check_number(tol, "tol", minimum=0.0, include_minimum=False)
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    n = counts.sum()
    lambda_hat = counts / n

    try:
        raw = inversion_estimate(p, lambda_hat)
    except SingularMatrixError:
        if method != "ibu":
            raise SingularMatrixError(
                f"matrix is singular (its rows are linearly dependent, as under perfect secrecy), "
                f"so method {method!r} cannot invert it; use method='ibu'") from None
        raw = np.full(r, np.nan)

    iterations, converged = 0, True
    if method == "inversion":
        estimate = raw
    elif method == "clip":
        estimate = clip_and_rescale(raw)
    elif method == "simplex":
        estimate = project_to_simplex(raw)
    else:
        result = _ibu(p, lambda_hat, _warm_start(raw), tol, max_iter, bool(accelerate))
        estimate, iterations, converged = result.estimate, result.iterations, result.converged
    n_int = int(round(n)) if isinstance(n, (numbers.Real, np.floating)) else 0
    return FrequencyEstimate(estimate=estimate, raw=raw, method=method, iterations=iterations,
                             converged=converged, lambda_hat=lambda_hat, n=n_int)


# --------------------------------------------------------------------------- error bounds


def chi2_factor(n_categories: int, alpha: float = 0.05) -> float:
    """B of Eqs. (5)-(6) of Domingo-Ferrer and Soria-Comas (2022): the upper alpha/r point of chi-square(1).

    Their Figure 1 plots sqrt(B) against r.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
       Transactions on Knowledge and Data Engineering, 2022.

    Computes: Domingo-Ferrer and Soria-Comas (2022), Fig. 1.

    Examples
    --------
    >>> round(math.sqrt(chi2_factor(2, 0.05)), 4)
    2.2414
    """
    r = check_int(n_categories, "n_categories", minimum=1)
    alpha = check_probability(alpha, "alpha", allow_zero=False, allow_one=False)
    # chi2.isf(q, 1) = z^2 with z the standard normal's q/2 quantile (a chi-square with one degree of freedom is
    # a squared standard normal); the stdlib's quantile keeps scipy out of the tabs that only need this
    z = NormalDist().inv_cdf(alpha / r / 2)
    return float(z * z)


def error_bounds(lambda_hat: ArrayLike, n: int, alpha: float = 0.05) -> ErrorBounds:
    """Absolute and relative error of the report frequencies lambda-hat.

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
    Domingo-Ferrer and Soria-Comas (2022), Eqs. 5-6:

    e_abs = max_u sqrt(B lambda_u (1 - lambda_u) / n)   (Eq. 5)

    e_rel = max_u sqrt(B (1 - lambda_u) / (lambda_u n))  (Eq. 6)

    B is the upper alpha/r point of chi-square with 1 degree of freedom
    (:func:`chi2_factor`; see ``docs/conventions.md``).  e_rel is infinite when some
    lambda_u is 0.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
       Transactions on Knowledge and Data Engineering, 2022.

    Computes: Domingo-Ferrer and Soria-Comas (2022), Eq. 5; Domingo-Ferrer and Soria-Comas (2022), Eq. 6;
    Domingo-Ferrer and Soria-Comas (2022), Def. 1; Domingo-Ferrer and Soria-Comas (2022), Def. 2.

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
    b = chi2_factor(lam.size, alpha)
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
    >>> round(estimate_error_bound([[0.75, 0.25], [0.25, 0.75]], error_bounds([0.5, 0.5], 100)), 4)
    0.2241
    """
    p = check_rr_matrix(matrix)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IllConditionedMatrixWarning)
        try:
            inverse = inversion_estimate(p, np.eye(p.shape[0]))     # (P^T)^-1
        except SingularMatrixError:
            return math.inf
    return float(np.max(np.abs(inverse).sum(axis=1)) * bounds.e_abs)


def relative_error_bound(cardinalities: Sequence[int], n: int, alpha: float = 0.05) -> float:
    """The best-case relative error sqrt(B (prod|A| - 1) / n) of RR-Joint.

    Domingo-Ferrer and Soria-Comas (2022), Section 3.3 (Eq. 6 at a uniform lambda).  For a
    single attribute this is RR-Independent's per-attribute bound.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
       Transactions on Knowledge and Data Engineering, 2022.

    Examples
    --------
    >>> round(relative_error_bound([2], 100), 4)
    0.2241
    """
    r = n_combinations(cardinalities)
    n = check_int(n, "n", minimum=1)
    return math.sqrt(chi2_factor(r, alpha) * (r - 1) / n)
