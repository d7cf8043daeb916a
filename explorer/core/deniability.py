"""Deniability: prior and posterior of an RR/PRAM matrix and their entropies (000 Sections II-III).

Entropies are in bits (log base 2).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["entropy"]


def entropy(distribution: ArrayLike, axis: int = -1) -> np.ndarray | float:
    """Shannon entropy in bits, ``-sum p log2 p`` with ``0 log 0 = 0``, along ``axis``.

    Rows of NaN (reports that never occur) give NaN.  The input is used as given
    (it is not renormalised).

    Examples
    --------
    >>> entropy([0.5, 0.5])
    1.0
    >>> entropy([[1.0, 0.0], [0.25, 0.75]]).round(4).tolist()
    [0.0, 0.8113]
    """
    p = np.asarray(distribution, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, -p * np.log2(np.where(p > 0, p, 1.0)), np.where(np.isnan(p), np.nan, 0.0))
    result = terms.sum(axis=axis)
    return float(result) if np.ndim(result) == 0 else result
