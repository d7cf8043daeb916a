"""Shared input checks.

Each check returns the cleaned value (a float, an int, a numpy array) or raises
one of the explorer's errors with a message that names the parameter and the
value received, e.g. ``epsilon must be a non-negative number, got -1``.
"""

from __future__ import annotations

import math
import numbers
from typing import Any, Sequence

import numpy as np

from explorer.errors import (
    DatasetError,
    ExplorerTypeError,
    InvalidDistributionError,
    InvalidMatrixError,
    InvalidParameterError,
)

__all__ = [
    "check_number",
    "check_epsilon",
    "check_probability",
    "check_int",
    "check_distribution",
    "check_weights",
    "check_rr_matrix",
    "check_rng",
    "check_matrix",
    "ROW_SUM_TOLERANCE",
]

#: Rows of an RR matrix must sum to 1 within this tolerance (the matrix convention of docs/conventions.md).
ROW_SUM_TOLERANCE = 1e-9


#: How many characters of a refused value a message quotes.
QUOTE_CHARS = 60


def quote(value: Any, limit: int = QUOTE_CHARS) -> str:
    """``repr(value)`` cut to ``limit`` characters: how a message quotes a refused value (never a whole input)."""
    try:
        text = repr(value)
    except Exception:  # a value whose repr fails is still described
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check_number(
    value: Any,
    name: str,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    include_minimum: bool = True,
    include_maximum: bool = True,
    allow_inf: bool = False,
) -> float:
    """Return ``value`` as a float, checking it is a real number within bounds."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, np.floating, np.integer)):
        if isinstance(value, str):
            try:
                value = float(value.strip())
            except ValueError:
                raise ExplorerTypeError(f"{name} must be a number, got {quote(value)}") from None
        else:
            raise ExplorerTypeError(f"{name} must be a number, got {quote(value)}")
    number = float(value)
    if math.isnan(number):
        raise InvalidParameterError(f"{name} must be a number, got NaN")
    if math.isinf(number) and not allow_inf:
        raise InvalidParameterError(f"{name} must be finite, got {number}")
    if minimum is not None and (number < minimum or (number == minimum and not include_minimum)):
        bound = ">=" if include_minimum else ">"
        raise InvalidParameterError(f"{name} must be {bound} {minimum:g}, got {quote(value)}")
    if maximum is not None and (number > maximum or (number == maximum and not include_maximum)):
        bound = "<=" if include_maximum else "<"
        raise InvalidParameterError(f"{name} must be {bound} {maximum:g}, got {quote(value)}")
    return number


def check_epsilon(value: Any, name: str = "epsilon", *, allow_inf: bool = True, allow_zero: bool = True) -> float:
    """A privacy parameter epsilon: a non-negative real number (infinity allowed by default)."""
    return check_number(value, name, minimum=0.0, include_minimum=allow_zero, allow_inf=allow_inf)


def check_probability(value: Any, name: str = "p", *, allow_zero: bool = True, allow_one: bool = True) -> float:
    """A probability in [0, 1] (either end excluded on request)."""
    return check_number(value, name, minimum=0.0, maximum=1.0, include_minimum=allow_zero, include_maximum=allow_one)


def check_int(value: Any, name: str, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """An integer within bounds (a float with an integral value is accepted)."""
    if isinstance(value, bool):
        raise ExplorerTypeError(f"{name} must be an integer, got {quote(value)}")
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            raise ExplorerTypeError(f"{name} must be an integer, got {quote(value)}") from None
    if isinstance(value, (numbers.Integral, np.integer)):
        number = int(value)
    elif isinstance(value, (numbers.Real, np.floating)) and float(value).is_integer():
        number = int(value)
    else:
        raise ExplorerTypeError(f"{name} must be an integer, got {quote(value)}")
    if minimum is not None and number < minimum:
        raise InvalidParameterError(f"{name} must be >= {minimum}, got {number}")
    if maximum is not None and number > maximum:
        raise InvalidParameterError(f"{name} must be <= {maximum}, got {number}")
    return number


def as_float_array(value: Any, name: str, ndim: int) -> np.ndarray:
    """``value`` as a float array of ``ndim`` dimensions, refused in words (naming ``name``) otherwise."""
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ExplorerTypeError(f"{name} must be an array of numbers, got {quote(value)}") from None
    if array.ndim != ndim:
        shape = "a vector" if ndim == 1 else "a 2-D matrix"
        raise InvalidParameterError(f"{name} must be {shape}, got an array of shape {array.shape}")
    return array


def check_weights(value: Any, name: str = "weights", *, size: int | None = None) -> np.ndarray:
    """Non-negative finite weights, not all zero, returned as a float vector (not normalised)."""
    weights = as_float_array(value, name, 1)
    if weights.size == 0:
        raise InvalidDistributionError(f"{name} must not be empty")
    if size is not None and weights.size != size:
        raise InvalidDistributionError(f"{name} must have {size} entries, got {weights.size}")
    if not np.all(np.isfinite(weights)):
        raise InvalidDistributionError(f"{name} must be finite numbers, got {np.array2string(weights, precision=4)}")
    if np.any(weights < 0):
        i = int(np.flatnonzero(weights < 0)[0])
        raise InvalidDistributionError(f"{name} must be non-negative: entry {i + 1} is {weights[i]:g}")
    if not np.any(weights > 0):
        raise InvalidDistributionError(f"{name} must not be all zero")
    return weights


def check_distribution(value: Any, name: str = "prior", *, size: int | None = None, normalize: bool = False,
                       tolerance: float = 1e-9) -> np.ndarray:
    """A probability vector: non-negative, summing to 1 (or rescaled to 1 when ``normalize``)."""
    weights = check_weights(value, name, size=size)
    total = weights.sum()
    if normalize:
        return weights / total
    if abs(total - 1.0) > tolerance:
        raise InvalidDistributionError(f"{name} must sum to 1, got a sum of {total:.6g}")
    return weights


def check_rr_matrix(matrix: Any, name: str = "matrix", *, tolerance: float = ROW_SUM_TOLERANCE) -> np.ndarray:
    """A row-stochastic RR/PRAM matrix ``P[u, v] = Pr(Y = v | X = u)`` (Domingo-Ferrer and Soria-Comas 2018, Eq. 1).

    Square, entries finite in [0, 1], each row summing to 1 within ``tolerance``.
    The error message names the first offending row (1-based) and its sum.
    """
    p = as_float_array(matrix, name, 2)
    rows, cols = p.shape
    if rows != cols:
        raise InvalidMatrixError(f"{name} must be square, got {rows} rows and {cols} columns")
    if rows < 2:
        raise InvalidMatrixError(f"{name} must have at least 2 categories, got {rows}")
    if not np.all(np.isfinite(p)):
        u, v = np.argwhere(~np.isfinite(p))[0]
        raise InvalidMatrixError(f"{name} must contain numbers only: row {u + 1}, column {v + 1} is {p[u, v]}")
    if np.any(p < 0) or np.any(p > 1):
        u, v = np.argwhere((p < 0) | (p > 1))[0]
        raise InvalidMatrixError(
            f"{name} entries must be probabilities in [0, 1]: row {u + 1}, column {v + 1} is {p[u, v]:g}")
    sums = p.sum(axis=1)
    bad = np.flatnonzero(np.abs(sums - 1.0) > tolerance)
    if bad.size:
        u = int(bad[0])
        raise InvalidMatrixError(f"{name} row {u + 1} sums to {sums[u]:.6g}, not 1")
    return p


def check_rng(rng: Any, name: str = "rng") -> np.random.Generator:
    """A numpy Generator from a Generator, an int seed or None (fresh entropy)."""
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or (isinstance(rng, (numbers.Integral, np.integer)) and not isinstance(rng, bool)):
        if rng is not None and int(rng) < 0:
            raise InvalidParameterError(f"{name} seed must be a non-negative integer, got {rng}")
        return np.random.default_rng(rng)
    raise ExplorerTypeError(f"{name} must be a numpy Generator or an integer seed, got {quote(rng)}")


def check_matrix(value: Any, name: str = "X", *, columns: Sequence[str] | None = None, allow_missing: bool = False,
                 hint: str = "drop or fill them first") -> np.ndarray:
    """A data set as an (n, m) float array: records x attributes (a vector is one attribute).

    Refuses values that are not numbers (:class:`ExplorerTypeError`), arrays
    of more than two dimensions (:class:`InvalidParameterError`), no record or
    no attribute, infinite values and, unless ``allow_missing``, missing values
    (NaN) (:class:`DatasetError`, naming the column and how many values).

    Parameters
    ----------
    value : array_like
        The data.
    name : str
        The parameter's name, used in messages.
    columns : sequence of str, optional
        Column names for the messages (default: column numbers from 1).
    allow_missing : bool
        Keep NaN (the caller has a missing-value policy).
    hint : str
        What the message about missing values suggests.

    Returns
    -------
    numpy.ndarray
        A float64 array of shape (n, m); a copy only when the input is not
        already one.

    Examples
    --------
    >>> check_matrix([1, 2, 3]).shape
    (3, 1)
    >>> check_matrix([[1.0, float("nan")]])
    Traceback (most recent call last):
    ...
    explorer.errors.DatasetError: X column 2 has 1 missing or infinite values; drop or fill them first
    """
    try:
        matrix = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ExplorerTypeError(f"{name} must be a numeric array, got {quote(value)}") from None
    if matrix.ndim == 1:
        matrix = matrix[:, None]
    if matrix.ndim != 2:
        raise InvalidParameterError(f"{name} must be a 2-D array (records x attributes), got shape {matrix.shape}")
    if matrix.shape[0] == 0:
        raise DatasetError(f"{name} has no records")
    if matrix.shape[1] == 0:
        raise DatasetError(f"{name} has no attributes")
    bad = np.isinf(matrix) if allow_missing else ~np.isfinite(matrix)
    if bad.any():
        counts = bad.sum(axis=0)
        j = int(np.flatnonzero(counts)[0])
        label = repr(str(columns[j])) if columns is not None else str(j + 1)
        what = "infinite values" if allow_missing else f"missing or infinite values; {hint}"
        raise DatasetError(f"{name} column {label} has {int(counts[j])} {what}")
    return matrix
