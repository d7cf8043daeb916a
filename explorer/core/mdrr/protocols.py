"""Multi-attribute randomized response protocols: RR-Joint, RR-Independent and RR-Clusters.

Domingo-Ferrer and Soria-Comas (2022): RR-Independent (Protocol 1), RR-Joint (Protocol 2) in
closed form over huge domains, and RR-Clusters (RR-Joint within each cluster of attributes,
with the cluster matrix of Section 6.3.2).  A joint category of attributes
``(A^1, ..., A^m)`` is the C-order flat index (consistent with ``np.kron(P1, P2)``).  Matrices
come from :mod:`explorer.core.rr.mechanisms` and estimates from :mod:`explorer.core.rr.estimation`,
shared with single-attribute RR.  The choices and errata followed are listed in
``docs/conventions.md`` ("Conventions and errata followed").

References
----------
.. [1] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
   Transactions on Knowledge and Data Engineering, 2022.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
import pandas as pd

from explorer._validation import check_rng, check_rr_matrix
from explorer.core.rr.estimation import code_frequencies, inversion_estimate, make_proper, relative_error_bound
from explorer.core.rr.mechanisms import (
    MAX_DENSE_SOLVE,
    MECHANISMS,
    GRRMatrix,
    KroneckerMatrix,
    check_codes,
    matrix_epsilon,
    matrix_size,
    attribute_matrix,
    cluster_matrix,
    n_combinations,
    randomize,
)
from explorer.errors import DatasetError, ExplorerTypeError, InvalidParameterError

__all__ = [
    "MAX_JOINT_CELLS",
    "CategoricalData",
    "encode_categorical",
    "joint_codes",
    "randomize_joint",
    "estimate_joint",
    "JointResult",
    "rr_joint",
    "IndependentResult",
    "rr_independent",
    "ClustersResult",
    "rr_clusters",
    "ClusterPlan",
    "cluster_plan",
]

#: Largest joint domain the closed forms index densely (8 bytes a cell: 160 MB).
MAX_JOINT_CELLS = 20_000_000


# --------------------------------------------------------------------------- data

@dataclass(frozen=True)
class CategoricalData:
    """Categorical microdata as integer codes: ``codes[i, j]`` in ``0..cardinalities[j]-1``.

    ``ordinal[j]`` says whether attribute j's category order is meaningful
    (|Pearson| is then used between two ordinal attributes, Expression (8)).
    """

    codes: np.ndarray
    cardinalities: tuple[int, ...]
    names: tuple[str, ...]
    labels: tuple[tuple[str, ...], ...]
    ordinal: tuple[bool, ...]

    @property
    def n_records(self) -> int:
        return int(self.codes.shape[0])

    @property
    def n_attributes(self) -> int:
        return int(self.codes.shape[1])


def encode_categorical(frame: pd.DataFrame, columns: Sequence[str] | None = None) -> CategoricalData:
    """Encode the categorical (and ordinal) columns of a frame as integer codes.

    ``columns=None`` takes every non-numeric column (``category``, text, bool).
    Every category of a ``category`` dtype counts, used or not.  Raises
    :class:`~explorer.errors.DatasetError` for a frame without categorical
    columns, a missing column, or an attribute with fewer than 2 categories.

    Examples
    --------
    >>> frame = pd.DataFrame({"a": pd.Categorical(["x", "y", "x"]), "b": ["u", "u", "v"]})
    >>> data = encode_categorical(frame)
    >>> data.codes.tolist(), data.cardinalities
    ([[0, 0], [1, 0], [0, 1]], (2, 2))
    """
    if not isinstance(frame, pd.DataFrame):
        raise ExplorerTypeError(f"frame must be a pandas DataFrame, got {type(frame).__name__}")
    if columns is None:
        columns = [c for c in frame.columns
                   if isinstance(frame[c].dtype, pd.CategoricalDtype) or not pd.api.types.is_numeric_dtype(frame[c])
                   or pd.api.types.is_bool_dtype(frame[c])]
        if not columns:
            raise DatasetError("the data set has no categorical attributes: multi-attribute RR needs "
                               "categorical (or discretized) attributes")
    columns = list(columns)
    if len(columns) == 0:
        raise DatasetError("columns must name at least one categorical attribute, got none")
    if len(set(columns)) != len(columns):
        raise DatasetError(f"columns must not repeat, got {columns}")
    n = len(frame)
    if n == 0:
        raise DatasetError("the data set has no records")
    codes = np.empty((n, len(columns)), dtype=np.int64)
    cards, labels, ordinal = [], [], []
    for j, column in enumerate(columns):
        if column not in frame.columns:
            raise DatasetError(f"column {column!r} is not in the data set")
        series = frame[column]
        if isinstance(series.dtype, pd.CategoricalDtype):
            cat = series.cat
            c = cat.codes.to_numpy()
            if np.any(c < 0):
                raise DatasetError(f"column {column!r} has missing values; recode them as a category first")
            codes[:, j] = c
            labs = tuple(str(x) for x in cat.categories)
            ordinal.append(bool(series.dtype.ordered))
        else:
            if series.isna().any():
                raise DatasetError(f"column {column!r} has missing values; recode them as a category first")
            c, uniques = pd.factorize(series, sort=True)
            codes[:, j] = c
            labs = tuple(str(x) for x in uniques)
            ordinal.append(False)
        if len(labs) < 2:
            raise DatasetError(f"attribute {column!r} has {len(labs)} category; randomized response needs at least 2")
        cards.append(len(labs))
        labels.append(labs)
    return CategoricalData(codes=codes, cardinalities=tuple(cards), names=tuple(map(str, columns)),
                           labels=tuple(labels), ordinal=tuple(ordinal))



def joint_codes(codes: np.ndarray, cardinalities: Sequence[int]) -> np.ndarray:
    """C-order flat index of each record's combination (consistent with ``np.kron``)."""
    n_combinations(cardinalities, limit=np.iinfo(np.int64).max // 2)
    codes = np.asarray(codes)
    if codes.ndim == 1:
        return codes.astype(np.int64)
    return np.ravel_multi_index(tuple(codes[:, j] for j in range(codes.shape[1])), tuple(cardinalities))



# --------------------------------------------------------------------------- RR-Joint (Protocol 2)

def _joint_mechanism(matrix: Any, cardinalities: Sequence[int]) -> Any:
    r = n_combinations(cardinalities)
    if isinstance(matrix, GRRMatrix):
        if matrix.n_categories != r:
            raise InvalidParameterError(f"matrix must have {r:,} categories (the joint domain), "
                                        f"got {matrix.n_categories:,}")
        return matrix
    if isinstance(matrix, (list, tuple)) and len(matrix) and not np.isscalar(matrix[0]) and np.ndim(matrix[0]) != 1:
        matrix = KroneckerMatrix(tuple(matrix))
    if isinstance(matrix, KroneckerMatrix):
        factors = tuple(f if isinstance(f, GRRMatrix) else check_rr_matrix(f, f"factor {i + 1}")
                        for i, f in enumerate(matrix.factors))
        if tuple(matrix_size(f) for f in factors) != tuple(int(c) for c in cardinalities):
            raise InvalidParameterError(f"the Kronecker factors must have {tuple(cardinalities)} categories, "
                                        f"got {tuple(matrix_size(f) for f in factors)}")
        return KroneckerMatrix(factors)
    if r > MAX_DENSE_SOLVE:
        raise InvalidParameterError(f"a general joint matrix is solved densely only up to {MAX_DENSE_SOLVE} "
                                    f"combinations, got {r:,}: use a keep-or-uniform/optimal or Kronecker matrix")
    m = check_rr_matrix(matrix)
    if m.shape[0] != r:
        raise InvalidParameterError(f"matrix must be {r} x {r} (the joint domain), got {m.shape[0]} x {m.shape[1]}")
    return m


def randomize_joint(codes: Any, cardinalities: Sequence[int], matrix: Any, rng: Any = None) -> np.ndarray:
    """Protocol 2, step 4, of Domingo-Ferrer and Soria-Comas (2022): each record's combination randomized; returns flat report codes."""
    rng = check_rng(rng)
    codes = check_codes(codes, cardinalities)
    mech = _joint_mechanism(matrix, cardinalities)
    if isinstance(mech, GRRMatrix):
        return mech.randomize(joint_codes(codes, cardinalities), rng)
    if isinstance(mech, KroneckerMatrix):
        cols = [_randomize_factor(codes[:, j], f, rng) for j, f in enumerate(mech.factors)]
        return joint_codes(np.column_stack(cols), cardinalities)
    return np.asarray(randomize(joint_codes(codes, cardinalities), mech, rng=rng), dtype=np.int64)


def _randomize_factor(column: np.ndarray, matrix: Any, rng: np.random.Generator) -> np.ndarray:
    if isinstance(matrix, GRRMatrix):
        return matrix.randomize(column, rng)
    return np.asarray(randomize(column, matrix, rng=rng), dtype=np.int64)


def estimate_joint(reports: np.ndarray, cardinalities: Sequence[int], matrix: Any, *,
                   method: str = "clip") -> tuple[np.ndarray, np.ndarray, int]:
    """Protocol 2, step 7, of Domingo-Ferrer and Soria-Comas (2022): Eq. (2) on the joint report frequencies; ``(estimate, raw, iterations)``."""
    r = n_combinations(cardinalities, limit=MAX_JOINT_CELLS)
    mech = _joint_mechanism(matrix, cardinalities)
    lam = code_frequencies(np.asarray(reports, dtype=np.int64), r)
    raw = inversion_estimate(mech, lam)
    estimate, iterations = make_proper(raw, method, matrix=mech, lam=lam)
    return estimate, raw, iterations


@dataclass(frozen=True)
class JointResult:
    """RR-Joint output: flat reports, the estimated joint distribution (C-order) and the epsilon used."""

    reports: np.ndarray
    estimate: np.ndarray
    raw: np.ndarray
    cardinalities: tuple[int, ...]
    epsilon: float
    method: str
    iterations: int

    def marginal(self, attributes: Sequence[int]) -> np.ndarray:
        """Estimated distribution of some attributes (tensor in the given order)."""
        tensor = self.estimate.reshape(self.cardinalities)
        keep = list(attributes)
        other = tuple(i for i in range(len(self.cardinalities)) if i not in keep)
        out = tensor.sum(axis=other) if other else tensor
        order = sorted(keep)
        return np.transpose(out, [order.index(a) for a in keep])


def rr_joint(codes: Any, cardinalities: Sequence[int], matrix: Any, *, rng: Any = None,
             method: str = "clip") -> JointResult:
    """RR-Joint (Domingo-Ferrer and Soria-Comas (2022), Protocol 2) on the Cartesian product of the attributes.

    ``matrix`` is a :class:`GRRMatrix` over the joint domain (keep-or-uniform or
    optimal: randomized and estimated in closed form, no r x r matrix), a
    :class:`KroneckerMatrix` or list of per-attribute matrices (solved factor by
    factor), or a general r x r matrix (dense solve, r <= :data:`MAX_DENSE_SOLVE`).

    Notes
    -----
    Eq. (2): pi_hat = (P^T)^-1 lambda_hat.  For P = (a - b) I + b J,
    (P^T)^-1 lambda = (lambda - b) / (a - b).

    Computes: Domingo-Ferrer and Soria-Comas (2022), Protocol 2.

    Examples
    --------
    >>> codes = np.array([[0, 1], [1, 2], [0, 1], [1, 0]])
    >>> out = rr_joint(codes, (2, 3), GRRMatrix(6, 1.0), rng=0)   # identity: no noise
    >>> out.estimate.tolist()
    [0.0, 0.5, 0.0, 0.25, 0.0, 0.25]
    """
    rng = check_rng(rng)
    cards = tuple(int(c) for c in cardinalities)
    reports = randomize_joint(codes, cards, matrix, rng)
    mech = _joint_mechanism(matrix, cards)
    estimate, raw, iterations = estimate_joint(reports, cards, mech, method=method)
    return JointResult(reports=reports, estimate=estimate, raw=raw, cardinalities=cards,
                       epsilon=matrix_epsilon(mech), method=method, iterations=iterations)


# --------------------------------------------------------------------------- RR-Independent (Protocol 1)

@dataclass(frozen=True)
class IndependentResult:
    """RR-Independent output: per-attribute reports, estimated marginals, the matrices and their epsilons."""

    reports: np.ndarray
    marginals: tuple[np.ndarray, ...]
    raw_marginals: tuple[np.ndarray, ...]
    matrices: tuple[GRRMatrix, ...]
    epsilons: tuple[float, ...]
    method: str

    @property
    def epsilon(self) -> float:
        """Sequential composition over the attributes of a record."""
        return float(sum(self.epsilons))


def _attribute_matrices(cardinalities: Sequence[int], p: Any, mechanism: str, epsilon: Any = None):
    m = len(cardinalities)
    if mechanism == "epsilon":
        eps = np.broadcast_to(np.asarray(epsilon if epsilon is not None else np.nan, dtype=float), (m,))
        return tuple(attribute_matrix(c, mechanism="epsilon", epsilon=float(e)) for c, e in zip(cardinalities, eps))
    if mechanism not in MECHANISMS:
        raise InvalidParameterError(f"mechanism must be one of {MECHANISMS}, got {mechanism!r}")
    try:
        ps = np.broadcast_to(np.asarray(p, dtype=float), (m,))
    except (TypeError, ValueError):
        raise InvalidParameterError(f"p must be a probability or one per attribute, got {p!r}") from None
    return tuple(attribute_matrix(c, float(q), mechanism=mechanism) for c, q in zip(cardinalities, ps))


def rr_independent(codes: Any, cardinalities: Sequence[int], p: Any = 0.5, *, mechanism: str = "keep-or-uniform",
                   epsilon: Any = None, matrices: Sequence[GRRMatrix] | None = None, rng: Any = None,
                   method: str = "clip") -> IndependentResult:
    """RR-Independent (Domingo-Ferrer and Soria-Comas (2022), Protocol 1): RR on each attribute, marginals by Eq. (2).

    Computes: Domingo-Ferrer and Soria-Comas (2022), Protocol 1.

    Examples
    --------
    >>> codes = np.array([[0, 1], [1, 0], [0, 1], [0, 0]])
    >>> out = rr_independent(codes, (2, 2), p=1.0, rng=0)      # p = 1: no noise
    >>> [m.tolist() for m in out.marginals]
    [[0.75, 0.25], [0.5, 0.5]]
    """
    rng = check_rng(rng)
    cards = tuple(int(c) for c in cardinalities)
    codes = check_codes(codes, cards)
    mats = tuple(matrices) if matrices is not None else _attribute_matrices(cards, p, mechanism, epsilon)
    reports = np.column_stack([mat.randomize(codes[:, j], rng) for j, mat in enumerate(mats)])
    marginals, raws = [], []
    for j, mat in enumerate(mats):
        lam = code_frequencies(reports[:, j], cards[j])
        raw = mat.solve(lam)
        est, _ = make_proper(raw, method, matrix=mat, lam=lam)
        marginals.append(est)
        raws.append(raw)
    return IndependentResult(reports=reports, marginals=tuple(marginals), raw_marginals=tuple(raws),
                             matrices=mats, epsilons=tuple(m.epsilon for m in mats), method=method)


def _outer_in_order(parts: list[tuple[list[int], np.ndarray]], attributes: Sequence[int]) -> np.ndarray:
    """Outer product of marginal tensors over disjoint attribute groups, axes in ``attributes`` order."""
    tensor = np.ones(())
    order: list[int] = []
    for attrs, marg in parts:
        tensor = np.multiply.outer(tensor, marg)
        order.extend(attrs)
    return np.transpose(tensor, [order.index(a) for a in attributes])



# --------------------------------------------------------------------------- RR-Clusters

@dataclass(frozen=True)
class ClustersResult:
    """RR-Clusters output: clusters, per-cluster reports (flat codes) and estimated joint distributions."""

    clusters: tuple[tuple[int, ...], ...]
    cardinalities: tuple[int, ...]
    reports: tuple[np.ndarray, ...]
    estimates: tuple[np.ndarray, ...]
    matrices: tuple[GRRMatrix, ...]
    epsilons: tuple[float, ...]
    method: str
    _marginals: dict = field(default_factory=dict, repr=False, compare=False)

    def cluster_of(self, attribute: int) -> int:
        for k, c in enumerate(self.clusters):
            if attribute in c:
                return k
        raise InvalidParameterError(f"attribute {attribute} is in no cluster")

    def marginal(self, attributes: Sequence[int]) -> np.ndarray:
        """Estimated distribution of some attributes: joint within a cluster, product across clusters."""
        key = tuple(int(a) for a in attributes)
        cached = self._marginals.get(key)
        if cached is None:
            cached = self._marginals[key] = self._marginal(key)
        return cached

    def _marginal(self, attributes: tuple[int, ...]) -> np.ndarray:
        groups: dict[int, list[int]] = {}
        for a in attributes:
            groups.setdefault(self.cluster_of(a), []).append(a)
        parts = []
        for k, attrs in groups.items():
            cluster = self.clusters[k]
            tensor = self.estimates[k].reshape([self.cardinalities[a] for a in cluster])
            other = tuple(i for i, a in enumerate(cluster) if a not in attrs)
            marg = tensor.sum(axis=other) if other else tensor
            kept = [a for a in cluster if a in attrs]
            marg = np.transpose(marg, [kept.index(a) for a in attrs])
            parts.append((attrs, marg))
        return _outer_in_order(parts, list(attributes))

    def report_codes(self) -> np.ndarray:
        """The randomized microdata per attribute (n x m), decoded from the cluster reports."""
        n = self.reports[0].size
        out = np.empty((n, len(self.cardinalities)), dtype=np.int64)
        for cluster, rep in zip(self.clusters, self.reports):
            cols = np.unravel_index(rep, [self.cardinalities[a] for a in cluster])
            for a, col in zip(cluster, cols):
                out[:, a] = col
        return out


def _check_clusters(clusters: Sequence[Sequence[int]], m: int) -> tuple[tuple[int, ...], ...]:
    out = tuple(tuple(int(a) for a in c) for c in clusters)
    flat = sorted(a for c in out for a in c)
    if flat != list(range(m)) or any(len(c) == 0 for c in out):
        raise InvalidParameterError(f"clusters must partition the attributes 0..{m - 1}, got {list(map(list, out))}")
    return out


def _cluster_matrix(cluster: Sequence[int], cards: Sequence[int], attr_mats: Sequence[GRRMatrix]) -> GRRMatrix:
    """The matrix of one cluster: its attribute's own for a singleton, Section 6.3.2's with budget sum(epsilon_A)."""
    if len(cluster) == 1:
        return attr_mats[cluster[0]]
    ccards = [cards[a] for a in cluster]
    n_combinations(ccards, limit=MAX_JOINT_CELLS)
    return cluster_matrix(ccards, [attr_mats[a].epsilon for a in cluster])


def rr_clusters(codes: Any, cardinalities: Sequence[int], clusters: Sequence[Sequence[int]], p: Any = 0.5, *,
                mechanism: str = "keep-or-uniform", epsilon: Any = None, rng: Any = None,
                method: str = "clip") -> ClustersResult:
    """RR-Clusters: RR-Joint within each cluster with Section 6.3.2's matrix.

    A cluster C gets :func:`cluster_matrix` with budget sum(epsilon_A), epsilon_A
    the epsilon of the per-attribute matrix actually used; a singleton cluster
    keeps its attribute's own matrix, so T_d = 1 gives RR-Independent exactly.

    Examples
    --------
    >>> codes = np.array([[0, 1, 0], [1, 0, 1], [0, 1, 1], [0, 0, 0]])
    >>> out = rr_clusters(codes, (2, 2, 2), [[0, 1], [2]], p=1.0, rng=0)
    >>> out.marginal([0, 1]).tolist()
    [[0.25, 0.5], [0.25, 0.0]]
    """
    rng = check_rng(rng)
    cards = tuple(int(c) for c in cardinalities)
    codes = check_codes(codes, cards)
    clusters = _check_clusters(clusters, len(cards))
    attr_mats = _attribute_matrices(cards, p, mechanism, epsilon)
    reports, estimates, mats, epss = [], [], [], []
    for cluster in clusters:
        ccards = [cards[a] for a in cluster]
        mat = _cluster_matrix(cluster, cards, attr_mats)
        flat = joint_codes(codes[:, list(cluster)], ccards)
        rep = mat.randomize(flat, rng)
        lam = code_frequencies(rep, mat.n_categories)
        est, _ = make_proper(mat.solve(lam), method, matrix=mat, lam=lam)
        reports.append(rep)
        estimates.append(est)
        mats.append(mat)
        epss.append(mat.epsilon)
    return ClustersResult(clusters=clusters, cardinalities=cards, reports=tuple(reports), estimates=tuple(estimates),
                          matrices=tuple(mats), epsilons=tuple(epss), method=method)




@dataclass(frozen=True)
class ClusterPlan:
    """What RR-Clusters spends and can reach on n records, before anything is randomized.

    Attributes
    ----------
    clusters : tuple of tuples of int
        The clusters of attributes (e.g. from Algorithm 1, :func:`~explorer.core.mdrr.cluster_attributes`).
    n_records : int
        The records n.
    attribute_epsilons : tuple of float
        The epsilon of the per-attribute matrix actually used, per attribute.
    cluster_epsilons : tuple of float
        The epsilon of each cluster's matrix (Section 6.3.2: the sum of its attributes' epsilons).
    cluster_combinations : tuple of int
        prod |A| over each cluster's attributes.
    cluster_error_bounds : tuple of float
        Each cluster's best-case relative error sqrt(B (prod|A| - 1) / n) (Section 3.3).
    joint_combinations : int
        prod |A| over all the attributes (RR-Joint's domain).
    joint_error_bound : float
        RR-Joint's best-case relative error on all the attributes (Section 3.3).
    """

    clusters: tuple[tuple[int, ...], ...]
    n_records: int
    attribute_epsilons: tuple[float, ...]
    cluster_epsilons: tuple[float, ...]
    cluster_combinations: tuple[int, ...]
    cluster_error_bounds: tuple[float, ...]
    joint_combinations: int
    joint_error_bound: float

    @property
    def record_epsilon(self) -> float:
        """The epsilon of a whole record: sequential composition, the sum of the attributes' epsilons."""
        return float(sum(self.attribute_epsilons))


def cluster_plan(cardinalities: Sequence[int], clusters: Sequence[Sequence[int]], n_records: int, p: Any = 0.5, *,
                 mechanism: str = "keep-or-uniform", epsilon: Any = None) -> ClusterPlan:
    """The epsilons, domain sizes and best-case errors of RR-Clusters with these clusters on n records.

    Parameters
    ----------
    cardinalities : sequence of int
        |A| of each attribute.
    clusters : sequence of sequences of int
        A partition of the attributes 0..m-1.
    n_records : int
        The records n (>= 1).
    p : float or sequence of float
        The keep probability of the per-attribute matrices (ignored with ``mechanism="epsilon"``).
    mechanism : str
        The per-attribute matrix (:data:`~explorer.core.rr.mechanisms.MECHANISMS`).
    epsilon : float, optional
        The epsilon per attribute, with ``mechanism="epsilon"``.

    Returns
    -------
    ClusterPlan

    Notes
    -----
    The matrices are those :func:`rr_clusters` uses: a singleton cluster keeps its attribute's matrix, a larger
    one gets Section 6.3.2's matrix with budget sum(epsilon_A).  The error bounds are
    :func:`~explorer.core.rr.estimation.relative_error_bound` (Section 3.3, Eq. 6 at a uniform lambda).

    Domingo-Ferrer and Soria-Comas (2022), Sections 3.3 and 6.3.2.

    Examples
    --------
    >>> plan = cluster_plan((2, 3, 4), [[0, 1], [2]], 1000, p=0.5)
    >>> plan.cluster_combinations, plan.joint_combinations
    ((6, 4), 24)
    >>> [round(e, 3) for e in plan.attribute_epsilons], round(plan.record_epsilon, 3)
    ([1.099, 1.386, 1.609], 4.094)
    >>> round(plan.cluster_epsilons[0], 3)
    2.485
    """
    cards = tuple(int(c) for c in cardinalities)
    clusters = _check_clusters(clusters, len(cards))
    attr_mats = _attribute_matrices(cards, p, mechanism, epsilon)
    parts = [[cards[a] for a in c] for c in clusters]
    return ClusterPlan(clusters=clusters, n_records=int(n_records),
                       attribute_epsilons=tuple(m.epsilon for m in attr_mats),
                       cluster_epsilons=tuple(_cluster_matrix(c, cards, attr_mats).epsilon for c in clusters),
                       cluster_combinations=tuple(n_combinations(c) for c in parts),
                       cluster_error_bounds=tuple(relative_error_bound(c, n_records) for c in parts),
                       joint_combinations=n_combinations(cards),
                       joint_error_bound=relative_error_bound(cards, n_records))
