"""Ranks with tie policies, and the data sets they are computed from.

Every view of the permutation paradigm works on ranks: the reverse mapping
(Domingo-Ferrer and Muralidhar 2016, Algorithm 1), Ruiz's permutation matrices
(Ruiz 2018, Prop. 1), the permutation distance (Domingo-Ferrer and Muralidhar
2016, Algorithm 2) and Spearman's rank correlation.  This module turns data
sets (arrays or DataFrames, ordinal columns ranked by their declared category
order) into float matrices and ranks them with a named tie policy.

Conventions (the documentation's page "Conventions and errata followed",
``docs/conventions.md``): ranks are 1-based and ascend (1 = smallest) as in
Domingo-Ferrer and Muralidhar (2016); Ruiz (2018) Table 1 ranks descending
(``descending=True``).  Ties are broken by a named policy: ``"random"``
(seeded, the papers' choice), ``"first"`` (order of appearance) or
``"average"`` (mid-ranks, as for Spearman's rho).

References
----------
.. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization:
   permutation paradigm, verifiability by subjects and intruders, transparency
   to users", Information Sciences 337-338:11-24, 2016.
.. [2] N. Ruiz, "On some consequences of the permutation paradigm for data
   anonymization: centrality of permutation matrices, universal measures of
   disclosure risk and information loss, evaluation by dominance",
   Information Sciences, 2018.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from explorer._validation import check_matrix, check_rng
from explorer.errors import DatasetError, ExplorerTypeError, InvalidParameterError

__all__ = ["TIES", "MISSING_POLICIES", "numeric_matrix", "ranks", "rank_intervals", "rank_shift", "spearman"]

#: Tie-breaking policies of :func:`ranks`.
TIES = ("random", "first", "average")
#: Missing-value policies of the frame functions: refuse, or drop every row with a missing value in X or Y.
MISSING_POLICIES = ("raise", "drop")


# --------------------------------------------------------------------------- data sets as matrices

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
    count).  Arrays are checked by :func:`explorer._validation.check_matrix`.

    Parameters
    ----------
    data : array_like (n,) or (n, m), Series or DataFrame
        The data set; a vector is one attribute.
    name : str
        The parameter's name, used in messages and in default column names
        (``X1``, ``X2``, ...).
    columns : sequence of str, optional
        The DataFrame columns to use (default all).
    allow_missing : bool
        Keep NaN (the caller applies a missing-value policy).

    Returns
    -------
    matrix : numpy.ndarray, shape (n, m), float
    names : list of str

    Examples
    --------
    >>> numeric_matrix([[1, 2], [3, 4]])[0].shape
    (2, 2)
    >>> numeric_matrix([[1, 2], [3, 4]], "Y")[1]
    ['Y1', 'Y2']
    """
    if isinstance(data, pd.Series):
        data = data.to_frame()
    if isinstance(data, pd.DataFrame):
        frame = data if columns is None else data[list(columns)]
        names = [str(c) for c in frame.columns]
        if not names:
            raise DatasetError(f"{name} has no columns")
        data = np.column_stack([_series_values(frame[c], name) for c in frame.columns]) if len(frame) else \
            np.empty((0, len(names)))
    else:
        names = None
    matrix = check_matrix(data, name, columns=names, allow_missing=allow_missing,
                          hint="use missing='drop' to drop incomplete records, or fill them first")
    return matrix, names or [f"{name}{j + 1}" for j in range(matrix.shape[1])]


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




# --------------------------------------------------------------------------- ranks

def ranks(values: ArrayLike, ties: str = "random", rng: Any = None, descending: bool = False) -> np.ndarray:
    """1-based ranks of a vector (or of each column of a matrix), ties broken by a named policy.

    Parameters
    ----------
    values : array_like, shape (n,) or (n, m)
        Numbers (or an ordered categorical Series, ranked by category order).
    ties : {"random", "first", "average"}
        ``"random"``: equal values get distinct ranks in random (seeded) order,
        as in Domingo-Ferrer and Muralidhar (2016); ``"first"``: in order of appearance; ``"average"``: the mean
        of the ranks they span (floats).
    rng : numpy Generator or int seed, optional
        Only used by ``ties="random"``.
    descending : bool
        False: rank 1 is the smallest value (Domingo-Ferrer and Muralidhar 2016);
        True: the largest (Ruiz 2018, Table 1).

    Returns
    -------
    numpy.ndarray
        Integer ranks 1..n (float for ``"average"``), same shape as ``values``.

    Notes
    -----
    Domingo-Ferrer and Muralidhar (2016), Section 2: "the values in both X and
    Y can be ranked ...; any ties in them are broken randomly" [1]_.

    References
    ----------
    .. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization: permutation paradigm,
       verifiability by subjects and intruders, transparency to users", Information Sciences
       337-338:11-24, 2016.
    .. [2] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization: centrality
       of permutation matrices, universal measures of disclosure risk and information loss, evaluation
       by dominance", Information Sciences, 2018.

    Computes: Ruiz (2018), Table 1.

    Examples
    --------
    >>> ranks([13, 20, 2, 15, 29]).tolist()
    [2, 4, 1, 3, 5]
    >>> ranks([13, 20, 2, 15, 29], descending=True).tolist()   # Ruiz (2018) Table 1, X_1R
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


def _average_ranks(values: np.ndarray) -> np.ndarray:
    """Ranks 1..n with ties given their mean rank (``scipy.stats.rankdata(method="average")``).

    pandas' ``rank`` computes the same; the explorer uses it because importing ``scipy.stats``
    costs each kernel about a second, and ``rankdata`` is all it would need from there.
    """
    return pd.Series(values).rank(method="average").to_numpy(dtype=float, copy=True)


def _ranks_1d(array: np.ndarray, ties: str, generator: np.random.Generator | None,
              descending: bool) -> np.ndarray:
    if array.size == 0:
        raise InvalidParameterError("values must not be empty")
    if np.isnan(array).any():
        raise DatasetError(f"values has {int(np.isnan(array).sum())} missing values (NaN); drop them first")
    key = -array if descending else array
    n = key.size
    if ties == "average":
        return _average_ranks(key)
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


def rank_intervals(values: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """The rank interval ``[low, high]`` of every value: the 1-based ranks its tie block spans.

    A value equal to no other has ``low == high ==`` its rank; ``g`` equal values all get the same
    interval of width ``g - 1``, whichever way their ties would be broken (every tie policy of
    :func:`ranks` gives each of them a rank inside it, and mid-ranks are its centre).

    Examples
    --------
    >>> [a.tolist() for a in rank_intervals([5, 1, 5, 3])]
    [[3, 1, 3, 2], [4, 1, 4, 2]]
    """
    v = _as_vector(values, "values")
    ordered = np.sort(v)
    low = np.searchsorted(ordered, v, side="left") + 1
    high = np.searchsorted(ordered, v, side="right")
    return low.astype(np.int64), high.astype(np.int64)


def rank_shift(x: ArrayLike, y: ArrayLike) -> np.ndarray:
    """How many ranks each record moved, rank(y) - rank(x), whatever way ties are broken.

    Notes
    -----
    Let ``[a_k, b_k]`` be the rank interval of ``x_k`` among X and ``[c_k, d_k]`` that of ``y_k`` among
    Y (:func:`rank_intervals`: the ranks the tie block of the value spans).  The displacement of
    record k is the signed gap between the two intervals::

        r_k = c_k - b_k   if c_k > b_k   (moved up: y_k ranks above every rank x_k could have)
        r_k = d_k - a_k   if d_k < a_k   (moved down)
        r_k = 0           if the intervals overlap

    that is the smallest |rank(y_k) - rank(x_k)| over every way of breaking the ties of X and of Y,
    with its sign.  So:

    * without ties it is exactly ``rank(y_k) - rank(x_k)``, the rank displacement of Domingo-Ferrer
      and Muralidhar (2016) and Ruiz (2018) (the papers' printed numbers are unchanged);
    * it never depends on a tie policy or a seed: equal values never count as moved;
    * a masking that changes no rank (y a non-decreasing function of x, for example a strictly
      monotone transform, or noise too small to swap two different values that only tells equal
      values apart) gives 0 for every record.

    ``y`` may be the masked attribute Y or its reverse mapping Z (Z has Y's order).

    Examples
    --------
    >>> rank_shift([135, 52, 123, 165, 160], [160, 52, 123, 135, 165]).tolist()
    [1, 0, 0, -2, 1]
    >>> rank_shift([1.0, 1.0, 2.0], [0.5, 0.7, 3.0]).tolist()     # ties told apart by noise: nothing moved
    [0, 0, 0]
    >>> rank_shift([1, 2, 3], [3, 2, 1]).tolist()
    [2, 0, -2]
    """
    xv, yv = _as_vector(x, "x"), _as_vector(y, "y")
    if xv.size != yv.size:
        raise DatasetError(f"x and y must have the same number of records, got {xv.size} and {yv.size}")
    a, b = rank_intervals(xv)
    c, d = rank_intervals(yv)
    return np.where(c > b, c - b, np.where(d < a, d - a, 0)).astype(np.int64)


def paired_ranks(x: ArrayLike, z: ArrayLike, ties: str, rng: Any) -> tuple[np.ndarray, np.ndarray]:
    """Strict (1-based, integer) ranks of two vectors of the same length, as a permutation needs.

    X's ties are broken by the policy; Z's are broken so that the permutation fixes as many records as
    it can: a record whose X rank lies in its z value's rank interval keeps that rank, and the other
    records of each tie block of Z take the block's remaining ranks in the order of the policy.  So a
    record whose value the masking did not change (within its ties) is never counted as moved, and
    without ties both are the plain ranks.
    """
    ties = _check_ties(ties)
    if ties == "average":
        raise InvalidParameterError("ties='average' gives fractional ranks; a permutation needs 'first' or 'random'")
    xv, zv = _as_vector(x, "x"), _as_vector(z, "z")
    if xv.size != zv.size:
        raise DatasetError(f"x and z must have the same number of records, got {xv.size} and {zv.size}")
    generator = check_rng(rng) if ties == "random" else None
    rx = _ranks_1d(xv, ties, generator, False)
    rz = _ranks_1d(zv, ties, generator, False)
    low, high = rank_intervals(zv)
    if np.all(low == high):                    # Z has no ties: nothing to choose
        return rx, rz
    fixed = (rx >= low) & (rx <= high)
    free = np.flatnonzero(~fixed)
    slots = np.ones(rx.size + 1, dtype=bool)
    slots[0] = False
    slots[rx[fixed]] = False
    result = np.empty_like(rz)
    result[fixed] = rx[fixed]
    # the free records, ordered by their policy rank in Z, take the free ranks in order: tie blocks are
    # runs of consecutive ranks, so each block's free records get the block's free ranks
    result[free[np.argsort(rz[free], kind="stable")]] = np.flatnonzero(slots)
    return rx, result


def spearman(x: ArrayLike, z: ArrayLike) -> float:
    """Spearman's rank correlation between an attribute and its anonymized version.

    Notes
    -----
    Ruiz (2018), Section 3 [2]_: rho = 1 - 6 sum d_i^2 / (n (n^2 - 1)), d_i
    the difference of the ranks of record i; with ties, the Pearson correlation
    of average ranks (which equals that formula when there are none).
    Domingo-Ferrer and Muralidhar (2016), Section 2 [1]_ use it as a
    disclosure-risk measure (the higher, the more risk).

    References
    ----------
    .. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization: permutation paradigm,
       verifiability by subjects and intruders, transparency to users", Information Sciences
       337-338:11-24, 2016.
    .. [2] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization: centrality
       of permutation matrices, universal measures of disclosure risk and information loss, evaluation
       by dominance", Information Sciences, 2018.

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
    rx, rz = _average_ranks(xv), _average_ranks(zv)
    rx -= rx.mean()
    rz -= rz.mean()
    return float(np.dot(rx, rz) / math.sqrt(np.dot(rx, rx) * np.dot(rz, rz)))


