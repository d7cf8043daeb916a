"""The maximum-knowledge intruder: record linkage and its verification against random records.

Domingo-Ferrer and Muralidhar (2016), Section 5: an intruder who knows the
original X and the anonymized Y reverse-maps Y to Z (Algorithm 1) and links
every original record to the records of Z at its permutation distance
(Algorithm 2, Definition 3).  He then checks whether his links beat chance by
comparing their distances with those of random records, which take one value
per attribute from X (Section 5.2, Tables 6-7).  Conventions and errata in
``docs/conventions.md``.

References
----------
.. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization:
   permutation paradigm, verifiability by subjects and intruders, transparency
   to users", Information Sciences 337-338:11-24, 2016.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from explorer._validation import check_int, check_number, check_rng
from explorer.core.permutation.distance import PermutationDistances, permutation_distances
from explorer.core.permutation.ranking import _check_n, _pair, numeric_matrix
from explorer.core.permutation.reverse_mapping import reverse_map_frame
from explorer.errors import DatasetError, InvalidParameterError

__all__ = [
    "MAX_ALL_RANDOM",
    "RecordLinkage",
    "record_linkage",
    "RandomMatches",
    "random_match_distances",
    "LinkageVerification",
    "linkage_verification",
    "hellinger",
    "distance_histogram",
]

#: Largest number of random records ``n_random="all"`` may enumerate (n ** m).
MAX_ALL_RANDOM = 2_000_000



@dataclass(frozen=True)
class RecordLinkage:
    """The maximum-knowledge intruder's record linkage and the protector's summary (Section 5.1).

    The result of :func:`record_linkage` (Domingo-Ferrer and Muralidhar 2016 [1]_).

    Attributes
    ----------
    Z : (n, m) float
        The reverse-mapped data set the intruder links against.
    distances : PermutationDistances
        Domingo-Ferrer and Muralidhar (2016), Algorithm 2, of every original record against Z.
    correct, multiple, wrong : (n,) bool
        Record i has the single match i / several matches / a single wrong match.
    unmatched : int array
        Z records matched by no original record.
    multiply_matched : int array
        Z records matched by two or more original records.
    times_matched : (n,) int
        How many original records matched each Z record.

    References
    ----------
    .. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization: permutation paradigm,
       verifiability by subjects and intruders, transparency to users", Information Sciences
       337-338:11-24, 2016.
    """

    Z: np.ndarray
    distances: PermutationDistances
    correct: np.ndarray
    multiple: np.ndarray
    wrong: np.ndarray
    unmatched: np.ndarray
    multiply_matched: np.ndarray
    times_matched: np.ndarray

    @property
    def n_correct(self) -> int:
        return int(self.correct.sum())

    @property
    def n_multiple(self) -> int:
        return int(self.multiple.sum())

    @property
    def n_wrong(self) -> int:
        return int(self.wrong.sum())

    @property
    def multiple_containing_true(self) -> np.ndarray:
        """Records with several matches, one of which is the true one."""
        d = self.distances
        return np.array([self.multiple[i] and i in d.matches(i) for i in range(d.distance.size)], dtype=bool)

    def summary(self) -> str:
        n = self.correct.size
        return (f"{self.n_correct} of {n} records correctly linked, {self.n_multiple} with multiple matches, "
                f"{self.n_wrong} wrongly linked; {self.unmatched.size} anonymized records matched by no "
                f"original record, {self.multiply_matched.size} matched by several.")


def record_linkage(X: Any, Y: Any, *, ties: str = "random", rng: Any = None, missing: str = "raise",
                   workers: int = 1) -> RecordLinkage:
    """Record linkage by the maximum-knowledge intruder (Domingo-Ferrer and Muralidhar (2016), Definition 3, Section 5.1).

    The intruder knows X and Y, reverse-maps Y to Z (Domingo-Ferrer and Muralidhar (2016), Algorithm 1) and runs
    Algorithm 2 of every original record against Z.  Record i of Y (and of Z)
    is the anonymized version of record i of X, which lets the protector count
    correct, multiple and wrong links.

    Notes
    -----
    Domingo-Ferrer and Muralidhar (2016), Definition 3 and Section 5.1 [1]_.  Erratum
    (``docs/conventions.md``): the paper's own Table 5 gives 6 correct links,
    4 multiple and 10 wrong (the text says 5 / 4 / 11), and Z records 19 and
    20 are also matched twice.

    References
    ----------
    .. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization: permutation paradigm,
       verifiability by subjects and intruders, transparency to users", Information Sciences
       337-338:11-24, 2016.

    Computes: Domingo-Ferrer and Muralidhar (2016), Def. 3; Domingo-Ferrer and Muralidhar (2016), Table 5.

    Examples
    --------
    >>> from explorer.core.datasets import domingo_muralidhar_example
    >>> t = domingo_muralidhar_example()
    >>> link = record_linkage(t[["X1", "X2", "X3"]], t[["Y1", "Y2", "Y3"]], rng=0)
    >>> link.n_correct, link.n_multiple, link.n_wrong
    (6, 4, 10)
    >>> (link.unmatched + 1).tolist()          # 1-based, as in the paper
    [3, 8, 16, 18]
    """
    x, y, _, _ = _pair(X, Y, missing)
    _check_n(x.shape[0], "record linkage")
    generator = check_rng(rng)
    z = reverse_map_frame(x, y, generator, ties="first" if ties == "first" else "random")
    # (with ties="average" the reverse mapping still needs a strict order; it only
    # shuffles equal values, which mid-ranks then treat as one)
    return RecordLinkage(**_linkage_fields(x, z, ties, generator, workers))


@dataclass(frozen=True)
class RandomMatches:
    """Match distances of random records (Section 5.2).

    The result of :func:`random_match_distances` (Domingo-Ferrer and Muralidhar 2016 [1]_).

    Attributes
    ----------
    distance : (k,) int or float
        Permutation distance of each random record's match in Z.
    exhaustive : bool
        True when every one of the n^m random records was enumerated.
    records : (k, m) float
        The random records.

    References
    ----------
    .. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization: permutation paradigm,
       verifiability by subjects and intruders, transparency to users", Information Sciences
       337-338:11-24, 2016.
    """

    distance: np.ndarray
    exhaustive: bool
    records: np.ndarray = field(repr=False)

    @property
    def n_random(self) -> int:
        return int(self.distance.size)


def random_match_distances(X: Any, Z: Any, n_random: Any = "all", rng: Any = None, *, ties: str = "random",
                           workers: int = 1) -> RandomMatches:
    """Permutation distances of the matches found in Z for random records drawn from X (Section 5.2).

    Parameters
    ----------
    X : (n, m) original data set; a random record takes one value per attribute
        from X's records, independently.
    Z : (n_z, m) the reverse-mapped (or anonymized) data set matched against.
    n_random : "all" or int
        ``"all"``: every one of the n^m combinations (Table 6; refused
        beyond 2,000,000); an int: that many records drawn independently and
        uniformly (seeded), at most n^m.
    rng, ties, workers
        As in :func:`explorer.core.permutation.distance.permutation_distances`.

    Returns
    -------
    RandomMatches

    Notes
    -----
    Domingo-Ferrer and Muralidhar (2016), Section 5.2 and Table 6 [1]_.

    References
    ----------
    .. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization: permutation paradigm,
       verifiability by subjects and intruders, transparency to users", Information Sciences
       337-338:11-24, 2016.

    Computes: Domingo-Ferrer and Muralidhar (2016), Table 6.

    Examples
    --------
    >>> from explorer.core.datasets import domingo_muralidhar_example
    >>> t = domingo_muralidhar_example()
    >>> rm = random_match_distances(t[["X1", "X2", "X3"]], t[["Z1", "Z2", "Z3"]], rng=0)
    >>> rm.n_random, round(float(np.mean(rm.distance == 0)), 4)      # Table 6: 0.0025 at distance 0
    (8000, 0.0025)
    """
    x, _ = numeric_matrix(X, "X")
    z, _ = numeric_matrix(Z, "Z")
    if x.shape[1] != z.shape[1]:
        raise DatasetError(f"X and Z must have the same attributes, got {x.shape[1]} and {z.shape[1]} columns")
    n, m = x.shape
    total = float(n) ** m
    generator = check_rng(rng)
    if isinstance(n_random, str):
        if n_random != "all":
            raise InvalidParameterError(f"n_random must be 'all' or a positive integer, got {n_random!r}")
        if total > MAX_ALL_RANDOM:
            raise InvalidParameterError(
                f"n_random='all' would enumerate n^m = {n}^{m} = {total:,.0f} records (limit {MAX_ALL_RANDOM:,}); "
                "give a number of random records instead")
        grids = np.meshgrid(*[np.arange(n)] * m, indexing="ij")
        idx = np.column_stack([g.ravel() for g in grids])
        exhaustive = True
    else:
        k = check_int(n_random, "n_random", minimum=1)
        if k > total:
            raise InvalidParameterError(f"n_random = {k:,} is larger than the n^m = {n}^{m} = {total:,.0f} "
                                        "possible random records; use n_random='all'")
        idx = generator.integers(0, n, size=(k, m))
        exhaustive = False
    records = x[idx, np.arange(m)[None, :]]
    dist = permutation_distances(records, z, ties=ties, rng=generator, workers=workers)
    return RandomMatches(distance=dist.distance, exhaustive=exhaustive, records=records)


def hellinger(p: ArrayLike, q: ArrayLike) -> float:
    """Hellinger distance between two discrete distributions, sqrt(1 - sum sqrt(p q)), in [0, 1].

    Examples
    --------
    >>> hellinger([1, 0], [0, 1])
    1.0
    >>> hellinger([0.5, 0.5], [0.5, 0.5])
    0.0
    """
    pa, qa = np.asarray(p, dtype=float), np.asarray(q, dtype=float)
    if pa.shape != qa.shape:
        raise InvalidParameterError(f"p and q must have the same length, got {pa.size} and {qa.size}")
    if np.any(pa < 0) or np.any(qa < 0) or pa.sum() <= 0 or qa.sum() <= 0:
        raise InvalidParameterError("p and q must be non-negative and not all zero")
    pa, qa = pa / pa.sum(), qa / qa.sum()
    return float(math.sqrt(max(0.0, 1.0 - float(np.sum(np.sqrt(pa * qa))))))


def distance_histogram(distance: ArrayLike, max_distance: float | None = None, step: float = 1.0) -> np.ndarray:
    """Relative frequency of each permutation distance 0, step, ..., max_distance (Domingo-Ferrer and Muralidhar (2016), Tables 6-7).

    Distances above ``max_distance`` are counted in the last bin.  ``step`` is
    1, or 1/2 for mid-rank distances.  The columns of Domingo-Ferrer and Muralidhar (2016),
    Tables 6-7 [1]_.

    References
    ----------
    .. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization: permutation paradigm,
       verifiability by subjects and intruders, transparency to users", Information Sciences
       337-338:11-24, 2016.

    Examples
    --------
    >>> distance_histogram([0, 2, 2, 3]).tolist()
    [0.25, 0.0, 0.5, 0.25]
    """
    d = np.asarray(distance, dtype=float)
    if d.size == 0:
        raise InvalidParameterError("distance must not be empty")
    index = np.rint(d / step).astype(np.int64)
    top = int(index.max()) if max_distance is None else int(round(max_distance / step))
    counts = np.bincount(np.minimum(index, top), minlength=top + 1)[: top + 1]
    return counts / d.size


@dataclass(frozen=True)
class LinkageVerification:
    """The intruder's verification of his links against random records (Domingo-Ferrer and Muralidhar (2016), Section 5.2, Figures 1-3).

    The result of :func:`linkage_verification` (Domingo-Ferrer and Muralidhar 2016 [1]_).

    Attributes
    ----------
    linkage : RecordLinkage
    random : RandomMatches
    bins : (k,) distances 0..max (step 1, or 1/2 with mid-ranks)
    original_frequency, random_frequency : (k,) float
        Relative frequencies of the match distances (Domingo-Ferrer and Muralidhar 2016, Tables 6-7).
    hellinger : float
        Hellinger distance between the two distributions (0: indistinguishable).
    chance_share : (n,) float
        For each original record, the share of random records that match at
        its distance or closer: how plausible its match is as chance.
    alpha : float
        Threshold below which a match is called implausible as chance.

    References
    ----------
    .. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization: permutation paradigm,
       verifiability by subjects and intruders, transparency to users", Information Sciences
       337-338:11-24, 2016.
    """

    linkage: RecordLinkage
    random: RandomMatches
    bins: np.ndarray
    original_frequency: np.ndarray
    random_frequency: np.ndarray
    hellinger: float
    chance_share: np.ndarray
    alpha: float

    @property
    def typical_distance(self) -> float:
        """The median permutation distance of the original records' matches (lower median)."""
        d = np.sort(self.linkage.distances.distance)
        value = d[(d.size - 1) // 2]
        return int(value) if float(value).is_integer() else float(value)

    @property
    def typical_chance(self) -> float:
        """Share of random records matching at the typical distance or closer."""
        return float(np.mean(self.random.distance <= self.typical_distance))

    @property
    def n_implausible(self) -> int:
        """Original records whose match distance is reached by fewer than alpha of the random records."""
        return int(np.sum(self.chance_share < self.alpha))

    @property
    def deniable(self) -> bool:
        return self.typical_chance >= self.alpha

    def verdict(self) -> str:
        """The verdict in words."""
        share = self.typical_chance
        shown = f"{share:.0%}" if share >= 0.01 or share == 0 else f"{share:.2%}"
        head = (f"matches at distance <= {self.typical_distance} happen by chance for {shown} "
                f"of random records")
        n = self.chance_share.size
        tail = (f"; {self.n_implausible} of {n} links are implausible as chance (share < {self.alpha:.0%})"
                if self.n_implausible else "")
        if self.deniable:
            return f"{head}: linkage is deniable{tail}."
        return f"{head}: the intruder can trust his links, linkage is not deniable{tail}."


def linkage_verification(X: Any, Y: Any, n_random: Any = "all", rng: Any = None, *, alpha: float = 0.05,
                         ties: str = "random", missing: str = "raise", workers: int = 1,
                         linkage: RecordLinkage | None = None) -> LinkageVerification:
    """Record linkage and its verification against random records (Sections 5.1-5.2).

    Parameters
    ----------
    X, Y : original and anonymized data sets (Y may already be the reverse-mapped Z).
    n_random : "all" or int, see :func:`random_match_distances`.
    alpha : float
        A link is "implausible as chance" when fewer than alpha of the random
        records match at its distance or closer; linkage is called deniable
        when at least alpha of them match at the original records' median
        distance or closer.

    Notes
    -----
    Both distributions of Domingo-Ferrer and Muralidhar (2016), Tables 6-7 [1]_, and their
    Hellinger distance H(p, q) = sqrt(1 - sum_d sqrt(p_d q_d)) (suggested at
    the end of Section 5.2).  As ``docs/conventions.md`` explains, the
    "probability 0.0011 that a match is random" of Section 5.2 is the tail
    P(random distance <= 5), which is what ``chance_share`` reports per
    record.

    References
    ----------
    .. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization: permutation paradigm,
       verifiability by subjects and intruders, transparency to users", Information Sciences
       337-338:11-24, 2016.

    Computes: Domingo-Ferrer and Muralidhar (2016), Table 6; Domingo-Ferrer and Muralidhar (2016), Table 7;
    Domingo-Ferrer and Muralidhar (2016), Fig. 1; Domingo-Ferrer and Muralidhar (2016), Fig. 2; Domingo-Ferrer
    and Muralidhar (2016), Fig. 3.

    Examples
    --------
    >>> from explorer.core.datasets import domingo_muralidhar_example
    >>> t = domingo_muralidhar_example()
    >>> lv = linkage_verification(t[["X1", "X2", "X3"]], t[["Y1", "Y2", "Y3"]], rng=0)
    >>> lv.original_frequency.round(4).tolist()[:6]            # Table 6, first column
    [0.0, 0.0, 0.2, 0.4, 0.2, 0.2]
    """
    alpha = check_number(alpha, "alpha", minimum=0.0, maximum=1.0)
    x, y, _, _ = _pair(X, Y, missing)
    generator = check_rng(rng)
    link = linkage if linkage is not None else record_linkage(x, y, ties=ties, rng=generator, workers=workers)
    rm = random_match_distances(x, link.Z, n_random, rng=generator, ties=ties, workers=workers)
    d_orig = link.distances.distance
    both = np.concatenate([d_orig, rm.distance]).astype(float)
    step = 1.0 if np.all(both == np.rint(both)) else 0.5
    top = float(both.max())
    original_frequency = distance_histogram(d_orig, top, step)
    random_frequency = distance_histogram(rm.distance, top, step)
    sorted_random = np.sort(rm.distance)
    chance = np.searchsorted(sorted_random, d_orig, side="right") / sorted_random.size
    bins = np.arange(original_frequency.size) if step == 1.0 else np.arange(original_frequency.size) * step
    return LinkageVerification(linkage=link, random=rm, bins=bins,
                               original_frequency=original_frequency, random_frequency=random_frequency,
                               hellinger=hellinger(original_frequency, random_frequency), chance_share=chance,
                               alpha=alpha)



def _linkage_fields(x: np.ndarray, z: np.ndarray, ties: str, generator: np.random.Generator,
                    workers: int) -> dict[str, Any]:
    """Record linkage against an already reverse-mapped Z (the intruder's Section 5.1 step)."""
    dist = permutation_distances(x, z, ties=ties, rng=generator, workers=workers)
    n = x.shape[0]
    counts = dist.n_matches
    single = counts == 1
    rows = np.arange(n)
    times = np.bincount(dist.match_indices, minlength=n)
    return dict(Z=z, distances=dist, correct=single & (dist.closest == rows), multiple=counts > 1,
                wrong=single & (dist.closest != rows), unmatched=np.flatnonzero(times == 0),
                multiply_matched=np.flatnonzero(times > 1), times_matched=times)

