"""Dependence between attributes and attribute clustering (Algorithm 1).

Domingo-Ferrer and Soria-Comas (2022), Section 4: Cramér's V and |Pearson| (Expressions 8-9),
dependences estimated under RR (Section 4.1), the secure-sum protocol (Section 4.2), pairwise
RR (Section 4.3); Algorithm 1 merges clusters of attributes in descending order of
:func:`cluster_dependence`.  The choices and errata followed are listed in
``docs/conventions.md`` ("Conventions and errata followed").

References
----------
.. [1] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
   Transactions on Knowledge and Data Engineering, 2022.
.. [2] H. Cramér, "Mathematical Methods of Statistics", Princeton University Press, 1946.
   """

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np
import pandas as pd

from explorer._validation import check_int, check_number, check_rng
from explorer.core.rr.estimation import code_frequencies, make_proper
from explorer.core.rr.mechanisms import KroneckerMatrix, cluster_matrix, n_combinations
from explorer.core.mdrr.protocols import CategoricalData, _attribute_matrices, encode_categorical, joint_codes
from explorer.errors import ExplorerTypeError, InvalidParameterError

__all__ = [
    "DEPENDENCE_METHODS",
    "cramers_v",
    "abs_pearson",
    "pair_dependence",
    "secure_sum_count",
    "dependence_matrix",
    "cluster_dependence",
    "cluster_attributes",
]

#: How the dependences feeding Algorithm 1 are obtained (Sections 4, 4.1, 4.2, 4.3).
DEPENDENCE_METHODS = ("true", "randomized", "estimated", "secure-sum", "pairwise-rr")


# --------------------------------------------------------------------------- dependence (Section 4)

def _contingency(x: np.ndarray, y: np.ndarray, kx: int, ky: int) -> np.ndarray:
    return np.bincount(x * ky + y, minlength=kx * ky).reshape(kx, ky).astype(float)


def cramers_v(table: Any) -> float:
    """Cramér's V of a contingency table (Domingo-Ferrer and Soria-Comas (2022), Expression (9)), no continuity correction.

    Rows or columns with zero total are dropped; a table with one row or column left gives 0.

    Notes
    -----
    V = sqrt(chi^2 / n / min(r - 1, c - 1)), chi^2 = sum (o - e)^2 / e with
    e = n_a n_b / n (the printed denominator f_ab is e_ab; see ``docs/conventions.md``).

    Computes: Domingo-Ferrer and Soria-Comas (2022), Eq. 9.

    Examples
    --------
    >>> round(cramers_v([[10, 0], [0, 10]]), 6), round(cramers_v([[5, 5], [5, 5]]), 6)
    (1.0, 0.0)
    """
    t = np.asarray(table, dtype=float)
    t = np.clip(t, 0.0, None)
    t = t[t.sum(axis=1) > 0][:, t.sum(axis=0) > 0]
    if t.ndim != 2 or min(t.shape) < 2:
        return 0.0
    n = t.sum()
    e = np.outer(t.sum(axis=1), t.sum(axis=0)) / n
    chi2 = float(((t - e) ** 2 / e).sum())
    return float(min(1.0, math.sqrt(chi2 / n / (min(t.shape) - 1))))


def abs_pearson(table: Any) -> float:
    """|Pearson correlation| of two ordinal attributes from their contingency table (Domingo-Ferrer and Soria-Comas (2022), Expression (8)).

    Computes: Domingo-Ferrer and Soria-Comas (2022), Eq. 8.

    Examples
    --------
    >>> round(abs_pearson([[10, 0], [0, 10]]), 6)
    1.0
    """
    t = np.clip(np.asarray(table, dtype=float), 0.0, None)
    n = t.sum()
    if n <= 0:
        return 0.0
    x = np.arange(t.shape[0], dtype=float)
    y = np.arange(t.shape[1], dtype=float)
    px, py = t.sum(axis=1) / n, t.sum(axis=0) / n
    mx, my = px @ x, py @ y
    vx, vy = px @ (x - mx) ** 2, py @ (y - my) ** 2
    if vx <= 0 or vy <= 0:
        return 0.0
    cov = float((x - mx) @ (t / n) @ (y - my))
    return float(min(1.0, abs(cov) / math.sqrt(vx * vy)))


def pair_dependence(table: Any, ordinal_pair: bool) -> float:
    """|Pearson| when both attributes are ordinal, else Cramér's V (Section 4)."""
    return abs_pearson(table) if ordinal_pair else cramers_v(table)


def secure_sum_count(indicators: Any, rng: Any = None) -> int:
    """The secure-sum protocol of Section 4.2 run among ``n`` simulated parties.

    Party i holds ``indicators[i]`` (1 if its pair of values is (a, a'), else 0).
    Each party splits 0 into n random shares modulo n + 1, sends share j to party
    j; party j broadcasts the sum of the shares it received plus its indicator;
    the count is the sum of the broadcasts modulo n + 1.  No party sees another's
    indicator; memory is O(n^2), so n is limited to 5,000 parties.

    Examples
    --------
    >>> secure_sum_count([1, 0, 1, 1, 0], rng=0)
    3
    """
    rng = check_rng(rng)
    x = np.asarray(indicators)
    if x.ndim != 1 or x.size == 0:
        raise InvalidParameterError(f"indicators must be a non-empty vector, got shape {x.shape}")
    if not np.all(np.isin(x, (0, 1))):
        raise InvalidParameterError("indicators must be 0 or 1 for each party")
    n = x.size
    if n > 5000:
        raise InvalidParameterError(f"the simulated secure sum holds n^2 shares; n must be <= 5000, got {n}")
    modulus = n + 1
    # Step 1: party i draws n - 1 shares at random and the last so that the row sums to 0 mod n + 1.
    shares = rng.integers(0, modulus, size=(n, n), dtype=np.int64)
    shares[:, -1] = (-shares[:, :-1].sum(axis=1)) % modulus
    # Steps 2-3: party j sums the column it received and adds its own indicator.
    broadcasts = (shares.sum(axis=0) + x.astype(np.int64)) % modulus
    # Step 4: every party adds the broadcasts.
    return int(broadcasts.sum() % modulus)


def _pair_tables_exact(codes: np.ndarray, cards: Sequence[int]) -> dict[tuple[int, int], np.ndarray]:
    m = len(cards)
    return {(i, j): _contingency(codes[:, i], codes[:, j], cards[i], cards[j])
            for i in range(m) for j in range(i + 1, m)}


def dependence_matrix(data: CategoricalData | pd.DataFrame, method: str = "true", *, p: Any = 0.5,
                      mechanism: str = "keep-or-uniform", epsilon: Any = None, rng: Any = None,
                      proper: str = "clip", secure_sum_limit: int = 300) -> np.ndarray:
    """Dependences between attributes (m x m, ones on the diagonal) for RR-Clusters (Domingo-Ferrer and Soria-Comas (2022), Algorithm 1).

    Methods
    -------
    ``"true"``        (a) on the true data (the trusted view);
    ``"randomized"``  (b) on data randomized per attribute (Section 4.1; Prop. 1: attenuated by p_a p_b);
    ``"estimated"``   (b') on each pair's joint distribution estimated by Eq. (2) from the same
                      per-attribute randomized data (P^a (x) P^b);
    ``"secure-sum"``  (c) exact bivariate tables from the secure-sum protocol of Section 4.2
                      (run for real when n <= ``secure_sum_limit``; for larger n the exact counts,
                      which the protocol returns, are used directly);
    ``"pairwise-rr"`` (d) each pair randomized jointly with the cluster matrix of budget
                      epsilon_a + epsilon_b and estimated by Eq. (2) (Section 4.3).

    Examples
    --------
    >>> frame = pd.DataFrame({"a": list("xxyy"), "b": list("uuvv"), "c": list("uvuv")})
    >>> dependence_matrix(frame).round(3).tolist()
    [[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    """
    if isinstance(data, pd.DataFrame):
        data = encode_categorical(data)
    if not isinstance(data, CategoricalData):
        raise ExplorerTypeError(f"data must be a DataFrame or CategoricalData, got {type(data).__name__}")
    if method not in DEPENDENCE_METHODS:
        raise InvalidParameterError(f"dependence method must be one of {DEPENDENCE_METHODS}, got {method!r}")
    rng = check_rng(rng)
    codes, cards, m = data.codes, data.cardinalities, data.n_attributes
    tables: dict[tuple[int, int], np.ndarray]
    if method == "true":
        tables = _pair_tables_exact(codes, cards)
    elif method == "secure-sum":
        if data.n_records <= secure_sum_limit:
            tables = {}
            for i in range(m):
                for j in range(i + 1, m):
                    t = np.zeros((cards[i], cards[j]))
                    for a in range(cards[i]):
                        for b in range(cards[j]):
                            t[a, b] = secure_sum_count(((codes[:, i] == a) & (codes[:, j] == b)).astype(int), rng)
                    tables[(i, j)] = t
        else:
            tables = _pair_tables_exact(codes, cards)
    elif method in ("randomized", "estimated"):
        mats = _attribute_matrices(cards, p, mechanism, epsilon)
        reports = np.column_stack([mat.randomize(codes[:, j], rng) for j, mat in enumerate(mats)])
        tables = _pair_tables_exact(reports, cards)
        if method == "estimated":
            for (i, j), t in tables.items():
                kron = KroneckerMatrix((mats[i], mats[j]))
                lam = t.reshape(-1) / t.sum()
                est, _ = make_proper(kron.solve(lam), proper, matrix=kron, lam=lam)
                tables[(i, j)] = est.reshape(t.shape)
    else:  # pairwise-rr
        mats = _attribute_matrices(cards, p, mechanism, epsilon)
        tables = {}
        for i in range(m):
            for j in range(i + 1, m):
                cm = cluster_matrix((cards[i], cards[j]), (mats[i].epsilon, mats[j].epsilon))
                rep = cm.randomize(joint_codes(codes[:, [i, j]], (cards[i], cards[j])), rng)
                lam = code_frequencies(rep, cm.n_categories)
                est, _ = make_proper(cm.solve(lam), proper, matrix=cm, lam=lam)
                tables[(i, j)] = est.reshape(cards[i], cards[j])
    dep = np.eye(m)
    for (i, j), t in tables.items():
        dep[i, j] = dep[j, i] = pair_dependence(t, data.ordinal[i] and data.ordinal[j])
    return dep



# --------------------------------------------------------------------------- Algorithm 1

def _check_dependence(dependence: Any, m: int | None = None) -> np.ndarray:
    try:
        d = np.asarray(dependence, dtype=float)
    except (TypeError, ValueError):
        raise ExplorerTypeError(f"dependence must be a matrix of numbers, got {dependence!r}") from None
    if m is None:
        if d.ndim != 2 or d.shape[0] != d.shape[1]:
            raise InvalidParameterError(f"dependence must be a square matrix, got shape {d.shape}")
    elif d.shape != (m, m):
        raise InvalidParameterError(f"dependence must be a {m} x {m} matrix, got shape {d.shape}")
    if not np.all(np.isfinite(d)):
        raise InvalidParameterError("dependence must contain finite numbers only")
    return d


def _check_cluster(cluster: Any, m: int, name: str) -> list[int]:
    try:
        attributes = [int(a) for a in cluster]
        exact = all(float(a) == b for a, b in zip(cluster, attributes))
    except (TypeError, ValueError):
        raise ExplorerTypeError(f"{name} must be a list of attribute indices, got {cluster!r}") from None
    if not attributes or not exact or min(attributes) < 0 or max(attributes) >= m:
        raise InvalidParameterError(f"{name} must be a non-empty list of attribute indices 0..{m - 1}, "
                                    f"got {list(cluster)!r}")
    return attributes


def cluster_dependence(dependence: Any, cluster: Sequence[int], other: Sequence[int]) -> float:
    """The dependence between two clusters of attributes in RR-Clusters (Domingo-Ferrer and Soria-Comas (2022), Algorithm 1).

    Parameters
    ----------
    dependence : array_like, shape (m, m)
        Dependences between attributes (:func:`dependence_matrix`).
    cluster, other : sequence of int
        Two disjoint, non-empty sets of attribute indices ``0 .. m-1``.

    Returns
    -------
    float
        ``max_{a in cluster, b in other} dependence[a, b]``.

    Notes
    -----
    Algorithm 1 of Domingo-Ferrer and Soria-Comas (2022) measures the dependence between two
    clusters C and C' as the largest dependence between an attribute of C and an attribute of
    C': ``dep(C, C') = max_{A in C, A' in C'} dep(A, A')``.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
       Transactions on Knowledge and Data Engineering, 2022.

    Computes: Domingo-Ferrer and Soria-Comas (2022), Alg. 1.

    Examples
    --------
    >>> dep = [[1, .8, .1], [.8, 1, .3], [.1, .3, 1]]
    >>> cluster_dependence(dep, [0, 1], [2])
    0.3
    >>> cluster_dependence(dep, [0], [1, 2])
    0.8
    >>> cluster_dependence(dep, [0, 1], [1])
    Traceback (most recent call last):
    ...
    explorer.errors.InvalidParameterError: cluster and other must be disjoint, both hold attribute 1
    """
    d = _check_dependence(dependence)
    m = d.shape[0]
    first = _check_cluster(cluster, m, "cluster")
    second = _check_cluster(other, m, "other")
    shared = sorted(set(first) & set(second))
    if shared:
        raise InvalidParameterError(f"cluster and other must be disjoint, both hold attribute {shared[0]}")
    return float(d[np.ix_(first, second)].max())


def cluster_attributes(dependence: Any, cardinalities: Sequence[int], t_v: float, t_d: float) -> list[list[int]]:
    """RR-Clusters (Domingo-Ferrer and Soria-Comas (2022), Algorithm 1): merge clusters in descending order of dependence.

    The dependence between clusters (:func:`cluster_dependence`) is the largest dependence
    between an attribute of one and an attribute of the other; two clusters merge when
    that dependence is >= ``t_d`` and the merged cluster has at most ``t_v``
    combinations; after a merge the list is recomputed and scanned from the
    top; the algorithm stops when the dependence falls below ``t_d`` or the list
    is exhausted.  Clusters are returned sorted, each as sorted attribute indices.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
       Transactions on Knowledge and Data Engineering, 2022.

    Computes: Domingo-Ferrer and Soria-Comas (2022), Alg. 1.

    Examples
    --------
    >>> dep = [[1, .8, .1], [.8, 1, .3], [.1, .3, 1]]
    >>> cluster_attributes(dep, [2, 3, 4], t_v=6, t_d=0.2)
    [[0, 1], [2]]
    >>> cluster_attributes(dep, [2, 3, 4], t_v=24, t_d=0.0)
    [[0, 1, 2]]
    """
    cards = [check_int(c, "cardinalities", minimum=2) for c in cardinalities]
    m = len(cards)
    d = _check_dependence(dependence, m)
    t_d = check_number(t_d, "T_d", minimum=0.0, maximum=1.0)
    t_v = check_number(t_v, "T_v", minimum=1.0, allow_inf=True)
    if m and t_v < max(cards):
        raise InvalidParameterError(f"T_v must be at least the largest attribute cardinality ({max(cards)}), "
                                    f"got {t_v:g}")
    clusters: list[list[int]] = [[a] for a in range(m)]

    def size(c: list[int]) -> int:
        return n_combinations([cards[a] for a in c])

    while True:
        pairs = []
        for x in range(len(clusters)):
            for y in range(x + 1, len(clusters)):
                dep = cluster_dependence(d, clusters[x], clusters[y])
                pairs.append((dep, x, y))
        pairs.sort(key=lambda t: -t[0])  # stable: ties keep cluster order
        merged = False
        for dep, x, y in pairs:
            if dep < t_d:
                break
            if size(clusters[x]) * size(clusters[y]) <= t_v:
                new = sorted(clusters[x] + clusters[y])
                clusters = [c for k, c in enumerate(clusters) if k not in (x, y)] + [new]
                merged = True
                break
        if not merged:
            return sorted(sorted(c) for c in clusters)


