"""Multi-dimensional randomized response (Domingo-Ferrer and Soria-Comas (2022)).

RR-Independent, RR-Joint and RR-Clusters, dependence between attributes and attribute
clustering (Algorithm 1 of that paper), RR-Adjustment (its Algorithm 2), count queries and the
experiments on UCI Adult (its Section 6).

Each concept lives in one module; every public name below is also importable from this package
(imported on first use, so importing one module does not import the others):

:mod:`explorer.core.mdrr.protocols`
    RR-Independent, RR-Joint and RR-Clusters.
:mod:`explorer.core.mdrr.dependence`
    dependence between attributes (Section 4) and attribute clustering
    (Domingo-Ferrer and Soria-Comas (2022), Algorithm 1).
:mod:`explorer.core.mdrr.adjustment`
    RR-Adjustment (Domingo-Ferrer and Soria-Comas (2022), Algorithm 2).
:mod:`explorer.core.mdrr.count_queries`
    the count queries of Section 6.5 and their errors (Eq. 16).
:mod:`explorer.core.mdrr.experiments`
    the experiments of Section 6: Tables 1-2 and Figures 2-3.
"""

from __future__ import annotations

from explorer.core._exports import lazy_exports

#: Where each public name of this package lives.
WHERE = {
    'MECHANISMS': 'explorer.core.rr.mechanisms',
    'PROPER_METHODS': 'explorer.core.rr.estimation',
    'DEPENDENCE_METHODS': 'explorer.core.mdrr.dependence',
    'MAX_JOINT_CELLS': 'explorer.core.mdrr.protocols',
    'MAX_DENSE_SOLVE': 'explorer.core.rr.mechanisms',
    'CategoricalData': 'explorer.core.mdrr.protocols',
    'encode_categorical': 'explorer.core.mdrr.protocols',
    'GRRMatrix': 'explorer.core.rr.mechanisms',
    'KroneckerMatrix': 'explorer.core.rr.mechanisms',
    'attribute_matrix': 'explorer.core.rr.mechanisms',
    'cluster_matrix': 'explorer.core.rr.mechanisms',
    'make_proper': 'explorer.core.rr.estimation',
    'joint_codes': 'explorer.core.mdrr.protocols',
    'n_combinations': 'explorer.core.rr.mechanisms',
    'randomize_joint': 'explorer.core.mdrr.protocols',
    'estimate_joint': 'explorer.core.mdrr.protocols',
    'JointResult': 'explorer.core.mdrr.protocols',
    'rr_joint': 'explorer.core.mdrr.protocols',
    'IndependentResult': 'explorer.core.mdrr.protocols',
    'rr_independent': 'explorer.core.mdrr.protocols',
    'CountQuery': 'explorer.core.mdrr.count_queries',
    'random_count_query': 'explorer.core.mdrr.count_queries',
    'query_frequency_independent': 'explorer.core.mdrr.count_queries',
    'ClustersResult': 'explorer.core.mdrr.protocols',
    'rr_clusters': 'explorer.core.mdrr.protocols',
    'query_frequency_clusters': 'explorer.core.mdrr.count_queries',
    'query_frequency_weighted': 'explorer.core.mdrr.count_queries',
    'count_query_errors': 'explorer.core.mdrr.count_queries',
    'cramers_v': 'explorer.core.mdrr.dependence',
    'abs_pearson': 'explorer.core.mdrr.dependence',
    'pair_dependence': 'explorer.core.mdrr.dependence',
    'secure_sum_count': 'explorer.core.mdrr.dependence',
    'dependence_matrix': 'explorer.core.mdrr.dependence',
    'cluster_dependence': 'explorer.core.mdrr.dependence',
    'cluster_attributes': 'explorer.core.mdrr.dependence',
    'AdjustmentResult': 'explorer.core.mdrr.adjustment',
    'rr_adjust': 'explorer.core.mdrr.adjustment',
    'relative_error_bound': 'explorer.core.rr.estimation',
    'chi2_factor': 'explorer.core.rr.estimation',
    'EXAMPLE1_REPORTS': 'explorer.core.mdrr.adjustment',
    'EXAMPLE1_MARGINALS': 'explorer.core.mdrr.adjustment',
    'ADULT_MDRR_ATTRIBUTES': 'explorer.core.mdrr.experiments',
    'METHODS': 'explorer.core.mdrr.experiments',
    'TABLE_P': 'explorer.core.mdrr.experiments',
    'TABLE_TD': 'explorer.core.mdrr.experiments',
    'TABLE_TV': 'explorer.core.mdrr.experiments',
    'FIGURE_SIGMAS': 'explorer.core.mdrr.experiments',
    'PAPER_TABLE1': 'explorer.core.mdrr.experiments',
    'PAPER_TABLE2': 'explorer.core.mdrr.experiments',
    'ExperimentResult': 'explorer.core.mdrr.experiments',
    'adult_mdrr_data': 'explorer.core.mdrr.experiments',
    'run_table': 'explorer.core.mdrr.experiments',
    'run_figure3': 'explorer.core.mdrr.experiments',
    'summarize': 'explorer.core.mdrr.experiments',
    'table_view': 'explorer.core.mdrr.experiments',
    'compare_with_paper': 'explorer.core.mdrr.experiments',
    'best_cells': 'explorer.core.mdrr.experiments',
    'cli': 'explorer.core.mdrr.experiments',
    'feasible_t_vs': 'explorer.core.mdrr.experiments',
    'error_curves': 'explorer.core.mdrr.experiments',
    'table_cells': 'explorer.core.mdrr.experiments',
    'ClusterPlan': 'explorer.core.mdrr.protocols',
    'cluster_plan': 'explorer.core.mdrr.protocols',
    'EXAMPLE1_KINDS': 'explorer.core.mdrr.adjustment',
    'EXAMPLE1_LIMITS': 'explorer.core.mdrr.adjustment',
    'Example1Trace': 'explorer.core.mdrr.adjustment',
    'example1_weight': 'explorer.core.mdrr.adjustment',
    'example1_trace': 'explorer.core.mdrr.adjustment',
}

__all__ = [
    'MECHANISMS',
    'PROPER_METHODS',
    'DEPENDENCE_METHODS',
    'MAX_JOINT_CELLS',
    'MAX_DENSE_SOLVE',
    'CategoricalData',
    'encode_categorical',
    'GRRMatrix',
    'KroneckerMatrix',
    'attribute_matrix',
    'cluster_matrix',
    'make_proper',
    'joint_codes',
    'n_combinations',
    'randomize_joint',
    'estimate_joint',
    'JointResult',
    'rr_joint',
    'IndependentResult',
    'rr_independent',
    'CountQuery',
    'random_count_query',
    'query_frequency_independent',
    'ClustersResult',
    'rr_clusters',
    'query_frequency_clusters',
    'query_frequency_weighted',
    'count_query_errors',
    'cramers_v',
    'abs_pearson',
    'pair_dependence',
    'secure_sum_count',
    'dependence_matrix',
    'cluster_dependence',
    'cluster_attributes',
    'AdjustmentResult',
    'rr_adjust',
    'relative_error_bound',
    'chi2_factor',
    'EXAMPLE1_REPORTS',
    'EXAMPLE1_MARGINALS',
    'ADULT_MDRR_ATTRIBUTES',
    'METHODS',
    'TABLE_P',
    'TABLE_TD',
    'TABLE_TV',
    'FIGURE_SIGMAS',
    'PAPER_TABLE1',
    'PAPER_TABLE2',
    'ExperimentResult',
    'adult_mdrr_data',
    'run_table',
    'run_figure3',
    'summarize',
    'table_view',
    'compare_with_paper',
    'best_cells',
    'cli',
    'feasible_t_vs',
    'error_curves',
    'table_cells',
    'ClusterPlan',
    'cluster_plan',
    'EXAMPLE1_KINDS',
    'EXAMPLE1_LIMITS',
    'Example1Trace',
    'example1_weight',
    'example1_trace',
]

__getattr__, __dir__ = lazy_exports(__name__, WHERE)
