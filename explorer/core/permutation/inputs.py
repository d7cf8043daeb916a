"""The inputs of a permutation analysis: a data set's numeric attributes, the random records, the seeds.

What the Permutation tab decides before :func:`explorer.core.permutation.analysis.permutation_analysis`
runs, so that a notebook decides it the same way:

* :func:`numeric_attributes`: the numeric and ordinal attributes of a data set as numbers (ordinal
  categories by their order), complete records only, a seeded sample of at most ``max_records``;
* :func:`has_ties`: whether the data have equal values (then mid-ranks are the natural tie policy);
* :func:`default_random_records` and :func:`random_records`: how many random records the intruder's
  verification draws (Domingo-Ferrer and Muralidhar (2016), Section 5), all n^m combinations when
  that is small;
* :func:`seed_streams`: independent random streams for the sample, the masking and the analysis, from
  one seed.

References
----------
.. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization: permutation paradigm,
   verifiability by subjects and intruders, transparency to users", Information Sciences
   337-338:11-24, 2016.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from explorer.core.datasets import dataset_info
from explorer.core.permutation.intruder import MAX_ALL_RANDOM
from explorer.errors import DatasetError, InvalidParameterError

__all__ = [
    "AUTO_ALL_RANDOM",
    "DEFAULT_RANDOM",
    "STREAMS",
    "NumericAttributes",
    "numeric_attributes",
    "has_ties",
    "default_random_records",
    "RandomRecords",
    "random_records",
    "seed_streams",
]

#: All n^m random records are drawn by default when n^min(m, 6) is at most this many.
AUTO_ALL_RANDOM = 200_000
#: Otherwise, this many random records by default.
DEFAULT_RANDOM = 10_000
#: The purposes of the random streams of :func:`seed_streams`, in the order they are spawned.
STREAMS = ("data", "mask", "analysis")


@dataclass(frozen=True)
class NumericAttributes:
    """The numeric attributes of a data set, ready for a permutation analysis (:func:`numeric_attributes`).

    Attributes
    ----------
    X : pandas.DataFrame
        Complete records (rows numbered from 0) of the numeric and ordinal attributes, as floats.
    excluded : tuple of str
        Columns left out (neither numeric nor ordinal).
    n_incomplete : int
        Records dropped for a missing value.
    n_complete : int
        Complete records before sampling.
    sampled : bool
        Whether ``X`` is a seeded random sample of the complete records.
    """

    X: pd.DataFrame
    excluded: tuple
    n_incomplete: int
    n_complete: int
    sampled: bool

    def notes(self) -> list[str]:
        """What was left out or sampled, in words (for a status line)."""
        notes = []
        if self.excluded:
            shown = ", ".join(self.excluded[:6]) + (" ..." if len(self.excluded) > 6 else "")
            notes.append(f"{len(self.excluded)} non-numeric column(s) left out ({shown}); ordinal columns are "
                         "ranked by their category order")
        if self.n_incomplete:
            notes.append(f"{self.n_incomplete} record(s) with missing values dropped (policy 'drop')")
        if self.sampled:
            notes.append(f"a seeded random sample of {len(self.X):,} of {self.n_complete + self.n_incomplete:,} "
                         "records is used")
        return notes


def numeric_attributes(frame: pd.DataFrame, *, max_records: int | None = None, rng: Any = None) -> NumericAttributes:
    """The numeric and ordinal attributes of ``frame`` as numbers, complete records, at most ``max_records``.

    Parameters
    ----------
    frame : pandas.DataFrame
        A data set (its roles read by :func:`explorer.core.datasets.dataset_info`).
    max_records : int, optional
        Keep a seeded random sample of this many complete records (in their order) when there are more.
    rng : numpy Generator or int seed, optional
        The sample's randomness.

    Returns
    -------
    NumericAttributes

    Raises
    ------
    DatasetError
        When the data set has no numeric or ordinal column, or fewer than 2 complete records (the message
        says what the data set lacks: "has no numeric or ordinal column to permute").

    Notes
    -----
    The permutation paradigm ranks each attribute (Domingo-Ferrer and Muralidhar (2016), Section 2 [1]_):
    an ordinal attribute is ranked by the order of its categories (their codes), and a record with a
    missing value is dropped.

    References
    ----------
    .. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization: permutation paradigm,
       verifiability by subjects and intruders, transparency to users", Information Sciences
       337-338:11-24, 2016.

    Examples
    --------
    >>> frame = pd.DataFrame({"a": [1.0, 2.0, None, 4.0], "b": [3, 1, 2, 5], "job": list("xyzx")})
    >>> found = numeric_attributes(frame)
    >>> found.X.to_numpy().tolist(), found.excluded, found.n_incomplete
    ([[1.0, 3.0], [2.0, 1.0], [4.0, 5.0]], ('job',), 1)
    """
    info = dataset_info(frame)
    usable = [c for c in frame.columns if str(c) in info.numeric or str(c) in info.ordinal]
    excluded = tuple(str(c) for c in frame.columns if c not in usable)
    if not usable:
        raise DatasetError("has no numeric or ordinal column to permute")
    frame = frame[usable]
    numeric = pd.DataFrame({c: frame[c].cat.codes.where(frame[c].cat.codes >= 0)
                            if isinstance(frame[c].dtype, pd.CategoricalDtype) else
                            pd.to_numeric(frame[c], errors="coerce") for c in usable})
    complete = numeric.dropna()
    n_complete = len(complete)
    sampled = max_records is not None and n_complete > max_records
    if sampled:
        complete = complete.sample(n=int(max_records), random_state=np.random.default_rng(rng)).sort_index()
    if len(complete) < 2:
        raise DatasetError(f"has {len(complete)} complete record(s) with numeric values; the analysis needs "
                           "at least 2")
    return NumericAttributes(X=complete.reset_index(drop=True).astype(float), excluded=excluded,
                             n_incomplete=len(numeric) - n_complete, n_complete=n_complete, sampled=bool(sampled))


def has_ties(X: pd.DataFrame) -> bool:
    """Whether some attribute of ``X`` has equal values (then mid-ranks make equal values coincide).

    Examples
    --------
    >>> has_ties(pd.DataFrame({"a": [1, 2, 3], "b": [5, 5, 6]})), has_ties(pd.DataFrame({"a": [1, 2]}))
    (True, False)
    """
    return bool(np.any([X[c].duplicated().any() for c in X.columns]))


def default_random_records(n: int, m: int) -> int:
    """Random records the intruder's verification draws by default: 0 (all n^m) when few, else 10,000.

    Parameters
    ----------
    n, m : int
        Records and attributes of the data set.

    Returns
    -------
    int
        0, meaning all n^m combinations of the anonymized values (Domingo-Ferrer and Muralidhar (2016),
        Section 5), when ``n ** min(m, 6) <= AUTO_ALL_RANDOM``; :data:`DEFAULT_RANDOM` otherwise.

    Examples
    --------
    >>> default_random_records(20, 3), default_random_records(1000, 3)
    (0, 10000)
    """
    return 0 if float(n) ** min(int(m), 6) <= AUTO_ALL_RANDOM else DEFAULT_RANDOM


@dataclass(frozen=True)
class RandomRecords:
    """The random records of a verification (:func:`random_records`).

    Attributes
    ----------
    n_random : "all" or int
        The argument of :func:`~explorer.core.permutation.analysis.permutation_analysis`.
    count : int
        How many random records that is (n^m for "all").
    """

    n_random: Any
    count: int


def random_records(n: int, m: int, requested: int) -> RandomRecords:
    """The random records of the intruder's verification for a requested number (0: all n^m).

    Parameters
    ----------
    n, m : int
        Records and attributes.
    requested : int
        Random records asked for, >= 0; 0 asks for all n^m combinations.

    Returns
    -------
    RandomRecords

    Raises
    ------
    InvalidParameterError
        When all combinations would be more than :data:`~explorer.core.permutation.intruder.MAX_ALL_RANDOM`,
        or more records are asked for than the n^m possible.

    Examples
    --------
    >>> random_records(20, 3, 0)
    RandomRecords(n_random='all', count=8000)
    >>> random_records(20, 3, 500).count
    500
    >>> random_records(20, 1, 25)
    Traceback (most recent call last):
    ...
    explorer.errors.InvalidParameterError: random records = 25 is more than the n^m = 20 possible; use 0 (all)
    """
    total = float(n) ** int(m)
    if requested == 0:
        if total > MAX_ALL_RANDOM:
            raise InvalidParameterError(f"'all' random records would be {n}^{m} = {total:,.0f}; "
                                        "set a number of random records (e.g. 10000)")
        return RandomRecords("all", int(round(total)))
    if requested > total:
        raise InvalidParameterError(f"random records = {requested:,} is more than the n^m = "
                                    f"{total:,.0f} possible; use 0 (all)")
    return RandomRecords(int(requested), int(requested))


def seed_streams(seed: int) -> dict[str, np.random.Generator]:
    """Independent random streams from one seed: ``"data"`` (the sample), ``"mask"`` and ``"analysis"``.

    The same seed for the sample and the masking noise would correlate them; spawned streams do not
    (``numpy.random.SeedSequence.spawn``).

    Examples
    --------
    >>> streams = seed_streams(1)
    >>> sorted(streams)
    ['analysis', 'data', 'mask']
    >>> int(streams["mask"].integers(100)) == int(seed_streams(1)["mask"].integers(100))
    True
    """
    children = np.random.SeedSequence(int(seed)).spawn(len(STREAMS))
    return {purpose: np.random.default_rng(child) for purpose, child in zip(STREAMS, children)}
