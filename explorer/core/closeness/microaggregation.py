"""Microaggregation: MDAV clusters of at least k records, and other partitions of the records.

:func:`mdav_labels` clusters numbers already on comparable scales (masking uses it for multivariate
microaggregation); :func:`mdav` encodes a data frame's quasi-identifiers and clusters them;
:func:`group_by` gives k-anonymity's equivalence classes.  A partition is a :class:`Clustering`, with
label ``-1`` for a record left out (for example a missing quasi-identifier).

MDAV (Domingo-Ferrer and Torra 2005 [1]_) is deterministic, and gives the same clusters on every numpy version: distances are computed
with element-wise IEEE operations in a fixed order (no matrix product, whose rounding depends on the
BLAS), sums are exact (:func:`math.fsum`), and every tie is broken by the lowest record index.

References
----------
.. [1] J. Domingo-Ferrer and V. Torra, "Ordinal, continuous and heterogeneous k-anonymity through
   microaggregation", Data Mining and Knowledge Discovery 11(2):195-212, 2005.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from explorer._validation import check_int
from explorer.errors import CancelledError, DatasetError, ExplorerTypeError, InvalidParameterError

__all__ = [
    "Clustering",
    "mdav_labels",
    "mdav",
    "group_by",
    "encode_quasi_identifiers",
    "k_for_records",
]


@dataclass(frozen=True)
class Clustering:
    """A partition of the records into clusters.

    Attributes
    ----------
    labels : ndarray of int
        Cluster of each record, ``0..n_clusters-1``; ``-1`` for a record left out.
    method : str
        ``"mdav"``, ``"group_by"`` or ``"t_close_microaggregation"``.
    k : int or None
        Minimum cluster size asked for (microaggregation).
    n_dropped : int
        Records left out (label -1), e.g. for a missing quasi-identifier.
    note : str
        What was done, in words (missing values, merges...).
    t : float or None
        The closeness bound a t-close microaggregation was built for.
    distance : str or None
        The distance it was built with.
    n_merges : int
        Merges performed by t-close microaggregation.
    """

    labels: np.ndarray
    method: str
    k: int | None = None
    n_dropped: int = 0
    note: str = ""
    t: float | None = None
    distance: str | None = None
    n_merges: int = 0

    @property
    def n_clusters(self) -> int:
        """Number of clusters (label -1 excluded)."""
        kept = self.labels[self.labels >= 0]
        return int(kept.max()) + 1 if kept.size else 0

    @property
    def sizes(self) -> np.ndarray:
        """Records per cluster."""
        kept = self.labels[self.labels >= 0]
        return np.bincount(kept, minlength=self.n_clusters)


# --------------------------------------------------------------------------- MDAV on numbers
def _sq_distances(columns: np.ndarray, centre: np.ndarray) -> np.ndarray:
    """Squared Euclidean distance of every record to ``centre``, bitwise the same on every numpy.

    ``columns`` holds one attribute per row.  The sum runs over the attributes in their order with
    element-wise subtract, multiply and add, each rounded once (IEEE 754), so equal records get equal
    distances and the result does not depend on SIMD or BLAS kernels.
    """
    out = columns[0] - centre[0]
    np.multiply(out, out, out=out)
    diff = np.empty_like(out)
    for j in range(1, columns.shape[0]):
        np.subtract(columns[j], centre[j], out=diff)
        np.multiply(diff, diff, out=diff)
        np.add(out, diff, out=out)
    return out


def _exact_sums(columns: np.ndarray) -> np.ndarray:
    """Per-attribute sums, correctly rounded (:func:`math.fsum`): no dependence on summation order."""
    return np.array([math.fsum(row) for row in columns], dtype=float)


def _k_nearest(distances: np.ndarray, k: int) -> np.ndarray:
    """Positions of the k smallest ``distances``; among equal distances the lowest positions win.

    The k-th smallest value does not depend on how ``np.partition`` orders ties; every position below
    it is taken, then the lowest positions at it (``np.flatnonzero`` lists them in increasing order).
    """
    kth = np.partition(distances, k - 1)[k - 1]
    below = np.flatnonzero(distances < kth)
    at = np.flatnonzero(distances == kth)[: k - below.size]
    return np.concatenate([below, at])


def mdav_labels(values: ArrayLike, k: int, *, progress: Callable[[float], Any] | None = None) -> np.ndarray:
    """MDAV microaggregation (maximum distance to average vector) of already scaled numbers.

    Parameters
    ----------
    values : array_like, shape (n, m)
        Numeric records, already on comparable scales (e.g. standardised).
    k : int
        Minimum cluster size, ``1 <= k <= n``.
    progress : callable, optional
        Called now and then with the fraction of records clustered so far;
        if it returns ``False`` the work stops with :class:`~explorer.errors.CancelledError`.

    Returns
    -------
    ndarray of int, shape (n,)
        Cluster label of each record, ``0..n_clusters-1``.  Every cluster has at
        least k records; all have exactly k except the last, which has between
        k and 2k - 1.

    Notes
    -----
    MDAV of Domingo-Ferrer and Torra [1]_: while at least 3k records remain, take
    the record r farthest (Euclidean) from the centroid of the remaining ones and
    the record s farthest from r; form a cluster of r and its k - 1 nearest
    records, then one of s and its k - 1 nearest among the rest.  With 2k to
    3k - 1 records left, form one cluster around the record farthest from the
    centroid and put the rest in a last cluster; with fewer than 2k, they form
    the last cluster.

    Ties are broken by one stated rule, the **lowest record index**: the farthest
    record is the first one at the largest distance (``numpy.argmax``), and a
    cluster takes its centre, then the records strictly nearer than the k-th
    nearest distance, then the lowest-indexed records at exactly that distance.
    Distances ``sum_j (x_j - c_j)^2`` are summed attribute by attribute with
    element-wise operations and the centroid comes from exact sums, so the
    clusters are the same on every numpy version and platform (data sets such as
    UCI Adult, with many identical records, are full of ties).

    Each step is vectorised over the remaining records, so the cost is
    O(n^2 m / k): quadratic in the number of clusters n / k.

    References
    ----------
    .. [1] J. Domingo-Ferrer and V. Torra, "Ordinal, continuous and heterogeneous k-anonymity through
       microaggregation", Data Mining and Knowledge Discovery 11(2):195-212, 2005.

    Examples
    --------
    >>> mdav_labels([[0.0], [0.1], [5.0], [5.2], [9.0], [9.1], [9.3]], 2).tolist()
    [0, 0, 2, 2, 2, 1, 1]
    >>> mdav_labels([[0.0], [1.0], [1.0], [1.0], [2.0], [2.0]], 2).tolist()   # ties: lowest index first
    [0, 0, 2, 2, 1, 1]
    """
    try:
        x = np.array(values, dtype=float)
    except (TypeError, ValueError):
        raise ExplorerTypeError(f"values must be a numeric array, got {type(values).__name__}") from None
    if x.ndim == 1:
        x = x[:, None]
    if x.ndim != 2:
        raise InvalidParameterError(f"values must be a 2-D array (records x attributes), got shape {x.shape}")
    n = x.shape[0]
    if n == 0:
        raise DatasetError("values must contain at least one record, got 0")
    if not np.all(np.isfinite(x)):
        raise InvalidParameterError("values must be finite numbers (drop or impute missing values first)")
    k = check_int(k, "k", minimum=1)
    if k > n:
        raise InvalidParameterError(f"k must be <= the number of records ({n}), got {k}")
    labels = np.full(n, -1, dtype=np.intp)
    index = np.arange(n)                    # record of each position; positions keep the records' order
    columns = np.ascontiguousarray(x.T)     # one attribute per row: contiguous element-wise passes
    # Removed records stay until half of the positions are gone (then the arrays are compacted):
    # ``far`` adds -inf to them for farthest-record searches, ``near`` adds +inf for nearest-record ones.
    far, near = np.zeros(n), np.zeros(n)
    total, n_alive = _exact_sums(columns), n
    label = 0
    while n_alive >= 3 * k:
        r = int(np.argmax(_sq_distances(columns, total / n_alive) + far))
        d_r = _sq_distances(columns, columns[:, r])
        s = int(np.argmax(d_r + far))
        d_r += near
        d_r[r] = -np.inf                                # r belongs to its own cluster
        near_r = _k_nearest(d_r, k)
        near[near_r] = np.inf
        d_s = _sq_distances(columns, columns[:, s]) + near
        if np.isfinite(d_s[s]):
            d_s[s] = -np.inf
        near_s = _k_nearest(d_s, k)
        gone = np.concatenate([near_r, near_s])
        labels[index[near_r]] = label
        labels[index[near_s]] = label + 1
        label += 2
        far[gone] = -np.inf
        near[gone] = np.inf
        total = total - _exact_sums(columns[:, gone])
        n_alive -= 2 * k
        if progress is not None and label % 64 == 0 and progress(1.0 - n_alive / n) is False:
            raise CancelledError(f"clustering cancelled after {n - n_alive:,} of {n:,} records")
        if n_alive < columns.shape[1] // 2:
            keep = np.isfinite(near)
            columns, index = columns[:, keep], index[keep]
            far, near = np.zeros(index.size), np.zeros(index.size)
            total = _exact_sums(columns)
    keep = np.isfinite(near)
    columns, index = columns[:, keep], index[keep]
    if index.size >= 2 * k:
        r = int(np.argmax(_sq_distances(columns, _exact_sums(columns) / index.size)))
        d_r = _sq_distances(columns, columns[:, r])
        d_r[r] = -np.inf
        near_r = _k_nearest(d_r, k)
        labels[index[near_r]] = label
        label += 1
        keep = np.ones(index.size, dtype=bool)
        keep[near_r] = False
        index = index[keep]
    if index.size:
        labels[index] = label
    return labels


# --------------------------------------------------------------------------- data frames
def _check_frame(frame: Any, columns: Sequence[str], what: str) -> list[str]:
    if not isinstance(frame, pd.DataFrame):
        raise ExplorerTypeError(f"frame must be a pandas DataFrame, got {type(frame).__name__}")
    if isinstance(columns, str):
        columns = [columns]
    columns = list(columns)
    if not columns:
        raise DatasetError(f"{what} must name at least one column, got none")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise DatasetError(f"{what}: column {missing[0]!r} is not in the data set")
    if len(frame) == 0:
        raise DatasetError("the data set has no records")
    return columns


def _is_numeric(series: pd.Series) -> bool:
    return (pd.api.types.is_numeric_dtype(series.dtype) and not pd.api.types.is_bool_dtype(series.dtype)
            and not isinstance(series.dtype, pd.CategoricalDtype))


def _standardise(v: np.ndarray) -> np.ndarray:
    """(v - mean) / standard deviation (ddof 0) from exact sums; zeros for a constant column."""
    v = np.where(np.isnan(v), np.nanmedian(v) if np.any(~np.isnan(v)) else 0.0, v)
    centred = v - math.fsum(v) / v.size
    sd = math.sqrt(math.fsum(centred * centred) / v.size)
    return centred / sd if sd > 0 else np.zeros_like(v)


def encode_quasi_identifiers(frame: pd.DataFrame, columns: Sequence[str], missing: str = "drop"
                             ) -> tuple[np.ndarray, np.ndarray, str]:
    """The numbers MDAV clusters, the mask of records kept, and a note on missing values.

    Parameters
    ----------
    frame : DataFrame
    columns : list of str
        The quasi-identifiers.
    missing : {"drop", "impute"}
        As in :func:`mdav`.

    Returns
    -------
    values : ndarray, shape (records kept, attributes after encoding)
    keep : ndarray of bool, shape (len(frame),)
    note : str

    Notes
    -----
    Numeric columns are standardised (mean 0, standard deviation 1); ordered
    categorical columns are standardised category codes; other categorical
    columns are one-hot encoded with indicators 1/sqrt(2), so two different
    categories are at Euclidean distance 1, about one standard deviation of a
    numeric column.  Means and standard deviations come from exact sums.

    Examples
    --------
    >>> import pandas as pd
    >>> values, keep, note = encode_quasi_identifiers(pd.DataFrame({"age": [20, 40]}), ["age"])
    >>> values.ravel().tolist(), keep.tolist(), note
    ([-1.0, 1.0], [True, True], '')
    """
    columns = _check_frame(frame, columns, "quasi_identifiers")
    if missing not in ("drop", "impute"):
        raise InvalidParameterError(f"missing must be 'drop' or 'impute', got {missing!r}")
    n = len(frame)
    has_missing = np.zeros(n, dtype=bool)
    for column in columns:
        has_missing |= frame[column].isna().to_numpy()
    keep = ~has_missing if missing == "drop" else np.ones(n, dtype=bool)
    if not keep.any():
        raise DatasetError(f"every record has a missing quasi-identifier among {columns}")
    blocks = []
    for column in columns:
        series = frame[column][keep]
        if _is_numeric(series):
            blocks.append(_standardise(series.to_numpy(dtype=float))[:, None])
        elif isinstance(series.dtype, pd.CategoricalDtype) and series.dtype.ordered:
            codes = series.cat.codes.to_numpy().astype(float)
            blocks.append(_standardise(np.where(codes < 0, np.nan, codes))[:, None])
        else:
            codes, _ = pd.factorize(series.astype(object), use_na_sentinel=False)
            onehot = np.zeros((codes.size, int(codes.max()) + 1))
            onehot[np.arange(codes.size), codes] = 1.0 / math.sqrt(2.0)   # two categories 1 apart
            blocks.append(onehot)
    n_dropped = int((~keep).sum())
    if n_dropped:
        note = f"{n_dropped} record(s) with a missing quasi-identifier dropped (label -1)"
    elif has_missing.any():
        note = (f"{int(has_missing.sum())} record(s) with a missing quasi-identifier kept: "
                "numbers imputed by the median, categories kept as a category of their own")
    else:
        note = ""
    return np.hstack(blocks), keep, note


def mdav(frame: pd.DataFrame, quasi_identifiers: Sequence[str], k: int, *, missing: str = "drop",
         progress: Callable[[float], Any] | None = None) -> Clustering:
    """k-anonymous MDAV microaggregation of a data frame on its quasi-identifiers.

    Parameters
    ----------
    frame : DataFrame
    quasi_identifiers : list of str
        Columns to cluster on.
    k : int
        Minimum cluster size, ``1 <= k <=`` number of records kept.
    missing : {"drop", "impute"}
        ``"drop"`` (default): records with a missing quasi-identifier are left out
        (label -1) and counted in ``n_dropped``.  ``"impute"``: numbers get the
        column median, a missing category is a category of its own.
    progress : callable, optional
        As in :func:`mdav_labels` (return ``False`` to cancel).

    Returns
    -------
    Clustering

    Notes
    -----
    The columns are encoded by :func:`encode_quasi_identifiers` and clustered by
    :func:`mdav_labels` (MDAV of Domingo-Ferrer and Torra [1]_, ties to the lowest
    record index).

    References
    ----------
    .. [1] J. Domingo-Ferrer and V. Torra, "Ordinal, continuous and heterogeneous k-anonymity through
       microaggregation", Data Mining and Knowledge Discovery 11(2):195-212, 2005.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"age": [20, 21, 40, 41, 60, 62], "sex": list("FMFMFM")})
    >>> mdav(frame, ["age"], 2).sizes.tolist()
    [2, 2, 2]
    """
    columns = _check_frame(frame, quasi_identifiers, "quasi_identifiers")
    k = check_int(k, "k", minimum=1)
    values, keep, note = encode_quasi_identifiers(frame, columns, missing)
    n_kept = int(keep.sum())
    if k > n_kept:
        raise InvalidParameterError(f"k must be <= the number of records ({n_kept}), got {k}")
    labels = np.full(len(frame), -1, dtype=np.intp)
    labels[keep] = mdav_labels(values, k, progress=progress)
    return Clustering(labels=labels, method="mdav", k=k, n_dropped=int((~keep).sum()), note=note)


def k_for_records(k: int, n_records: int) -> int:
    """The minimum cluster size to use on ``n_records`` records when ``k`` is asked for.

    ``k`` itself when the records allow it; on fewer than ``k`` records, ``n_records // 4`` (at least 1), so that
    a small data set still shows a few clusters (the explorer's t-closeness tab, which brings ``k`` back with a
    larger data set).

    Parameters
    ----------
    k : int
        The minimum cluster size asked for, >= 1.
    n_records : int
        Records of the data set, >= 0.

    Returns
    -------
    int

    Examples
    --------
    >>> k_for_records(50, 32_561), k_for_records(50, 20), k_for_records(50, 3)
    (50, 5, 1)
    """
    k = check_int(k, "k", minimum=1)
    n_records = check_int(n_records, "n_records", minimum=0)
    return k if k <= n_records else max(1, n_records // 4)


def group_by(frame: pd.DataFrame, columns: Sequence[str]) -> Clustering:
    """Clusters = records sharing the same values of ``columns`` (k-anonymity's equivalence classes).

    Missing values form a group of their own.

    Examples
    --------
    >>> import pandas as pd
    >>> group_by(pd.DataFrame({"sex": list("FMFF")}), ["sex"]).labels.tolist()
    [0, 1, 0, 0]
    """
    columns = _check_frame(frame, columns, "columns")
    labels = frame.groupby(columns, sort=True, dropna=False, observed=True).ngroup().to_numpy().astype(np.intp)
    return Clustering(labels=labels, method="group_by", k=None)
