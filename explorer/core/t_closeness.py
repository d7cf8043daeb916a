"""t-closeness and differential privacy: cluster distributions against the whole data set (000 Section IV).

A clustering of the records (microaggregation, a group-by on quasi-identifiers,
or t-close microaggregation) gives, for each cluster, the distribution of the
sensitive attribute inside it.  The data set is t-close when every cluster's
distribution is within distance t of the whole data set's.  With the ratio
distance of 000 Eq. (7), exp(eps/2)-closeness gives eps-differential privacy
(000 Proposition 1, after Domingo-Ferrer & Soria-Comas, KBS 2015), and the
deniability reading of 000 Section II-A (the cluster is the "reported value")
says what an intruder who learns a person's cluster can guess (Examples 2-3).

Conventions: sensitive values are integer codes ``0..r-1`` plus their labels;
entropies are in bits (:func:`explorer.core.deniability.entropy`); a cluster
label of ``-1`` means "left out" (a record dropped because of a missing
quasi-identifier).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from explorer.core.export import csv_safe  # noqa: F401  (re-exported)
from explorer._validation import check_epsilon, check_int, check_number
from explorer.core.deniability import entropy
from explorer.errors import (
    CancelledError,
    DatasetError,
    ExplorerTypeError,
    InvalidDistributionError,
    InvalidParameterError,
)

__all__ = [
    "DISTANCES",
    "ratio_distance",
    "emd_equal",
    "emd_ordered",
    "distribution_distance",
    "closeness_for_epsilon",
    "epsilon_for_closeness",
    "Clustering",
    "mdav_labels",
    "mdav",
    "group_by",
    "t_close_microaggregation",
    "SensitiveCodes",
    "encode_sensitive",
    "ClosenessProfile",
    "closeness_profile",
    "WorstCaseCluster",
    "worst_case_cluster",
    "cluster_table",
    "csv_safe",
    "MISSING_LABEL",
]

#: Distances between a cluster's distribution and the data set's: 000 Eq. (7) and the two EMDs of
#: Li, Li & Venkatasubramanian's t-closeness (equal and ordered ground distance).
DISTANCES = ("ratio", "emd", "emd_ordered")

#: The category that missing sensitive values become under ``missing="category"``.
MISSING_LABEL = "(missing)"


# --------------------------------------------------------------------------- distances
def _pair(f1: ArrayLike, f2: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Two distributions on the same categories (rows of a 2-D ``f1`` are compared with ``f2``)."""
    try:
        a = np.asarray(f1, dtype=float)
        b = np.asarray(f2, dtype=float)
    except (TypeError, ValueError):
        raise ExplorerTypeError(f"f1 and f2 must be arrays of probabilities, got {f1!r} and {f2!r}") from None
    if a.ndim not in (1, 2) or b.ndim not in (1, 2):
        raise InvalidDistributionError(
            f"f1 and f2 must be vectors (or rows of vectors), got shapes {a.shape} and {b.shape}")
    if a.shape[-1] != b.shape[-1]:
        raise InvalidDistributionError(
            f"f1 and f2 must have the same number of categories, got {a.shape[-1]} and {b.shape[-1]}")
    if a.shape[-1] == 0:
        raise InvalidDistributionError("f1 and f2 must not be empty")
    for name, x in (("f1", a), ("f2", b)):
        if not np.all(np.isfinite(x)) or np.any(x < 0):
            raise InvalidDistributionError(f"{name} must contain non-negative finite probabilities, got {x!r}")
    return a, b


def ratio_distance(f1: ArrayLike, f2: ArrayLike) -> float | np.ndarray:
    """The max-ratio distance of 000 Eq. (7) between two discrete distributions.

    Parameters
    ----------
    f1, f2 : array_like
        Probability vectors on the same categories.  ``f1`` may be 2-D: one
        distribution per row, each compared with ``f2`` (a vector of distances).

    Returns
    -------
    float or ndarray
        ``max_i max(f1_i / f2_i, f2_i / f1_i)``; 0/0 counts as 0 and x/0 as infinity.

    Notes
    -----
    000 Eq. (7):

    .. math:: d(F_1, F_2) = \\max_i \\left\\{ \\frac{\\Pr_{F_1}(x_i)}{\\Pr_{F_2}(x_i)},
              \\frac{\\Pr_{F_2}(x_i)}{\\Pr_{F_1}(x_i)} \\right\\}

    It is symmetric, at least 1 for two proper distributions, and infinite iff
    their supports differ.  A data set is t-close when every cluster is within
    t of the whole data set (boundary included: 000 Example 3 sits on d = e).

    Examples
    --------
    >>> import math
    >>> e = math.e
    >>> round(ratio_distance([0.2 * e] + [(1 - 0.2 * e) / 4] * 4, [0.2] * 5), 6)   # 000 Example 3
    2.718282
    >>> ratio_distance([0.5, 0.5, 0.0], [0.4, 0.4, 0.2])
    inf
    """
    a, b = _pair(f1, f2)
    with np.errstate(divide="ignore", invalid="ignore"):
        forward = np.where(a > 0, a / b, 0.0)           # x/0 -> inf, 0/anything -> 0 (incl. 0/0)
        backward = np.where(b > 0, b / a, 0.0)
    result = np.maximum(forward, backward).max(axis=-1)
    return float(result) if np.ndim(result) == 0 else result


def emd_equal(f1: ArrayLike, f2: ArrayLike) -> float | np.ndarray:
    """Earth mover's distance with equal ground distance: half the L1 distance (total variation).

    Notes
    -----
    With ground distance 1 between any two different values (Li et al. 2007),
    :math:`EMD(P, Q) = \\frac12 \\sum_i |p_i - q_i|`.  Unlike Eq. (7) it stays
    finite when a cluster lacks a value.

    Examples
    --------
    >>> round(emd_equal([1/3, 1/3, 1/3, 0, 0, 0, 0, 0, 0], [1/9] * 9), 4)   # Li et al.'s salary example
    0.6667
    """
    a, b = _pair(f1, f2)
    result = 0.5 * np.abs(a - b).sum(axis=-1)
    return float(result) if np.ndim(result) == 0 else result


def emd_ordered(f1: ArrayLike, f2: ArrayLike) -> float | np.ndarray:
    """Earth mover's distance with ordered ground distance ``|i - j| / (r - 1)``.

    Notes
    -----
    For values in a fixed order (Li et al. 2007, ordered distance),
    :math:`EMD(P, Q) = \\frac{1}{r-1} \\sum_{i=1}^{r} \\left| \\sum_{j \\le i} (p_j - q_j) \\right|`.
    With one category it is 0.

    Examples
    --------
    >>> q = [1/9] * 9                                   # salaries 3k..11k, uniform
    >>> round(emd_ordered([1/3, 1/3, 1/3, 0, 0, 0, 0, 0, 0], q), 3)      # {3k, 4k, 5k}
    0.375
    >>> round(emd_ordered([0, 0, 0, 1/3, 0, 1/3, 0, 0, 1/3], q), 3)      # {6k, 8k, 11k}
    0.167
    """
    a, b = _pair(f1, f2)
    r = a.shape[-1]
    if r == 1:
        result = np.zeros(a.shape[:-1])
    else:
        result = np.abs(np.cumsum(a - b, axis=-1)).sum(axis=-1) / (r - 1)
    return float(result) if np.ndim(result) == 0 else result


_DISTANCE_FUNCTIONS = {"ratio": ratio_distance, "emd": emd_equal, "emd_ordered": emd_ordered}


def _check_distance(distance: Any) -> str:
    if distance not in _DISTANCE_FUNCTIONS:
        raise InvalidParameterError(f"distance must be one of {DISTANCES}, got {distance!r}")
    return distance


def distribution_distance(f1: ArrayLike, f2: ArrayLike, distance: str = "ratio") -> float | np.ndarray:
    """Distance ``"ratio"`` (000 Eq. 7), ``"emd"`` (equal ground distance) or ``"emd_ordered"``.

    Examples
    --------
    >>> distribution_distance([0.5, 0.5], [0.25, 0.75], "emd")
    0.25
    """
    return _DISTANCE_FUNCTIONS[_check_distance(distance)](f1, f2)


def closeness_for_epsilon(epsilon: float) -> float:
    """The closeness level t = exp(eps/2) that gives eps-DP (000 Proposition 1).

    Notes
    -----
    000 Proposition 1 (from Domingo-Ferrer & Soria-Comas 2015): exp(eps/2)-closeness
    under Eq. (7) implies eps-differential privacy of the view of a subject's
    sensitive value.

    Examples
    --------
    >>> round(closeness_for_epsilon(2), 6)              # 000 Example 2: factor e
    2.718282
    """
    eps = check_epsilon(epsilon)
    return math.inf if math.isinf(eps) else math.exp(eps / 2.0)


def epsilon_for_closeness(t: float) -> float:
    """The epsilon that exp(eps/2) = t certifies: eps = 2 ln t (t >= 1 under Eq. 7).

    Examples
    --------
    >>> round(epsilon_for_closeness(math.e), 6)
    2.0
    """
    value = check_number(t, "t", minimum=1.0, allow_inf=True)
    return math.inf if math.isinf(value) else 2.0 * math.log(value)


# --------------------------------------------------------------------------- clusterings
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


def _sq_dist(points: np.ndarray, sq_norms: np.ndarray, centre: np.ndarray) -> np.ndarray:
    # ||p - c||^2 = ||p||^2 - 2 p.c + ||c||^2: one matrix-vector product per step
    return sq_norms - 2.0 * (points @ centre) + centre @ centre


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
    Domingo-Ferrer & Torra's MDAV: while at least 3k records remain, take the
    record r farthest (Euclidean) from the centroid of the remaining ones and
    the record s farthest from r; form a cluster of r and its k - 1 nearest
    records, then one of s and its k - 1 nearest among the rest.  With 2k to
    3k - 1 records left, form one cluster around the record farthest from the
    centroid and put the rest in a last cluster; with fewer than 2k, they form
    the last cluster.  Each step is vectorised (one matrix-vector product per
    distance vector, ``argpartition`` for the k nearest), so the cost is
    O(n^2 m / k): quadratic in the number of clusters n / k.  Squared distances
    are expanded as ||x||^2 - 2 x.c + ||c||^2 on centred data (exact up to
    rounding); a tie for the farthest record goes to the first one, ties among
    the k nearest are broken by ``numpy.argpartition`` (deterministic).

    Examples
    --------
    >>> mdav_labels([[0.0], [0.1], [5.0], [5.2], [9.0], [9.1], [9.3]], 2).tolist()
    [0, 0, 2, 2, 2, 1, 1]
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
    index = np.arange(n)
    points = x - x.mean(axis=0)                      # centring keeps the expansion of distances accurate
    sq_norms = np.einsum("ij,ij->i", points, points)
    # Removed records stay in the arrays until half of them are gone (then the arrays are compacted):
    # their squared norm is -inf for farthest-record searches and +inf for nearest-record searches.
    sq_far, sq_near = sq_norms.copy(), sq_norms.copy()
    total, n_alive = points.sum(axis=0), n
    label = 0
    while n_alive >= 3 * k:
        centroid = total / n_alive
        r = int(np.argmax(sq_far - 2.0 * (points @ centroid)))
        base = points[r] @ points[r] - 2.0 * (points @ points[r])
        s = int(np.argmax(sq_far + base))
        d_r = sq_near + base
        d_r[r] = -np.inf                               # r belongs to its own cluster whatever the rounding
        near_r = np.argpartition(d_r, k - 1)[:k]
        sq_near[near_r] = np.inf
        d_s = sq_near + (points[s] @ points[s] - 2.0 * (points @ points[s]))
        if np.isfinite(d_s[s]):
            d_s[s] = -np.inf
        near_s = np.argpartition(d_s, k - 1)[:k]
        gone = np.concatenate([near_r, near_s])
        labels[index[near_r]] = label
        labels[index[near_s]] = label + 1
        label += 2
        sq_far[gone] = -np.inf
        sq_near[gone] = np.inf
        total = total - points[gone].sum(axis=0)
        n_alive -= 2 * k
        if progress is not None and label % 64 == 0 and progress(1.0 - n_alive / n) is False:
            raise CancelledError(f"clustering cancelled after {n - n_alive:,} of {n:,} records")
        if n_alive < points.shape[0] // 2:
            keep = np.isfinite(sq_near)
            points, sq_norms, index = points[keep], sq_norms[keep], index[keep]
            sq_far, sq_near = sq_norms.copy(), sq_norms.copy()
            total = points.sum(axis=0)
    keep = np.isfinite(sq_near)
    points, sq_norms, index = points[keep], sq_norms[keep], index[keep]
    if points.shape[0] >= 2 * k:
        centroid = points.mean(axis=0)
        r = int(np.argmax(_sq_dist(points, sq_norms, centroid)))
        d_r = _sq_dist(points, sq_norms, points[r])
        d_r[r] = -np.inf
        near_r = np.argpartition(d_r, k - 1)[:k]
        labels[index[near_r]] = label
        label += 1
        keep = np.ones(points.shape[0], dtype=bool)
        keep[near_r] = False
        index = index[keep]
    if index.size:
        labels[index] = label
    return labels


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


def _encode_qi(frame: pd.DataFrame, columns: list[str], missing: str) -> tuple[np.ndarray, np.ndarray, str]:
    """Scaled numbers for MDAV, the mask of records kept, and a note on missing values."""
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
            v = series.to_numpy(dtype=float)
            v = np.where(np.isnan(v), np.nanmedian(v) if np.any(~np.isnan(v)) else 0.0, v)
            sd = v.std()
            blocks.append(((v - v.mean()) / sd if sd > 0 else np.zeros_like(v))[:, None])
        elif isinstance(series.dtype, pd.CategoricalDtype) and series.dtype.ordered:
            codes = series.cat.codes.to_numpy().astype(float)
            codes = np.where(codes < 0, np.nan, codes)
            codes = np.where(np.isnan(codes), np.nanmedian(codes) if np.any(~np.isnan(codes)) else 0.0, codes)
            sd = codes.std()
            blocks.append(((codes - codes.mean()) / sd if sd > 0 else np.zeros_like(codes))[:, None])
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
    Encoding: numeric columns are standardised (mean 0, standard deviation 1);
    ordered categorical columns are standardised category codes; other
    categorical columns are one-hot encoded with indicators 1/sqrt(2), so two
    different categories are at Euclidean distance 1, about one standard
    deviation of a numeric column.  Clustering is :func:`mdav_labels`.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"age": [20, 21, 40, 41, 60, 62], "sex": list("FMFMFM")})
    >>> mdav(frame, ["age"], 2).sizes.tolist()
    [2, 2, 2]
    """
    columns = _check_frame(frame, quasi_identifiers, "quasi_identifiers")
    k = check_int(k, "k", minimum=1)
    values, keep, note = _encode_qi(frame, columns, missing)
    n_kept = int(keep.sum())
    if k > n_kept:
        raise InvalidParameterError(f"k must be <= the number of records ({n_kept}), got {k}")
    labels = np.full(len(frame), -1, dtype=np.intp)
    labels[keep] = mdav_labels(values, k, progress=progress)
    return Clustering(labels=labels, method="mdav", k=k, n_dropped=int((~keep).sum()), note=note)


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


# --------------------------------------------------------------------------- sensitive attribute
@dataclass(frozen=True)
class SensitiveCodes:
    """A sensitive attribute as integer codes ``0..r-1`` (``-1`` = record left out) and labels."""

    codes: np.ndarray
    categories: tuple[str, ...]
    n_dropped: int = 0
    note: str = ""


BINNINGS = ("values", "quantile", "edges")


def encode_sensitive(frame: pd.DataFrame, sensitive: str, *, binning: str | None = None, bins: int = 5,
                     edges: Sequence[float] | None = None, missing: str = "category") -> SensitiveCodes:
    """Codes and labels of a sensitive attribute, discretising a numeric one with a named binning.

    Parameters
    ----------
    binning : {None, "values", "quantile", "edges"}
        Required for a numeric attribute: ``"values"`` (each distinct value a
        category), ``"quantile"`` (``bins`` quantile bins; tied edges merge) or
        ``"edges"`` (fixed ``edges``, values outside them are an error).
        Categorical attributes use their categories (in their order).
    missing : {"category", "drop"}
        ``"category"``: missing values form the category ``"(missing)"``;
        ``"drop"``: their records get code -1 and are counted.

    Examples
    --------
    >>> import pandas as pd
    >>> encode_sensitive(pd.DataFrame({"s": ["a", "b", "a"]}), "s").codes.tolist()
    [0, 1, 0]
    >>> encode_sensitive(pd.DataFrame({"x": [1, 2, 3, 4]}), "x", binning="edges", edges=[0, 2, 4]).categories
    ('[0, 2]', '(2, 4]')
    """
    (column,) = _check_frame(frame, [sensitive], "sensitive")
    if missing not in ("category", "drop"):
        raise InvalidParameterError(f"missing must be 'category' or 'drop', got {missing!r}")
    series = frame[column]
    if _is_numeric(series):
        if binning is None:
            raise DatasetError(f"sensitive attribute {column!r} is numeric: choose a binning "
                               f"('values', 'quantile' or 'edges')")
        if binning not in BINNINGS:
            raise InvalidParameterError(f"binning must be one of {BINNINGS}, got {binning!r}")
        if binning == "values":
            series = series.astype("category")
        elif binning == "quantile":
            bins = check_int(bins, "bins", minimum=1, maximum=100)
            _, quantile_edges = pd.qcut(series, bins, duplicates="drop", retbins=True)
            series = _cut(series, np.asarray(quantile_edges, dtype=float))
        else:
            if edges is None:
                raise InvalidParameterError("edges must be given for binning 'edges', got None")
            try:
                edge_array = np.asarray(edges, dtype=float)
            except (TypeError, ValueError):
                raise ExplorerTypeError(f"edges must be numbers, got {edges!r}") from None
            if edge_array.ndim != 1 or edge_array.size < 2 or np.any(np.diff(edge_array) <= 0) \
                    or not np.all(np.isfinite(edge_array)):
                raise InvalidParameterError(f"edges must be at least two increasing finite numbers, got {edges!r}")
            outside = series.notna() & ((series < edge_array[0]) | (series > edge_array[-1]))
            if outside.any():
                raise InvalidParameterError(f"edges {edges!r} do not cover value {series[outside].iloc[0]!r} "
                                            f"of {column!r}")
            series = _cut(series, edge_array)
        categories = [_interval_label(c) for c in series.cat.categories]
        codes = series.cat.codes.to_numpy().astype(np.intp)
    else:
        if isinstance(series.dtype, pd.CategoricalDtype):
            codes = series.cat.codes.to_numpy().astype(np.intp)
            categories = [str(c) for c in series.cat.categories]
        else:
            codes, uniques = pd.factorize(series, sort=True)
            codes = codes.astype(np.intp)
            categories = [str(c) for c in uniques]
    is_missing = codes < 0
    n_missing = int(is_missing.sum())
    note = ""
    if n_missing and missing == "category":
        codes = np.where(is_missing, len(categories), codes)
        categories.append(MISSING_LABEL)
        note = f"{n_missing} missing sensitive value(s) kept as the category {MISSING_LABEL!r}"
    elif n_missing:
        note = f"{n_missing} record(s) with a missing sensitive value dropped"
    # keep only categories that occur: a value nobody has is not part of the distribution
    used = np.bincount(codes[codes >= 0], minlength=len(categories)) > 0
    remap = np.cumsum(used) - 1
    codes = np.where(codes >= 0, remap[np.maximum(codes, 0)], -1).astype(np.intp)
    categories = [c for c, u in zip(categories, used) if u]
    if len(categories) == 0:
        raise DatasetError(f"sensitive attribute {column!r} has no values")
    return SensitiveCodes(codes=codes, categories=tuple(categories),
                          n_dropped=n_missing if missing == "drop" else 0, note=note)


def _cut(series: pd.Series, edges: np.ndarray) -> pd.Series:
    """Bins ``[e0, e1], (e1, e2], ...`` labelled with the edges as given."""
    if edges.size < 2:                                # a constant column: one bin
        edges = np.array([edges[0], edges[0]]) if edges.size else np.array([0.0, 0.0])
        labels = [f"[{edges[0]:g}, {edges[1]:g}]"]
        return pd.Series(pd.Categorical(np.where(series.isna(), None, labels[0]), categories=labels),
                         index=series.index)
    labels = [f"[{edges[0]:g}, {edges[1]:g}]"] + [f"({a:g}, {b:g}]" for a, b in zip(edges[1:-1], edges[2:])]
    return pd.cut(series, edges, labels=labels, include_lowest=True)


def _interval_label(interval: Any) -> str:
    if isinstance(interval, pd.Interval):
        left = "[" if interval.closed in ("left", "both") else "("
        right = "]" if interval.closed in ("right", "both") else ")"
        return f"{left}{interval.left:g}, {interval.right:g}{right}"
    return str(interval)


def _labels_of(clusters: Any, n: int) -> np.ndarray:
    labels = clusters.labels if isinstance(clusters, Clustering) else clusters
    try:
        labels = np.asarray(labels)
    except (TypeError, ValueError):
        raise ExplorerTypeError("clusters must be a Clustering or one integer label per record") from None
    if labels.ndim != 1 or labels.size != n:
        raise InvalidParameterError(f"clusters must give one label per record ({n}), got shape {labels.shape}")
    if labels.size and not np.issubdtype(labels.dtype, np.integer):
        if np.issubdtype(labels.dtype, np.floating) and np.all(np.isfinite(labels)) \
                and np.all(labels == np.round(labels)):
            labels = labels.astype(np.intp)
        else:
            raise ExplorerTypeError(f"clusters must be integer labels, got dtype {labels.dtype}")
    return labels.astype(np.intp)


def _cluster_counts(labels: np.ndarray, codes: np.ndarray, r: int) -> tuple[np.ndarray, np.ndarray]:
    """Counts matrix (clusters x r) over records kept in both, and the ids of non-empty clusters."""
    ok = (labels >= 0) & (codes >= 0)
    if not ok.any():
        raise DatasetError("no record is left once records outside any cluster or without a sensitive value "
                           "are dropped")
    ids, compact = np.unique(labels[ok], return_inverse=True)
    counts = np.zeros((ids.size, r))
    np.add.at(counts, (compact, codes[ok]), 1.0)
    return counts, ids


# --------------------------------------------------------------------------- profile
@dataclass(frozen=True)
class ClosenessProfile:
    """The per-cluster closeness profile of a clustered data set and its verdict.

    Attributes
    ----------
    cluster_ids : ndarray
        Label of each (non-empty) cluster, one row each below.
    sizes : ndarray
        Records per cluster.
    distances : ndarray
        Distance of each cluster's distribution to the data set's.
    attaining : ndarray of int
        Code of the sensitive value that attains the distance (for EMD: the
        value whose share changed most).
    factors : ndarray
        Share in the cluster / share in the data set, for that value (0 when
        the value is absent from the cluster).
    distributions : ndarray, shape (n_clusters, r)
        Cluster-level distributions.
    data_distribution : ndarray, shape (r,)
        Data-set-level distribution of the sensitive attribute.
    entropies : ndarray
        Deniability H(S | cluster = c) in bits (000 Eq. 4 with the cluster as report).
    guessing : ndarray
        Guessing probability max_u Pr(S = u | cluster).
    data_entropy, data_guessing : float
        H(S) and max_u Pr(S = u) of the whole data set.
    conditional_entropy : float
        H(S | cluster), size-weighted mean of ``entropies``.
    categories : tuple of str
    distance : str
    t : float or None
        Bound the verdict was made against.
    n_records : int
        Records counted (in a cluster and with a sensitive value).
    n_dropped : int
        Records left out.
    notes : tuple of str
    """

    cluster_ids: np.ndarray
    sizes: np.ndarray
    distances: np.ndarray
    attaining: np.ndarray
    factors: np.ndarray
    distributions: np.ndarray
    data_distribution: np.ndarray
    entropies: np.ndarray
    guessing: np.ndarray
    data_entropy: float
    data_guessing: float
    conditional_entropy: float
    categories: tuple[str, ...]
    distance: str
    t: float | None
    n_records: int
    n_dropped: int = 0
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def n_clusters(self) -> int:
        return int(self.sizes.size)

    @property
    def max_distance(self) -> float:
        """The data set's closeness level: the largest cluster distance."""
        return float(self.distances.max())

    def violating(self, t: float | None = None) -> np.ndarray:
        """Mask of clusters farther than ``t`` (default: the profile's t) from the data set."""
        bound = self.t if t is None else check_number(t, "t", minimum=0.0, allow_inf=True)
        if bound is None:
            raise InvalidParameterError("t must be given: this profile was made without a bound")
        return self.distances > bound

    def n_violating(self, t: float | None = None) -> int:
        return int(self.violating(t).sum())

    def is_t_close(self, t: float | None = None) -> bool:
        """t-close iff every cluster distance d <= t (boundary included)."""
        return self.n_violating(t) == 0


def closeness_profile(frame: pd.DataFrame, clusters: Clustering | ArrayLike, sensitive: str, distance: str = "ratio",
                      *, t: float | None = None, binning: str | None = None, bins: int = 5,
                      edges: Sequence[float] | None = None, missing: str = "category") -> ClosenessProfile:
    """One row per cluster: size, distance to the whole data set, the value attaining it, deniability.

    Parameters
    ----------
    frame : DataFrame
    clusters : Clustering or array_like of int
        Cluster label of each record (-1 = left out).
    sensitive : str
        The sensitive column (a numeric one needs ``binning``, see :func:`encode_sensitive`).
    distance : {"ratio", "emd", "emd_ordered"}
    t : float, optional
        Bound for the verdict (t-close iff every distance <= t).
    missing : {"category", "drop"}
        Missing sensitive values: a category of their own, or dropped with a count.

    Returns
    -------
    ClosenessProfile

    Notes
    -----
    The distance is 000 Eq. (7) (or an EMD) between each cluster's distribution
    and the data set's.  With the cluster as the "reported value" (000 Section
    IV after II-A), deniability is H(S | cluster = c) = -sum_u q_cu log2 q_cu
    (Eq. 4), at most log2 r; an intruder who learns the cluster guesses the
    most frequent value, right with probability max_u q_cu.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"s": list("aabbaabb")})
    >>> p = closeness_profile(frame, [0, 0, 0, 0, 1, 1, 1, 1], "s", t=1.0)
    >>> p.distances.tolist(), p.is_t_close()
    ([1.0, 1.0], True)
    """
    if not isinstance(frame, pd.DataFrame):
        raise ExplorerTypeError(f"frame must be a pandas DataFrame, got {type(frame).__name__}")
    distance = _check_distance(distance)
    bound = None if t is None else check_number(t, "t", minimum=0.0, allow_inf=True)
    labels = _labels_of(clusters, len(frame))
    sens = encode_sensitive(frame, sensitive, binning=binning, bins=bins, edges=edges, missing=missing)
    r = len(sens.categories)
    if r < 2:
        raise DatasetError(f"sensitive attribute {sensitive!r} has a single value ({sens.categories[0]!r}): "
                           "every cluster has the same distribution, there is nothing to disclose")
    counts, ids = _cluster_counts(labels, sens.codes, r)
    return _profile_from_counts(counts, ids, sens, distance, bound, len(frame),
                                clusters.note if isinstance(clusters, Clustering) else "")


def _profile_from_counts(counts: np.ndarray, ids: np.ndarray, sens: SensitiveCodes, distance: str,
                         bound: float | None, n_total: int, clustering_note: str = "") -> ClosenessProfile:
    sizes = counts.sum(axis=1)
    total = counts.sum(axis=0)
    n_records = int(total.sum())
    data = total / n_records
    q = counts / sizes[:, None]
    distances = np.asarray(_DISTANCE_FUNCTIONS[distance](q, data), dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios = q / data                       # data > 0 for every category kept
        if distance == "ratio":
            score = np.maximum(ratios, np.where(ratios > 0, 1.0 / ratios, np.inf))
        else:
            score = np.abs(q - data)
    attaining = np.argmax(score, axis=1)
    factors = ratios[np.arange(ids.size), attaining]
    entropies = np.asarray(entropy(q), dtype=float)
    notes = tuple(n for n in (clustering_note, sens.note) if n)
    return ClosenessProfile(
        cluster_ids=ids, sizes=sizes.astype(np.intp), distances=distances, attaining=attaining, factors=factors,
        distributions=q, data_distribution=data, entropies=entropies, guessing=q.max(axis=1),
        data_entropy=float(entropy(data)), data_guessing=float(data.max()),
        conditional_entropy=float(np.dot(sizes, entropies) / n_records), categories=sens.categories,
        distance=distance, t=bound, n_records=n_records, n_dropped=n_total - n_records, notes=notes)


# --------------------------------------------------------------------------- t-close microaggregation
def t_close_microaggregation(frame: pd.DataFrame, quasi_identifiers: Sequence[str], sensitive: str, k: int,
                             t: float, *, distance: str = "ratio", binning: str | None = None, bins: int = 5,
                             edges: Sequence[float] | None = None, missing: str = "drop",
                             sensitive_missing: str = "category",
                             progress: Callable[[float], Any] | None = None) -> Clustering:
    """k-anonymous microaggregation whose clusters are merged until every one is t-close.

    Parameters
    ----------
    t : float
        The bound: >= 1 for the ratio distance (e.g. ``closeness_for_epsilon(eps)``),
        in [0, 1] for the EMDs.
    progress : callable, optional
        Called with the fraction done (MDAV, then merging); return ``False`` to cancel.
    Other parameters as in :func:`mdav` and :func:`closeness_profile`.

    Returns
    -------
    Clustering
        ``n_merges`` merges were made; every cluster is within ``t``.

    Notes
    -----
    The k-anonymity-first approach of Soria-Comas, Domingo-Ferrer et al. (2015)
    that 000 Section IV cites: MDAV clusters of at least k records, then, while
    a cluster is farther than t from the data set, the farthest one is merged
    with the cluster whose centroid is nearest in quasi-identifier space.  One
    cluster holding every record has distance 1 (ratio) or 0 (EMD), so this
    ends with a t-close partition for any valid t.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"age": [20, 21, 22, 23, 60, 61, 62, 63], "s": list("aaabbbab")})
    >>> c = t_close_microaggregation(frame, ["age"], "s", 2, 1.5)
    >>> bool(closeness_profile(frame, c, "s").max_distance <= 1.5)
    True
    """
    distance = _check_distance(distance)
    if distance == "ratio":
        t = check_number(t, "t", minimum=1.0, allow_inf=True)
    else:
        t = check_number(t, "t", minimum=0.0, maximum=1.0)
    columns = _check_frame(frame, quasi_identifiers, "quasi_identifiers")
    k = check_int(k, "k", minimum=1)
    values, qi_keep, note = _encode_qi(frame, columns, missing)
    sens = encode_sensitive(frame, sensitive, binning=binning, bins=bins, edges=edges, missing=sensitive_missing)
    if len(sens.categories) < 2:
        raise DatasetError(f"sensitive attribute {sensitive!r} has a single value ({sens.categories[0]!r}): "
                           "every cluster is trivially t-close")
    sens_ok = sens.codes >= 0
    values = values[sens_ok[qi_keep]]               # rows of ``values`` are the records with QIs kept
    keep = qi_keep & sens_ok
    n_kept = int(keep.sum())
    if n_kept == 0:
        raise DatasetError("no record is left once missing values are dropped")
    if k > n_kept:
        raise InvalidParameterError(f"k must be <= the number of records ({n_kept}), got {k}")
    r = len(sens.categories)
    codes = sens.codes[keep]
    base = mdav_labels(values, k, progress=None if progress is None else (lambda f: progress(0.9 * f)))
    n_c = int(base.max()) + 1
    counts = np.zeros((n_c, r))
    np.add.at(counts, (base, codes), 1.0)
    sums = np.zeros((n_c, values.shape[1]))
    np.add.at(sums, base, values)
    sizes = counts.sum(axis=1)
    data = counts.sum(axis=0) / n_kept
    measure = _DISTANCE_FUNCTIONS[distance]
    dist = np.asarray(measure(counts / sizes[:, None], data), dtype=float)
    alive = np.ones(n_c, dtype=bool)
    parent = np.arange(n_c)
    n_merges = 0
    tolerance = 1e-12 * max(1.0, t if math.isfinite(t) else 1.0)
    while True:
        bad = np.where(alive, dist, -np.inf)
        worst = int(np.argmax(bad))
        if not bad[worst] > t + tolerance:
            break
        centroids = sums / np.maximum(sizes, 1)[:, None]
        gap = np.einsum("ij,ij->i", centroids - centroids[worst], centroids - centroids[worst])
        gap[~alive] = np.inf
        gap[worst] = np.inf
        other = int(np.argmin(gap))
        if not np.isfinite(gap[other]):
            break                                    # a single cluster is left: distance 1 (ratio) or 0 (EMD)
        counts[other] += counts[worst]
        sums[other] += sums[worst]
        sizes[other] += sizes[worst]
        alive[worst] = False
        parent[parent == worst] = other
        dist[other] = float(measure(counts[other] / sizes[other], data))
        dist[worst] = -np.inf
        n_merges += 1
        if progress is not None and n_merges % 256 == 0 and progress(0.9 + 0.1 * n_merges / n_c) is False:
            raise CancelledError(f"t-close microaggregation cancelled after {n_merges:,} merges")
    final = parent[base]
    _, compact = np.unique(final, return_inverse=True)
    labels = np.full(len(frame), -1, dtype=np.intp)
    labels[keep] = compact
    n_dropped = int((~keep).sum())
    parts = [p for p in (note, sens.note if sens.n_dropped else "") if p]
    parts.append(f"{n_merges} merge(s) of MDAV clusters to reach {distance} distance <= {t:g}; "
                 f"{int(compact.max()) + 1} cluster(s) remain")
    return Clustering(labels=labels, method="t_close_microaggregation", k=k, n_dropped=n_dropped,
                      note="; ".join(parts), t=t, distance=distance, n_merges=n_merges)


# --------------------------------------------------------------------------- worst case (Example 3)
@dataclass(frozen=True)
class WorstCaseCluster:
    """The most concentrated cluster distribution still exp(eps/2)-close (000 Example 3 generalised).

    Attributes
    ----------
    distribution : ndarray
        Cluster-level distribution: value ``value`` raised, the others scaled down
        in proportion to their data-set shares.
    value : int
        The value raised.
    t : float
        exp(eps/2).
    factor : float
        Achieved growth of that value's share (= t when the bound binds).
    distance : float
        Ratio distance (Eq. 7) to the data-set distribution (<= t).
    entropy, data_entropy : float
        H(S | cluster) of this cluster and H(S), bits.
    guessing, data_guessing : float
        The intruder's guessing probability knowing the cluster, and without it.
    binds : bool
        Whether the value can grow by the full factor t.  It cannot when
        share x t > 1, nor when the others would have to shrink by more than
        1/t (share > 1/(1 + t)); then the share grows to ``1 - (1 - share)/t``.
    note : str
    """

    distribution: np.ndarray
    value: int
    t: float
    factor: float
    distance: float
    entropy: float
    data_entropy: float
    guessing: float
    data_guessing: float
    binds: bool
    note: str


def worst_case_cluster(prior: ArrayLike, epsilon: float, *, value: int | None = None) -> WorstCaseCluster:
    """The cluster distribution that puts one value at exp(eps/2) times its share, still exp(eps/2)-close.

    Parameters
    ----------
    prior : array_like
        The data-set-level distribution of the sensitive attribute (normalised
        here if it does not sum to 1).
    epsilon : float
        Privacy parameter; t = exp(eps/2) (000 Proposition 1).
    value : int, optional
        Index of the value to raise; by default the one giving the highest
        guessing probability.

    Returns
    -------
    WorstCaseCluster

    Notes
    -----
    000 Example 3: r = 5, uniform prior, eps = 2: one value at 0.2 e = 0.54366
    (printed 0.5436, truncated), the four others (1 - 0.2 e)/4 = 0.114086; the
    ratio distance is e, so the cluster is exp(1)-close and 2-DP.  In general
    the raised share is ``q_j = min(t p_j, 1 - (1 - p_j)/t)``: the others,
    scaled by ``(1 - q_j)/(1 - p_j)``, must keep at least ``p_i / t``.

    Examples
    --------
    >>> w = worst_case_cluster([0.2] * 5, 2.0)
    >>> w.distribution.round(6).tolist()
    [0.543656, 0.114086, 0.114086, 0.114086, 0.114086]
    >>> round(w.distance, 6), w.binds
    (2.718282, True)
    """
    try:
        p = np.asarray(prior, dtype=float)
    except (TypeError, ValueError):
        raise ExplorerTypeError(f"prior must be an array of probabilities, got {prior!r}") from None
    if p.ndim != 1 or p.size < 2:
        raise InvalidDistributionError(f"prior must be a vector of at least 2 values, got shape {p.shape}")
    if not np.all(np.isfinite(p)) or np.any(p < 0) or p.sum() <= 0:
        raise InvalidDistributionError(f"prior must contain non-negative finite numbers, not all zero, got {p!r}")
    p = p / p.sum()
    eps = check_epsilon(epsilon)
    t = closeness_for_epsilon(eps)
    support = p > 0
    if math.isinf(t):
        reach = np.where(support, 1.0, 0.0)
    else:
        reach = np.where(support, np.minimum(t * p, 1.0 - (1.0 - p) / t), 0.0)
    if value is None:
        j = int(np.argmax(reach))
    else:
        j = check_int(value, "value", minimum=0, maximum=p.size - 1)
        if not support[j]:
            raise InvalidParameterError(f"value {j} has share 0 in the data set: a cluster cannot raise it")
    q_j = float(reach[j])
    binds = math.isfinite(t) and t * p[j] <= 1.0 - (1.0 - p[j]) / t + 1e-15
    others = np.arange(p.size) != j
    q = np.zeros_like(p)
    rest = 1.0 - p[j]
    q[others] = p[others] * ((1.0 - q_j) / rest if rest > 0 else 0.0)
    q[j] = q_j
    if binds:
        note = f"value {j} grows by the full factor t = exp(eps/2) = {t:.6g}"
    elif math.isinf(t):
        note = "epsilon is infinite: the cluster can hold a single value"
    elif t * p[j] > 1:
        note = (f"the bound cannot bind: share {p[j]:.4g} x t {t:.4g} > 1; the share grows only to "
                f"{q_j:.4g}, limited by the others' minimum p/t")
    else:
        note = (f"the bound cannot bind: raising value {j} by t would push the others below p/t; "
                f"its share grows to {q_j:.4g}")
    return WorstCaseCluster(
        distribution=q, value=j, t=t, factor=q_j / p[j], distance=float(ratio_distance(q, p)),
        entropy=float(entropy(q)), data_entropy=float(entropy(p)), guessing=float(q.max()),
        data_guessing=float(p.max()), binds=bool(binds), note=note)


# --------------------------------------------------------------------------- table and CSV
def cluster_table(profile: ClosenessProfile) -> pd.DataFrame:
    """The profile as a table, one row per cluster, sorted by decreasing distance.

    Examples
    --------
    >>> import pandas as pd
    >>> p = closeness_profile(pd.DataFrame({"s": list("abab")}), [0, 0, 1, 1], "s")
    >>> list(cluster_table(p).columns)[:4]
    ['cluster', 'size', 'distance', 'attaining value']
    """
    if not isinstance(profile, ClosenessProfile):
        raise ExplorerTypeError(f"profile must be a ClosenessProfile, got {type(profile).__name__}")
    order = np.argsort(-profile.distances, kind="stable")
    table = pd.DataFrame({
        "cluster": profile.cluster_ids[order],
        "size": profile.sizes[order],
        "distance": profile.distances[order],
        "attaining value": [profile.categories[i] for i in profile.attaining[order]],
        "factor": profile.factors[order],
        "H(S|cluster) bits": profile.entropies[order],
        "guessing probability": profile.guessing[order],
    })
    if profile.t is not None:
        table["violates"] = profile.distances[order] > profile.t
    for i, name in enumerate(profile.categories):
        table[f"share {name}"] = profile.distributions[order, i]
    return table

