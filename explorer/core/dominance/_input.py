"""Input checks shared by the power-mean measures of Ruiz (2018): vectors, exponents, matrices, domains.

Every check raises one of the explorer's errors naming the parameter and the value received
(see :mod:`explorer._validation` for the checks shared by the whole core).
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from explorer._validation import quote, check_number
from explorer.errors import DomainError, ExplorerTypeError, InvalidParameterError

__all__: list[str] = []


def vector(values: Any, name: str, *, allow_negative: bool = True) -> np.ndarray:
    """A non-empty 1-D vector of finite numbers (the message names ``name`` and what was wrong)."""
    if isinstance(values, (str, bytes)):
        raise ExplorerTypeError(f"{name} must be a vector of numbers, got {quote(values)}")
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ExplorerTypeError(f"{name} must be a vector of numbers, got {quote(values)}") from None
    if array.ndim == 0:
        array = array.reshape(1)
    if array.ndim != 1:
        raise InvalidParameterError(f"{name} must be a vector, got an array of shape {array.shape}")
    if array.size == 0:
        raise InvalidParameterError(f"{name} must not be empty")
    bad = ~np.isfinite(array)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InvalidParameterError(f"{name} must contain finite numbers: entry {i + 1} is {array[i]}")
    if not allow_negative and np.any(array < 0):
        i = int(np.flatnonzero(array < 0)[0])
        raise InvalidParameterError(f"{name} must be non-negative: entry {i + 1} is {array[i]:g}")
    return array


def exponent(value: Any, name: str) -> float:
    """One exponent: a real number or +-inf."""
    return check_number(value, name, allow_inf=True)


def exponents(values: Any, name: str) -> np.ndarray:
    """A non-empty grid of exponents (reals or +-inf, no NaN) as a flat float array."""
    if isinstance(values, (numbers.Real, np.floating, np.integer, str)) and not isinstance(values, bool):
        return np.array([exponent(values, name)])
    try:
        array = np.asarray(values, dtype=float).ravel()
    except (TypeError, ValueError):
        raise ExplorerTypeError(f"{name} must be numbers, got {quote(values)}") from None
    if array.size == 0:
        raise InvalidParameterError(f"{name} must not be empty")
    if np.isnan(array).any():
        raise InvalidParameterError(f"{name} must be numbers, got NaN")
    return array


def check_domain(values: np.ndarray, name: str, *, maximum: float | None = None, minimum: float | None = None,
                 what: str, strict: bool) -> None:
    """Raise :class:`DomainError` when an aversion parameter leaves the paper's domain (unless not strict)."""
    if not strict:
        return
    if maximum is not None and np.any(values > maximum):
        bad = values[values > maximum][0]
        raise DomainError(f"{name} must be <= {maximum:g} for {what}, got {bad:g} "
                          f"(pass strict=False to compute the power mean anyway)")
    if minimum is not None and np.any(values < minimum):
        bad = values[values < minimum][0]
        raise DomainError(f"{name} must be >= {minimum:g} for {what}, got {bad:g} "
                          f"(pass strict=False to compute the power mean anyway)")
