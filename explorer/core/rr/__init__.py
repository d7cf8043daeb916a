"""Randomized response and PRAM: matrices, their epsilon, randomizing, estimating frequencies.

Domingo-Ferrer and Soria-Comas (2018), Sections II-III; the estimators and error bounds of
Domingo-Ferrer and Soria-Comas (2022), Sections 2.1-2.3 and 6.3-6.4.

Each concept lives in one module; every public name below is also importable from this package
(imported on first use, so importing one module does not import the others):

:mod:`explorer.core.rr.mechanisms`
    RR matrices (Warner, keep-or-uniform, optimal, identity, the structured matrices of
    multi-attribute RR), their epsilon (Eq. 6 of Domingo-Ferrer and Soria-Comas (2018)) and randomizing.
:mod:`explorer.core.rr.estimation`
    frequency estimation (the one inversion, Eq. 2; clip-and-rescale, simplex projection,
    the one iterative Bayesian update) and the error bounds (Domingo-Ferrer and Soria-Comas (2022), Eqs. 5-6).
:mod:`explorer.core.rr.simulation`
    the estimation simulation of the randomized-response tab.
"""

from __future__ import annotations

from explorer.core._exports import lazy_exports

#: Where each public name of this package lives.
WHERE = {
    'MAX_CATEGORIES': 'explorer.core.rr.mechanisms',
    'ESTIMATION_METHODS': 'explorer.core.rr.estimation',
    'SINGULAR_CONDITION': 'explorer.core.rr.estimation',
    'ILL_CONDITIONED': 'explorer.core.rr.estimation',
    'IllConditionedMatrixWarning': 'explorer.core.rr.estimation',
    'FrequencyEstimate': 'explorer.core.rr.estimation',
    'IBUResult': 'explorer.core.rr.estimation',
    'ErrorBounds': 'explorer.core.rr.estimation',
    'warner_matrix': 'explorer.core.rr.mechanisms',
    'keep_or_uniform_matrix': 'explorer.core.rr.mechanisms',
    'optimal_matrix': 'explorer.core.rr.mechanisms',
    'identity_matrix': 'explorer.core.rr.mechanisms',
    'check_matrix': 'explorer.core.rr.mechanisms',
    'row_check': 'explorer.core.rr.mechanisms',
    'normalise_rows': 'explorer.core.rr.mechanisms',
    'epsilon_of': 'explorer.core.rr.mechanisms',
    'epsilon_column': 'explorer.core.rr.mechanisms',
    'randomize': 'explorer.core.rr.mechanisms',
    'report_counts': 'explorer.core.rr.estimation',
    'estimate_frequencies': 'explorer.core.rr.estimation',
    'inversion_estimate': 'explorer.core.rr.estimation',
    'iterative_bayesian_update': 'explorer.core.rr.estimation',
    'clip_and_rescale': 'explorer.core.rr.estimation',
    'project_to_simplex': 'explorer.core.rr.estimation',
    'chi2_factor': 'explorer.core.rr.estimation',
    'error_bounds': 'explorer.core.rr.estimation',
    'estimate_error_bound': 'explorer.core.rr.estimation',
    'keep_probability_for_epsilon': 'explorer.core.rr.mechanisms',
    'MAX_DENSE_SOLVE': 'explorer.core.rr.mechanisms',
    'MECHANISMS': 'explorer.core.rr.mechanisms',
    'GRRMatrix': 'explorer.core.rr.mechanisms',
    'KroneckerMatrix': 'explorer.core.rr.mechanisms',
    'attribute_matrix': 'explorer.core.rr.mechanisms',
    'cluster_matrix': 'explorer.core.rr.mechanisms',
    'n_combinations': 'explorer.core.rr.mechanisms',
    'PROPER_METHODS': 'explorer.core.rr.estimation',
    'make_proper': 'explorer.core.rr.estimation',
    'relative_error_bound': 'explorer.core.rr.estimation',
    'EstimationSimulation': 'explorer.core.rr.simulation',
    'simulate_estimation': 'explorer.core.rr.simulation',
    'is_singular': 'explorer.core.rr.simulation',
}

__all__ = [
    'MAX_CATEGORIES',
    'ESTIMATION_METHODS',
    'SINGULAR_CONDITION',
    'ILL_CONDITIONED',
    'IllConditionedMatrixWarning',
    'FrequencyEstimate',
    'IBUResult',
    'ErrorBounds',
    'warner_matrix',
    'keep_or_uniform_matrix',
    'optimal_matrix',
    'identity_matrix',
    'check_matrix',
    'row_check',
    'normalise_rows',
    'epsilon_of',
    'epsilon_column',
    'randomize',
    'report_counts',
    'estimate_frequencies',
    'inversion_estimate',
    'iterative_bayesian_update',
    'clip_and_rescale',
    'project_to_simplex',
    'chi2_factor',
    'error_bounds',
    'estimate_error_bound',
    'keep_probability_for_epsilon',
    'MAX_DENSE_SOLVE',
    'MECHANISMS',
    'GRRMatrix',
    'KroneckerMatrix',
    'attribute_matrix',
    'cluster_matrix',
    'n_combinations',
    'PROPER_METHODS',
    'make_proper',
    'relative_error_bound',
    'EstimationSimulation',
    'simulate_estimation',
    'is_singular',
]

__getattr__, __dir__ = lazy_exports(__name__, WHERE)
