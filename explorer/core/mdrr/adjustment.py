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

__all__ = ["EXAMPLE1_REPORTS", "EXAMPLE1_MARGINALS", "AdjustmentResult", "rr_adjust"]

#: Domingo-Ferrer and Soria-Comas (2022), Example 1, Expression (13): 10 randomized records of two binary attributes:
#: (a1, a1) four times, (a2, a1) twice, (a2, a2) four times (codes 0 = a_1, 1 = a_2).
EXAMPLE1_REPORTS = np.array([[0, 0]] * 4 + [[1, 0]] * 2 + [[1, 1]] * 4)
#: Domingo-Ferrer and Soria-Comas (2022), Example 1: the estimated marginals pi_hat^1 = pi_hat^2 = (1/2, 1/2).
EXAMPLE1_MARGINALS = (np.array([0.5, 0.5]), np.array([0.5, 0.5]))

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


