"""The estimation simulation of the randomized-response tab: sample, randomize, estimate, bound the error.

One pure function, :func:`simulate_estimation`: draw ``n`` true categories (from a
prior, or a subsample of a data set's own records), randomize them with an RR
matrix, estimate the true distribution from the reports by every method of
:data:`explorer.core.rr.estimation.ESTIMATION_METHODS`, and bound the error of the
observed report distribution by Eqs. (5)-(6) of Domingo-Ferrer and Soria-Comas
(2022).  :func:`is_singular` says whether a design can be inverted at all.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from explorer._validation import check_int, check_rng, check_rr_matrix, check_weights
from explorer.core.rr.estimation import (
    ESTIMATION_METHODS,
    ErrorBounds,
    error_bounds,
    estimate_error_bound,
    estimate_frequencies,
    report_counts,
)
from explorer.core.rr.mechanisms import randomize
from explorer.errors import InvalidParameterError, SingularMatrixError

__all__ = ["EstimationSimulation", "simulate_estimation", "is_singular"]

#: The largest sample the simulation draws (memory: a few int64 arrays of this length).
MAX_SAMPLE = 10_000_000


@dataclass(frozen=True)
class EstimationSimulation:
    """One run of sample -> randomize -> estimate (see :func:`simulate_estimation`).

    Attributes
    ----------
    true : numpy.ndarray, shape (r,)
        The true distribution pi of the sample drawn.
    estimates : dict of str to numpy.ndarray
        Estimate of pi per method (``"inversion"``, ``"clip"``, ``"simplex"``,
        ``"ibu"``); all NaN for a method impossible with this matrix.
    impossible : tuple of str
        Methods that need an invertible matrix when the matrix is singular.
    bounds : ErrorBounds
        e_abs and e_rel of the report distribution (Eqs. 5-6).
    half_width : float
        Bound on max_u |pi-hat_u - pi_u| of the inversion estimate implied by
        e_abs; infinite for a singular matrix.
    max_abs_errors : dict of str to float
        max_u |pi-hat_u - pi_u| per possible method.
    n : int
        Number of records randomized.
    from_records : bool
        True when the sample is (a subsample of) given records, False when
        drawn from the prior.
    """

    true: np.ndarray
    estimates: dict
    impossible: tuple
    bounds: ErrorBounds
    half_width: float
    max_abs_errors: dict
    n: int
    from_records: bool


def is_singular(matrix: ArrayLike) -> bool:
    """Whether an RR matrix cannot be inverted (only IBU estimates then).

    Examples
    --------
    >>> is_singular([[0.5, 0.5], [0.5, 0.5]]), is_singular([[0.75, 0.25], [0.25, 0.75]])
    (True, False)
    """
    p = check_rr_matrix(matrix)
    r = p.shape[0]
    return not math.isfinite(estimate_error_bound(p, error_bounds(np.full(r, 1.0 / r), 1)))


def simulate_estimation(matrix: ArrayLike, n: int, *, prior: ArrayLike | None = None,
                        records: ArrayLike | None = None, rng: Any = None,
                        alpha: float = 0.05) -> EstimationSimulation:
    """Draw a sample, randomize it with ``matrix`` and estimate its distribution by every method.

    Parameters
    ----------
    matrix : array_like, shape (r, r)
        The RR matrix, ``P[u, v] = Pr(Y = v | X = u)``.
    n : int
        Sample size, 1 to :data:`MAX_SAMPLE`.  With ``records``, at most ``n`` of
        them are used (a random subsample without replacement when there are more).
    prior : array_like, shape (r,), optional
        Distribution the ``n`` true categories are drawn from (uniform when
        omitted).  Ignored when ``records`` are given.
    records : array_like of int, optional
        True category codes ``0 .. r-1`` of real records (negative codes, i.e.
        missing values, are dropped).
    rng : numpy.random.Generator, int or None
        Source of randomness: the same seed gives the same run.
    alpha : float
        One minus the confidence level of the error bounds.

    Returns
    -------
    EstimationSimulation
        The true distribution, the estimates, the error bounds and the errors.

    Notes
    -----
    With lambda-hat the observed report distribution of n reports over r
    categories and B the upper alpha/r point of chi-square with one degree of
    freedom, Domingo-Ferrer and Soria-Comas (2022) bound with confidence
    1 - alpha

        e_abs = max_u sqrt(B lambda_u (1 - lambda_u) / n)    (Eq. 5)
        e_rel = max_u sqrt(B (1 - lambda_u) / (lambda_u n))  (Eq. 6)

    evaluated at lambda-hat.

    Since pi-hat - pi = (P^T)^{-1} (lambda-hat - lambda), the inversion
    estimate is within ``half_width`` = ||(P^T)^{-1}||_inf e_abs of pi.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
       Transactions on Knowledge and Data Engineering, 2022.

    Examples
    --------
    >>> sim = simulate_estimation([[0.75, 0.25], [0.25, 0.75]], 10_000, prior=[0.3, 0.7], rng=0)
    >>> sim.n, sorted(sim.estimates)
    (10000, ['clip', 'ibu', 'inversion', 'simplex'])
    >>> bool(sim.max_abs_errors["inversion"] <= sim.half_width)
    True
    >>> simulate_estimation([[0.5, 0.5], [0.5, 0.5]], 100, rng=0).impossible
    ('inversion', 'clip', 'simplex')
    """
    p = check_rr_matrix(matrix)
    r = p.shape[0]
    n = check_int(n, "sample size n", minimum=1, maximum=MAX_SAMPLE)
    rng = check_rng(rng)
    if records is not None:
        codes = np.asarray(records)
        if codes.ndim != 1 or not np.issubdtype(codes.dtype, np.integer):
            raise InvalidParameterError(f"records must be a 1-D array of integer codes, got dtype {codes.dtype} "
                                        f"and shape {codes.shape}")
        codes = codes[codes >= 0]
        if codes.size == 0:
            raise InvalidParameterError("records: no record has a category (all missing)")
        if codes.max() >= r:
            raise InvalidParameterError(f"records: codes must be below r = {r}, got {int(codes.max())}")
        if codes.size > n:
            codes = rng.choice(codes, size=n, replace=False)
    else:
        weights = np.full(r, 1.0 / r) if prior is None else check_weights(prior, "prior", size=r)
        codes = rng.choice(r, size=n, p=weights / weights.sum())
    truth = np.bincount(codes, minlength=r) / codes.size
    counts = report_counts(randomize(codes, p, rng), r)
    estimates: dict[str, np.ndarray] = {}
    impossible = []
    for method in ESTIMATION_METHODS:
        try:
            estimates[method] = estimate_frequencies(counts, p, method, kind="counts").estimate
        except SingularMatrixError:
            estimates[method] = np.full(r, np.nan)
            impossible.append(method)
    bounds = error_bounds(counts / counts.sum(), int(counts.sum()), alpha)
    errors = {m: float(np.max(np.abs(estimates[m] - truth))) for m in ESTIMATION_METHODS if m not in impossible}
    return EstimationSimulation(true=truth, estimates=estimates, impossible=tuple(impossible), bounds=bounds,
                                half_width=estimate_error_bound(p, bounds), max_abs_errors=errors,
                                n=int(codes.size), from_records=records is not None)
