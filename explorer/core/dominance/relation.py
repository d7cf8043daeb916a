"""Dominance of one masking over another in disclosure risk and in information (Ruiz (2018), Defs. 2 and 4).

Method A dominates B [1]_ in disclosure risk when its ``D_j(alpha)`` is at least B's for every
``alpha <= 1`` (Def. 2), and in information when its ``I_k(theta)`` is at most B's for every
``theta >= 1`` (Def. 4).  :func:`dominance` compares two curves and says who is better where, with
the crossings.

This module is also the one-stop import of the whole power-mean toolkit (every name below stays
importable from here); each concept lives in its own module:

* :mod:`explorer.core.dominance.displacement`: rank displacements r_j, the permutation extent T_j and the
  difference vector Delta(r_k) (Section 3, Props. 2 and 5);
* :mod:`explorer.core.dominance.means`: power means for every exponent, in log space;
* :mod:`explorer.core.dominance.risk_loss`: D_j, TD_j, I_k, D(alpha, beta), I(theta, pi) and their curves
  (Props. 3 and 5-7);
* this module: dominance verdicts and crossings (Defs. 2 and 4);
* :mod:`explorer.core.dominance.calibration`: the calibration view of Domingo-Ferrer and Soria-Comas (2018),
  Section VI-B [2]_.

The conventions and errata followed are listed in the documentation page "Conventions and errata
followed" (``docs/conventions.md``).

References
----------
.. [1] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization: centrality
   of permutation matrices, universal measures of disclosure risk and information loss, evaluation by
   dominance", Information Sciences, 2018.
.. [2] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
   differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from explorer._validation import check_number
from explorer.core.dominance.calibration import (
    CalibrationPoint,
    best_calibration,
    calibration_path,
    calibration_point,
    sample_records,
)
from explorer.core.dominance.displacement import (
    DISPLACEMENT_CONVENTIONS,
    ZERO_DISPLACEMENT,
    displacement_matrix,
    displacements_from_matrix,
    masked_displacements,
    permutation_extent,
    relative_displacement,
)
from explorer.core.dominance.means import power_mean, power_means
from explorer.core.dominance.risk_loss import (
    Curve,
    Tally,
    alpha_grid,
    attribute_pairs,
    curves_table,
    disclosure_risk,
    information_loss,
    loss_curve,
    overall_disclosure_risk,
    overall_information_loss,
    overall_loss_curve,
    overall_risk_curve,
    pairwise_information_loss,
    risk_curve,
    tally,
    tally_differences,
    td,
    theta_grid,
)
from explorer.errors import ExplorerTypeError, InvalidParameterError

__all__ = [
    "ZERO_DISPLACEMENT",
    "power_mean",
    "power_means",
    "permutation_extent",
    "displacements_from_matrix",
    "relative_displacement",
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
    "Segment",
    "DominanceResult",
    "dominance",
    "CalibrationPoint",
    "calibration_point",
    "best_calibration",
    "DISPLACEMENT_CONVENTIONS",
    "displacement_matrix",
    "masked_displacements",
    "calibration_path",
    "sample_records",
    "curves_table",
]


@dataclass(frozen=True)
class Segment:
    """A stretch of the grid, ``[start, end]``, where one side is better (``"A"``, ``"B"`` or ``"equal"``)."""

    start: float
    end: float
    better: str


@dataclass(frozen=True)
class DominanceResult:
    """The verdict of comparing two curves (Ruiz (2018), Defs. 2 and 4).

    ``verdict`` is ``"A dominates"``, ``"B dominates"``, ``"equal"`` or ``"cross"``;
    ``crossings`` are the parameter values where the better side changes
    (interpolated linearly between grid points); ``segments`` say who is better where.

    References
    ----------
    .. [1] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization:
       centrality of permutation matrices, universal measures of disclosure risk and information
       loss, evaluation by dominance", Information Sciences, 2018 (Defs. 2 and 4).
    """

    verdict: str
    kind: str
    crossings: tuple[float, ...]
    segments: tuple[Segment, ...]
    grid_min: float
    grid_max: float
    tolerance: float = 1e-9

    @property
    def parameter(self) -> str:
        return "alpha" if self.kind == "risk" else "theta"

    def sentence(self, label_a: str = "A", label_b: str = "B", *, number: Callable[[float], str] | None = None) -> str:
        """The verdict in words, e.g. ``"rank swap 10 dominates noise 0.5 for every ... down to alpha = -10"``.

        ``number(value)`` writes each number (default: 3 significant digits, 4 from 1000).
        """
        _num = number or _number
        sym = "α" if self.kind == "risk" else "θ"
        if self.kind == "risk":
            scope = f"every disclosure-risk aversion from {sym} = 1 down to {sym} = {_num(self.grid_min)}"
            better = "protects better (larger D)"
        else:
            scope = f"every information-loss aversion from {sym} = 1 up to {sym} = {_num(self.grid_max)}"
            better = "loses less information (smaller I)"
        if self.verdict == "equal":
            return f"{label_a} and {label_b} are equal for {scope}."
        if self.verdict == "A dominates":
            return f"{label_a} dominates {label_b} for {scope}."
        if self.verdict == "B dominates":
            return f"{label_b} dominates {label_a} for {scope}."
        where = ", ".join(f"{sym} = {_num(c)}" for c in self.crossings)
        parts = []
        for seg in self.segments:
            if seg.better == "equal":
                continue
            name = label_a if seg.better == "A" else label_b
            parts.append(f"{name} {better} for {sym} in [{_num(seg.start)}, {_num(seg.end)}]")
        crosses = "cross at" if len(self.crossings) == 1 else f"cross {len(self.crossings)} times, at"
        return f"Neither dominates: {label_a} and {label_b} {crosses} {where}; " + "; ".join(parts) + "."


def _number(value: float) -> str:
    if math.isinf(value):
        return "∞" if value > 0 else "-∞"
    return f"{value:.3g}" if abs(value) < 1000 else f"{value:.4g}"


def dominance(curve_a: Curve, curve_b: Curve, *, tolerance: float = 1e-9) -> DominanceResult:
    """Whether A dominates B, B dominates A, they are equal, or they cross, and where (Ruiz (2018), Defs. 2 and 4).

    Parameters
    ----------
    curve_a, curve_b : Curve
        Two risk curves or two loss curves on the same grid (:func:`risk_curve`,
        :func:`loss_curve` or their overall versions).
    tolerance : float
        Differences up to ``tolerance * (1 + max |value|)`` count as equal.

    Notes
    -----
    Risk (Def. 2): A dominates B when ``D_A(alpha) >= D_B(alpha)`` for every
    ``alpha <= 1`` of the grid (more permutation, less disclosure risk).
    Information (Def. 4): A dominates B when ``I_A(theta) <= I_B(theta)`` for every
    ``theta >= 1``.  Crossings are interpolated linearly in the parameter.

    References
    ----------
    .. [1] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization:
       centrality of permutation matrices, universal measures of disclosure risk and information
       loss, evaluation by dominance", Information Sciences, 2018 (Defs. 2 and 4).

    Computes: Ruiz (2018), Def. 2; Ruiz (2018), Def. 4.

    Examples
    --------
    >>> alphas = alpha_grid(-20, 211)
    >>> d = dominance(risk_curve([0, 2, 2, -2, -2], alphas), risk_curve([3, 0, 0, 1, -4], alphas))
    >>> d.verdict
    'A dominates'
    """
    if not isinstance(curve_a, Curve) or not isinstance(curve_b, Curve):
        raise ExplorerTypeError("curve_a and curve_b must be Curve objects (from risk_curve or loss_curve)")
    if curve_a.kind != curve_b.kind:
        raise InvalidParameterError(f"cannot compare a {curve_a.kind} curve with a {curve_b.kind} curve")
    if curve_a.grid.shape != curve_b.grid.shape or not np.array_equal(curve_a.grid, curve_b.grid):
        raise InvalidParameterError("curve_a and curve_b must be computed on the same grid")
    tol = check_number(tolerance, "tolerance", minimum=0.0)
    grid = curve_a.grid
    order = np.argsort(grid, kind="stable")
    grid = grid[order]
    # "goodness" of A over B: positive where A is better.
    diff = curve_a.values[order] - curve_b.values[order]
    if curve_a.kind == "loss":
        diff = -diff
    scale = 1.0 + max(float(np.max(np.abs(curve_a.values[np.isfinite(curve_a.values)]), initial=0.0)),
                      float(np.max(np.abs(curve_b.values[np.isfinite(curve_b.values)]), initial=0.0)))
    sign = np.where(np.abs(diff) <= tol * scale, 0, np.sign(diff)).astype(int)
    gmin = float(grid[0])
    gmax = float(grid[-1])
    if np.all(sign == 0):
        verdict = "equal"
    elif np.all(sign >= 0):
        verdict = "A dominates"
    elif np.all(sign <= 0):
        verdict = "B dominates"
    else:
        verdict = "cross"
    crossings: list[float] = []
    segments: list[Segment] = []
    # Segments of constant sign; crossings between a + and a - (interpolated) or in the middle of a tie run.
    nonzero = np.flatnonzero(sign != 0)
    if nonzero.size:
        start = gmin
        current = sign[nonzero[0]]
        for prev, nxt in zip(nonzero[:-1], nonzero[1:]):
            if sign[nxt] == current:
                continue
            if nxt == prev + 1:
                g0, g1, d0, d1 = grid[prev], grid[nxt], diff[prev], diff[nxt]
                if np.isfinite(g0) and np.isfinite(g1):
                    point = float(g0 + (g1 - g0) * d0 / (d0 - d1))
                else:
                    point = float(g0 if np.isfinite(g0) else g1)
            else:
                point = float(grid[(prev + nxt) // 2])
            crossings.append(point)
            segments.append(Segment(start, point, "A" if current > 0 else "B"))
            start, current = point, sign[nxt]
        segments.append(Segment(start, gmax, "A" if current > 0 else "B"))
    else:
        segments.append(Segment(gmin, gmax, "equal"))
    return DominanceResult(verdict, curve_a.kind, tuple(crossings), tuple(segments), gmin, gmax, tol)
