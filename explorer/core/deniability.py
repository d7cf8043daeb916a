"""Deniability: prior and posterior of an RR/PRAM matrix and their entropies.

Domingo-Ferrer and Soria-Comas (2018), Sections II-III.

Entropies are in bits (log base 2).  ``P[u, v] = Pr(Y = v | X = u)`` (Eq. 1); the posterior
is ``Q[v, u] = Pr(X = u | Y = v)`` (Eq. 3); a report of probability 0 gives a row of NaN, left
out of entropies.  A prior given as weights is rescaled to sum 1; no prior means the uniform one.

References
----------
.. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
   differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
from numpy.typing import ArrayLike

from explorer._validation import check_distribution, check_epsilon, check_int, check_rr_matrix
from explorer.core.rr.mechanisms import MAX_CATEGORIES, epsilon_of
from explorer.errors import ExplorerTypeError, InvalidParameterError

__all__ = [
    "entropy",
    "example1_matrix",
    "reported_distribution",
    "posterior_matrix",
    "deniability_entropies",
    "conditional_entropy",
    "guessing_probability",
    "posterior_odds_bound",
    "describe_odds",
    "is_perfect_secrecy",
    "misinformative_reports",
    "DeniabilityCurve",
    "DESIGNS",
    "deniability_curve",
    "perfect_secrecy_matrix",
    "MatrixReading",
    "read_matrix",
]

#: Epsilons above this give the odds bound e^700 (a float overflows near e^709.8).
LARGE_EPSILON = 700.0


def entropy(distribution: ArrayLike, axis: int = -1) -> np.ndarray | float:
    """Shannon entropy in bits, ``-sum p log2 p`` with ``0 log 0 = 0``, along ``axis``.

    Rows of NaN (reports that never occur) give NaN.  The input is used as given
    (it is not renormalised).

    Examples
    --------
    >>> entropy([0.5, 0.5])
    1.0
    >>> entropy([[1.0, 0.0], [0.25, 0.75]]).round(4).tolist()
    [0.0, 0.8113]
    """
    p = np.asarray(distribution, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, -p * np.log2(np.where(p > 0, p, 1.0)), np.where(np.isnan(p), np.nan, 0.0))
    result = terms.sum(axis=axis)
    return float(result) if np.ndim(result) == 0 else result


# --------------------------------------------------------------------------- helpers


def _matrix_and_prior(matrix: ArrayLike, prior: ArrayLike | None) -> tuple[np.ndarray, np.ndarray]:
    p = check_rr_matrix(matrix)
    r = p.shape[0]
    if prior is None:
        return p, np.full(r, 1.0 / r)
    return p, check_distribution(prior, "prior", size=r, normalize=True)


def example1_matrix() -> np.ndarray:
    """The r = 2 matrix of Example 1 of Domingo-Ferrer and Soria-Comas (2018): epsilon = 2 exactly.

    A column (e^2/10, 0.1) has the ratio e^2.

    Notes
    -----
    The paper prints the column as (0.7389, 0.1), i.e. e^2 = 7.389 rounded;
    the other column, (1 - e^2/10, 0.9), has the smaller ratio 3.45.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
       differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.

    Computes: Domingo-Ferrer and Soria-Comas (2018), Example 1.

    Examples
    --------
    >>> example1_matrix().round(4).tolist()
    [[0.7389, 0.2611], [0.1, 0.9]]
    """
    top = math.exp(2.0) / 10.0
    return np.array([[top, 1.0 - top], [0.1, 0.9]])


# --------------------------------------------------------------------------- prior and posterior


def reported_distribution(matrix: ArrayLike, prior: ArrayLike | None = None) -> np.ndarray:
    """Distribution of the reports, lambda = P^T pi (Domingo-Ferrer and Soria-Comas (2022), Section 2.1).

    Parameters
    ----------
    matrix : array_like, shape (r, r)
        RR matrix ``P[u, v] = Pr(Y = v | X = u)``.
    prior : array_like, shape (r,), optional
        Distribution pi of the true values (weights are rescaled); uniform if omitted.

    Notes
    -----
    lambda_v = sum_u p_uv pi_u.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
       Transactions on Knowledge and Data Engineering, 2022.

    Examples
    --------
    >>> reported_distribution([[0.75, 0.25], [0.25, 0.75]], [0.8, 0.2]).round(4).tolist()
    [0.65, 0.35]
    """
    p, pi = _matrix_and_prior(matrix, prior)
    return p.T @ pi


def posterior_matrix(matrix: ArrayLike, prior: ArrayLike | None = None) -> np.ndarray:
    """Posterior ``Q[v, u] = Pr(X = u | Y = v)`` (Domingo-Ferrer and Soria-Comas (2018), Eq. 3).

    A report ``v`` of probability 0 gives a row of NaN.

    Notes
    -----
    Eq. (3): p-hat_vu = p_uv pi_u / sum_u' p_u'v pi_u'.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
       differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.

    Computes: Domingo-Ferrer and Soria-Comas (2018), Eq. 3.

    Examples
    --------
    >>> posterior_matrix(example1_matrix())[0].round(3).tolist()   # Example 1 of Domingo-Ferrer and Soria-Comas (2018)
    [0.881, 0.119]
    """
    p, pi = _matrix_and_prior(matrix, prior)
    joint = (p * pi[:, None]).T                     # joint[v, u] = Pr(X = u, Y = v)
    lam = joint.sum(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(lam > 0, joint / np.where(lam > 0, lam, 1.0), np.nan)


def deniability_entropies(matrix: ArrayLike, prior: ArrayLike | None = None) -> np.ndarray:
    """Deniability of each report, H(X | Y = v) in bits; NaN for impossible reports.

    Domingo-Ferrer and Soria-Comas (2018), Eq. 4.

    Notes
    -----
    Eq. (4): H(X|Y=v) = -sum_u p-hat_vu log2 p-hat_vu, at most log2 r.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
       differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.

    Computes: Domingo-Ferrer and Soria-Comas (2018), Eq. 4.

    Examples
    --------
    >>> deniability_entropies(example1_matrix()).round(3).tolist()
    [0.527, 0.769]
    """
    return np.asarray(entropy(posterior_matrix(matrix, prior), axis=1), dtype=float)


def conditional_entropy(matrix: ArrayLike, prior: ArrayLike | None = None) -> float:
    """H(X | Y) = sum_v lambda_v H(X | Y = v), in bits.

    Notes
    -----
    Never above H(X) (Domingo-Ferrer and Soria-Comas (2018), Section II-A); equal to it under perfect secrecy.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
       differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.

    Examples
    --------
    >>> round(conditional_entropy([[0.5, 0.5], [0.5, 0.5]], [0.8, 0.2]), 4) == round(entropy([0.8, 0.2]), 4)
    True
    """
    p, pi = _matrix_and_prior(matrix, prior)
    lam = p.T @ pi
    h = deniability_entropies(p, pi)
    used = lam > 0
    return float(np.sum(lam[used] * h[used]))


def guessing_probability(matrix: ArrayLike, prior: ArrayLike | None = None) -> np.ndarray:
    """Per report, the probability that an intruder's best guess of X is right: max_u Pr(X = u | Y = v).

    NaN for impossible reports.

    Examples
    --------
    >>> guessing_probability(example1_matrix()).round(3).tolist()
    [0.881, 0.775]
    """
    q = posterior_matrix(matrix, prior)
    out = np.full(q.shape[0], np.nan)
    ok = ~np.isnan(q[:, 0])
    out[ok] = q[ok].max(axis=1)
    return out


def posterior_odds_bound(matrix: ArrayLike) -> float:
    """Largest factor by which seeing a report can multiply the odds between two values of X: e^epsilon.

    Notes
    -----
    Pr(X=u|Y=v)/Pr(X=u'|Y=v) = (p_uv / p_u'v) (pi_u / pi_u'), and p_uv / p_u'v <= e^eps
    (Domingo-Ferrer and Soria-Comas (2018), Eq. 6): whatever the prior, a report multiplies prior odds by at most e^eps.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
       differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.

    Computes: Domingo-Ferrer and Soria-Comas (2018), Eq. 6.

    Examples
    --------
    >>> round(posterior_odds_bound([[0.75, 0.25], [0.25, 0.75]]), 4)
    3.0
    """
    epsilon = epsilon_of(matrix)
    return math.inf if math.isinf(epsilon) else math.exp(epsilon)


def describe_odds(epsilon: float) -> str:
    """The odds bound e^epsilon in words, for people.

    Examples
    --------
    >>> describe_odds(2.0)
    'seeing a report can multiply the odds of one answer over another by at most 7.4'
    >>> describe_odds(0.0)
    'seeing a report cannot change the odds between answers at all (perfect secrecy)'
    """
    epsilon = check_epsilon(epsilon)
    if epsilon == 0:
        return "seeing a report cannot change the odds between answers at all (perfect secrecy)"
    if math.isinf(epsilon):
        return "seeing a report can reveal the answer for certain (epsilon is infinite)"
    factor = math.exp(epsilon) if epsilon < 700 else math.inf
    # two significant digits from a million on, written out in full (no scientific notation)
    text = f"{float(f'{factor:.2g}'):,.0f}" if factor >= 1e6 else f"{factor:,.1f}"
    return f"seeing a report can multiply the odds of one answer over another by at most {text}"


def is_perfect_secrecy(matrix: ArrayLike, prior: ArrayLike | None = None, *, tol: float = 1e-12) -> bool:
    """Whether the reports say nothing about X: every possible report's posterior equals the prior.

    Notes
    -----
    Domingo-Ferrer and Soria-Comas (2018), Section II-A b): columns of P constant (epsilon = 0) give p-hat_vu = pi_u,
    H(X|Y=v) = H(X) and H(X|Y) = H(X).  Without a prior, rows of P must be equal.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
       differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.

    Examples
    --------
    >>> is_perfect_secrecy([[0.3, 0.7], [0.3, 0.7]]), is_perfect_secrecy([[0.75, 0.25], [0.25, 0.75]])
    (True, False)
    """
    if prior is None:
        p = check_rr_matrix(matrix)
        return bool(np.all(np.abs(p - p[0]) <= tol))
    p, pi = _matrix_and_prior(matrix, prior)
    q = posterior_matrix(p, pi)
    rows = ~np.isnan(q[:, 0])
    return bool(np.all(np.abs(q[rows] - pi) <= tol))


def misinformative_reports(matrix: ArrayLike, prior: ArrayLike | None = None, *, tol: float = 1e-12) -> np.ndarray:
    """Reports ``v`` with H(X | Y = v) > H(X): seeing them leaves more doubt than before.

    Domingo-Ferrer and Soria-Comas (2018), Section II-A.

    Returns a boolean vector (False for impossible reports).

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
       differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.

    Examples
    --------
    >>> misinformative_reports([[0.9, 0.1], [0.5, 0.5]], [0.8, 0.2]).tolist()
    [False, True]
    """
    p, pi = _matrix_and_prior(matrix, prior)
    h = deniability_entropies(p, pi)
    return np.where(np.isnan(h), False, h > entropy(pi) + tol)


# --------------------------------------------------------------------------- curves


@dataclass(frozen=True)
class DeniabilityCurve:
    """Deniability of a design as epsilon grows (see :func:`deniability_curve`).

    Attributes
    ----------
    epsilons : ndarray
    conditional_entropy : ndarray
        H(X | Y) per epsilon (bits).
    min_entropy : ndarray
        min_v H(X | Y = v) per epsilon: the least deniable report.
    max_guessing : ndarray
        max_v max_u Pr(X = u | Y = v): the best single guess after the worst report.
    prior_entropy : float
        H(X).
    design : str
    """

    epsilons: np.ndarray
    conditional_entropy: np.ndarray
    min_entropy: np.ndarray
    max_guessing: np.ndarray
    prior_entropy: float
    design: str


DESIGNS = ("optimal", "keep_or_uniform", "warner")


def _design_matrices(design: str | Callable[[float], ArrayLike], r: int, epsilons: np.ndarray) -> np.ndarray:
    if callable(design):
        return np.stack([check_rr_matrix(design(float(e)), "design(epsilon)") for e in epsilons])
    if design not in DESIGNS:
        raise InvalidParameterError(f"design must be one of {', '.join(DESIGNS)} or a function, got {design!r}")
    if design == "warner" and r != 2:
        raise InvalidParameterError(f"design 'warner' needs n_categories = 2, got {r}")
    # All three coincide at a given epsilon (keep-or-uniform with p = keep_probability_for_epsilon,
    # Warner with p = e^eps / (1 + e^eps)): the least randomization that is epsilon-DP.
    shrink = np.exp(-epsilons)                       # 0 for epsilon = inf
    diagonal = 1.0 / (1.0 + (r - 1) * shrink)
    off = shrink * diagonal
    matrices = np.broadcast_to(off[:, None, None], (epsilons.size, r, r)).copy()
    idx = np.arange(r)
    matrices[:, idx, idx] = diagonal[:, None]
    return matrices


def deniability_curve(n_categories: int, prior: ArrayLike | None, epsilons: ArrayLike,
                      design: str | Callable[[float], ArrayLike] = "optimal") -> DeniabilityCurve:
    """H(X|Y), min_v H(X|Y=v) and the largest guessing probability as epsilon grows.

    Parameters
    ----------
    n_categories : int
        r (2 to 64).
    prior : array_like or None
        Distribution of X (uniform if None).
    epsilons : array_like
        Non-negative epsilons (``inf`` allowed).
    design : {"optimal", "keep_or_uniform", "warner"} or callable
        The matrix family; a callable maps epsilon to a matrix.

    Notes
    -----
    Per epsilon, Eq. (3) and Eq. (4) of Domingo-Ferrer and Soria-Comas (2018) on the design's matrix.  The three
    named designs give the same matrix at the same epsilon.  Domingo-Ferrer and Soria-Comas (2018), Example 1: at
    epsilon = 2 (r = 2, uniform prior) the best guess is right with probability
    e^2 / (1 + e^2) = 0.881.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
       differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.

    Examples
    --------
    >>> curve = deniability_curve(2, None, [0.0, 2.0])
    >>> curve.conditional_entropy.round(3).tolist(), curve.max_guessing.round(3).tolist()
    ([1.0, 0.527], [0.5, 0.881])
    """
    r = check_int(n_categories, "n_categories", minimum=2, maximum=MAX_CATEGORIES)
    pi = np.full(r, 1.0 / r) if prior is None else check_distribution(prior, "prior", size=r, normalize=True)
    try:
        eps = np.atleast_1d(np.asarray(epsilons, dtype=float))
    except (TypeError, ValueError):
        raise ExplorerTypeError(f"epsilons must be numbers, got {epsilons!r}") from None
    if eps.ndim != 1 or eps.size == 0:
        raise InvalidParameterError(f"epsilons must be a non-empty 1-D list, got shape {eps.shape}")
    if np.any(np.isnan(eps)) or np.any(eps < 0):
        bad = eps[np.isnan(eps) | (eps < 0)][0]
        raise InvalidParameterError(f"epsilons must be non-negative numbers, got {bad:g}")
    matrices = _design_matrices(design, r, eps)
    joint = matrices * pi[None, :, None]                  # [k, u, v]
    lam = joint.sum(axis=1)                               # [k, v]
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.where(lam[:, :, None] > 0, np.swapaxes(joint, 1, 2) / lam[:, :, None], np.nan)  # [k, v, u]
    h = entropy(q, axis=2)
    used = lam > 0
    cond = np.where(used, lam * np.nan_to_num(h), 0.0).sum(axis=1)
    min_h = np.where(used, h, np.inf).min(axis=1)
    guess = np.where(used, np.nan_to_num(q).max(axis=2), -np.inf).max(axis=1)
    name = design if isinstance(design, str) else getattr(design, "__name__", "custom")
    return DeniabilityCurve(epsilons=eps, conditional_entropy=cond, min_entropy=min_h, max_guessing=guess,
                            prior_entropy=float(entropy(pi)), design=name)


# --------------------------------------------------------------------------- one matrix, read whole


def perfect_secrecy_matrix(n_categories: int) -> np.ndarray:
    """An RR matrix with perfect secrecy: every row (r, r - 1, ..., 1) / (r (r + 1) / 2).

    Equal rows make every column constant, so epsilon = 0 and every report's posterior is the prior
    (Domingo-Ferrer and Soria-Comas (2018), Section II-A b)); the columns differ, so the reports are not
    all alike, yet they say nothing about X (and the matrix is singular).

    Parameters
    ----------
    n_categories : int
        r, 2 to 64.

    Returns
    -------
    numpy.ndarray, shape (r, r)

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
       differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.

    Examples
    --------
    >>> perfect_secrecy_matrix(3).round(4).tolist()
    [[0.5, 0.3333, 0.1667], [0.5, 0.3333, 0.1667], [0.5, 0.3333, 0.1667]]
    >>> epsilon_of(perfect_secrecy_matrix(3))
    0.0
    """
    r = check_int(n_categories, "n_categories", minimum=2, maximum=MAX_CATEGORIES)
    row = np.arange(r, 0, -1, dtype=float)
    return np.tile(row / row.sum(), (r, 1))


@dataclass(frozen=True)
class MatrixReading:
    """What an RR matrix tells about X for a prior (see :func:`read_matrix`).

    Attributes
    ----------
    matrix : ndarray
        P, ``P[u, v] = Pr(Y = v | X = u)``.
    prior : ndarray
        pi, the distribution of X (sums to 1).
    epsilon : float
        epsilon of P (Eq. 6).
    column : int
        The column attaining epsilon.
    odds_bound : float
        e^epsilon (e^700 beyond epsilon = 700, infinite for an infinite epsilon): the largest factor a report
        multiplies the odds between two answers by.
    posterior : ndarray
        Q[v, u] = Pr(X = u | Y = v) (Eq. 3); NaN rows for impossible reports.
    entropies : ndarray
        H(X | Y = v) per report (Eq. 4), bits.
    prior_entropy : float
        H(X), bits.
    conditional_entropy : float
        H(X | Y), bits.
    guessing : ndarray
        max_u Pr(X = u | Y = v) per report.
    best_guess : float
        The largest of ``guessing``: the best guess after the most telling report.
    misinformative : ndarray of bool
        Reports with H(X | Y = v) > H(X).
    n_misinformative : int
        How many reports are misinformative.
    perfect_secrecy : bool
        Whether every report's posterior is the prior.
    singular : bool
        Whether P cannot be inverted (only the iterative Bayesian update estimates then).
    """

    matrix: np.ndarray
    prior: np.ndarray
    epsilon: float
    column: int
    odds_bound: float
    posterior: np.ndarray
    entropies: np.ndarray
    prior_entropy: float
    conditional_entropy: float
    guessing: np.ndarray
    best_guess: float
    misinformative: np.ndarray
    n_misinformative: int
    perfect_secrecy: bool
    singular: bool


def read_matrix(matrix: ArrayLike, prior: ArrayLike | None = None) -> MatrixReading:
    """Read an RR matrix for a prior: its epsilon, the posterior, the deniability of each report, and more.

    Parameters
    ----------
    matrix : array_like, shape (r, r)
        A row-stochastic RR matrix.
    prior : array_like, shape (r,), optional
        The distribution of X (weights are rescaled; uniform when omitted).

    Returns
    -------
    MatrixReading
        Every quantity the randomized-response tab shows for this matrix.

    Notes
    -----
    epsilon and its column by Eq. (6), the posterior by Eq. (3), H(X | Y = v) by Eq. (4) of
    Domingo-Ferrer and Soria-Comas (2018); misinformative reports and perfect secrecy as in its
    Section II-A.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
       differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.

    Examples
    --------
    >>> reading = read_matrix(example1_matrix())
    >>> round(reading.epsilon, 4), reading.column, round(reading.odds_bound, 3), round(reading.best_guess, 3)
    (2.0, 0, 7.389, 0.881)
    >>> reading.entropies.round(3).tolist(), reading.n_misinformative, reading.singular
    ([0.527, 0.769], 0, False)
    """
    from explorer.core.rr.mechanisms import epsilon_column
    from explorer.core.rr.simulation import is_singular

    p, pi = _matrix_and_prior(matrix, prior)
    weights = pi if prior is None else prior       # each function below rescales the prior once, as alone
    epsilon = epsilon_of(p)
    guessing = guessing_probability(p, weights)
    misinformative = misinformative_reports(p, weights)
    return MatrixReading(
        matrix=p, prior=pi, epsilon=epsilon, column=epsilon_column(p),
        odds_bound=math.inf if math.isinf(epsilon) else math.exp(min(epsilon, LARGE_EPSILON)),
        posterior=posterior_matrix(p, weights), entropies=deniability_entropies(p, weights),
        prior_entropy=float(entropy(pi)), conditional_entropy=conditional_entropy(p, weights),
        guessing=guessing, best_guess=float(np.nanmax(guessing)), misinformative=misinformative,
        n_misinformative=int(np.sum(misinformative)), perfect_secrecy=is_perfect_secrecy(p, weights),
        singular=is_singular(p))
