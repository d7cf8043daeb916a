"""Choose epsilon from what you need: the readings of :mod:`explorer.core.epsilon_meaning`, run backwards.

:func:`read_epsilon <explorer.core.epsilon_meaning.read_epsilon>` reads one epsilon forwards (the odds, the
deniability, the t-closeness cluster, the accuracy).  :func:`choose_epsilon` takes what a practitioner
needs instead and returns the band of epsilons that meets all of it:

- each **privacy requirement** bounds epsilon from above (``max_odds``, ``max_best_guess``,
  ``min_deniability``, ``max_cluster_guess``), read exactly as ``read_epsilon`` reads it, at the combined
  epsilon k eps of ``reports_per_person = k`` reports of one person (sequential composition);
- the **accuracy requirement** (``max_error``) bounds epsilon from below: one report's randomization must
  leave the estimated distribution of n reports within the error asked.

:func:`repeated_reports` reads the same optimal randomized response over time: k reports of the same answer
give the posterior of one report at k eps, while memoized randomized response (each person randomizes once
and repeats that report) keeps one report's posterior.

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
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from scipy import optimize, special

from explorer._validation import check_epsilon, check_int, check_number, check_weights
from explorer.core.releases import read_release, releases
from explorer.errors import InvalidParameterError

__all__ = ["REQUIREMENTS", "RequirementBound", "EpsilonChoice", "choose_epsilon", "RepeatedReports",
           "repeated_reports", "best_guess_curve", "deniability_curve", "error_curve", "choice_summary_lines",
           "releases", "read_release"]

#: The requirements :func:`choose_epsilon` takes, in the order it reports them, with what each asks in words.
REQUIREMENTS: dict[str, str] = {
    "max_odds": "a report multiplies the odds between two answers by at most",
    "max_best_guess": "an intruder's best guess of a true answer after the reports is right with probability at most",
    "min_deniability": "the deniability H(X|Y) left is at least (bits)",
    "max_cluster_guess": "the best guess knowing a record's worst t-close cluster is at most",
    "max_error": "the estimated distribution is off by at most (per category)",
}
#: Short names of the requirements (figure labels, tables).
SHORT = {"max_odds": "odds", "max_best_guess": "best guess", "min_deniability": "deniability",
         "max_cluster_guess": "cluster guess", "max_error": "accuracy"}
#: Relative tolerance of the root finding (the bounds are accurate to far better than 1e-9 relative).
RTOL = 1e-13
#: Largest n a search for the smallest number of reports goes to.
MAX_REPORTS = 10**15


# --------------------------------------------------------------------------- the readings as functions of epsilon
def _prior(prior: ArrayLike) -> np.ndarray:
    pi = check_weights(prior, "prior")
    if pi.size < 2:
        raise InvalidParameterError(f"prior must have at least 2 categories, got {pi.size}")
    return pi / pi.sum()


def _entropy(p: np.ndarray, axis: int = -1) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, -p * np.log2(np.where(p > 0, p, 1.0)), 0.0)
    return terms.sum(axis=axis)


def best_guess_curve(prior: ArrayLike, epsilon: ArrayLike) -> np.ndarray:
    """The best guess after one report of the optimal RR matrix at each epsilon (``read_epsilon(...).best_guess``).

    Parameters
    ----------
    prior : array_like, shape (r,)
        The attribute's counts or shares.
    epsilon : array_like
        Epsilons >= 0 (``inf`` allowed).

    Returns
    -------
    ndarray
        pi_max e^eps / (pi_max e^eps + 1 - pi_max): the report of the most frequent answer, which multiplies its
        odds by e^eps (Domingo-Ferrer and Soria-Comas (2018), Eq. 3 under the optimal matrix).  Increasing in
        epsilon, from pi_max at 0 to 1.

    Examples
    --------
    >>> best_guess_curve([0.2] * 5, [0.0, 2.0]).round(4).tolist()
    [0.2, 0.6488]
    """
    pi_max = float(_prior(prior).max())
    x = np.exp(-np.asarray(epsilon, dtype=float))           # e^-eps: stable for large epsilons
    return pi_max / (pi_max + (1.0 - pi_max) * x)


def deniability_curve(prior: ArrayLike, epsilon: ArrayLike) -> np.ndarray:
    """H(X|Y) in bits under the optimal RR matrix at each epsilon (``read_epsilon(...).conditional_entropy``).

    Notes
    -----
    H(X|Y) = H(X, Y) - H(Y) = H(X) + H(row) - H(lambda) (Domingo-Ferrer and Soria-Comas (2018), Eqs. 3-4): every
    row of the optimal matrix holds e^eps/(e^eps + r - 1) once and 1/(e^eps + r - 1) r - 1 times, and
    lambda = P^T pi is the distribution of the reports.  Non-increasing in epsilon: the optimal matrix at a smaller epsilon is the
    one at a larger epsilon followed by another keep-or-uniform matrix, and further randomization never lowers
    H(X|Y) (data processing).

    Examples
    --------
    >>> deniability_curve([0.5, 0.5], [0.0, float("inf")]).tolist()
    [1.0, 0.0]
    """
    return _deniability(_prior(prior), epsilon)


def _deniability(pi: np.ndarray, epsilon: ArrayLike) -> np.ndarray:
    """H(X|Y) = H(X) + H(P_u.) - H(lambda): every row of the optimal matrix has the same entropy."""
    x = np.exp(-np.asarray(epsilon, dtype=float))[..., None]
    r = pi.size
    keep = 1.0 / (1.0 + (r - 1) * x)                         # e^eps / (e^eps + r - 1)
    other = x * keep                                         # 1 / (e^eps + r - 1)
    lam = pi * keep + (1.0 - pi) * other
    row = _entropy(keep) + (r - 1) * _entropy(other)
    return np.maximum(_entropy(pi) + row - _entropy(lam), 0.0)


def _error_factor(pi: np.ndarray, epsilon: ArrayLike, b: float) -> np.ndarray:
    """sqrt(n) times the error bound of the estimate: ||(P^T)^-1||_inf max_u sqrt(B lambda_u (1 - lambda_u))."""
    eps = np.asarray(epsilon, dtype=float)
    x = np.exp(-eps)[..., None]
    r = pi.size
    lam = (pi + (1.0 - pi) * x) / (1.0 + (r - 1) * x)
    with np.errstate(divide="ignore"):
        norm = np.where(x[..., 0] < 1.0, (1.0 + (2 * r - 3) * x[..., 0]) / (1.0 - x[..., 0]), np.inf)
    return norm * np.sqrt(b * np.max(lam * (1.0 - lam), axis=-1))


def _chi2(r: int, confidence: float) -> float:
    return float(special.chdtri(1, (1.0 - confidence) / r))


def error_curve(prior: ArrayLike, epsilon: ArrayLike, n: int, confidence: float = 0.95) -> np.ndarray:
    """The error bound of the estimated distribution from n reports at each epsilon (``read_epsilon(...).estimate_error``).

    Notes
    -----
    ||(P^T)^-1||_inf e_abs with e_abs = max_u sqrt(B lambda_u (1 - lambda_u) / n) (Domingo-Ferrer and
    Soria-Comas (2022), Eq. 5) and, for the optimal matrix, ||(P^T)^-1||_inf = (e^eps + 2r - 3) / (e^eps - 1).
    Infinite at epsilon = 0; proportional to 1/sqrt(n).  Decreasing in epsilon: the norm falls faster than
    the report frequencies' spread can grow (checked over random priors by the tests).

    Examples
    --------
    >>> round(float(error_curve([0.5, 0.5], math.log(3), 100)), 4)
    0.2241
    """
    pi = _prior(prior)
    n = check_int(n, "n", minimum=1, maximum=MAX_REPORTS)
    confidence = _confidence(confidence)
    return _error_factor(pi, epsilon, _chi2(pi.size, confidence)) / math.sqrt(n)


def _confidence(confidence: Any) -> float:
    return check_number(confidence, "confidence", minimum=0.0, maximum=1.0, include_minimum=False,
                        include_maximum=False)


def _cluster_guess(pi_max: float, epsilon: float) -> float:
    t = math.exp(epsilon / 2.0) if epsilon < 1400 else math.inf
    return 1.0 if math.isinf(t) else min(t * pi_max, 1.0 - (1.0 - pi_max) / t)


def _root(f, lo: float, hi: float) -> float:
    """The epsilon in [lo, hi] where the monotone ``f`` changes sign (brentq to RTOL relative)."""
    return float(optimize.brentq(f, lo, hi, xtol=1e-300, rtol=RTOL, maxiter=500))


def _bracket_down(f, start: float = 1.0) -> float:
    """An epsilon where the decreasing ``f`` is negative (doubling from ``start``), or inf if none below 1e4."""
    eps = start
    while eps < 1e4:
        if f(eps) < 0:
            return eps
        eps *= 2.0
    return math.inf


# --------------------------------------------------------------------------- results
@dataclass(frozen=True)
class RequirementBound:
    """What one requirement allows of epsilon (per report, after composition over the reports of a person).

    Attributes
    ----------
    name : str
        The requirement (a keyword of :func:`choose_epsilon`).
    value : float
        What was asked.
    side : str
        ``"high"`` (privacy: epsilon at most ``bound``) or ``"low"`` (accuracy: epsilon at least ``bound``).
    bound : float
        The epsilon bound; ``inf`` (or 0 for ``"low"``) when it does not bound epsilon; ``nan`` when no
        epsilon meets the requirement.
    feasible : bool
        Whether some epsilon meets the requirement on its own.
    reason : str
        Why no epsilon meets it (empty when it can be met).
    """

    name: str
    value: float
    side: str
    bound: float
    feasible: bool
    reason: str = ""

    @property
    def label(self) -> str:
        """The requirement in a few words (``"best guess ≤ 0.6"``)."""
        sign = "≥" if self.name == "min_deniability" else "≤"
        unit = " bits" if self.name == "min_deniability" else ""
        return f"{SHORT[self.name]} {sign} {self.value:.4g}{unit}"


@dataclass(frozen=True)
class EpsilonChoice:
    """The epsilons that meet every requirement: the band ``low <= epsilon <= high`` (per report).

    Attributes
    ----------
    low, high : float
        The band's ends (0 and inf when unbounded).  The privacy bounds are per report: the combined epsilon
        of a person's ``reports_per_person`` reports is ``reports_per_person * high``.
    feasible : bool
        Whether every requirement can be met at once (``low <= high``, each requirement feasible).
    low_by, high_by : str or None
        The requirement that gives each end (None when that end is unbounded).
    min_reports : int or None
        When accuracy is asked: the smallest number of reports n whose error bound at ``high`` is within
        ``max_error`` (so at most ``n`` when feasible, above it when the requirements conflict); None when
        accuracy is not asked or no n helps (the privacy requirements leave only epsilon = 0, or one cannot be met).
    bounds : tuple of RequirementBound
        Each requirement asked, in the order of :data:`REQUIREMENTS`.
    reasons : tuple of str
        Why the requirements cannot be met (empty when feasible).
    n : int or None
        Number of reports the accuracy requirement assumes.
    confidence : float
        Confidence level of the error bound.
    reports_per_person : int
        Reports by one person that compose.
    prior : ndarray
        The attribute's distribution (sums to 1).
    """

    low: float
    high: float
    feasible: bool
    low_by: str | None
    high_by: str | None
    min_reports: int | None
    bounds: tuple[RequirementBound, ...]
    reasons: tuple[str, ...]
    n: int | None
    confidence: float
    reports_per_person: int
    prior: np.ndarray

    @property
    def asked(self) -> tuple[str, ...]:
        """The requirements asked."""
        return tuple(b.name for b in self.bounds)

    def bound(self, name: str) -> RequirementBound:
        """The bound of requirement ``name``."""
        for item in self.bounds:
            if item.name == name:
                return item
        raise InvalidParameterError(f"requirement must be one of {list(self.asked)}, got {name!r}")

    def suggestion(self, maximum: float = math.inf, step: float | None = None) -> float | None:
        """A round epsilon inside the band (and at most ``maximum``), near its middle; None when there is none.

        With ``step`` (a slider's step), a multiple of it when the band holds one.

        Examples
        --------
        >>> choose_epsilon([0.5, 0.5], max_odds=math.e ** 2).suggestion()
        1.0
        >>> choose_epsilon([0.5, 0.5], max_odds=1.5, max_error=0.1, n=5000).suggestion(step=0.05)
        0.35
        """
        high = min(self.high, maximum)
        if not self.feasible or self.low > high:
            return None
        if math.isinf(high):
            target = self.low * 2.0 if self.low > 0 else 1.0
            high = max(target, self.low) * 4.0
        else:
            target = (self.low + high) / 2.0
        if step is not None and step > 0:
            for value in (round(target / step) * step, math.ceil(self.low / step) * step):
                value = float(f"{value:.10g}")
                if self.low <= value <= high:
                    return value
        if target == 0:
            return 0.0
        for digits in range(1, 12):
            value = float(f"{target:.{digits}g}")
            if self.low <= value <= high:
                return value
        return target


# --------------------------------------------------------------------------- choose
def _privacy_bounds(pi: np.ndarray, k: int, asked: dict[str, float]) -> list[RequirementBound]:
    pi_max = float(pi.max())
    h_x = float(_entropy(pi))
    out = []
    if "max_odds" in asked:
        odds = asked["max_odds"]
        out.append(RequirementBound("max_odds", odds, "high", math.log(odds) / k, True))
    if "max_best_guess" in asked:
        p = asked["max_best_guess"]
        if p < pi_max:
            out.append(RequirementBound("max_best_guess", p, "high", math.nan, False, (
                f"A best guess of at most {p:g} cannot be met: without any report the best guess is already "
                f"{pi_max:.4g} (the most frequent category's share).")))
        else:
            # pi_max e^eps / (pi_max e^eps + 1 - pi_max) <= p  <=>  eps <= logit(p) - logit(pi_max)
            bound = math.inf if p >= 1 else (math.log(p / (1 - p)) - math.log(pi_max / (1 - pi_max))) / k
            out.append(RequirementBound("max_best_guess", p, "high", max(bound, 0.0), True))
    if "min_deniability" in asked:
        h = asked["min_deniability"]
        if h > h_x * (1 + 1e-12):
            out.append(RequirementBound("min_deniability", h, "high", math.nan, False, (
                f"A deniability of at least {h:g} bits cannot be met: the attribute's own entropy H(X) is "
                f"{h_x:.4g} bits, the most any randomization can leave.")))
        elif h <= 0:
            out.append(RequirementBound("min_deniability", h, "high", math.inf, True))
        elif h >= h_x:
            out.append(RequirementBound("min_deniability", h, "high", 0.0, True))
        else:
            def f(eps: float) -> float:
                return float(_deniability(pi, eps)) - h
            hi = _bracket_down(f)
            bound = _root(f, 0.0, hi) if math.isfinite(hi) else math.inf
            out.append(RequirementBound("min_deniability", h, "high", bound / k, True))
    if "max_cluster_guess" in asked:
        p = asked["max_cluster_guess"]
        if p < pi_max:
            out.append(RequirementBound("max_cluster_guess", p, "high", math.nan, False, (
                f"A best guess knowing the cluster of at most {p:g} cannot be met: the whole data set's best guess "
                f"is already {pi_max:.4g}.")))
        elif p >= 1:
            out.append(RequirementBound("max_cluster_guess", p, "high", math.inf, True))
        else:
            # min(t pi_max, 1 - (1 - pi_max)/t) <= p  <=>  t <= max(p / pi_max, (1 - pi_max) / (1 - p))
            t = max(p / pi_max, (1.0 - pi_max) / (1.0 - p))
            out.append(RequirementBound("max_cluster_guess", p, "high", max(2.0 * math.log(t), 0.0) / k, True))
    return out


def _accuracy_bound(pi: np.ndarray, n: int, e: float, b: float) -> RequirementBound:
    floor = float(_error_factor(pi, math.inf, b)) / math.sqrt(n)
    if floor > e:
        return RequirementBound("max_error", e, "low", math.inf, False, (
            f"An error of at most {e:g} cannot be met with n = {n:,} reports: even without randomization the "
            f"bound is {floor:.4g}."))
    if floor == e:
        return RequirementBound("max_error", e, "low", math.inf, True)
    scale = math.sqrt(n)

    def f(eps: float) -> float:
        return float(_error_factor(pi, eps, b)) / scale - e
    hi = _bracket_down(f)
    low = _root(f, 0.0, hi) if math.isfinite(hi) else math.inf
    return RequirementBound("max_error", e, "low", low, True)


def _min_reports(pi: np.ndarray, high: float, e: float, b: float) -> int | None:
    """The smallest n with error bound at ``high`` <= e (exact: the integer search checks n and n - 1)."""
    if high <= 0:
        return None
    factor = float(_error_factor(pi, high, b))
    if factor == 0:
        return 1
    n = max(1, math.ceil((factor / e) ** 2))
    if n > MAX_REPORTS:
        return None

    def meets(m: int) -> bool:
        return factor / math.sqrt(m) <= e
    while n > 1 and meets(n - 1):
        n -= 1
    while not meets(n):
        n += 1
    return n


def _default_n(pi_raw: np.ndarray) -> int | None:
    total = float(pi_raw.sum())
    if np.all(pi_raw == np.round(pi_raw)) and total > 1:
        return int(round(total))
    return None


def choose_epsilon(prior: ArrayLike, n: int | None = None, *, max_odds: float | None = None,
                   max_best_guess: float | None = None, min_deniability: float | None = None,
                   max_cluster_guess: float | None = None, max_error: float | None = None,
                   confidence: float = 0.95, reports_per_person: int = 1) -> EpsilonChoice:
    """The epsilons (per report) that meet every requirement asked: :func:`read_epsilon` run backwards.

    Parameters
    ----------
    prior : array_like, shape (r,)
        The attribute's counts or shares, r >= 2.
    n : int, optional
        Number of reports the accuracy requirement assumes; by default the prior's total when it holds counts
        (whole numbers summing to more than 1).  Needed with ``max_error`` when the prior holds shares.
    max_odds : float, optional
        e^(k eps) <= max_odds (>= 1): a person's k reports multiply the odds between two answers by at most this.
    max_best_guess : float, optional
        ``read_epsilon(k eps, prior).best_guess <= max_best_guess`` (in (0, 1]).
    min_deniability : float, optional
        ``read_epsilon(k eps, prior).conditional_entropy >= min_deniability`` bits (>= 0).
    max_cluster_guess : float, optional
        ``read_epsilon(k eps, prior).cluster.guessing <= max_cluster_guess`` (in (0, 1]): the best guess knowing
        the most concentrated exp(k eps/2)-close cluster.
    max_error : float, optional
        ``read_epsilon(eps, prior, n=n, alpha=1 - confidence).estimate_error <= max_error`` (> 0): a lower
        bound on epsilon (per report: each report is estimated at its own epsilon).
    confidence : float
        Confidence level of the error bound, in (0, 1).
    reports_per_person : int
        k >= 1: reports by one person that compose (k reports at eps count as k eps).

    Returns
    -------
    EpsilonChoice

    Notes
    -----
    Each privacy bound is read at the combined epsilon k eps, so it is the one-report bound divided by k.  For
    the odds and the best guess this is exact: k reports of the same answer through the optimal matrix
    multiply its odds by (e^eps)^k, the worst any k reports can do.  For the deniability and the cluster it is
    the composition bound.

    How each bound is found (all to about 1e-13 relative, far inside 1e-9):

    - odds: eps = ln(max_odds) / k;
    - best guess: pi_max e^(k eps) / (pi_max e^(k eps) + 1 - pi_max) is increasing in eps, so
      k eps = logit(p) - logit(pi_max);
    - cluster: min(t pi_max, 1 - (1 - pi_max) / t), t = exp(k eps / 2), is increasing in t, so
      t = max(p / pi_max, (1 - pi_max) / (1 - p));
    - deniability: H(X|Y) is non-increasing in epsilon (data processing, :func:`deniability_curve`): brentq;
    - accuracy: the error bound decreases in epsilon (:func:`error_curve`): brentq; it is proportional to
      1/sqrt(n), so the smallest n is ceil((factor at ``high`` / e)^2), then checked at n and n - 1.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
       differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.
    .. [2] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE Transactions
       on Knowledge and Data Engineering, 2022.

    Examples
    --------
    >>> choice = choose_epsilon([0.2] * 5, 1000, max_best_guess=0.6, max_error=0.1)
    >>> round(choice.low, 4), round(choice.high, 4), choice.high_by, choice.low_by, choice.min_reports
    (1.5823, 1.7918, 'max_best_guess', 'max_error', 718)
    """
    raw = check_weights(prior, "prior")
    pi = _prior(prior)
    k = check_int(reports_per_person, "reports_per_person", minimum=1, maximum=1_000_000)
    confidence = _confidence(confidence)
    asked: dict[str, float] = {}
    if max_odds is not None:
        asked["max_odds"] = check_number(max_odds, "max_odds", minimum=1.0, allow_inf=True)
    if max_best_guess is not None:
        asked["max_best_guess"] = check_number(max_best_guess, "max_best_guess", minimum=0.0, maximum=1.0,
                                               include_minimum=False)
    if min_deniability is not None:
        asked["min_deniability"] = check_number(min_deniability, "min_deniability", minimum=0.0)
    if max_cluster_guess is not None:
        asked["max_cluster_guess"] = check_number(max_cluster_guess, "max_cluster_guess", minimum=0.0,
                                                  maximum=1.0, include_minimum=False)
    if max_error is not None:
        asked["max_error"] = check_number(max_error, "max_error", minimum=0.0, include_minimum=False)
    if n is None:
        n = _default_n(raw)
        if n is None and "max_error" in asked:
            raise InvalidParameterError("n is needed with max_error when the prior holds shares, got None")
    else:
        n = check_int(n, "n", minimum=1, maximum=MAX_REPORTS)

    bounds = _privacy_bounds(pi, k, asked)
    reasons = [b.reason for b in bounds if not b.feasible]
    privacy_ok = not reasons
    high, high_by = math.inf, None
    for item in bounds:
        if item.feasible and item.bound < high:
            high, high_by = item.bound, item.name
    low, low_by, min_reports = 0.0, None, None
    if "max_error" in asked:
        e = asked["max_error"]
        b = _chi2(pi.size, confidence)
        accuracy = _accuracy_bound(pi, n, e, b)
        bounds.append(accuracy)
        low, low_by = accuracy.bound, "max_error"
        if privacy_ok:
            min_reports = _min_reports(pi, high, e, b)
        # Feasible exactly when the error bound at `high` meets e, the test min_reports uses.
        meets = high > 0 and min_reports is not None and min_reports <= n
        if not accuracy.feasible:
            more = (f" {min_reports:,} reports would do at epsilon = {high:.4g}." if min_reports is not None
                    else "")
            reasons.append(accuracy.reason + more)
        elif privacy_ok and not meets:
            if high <= 0:
                reasons.append(f"The privacy requirements leave only epsilon = 0 (set by the {SHORT[high_by]}), where reports carry "
                               "no information: no number of reports meets the error asked.")
            else:
                more = (f" {min_reports:,} reports would do." if min_reports is not None else "")
                reasons.append(f"The privacy requirements allow at most epsilon = {high:.4g} per report "
                               f"(set by the {SHORT[high_by]}), but an error of at most {e:g} with n = {n:,} reports needs at least "
                               f"epsilon = {low:.4g}.{more}")
        elif meets:
            low = min(low, high)
    feasible = not reasons
    return EpsilonChoice(low=float(low), high=float(high), feasible=feasible, low_by=low_by, high_by=high_by,
                         min_reports=min_reports, bounds=tuple(bounds), reasons=tuple(reasons), n=n,
                         confidence=confidence, reports_per_person=k, prior=pi)


def _eps(value: float) -> str:
    return "∞" if math.isinf(value) else f"{value:.4g}"


def choice_summary_lines(choice: EpsilonChoice, period: str = "") -> list[str]:
    """The choice in words, one sentence per line (the view and the one-page summary print them).

    Examples
    --------
    >>> choice_summary_lines(choose_epsilon([0.5, 0.5], max_odds=3))[0]
    'Asked: odds ≤ 3.'
    """
    if not choice.bounds:
        return ["No requirement asked: every epsilon is allowed."]
    lines = ["Asked: " + "; ".join(b.label for b in choice.bounds) + "."]
    k = choice.reports_per_person
    if k > 1:
        lines.append(f"Each person reports {k} times{' ' + period if period else ''}: the privacy bounds are "
                     f"per report, the combined epsilon is {k} times it.")
    for item in choice.bounds:
        if item.feasible:
            side = "at least" if item.side == "low" else "at most"
            lines.append(f"{SHORT[item.name].capitalize()}: epsilon {side} {_eps(item.bound)}.")
    if choice.feasible:
        ends = ([f"the upper end set by {SHORT[choice.high_by]}"] if choice.high_by else []) + (
            [f"the lower end by {SHORT[choice.low_by]}"] if choice.low_by else [])
        lines.append(f"Band: {_eps(choice.low)} <= epsilon <= {_eps(choice.high)} per report"
                     + (f" ({', '.join(ends)})" if ends else "") + ".")
    else:
        lines.extend(choice.reasons)
    if choice.min_reports is not None:
        lines.append(f"Smallest number of reports that meets the error asked at epsilon = {_eps(choice.high)}: "
                     f"{choice.min_reports:,}.")
    return lines


# --------------------------------------------------------------------------- repeated reports over time
@dataclass(frozen=True)
class RepeatedReports:
    """The best guess after k reports of the same answer, fresh randomization vs memoized.

    Attributes
    ----------
    reports : ndarray of int
        k = 1, 2, ..., max_reports.
    combined_epsilon : ndarray
        k eps: what sequential composition charges for k fresh reports.
    fresh : ndarray
        The best guess after k reports of the same answer, each randomized afresh: one report at k eps.
    memoized : ndarray
        The best guess under memoized randomized response (randomize once, repeat that report): one
        report's, whatever k.
    prior_guess : float
        The best guess without any report (pi_max).
    epsilon : float
        Epsilon per report.
    """

    reports: np.ndarray
    combined_epsilon: np.ndarray
    fresh: np.ndarray
    memoized: np.ndarray
    prior_guess: float
    epsilon: float


def repeated_reports(prior: ArrayLike, epsilon: float, max_reports: int | None = None) -> RepeatedReports:
    """Randomized response read over time: k fresh reports of the same answer vs memoized randomized response.

    Parameters
    ----------
    prior : array_like, shape (r,)
        The attribute's counts or shares, r >= 2.
    epsilon : float
        Epsilon of one report (>= 0).
    max_reports : int, optional
        The curves run over k = 1 .. max_reports.  By default, until a little after the fresh best guess passes
        0.99 (5 to 60 reports; 10 at epsilon = 0).

    Returns
    -------
    RepeatedReports

    Notes
    -----
    k reports of answer v through the optimal matrix have likelihood a^k if the true answer is v and b^k
    otherwise (a/b = e^eps), so the posterior is that of one report at k eps (Domingo-Ferrer and Soria-Comas
    (2018), Eq. 3): the best guess pi_max e^(k eps) / (pi_max e^(k eps) + 1 - pi_max) tends to 1.  Memoized
    randomized response (RAPPOR's permanent randomized response) repeats one randomized report, which tells
    nothing new: the best guess stays at one report's.

    Examples
    --------
    >>> rep = repeated_reports([0.2] * 5, 1.0, 3)
    >>> rep.fresh.round(3).tolist(), rep.memoized.round(3).tolist()
    ([0.405, 0.649, 0.834], [0.405, 0.405, 0.405])
    """
    pi = _prior(prior)
    eps = check_epsilon(epsilon)
    if max_reports is None:
        pi_max = float(pi.max())
        if eps == 0 or pi_max >= 0.99:
            m = 10
        else:
            k99 = math.ceil((math.log(99.0) - math.log(pi_max / (1 - pi_max))) / eps) if math.isfinite(eps) else 1
            m = int(min(60, max(5, math.ceil(1.5 * k99) + 1)))
    else:
        m = check_int(max_reports, "max_reports", minimum=1, maximum=10_000)
    k = np.arange(1, m + 1)
    combined = k * eps if math.isfinite(eps) else np.full(m, math.inf)
    fresh = best_guess_curve(pi, combined)
    memo = np.full(m, float(best_guess_curve(pi, eps)))
    return RepeatedReports(reports=k, combined_epsilon=combined.astype(float), fresh=fresh, memoized=memo,
                           prior_guess=float(pi.max()), epsilon=eps)
