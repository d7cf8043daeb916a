"""Published differential-privacy releases, read through every model that applies to them.

A table shipped with the package (``explorer/core/data/releases.csv``) lists deployments whose privacy
parameters are published: the epsilon (and delta, or rho for zero-concentrated DP), the privacy unit
(user-day, member, birth, ...), the period the budget renews over, the model (local: each person's report is
randomized on their device; central: a curator adds noise to statistics of the true data) and the publication
the figures come from, with its address, where the figures were read and the date they were checked.
:func:`releases` loads it.

:func:`read_release` reads one release in words and numbers:

- the **odds bound** e^eps applies to any eps-DP release: seeing the release can multiply the odds between two
  hypotheses about one privacy unit's data by at most e^eps (Domingo-Ferrer and Soria-Comas, 2018, Eq. 6, for
  randomized response; the same bound is the definition of eps-DP);
- the **deniability** and **accuracy** readings of randomized response
  (:func:`~explorer.core.epsilon_meaning.read_epsilon`) apply only to local releases, read as if the epsilon
  were spent by the optimal randomized response on an attribute;
- (eps, delta) and rho-zCDP releases show the conversion used and the models here read the pure-epsilon part;
  a rho-zCDP release is converted both ways: ``eps = rho + 2 sqrt(rho ln(1/delta))`` (Bun and Steinke's simple
  bound, :func:`zcdp_to_epsilon`, the one the models read) and the tighter conversion of Canonne, Kamath and
  Steinke (:func:`zcdp_to_epsilon_tight`), which is the one the US Census Bureau quotes;
- a local RAPPOR release (Erlingsson, Pihur and Korolova, 2014) has two epsilons, computed from its published
  parameters by :func:`rappor_epsilon`: the permanent randomized response's (memoized, so it bounds every
  report of one value) and one report's;
- a budget that renews every day (or month) composes: k days at eps each are at most k eps (sequential
  composition, a bound).

References
----------
.. [1] J. Domingo-Ferrer and J. Soria-Comas, "Connecting randomized response, post-randomization,
   differential privacy and t-closeness via deniability and permutation", arXiv preprint, 2018.
.. [2] M. Bun and T. Steinke, "Concentrated differential privacy: simplifications, extensions, and lower
   bounds", TCC 2016 (Proposition 1.3: rho-zCDP implies (rho + 2 sqrt(rho ln(1/delta)), delta)-DP).
.. [3] C. L. Canonne, G. Kamath and T. Steinke, "The discrete Gaussian for differential privacy", NeurIPS 2020
   (Corollary 13: the tighter conversion from rho-zCDP to (eps, delta)-DP).
.. [4] U. Erlingsson, V. Pihur and A. Korolova, "RAPPOR: Randomized aggregatable privacy-preserving ordinal
   response", ACM CCS 2014 (epsilon_inf of the permanent randomized response, epsilon_1 of one report).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, NamedTuple, Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy.optimize import brentq

from explorer._validation import check_epsilon, check_int, check_number, check_probability
from explorer.core.epsilon_meaning import EpsilonReading, epsilon_summary_lines, read_epsilon
from explorer.errors import InvalidParameterError
from explorer.references import cite

__all__ = ["RELEASE_COLUMNS", "DATA_FILE", "ReleaseReading", "releases", "find_release", "release_label",
           "zcdp_to_epsilon", "zcdp_to_epsilon_tight", "zcdp_delta", "compose", "belief_text", "max_posterior", "posterior_bounds", "belief_curves", "read_release",
           "release_lines", "RapporEpsilon", "rappor_epsilon"]

#: The data file shipped with the package (UTF-8 CSV with a header).
DATA_FILE = Path(__file__).resolve().parent / "data" / "releases.csv"
#: The columns of :func:`releases`, in order.
RELEASE_COLUMNS = ("key", "organisation", "name", "epsilon", "delta", "rho", "definition", "unit", "period",
                   "renews", "model", "source", "address", "verified_in", "checked", "notes")
#: What each ``definition`` means, in words.
DEFINITIONS = {"pure": "pure ε-differential privacy", "approximate": "(ε, δ)-differential privacy",
               "zcdp": "ρ-zero-concentrated differential privacy (ρ-zCDP)"}
MODELS = ("local", "central")
#: The renewal periods a budget can have (blank: a single release, or none stated).
RENEWS = ("day", "month", "")
#: Periods read when none is given: a week of daily budgets, a year of monthly ones.
DEFAULT_PERIODS = {"day": 7, "month": 12}
#: The attribute a local release is read on when no prior is given: five equally likely values (Example 3).
DEFAULT_PRIOR = (0.2, 0.2, 0.2, 0.2, 0.2)


# ====================================================================== the table
@functools.lru_cache(maxsize=1)
def _table() -> pd.DataFrame:
    frame = pd.read_csv(DATA_FILE, encoding="utf-8", dtype={"key": str, "renews": str}, keep_default_na=True)
    missing = [column for column in RELEASE_COLUMNS if column not in frame.columns]
    if missing:
        raise InvalidParameterError(f"the releases table {DATA_FILE.name} lacks the columns {missing}")
    frame = frame[list(RELEASE_COLUMNS)].copy()
    for column in ("epsilon", "delta", "rho"):
        frame[column] = pd.to_numeric(frame[column], errors="raise").astype(float)
    text = [c for c in RELEASE_COLUMNS if c not in ("epsilon", "delta", "rho")]
    frame[text] = frame[text].fillna("").astype(str)
    return frame


def releases() -> pd.DataFrame:
    """The published releases, one row each (a copy: changing it changes nothing else).

    Returns
    -------
    pandas.DataFrame
        Columns :data:`RELEASE_COLUMNS`: ``key`` (a short name), ``organisation``, ``name``, ``epsilon`` (as
        published; for rho-zCDP the epsilon the source quotes), ``delta`` (0 for pure eps-DP), ``rho`` (NaN
        unless zCDP), ``definition`` (``pure``, ``approximate`` or ``zcdp``), ``unit`` (the privacy unit),
        ``period`` (in words), ``renews`` (``day``, ``month`` or blank), ``model`` (``local`` or ``central``),
        ``source`` (the publication), ``address`` (its address), ``verified_in`` (the address of the text the
        figures were read in), ``checked`` (the date) and ``notes``.

    Examples
    --------
    >>> table = releases()
    >>> row = table.set_index("key").loc["google-symptoms"]
    >>> float(row["epsilon"]), row["unit"], row["model"]
    (1.68, 'user-day', 'central')
    >>> len(table) >= 12
    True
    """
    return _table().copy()


def release_label(row: Mapping[str, Any]) -> str:
    """``"Organisation: name"``, how a release is named in the view.

    >>> release_label({"organisation": "Google", "name": "COVID-19 Vaccination Search Insights"})
    'Google: COVID-19 Vaccination Search Insights'
    """
    return f"{row['organisation']}: {row['name']}"


def find_release(row_or_name: Any) -> pd.Series:
    """One release: a row of :func:`releases` (or a mapping with its columns), or its key, name or label.

    Raises :class:`~explorer.errors.InvalidParameterError` naming ``release`` and the value for anything else.

    >>> find_release("Google: COVID-19 Search Trends symptoms dataset")["epsilon"]
    1.68
    """
    if isinstance(row_or_name, (pd.Series, Mapping)):
        row = pd.Series(dict(row_or_name))
        missing = [c for c in ("organisation", "name", "epsilon", "unit", "period", "model") if c not in row.index]
        if missing:
            raise InvalidParameterError(f"release must have the columns of releases(); it lacks {missing}")
        for column in RELEASE_COLUMNS:
            if column not in row.index:
                row[column] = np.nan if column in ("delta", "rho") else ""
        return _checked_row(row)
    if isinstance(row_or_name, str) and len(row_or_name) <= 200:
        wanted = row_or_name.strip().casefold()
        table = _table()
        for _, row in table.iterrows():
            if wanted in (row["key"].casefold(), row["name"].casefold(), release_label(row).casefold()):
                return row.copy()
    text = repr(row_or_name)
    text = text if len(text) <= 60 else text[:57] + "..."
    raise InvalidParameterError(f"release must be a row of releases() or one of its keys, names or "
                                f"'organisation: name' labels, got {text}")


def _checked_row(row: pd.Series) -> pd.Series:
    row = row.copy()
    row["epsilon"] = check_epsilon(row["epsilon"], "epsilon", allow_inf=False)
    delta = row.get("delta")
    row["delta"] = 0.0 if delta is None or (isinstance(delta, float) and math.isnan(delta)) else \
        check_number(delta, "delta", minimum=0.0, maximum=1.0, include_maximum=False)
    rho = row.get("rho")
    row["rho"] = math.nan if rho is None or (isinstance(rho, float) and math.isnan(rho)) else \
        check_number(rho, "rho", minimum=0.0, include_minimum=False)
    if row["model"] not in MODELS:
        raise InvalidParameterError(f"model must be one of {list(MODELS)}, got {str(row['model'])[:40]!r}")
    definition = row.get("definition") or ("zcdp" if not math.isnan(row["rho"]) else
                                           "approximate" if row["delta"] > 0 else "pure")
    if definition not in DEFINITIONS:
        raise InvalidParameterError(f"definition must be one of {list(DEFINITIONS)}, got {str(definition)[:40]!r}")
    row["definition"] = definition
    renews = "" if pd.isna(row.get("renews")) else str(row.get("renews") or "")
    if renews not in RENEWS:
        raise InvalidParameterError(f"renews must be one of {list(RENEWS)}, got {renews[:40]!r}")
    row["renews"] = renews
    return row


# ====================================================================== formulas
def zcdp_to_epsilon(rho: float, delta: float) -> float:
    """The epsilon of (eps, delta)-DP implied by rho-zCDP: ``rho + 2 sqrt(rho ln(1/delta))``.

    Bun and Steinke (2016), Proposition 1.3.  A bound: tighter conversions exist, and sources may quote one.

    Examples
    --------
    >>> round(zcdp_to_epsilon(0.015, 1e-7), 4)      # Wikimedia's pageviews: "roughly epsilon = 1"
    0.9984
    """
    rho = check_number(rho, "rho", minimum=0.0)
    delta = check_number(delta, "delta", minimum=0.0, maximum=1.0, include_minimum=False, include_maximum=False)
    return rho + 2.0 * math.sqrt(rho * math.log(1.0 / delta))


def _log_delta_at(rho: float, epsilon: float) -> float:
    """ln of the smallest delta that Canonne, Kamath and Steinke's Corollary 13 gives at ``epsilon`` for rho-zCDP.

    Corollary 13: rho-zCDP implies (eps, delta)-DP with delta = exp(g(a)) for every order a > 1, where
    ``g(a) = (a - 1)(a rho - eps) + (a - 1) ln(1 - 1/a) - ln a``.  ``g`` is convex in ``a``
    (``g''(a) = 2 rho + 1 / (a (a - 1)) > 0``), so its minimum is where ``g'(a) = (2a - 1) rho - eps + ln(1 - 1/a)``
    vanishes: found by :func:`scipy.optimize.brentq` on the Renyi order ``a``.
    """
    # In the excess order b = a - 1 > 0, so that orders near 1 keep their digits: ln(1 - 1/a) = ln b - ln(1 + b).
    def g(b: float) -> float:
        return b * ((1.0 + b) * rho - epsilon) + b * (math.log(b) - math.log1p(b)) - math.log1p(b)

    def g_prime(b: float) -> float:
        return (2.0 * b + 1.0) * rho - epsilon + math.log(b) - math.log1p(b)

    high = max((epsilon + rho + 1.0) / (2.0 * rho), 2.0) - 1.0   # g'(high) >= 1 + ln(1/2) > 0
    low = min(1e-3, high / 2.0)
    while g_prime(low) >= 0.0 and low > 1e-300:                 # g' -> -inf as a -> 1+
        low /= 1e4
    if g_prime(low) >= 0.0:                                     # the minimum is at a = 1 in floating point
        return g(low)
    excess = brentq(g_prime, low, high, xtol=1e-15, rtol=4 * np.finfo(float).eps, maxiter=500)
    return g(excess)


def zcdp_delta(rho: float, epsilon: float) -> float:
    """The delta of (eps, delta)-DP that rho-zCDP gives at ``epsilon``: the tighter conversion of Canonne, Kamath and
    Steinke (2020).

    Their Corollary 13: ``delta = min over a > 1 of exp((a - 1)(a rho - eps)) (1 - 1/a)^(a - 1) / a``, the Renyi order ``a``
    found by a root search on the derivative of the exponent (it is convex in ``a``).

    Examples
    --------
    >>> f"{zcdp_delta((542 / 339) ** 2, 17.14):.2e}"      # the 2020 Census persons file: just above 1e-10
    '1.01e-10'
    """
    rho = check_number(rho, "rho", minimum=0.0, include_minimum=False)
    epsilon = check_number(epsilon, "epsilon", minimum=0.0)
    return min(1.0, math.exp(_log_delta_at(rho, epsilon)))


def zcdp_to_epsilon_tight(rho: float, delta: float) -> float:
    """The epsilon of (eps, delta)-DP implied by rho-zCDP, by the tighter conversion of Canonne, Kamath and Steinke.

    Canonne, Kamath and Steinke (2020), Corollary 13: rho-zCDP gives (eps, delta)-DP for
    ``delta = exp((a - 1)(a rho - eps)) (1 - 1/a)^(a - 1) / a`` at every Renyi order ``a > 1``.  This function
    solves for the smallest such ``eps`` at the given ``delta``: :func:`scipy.optimize.brentq` on ``eps``, between 0
    and the simple bound :func:`zcdp_to_epsilon` (which it never exceeds), of :func:`zcdp_delta` ``= delta``, the
    best order found for each ``eps`` by a root search.  The US Census Bureau's 2020 disclosure avoidance code
    converts this way, so the epsilons it quotes are these.

    Parameters
    ----------
    rho : float
        The zCDP parameter, > 0.
    delta : float
        The delta wanted, in (0, 1).

    Returns
    -------
    float
        The epsilon, to about 1e-10; 0 when ``delta`` is reached at epsilon = 0 already.

    Examples
    --------
    >>> round(zcdp_to_epsilon_tight((542 / 339) ** 2, 1e-10), 2)   # 2020 Census persons: the Bureau's 17.14
    17.14
    >>> round(zcdp_to_epsilon((542 / 339) ** 2, 1e-10), 2)         # the simple bound, for comparison
    17.9
    """
    rho = check_number(rho, "rho", minimum=0.0, include_minimum=False)
    delta = check_number(delta, "delta", minimum=0.0, maximum=1.0, include_minimum=False, include_maximum=False)
    target = math.log(delta)
    if _log_delta_at(rho, 0.0) <= target:
        return 0.0
    simple = zcdp_to_epsilon(rho, delta)
    if _log_delta_at(rho, simple) >= target:                  # cannot happen in exact arithmetic: keep the bound
        return simple
    return float(brentq(lambda eps: _log_delta_at(rho, eps) - target, 0.0, simple, xtol=1e-12,
                        rtol=4 * np.finfo(float).eps, maxiter=500))


class RapporEpsilon(NamedTuple):
    """The two epsilons of RAPPOR (Erlingsson, Pihur and Korolova, 2014), from :func:`rappor_epsilon`."""

    #: epsilon_inf: the bound of the permanent randomized response, whatever the number of reports of one value.
    permanent: float
    #: epsilon_1: the bound of one report (the permanent then the instantaneous randomized response).
    one_report: float


def rappor_epsilon(f: float, p: float, q: float, h: int) -> RapporEpsilon:
    """The epsilons of RAPPOR with fake-data probability ``f``, coins ``p`` and ``q`` and ``h`` hash functions.

    RAPPOR (Erlingsson, Pihur and Korolova, 2014) hashes a client's value into a Bloom filter B with ``h``
    hash functions (so 1 to ``h`` bits set), then randomizes it twice:

    - the **permanent randomized response**, memoized for the value: each bit is replaced by a fair coin with
      probability ``f``, so B'_i is 1 with probability 1 - f/2 if B_i = 1 and f/2 if B_i = 0;
    - the **instantaneous randomized response**, fresh for every report: the reported bit S_i is 1 with
      probability ``q`` if B'_i = 1 and ``p`` if B'_i = 0.

    Two values' filters differ in at most 2h bits (at most h set in one and not the other, and h the other way
    round), and every other bit has the same distribution under both, so a likelihood ratio is a product over
    those bits:

    - **permanent**: per differing bit the ratio is at most (1 - f/2)/(f/2) either way, so
      ``epsilon_inf = 2h ln((1 - f/2)/(f/2))``. Because the permanent response is memoized, repeated reports of
      the same value reveal at most B', and never more than this bound;
    - **one report**: each bit is reported 1 with probability q* = f/2 (p + q) + (1 - f) q if B_i = 1 and
      p* = f/2 (p + q) + (1 - f) p if B_i = 0. A bit set only in the first filter multiplies the ratio by at
      most q*/p* (reported 1), a bit set only in the second by at most (1 - p*)/(1 - q*) (reported 0); with h of
      each, ``epsilon_1 = h ln(q* (1 - p*) / (p* (1 - q*)))`` (absolute value, when q < p), the paper's form.
      For symmetric coins (p = 1 - q) both per-bit ratios are equal and this is ``2h ln(q*/p*)``; otherwise it is
      smaller than ``2h`` times the larger of the two (tests check it against a brute-force computation).

    ``f`` is in (0, 1], ``p`` and ``q`` in [0, 1] with q != p, ``h`` a positive integer; anything else is
    refused with :class:`~explorer.errors.InvalidParameterError` naming the parameter.

    Examples
    --------
    Chrome's NORMAL_NOISE (f = 0.5, p = 0.25, q = 0.75) with 2 hash functions: 4 ln 3 and 4 ln(5/3).

    >>> eps = rappor_epsilon(0.5, 0.25, 0.75, 2)
    >>> round(eps.permanent, 4), round(eps.one_report, 4)
    (4.3944, 2.0433)
    >>> math.isclose(eps.permanent, 4 * math.log(3)), math.isclose(eps.one_report, 4 * math.log(5 / 3))
    (True, True)
    """
    f = check_number(f, "f", minimum=0.0, maximum=1.0, include_minimum=False)
    p = check_probability(p, "p")
    q = check_probability(q, "q")
    if p == q:
        raise InvalidParameterError(f"q must differ from p (the reports would say nothing), got p = q = {p:g}")
    h = check_int(h, "h", minimum=1, maximum=1_000)
    permanent = 2 * h * math.log((1 - f / 2) / (f / 2))
    q_star = f / 2 * (p + q) + (1 - f) * q
    p_star = f / 2 * (p + q) + (1 - f) * p
    one_report = h * abs(math.log(q_star * (1 - p_star) / (p_star * (1 - q_star))))
    return RapporEpsilon(permanent=permanent, one_report=one_report)


def compose(epsilon: float, k: int) -> float:
    """The epsilon of ``k`` releases at ``epsilon`` each about the same unit: at most ``k * epsilon``.

    Sequential composition: an upper bound on the combined privacy loss, not the loss itself.

    >>> compose(1.68, 7)
    11.76
    """
    epsilon = check_epsilon(epsilon, allow_inf=False)
    k = check_int(k, "periods", minimum=1, maximum=100_000)
    return round(k * epsilon, 12)


def max_posterior(epsilon: float, prior_belief: float = 0.5) -> float:
    """The highest belief an intruder can reach about one hypothesis after an eps-DP release.

    The odds ``p / (1 - p)`` grow by at most e^eps, so ``p`` becomes at most ``p e^eps / (p e^eps + 1 - p)``.

    >>> round(max_posterior(1.0), 4)          # from 50:50
    0.7311
    """
    epsilon = check_epsilon(epsilon)
    p = check_number(prior_belief, "prior_belief", minimum=0.0, maximum=1.0, include_minimum=False,
                     include_maximum=False)
    if epsilon > 700:
        return 1.0
    odds = p / (1.0 - p) * math.exp(epsilon)
    return odds / (1.0 + odds)


def posterior_bounds(epsilon: float, beliefs: ArrayLike) -> np.ndarray:
    """:func:`max_posterior` for many prior beliefs at once (each in (0, 1)).

    >>> posterior_bounds(math.log(3), [0.25, 0.5]).round(4).tolist()
    [0.5, 0.75]
    """
    epsilon = check_epsilon(epsilon)
    p = np.asarray(beliefs, dtype=float)
    if p.ndim != 1 or p.size == 0 or not np.all((p > 0) & (p < 1)):
        raise InvalidParameterError("beliefs must be a non-empty list of probabilities strictly between 0 and 1")
    if epsilon > 700:
        return np.ones_like(p)
    odds = p / (1.0 - p) * math.exp(epsilon)
    return odds / (1.0 + odds)


#: The prior beliefs the belief curves are drawn at (log-odds evenly spaced, from 0.001 to 0.999).
BELIEFS = 1.0 / (1.0 + np.exp(-np.linspace(-math.log(999), math.log(999), 121)))


# ====================================================================== reading one release
@dataclass(frozen=True)
class ReleaseReading:
    """One published release read through every model that applies to it.

    Attributes
    ----------
    release : pandas.Series
        The row of :func:`releases`.
    label : str
        ``"Organisation: name"``.
    epsilon : float
        The epsilon the models read: the published one, or for rho-zCDP the converted one.
    converted_epsilon : float or None
        For rho-zCDP, ``rho + 2 sqrt(rho ln(1/delta))`` at the release's delta (Bun and Steinke's simple bound, the
        epsilon the models read); else None.
    odds_bound : float
        e^epsilon (inf beyond e^700).
    posterior_from_even : float
        The highest belief an intruder at 50:50 can reach after one release.
    periods : int or None
        The number of periods read (days or months); None for a single release or no period stated.
    composed_epsilon : float or None
        ``periods * epsilon`` (sequential composition, a bound); None as ``periods``.
    composed_odds_bound : float or None
        e^composed_epsilon.
    rr : EpsilonReading or None
        For a local release, :func:`~explorer.core.epsilon_meaning.read_epsilon` at ``epsilon`` on the prior;
        None for a central one.
    attribute : str
        The name of the attribute a local release is read on.
    lines : dict
        The reading in words: ``release``, ``conversion`` (for (eps, delta) and zCDP), ``odds``, ``period``,
        ``deniability`` and ``accuracy`` (local) or ``local models`` (central), and ``source``.
    tight_epsilon : float or None
        For rho-zCDP, the tighter conversion of Canonne, Kamath and Steinke (:func:`zcdp_to_epsilon_tight`) at the
        release's delta, shown beside the simple bound; else None.
    """

    release: pd.Series
    label: str
    epsilon: float
    converted_epsilon: float | None
    odds_bound: float
    posterior_from_even: float
    periods: int | None
    composed_epsilon: float | None
    composed_odds_bound: float | None
    rr: EpsilonReading | None
    attribute: str
    lines: dict[str, str] = field(default_factory=dict)
    tight_epsilon: float | None = None

    @property
    def local(self) -> bool:
        """Whether the release is in the local model (each report randomized on the person's device)."""
        return self.release["model"] == "local"


def _num(value: float, digits: int = 3) -> str:
    """A number for a sentence: ``digits`` significant decimals, thousands separated, huge ones as 1.4e+15."""
    if math.isinf(value):
        return "unbounded"
    if value >= 1e7:
        return f"{value:.2g}".replace("e+", "e")
    if value >= 100:
        return f"{value:,.0f}"
    text = f"{value:.{digits}f}".rstrip("0").rstrip(".")
    return text or "0"


def belief_text(p: float) -> str:
    """A probability for a sentence; near 1 it is said as 1 − (what is left), so it never rounds to certainty.

    >>> belief_text(0.8432), belief_text(1 - 2e-7)
    ('0.843', '1 − 2.0e-7')
    """
    rest = 1.0 - p
    if rest <= 0:
        return "1 (certainty)"
    if rest < 1e-3:
        return f"1 − {rest:.1e}".replace("e-0", "e-")
    return f"{p:.3f}"


def _delta(delta: float) -> str:
    return f"{delta:.0e}".replace("e-0", "e-")


def _quoted_from(quoted: float, simple: float, tight: float | None) -> str:
    """Which conversion a quoted epsilon is, to the digits it is printed with ("" when both or neither)."""
    if tight is None:
        return ""
    text = repr(quoted)
    digits = len(text.split(".")[1].rstrip("0")) if "." in text and "e" not in text else 0
    is_simple, is_tight = round(simple, digits) == round(quoted, digits), round(tight, digits) == round(quoted, digits)
    if is_tight and not is_simple:
        return ", the tighter conversion's figure to the digits printed"
    if is_simple and not is_tight:
        return ", the simple bound's figure to the digits printed"
    return ""


def release_lines(reading: ReleaseReading) -> dict[str, str]:
    """The reading in words, one sentence (or two) per model; :func:`read_release` fills ``reading.lines``."""
    row, eps = reading.release, reading.epsilon
    definition, model = row["definition"], row["model"]
    lines = {"release": (f"{reading.label}: ε = {_num(row['epsilon'], 4)} ({DEFINITIONS[definition]}); privacy "
                         f"unit: {row['unit']}; period: {row['period']}; {model} model.")}
    if definition == "zcdp":
        simple, tight, quoted = reading.converted_epsilon, reading.tight_epsilon, float(row["epsilon"])
        lines["conversion"] = (
            f"ρ-zCDP with ρ = {_num(row['rho'], 4)} gives (ε, δ)-DP at δ = {_delta(row['delta'])} with "
            f"ε = ρ + 2·sqrt(ρ·ln(1/δ)) = {_num(simple, 4)} (the simple bound of Bun and Steinke, 2016), or with "
            f"ε = {_num(tight, 4)} by the tighter conversion of Canonne, Kamath and Steinke (2020); the source quotes "
            f"ε = {_num(quoted, 4)}{_quoted_from(quoted, simple, tight)}. The models here read the simple bound, "
            f"ε = {_num(eps, 4)}, as the pure-ε part, and leave δ aside.")
    elif definition == "approximate":
        lines["conversion"] = (
            f"(ε, δ)-DP with δ = {_delta(row['delta'])}: every probability may exceed e^ε times its neighbour's "
            f"by up to δ; the models here read the pure-ε part, ε = {_num(eps, 4)}, and leave δ aside.")
    who = row["unit"] if row["unit"].startswith(("a ", "an ")) else f"a {row['unit']}"
    lines["odds"] = (
        f"Any ε-DP release: seeing it can multiply the odds between two hypotheses about one privacy unit, "
        f"{who}, by at most e^ε = {_num(reading.odds_bound)}; an intruder at 50:50 ends at most "
        f"{belief_text(reading.posterior_from_even)} sure.")
    if reading.periods is None:
        if row["period"].startswith("not stated"):
            lines["period"] = ("The source states no period or renewal for this budget, so no composition over "
                               "time is read.")
        else:
            verb = "holds" if row["period"].startswith("for ") else "covers"
            lines["period"] = (f"The budget {verb} {row['period']} and does not renew, so no composition over "
                               "time is read.")
    else:
        unit = row["renews"]
        lines["period"] = (
            f"The budget renews every {unit}: over {reading.periods} {unit}s one person's data are protected by "
            f"at most {reading.periods} × {_num(eps, 4)} = {_num(reading.composed_epsilon, 4)} (sequential "
            f"composition, a bound, not the exact loss), an odds bound of {_num(reading.composed_odds_bound)}.")
    if reading.rr is not None:
        words = epsilon_summary_lines(reading.rr, reading.attribute)
        lines["deniability"] = (
            f"Local model: each report is randomized on the device, so it can be read as the randomized response "
            f"of {cite('rr-dp')}, as if the ε were spent by the optimal matrix. " + words["deniability"])
        lines["accuracy"] = words["accuracy"]
    else:
        lines["local models"] = (
            "Central model: a curator sees the true data and adds noise to what is published, so the deniability "
            "and accuracy readings of randomized response do not apply; the odds bound does.")
    lines["source"] = (f"Source: {row['source']} ({row['address']}); figures read at {row['verified_in']}, "
                       f"checked {row['checked']}.")
    return lines


def belief_curves(reading: ReleaseReading, beliefs: ArrayLike | None = None) -> dict[str, np.ndarray]:
    """The highest belief an intruder can reach after the release, against his belief before it.

    Returns ``{"before": beliefs, "one release": ..., "composed": ...}`` (``composed`` only when the budget
    renews: after ``reading.periods`` periods, at ``reading.composed_epsilon``).

    >>> curves = belief_curves(read_release("google-symptoms"), [0.5])
    >>> round(float(curves["one release"][0]), 3), round(float(curves["composed"][0]), 5)
    (0.843, 0.99999)
    """
    before = BELIEFS if beliefs is None else np.asarray(beliefs, dtype=float)
    curves = {"before": before, "one release": posterior_bounds(reading.epsilon, before)}
    if reading.composed_epsilon is not None:
        curves["composed"] = posterior_bounds(reading.composed_epsilon, before)
    return curves


def read_release(row_or_name: Any, prior: ArrayLike | None = None, *, periods: int | None = None,
                 labels: Sequence[Any] | None = None, attribute: str | None = None, n: int = 1000,
                 rng: Any = 0) -> ReleaseReading:
    """Read a published release through every model that applies to it, in words and numbers.

    Parameters
    ----------
    row_or_name : pandas.Series, mapping or str
        A row of :func:`releases`, or its key, name or ``"organisation: name"`` label.
    prior : array_like, optional
        The attribute a local release is read on (weights, r >= 2); by default five equally likely values
        (Example 3 of Domingo-Ferrer and Soria-Comas, 2018).  Ignored for a central release.
    periods : int, optional
        How many periods (days or months) of a renewing budget to compose; by default a week of daily budgets
        or a year of monthly ones.  Ignored when the release states no renewal.
    labels : sequence of str, optional
        The prior's categories.
    attribute : str, optional
        The attribute's name, for the sentences.
    n : int
        Number of reports for the accuracy reading of a local release.
    rng : int or numpy.random.Generator
        Seed of the accuracy reading's simulated run.

    Returns
    -------
    ReleaseReading

    Examples
    --------
    >>> reading = read_release("google-symptoms")
    >>> reading.epsilon, reading.local, round(reading.composed_epsilon, 2)
    (1.68, False, 11.76)
    >>> reading.lines["odds"].split(";")[0]
    'Any ε-DP release: seeing it can multiply the odds between two hypotheses about one privacy unit, a user-day, by at most e^ε = 5.366'
    >>> round(read_release("wikimedia-pageviews").epsilon, 4)
    0.9984
    """
    row = find_release(row_or_name)
    if row["definition"] == "zcdp":
        converted = zcdp_to_epsilon(row["rho"], row["delta"])
        tight = zcdp_to_epsilon_tight(row["rho"], row["delta"])
        epsilon = converted
    else:
        converted, tight, epsilon = None, None, float(row["epsilon"])
    renews = row["renews"]
    if renews:
        k = DEFAULT_PERIODS[renews] if periods is None else check_int(periods, "periods", minimum=1, maximum=100_000)
        composed = compose(epsilon, k)
        composed_odds = math.exp(composed) if composed < 700 else math.inf
    else:
        if periods is not None:
            check_int(periods, "periods", minimum=1, maximum=100_000)
        k, composed, composed_odds = None, None, None
    rr_reading, name = None, attribute or "a uniform 5-value attribute"
    if row["model"] == "local":
        weights = DEFAULT_PRIOR if prior is None else prior
        if prior is None and labels is None:
            labels = list("abcde")
        rr_reading = read_epsilon(epsilon, weights, labels=labels, n=n, rng=rng)
        if attribute is None and prior is not None:
            name = "the attribute"
    reading = ReleaseReading(
        release=row, label=release_label(row), epsilon=epsilon, converted_epsilon=converted,
        odds_bound=math.exp(epsilon) if epsilon < 700 else math.inf, posterior_from_even=max_posterior(epsilon),
        periods=k, composed_epsilon=composed, composed_odds_bound=composed_odds, rr=rr_reading, attribute=name,
        tight_epsilon=tight)
    reading.lines.update(release_lines(reading))
    return reading
