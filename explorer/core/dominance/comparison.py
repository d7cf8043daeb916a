"""Comparison of masking configurations by dominance in risk and in loss (Ruiz (2018), Section 5).

:func:`compare_maskings` masks the data with each configuration, reads each attribute's rank
displacements, evaluates the disclosure-risk curves ``D(alpha)`` and information-loss curves
``I(theta)`` [1]_, says which configuration dominates which (Defs. 2 and 4), and places each
configuration on the calibration plane of Domingo-Ferrer and Soria-Comas (2018), Section VI-B [2]_.
:func:`comparison_work` estimates, before any work, what the same call costs, in the work units of
:mod:`explorer.core.cost` (times a rate measured where it runs, that is an estimate in seconds).

A :class:`ComparisonCache` (one per data set) remembers displacements, tallies and curves, so that a
second call that differs only in beta, pi, the attribute shown or the calibration exponents does not
mask again.  The cache only memoises: the result is the same with or without it.

The conventions and errata followed are listed in the documentation page "Conventions and errata
followed" (``docs/conventions.md``).

References
----------
.. [1] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization: centrality
   of permutation matrices, universal measures of disclosure risk and information loss, evaluation by
   dominance", Information Sciences, 2018.
.. [2] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
   differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd

from explorer._validation import check_number
from explorer.core.dominance.calibration import CalibrationPoint, best_calibration
from explorer.core.cost import REFERENCE_SECONDS_PER_UNIT, curve_work, masking_work
from explorer.core.datasets import dataset_info
from explorer.core.dominance.displacement import displacement_matrix
from explorer.core.dominance import DominanceResult, dominance
from explorer.core.masking import MASKING_METHODS, mask
from explorer.core.dominance.risk_loss import (
    Curve,
    Tally,
    attribute_pairs,
    loss_curve,
    overall_disclosure_risk,
    overall_information_loss,
    risk_curve,
    tally,
    tally_differences,
)
from explorer.errors import CancelledError, DatasetError, ExplorerTypeError, InvalidParameterError

__all__ = ["PUBLISHED", "MaskingConfig", "ComparisonCache", "MaskingComparison", "compare_maskings",
           "comparison_work", "comparison_seconds", "config_label", "numeric_records"]

#: Pseudo-method: the masked data printed in a paper's example (passed as ``published``).
PUBLISHED = "published"


def config_label(method: str, parameter: float | None) -> str:
    """A configuration in words: "published Y", "Additive noise, sd fraction = 0.5".

    The parameter's name is written with spaces and its value in plain notation
    (no exponent), since the label is shown in legends and verdicts.

    >>> config_label("identity", None)
    'No masking (identity)'
    >>> config_label("additive_noise", 0.00005)
    'Additive noise, sd fraction = 0.00005'
    """
    if method == PUBLISHED:
        return "published Y"
    spec = MASKING_METHODS[method]
    if spec.parameter is None:
        return spec.label
    value = np.format_float_positional(float(parameter), precision=6, trim="-")
    return f"{spec.label}, {spec.parameter.replace('_', ' ')} = {value}"


def numeric_records(frame: pd.DataFrame, columns: Sequence[str] | None = None, *,
                    name: str = "the data set") -> tuple[np.ndarray, list[str]]:
    """The data a comparison reads: the complete records of a frame's numeric attributes, as a matrix.

    Parameters
    ----------
    frame : pandas.DataFrame
        The data set.
    columns : sequence of str, optional
        Its numeric attributes; default those of :func:`explorer.core.datasets.dataset_info` (the roles a
        loader attached, else inferred from the dtypes).  Columns not in ``frame`` are left out.
    name : str
        What to call the data set in messages.

    Returns
    -------
    X : numpy.ndarray, shape (n, m), float
        The records with a value in every one of those attributes (the others are left out), in order.
    columns : list of str
        The attributes, in the order of ``X``'s columns.

    Raises
    ------
    DatasetError
        When the frame has no numeric attribute, or fewer than 2 complete records in them (a displacement
        needs two records to rank).

    Examples
    --------
    >>> frame = pd.DataFrame({"age": [30, 40, None, 50], "city": ["a", "b", "c", "d"], "pay": [1.0, 2.0, 3.0, 4.0]})
    >>> X, columns = numeric_records(frame)
    >>> columns, X.tolist()
    (['age', 'pay'], [[30.0, 1.0], [40.0, 2.0], [50.0, 4.0]])
    >>> numeric_records(frame[["city"]])
    Traceback (most recent call last):
    ...
    explorer.errors.DatasetError: the data set has no numeric attributes
    """
    if not isinstance(frame, pd.DataFrame):
        raise ExplorerTypeError(f"frame must be a pandas DataFrame, got {type(frame).__name__}")
    if columns is None:
        columns = dataset_info(frame).numeric
    numeric = [c for c in columns if c in frame.columns]
    if not numeric:
        raise DatasetError(f"{name} has no numeric attributes")
    complete = frame[numeric].dropna()
    if len(complete) < 2:
        raise DatasetError(f"{name} has fewer than 2 complete records in its numeric attributes")
    return complete.to_numpy(dtype=float), [str(c) for c in numeric]


@dataclass(frozen=True)
class MaskingConfig:
    """One masking configuration: a method of :data:`~explorer.core.masking.MASKING_METHODS` (or
    :data:`PUBLISHED`), its parameter (``None`` when it has none) and the label its curves carry."""

    method: str
    parameter: float | None = None
    label: str = ""


@dataclass(frozen=True)
class MaskingComparison:
    """What :func:`compare_maskings` found.

    Attributes
    ----------
    configs : tuple of MaskingConfig
    risk_curves, loss_curves : tuple of Curve
        One per configuration, in order (``loss_curves`` is empty with fewer than two attributes).
    risk_results, loss_results : tuple of (int, int, DominanceResult)
        The verdict for each compared pair of configurations (indices into ``configs``).
    points : tuple of CalibrationPoint
        Each configuration's ``(D(alpha_1, beta), I(theta_2, pi))``.
    best : CalibrationPoint or None
        The least loss among the points with risk at least ``risk_target`` (None: none reaches it).
    risk_target : float
    """

    configs: tuple
    risk_curves: tuple
    loss_curves: tuple
    risk_results: tuple
    loss_results: tuple
    points: tuple
    best: CalibrationPoint | None
    risk_target: float

    def risk_sentences(self, *, number: Callable[[float], str] | None = None) -> list[str]:
        """The risk verdicts in words, one per compared pair (``number`` writes the numbers, see
        :meth:`~explorer.core.dominance.DominanceResult.sentence`)."""
        return _sentences(self.risk_results, self.risk_curves, number)

    def loss_sentences(self, *, number: Callable[[float], str] | None = None) -> list[str]:
        """The loss verdicts in words, one per compared pair."""
        return _sentences(self.loss_results, self.risk_curves, number)


def _sentences(results: Sequence[tuple[int, int, DominanceResult]], curves: Sequence[Curve],
               number: Callable[[float], str] | None = None) -> list[str]:
    labels = [c.label for c in curves]
    return [r.sentence(labels[a], labels[b], number=number) for a, b, r in results]


class ComparisonCache:
    """Memo of one data set's displacements, tallies and curves (make a new one when the data change).

    It never changes a result, only skips work already done; it may be shared with a
    background computation (entries are only ever added).
    """

    def __init__(self) -> None:
        self.displacement_store: dict[tuple, np.ndarray] = {}
        self.tallies: dict[tuple, Tally] = {}
        self.curves: dict[tuple, Curve] = {}

    def displacements(self, X: np.ndarray, config: MaskingConfig, seed: int, convention: str,
                      published: np.ndarray | None = None) -> np.ndarray:
        """The rank displacements (n x m) of ``X`` masked by ``config`` with ``seed``."""
        key = (config.method, config.parameter, seed, convention)
        R = self.displacement_store.get(key)
        if R is None:
            Y = published if config.method == PUBLISHED else mask(X, config.method, config.parameter, seed)
            R = self.displacement_store[key] = displacement_matrix(X, Y, seed, convention=convention)
        return R

    def tally(self, R: np.ndarray, key: tuple, j: int, k: int | None = None) -> Tally:
        tally_key = (key, j, k)
        found = self.tallies.get(tally_key)
        if found is None:
            found = self.tallies[tally_key] = tally(R[:, j]) if k is None else tally_differences(R[:, j], R[:, k])
        return found

    def curve(self, R: np.ndarray, key: tuple, j: int, k: int | None, grid: np.ndarray, normalize: bool) -> Curve:
        """D_j over ``grid`` (``k`` None) or I over the pair (j, k)."""
        cache_key = _curve_key(key, j, k, grid, normalize)
        found = self.curves.get(cache_key)
        if found is None:
            t = self.tally(R, key, j, k)
            found = (risk_curve(t, grid, normalize=normalize) if k is None
                     else loss_curve(t, None, grid, normalize=normalize))
            self.curves[cache_key] = found
        return found


def _curve_key(key: tuple, j: int, k: int | None, grid: np.ndarray, normalize: bool) -> tuple:
    return (key, j, k, grid.tobytes(), normalize)


def _configs(configs: Sequence[Any], published: np.ndarray | None) -> list[MaskingConfig]:
    out = []
    for c in configs:
        config = c if isinstance(c, MaskingConfig) else MaskingConfig(*c)
        if config.method == PUBLISHED:
            if published is None:
                raise InvalidParameterError("'published' needs the published masked data (only the paper examples "
                                            "have it)")
        elif config.method not in MASKING_METHODS:
            raise InvalidParameterError(f"method must be one of {sorted(MASKING_METHODS)}, got {config.method!r}")
        out.append(config if config.label else MaskingConfig(config.method, config.parameter,
                                                              config_label(config.method, config.parameter)))
    if not out:
        raise InvalidParameterError("configs must hold at least one masking configuration, got none")
    return out


def _seed(seed: int, index: int, sweep: bool) -> int:
    # Each configuration its own stream; a sweep shares one (common random numbers along the path).
    return int(seed) + 1000 * (1 if sweep else index + 1)


def _views(p: int, risk_attribute: int | None, loss_pair: tuple[int, int] | None) -> tuple[list, list]:
    if risk_attribute is not None and not 0 <= int(risk_attribute) < p:
        raise InvalidParameterError(f"risk_attribute must be in [0, {p - 1}], got {risk_attribute!r}")
    pairs = attribute_pairs(p)
    if loss_pair is not None and tuple(loss_pair) not in pairs:
        raise InvalidParameterError(f"loss_pair must be a pair (j, k) with j < k < {p}, got {loss_pair!r}")
    shown = list(range(p)) if risk_attribute is None else [int(risk_attribute)]
    shown_pairs = pairs if loss_pair is None or p < 2 else [tuple(loss_pair)]
    return shown, shown_pairs


def _check_data(X: Any, published: Any) -> tuple[np.ndarray, np.ndarray | None]:
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[0] < 2 or X.shape[1] < 1:
        raise InvalidParameterError(f"X must be a matrix of at least 2 records and 1 attribute, got shape {X.shape}")
    if published is not None:
        published = np.asarray(published, dtype=float)
        if published.shape != X.shape:
            raise InvalidParameterError(f"published must have X's shape {X.shape}, got {published.shape}")
    return X, published


def _needed(p: int, alphas, thetas, alpha1: float, theta2: float, shown, shown_pairs) -> list[tuple]:
    """The (j, k, grid) curves one configuration needs (k None: a risk curve)."""
    needed = [(j, None, alphas) for j in shown] + [(j, None, np.array([alpha1])) for j in range(p)]
    if p >= 2:
        needed += [(j, k, thetas) for j, k in shown_pairs]
        needed += [(j, k, np.array([theta2, math.inf])) for j, k in attribute_pairs(p)]
    return needed


def comparison_work(X: Any, configs: Sequence[Any], *, alphas: Any, thetas: Any, alpha1: float = 0.0,
                    theta2: float = 2.0, risk_attribute: int | None = None,
                    loss_pair: tuple[int, int] | None = None, normalize: bool = False, seed: int = 0,
                    convention: str = "rank", sweep: bool = False, published: Any = None,
                    cache: ComparisonCache | None = None, **_view: Any) -> float:
    """Work units (:mod:`explorer.core.cost`) :func:`compare_maskings` needs for these arguments, given ``cache``.

    Takes the same arguments as :func:`compare_maskings` (those that do not change the
    work, such as ``beta``, are accepted and ignored).  Multiply by the seconds per unit
    measured where it runs (:class:`explorer.panels.tasks.Throughput`) for an estimate
    in seconds.

    Notes
    -----
    The sum, over configurations, of :func:`~explorer.core.cost.masking_work` for the
    displacements not yet in ``cache``, and of :func:`~explorer.core.cost.curve_work`
    for each curve not yet in ``cache``: the risk curves ``D_j`` shown and the loss
    curves ``I_k`` shown over their grids, and every attribute's and pair's point at
    the calibration exponents.  A curve whose tally is not known yet is counted with
    ``n / 2`` distinct displacements.

    References
    ----------
    N. Ruiz, "On some consequences of the permutation paradigm for data anonymization: centrality of
    permutation matrices, universal measures of disclosure risk and information loss, evaluation by
    dominance", Information Sciences, 2018.

    Examples
    --------
    >>> X = np.arange(20.0).reshape(10, 2)
    >>> work = comparison_work(X, [("additive_noise", 0.5)], alphas=[0.0, 1.0], thetas=[1.0, 2.0])
    >>> float(work)        # masking 10 x 2 (20), then curves: 10 grid points in all, 5 distinct values each
    20.25
    """
    X, published = _check_data(X, published)
    n, m = X.shape
    configs = _configs(configs, published)
    alphas, thetas = np.asarray(alphas, dtype=float), np.asarray(thetas, dtype=float)
    shown, shown_pairs = _views(m, risk_attribute, loss_pair)
    cache = cache if cache is not None else ComparisonCache()
    work = 0.0
    for index, config in enumerate(configs):
        config_seed = _seed(seed, index, sweep)
        key = (config.method, config.parameter, config_seed, convention)
        if key not in cache.displacement_store and config.method != PUBLISHED:
            work += masking_work(config.method, config.parameter, n, m)
        for j, k, grid in _needed(m, alphas, thetas, alpha1, theta2, shown, shown_pairs):
            if _curve_key(key, j, k, grid, normalize) not in cache.curves:
                known = cache.tallies.get((key, j, k))
                work += curve_work(known.values.size if known is not None else n / 2, grid.size)
    return work


def comparison_seconds(X: Any, configs: Sequence[Any], **arguments: Any) -> float:
    """:func:`comparison_work` in seconds on the reference machine (what the app shows uses the rate measured
    where it runs instead).

    Examples
    --------
    >>> X = np.arange(20.0).reshape(10, 2)
    >>> comparison_seconds(X, [("additive_noise", 0.5)], alphas=[0.0, 1.0], thetas=[1.0, 2.0]) > 0
    True
    """
    return comparison_work(X, configs, **arguments) * REFERENCE_SECONDS_PER_UNIT


def compare_maskings(X: Any, configs: Sequence[Any], *, alphas: Any, thetas: Any, beta: float = 1.0,
                     pi: float = 1.0, alpha1: float = 0.0, theta2: float = 2.0, risk_target: float = 0.0,
                     risk_attribute: int | None = None, loss_pair: tuple[int, int] | None = None,
                     normalize: bool = False, seed: int = 0, convention: str = "rank", sweep: bool = False,
                     published: Any = None, cache: ComparisonCache | None = None,
                     progress: Callable[[float], bool] | None = None) -> MaskingComparison:
    """Compare masking configurations of ``X`` by their risk and loss curves (Ruiz (2018)).

    Parameters
    ----------
    X : array_like, shape (n, m)
        The original numeric data (n >= 2 records).
    configs : sequence of MaskingConfig or (method, parameter[, label]) tuples
        The configurations; ``method`` a name of ``MASKING_METHODS`` or :data:`PUBLISHED`.
    alphas, thetas : array_like
        The grids of the risk curves (alpha <= 1) and of the loss curves (theta >= 1).
    beta, pi : float
        Aggregation exponents over attributes (risk) and pairs (loss).
    alpha1, theta2 : float
        The calibration exponents (alpha_1 < 1, theta_2 > 1).
    risk_target : float
        The calibration's least acceptable risk ``D(alpha_1, beta)``.
    risk_attribute : int or None
        The attribute whose ``D_j(alpha)`` is shown; None: ``D(alpha, beta)`` over all attributes.
    loss_pair : (int, int) or None
        The pair whose ``I_k(theta)`` is shown; None: ``I(theta, pi)`` over all pairs.
    normalize : bool
        Divide displacements by n - 1 (0-1 scales).
    seed : int
        Configuration ``i`` masks with seed ``seed + 1000 (i + 1)``; with ``sweep`` all use
        ``seed + 1000`` (common random numbers along a parameter path).
    convention : {"rank", "position"}
        How displacements are read (see :func:`explorer.core.dominance.displacement.displacement_matrix`).
    sweep : bool
        Compare consecutive configurations only (a parameter sweep) instead of every pair.
    published : array_like or None
        The masked data of the :data:`PUBLISHED` configuration (a paper's printed Y).
    cache : ComparisonCache or None
        A memo for this ``X``; results are the same without it.
    progress : callable or None
        Called with the fraction done after each step; returning False raises
        :class:`~explorer.errors.CancelledError`.

    Returns
    -------
    MaskingComparison

    Notes
    -----
    With ``r_j`` the displacements of attribute ``j`` and ``M_a`` the power mean of exponent
    ``a``: ``D_j(alpha) = M_alpha(|r_j|)`` (zeros counted as 1e-8), ``I_k(theta) = M_theta(|r_j - r_k|)``
    for the pair k = (j, k'); ``D(alpha, beta) = M_beta(D_1(alpha), ..., D_m(alpha))`` and
    ``I(theta, pi) = M_pi(I_1(theta), ...)`` (Ruiz (2018), Props. 3 and 5-7).  A dominates B in
    risk when ``D_A >= D_B`` for every alpha (Def. 2), in loss when ``I_A <= I_B`` for every theta
    (Def. 4).  The calibration point of a configuration is ``(D(alpha_1, beta), I(theta_2, pi))``
    (Domingo-Ferrer and Soria-Comas (2018), Section VI-B).

    References
    ----------
    .. [1] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization:
       centrality of permutation matrices, universal measures of disclosure risk and information
       loss, evaluation by dominance", Information Sciences, 2018.
    .. [2] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
       differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.

    Examples
    --------
    Ruiz (2018)'s running example (Table 1): its printed Y against no masking, displacements read
    as record positions.  X3's ``D_3(1) = 1.6`` and the pair X2 & X3's ``I(1) = 2.4`` (Table 3):

    >>> from explorer.core.datasets import ruiz_example
    >>> frame = ruiz_example()
    >>> X, Y = frame[["X1", "X2", "X3"]].to_numpy(float), frame[["Y1", "Y2", "Y3"]].to_numpy(float)
    >>> result = compare_maskings(X, [(PUBLISHED, None), ("identity", None)], published=Y,
    ...                           alphas=[0.5, 1.0], thetas=[1.0, 2.0], risk_attribute=2, loss_pair=(1, 2),
    ...                           convention="position")
    >>> [round(float(v), 4) for v in result.risk_curves[0].values]
    [1.28, 1.6]
    >>> float(result.loss_curves[0].values[0])
    2.4
    >>> result.risk_sentences()[0].startswith("published Y dominates")
    True
    """
    X, published = _check_data(X, published)
    configs = _configs(configs, published)
    alphas, thetas = np.asarray(alphas, dtype=float), np.asarray(thetas, dtype=float)
    beta = check_number(beta, "beta", maximum=1.0, allow_inf=True)
    pi = check_number(pi, "pi", minimum=1.0, allow_inf=True)
    alpha1 = check_number(alpha1, "alpha1", maximum=1.0, include_maximum=False)
    theta2 = check_number(theta2, "theta2", minimum=1.0, include_minimum=False)
    risk_target = check_number(risk_target, "risk_target", minimum=0.0)
    p = X.shape[1]
    shown, shown_pairs = _views(p, risk_attribute, loss_pair)
    pairs_jk = attribute_pairs(p)
    cache = cache if cache is not None else ComparisonCache()
    total, done = max(len(configs) * (1 + p + len(pairs_jk)), 1), 0

    def step() -> None:
        nonlocal done
        done += 1
        if progress is not None and not progress(done / total):
            raise CancelledError("cancelled")

    risk_curves, loss_curves, points = [], [], []
    for index, config in enumerate(configs):
        config_seed = _seed(seed, index, sweep)
        R = cache.displacements(X, config, config_seed, convention, published)
        key = (config.method, config.parameter, config_seed, convention)
        step()
        per, risks = {}, []
        for j in range(p):
            if j in shown:
                per[j] = cache.curve(R, key, j, None, alphas, normalize).values
            risks.append(cache.curve(R, key, j, None, np.array([alpha1]), normalize).values[0])
            step()
        values = (np.atleast_1d(overall_disclosure_risk(np.array([per[j] for j in range(p)]), beta))
                  if risk_attribute is None else per[int(risk_attribute)])
        risk_curves.append(Curve("risk", alphas, values, config.label, normalize))
        per_pair, losses = {}, []
        for j, k in pairs_jk:
            if (j, k) in shown_pairs:
                per_pair[j, k] = cache.curve(R, key, j, k, thetas, normalize).values
            losses.append(cache.curve(R, key, j, k, np.array([theta2, math.inf]), normalize).values[0])
            step()
        if p >= 2:
            values = (np.atleast_1d(overall_information_loss(np.array([per_pair[jk] for jk in pairs_jk]), pi))
                      if loss_pair is None else per_pair[shown_pairs[0]])
            loss_curves.append(Curve("loss", thetas, values, config.label, normalize))
        points.append(CalibrationPoint(config.label, float(overall_disclosure_risk(risks, beta)),
                                       float(overall_information_loss(losses, pi)) if p >= 2 else 0.0,
                                       config.parameter))
    n_configs = len(configs)
    compared = (list(zip(range(n_configs - 1), range(1, n_configs))) if sweep
                else [(a, b) for a in range(n_configs) for b in range(a + 1, n_configs)])
    risk_results = tuple((a, b, dominance(risk_curves[a], risk_curves[b])) for a, b in compared)
    loss_results = tuple((a, b, dominance(loss_curves[a], loss_curves[b])) for a, b in compared) \
        if loss_curves else ()
    return MaskingComparison(tuple(configs), tuple(risk_curves), tuple(loss_curves), risk_results, loss_results,
                             tuple(points), best_calibration(points, risk_target), risk_target)
