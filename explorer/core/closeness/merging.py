"""t-close microaggregation: MDAV clusters merged until every cluster is t-close.

The k-anonymity-first algorithm of Soria-Comas, Domingo-Ferrer, Sanchez and Martinez (2015) [1]_, which
Domingo-Ferrer and Soria-Comas (2018) [2]_, Section IV, cite: MDAV clusters of at least k records
(:func:`explorer.core.closeness.microaggregation.mdav_labels`), then merges until every cluster is within t of the
data set.

References
----------
.. [1] J. Soria-Comas, J. Domingo-Ferrer, D. Sanchez and S. Martinez, "t-Closeness through
   microaggregation: strict privacy with enhanced utility preservation", IEEE Transactions on Knowledge
   and Data Engineering 27(11):3098-3110, 2015.
.. [2] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
   differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd

from explorer._validation import check_int, check_number
from explorer.core.closeness.profile import encode_sensitive
from explorer.core.closeness.distance import _DISTANCE_FUNCTIONS, _check_distance
from explorer.core.closeness.microaggregation import (Clustering, _check_frame, _sq_distances, encode_quasi_identifiers,
                                            mdav_labels)
from explorer.errors import CancelledError, DatasetError, InvalidParameterError

__all__ = ["t_close_microaggregation"]


def t_close_microaggregation(frame: pd.DataFrame, quasi_identifiers: Sequence[str], sensitive: str, k: int,
                             t: float, *, distance: str = "ratio", binning: str | None = None, bins: int = 5,
                             edges: Sequence[float] | None = None, missing: str = "drop",
                             sensitive_missing: str = "category",
                             progress: Callable[[float], Any] | None = None) -> Clustering:
    """k-anonymous microaggregation whose clusters are merged until every one is t-close.

    Parameters
    ----------
    t : float
        The bound: >= 1 for the ratio distance (e.g. ``closeness_for_epsilon(eps)``),
        in [0, 1] for the EMDs.
    progress : callable, optional
        Called with the fraction done (MDAV, then merging); return ``False`` to cancel.
    Other parameters as in :func:`~explorer.core.closeness.microaggregation.mdav` and
    :func:`~explorer.core.closeness.profile.closeness_profile`.

    Returns
    -------
    Clustering
        ``n_merges`` merges were made; every cluster is within ``t``.

    Notes
    -----
    The k-anonymity-first approach of Soria-Comas et al. [1]_, cited in Section IV
    of [2]_: MDAV clusters of at least k records, then, while a cluster is
    farther than t from the data set, the farthest one is merged with the cluster
    whose centroid is nearest in quasi-identifier space.  One cluster holding
    every record has distance 1 (ratio) or 0 (EMD), so this ends with a t-close
    partition for any valid t.  Ties go to the lowest cluster label (the farthest
    cluster and the nearest centroid), as in MDAV, so the result is the same on
    every numpy version.

    References
    ----------
    .. [1] J. Soria-Comas, J. Domingo-Ferrer, D. Sanchez and S. Martinez, "t-Closeness through
       microaggregation: strict privacy with enhanced utility preservation", IEEE Transactions on
       Knowledge and Data Engineering 27(11):3098-3110, 2015.
    .. [2] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
       differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.

    Examples
    --------
    >>> import pandas as pd
    >>> from explorer.core.closeness.profile import closeness_profile
    >>> frame = pd.DataFrame({"age": [20, 21, 22, 23, 60, 61, 62, 63], "s": list("aaabbbab")})
    >>> c = t_close_microaggregation(frame, ["age"], "s", 2, 1.5)
    >>> bool(closeness_profile(frame, c, "s").max_distance <= 1.5)
    True
    """
    distance = _check_distance(distance)
    if distance == "ratio":
        t = check_number(t, "t", minimum=1.0, allow_inf=True)
    else:
        t = check_number(t, "t", minimum=0.0, maximum=1.0)
    columns = _check_frame(frame, quasi_identifiers, "quasi_identifiers")
    k = check_int(k, "k", minimum=1)
    values, qi_keep, note = encode_quasi_identifiers(frame, columns, missing)
    sens = encode_sensitive(frame, sensitive, binning=binning, bins=bins, edges=edges, missing=sensitive_missing)
    if len(sens.categories) < 2:
        raise DatasetError(f"sensitive attribute {sensitive!r} has a single value ({sens.categories[0]!r}): "
                           "every cluster is trivially t-close")
    sens_ok = sens.codes >= 0
    values = values[sens_ok[qi_keep]]               # rows of ``values`` are the records with QIs kept
    keep = qi_keep & sens_ok
    n_kept = int(keep.sum())
    if n_kept == 0:
        raise DatasetError("no record is left once missing values are dropped")
    if k > n_kept:
        raise InvalidParameterError(f"k must be <= the number of records ({n_kept}), got {k}")
    r = len(sens.categories)
    codes = sens.codes[keep]
    base = mdav_labels(values, k, progress=None if progress is None else (lambda f: progress(0.9 * f)))
    n_c = int(base.max()) + 1
    counts = np.zeros((n_c, r))
    np.add.at(counts, (base, codes), 1.0)
    sums = np.zeros((n_c, values.shape[1]))
    np.add.at(sums, base, values)
    sizes = counts.sum(axis=1)
    data = counts.sum(axis=0) / n_kept
    measure = _DISTANCE_FUNCTIONS[distance]
    dist = np.asarray(measure(counts / sizes[:, None], data), dtype=float)
    alive = np.ones(n_c, dtype=bool)
    parent = np.arange(n_c)
    n_merges = 0
    tolerance = 1e-12 * max(1.0, t if math.isfinite(t) else 1.0)
    while True:
        bad = np.where(alive, dist, -np.inf)
        worst = int(np.argmax(bad))
        if not bad[worst] > t + tolerance:
            break
        centroids = sums.T / np.maximum(sizes, 1)      # one attribute per row
        gap = _sq_distances(centroids, centroids[:, worst])
        gap[~alive] = np.inf
        gap[worst] = np.inf
        other = int(np.argmin(gap))
        if not np.isfinite(gap[other]):
            break                                    # a single cluster is left: distance 1 (ratio) or 0 (EMD)
        counts[other] += counts[worst]
        sums[other] += sums[worst]
        sizes[other] += sizes[worst]
        alive[worst] = False
        parent[parent == worst] = other
        dist[other] = float(measure(counts[other] / sizes[other], data))
        dist[worst] = -np.inf
        n_merges += 1
        if progress is not None and n_merges % 256 == 0 and progress(0.9 + 0.1 * n_merges / n_c) is False:
            raise CancelledError(f"t-close microaggregation cancelled after {n_merges:,} merges")
    final = parent[base]
    _, compact = np.unique(final, return_inverse=True)
    labels = np.full(len(frame), -1, dtype=np.intp)
    labels[keep] = compact
    n_dropped = int((~keep).sum())
    parts = [p for p in (note, sens.note if sens.n_dropped else "") if p]
    parts.append(f"{n_merges} merge(s) of MDAV clusters to reach {distance} distance <= {t:g}; "
                 f"{int(compact.max()) + 1} cluster(s) remain")
    return Clustering(labels=labels, method="t_close_microaggregation", k=k, n_dropped=n_dropped,
                      note="; ".join(parts), t=t, distance=distance, n_merges=n_merges)
