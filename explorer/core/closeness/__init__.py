"""t-closeness and differential privacy: cluster distributions against the whole data set.

Domingo-Ferrer and Soria-Comas (2018), Section IV: exp(eps/2)-closeness under the ratio distance
(Eq. 7) gives eps-differential privacy (Proposition 1); Examples 2-3.

Each concept lives in one module; every public name below is also importable from this package
(imported on first use, so importing one module does not import the others):

:mod:`explorer.core.closeness.distance`
    the ratio distance (Eq. 7), the EMDs, t = exp(eps/2).
:mod:`explorer.core.closeness.microaggregation`
    clusterings: MDAV and group-by.
:mod:`explorer.core.closeness.profile`
    each cluster's distribution of the sensitive attribute, the worst-case cluster.
:mod:`explorer.core.closeness.merging`
    t-close microaggregation (MDAV clusters merged until t-close).
"""

from __future__ import annotations

from explorer.core._exports import lazy_exports

#: Where each public name of this package lives.
WHERE = {
    'DISTANCES': 'explorer.core.closeness.distance',
    'ratio_distance': 'explorer.core.closeness.distance',
    'emd_equal': 'explorer.core.closeness.distance',
    'emd_ordered': 'explorer.core.closeness.distance',
    'distribution_distance': 'explorer.core.closeness.distance',
    'closeness_for_epsilon': 'explorer.core.closeness.distance',
    'epsilon_for_closeness': 'explorer.core.closeness.distance',
    'Clustering': 'explorer.core.closeness.microaggregation',
    'mdav_labels': 'explorer.core.closeness.microaggregation',
    'mdav': 'explorer.core.closeness.microaggregation',
    'group_by': 'explorer.core.closeness.microaggregation',
    't_close_microaggregation': 'explorer.core.closeness.merging',
    'SensitiveCodes': 'explorer.core.closeness.profile',
    'BINNINGS': 'explorer.core.closeness.profile',
    'encode_sensitive': 'explorer.core.closeness.profile',
    'parse_edges': 'explorer.core.closeness.profile',
    'check_sensitive_bins': 'explorer.core.closeness.profile',
    'ClosenessProfile': 'explorer.core.closeness.profile',
    'closeness_profile': 'explorer.core.closeness.profile',
    'ClustersOverT': 'explorer.core.closeness.profile',
    'cluster_count_over_t': 'explorer.core.closeness.profile',
    'WorstCaseCluster': 'explorer.core.closeness.profile',
    'worst_case_cluster': 'explorer.core.closeness.profile',
    'cluster_table': 'explorer.core.closeness.profile',
    'csv_safe': 'explorer.core.export',
    'MISSING_LABEL': 'explorer.core.closeness.profile',
    'encode_quasi_identifiers': 'explorer.core.closeness.microaggregation',
    'k_for_records': 'explorer.core.closeness.microaggregation',
}

__all__ = [
    'DISTANCES',
    'ratio_distance',
    'emd_equal',
    'emd_ordered',
    'distribution_distance',
    'closeness_for_epsilon',
    'epsilon_for_closeness',
    'Clustering',
    'mdav_labels',
    'mdav',
    'group_by',
    't_close_microaggregation',
    'SensitiveCodes',
    'BINNINGS',
    'encode_sensitive',
    'parse_edges',
    'check_sensitive_bins',
    'ClosenessProfile',
    'closeness_profile',
    'ClustersOverT',
    'cluster_count_over_t',
    'WorstCaseCluster',
    'worst_case_cluster',
    'cluster_table',
    'csv_safe',
    'MISSING_LABEL',
    'encode_quasi_identifiers',
    'k_for_records',
]

__getattr__, __dir__ = lazy_exports(__name__, WHERE)
