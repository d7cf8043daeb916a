"""The permutation paradigm of anonymization, in one import.

Any anonymization of an attribute X into Y is functionally a *permutation* of X
(the reverse-mapped Z) followed by a *residual noise* E = Y - Z that changes no
rank (Domingo-Ferrer and Muralidhar 2016; Ruiz 2018, Section 2;
Domingo-Ferrer and Soria-Comas 2018, Sections V-VI-A).  Each concept lives in
its own module, and every public name stays importable from here:

* :mod:`explorer.core.permutation.ranking`: ranks with tie policies, Spearman's rho, data
  sets as matrices;
* :mod:`explorer.core.permutation.reverse_mapping`: the reverse mapping (Domingo-Ferrer and
  Muralidhar 2016, Algorithm 1), the residual noise and Ruiz's permutation
  matrices (Ruiz 2018, Prop. 1);
* :mod:`explorer.core.permutation.distance`: the permutation distance
  (Domingo-Ferrer and Muralidhar 2016, Algorithm 2);
* :mod:`explorer.core.permutation.privacy`: (d, v)-permuted privacy
  (Definitions 1-2), the windows of anonymized values and their variances,
  and the (d, v, f) form;
* :mod:`explorer.core.permutation.intruder`: the maximum-knowledge intruder's record
  linkage and its verification against random records (Section 5);
* :mod:`explorer.core.dominance.displacement`: Ruiz's T_j and rank displacements
  (``permutation_extent`` and ``rank_displacement``, re-exported here);
* here: :func:`permutation_analysis`, everything at once (the tab and the
  notebook).

Conventions and errata are those of the documentation's page "Conventions and
errata followed" (``docs/conventions.md``).  Record numbers in results are
0-based (row positions); the papers number records from 1.

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

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import pandas as pd

from explorer._validation import check_rng
# T_j and r_j live with the other displacement measures of Ruiz (2018); re-exported here.
from explorer.core.dominance.displacement import permutation_extent, rank_displacement
from explorer.core.permutation.intruder import (
    MAX_ALL_RANDOM,
    LinkageVerification,
    RandomMatches,
    RecordLinkage,
    _linkage_fields,
    distance_histogram,
    hellinger,
    linkage_verification,
    random_match_distances,
    record_linkage,
)
from explorer.core.permutation.distance import PermutationDistances, permutation_distances
from explorer.core.permutation.privacy import (
    DVFPermutedPrivacy,
    PermutedPrivacy,
    SubjectCheck,
    ValueWindow,
    dvf_permuted_privacy,
    permuted_privacy,
    subject_check,
    value_window,
    window_variances,
)
from explorer.core.permutation.ranking import (
    MISSING_POLICIES,
    TIES,
    _check_n,
    _pair,
    numeric_matrix,
    rank_intervals,
    rank_shift,
    ranks,
    spearman,
)
from explorer.core.permutation.reverse_mapping import (
    MAX_MATRIX_N,
    permutation_matrix,
    residual_noise,
    reverse_map,
    reverse_map_frame,
)

__all__ = [
    "TIES",
    "MISSING_POLICIES",
    "MAX_MATRIX_N",
    "MAX_ALL_RANDOM",
    "ranks",
    "numeric_matrix",
    "reverse_map",
    "reverse_map_frame",
    "residual_noise",
    "permutation_matrix",
    "permutation_extent",
    "rank_displacement",
    "rank_shift",
    "rank_intervals",
    "spearman",
    "PermutationDistances",
    "permutation_distances",
    "window_variances",
    "ValueWindow",
    "value_window",
    "PermutedPrivacy",
    "permuted_privacy",
    "SubjectCheck",
    "subject_check",
    "DVFPermutedPrivacy",
    "dvf_permuted_privacy",
    "RecordLinkage",
    "record_linkage",
    "RandomMatches",
    "random_match_distances",
    "LinkageVerification",
    "linkage_verification",
    "hellinger",
    "distance_histogram",
    "PermutationAnalysis",
    "permutation_analysis",
]


# --------------------------------------------------------------------------- everything at once (panel, notebook)

@dataclass(frozen=True)
class PermutationAnalysis:
    """X, its anonymized Y, and what the permutation paradigm says about them.

    The result of :func:`permutation_analysis`: Domingo-Ferrer and Muralidhar (2016), Sections 2-5
    [1]_, and Ruiz (2018), Section 3 [2]_.

    Attributes
    ----------
    columns : list of str
        Attribute names.
    X, Y, Z, E : (n, m) float
        Original, anonymized, reverse-mapped (Domingo-Ferrer and Muralidhar (2016), Algorithm 1) and residual noise E = Y - Z.
    spearman : (m,) float
        Spearman's rho between X_j and Y_j (= Z_j) per attribute (NaN for a constant attribute).
    extent : (m,) float
        Ruiz's T_j = 1 - trace(P_j) / n: the share of records whose displacement is not zero (the same
        under every tie policy).
    displacement : (n, m) float
        The rank displacement rank(y) - rank(x) of every record
        (:func:`explorer.core.permutation.ranking.rank_shift`: equal values never count as moved, so
        it does not depend on the tie policy; zero displacements kept at 0).
    privacy : PermutedPrivacy
        (d, v)-permuted privacy of Y w.r.t. every original record (Table 4).
    verification : LinkageVerification
        The intruder's linkage against Z (Table 5) and its verification against
        random records (Tables 6-7).
    ties : str
        The tie policy used.

    References
    ----------
    .. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization: permutation paradigm,
       verifiability by subjects and intruders, transparency to users", Information Sciences
       337-338:11-24, 2016.
    .. [2] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization: centrality
       of permutation matrices, universal measures of disclosure risk and information loss, evaluation
       by dominance", Information Sciences, 2018.
    """

    columns: list
    X: np.ndarray
    Y: np.ndarray
    Z: np.ndarray
    E: np.ndarray
    spearman: np.ndarray
    extent: np.ndarray
    displacement: np.ndarray
    privacy: PermutedPrivacy
    verification: LinkageVerification
    ties: str

    @property
    def linkage(self) -> RecordLinkage:
        return self.verification.linkage

    def record_table(self) -> pd.DataFrame:
        """One row per original record (1-based numbers, as in the papers): Tables 4 and 5 side by side."""
        dist = self.privacy.distances
        link = self.linkage.distances
        n = dist.distance.size

        def listing(d: PermutationDistances, i: int) -> str:
            return " ".join(str(k + 1) for k in d.matches(i))

        table = pd.DataFrame({
            "record": np.arange(1, n + 1),
            "permutation distance d_i (vs Y)": dist.distance,
            "closest anonymized record": dist.closest + 1,
            "records at d_i": [listing(dist, i) for i in range(n)],
            "intruder's matches in Z": [listing(link, i) for i in range(n)],
            "match distance (vs Z)": link.distance,
            "correct link": self.linkage.correct,
            "share of random records as close": self.verification.chance_share,
        })
        for j, c in enumerate(self.columns):
            table[f"var {c} within d={self.privacy.d:g}"] = self.privacy.variance_at_d[:, j]
            table[f"var {c} within d_i"] = self.privacy.variance_at_record[:, j]
        return table

    def frames(self) -> dict[str, pd.DataFrame]:
        """Z, E and the per-record table as DataFrames (for CSV export)."""
        return {"Z": pd.DataFrame(self.Z, columns=self.columns),
                "E": pd.DataFrame(self.E, columns=self.columns),
                "records": self.record_table()}


def permutation_analysis(X: Any, Y: Any, *, n_random: Any = "all", ties: str = "random", rng: Any = None,
                         alpha: float = 0.05, missing: str = "raise", workers: int = 1,
                         step: Callable[[str], Any] | None = None) -> PermutationAnalysis:
    """Reverse mapping, rank displacement, (d, v)-permuted privacy, linkage and its verification in one call.

    Parameters
    ----------
    X, Y : array_like (n, m) or DataFrame
        Original and anonymized data sets.
    n_random : "all" or int
        Random records for the verification (:func:`random_match_distances`).
    ties : {"random", "first", "average"}
        Tie policy (:func:`permutation_distances`).
    rng : numpy Generator or int seed, optional
    alpha : float
        Threshold of :func:`linkage_verification`.
    missing : {"raise", "drop"}
        Missing-value policy.
    workers : int
        Threads for the tree queries.
    step : callable, optional
        ``step(stage)`` is called before each stage ("reverse mapping", "rank
        displacement", "distances", "linkage", "random records"), e.g. to
        report progress; it may raise to stop the analysis.

    Returns
    -------
    PermutationAnalysis

    Notes
    -----
    Algorithm 1, Definitions 1-2 and Section 5 of Domingo-Ferrer and Muralidhar (2016) [1]_; Spearman's
    rho, T_j and r_j of Ruiz (2018), Section 3 [2]_.

    References
    ----------
    .. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization: permutation paradigm,
       verifiability by subjects and intruders, transparency to users", Information Sciences
       337-338:11-24, 2016.
    .. [2] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization: centrality
       of permutation matrices, universal measures of disclosure risk and information loss, evaluation
       by dominance", Information Sciences, 2018.

    Examples
    --------
    >>> from explorer.core.datasets import domingo_muralidhar_example
    >>> t = domingo_muralidhar_example()
    >>> a = permutation_analysis(t[["X1", "X2", "X3"]], t[["Y1", "Y2", "Y3"]], rng=0)
    >>> a.spearman.round(3).tolist(), a.privacy.d, a.linkage.n_correct
    ([0.722, 0.844, 0.776], 1, 6)
    """
    step = step or (lambda stage: None)
    x, y, columns, _ = _pair(X, Y, missing)
    _check_n(x.shape[0], "the permutation analysis")
    generator = check_rng(rng)
    seeds = generator.integers(0, 2 ** 63 - 1, size=3)
    step("reverse mapping")
    z = reverse_map_frame(x, y, int(seeds[0]), ties="first" if ties == "first" else "random")
    step("rank displacement")
    rho = np.full(x.shape[1], np.nan)
    extent = np.empty(x.shape[1])
    displacement = np.empty_like(x)
    for j in range(x.shape[1]):
        if not (np.all(x[:, j] == x[0, j]) or np.all(y[:, j] == y[0, j])):
            rho[j] = spearman(x[:, j], y[:, j])
        displacement[:, j] = rank_shift(x[:, j], y[:, j])
        extent[j] = float(np.count_nonzero(displacement[:, j]) / x.shape[0])
    step("distances")
    privacy = permuted_privacy(x, y, ties=ties, rng=int(seeds[2]))
    step("linkage")
    link_rng = np.random.default_rng(int(seeds[2]) + 1)
    link = RecordLinkage(**_linkage_fields(x, z, ties, link_rng, workers))
    step("random records")
    verification = linkage_verification(x, z, n_random, link_rng, alpha=alpha, ties=ties, workers=workers,
                                        linkage=link)
    return PermutationAnalysis(columns=list(columns), X=x, Y=y, Z=z, E=y - z, spearman=rho, extent=extent,
                               displacement=displacement, privacy=privacy, verification=verification, ties=ties)


