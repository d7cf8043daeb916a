"""Work estimates of the explorer's heavier computations, in machine-independent units.

One unit is about one microsecond of work on the reference machine (2 cores,
2026); what a unit costs here is measured while the app runs (see
:class:`explorer.panels.tasks.Throughput`), so that an estimate shown before long
work follows this machine and its load.

One rule decides, in every tab, what runs at once and what waits for the
Compute button (:func:`needs_compute`): work estimated above
:data:`COMPUTE_BUTTON_SECONDS` on the reference machine waits.  It is decided on
the work, never on this machine's speed or load, so that a tab behaves the same
for every visitor and in every test.  The formulas count what the algorithms
do: microaggregation compares each of about n / k cluster centres with the n
records; the permutation analysis passes over records and attributes (reverse
mapping, ranks, distances, linkage) and over the random records of the
intruder's verification.

References
----------
J. Domingo-Ferrer and K. Muralidhar, New directions in anonymization: permutation
paradigm, verifiability by subjects and intruders, transparency to users,
Information Sciences 337-338 (2016) 11-24.

N. Ruiz, On some consequences of the permutation paradigm for data anonymization:
centrality of permutation matrices, universal measures of disclosure risk and
information loss, evaluation by dominance, Information Sciences, 2018.
"""

from __future__ import annotations

import math
from typing import Sequence

from explorer.errors import InvalidParameterError

__all__ = ["microaggregation_work", "permutation_work", "masking_work", "curve_work", "dependence_work", "UNITS",
           "REFERENCE_SECONDS_PER_UNIT", "COMPUTE_BUTTON_SECONDS", "needs_compute", "reference_seconds",
           "PERMUTATION_STAGES", "permutation_progress"]

#: Seconds one unit takes on the reference machine: used only to decide, the same way on every machine, what
#: runs at once and what waits for a button; estimates shown to users use the rate measured here instead.
REFERENCE_SECONDS_PER_UNIT = 1e-6

#: Work longer than this on the reference machine (seconds) waits for the Compute button (:func:`needs_compute`).
#: One second keeps the opening views at once (t-closeness on the whole of UCI Adult with k = 50 is about 0.5 s of
#: MDAV, 0.7 s of t-close microaggregation) and sends anything slower to the button, with a progress bar and Cancel.
COMPUTE_BUTTON_SECONDS = 1.0

#: Units per elementary step (reference microseconds), measured on full Adult and synthetic data up to 50,000 x 6.
UNITS = {
    "record_attribute": 10.0,      # reverse mapping, ranks, distances and linkage, per record and attribute
    "random_attribute": 2.0,       # the intruder's random records, per record and attribute
    "record_view": 5.0,            # showing an analysis: its record-level figures and tables, per record
    "analysis_fixed": 60_000.0,    # showing an analysis: what does not grow with the data (figures, texts)
    "rank_swapping": 3.5,          # rank swapping, per record and attribute
    "mdav_pair": 0.0032,           # multivariate MDAV masking, per n^2 / k pair and attribute
    "closeness_pair": 0.05,        # t-closeness MDAV on the quasi-identifiers, per n^2 / (2k) pair
    "closeness_merging": 1.4,      # t-close microaggregation: MDAV, then merging clusters until t-close (a factor)
    "mask_record_attribute": 1.0,  # mask, reverse-map and read displacements, per record and attribute
    "swap_window": 0.0011,         # rank swapping's window, per record, attribute and rank of the window
    "curve_point": 0.005,          # a power-mean curve from its tally, per distinct displacement and grid point
    "pair_record": 0.025,          # a dependence: a pair's contingency table, per pair of attributes and record
    "randomize_record": 0.2,       # a dependence: randomizing one attribute of one record (4.1)
    "pair_randomize_record": 0.05,  # a dependence: randomizing a pair of one record jointly (4.3)
    "ibu_pair": 15_000.0,          # a dependence with IBU: per pair, what does not grow with its table
    "ibu_kronecker": 465.0,        # (b') with IBU: per pair, per cell of its table times r_a + r_b
    "ibu_cell": 650.0,             # (d) with IBU: per pair, per cell of its table
    "ibu_pair_record": 0.24,       # (d) with IBU: per pair and record
}

#: The dependence methods (Domingo-Ferrer and Soria-Comas (2022), Section 4) whose data are randomized first.
_RANDOMIZED_DEPENDENCES = ("randomized", "estimated")


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
    remaining records: about n^2 / (2k) record comparisons, ``0.05 n^2 / (2k)``.
    t-close microaggregation runs MDAV and then merges clusters until every one is
    t-close; the merging took 10 % to 70 % more than the MDAV on UCI Adult (n from
    10,000 to 32,561, k from 5 to 20, income sensitive), counted as a factor 1.4.
    Grouping by the quasi-identifiers is one pass.

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
    work = float(n) * float(n) / (2.0 * max(int(k), 1)) * UNITS["closeness_pair"]
    return work * UNITS["closeness_merging"] if method == "t_close" else work


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
    ``m (10 n + 2 n_random) + 5 n + 60000``, plus what the masking costs beyond a
    pass over the data (:func:`masking_work`): ``n m (3.5 + 0.0011 floor(p n))`` for
    rank swapping or ``0.0032 n^2 m / k`` for multivariate microaggregation.  The last two terms are
    showing the result (figures of the n records, texts): a fit of 30 runs of the
    Permutation tab on UCI Adult (n from 2,000 to 32,561, m from 2 to 6, 10,000 or
    200,000 random records) gave 10 : 2.2 : 4.5 for the record-attribute, random-record
    and record terms, and about 0.04 s that does not grow with the data.

    References
    ----------
    J. Domingo-Ferrer and K. Muralidhar, New directions in anonymization: permutation paradigm,
    verifiability by subjects and intruders, transparency to users, Information Sciences 337-338
    (2016) 11-24 (Algorithms 1 and 2, Section 5).

    Examples
    --------
    >>> permutation_work(20, 3, 8000)
    108700.0
    """
    work = m * (n * UNITS["record_attribute"] + n_random * UNITS["random_attribute"])
    work += n * UNITS["record_view"] + UNITS["analysis_fixed"]
    return float(work + _masking_extra(method, parameter, n, m))


#: The stages of the permutation analysis and their shares of its record-attribute work (a progress bar moves by these).
PERMUTATION_STAGES = (("reverse mapping", 0.15), ("rank displacement", 0.15), ("distances", 0.4), ("linkage", 0.3))


def permutation_progress(n: int, m: int, n_random: float, method: str = "",
                         parameter: float | None = None) -> dict[str, float]:
    """Where each stage of masking plus the permutation analysis starts, as a share of the work (0 to 1).

    Parameters
    ----------
    n, m, n_random, method, parameter
        As in :func:`permutation_work`.

    Returns
    -------
    dict
        ``{stage: start}`` for ``"masking"``, the :data:`PERMUTATION_STAGES` and ``"random records"``, in
        that order (the stages :func:`explorer.core.permutation.analysis.permutation_analysis` reports).

    Notes
    -----
    The masking beyond one pass (:func:`masking_work`), then the record-attribute work ``10 n m`` shared
    by the stages as :data:`PERMUTATION_STAGES` says, then the random records ``2 m n_random``.

    Examples
    --------
    >>> starts = permutation_progress(20, 3, 8000)
    >>> starts["masking"], round(starts["distances"], 4), round(starts["random records"], 4)
    (0.0, 0.0037, 0.0123)
    """
    base = m * n * UNITS["record_attribute"]
    costs = [("masking", _masking_extra(method, parameter, n, m))]
    costs += [(stage, share * base) for stage, share in PERMUTATION_STAGES]
    costs.append(("random records", m * float(n_random) * UNITS["random_attribute"]))
    total = sum(c for _, c in costs) or 1.0
    starts, done = {}, 0.0
    for stage, work in costs:
        starts[stage] = done / total
        done += work
    return starts


def _masking_extra(method: str, parameter: float | None, n: float, m: float) -> float:
    """Work of a masking method beyond one pass over the n x m data (see :func:`masking_work`)."""
    n, m = float(n), float(m)
    if method == "rank_swapping":
        window = math.floor(float(parameter or 0.0) * n)
        return n * m * (UNITS["rank_swapping"] + UNITS["swap_window"] * window)
    if method == "multivariate_microaggregation":
        return n * n * m / max(float(parameter or 1.0), 1.0) * UNITS["mdav_pair"]
    return 0.0


def masking_work(method: str, parameter: float | None, n: int, m: int) -> float:
    """Work of masking n records of m attributes with one method and reading their rank displacements.

    Parameters
    ----------
    method : str
        A name of :data:`explorer.core.masking.MASKING_METHODS`, or ``"published"`` (the
        paper's printed masked data: only the displacements are read).
    parameter : float or None
        The method's parameter (the window proportion of rank swapping, k of microaggregation).
    n, m : int
        Records and attributes.

    Returns
    -------
    float
        Units (about microseconds on the reference machine).

    Notes
    -----
    Every method passes over the data and ranks it: ``1 n m``.  Rank swapping
    adds, per record and attribute, a step and a draw within its window of
    ``floor(p n)`` ranks: ``n m (3.5 + 0.0011 floor(p n))``.  Multivariate
    microaggregation (MDAV) compares about ``n / k`` centres with the remaining
    records over the m attributes: ``0.0032 n^2 m / k``.

    References
    ----------
    N. Ruiz, On some consequences of the permutation paradigm for data anonymization: centrality of
    permutation matrices, universal measures of disclosure risk and information loss, evaluation by
    dominance, Information Sciences, 2018 (Section 3: displacements).

    Examples
    --------
    >>> masking_work("additive_noise", 0.5, 1000, 3)
    3000.0
    >>> masking_work("rank_swapping", 0.1, 1000, 3) > masking_work("additive_noise", 0.5, 1000, 3)
    True
    """
    return float(float(n) * float(m) * UNITS["mask_record_attribute"] + _masking_extra(method, parameter, n, m))


def curve_work(distinct: float, points: int) -> float:
    """Work of one power-mean curve (risk D_j or loss I_k) from the tally of its displacements.

    Parameters
    ----------
    distinct : float
        Distinct displacement values in the tally (at most n).
    points : int
        Grid points of the curve.

    Returns
    -------
    float
        Units (about microseconds on the reference machine).

    Notes
    -----
    ``0.005 distinct points``: one power of each distinct value per grid point,
    weighted by its count (Ruiz (2018), Prop. 3).

    References
    ----------
    N. Ruiz, On some consequences of the permutation paradigm for data anonymization: centrality of
    permutation matrices, universal measures of disclosure risk and information loss, evaluation by
    dominance, Information Sciences, 2018 (Props. 3 and 5).

    Examples
    --------
    >>> curve_work(1000, 121)
    605.0
    """
    return float(distinct) * float(points) * UNITS["curve_point"]


def dependence_work(n: int, cardinalities: Sequence[int], method: str = "true", proper: str = "clip") -> float:
    """Work of the dependences between m attributes (one heatmap of the Multi-attribute RR tab).

    Parameters
    ----------
    n : int
        Records.
    cardinalities : sequence of int
        Categories of each attribute (r_1, ..., r_m).
    method : str
        The dependence method of :func:`explorer.core.mdrr.dependence_matrix`: ``"true"``,
        ``"randomized"``, ``"estimated"``, ``"secure-sum"`` or ``"pairwise-rr"``.
    proper : str
        How an estimate by Eq. (2) is made a proper distribution (``"clip"``, ``"simplex"``,
        ``"none"`` or ``"ibu"``); only ``"estimated"`` and ``"pairwise-rr"`` estimate.

    Returns
    -------
    float
        Units (about microseconds on the reference machine).

    Notes
    -----
    Every method builds the contingency table of each of the m (m - 1) / 2 pairs:
    ``0.025 n`` per pair.  ``"randomized"`` and ``"estimated"`` first randomize each
    attribute of each record, ``0.2 n m``; ``"pairwise-rr"`` randomizes each pair of each
    record jointly, ``0.05 n`` per pair.  Made proper by clipping, projection or nothing,
    an estimate costs little more.  The iterative Bayesian update dominates the rest: it
    iterates until it converges, each iteration a pass over the pair's table, so its work
    is counted per pair from the table's size: ``15000 + 465 r_a r_b (r_a + r_b)`` for
    ``"estimated"`` (the Kronecker matrix P^a (x) P^b) and ``15000 + 650 r_a r_b + 0.24 n``
    for ``"pairwise-rr"`` (the structured cluster matrix).

    The fit: the dependences of UCI Adult (Section 6.1's eight attributes, then four and
    three of them; n = 2,000, 10,000 and 32,561) and of UCI Adult x 6 (n = 195,366), with
    each method, clipping and IBU, p = 0.5, timed on this project's 2-core machine under
    load (74 settings; IBU's terms by non-negative least squares, then rounded).  Without
    IBU every setting took at most 0.08 s on Adult (estimate at most 0.07 s) and 0.5 s on
    Adult x 6 (at most 0.45 s).  With IBU, measured (estimated), on Adult then Adult x 6:
    (b') on the eight attributes 16 to 28 s (16 s) and 30 s (16 s), on four 5.9 to 9.5 s
    (9.5 s) and 12.5 s (9.7 s), on three 0.09 to 0.44 s (0.12 to 0.14 s) and 0.06 s (0.25 s);
    (d) on the eight 0.8 to 2.6 s (1.5 to 1.7 s) and 3.2 s (3.2 s), on four 0.4 to 1.0 s
    (0.6 to 0.7 s) and 0.8 s (1.0 s), on three 0.03 to 0.05 s (0.06 to 0.09 s) and 0.05 s
    (0.25 s).  IBU's iterations, hence its time, vary with the sample (up to 3 times between
    samples of Adult): the estimate is an order of magnitude, which is what the one rule
    needs; the settings it sends to Compute took 0.8 s or more, those it runs at once at
    most 1.05 s.

    References
    ----------
    J. Domingo-Ferrer and J. Soria-Comas, Multi-dimensional randomized response, IEEE Transactions on
    Knowledge and Data Engineering, 2022 (Section 4: dependences; Section 6.4: proper distributions).

    Examples
    --------
    >>> adult = (9, 16, 7, 15, 6, 5, 2, 2)             # Section 6.1's eight attributes of UCI Adult
    >>> needs_compute(dependence_work(32_561, adult, "true"))
    False
    >>> needs_compute(dependence_work(32_561, adult, "estimated", "clip"))
    False
    >>> needs_compute(dependence_work(32_561, adult, "estimated", "ibu"))     # about 16 s: waits for Compute
    True
    >>> round(dependence_work(32_561, adult, "pairwise-rr", "ibu") / 1e6, 1)   # seconds on the reference machine
    1.7
    >>> needs_compute(dependence_work(32_561, (2, 5, 2), "estimated", "ibu"))     # three small attributes
    False
    """
    cards = [int(r) for r in cardinalities]
    if any(r < 1 for r in cards):
        raise InvalidParameterError(f"cardinalities must be whole numbers >= 1, got {list(cardinalities)[:20]}")
    n, m = float(n), len(cards)
    pairs = [(a, b) for i, a in enumerate(cards) for b in cards[i + 1:]]
    work = len(pairs) * n * UNITS["pair_record"]
    if method in _RANDOMIZED_DEPENDENCES:
        work += n * m * UNITS["randomize_record"]
    elif method == "pairwise-rr":
        work += len(pairs) * n * UNITS["pair_randomize_record"]
    if proper == "ibu" and method in ("estimated", "pairwise-rr"):
        for a, b in pairs:
            size = a * b * (a + b) * UNITS["ibu_kronecker"] if method == "estimated" else \
                a * b * UNITS["ibu_cell"] + n * UNITS["ibu_pair_record"]
            work += UNITS["ibu_pair"] + size
    return float(work)


def needs_compute(units: float) -> bool:
    """Whether work of ``units`` waits for the Compute button (the one rule of every tab).

    Parameters
    ----------
    units : float
        The work, in units of this module (:func:`microaggregation_work`, :func:`permutation_work`,
        :func:`masking_work`, :func:`curve_work`, or their sum), >= 0.

    Returns
    -------
    bool
        True when the work would take more than :data:`COMPUTE_BUTTON_SECONDS` on the reference machine.

    Notes
    -----
    ``units * REFERENCE_SECONDS_PER_UNIT > COMPUTE_BUTTON_SECONDS``, that is more than 1,000,000 units.
    The decision is made on the work, not on this machine's measured speed or load
    (:class:`explorer.panels.tasks.Throughput` says how long the work will take here, for the status line):
    the same settings behave the same in every session.  Work that waits for Compute then runs in the
    background with a progress bar and Cancel.

    Examples
    --------
    >>> needs_compute(100_000)                   # 0.1 s on the reference machine: at once
    False
    >>> needs_compute(microaggregation_work(32_561, 50))       # t-closeness on UCI Adult, k = 50: 0.53 s
    False
    >>> needs_compute(microaggregation_work(32_561, 5))        # k = 5: 5.3 s, waits for Compute
    True
    >>> needs_compute(-1)
    Traceback (most recent call last):
    ...
    explorer.errors.InvalidParameterError: units must be a finite number >= 0, got -1
    """
    try:
        work = float(units)
    except (TypeError, ValueError):
        raise InvalidParameterError(f"units must be a finite number >= 0, got {str(units)[:60]!r}") from None
    if isinstance(units, bool) or not math.isfinite(work) or work < 0:
        raise InvalidParameterError(f"units must be a finite number >= 0, got {str(units)[:60]}")
    return work * REFERENCE_SECONDS_PER_UNIT > COMPUTE_BUTTON_SECONDS


def reference_seconds(units: float) -> float:
    """Seconds work of ``units`` takes on the reference machine (the same on every machine; for limits).

    Examples
    --------
    >>> round(reference_seconds(permutation_work(20, 3, 8000)), 4)
    0.1087
    """
    return float(units) * REFERENCE_SECONDS_PER_UNIT
