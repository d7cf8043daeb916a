"""Disclosure risk D_j and information loss I_k, their data-set aggregates and curves (Ruiz (2018), Props. 3-7).

Every measure of Ruiz (2018) [1]_ is a power mean (:mod:`explorer.core.dominance.means`) of rank displacements
(:mod:`explorer.core.dominance.displacement`):

* ``D_j(alpha)``: the power mean of ``|r_j|`` for ``alpha <= 1`` (Prop. 3).  The larger ``D_j``,
  the further records moved, the *lower* the disclosure risk; ``alpha`` is the aversion to
  disclosure risk (the more negative, the more the least-moved records count);
* ``TD_j = T_j * D_j(1)`` (Section 3);
* ``I_k(theta)``: the power mean of ``|Delta(r_k)| = |r_j - r_j'|`` for a pair of attributes
  ``k = (j, j')`` and ``theta >= 1`` (Prop. 5): how differently the two attributes were permuted,
  i.e. how much their dependence was altered (information loss);
* ``D(alpha, beta)`` and ``I(theta, pi)``: power means of the ``D_j`` over the ``p`` attributes
  (``beta <= 1``, Prop. 6) and of the ``I_k`` over the ``p(p-1)/2`` pairs (``pi >= 1``, Prop. 7);
* curves of these over a grid of ``alpha`` or ``theta`` (:class:`Curve`), for the dominance
  verdicts of :mod:`explorer.core.dominance`.

Curves use the fact that rank displacements are integers: each distinct ``|r|`` is counted once
(:func:`numpy.bincount`, a :class:`Tally`) and the curve is a weighted power mean of the distinct
values, computed in bounded memory.

Conventions (documentation page "Conventions and errata followed", ``docs/conventions.md``): a zero
displacement counts as ``zero = 1e-8`` in ``D_j`` (the note of Ruiz's Table 3), which is what makes
``alpha <= 0`` meaningful; Table 3's ``alpha = 0.5`` row and Section 4's ``I(1)``, ``I(4)`` are
misprinted, and these functions give the values of the definitions (0.8958, 1.2800; 2.4, 2.5457).

References
----------
.. [1] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization: centrality
   of permutation matrices, universal measures of disclosure risk and information loss, evaluation by
   dominance", Information Sciences, 2018.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from explorer._validation import quote, check_int, check_matrix, check_number
from explorer.core.dominance._input import check_domain as _check_domain
from explorer.core.dominance._input import exponent as _exponent
from explorer.core.dominance._input import exponents as _exponents
from explorer.core.dominance._input import vector as _vector
from explorer.core.dominance.displacement import (
    ZERO_DISPLACEMENT,
    permutation_extent,
    relative_displacement,
    snap_zeros,
)
from explorer.core.dominance.means import _power_means_kernel, column_power_means
from explorer.errors import ExplorerTypeError, InvalidParameterError

__all__ = [
    "disclosure_risk",
    "td",
    "information_loss",
    "overall_disclosure_risk",
    "overall_information_loss",
    "pairwise_information_loss",
    "attribute_pairs",
    "Curve",
    "Tally",
    "tally",
    "tally_differences",
    "risk_curve",
    "loss_curve",
    "overall_risk_curve",
    "overall_loss_curve",
    "alpha_grid",
    "theta_grid",
    "curves_table",
]

def _scale(n: int, normalize: bool) -> float:
    return float(max(n - 1, 1)) if normalize else 1.0


def disclosure_risk(r: ArrayLike, alpha: float, *, zero: float = ZERO_DISPLACEMENT, normalize: bool = False,
                    strict: bool = True) -> float:
    """D_j(alpha): the power mean of the absolute rank displacements of an attribute (Ruiz (2018), Prop. 3).

    Parameters
    ----------
    r : array_like
        Signed rank displacements ``r_j`` (one per record).
    alpha : float
        Aversion to disclosure risk, ``alpha <= 1`` (``-inf`` allowed: the smallest
        displacement).  The more negative, the more the least-moved records count.
    zero : float
        The value a zero displacement takes (the note of Ruiz's Table 3: 1e-8), so that
        ``alpha <= 0`` does not collapse to 0 at once.
    normalize : bool
        Divide by ``n - 1``, the largest possible displacement, for a 0-1 scale.
    strict : bool
        When True (default) ``alpha > 1`` raises :class:`~explorer.errors.DomainError`;
        False computes the power mean anyway.

    Returns
    -------
    float
        The larger, the further records moved: the *lower* the disclosure risk.

    Notes
    -----
    .. math::

        D_j(\\alpha) = \\Big[\\frac{1}{n}\\sum_{i=1}^n |r_{j(i)}|^\\alpha\\Big]^{1/\\alpha},
        \\quad D_j(0) = \\prod_i |r_{j(i)}|^{1/n}, \\quad \\alpha \\le 1.

    References
    ----------
    .. [1] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization:
       centrality of permutation matrices, universal measures of disclosure risk and information
       loss, evaluation by dominance", Information Sciences, 2018 (Prop. 3 and Table 3).

    Computes: Ruiz (2018), Prop. 3; Ruiz (2018), Table 3.

    Examples
    --------
    >>> r2, r3 = [3, 0, 0, 1, -4], [0, 2, 2, -2, -2]
    >>> round(disclosure_risk(r2, 1), 4), round(disclosure_risk(r3, 1), 4)
    (1.6, 1.6)
    >>> round(disclosure_risk(r2, 0.5), 4), round(disclosure_risk(r3, 0.5), 4)   # Ruiz prints 0.97, 1.06
    (0.8958, 1.28)
    """
    a = _exponent(alpha, "alpha")
    return float(risk_curve(r, [a], zero=zero, normalize=normalize, strict=strict).values[0])


def td(r: ArrayLike, *, zero: float = ZERO_DISPLACEMENT, normalize: bool = False) -> float:
    """TD_j = T_j * D_j(1): the mean displacement discounted by the share of unmoved records (Ruiz (2018), Section 3).

    Notes
    -----
    .. math:: TD_j = T_j \\cdot D_j(1)

    References
    ----------
    .. [1] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization:
       centrality of permutation matrices, universal measures of disclosure risk and information
       loss, evaluation by dominance", Information Sciences, 2018 (Section 3).

    Examples
    --------
    >>> round(td([3, 0, 0, 1, -4]), 4), round(td([0, 2, 2, -2, -2]), 4)
    (0.96, 1.28)
    """
    return permutation_extent(_vector(r, "r")) * disclosure_risk(r, 1.0, zero=zero, normalize=normalize)


def information_loss(r_a: ArrayLike, r_b: ArrayLike, theta: float, *, normalize: bool = False,
                     strict: bool = True) -> float:
    """I_k(theta): the power mean of the relative displacements of two attributes (Ruiz (2018), Prop. 5).

    Parameters
    ----------
    r_a, r_b : array_like
        Signed rank displacements of attributes ``j`` and ``j'`` (same length).
    theta : float
        Aversion to information loss, ``theta >= 1`` (``inf``: the largest
        relative displacement).
    normalize : bool
        Divide by ``n - 1`` (the largest possible ``|r_j - r_j'|``) for a 0-1 scale.
    strict : bool
        When True (default) ``theta < 1`` raises :class:`~explorer.errors.DomainError`.

    Notes
    -----
    On the signed difference ``Delta(r_k) = r_j - r_j'``:

    .. math::

        I_k(\\theta) = \\Big[\\frac{1}{n}\\sum_{i=1}^n |\\Delta r_{k(i)}|^\\theta\\Big]^{1/\\theta},
        \\quad \\theta \\ge 1.

    References
    ----------
    .. [1] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization:
       centrality of permutation matrices, universal measures of disclosure risk and information
       loss, evaluation by dominance", Information Sciences, 2018 (Prop. 5).

    Computes: Ruiz (2018), Prop. 5.

    Examples
    --------
    >>> r2, r3 = [3, 0, 0, 1, -4], [0, 2, 2, -2, -2]
    >>> [round(information_loss(r2, r3, t), 4) for t in (1, 4, np.inf)]   # Ruiz prints 2 and 2.49
    [2.4, 2.5457, 3.0]
    """
    t = _exponent(theta, "theta")
    return float(loss_curve(r_a, r_b, [t], normalize=normalize, strict=strict).values[0])


# ---------------------------------------------------------------------------------- data-set level
def overall_disclosure_risk(risks: ArrayLike, beta: float, *, strict: bool = True) -> np.ndarray | float:
    """D(alpha, beta): the power mean over attributes of their D_j(alpha) (Ruiz (2018), Prop. 6).

    Parameters
    ----------
    risks : array_like
        ``D_j(alpha)`` of the ``p`` attributes: a vector, or a ``p x g`` array (one
        column per alpha of a grid), which gives one value per column.
    beta : float
        ``beta <= 1``: the lower, the more the least protected attribute counts.

    Notes
    -----
    .. math::

        D(\\alpha, \\beta) = \\Big[\\frac{1}{p}\\sum_{j=1}^p D_j(\\alpha)^\\beta\\Big]^{1/\\beta},
        \\quad D(\\alpha, 0) = \\prod_j D_j(\\alpha)^{1/p}, \\quad \\beta \\le 1.

    References
    ----------
    .. [1] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization:
       centrality of permutation matrices, universal measures of disclosure risk and information
       loss, evaluation by dominance", Information Sciences, 2018 (Prop. 6).

    Computes: Ruiz (2018), Prop. 6.

    Examples
    --------
    >>> round(overall_disclosure_risk([1e-8, 1.6, 1.6], 1), 4)
    1.0667
    """
    b = _exponent(beta, "beta")
    _check_domain(np.array([b]), "beta", maximum=1.0, what="overall disclosure risk D(alpha, beta)",
                  strict=strict)
    return _aggregate(risks, b, "risks", minimum_rows=1)


def overall_information_loss(losses: ArrayLike, pi: float, *, strict: bool = True) -> np.ndarray | float:
    """I(theta, pi): the power mean over the p(p-1)/2 attribute pairs of their I_k(theta) (Ruiz (2018), Prop. 7).

    Parameters
    ----------
    losses : array_like
        ``I_k(theta)`` of the ``p(p-1)/2`` pairs of ``p >= 2`` attributes (see
        :func:`pairwise_information_loss`): a vector, or a ``pairs x g`` array.
    pi : float
        ``pi >= 1``: the higher, the more the least preserved pair counts.

    Notes
    -----
    Ruiz (2018) writes ``j(j-1)/2`` for the number of pairs; it is ``p(p-1)/2``:

    .. math::

        I(\\theta, \\pi) = \\Big[\\frac{2}{p(p-1)}\\sum_{k=1}^{p(p-1)/2} I_k(\\theta)^\\pi\\Big]^{1/\\pi},
        \\quad \\pi \\ge 1.

    References
    ----------
    .. [1] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization:
       centrality of permutation matrices, universal measures of disclosure risk and information
       loss, evaluation by dominance", Information Sciences, 2018 (Prop. 7).

    Computes: Ruiz (2018), Prop. 7.

    Examples
    --------
    >>> round(overall_information_loss([0.0, 0.0, 2.4], 1), 4)     # three attributes
    0.8
    """
    q = _exponent(pi, "pi")
    _check_domain(np.array([q]), "pi", minimum=1.0, what="overall information loss I(theta, pi)", strict=strict)
    array = np.asarray(losses, dtype=float) if not isinstance(losses, (str, bytes)) else None
    count = 0 if array is None or array.ndim == 0 else array.shape[0]
    p = int(round((1 + math.sqrt(1 + 8 * count)) / 2)) if count else 0
    if count == 0 or p * (p - 1) // 2 != count:
        raise InvalidParameterError(
            f"losses must hold I_k for all p(p-1)/2 pairs of p >= 2 attributes, got {count} value(s): "
            f"the overall information loss needs at least two attributes")
    return _aggregate(losses, q, "losses", minimum_rows=1)


def _aggregate(values: ArrayLike, exponent: float, name: str, minimum_rows: int) -> np.ndarray | float:
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ExplorerTypeError(f"{name} must be numbers, got {quote(values)}") from None
    if array.ndim == 1:
        x = _vector(array, name, allow_negative=False)
        return float(_power_means_kernel(x, np.ones_like(x), np.array([exponent]))[0])
    if array.ndim != 2 or array.shape[0] < minimum_rows or array.shape[1] == 0:
        raise InvalidParameterError(f"{name} must be a vector or a 2-D array, got shape {array.shape}")
    if not np.all(np.isfinite(array)) or np.any(array < 0):
        raise InvalidParameterError(f"{name} must be non-negative finite numbers")
    return column_power_means(array, exponent)


def attribute_pairs(n_attributes: int) -> list[tuple[int, int]]:
    """The p(p-1)/2 pairs ``(j, j')``, ``j < j'``, in the order the pairwise functions use.

    Examples
    --------
    >>> attribute_pairs(3)
    [(0, 1), (0, 2), (1, 2)]
    """
    return [(j, k) for j in range(n_attributes) for k in range(j + 1, n_attributes)]


def pairwise_information_loss(displacements: ArrayLike, theta: float, *, normalize: bool = False,
                              strict: bool = True) -> np.ndarray:
    """I_k(theta) for every pair of columns of an ``n x p`` displacement matrix (order: :func:`attribute_pairs`).

    References
    ----------
    .. [1] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization:
       centrality of permutation matrices, universal measures of disclosure risk and information
       loss, evaluation by dominance", Information Sciences, 2018 (Prop. 5).

    Computes: Ruiz (2018), Prop. 5.

    Examples
    --------
    >>> R = np.array([[0, 3, 0], [0, 0, 2], [0, 0, 2], [0, 1, -2], [0, -4, -2]])
    >>> pairwise_information_loss(R, 1).round(4).tolist()
    [1.6, 1.6, 2.4]
    """
    R = check_matrix(displacements, "displacements")
    if R.shape[1] < 2:
        raise InvalidParameterError(f"displacements must have at least two attributes (columns) for I_k, "
                                    f"got {R.shape[1]}")
    t = _exponent(theta, "theta")
    return np.array([information_loss(R[:, j], R[:, k], t, normalize=normalize, strict=strict)
                     for j, k in attribute_pairs(R.shape[1])])


# ------------------------------------------------------------------------------------------- curves
@dataclass(frozen=True)
class Curve:
    """A risk curve D(alpha) or a loss curve I(theta) over a grid of its aversion parameter.

    ``kind`` is ``"risk"`` (higher is better: more protection) or ``"loss"``
    (lower is better); ``grid`` holds alpha or theta, ``values`` the measure.
    """

    kind: str
    grid: np.ndarray
    values: np.ndarray
    label: str = ""
    normalized: bool = False

    @property
    def parameter(self) -> str:
        return "alpha" if self.kind == "risk" else "theta"

    def to_rows(self) -> list[dict[str, Any]]:
        """One dict per grid point (for CSV export)."""
        return [{"label": self.label, "kind": self.kind, self.parameter: float(g), "value": float(v)}
                for g, v in zip(self.grid, self.values)]


@dataclass(frozen=True)
class Tally:
    """Distinct absolute displacements and how many records have each (the fast path's input).

    Made once per attribute (:func:`tally`) or pair (:func:`tally_differences`), it
    lets a panel evaluate D_j or I_k at new exponents without touching the n records.
    """

    values: np.ndarray
    counts: np.ndarray
    n: int


def tally(r: ArrayLike) -> Tally:
    """The distinct |r_j| and their counts (``numpy.bincount`` for integer displacements).

    Examples
    --------
    >>> t = tally([3, 0, 0, 1, -4])
    >>> t.values.tolist(), t.counts.tolist(), t.n
    ([0.0, 1.0, 3.0, 4.0], [2.0, 1.0, 1.0, 1.0], 5)
    """
    array = r if isinstance(r, np.ndarray) else None
    if array is not None and array.dtype.kind in "iu" and array.ndim == 1 and array.size:
        # Integer displacements (the usual case): one pass of abs and one bincount, no float copies.
        counts = np.bincount(np.abs(array))
        values = np.flatnonzero(counts)
        return Tally(values.astype(float), counts[values].astype(float), array.size)
    a = np.abs(snap_zeros(r, "r"))
    values, counts = _distinct(a)
    return Tally(values, counts, a.size)


def tally_differences(r_a: ArrayLike, r_b: ArrayLike) -> Tally:
    """The distinct |r_j - r_j'| of a pair of attributes and their counts (Ruiz (2018), Prop. 5: the absolute values of Delta(r_k), see
    :func:`explorer.core.dominance.displacement.relative_displacement`).

    References
    ----------
    .. [1] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization:
       centrality of permutation matrices, universal measures of disclosure risk and information
       loss, evaluation by dominance", Information Sciences, 2018 (Prop. 5).

    Examples
    --------
    >>> tally_differences([3, 0, 0, 1, -4], [0, 2, 2, -2, -2]).values.tolist()
    [2.0, 3.0]
    """
    delta = relative_displacement(r_a, r_b)
    values, counts = _distinct(np.abs(delta))
    return Tally(values, counts, delta.size)


def _distinct(abs_values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct values and their counts: bincount for integers, unique otherwise."""
    if abs_values.size and abs_values.max() <= 2 ** 31 and np.all(abs_values == np.floor(abs_values)):
        counts = np.bincount(abs_values.astype(np.int64))
        values = np.flatnonzero(counts)
        return values.astype(float), counts[values].astype(float)
    values, counts = np.unique(abs_values, return_counts=True)
    return values, counts.astype(float)


def risk_curve(r: ArrayLike | Tally, alphas: ArrayLike, *, zero: float = ZERO_DISPLACEMENT, normalize: bool = False,
               strict: bool = True, label: str = "") -> Curve:
    """D_j(alpha) over a grid of alphas, each distinct |r| counted once (Ruiz (2018), Prop. 3).

    Rank displacements are integers: ``numpy.bincount`` gives the distinct values
    and their counts, and the curve is a weighted power mean of the distinct values,
    so a 200-point curve costs O(n + distinct x grid), not O(n x grid).  Non-integer
    displacements fall back to :func:`numpy.unique`.  ``r`` may be a :class:`Tally`
    made once (:func:`tally`), which skips the O(n) step.

    Notes
    -----
    .. math::

        D_j(\\alpha) = \\Big[\\sum_v \\frac{c_v}{n} v^\\alpha\\Big]^{1/\\alpha},
        \\quad c_v = \\#\\{i : |r_{j(i)}| = v\\}.

    References
    ----------
    .. [1] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization:
       centrality of permutation matrices, universal measures of disclosure risk and information
       loss, evaluation by dominance", Information Sciences, 2018 (Prop. 3).

    Computes: Ruiz (2018), Prop. 3.

    Examples
    --------
    >>> risk_curve([0, 2, 2, -2, -2], [-4, 0.5, 1]).values.round(4).tolist()
    [0.0, 1.28, 1.6]
    """
    counted = r if isinstance(r, Tally) else tally(r)
    grid = _exponents(alphas, "alphas")
    _check_domain(grid, "alpha", maximum=1.0, what="disclosure risk D_j(alpha)", strict=strict)
    z = check_number(zero, "zero", minimum=0.0)
    values = np.where(counted.values == 0, z, counted.values)
    curve = _power_means_kernel(values, counted.counts, grid) / _scale(counted.n, normalize)
    return Curve("risk", grid, curve, label, normalize)


def loss_curve(r_a: ArrayLike | Tally, r_b: ArrayLike | None, thetas: ArrayLike, *, normalize: bool = False, strict: bool = True,
               label: str = "") -> Curve:
    """I_k(theta) over a grid of thetas on ``|r_a - r_b|``, each distinct value counted once (Ruiz (2018), Prop. 5).

    ``r_a`` may be a :class:`Tally` of the differences (from :func:`tally_differences`)
    with ``r_b=None``.

    References
    ----------
    .. [1] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization:
       centrality of permutation matrices, universal measures of disclosure risk and information
       loss, evaluation by dominance", Information Sciences, 2018 (Prop. 5).

    Computes: Ruiz (2018), Prop. 5.

    Examples
    --------
    >>> loss_curve([3, 0, 0, 1, -4], [0, 2, 2, -2, -2], [1, np.inf]).values.tolist()
    [2.4, 3.0]
    """
    counted = r_a if isinstance(r_a, Tally) and r_b is None else tally_differences(r_a, r_b)
    grid = _exponents(thetas, "thetas")
    _check_domain(grid, "theta", minimum=1.0, what="information loss I_k(theta)", strict=strict)
    curve = _power_means_kernel(counted.values, counted.counts, grid) / _scale(counted.n, normalize)
    return Curve("loss", grid, curve, label, normalize)


def overall_risk_curve(displacements: ArrayLike, alphas: ArrayLike, beta: float, *,
                       zero: float = ZERO_DISPLACEMENT, normalize: bool = False, label: str = "") -> Curve:
    """D(alpha, beta) over a grid of alphas for an ``n x p`` displacement matrix (Ruiz (2018), Prop. 6).

    References
    ----------
    .. [1] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization:
       centrality of permutation matrices, universal measures of disclosure risk and information
       loss, evaluation by dominance", Information Sciences, 2018 (Prop. 6).

    Computes: Ruiz (2018), Prop. 6.

    Examples
    --------
    >>> R = np.array([[0, 3, 0], [0, 0, 2], [0, 0, 2], [0, 1, -2], [0, -4, -2]])
    >>> overall_risk_curve(R, [1], 1).values.round(4).tolist()
    [1.0667]
    """
    R = check_matrix(displacements, "displacements")
    curves = np.array([risk_curve(R[:, j], alphas, zero=zero, normalize=normalize).values
                       for j in range(R.shape[1])])
    grid = _exponents(alphas, "alphas")
    return Curve("risk", grid, np.atleast_1d(overall_disclosure_risk(curves, beta)), label, normalize)


def overall_loss_curve(displacements: ArrayLike, thetas: ArrayLike, pi: float, *, normalize: bool = False,
                       label: str = "") -> Curve:
    """I(theta, pi) over a grid of thetas for an ``n x p`` displacement matrix, ``p >= 2`` (Ruiz (2018), Prop. 7).

    References
    ----------
    .. [1] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization:
       centrality of permutation matrices, universal measures of disclosure risk and information
       loss, evaluation by dominance", Information Sciences, 2018 (Prop. 7).

    Computes: Ruiz (2018), Prop. 7.

    Examples
    --------
    >>> R = np.array([[0, 3, 0], [0, 0, 2], [0, 0, 2], [0, 1, -2], [0, -4, -2]])
    >>> overall_loss_curve(R, [1], 1).values.round(4).tolist()
    [1.8667]
    """
    R = check_matrix(displacements, "displacements")
    if R.shape[1] < 2:
        raise InvalidParameterError(f"displacements must have at least two attributes for I(theta, pi), "
                                    f"got {R.shape[1]}")
    curves = np.array([loss_curve(R[:, j], R[:, k], thetas, normalize=normalize).values
                       for j, k in attribute_pairs(R.shape[1])])
    grid = _exponents(thetas, "thetas")
    return Curve("loss", grid, np.atleast_1d(overall_information_loss(curves, pi)), label, normalize)


def alpha_grid(minimum: float = -10.0, n_points: int = 200, *, include_minus_inf: bool = False) -> np.ndarray:
    """An evenly spaced grid of alphas from ``minimum`` to 1 (and -inf first on request).

    Examples
    --------
    >>> alpha_grid(-2, 4).tolist()
    [-2.0, -1.0, 0.0, 1.0]
    """
    low = check_number(minimum, "alpha minimum", maximum=1.0, include_maximum=False)
    count = check_int(n_points, "n_points", minimum=2)
    grid = np.linspace(low, 1.0, count)
    return np.concatenate([[-np.inf], grid]) if include_minus_inf else grid


def theta_grid(maximum: float = 10.0, n_points: int = 200, *, include_inf: bool = False) -> np.ndarray:
    """An evenly spaced grid of thetas from 1 to ``maximum`` (and +inf last on request).

    Examples
    --------
    >>> theta_grid(4, 4).tolist()
    [1.0, 2.0, 3.0, 4.0]
    """
    high = check_number(maximum, "theta maximum", minimum=1.0, include_minimum=False)
    count = check_int(n_points, "n_points", minimum=2)
    grid = np.linspace(1.0, high, count)
    return np.concatenate([grid, [np.inf]]) if include_inf else grid


def curves_table(curves: Sequence[Curve], verdicts: Sequence[str] = ()):
    """Curves (and verdict sentences) as one long table for CSV export.

    Columns: ``kind`` (risk, loss or verdict), ``label``, ``parameter`` (alpha or
    theta), ``value``, ``text``.

    Examples
    --------
    >>> table = curves_table([risk_curve([3, 0, 0, 1, -4], [0.5, 1], label="r2")], ["r2 only"])
    >>> table[["kind", "label", "parameter"]].values.tolist()[1:]
    [['risk', 'r2', 1.0], ['verdict', '', nan]]
    """
    rows = [{"kind": c.kind, "label": c.label, "parameter": float(g), "value": float(v), "text": ""}
            for c in curves for g, v in zip(c.grid, c.values)]
    rows += [{"kind": "verdict", "label": "", "parameter": np.nan, "value": np.nan, "text": t} for t in verdicts]
    return pd.DataFrame(rows, columns=["kind", "label", "parameter", "value", "text"])
