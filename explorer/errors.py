"""The explorer's error types.

Every error the explorer raises on bad input is an :class:`ExplorerError`, a
``ValueError`` (or, for a value of the wrong kind, :class:`ExplorerTypeError`,
a ``TypeError``).  Messages name the parameter and the value received, so a
panel can show them to a person as they are.
"""

from __future__ import annotations

__all__ = [
    "ExplorerError",
    "ExplorerTypeError",
    "InvalidParameterError",
    "InvalidMatrixError",
    "InvalidDistributionError",
    "SingularMatrixError",
    "DatasetError",
    "DomainError",
    "ConfigurationError",
    "CancelledError",
]


class ExplorerError(ValueError):
    """Base class of every error the explorer raises on bad input."""


class ExplorerTypeError(TypeError, ExplorerError):
    """A parameter of the wrong kind (text where a number is expected, ...)."""


class InvalidParameterError(ExplorerError):
    """A scalar parameter outside its domain (epsilon < 0, k < 1, p > 1, ...)."""


class InvalidMatrixError(ExplorerError):
    """A matrix that is not a valid RR/PRAM (row-stochastic) matrix."""


class InvalidDistributionError(ExplorerError):
    """A probability vector or weight vector that is not valid."""


class SingularMatrixError(ExplorerError):
    """A matrix that cannot be inverted where an inversion is required."""


class DatasetError(ExplorerError):
    """A data set that cannot be loaded or used (bad CSV, missing column, ...)."""


class DomainError(ExplorerError):
    """A parameter outside the domain a paper defines a measure on (alpha > 1 for risk, ...)."""


class ConfigurationError(ExplorerError):
    """An exported configuration that cannot be loaded back."""


class CancelledError(ExplorerError):
    """Long work cancelled by the user; what was done so far is kept by the caller."""
