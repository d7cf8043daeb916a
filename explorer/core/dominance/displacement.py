"""Rank displacements r_j and the permutation extent T_j of Ruiz (2018), Section 3 and Prop. 2.

In the permutation paradigm [1]_ [2]_ every masking of a numeric attribute is a permutation of its values
(plus a residual noise that changes no rank).  Ruiz (2018) reads the permutation ``P_j`` of
attribute ``j`` (``Z_j = P_j X_j``) in two ways, both here:

* :func:`permutation_extent`, ``T_j = 1 - trace(P_j) / n``: the share of records that moved (Prop. 2);
  from data it is the share of records whose tie-invariant rank displacement
  (:func:`explorer.core.permutation.ranking.rank_shift`) is not zero, so equal values never count as moved;
* the rank-displacement vector ``r_j``: ``r[k] = (row of the 1 in column k of P_j) - k``, positive when
  record k's value moved down (:func:`rank_displacement` from the data, :func:`displacements_from_matrix`
  from ``P_j``, :func:`displacement_matrix` for all attributes of a data set at once);
* for a pair of attributes ``k = (j, j')``, the signed difference vector ``Delta(r_k) = r_j - r_j'``
  (:func:`relative_displacement`, Prop. 5), whose absolute values enter ``I_k(theta)``.

One zero rule everywhere: a displacement counts as zero when ``|r| <= ZERO_DISPLACEMENT = 1e-8``
(Ruiz writes a zero displacement as an epsilon, "assumed equal to 1E-08" in the note of Table 3, so
that power means with ``alpha <= 0`` are defined).  The conventions followed are listed in the
documentation page "Conventions and errata followed" (``docs/conventions.md``).

References
----------
.. [1] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization: centrality
   of permutation matrices, universal measures of disclosure risk and information loss, evaluation by
   dominance", Information Sciences, 2018.
.. [2] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization: permutation paradigm,
   verifiability by subjects and intruders, transparency to users", Information Sciences
   337-338:11-24, 2016 (Algorithm 1, reverse mapping).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from explorer._validation import quote, check_number, check_rng
from explorer.core.dominance._input import vector as _vector
from explorer.core.masking import mask
from explorer.core.permutation.ranking import numeric_matrix, paired_ranks, rank_shift
from explorer.core.permutation.reverse_mapping import reverse_map_frame
from explorer.errors import ExplorerTypeError, InvalidParameterError

__all__ = [
    "ZERO_DISPLACEMENT",
    "DISPLACEMENT_CONVENTIONS",
    "rank_displacement",
    "displacements_from_matrix",
    "displacement_matrix",
    "masked_displacements",
    "permutation_extent",
    "relative_displacement",
]

#: Value a zero displacement takes in D_j, and the largest |r| that counts as zero (Ruiz (2018), note of
#: Table 3: "epsilon is assumed equal to 1E-08").
ZERO_DISPLACEMENT = 1e-8

#: How :func:`displacement_matrix` reads a displacement: Ruiz's record position, or rank(y) - rank(x).
DISPLACEMENT_CONVENTIONS = ("position", "rank")


def snap_zeros(r: ArrayLike, name: str) -> np.ndarray:
    """Signed displacements as floats, with Ruiz's epsilon placeholders (|r| <= 1e-8) written as 0."""
    array = _vector(r, name)
    return np.where(np.abs(array) <= ZERO_DISPLACEMENT, 0.0, array)


def _moved_share(r: np.ndarray) -> float:
    return float(np.count_nonzero(np.abs(r) > ZERO_DISPLACEMENT) / r.size)


def rank_displacement(x: ArrayLike, z: ArrayLike, *, ties: str = "first", rng: Any = None,
                      zero: float = ZERO_DISPLACEMENT) -> np.ndarray:
    """Ruiz's rank-displacement vector r_j, read off the columns of P_j, from the data (Section 3).

    Parameters
    ----------
    x, z : array_like, shape (n,)
        Original attribute and its reverse-mapped (or anonymized) version.
    ties : {"first", "random"}
        How equal values are told apart when ranking.
    rng : numpy Generator or int seed, optional
        Breaks ties when ``ties="random"``.
    zero : float
        The value given to zero displacements (Ruiz's epsilon > 0, so that
        power means with alpha <= 0 are defined); 0 keeps them at 0.

    Returns
    -------
    numpy.ndarray, shape (n,), float
        ``r[k] = (row of the 1 in column k of P) - k``: positive when x_k moved
        down, negative when it moved up.

    Notes
    -----
    With ``Z = P X`` and ``P[i, k] = 1`` iff rank(x_k) = rank(z_i), ``r[k] = i - k``.  This is a
    displacement of record position, not rank(z) - rank(x) (``docs/conventions.md``); for the
    latter, independent of record order and of ties, see
    :func:`explorer.core.permutation.ranking.rank_shift`.  It needs O(n) memory, no matrix.

    With ties, P is the permutation that fixes as many records as it can
    (:func:`explorer.core.permutation.ranking.paired_ranks`): a record whose value the masking did not
    change is never moved, whatever the tie policy, and ``T_j = 1 - trace(P)/n`` is then the share of
    records whose value changed.  Without ties this is Ruiz's r_j exactly.

    References
    ----------
    .. [1] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization:
       centrality of permutation matrices, universal measures of disclosure risk and information
       loss, evaluation by dominance", Information Sciences, 2018 (Section 3).

    Examples
    --------
    >>> rank_displacement([135, 52, 123, 165, 160], [160, 52, 123, 135, 165]).tolist()   # Ruiz's r_2
    [3.0, 1e-08, 1e-08, 1.0, -4.0]
    """
    zero = check_number(zero, "zero", minimum=0.0)
    rx, rz = paired_ranks(x, z, ties, rng)
    n = rx.size
    position_of_z_rank = np.empty(n + 1, dtype=np.int64)
    position_of_z_rank[rz] = np.arange(n)
    r = (position_of_z_rank[rx] - np.arange(n)).astype(float)
    r[r == 0] = zero
    return r


def _check_permutation_matrix(p: np.ndarray) -> None:
    if p.ndim != 2 or p.shape[0] != p.shape[1] or p.shape[0] == 0:
        raise InvalidParameterError(f"permutation must be a square matrix, got an array of shape {p.shape}")
    if not np.all(np.isin(p, (0.0, 1.0))):
        raise InvalidParameterError("permutation must be a 0/1 matrix (a permutation matrix)")
    rows, cols = p.sum(axis=1), p.sum(axis=0)
    if np.any(rows != 1):
        i = int(np.flatnonzero(rows != 1)[0])
        raise InvalidParameterError(f"permutation row {i + 1} has {rows[i]:g} ones, not 1")
    if np.any(cols != 1):
        i = int(np.flatnonzero(cols != 1)[0])
        raise InvalidParameterError(f"permutation column {i + 1} has {cols[i]:g} ones, not 1")


def displacements_from_matrix(permutation: ArrayLike) -> np.ndarray:
    """The rank-displacement vector r_j read off a permutation matrix P_j (Ruiz (2018), Section 3).

    Parameters
    ----------
    permutation : array_like, shape (n, n)
        A 0/1 matrix with one 1 in every row and column (``Z = P X``).

    Returns
    -------
    numpy.ndarray, shape (n,), int
        ``r[k] = (row of the 1 in column k) - k``: positive when the 1 moved down.

    References
    ----------
    .. [1] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization:
       centrality of permutation matrices, universal measures of disclosure risk and information
       loss, evaluation by dominance", Information Sciences, 2018 (Section 3).

    Examples
    --------
    >>> P2 = [[0, 0, 0, 0, 1], [0, 1, 0, 0, 0], [0, 0, 1, 0, 0], [1, 0, 0, 0, 0], [0, 0, 0, 1, 0]]
    >>> displacements_from_matrix(P2).tolist()
    [3, 0, 0, 1, -4]
    """
    try:
        p = np.asarray(permutation, dtype=float)
    except (TypeError, ValueError):
        raise ExplorerTypeError(f"permutation must be a matrix of numbers, got {quote(permutation)}") from None
    _check_permutation_matrix(p)
    return np.argmax(p, axis=0).astype(np.int64) - np.arange(p.shape[0])


def permutation_extent(permutation: ArrayLike, z: ArrayLike | None = None, *, ties: str = "first",
                       rng: Any = None) -> float:
    """T_j = 1 - trace(P_j) / n: the share of records a permutation moved (Ruiz (2018), Prop. 2).

    One function for the three ways the explorer holds a permutation.

    Parameters
    ----------
    permutation : array_like
        An ``n x n`` permutation matrix P_j; or a vector of ``n`` rank displacements r_j; or, when
        ``z`` is given, the original attribute x (then P_j is the permutation taking x to z).
    z : array_like, optional
        The reverse-mapped (or anonymized) attribute, when ``permutation`` is the original x.  This is
        the signature ``permutation_extent(x, z)`` of :mod:`explorer.core.permutation`.
    ties : {"first", "random", "average"}
        Accepted for compatibility; T_j from data does not depend on how ties are broken.
    rng : numpy Generator or int seed, optional
        Accepted for compatibility (no effect).

    Returns
    -------
    float
        0 when nothing moved (P_j is the identity), 1 when every record moved.

    Notes
    -----
    .. math:: T_j = 1 - \\frac{\\operatorname{trace}(P_j)}{n} = \\frac{\\#\\{k : |r_{j(k)}| > 10^{-8}\\}}{n}

    A record stays put when its displacement is zero; a displacement counts as zero when
    ``|r| <= 1e-8`` (Ruiz's epsilon placeholder), whichever form the permutation comes in.  From
    data (``x`` and ``z``), a record stays put when the rank interval of its value in X overlaps
    that of its masked value (:func:`explorer.core.permutation.ranking.rank_shift`): without ties
    this is ``rank(z_k) = rank(x_k)``, the fixed points of P_j; with ties equal values never count
    as moved, so a masking that changes no rank gives T_j = 0 under every tie policy.

    References
    ----------
    .. [1] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization:
       centrality of permutation matrices, universal measures of disclosure risk and information
       loss, evaluation by dominance", Information Sciences, 2018 (Prop. 2).

    Computes: Ruiz (2018), Prop. 2.

    Examples
    --------
    >>> permutation_extent(np.eye(5))
    0.0
    >>> permutation_extent([3, 0, 0, 1, -4])                                   # Ruiz's r_2
    0.6
    >>> permutation_extent([135, 52, 123, 165, 160], [160, 52, 123, 135, 165])   # x_2 and z_2: T_2 = 0.6
    0.6
    """
    if z is not None:
        # from data: the share of records whose rank moved, ties never counting (ties, rng: no effect)
        return _moved_share(rank_shift(permutation, z).astype(float))
    try:
        p = np.asarray(permutation, dtype=float)
    except (TypeError, ValueError):
        raise ExplorerTypeError(f"permutation must be a matrix or a vector of numbers, "
                                f"got {quote(permutation)}") from None
    if p.ndim <= 1:
        return _moved_share(_vector(p, "permutation"))
    return _moved_share(displacements_from_matrix(p))


def relative_displacement(r_a: ArrayLike, r_b: ArrayLike) -> np.ndarray:
    """Delta(r_k) = r_j - r_j': the signed difference vector of a pair of attributes (Ruiz (2018), Prop. 5).

    Parameters
    ----------
    r_a, r_b : array_like, shape (n,)
        Signed rank displacements r_j and r_j' of the two attributes of the pair ``k = (j, j')``
        (Ruiz's epsilon placeholders, ``|r| <= 1e-8``, count as 0).

    Returns
    -------
    numpy.ndarray, shape (n,), float
        ``r_j - r_j'``, record by record.  All zeros when both attributes were permuted the same way
        (Prop. 4: their joint distribution is kept); ``I_k(theta)`` is the power mean of its absolute
        values.

    Notes
    -----
    .. math:: \\Delta(r_k) = r_j - r_{j'}, \\qquad k = (j, j'), \\ j \\ne j'.

    References
    ----------
    .. [1] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization:
       centrality of permutation matrices, universal measures of disclosure risk and information
       loss, evaluation by dominance", Information Sciences, 2018 (Props. 4 and 5).

    Computes: Ruiz (2018), Prop. 5.

    Examples
    --------
    The pair of attributes 2 and 3 of Ruiz's running example:

    >>> relative_displacement([3, 0, 0, 1, -4], [0, 2, 2, -2, -2]).tolist()
    [3.0, -2.0, -2.0, 3.0, -2.0]
    >>> relative_displacement([3, 1e-8, 1e-8, 1, -4], [1e-8, 2, 2, -2, -2]).tolist()   # epsilons count as 0
    [3.0, -2.0, -2.0, 3.0, -2.0]
    """
    a = snap_zeros(r_a, "r_a")
    b = snap_zeros(r_b, "r_b")
    if a.size != b.size:
        raise InvalidParameterError(f"r_a and r_b must have the same length (one displacement per record), "
                                    f"got {a.size} and {b.size}")
    return a - b


def displacement_matrix(X: Any, Y: Any, rng: Any = None, *, ties: str = "first",
                        convention: str = "position") -> np.ndarray:
    """The ``n x p`` matrix of signed rank displacements r_j of an anonymized data set (Ruiz (2018), Section 3).

    Each attribute of Y is reverse-mapped onto X (Domingo-Ferrer and Muralidhar (2016), Algorithm 1,
    :func:`explorer.core.permutation.reverse_mapping.reverse_map_frame`) and r_j is read off the permutation
    (:func:`rank_displacement`); zero displacements are written as 0 (the measures turn them into
    1e-8 where needed).

    Parameters
    ----------
    X, Y : array_like (n, p) or DataFrame
        Original and anonymized data (same shape).
    rng : numpy Generator or int seed, optional
        Breaks ties at random when ``ties="random"``.
    ties : {"first", "random"}
        ``"first"`` (default) ranks equal values in order of appearance in both X
        and Y, so an unmasked attribute has no displacement even with many ties
        (Adult's capital-gain is 92 % zeros).  ``"random"`` (the choice of Domingo-Ferrer and
        Muralidhar (2016), meant for tie-free data) breaks ties independently in X and Y: equal
        values then look permuted although nothing was masked.
    convention : {"position", "rank"}
        ``"position"`` (default, Ruiz's convention): ``r[k]`` is how many record
        positions the value of record k moved in ``Z = P X``; it reproduces Ruiz's
        r_1, r_2, r_3 and gives ``Delta(r_k) = 0`` when two attributes share a
        permutation (Prop. 4), but it depends on the order of the records.
        ``"rank"``: ``rank(y_k) - rank(x_k)``, the rank distance of Domingo-Ferrer and Muralidhar
        (2016), independent of record order (the same for ``D_j``'s purpose, but two attributes
        permuted together do not give ``Delta = 0``); with ties it is
        :func:`explorer.core.permutation.ranking.rank_shift` (equal values never count as moved,
        whatever ``ties`` says).

    Returns
    -------
    numpy.ndarray, shape (n, p), float

    References
    ----------
    .. [1] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization:
       centrality of permutation matrices, universal measures of disclosure risk and information
       loss, evaluation by dominance", Information Sciences, 2018 (Section 3).
    .. [2] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization: permutation
       paradigm, verifiability by subjects and intruders, transparency to users", Information
       Sciences 337-338:11-24, 2016 (Algorithm 1).

    Examples
    --------
    >>> from explorer.core.datasets import ruiz_example
    >>> t = ruiz_example()
    >>> displacement_matrix(t[["X1", "X2", "X3"]], t[["Y1", "Y2", "Y3"]]).T.astype(int).tolist()
    [[0, 0, 0, 0, 0], [3, 0, 0, 1, -4], [0, 2, 2, -2, -2]]
    """
    if convention not in DISPLACEMENT_CONVENTIONS:
        raise InvalidParameterError(f"convention must be one of {DISPLACEMENT_CONVENTIONS}, got {convention!r}")
    generator = check_rng(rng)
    x, _ = numeric_matrix(X, "X")
    if convention == "rank":
        y, _ = numeric_matrix(Y, "Y")
        if x.shape != y.shape:
            raise InvalidParameterError(f"X and Y must have the same shape, got {x.shape} and {y.shape}")
        return np.column_stack([rank_shift(x[:, j], y[:, j]).astype(float) for j in range(x.shape[1])])
    z = np.asarray(reverse_map_frame(X, Y, generator, ties=ties), dtype=float)
    if z.ndim == 1:
        z = z[:, None]
    return np.column_stack([rank_displacement(x[:, j], z[:, j], ties="first", zero=0.0)
                            for j in range(x.shape[1])])


def masked_displacements(X: Any, method: str, parameter: Any = None, rng: Any = None, *,
                         convention: str = "position") -> np.ndarray:
    """Mask X with a method of :data:`explorer.core.masking.MASKING_METHODS` and return its displacements.

    Parameters
    ----------
    X : array_like (n, p) or DataFrame
        Original numeric data.
    method, parameter
        The masking method and its parameter (:func:`explorer.core.masking.mask`).
    rng : numpy Generator or int seed, optional
        Drives the masking (and ties).
    convention : {"position", "rank"}
        See :func:`displacement_matrix`.

    Returns
    -------
    numpy.ndarray, shape (n, p), float

    Examples
    --------
    >>> X = np.arange(20.0).reshape(10, 2)
    >>> float(np.abs(masked_displacements(X, "identity")).max())
    0.0
    """
    generator = check_rng(rng)
    x, _ = numeric_matrix(X, "X")
    return displacement_matrix(x, mask(x, method, parameter, generator), generator, convention=convention)
