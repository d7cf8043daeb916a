"""t-closeness and differential privacy: cluster distributions against the whole data set.

Domingo-Ferrer and Soria-Comas (2018) [1]_, Section IV: a clustering of the records (microaggregation, a
group-by on quasi-identifiers, or t-close microaggregation) gives, for each cluster, the distribution of
the sensitive attribute inside it.  The data set is t-close when every cluster's distribution is within
distance t of the whole data set's.  With the ratio distance of Eq. (7), exp(eps/2)-closeness gives
eps-differential privacy (Proposition 1), and the deniability reading of Section II-A (the cluster is the
"reported value") says what an intruder who learns a person's cluster can guess (Examples 2-3).

This module gathers the public names of four modules, one concept each:

- :mod:`explorer.core.closeness_distance`: the ratio distance (Eq. 7), the EMDs, t = exp(eps/2);
- :mod:`explorer.core.microaggregation`: :class:`Clustering`, MDAV (:func:`mdav_labels`, :func:`mdav`),
  :func:`group_by`;
- :mod:`explorer.core.cluster_profile`: the sensitive attribute's codes, the per-cluster
  :func:`closeness_profile`, :func:`cluster_count_over_t`, the Example 3 :func:`worst_case_cluster`, the
  cluster table;
- :mod:`explorer.core.t_close_merging`: :func:`t_close_microaggregation`.

The conventions followed are listed in ``docs/conventions.md`` ("Conventions and errata followed").

References
----------
.. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
   differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.
"""

from __future__ import annotations

from explorer.core.closeness_distance import (
    DISTANCES,
    closeness_for_epsilon,
    distribution_distance,
    emd_equal,
    emd_ordered,
    epsilon_for_closeness,
    ratio_distance,
)
from explorer.core.cluster_profile import (
    BINNINGS,
    MISSING_LABEL,
    ClosenessProfile,
    ClustersOverT,
    SensitiveCodes,
    WorstCaseCluster,
    closeness_profile,
    cluster_count_over_t,
    cluster_table,
    encode_sensitive,
    worst_case_cluster,
)
from explorer.core.export import csv_safe
from explorer.core.microaggregation import Clustering, group_by, mdav, mdav_labels
from explorer.core.t_close_merging import t_close_microaggregation

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
    "BINNINGS",
    "encode_sensitive",
    "ClosenessProfile",
    "closeness_profile",
    "ClustersOverT",
    "cluster_count_over_t",
    "WorstCaseCluster",
    "worst_case_cluster",
    "cluster_table",
    "csv_safe",
    "MISSING_LABEL",
]
