"""Every numbered item of the four papers, and the functions of :mod:`explorer.core` that compute them.

:data:`ITEMS` lists each equation, proposition, definition, corollary, algorithm, protocol, table, example
and figure the papers number, paper by paper and kind by kind.  An item is either computed by one or more public
functions or classes of :mod:`explorer.core`, or marked ``not_computed`` with the reason.

The map from items to functions is read off the docstrings.  A function that computes an item says so in
one paragraph of its docstring, placed at the end of its References section (else of its Notes, else of
its description), that starts with ``Computes:`` and lists the items, each qualified by its paper::

    Computes: Domingo-Ferrer and Soria-Comas (2018), Eq. 2; Domingo-Ferrer and Soria-Comas (2022), Eq. 2.

A paper is cited as :func:`explorer.references.cite` writes it (authors and year; the two papers of
Domingo-Ferrer and Soria-Comas differ by year), an item as one of :data:`KINDS` and its number.
:func:`paper_map` walks :mod:`explorer.core` and collects these markers; the documentation's page "The
papers, item by item" is generated from it, and ``tests/test_paper_map.py`` checks it against
:data:`ITEMS`, whose ``functions`` name the computing objects by their name inside their module (so a
module may move without touching this list).

>>> item("multidim-rr", "Alg.", 1).label
'Domingo-Ferrer and Soria-Comas (2022), Alg. 1'
>>> parse_marker("Sum.\\n\\nComputes: Ruiz (2018), Prop. 2; Ruiz (2018), Table 3.")
[('permutation-paradigm', 'Prop.', 2), ('permutation-paradigm', 'Table', 3)]
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import warnings
from dataclasses import dataclass

from explorer.references import PAPERS, cite

__all__ = ["KINDS", "MARKER", "ITEMS", "PaperItem", "item", "parse_marker", "core_objects", "marked_objects",
           "paper_map", "problems"]

#: The kinds of numbered item, as a marker writes them, with the word a reader sees.
KINDS: dict[str, str] = {
    "Eq.": "Equation", "Prop.": "Proposition", "Def.": "Definition", "Corollary": "Corollary",
    "Alg.": "Algorithm", "Protocol": "Protocol", "Table": "Table", "Example": "Example", "Fig.": "Figure",
}

#: The word that opens a marker paragraph in a docstring.
MARKER = "Computes:"


@dataclass(frozen=True)
class PaperItem:
    """One numbered item of a paper.

    ``functions`` are the names (``__qualname__``, without the module) of the objects of
    :mod:`explorer.core` whose docstrings carry this item's marker; ``not_computed`` says in one
    sentence why no function computes the item (then ``functions`` is empty).
    """

    paper: str
    kind: str
    number: int
    title: str
    functions: tuple[str, ...] = ()
    not_computed: str | None = None

    @property
    def key(self) -> tuple[str, str, int]:
        """``(paper, kind, number)``, as :func:`parse_marker` returns it."""
        return (self.paper, self.kind, self.number)

    @property
    def label(self) -> str:
        """The item qualified by its paper: ``Ruiz (2018), Prop. 2``."""
        return cite(self.paper, f"{self.kind} {self.number}")


def _items(paper: str, rows: list[tuple]) -> list[PaperItem]:
    out = []
    for kind, number, title, functions in rows:
        if isinstance(functions, str):
            out.append(PaperItem(paper, kind, number, title, not_computed=functions))
        else:
            out.append(PaperItem(paper, kind, number, title, tuple(functions)))
    return out


_NO_DP = ("the definition of epsilon-differential privacy for any randomized query, not a quantity; for an RR "
          "matrix it becomes the column-ratio condition the explorer computes (epsilon_of)")

# The canonical list (documented in the module docstring, not shown as a value).  A row is (kind, number, what it is, the functions or the reason it is not computed).
ITEMS: tuple[PaperItem, ...] = tuple(
    _items("rr-dp", [
        ("Eq.", 1, "the RR/PRAM matrix P, P[u, v] = Pr(Y = v | X = u)", ["randomize"]),
        ("Eq.", 2, "unbiased estimate of the true distribution, pi-hat = (P^T)^-1 lambda-hat",
         ["inversion_estimate", "estimate_frequencies"]),
        ("Eq.", 3, "posterior Pr(X = u | Y = v) by Bayes' formula", ["posterior_matrix"]),
        ("Eq.", 4, "deniability as the conditional entropy H(X | Y = v)", ["deniability_entropies"]),
        ("Eq.", 5, "epsilon-differential privacy of a randomized query", _NO_DP),
        ("Eq.", 6, "RR is epsilon-DP when e^epsilon bounds every column's max/min ratio",
         ["epsilon_of", "posterior_odds_bound"]),
        ("Eq.", 7, "ratio distance d(F1, F2) between two discrete distributions", ["ratio_distance"]),
        ("Eq.", 8, "power mean J((p_1, ..., p_n), alpha) of permutation distances", ["power_mean"]),
        ("Prop.", 1, "exp(epsilon/2)-closeness under the ratio distance gives epsilon-DP",
         ["closeness_for_epsilon", "epsilon_for_closeness"]),
        ("Example", 1, "epsilon = 2 read as deniability: a column (0.7389, 0.1), r = 2", ["example1_matrix"]),
        ("Example", 2, "epsilon = 2 lets a cluster multiply a value's probability by e", ["closeness_for_epsilon"]),
        ("Example", 3, "the most concentrated exp(1)-close cluster: r = 5, uniform prior, 0.5436",
         ["worst_case_cluster"]),
    ])
    + _items("permutation-paradigm", [
        ("Prop.", 1, "any anonymization is permutation matrices plus small noise, Y = (P_1 X_1, ...) + E",
         ["permutation_matrix"]),
        ("Prop.", 2, "qualitative disclosure risk T_j = 1 - trace(P_j) / n", ["permutation_extent"]),
        ("Prop.", 3, "disclosure risk D_j(alpha), power mean of the rank displacements",
         ["disclosure_risk", "risk_curve"]),
        ("Prop.", 4, "one permutation matrix on a block of attributes keeps their joint distribution",
         "a statement about which permutations keep a joint distribution, not a quantity; its consequence, "
         "I_k(theta) = 0 for a pair permuted alike, is what information_loss computes (Prop. 5)"),
        ("Prop.", 5, "information loss I_k(theta), power mean of the relative displacements Delta(r_k)",
         ["information_loss", "relative_displacement", "pairwise_information_loss", "loss_curve"]),
        ("Prop.", 6, "overall disclosure risk D(alpha, beta) of a data set",
         ["overall_disclosure_risk", "overall_risk_curve"]),
        ("Prop.", 7, "overall information loss I(theta, pi) of a data set",
         ["overall_information_loss", "overall_loss_curve"]),
        ("Def.", 1, "aversion to disclosure risk",
         "a preference, not a quantity; the explorer lets it be chosen as the alpha of D_j(alpha) (Prop. 3)"),
        ("Def.", 2, "dominance in protection against disclosure risk", ["dominance"]),
        ("Def.", 3, "aversion to information loss",
         "a preference, not a quantity; the explorer lets it be chosen as the theta of I_k(theta) (Prop. 5)"),
        ("Def.", 4, "dominance in preservation of information", ["dominance"]),
        ("Table", 1, "running example: original X, masked Y and their ranks", ["ruiz_example", "ranks"]),
        ("Table", 2, "running example: reverse-mapped Z and residual noise E = Y - Z",
         ["reverse_map_frame", "residual_noise"]),
        ("Table", 3, "D_j(alpha) of the running example for alpha = 1, 0.5, -4", ["disclosure_risk"]),
        ("Table", 4, "local anonymization of records 2 and 3 of the running example",
         "an illustration whose data are not among the explorer's data sets; reverse_map_frame and "
         "residual_noise (Table 2) compute its Z and E from its printed X and Y"),
        ("Fig.", 1, "the current and the proposed roadmaps of data anonymization",
         "a diagram of two workflows, with no numbers to compute"),
    ])
    + _items("multidim-rr", [
        ("Eq.", 1, "the RR matrix P of one attribute", ["randomize"]),
        ("Eq.", 2, "unbiased estimate pi-hat = (P^T)^-1 lambda-hat", ["inversion_estimate", "estimate_frequencies"]),
        ("Eq.", 3, "epsilon-differential privacy of a randomized query", _NO_DP),
        ("Eq.", 4, "RR is epsilon-DP when e^epsilon bounds every column's max/min ratio", ["epsilon_of"]),
        ("Eq.", 5, "absolute error e_abs of lambda-hat at confidence 1 - alpha", ["error_bounds"]),
        ("Eq.", 6, "relative error e_rel of lambda-hat at confidence 1 - alpha", ["error_bounds"]),
        ("Eq.", 7, "RR-Joint needs n much larger than the number of combinations prod |A^j|",
         ["n_combinations"]),
        ("Eq.", 8, "dependence of two ordinal attributes, |Pearson r_ij|", ["abs_pearson"]),
        ("Eq.", 9, "dependence of nominal attributes, Cramer's V_ij", ["cramers_v"]),
        ("Eq.", 10, "Cov(Y^a, Y^b) = E(Y^a Y^b) - E(Y^a) E(Y^b) (proof of Prop. 1)",
         "a step of the proof of Prop. 1; the explorer checks the proposition's result by simulation "
         "(tests/core/test_multidim_rr.py::test_prop1_covariance_attenuated_by_pa_pb)"),
        ("Eq.", 11, "E(Y^a) E(Y^b) expanded (proof of Prop. 1)", "a step of the proof of Prop. 1"),
        ("Eq.", 12, "E(Y^a Y^b) expanded (proof of Prop. 1)", "a step of the proof of Prop. 1"),
        ("Eq.", 13, "Example 1's randomized data set: 10 records of two binary attributes",
         "data, not a computation: the explorer keeps them as the constant EXAMPLE1_REPORTS of the "
         "RR-Adjustment module"),
        ("Eq.", 14, "the joint distribution RR-Adjustment gives in Example 1", ["rr_adjust"]),
        ("Eq.", 15, "the joint distribution of Example 1 under independent attributes",
         "the product of Example 1's estimated marginals (1/4 each), written out for comparison; no "
         "function returns a joint distribution under independence"),
        ("Eq.", 16, "absolute and relative error of a count query", ["count_query_errors"]),
        ("Def.", 1, "absolute error of lambda-hat with confidence alpha", ["error_bounds"]),
        ("Def.", 2, "relative error of lambda-hat with confidence alpha", ["error_bounds"]),
        ("Protocol", 1, "RR-Independent: RR on each attribute, the joint distribution as the product of marginals",
         ["rr_independent", "query_frequency_independent"]),
        ("Protocol", 2, "RR-Joint: RR on the Cartesian product of the attributes", ["rr_joint"]),
        ("Prop.", 1, "RR on each attribute multiplies the covariance of two attributes by p_a p_b",
         "a theorem about covariances: the explorer implements its mechanism (attribute_matrix, "
         "keep-or-uniform) and checks the theorem by simulation "
         "(tests/core/test_multidim_rr.py::test_prop1_covariance_attenuated_by_pa_pb)"),
        ("Corollary", 1, "RR with one keep probability p keeps the order of the covariances",
         "a theorem about covariances, which follows from Prop. 1; its randomization is attribute_matrix's "
         "keep-or-uniform mechanism"),
        ("Alg.", 1, "RR-Clusters: clustering of attributes by their dependence", ["cluster_attributes", "cluster_dependence"]),
        ("Alg.", 2, "RR-Adjustment: record weights raked to the estimated marginals", ["rr_adjust"]),
        ("Example", 1, "RR-Adjustment on 10 records of two binary attributes", ["rr_adjust"]),
        ("Table", 1, "relative error of RR-Clusters on Adult by p, T_v and T_d", ["run_table"]),
        ("Table", 2, "the same on Adult6 (Adult concatenated 6 times)", ["run_table"]),
        ("Fig.", 1, "the factor sqrt(B) of the error against the number of categories r", ["chi2_factor"]),
        ("Fig.", 2, "absolute and relative error of Randomized and RR-Independent, p = 0.7", ["run_figure3"]),
        ("Fig.", 3, "relative error of the methods against the coverage sigma, p = 0.1 to 0.7",
         ["run_figure3"]),
    ])
    + _items("new-directions", [
        ("Alg.", 1, "reverse mapping of an anonymized attribute onto the original values",
         ["reverse_map", "reverse_map_frame"]),
        ("Alg.", 2, "permutation distance of an original record", ["permutation_distances"]),
        ("Def.", 1, "(d, v)-permuted privacy with respect to a record",
         ["permuted_privacy", "window_variances", "subject_check"]),
        ("Def.", 2, "(d, v)-permuted privacy of a data set", ["permuted_privacy"]),
        ("Def.", 3, "known-plaintext attack: the maximum-knowledge intruder", ["record_linkage"]),
        ("Def.", 4, "anonymization transparent to the data user",
         "a property of how a method is published (everything but the random seeds), not a quantity"),
        ("Table", 1, "running example: original X, masked Y, reverse-mapped Z and ranks",
         ["domingo_muralidhar_example"]),
        ("Table", 2, "running example: masking as permutation plus small noise", ["residual_noise"]),
        ("Table", 3, "permutation distance of the third original record", ["permutation_distances"]),
        ("Table", 4, "minimum permutation distances, closest records and attribute variances",
         ["permuted_privacy"]),
        ("Table", 5, "record linkages computed by the intruder", ["record_linkage"]),
        ("Table", 6, "distributions of the match distance: original and random records",
         ["random_match_distances", "linkage_verification"]),
        ("Table", 7, "the same distributions for 1000 records and very small noise", ["linkage_verification"]),
        ("Fig.", 1, "Table 6's distributions as a figure", ["linkage_verification"]),
        ("Fig.", 2, "the distributions for 1000 records anonymized with the running example's noise",
         ["linkage_verification"]),
        ("Fig.", 3, "the distributions for 1000 records and very small noise (Table 7)", ["linkage_verification"]),
    ])
)

_BY_KEY = {item_.key: item_ for item_ in ITEMS}
_CITATIONS = {paper_.short: key for key, paper_ in PAPERS.items()}
_ENTRY = re.compile(r"(?P<cite>.+?\(\d{4}\)), (?P<kind>" + "|".join(re.escape(k) for k in KINDS)
                    + r") (?P<number>\d+)")


def item(paper: str, kind: str, number: int) -> PaperItem:
    """The item ``kind number`` of ``paper`` (a key of :data:`explorer.references.PAPERS`)."""
    try:
        return _BY_KEY[(paper, kind, number)]
    except KeyError:
        raise ValueError(f"no item {kind} {number} in paper {paper!r} (see explorer.paper_items.ITEMS)") from None


def parse_marker(docstring: str | None) -> list[tuple[str, str, int]]:
    """The items a docstring's ``Computes:`` paragraph names, as ``(paper, kind, number)``.

    An empty list when the docstring has no marker.  A marker entry that names no paper (for example a bare
    "Alg. 1"), a kind not in :data:`KINDS` or a paper not in :data:`explorer.references.PAPERS` raises
    ``ValueError``; so does an item that is not in :data:`ITEMS`.

    >>> parse_marker("Computes: Alg. 1.")
    Traceback (most recent call last):
    ...
    ValueError: marker entry 'Alg. 1' is not '<Authors> (<year>), <kind> <number>'
    """
    lines = inspect.cleandoc(docstring or "").splitlines()
    found: list[tuple[str, str, int]] = []
    for start, line in enumerate(lines):
        if not line.strip().startswith(MARKER):
            continue
        paragraph = []
        for follow in lines[start:]:
            if not follow.strip():
                break
            paragraph.append(follow.strip())
        text = " ".join(paragraph)[len(MARKER):].strip().rstrip(".")
        for entry in (part.strip() for part in text.split(";")):
            match = _ENTRY.fullmatch(entry)
            if match is None:
                raise ValueError(f"marker entry {entry!r} is not '<Authors> (<year>), <kind> <number>'")
            if match["cite"] not in _CITATIONS:
                raise ValueError(f"marker entry {entry!r} cites no known paper; one of {sorted(_CITATIONS)}")
            key = (_CITATIONS[match["cite"]], match["kind"], int(match["number"]))
            item(*key)
            found.append(key)
    return found


def core_objects() -> dict[str, object]:
    """The public functions and classes of :mod:`explorer.core`, by qualified name, each where it is defined.

    Walks the package (every module and subpackage, importing them), so that a module that moves is
    found at its new place; an object a module only re-exports is listed once, under its defining module.
    """
    import explorer.core

    objects: dict[str, object] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)     # old paths that re-export, kept for a release
        for info in pkgutil.walk_packages(explorer.core.__path__, explorer.core.__name__ + "."):
            if any(part.startswith("_") for part in info.name.split(".")):
                continue
            module = importlib.import_module(info.name)
            for name, obj in vars(module).items():
                if name.startswith("_") or not (inspect.isfunction(obj) or inspect.isclass(obj)):
                    continue
                if getattr(obj, "__module__", None) == module.__name__:
                    objects[f"{module.__name__}.{obj.__qualname__}"] = obj
    return objects


def marked_objects() -> dict[str, list[tuple[str, str, int]]]:
    """For each object of :func:`core_objects` that has a marker, the items it names."""
    marked = {}
    for qualified, obj in core_objects().items():
        try:
            keys = parse_marker(obj.__doc__)
        except ValueError as error:
            raise ValueError(f"{qualified}: {error}") from None
        if keys:
            marked[qualified] = keys
    return marked


def paper_map() -> dict[PaperItem, list[str]]:
    """Every item of :data:`ITEMS` and the qualified names of the functions whose markers name it."""
    mapping: dict[PaperItem, list[str]] = {item_: [] for item_ in ITEMS}
    for qualified, keys in marked_objects().items():
        for key in keys:
            mapping[_BY_KEY[key]].append(qualified)
    return mapping


def problems() -> list[str]:
    """What keeps the docstrings' markers and :data:`ITEMS` from agreeing, in words (empty when they agree).

    Each item must be either computed, by exactly the objects its ``functions`` name (each of their
    docstrings names it in its marker, and no other docstring does), or not computed with a reason; every
    marker must name items of :data:`ITEMS` only, each qualified by its paper.
    """
    objects = core_objects()
    try:
        mapping = paper_map()
    except ValueError as error:
        return [str(error)]
    by_name: dict[str, list[str]] = {}
    for qualified, obj in objects.items():
        by_name.setdefault(obj.__qualname__, []).append(qualified)
    found = []
    for item_, qualified_names in mapping.items():
        if bool(item_.functions) == bool(item_.not_computed):
            found.append(f"{item_.label}: give either functions or the reason it is not computed, not "
                         f"{'both' if item_.functions else 'neither'}")
        for function in item_.functions:
            if len(by_name.get(function, [])) != 1:
                found.append(f"{item_.label}: {function!r} names {len(by_name.get(function, []))} public objects "
                             "of explorer.core, not one")
        marked = {objects[qualified].__qualname__ for qualified in qualified_names}
        for function in sorted(set(item_.functions) - marked):
            found.append(f"{item_.label}: the docstring of {function} has no marker '{MARKER} {item_.label}.'")
        for function in sorted(marked - set(item_.functions)):
            found.append(f"{item_.label}: {function}'s marker names it, but ITEMS does not list {function} for it")
    return found
