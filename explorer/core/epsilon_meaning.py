"""One epsilon read through every model the papers connect.

An epsilon means different things to different models, and the papers connect them:

- **randomized response** (Domingo-Ferrer and Soria-Comas, 2018, Eq. 6): an epsilon-DP RR matrix lets a
  report multiply the odds between two answers by at most e^eps; the optimal matrix for an epsilon leaves
  a deniability H(X|Y) and a best guess after the most telling report;
- **t-closeness** (same paper, Proposition 1 and Example 3): exp(eps/2)-closeness under the ratio
  distance gives eps-DP; the most concentrated cluster still allowed shows what an intruder who knows a
  record's cluster can guess;
- **accuracy** (Domingo-Ferrer and Soria-Comas, 2022, Eqs. 5-6): what the same RR costs a data collector
  who estimates the distribution from n reports: the error bound and one simulated run.

:func:`read_epsilon` computes all of them for one epsilon and one attribute (its prior, or its records).

References
----------
.. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
   differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.
.. [2] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE Transactions
   on Knowledge and Data Engineering, 2022.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from explorer._validation import check_epsilon, check_int, check_number, check_weights
from explorer.core import deniability as den
from explorer.core import rr
from explorer.core.rr.mechanisms import check_codes
from explorer.core.closeness import closeness_for_epsilon, worst_case_cluster
from explorer.errors import DatasetError, InvalidParameterError

__all__ = ["EpsilonReading", "read_epsilon", "epsilon_summary_lines", "attribute_codes"]

#: Epsilons above this are read as "no protection": e^eps overflows the odds scale users can read.
LARGE_EPSILON = 700.0
#: Values this close count as equal when picking the most telling report or the best guess (first one wins).
TIE_TOLERANCE = 1e-12


@dataclass(frozen=True)
class EpsilonReading:
    """What one epsilon means for one attribute, model by model.

    Attributes
    ----------
    epsilon : float
        The epsilon read.
    labels : tuple of str
        The attribute's categories.
    prior : ndarray
        The attribute's distribution pi (sums to 1).
    odds_bound : float
        e^eps: the largest factor by which a report can multiply the odds between two answers.
    matrix : ndarray
        The optimal RR matrix for epsilon (keep-or-uniform with the largest keep probability).
    prior_entropy : float
        H(X), bits.
    conditional_entropy : float
        H(X | Y) under that matrix, bits.
    worst_report : int
        The report v with the lowest deniability H(X | Y = v).
    worst_report_entropy : float
        H(X | Y = worst_report), bits.
    best_guess : float
        max_u Pr(X = u | Y = v) over all reports v: the intruder's best chance of guessing a
        respondent's true answer from a report.
    best_guess_value : int
        The answer u of that best guess.
    prior_guess : float
        max_u pi_u: the best guess without any report.
    t : float
        exp(eps/2), the t of t-closeness that gives eps-DP.
    cluster : explorer.core.closeness.WorstCaseCluster
        The most concentrated cluster still exp(eps/2)-close (Example 3 generalised).
    n : int
        Number of reports the accuracy figures assume.
    alpha : float
        One minus the confidence level of the error bound.
    report_error : float
        e_abs of the report frequencies (Eq. 5 of the 2022 paper).
    estimate_error : float
        Bound on max_u |pi-hat_u - pi_u| of the inversion estimate: e_abs propagated through (P^T)^-1.
    truth : ndarray
        The distribution of the n answers of the simulated run (the attribute's records, or draws from
        the prior).
    simulated_estimate : ndarray
        One simulated run: n answers drawn (or the attribute's records), randomized, estimated by
        inversion and projected onto the simplex.
    simulated_error : float
        max_u |pi-hat_u - pi_u| of that run.
    seed : int
        The seed of the simulated run.
    """

    epsilon: float
    labels: tuple[str, ...]
    prior: np.ndarray
    odds_bound: float
    matrix: np.ndarray
    prior_entropy: float
    conditional_entropy: float
    worst_report: int
    worst_report_entropy: float
    best_guess: float
    best_guess_value: int
    prior_guess: float
    t: float
    cluster: Any
    n: int
    alpha: float
    report_error: float
    estimate_error: float
    truth: np.ndarray
    simulated_estimate: np.ndarray
    simulated_error: float
    seed: int

    @property
    def odds_text(self) -> str:
        """The odds bound in words."""
        return den.describe_odds(self.epsilon)


def attribute_codes(frame: pd.DataFrame, attribute: str, *, max_categories: int = 64) -> tuple[list[str], np.ndarray]:
    """The categories present in a column and its records as codes ``0..r-1`` (missing values left out).

    Examples
    --------
    >>> labels, codes = attribute_codes(pd.DataFrame({"a": ["x", "y", "x", None]}), "a")
    >>> labels, codes.tolist()
    (['x', 'y'], [0, 1, 0])
    """
    if not isinstance(frame, pd.DataFrame) or attribute not in frame.columns:
        raise DatasetError(f"attribute {str(attribute)[:80]!r} is not a column of the current data set")
    column = frame[attribute].dropna()
    if isinstance(column.dtype, pd.CategoricalDtype):
        column = column.cat.remove_unused_categories()
        labels = [str(c) for c in column.cat.categories]
        codes = column.cat.codes.to_numpy(dtype=np.int64)
    else:
        values, uniques = pd.factorize(column, sort=True)
        labels, codes = [str(u) for u in uniques], values.astype(np.int64)
    if not 2 <= len(labels) <= max_categories:
        raise InvalidParameterError(
            f"attribute {str(attribute)[:80]!r} has {len(labels)} categories; 2 to {max_categories} can be read")
    return labels, codes


def _labels(labels: Sequence[Any] | None, r: int) -> tuple[str, ...]:
    if labels is None:
        return tuple(str(i) for i in range(r))
    out = tuple(str(label) for label in labels)
    if len(out) != r:
        raise InvalidParameterError(f"labels must have one entry per category ({r}), got {len(out)}")
    return out


def read_epsilon(epsilon: float, prior: ArrayLike, *, labels: Sequence[Any] | None = None, n: int = 1000,
                 alpha: float = 0.05, codes: ArrayLike | None = None, rng: Any = 0) -> EpsilonReading:
    """Read one epsilon through randomized response, t-closeness and estimation accuracy.

    Parameters
    ----------
    epsilon : float
        The privacy parameter, >= 0 (``inf`` means no randomization).
    prior : array_like, shape (r,)
        The attribute's distribution (weights, normalised here), r >= 2.
    labels : sequence of str, optional
        The categories' names.
    n : int
        Number of reports for the accuracy figures (when ``codes`` is given, its length wins).
    alpha : float
        One minus the confidence level of the error bound, in (0, 1).
    codes : array_like of int, optional
        The attribute's records as codes ``0..r-1``; the simulated run randomizes them. Without it the
        run draws n answers from ``prior``.
    rng : int or numpy.random.Generator
        Seed of the simulated run (default 0, so the same inputs give the same reading).

    Returns
    -------
    EpsilonReading

    Notes
    -----
    Odds: for an eps-DP matrix, Pr(X=u|Y=v)/Pr(X=u'|Y=v) <= e^eps pi_u/pi_u' (2018, Eq. 6).
    Deniability: H(X|Y=v) of Eq. 4 under the optimal matrix (keep the answer with probability
    e^eps/(e^eps + r - 1), report each other answer with 1/(e^eps + r - 1)).
    t-closeness: t = exp(eps/2) (Proposition 1); the worst cluster raises one value's share to
    min(t pi_j, 1 - (1 - pi_j)/t) (Example 3: r = 5 uniform, eps = 2 gives 0.54366 and 0.114086).
    Accuracy: e_abs = max_u sqrt(B lambda_u (1 - lambda_u)/n) with lambda = P^T pi and B the upper
    alpha/r point of a chi-square with 1 degree of freedom (2022, Eq. 5).

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
       differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.
    .. [2] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
       Transactions on Knowledge and Data Engineering, 2022.

    Examples
    --------
    >>> reading = read_epsilon(2.0, [0.2] * 5)
    >>> round(reading.odds_bound, 4), round(reading.t, 4)
    (7.3891, 2.7183)
    >>> reading.cluster.distribution.round(6).tolist()
    [0.543656, 0.114086, 0.114086, 0.114086, 0.114086]
    >>> round(reading.best_guess, 4)      # e^2 / (e^2 + 4)
    0.6488
    """
    eps = check_epsilon(epsilon)
    pi = check_weights(prior, "prior")
    if pi.size < 2:
        raise InvalidParameterError(f"prior must have at least 2 categories, got {pi.size}")
    pi = pi / pi.sum()
    r = pi.size
    names = _labels(labels, r)
    alpha = check_number(alpha, "alpha", minimum=0.0, maximum=1.0, include_minimum=False, include_maximum=False)
    generator = np.random.default_rng(rng)
    seed = int(rng) if isinstance(rng, (int, np.integer)) else -1

    # Randomized response: the optimal matrix and the deniability it leaves (2018, Eqs. 3-4).
    matrix = rr.optimal_matrix(r, eps, max_categories=max(r, rr.MAX_CATEGORIES))
    entropies = den.deniability_entropies(matrix, pi)
    reported = matrix.T @ pi
    used = reported > 0
    # Ties (a uniform prior makes every report equally telling) go to the first category, not to rounding.
    lowest = entropies[used].min()
    worst = int(np.flatnonzero(used & (entropies <= lowest + TIE_TOLERANCE))[0])
    posterior = den.posterior_matrix(matrix, pi)
    best_guess = float(np.nanmax(posterior))
    best_value = int(np.flatnonzero(np.nanmax(posterior, axis=0) >= best_guess - TIE_TOLERANCE)[0])

    # t-closeness (2018, Proposition 1 and Example 3).
    cluster = worst_case_cluster(pi, eps)

    # Accuracy of the estimated distribution (2022, Eqs. 5-6), and one simulated run.
    if codes is None:
        n = check_int(n, "n", minimum=1, maximum=10_000_000)
        truth_codes = generator.choice(r, size=n, p=pi)
    else:
        truth_codes = check_codes(codes, r, "codes", allow_empty=False)
        n = int(truth_codes.size)
    truth = np.bincount(truth_codes, minlength=r) / n
    bounds = rr.error_bounds(reported, n, alpha)
    estimate_bound = rr.estimate_error_bound(matrix, bounds) if math.isfinite(eps) else bounds.e_abs
    if eps == 0:
        estimate = np.full(r, 1.0 / r)                 # perfect secrecy: reports carry no information
    else:
        reports = rr.randomize(truth_codes, matrix, generator)
        estimate = rr.estimate_frequencies(reports, matrix, "simplex").estimate
    return EpsilonReading(
        epsilon=eps, labels=names, prior=pi, odds_bound=math.exp(eps) if eps < LARGE_EPSILON else math.inf,
        matrix=matrix, prior_entropy=float(den.entropy(pi)),
        conditional_entropy=den.conditional_entropy(matrix, pi), worst_report=worst,
        worst_report_entropy=float(entropies[worst]), best_guess=best_guess, best_guess_value=int(best_value),
        prior_guess=float(pi.max()), t=closeness_for_epsilon(eps), cluster=cluster, n=n, alpha=alpha,
        report_error=bounds.e_abs, estimate_error=float(estimate_bound), truth=truth, simulated_estimate=estimate,
        simulated_error=float(np.max(np.abs(estimate - truth))), seed=seed,
    )


def quote(value: float, digits: int = 3) -> str:
    if math.isinf(value):
        return "unbounded"
    if value >= 1e6:
        return f"{value:.2g}"
    return f"{value:,.{digits}g}" if value >= 100 else f"{value:.{digits}f}".rstrip("0").rstrip(".")


def epsilon_summary_lines(reading: EpsilonReading, attribute: str = "the attribute") -> dict[str, str]:
    """The reading in words, one sentence per model (what the view and the PNG/PDF summary print).

    Examples
    --------
    >>> lines = epsilon_summary_lines(read_epsilon(2.0, [0.2] * 5), "X")
    >>> lines["t-closeness"].startswith("t = exp(eps/2) = 2.718")
    True
    """
    r = reading
    label = r.labels
    cluster = r.cluster
    return {
        "odds": (f"Randomized response with epsilon = {quote(r.epsilon)}: {r.odds_text}."),
        "deniability": (
            f"On {attribute} (H(X) = {r.prior_entropy:.3f} bits), the optimal RR matrix leaves "
            f"H(X|Y) = {r.conditional_entropy:.3f} bits; after the most telling report "
            f"('{label[r.worst_report]}') H(X|Y=v) = {r.worst_report_entropy:.3f} bits, and the best guess of a "
            f"true answer is right with probability {r.best_guess:.3f} (without a report: {r.prior_guess:.3f})."),
        "t-closeness": (
            f"t = exp(eps/2) = {quote(r.t, 4)}: a cluster may raise the share of '{label[cluster.value]}' from "
            f"{r.prior[cluster.value]:.3f} to {cluster.distribution[cluster.value]:.3f}; an intruder who knows "
            f"a record's cluster guesses its value with probability {cluster.guessing:.3f} "
            f"(without: {cluster.data_guessing:.3f})."),
        "accuracy": (
            f"With n = {r.n:,} reports the estimated distribution is off by at most {r.estimate_error:.3g} "
            f"per category ({100 * (1 - r.alpha):.0f}% confidence); one simulated run was off by "
            f"{r.simulated_error:.3g}."),
    }
