"""Calibrating a masking method for a controller's aversions (Domingo-Ferrer and Soria-Comas (2018), Section VI-B [1]_).

A controller with risk aversion ``alpha_1 <= 1`` and loss aversion ``theta_2 >= 1`` places each
masking configuration at the point ``(D(alpha_1, beta), I(theta_2, pi))`` of the data-set measures
of Ruiz (2018) [2]_ (:mod:`explorer.core.dominance.risk_loss`), follows the path a method's parameter traces,
and picks the configuration with the least loss that reaches a risk target.

References
----------
.. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
   differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018
   (Section VI-B).
.. [2] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization: centrality
   of permutation matrices, universal measures of disclosure risk and information loss, evaluation by
   dominance", Information Sciences, 2018 (Props. 6 and 7).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
from numpy.typing import ArrayLike

from explorer._validation import check_int, check_matrix, check_number, check_rng
from explorer.core.dominance._input import exponent as _exponent
from explorer.core.dominance.displacement import ZERO_DISPLACEMENT, displacement_matrix
from explorer.core.masking import mask
from explorer.core.permutation.ranking import numeric_matrix
from explorer.core.dominance.risk_loss import overall_loss_curve, overall_risk_curve

__all__ = ["CalibrationPoint", "calibration_point", "best_calibration", "calibration_path", "sample_records"]


@dataclass(frozen=True)
class CalibrationPoint:
    """Where a masking configuration sits for a controller's aversions (Domingo-Ferrer and Soria-Comas (2018), Section VI-B).

    ``risk`` is D(alpha_1, beta) (higher: more protection), ``loss`` is I(theta_2, pi)
    (lower: more information kept); ``parameter`` is the masking parameter, if any.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response,
       post-randomization, differential privacy and t-closeness via deniability and permutation",
       arXiv preprint, 2018 (Section VI-B).
    """

    label: str
    risk: float
    loss: float
    parameter: float | None = None


def calibration_point(displacements: ArrayLike, alpha: float, theta: float, *, beta: float = 1.0, pi: float = 1.0,
                      label: str = "", parameter: float | None = None, zero: float = ZERO_DISPLACEMENT,
                      normalize: bool = False) -> CalibrationPoint:
    """The point (D(alpha_1, beta), I(theta_2, pi)) of one configuration.

    Notes
    -----
    Domingo-Ferrer and Soria-Comas (2018), Section VI-B and Eq. 8: a controller with risk aversion ``alpha_1 < 1`` and loss
    aversion ``alpha_2 = theta > 1`` evaluates ``J(p, alpha_1)`` and ``J(p, alpha_2)``
    to calibrate a method; at the data-set level these are D(alpha_1, beta) and
    I(theta_2, pi) (Ruiz (2018), Props. 6 and 7).  With one attribute the loss is reported as 0.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response,
       post-randomization, differential privacy and t-closeness via deniability and permutation",
       arXiv preprint, 2018 (Section VI-B, Eq. 8).
    .. [2] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization:
       centrality of permutation matrices, universal measures of disclosure risk and information
       loss, evaluation by dominance", Information Sciences, 2018 (Props. 6 and 7).

    Examples
    --------
    >>> R = np.array([[0, 3, 0], [0, 0, 2], [0, 0, 2], [0, 1, -2], [0, -4, -2]])
    >>> point = calibration_point(R, 1, 1)
    >>> round(point.risk, 4), round(point.loss, 4)
    (1.0667, 1.8667)
    """
    R = check_matrix(displacements, "displacements")
    a = _exponent(alpha, "alpha")
    t = _exponent(theta, "theta")
    risk = float(overall_risk_curve(R, [a], beta, zero=zero, normalize=normalize).values[0])
    loss = 0.0 if R.shape[1] < 2 else float(overall_loss_curve(R, [t], pi, normalize=normalize).values[0])
    return CalibrationPoint(label, risk, loss, parameter)


def best_calibration(points: Sequence[CalibrationPoint], risk_target: float) -> CalibrationPoint | None:
    """The point with the least loss among those whose D reaches ``risk_target`` (None if none does).

    Examples
    --------
    >>> pts = [CalibrationPoint("a", 1.0, 0.5), CalibrationPoint("b", 2.0, 0.9), CalibrationPoint("c", 3.0, 2.0)]
    >>> best_calibration(pts, 1.5).label
    'b'
    """
    target = check_number(risk_target, "risk_target", minimum=0.0)
    meeting = [p for p in points if p.risk >= target]
    if not meeting:
        return None
    return min(meeting, key=lambda p: (p.loss, -p.risk))


def calibration_path(X: Any, method: str, parameters: Sequence[float], alpha: float, theta: float, *,
                     beta: float = 1.0, pi: float = 1.0, rng: Any = None, normalize: bool = False,
                     label: str = "", convention: str = "position") -> list[CalibrationPoint]:
    """The path (D(alpha_1, beta), I(theta_2, pi)) a masking method traces as its parameter grows.

    Each parameter value masks X afresh with a generator seeded from ``rng``.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response,
       post-randomization, differential privacy and t-closeness via deniability and permutation",
       arXiv preprint, 2018 (Section VI-B).
    .. [2] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization:
       centrality of permutation matrices, universal measures of disclosure risk and information
       loss, evaluation by dominance", Information Sciences, 2018 (Props. 6 and 7).

    Examples
    --------
    >>> X = np.random.default_rng(0).normal(size=(200, 3))
    >>> path = calibration_path(X, "additive_noise", [0.0, 1.0], 0, 2, rng=1)
    >>> path[0].risk < 1e-7 < 1 < path[1].risk, path[0].loss == 0 < path[1].loss
    (True, True)
    """
    generator = check_rng(rng)
    x, _ = numeric_matrix(X, "X")
    seeds = generator.integers(0, 2 ** 63 - 1, size=len(parameters))
    points = []
    for value, seed in zip(parameters, seeds):
        R = displacement_matrix(x, mask(x, method, value, int(seed)), int(seed), convention=convention)
        points.append(calibration_point(R, alpha, theta, beta=beta, pi=pi, label=label, parameter=float(value),
                                        normalize=normalize))
    return points


def sample_records(X: ArrayLike, max_records: int | None, rng: Any = None) -> np.ndarray:
    """At most ``max_records`` rows of X, drawn without replacement (all of X when it is small or None/0).

    The rows keep their original order, so a sample of a sorted file stays sorted.

    Examples
    --------
    >>> sample_records(np.arange(10.0).reshape(5, 2), 3, rng=0).shape
    (3, 2)
    """
    x = np.asarray(X)
    if max_records is None or max_records == 0 or x.shape[0] <= max_records:
        return x
    size = check_int(max_records, "max_records", minimum=2)
    keep = np.sort(check_rng(rng).choice(x.shape[0], size=size, replace=False))
    return x[keep]
