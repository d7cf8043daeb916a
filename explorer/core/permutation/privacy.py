"""(d, v)-permuted privacy: what a subject can check with her own record and the anonymized data set.

Domingo-Ferrer and Muralidhar (2016), Definitions 1-2: an anonymized data set
Y satisfies (d, v)-permuted privacy with respect to an original record x when
(1) x's permutation distance (:mod:`explorer.core.permutation.distance`) is at
least d, and (2) for every attribute j the values of the sorted Y_j whose rank
is within d of R*_j (the *window* of x, :func:`value_window`) have a variance
greater than v_j.  The paper's own (d, v) claims hold only when "greater than"
is read as "at least", which is the default; ``strict=True`` is the printed
strict reading.  The (d, v, f) form is that of Domingo-Ferrer and Soria-Comas
(2018), Section VI-A.  Conventions in ``docs/conventions.md``.

References
----------
.. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization:
   permutation paradigm, verifiability by subjects and intruders, transparency
   to users", Information Sciences 337-338:11-24, 2016.
.. [2] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response,
   post-randomization, differential privacy and t-closeness via deniability
   and permutation", arXiv preprint, 2018.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from explorer._validation import check_int, check_number, check_rng
from explorer.core.permutation.distance import (
    PermutationDistances,
    _rank_setup,
    _records_and_data,
    permutation_distances,
)
from explorer.core.permutation.ranking import _check_ties, _short, numeric_matrix
from explorer.errors import DatasetError, ExplorerTypeError, InvalidParameterError

__all__ = [
    "window_variances",
    "ValueWindow",
    "value_window",
    "PermutedPrivacy",
    "permuted_privacy",
    "SubjectCheck",
    "subject_check",
    "DVFPermutedPrivacy",
    "dvf_permuted_privacy",
]


def _window_bounds(centres: np.ndarray, reach: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """0-based [lo, hi) of the ranks r with |r - centre| <= reach, clipped to [1, n] (centres may be mid-ranks)."""
    lo = (np.clip(np.ceil(centres - reach - 1e-9), 1, n) - 1).astype(np.int64)
    hi = np.clip(np.floor(centres + reach + 1e-9), 1, n).astype(np.int64)
    return lo, hi


def window_variances(sorted_values: np.ndarray, centre_ranks: np.ndarray, d: Any,
                     half_width: Any = 0.0) -> np.ndarray:
    """Population variance of the sorted values whose rank is within d of each centre rank.

    Parameters
    ----------
    sorted_values : (n,) or (n, m) array, each column sorted ascending
    centre_ranks : (k,) or (k, m), 1-based ranks R*_j (mid-ranks allowed)
    d : int or (k,) ints (or halves, with mid-ranks)
    half_width : float or array like ``centre_ranks``
        With mid-ranks, half the width of y*'s block of equal values: the
        window is then the block widened by d on both sides.  The window
        [R* - d, R* + d] is clipped to [1, n].

    Returns
    -------
    numpy.ndarray
        Shape of ``centre_ranks``: the variance of each window.

    Notes
    -----
    Domingo-Ferrer and Muralidhar (2016), Definition 1, condition 2 [1]_: S_j
    is the set of values of the sorted Y_j whose rank differs no more than d
    from rank(y*_j), and Var(S_j) = (1/|S_j|) sum_{s in S_j} (s - mean(S_j))^2
    (population variance, ddof = 0, as in ``docs/conventions.md``).  The values
    themselves are given by :func:`value_window`.

    References
    ----------
    .. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization: permutation paradigm,
       verifiability by subjects and intruders, transparency to users", Information Sciences
       337-338:11-24, 2016.

    Computes: Domingo-Ferrer and Muralidhar (2016), Def. 1.

    Examples
    --------
    >>> window_variances(np.array([1.0, 2.0, 3.0, 10.0]), np.array([1, 2]), 1).tolist()
    [0.25, 0.6666666666666666]
    """
    values = np.asarray(sorted_values, dtype=float)
    centres = np.asarray(centre_ranks, dtype=float)
    squeeze = values.ndim == 1
    if squeeze:
        values, centres = values[:, None], centres[:, None]
    n, m = values.shape
    dd = np.asarray(d, dtype=float)
    if np.any(dd < 0) or np.any(~np.isfinite(dd)):
        raise InvalidParameterError(f"d must be a non-negative number of ranks, got {d!r}")
    dd = np.broadcast_to(dd.reshape(-1, 1) if dd.ndim == 1 else dd, centres.shape)
    hw = np.asarray(half_width, dtype=float)
    if squeeze and hw.ndim == 1:
        hw = hw[:, None]
    lo, hi = _window_bounds(centres, dd + np.broadcast_to(hw, centres.shape), n)
    out = np.empty(centres.shape, dtype=float)
    max_width = int((hi - lo).max()) if centres.size else 0
    for j in range(m):
        col = values[:, j]
        if max_width * centres.shape[0] <= 20_000_000 and max_width <= 64:
            # direct: gather each window (exact, for small windows)
            offsets = np.arange(max_width)
            idx = lo[:, j, None] + offsets[None, :]
            mask = idx < hi[:, j, None]
            win = np.where(mask, col[np.minimum(idx, n - 1)], 0.0)
            cnt = mask.sum(axis=1)
            mean = win.sum(axis=1) / cnt
            out[:, j] = np.where(mask, (win - mean[:, None]) ** 2, 0.0).sum(axis=1) / cnt
        else:
            # prefix sums about the column mean (wide windows)
            shifted = col - col.mean()
            s1 = np.concatenate([[0.0], np.cumsum(shifted)])
            s2 = np.concatenate([[0.0], np.cumsum(shifted * shifted)])
            cnt = hi[:, j] - lo[:, j]
            mean = (s1[hi[:, j]] - s1[lo[:, j]]) / cnt
            out[:, j] = np.maximum((s2[hi[:, j]] - s2[lo[:, j]]) / cnt - mean * mean, 0.0)
    return out[:, 0] if squeeze else out


@dataclass(frozen=True)
class ValueWindow:
    """The anonymized values within d ranks of R*_j, per attribute, for one original record.

    These are the sets S_j of Domingo-Ferrer and Muralidhar (2016),
    Definition 1, whose population variances Table 4 prints.

    Attributes
    ----------
    d : int or float
        The permutation distance the window reaches (in ranks).
    nearest_rank : (m,) int or float
        R*_j, the rank of the anonymized value nearest to the record's value.
    lower, upper : (m,) int
        First and last (1-based) rank in each window, after clipping to [1, n].
    values : tuple of m arrays
        The sorted anonymized values of ranks lower_j .. upper_j.

    References
    ----------
    .. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization: permutation paradigm,
       verifiability by subjects and intruders, transparency to users", Information Sciences
       337-338:11-24, 2016.
    """

    d: int | float
    nearest_rank: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    values: tuple

    @property
    def variances(self) -> np.ndarray:
        """Population variance (ddof = 0) of each window, shape (m,)."""
        return np.array([np.var(v) for v in self.values])

    @property
    def sizes(self) -> np.ndarray:
        """Number of values in each window, shape (m,)."""
        return self.upper - self.lower + 1


def _value_window(sorted_values: np.ndarray, centre: np.ndarray, d: int | float, half_width: Any) -> ValueWindow:
    n, m = sorted_values.shape
    reach = d + np.broadcast_to(np.asarray(half_width, dtype=float), centre.shape)
    lo, hi = _window_bounds(np.asarray(centre, dtype=float), reach, n)
    values = tuple(sorted_values[lo[j]:hi[j], j].copy() for j in range(m))
    return ValueWindow(d=d, nearest_rank=np.asarray(centre), lower=lo + 1, upper=hi, values=values)


def value_window(record: ArrayLike, Y: Any, d: Any = None, *, ties: str = "random", rng: Any = None) -> ValueWindow:
    """The anonymized values within d ranks of R*_j for one original record (Domingo-Ferrer and Muralidhar 2016).

    Parameters
    ----------
    record : array_like, shape (m,)
        One original record (what a subject knows).
    Y : array_like (n, m) or DataFrame
        The anonymized data set.
    d : int, optional
        Half-width of the window in ranks; default the record's own
        permutation distance (Table 4's values in parentheses).
    ties, rng
        As in :func:`explorer.core.permutation.distance.permutation_distances`.

    Returns
    -------
    ValueWindow
        Per attribute, the sorted anonymized values whose rank differs no more
        than d from R*_j, clipped to ranks [1, n].

    Notes
    -----
    Domingo-Ferrer and Muralidhar (2016), Section 4 and Definition 1 [1]_: for
    attribute j, y*_j is the anonymized value nearest to the record's x_j and
    R*_j its rank; S_j = {y_(r) : |r - R*_j| <= d}.  Its population variance
    Var(S_j) is what condition 2 compares with v_j (:func:`window_variances`
    computes it for many records at once).  With mid-ranks (``ties="average"``)
    the window is y*'s block of equal values widened by d.

    References
    ----------
    .. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization: permutation paradigm,
       verifiability by subjects and intruders, transparency to users", Information Sciences
       337-338:11-24, 2016.

    Examples
    --------
    >>> from explorer.core.datasets import domingo_muralidhar_example
    >>> t = domingo_muralidhar_example()
    >>> w = value_window(t.loc[2, ["X1", "X2", "X3"]], t[["Y1", "Y2", "Y3"]], rng=0)   # record 3, d = 4
    >>> w.d, w.lower.tolist(), w.upper.tolist()
    (4, [4, 1, 12], [12, 6, 20])
    >>> w.values[0].tolist()
    [90.83, 91.57, 96.6, 100.31, 100.41, 103.07, 103.12, 104.0, 104.82]
    >>> w.variances.round(2).tolist()          # Section 4: 24.70, 896.76, 20167.78
    [24.7, 896.76, 20167.78]
    """
    record_arr = _one_record(record, Y)
    dist = permutation_distances(record_arr, Y, ties=ties, rng=rng)
    ym, _ = numeric_matrix(Y, "Y")
    d_used = dist.distance[0].item() if d is None else _check_d(d)
    half_width = dist.nearest_half_width[0] if np.ndim(dist.nearest_half_width) else 0.0
    return _value_window(np.sort(ym, axis=0), dist.nearest_rank[0], d_used, half_width)


def _one_record(record: ArrayLike, Y: Any) -> np.ndarray:
    """One original record as a (1, m) float array, checked against Y's attributes."""
    try:
        record_arr = np.asarray(record, dtype=float).ravel()[None, :]
    except (TypeError, ValueError):
        raise ExplorerTypeError(f"record must be numbers, got {_short(record)}") from None
    m = np.shape(Y)[1] if np.ndim(Y) == 2 else 1
    if record_arr.shape[1] != m:
        raise DatasetError(f"the record has {record_arr.shape[1]} attributes but Y has {m}")
    if np.isnan(record_arr).any():
        raise DatasetError("the record has missing values")
    return record_arr


def _meets(variances: np.ndarray, v: np.ndarray, strict: bool) -> np.ndarray:
    """Condition 2 of Definition 1 per attribute: variance > v (strict) or >= v (the default reading)."""
    return variances > v if strict else variances >= v


@dataclass(frozen=True)
class PermutedPrivacy:
    """(d, v)-permuted privacy of an anonymized data set (Domingo-Ferrer and Muralidhar (2016), Definitions 1-2, Table 4).

    The result of :func:`permuted_privacy` (Domingo-Ferrer and Muralidhar 2016 [1]_).

    Attributes
    ----------
    distances : PermutationDistances
        Per-record permutation distances d_i, nearest values and matches.
    d : int
        The permutation distance used for the data-set level variances: the
        minimum over records unless one was given.
    v : (m,) float
        Data-set level variances: per attribute, the minimum over records of
        ``variance_at_d``.
    variance_at_d : (n_x, m) float
        Variance of the sorted anonymized values within d ranks of R*_j.
    variance_at_record : (n_x, m) float
        The same within the record's own distance d_i (Table 4, in parentheses).
    sorted_values : (n, m) float
        The anonymized values, each column sorted (the windows are slices of it).

    References
    ----------
    .. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization: permutation paradigm,
       verifiability by subjects and intruders, transparency to users", Information Sciences
       337-338:11-24, 2016.
    """

    distances: PermutationDistances
    d: int | float
    v: np.ndarray
    variance_at_d: np.ndarray
    variance_at_record: np.ndarray
    sorted_values: np.ndarray = field(repr=False)

    @property
    def record_distance(self) -> np.ndarray:
        return self.distances.distance

    def variances(self, d: Any) -> np.ndarray:
        """Window variances of every record at another distance d, shape (n_x, m)."""
        d = _check_d(d)
        return window_variances(self.sorted_values, self.distances.nearest_rank, d,
                                self.distances.nearest_half_width)

    def window(self, i: int, d: Any = None) -> ValueWindow:
        """The anonymized values within d ranks of R*_j for original record ``i`` (0-based).

        ``d`` defaults to the record's own permutation distance d_i.
        """
        i = check_int(i, "record", minimum=0, maximum=self.distances.distance.size - 1)
        d_used = self.distances.distance[i].item() if d is None else _check_d(d)
        hw = self.distances.nearest_half_width
        return _value_window(self.sorted_values, self.distances.nearest_rank[i], d_used,
                             hw[i] if np.ndim(hw) else 0.0)

    def satisfies(self, d: Any, v: Any, *, strict: bool = False) -> np.ndarray:
        """Per record: does (d, v)-permuted privacy hold (Domingo-Ferrer and Muralidhar 2016, Definition 1)?

        Condition 1: the record's permutation distance is at least d.
        Condition 2: for every attribute j, the variance of the anonymized
        values within d ranks of y*_j is greater than v_j.  The default reads
        "greater than" as ">=", the reading under which the paper's own (d, v)
        claims hold (``docs/conventions.md``); ``strict=True`` is the printed
        strict ">".  Needs only the record and Y: subject-verifiable.
        """
        d = _check_d(d)
        v_arr = _check_v(v, self.v.size)
        variances = self.variances(d)
        return (self.distances.distance >= d) & np.all(_meets(variances, v_arr[None, :], bool(strict)), axis=1)

    def record_check(self, i: int, d: Any, v: Any, *, strict: bool = False) -> "SubjectCheck":
        """(d, v)-permuted privacy for original record ``i`` (0-based) alone: what its subject checks (Section 4).

        The same as :func:`subject_check` of that record, read from this analysis (its ranks and ties),
        so that the subject's view agrees with the data-set level results.  ``strict`` as in :meth:`satisfies`.

        Examples
        --------
        >>> from explorer.core.datasets import domingo_muralidhar_example
        >>> t = domingo_muralidhar_example()
        >>> pp = permuted_privacy(t[["X1", "X2", "X3"]], t[["Y1", "Y2", "Y3"]], rng=0)
        >>> c = pp.record_check(2, 4, [24, 896, 20167])            # record 3 of the paper
        >>> c.distance, (c.matches + 1).tolist(), c.satisfies, c.variances.round(2).tolist()
        (4, [10], True, [24.7, 896.76, 20167.78])
        """
        dist = self.distances
        i = check_int(i, "record", minimum=0, maximum=dist.distance.size - 1)
        d = _check_d(d)
        v_arr = _check_v(v, self.v.size)
        hw = dist.nearest_half_width
        variances = window_variances(self.sorted_values, dist.nearest_rank[i:i + 1], d,
                                     hw if np.isscalar(hw) else hw[i:i + 1])[0]
        ok = bool(dist.distance[i] >= d and np.all(_meets(variances, v_arr, bool(strict))))
        return SubjectCheck(distance=dist.distance[i].item(), nearest_value=dist.nearest_value[i],
                            nearest_rank=dist.nearest_rank[i], matches=dist.matches(i), variances=variances,
                            d=d, v=v_arr, satisfies=ok)

    def dataset_satisfies(self, d: Any, v: Any, *, strict: bool = False) -> bool:
        """Does the data set satisfy (d, v)-permuted privacy (Definition 2: every record does)?

        ``strict`` as in :meth:`satisfies`.
        """
        return bool(np.all(self.satisfies(d, v, strict=strict)))


def _check_d(d: Any) -> int | float:
    value = check_number(d, "d", minimum=0.0)
    return int(value) if value.is_integer() else value


def _check_v(v: Any, m: int) -> np.ndarray:
    if isinstance(v, numbers.Real) and not isinstance(v, bool):
        v = [v] * m
    try:
        arr = np.asarray(v, dtype=float).ravel()
    except (TypeError, ValueError):
        raise ExplorerTypeError(f"v must be a number or one number per attribute, got {_short(v)}") from None
    if arr.size != m:
        raise InvalidParameterError(f"v must have one entry per attribute ({m}), got {arr.size}")
    if np.any(~np.isfinite(arr)) or np.any(arr < 0):
        raise InvalidParameterError(f"v must be non-negative numbers, got {arr.tolist()}")
    return arr


def permuted_privacy(X: Any, Y: Any, d: Any = None, *, ties: str = "random", rng: Any = None,
                     missing: str = "raise") -> PermutedPrivacy:
    """(d, v)-permuted privacy of Y with respect to every record of X (Domingo-Ferrer and Muralidhar (2016), Definitions 1-2).

    Parameters
    ----------
    X, Y : array_like or DataFrame
        Original records and anonymized data set (same attributes).
    d : int, optional
        Permutation distance for the variance windows; default the data-set
        level distance, min_i d_i.
    ties, rng, missing
        As in :func:`explorer.core.permutation.distance.permutation_distances`.

    Returns
    -------
    PermutedPrivacy
        Its :meth:`~PermutedPrivacy.satisfies` and
        :meth:`~PermutedPrivacy.dataset_satisfies` check any (d, v), reading
        "greater than v" as ">=" by default or strictly with ``strict=True``;
        :meth:`~PermutedPrivacy.window` gives the values of a window.

    Notes
    -----
    Domingo-Ferrer and Muralidhar (2016), Definition 1 [1]_: Y satisfies (d, v)-permuted privacy
    w.r.t. x if (1) no anonymized record has all its ranks within less than d
    of (R*_1..R*_m), i.e. the permutation distance of x is >= d, and (2) for
    every j the variance of S_j = {sorted Y_j values with |rank - R*_j| <= d}
    is greater than v_j (printed ">", read as ">=" by default: the paper's
    own claims use the attained minima, ``docs/conventions.md``).
    Definition 2: the data set satisfies it if every record does.  The
    data-set level (d, v) of Table 4 are d = min_i d_i and
    v_j = min_i Var(S_j).

    References
    ----------
    .. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization: permutation paradigm,
       verifiability by subjects and intruders, transparency to users", Information Sciences
       337-338:11-24, 2016.

    Computes: Domingo-Ferrer and Muralidhar (2016), Def. 1; Domingo-Ferrer and Muralidhar (2016), Def. 2;
    Domingo-Ferrer and Muralidhar (2016), Table 4.

    Examples
    --------
    >>> from explorer.core.datasets import domingo_muralidhar_example
    >>> t = domingo_muralidhar_example()
    >>> pp = permuted_privacy(t[["X1", "X2", "X3"]], t[["Y1", "Y2", "Y3"]], rng=0)
    >>> pp.d, pp.v.round(2).tolist()                       # Table 4, bottom row
    (1, [0.01, 11.07, 30.26])
    >>> pp.variance_at_record[2].round(2).tolist()        # record 3: 24.70, 896.76, 20167.78
    [24.7, 896.76, 20167.78]
    """
    x, y = _records_and_data(X, Y, missing)
    dist = permutation_distances(x, y, ties=ties, rng=rng)
    y_sorted = np.sort(y, axis=0)
    d_used = dist.dataset_distance if d is None else _check_d(d)
    at_d = window_variances(y_sorted, dist.nearest_rank, d_used, dist.nearest_half_width)
    at_record = window_variances(y_sorted, dist.nearest_rank, dist.distance, dist.nearest_half_width)
    return PermutedPrivacy(distances=dist, d=d_used, v=at_d.min(axis=0), variance_at_d=at_d,
                           variance_at_record=at_record, sorted_values=y_sorted)


@dataclass(frozen=True)
class SubjectCheck:
    """What one subject learns from her own record and the anonymized data set (Section 4).

    The result of :func:`subject_check` (Domingo-Ferrer and Muralidhar 2016 [1]_).

    Attributes
    ----------
    distance : int or float
        Her permutation distance.
    nearest_value, nearest_rank : (m,)
        y*_j and its rank R*_j.
    matches : int array
        The anonymized records (0-based) at her distance.
    variances : (m,) float
        Variance of each window of half-width d.
    d, v
        The (d, v) checked.
    satisfies : bool
        Whether (d, v)-permuted privacy holds for her record.

    References
    ----------
    .. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization: permutation paradigm,
       verifiability by subjects and intruders, transparency to users", Information Sciences
       337-338:11-24, 2016.
    """

    distance: int | float
    nearest_value: np.ndarray
    nearest_rank: np.ndarray
    matches: np.ndarray
    variances: np.ndarray
    d: int
    v: np.ndarray
    satisfies: bool


def subject_check(record: ArrayLike, Y: Any, d: Any, v: Any, *, ties: str = "random",
                  rng: Any = None, strict: bool = False) -> SubjectCheck:
    """Check (d, v)-permuted privacy for one record, knowing only that record and Y (subject-verifiability).

    Parameters
    ----------
    record : array_like, shape (m,)
        Her original record.
    Y : array_like (n, m) or DataFrame
        The anonymized data set.
    d : int
        The permutation distance to check (condition 1; also the half-width
        of the variance windows).
    v : float or (m,) floats
        The variance each window must exceed (condition 2).
    ties, rng
        As in :func:`explorer.core.permutation.distance.permutation_distances`.
    strict : bool
        False (default): a variance equal to v_j is enough, the reading under
        which the paper's own claims hold; True: the printed "greater than".

    Returns
    -------
    SubjectCheck

    Notes
    -----
    Domingo-Ferrer and Muralidhar (2016), Definition 1 and Section 4 [1]_: the subject needs only her
    record and Y.

    References
    ----------
    .. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization: permutation paradigm,
       verifiability by subjects and intruders, transparency to users", Information Sciences
       337-338:11-24, 2016.

    Computes: Domingo-Ferrer and Muralidhar (2016), Def. 1.

    Examples
    --------
    >>> from explorer.core.datasets import domingo_muralidhar_example
    >>> t = domingo_muralidhar_example()
    >>> c = subject_check(t.loc[2, ["X1", "X2", "X3"]].to_numpy(), t[["Y1", "Y2", "Y3"]], 4, [20, 800, 20000])
    >>> c.distance, c.satisfies, c.variances.round(2).tolist()
    (4, True, [24.7, 896.76, 20167.78])
    """
    record_arr = _one_record(record, Y)
    ym, _ = numeric_matrix(Y, "Y")
    d = _check_d(d)
    v_arr = _check_v(v, ym.shape[1])
    dist = permutation_distances(record_arr, ym, ties=ties, rng=rng)
    variances = window_variances(np.sort(ym, axis=0), dist.nearest_rank, d, dist.nearest_half_width)[0]
    ok = bool(dist.distance[0] >= d and np.all(_meets(variances, v_arr, bool(strict))))
    return SubjectCheck(distance=dist.distance[0].item(), nearest_value=dist.nearest_value[0],
                        nearest_rank=dist.nearest_rank[0], matches=dist.matches(0), variances=variances,
                        d=d, v=v_arr, satisfies=ok)


@dataclass(frozen=True)
class DVFPermutedPrivacy:
    """(d, v, f)-permuted privacy: per-attribute distances for a record mapping f.

    The result of :func:`dvf_permuted_privacy` (Domingo-Ferrer and Soria-Comas
    2018, Section VI-A [1]_).

    Attributes
    ----------
    distances : (n_x, m) int
        |Rank(y^j_f(x)) - Rank(y^j_*)| for every record and attribute.
    variances : (n_x, m) float
        Variance of S^j(d^j) (values of the sorted Y^j within d^j ranks of y^j_*).
    d, v : (m,)
        The largest vectors for which the data set satisfies the model: the
        per-attribute minima over records.
    mapping : (n_x,) int
        f: the anonymized record (0-based) of each original record.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
       differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.
    """

    distances: np.ndarray
    variances: np.ndarray
    d: np.ndarray
    v: np.ndarray
    mapping: np.ndarray

    def satisfies(self, d: Any, v: Any, *, strict: bool = False) -> np.ndarray:
        """Per record: are d^j <= the record's distances and v^j <= its variances (< with ``strict``), for all j?

        The variances are those at the record's own per-attribute distances;
        a smaller d shrinks the window, so ask for the variances you need.
        """
        m = self.distances.shape[1]
        d_arr = np.broadcast_to(np.asarray(d, dtype=float), (m,))
        v_arr = _check_v(v, m)
        return np.all(self.distances >= d_arr, axis=1) & np.all(_meets(self.variances, v_arr, bool(strict)), axis=1)


def dvf_permuted_privacy(X: Any, Y: Any, f: ArrayLike | None = None, *, ties: str = "random",
                         rng: Any = None, missing: str = "raise") -> DVFPermutedPrivacy:
    """(d, v, f)-permuted privacy of Domingo-Ferrer and Soria-Comas (2018), Section VI-A.

    Parameters
    ----------
    f : (n_x,) ints, optional
        f(x_i): the anonymized record (0-based) derived from original record i;
        default the identity (record i of Y came from record i of X).

    Notes
    -----
    Domingo-Ferrer and Soria-Comas (2018), Section VI-A [1]_: Y satisfies
    (d, v, f)-permuted privacy w.r.t. x if |Rank(y^j) - Rank(y^j_*)| >= d^j
    for f(x) = (y^1, ..., y^m) and the diversity (here the variance) of
    S^j(d^j) exceeds v^j (``strict`` in :meth:`DVFPermutedPrivacy.satisfies`).

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
       differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.

    Examples
    --------
    >>> from explorer.core.datasets import domingo_muralidhar_example
    >>> t = domingo_muralidhar_example()
    >>> r = dvf_permuted_privacy(t[["X1", "X2", "X3"]], t[["Y1", "Y2", "Y3"]], rng=0)
    >>> r.distances[0].tolist()     # record 1: Y ranks (14, 7, 5), nearest values' ranks (11, 8, 9)
    [3, 1, 4]
    """
    x, y = _records_and_data(X, Y, missing)
    generator = check_rng(rng) if _check_ties(ties) == "random" else None
    y_ranks, y_sorted, r_star, position = _rank_setup(x, y, ties, generator)
    half_width = (r_star - position - 1).astype(float) if ties == "average" else np.zeros_like(r_star, dtype=float)
    n_x = x.shape[0]
    if f is None:
        if n_x != y.shape[0]:
            raise DatasetError("f must be given when X and Y have different numbers of records")
        mapping = np.arange(n_x)
    else:
        mapping = np.asarray(f)
        if mapping.shape != (n_x,) or not np.issubdtype(mapping.dtype, np.integer):
            raise InvalidParameterError(f"f must be {n_x} integer record numbers, got {_short(f)}")
        if mapping.min() < 0 or mapping.max() >= y.shape[0]:
            raise InvalidParameterError(f"f must map into records 0..{y.shape[0] - 1}")
    dist = np.abs(y_ranks[mapping] - r_star)
    variances = np.column_stack([window_variances(y_sorted[:, j], r_star[:, j], dist[:, j], half_width[:, j])
                                 for j in range(y.shape[1])])
    return DVFPermutedPrivacy(distances=dist, variances=variances, d=dist.min(axis=0), v=variances.min(axis=0),
                              mapping=mapping)


