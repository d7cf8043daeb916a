"""Distances between a cluster's distribution and the data set's, and the closeness level of epsilon.

The ratio distance of Domingo-Ferrer and Soria-Comas (2018) [1]_, Eq. (7), is the one under which
exp(eps/2)-closeness gives eps-differential privacy (Proposition 1 of the same paper, after
Domingo-Ferrer and Soria-Comas, 2015 [2]_); the two earth mover's distances are those of Li, Li and
Venkatasubramanian's t-closeness (2007) [3]_, which stay finite when a cluster lacks a value.  The
conventions followed (0/0 and x/0, the boundary d = t included) are listed in the documentation page
``docs/conventions.md`` ("Conventions and errata followed").

References
----------
.. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
   differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.
.. [2] J. Domingo-Ferrer and J. Soria-Comas, "From t-closeness to differential privacy and vice versa in
   data anonymization", Knowledge-Based Systems 74:151-158, 2015.
.. [3] N. Li, T. Li and S. Venkatasubramanian, "t-Closeness: privacy beyond k-anonymity and
   l-diversity", Proceedings of the 23rd IEEE International Conference on Data Engineering (ICDE),
   pp. 106-115, 2007.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from explorer._validation import check_epsilon, check_number
from explorer.errors import ExplorerTypeError, InvalidDistributionError, InvalidParameterError

__all__ = [
    "DISTANCES",
    "ratio_distance",
    "emd_equal",
    "emd_ordered",
    "distribution_distance",
    "closeness_for_epsilon",
    "epsilon_for_closeness",
]

#: Distances between a cluster's distribution and the data set's: the ratio distance (Domingo-Ferrer and
#: Soria-Comas 2018, Eq. 7) and the two EMDs of Li, Li and Venkatasubramanian (2007) (equal and ordered
#: ground distance).
DISTANCES = ("ratio", "emd", "emd_ordered")


def _pair(f1: ArrayLike, f2: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Two distributions on the same categories (rows of a 2-D ``f1`` are compared with ``f2``)."""
    try:
        a = np.asarray(f1, dtype=float)
        b = np.asarray(f2, dtype=float)
    except (TypeError, ValueError):
        raise ExplorerTypeError(f"f1 and f2 must be arrays of probabilities, got {f1!r} and {f2!r}") from None
    if a.ndim not in (1, 2) or b.ndim not in (1, 2):
        raise InvalidDistributionError(
            f"f1 and f2 must be vectors (or rows of vectors), got shapes {a.shape} and {b.shape}")
    if a.shape[-1] != b.shape[-1]:
        raise InvalidDistributionError(
            f"f1 and f2 must have the same number of categories, got {a.shape[-1]} and {b.shape[-1]}")
    if a.shape[-1] == 0:
        raise InvalidDistributionError("f1 and f2 must not be empty")
    for name, x in (("f1", a), ("f2", b)):
        if not np.all(np.isfinite(x)) or np.any(x < 0):
            raise InvalidDistributionError(f"{name} must contain non-negative finite probabilities, got {x!r}")
    return a, b


def ratio_distance(f1: ArrayLike, f2: ArrayLike) -> float | np.ndarray:
    """The max-ratio distance (Domingo-Ferrer and Soria-Comas 2018, Eq. 7) between two discrete distributions.

    Parameters
    ----------
    f1, f2 : array_like
        Probability vectors on the same categories.  ``f1`` may be 2-D: one
        distribution per row, each compared with ``f2`` (a vector of distances).

    Returns
    -------
    float or ndarray
        ``max_i max(f1_i / f2_i, f2_i / f1_i)``; 0/0 counts as 0 and x/0 as infinity.

    Notes
    -----
    Domingo-Ferrer and Soria-Comas (2018), Eq. (7) [1]_:

    .. math:: d(F_1, F_2) = \\max_i \\left\\{ \\frac{\\Pr_{F_1}(x_i)}{\\Pr_{F_2}(x_i)},
              \\frac{\\Pr_{F_2}(x_i)}{\\Pr_{F_1}(x_i)} \\right\\}

    It is symmetric, at least 1 for two proper distributions, and infinite iff
    their supports differ.  A data set is t-close when every cluster is within
    t of the whole data set (boundary included: Example 3 of [1]_ sits on d = e;
    see ``docs/conventions.md``).

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
       differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.

    Computes: Domingo-Ferrer and Soria-Comas (2018), Eq. 7.

    Examples
    --------
    >>> import math
    >>> e = math.e
    >>> round(ratio_distance([0.2 * e] + [(1 - 0.2 * e) / 4] * 4, [0.2] * 5), 6)   # Example 3
    2.718282
    >>> ratio_distance([0.5, 0.5, 0.0], [0.4, 0.4, 0.2])
    inf
    """
    a, b = _pair(f1, f2)
    with np.errstate(divide="ignore", invalid="ignore"):
        forward = np.where(a > 0, a / b, 0.0)           # x/0 -> inf, 0/anything -> 0 (incl. 0/0)
        backward = np.where(b > 0, b / a, 0.0)
    result = np.maximum(forward, backward).max(axis=-1)
    return float(result) if np.ndim(result) == 0 else result


def emd_equal(f1: ArrayLike, f2: ArrayLike) -> float | np.ndarray:
    """Earth mover's distance with equal ground distance: half the L1 distance (total variation).

    Notes
    -----
    With ground distance 1 between any two different values (Li, Li and Venkatasubramanian 2007 [1]_),
    :math:`EMD(P, Q) = \\frac12 \\sum_i |p_i - q_i|`.  Unlike Eq. (7) it stays
    finite when a cluster lacks a value.

    References
    ----------
    .. [1] N. Li, T. Li and S. Venkatasubramanian, "t-Closeness: privacy beyond k-anonymity and
       l-diversity", Proceedings of the 23rd IEEE International Conference on Data Engineering (ICDE),
       pp. 106-115, 2007.

    Examples
    --------
    >>> round(emd_equal([1/3, 1/3, 1/3, 0, 0, 0, 0, 0, 0], [1/9] * 9), 4)   # the salary example of [1]_
    0.6667
    """
    a, b = _pair(f1, f2)
    result = 0.5 * np.abs(a - b).sum(axis=-1)
    return float(result) if np.ndim(result) == 0 else result


def emd_ordered(f1: ArrayLike, f2: ArrayLike) -> float | np.ndarray:
    """Earth mover's distance with ordered ground distance ``|i - j| / (r - 1)``.

    Notes
    -----
    For values in a fixed order (Li, Li and Venkatasubramanian 2007 [1]_, ordered distance),
    :math:`EMD(P, Q) = \\frac{1}{r-1} \\sum_{i=1}^{r} \\left| \\sum_{j \\le i} (p_j - q_j) \\right|`.
    With one category it is 0.

    References
    ----------
    .. [1] N. Li, T. Li and S. Venkatasubramanian, "t-Closeness: privacy beyond k-anonymity and
       l-diversity", Proceedings of the 23rd IEEE International Conference on Data Engineering (ICDE),
       pp. 106-115, 2007.

    Examples
    --------
    >>> q = [1/9] * 9                                   # salaries 3k..11k, uniform
    >>> round(emd_ordered([1/3, 1/3, 1/3, 0, 0, 0, 0, 0, 0], q), 3)      # {3k, 4k, 5k}
    0.375
    >>> round(emd_ordered([0, 0, 0, 1/3, 0, 1/3, 0, 0, 1/3], q), 3)      # {6k, 8k, 11k}
    0.167
    """
    a, b = _pair(f1, f2)
    r = a.shape[-1]
    if r == 1:
        result = np.zeros(a.shape[:-1])
    else:
        result = np.abs(np.cumsum(a - b, axis=-1)).sum(axis=-1) / (r - 1)
    return float(result) if np.ndim(result) == 0 else result


_DISTANCE_FUNCTIONS = {"ratio": ratio_distance, "emd": emd_equal, "emd_ordered": emd_ordered}


def _check_distance(distance: Any) -> str:
    if distance not in _DISTANCE_FUNCTIONS:
        raise InvalidParameterError(f"distance must be one of {DISTANCES}, got {distance!r}")
    return distance


def distribution_distance(f1: ArrayLike, f2: ArrayLike, distance: str = "ratio") -> float | np.ndarray:
    """Distance ``"ratio"`` (:func:`ratio_distance`), ``"emd"`` (:func:`emd_equal`) or ``"emd_ordered"``.

    Examples
    --------
    >>> distribution_distance([0.5, 0.5], [0.25, 0.75], "emd")
    0.25
    """
    return _DISTANCE_FUNCTIONS[_check_distance(distance)](f1, f2)


def closeness_for_epsilon(epsilon: float) -> float:
    """The closeness level t = exp(eps/2) that gives eps-DP (Domingo-Ferrer and Soria-Comas 2018, Proposition 1).

    Notes
    -----
    Proposition 1 of [1]_ (from [2]_): exp(eps/2)-closeness under the ratio
    distance (Eq. 7) implies eps-differential privacy of the view of a subject's
    sensitive value.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
       differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.
    .. [2] J. Domingo-Ferrer and J. Soria-Comas, "From t-closeness to differential privacy and vice versa in
       data anonymization", Knowledge-Based Systems 74:151-158, 2015.

    Computes: Domingo-Ferrer and Soria-Comas (2018), Prop. 1; Domingo-Ferrer and Soria-Comas (2018), Example 2.

    Examples
    --------
    >>> round(closeness_for_epsilon(2), 6)              # Example 2 of [1]_: factor e
    2.718282
    """
    eps = check_epsilon(epsilon)
    return math.inf if math.isinf(eps) else math.exp(eps / 2.0)


def epsilon_for_closeness(t: float) -> float:
    """The epsilon that exp(eps/2) = t certifies: eps = 2 ln t (t >= 1 under Eq. 7 of Domingo-Ferrer and Soria-Comas (2018)).

    Computes: Domingo-Ferrer and Soria-Comas (2018), Prop. 1.

    Examples
    --------
    >>> round(epsilon_for_closeness(math.e), 6)
    2.0
    """
    value = check_number(t, "t", minimum=1.0, allow_inf=True)
    return math.inf if math.isinf(value) else 2.0 * math.log(value)
