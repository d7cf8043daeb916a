"""Power means for every exponent: the aggregator of Ruiz's measures, in log space and in bounded memory.

The power mean (Hölder mean) of non-negative values ``x_1..x_n`` with weights ``w_i``,

.. math::

    M_a(x) = \\Big(\\sum_i w_i x_i^a\\Big)^{1/a} \\ (a \\ne 0), \\qquad
    M_0(x) = \\prod_i x_i^{w_i}, \\qquad M_{-\\infty} = \\min_i x_i, \\qquad M_{+\\infty} = \\max_i x_i,

is the function ``J(p, alpha)`` of Domingo-Ferrer and Soria-Comas (2018), Eq. 8 [1]_, and the form of every
measure of Ruiz (2018) [2]_: ``D_j(alpha)``, ``I_k(theta)``, ``D(alpha, beta)`` and ``I(theta, pi)``
(:mod:`explorer.core.dominance.risk_loss`).

How it is computed:

* in log space, ``log M_a = c + (1/a) log sum_i w_i exp(a (log x_i - c))`` with ``c`` the log of the
  geometric mean, so ``(1e-8) ** -40`` does not overflow (``scipy.stats.pmean`` returns 0 there) and
  ``a -> 0`` loses no precision (``log1p``/``expm1`` when ``|a| * max |log x_i - c| <= 1``);
* over a grid of exponents and many distinct values, in blocks of at most ``2**20`` numbers: the
  values are cut into chunks, and within a chunk consecutive exponents of the grid are reached by
  multiplying by ``exp((a_{k+1} - a_k) (log x_i - c))`` (one multiplication per value and exponent
  instead of an exponential; the exact exponential is taken again every few steps).  A 200-point curve
  over 5.7 million distinct values needs a few tens of MB, not ``200 x 5.7e6`` numbers.

References
----------
.. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
   differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018 (Eq. 8).
.. [2] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization: centrality
   of permutation matrices, universal measures of disclosure risk and information loss, evaluation by
   dominance", Information Sciences, 2018 (Props. 3, 5, 6 and 7).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from explorer._validation import check_weights
from explorer.core.dominance._input import exponent as _exponent, exponents as _exponents, vector as _vector

__all__ = ["power_mean", "power_means"]

#: Below this |a| * spread of the log-values the log1p/expm1 form is used (no cancellation near a = 0).
_SMALL_EXPONENT = 1.0
#: Largest number of exponent x value products held at once (8 MB of float64).
_BLOCK = 1 << 20
#: Values per chunk on the chunked path (two chunk-sized arrays stay in the CPU cache).
_CHUNK = 1 << 16
#: Within a chunk, at most this many grid steps are reached by multiplication before an exact exp ...
_MAX_STEPS = 32
#: ... and the exponent may change by at most this much times the spread (no overflow of the terms).
_MAX_GROWTH = 300.0


def _weighted_rows(matrix: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``matrix @ weights`` without BLAS: a multithreaded BLAS on a busy machine can take milliseconds
    for what einsum does in microseconds (measured: median 20 ms for a 1 x 30,000 gemv)."""
    return np.einsum("ij,j->i", matrix, weights)


def _steps(sorted_a: np.ndarray, spread: float) -> list[tuple[int, int]]:
    """Runs ``(start, count)`` of a sorted grid: the first exponent of a run is computed exactly, the
    others by multiplying by ``exp(step * d)``; a run is short enough that no term overflows."""
    runs, i, size = [], 0, sorted_a.size
    while i < size:
        count = 1
        while (i + count < size and count < _MAX_STEPS
               and (sorted_a[i + count] - sorted_a[i]) * spread <= _MAX_GROWTH):
            count += 1
        runs.append((i, count))
        i += count
    return runs


def _log_mean_exp(d: np.ndarray, w: np.ndarray, a: np.ndarray, spread: float) -> np.ndarray:
    """``log sum_i w_i exp(a d_i)`` for every non-zero exponent ``a`` (``w`` sums to 1, ``sum w d = 0``)."""
    out = np.empty(a.shape)
    small = np.abs(a) * spread <= _SMALL_EXPONENT
    large = ~small
    if a.size * d.size <= _BLOCK:                  # one block: the usual case (few distinct values)
        if small.any():                            # log1p/expm1: no cancellation as a -> 0
            out[small] = np.log1p(_weighted_rows(np.expm1(np.outer(a[small], d)), w))
        if large.any():                            # shifted log-sum-exp: no overflow
            ad = np.outer(a[large], d)
            m = ad.max(axis=1)
            out[large] = m + np.log(_weighted_rows(np.exp(ad - m[:, None]), w))
        return out
    if small.any():
        a_small = a[small]
        step = max(1, _BLOCK // a_small.size)
        acc = np.zeros(a_small.size)
        for start in range(0, d.size, step):
            acc += _weighted_rows(np.expm1(np.outer(a_small, d[start:start + step])), w[start:start + step])
        out[small] = np.log1p(acc)
    if large.any():
        out[large] = _log_mean_exp_chunked(d, w, a[large], spread)
    return out


def _log_mean_exp_chunked(d: np.ndarray, w: np.ndarray, a: np.ndarray, spread: float) -> np.ndarray:
    """The shifted log-sum-exp of :func:`_log_mean_exp` in chunks of values, in O(chunk) memory.

    Each exponent ``a_k`` gets the shift of the first exponent ``a_s`` of its run,
    ``m_s = max_i a_s d_i``: the terms ``w_i exp(a_k d_i - m_s)`` of a run are products of
    ``w_i exp(a_s d_i - m_s)`` and the factors ``exp((a_{l+1} - a_l) d_i)``; the differences of
    neighbouring grid points are exact in floating point, so the products carry only rounding.
    """
    order = np.argsort(a, kind="stable")
    sorted_a = a[order]
    runs = _steps(sorted_a, spread)
    d_max, d_min = float(d.max()), float(d.min())
    shift = np.empty(sorted_a.size)
    for start, count in runs:
        s = sorted_a[start]
        shift[start:start + count] = max(s * d_max, s * d_min)
    sums = np.zeros(sorted_a.size)
    term = np.empty(min(_CHUNK, d.size))
    for begin in range(0, d.size, _CHUNK):
        dc, wc = d[begin:begin + _CHUNK], w[begin:begin + _CHUNK]
        t = term[:dc.size]
        factors: dict[float, np.ndarray] = {}
        for start, count in runs:
            np.multiply(dc, sorted_a[start], out=t)
            t -= shift[start]
            np.exp(t, out=t)
            t *= wc
            sums[start] += t.sum()
            for k in range(start + 1, start + count):
                h = float(sorted_a[k] - sorted_a[k - 1])
                factor = factors.get(h)
                if factor is None:
                    factor = factors[h] = np.exp(h * dc)
                t *= factor
                sums[k] += t.sum()
    result = np.empty(a.size)
    result[order] = shift + np.log(sums)
    return result


def _power_means_kernel(values: np.ndarray, weights: np.ndarray, exponents_: np.ndarray) -> np.ndarray:
    """Weighted power means of non-negative ``values`` for every exponent, in log space.

    ``values`` and ``weights`` are 1-D (weights > 0); returns one mean per exponent.
    For ``a != 0``: ``log M_a = c + (1/a) log sum_i w_i exp(a (l_i - c))`` with
    ``l_i = log x_i`` and ``c = sum_i w_i l_i`` (the log of the geometric mean).
    Zeros: they add nothing for ``a > 0`` (a factor ``W_pos / W``) and force the
    mean to 0 for ``a <= 0``.
    """
    low, high = float(values.min()), float(values.max())
    grid = np.asarray(exponents_, dtype=float)
    result = np.empty(grid.shape, dtype=float)
    result[grid == math.inf] = high
    result[grid == -math.inf] = low
    finite = np.isfinite(grid)
    positive = values > 0
    if not positive.any():
        result[finite] = 0.0
        return result
    has_zero = not positive.all()
    if has_zero:
        total = float(weights.sum())
        wn = weights[positive]
        share = float(wn.sum()) / total            # weight of the non-zero values
        logs = np.log(values[positive])
    else:
        wn, share = weights, 1.0
        logs = np.log(values)
    wn = wn / wn.sum()
    c = float(np.einsum("i,i->", wn, logs))        # log of the geometric mean (einsum: no BLAS threads)
    logs -= c                                      # d_i = l_i - c, in place
    d = logs
    spread = float(max(d.max(), -d.min()))
    a = grid[finite]
    out = np.full(a.shape, math.exp(c))            # a = 0: the geometric mean
    if has_zero:
        out[a <= 0] = 0.0                          # a zero drives the mean to 0 for a <= 0
    live = (a != 0) & ((a > 0) | (not has_zero))
    if live.any():
        s = _log_mean_exp(d, wn, a[live], spread)
        if has_zero:                               # a > 0: the zeros dilute the mean of x^a
            s += math.log(share)
        with np.errstate(over="ignore"):
            out[live] = np.exp(c + s / a[live])
    result[finite] = out
    # A mean lies between the min and the max: clip the last-ulp rounding of exp/log.
    return np.clip(result, low, high)


def column_power_means(array: np.ndarray, exponent_: float) -> np.ndarray:
    """Power mean of each column of a non-negative ``p x g`` array for one exponent, vectorized over columns.

    Used to aggregate the ``p`` values of ``D_j`` (or the pairs' ``I_k``) at every grid point.
    """
    if exponent_ == math.inf:
        return array.max(axis=0)
    if exponent_ == -math.inf:
        return array.min(axis=0)
    if exponent_ == 0:                             # the geometric mean (a zero makes it 0)
        with np.errstate(divide="ignore"):
            result = np.exp(np.mean(np.log(array), axis=0))
        return np.clip(result, array.min(axis=0), array.max(axis=0))
    if abs(exponent_) < 1e-3:                      # near the geometric mean: the careful kernel, column by column
        ones = np.ones(array.shape[0])
        grid = np.array([exponent_])
        return np.array([_power_means_kernel(column, ones, grid)[0] for column in array.T])
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        scaled = exponent_ * np.log(array)         # log 0 = -inf: x^a = 0 for a > 0, inf for a < 0
        top = scaled.max(axis=0)
        shift = np.where(np.isfinite(top), top, 0.0)
        s = shift + np.log(np.mean(np.exp(scaled - shift), axis=0))
        result = np.exp(s / exponent_)
    has_zero = (array == 0).any(axis=0)
    if exponent_ < 0:
        result = np.where(has_zero, 0.0, result)
    result = np.where((array == 0).all(axis=0), 0.0, result)
    return np.clip(result, array.min(axis=0), array.max(axis=0))


def power_means(values: ArrayLike, exponents: ArrayLike, weights: ArrayLike | None = None) -> np.ndarray:
    """Power means of non-negative ``values`` for every exponent of a grid (see :func:`power_mean`).

    Parameters
    ----------
    values : array_like
        Non-negative finite numbers (not empty).
    exponents : array_like
        The exponents: real numbers, ``-inf`` (minimum) or ``inf`` (maximum).
    weights : array_like, optional
        Non-negative weights, one per value (e.g. counts of distinct values).

    Returns
    -------
    numpy.ndarray
        One mean per exponent.

    Notes
    -----
    Memory stays bounded (about ``2**20`` intermediate numbers) whatever the number of values and
    exponents; see the module notes for the method.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response,
       post-randomization, differential privacy and t-closeness via deniability and permutation",
       arXiv preprint, 2018 (Eq. 8).

    Examples
    --------
    >>> power_means([1, 2, 4], [-np.inf, 0, 1, np.inf]).round(4).tolist()
    [1.0, 2.0, 2.3333, 4.0]
    """
    x = _vector(values, "values", allow_negative=False)
    grid = _exponents(exponents, "alpha")
    w = np.ones_like(x) if weights is None else check_weights(weights, "weights", size=x.size)
    keep = w > 0
    return _power_means_kernel(x[keep], w[keep], grid)


def power_mean(values: ArrayLike, alpha: float, weights: ArrayLike | None = None) -> float:
    """The (weighted) power mean of non-negative values, for every real ``alpha`` and +-inf.

    Parameters
    ----------
    values : array_like
        Non-negative finite numbers (not empty).
    alpha : float
        The exponent: any real number, ``0`` (geometric mean), ``inf`` (maximum) or
        ``-inf`` (minimum).
    weights : array_like, optional
        Non-negative weights, one per value (e.g. counts of distinct values).

    Returns
    -------
    float

    Notes
    -----
    Domingo-Ferrer and Soria-Comas (2018), Eq. 8; Ruiz (2018), Prop. 3:

    .. math::

        J(p, \\alpha) = \\Big(\\frac{1}{n}\\sum_{i=1}^n p_i^\\alpha\\Big)^{1/\\alpha} \\ (\\alpha \\ne 0),
        \\qquad J(p, 0) = \\prod_{i=1}^n p_i^{1/n}.

    Computed in log space: ``1e-8 ** -40`` does not overflow and ``n = 10**7``
    loses no precision.  With a zero among the values the mean is 0 for
    ``alpha <= 0``.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response,
       post-randomization, differential privacy and t-closeness via deniability and permutation",
       arXiv preprint, 2018 (Eq. 8).
    .. [2] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization:
       centrality of permutation matrices, universal measures of disclosure risk and information
       loss, evaluation by dominance", Information Sciences, 2018 (Prop. 3).

    Computes: Domingo-Ferrer and Soria-Comas (2018), Eq. 8.

    Examples
    --------
    >>> power_mean([1, 4], 0)
    2.0
    >>> round(power_mean([3, 1e-8, 1e-8, 1, 4], 0.5), 4)   # D_2(0.5) of Ruiz (2018)
    0.8958
    >>> power_mean([1e-8, 1.0], -40) > 0
    True
    """
    a = _exponent(alpha, "alpha")
    return float(power_means(values, [a], weights)[0])
