"""Count queries of Domingo-Ferrer and Soria-Comas (2022), Section 6.5, and their errors (Eq. 16).

A query S covers a share sigma of the value combinations of two random attributes; its
frequency is estimated from RR-Independent's marginals, RR-Clusters' joint distributions or
weighted records (RR-Adjustment).

References
----------
.. [1] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
   Transactions on Knowledge and Data Engineering, 2022.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from explorer._validation import check_number, check_rng
from explorer.core.mdrr.protocols import ClustersResult, _outer_in_order
from explorer.errors import InvalidParameterError

__all__ = [
    "CountQuery",
    "random_count_query",
    "query_frequency_independent",
    "query_frequency_clusters",
    "query_frequency_weighted",
    "count_query_errors",
]


# --------------------------------------------------------------------------- count queries (Section 6.5)

@dataclass(frozen=True)
class CountQuery:
    """A set S of the data domain: the combinations of ``attributes`` where ``mask`` is True."""

    attributes: tuple[int, ...]
    mask: np.ndarray

    def true_count(self, codes: np.ndarray) -> int:
        """X_S: the number of records of the true data in S."""
        sub = tuple(np.asarray(codes)[:, a] for a in self.attributes)
        return int(self.mask[sub].sum())


def random_count_query(cardinalities: Sequence[int], sigma: float, rng: Any = None, *,
                       n_attributes: int = 2) -> CountQuery:
    """Section 6.5's S: two random attributes, a random share sigma of their value combinations.

    The number of combinations in S is round(sigma * |A^i| |A^j|), at least 1.

    Examples
    --------
    >>> q = random_count_query((9, 16, 7), 0.1, rng=0)
    >>> len(q.attributes), int(q.mask.sum()) == round(0.1 * q.mask.size)
    (2, True)
    """
    rng = check_rng(rng)
    sigma = check_number(sigma, "sigma", minimum=0.0, maximum=1.0, include_minimum=False)
    cards = tuple(int(c) for c in cardinalities)
    if len(cards) < n_attributes:
        raise InvalidParameterError(f"a count query needs {n_attributes} attributes, the data has {len(cards)}")
    attrs = tuple(int(a) for a in rng.choice(len(cards), size=n_attributes, replace=False))
    shape = tuple(cards[a] for a in attrs)
    size = int(np.prod(shape))
    k = min(size, max(1, int(round(sigma * size))))
    mask = np.zeros(size, dtype=bool)
    mask[rng.choice(size, size=k, replace=False)] = True
    return CountQuery(attributes=attrs, mask=mask.reshape(shape))


def query_frequency_independent(marginals: Sequence[np.ndarray], query: CountQuery) -> float:
    """Protocol 1, step 10, of Domingo-Ferrer and Soria-Comas (2022): sum over S of the product of the estimated marginals.

    Computes: Domingo-Ferrer and Soria-Comas (2022), Protocol 1.
    """
    parts = [([a], np.asarray(marginals[a])) for a in query.attributes]
    return float((_outer_in_order(parts, query.attributes) * query.mask).sum())


def query_frequency_weighted(codes: np.ndarray, weights: np.ndarray, query: CountQuery) -> float:
    """Frequency of S in weighted records (RR-Adjustment's output, or raw reports with equal weights)."""
    sub = tuple(np.asarray(codes)[:, a] for a in query.attributes)
    return float(np.asarray(weights)[query.mask[sub]].sum())


def count_query_errors(estimated_count: float, true_count: float) -> tuple[float, float]:
    """Domingo-Ferrer and Soria-Comas (2022), Eq. (16): absolute error |Y_S - X_S| and relative error |Y_S - X_S| / X_S (NaN when X_S = 0).

    Computes: Domingo-Ferrer and Soria-Comas (2022), Eq. 16.

    Examples
    --------
    >>> count_query_errors(110.0, 100)
    (10.0, 0.1)
    """
    e = abs(float(estimated_count) - float(true_count))
    return e, (e / true_count if true_count > 0 else math.nan)


def query_frequency_clusters(result: ClustersResult, query: CountQuery) -> float:
    """Frequency of S under RR-Clusters: joint within clusters, independence across them."""
    return float((result.marginal(query.attributes) * query.mask).sum())


