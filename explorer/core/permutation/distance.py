"""The permutation distance of a record to an anonymized data set (Domingo-Ferrer and Muralidhar 2016, Algorithm 2).

For an original record x, y*_j is the anonymized value of attribute j nearest
to x_j and R*_j its rank; the permutation distance is the smallest d such that
some anonymized record has every rank within d of (R*_1, ..., R*_m): the
Chebyshev distance from R* to the nearest anonymized rank vector.  The printed
algorithm is quadratic; :func:`permutation_distances` finds the same distances
(and every record at the minimum) with a Chebyshev k-d tree.  Conventions in
``docs/conventions.md``.

References
----------
.. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization:
   permutation paradigm, verifiability by subjects and intruders, transparency
   to users", Information Sciences 337-338:11-24, 2016.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain
from typing import Any, Sequence

import numpy as np
import pandas as pd
from scipy import spatial

from explorer._validation import check_int, check_rng
from explorer.core.permutation.ranking import _check_ties, _pair, _ranks_1d, numeric_matrix
from explorer.errors import DatasetError, InvalidParameterError

__all__ = ["PermutationDistances", "permutation_distances"]


@dataclass(frozen=True)
class PermutationDistances:
    """Permutation distances of original records to an anonymized data set (Domingo-Ferrer and Muralidhar (2016), Algorithm 2).

    The result of :func:`permutation_distances`, Domingo-Ferrer and Muralidhar (2016), Algorithm 2
    and Tables 3-4 [1]_.

    Attributes
    ----------
    distance : (n_x,) int
        Permutation distance of each original record.
    nearest_value : (n_x, m) float
        y*_j: the anonymized value of attribute j closest to x_j.
    nearest_rank : (n_x, m) int
        R*_j: the (1-based) rank of y*_j in the sorted Y_j.
    anonymized_ranks : (n, m) int
        Ranks of the anonymized records (ties broken by the policy used).
    match_indptr, match_indices : int arrays
        Every anonymized record at the minimum distance, in CSR form: the
        matches of record i are ``match_indices[match_indptr[i]:match_indptr[i + 1]]``
        (0-based, ascending).
    nearest_half_width : (n_x, m) float or 0
        With mid-ranks (``ties="average"``): half the width of y*'s block of
        equal values (the variance windows extend the block by d); else 0.

    References
    ----------
    .. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization: permutation paradigm,
       verifiability by subjects and intruders, transparency to users", Information Sciences
       337-338:11-24, 2016.
    """

    distance: np.ndarray
    nearest_value: np.ndarray
    nearest_rank: np.ndarray
    anonymized_ranks: np.ndarray
    match_indptr: np.ndarray
    match_indices: np.ndarray
    nearest_half_width: np.ndarray | float = 0.0

    def matches(self, i: int) -> np.ndarray:
        """The anonymized records (0-based) at the minimum distance from original record ``i``."""
        i = check_int(i, "record", minimum=0, maximum=self.distance.size - 1)
        return self.match_indices[self.match_indptr[i]:self.match_indptr[i + 1]]

    @property
    def closest(self) -> np.ndarray:
        """The lowest-numbered matched record of each original record (the one Table 4 shows)."""
        return self.match_indices[self.match_indptr[:-1]]

    @property
    def n_matches(self) -> np.ndarray:
        """How many anonymized records are at the minimum distance, per original record."""
        return np.diff(self.match_indptr)

    @property
    def dataset_distance(self) -> int | float:
        """The data-set level permutation distance: the minimum over records (Table 4)."""
        d = self.distance.min()
        return int(d) if np.issubdtype(self.distance.dtype, np.integer) else float(d)

    def rank_deviations(self, i: int) -> np.ndarray:
        """|rank_j(y_k) - R*_j| for every anonymized record k and attribute j (Table 3), shape (n, m)."""
        i = check_int(i, "record", minimum=0, maximum=self.distance.size - 1)
        return np.abs(self.anonymized_ranks - self.nearest_rank[i])


def _runs(sorted_values: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """For each position of a sorted vector, the first and one-past-last position of its run of equal values.

    None when all values differ (every run is one position long).
    """
    n = sorted_values.size
    new = np.empty(n, dtype=bool)
    new[0] = True
    np.not_equal(sorted_values[1:], sorted_values[:-1], out=new[1:])
    if new.all():
        return None
    starts = np.flatnonzero(new)
    run = np.cumsum(new) - 1
    ends = np.append(starts[1:], n)
    return starts[run], ends[run]


def _nearest(sorted_values: np.ndarray, x: np.ndarray, order: np.ndarray,
             runs: tuple[np.ndarray, np.ndarray] | None) -> np.ndarray:
    """0-based position in ``sorted_values`` of the value nearest to each x.

    Equal values: the first (lowest-rank) copy; two values equally near: the
    smaller.  ``order`` sorts x: the binary searches then walk the sorted
    values in order, which is several times faster than searching in record
    order on large data (cache misses).
    """
    n = sorted_values.size
    xs = x[order]
    pos = np.searchsorted(sorted_values, xs, side="left")
    lo = np.maximum(pos - 1, 0)
    hi = np.minimum(pos, n - 1)
    take_lo = np.abs(xs - sorted_values[lo]) <= np.abs(sorted_values[hi] - xs)
    take_lo &= pos > 0
    take_lo |= pos >= n
    chosen = np.where(take_lo, lo, hi)
    if runs is not None:
        chosen = runs[0][chosen]                  # the first copy of the chosen value
    position = np.empty_like(chosen)
    position[order] = chosen
    return position


def _rank_setup(x: np.ndarray, y: np.ndarray, ties: str, generator: np.random.Generator | None
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Anonymized ranks (n, m), the sorted anonymized values (n, m), R* (n_x, m) 1-based, and y*'s position.

    With ``ties="average"`` the ranks are mid-ranks and R* is the mid-rank of
    the nearest value's block of equal values (records with equal values are
    then at rank distance 0); otherwise R* is the rank of its first copy.
    Sorted columns are stored contiguously (the returned (n, m) array is a
    transposed view).
    """
    n, m = y.shape
    y_ranks = np.empty((n, m), dtype=float if ties == "average" else np.int64)
    sorted_t = np.empty((m, n))
    position = np.empty((x.shape[0], m), dtype=np.int64)
    r_star = np.empty((x.shape[0], m), dtype=float if ties == "average" else np.int64)
    for j in range(m):
        column = np.ascontiguousarray(y[:, j])
        y_ranks[:, j] = _ranks_1d(column, ties, generator, False)
        sorted_t[j] = column
        sorted_t[j].sort()
        runs = _runs(sorted_t[j])
        xj = np.ascontiguousarray(x[:, j])
        position[:, j] = _nearest(sorted_t[j], xj, np.argsort(xj), runs)
        if ties == "average":
            last = runs[1][position[:, j]] if runs is not None else position[:, j] + 1
            r_star[:, j] = (position[:, j] + 1 + last) / 2.0
        else:
            r_star[:, j] = position[:, j] + 1
    return y_ranks, sorted_t.T, r_star, position


def _csr(lists: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    lengths = np.fromiter((len(a) for a in lists), dtype=np.int64, count=len(lists))
    indptr = np.concatenate([[0], np.cumsum(lengths)])
    indices = np.concatenate([np.asarray(a, dtype=np.int64) for a in lists]) if lists else np.empty(0, np.int64)
    return indptr, indices


def _query_order(r_star: np.ndarray, n: int) -> np.ndarray:
    """An order of the query points along a Z-order (Morton) curve of their ranks.

    Consecutive queries then fall in the same region of rank space and visit
    the same tree nodes, which are still in the cache: on a million records
    this makes the tree queries about 2.5 times cheaper than in record order.
    """
    n_x, m = r_star.shape
    bits = min(8, 63 // m)
    if n_x < 2 or bits < 1:
        return np.arange(n_x)
    code = np.zeros(n_x, dtype=np.uint64)
    for j in range(m):
        cell = np.floor((np.asarray(r_star[:, j], dtype=float) - 1) * (1 << bits) / max(n, 1))
        cell = np.clip(cell, 0, (1 << bits) - 1).astype(np.uint64)
        for b in range(bits):
            code |= ((cell >> np.uint64(b)) & np.uint64(1)) << np.uint64(b * m + j)
    return np.argsort(code, kind="stable")


def _distances_kdtree(y_ranks: np.ndarray, r_star: np.ndarray, workers: int = 1
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Chebyshev nearest neighbours of R* among the rank vectors, with every tie at the minimum.

    One query for the two nearest neighbours tells the distance and whether
    another record ties at it (rank coordinates are whole or half numbers, so
    equal distances are exact).  Rows with a tie ask for their 8 nearest when
    ties are few, and rows with 8 or more ties (or all of them, when most
    rows tie) for the whole ball of radius d.  Queries are made along a
    Z-order curve (:func:`_query_order`) and put back in record order.
    """
    n = y_ranks.shape[0]
    n_x = r_star.shape[0]
    tree = spatial.cKDTree(np.asarray(y_ranks, dtype=np.float64), balanced_tree=False)
    order = _query_order(r_star, n)
    points = np.asarray(r_star, dtype=np.float64)[order]
    k = min(2, n)
    dist, idx = tree.query(points, k=k, p=np.inf, workers=workers)
    if k == 1:
        dist, idx = dist[:, None], idx[:, None]
    d_sorted = dist[:, 0]
    distance = np.empty(n_x)
    distance[order] = d_sorted
    tied = np.flatnonzero(dist[:, -1] == d_sorted) if k > 1 else np.empty(0, dtype=np.int64)
    # every match of the tied rows (in query order): their rows, how many each, and the matches one row after another
    parts_rows, parts_lengths, parts_flat = [], [], []
    ball_rows = tied
    k8 = min(8, n)
    if tied.size and 2 * tied.size <= n_x and k8 > k:
        dist8, idx8 = tree.query(points[tied], k=k8, p=np.inf, workers=workers)
        at_min = dist8 == dist8[:, :1]
        full = at_min[:, -1] if k8 < n else np.zeros(tied.size, dtype=bool)
        few = ~full
        lengths = at_min[few].sum(axis=1)
        ranked = np.sort(np.where(at_min[few], idx8[few], np.iinfo(np.int64).max), axis=1)
        parts_rows.append(tied[few])
        parts_lengths.append(lengths)
        parts_flat.append(ranked[np.arange(k8)[None, :] < lengths[:, None]])
        ball_rows = tied[full]
    if ball_rows.size:
        balls = tree.query_ball_point(points[ball_rows], r=d_sorted[ball_rows] + 0.25, p=np.inf, workers=workers,
                                      return_sorted=True)
        lengths = np.fromiter(map(len, balls), dtype=np.int64, count=len(balls))
        parts_rows.append(ball_rows)
        parts_lengths.append(lengths)
        parts_flat.append(np.fromiter(chain.from_iterable(balls), dtype=np.int64, count=int(lengths.sum())))
    counts = np.ones(n_x, dtype=np.int64)
    records = order[np.concatenate(parts_rows)] if parts_rows else np.empty(0, dtype=np.int64)
    lengths = np.concatenate(parts_lengths) if parts_lengths else np.empty(0, dtype=np.int64)
    counts[records] = lengths
    indptr = np.empty(n_x + 1, dtype=np.int64)
    indptr[0] = 0
    np.cumsum(counts, out=indptr[1:])
    indices = np.empty(indptr[-1], dtype=np.int64)
    single = np.ones(n_x, dtype=bool)
    single[records] = False
    first = np.empty(n_x, dtype=np.int64)
    first[order] = idx[:, 0]
    indices[indptr[:-1][single]] = first[single]
    if records.size:
        flat = np.concatenate(parts_flat)
        starts = np.cumsum(lengths) - lengths
        indices[np.repeat(indptr[records] - starts, lengths) + np.arange(flat.size)] = flat
    return distance, indptr, indices


def _distances_literal(y_ranks: np.ndarray, r_star: np.ndarray, step: float = 1.0
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Algorithm 2 as printed, one original record at a time over every anonymized record: O(n_x n m).

    The printed loop is ``d = 0; while no record k has |rank_j(y_k) - R*_j| <= d
    for all j: d = d + 1``.  It stops at the first d (a whole number; a
    multiple of 1/2 with mid-ranks) reached by some record's largest
    deviation, i.e. at min_k max_j |rank_j(y_k) - R*_j|, which is evaluated
    directly instead of stepping d up one at a time.
    """
    distances, lists = [], []
    for target in r_star:
        deviation = np.abs(y_ranks - target)          # the rank deviations of Table 3
        largest = deviation.max(axis=1)               # "for all j ... <= d"
        d = float(np.ceil(largest.min() / step) * step)   # first d of the while loop that some record meets
        within = largest <= d
        distances.append(d)
        lists.append(np.flatnonzero(within))
    indptr, indices = _csr(lists)
    return np.asarray(distances, dtype=np.float64), indptr, indices


def permutation_distances(X: Any, Y: Any, *, ties: str = "random", rng: Any = None, method: str = "kdtree",
                          workers: int = 1, missing: str = "raise") -> PermutationDistances:
    """Permutation distance of every original record to an anonymized data set (Domingo-Ferrer and Muralidhar (2016), Algorithm 2).

    Parameters
    ----------
    X : array_like (n_x, m) or DataFrame
        Original records (one record, all of X, or random records).
    Y : array_like (n, m) or DataFrame
        Anonymized data set (or the reverse-mapped Z, for the intruder).
    ties : {"random", "first", "average"}
        How equal anonymized values are ranked.  ``"random"`` is the choice of
        Domingo-Ferrer and Muralidhar (2016); with many ties (e.g. ages) it makes records with equal values look
        permuted, so ``"average"`` (mid-ranks: equal values are at rank
        distance 0, distances are multiples of 1/2) is offered too.  Without
        ties all three give the same result.
    rng : numpy Generator or int seed, optional
    method : {"kdtree", "literal"}
        ``"kdtree"``: Chebyshev nearest neighbours of the rank vectors
        (``scipy.spatial.cKDTree``, p = inf), O(n log n); ``"literal"``: the
        printed algorithm, O(n_x n m d), kept as a reference.
    workers : int
        Threads for the tree queries (-1: all cores); the result does not
        depend on it.
    missing : {"raise", "drop"}
        Policy for missing values when X and Y have the same shape.

    Returns
    -------
    PermutationDistances

    Notes
    -----
    For an original record x: y*_j is the anonymized value of attribute j
    closest to x_j (the smaller one when two are equally close; the first copy
    among equal values) and R*_j its rank.  The permutation distance is

        d(x) = min_k max_j |rank_j(y_k) - R*_j|,

    the Chebyshev distance from (R*_1, ..., R*_m) to the nearest anonymized
    rank vector (Domingo-Ferrer and Muralidhar 2016, Algorithm 2 [1]_); every record at that
    distance is reported (``docs/conventions.md``).  The printed algorithm
    raises d one step at a time over every record; the k-d tree finds the
    same minimum and the same ties (a property test checks both agree).

    References
    ----------
    .. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization: permutation paradigm,
       verifiability by subjects and intruders, transparency to users", Information Sciences
       337-338:11-24, 2016.

    Computes: Domingo-Ferrer and Muralidhar (2016), Alg. 2; Domingo-Ferrer and Muralidhar (2016), Table 3.

    Examples
    --------
    >>> from explorer.core.datasets import domingo_muralidhar_example
    >>> t = domingo_muralidhar_example()
    >>> res = permutation_distances(t[["X1", "X2", "X3"]], t[["Y1", "Y2", "Y3"]], rng=0)
    >>> int(res.distance[2]), res.matches(2).tolist(), res.nearest_rank[2].tolist()   # Table 3
    (4, [9], [8, 2, 16])
    """
    ties = _check_ties(ties)
    if method not in ("kdtree", "literal"):
        raise InvalidParameterError(f"method must be 'kdtree' or 'literal', got {method!r}")
    x, y = _records_and_data(X, Y, missing)
    generator = check_rng(rng) if ties == "random" else None
    y_ranks, y_sorted, r_star, position = _rank_setup(x, y, ties, generator)
    if method == "kdtree":
        d, indptr, indices = _distances_kdtree(y_ranks, r_star, workers=workers)
    else:
        d, indptr, indices = _distances_literal(y_ranks, r_star, 0.5 if ties == "average" else 1.0)
    if ties != "average":
        d = np.rint(d).astype(np.int64)
    nearest_value = np.take_along_axis(y_sorted, position, axis=0)
    half_width = (r_star - position - 1).astype(float) if ties == "average" else 0.0
    return PermutationDistances(distance=d, nearest_value=nearest_value, nearest_rank=r_star,
                                anonymized_ranks=y_ranks, match_indptr=indptr, match_indices=indices,
                                nearest_half_width=half_width)


def _records_and_data(X: Any, Y: Any, missing: str) -> tuple[np.ndarray, np.ndarray]:
    """Original records (n_x, m) and anonymized data (n, m); n_x may differ from n."""
    if isinstance(X, pd.Series):
        X = X.to_numpy()[None, :] if not isinstance(X.dtype, pd.CategoricalDtype) else X.to_frame().T
    x_ndim = X.ndim if isinstance(X, (np.ndarray, pd.DataFrame)) else np.asarray(X, dtype=object).ndim
    if not isinstance(X, pd.DataFrame) and x_ndim == 1 and not isinstance(Y, pd.Series):
        X = np.asarray(X, dtype=float)[None, :]          # one record
    xm, _ = numeric_matrix(X, "X", allow_missing=True)
    ym, _ = numeric_matrix(Y, "Y", allow_missing=True)
    if xm.shape == ym.shape:
        if isinstance(X, pd.DataFrame) or isinstance(Y, pd.DataFrame) or np.isnan(xm).any() or np.isnan(ym).any():
            xm, ym, _, _ = _pair(X, Y, missing)
    elif xm.shape[1] != ym.shape[1]:
        raise DatasetError(f"X and Y must have the same attributes, got {xm.shape[1]} and {ym.shape[1]} columns")
    else:
        if np.isnan(ym).any():
            raise DatasetError(f"Y has {int(np.isnan(ym).any(axis=1).sum())} records with missing values; "
                               "drop them first")
        if np.isnan(xm).any():
            raise DatasetError(f"X has {int(np.isnan(xm).any(axis=1).sum())} records with missing values; "
                               "drop them first")
    return xm, ym


