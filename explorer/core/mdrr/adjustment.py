"""RR-Adjustment (Algorithm 2 of Domingo-Ferrer and Soria-Comas (2022)).

Rake the weights of the randomized records to the estimated marginals (of attributes or of
clusters).  The choices followed are listed in ``docs/conventions.md`` ("Conventions and
errata followed").

References
----------
.. [1] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
   Transactions on Knowledge and Data Engineering, 2022.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from explorer._validation import check_int, check_number
from explorer.core.rr.mechanisms import check_codes, code_matrix, n_combinations
from explorer.core.mdrr.protocols import joint_codes
from explorer.errors import InvalidParameterError

__all__ = ["EXAMPLE1_REPORTS", "EXAMPLE1_MARGINALS", "EXAMPLE1_KINDS", "EXAMPLE1_LIMITS", "AdjustmentResult", "rr_adjust",
           "Example1Trace", "example1_weight", "example1_trace"]

#: Domingo-Ferrer and Soria-Comas (2022), Example 1, Expression (13): 10 randomized records of two binary attributes:
#: (a1, a1) four times, (a2, a1) twice, (a2, a2) four times (codes 0 = a_1, 1 = a_2).
EXAMPLE1_REPORTS = np.array([[0, 0]] * 4 + [[1, 0]] * 2 + [[1, 1]] * 4)
#: Domingo-Ferrer and Soria-Comas (2022), Example 1: the estimated marginals pi_hat^1 = pi_hat^2 = (1/2, 1/2).
EXAMPLE1_MARGINALS = (np.array([0.5, 0.5]), np.array([0.5, 0.5]))
#: Example 1's three kinds of records and, for each, the row of :data:`EXAMPLE1_REPORTS` that stands for it.
EXAMPLE1_KINDS = {"(a1,a1)": 0, "(a2,a1)": 4, "(a2,a2)": 6}
#: The limits of the weights of the three kinds of records (Expression (14)): 1/8, 0 and 1/8.
EXAMPLE1_LIMITS = (1 / 8, 0.0, 1 / 8)

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
    """RR-Adjustment (Domingo-Ferrer and Soria-Comas (2022), Algorithm 2): rake the weights of the randomized records to the estimated marginals.

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
    categories with s_k = 0 are left unchanged (see ``docs/conventions.md``).

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
       Transactions on Knowledge and Data Engineering, 2022.

    Computes: Domingo-Ferrer and Soria-Comas (2022), Eq. 14; Domingo-Ferrer and Soria-Comas (2022), Alg. 2;
    Domingo-Ferrer and Soria-Comas (2022), Example 1.

    Examples
    --------
    Example 1 of Domingo-Ferrer and Soria-Comas (2022): the weights of the (a2, a1) records vanish as 1/(8(k+1)).

    >>> y = np.array([[0, 0]] * 4 + [[1, 0]] * 2 + [[1, 1]] * 4)
    >>> out = rr_adjust(y, [[0.5, 0.5], [0.5, 0.5]], max_sweeps=1, tolerance=None)
    >>> (out.weights * 32).round(6).tolist()[3:7]
    [3.0, 2.0, 2.0, 4.0]
    """
    y = code_matrix(reports, "reports")
    if y.shape[0] == 0:
        raise InvalidParameterError(f"reports must hold at least one record, got shape {y.shape}")
    y = y.astype(np.int64, copy=False) if cardinalities is None else check_codes(y, cardinalities, "reports")
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




def example1_weight(sweeps: int) -> float:
    """The weight of each (a2, a1) record of Domingo-Ferrer and Soria-Comas (2022), Example 1, after k sweeps: 1/(8(k+1)).

    Parameters
    ----------
    sweeps : int
        k >= 1, the sweeps of Algorithm 2.

    Returns
    -------
    float
        1 / (8 (k + 1)), the closed form of Domingo-Ferrer and Soria-Comas (2022), Example 1.

    Notes
    -----
    The closed form of Domingo-Ferrer and Soria-Comas (2022), Example 1 (the weights rr_adjust computes).

    Examples
    --------
    >>> example1_weight(3)
    0.03125
    """
    k = check_int(sweeps, "sweeps", minimum=1)
    return 1.0 / (8.0 * (k + 1))


@dataclass(frozen=True)
class Example1Trace:
    """RR-Adjustment on Domingo-Ferrer and Soria-Comas (2022), Example 1, for a number of sweeps.

    Attributes
    ----------
    sweeps : int
        The sweeps run (no tolerance: all of them).
    history : (sweeps, 3) array
        The weight of one record of each kind of :data:`EXAMPLE1_KINDS` after each sweep.
    weights : (10,) array
        The final weights of the ten records (sum 1).
    joint : (4,) array
        The weighted joint distribution of the reports, C order: (a1,a1), (a1,a2), (a2,a1), (a2,a2).
    closed_form : float
        :func:`example1_weight` of ``sweeps``, the printed weight of an (a2,a1) record.
    last_change : float
        The largest weight change in the last sweep.
    """

    sweeps: int
    history: np.ndarray
    weights: np.ndarray
    joint: np.ndarray
    closed_form: float
    last_change: float


def example1_trace(sweeps: int) -> Example1Trace:
    """Run RR-Adjustment on Example 1 of Domingo-Ferrer and Soria-Comas (2022) for ``sweeps`` sweeps (1 to 1000).

    The ten reports of :data:`EXAMPLE1_REPORTS` are raked to :data:`EXAMPLE1_MARGINALS`; the weights tend
    slowly to :data:`EXAMPLE1_LIMITS` and the joint distribution to (1/2, 0, 0, 1/2) (Expression (14)).

    Parameters
    ----------
    sweeps : int
        Sweeps of Algorithm 2, 1 to 1000.

    Returns
    -------
    Example1Trace

    Notes
    -----
    What Domingo-Ferrer and Soria-Comas (2022), Example 1 and Expression (14) describe, by :func:`rr_adjust`.

    Examples
    --------
    >>> out = example1_trace(3)
    >>> round(float(out.weights[4]), 5), out.closed_form
    (0.03125, 0.03125)
    >>> out.joint.round(4).tolist()
    [0.4375, 0.0, 0.0625, 0.5]
    """
    k = check_int(sweeps, "sweeps", minimum=1, maximum=1000)
    out = rr_adjust(EXAMPLE1_REPORTS, list(EXAMPLE1_MARGINALS), max_sweeps=k, tolerance=None, keep_history=True)
    joint = np.bincount(joint_codes(EXAMPLE1_REPORTS, (2, 2)), weights=out.weights, minlength=4)
    return Example1Trace(sweeps=k, history=out.weight_history[:, list(EXAMPLE1_KINDS.values())], weights=out.weights,
                         joint=joint, closed_form=example1_weight(k), last_change=float(out.trace_change[-1]))
