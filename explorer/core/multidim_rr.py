"""Multi-dimensional randomized response (paper 003).

RR-Independent (Protocol 1), RR-Joint (Protocol 2) in closed form over huge
domains, dependence between attributes and its estimation under RR (Sections
4.1-4.3, with the secure-sum protocol), attribute clustering (Algorithm 1),
RR-Clusters with the cluster matrix of Section 6.3.2 (corrected p_C),
RR-Adjustment (Algorithm 2) and the count-query errors of Section 6.5.

Conventions (the project's notes on reading the papers, PAPER_NOTES.md):

* an RR matrix is row-stochastic, ``P[u, v] = Pr(Y = v | X = u)``;
* a joint category of attributes ``(A^1, ..., A^m)`` is the C-order flat index
  (consistent with ``np.kron(P1, P2)``);
* the per-attribute mechanism is a named choice (:data:`MECHANISMS`):
  ``"keep-or-uniform"`` (default; the mechanism Prop. 1 analyses: keep the true
  value with probability p, else draw uniformly; epsilon = ln(1 + p|A|/(1-p))) or
  ``"paper-6.3.1"`` (Section 6.3.1's printed matrix, p on the diagonal and
  (1-p)/|A| off it, rows rescaled to sum to 1: its epsilon is the printed
  epsilon_A = |ln(p|A|/(1-p))|) or ``"epsilon"`` (the optimal matrix for a
  given epsilon per attribute).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
import pandas as pd

from explorer._validation import (
    check_epsilon,
    check_int,
    check_number,
    check_probability,
    check_rng,
    check_rr_matrix,
)
from explorer.errors import (
    DatasetError,
    ExplorerTypeError,
    InvalidParameterError,
    SingularMatrixError,
)

__all__ = [
    "MECHANISMS",
    "PROPER_METHODS",
    "DEPENDENCE_METHODS",
    "MAX_JOINT_CELLS",
    "MAX_DENSE_SOLVE",
    "CategoricalData",
    "encode_categorical",
    "GRRMatrix",
    "KroneckerMatrix",
    "attribute_matrix",
    "cluster_matrix",
    "make_proper",
    "joint_codes",
    "n_combinations",
    "randomize_joint",
    "estimate_joint",
    "JointResult",
    "rr_joint",
    "IndependentResult",
    "rr_independent",
    "CountQuery",
    "random_count_query",
    "query_frequency_independent",
    "ClustersResult",
    "rr_clusters",
    "query_frequency_clusters",
    "query_frequency_weighted",
    "count_query_errors",
    "cramers_v",
    "abs_pearson",
    "pair_dependence",
    "secure_sum_count",
    "dependence_matrix",
    "cluster_attributes",
    "AdjustmentResult",
    "rr_adjust",
    "relative_error_bound",
    "chi2_factor",
    "EXAMPLE1_REPORTS",
    "EXAMPLE1_MARGINALS",
]

#: Per-attribute mechanisms (Section 6.3.1 and its correction, PAPER_NOTES.md).
MECHANISMS = ("keep-or-uniform", "paper-6.3.1", "epsilon")
#: Ways to turn the Eq. (2) estimate into a proper distribution (Section 6.4 and alternatives).
PROPER_METHODS = ("clip", "simplex", "ibu", "none")
#: How the dependences feeding Algorithm 1 are obtained (Sections 4, 4.1, 4.2, 4.3).
DEPENDENCE_METHODS = ("true", "randomized", "estimated", "secure-sum", "pairwise-rr")
#: Largest joint domain the closed forms index densely (8 bytes a cell: 160 MB).
MAX_JOINT_CELLS = 20_000_000
#: Largest general (unstructured) matrix solved with a dense linear solve.
MAX_DENSE_SOLVE = 4096


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


# --------------------------------------------------------------------------- structured matrices

@dataclass(frozen=True)
class GRRMatrix:
    """An RR matrix with one value on the diagonal and one off it (r x r, never built).

    ``diagonal`` is ``Pr(Y = u | X = u)``; every other report has probability
    ``off_diagonal = (1 - diagonal) / (r - 1)``.  Keep-or-uniform, the optimal
    (GRR) matrix, Section 6.3.1's row-normalised matrix and Section 6.3.2's
    cluster matrix all have this form, so randomizing and Eq. (2) need O(n + r)
    work instead of O(r^2) memory.
    """

    n_categories: int
    diagonal: float

    @property
    def off_diagonal(self) -> float:
        return (1.0 - self.diagonal) / (self.n_categories - 1)

    @property
    def epsilon(self) -> float:
        """Eq. (4): ln of the largest ratio within a column."""
        a, b = self.diagonal, self.off_diagonal
        if a == b:
            return 0.0
        if min(a, b) <= 0.0:
            return math.inf
        return abs(math.log(a / b))

    def to_dense(self) -> np.ndarray:
        """The explicit r x r matrix (small r only)."""
        if self.n_categories > MAX_DENSE_SOLVE:
            raise InvalidParameterError(f"n_categories must be <= {MAX_DENSE_SOLVE} to build the matrix explicitly, "
                                        f"got {self.n_categories}")
        m = np.full((self.n_categories, self.n_categories), self.off_diagonal)
        np.fill_diagonal(m, self.diagonal)
        return m

    def randomize(self, codes: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Keep each code with probability ``diagonal``, else report one of the r - 1 others uniformly."""
        codes = np.asarray(codes, dtype=np.int64)
        k, a = self.n_categories, self.diagonal
        u = rng.random(codes.shape)
        if a >= 1.0:
            return codes.copy()
        keep = u < a
        # one uniform per record: given u >= a, (u - a) / (1 - a) is uniform on [0, 1) and picks the shift 1..k-1
        u -= a
        u *= (k - 1) / (1.0 - a)
        shifted = u.astype(np.int64)
        np.clip(shifted, 0, k - 2, out=shifted)
        shifted += 1
        shifted += codes
        np.subtract(shifted, k, out=shifted, where=shifted >= k)   # (code + shift) mod k
        return np.where(keep, codes, shifted)

    def solve(self, lam: np.ndarray) -> np.ndarray:
        """Eq. (2) in closed form: (P^T)^-1 lambda = (lambda - b sum(lambda)) / (a - b)."""
        a, b = self.diagonal, self.off_diagonal
        if abs(a - b) < 1e-12:
            raise SingularMatrixError(f"the RR matrix is singular (diagonal {a:g} equals off-diagonal {b:g}): "
                                      "the reports carry no information, Eq. (2) cannot be applied")
        lam = np.asarray(lam, dtype=float)
        return (lam - b * lam.sum(axis=0)) / (a - b)

    def forward(self, pi: np.ndarray) -> np.ndarray:
        """lambda = P^T pi."""
        a, b = self.diagonal, self.off_diagonal
        return (a - b) * pi + b * pi.sum(axis=0)


@dataclass(frozen=True)
class KroneckerMatrix:
    """The product ``P1 (x) P2 (x) ... (x) Pm`` of per-attribute matrices, never built.

    Randomizing with it is randomizing each attribute with its own factor, and
    Eq. (2) is solved factor by factor along the axes of the joint tensor.
    """

    factors: tuple[Any, ...]

    @property
    def cardinalities(self) -> tuple[int, ...]:
        return tuple(_n_categories(f) for f in self.factors)

    @property
    def n_categories(self) -> int:
        return int(np.prod(self.cardinalities, dtype=np.int64))

    @property
    def epsilon(self) -> float:
        """Epsilon of a Kronecker product: the sum of the factors' epsilons."""
        return float(sum(_epsilon(f) for f in self.factors))

    def to_dense(self) -> np.ndarray:
        if self.n_categories > MAX_DENSE_SOLVE:
            raise InvalidParameterError(f"the joint domain must have <= {MAX_DENSE_SOLVE} cells to build the matrix "
                                        f"explicitly, got {self.n_categories}")
        out = np.ones((1, 1))
        for f in self.factors:
            out = np.kron(out, _dense(f))
        return out

    def _sweep(self, vector: np.ndarray, mode: str) -> np.ndarray:
        """Apply one operator per factor along its axis (the "vec trick": reshape, apply, rotate the axes)."""
        x = np.asarray(vector, dtype=float).reshape(-1)
        if x.size != self.n_categories:
            raise InvalidParameterError(f"the vector must have {self.n_categories} entries, got {x.size}")
        if all(isinstance(f, GRRMatrix) for f in self.factors):
            return self._sweep_grr(x.copy(), mode)
        for f in self.factors:
            k = _n_categories(f)
            block = _apply_first_axis(x.reshape(k, -1), f, mode)   # (k, rest), the factor's axis first
            x = np.ascontiguousarray(block.T).reshape(-1)          # rotate: that axis becomes the last
        return x

    def _sweep_grr(self, x: np.ndarray, mode: str) -> np.ndarray:
        """All factors keep-or-uniform/GRR: in place along each axis of a (before, k, after) view."""
        cards = self.cardinalities
        # Reducing over one of the last, small axes is slow (tiny strides): the trailing factors whose
        # product is <= 64 are applied together as one dense K x K operator (a matrix product).
        tail = len(cards)
        while tail > 1 and int(np.prod(cards[tail - 1:], dtype=np.int64)) <= 64:
            tail -= 1
        if tail == len(cards) - 1:
            tail = len(cards)                       # a single small last axis: not worth a dense block
        for axis, f in enumerate(self.factors[:tail]):
            a, b = f.diagonal, f.off_diagonal
            before = int(np.prod(cards[:axis], dtype=np.int64))
            view = x.reshape(before, cards[axis], -1)
            total = view.sum(axis=1, keepdims=True)
            if mode == "inverse":
                if abs(a - b) < 1e-12:
                    raise SingularMatrixError(f"an attribute's RR matrix is singular (diagonal {a:g} equals "
                                              f"off-diagonal {b:g}): Eq. (2) cannot be applied")
                total *= b
                view -= total
                view *= 1.0 / (a - b)
            else:                                   # P^T = P for these matrices
                total *= b
                view *= a - b
                view += total
        if tail < len(cards):
            block = np.ones((1, 1))
            for f in self.factors[tail:]:
                if mode == "inverse" and abs(f.diagonal - f.off_diagonal) < 1e-12:
                    raise SingularMatrixError(f"an attribute's RR matrix is singular (diagonal {f.diagonal:g} "
                                              f"equals off-diagonal {f.off_diagonal:g}): Eq. (2) cannot be applied")
                block = np.kron(block, f.to_dense())
            op = np.linalg.inv(block.T) if mode == "inverse" else block     # symmetric: P^T = P
            k = block.shape[0]
            x = (x.reshape(-1, k) @ op.T).reshape(-1)
        return x

    def solve(self, lam: np.ndarray) -> np.ndarray:
        """Eq. (2) factor by factor: (P1 (x) ... (x) Pm)^T^-1 = (P1^T)^-1 (x) ... (x) (Pm^T)^-1."""
        return self._sweep(lam, "inverse")

    def forward(self, pi: np.ndarray) -> np.ndarray:
        """lambda = P^T pi."""
        return self._sweep(pi, "forward")

    def backward(self, ratio: np.ndarray) -> np.ndarray:
        """P ratio (used by IBU)."""
        return self._sweep(ratio, "backward")


def _n_categories(matrix: Any) -> int:
    return matrix.n_categories if isinstance(matrix, (GRRMatrix, KroneckerMatrix)) else int(np.shape(matrix)[0])


def _dense(matrix: Any) -> np.ndarray:
    return matrix.to_dense() if isinstance(matrix, (GRRMatrix, KroneckerMatrix)) else np.asarray(matrix, float)


def _epsilon(matrix: Any) -> float:
    if isinstance(matrix, (GRRMatrix, KroneckerMatrix)):
        return matrix.epsilon
    from explorer.core.randomized_response import epsilon_of
    return float(epsilon_of(matrix))


def _apply_first_axis(block: np.ndarray, matrix: Any, mode: str) -> np.ndarray:
    """Apply P^T ("forward"), P ("backward") or (P^T)^-1 ("inverse") along axis 0 of a (k, rest) array."""
    if isinstance(matrix, GRRMatrix):
        a, b = matrix.diagonal, matrix.off_diagonal
        total = block.sum(axis=0, keepdims=True)
        if mode == "inverse":
            if abs(a - b) < 1e-12:
                raise SingularMatrixError(f"an attribute's RR matrix is singular (diagonal {a:g} equals "
                                          f"off-diagonal {b:g}): Eq. (2) cannot be applied")
            return (block - b * total) / (a - b)
        return (a - b) * block + b * total          # P is symmetric: P^T = P
    m = np.asarray(matrix, dtype=float)
    if mode == "inverse":
        try:
            return np.linalg.solve(m.T, block)
        except np.linalg.LinAlgError:
            raise SingularMatrixError("an attribute's RR matrix is singular: Eq. (2) cannot be applied") from None
    return (m.T if mode == "forward" else m) @ block


def attribute_matrix(n_categories: int, p: float | None = None, *, mechanism: str = "keep-or-uniform",
                     epsilon: float | None = None) -> GRRMatrix:
    """The per-attribute RR matrix of Section 6.3.1, under a named mechanism.

    Parameters
    ----------
    n_categories : int
        |A|, at least 2.
    p : float
        Probability in (0, 1] (``"keep-or-uniform"``, ``"paper-6.3.1"``).
    mechanism : {"keep-or-uniform", "paper-6.3.1", "epsilon"}
        See the module docstring.  ``"epsilon"`` takes ``epsilon`` > 0 instead of p
        and gives the optimal matrix e^eps / (e^eps + |A| - 1) on the diagonal.

    Notes
    -----
    Keep-or-uniform: diagonal p + (1 - p)/|A|, off-diagonal (1 - p)/|A|, epsilon
    ln(1 + p|A|/(1 - p)).  Section 6.3.1 as printed (p on the diagonal,
    (1 - p)/|A| off it) is not stochastic; ``"paper-6.3.1"`` rescales its rows,
    which keeps its column ratio, so its epsilon is the printed
    epsilon_A = |ln(p|A|/(1 - p))|.

    Examples
    --------
    >>> m = attribute_matrix(2, 0.5)
    >>> m.diagonal, m.off_diagonal, round(m.epsilon, 4)   # ln 3
    (0.75, 0.25, 1.0986)
    >>> round(attribute_matrix(9, 0.5, mechanism="paper-6.3.1").epsilon, 4)   # |ln(0.5*9/0.5)|
    2.1972
    """
    k = check_int(n_categories, "n_categories", minimum=2)
    if mechanism == "epsilon":
        eps = check_epsilon(epsilon, "epsilon", allow_zero=False)
        if math.isinf(eps):
            return GRRMatrix(k, 1.0)
        return GRRMatrix(k, 1.0 / (1.0 + (k - 1) * math.exp(-eps)))
    p = check_probability(p, "p", allow_zero=False)
    if mechanism == "keep-or-uniform":
        return GRRMatrix(k, p + (1.0 - p) / k)
    if mechanism == "paper-6.3.1":
        off = (1.0 - p) / k
        return GRRMatrix(k, p / (p + (k - 1) * off))
    raise InvalidParameterError(f"mechanism must be one of {MECHANISMS}, got {mechanism!r}")


def cluster_matrix(cardinalities: Sequence[int], epsilons: Sequence[float]) -> GRRMatrix:
    """Section 6.3.2's matrix for a cluster C: optimal for sum(epsilon_A)-DP.

    Notes
    -----
    Diagonal p_C, off-diagonal p_C exp(-sum epsilon_A), with the corrected
    p_C = 1 / (1 + (prod|A| - 1) exp(-sum epsilon_A)) (the printed
    (1 - prod|A|) can give p_C > 1; PAPER_NOTES.md).

    Examples
    --------
    >>> m = cluster_matrix([2, 3], [math.log(3), math.log(2)])
    >>> round(m.diagonal, 6), round(m.epsilon, 6), round(math.log(6), 6)
    (0.545455, 1.791759, 1.791759)
    """
    cards = [check_int(c, "cardinalities", minimum=2) for c in cardinalities]
    if not cards:
        raise InvalidParameterError("cardinalities must name at least one attribute, got none")
    if len(epsilons) != len(cards):
        raise InvalidParameterError(f"epsilons must have {len(cards)} entries, got {len(epsilons)}")
    total = sum(check_epsilon(e, "epsilons") for e in epsilons)
    r = n_combinations(cards)
    if math.isinf(total):
        return GRRMatrix(r, 1.0)
    return GRRMatrix(r, 1.0 / (1.0 + (r - 1) * math.exp(-total)))


def n_combinations(cardinalities: Sequence[int], *, limit: int | None = None) -> int:
    """prod |A| (Section 6.2: 1,814,400 for Adult's 8 categorical attributes).

    Raises if the product exceeds ``limit`` (default :data:`MAX_JOINT_CELLS` when given as True).

    Examples
    --------
    >>> n_combinations([9, 16, 7, 15, 6, 5, 2, 2])
    1814400
    """
    r = 1
    for c in cardinalities:
        r *= int(c)
    if limit is not None and r > limit:
        raise InvalidParameterError(
            f"the joint domain has {r:,} combinations, more than the closed form can index ({limit:,}); "
            "use fewer attributes or RR-Clusters")
    return r


def joint_codes(codes: np.ndarray, cardinalities: Sequence[int]) -> np.ndarray:
    """C-order flat index of each record's combination (consistent with ``np.kron``)."""
    n_combinations(cardinalities, limit=np.iinfo(np.int64).max // 2)
    codes = np.asarray(codes)
    if codes.ndim == 1:
        return codes.astype(np.int64)
    return np.ravel_multi_index(tuple(codes[:, j] for j in range(codes.shape[1])), tuple(cardinalities))


# --------------------------------------------------------------------------- proper distributions

def make_proper(raw: np.ndarray, method: str = "clip", *, matrix: Any = None, lam: np.ndarray | None = None,
                max_iterations: int = 10_000, tolerance: float = 1e-10) -> tuple[np.ndarray, int]:
    """Turn an Eq. (2) estimate into a proper distribution; returns ``(estimate, iterations)``.

    ``"clip"`` is Section 6.4's procedure (negatives to 0, rescale); ``"simplex"``
    is the Euclidean projection onto the simplex (what 6.4 calls "closest", which
    clipping is not: PAPER_NOTES.md); ``"ibu"`` the iterative Bayesian update,
    which needs the structured ``matrix`` and the report frequencies ``lam``;
    ``"none"`` returns Eq. (2) as is.

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
        from explorer.core.randomized_response import clip_and_rescale
        return np.asarray(clip_and_rescale(raw), dtype=float), 0
    if method == "simplex":
        from explorer.core.randomized_response import project_to_simplex
        return np.asarray(project_to_simplex(raw), dtype=float), 0
    if method == "ibu":
        if matrix is None or lam is None:
            raise InvalidParameterError("method 'ibu' needs the RR matrix and the report frequencies")
        return _ibu(matrix, np.asarray(lam, dtype=float), max_iterations, tolerance)
    raise InvalidParameterError(f"proper-distribution method must be one of {PROPER_METHODS}, got {method!r}")


def _ibu(matrix: Any, lam: np.ndarray, max_iterations: int, tolerance: float) -> tuple[np.ndarray, int]:
    """Iterative Bayesian update (Agrawal-Aggarwal; ref. [2] of 003) with structured products."""
    r = lam.size
    pi = np.full(r, 1.0 / r)
    for it in range(1, max_iterations + 1):
        if isinstance(matrix, GRRMatrix):
            a, b = matrix.diagonal, matrix.off_diagonal
            denom = (a - b) * pi + b                       # (P^T pi)_v, sum(pi) = 1
            ratio = np.divide(lam, denom, out=np.zeros_like(lam), where=denom > 0)
            new = pi * ((a - b) * ratio + b * ratio.sum())  # pi_u (P ratio)_u
        elif isinstance(matrix, KroneckerMatrix):
            denom = matrix.forward(pi)
            ratio = np.divide(lam, denom, out=np.zeros_like(lam), where=denom > 0)
            new = pi * matrix.backward(ratio)
        else:
            m = np.asarray(matrix, dtype=float)
            denom = m.T @ pi
            ratio = np.divide(lam, denom, out=np.zeros_like(lam), where=denom > 0)
            new = pi * (m @ ratio)
        new /= new.sum()
        if np.abs(new - pi).max() < tolerance:
            return new, it
        pi = new
    return pi, max_iterations


def _frequencies(flat: np.ndarray, r: int) -> np.ndarray:
    return np.bincount(flat, minlength=r).astype(float) / max(flat.size, 1)


# --------------------------------------------------------------------------- RR-Joint (Protocol 2)

def _check_codes(codes: Any, cardinalities: Sequence[int]) -> np.ndarray:
    codes = np.asarray(codes)
    if codes.ndim == 1:
        codes = codes[:, None]
    if codes.ndim != 2 or codes.shape[1] != len(cardinalities):
        raise InvalidParameterError(f"codes must be an (n, {len(cardinalities)}) array, got shape {codes.shape}")
    if codes.shape[0] == 0:
        raise InvalidParameterError("codes must hold at least one record, got none")
    if not np.issubdtype(codes.dtype, np.integer):
        raise ExplorerTypeError(f"codes must be integers, got dtype {codes.dtype}")
    cards = np.array([check_int(c, f"cardinality of attribute {j + 1}", minimum=2)
                      for j, c in enumerate(cardinalities)])
    low, high = codes.min(axis=0), codes.max(axis=0)
    bad = np.flatnonzero((low < 0) | (high >= cards))
    if bad.size:
        j = int(bad[0])
        raise InvalidParameterError(f"codes of attribute {j + 1} must lie in 0..{cards[j] - 1}, got "
                                    f"{int(low[j])}..{int(high[j])}")
    return codes.astype(np.int64, copy=False)


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
        if tuple(_n_categories(f) for f in factors) != tuple(int(c) for c in cardinalities):
            raise InvalidParameterError(f"the Kronecker factors must have {tuple(cardinalities)} categories, "
                                        f"got {tuple(_n_categories(f) for f in factors)}")
        return KroneckerMatrix(factors)
    if r > MAX_DENSE_SOLVE:
        raise InvalidParameterError(f"a general joint matrix is solved densely only up to {MAX_DENSE_SOLVE} "
                                    f"combinations, got {r:,}: use a keep-or-uniform/optimal or Kronecker matrix")
    m = check_rr_matrix(matrix)
    if m.shape[0] != r:
        raise InvalidParameterError(f"matrix must be {r} x {r} (the joint domain), got {m.shape[0]} x {m.shape[1]}")
    return m


def randomize_joint(codes: Any, cardinalities: Sequence[int], matrix: Any, rng: Any = None) -> np.ndarray:
    """Protocol 2, step 4: each record's combination randomized; returns flat report codes."""
    rng = check_rng(rng)
    codes = _check_codes(codes, cardinalities)
    mech = _joint_mechanism(matrix, cardinalities)
    if isinstance(mech, GRRMatrix):
        return mech.randomize(joint_codes(codes, cardinalities), rng)
    if isinstance(mech, KroneckerMatrix):
        cols = [_randomize_factor(codes[:, j], f, rng) for j, f in enumerate(mech.factors)]
        return joint_codes(np.column_stack(cols), cardinalities)
    from explorer.core.randomized_response import randomize
    return np.asarray(randomize(joint_codes(codes, cardinalities), mech, rng=rng), dtype=np.int64)


def _randomize_factor(column: np.ndarray, matrix: Any, rng: np.random.Generator) -> np.ndarray:
    if isinstance(matrix, GRRMatrix):
        return matrix.randomize(column, rng)
    from explorer.core.randomized_response import randomize
    return np.asarray(randomize(column, matrix, rng=rng), dtype=np.int64)


def estimate_joint(reports: np.ndarray, cardinalities: Sequence[int], matrix: Any, *,
                   method: str = "clip") -> tuple[np.ndarray, np.ndarray, int]:
    """Protocol 2, step 7: Eq. (2) on the joint report frequencies; ``(estimate, raw, iterations)``."""
    r = n_combinations(cardinalities, limit=MAX_JOINT_CELLS)
    mech = _joint_mechanism(matrix, cardinalities)
    lam = _frequencies(np.asarray(reports, dtype=np.int64), r)
    if isinstance(mech, (GRRMatrix, KroneckerMatrix)):
        raw = mech.solve(lam)
    else:
        try:
            raw = np.linalg.solve(mech.T, lam)
        except np.linalg.LinAlgError:
            raise SingularMatrixError("the joint RR matrix is singular: Eq. (2) cannot be applied") from None
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
    """RR-Joint (Protocol 2) on the Cartesian product of the attributes.

    ``matrix`` is a :class:`GRRMatrix` over the joint domain (keep-or-uniform or
    optimal: randomized and estimated in closed form, no r x r matrix), a
    :class:`KroneckerMatrix` or list of per-attribute matrices (solved factor by
    factor), or a general r x r matrix (dense solve, r <= :data:`MAX_DENSE_SOLVE`).

    Notes
    -----
    Eq. (2): pi_hat = (P^T)^-1 lambda_hat.  For P = (a - b) I + b J,
    (P^T)^-1 lambda = (lambda - b) / (a - b).

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
                       epsilon=_epsilon(mech), method=method, iterations=iterations)


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
    """RR-Independent (Protocol 1): RR on each attribute, marginals by Eq. (2).

    Examples
    --------
    >>> codes = np.array([[0, 1], [1, 0], [0, 1], [0, 0]])
    >>> out = rr_independent(codes, (2, 2), p=1.0, rng=0)      # p = 1: no noise
    >>> [m.tolist() for m in out.marginals]
    [[0.75, 0.25], [0.5, 0.5]]
    """
    rng = check_rng(rng)
    cards = tuple(int(c) for c in cardinalities)
    codes = _check_codes(codes, cards)
    mats = tuple(matrices) if matrices is not None else _attribute_matrices(cards, p, mechanism, epsilon)
    reports = np.column_stack([mat.randomize(codes[:, j], rng) for j, mat in enumerate(mats)])
    marginals, raws = [], []
    for j, mat in enumerate(mats):
        lam = _frequencies(reports[:, j], cards[j])
        raw = mat.solve(lam)
        est, _ = make_proper(raw, method, matrix=mat, lam=lam)
        marginals.append(est)
        raws.append(raw)
    return IndependentResult(reports=reports, marginals=tuple(marginals), raw_marginals=tuple(raws),
                             matrices=mats, epsilons=tuple(m.epsilon for m in mats), method=method)


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


def _outer_in_order(parts: list[tuple[list[int], np.ndarray]], attributes: Sequence[int]) -> np.ndarray:
    """Outer product of marginal tensors over disjoint attribute groups, axes in ``attributes`` order."""
    tensor = np.ones(())
    order: list[int] = []
    for attrs, marg in parts:
        tensor = np.multiply.outer(tensor, marg)
        order.extend(attrs)
    return np.transpose(tensor, [order.index(a) for a in attributes])


def query_frequency_independent(marginals: Sequence[np.ndarray], query: CountQuery) -> float:
    """Protocol 1, step 10: sum over S of the product of the estimated marginals."""
    parts = [([a], np.asarray(marginals[a])) for a in query.attributes]
    return float((_outer_in_order(parts, query.attributes) * query.mask).sum())


def query_frequency_weighted(codes: np.ndarray, weights: np.ndarray, query: CountQuery) -> float:
    """Frequency of S in weighted records (RR-Adjustment's output, or raw reports with equal weights)."""
    sub = tuple(np.asarray(codes)[:, a] for a in query.attributes)
    return float(np.asarray(weights)[query.mask[sub]].sum())


def count_query_errors(estimated_count: float, true_count: float) -> tuple[float, float]:
    """Eq. (16): absolute error |Y_S - X_S| and relative error |Y_S - X_S| / X_S (NaN when X_S = 0).

    Examples
    --------
    >>> count_query_errors(110.0, 100)
    (10.0, 0.1)
    """
    e = abs(float(estimated_count) - float(true_count))
    return e, (e / true_count if true_count > 0 else math.nan)


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
    codes = _check_codes(codes, cards)
    clusters = _check_clusters(clusters, len(cards))
    attr_mats = _attribute_matrices(cards, p, mechanism, epsilon)
    reports, estimates, mats, epss = [], [], [], []
    for cluster in clusters:
        ccards = [cards[a] for a in cluster]
        if len(cluster) == 1:
            mat = attr_mats[cluster[0]]
        else:
            n_combinations(ccards, limit=MAX_JOINT_CELLS)
            mat = cluster_matrix(ccards, [attr_mats[a].epsilon for a in cluster])
        flat = joint_codes(codes[:, list(cluster)], ccards)
        rep = mat.randomize(flat, rng)
        lam = _frequencies(rep, mat.n_categories)
        est, _ = make_proper(mat.solve(lam), method, matrix=mat, lam=lam)
        reports.append(rep)
        estimates.append(est)
        mats.append(mat)
        epss.append(mat.epsilon)
    return ClustersResult(clusters=clusters, cardinalities=cards, reports=tuple(reports), estimates=tuple(estimates),
                          matrices=tuple(mats), epsilons=tuple(epss), method=method)


def query_frequency_clusters(result: ClustersResult, query: CountQuery) -> float:
    """Frequency of S under RR-Clusters: joint within clusters, independence across them."""
    return float((result.marginal(query.attributes) * query.mask).sum())


# --------------------------------------------------------------------------- dependence (Section 4)

def _contingency(x: np.ndarray, y: np.ndarray, kx: int, ky: int) -> np.ndarray:
    return np.bincount(x * ky + y, minlength=kx * ky).reshape(kx, ky).astype(float)


def cramers_v(table: Any) -> float:
    """Cramér's V of a contingency table (Expression (9)), no continuity correction.

    Rows or columns with zero total are dropped; a table with one row or column left gives 0.

    Notes
    -----
    V = sqrt(chi^2 / n / min(r - 1, c - 1)), chi^2 = sum (o - e)^2 / e with
    e = n_a n_b / n (the printed denominator f_ab is e_ab: PAPER_NOTES.md).

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
    """|Pearson correlation| of two ordinal attributes from their contingency table (Expression (8)).

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
    """Dependences between attributes (m x m, ones on the diagonal) for Algorithm 1.

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
                lam = _frequencies(rep, cm.n_categories)
                est, _ = make_proper(cm.solve(lam), proper, matrix=cm, lam=lam)
                tables[(i, j)] = est.reshape(cards[i], cards[j])
    dep = np.eye(m)
    for (i, j), t in tables.items():
        dep[i, j] = dep[j, i] = pair_dependence(t, data.ordinal[i] and data.ordinal[j])
    return dep


# --------------------------------------------------------------------------- Algorithm 1

def cluster_attributes(dependence: Any, cardinalities: Sequence[int], t_v: float, t_d: float) -> list[list[int]]:
    """Algorithm 1: merge clusters in descending order of dependence.

    The dependence between clusters is the largest dependence between an
    attribute of one and an attribute of the other; two clusters merge when
    that dependence is >= ``t_d`` and the merged cluster has at most ``t_v``
    combinations; after a merge the list is recomputed and scanned from the
    top; the algorithm stops when the dependence falls below ``t_d`` or the list
    is exhausted.  Clusters are returned sorted, each as sorted attribute indices.

    Examples
    --------
    >>> dep = [[1, .8, .1], [.8, 1, .3], [.1, .3, 1]]
    >>> cluster_attributes(dep, [2, 3, 4], t_v=6, t_d=0.2)
    [[0, 1], [2]]
    >>> cluster_attributes(dep, [2, 3, 4], t_v=24, t_d=0.0)
    [[0, 1, 2]]
    """
    d = np.asarray(dependence, dtype=float)
    cards = [check_int(c, "cardinalities", minimum=2) for c in cardinalities]
    m = len(cards)
    if d.shape != (m, m):
        raise InvalidParameterError(f"dependence must be a {m} x {m} matrix, got shape {d.shape}")
    if not np.all(np.isfinite(d)):
        raise InvalidParameterError("dependence must contain finite numbers only")
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
                dep = max(d[a, b] for a in clusters[x] for b in clusters[y])
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


# --------------------------------------------------------------------------- Algorithm 2

#: 003 Example 1, Expression (13): 10 randomized records of two binary attributes:
#: (a1, a1) four times, (a2, a1) twice, (a2, a2) four times (codes 0 = a_1, 1 = a_2).
EXAMPLE1_REPORTS = np.array([[0, 0]] * 4 + [[1, 0]] * 2 + [[1, 1]] * 4)
#: 003 Example 1: the estimated marginals pi_hat^1 = pi_hat^2 = (1/2, 1/2).
EXAMPLE1_MARGINALS = (np.array([0.5, 0.5]), np.array([0.5, 0.5]))

@dataclass(frozen=True)
class AdjustmentResult:
    """RR-Adjustment output: record weights (sum 1) and the convergence trace, one entry per sweep.

    ``trace_change[k]`` is the largest |w change| in sweep k+1; ``trace_gap[k]`` the
    largest |marginal of the weighted reports - target| after sweep k+1;
    ``weight_history[k]`` the weights after sweep k+1 when ``keep_history``.
    """

    weights: np.ndarray
    sweeps: int
    converged: bool
    trace_change: np.ndarray
    trace_gap: np.ndarray
    weight_history: np.ndarray | None = field(default=None, repr=False)


def rr_adjust(reports: Any, marginal_estimates: Sequence[Any], *, blocks: Sequence[Sequence[int]] | None = None,
              cardinalities: Sequence[int] | None = None, max_sweeps: int = 50, tolerance: float | None = 1e-9,
              keep_history: bool = False) -> AdjustmentResult:
    """Algorithm 2 (RR-Adjustment): rake the weights of the randomized records to the estimated marginals.

    Parameters
    ----------
    reports : (n, m) int array
        The randomized records Y, one code per attribute.
    marginal_estimates : list of arrays
        pi_hat for each block: an attribute (RR-Independent) or a cluster
        (RR-Clusters; the flat C-order distribution over the cluster's combinations).
    blocks : list of attribute lists, optional
        The attributes of each block (default: one attribute each).
    max_sweeps, tolerance
        Stop after ``max_sweeps`` sweeps or when no weight changes by more than ``tolerance``.

    Notes
    -----
    One Adjust_weights per block per sweep: s_k = sum of the weights of the
    records whose block value is k; w_i <- w_i pi_hat_v / s_v, v the record's value;
    categories with s_k = 0 are left unchanged (PAPER_NOTES.md).

    Examples
    --------
    Example 1 of 003: the weights of the (a2, a1) records vanish as 1/(8(k+1)).

    >>> y = np.array([[0, 0]] * 4 + [[1, 0]] * 2 + [[1, 1]] * 4)
    >>> out = rr_adjust(y, [[0.5, 0.5], [0.5, 0.5]], max_sweeps=1, tolerance=None)
    >>> (out.weights * 32).round(6).tolist()[3:7]
    [3.0, 2.0, 2.0, 4.0]
    """
    y = np.asarray(reports)
    if y.ndim == 1:
        y = y[:, None]
    if y.ndim != 2 or y.shape[0] == 0:
        raise InvalidParameterError(f"reports must be an (n, m) array of codes, got shape {y.shape}")
    y = y.astype(np.int64, copy=False)
    n, m = y.shape
    blocks = [[j] for j in range(m)] if blocks is None else [list(map(int, b)) for b in blocks]
    if len(blocks) != len(marginal_estimates):
        raise InvalidParameterError(f"marginal_estimates must have one entry per block ({len(blocks)}), "
                                    f"got {len(marginal_estimates)}")
    if cardinalities is None:
        cardinalities = [int(y[:, j].max()) + 1 for j in range(m)]
    max_sweeps = check_int(max_sweeps, "max_sweeps", minimum=1)
    tol = None if tolerance is None else check_number(tolerance, "tolerance", minimum=0.0)
    block_codes, targets = [], []
    for b, est in zip(blocks, marginal_estimates):
        cards = [int(cardinalities[a]) for a in b]
        r = n_combinations(cards)
        target = np.asarray(est, dtype=float).reshape(-1)
        if target.size != r:
            raise InvalidParameterError(f"the marginal estimate of block {b} must have {r} entries, got {target.size}")
        block_codes.append(joint_codes(y[:, b], cards))
        targets.append(target)
    w = np.full(n, 1.0 / n)
    changes, gaps, history = [], [], []
    converged = False
    for sweep in range(max_sweeps):
        before = w.copy()
        for codes_b, target in zip(block_codes, targets):   # Adjust_weights(Y, w, j, pi_hat^j)
            s = np.bincount(codes_b, weights=w, minlength=target.size)
            factor = np.divide(target, s, out=np.ones_like(target), where=s > 0)
            w = w * factor[codes_b]
        changes.append(float(np.abs(w - before).max()))
        gaps.append(max(float(np.abs(np.bincount(c, weights=w, minlength=t.size) - t).max())
                        for c, t in zip(block_codes, targets)))
        if keep_history:
            history.append(w.copy())
        if tol is not None and changes[-1] <= tol:
            converged = True
            break
    total = w.sum()
    if total > 0:
        w = w / total
    return AdjustmentResult(weights=w, sweeps=len(changes), converged=converged, trace_change=np.array(changes),
                            trace_gap=np.array(gaps), weight_history=np.array(history) if keep_history else None)


# --------------------------------------------------------------------------- error bounds (Section 2.3, 3.3)

def chi2_factor(n_categories: int, alpha: float = 0.05) -> float:
    """B of Eqs. (5)-(6): the upper alpha/r point of chi-square with 1 degree of freedom.

    Figure 1 plots sqrt(B) against r.

    Examples
    --------
    >>> round(math.sqrt(chi2_factor(2, 0.05)), 4)
    2.2414
    """
    from scipy.stats import chi2
    r = check_int(n_categories, "n_categories", minimum=1)
    alpha = check_probability(alpha, "alpha", allow_zero=False, allow_one=False)
    return float(chi2.isf(alpha / r, 1))


def relative_error_bound(cardinalities: Sequence[int], n: int, alpha: float = 0.05) -> float:
    """Section 3.3's best-case relative error sqrt(B (prod|A| - 1) / n) of RR-Joint (Eq. 6, uniform lambda).

    For a single attribute this is RR-Independent's per-attribute bound.

    Examples
    --------
    >>> round(relative_error_bound([2], 100), 4)
    0.2241
    """
    r = n_combinations(cardinalities)
    n = check_int(n, "n", minimum=1)
    return math.sqrt(chi2_factor(r, alpha) * (r - 1) / n)
