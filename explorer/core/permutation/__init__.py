"""The permutation paradigm of anonymization.

Any anonymization is a permutation plus a small residual noise (Domingo-Ferrer and Muralidhar
(2016); Ruiz (2018), Section 2; Domingo-Ferrer and Soria-Comas (2018), Sections V-VI-A).

Each concept lives in one module; every public name below is also importable from this package
(imported on first use, so importing one module does not import the others):

:mod:`explorer.core.permutation.ranking`
    ranks with tie policies, Spearman's rho, data sets as matrices.
:mod:`explorer.core.permutation.reverse_mapping`
    reverse mapping (Domingo-Ferrer and Muralidhar (2016), Algorithm 1), the
    residual noise, Ruiz's permutation matrices (Ruiz (2018), Prop. 1).
:mod:`explorer.core.permutation.distance`
    the permutation distance (Domingo-Ferrer and Muralidhar (2016), Algorithm 2).
:mod:`explorer.core.permutation.privacy`
    (d, v)-permuted privacy (Domingo-Ferrer and Muralidhar (2016), Defs. 1-2).
:mod:`explorer.core.permutation.intruder`
    the maximum-knowledge intruder's record linkage and its verification.
:mod:`explorer.core.permutation.analysis`
    :func:`permutation_analysis`, everything at once.
:mod:`explorer.core.permutation.inputs`
    a data set's numeric attributes, the random records and the seeds of an analysis.
"""

from __future__ import annotations

from explorer.core._exports import lazy_exports

#: Where each public name of this package lives.
WHERE = {
    'TIES': 'explorer.core.permutation.analysis',
    'MISSING_POLICIES': 'explorer.core.permutation.analysis',
    'MAX_MATRIX_N': 'explorer.core.permutation.analysis',
    'MAX_ALL_RANDOM': 'explorer.core.permutation.analysis',
    'ranks': 'explorer.core.permutation.analysis',
    'numeric_matrix': 'explorer.core.permutation.analysis',
    'reverse_map': 'explorer.core.permutation.analysis',
    'reverse_map_frame': 'explorer.core.permutation.analysis',
    'residual_noise': 'explorer.core.permutation.analysis',
    'permutation_matrix': 'explorer.core.permutation.analysis',
    'permutation_extent': 'explorer.core.permutation.analysis',
    'rank_displacement': 'explorer.core.permutation.analysis',
    'rank_shift': 'explorer.core.permutation.analysis',
    'rank_intervals': 'explorer.core.permutation.analysis',
    'spearman': 'explorer.core.permutation.analysis',
    'PermutationDistances': 'explorer.core.permutation.analysis',
    'permutation_distances': 'explorer.core.permutation.analysis',
    'window_variances': 'explorer.core.permutation.analysis',
    'ValueWindow': 'explorer.core.permutation.analysis',
    'value_window': 'explorer.core.permutation.analysis',
    'PermutedPrivacy': 'explorer.core.permutation.analysis',
    'permuted_privacy': 'explorer.core.permutation.analysis',
    'SubjectCheck': 'explorer.core.permutation.analysis',
    'subject_check': 'explorer.core.permutation.analysis',
    'DVFPermutedPrivacy': 'explorer.core.permutation.analysis',
    'dvf_permuted_privacy': 'explorer.core.permutation.analysis',
    'RecordLinkage': 'explorer.core.permutation.analysis',
    'record_linkage': 'explorer.core.permutation.analysis',
    'RandomMatches': 'explorer.core.permutation.analysis',
    'random_match_distances': 'explorer.core.permutation.analysis',
    'LinkageVerification': 'explorer.core.permutation.analysis',
    'linkage_verification': 'explorer.core.permutation.analysis',
    'hellinger': 'explorer.core.permutation.analysis',
    'distance_histogram': 'explorer.core.permutation.analysis',
    'PermutationAnalysis': 'explorer.core.permutation.analysis',
    'permutation_analysis': 'explorer.core.permutation.analysis',
    'AUTO_ALL_RANDOM': 'explorer.core.permutation.inputs',
    'DEFAULT_RANDOM': 'explorer.core.permutation.inputs',
    'NumericAttributes': 'explorer.core.permutation.inputs',
    'numeric_attributes': 'explorer.core.permutation.inputs',
    'has_ties': 'explorer.core.permutation.inputs',
    'default_random_records': 'explorer.core.permutation.inputs',
    'RandomRecords': 'explorer.core.permutation.inputs',
    'random_records': 'explorer.core.permutation.inputs',
    'seed_streams': 'explorer.core.permutation.inputs',
}

__all__ = [
    'TIES',
    'MISSING_POLICIES',
    'MAX_MATRIX_N',
    'MAX_ALL_RANDOM',
    'ranks',
    'numeric_matrix',
    'reverse_map',
    'reverse_map_frame',
    'residual_noise',
    'permutation_matrix',
    'permutation_extent',
    'rank_displacement',
    'rank_shift',
    'rank_intervals',
    'spearman',
    'PermutationDistances',
    'permutation_distances',
    'window_variances',
    'ValueWindow',
    'value_window',
    'PermutedPrivacy',
    'permuted_privacy',
    'SubjectCheck',
    'subject_check',
    'DVFPermutedPrivacy',
    'dvf_permuted_privacy',
    'RecordLinkage',
    'record_linkage',
    'RandomMatches',
    'random_match_distances',
    'LinkageVerification',
    'linkage_verification',
    'hellinger',
    'distance_histogram',
    'PermutationAnalysis',
    'permutation_analysis',
    'AUTO_ALL_RANDOM',
    'DEFAULT_RANDOM',
    'NumericAttributes',
    'numeric_attributes',
    'has_ties',
    'default_random_records',
    'RandomRecords',
    'random_records',
    'seed_streams',
]

__getattr__, __dir__ = lazy_exports(__name__, WHERE)
