"""The four papers the explorer implements, as one key used everywhere a user reads a citation.

The app, the notebooks, the plots and the documentation cite a paper by its authors and year
(:func:`cite`, for example "Domingo-Ferrer and Soria-Comas (2018)") and list it in full with
:func:`full_citation` or :func:`papers_html`.  Nothing a user reads uses any other code for a paper.

>>> cite("rr-dp")
'Domingo-Ferrer and Soria-Comas (2018)'
>>> cite("permutation-paradigm", section="Prop. 5")
'Ruiz (2018), Prop. 5'
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from urllib.parse import quote_plus

__all__ = ["Paper", "PAPERS", "cite", "full_citation", "paper", "papers_html"]


@dataclass(frozen=True)
class Paper:
    """One paper: a short key, the authors, title, venue and year."""

    key: str
    authors: str
    short_authors: str
    title: str
    venue: str
    year: int
    topics: str

    @property
    def short(self) -> str:
        """Authors and year, the form used inline: ``Ruiz (2018)``."""
        return f"{self.short_authors} ({self.year})"

    @property
    def full(self) -> str:
        """Authors, title, venue and year."""
        return f'{self.authors}, "{self.title}", {self.venue}, {self.year}.'

    @property
    def link(self) -> str:
        """A search link for the title (the explorer never downloads anything itself)."""
        return "https://scholar.google.com/scholar?q=" + quote_plus(f'"{self.title}"')


PAPERS: dict[str, Paper] = {
    paper_.key: paper_
    for paper_ in (
        Paper(
            key="rr-dp",
            authors="J. Domingo-Ferrer and J. Soria-Comas",
            short_authors="Domingo-Ferrer and Soria-Comas",
            title=("Connecting randomized response, post-randomization, differential privacy and "
                   "t-closeness via deniability and permutation"),
            venue="arXiv preprint",
            year=2018,
            topics=("randomized response and PRAM, deniability, epsilon of a matrix, t-closeness and "
                    "differential privacy, reverse mapping"),
        ),
        Paper(
            key="permutation-paradigm",
            authors="N. Ruiz",
            short_authors="Ruiz",
            title=("On some consequences of the permutation paradigm for data anonymization: centrality "
                   "of permutation matrices, universal measures of disclosure risk and information loss, "
                   "evaluation by dominance"),
            venue="Information Sciences",
            year=2018,
            topics="permutation matrices, rank displacements, D(alpha) and I(theta), dominance",
        ),
        Paper(
            key="multidim-rr",
            authors="J. Domingo-Ferrer and J. Soria-Comas",
            short_authors="Domingo-Ferrer and Soria-Comas",
            title="Multi-dimensional randomized response",
            venue="IEEE Transactions on Knowledge and Data Engineering",
            year=2022,
            topics="RR-Independent, RR-Joint, RR-Clusters, RR-Adjustment, error bounds",
        ),
        Paper(
            key="new-directions",
            authors="J. Domingo-Ferrer and K. Muralidhar",
            short_authors="Domingo-Ferrer and Muralidhar",
            title=("New directions in anonymization: permutation paradigm, verifiability by subjects "
                   "and intruders, transparency to users"),
            venue="Information Sciences 337-338:11-24",
            year=2016,
            topics="reverse mapping, (d,v)-permuted privacy, permutation distance, maximum-knowledge intruder",
        ),
    )
}


def paper(key: str) -> Paper:
    """The paper of ``key`` (one of :data:`PAPERS`)."""
    try:
        return PAPERS[key]
    except KeyError:
        raise ValueError(f"key must be one of {sorted(PAPERS)}, got {key!r}") from None


def cite(key: str, section: str | None = None) -> str:
    """Inline citation: authors and year, optionally followed by a section ("Example 3")."""
    text = paper(key).short
    # Two papers share authors and differ by year; the year disambiguates them.
    return f"{text}, {section}" if section else text


def full_citation(key: str) -> str:
    """The full citation of ``key``: authors, title, venue, year."""
    return paper(key).full


def papers_html(*, keyed: bool = False) -> str:
    """The four papers as an HTML list (escaped), for the landing view and About.

    ``keyed=True`` puts each paper's inline citation first ("Ruiz (2018): N. Ruiz, ..."), as a key to the
    citations the rest of the app uses.
    """
    items = "".join(
        "<li>" + (f"<b>{html.escape(p.short)}</b>: " if keyed else "")
        + f"{html.escape(p.authors)}, <a href=\"{html.escape(p.link)}\" target=\"_blank\" "
        f"rel=\"noopener\"><i>{html.escape(p.title)}</i></a>, {html.escape(p.venue)}, {p.year}. "
        + (f"<span style='color:#555'>({html.escape(p.topics)})</span></li>" if keyed
           else f"<small>({html.escape(p.topics)})</small></li>")
        for p in PAPERS.values()
    )
    return f"<ul style='margin:0'>{items}</ul>" if keyed else f"<ol>{items}</ol>"
