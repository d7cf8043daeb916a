"""Multi-dimensional randomized response (Domingo-Ferrer and Soria-Comas (2022)).

This module gathers the public names of the modules where each part lives once:

:mod:`explorer.core.rr_mechanisms`
    RR matrices shared with single-attribute RR: :class:`GRRMatrix`, :class:`KroneckerMatrix`,
    the per-attribute matrix of Section 6.3.1 (:func:`attribute_matrix`) and the cluster
    matrix of Section 6.3.2 with the corrected p_C (:func:`cluster_matrix`).
:mod:`explorer.core.rr_estimation`
    Eq. (2), proper distributions (:func:`make_proper`: clip, simplex projection, the
    iterative Bayesian update) and the error bounds of Eqs. (5)-(6) (:func:`chi2_factor`,
    :func:`relative_error_bound`), shared with single-attribute RR.
:mod:`explorer.core.rr_protocols`
    RR-Independent (Protocol 1), RR-Joint (Protocol 2) and RR-Clusters.
:mod:`explorer.core.rr_dependence`
    Dependence between attributes (Section 4, with the secure-sum protocol), between clusters
    (:func:`cluster_dependence`) and attribute clustering (Algorithm 1).
:mod:`explorer.core.rr_adjustment`
    RR-Adjustment (Algorithm 2).
:mod:`explorer.core.rr_count_queries`
    The count queries of Section 6.5 and their errors (Eq. 16).

Conventions: an RR matrix is row-stochastic, ``P[u, v] = Pr(Y = v | X = u)``; a joint
category of attributes ``(A^1, ..., A^m)`` is the C-order flat index (consistent with
``np.kron(P1, P2)``); the per-attribute mechanism is a named choice (:data:`MECHANISMS`):
``"keep-or-uniform"`` (default; the mechanism Prop. 1 analyses), ``"paper-6.3.1"`` (Section
6.3.1's printed matrix with its rows rescaled) or ``"epsilon"`` (the optimal matrix for a given
epsilon per attribute).  The choices and errata followed are listed in the documentation page
"Conventions and errata followed" (``docs/conventions.md``).

References
----------
.. [1] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
   Transactions on Knowledge and Data Engineering, 2022.
"""

from __future__ import annotations

from explorer.core.rr_adjustment import EXAMPLE1_MARGINALS, EXAMPLE1_REPORTS, AdjustmentResult, rr_adjust
from explorer.core.rr_count_queries import (
    CountQuery,
    count_query_errors,
    query_frequency_clusters,
    query_frequency_independent,
    query_frequency_weighted,
    random_count_query,
)
from explorer.core.rr_dependence import (
    DEPENDENCE_METHODS,
    abs_pearson,
    cluster_attributes,
    cluster_dependence,
    cramers_v,
    dependence_matrix,
    pair_dependence,
    secure_sum_count,
)
from explorer.core.rr_estimation import PROPER_METHODS, chi2_factor, make_proper, relative_error_bound
from explorer.core.rr_mechanisms import (
    MAX_DENSE_SOLVE,
    MECHANISMS,
    GRRMatrix,
    KroneckerMatrix,
    attribute_matrix,
    cluster_matrix,
    n_combinations,
)
from explorer.core.rr_protocols import (
    MAX_JOINT_CELLS,
    CategoricalData,
    ClustersResult,
    IndependentResult,
    JointResult,
    encode_categorical,
    estimate_joint,
    joint_codes,
    randomize_joint,
    rr_clusters,
    rr_independent,
    rr_joint,
)

__all__ = [
    "MECHANISMS",
    "PROPER_METHODS",
    "DEPENDENCE_METHODS",
    "MAX_JOINT_CELLS",
    "MAX_DENSE_SOLVE",
    "CategoricalData",
    "encode_categorical",
    "GRRMatrix",
    "KroneckerMatrix",
    "attribute_matrix",
    "cluster_matrix",
    "make_proper",
    "joint_codes",
    "n_combinations",
    "randomize_joint",
    "estimate_joint",
    "JointResult",
    "rr_joint",
    "IndependentResult",
    "rr_independent",
    "CountQuery",
    "random_count_query",
    "query_frequency_independent",
    "ClustersResult",
    "rr_clusters",
    "query_frequency_clusters",
    "query_frequency_weighted",
    "count_query_errors",
    "cramers_v",
    "abs_pearson",
    "pair_dependence",
    "secure_sum_count",
    "dependence_matrix",
    "cluster_dependence",
    "cluster_attributes",
    "AdjustmentResult",
    "rr_adjust",
    "relative_error_bound",
    "chi2_factor",
    "EXAMPLE1_REPORTS",
    "EXAMPLE1_MARGINALS",
]
