"""The landing view: what the explorer is for, where to start by who you are, and the papers.

Wiring only.  The app passes ``go(title)``, which opens a tab; without it (a notebook showing the landing
view alone) the buttons say where to go instead.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import ipywidgets as widgets

from explorer.panels.a11y import section_heading
from explorer.panels.base import Panel
from explorer.panels.status import escape
from explorer.references import papers_html

__all__ = ["LandingPanel", "PATHS", "INTRO_HTML"]

INTRO_HTML = """
<div class="explorer-landing-intro" style="max-width:980px;line-height:1.5">
<h2 style="margin:6px 0 4px 0">See what privacy models mean</h2>
<p style="font-size:1.05em;margin:0 0 6px 0">The explorer shows, live, what randomized response, differential
privacy, t-closeness and the permutation paradigm of anonymization protect and what they cost: move an
epsilon or a masking method and watch an intruder's best guess, a data collector's error and the risk of
re-identification change. Everything it computes comes from four papers, listed at the bottom of this
page; every tab reads the same data set and the same ε.</p>
</div>
"""

#: The three ways in: (who, what to do first, the tab that button opens, the button's words).
PATHS: tuple[tuple[str, str, str, str], ...] = (
    ("I am a student",
     "Follow the lessons in order: each asks a question, shows a live picture that answers it, and checks "
     "your understanding. About ten minutes each.",
     "Lessons", "Start the lessons"),
    ("I teach data privacy",
     "The lessons come with a lesson plan (order, time, the questions and their answers). Prepare a "
     "configuration in any tab, then share it with your class as a link (Configuration, under the tabs).",
     "Lessons", "Lesson plan and lessons"),
    ("I must choose an epsilon",
     "Read one ε through every model at once: the odds a report can move, the deniability left on your "
     "attribute, the t-closeness it implies, and what it costs in accuracy. Export a one-page summary.",
     "What does ε mean?", "What does ε mean?"),
)


def _papers_key() -> str:
    return ("<div style='max-width:980px;line-height:1.45'>"
            + section_heading("The papers, as the explorer cites them", margin="10px 0 4px 0")
            + papers_html(keyed=True) + "</div>")


class LandingPanel(Panel):
    """The app's first tab: two sentences, three paths by who you are, the tabs, and the papers.

    It has no controls to configure and no figure; :meth:`code` lists the papers it cites.
    """

    def __init__(self, go: Callable[[str], None] | None = None, *, tabs: Sequence[str] = (), state: Any = None):
        super().__init__(state)
        self._go = go
        self.buttons: dict[str, widgets.Button] = {}
        cards = []
        for who, what, target, label in PATHS:
            button = widgets.Button(description=label, button_style="primary",
                                    layout=widgets.Layout(width="auto", min_width="220px"))
            button.on_click(lambda _, target=target: self.open(target))
            self.buttons[label] = button
            card = widgets.VBox(
                [widgets.HTML(f"<div style='line-height:1.45'>{section_heading(escape(who), margin='2px 0 4px 0')}"
                              f"<p style='margin:0'>{escape(what)}</p></div>"), button],
                layout=widgets.Layout(flex="1 1 280px", min_width="260px", max_width="420px", padding="8px 12px",
                                      border="1px solid #d0d7de", margin="4px", justify_content="space-between"))
            cards.append(card)
        tab_buttons = []
        for title in tabs:
            button = widgets.Button(description=title, layout=widgets.Layout(width="auto"))
            button.on_click(lambda _, title=title: self.open(title))
            self.buttons[title] = button
            tab_buttons.append(button)
        explore = widgets.VBox([
            widgets.HTML(section_heading("Or open a model directly", margin="10px 0 2px 0") +
                         "<div style='color:#555'>Start in <b>Data</b> to pick a data set (UCI Adult, the "
                         "papers' running examples, or your own CSV) and mark the sensitive attribute; the "
                         "other tabs follow it.</div>"),
            widgets.HBox(tab_buttons, layout=widgets.Layout(flex_flow="row wrap")),
        ]) if tab_buttons else widgets.HTML("")
        self.widget = widgets.VBox([
            widgets.HTML(INTRO_HTML),
            widgets.HBox(cards, layout=widgets.Layout(flex_flow="row wrap", width="100%")),
            explore,
            widgets.HTML(_papers_key()),
            self.status.widget,
        ], layout=widgets.Layout(width="100%"))
        self.widget.add_class("explorer-landing")

    def open(self, title: str) -> None:
        """Open the tab ``title`` (or say where it is, when shown outside the app)."""
        if self._go is None:
            self.status.info(f"Open the tab '{title}' of the app.")
            return
        self._go(title)

    def code(self) -> str:
        """The papers this view lists, from Python (:mod:`explorer.references`)."""
        return ("from explorer.references import PAPERS\n\n"
                "for paper in PAPERS.values():          # cited as authors (year) everywhere in the explorer\n"
                "    print(f\"{paper.short}: {paper.full}\")\n")
