"""Randomized response (RR): matrices, epsilon, randomization and frequency estimation.

The single-attribute RR of Domingo-Ferrer and Soria-Comas (2018), Sections II-III, with the
estimators and error bounds of Domingo-Ferrer and Soria-Comas (2022), Sections 2.1-2.3 and
6.3-6.4.  An RR matrix is row-stochastic, ``P[u, v] = Pr(Y = v | X = u)``; categories are
integer codes ``0 .. r-1``.

This module gathers the public names of two modules, where each formula lives once (and is
shared with multi-attribute RR, :mod:`explorer.core.multidim_rr`):

:mod:`explorer.core.rr_mechanisms`
    Designs (:func:`warner_matrix`, :func:`keep_or_uniform_matrix`, :func:`optimal_matrix`,
    :func:`identity_matrix`), :func:`epsilon_of`, :func:`epsilon_column` and :func:`randomize`.
:mod:`explorer.core.rr_estimation`
    :func:`estimate_frequencies` (inversion, clip-and-rescale, Euclidean simplex projection,
    iterative Bayesian update), :func:`inversion_estimate`, :func:`iterative_bayesian_update`,
    :func:`error_bounds` and :func:`estimate_error_bound`.

The choices and errata followed are listed in the documentation page "Conventions and errata
followed" (``docs/conventions.md``).

References
----------
.. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
   differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.
.. [2] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
   Transactions on Knowledge and Data Engineering, 2022.
"""

from __future__ import annotations

from explorer.core.rr_estimation import (
    ESTIMATION_METHODS,
    ILL_CONDITIONED,
    SINGULAR_CONDITION,
    ErrorBounds,
    FrequencyEstimate,
    IBUResult,
    IllConditionedMatrixWarning,
    chi2_factor,
    clip_and_rescale,
    error_bounds,
    estimate_error_bound,
    estimate_frequencies,
    inversion_estimate,
    iterative_bayesian_update,
    project_to_simplex,
    report_counts,
)
from explorer.core.rr_mechanisms import (
    MAX_CATEGORIES,
    _category_of_draws,
    _check_codes,
    _row_cumulative,
    check_matrix,
    epsilon_column,
    epsilon_of,
    identity_matrix,
    keep_or_uniform_matrix,
    keep_probability_for_epsilon,
    optimal_matrix,
    randomize,
    warner_matrix,
)

__all__ = [
    "MAX_CATEGORIES",
    "ESTIMATION_METHODS",
    "SINGULAR_CONDITION",
    "ILL_CONDITIONED",
    "IllConditionedMatrixWarning",
    "FrequencyEstimate",
    "IBUResult",
    "ErrorBounds",
    "warner_matrix",
    "keep_or_uniform_matrix",
    "optimal_matrix",
    "identity_matrix",
    "check_matrix",
    "epsilon_of",
    "epsilon_column",
    "randomize",
    "report_counts",
    "estimate_frequencies",
    "inversion_estimate",
    "iterative_bayesian_update",
    "clip_and_rescale",
    "project_to_simplex",
    "chi2_factor",
    "error_bounds",
    "estimate_error_bound",
    "keep_probability_for_epsilon",
]

# private helpers kept importable from here for existing callers
_PRIVATE = (_category_of_draws, _check_codes, _row_cumulative)
