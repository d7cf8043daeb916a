"""Reverse mapping and permutation matrices: any anonymization is a permutation plus a residual noise.

Domingo-Ferrer and Muralidhar (2016), Algorithm 1, reverse-maps an anonymized
attribute Y onto the original X: Z takes X's own values in Y's rank order, so
Y = Z + E with a residual noise E that changes no rank.  Ruiz (2018), Prop. 1,
writes the permutation as a matrix, Z = P X.  Ranks and tie policies come from
:mod:`explorer.core.permutation.ranking`; conventions in ``docs/conventions.md``.

References
----------
.. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization:
   permutation paradigm, verifiability by subjects and intruders, transparency
   to users", Information Sciences 337-338:11-24, 2016.
.. [2] N. Ruiz, "On some consequences of the permutation paradigm for data
   anonymization: centrality of permutation matrices, universal measures of
   disclosure risk and information loss, evaluation by dominance",
   Information Sciences, 2018.
.. [3] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response,
   post-randomization, differential privacy and t-closeness via deniability
   and permutation", arXiv preprint, 2018.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from explorer._validation import check_int, check_rng
from explorer.core.permutation.ranking import _as_vector, _check_ties, _order, _pair, paired_ranks, _ranks_1d, numeric_matrix
from explorer.errors import DatasetError, InvalidParameterError

__all__ = ["MAX_MATRIX_N", "reverse_map", "reverse_map_frame", "residual_noise", "permutation_matrix"]

#: Largest ``n`` for which :func:`permutation_matrix` builds the dense n x n matrix.
MAX_MATRIX_N = 20_000


# --------------------------------------------------------------------------- reverse mapping (Algorithm 1)

def reverse_map(x: ArrayLike, y: ArrayLike, rng: Any = None, *, ties: str = "random") -> np.ndarray:
    """Reverse-map one anonymized attribute onto the original values (Domingo-Ferrer and Muralidhar (2016), Algorithm 1).

    Parameters
    ----------
    x, y : array_like, shape (n,)
        Original attribute X and its anonymized version Y.
    rng : numpy Generator or int seed, optional
        Breaks ties (``ties="random"``).
    ties : {"random", "first"}
        Tie policy used to rank X and Y.

    Returns
    -------
    numpy.ndarray
        ``z`` with ``z_i = x_(rank(y_i))``: a permutation of X whose ranks equal Y's.

    Notes
    -----
    Domingo-Ferrer and Muralidhar (2016), Algorithm 1 [1]_ (also
    Domingo-Ferrer and Soria-Comas 2018, Section V [2]_): for i = 1..n,
    j = Rank(y_i) and z_i = x_(j), the value of X of rank j.  Then Y = Z + E
    with a residual noise E that changes no rank.  Ruiz (2018), Table 2 [3]_
    gives the examples.

    References
    ----------
    .. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization: permutation paradigm,
       verifiability by subjects and intruders, transparency to users", Information Sciences
       337-338:11-24, 2016.
    .. [2] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
       differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.
    .. [3] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization: centrality
       of permutation matrices, universal measures of disclosure risk and information loss, evaluation
       by dominance", Information Sciences, 2018.

    Computes: Domingo-Ferrer and Muralidhar (2016), Alg. 1.

    Examples
    --------
    >>> reverse_map([13, 20, 2, 15, 29], [8, 20, -1, 18, 29]).tolist()   # Ruiz (2018), Table 2, Z_1
    [13.0, 20.0, 2.0, 15.0, 29.0]
    >>> reverse_map([135, 52, 123, 165, 160], [160, 57, 122, 135, 164]).tolist()   # Z_2
    [160.0, 52.0, 123.0, 135.0, 165.0]
    """
    ties = _check_ties(ties)
    if ties == "average":
        raise InvalidParameterError("ties='average' gives fractional ranks; reverse mapping needs 'random' or 'first'")
    xv = _as_vector(x, "x")
    yv = _as_vector(y, "y")
    if xv.size != yv.size:
        raise DatasetError(f"x and y must have the same number of records, got {xv.size} and {yv.size}")
    generator = check_rng(rng) if ties == "random" else None
    ry = _ranks_1d(yv, ties, generator, False)
    return np.sort(xv)[ry - 1]


def reverse_map_frame(X: Any, Y: Any, rng: Any = None, *, ties: str = "random", missing: str = "raise",
                      workers: int | None = None) -> Any:
    """Reverse-map every attribute of an anonymized data set (Domingo-Ferrer and Muralidhar (2016), Algorithm 1, column by column).

    Parameters
    ----------
    X, Y : array_like (n, m) or DataFrame
        Original and anonymized data sets with the same shape.  DataFrames with
        the same column names in another order are aligned by name; with
        disjoint names (X1.. vs Y1..) they are paired by position.
    rng : numpy Generator or int seed, optional
    ties : {"random", "first"}
    missing : {"raise", "drop"}
        ``"drop"`` drops every record with a missing value in X or Y first.
    workers : int, optional
        Threads sorting columns in parallel (numpy releases the GIL), from
        100,000 records on; the result does not depend on it.  Default: the
        number of cores (at most 8).

    Returns
    -------
    numpy.ndarray or DataFrame
        Z, with X's column names and index when X is a DataFrame.

    Notes
    -----
    Domingo-Ferrer and Muralidhar (2016), Algorithm 1 and Section 3 [1]_: any
    anonymization is a permutation X -> Z plus a residual noise E = Y - Z
    (:func:`residual_noise`).  The example is Ruiz (2018), Table 2 [2]_.

    References
    ----------
    .. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization: permutation paradigm,
       verifiability by subjects and intruders, transparency to users", Information Sciences
       337-338:11-24, 2016.
    .. [2] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization: centrality
       of permutation matrices, universal measures of disclosure risk and information loss, evaluation
       by dominance", Information Sciences, 2018.

    Computes: Ruiz (2018), Table 2; Domingo-Ferrer and Muralidhar (2016), Alg. 1.

    Examples
    --------
    >>> from explorer.core.datasets import ruiz_example
    >>> t = ruiz_example()
    >>> reverse_map_frame(t[["X1", "X2", "X3"]], t[["Y1", "Y2", "Y3"]])["X3"].tolist()   # Ruiz (2018), Table 2, Z_3
    [3707, 2419, -1008, 826, -1317]
    """
    ties = _check_ties(ties)
    if ties == "average":
        raise InvalidParameterError("ties='average' gives fractional ranks; reverse mapping needs 'random' or 'first'")
    x, y, columns, kept = _pair(X, Y, missing)
    generator = check_rng(rng) if ties == "random" else None
    workers = (min(os.cpu_count() or 1, 8) if workers is None
               else check_int(workers, "workers", minimum=1, maximum=64))
    n, m = x.shape
    # vectorized Algorithm 1, column by column: the record of rank r in Y gets X's value of rank r.
    # Columns are copied one at a time (a strided gather), much cheaper than transposing a tall
    # (n, m) array as a whole.
    zt = np.empty((m, n), dtype=x.dtype)
    ycols: list = [None] * m
    orders: list = [None] * m
    tied = [False] * m

    def sort_y(j: int) -> None:            # the default (fast) sort, and whether Y_j has ties
        ycols[j] = np.ascontiguousarray(y[:, j])
        orders[j] = np.argsort(ycols[j])
        ranked = ycols[j][orders[j]]
        tied[j] = bool(np.any(ranked[1:] == ranked[:-1]))

    def place_x(j: int) -> None:
        zt[j, orders[j]] = np.sort(x[:, j])

    def run(task) -> None:
        if workers > 1 and m > 1 and n >= 100_000:
            with ThreadPoolExecutor(max_workers=min(workers, m)) as pool:
                list(pool.map(task, range(m)))
        else:
            for j in range(m):
                task(j)

    run(sort_y)
    # Ties are ordered by the policy exactly as :func:`_order` does, column by column in order, so the
    # generator's draws (and the result) do not depend on ``workers``.
    for j in range(m):
        if tied[j]:
            orders[j] = _order(ycols[j], ties, generator)
        ycols[j] = None
    run(place_x)
    z = zt.T                                   # (n, m), column-major
    if isinstance(X, pd.DataFrame):
        index = X.index[kept] if len(kept) != len(X) else X.index
        frame = pd.DataFrame(z, columns=list(X.columns), index=index)
        for c in X.columns:
            if pd.api.types.is_integer_dtype(X[c].dtype) and len(kept) == len(X):
                frame[c] = frame[c].astype(X[c].dtype)
        return frame
    return z


def residual_noise(Y: Any, Z: Any) -> Any:
    """The residual noise ``E = Y - Z`` of the permutation paradigm.

    Returns a DataFrame (with Z's column names) when Z is one, else an array.

    Notes
    -----
    Domingo-Ferrer and Muralidhar (2016), Table 2 [1]_; Ruiz (2018), Table 2
    [2]_ (with the errata of ``docs/conventions.md``).

    References
    ----------
    .. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization: permutation paradigm,
       verifiability by subjects and intruders, transparency to users", Information Sciences
       337-338:11-24, 2016.
    .. [2] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization: centrality
       of permutation matrices, universal measures of disclosure risk and information loss, evaluation
       by dominance", Information Sciences, 2018.

    Computes: Ruiz (2018), Table 2; Domingo-Ferrer and Muralidhar (2016), Table 2.

    Examples
    --------
    >>> residual_noise([[8.0], [20.0]], [[13.0], [20.0]]).ravel().tolist()
    [-5.0, 0.0]
    """
    y, _ = numeric_matrix(Y, "Y", allow_missing=True)
    z, _ = numeric_matrix(Z, "Z", allow_missing=True)
    if y.shape != z.shape:
        raise DatasetError(f"Y and Z must have the same shape, got {y.shape} and {z.shape}")
    e = y - z
    if isinstance(Z, pd.DataFrame):
        return pd.DataFrame(e, columns=list(Z.columns), index=Z.index)
    return e


# --------------------------------------------------------------------------- permutation matrices (Ruiz 2018)

def permutation_matrix(x: ArrayLike, z: ArrayLike, *, ties: str = "first", rng: Any = None) -> np.ndarray:
    """Ruiz's permutation matrix P with ``Z = P @ X`` (Ruiz 2018, Prop. 1).

    Parameters
    ----------
    x : array_like, shape (n,)
        Original attribute.
    z : array_like, shape (n,)
        Its reverse-mapped version Z (or the anonymized Y: only ranks are used,
        and Z has Y's ranks).
    ties : {"first", "random"}
        How equal values are told apart.

    Returns
    -------
    numpy.ndarray, shape (n, n), dtype int8
        ``P[i, k] = 1`` iff rank(x_k) = rank(z_i).

    Notes
    -----
    Ruiz (2018), Prop. 1 [1]_: Y = (P_1 X_1, ..., P_p X_p) + E.  The dense
    matrix is built for n <= 20,000; use
    :func:`explorer.core.permutation.rank_displacement` beyond.

    References
    ----------
    .. [1] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization: centrality
       of permutation matrices, universal measures of disclosure risk and information loss, evaluation
       by dominance", Information Sciences, 2018.

    Computes: Ruiz (2018), Prop. 1.

    Examples
    --------
    >>> permutation_matrix([135, 52, 123, 165, 160], [160, 52, 123, 135, 165])   # Ruiz (2018), P_2
    array([[0, 0, 0, 0, 1],
           [0, 1, 0, 0, 0],
           [0, 0, 1, 0, 0],
           [1, 0, 0, 0, 0],
           [0, 0, 0, 1, 0]], dtype=int8)
    """
    rx, rz = paired_ranks(x, z, ties, rng)
    n = rx.size
    if n > MAX_MATRIX_N:
        raise InvalidParameterError(f"n = {n} is too large for a dense {n} x {n} permutation matrix "
                                    f"(limit {MAX_MATRIX_N}); use rank_displacement instead")
    position_of_rank = np.empty(n + 1, dtype=np.int64)
    position_of_rank[rx] = np.arange(n)
    p = np.zeros((n, n), dtype=np.int8)
    p[np.arange(n), position_of_rank[rz]] = 1
    return p


