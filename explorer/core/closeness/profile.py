"""The closeness profile of a clustering: each cluster's distribution of the sensitive attribute.

A clustering of the records (:mod:`explorer.core.closeness.microaggregation`) gives, for each cluster, the
distribution of the sensitive attribute inside it.  The data set is t-close when every cluster's
distribution is within distance t of the whole data set's (:mod:`explorer.core.closeness.distance`).
With the cluster as the "reported value", the deniability reading of Domingo-Ferrer and Soria-Comas
(2018) [1]_, Section II-A, says what an intruder who learns a person's cluster can guess (Examples 2-3 of
that paper; :func:`worst_case_cluster` is Example 3 generalised).

Conventions (see ``docs/conventions.md``): sensitive values are integer codes ``0..r-1`` plus their
labels; entropies are in bits (:func:`explorer.core.deniability.entropy`); a cluster label of ``-1``
means "left out".

References
----------
.. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
   differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from explorer._validation import as_float_array, check_epsilon, check_int, check_number, quote
from explorer.core.closeness.distance import (_DISTANCE_FUNCTIONS, _check_distance, closeness_for_epsilon,
                                              ratio_distance)
from explorer.core.deniability import entropy
from explorer.core.closeness.microaggregation import Clustering, _check_frame, _is_numeric
from explorer.errors import DatasetError, ExplorerTypeError, InvalidDistributionError, InvalidParameterError

__all__ = [
    "MISSING_LABEL",
    "BINNINGS",
    "SensitiveCodes",
    "encode_sensitive",
    "parse_edges",
    "check_sensitive_bins",
    "ClosenessProfile",
    "closeness_profile",
    "ClustersOverT",
    "cluster_count_over_t",
    "WorstCaseCluster",
    "worst_case_cluster",
    "cluster_table",
]

#: The category that missing sensitive values become under ``missing="category"``.
MISSING_LABEL = "(missing)"


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


def parse_edges(text: str) -> list[float]:
    """Fixed bin edges typed as text: numbers separated by commas, semicolons or spaces.

    Parameters
    ----------
    text : str
        For example ``"0, 30, 60, 100"``; at most 200,000 characters.

    Returns
    -------
    list of float
        The numbers, in the order typed (:func:`encode_sensitive` checks that they increase).

    Examples
    --------
    >>> parse_edges("0, 30; 60 1e2")
    [0.0, 30.0, 60.0, 100.0]
    >>> parse_edges("0, abc")
    Traceback (most recent call last):
    ...
    explorer.errors.InvalidParameterError: edges must be numbers separated by commas, got '0, abc'
    """
    text = str(text).replace(";", ",").strip()
    if len(text) > 200_000:
        raise InvalidParameterError(f"edges must be at most 200,000 characters, got {len(text):,}")
    if not text:
        raise InvalidParameterError("edges must list at least two numbers for the fixed-edges binning, "
                                    "e.g. 0, 30, 60, 100; got nothing")
    try:
        return [float(part) for part in text.replace(",", " ").split()]
    except ValueError:
        raise InvalidParameterError(f"edges must be numbers separated by commas, got {text[:60]!r}") from None


def check_sensitive_bins(frame: pd.DataFrame, sensitive: str, binning: str | None, edges: Sequence[float] | None,
                         max_bins: int) -> None:
    """Refuse a sensitive attribute whose binning would make more than ``max_bins`` categories.

    The work of a closeness profile (and of t-close merging) grows with the number of categories r, so a tab
    bounds it before computing: a categorical attribute with more than ``max_bins`` values, a numeric one
    binned ``"values"`` with as many distinct values, or fixed ``edges`` making more bins, are refused in
    words.  Quantile bins (at most 100) and a column the frame lacks pass (:func:`encode_sensitive` says
    what is wrong with them).

    Parameters
    ----------
    frame : DataFrame
    sensitive : str
        The sensitive column.
    binning : {None, "values", "quantile", "edges"}
        As in :func:`encode_sensitive`.
    edges : sequence of float or None
        The fixed edges of binning ``"edges"``.
    max_bins : int
        The most categories allowed.

    Examples
    --------
    >>> import pandas as pd
    >>> check_sensitive_bins(pd.DataFrame({"x": range(300)}), "x", "quantile", None, 200)
    >>> check_sensitive_bins(pd.DataFrame({"s": [f"v{i}" for i in range(300)]}), "s", None, None, 200)
    Traceback (most recent call last):
    ...
    explorer.errors.InvalidParameterError: the sensitive attribute 's' has 300 values; at most 200 are shown here
    """
    if sensitive not in frame.columns:
        return
    column = frame[sensitive]
    if not _is_numeric(column):
        if column.nunique() > max_bins:
            raise InvalidParameterError(f"the sensitive attribute {quote(sensitive)} has "
                                        f"{column.nunique():,} values; at most {max_bins} are shown here")
        return
    if binning == "values" and column.nunique() > max_bins:
        raise InvalidParameterError(
            f"binning 'each value' of {quote(sensitive)} would make {column.nunique():,} bins; at most "
            f"{max_bins} are computed here: choose quantile bins or fixed edges")
    if binning == "edges" and len(edges or []) - 1 > max_bins:
        raise InvalidParameterError(f"edges would make {len(edges) - 1:,} bins of {quote(sensitive)}; "
                                    f"at most {max_bins} are computed here")


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
        Deniability H(S | cluster = c) in bits (Domingo-Ferrer and Soria-Comas 2018, Eq. 4,
        with the cluster as the report).
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

    @property
    def max_entropy(self) -> float:
        """The largest deniability a cluster can have: log2 r bits, r values equally likely (Eq. 4).

        Examples
        --------
        >>> import pandas as pd
        >>> p = closeness_profile(pd.DataFrame({"s": list("abcd")}), [0, 0, 1, 1], "s")
        >>> p.max_entropy
        2.0
        """
        return float(math.log2(len(self.categories)))

    @property
    def farthest_first(self) -> np.ndarray:
        """Positions of the clusters sorted by decreasing distance (ties in cluster order): the table's order.

        Examples
        --------
        >>> import pandas as pd
        >>> p = closeness_profile(pd.DataFrame({"s": list("abab" "aaab" "abab")}), [0] * 4 + [1] * 4 + [2] * 4, "s")
        >>> p.distances.round(3).tolist(), p.farthest_first.tolist()
        ([1.2, 1.667, 1.2], [1, 0, 2])
        """
        return np.argsort(-self.distances, kind="stable")

    def violating(self, t: float | None = None) -> np.ndarray:
        """Mask of clusters farther than ``t`` (default: the profile's t) from the data set."""
        bound = self.t if t is None else check_number(t, "t", minimum=0.0, allow_inf=True)
        if bound is None:
            raise InvalidParameterError("t must be given: this profile was made without a bound")
        return self.distances > bound

    def n_violating(self, t: float | None = None) -> int:
        """Number of clusters farther than ``t`` (default: the profile's t); see :func:`cluster_count_over_t`."""
        return cluster_count_over_t(self, t).n_over

    def is_t_close(self, t: float | None = None) -> bool:
        """t-close iff every cluster distance d <= t (boundary included)."""
        return self.n_violating(t) == 0


@dataclass(frozen=True)
class ClustersOverT:
    """How many clusters are farther than t from the data set: the count behind the t-closeness verdict.

    Attributes
    ----------
    n_clusters : int
        Clusters counted.
    n_over : int
        Clusters with distance d > t (the boundary d = t is t-close).
    n_infinite : int
        Clusters at infinite distance (under the ratio distance: a sensitive value missing from them).
    t : float
        The bound.
    """

    n_clusters: int
    n_over: int
    n_infinite: int
    t: float

    @property
    def n_within(self) -> int:
        """Clusters with d <= t."""
        return self.n_clusters - self.n_over

    @property
    def is_t_close(self) -> bool:
        """Whether no cluster is over t (true for no clusters at all)."""
        return self.n_over == 0

    @property
    def fraction_over(self) -> float:
        """n_over / n_clusters (0 when there are no clusters)."""
        return self.n_over / self.n_clusters if self.n_clusters else 0.0


def cluster_count_over_t(distances: ClosenessProfile | ArrayLike, t: float | None = None) -> ClustersOverT:
    """Count the clusters whose distance to the data set exceeds t (and those at infinite distance).

    Parameters
    ----------
    distances : ClosenessProfile or array_like
        A profile (its ``distances``) or one distance per cluster: non-negative numbers, infinity allowed.
    t : float, optional
        The bound, >= 0 (infinity allowed); by default the profile's own ``t``.

    Returns
    -------
    ClustersOverT

    Notes
    -----
    A data set is t-close when every cluster has d <= t, the boundary included: the
    cluster of Example 3 of Domingo-Ferrer and Soria-Comas (2018) [1]_ sits exactly
    on d = e and is exp(1)-close (see ``docs/conventions.md``).

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
       differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.

    Examples
    --------
    >>> count = cluster_count_over_t([1.5, 4.0, float("inf"), 2.0], 2.0)
    >>> count.n_over, count.n_infinite, count.n_clusters, count.is_t_close
    (2, 1, 4, False)
    >>> cluster_count_over_t([2.0, 1.0], 2.0).n_over          # the boundary d = t is t-close
    0
    """
    if isinstance(distances, ClosenessProfile):
        d = distances.distances
        if t is None:
            t = distances.t
    else:
        d = as_float_array(distances, "distances", 1)
    bad = np.isnan(d) | (d < 0)
    if bad.any():
        raise InvalidParameterError(f"distances must be non-negative numbers, got {float(d[bad][0])!r} "
                                    f"at position {int(np.flatnonzero(bad)[0])}")
    if t is None:
        raise InvalidParameterError("t must be given: the distances come without a bound")
    bound = check_number(t, "t", minimum=0.0, allow_inf=True)
    return ClustersOverT(n_clusters=int(d.size), n_over=int(np.count_nonzero(d > bound)),
                         n_infinite=int(np.count_nonzero(np.isinf(d))), t=bound)


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
    The distance is Eq. (7) of [1]_ (or an EMD) between each cluster's distribution
    and the data set's.  With the cluster as the "reported value" ([1]_, Section
    IV after II-A), deniability is H(S | cluster = c) = -sum_u q_cu log2 q_cu
    (Eq. 4), at most log2 r; an intruder who learns the cluster guesses the
    most frequent value, right with probability max_u q_cu.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
       differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.

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


# --------------------------------------------------------------------------- worst case (Example 3)
@dataclass(frozen=True)
class WorstCaseCluster:
    """The most concentrated cluster distribution still exp(eps/2)-close.

    Example 3 of Domingo-Ferrer and Soria-Comas (2018), generalised.

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
        Privacy parameter; t = exp(eps/2) (Proposition 1 of [1]_).
    value : int, optional
        Index of the value to raise; by default the one giving the highest
        guessing probability.

    Returns
    -------
    WorstCaseCluster

    Notes
    -----
    Example 3 of [1]_: r = 5, uniform prior, eps = 2: one value at 0.2 e = 0.54366
    (printed 0.5436, truncated), the four others (1 - 0.2 e)/4 = 0.114086; the
    ratio distance is e, so the cluster is exp(1)-close and 2-DP.  In general
    the raised share is ``q_j = min(t p_j, 1 - (1 - p_j)/t)``: the others,
    scaled by ``(1 - q_j)/(1 - p_j)``, must keep at least ``p_i / t``.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
       differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.

    Computes: Domingo-Ferrer and Soria-Comas (2018), Example 3.

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


# --------------------------------------------------------------------------- table
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
    order = profile.farthest_first
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
    shares = pd.DataFrame(profile.distributions[order], columns=[f"share {name}" for name in profile.categories],
                          index=table.index)
    return pd.concat([table, shares], axis=1)
