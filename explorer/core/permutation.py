"""The permutation paradigm of anonymization (papers 004, 002 Section 2, 000 Sections V-VI-A).

Any anonymization of an attribute X into Y is functionally a *permutation* of X
(the reverse-mapped Z, 004 Algorithm 1) followed by a *residual noise* E = Y - Z
that changes no rank.  This module ranks values, reverse-maps, builds Ruiz's
permutation matrices and rank-displacement vectors (002), computes permutation
distances (004 Algorithm 2), (d, v)-permuted privacy (004 Definitions 1-2) and
its (d, v, f) form (000 Section VI-A), the maximum-knowledge intruder's record
linkage (004 Section 5.1) and its verification against random records
(004 Section 5.2).

Conventions (``PAPER_NOTES.md``):

* ranks are 1-based; 004 ranks ascending (1 = smallest), 002 Table 1 descending.
  Reverse mapping, permutation matrices and distances do not depend on the
  direction as long as X and Y use the same one;
* ties are broken by a named policy: ``"random"`` (seeded, the papers' choice),
  ``"first"`` (order of appearance) or ``"average"`` (mean rank, for Spearman);
* ``Z = P @ X`` with ``P[i, k] = 1`` iff rank(x_k) = rank(y_i) (Ruiz);
* the permutation distance is the Chebyshev distance between rank vectors;
  window variances are population variances (ddof = 0) over a rank window
  clipped to [1, n].

Record numbers in results are 0-based (row positions); the papers number
records from 1.
"""

from __future__ import annotations

import math
import os
import numbers
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy.spatial import cKDTree

from explorer._validation import check_int, check_number, check_rng
# T_j and r_j live with the other displacement measures of Ruiz (2018); re-exported here.
from explorer.core.displacement import permutation_extent, rank_displacement
from explorer.errors import DatasetError, ExplorerTypeError, InvalidParameterError

__all__ = [
    "TIES",
    "MISSING_POLICIES",
    "ranks",
    "numeric_matrix",
    "reverse_map",
    "reverse_map_frame",
    "residual_noise",
    "permutation_matrix",
    "permutation_extent",
    "rank_displacement",
    "spearman",
    "PermutationDistances",
    "permutation_distances",
    "window_variances",
    "PermutedPrivacy",
    "permuted_privacy",
    "SubjectCheck",
    "subject_check",
    "DVFPermutedPrivacy",
    "dvf_permuted_privacy",
    "RecordLinkage",
    "record_linkage",
    "RandomMatches",
    "random_match_distances",
    "LinkageVerification",
    "linkage_verification",
    "hellinger",
    "distance_histogram",
    "PermutationAnalysis",
    "permutation_analysis",
]

#: Tie-breaking policies of :func:`ranks`.
TIES = ("random", "first", "average")
#: Missing-value policies of the frame functions: refuse, or drop every row with a missing value in X or Y.
MISSING_POLICIES = ("raise", "drop")
#: Largest ``n`` for which :func:`permutation_matrix` builds the dense n x n matrix.
MAX_MATRIX_N = 20_000
#: Largest number of random records ``n_random="all"`` may enumerate (n ** m).
MAX_ALL_RANDOM = 2_000_000


# --------------------------------------------------------------------------- input checks

def _check_ties(ties: str) -> str:
    if ties not in TIES:
        raise InvalidParameterError(f"ties must be one of {TIES}, got {ties!r}")
    return ties


def _as_vector(values: Any, name: str, *, min_size: int = 1) -> np.ndarray:
    if isinstance(values, pd.DataFrame):
        if values.shape[1] != 1:
            raise InvalidParameterError(f"{name} must be one attribute (a vector), got {values.shape[1]} columns")
        values = values.iloc[:, 0]
    if isinstance(values, pd.Series):
        values = _series_values(values, name)
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ExplorerTypeError(f"{name} must be numbers (or ordered categories), got {_short(values)}") from None
    if array.ndim != 1:
        raise InvalidParameterError(f"{name} must be a vector, got an array of shape {array.shape}")
    if array.size < min_size:
        raise InvalidParameterError(f"{name} must have at least {min_size} values, got {array.size}")
    if np.isnan(array).any():
        raise DatasetError(f"{name} has {int(np.isnan(array).sum())} missing values (NaN); "
                           "drop them first (missing='drop' in the frame functions)")
    if np.isinf(array).any():
        raise DatasetError(f"{name} has {int(np.isinf(array).sum())} infinite values")
    return array


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _series_values(series: pd.Series, name: str) -> np.ndarray:
    """A column as floats: numbers as they are, ordered categories by their declared order."""
    dtype = series.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        if not dtype.ordered:
            raise DatasetError(
                f"{name}: column {series.name!r} is categorical without an order, so it cannot be ranked; "
                "exclude it or declare its category order (an ordinal column)")
        codes = series.cat.codes.to_numpy().astype(float)
        codes[codes < 0] = np.nan
        return codes
    if pd.api.types.is_bool_dtype(dtype) or not pd.api.types.is_numeric_dtype(dtype):
        raise DatasetError(f"{name}: column {series.name!r} is not numeric ({dtype}), so it cannot be ranked; "
                           "exclude it or declare it ordinal")
    return series.to_numpy(dtype=float, na_value=np.nan)


def numeric_matrix(data: Any, name: str = "X", *, columns: Sequence[str] | None = None,
                   allow_missing: bool = False) -> tuple[np.ndarray, list[str]]:
    """An (n, m) float matrix and its column names from an array or a DataFrame.

    DataFrame columns must be numeric or ordered categoricals (ranked by their
    declared category order); any other column is refused with a message that
    names it.  ``allow_missing=False`` refuses NaN (naming the column and the
    count).

    Examples
    --------
    >>> numeric_matrix([[1, 2], [3, 4]])[0].shape
    (2, 2)
    """
    if isinstance(data, pd.Series):
        data = data.to_frame()
    if isinstance(data, pd.DataFrame):
        frame = data if columns is None else data[list(columns)]
        names = [str(c) for c in frame.columns]
        if not names:
            raise DatasetError(f"{name} has no columns")
        matrix = np.column_stack([_series_values(frame[c], name) for c in frame.columns]) if len(frame) else \
            np.empty((0, len(names)))
    else:
        try:
            matrix = np.asarray(data, dtype=float)
        except (TypeError, ValueError):
            raise ExplorerTypeError(f"{name} must be a numeric array or a DataFrame, got {_short(data)}") from None
        if matrix.ndim == 1:
            matrix = matrix[:, None]
        if matrix.ndim != 2:
            raise InvalidParameterError(f"{name} must be a 2-D array (records x attributes), got shape {matrix.shape}")
        names = [f"{name}{j + 1}" for j in range(matrix.shape[1])]
    if matrix.shape[0] == 0:
        raise DatasetError(f"{name} has no records")
    if matrix.shape[1] == 0:
        raise DatasetError(f"{name} has no attributes")
    if np.isinf(matrix).any():
        j = int(np.flatnonzero(np.isinf(matrix).any(axis=0))[0])
        raise DatasetError(f"{name} column {names[j]!r} has infinite values")
    if not allow_missing and np.isnan(matrix).any():
        counts = np.isnan(matrix).sum(axis=0)
        j = int(np.flatnonzero(counts)[0])
        raise DatasetError(f"{name} column {names[j]!r} has {int(counts[j])} missing values; "
                           "use missing='drop' to drop incomplete records, or fill them first")
    return matrix, names


def _pair(X: Any, Y: Any, missing: str = "raise", names: tuple[str, str] = ("X", "Y")
          ) -> tuple[np.ndarray, np.ndarray, list[str], np.ndarray]:
    """X and Y as aligned (n, m) matrices; returns (x, y, columns, kept_rows)."""
    if missing not in MISSING_POLICIES:
        raise InvalidParameterError(f"missing must be one of {MISSING_POLICIES}, got {missing!r}")
    if isinstance(X, pd.DataFrame) and isinstance(Y, pd.DataFrame):
        cx, cy = [str(c) for c in X.columns], [str(c) for c in Y.columns]
        if set(cx) == set(cy) and cx != cy:
            Y = Y[list(X.columns)]                      # same attributes in another order: align by name
        elif set(cx) & set(cy) and set(cx) != set(cy):
            raise DatasetError(
                f"{names[0]} and {names[1]} have different column sets: only in {names[0]} "
                f"{sorted(set(cx) - set(cy))}, only in {names[1]} {sorted(set(cy) - set(cx))}")
    x, columns = numeric_matrix(X, names[0], allow_missing=True)
    y, _ = numeric_matrix(Y, names[1], allow_missing=True)
    if x.shape != y.shape:
        raise DatasetError(f"{names[0]} and {names[1]} must have the same shape (records x attributes), "
                           f"got {x.shape} and {y.shape}")
    if not (np.isnan(x).any() or np.isnan(y).any()):
        return x, y, columns, np.arange(x.shape[0])
    bad = np.isnan(x).any(axis=1) | np.isnan(y).any(axis=1)
    kept = np.flatnonzero(~bad)
    if bad.any():
        if missing == "raise":
            raise DatasetError(f"{int(bad.sum())} records have missing values in {names[0]} or {names[1]}; "
                               "use missing='drop' to drop them, or fill them first")
        x, y = x[kept], y[kept]
        if x.shape[0] == 0:
            raise DatasetError("no complete record is left after dropping the records with missing values")
    return x, y, columns, kept


def _check_n(n: int, what: str = "the data set", minimum: int = 2) -> None:
    if n < minimum:
        raise DatasetError(f"{what} needs at least {minimum} records, got {n}")


# --------------------------------------------------------------------------- ranks and reverse mapping

def ranks(values: ArrayLike, ties: str = "random", rng: Any = None, descending: bool = False) -> np.ndarray:
    """1-based ranks of a vector (or of each column of a matrix), ties broken by a named policy.

    Parameters
    ----------
    values : array_like, shape (n,) or (n, m)
        Numbers (or an ordered categorical Series, ranked by category order).
    ties : {"random", "first", "average"}
        ``"random"``: equal values get distinct ranks in random (seeded) order,
        as in 004; ``"first"``: in order of appearance; ``"average"``: the mean
        of the ranks they span (floats).
    rng : numpy Generator or int seed, optional
        Only used by ``ties="random"``.
    descending : bool
        False: rank 1 is the smallest value (004); True: the largest (002).

    Returns
    -------
    numpy.ndarray
        Integer ranks 1..n (float for ``"average"``), same shape as ``values``.

    Notes
    -----
    004 Section 2: "the values in both X and Y can be ranked ...; any ties in
    them are broken randomly".

    Examples
    --------
    >>> ranks([13, 20, 2, 15, 29]).tolist()
    [2, 4, 1, 3, 5]
    >>> ranks([13, 20, 2, 15, 29], descending=True).tolist()   # 002 Table 1, X_1R
    [4, 2, 5, 3, 1]
    >>> ranks([5, 1, 5], ties="average").tolist()
    [2.5, 1.0, 2.5]
    """
    ties = _check_ties(ties)
    if isinstance(values, pd.DataFrame):
        array, _ = numeric_matrix(values, "values")
    elif isinstance(values, pd.Series):
        array = _as_vector(values, "values")
    else:
        try:
            array = np.asarray(values, dtype=float)
        except (TypeError, ValueError):
            raise ExplorerTypeError(f"values must be numbers, got {_short(values)}") from None
    if array.ndim == 2:
        generator = check_rng(rng) if ties == "random" else None
        return np.column_stack([_ranks_1d(array[:, j], ties, generator, descending)
                                for j in range(array.shape[1])]) if array.shape[1] else array.astype(np.int64)
    if array.ndim != 1:
        raise InvalidParameterError(f"values must be a vector or a matrix, got shape {array.shape}")
    return _ranks_1d(array, ties, check_rng(rng) if ties == "random" else None, descending)


def _ranks_1d(array: np.ndarray, ties: str, generator: np.random.Generator | None,
              descending: bool) -> np.ndarray:
    if array.size == 0:
        raise InvalidParameterError("values must not be empty")
    if np.isnan(array).any():
        raise DatasetError(f"values has {int(np.isnan(array).sum())} missing values (NaN); drop them first")
    key = -array if descending else array
    n = key.size
    if ties == "average":
        from scipy.stats import rankdata
        return rankdata(key, method="average")
    order = _order(key, ties, generator)
    result = np.empty(n, dtype=np.int64)
    result[order] = np.arange(1, n + 1)
    return result


def _order(key: np.ndarray, ties: str, generator: np.random.Generator | None) -> np.ndarray:
    """Indices that sort ``key`` ascending, equal values ordered by the tie policy ("first" or "random").

    Without ties every policy gives the same order, so the (fast, unstable)
    default sort is used and the generator is not consumed; with ties,
    "first" sorts stably and "random" sorts a seeded shuffle stably.
    """
    order = np.argsort(key)
    sorted_key = key[order]
    if not np.any(sorted_key[1:] == sorted_key[:-1]):
        return order
    if ties == "random":
        shuffle = generator.permutation(key.size)
        return shuffle[np.argsort(key[shuffle], kind="stable")]
    return np.argsort(key, kind="stable")


def reverse_map(x: ArrayLike, y: ArrayLike, rng: Any = None, *, ties: str = "random") -> np.ndarray:
    """Reverse-map one anonymized attribute onto the original values (004 Algorithm 1).

    Parameters
    ----------
    x, y : array_like, shape (n,)
        Original attribute X and its anonymized version Y.
    rng : numpy Generator or int seed, optional
        Breaks ties (``ties="random"``).
    ties : {"random", "first"}
        Tie policy used to rank X and Y.

    Returns
    -------
    numpy.ndarray
        ``z`` with ``z_i = x_(rank(y_i))``: a permutation of X whose ranks equal Y's.

    Notes
    -----
    004 Algorithm 1 (also 000 Section V): for i = 1..n, j = Rank(y_i) and
    z_i = x_(j), the value of X of rank j.  Then Y = Z + E with a residual
    noise E that changes no rank.

    Examples
    --------
    >>> reverse_map([13, 20, 2, 15, 29], [8, 20, -1, 18, 29]).tolist()   # 002 Table 2, Z_1
    [13.0, 20.0, 2.0, 15.0, 29.0]
    >>> reverse_map([135, 52, 123, 165, 160], [160, 57, 122, 135, 164]).tolist()   # Z_2
    [160.0, 52.0, 123.0, 135.0, 165.0]
    """
    ties = _check_ties(ties)
    if ties == "average":
        raise InvalidParameterError("ties='average' gives fractional ranks; reverse mapping needs 'random' or 'first'")
    xv = _as_vector(x, "x")
    yv = _as_vector(y, "y")
    if xv.size != yv.size:
        raise DatasetError(f"x and y must have the same number of records, got {xv.size} and {yv.size}")
    generator = check_rng(rng) if ties == "random" else None
    ry = _ranks_1d(yv, ties, generator, False)
    return np.sort(xv)[ry - 1]


def reverse_map_frame(X: Any, Y: Any, rng: Any = None, *, ties: str = "random", missing: str = "raise",
                      workers: int | None = None) -> Any:
    """Reverse-map every attribute of an anonymized data set (004 Algorithm 1, column by column).

    Parameters
    ----------
    X, Y : array_like (n, m) or DataFrame
        Original and anonymized data sets with the same shape.  DataFrames with
        the same column names in another order are aligned by name; with
        disjoint names (X1.. vs Y1..) they are paired by position.
    rng : numpy Generator or int seed, optional
    ties : {"random", "first"}
    missing : {"raise", "drop"}
        ``"drop"`` drops every record with a missing value in X or Y first.
    workers : int, optional
        Threads sorting columns in parallel (numpy releases the GIL), from
        100,000 records on; the result does not depend on it.  Default: the
        number of cores (at most 8).

    Returns
    -------
    numpy.ndarray or DataFrame
        Z, with X's column names and index when X is a DataFrame.

    Notes
    -----
    004 Section 3: any anonymization is a permutation X -> Z plus a residual
    noise E = Y - Z (:func:`residual_noise`).

    Examples
    --------
    >>> from explorer.core.datasets import ruiz_example
    >>> t = ruiz_example()
    >>> reverse_map_frame(t[["X1", "X2", "X3"]], t[["Y1", "Y2", "Y3"]])["X3"].tolist()   # 002 Table 2, Z_3
    [3707, 2419, -1008, 826, -1317]
    """
    ties = _check_ties(ties)
    if ties == "average":
        raise InvalidParameterError("ties='average' gives fractional ranks; reverse mapping needs 'random' or 'first'")
    x, y, columns, kept = _pair(X, Y, missing)
    generator = check_rng(rng) if ties == "random" else None
    workers = (min(os.cpu_count() or 1, 8) if workers is None
               else check_int(workers, "workers", minimum=1, maximum=64))
    n, m = x.shape
    # vectorized Algorithm 1, column by column: the record of rank r in Y gets X's value of rank r.
    # Columns are copied one at a time (a strided gather), much cheaper than transposing a tall
    # (n, m) array as a whole.
    zt = np.empty((m, n), dtype=x.dtype)
    ycols: list = [None] * m
    orders: list = [None] * m
    tied = [False] * m

    def sort_y(j: int) -> None:            # the default (fast) sort, and whether Y_j has ties
        ycols[j] = np.ascontiguousarray(y[:, j])
        orders[j] = np.argsort(ycols[j])
        ranked = ycols[j][orders[j]]
        tied[j] = bool(np.any(ranked[1:] == ranked[:-1]))

    def place_x(j: int) -> None:
        zt[j, orders[j]] = np.sort(x[:, j])

    def run(task) -> None:
        if workers > 1 and m > 1 and n >= 100_000:
            from concurrent.futures import ThreadPoolExecutor
            with ThreadPoolExecutor(max_workers=min(workers, m)) as pool:
                list(pool.map(task, range(m)))
        else:
            for j in range(m):
                task(j)

    run(sort_y)
    # Ties are ordered by the policy exactly as :func:`_order` does, column by column in order, so the
    # generator's draws (and the result) do not depend on ``workers``.
    for j in range(m):
        if tied[j]:
            orders[j] = _order(ycols[j], ties, generator)
        ycols[j] = None
    run(place_x)
    z = zt.T                                   # (n, m), column-major
    if isinstance(X, pd.DataFrame):
        index = X.index[kept] if len(kept) != len(X) else X.index
        frame = pd.DataFrame(z, columns=list(X.columns), index=index)
        for c in X.columns:
            if pd.api.types.is_integer_dtype(X[c].dtype) and len(kept) == len(X):
                frame[c] = frame[c].astype(X[c].dtype)
        return frame
    return z


def residual_noise(Y: Any, Z: Any) -> Any:
    """The residual noise ``E = Y - Z`` of the permutation paradigm (004 Table 2, 002 Table 2).

    Returns a DataFrame (with Z's column names) when Z is one, else an array.

    Examples
    --------
    >>> residual_noise([[8.0], [20.0]], [[13.0], [20.0]]).ravel().tolist()
    [-5.0, 0.0]
    """
    y, _ = numeric_matrix(Y, "Y", allow_missing=True)
    z, _ = numeric_matrix(Z, "Z", allow_missing=True)
    if y.shape != z.shape:
        raise DatasetError(f"Y and Z must have the same shape, got {y.shape} and {z.shape}")
    e = y - z
    if isinstance(Z, pd.DataFrame):
        return pd.DataFrame(e, columns=list(Z.columns), index=Z.index)
    return e


# --------------------------------------------------------------------------- permutation matrices (002)

def _paired_ranks(x: ArrayLike, z: ArrayLike, ties: str, rng: Any) -> tuple[np.ndarray, np.ndarray]:
    ties = _check_ties(ties)
    if ties == "average":
        raise InvalidParameterError("ties='average' gives fractional ranks; a permutation needs 'first' or 'random'")
    xv, zv = _as_vector(x, "x"), _as_vector(z, "z")
    if xv.size != zv.size:
        raise DatasetError(f"x and z must have the same number of records, got {xv.size} and {zv.size}")
    generator = check_rng(rng) if ties == "random" else None
    return _ranks_1d(xv, ties, generator, False), _ranks_1d(zv, ties, generator, False)


def permutation_matrix(x: ArrayLike, z: ArrayLike, *, ties: str = "first", rng: Any = None) -> np.ndarray:
    """Ruiz's permutation matrix P with ``Z = P @ X`` (002 Proposition 1).

    Parameters
    ----------
    x : array_like, shape (n,)
        Original attribute.
    z : array_like, shape (n,)
        Its reverse-mapped version Z (or the anonymized Y: only ranks are used,
        and Z has Y's ranks).
    ties : {"first", "random"}
        How equal values are told apart.

    Returns
    -------
    numpy.ndarray, shape (n, n), dtype int8
        ``P[i, k] = 1`` iff rank(x_k) = rank(z_i).

    Notes
    -----
    002 Proposition 1: Y = (P_1 X_1, ..., P_p X_p) + E.  The dense matrix is
    built for n <= 20,000; use :func:`rank_displacement` beyond.

    Examples
    --------
    >>> permutation_matrix([135, 52, 123, 165, 160], [160, 52, 123, 135, 165])   # 002 P_2
    array([[0, 0, 0, 0, 1],
           [0, 1, 0, 0, 0],
           [0, 0, 1, 0, 0],
           [1, 0, 0, 0, 0],
           [0, 0, 0, 1, 0]], dtype=int8)
    """
    rx, rz = _paired_ranks(x, z, ties, rng)
    n = rx.size
    if n > MAX_MATRIX_N:
        raise InvalidParameterError(f"n = {n} is too large for a dense {n} x {n} permutation matrix "
                                    f"(limit {MAX_MATRIX_N}); use rank_displacement instead")
    position_of_rank = np.empty(n + 1, dtype=np.int64)
    position_of_rank[rx] = np.arange(n)
    p = np.zeros((n, n), dtype=np.int8)
    p[np.arange(n), position_of_rank[rz]] = 1
    return p


def spearman(x: ArrayLike, z: ArrayLike) -> float:
    """Spearman's rank correlation between an attribute and its anonymized version.

    Notes
    -----
    002 Section 3: rho = 1 - 6 sum d_i^2 / (n (n^2 - 1)), d_i the difference of
    the ranks of record i; with ties, the Pearson correlation of average ranks
    (which equals that formula when there are none).  004 Section 2 uses it as
    a disclosure-risk measure (the higher, the more risk).

    Examples
    --------
    >>> spearman([1, 2, 3, 4], [1, 2, 3, 4])
    1.0
    >>> spearman([13, 20, 2, 15, 29], [8, 20, -1, 18, 29])
    1.0
    """
    xv, zv = _as_vector(x, "x"), _as_vector(z, "z")
    if xv.size != zv.size:
        raise DatasetError(f"x and z must have the same number of records, got {xv.size} and {zv.size}")
    _check_n(xv.size, "Spearman's correlation")
    for name, v in (("x", xv), ("z", zv)):
        if np.all(v == v[0]):
            raise DatasetError(f"{name} is constant (all {v.size} values tie): Spearman's correlation is undefined")
    from scipy.stats import rankdata
    rx, rz = rankdata(xv), rankdata(zv)
    rx -= rx.mean()
    rz -= rz.mean()
    return float(np.dot(rx, rz) / math.sqrt(np.dot(rx, rx) * np.dot(rz, rz)))


# --------------------------------------------------------------------------- permutation distance (004 Algorithm 2)

@dataclass(frozen=True)
class PermutationDistances:
    """Permutation distances of original records to an anonymized data set (004 Algorithm 2).

    Attributes
    ----------
    distance : (n_x,) int
        Permutation distance of each original record.
    nearest_value : (n_x, m) float
        y*_j: the anonymized value of attribute j closest to x_j.
    nearest_rank : (n_x, m) int
        R*_j: the (1-based) rank of y*_j in the sorted Y_j.
    anonymized_ranks : (n, m) int
        Ranks of the anonymized records (ties broken by the policy used).
    match_indptr, match_indices : int arrays
        Every anonymized record at the minimum distance, in CSR form: the
        matches of record i are ``match_indices[match_indptr[i]:match_indptr[i + 1]]``
        (0-based, ascending).
    nearest_half_width : (n_x, m) float or 0
        With mid-ranks (``ties="average"``): half the width of y*'s block of
        equal values (the variance windows extend the block by d); else 0.
    """

    distance: np.ndarray
    nearest_value: np.ndarray
    nearest_rank: np.ndarray
    anonymized_ranks: np.ndarray
    match_indptr: np.ndarray
    match_indices: np.ndarray
    nearest_half_width: np.ndarray | float = 0.0

    def matches(self, i: int) -> np.ndarray:
        """The anonymized records (0-based) at the minimum distance from original record ``i``."""
        i = check_int(i, "record", minimum=0, maximum=self.distance.size - 1)
        return self.match_indices[self.match_indptr[i]:self.match_indptr[i + 1]]

    @property
    def closest(self) -> np.ndarray:
        """The lowest-numbered matched record of each original record (the one 004 Table 4 shows)."""
        return self.match_indices[self.match_indptr[:-1]]

    @property
    def n_matches(self) -> np.ndarray:
        """How many anonymized records are at the minimum distance, per original record."""
        return np.diff(self.match_indptr)

    @property
    def dataset_distance(self) -> int | float:
        """The data-set level permutation distance: the minimum over records (004 Table 4)."""
        d = self.distance.min()
        return int(d) if np.issubdtype(self.distance.dtype, np.integer) else float(d)

    def rank_deviations(self, i: int) -> np.ndarray:
        """|rank_j(y_k) - R*_j| for every anonymized record k and attribute j (004 Table 3), shape (n, m)."""
        i = check_int(i, "record", minimum=0, maximum=self.distance.size - 1)
        return np.abs(self.anonymized_ranks - self.nearest_rank[i])


def _nearest(sorted_values: np.ndarray, x: np.ndarray) -> np.ndarray:
    """0-based position in ``sorted_values`` of the value nearest to each x.

    Equal values: the first (lowest-rank) copy; two values equally near: the smaller.
    """
    n = sorted_values.size
    pos = np.searchsorted(sorted_values, x, side="left")
    lo = np.clip(pos - 1, 0, n - 1)
    hi = np.clip(pos, 0, n - 1)
    take_lo = np.abs(x - sorted_values[lo]) <= np.abs(sorted_values[hi] - x)
    take_lo &= pos > 0
    take_lo |= pos >= n
    chosen = np.where(take_lo, lo, hi)
    # the first copy of the chosen value
    return np.searchsorted(sorted_values, sorted_values[chosen], side="left")


def _rank_setup(x: np.ndarray, y: np.ndarray, ties: str, generator: np.random.Generator | None
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Anonymized ranks (n, m), the sorted anonymized values (n, m), R* (n_x, m) 1-based, and y*'s position.

    With ``ties="average"`` the ranks are mid-ranks and R* is the mid-rank of
    the nearest value's block of equal values (records with equal values are
    then at rank distance 0); otherwise R* is the rank of its first copy.
    """
    n, m = y.shape
    y_ranks = np.column_stack([_ranks_1d(y[:, j], ties, generator, False) for j in range(m)])
    y_sorted = np.sort(y, axis=0)
    position = np.column_stack([_nearest(y_sorted[:, j], x[:, j]) for j in range(m)])
    if ties == "average":
        last = np.column_stack([np.searchsorted(y_sorted[:, j], y_sorted[position[:, j], j], side="right")
                                for j in range(m)])
        r_star = (position + 1 + last) / 2.0
    else:
        r_star = position + 1
    return y_ranks, y_sorted, r_star, position


def _csr(lists: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    lengths = np.fromiter((len(a) for a in lists), dtype=np.int64, count=len(lists))
    indptr = np.concatenate([[0], np.cumsum(lengths)])
    indices = np.concatenate([np.asarray(a, dtype=np.int64) for a in lists]) if lists else np.empty(0, np.int64)
    return indptr, indices


def _distances_kdtree(y_ranks: np.ndarray, r_star: np.ndarray, k: int = 4, workers: int = 1
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Chebyshev nearest neighbours of R* among the rank vectors, with every tie at the minimum."""
    n = y_ranks.shape[0]
    tree = cKDTree(np.asarray(y_ranks, dtype=np.float64), leafsize=32, balanced_tree=False, compact_nodes=False)
    k = min(k, n)
    dist, idx = tree.query(r_star.astype(np.float64), k=k, p=np.inf, workers=workers)
    if k == 1:
        dist, idx = dist[:, None], idx[:, None]
    d = dist[:, 0]
    at_min = dist == d[:, None]                       # integer or half-integer coordinates: exact
    overflow = np.flatnonzero(at_min[:, -1]) if k < n else np.empty(0, dtype=np.int64)
    counts = at_min.sum(axis=1)
    if overflow.size:                                 # more ties than k: ask for the whole ball
        balls = tree.query_ball_point(r_star[overflow].astype(np.float64), r=d[overflow] + 0.25, p=np.inf,
                                      workers=workers, return_sorted=True)
        counts[overflow] = [len(b) for b in balls]
    indptr = np.concatenate([[0], np.cumsum(counts)])
    indices = np.empty(indptr[-1], dtype=np.int64)
    simple = np.ones(d.size, dtype=bool)
    simple[overflow] = False
    # rows with < k ties: keep the at-minimum neighbours, sorted ascending
    masked = np.where(at_min, idx, np.iinfo(np.int64).max)
    masked.sort(axis=1)
    rows = np.flatnonzero(simple)
    if rows.size:
        starts = indptr[rows]
        c = counts[rows]
        cols = np.arange(k)
        take = cols[None, :] < c[:, None]
        dest = (starts[:, None] + cols[None, :])[take]
        indices[dest] = masked[rows][take]
    for row, ball in zip(overflow, balls if overflow.size else []):
        indices[indptr[row]:indptr[row + 1]] = np.sort(np.asarray(ball, dtype=np.int64))
    return d, indptr, indices


def _distances_literal(y_ranks: np.ndarray, r_star: np.ndarray, step: float = 1.0
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """004 Algorithm 2 as printed, one original record at a time over every anonymized record: O(n_x n m).

    The printed loop is ``d = 0; while no record k has |rank_j(y_k) - R*_j| <= d
    for all j: d = d + 1``.  It stops at the first d (a whole number; a
    multiple of 1/2 with mid-ranks) reached by some record's largest
    deviation, i.e. at min_k max_j |rank_j(y_k) - R*_j|, which is evaluated
    directly instead of stepping d up one at a time.
    """
    distances, lists = [], []
    for target in r_star:
        deviation = np.abs(y_ranks - target)          # the rank deviations of 004 Table 3
        largest = deviation.max(axis=1)               # "for all j ... <= d"
        d = float(np.ceil(largest.min() / step) * step)   # first d of the while loop that some record meets
        within = largest <= d
        distances.append(d)
        lists.append(np.flatnonzero(within))
    indptr, indices = _csr(lists)
    return np.asarray(distances, dtype=np.float64), indptr, indices


def permutation_distances(X: Any, Y: Any, *, ties: str = "random", rng: Any = None, method: str = "kdtree",
                          workers: int = 1, missing: str = "raise") -> PermutationDistances:
    """Permutation distance of every original record to an anonymized data set (004 Algorithm 2).

    Parameters
    ----------
    X : array_like (n_x, m) or DataFrame
        Original records (one record, all of X, or random records).
    Y : array_like (n, m) or DataFrame
        Anonymized data set (or the reverse-mapped Z, for the intruder).
    ties : {"random", "first", "average"}
        How equal anonymized values are ranked.  ``"random"`` is 004's choice;
        with many ties (e.g. ages) it makes records with equal values look
        permuted, so ``"average"`` (mid-ranks: equal values are at rank
        distance 0, distances are multiples of 1/2) is offered too.  Without
        ties all three give the same result.
    rng : numpy Generator or int seed, optional
    method : {"kdtree", "literal"}
        ``"kdtree"``: Chebyshev nearest neighbours of the rank vectors
        (``scipy.spatial.cKDTree``, p = inf), O(n log n); ``"literal"``: the
        printed algorithm, O(n_x n m d), kept as a reference.
    workers : int
        Threads for the tree queries (-1: all cores).
    missing : {"raise", "drop"}
        Policy for missing values when X and Y have the same shape.

    Returns
    -------
    PermutationDistances

    Notes
    -----
    For an original record x: y*_j is the anonymized value of attribute j
    closest to x_j (the smaller one when two are equally close; the first copy
    among equal values) and R*_j its rank.  The permutation distance is

        d(x) = min_k max_j |rank_j(y_k) - R*_j|,

    the Chebyshev distance from (R*_1, ..., R*_m) to the nearest anonymized
    rank vector; every record at that distance is reported (PAPER_NOTES.md).

    Examples
    --------
    >>> from explorer.core.datasets import domingo_muralidhar_example
    >>> t = domingo_muralidhar_example()
    >>> res = permutation_distances(t[["X1", "X2", "X3"]], t[["Y1", "Y2", "Y3"]], rng=0)
    >>> int(res.distance[2]), res.matches(2).tolist(), res.nearest_rank[2].tolist()   # 004 Table 3
    (4, [9], [8, 2, 16])
    """
    ties = _check_ties(ties)
    if method not in ("kdtree", "literal"):
        raise InvalidParameterError(f"method must be 'kdtree' or 'literal', got {method!r}")
    x, y = _records_and_data(X, Y, missing)
    generator = check_rng(rng) if ties == "random" else None
    y_ranks, y_sorted, r_star, position = _rank_setup(x, y, ties, generator)
    if method == "kdtree":
        d, indptr, indices = _distances_kdtree(y_ranks, r_star, workers=workers)
    else:
        d, indptr, indices = _distances_literal(y_ranks, r_star, 0.5 if ties == "average" else 1.0)
    if ties != "average":
        d = np.rint(d).astype(np.int64)
    nearest_value = np.column_stack([y_sorted[position[:, j], j] for j in range(y.shape[1])])
    half_width = (r_star - position - 1).astype(float) if ties == "average" else 0.0
    return PermutationDistances(distance=d, nearest_value=nearest_value, nearest_rank=r_star,
                                anonymized_ranks=y_ranks, match_indptr=indptr, match_indices=indices,
                                nearest_half_width=half_width)


def _records_and_data(X: Any, Y: Any, missing: str) -> tuple[np.ndarray, np.ndarray]:
    """Original records (n_x, m) and anonymized data (n, m); n_x may differ from n."""
    if isinstance(X, pd.Series):
        X = X.to_numpy()[None, :] if not isinstance(X.dtype, pd.CategoricalDtype) else X.to_frame().T
    x_probe = X if isinstance(X, pd.DataFrame) else np.asarray(X, dtype=object)
    if not isinstance(X, pd.DataFrame) and x_probe.ndim == 1 and not isinstance(Y, pd.Series):
        X = np.asarray(X, dtype=float)[None, :]          # one record
    xm, _ = numeric_matrix(X, "X", allow_missing=True)
    ym, _ = numeric_matrix(Y, "Y", allow_missing=True)
    if xm.shape == ym.shape:
        xm, ym, _, _ = _pair(X, Y, missing)
    elif xm.shape[1] != ym.shape[1]:
        raise DatasetError(f"X and Y must have the same attributes, got {xm.shape[1]} and {ym.shape[1]} columns")
    else:
        if np.isnan(ym).any():
            raise DatasetError(f"Y has {int(np.isnan(ym).any(axis=1).sum())} records with missing values; drop them first")
        if np.isnan(xm).any():
            raise DatasetError(f"X has {int(np.isnan(xm).any(axis=1).sum())} records with missing values; drop them first")
    return xm, ym


# --------------------------------------------------------------------------- (d, v)-permuted privacy (004 Defs. 1-2)

def window_variances(sorted_values: np.ndarray, centre_ranks: np.ndarray, d: Any,
                     half_width: Any = 0.0) -> np.ndarray:
    """Population variance of the sorted values whose rank is within d of each centre rank.

    Parameters
    ----------
    sorted_values : (n,) or (n, m) array, each column sorted ascending
    centre_ranks : (k,) or (k, m), 1-based ranks R*_j (mid-ranks allowed)
    d : int or (k,) ints (or halves, with mid-ranks)
    half_width : float or array like ``centre_ranks``
        With mid-ranks, half the width of y*'s block of equal values: the
        window is then the block widened by d on both sides.
        Window half-width in ranks; the window [R* - d, R* + d] is clipped to [1, n].

    Notes
    -----
    004 Definition 1, condition 2: S_j = the values of the sorted Y_j whose
    rank differs no more than d from rank(y*_j); Var(S_j) with ddof = 0
    (PAPER_NOTES.md).

    Examples
    --------
    >>> window_variances(np.array([1.0, 2.0, 3.0, 10.0]), np.array([1, 2]), 1).tolist()
    [0.25, 0.6666666666666666]
    """
    values = np.asarray(sorted_values, dtype=float)
    centres = np.asarray(centre_ranks, dtype=float)
    squeeze = values.ndim == 1
    if squeeze:
        values, centres = values[:, None], centres[:, None]
    n, m = values.shape
    dd = np.asarray(d, dtype=float)
    if np.any(dd < 0) or np.any(~np.isfinite(dd)):
        raise InvalidParameterError(f"d must be a non-negative number of ranks, got {d!r}")
    dd = np.broadcast_to(dd.reshape(-1, 1) if dd.ndim == 1 else dd, centres.shape)
    hw = np.asarray(half_width, dtype=float)
    if squeeze and hw.ndim == 1:
        hw = hw[:, None]
    dd = dd + np.broadcast_to(hw, centres.shape)
    # ranks r with |r - centre| <= d, clipped to [1, n]  (centres may be mid-ranks)
    lo = (np.clip(np.ceil(centres - dd - 1e-9), 1, n) - 1).astype(np.int64)     # 0-based inclusive
    hi = np.clip(np.floor(centres + dd + 1e-9), 1, n).astype(np.int64)         # 0-based exclusive
    out = np.empty(centres.shape, dtype=float)
    max_width = int((hi - lo).max()) if centres.size else 0
    for j in range(m):
        col = values[:, j]
        if max_width * centres.shape[0] <= 20_000_000 and max_width <= 64:
            # direct: gather each window (exact, for small windows)
            offsets = np.arange(max_width)
            idx = lo[:, j, None] + offsets[None, :]
            mask = idx < hi[:, j, None]
            win = np.where(mask, col[np.minimum(idx, n - 1)], 0.0)
            cnt = mask.sum(axis=1)
            mean = win.sum(axis=1) / cnt
            out[:, j] = np.where(mask, (win - mean[:, None]) ** 2, 0.0).sum(axis=1) / cnt
        else:
            # prefix sums about the column mean (wide windows)
            shifted = col - col.mean()
            s1 = np.concatenate([[0.0], np.cumsum(shifted)])
            s2 = np.concatenate([[0.0], np.cumsum(shifted * shifted)])
            cnt = hi[:, j] - lo[:, j]
            mean = (s1[hi[:, j]] - s1[lo[:, j]]) / cnt
            out[:, j] = np.maximum((s2[hi[:, j]] - s2[lo[:, j]]) / cnt - mean * mean, 0.0)
    return out[:, 0] if squeeze else out


@dataclass(frozen=True)
class PermutedPrivacy:
    """(d, v)-permuted privacy of an anonymized data set (004 Definitions 1-2, Table 4).

    Attributes
    ----------
    distances : PermutationDistances
        Per-record permutation distances d_i, nearest values and matches.
    d : int
        The permutation distance used for the data-set level variances: the
        minimum over records unless one was given.
    v : (m,) float
        Data-set level variances: per attribute, the minimum over records of
        ``variance_at_d``.
    variance_at_d : (n_x, m) float
        Variance of the sorted anonymized values within d ranks of R*_j.
    variance_at_record : (n_x, m) float
        The same within the record's own distance d_i (004 Table 4, in parentheses).
    """

    distances: PermutationDistances
    d: int | float
    v: np.ndarray
    variance_at_d: np.ndarray
    variance_at_record: np.ndarray
    sorted_values: np.ndarray = field(repr=False)

    @property
    def record_distance(self) -> np.ndarray:
        return self.distances.distance

    def variances(self, d: Any) -> np.ndarray:
        """Window variances of every record at another distance d, shape (n_x, m)."""
        d = _check_d(d)
        return window_variances(self.sorted_values, self.distances.nearest_rank, d,
                                self.distances.nearest_half_width)

    def satisfies(self, d: Any, v: Any) -> np.ndarray:
        """Per record: does (d, v)-permuted privacy hold (004 Definition 1)?

        Condition 1: the record's permutation distance is at least d.
        Condition 2: for every attribute j, the variance of the anonymized
        values within d ranks of y*_j is at least v_j ("greater than" read as
        >=, PAPER_NOTES.md).  Needs only the record and Y: subject-verifiable.
        """
        d = _check_d(d)
        v_arr = _check_v(v, self.v.size)
        variances = self.variances(d)
        return (self.distances.distance >= d) & np.all(variances >= v_arr[None, :], axis=1)

    def dataset_satisfies(self, d: Any, v: Any) -> bool:
        """Does the data set satisfy (d, v)-permuted privacy (004 Definition 2: every record does)?"""
        return bool(np.all(self.satisfies(d, v)))


def _check_d(d: Any) -> int | float:
    value = check_number(d, "d", minimum=0.0)
    return int(value) if value.is_integer() else value


def _check_v(v: Any, m: int) -> np.ndarray:
    if isinstance(v, numbers.Real) and not isinstance(v, bool):
        v = [v] * m
    try:
        arr = np.asarray(v, dtype=float).ravel()
    except (TypeError, ValueError):
        raise ExplorerTypeError(f"v must be a number or one number per attribute, got {_short(v)}") from None
    if arr.size != m:
        raise InvalidParameterError(f"v must have one entry per attribute ({m}), got {arr.size}")
    if np.any(~np.isfinite(arr)) or np.any(arr < 0):
        raise InvalidParameterError(f"v must be non-negative numbers, got {arr.tolist()}")
    return arr


def permuted_privacy(X: Any, Y: Any, d: Any = None, *, ties: str = "random", rng: Any = None,
                     missing: str = "raise") -> PermutedPrivacy:
    """(d, v)-permuted privacy of Y with respect to every record of X (004 Definitions 1-2).

    Parameters
    ----------
    X, Y : array_like or DataFrame
        Original records and anonymized data set (same attributes).
    d : int, optional
        Permutation distance for the variance windows; default the data-set
        level distance, min_i d_i.
    ties, rng, missing
        As in :func:`permutation_distances`.

    Returns
    -------
    PermutedPrivacy

    Notes
    -----
    Definition 1: Y satisfies (d, v)-permuted privacy w.r.t. x if (1) no
    anonymized record has all its ranks within less than d of (R*_1..R*_m),
    i.e. the permutation distance of x is >= d, and (2) for every j the
    variance of S_j = {sorted Y_j values with |rank - R*_j| <= d} is >= v_j.
    Definition 2: the data set satisfies it if every record does.  The data-set
    level (d, v) reported by 004 Table 4 are d = min_i d_i and v_j = min_i Var(S_j).

    Examples
    --------
    >>> from explorer.core.datasets import domingo_muralidhar_example
    >>> t = domingo_muralidhar_example()
    >>> pp = permuted_privacy(t[["X1", "X2", "X3"]], t[["Y1", "Y2", "Y3"]], rng=0)
    >>> pp.d, pp.v.round(2).tolist()                       # 004 Table 4, bottom row
    (1, [0.01, 11.07, 30.26])
    >>> pp.variance_at_record[2].round(2).tolist()        # record 3: 24.70, 896.76, 20167.78
    [24.7, 896.76, 20167.78]
    """
    dist = permutation_distances(X, Y, ties=ties, rng=rng, missing=missing)
    x, y = _records_and_data(X, Y, missing)
    y_sorted = np.sort(y, axis=0)
    d_used = dist.dataset_distance if d is None else _check_d(d)
    at_d = window_variances(y_sorted, dist.nearest_rank, d_used, dist.nearest_half_width)
    at_record = window_variances(y_sorted, dist.nearest_rank, dist.distance, dist.nearest_half_width)
    return PermutedPrivacy(distances=dist, d=d_used, v=at_d.min(axis=0), variance_at_d=at_d,
                           variance_at_record=at_record, sorted_values=y_sorted)


@dataclass(frozen=True)
class SubjectCheck:
    """What one subject learns from her own record and the anonymized data set (004 Section 4)."""

    distance: int | float
    nearest_value: np.ndarray
    nearest_rank: np.ndarray
    matches: np.ndarray
    variances: np.ndarray
    d: int
    v: np.ndarray
    satisfies: bool


def subject_check(record: ArrayLike, Y: Any, d: Any, v: Any, *, ties: str = "random",
                  rng: Any = None) -> SubjectCheck:
    """Check (d, v)-permuted privacy for one record, knowing only that record and Y (subject-verifiability).

    Examples
    --------
    >>> from explorer.core.datasets import domingo_muralidhar_example
    >>> t = domingo_muralidhar_example()
    >>> c = subject_check(t.loc[2, ["X1", "X2", "X3"]].to_numpy(), t[["Y1", "Y2", "Y3"]], 4, [20, 800, 20000])
    >>> c.distance, c.satisfies, c.variances.round(2).tolist()
    (4, True, [24.7, 896.76, 20167.78])
    """
    record_arr = np.asarray(record, dtype=float).ravel()[None, :]
    ym, _ = numeric_matrix(Y, "Y")
    if record_arr.shape[1] != ym.shape[1]:
        raise DatasetError(f"the record has {record_arr.shape[1]} attributes but Y has {ym.shape[1]}")
    if np.isnan(record_arr).any():
        raise DatasetError("the record has missing values")
    d = _check_d(d)
    v_arr = _check_v(v, ym.shape[1])
    dist = permutation_distances(record_arr, ym, ties=ties, rng=rng)
    variances = window_variances(np.sort(ym, axis=0), dist.nearest_rank, d, dist.nearest_half_width)[0]
    ok = bool(dist.distance[0] >= d and np.all(variances >= v_arr))
    return SubjectCheck(distance=dist.distance[0].item(), nearest_value=dist.nearest_value[0],
                        nearest_rank=dist.nearest_rank[0], matches=dist.matches(0), variances=variances,
                        d=d, v=v_arr, satisfies=ok)


@dataclass(frozen=True)
class DVFPermutedPrivacy:
    """(d, v, f)-permuted privacy (000 Section VI-A): per-attribute distances for a record mapping f.

    Attributes
    ----------
    distances : (n_x, m) int
        |Rank(y^j_f(x)) - Rank(y^j_*)| for every record and attribute.
    variances : (n_x, m) float
        Variance of S^j(d^j) (values of the sorted Y^j within d^j ranks of y^j_*).
    d, v : (m,)
        The largest vectors for which the data set satisfies the model: the
        per-attribute minima over records.
    """

    distances: np.ndarray
    variances: np.ndarray
    d: np.ndarray
    v: np.ndarray
    mapping: np.ndarray

    def satisfies(self, d: Any, v: Any) -> np.ndarray:
        """Per record: do d^j <= the record's distances and v^j <= its variances, for all j?

        The variances are those at the record's own per-attribute distances;
        a smaller d shrinks the window, so ask for the variances you need.
        """
        m = self.distances.shape[1]
        d_arr = np.broadcast_to(np.asarray(d, dtype=float), (m,))
        v_arr = _check_v(v, m)
        return np.all(self.distances >= d_arr, axis=1) & np.all(self.variances >= v_arr, axis=1)


def dvf_permuted_privacy(X: Any, Y: Any, f: ArrayLike | None = None, *, ties: str = "random",
                         rng: Any = None, missing: str = "raise") -> DVFPermutedPrivacy:
    """(d, v, f)-permuted privacy of 000 Section VI-A.

    Parameters
    ----------
    f : (n_x,) ints, optional
        f(x_i): the anonymized record (0-based) derived from original record i;
        default the identity (record i of Y came from record i of X).

    Notes
    -----
    000 Section VI-A: Y satisfies (d, v, f)-permuted privacy w.r.t. x if
    |Rank(y^j) - Rank(y^j_*)| >= d^j for f(x) = (y^1, ..., y^m) and the
    diversity (here the variance) of S^j(d^j) exceeds v^j.

    Examples
    --------
    >>> from explorer.core.datasets import domingo_muralidhar_example
    >>> t = domingo_muralidhar_example()
    >>> r = dvf_permuted_privacy(t[["X1", "X2", "X3"]], t[["Y1", "Y2", "Y3"]], rng=0)
    >>> r.distances[0].tolist()     # record 1: Y ranks (14, 7, 5), nearest values' ranks (11, 8, 9)
    [3, 1, 4]
    """
    x, y = _records_and_data(X, Y, missing)
    generator = check_rng(rng) if _check_ties(ties) == "random" else None
    y_ranks, y_sorted, r_star, position = _rank_setup(x, y, ties, generator)
    half_width = (r_star - position - 1).astype(float) if ties == "average" else np.zeros_like(r_star, dtype=float)
    n_x = x.shape[0]
    if f is None:
        if n_x != y.shape[0]:
            raise DatasetError("f must be given when X and Y have different numbers of records")
        mapping = np.arange(n_x)
    else:
        mapping = np.asarray(f)
        if mapping.shape != (n_x,) or not np.issubdtype(mapping.dtype, np.integer):
            raise InvalidParameterError(f"f must be {n_x} integer record numbers, got {_short(f)}")
        if mapping.min() < 0 or mapping.max() >= y.shape[0]:
            raise InvalidParameterError(f"f must map into records 0..{y.shape[0] - 1}")
    dist = np.abs(y_ranks[mapping] - r_star)
    variances = np.column_stack([window_variances(y_sorted[:, j], r_star[:, j], dist[:, j], half_width[:, j])
                                 for j in range(y.shape[1])])
    return DVFPermutedPrivacy(distances=dist, variances=variances, d=dist.min(axis=0), v=variances.min(axis=0),
                              mapping=mapping)


# --------------------------------------------------------------------------- the intruder (004 Section 5)

@dataclass(frozen=True)
class RecordLinkage:
    """The maximum-knowledge intruder's record linkage and the protector's summary (004 Section 5.1).

    Attributes
    ----------
    Z : (n, m) float
        The reverse-mapped data set the intruder links against.
    distances : PermutationDistances
        Algorithm 2 of every original record against Z.
    correct, multiple, wrong : (n,) bool
        Record i has the single match i / several matches / a single wrong match.
    unmatched : int array
        Z records matched by no original record.
    multiply_matched : int array
        Z records matched by two or more original records.
    """

    Z: np.ndarray
    distances: PermutationDistances
    correct: np.ndarray
    multiple: np.ndarray
    wrong: np.ndarray
    unmatched: np.ndarray
    multiply_matched: np.ndarray
    times_matched: np.ndarray

    @property
    def n_correct(self) -> int:
        return int(self.correct.sum())

    @property
    def n_multiple(self) -> int:
        return int(self.multiple.sum())

    @property
    def n_wrong(self) -> int:
        return int(self.wrong.sum())

    @property
    def multiple_containing_true(self) -> np.ndarray:
        """Records with several matches, one of which is the true one."""
        d = self.distances
        return np.array([self.multiple[i] and i in d.matches(i) for i in range(d.distance.size)], dtype=bool)

    def summary(self) -> str:
        n = self.correct.size
        return (f"{self.n_correct} of {n} records correctly linked, {self.n_multiple} with multiple matches, "
                f"{self.n_wrong} wrongly linked; {self.unmatched.size} anonymized records matched by no "
                f"original record, {self.multiply_matched.size} matched by several.")


def record_linkage(X: Any, Y: Any, *, ties: str = "random", rng: Any = None, missing: str = "raise",
                   workers: int = 1) -> RecordLinkage:
    """Record linkage by the maximum-knowledge intruder (004 Definition 3, Section 5.1).

    The intruder knows X and Y, reverse-maps Y to Z (Algorithm 1) and runs
    Algorithm 2 of every original record against Z.  Record i of Y (and of Z)
    is the anonymized version of record i of X, which lets the protector count
    correct, multiple and wrong links.

    Notes
    -----
    PAPER_NOTES.md: 004's own Table 5 gives 6 correct links, 4 multiple and 10
    wrong (the text says 5 / 4 / 11), and Z records 19 and 20 are also matched
    twice.

    Examples
    --------
    >>> from explorer.core.datasets import domingo_muralidhar_example
    >>> t = domingo_muralidhar_example()
    >>> link = record_linkage(t[["X1", "X2", "X3"]], t[["Y1", "Y2", "Y3"]], rng=0)
    >>> link.n_correct, link.n_multiple, link.n_wrong
    (6, 4, 10)
    >>> (link.unmatched + 1).tolist()          # 1-based, as in the paper
    [3, 8, 16, 18]
    """
    x, y, _, _ = _pair(X, Y, missing)
    _check_n(x.shape[0], "record linkage")
    generator = check_rng(rng)
    z = reverse_map_frame(x, y, generator, ties="first" if ties == "first" else "random")
    # (with ties="average" the reverse mapping still needs a strict order; it only
    # shuffles equal values, which mid-ranks then treat as one)
    return RecordLinkage(**_linkage_fields(x, z, ties, generator, workers))


@dataclass(frozen=True)
class RandomMatches:
    """Match distances of random records (004 Section 5.2)."""

    distance: np.ndarray
    exhaustive: bool
    records: np.ndarray = field(repr=False)

    @property
    def n_random(self) -> int:
        return int(self.distance.size)


def random_match_distances(X: Any, Z: Any, n_random: Any = "all", rng: Any = None, *, ties: str = "random",
                           workers: int = 1) -> RandomMatches:
    """Permutation distances of the matches found in Z for random records drawn from X (004 Section 5.2).

    Parameters
    ----------
    X : (n, m) original data set; a random record takes one value per attribute
        from X's records, independently.
    Z : (n_z, m) the reverse-mapped (or anonymized) data set matched against.
    n_random : "all" or int
        ``"all"``: every one of the n^m combinations (004 Table 6; refused
        beyond 2,000,000); an int: that many records drawn independently and
        uniformly (seeded), at most n^m.

    Examples
    --------
    >>> from explorer.core.datasets import domingo_muralidhar_example
    >>> t = domingo_muralidhar_example()
    >>> rm = random_match_distances(t[["X1", "X2", "X3"]], t[["Z1", "Z2", "Z3"]], rng=0)
    >>> rm.n_random, round(float(np.mean(rm.distance == 0)), 4)      # 004 Table 6: 0.0025 at distance 0
    (8000, 0.0025)
    """
    x, _ = numeric_matrix(X, "X")
    z, _ = numeric_matrix(Z, "Z")
    if x.shape[1] != z.shape[1]:
        raise DatasetError(f"X and Z must have the same attributes, got {x.shape[1]} and {z.shape[1]} columns")
    n, m = x.shape
    total = float(n) ** m
    generator = check_rng(rng)
    if isinstance(n_random, str):
        if n_random != "all":
            raise InvalidParameterError(f"n_random must be 'all' or a positive integer, got {n_random!r}")
        if total > MAX_ALL_RANDOM:
            raise InvalidParameterError(
                f"n_random='all' would enumerate n^m = {n}^{m} = {total:,.0f} records (limit {MAX_ALL_RANDOM:,}); "
                "give a number of random records instead")
        grids = np.meshgrid(*[np.arange(n)] * m, indexing="ij")
        idx = np.column_stack([g.ravel() for g in grids])
        exhaustive = True
    else:
        k = check_int(n_random, "n_random", minimum=1)
        if k > total:
            raise InvalidParameterError(f"n_random = {k:,} is larger than the n^m = {n}^{m} = {total:,.0f} "
                                        "possible random records; use n_random='all'")
        idx = generator.integers(0, n, size=(k, m))
        exhaustive = False
    records = x[idx, np.arange(m)[None, :]]
    dist = permutation_distances(records, z, ties=ties, rng=generator, workers=workers)
    return RandomMatches(distance=dist.distance, exhaustive=exhaustive, records=records)


def hellinger(p: ArrayLike, q: ArrayLike) -> float:
    """Hellinger distance between two discrete distributions, sqrt(1 - sum sqrt(p q)), in [0, 1].

    Examples
    --------
    >>> hellinger([1, 0], [0, 1])
    1.0
    >>> hellinger([0.5, 0.5], [0.5, 0.5])
    0.0
    """
    pa, qa = np.asarray(p, dtype=float), np.asarray(q, dtype=float)
    if pa.shape != qa.shape:
        raise InvalidParameterError(f"p and q must have the same length, got {pa.size} and {qa.size}")
    if np.any(pa < 0) or np.any(qa < 0) or pa.sum() <= 0 or qa.sum() <= 0:
        raise InvalidParameterError("p and q must be non-negative and not all zero")
    pa, qa = pa / pa.sum(), qa / qa.sum()
    return float(math.sqrt(max(0.0, 1.0 - float(np.sum(np.sqrt(pa * qa))))))


def distance_histogram(distance: ArrayLike, max_distance: float | None = None, step: float = 1.0) -> np.ndarray:
    """Relative frequency of each permutation distance 0, step, ..., max_distance (004 Tables 6-7).

    Distances above ``max_distance`` are counted in the last bin.  ``step`` is
    1, or 1/2 for mid-rank distances.

    Examples
    --------
    >>> distance_histogram([0, 2, 2, 3]).tolist()
    [0.25, 0.0, 0.5, 0.25]
    """
    d = np.asarray(distance, dtype=float)
    if d.size == 0:
        raise InvalidParameterError("distance must not be empty")
    index = np.rint(d / step).astype(np.int64)
    top = int(index.max()) if max_distance is None else int(round(max_distance / step))
    counts = np.bincount(np.minimum(index, top), minlength=top + 1)[: top + 1]
    return counts / d.size


@dataclass(frozen=True)
class LinkageVerification:
    """The intruder's verification of his links against random records (004 Section 5.2, Figures 1-3).

    Attributes
    ----------
    linkage : RecordLinkage
    random : RandomMatches
    bins : (k,) distances 0..max (step 1, or 1/2 with mid-ranks)
    original_frequency, random_frequency : (k,) float
        Relative frequencies of the match distances (004 Tables 6-7).
    hellinger : float
        Hellinger distance between the two distributions (0: indistinguishable).
    chance_share : (n,) float
        For each original record, the share of random records that match at
        its distance or closer: how plausible its match is as chance.
    alpha : float
        Threshold below which a match is called implausible as chance.
    """

    linkage: RecordLinkage
    random: RandomMatches
    bins: np.ndarray
    original_frequency: np.ndarray
    random_frequency: np.ndarray
    hellinger: float
    chance_share: np.ndarray
    alpha: float

    @property
    def typical_distance(self) -> float:
        """The median permutation distance of the original records' matches (lower median)."""
        d = np.sort(self.linkage.distances.distance)
        value = d[(d.size - 1) // 2]
        return int(value) if float(value).is_integer() else float(value)

    @property
    def typical_chance(self) -> float:
        """Share of random records matching at the typical distance or closer."""
        return float(np.mean(self.random.distance <= self.typical_distance))

    @property
    def n_implausible(self) -> int:
        """Original records whose match distance is reached by fewer than alpha of the random records."""
        return int(np.sum(self.chance_share < self.alpha))

    @property
    def deniable(self) -> bool:
        return self.typical_chance >= self.alpha

    def verdict(self) -> str:
        """The verdict in words."""
        share = self.typical_chance
        shown = f"{share:.0%}" if share >= 0.01 or share == 0 else f"{share:.2%}"
        head = (f"matches at distance <= {self.typical_distance} happen by chance for {shown} "
                f"of random records")
        n = self.chance_share.size
        tail = (f"; {self.n_implausible} of {n} links are implausible as chance (share < {self.alpha:.0%})"
                if self.n_implausible else "")
        if self.deniable:
            return f"{head}: linkage is deniable{tail}."
        return f"{head}: the intruder can trust his links, linkage is not deniable{tail}."


def linkage_verification(X: Any, Y: Any, n_random: Any = "all", rng: Any = None, *, alpha: float = 0.05,
                         ties: str = "random", missing: str = "raise", workers: int = 1,
                         linkage: RecordLinkage | None = None) -> LinkageVerification:
    """Record linkage and its verification against random records (004 Sections 5.1-5.2).

    Parameters
    ----------
    X, Y : original and anonymized data sets (Y may already be the reverse-mapped Z).
    n_random : "all" or int, see :func:`random_match_distances`.
    alpha : float
        A link is "implausible as chance" when fewer than alpha of the random
        records match at its distance or closer; linkage is called deniable
        when at least alpha of them match at the original records' median
        distance or closer.

    Notes
    -----
    Both distributions of 004 Tables 6-7 and their Hellinger distance
    H(p, q) = sqrt(1 - sum_d sqrt(p_d q_d)) (suggested at the end of 004
    Section 5.2).  PAPER_NOTES.md: the "probability 0.0011 that a match is
    random" of Section 5.2 is the tail P(random distance <= 5), which is what
    ``chance_share`` reports per record.

    Examples
    --------
    >>> from explorer.core.datasets import domingo_muralidhar_example
    >>> t = domingo_muralidhar_example()
    >>> lv = linkage_verification(t[["X1", "X2", "X3"]], t[["Y1", "Y2", "Y3"]], rng=0)
    >>> lv.original_frequency.round(4).tolist()[:6]            # 004 Table 6, first column
    [0.0, 0.0, 0.2, 0.4, 0.2, 0.2]
    """
    alpha = check_number(alpha, "alpha", minimum=0.0, maximum=1.0)
    x, y, _, _ = _pair(X, Y, missing)
    generator = check_rng(rng)
    link = linkage if linkage is not None else record_linkage(x, y, ties=ties, rng=generator, workers=workers)
    rm = random_match_distances(x, link.Z, n_random, rng=generator, ties=ties, workers=workers)
    d_orig = link.distances.distance
    both = np.concatenate([d_orig, rm.distance]).astype(float)
    step = 1.0 if np.all(both == np.rint(both)) else 0.5
    top = float(both.max())
    original_frequency = distance_histogram(d_orig, top, step)
    random_frequency = distance_histogram(rm.distance, top, step)
    sorted_random = np.sort(rm.distance)
    chance = np.searchsorted(sorted_random, d_orig, side="right") / sorted_random.size
    bins = np.arange(original_frequency.size) if step == 1.0 else np.arange(original_frequency.size) * step
    return LinkageVerification(linkage=link, random=rm, bins=bins,
                               original_frequency=original_frequency, random_frequency=random_frequency,
                               hellinger=hellinger(original_frequency, random_frequency), chance_share=chance,
                               alpha=alpha)


# --------------------------------------------------------------------------- everything at once (panel, notebook)

@dataclass(frozen=True)
class PermutationAnalysis:
    """X, its anonymized Y, and what the permutation paradigm says about them (004 Sections 2-5, 002 Section 3).

    Attributes
    ----------
    columns : list of str
        Attribute names.
    X, Y, Z, E : (n, m) float
        Original, anonymized, reverse-mapped (Algorithm 1) and residual noise E = Y - Z.
    spearman : (m,) float
        Spearman's rho between X_j and Y_j (= Z_j) per attribute (NaN for a constant attribute).
    extent : (m,) float
        Ruiz's T_j = 1 - trace(P_j) / n.
    displacement : (n, m) float
        Ruiz's rank-displacement vectors r_j (zero displacements kept at 0).
    privacy : PermutedPrivacy
        (d, v)-permuted privacy of Y w.r.t. every original record (004 Table 4).
    verification : LinkageVerification
        The intruder's linkage against Z (Table 5) and its verification against
        random records (Tables 6-7).
    ties : str
        The tie policy used.
    """

    columns: list
    X: np.ndarray
    Y: np.ndarray
    Z: np.ndarray
    E: np.ndarray
    spearman: np.ndarray
    extent: np.ndarray
    displacement: np.ndarray
    privacy: PermutedPrivacy
    verification: LinkageVerification
    ties: str

    @property
    def linkage(self) -> RecordLinkage:
        return self.verification.linkage

    def record_table(self) -> pd.DataFrame:
        """One row per original record (1-based numbers, as in the papers): Tables 4 and 5 side by side."""
        dist = self.privacy.distances
        link = self.linkage.distances
        n = dist.distance.size

        def listing(d: PermutationDistances, i: int) -> str:
            return " ".join(str(k + 1) for k in d.matches(i))

        table = pd.DataFrame({
            "record": np.arange(1, n + 1),
            "permutation distance d_i (vs Y)": dist.distance,
            "closest anonymized record": dist.closest + 1,
            "records at d_i": [listing(dist, i) for i in range(n)],
            "intruder's matches in Z": [listing(link, i) for i in range(n)],
            "match distance (vs Z)": link.distance,
            "correct link": self.linkage.correct,
            "share of random records as close": self.verification.chance_share,
        })
        for j, c in enumerate(self.columns):
            table[f"var {c} within d={self.privacy.d:g}"] = self.privacy.variance_at_d[:, j]
            table[f"var {c} within d_i"] = self.privacy.variance_at_record[:, j]
        return table

    def frames(self) -> dict[str, pd.DataFrame]:
        """Z, E and the per-record table as DataFrames (for CSV export)."""
        return {"Z": pd.DataFrame(self.Z, columns=self.columns),
                "E": pd.DataFrame(self.E, columns=self.columns),
                "records": self.record_table()}


def permutation_analysis(X: Any, Y: Any, *, n_random: Any = "all", ties: str = "random", rng: Any = None,
                         alpha: float = 0.05, missing: str = "raise", workers: int = 1,
                         step: Callable[[str], Any] | None = None) -> PermutationAnalysis:
    """Reverse mapping, rank displacement, (d, v)-permuted privacy, linkage and its verification in one call.

    ``step(stage)``, when given, is called before each stage ("reverse mapping", "rank
    displacement", "distances", "linkage", "random records"), e.g. to report progress; it
    may raise to stop the analysis.

    Examples
    --------
    >>> from explorer.core.datasets import domingo_muralidhar_example
    >>> t = domingo_muralidhar_example()
    >>> a = permutation_analysis(t[["X1", "X2", "X3"]], t[["Y1", "Y2", "Y3"]], rng=0)
    >>> a.spearman.round(3).tolist(), a.privacy.d, a.linkage.n_correct
    ([0.722, 0.844, 0.776], 1, 6)
    """
    step = step or (lambda stage: None)
    x, y, columns, _ = _pair(X, Y, missing)
    _check_n(x.shape[0], "the permutation analysis")
    generator = check_rng(rng)
    seeds = generator.integers(0, 2 ** 63 - 1, size=3)
    step("reverse mapping")
    z = reverse_map_frame(x, y, int(seeds[0]), ties="first" if ties == "first" else "random")
    step("rank displacement")
    rho = np.full(x.shape[1], np.nan)
    extent = np.empty(x.shape[1])
    displacement = np.empty_like(x)
    tie_rule = "first" if ties in ("first", "average") else "random"
    for j in range(x.shape[1]):
        if not (np.all(x[:, j] == x[0, j]) or np.all(y[:, j] == y[0, j])):
            rho[j] = spearman(x[:, j], y[:, j])
        extent[j] = permutation_extent(x[:, j], z[:, j], ties=tie_rule, rng=int(seeds[1]))
        displacement[:, j] = rank_displacement(x[:, j], z[:, j], ties=tie_rule, rng=int(seeds[1]), zero=0.0)
    step("distances")
    privacy = permuted_privacy(x, y, ties=ties, rng=int(seeds[2]))
    step("linkage")
    link_rng = np.random.default_rng(int(seeds[2]) + 1)
    link = RecordLinkage(**_linkage_fields(x, z, ties, link_rng, workers))
    step("random records")
    verification = linkage_verification(x, z, n_random, link_rng, alpha=alpha, ties=ties, workers=workers,
                                        linkage=link)
    return PermutationAnalysis(columns=list(columns), X=x, Y=y, Z=z, E=y - z, spearman=rho, extent=extent,
                               displacement=displacement, privacy=privacy, verification=verification, ties=ties)


def _linkage_fields(x: np.ndarray, z: np.ndarray, ties: str, generator: np.random.Generator,
                    workers: int) -> dict[str, Any]:
    """Record linkage against an already reverse-mapped Z (the intruder's Section 5.1 step)."""
    dist = permutation_distances(x, z, ties=ties, rng=generator, workers=workers)
    n = x.shape[0]
    counts = dist.n_matches
    single = counts == 1
    rows = np.arange(n)
    times = np.bincount(dist.match_indices, minlength=n)
    return dict(Z=z, distances=dist, correct=single & (dist.closest == rows), multiple=counts > 1,
                wrong=single & (dist.closest != rows), unmatched=np.flatnonzero(times == 0),
                multiply_matched=np.flatnonzero(times > 1), times_matched=times)
