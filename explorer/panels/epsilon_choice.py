""""From what I need": the section of the "What does ε mean?" view that reads epsilon backwards.

Wiring only: the band comes from :func:`explorer.core.epsilon_choice.choose_epsilon`, the repeated-reports
curves from :func:`explorer.core.epsilon_choice.repeated_reports`, the pictures from
:mod:`explorer.plotting.epsilon_choice`.  The section belongs to an
:class:`~explorer.panels.epsilon_meaning.EpsilonMeaningPanel`: its controls and figures are that panel's
(declared with its :meth:`~explorer.panels.base.Panel.control`, registered with its
:meth:`~explorer.panels.base.Panel.add_figure`), and choosing a point of the band sets the shared epsilon.
"""

from __future__ import annotations

import math
from typing import Any

import ipywidgets as widgets
import pandas as pd

from explorer.core.epsilon_choice import SHORT, choice_summary_lines, choose_epsilon, repeated_reports
from explorer.errors import ExplorerError
from explorer.panels.figures import make_figure
from explorer.panels.status import escape
from explorer.plotting.epsilon_choice import plot_choice, plot_repeated_reports
from explorer.state import EPSILON_MAX, EPSILON_STEP

__all__ = ["ChoiceSection", "FIELDS", "PERIODS"]

#: The requirement fields: keyword of choose_epsilon -> the field's label.
FIELDS = {"max_odds": "Odds factor at most", "max_best_guess": "Best guess at most",
          "min_deniability": "Deniability at least (bits)", "max_cluster_guess": "Cluster guess at most",
          "max_error": "Error at most (per category)"}
#: The period the reports of one person are counted over, in words.
PERIODS = ("per day", "per week", "per month", "per year", "in all")
#: Figures of the section (key -> title).
FIGURES = {"choice": "From what I need: the epsilons each requirement allows and the feasible band",
           "repeated": "Repeated reports: the best guess after k reports, fresh randomization vs memoized"}
#: The section figure's margins (room for the requirements' labels on the left, a two-line title on top).
MARGINS = dict(left=0.16, right=0.985, bottom=0.15, top=0.83, wspace=0.22)
#: The most reports the repeated-reports figure runs over (it runs at least to the reports per person).
MAX_REPEATED = 365


class ChoiceSection:
    """The "From what I need" controls, text and two figures, wired into ``panel``."""

    def __init__(self, panel: Any):
        self.panel = panel
        self.fields = {}
        for key, label in FIELDS.items():
            field = widgets.Text(value="", placeholder="not asked", description=label,
                                 style={"description_width": "185px"}, layout=widgets.Layout(width="305px"),
                                 continuous_update=False)
            self.fields[key] = panel.control(f"need_{key}", field)
        self.k = panel.control("reports_per_person", widgets.BoundedIntText(
            value=1, min=1, max=1000, description="Reports per person", style={"description_width": "130px"},
            layout=widgets.Layout(width="210px")))
        self.period = panel.control("period", widgets.Dropdown(options=list(PERIODS), value="per day",
                                                               layout=widgets.Layout(width="110px")))
        self.period._explorer_name = "period of the reports per person"     # no visible label: it reads on
        self.use = widgets.Button(description="use ε from the band", icon="check", disabled=True,
                                  layout=widgets.Layout(width="auto"))
        self.lines = widgets.HTML(layout=widgets.Layout(width="100%"))
        self.figure, self.canvas = make_figure(11.0, 3.3)
        self.axes = self.figure.subplots(1, 2, width_ratios=[1.25, 1])
        # Fixed margins, not a constrained layout: a third of the cost of a redraw on every requirement typed.
        self.figure.set_layout_engine(None)
        self.figure.subplots_adjust(**MARGINS)
        self.choice = None
        self.artists = None
        self.repeated = None
        self.artists_drawn = False
        self.refresh()
        for ax, (key, title) in zip(self.axes, FIGURES.items()):
            panel.add_figure(key, title, self.figure, canvas=self.canvas, axes=ax,
                             describe=lambda key=key: self.describe(key), table=lambda key=key: self.table(key))
        for widget in (*self.fields.values(), self.k, self.period):
            widget.observe(self._on_inputs, names="value")
        self.use.on_click(lambda _: self.use_suggestion())
        self.figure.canvas.mpl_connect("button_press_event", self._on_click)
        heading = widgets.HTML(
            "<div style='max-width:1000px;line-height:1.4;margin-top:10px'><b>From what I need.</b> Type what "
            "you need (leave a field empty when you do not ask it): each privacy requirement caps ε, read as "
            "above at the combined ε of one person's reports; the accuracy requirement sets a floor, for the n "
            "reports above. The hatched band meets them all: pick a point of it (the button, or a click inside "
            "the band) and every tab follows.</div>")
        self.widget = widgets.VBox([
            heading,
            widgets.HBox(list(self.fields.values()), layout=widgets.Layout(flex_flow="row wrap")),
            widgets.HBox([self.k, self.period, self.use], layout=widgets.Layout(flex_flow="row wrap",
                                                                               align_items="center")),
            self.lines, self.canvas,
        ], layout=widgets.Layout(width="100%"))
        # Names a page (and the browser tests) can find the section's parts by.
        self.widget.add_class("explorer-eps-choice")
        for key, field in self.fields.items():
            field.add_class(f"explorer-need-{key.replace('_', '-')}")
        self.k.add_class("explorer-need-reports")
        self.use.add_class("explorer-eps-choice-use")
        self.lines.add_class("explorer-eps-choice-lines")
        self.canvas.add_class("explorer-eps-choice-canvas")

    # ------------------------------------------------------------------ inputs and drawing
    def requirements(self) -> dict[str, str]:
        """The requirements asked, as typed (empty fields left out)."""
        return {key: field.value.strip()[:40] for key, field in self.fields.items() if field.value.strip()}

    def refresh(self) -> None:
        """Recompute the band for the panel's reading and the shared epsilon, and redraw (errors raise)."""
        reading = self.panel.reading
        asked = self.requirements()
        try:
            choice = choose_epsilon(reading.prior, reading.n, **asked, confidence=1 - reading.alpha,
                                    reports_per_person=self.k.value)
        except ExplorerError as error:
            name = next((key for key in FIELDS if str(error).startswith(key)), None)
            raise type(error)(f"{FIELDS[name]}: {error}" if name else str(error)) from None
        self.choice = choice
        epsilon = reading.epsilon
        self.figure.subplots_adjust(**MARGINS)  # again: fitting the figure to its column may have laid it out
        self.artists = plot_choice(self.axes[0], choice, epsilon)
        bound = choice.bound("max_best_guess").value if "max_best_guess" in asked else None
        reports = repeated_reports(reading.prior, epsilon)
        if self.k.value > reports.reports.size:
            reports = repeated_reports(reading.prior, epsilon, min(self.k.value, MAX_REPEATED))
        self.repeated = plot_repeated_reports(self.axes[1], reports, bound, per_person=self.k.value,
                                              period=self.period.value)
        if self.artists_drawn:
            self.canvas.draw()              # render and send the frame now: no round trip through the browser
        else:
            self.canvas.draw_idle()         # the first frame: sent when the browser asks for it
            self.artists_drawn = True
        suggestion = choice.suggestion(EPSILON_MAX, EPSILON_STEP)
        self.use.disabled = suggestion is None or not asked
        self.use.description = (f"use ε = {suggestion:g}" if suggestion is not None and asked
                                else "use ε from the band")
        period = self.period.value
        lines = choice_summary_lines(choice, period)
        if choice.feasible and choice.low > EPSILON_MAX:
            lines.append(f"The band lies above ε = {EPSILON_MAX:g}, the largest ε the tabs take.")
        self.lines.value = ("<ul style='margin:4px 0;line-height:1.45;max-width:1050px'>"
                            + "".join(f"<li>{escape(line)}</li>" for line in lines) + "</ul>")

    def _on_inputs(self, change: Any = None) -> None:
        if self.panel.is_busy:
            return
        try:
            self.refresh()
        except ExplorerError as error:
            self.panel.status.error(f"{error} (the last valid band is kept)")
        else:
            self.panel.status.info(self._status())

    def _status(self) -> str:
        choice = self.choice
        if not choice.bounds:
            return "No requirement asked: every ε is allowed."
        if choice.feasible:
            binding = f", set by the {SHORT[choice.high_by]}" if choice.high_by else ""
            return f"Feasible band {choice.low:.3g} ≤ ε ≤ {choice.high:.3g}{binding}."
        return "No ε meets every requirement: " + choice.reasons[0]

    def use_suggestion(self) -> None:
        """Set the shared epsilon to the band's suggested point (every tab follows)."""
        value = None if self.choice is None else self.choice.suggestion(EPSILON_MAX, EPSILON_STEP)
        if value is None:
            self.panel.status.error("No ε meets every requirement within the tabs' range: nothing to use.")
            return
        self.panel.state.epsilon = value
        self.panel.status.info(f"ε = {value:g} from the band: every tab now shows it.")

    def choose(self, epsilon: float) -> bool:
        """Set the shared epsilon to ``epsilon`` if it lies in the band (a click on it); returns whether it did.

        The point is rounded to the sliders' step (:data:`~explorer.state.EPSILON_STEP`) when that stays in the
        band, else to 0.01.
        """
        choice = self.choice
        value = round(float(epsilon), 2)
        on_grid = float(f"{round(value / EPSILON_STEP) * EPSILON_STEP:.10g}")    # the sliders' step, when in the band
        if choice is not None and choice.feasible and choice.low <= on_grid <= min(choice.high, EPSILON_MAX):
            value = on_grid
        if choice is None or not choice.feasible or not choice.low <= value <= min(choice.high, EPSILON_MAX):
            self.panel.status.error(f"ε = {value:g} is outside the feasible band: click inside the hatched band.")
            return False
        self.panel.state.epsilon = value
        self.panel.status.info(f"ε = {value:g} from the band: every tab now shows it.")
        return True

    def _on_click(self, event: Any) -> None:
        if event.inaxes is self.axes[0] and event.xdata is not None:
            try:
                self.choose(event.xdata)
            except ExplorerError as error:
                self.panel.status.error(str(error))

    # ------------------------------------------------------------------ the figures in words and numbers
    def table(self, key: str) -> pd.DataFrame:
        """The numbers figure ``key`` draws: the rows of the requirements, or the curves of repeated reports."""
        if key == "choice":
            rows = [{"requirement": row["label"], "ε from": row["start"], "ε to": row["end"],
                     "can be met": row["feasible"]} for row in self.artists.rows]
            low, high = self.artists.band if self.artists.band else (math.nan, math.nan)
            rows.append({"requirement": "feasible band", "ε from": low, "ε to": high,
                         "can be met": self.artists.band is not None})
            return pd.DataFrame(rows).set_index("requirement")
        rep = self.repeated
        k = rep.fresh.get_xdata()
        return pd.DataFrame({"fresh each time": rep.fresh.get_ydata(), "memoized": rep.memoized.get_ydata(),
                             "no report": rep.prior.get_ydata()},
                            index=pd.Index(k, name="k reports"))

    def describe(self, key: str) -> str:
        """What figure ``key`` shows now, in words, from the numbers of :meth:`table`."""
        table = self.table(key)
        if key == "choice":
            if len(table) == 1:
                current = (f"; the current ε, {self.artists.epsilon:g}, is dotted"
                           if self.artists.epsilon is not None else "")
                return (f"The ε axis from 0 to {EPSILON_MAX:g} with no requirement asked: every ε is "
                        f"allowed{current}.")
            parts = []
            for name, row in table.iloc[:-1].iterrows():
                if not row["can be met"]:
                    parts.append(f"{name}: no ε meets it")
                elif row["ε from"] == 0:
                    parts.append(f"{name}: ε up to {_eps(row['ε to'])}")
                else:
                    parts.append(f"{name}: ε from {_eps(row['ε from'])}")
            band = table.iloc[-1]
            end = (f"the feasible band, hatched, runs from {_eps(band['ε from'])} to {_eps(band['ε to'])}"
                   if band["can be met"] else "no ε meets every requirement")
            current = f"; the current ε, {self.artists.epsilon:g}, is dotted" if self.artists.epsilon is not None else ""
            return f"The ε axis, one row per requirement ({'; '.join(parts)}): {end}{current}."
        k = table.index
        first, last = table.iloc[0], table.iloc[-1]
        return (f"Line chart of the best guess of a true answer after k = {k[0]} to {k[-1]} reports of the same "
                f"answer at ε = {self.repeated.epsilon:g} each: randomized afresh each time it rises from "
                f"{first['fresh each time']:.3f} to {last['fresh each time']:.3f}; memoized randomized response "
                f"stays at {last['memoized']:.3f}; without any report it is {last['no report']:.3f}.")

    def code_lines(self) -> list[str]:
        """Lines of the panel's :meth:`code` that reproduce the section (after ``reading`` is made)."""
        choice = self.choice                 # the band shown (the last valid requirements, not a refused text)
        asked = "".join(f", {item.name}={item.value!r}" for item in choice.bounds)
        bound = next((item.value for item in choice.bounds if item.name == "max_best_guess"), None)
        steps = self.repeated.fresh.get_xdata().size
        return [
            "", "from explorer.core.epsilon_choice import choice_summary_lines, choose_epsilon, repeated_reports",
            "from explorer.plotting.epsilon_choice import plot_choice, plot_repeated_reports", "",
            f"choice = choose_epsilon(reading.prior, reading.n{asked}, confidence=1 - reading.alpha, "
            f"reports_per_person={choice.reports_per_person})",
            f"for line in choice_summary_lines(choice, {self.period.value!r}):",
            "    print(line)",
            "choice_figure = Figure(figsize=(11, 3.3))",
            "ax_choice, ax_repeated = choice_figure.subplots(1, 2, width_ratios=[1.25, 1])",
            f"choice_figure.subplots_adjust(**{MARGINS!r})",
            "plot_choice(ax_choice, choice, reading.epsilon)",
            f"plot_repeated_reports(ax_repeated, repeated_reports(reading.prior, reading.epsilon, {steps}), "
            f"{bound!r}, per_person={choice.reports_per_person}, period={self.period.value!r})",
            "choice_figure.savefig(\"epsilon-choice.png\")",
        ]


def _eps(value: float) -> str:
    return "∞" if math.isinf(value) else f"{value:.3g}"
