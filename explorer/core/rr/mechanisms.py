"""Randomized response mechanisms: RR matrices, their epsilon, and randomizing with them.

An RR matrix is row-stochastic, ``P[u, v] = Pr(Y = v | X = u)`` (Domingo-Ferrer and
Soria-Comas (2018), Eq. 1); categories are integer codes ``0 .. r-1``.  Shared by the
single-attribute RR of Domingo-Ferrer and Soria-Comas (2018) and the multi-attribute RR of
Domingo-Ferrer and Soria-Comas (2022).

Dense designs
    :func:`warner_matrix`, :func:`keep_or_uniform_matrix`, :func:`optimal_matrix`,
    :func:`identity_matrix`, validated custom matrices (:func:`check_matrix`).
Structured matrices (never built)
    :class:`GRRMatrix` (one value on the diagonal, one off it: keep-or-uniform, the optimal
    matrix, the per-attribute and cluster matrices of Domingo-Ferrer and Soria-Comas (2022),
    Sections 6.3.1-6.3.2) and :class:`KroneckerMatrix` (one factor per attribute).  The dense
    designs are :meth:`GRRMatrix.to_dense` of the same family, so each formula exists once.
Epsilon
    :func:`epsilon_of` (Domingo-Ferrer and Soria-Comas (2018), Eq. 6) and :func:`epsilon_column`.
Randomizing
    :func:`randomize` (vectorized, O(n)) and :meth:`GRRMatrix.randomize`.

The choices and errata followed are listed in the documentation page "Conventions and errata
followed" (``docs/conventions.md``).

References
----------
.. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
   differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.
.. [2] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
   Transactions on Knowledge and Data Engineering, 2022.
.. [3] S. L. Warner, "Randomized response: a survey technique for eliminating evasive answer bias",
   Journal of the American Statistical Association 60(309):63-69, 1965.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
from numpy.typing import ArrayLike

from explorer._validation import (
    ROW_SUM_TOLERANCE,
    check_epsilon,
    check_int,
    check_probability,
    check_rng,
    check_rr_matrix,
)
from explorer.errors import (
    ExplorerTypeError,
    InvalidDistributionError,
    InvalidParameterError,
    SingularMatrixError,
)

__all__ = [
    "MAX_CATEGORIES",
    "SINGULAR_CONDITION",
    "ILL_CONDITIONED",
    "IllConditionedMatrixWarning",
    "MAX_DENSE_SOLVE",
    "MECHANISMS",
    "GRRMatrix",
    "KroneckerMatrix",
    "warner_matrix",
    "keep_or_uniform_matrix",
    "keep_probability_for_epsilon",
    "optimal_matrix",
    "identity_matrix",
    "check_matrix",
    "row_check",
    "normalise_rows",
    "epsilon_of",
    "epsilon_column",
    "attribute_matrix",
    "cluster_matrix",
    "n_combinations",
    "randomize",
]

#: Largest number of categories the dense designs accept by default.
MAX_CATEGORIES = 64
#: Largest general (unstructured) matrix built or solved densely.
MAX_DENSE_SOLVE = 4096
#: Per-attribute mechanisms of Domingo-Ferrer and Soria-Comas (2022), Section 6.3.1 and its correction.
MECHANISMS = ("keep-or-uniform", "paper-6.3.1", "epsilon")
#: A GRR matrix whose diagonal and off-diagonal differ by less than this is singular.
_SINGULAR_GAP = 1e-12
#: A dense matrix whose (1-norm) condition number exceeds this is singular for Eq. (2).
SINGULAR_CONDITION = 1e12
#: Above this condition number solving Eq. (2) warns that it amplifies noise.
ILL_CONDITIONED = 1e6


class IllConditionedMatrixWarning(UserWarning):
    """The RR matrix is nearly singular: Eq. (2) of Domingo-Ferrer and Soria-Comas (2018) amplifies sampling noise a lot."""


# --------------------------------------------------------------------------- solving Eq. (2)


def _solve_transpose(p: np.ndarray, lam: np.ndarray) -> np.ndarray:
    """(P^T)^-1 lam by LAPACK's LU solver (numpy's ``solve``), refusing a singular P and warning on an
    ill-conditioned one.

    The condition number is numpy's 1-norm one, ``||A||_1 ||A^-1||_1`` (infinite for an exactly singular
    matrix): the dense matrices solved here are small (a tab's attribute, a cluster of at most a few hundred
    combinations), and numpy alone keeps scipy out of the tabs that only solve one (scipy's import costs a
    kernel about 25 MB).
    """
    a = np.ascontiguousarray(p.T)
    with np.errstate(all="ignore"):
        condition = float(np.linalg.cond(a, 1))
    if not condition <= SINGULAR_CONDITION:
        raise SingularMatrixError("the RR matrix is singular (its rows are linearly dependent, as under perfect "
                                  "secrecy): Eq. (2) cannot be applied")
    if condition > ILL_CONDITIONED:
        warnings.warn(
            f"the RR matrix is ill-conditioned (condition number {condition:.3g}): "
            "the inversion estimate amplifies sampling noise; consider method='ibu'",
            IllConditionedMatrixWarning, stacklevel=4)
    return np.linalg.solve(a, lam)


# --------------------------------------------------------------------------- structured matrices


def _singular_grr(a: float, b: float, what: str = "the RR matrix") -> SingularMatrixError:
    return SingularMatrixError(f"{what} is singular (diagonal {a:g} equals off-diagonal {b:g}): the reports "
                               "carry no information, Eq. (2) cannot be applied")


@dataclass(frozen=True)
class GRRMatrix:
    """An RR matrix with one value on the diagonal and one off it (r x r, never built).

    Parameters
    ----------
    n_categories : int
        r, the number of categories.
    diagonal : float
        ``Pr(Y = u | X = u)``.
    off_diagonal : float, optional
        The probability of each other report; by default ``(1 - diagonal) / (r - 1)``.  Give it
        when it is known more accurately than that difference (large epsilons).

    Notes
    -----
    Keep-or-uniform, the optimal (GRR) matrix, the row-normalised matrix of Domingo-Ferrer and
    Soria-Comas (2022), Section 6.3.1, and their cluster matrix of Section 6.3.2 all have this
    form ``P = (a - b) I + b J``, so randomizing and Eq. (2) need O(n + r) work, not O(r^2)
    memory: ``P^T pi = (a - b) pi + b sum(pi)`` and
    ``(P^T)^-1 lambda = (lambda - b sum(lambda)) / (a - b)``.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
       Transactions on Knowledge and Data Engineering, 2022.

    Examples
    --------
    >>> m = GRRMatrix(3, 0.5)
    >>> m.off_diagonal, m.to_dense()[0].tolist()
    (0.25, [0.5, 0.25, 0.25])
    """

    n_categories: int
    diagonal: float
    off_diagonal: float = field(default=math.nan)

    def __post_init__(self) -> None:
        if math.isnan(self.off_diagonal):
            object.__setattr__(self, "off_diagonal", (1.0 - self.diagonal) / (self.n_categories - 1))

    @classmethod
    def optimal(cls, n_categories: int, epsilon: float) -> "GRRMatrix":
        """The least randomization that is epsilon-DP: ``e^eps / (e^eps + r - 1)`` on the diagonal.

        Computed as ``1 / (1 + (r - 1) e^-eps)`` and ``e^-eps`` times that, so large epsilons
        neither overflow nor lose the off-diagonal to rounding.
        """
        if math.isinf(epsilon):
            return cls(n_categories, 1.0, 0.0)
        shrink = math.exp(-epsilon)
        diagonal = 1.0 / (1.0 + (n_categories - 1) * shrink)
        return cls(n_categories, diagonal, shrink * diagonal)

    @classmethod
    def keep_or_uniform(cls, n_categories: int, p: float) -> "GRRMatrix":
        """Keep the true value with probability p, else draw uniformly: ``p + (1 - p)/r`` and ``(1 - p)/r``."""
        off = (1.0 - p) / n_categories
        return cls(n_categories, p + off, off)

    @property
    def epsilon(self) -> float:
        """Eq. (6) of Domingo-Ferrer and Soria-Comas (2018): ln of the largest ratio within a column.

        References
        ----------
        .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
           differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.
        """
        a, b = self.diagonal, self.off_diagonal
        if a == b:
            return 0.0
        if min(a, b) <= 0.0:
            return math.inf
        return abs(math.log(a / b))

    def to_dense(self) -> np.ndarray:
        """The explicit r x r matrix (r <= :data:`MAX_DENSE_SOLVE`)."""
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
        """Eq. (2) in closed form: ``(P^T)^-1 lambda = (lambda - b sum(lambda)) / (a - b)`` (along axis 0)."""
        a, b = self.diagonal, self.off_diagonal
        if abs(a - b) < _SINGULAR_GAP:
            raise _singular_grr(a, b)
        lam = np.asarray(lam, dtype=float)
        return (lam - b * lam.sum(axis=0)) / (a - b)

    def forward(self, pi: np.ndarray) -> np.ndarray:
        """``lambda = P^T pi`` (along axis 0)."""
        a, b = self.diagonal, self.off_diagonal
        return (a - b) * pi + b * pi.sum(axis=0)

    def backward(self, ratio: np.ndarray) -> np.ndarray:
        """``P ratio``: the same as :meth:`forward`, P being symmetric."""
        return self.forward(ratio)


@dataclass(frozen=True)
class KroneckerMatrix:
    """The Kronecker product of per-attribute matrices, P1 (x) P2 (x) ... (x) Pm, never built.

    Randomizing with it is randomizing each attribute with its own factor, and Eq. (2) is
    solved factor by factor along the axes of the joint tensor (joint categories in C order,
    consistent with ``np.kron``).

    Examples
    --------
    >>> k = KroneckerMatrix((GRRMatrix(2, 0.75), GRRMatrix(3, 0.5)))
    >>> k.n_categories, bool(np.allclose(k.to_dense(), np.kron(k.factors[0].to_dense(), k.factors[1].to_dense())))
    (6, True)
    """

    factors: tuple[Any, ...]

    @property
    def cardinalities(self) -> tuple[int, ...]:
        return tuple(matrix_size(f) for f in self.factors)

    @property
    def n_categories(self) -> int:
        return int(np.prod(self.cardinalities, dtype=np.int64))

    @property
    def epsilon(self) -> float:
        """Epsilon of a Kronecker product: the sum of the factors' epsilons."""
        return float(sum(matrix_epsilon(f) for f in self.factors))

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
            k = matrix_size(f)
            block = _apply_first_axis(x.reshape(k, -1), f, mode)   # (k, rest), the factor's axis first
            x = np.ascontiguousarray(block.T).reshape(-1)          # rotate: that axis becomes the last
        return x

    def _sweep_grr(self, x: np.ndarray, mode: str) -> np.ndarray:
        """All factors GRR: in place along each axis of a (before, k, after) view."""
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
                if abs(a - b) < _SINGULAR_GAP:
                    raise _singular_grr(a, b, "an attribute's RR matrix")
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
                if mode == "inverse" and abs(f.diagonal - f.off_diagonal) < _SINGULAR_GAP:
                    raise _singular_grr(f.diagonal, f.off_diagonal, "an attribute's RR matrix")
                block = np.kron(block, f.to_dense())
            k = block.shape[0]
            rows = x.reshape(-1, k)
            if mode == "inverse":                   # (P^T)^-1 applied to every row
                x = _solve_transpose(block, rows.T).T.reshape(-1)
            else:                                   # symmetric: P^T = P
                x = (rows @ block.T).reshape(-1)
        return x

    def solve(self, lam: np.ndarray) -> np.ndarray:
        """Eq. (2) factor by factor: ``((P1 (x) ... (x) Pm)^T)^-1 = (P1^T)^-1 (x) ... (x) (Pm^T)^-1``."""
        return self._sweep(lam, "inverse")

    def forward(self, pi: np.ndarray) -> np.ndarray:
        """``lambda = P^T pi``."""
        return self._sweep(pi, "forward")

    def backward(self, ratio: np.ndarray) -> np.ndarray:
        """``P ratio``."""
        return self._sweep(ratio, "backward")


def matrix_size(matrix: Any) -> int:
    """The number of categories r of an RR matrix (dense or structured)."""
    return matrix.n_categories if isinstance(matrix, (GRRMatrix, KroneckerMatrix)) else int(np.shape(matrix)[0])


def _dense(matrix: Any) -> np.ndarray:
    return matrix.to_dense() if isinstance(matrix, (GRRMatrix, KroneckerMatrix)) else np.asarray(matrix, float)


def matrix_epsilon(matrix: Any) -> float:
    """The epsilon of an RR matrix, dense or structured (Eq. 6 of Domingo-Ferrer and Soria-Comas (2018))."""
    if isinstance(matrix, (GRRMatrix, KroneckerMatrix)):
        return matrix.epsilon
    return float(epsilon_of(matrix))


def _apply_first_axis(block: np.ndarray, matrix: Any, mode: str) -> np.ndarray:
    """Apply P^T ("forward"), P ("backward") or (P^T)^-1 ("inverse") along axis 0 of a (k, rest) array."""
    if isinstance(matrix, GRRMatrix):
        if mode == "inverse":
            a, b = matrix.diagonal, matrix.off_diagonal
            if abs(a - b) < _SINGULAR_GAP:
                raise _singular_grr(a, b, "an attribute's RR matrix")
            return matrix.solve(block)
        return matrix.forward(block)                # P is symmetric: P^T = P
    m = np.asarray(matrix, dtype=float)
    if mode == "inverse":
        return _solve_transpose(m, block)
    return (m.T if mode == "forward" else m) @ block


# --------------------------------------------------------------------------- dense designs


def _check_categories(n_categories: Any, max_categories: int) -> int:
    return check_int(n_categories, "n_categories", minimum=2, maximum=max_categories)


def warner_matrix(p: float) -> np.ndarray:
    """Warner's RR matrix for a yes/no question: tell the truth with probability ``p``.

    Parameters
    ----------
    p : float
        Probability of reporting the true answer, in [0, 1].

    Returns
    -------
    ndarray, shape (2, 2)
        ``[[p, 1 - p], [1 - p, p]]``.

    Notes
    -----
    Its epsilon (Domingo-Ferrer and Soria-Comas (2018), Eq. 6) is ``|ln(p / (1 - p))|``:
    p = 0.75 gives ln 3.  p = 1/2 gives perfect secrecy (and a singular matrix).

    References
    ----------
    .. [1] S. L. Warner, "Randomized response: a survey technique for eliminating evasive answer
       bias", Journal of the American Statistical Association 60(309):63-69, 1965.
    .. [2] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
       differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.

    Examples
    --------
    >>> warner_matrix(0.75).tolist()
    [[0.75, 0.25], [0.25, 0.75]]
    """
    p = check_probability(p, "p")
    return np.array([[p, 1.0 - p], [1.0 - p, p]])


def keep_or_uniform_matrix(n_categories: int, p: float, *, max_categories: int = MAX_CATEGORIES) -> np.ndarray:
    """Keep the true value with probability ``p``, otherwise draw uniformly from all categories.

    Parameters
    ----------
    n_categories : int
        Number of categories r (2 to ``max_categories``).
    p : float
        Probability of keeping the true value, in [0, 1].

    Returns
    -------
    ndarray, shape (r, r)
        ``p + (1 - p) / r`` on the diagonal, ``(1 - p) / r`` off it
        (:meth:`GRRMatrix.keep_or_uniform`, built).

    Notes
    -----
    This is the mechanism Domingo-Ferrer and Soria-Comas (2022) analyse in Prop. 1 and
    Corollary 1, with epsilon ``ln(1 + p r / (1 - p))``.  The matrix printed in their
    Section 6.3.1 (p on the diagonal, (1 - p)/r off it) is not row-stochastic; see
    "Conventions and errata followed" (``docs/conventions.md``).

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
       Transactions on Knowledge and Data Engineering, 2022.

    Examples
    --------
    >>> keep_or_uniform_matrix(2, 0.5).tolist()
    [[0.75, 0.25], [0.25, 0.75]]
    """
    r = _check_categories(n_categories, max_categories)
    p = check_probability(p, "p")
    return GRRMatrix.keep_or_uniform(r, p).to_dense()


def keep_probability_for_epsilon(n_categories: int, epsilon: float,
                                 *, max_categories: int = MAX_CATEGORIES) -> float:
    """The ``p`` of :func:`keep_or_uniform_matrix` whose epsilon is ``epsilon``.

    Notes
    -----
    Inverts ``epsilon = ln(1 + p r / (1 - p))``: ``p = (e^eps - 1) / (e^eps - 1 + r)``.
    At that p the keep-or-uniform matrix equals :func:`optimal_matrix`.

    Examples
    --------
    >>> round(keep_probability_for_epsilon(2, math.log(3)), 6)
    0.5
    """
    r = _check_categories(n_categories, max_categories)
    epsilon = check_epsilon(epsilon)
    if math.isinf(epsilon):
        return 1.0
    grow = math.expm1(epsilon)
    return grow / (grow + r) if math.isfinite(grow) else 1.0


def optimal_matrix(n_categories: int, epsilon: float, *, max_categories: int = MAX_CATEGORIES) -> np.ndarray:
    """The least randomization that is epsilon-DP: the error-propagation-optimal matrix.

    Parameters
    ----------
    n_categories : int
        Number of categories r (2 to ``max_categories``).
    epsilon : float
        Non-negative; ``inf`` gives the identity (no randomization).

    Returns
    -------
    ndarray, shape (r, r)
        ``e^eps / (e^eps + r - 1)`` on the diagonal, ``1 / (e^eps + r - 1)`` off it
        (:meth:`GRRMatrix.optimal`, built).

    Notes
    -----
    The form p_u on the diagonal and p_d off it minimizes error propagation (Domingo-Ferrer
    and Soria-Comas (2022), Section 2.3); the largest p_u / p_d allowed by Eq. (6) of
    Domingo-Ferrer and Soria-Comas (2018) is e^eps.  ``epsilon_of(optimal_matrix(r, eps)) == eps``
    up to rounding while ``e^-eps`` is representable (eps below about 744); beyond, the
    off-diagonal underflows to 0 and the matrix is the identity.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
       differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.
    .. [2] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
       Transactions on Knowledge and Data Engineering, 2022.

    Examples
    --------
    >>> optimal_matrix(2, math.log(3)).round(4).tolist()
    [[0.75, 0.25], [0.25, 0.75]]
    >>> optimal_matrix(3, float("inf")).tolist()[0]
    [1.0, 0.0, 0.0]
    """
    r = _check_categories(n_categories, max_categories)
    epsilon = check_epsilon(epsilon)
    return GRRMatrix.optimal(r, epsilon).to_dense()


def identity_matrix(n_categories: int, *, max_categories: int = MAX_CATEGORIES) -> np.ndarray:
    """No randomization: the r x r identity (epsilon = inf).

    Examples
    --------
    >>> identity_matrix(2).tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    r = _check_categories(n_categories, max_categories)
    return np.eye(r)


def check_matrix(matrix: ArrayLike, name: str = "matrix") -> np.ndarray:
    """Validate a custom RR matrix (square, entries in [0, 1], rows summing to 1).

    A thin alias of :func:`explorer._validation.check_rr_matrix`; the message
    names the first bad row and its sum.

    Examples
    --------
    >>> check_matrix([[0.5, 0.4], [0.5, 0.5]])
    Traceback (most recent call last):
    ...
    explorer.errors.InvalidMatrixError: matrix row 1 sums to 0.9, not 1
    """
    return check_rr_matrix(matrix, name)


def row_check(values: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Each row's sum of a matrix being typed, and whether the row is a probability vector.

    A row is valid when its entries are finite numbers in [0, 1] summing to 1 within
    ``ROW_SUM_TOLERANCE`` (the rule of :func:`check_matrix`, row by row, so an editor can mark each row).

    Parameters
    ----------
    values : array_like, shape (r, c)
        The entries as typed (NaN for a missing one).

    Returns
    -------
    sums : numpy.ndarray, shape (r,)
        The sum of each row.
    valid : numpy.ndarray of bool, shape (r,)
        Whether each row is a probability vector.

    Examples
    --------
    >>> sums, valid = row_check([[0.25, 0.75], [0.2, 0.7]])
    >>> sums.round(6).tolist(), valid.tolist()
    ([1.0, 0.9], [True, False])
    """
    p = np.atleast_2d(np.asarray(values, dtype=float))
    sums = p.sum(axis=1)
    finite = np.all(np.isfinite(p), axis=1)
    with np.errstate(invalid="ignore"):
        in_range = np.all((p >= 0) & (p <= 1), axis=1)
        valid = finite & in_range & (np.abs(sums - 1.0) <= ROW_SUM_TOLERANCE)
    return sums, valid


def normalise_rows(values: ArrayLike) -> np.ndarray:
    """Divide each row of non-negative weights by its sum, so that every row sums to 1.

    Parameters
    ----------
    values : array_like, shape (r, c)
        Non-negative finite weights; every row must have a positive sum.

    Returns
    -------
    numpy.ndarray
        The rescaled rows.

    Raises
    ------
    InvalidParameterError
        When a row has a negative or missing entry, or sums to 0 (named, counted from 1).

    Examples
    --------
    >>> normalise_rows([[0.2, 0.5, 0.2], [1.0, 1.0, 2.0]]).round(4).tolist()
    [[0.2222, 0.5556, 0.2222], [0.25, 0.25, 0.5]]
    >>> normalise_rows([[0.5, -0.5], [0.5, 0.5]])
    Traceback (most recent call last):
    ...
    explorer.errors.InvalidParameterError: cannot normalise: row 1 has a negative or missing entry
    """
    p = np.atleast_2d(np.asarray(values, dtype=float))
    with np.errstate(invalid="ignore"):
        bad = ~np.isfinite(p) | (p < 0)
    if np.any(bad):
        u = int(np.argwhere(bad)[0][0])
        raise InvalidParameterError(f"cannot normalise: row {u + 1} has a negative or missing entry")
    sums = p.sum(axis=1)
    if np.any(sums <= 0):
        u = int(np.flatnonzero(sums <= 0)[0])
        raise InvalidParameterError(f"cannot normalise: row {u + 1} sums to 0")
    return p / sums[:, None]


# --------------------------------------------------------------------------- matrices of multi-attribute RR


def attribute_matrix(n_categories: int, p: float | None = None, *, mechanism: str = "keep-or-uniform",
                     epsilon: float | None = None) -> GRRMatrix:
    """The per-attribute RR matrix of Domingo-Ferrer and Soria-Comas (2022), Section 6.3.1.

    Parameters
    ----------
    n_categories : int
        |A|, at least 2.
    p : float
        Probability in (0, 1] (``"keep-or-uniform"``, ``"paper-6.3.1"``).
    mechanism : {"keep-or-uniform", "paper-6.3.1", "epsilon"}
        ``"keep-or-uniform"``: the mechanism Prop. 1 analyses; ``"paper-6.3.1"``: the printed
        matrix with its rows rescaled; ``"epsilon"`` takes ``epsilon`` > 0 instead of p and
        gives the optimal matrix e^eps / (e^eps + |A| - 1) on the diagonal.

    Returns
    -------
    GRRMatrix

    Notes
    -----
    Keep-or-uniform: diagonal p + (1 - p)/|A|, off-diagonal (1 - p)/|A|, epsilon
    ln(1 + p|A|/(1 - p)).  Section 6.3.1 as printed (p on the diagonal, (1 - p)/|A| off it) is
    not stochastic; ``"paper-6.3.1"`` rescales its rows, which keeps its column ratio, so its
    epsilon is the printed epsilon_A = |ln(p|A|/(1 - p))|.  See "Conventions and errata
    followed" (``docs/conventions.md``).

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
       Transactions on Knowledge and Data Engineering, 2022.

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
        return GRRMatrix.optimal(k, check_epsilon(epsilon, "epsilon", allow_zero=False))
    p = check_probability(p, "p", allow_zero=False)
    if mechanism == "keep-or-uniform":
        return GRRMatrix.keep_or_uniform(k, p)
    if mechanism == "paper-6.3.1":
        off = (1.0 - p) / k
        total = p + (k - 1) * off
        return GRRMatrix(k, p / total, off / total)
    raise InvalidParameterError(f"mechanism must be one of {MECHANISMS}, got {mechanism!r}")


def cluster_matrix(cardinalities: Sequence[int], epsilons: Sequence[float]) -> GRRMatrix:
    """The matrix of Domingo-Ferrer and Soria-Comas (2022), Section 6.3.2, for a cluster C.

    Optimal for sum(epsilon_A)-DP over the cluster's prod|A| combinations.

    Notes
    -----
    Diagonal p_C, off-diagonal p_C exp(-sum epsilon_A), with the corrected
    p_C = 1 / (1 + (prod|A| - 1) exp(-sum epsilon_A)) (the printed (1 - prod|A|) can give
    p_C > 1; see ``docs/conventions.md``): :meth:`GRRMatrix.optimal` of the cluster.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
       Transactions on Knowledge and Data Engineering, 2022.

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
    return GRRMatrix.optimal(n_combinations(cards), total)


def n_combinations(cardinalities: Sequence[int], *, limit: int | None = None) -> int:
    """prod |A| (Domingo-Ferrer and Soria-Comas (2022), Section 6.2: 1,814,400 for Adult).

    Raises if the product exceeds ``limit``.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
       Transactions on Knowledge and Data Engineering, 2022.

    Computes: Domingo-Ferrer and Soria-Comas (2022), Eq. 7.

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


# --------------------------------------------------------------------------- epsilon


def _column_ratios(p: np.ndarray) -> np.ndarray:
    """Per column max/min; inf for a column mixing 0 and non-0; 1 for an all-zero column."""
    column_max, column_min = p.max(axis=0), p.min(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios = np.where(column_max > 0, column_max / np.where(column_min > 0, column_min, 0.0), 1.0)
    return ratios


def epsilon_of(matrix: ArrayLike) -> float:
    """Smallest epsilon for which the RR matrix is epsilon-DP.

    Parameters
    ----------
    matrix : array_like, shape (r, r)
        A row-stochastic RR matrix.

    Returns
    -------
    float
        ``ln max_v (max_u P[u, v] / min_u P[u, v])``; ``inf`` when a column mixes
        zero and non-zero entries; a column nobody reports (all zero) is ignored.

    Notes
    -----
    Domingo-Ferrer and Soria-Comas (2018), Eq. 6: e^eps >= max_v max_u p_uv / min_u p_uv
    (Domingo-Ferrer and Soria-Comas (2022), Eq. 4).

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
       differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.

    Computes: Domingo-Ferrer and Soria-Comas (2018), Eq. 6; Domingo-Ferrer and Soria-Comas (2022), Eq. 4.

    Examples
    --------
    >>> round(epsilon_of([[0.75, 0.25], [0.25, 0.75]]), 4)   # ln 3
    1.0986
    >>> epsilon_of([[0.5, 0.5], [0.5, 0.5]])
    0.0
    """
    p = check_rr_matrix(matrix)
    ratio = float(np.max(_column_ratios(p)))
    return math.inf if math.isinf(ratio) else max(0.0, math.log(ratio))


def epsilon_column(matrix: ArrayLike) -> int:
    """The (0-based) column of ``matrix`` whose max/min ratio gives :func:`epsilon_of`.

    Ties go to the lowest column.

    Examples
    --------
    >>> epsilon_column([[0.6, 0.4], [0.1, 0.9]])
    0
    """
    p = check_rr_matrix(matrix)
    return int(np.argmax(_column_ratios(p)))


# --------------------------------------------------------------------------- codes and randomizing


def _as_array(codes: Any, name: str) -> np.ndarray:
    try:
        return np.asarray(codes)
    except (TypeError, ValueError):
        raise ExplorerTypeError(f"{name} must be an array of integer codes") from None


def code_matrix(codes: Any, name: str = "codes", n_attributes: int | None = None) -> np.ndarray:
    """Records x attributes: a vector is one attribute (a column); the shape is checked, not the values."""
    array = _as_array(codes, name)
    if array.ndim == 1:
        array = array[:, None]
    if array.ndim != 2 or (n_attributes is not None and array.shape[1] != n_attributes):
        raise InvalidParameterError(f"{name} must be an (n, {n_attributes or 'm'}) array of codes, "
                                    f"got shape {array.shape}")
    return array


def check_codes(codes: Any, cardinalities: int | Sequence[int], name: str = "codes", *,
                 allow_empty: bool = False) -> np.ndarray:
    """Integer category codes: a vector for one attribute (``cardinalities`` an int r) or an (n, m) array.

    Integral floats are accepted.  One attribute's codes come back as a 1-D ``intp`` array; several
    attributes' as an (n, m) ``int64`` array (a vector counts as one column).  Errors name ``name``,
    the attribute (when there are several) and the value received.
    """
    single = isinstance(cardinalities, (int, np.integer))
    cards = [int(cardinalities)] if single else [
        check_int(c, f"cardinality of attribute {j + 1}", minimum=2) for j, c in enumerate(cardinalities)]
    if single:
        array = _as_array(codes, name)
        if array.ndim != 1:
            raise InvalidParameterError(f"{name} must be a 1-D array of codes, got shape {array.shape}")
    else:
        array = code_matrix(codes, name, len(cards))
    if array.shape[0] == 0:
        if not allow_empty:
            raise InvalidDistributionError(f"{name} must not be empty (an empty sample)")
        return array.astype(np.intp if single else np.int64)
    if array.dtype.kind == "b" or array.dtype.kind not in "iuf":
        raise ExplorerTypeError(f"{name} must be integer codes, got values of type {array.dtype}")
    if array.dtype.kind == "f" and (not np.all(np.isfinite(array)) or not np.all(array == np.round(array))):
        raise ExplorerTypeError(f"{name} must be integer codes, got non-integer values")
    low, high = np.atleast_1d(array.min(axis=0)), np.atleast_1d(array.max(axis=0))
    bad = np.flatnonzero((low < 0) | (high > np.asarray(cards) - 1))
    if bad.size:
        j = int(bad[0])
        value = low[j] if low[j] < 0 else high[j]
        where = "" if single else f" of attribute {j + 1}"
        raise InvalidParameterError(f"{name}{where} must be integer codes 0..{cards[j] - 1}, got {value:g}")
    return array.astype(np.intp if single else np.int64, copy=False)


def _row_cumulative(p: np.ndarray) -> np.ndarray:
    """Cumulative rows, with every entry from a row's last non-zero category on set to exactly 1.

    A category of probability 0 then never holds a draw in [0, 1): its interval is empty even
    after rounding (rows sum to 1 only within 1e-9).
    """
    cumulative = np.cumsum(p, axis=1)
    r = p.shape[1]
    last = r - 1 - np.argmax(p[:, ::-1] > 0, axis=1)
    cumulative[np.arange(r)[None, :] >= last[:, None]] = 1.0
    return cumulative


def _category_of_draws(cumulative: np.ndarray, rows: np.ndarray, draws: np.ndarray) -> np.ndarray:
    """Exact inverse CDF per respondent: the number of entries of ``cumulative[rows[i]]`` <= ``draws[i]``.

    Small inputs: one comparison per (respondent, category).  Large inputs: a table of
    K = 1024 equal bins per row gives the category of every draw whose bin holds no
    boundary; the few others (at most r - 1 bins of K per row) are resolved exactly
    with ``searchsorted`` after grouping them by row.  No Python loop over respondents.
    """
    n_rows, r = cumulative.shape
    n = rows.size
    if n * r <= 2_000_000:
        return (draws[:, None] >= cumulative[rows]).sum(axis=1)
    bins = 1024                                              # a power of 2: draws * bins is exact
    edges = np.arange(bins + 1) / bins
    dtype = np.int8 if r < 127 else np.int16 if r < 32_000 else np.int64
    table = np.empty((n_rows, bins), dtype=dtype)            # category of a bin, -1 if a boundary is inside
    for u in range(n_rows):                                  # a loop over categories, not respondents
        low = np.searchsorted(cumulative[u], edges[:-1], side="right")
        high = np.searchsorted(cumulative[u], edges[1:], side="left")
        table[u] = np.where(low == high, low, -1)
    cell = rows * bins
    cell += (draws * bins).astype(np.intp)
    out = table.ravel()[cell].astype(np.int64)
    unsure = np.flatnonzero(out < 0)
    if unsure.size:
        order = unsure[np.argsort(rows[unsure], kind="stable")]
        sorted_rows = rows[order]
        bounds = np.searchsorted(sorted_rows, np.arange(n_rows + 1))
        for u in np.flatnonzero(np.diff(bounds)):
            chosen = order[bounds[u]:bounds[u + 1]]
            out[chosen] = np.searchsorted(cumulative[u], draws[chosen], side="right")
    return out


def randomize(codes: ArrayLike, matrix: ArrayLike, rng: Any = None) -> np.ndarray:
    """Randomize true codes with an RR matrix: each ``u`` is reported as ``v`` w.p. ``P[u, v]``.

    Parameters
    ----------
    codes : array_like of int, shape (n,)
        True categories, integer codes ``0 .. r-1``.
    matrix : array_like, shape (r, r)
        The RR matrix (Domingo-Ferrer and Soria-Comas (2018), Eq. 1).
    rng : numpy.random.Generator, int or None
        Source of randomness (same seed, same reports).

    Returns
    -------
    ndarray of int, shape (n,)
        The reported codes.

    Notes
    -----
    One uniform draw d per respondent; the report is the smallest v with
    d < P[u, 0] + ... + P[u, v] (inverse CDF of row u), found for all respondents
    at once (a per-row bin table plus an exact fallback near the boundaries), so
    the work is O(n) with no Python loop over respondents.  A category of
    probability 0 is never reported.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
       differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.

    Computes: Domingo-Ferrer and Soria-Comas (2018), Eq. 1; Domingo-Ferrer and Soria-Comas (2022), Eq. 1.

    Examples
    --------
    >>> randomize([0, 1, 1, 0], identity_matrix(2), rng=0).tolist()
    [0, 1, 1, 0]
    >>> reports = randomize([0] * 1000, warner_matrix(0.75), rng=1)
    >>> 0.7 < float((reports == 0).mean()) < 0.8
    True
    """
    p = check_rr_matrix(matrix)
    r = p.shape[0]
    x = check_codes(codes, r, allow_empty=True)
    generator = check_rng(rng)
    if x.size == 0:
        return np.zeros(0, dtype=np.int64)
    draws = generator.random(x.size)
    return _category_of_draws(_row_cumulative(p), x, draws).astype(np.int64, copy=False)
