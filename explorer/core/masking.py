"""Anonymization (masking) methods that make an anonymized Y from an original X.

They are the inputs of the permutation views (Domingo-Ferrer and Muralidhar
2016; Ruiz 2018): whatever the method, Y can be reverse-mapped to a
permutation Z of X plus a residual noise (Domingo-Ferrer and Muralidhar 2016,
Section 3).  Every method is seeded (``rng``) and documents what its
parameter means and in which unit, because a parameter documented as one thing
and used as another misleads users (e.g. a noise level given as a variance but
read as a standard deviation, or a swapping window in percent of n versus in
records).

The registry :data:`MASKING_METHODS` maps a name to a :class:`MaskingMethod`;
:func:`mask` applies one to an (n, m) numeric array or to the numeric columns of
a DataFrame.

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

import math
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy.special import ndtri

from explorer._validation import check_int, check_matrix, check_number, check_rng
from explorer.core.rr import keep_or_uniform_matrix, randomize
from explorer.core.closeness.microaggregation import mdav_labels
from explorer.errors import DatasetError, ExplorerTypeError, InvalidParameterError

__all__ = [
    "MaskingMethod",
    "MASKING_METHODS",
    "MAX_PRAM_CATEGORIES",
    "mask",
    "mask_frame",
    "identity",
    "additive_noise",
    "multiplicative_noise",
    "rank_swapping",
    "univariate_microaggregation",
    "multivariate_microaggregation",
    "pram",
    "data_shuffling",
    "top_bottom_coding",
]


#: PRAM builds an r x r matrix per attribute: attributes with more distinct values are refused.
MAX_PRAM_CATEGORIES = 1000


# --------------------------------------------------------------------------- helpers

def _matrix(X: Any, name: str = "X") -> np.ndarray:
    """X as an (n, m) float array with finite values (:func:`explorer._validation.check_matrix`)."""
    return check_matrix(X, name)


def _sd(x: np.ndarray) -> np.ndarray:
    return x.std(axis=0)            # population sd (ddof = 0)


# --------------------------------------------------------------------------- methods (X: (n, m) float, checked)

def identity(X: ArrayLike, parameter: Any = None, rng: Any = None) -> np.ndarray:
    """No masking: Y = X (permutation distance 0, Spearman's rho 1).

    Examples
    --------
    >>> identity([[1.0, 2.0]]).tolist()
    [[1.0, 2.0]]
    """
    return _matrix(X).copy()


def additive_noise(X: ArrayLike, sd_fraction: float = 0.25, rng: Any = None) -> np.ndarray:
    """Add independent normal noise: ``Y_j = X_j + N(0, (a * sd(X_j))^2)``.

    Parameters
    ----------
    sd_fraction : float, a >= 0
        Standard deviation of the noise **as a fraction of each attribute's own
        standard deviation** (population sd, ddof = 0), not a variance and not
        in the attribute's units: 0.5 adds noise with half the spread of the
        attribute.  The papers' examples are of this kind (Domingo-Ferrer and
        Muralidhar 2016: noise sd a fraction of X's sd; Ruiz 2018, Table 1:
        N(0, 5^2) on N(10, 10^2), i.e. 0.5).

    Notes
    -----
    Y = X + E, E_j ~ N(0, a^2 Var(X_j)), independent across records and attributes.

    Examples
    --------
    >>> y = additive_noise(np.arange(1000.0), 0.1, rng=0)
    >>> ratio = float(np.std(y[:, 0] - np.arange(1000.0)) / np.std(np.arange(1000.0)))
    >>> 0.09 < ratio < 0.11
    True
    """
    x = _matrix(X)
    a = check_number(sd_fraction, "sd_fraction", minimum=0.0)
    generator = check_rng(rng)
    return x + generator.standard_normal(x.shape) * (a * _sd(x))[None, :]


def multiplicative_noise(X: ArrayLike, sd: float = 0.1, rng: Any = None) -> np.ndarray:
    """Multiply by independent normal factors: ``Y_ij = X_ij * F_ij``, ``F_ij ~ N(1, s^2)``.

    Parameters
    ----------
    sd : float, s >= 0
        Standard deviation of the multiplicative factor, a unitless relative
        perturbation: 0.1 changes each value by about +-10 %.  Zeros stay zero.

    Examples
    --------
    >>> multiplicative_noise([[0.0, 100.0]], 0.0, rng=0).tolist()
    [[0.0, 100.0]]
    """
    x = _matrix(X)
    s = check_number(sd, "sd", minimum=0.0)
    generator = check_rng(rng)
    return x * (1.0 + s * generator.standard_normal(x.shape))


def rank_swapping(X: ArrayLike, window: float = 0.05, rng: Any = None) -> np.ndarray:
    """Rank swapping (Moore): swap each value with a random not-yet-swapped value of close rank.

    Parameters
    ----------
    window : float, p in [0, 1]
        Maximum rank distance between two swapped values **as a proportion of
        the number of records n**: with p = 0.05 and n = 1,000 a value may be
        swapped only with one whose rank is at most 50 places higher.  Not a
        percentage (0.05 means 5 %), not a number of records.

    Notes
    -----
    Per attribute: sort the values; for each value not yet swapped, in
    ascending rank order, pick uniformly among the not-yet-swapped values whose
    rank is 1..floor(p n) places higher and swap the two.  The output is a
    permutation of each attribute (Z = Y, no residual noise).

    Examples
    --------
    >>> y = rank_swapping(np.arange(10.0), 0.2, rng=0)
    >>> sorted(y[:, 0].tolist()) == list(range(10))
    True
    """
    x = _matrix(X)
    p = check_number(window, "window", minimum=0.0, maximum=1.0)
    generator = check_rng(rng)
    n, m = x.shape
    w = int(math.floor(p * n))
    y = x.copy()
    if w < 1 or n < 2:
        return y
    for j in range(m):
        order = np.argsort(x[:, j], kind="stable")
        values = x[order, j].copy()
        free = np.ones(n, dtype=bool)
        for i in range(n - 1):
            if not free[i]:
                continue
            stop = min(n, i + w + 1)
            candidates = np.flatnonzero(free[i + 1:stop])
            if candidates.size == 0:
                continue
            partner = i + 1 + candidates[generator.integers(candidates.size)]
            values[i], values[partner] = values[partner], values[i]
            free[i] = free[partner] = False
        y[order, j] = values
    return y


def univariate_microaggregation(X: ArrayLike, k: int = 3, rng: Any = None) -> np.ndarray:
    """Univariate microaggregation: per attribute, groups of k consecutive sorted values replaced by their mean.

    Parameters
    ----------
    k : int, k >= 1
        Minimum group size, in records.  The sorted values are cut into groups
        of k; the last group takes the remainder (k to 2k - 1 values).

    Notes
    -----
    Fixed-size groups on the sorted attribute (the heuristic, not the optimal
    Hansen-Mukherjee partition).  Deterministic: ``rng`` is unused.  Ties in Y
    are then broken at random when ranking (Domingo-Ferrer and Muralidhar 2016).

    Examples
    --------
    >>> univariate_microaggregation([[1.0], [2.0], [3.0], [10.0], [11.0], [12.0]], 3)[:, 0].tolist()
    [2.0, 2.0, 2.0, 11.0, 11.0, 11.0]
    """
    x = _matrix(X)
    n, m = x.shape
    k = check_int(k, "k", minimum=1, maximum=n)
    n_groups = max(1, n // k)
    group_of_rank = np.minimum(np.arange(n) // k, n_groups - 1)
    y = np.empty_like(x)
    for j in range(m):
        order = np.argsort(x[:, j], kind="stable")
        sums = np.bincount(group_of_rank, weights=x[order, j], minlength=n_groups)
        counts = np.bincount(group_of_rank, minlength=n_groups)
        y[order, j] = (sums / counts)[group_of_rank]
    return y


def multivariate_microaggregation(X: ArrayLike, k: int = 3, rng: Any = None) -> np.ndarray:
    """Multivariate microaggregation with MDAV: records grouped in clusters of >= k, replaced by the centroid.

    Parameters
    ----------
    k : int, k >= 1
        Minimum cluster size, in records (k-anonymity on the masked attributes).

    Notes
    -----
    Attributes are standardised (z-scores) before clustering so that no unit
    dominates; the centroids are computed on the original scale.  Clustering is
    ``explorer.core.closeness.microaggregation.mdav_labels`` (cost O(n^2 m / k)).
    Deterministic: ``rng`` is unused.

    Examples
    --------
    >>> y = multivariate_microaggregation([[1.0, 1.0], [1.2, 0.9], [9.0, 9.0], [9.1, 8.8]], 2)
    >>> y.round(2).tolist()
    [[1.1, 0.95], [1.1, 0.95], [9.05, 8.9], [9.05, 8.9]]
    """
    x = _matrix(X)
    n, m = x.shape
    k = check_int(k, "k", minimum=1, maximum=n)
    sd = _sd(x)
    scaled = (x - x.mean(axis=0)) / np.where(sd > 0, sd, 1.0)
    labels = np.asarray(mdav_labels(scaled, k), dtype=np.int64)
    n_clusters = int(labels.max()) + 1
    counts = np.bincount(labels, minlength=n_clusters)
    y = np.empty_like(x)
    for j in range(m):
        y[:, j] = (np.bincount(labels, weights=x[:, j], minlength=n_clusters) / counts)[labels]
    return y


def pram(X: ArrayLike, p: float = 0.8, rng: Any = None, *, matrix: ArrayLike | None = None) -> np.ndarray:
    """PRAM (post-randomization) of discrete attributes with an RR matrix (Domingo-Ferrer and Soria-Comas 2018).

    Parameters
    ----------
    p : float in [0, 1]
        Probability of keeping the true category; otherwise a category is drawn
        uniformly among the attribute's r categories (its distinct values), so
        the matrix is ``p + (1 - p)/r`` on the diagonal and ``(1 - p)/r`` off it
        (``keep_or_uniform_matrix``, epsilon = ln(1 + p r / (1 - p))).
    matrix : array_like (r, r), optional
        Any row-stochastic RR matrix instead (``P[u, v] = Pr(Y = v | X = u)``,
        categories in ascending order of value); every attribute must then
        have r categories.

    Notes
    -----
    Each column's distinct values, sorted, are the categories 0..r-1; reports
    are drawn with ``explorer.core.rr.randomize`` and mapped
    back to values.  A column with a single value is left unchanged.

    The RR/PRAM matrix is that of Domingo-Ferrer and Soria-Comas (2018),
    Section II [1]_.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
       differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.

    Examples
    --------
    >>> pram([[0.0], [1.0], [1.0]], p=1.0, rng=0)[:, 0].tolist()
    [0.0, 1.0, 1.0]
    """
    x = _matrix(X)
    generator = check_rng(rng)
    if matrix is None:
        p = check_number(p, "p", minimum=0.0, maximum=1.0)
    y = np.empty_like(x)
    for j in range(x.shape[1]):
        categories, codes = np.unique(x[:, j], return_inverse=True)
        r = categories.size
        if r > MAX_PRAM_CATEGORIES:
            raise DatasetError(
                f"PRAM is for categorical attributes: column {j + 1} has {r:,} distinct values "
                f"(limit {MAX_PRAM_CATEGORIES:,}); use a numeric masking method for it")
        if matrix is not None:
            mat = np.asarray(matrix, dtype=float)
            if mat.ndim != 2 or mat.shape[0] != r:
                raise InvalidParameterError(
                    f"matrix must be {r} x {r} for column {j + 1} ({r} distinct values), got shape {mat.shape}")
        elif r < 2:
            y[:, j] = x[:, j]
            continue
        else:
            mat = keep_or_uniform_matrix(r, p, max_categories=max(r, 2))
        y[:, j] = categories[randomize(codes, mat, rng=generator)]
    return y


def data_shuffling(X: ArrayLike, rho: float = 0.9, rng: Any = None) -> np.ndarray:
    """Rank-based data shuffling: each attribute is permuted, following a perturbed copy of its normal scores.

    Parameters
    ----------
    rho : float in [0, 1]
        Correlation between an attribute's normal scores and those of the
        perturbed copy that decides the new order: 1 keeps every record's
        values (Y = X), 0 gives a random permutation that keeps the
        dependence between attributes (in distribution).  Unitless.

    Notes
    -----
    In the spirit of Muralidhar & Sarathy's data shuffling: normal scores
    S = Phi^-1((rank - 1/2) / n); S' = rho S + sqrt(1 - rho^2) E with
    E ~ N(0, C), C the correlation of S; then Y_j = X_j sorted, placed by the
    ranks of S'_j.  Y is a permutation of X column by column: no residual
    noise (Z = Y).

    Examples
    --------
    >>> data_shuffling([[1.0, 5.0], [2.0, 6.0], [3.0, 7.0]], 1.0, rng=0).tolist()
    [[1.0, 5.0], [2.0, 6.0], [3.0, 7.0]]
    """
    x = _matrix(X)
    rho = check_number(rho, "rho", minimum=0.0, maximum=1.0)
    generator = check_rng(rng)
    n, m = x.shape
    order = np.argsort(x, axis=0, kind="stable")
    rank0 = np.empty_like(order)
    np.put_along_axis(rank0, order, np.arange(n)[:, None].repeat(m, axis=1), axis=0)
    scores = ndtri((rank0 + 0.5) / n)
    if m > 1 and n > 2:
        corr = np.atleast_2d(np.corrcoef(scores, rowvar=False))
        corr = np.nan_to_num(corr, nan=0.0)
        np.fill_diagonal(corr, 1.0)
        w, v = np.linalg.eigh(corr)
        root = v * np.sqrt(np.clip(w, 0.0, None))
        noise = generator.standard_normal((n, m)) @ root.T
    else:
        noise = generator.standard_normal((n, m))
    perturbed = rho * scores + math.sqrt(max(0.0, 1.0 - rho * rho)) * noise
    new_order = np.argsort(perturbed, axis=0, kind="stable")
    y = np.empty_like(x)
    np.put_along_axis(y, new_order, np.sort(x, axis=0), axis=0)
    return y


def top_bottom_coding(X: ArrayLike, q: float = 0.05, rng: Any = None) -> np.ndarray:
    """Top and bottom coding: values beyond the q and 1 - q quantiles are set to those quantiles.

    Parameters
    ----------
    q : float in [0, 0.5)
        Proportion of records coded **in each tail** (0.05 = the lowest 5 % and
        the highest 5 %), as a fraction, not a percentage.

    Notes
    -----
    Quantiles by linear interpolation (numpy's default).  Deterministic:
    ``rng`` is unused.  Coded values tie; Domingo-Ferrer and Muralidhar (2016)
    break ties in ranks at random.

    Examples
    --------
    >>> top_bottom_coding(np.arange(11.0), 0.1)[:, 0].tolist()
    [1.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 9.0]
    """
    x = _matrix(X)
    q = check_number(q, "q", minimum=0.0, maximum=0.5, include_maximum=False)
    low = np.quantile(x, q, axis=0)
    high = np.quantile(x, 1.0 - q, axis=0)
    return np.clip(x, low[None, :], high[None, :])


# --------------------------------------------------------------------------- registry

@dataclass(frozen=True)
class MaskingMethod:
    """One masking method: what it is called, what its parameter means, and the function.

    Attributes
    ----------
    name : str
        Registry key.
    label : str
        Human-readable name for menus.
    parameter : str or None
        Name of the method's single parameter (None: no parameter).
    parameter_doc : str
        What the parameter means and its unit, in words.
    default, minimum, maximum : float or None
        Default value and allowed range of the parameter.
    kind : {"numeric", "categorical"}
        What data the method is meant for.
    function : callable
        ``function(X, parameter, rng) -> Y`` on an (n, m) float array.
    integer : bool
        The parameter is an integer (e.g. k).
    step : float
        A sensible slider step.
    """

    name: str
    label: str
    parameter: str | None
    parameter_doc: str
    default: float | None
    minimum: float | None
    maximum: float | None
    kind: str
    function: Callable[..., np.ndarray]
    integer: bool = False
    step: float = 0.01

    def check_parameter(self, value: Any) -> float | int | None:
        """The parameter value, validated against this method's range (default when None)."""
        if self.parameter is None:
            return None
        if value is None:
            value = self.default
        if self.integer:
            return check_int(value, self.parameter, minimum=int(self.minimum), maximum=None)
        return check_number(value, self.parameter, minimum=self.minimum, maximum=self.maximum,
                            include_maximum=not (self.name == "top_bottom_coding"))


MASKING_METHODS: dict[str, MaskingMethod] = {
    m.name: m for m in (
        MaskingMethod("identity", "No masking (identity)", None, "No parameter: Y = X.", None, None, None,
                      "numeric", identity),
        MaskingMethod("additive_noise", "Additive noise", "sd_fraction",
                      "Noise standard deviation as a fraction of each attribute's standard deviation "
                      "(0.5 = half the attribute's spread; unitless, not a variance).",
                      0.25, 0.0, 3.0, "numeric", additive_noise),
        MaskingMethod("multiplicative_noise", "Multiplicative noise", "sd",
                      "Standard deviation of the factor multiplying each value (0.1 = about +-10 %; unitless).",
                      0.1, 0.0, 1.0, "numeric", multiplicative_noise),
        MaskingMethod("rank_swapping", "Rank swapping", "window",
                      "Largest rank distance between swapped values, as a proportion of the number of records "
                      "n (0.05 = within 5 % of n ranks).",
                      0.05, 0.0, 1.0, "numeric", rank_swapping),
        MaskingMethod("univariate_microaggregation", "Univariate microaggregation", "k",
                      "Minimum group size in records; each attribute's sorted values are averaged in groups of k.",
                      3, 1, 1000, "numeric", univariate_microaggregation, integer=True, step=1),
        MaskingMethod("multivariate_microaggregation", "Multivariate microaggregation (MDAV)", "k",
                      "Minimum cluster size in records; whole records are replaced by their cluster's centroid.",
                      3, 1, 1000, "numeric", multivariate_microaggregation, integer=True, step=1),
        MaskingMethod("pram", "PRAM (keep or uniform)", "p",
                      "Probability of keeping each value; otherwise a value is drawn uniformly among the "
                      "attribute's distinct values (a probability in [0, 1]).",
                      0.8, 0.0, 1.0, "categorical", pram),
        MaskingMethod("data_shuffling", "Data shuffling", "rho",
                      "Correlation kept between each attribute's normal scores and the shuffled order "
                      "(1 = no change, 0 = random shuffle; unitless).",
                      0.9, 0.0, 1.0, "numeric", data_shuffling),
        MaskingMethod("top_bottom_coding", "Top/bottom coding", "q",
                      "Proportion of records coded in each tail (0.05 = lowest and highest 5 %), in [0, 0.5).",
                      0.05, 0.0, 0.5, "numeric", top_bottom_coding),
    )
}


def _method(method: Any) -> MaskingMethod:
    if isinstance(method, MaskingMethod):
        return method
    if not isinstance(method, str) or method not in MASKING_METHODS:
        raise InvalidParameterError(f"method must be one of {sorted(MASKING_METHODS)}, got {method!r}")
    return MASKING_METHODS[method]


def mask(X: Any, method: Any, parameter: Any = None, rng: Any = None) -> np.ndarray:
    """Apply a masking method to an (n, m) numeric array or to a DataFrame's numeric columns.

    Parameters
    ----------
    X : array_like (n, m) or DataFrame
        For a DataFrame, its numeric columns in order (non-numeric ones are
        left out; see :func:`mask_frame` to keep them).
    method : str or MaskingMethod
        A key of :data:`MASKING_METHODS`.
    parameter : float, optional
        The method's parameter (see ``MASKING_METHODS[method].parameter_doc``);
        the method's default when None.
    rng : numpy Generator or int seed, optional

    Returns
    -------
    numpy.ndarray, shape (n, m)

    Examples
    --------
    >>> mask([[1.0, 2.0], [3.0, 4.0]], "identity").tolist()
    [[1.0, 2.0], [3.0, 4.0]]
    >>> MASKING_METHODS["rank_swapping"].parameter_doc.split(",")[0]
    'Largest rank distance between swapped values'
    """
    spec = _method(method)
    if isinstance(X, pd.DataFrame):
        numeric = [c for c in X.columns
                   if pd.api.types.is_numeric_dtype(X[c].dtype) and not pd.api.types.is_bool_dtype(X[c].dtype)]
        if not numeric:
            raise DatasetError("the data set has no numeric columns to mask")
        X = X[numeric].to_numpy(dtype=float, na_value=np.nan)
    x = _matrix(X)
    value = spec.check_parameter(parameter)
    if spec.parameter is None:
        return spec.function(x, None, rng)
    return spec.function(x, value, rng)


def mask_frame(frame: pd.DataFrame, method: Any, parameter: Any = None, rng: Any = None,
               columns: list[str] | None = None) -> pd.DataFrame:
    """Mask the given (default: numeric) columns of a DataFrame; the other columns are copied.

    PRAM also masks categorical columns (by their categories).

    Examples
    --------
    >>> f = pd.DataFrame({"a": [1.0, 2.0], "b": ["x", "y"]})
    >>> mask_frame(f, "identity").equals(f)
    True
    """
    if not isinstance(frame, pd.DataFrame):
        raise ExplorerTypeError(f"frame must be a DataFrame, got {type(frame).__name__}")
    spec = _method(method)
    if columns is None:
        columns = [c for c in frame.columns
                   if pd.api.types.is_numeric_dtype(frame[c].dtype) and not pd.api.types.is_bool_dtype(frame[c].dtype)]
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise DatasetError(f"columns {missing} are not in the data set")
    generator = check_rng(rng)
    out = frame.copy()
    numeric = [c for c in columns if pd.api.types.is_numeric_dtype(frame[c].dtype)]
    other = [c for c in columns if c not in numeric]
    if other and spec.kind != "categorical":
        raise DatasetError(f"{spec.label} needs numeric columns; {other} are not numeric")
    if numeric:
        out[numeric] = mask(frame[numeric].to_numpy(dtype=float, na_value=np.nan), spec, parameter, generator)
    for c in other:
        series = frame[c].astype("category")
        codes = series.cat.codes.to_numpy()
        if (codes < 0).any():
            raise DatasetError(f"column {c!r} has {(codes < 0).sum()} missing values; drop or fill them first")
        masked = mask(codes.astype(float)[:, None], spec, parameter, generator)[:, 0].astype(int)
        out[c] = pd.Categorical.from_codes(masked, dtype=series.dtype)
    return out
