"""Work estimates of the explorer's heavier computations, in machine-independent units.

One unit is about one microsecond of work on the reference machine (2 cores,
2026); what a unit costs here is measured while the app runs (see
:class:`explorer.panels._base.Throughput`), so that an estimate shown before long
work follows this machine and its load.  The formulas count what the algorithms
do: microaggregation compares each of about n / k cluster centres with the n
records; the permutation analysis passes over records and attributes (reverse
mapping, ranks, distances, linkage) and over the random records of the
intruder's verification.

References
----------
J. Domingo-Ferrer and K. Muralidhar, New directions in anonymization: permutation
paradigm, verifiability by subjects and intruders, transparency to users,
Information Sciences 337-338 (2016) 11-24.
"""

from __future__ import annotations

__all__ = ["microaggregation_work", "permutation_work", "UNITS"]

#: Units per elementary step (reference microseconds), measured on full Adult and synthetic data up to 50,000 x 6.
UNITS = {
    "record_attribute": 10.0,      # reverse mapping, ranks, distances and linkage, per record and attribute
    "random_attribute": 2.0,       # the intruder's random records, per record and attribute
    "rank_swapping": 3.5,          # rank swapping, per record and attribute
    "mdav_pair": 0.0025,           # multivariate MDAV masking, per n^2 / k pair and attribute
    "closeness_pair": 0.05,        # t-closeness MDAV on the quasi-identifiers, per n^2 / (2k) pair
}


def microaggregation_work(n: int, k: int, method: str = "mdav") -> float:
    """Work of clustering n records with minimum size k (``"mdav"``, ``"t_close"`` or ``"group_by"``).

    Parameters
    ----------
    n : int
        Records.
    k : int
        Minimum cluster size (ignored by ``"group_by"``).
    method : str
        The clustering.

    Returns
    -------
    float
        Units (about microseconds on the reference machine).

    Notes
    -----
    MDAV forms about n / k clusters, each after distances from a centre to the
    remaining records: about n^2 / (2k) record comparisons.  Grouping by the
    quasi-identifiers is one pass.

    References
    ----------
    J. Domingo-Ferrer and J. Soria-Comas, Connecting randomized response, post-randomization,
    differential privacy and t-closeness via deniability and permutation, arXiv preprint (2018),
    Section IV.

    Examples
    --------
    >>> round(microaggregation_work(32_561, 50))
    530109
    >>> microaggregation_work(1000, 5, "group_by")
    1000.0
    """
    if method == "group_by":
        return float(n)
    return float(n) * float(n) / (2.0 * max(int(k), 1)) * UNITS["closeness_pair"]


def permutation_work(n: int, m: int, n_random: int, method: str = "", parameter: float | None = None) -> float:
    """Work of masking n records of m attributes and running the permutation analysis.

    Parameters
    ----------
    n, m : int
        Records and attributes.
    n_random : int
        Random records of the intruder's verification.
    method : str
        The masking method (``"rank_swapping"`` and ``"multivariate_microaggregation"`` cost more than a pass).
    parameter : float, optional
        Its parameter (k for microaggregation).

    Returns
    -------
    float
        Units (about microseconds on the reference machine).

    Notes
    -----
    ``m (10 n + 2 n_random)``, plus ``3.5 n m`` for rank swapping or
    ``0.0025 n^2 m / k`` for multivariate microaggregation.

    References
    ----------
    J. Domingo-Ferrer and K. Muralidhar, New directions in anonymization: permutation paradigm,
    verifiability by subjects and intruders, transparency to users, Information Sciences 337-338
    (2016) 11-24 (Algorithms 1 and 2, Section 5).

    Examples
    --------
    >>> permutation_work(20, 3, 8000)
    48600.0
    """
    work = m * (n * UNITS["record_attribute"] + n_random * UNITS["random_attribute"])
    if method == "rank_swapping":
        work += n * m * UNITS["rank_swapping"]
    elif method == "multivariate_microaggregation":
        work += float(n) * n * m / max(float(parameter or 1.0), 1.0) * UNITS["mdav_pair"]
    return float(work)
