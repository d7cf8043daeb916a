"""Published releases: pick a real deployment and read its ε through every model that applies to it.

Wiring only: the table and every number come from :mod:`explorer.core.releases` (:func:`releases`,
:func:`read_release`, :func:`belief_curves`), the picture from :mod:`explorer.plotting.releases`.  The section
stands alone (a lesson shows it) and the "What does ε mean?" view embeds it, reading local releases on that
view's attribute.  "Use this ε" sets the shared ε, re-checked by the state; an ε beyond the shared slider's
range is said in words and never clamped.
"""

from __future__ import annotations

from typing import Any, Callable

import ipywidgets as widgets
import numpy as np
import pandas as pd

from explorer.core.releases import belief_curves, belief_text, read_release, release_label, releases
from explorer.errors import ExplorerError
from explorer.panels.base import Panel, on_change
from explorer.panels.figures import make_figure
from explorer.panels.status import escape, guarded
from explorer.plotting.releases import plot_release_beliefs
from explorer.state import EPSILON_MAX, EPSILON_MIN, EPSILON_STEP, AppState, check_shared_epsilon

__all__ = ["ReleasesPanel", "HEADINGS"]

#: The headings of the reading's sentences, in the order shown.
HEADINGS = {"release": "The release", "conversion": "Conversion", "odds": "Odds bound (any ε-DP release)",
            "period": "Over time", "deniability": "Randomized response: deniability",
            "accuracy": "Randomized response: accuracy", "local models": "Randomized response",
            "source": "Source"}
#: Where a belief is read for the figure's description: an intruder at 50:50.
EVEN = 0.5


def _eps(value: float) -> str:
    return f"{value:.4f}".rstrip("0").rstrip(".")


class ReleasesPanel(Panel):
    """Pick a published release; read it in words through each model; use its ε.

    Its configuration (:meth:`~explorer.panels.base.Panel.config`) is ``release`` (a key of
    :func:`~explorer.core.releases.releases`) and ``periods`` (how many days or months of a renewing budget
    are composed).  One figure, ``beliefs``: the highest belief an intruder can reach after the release
    against his belief before it.

    Parameters
    ----------
    state : AppState, optional
        The shared state ("use this ε" sets its epsilon).
    release : str, optional
        The release shown first (a key, name or "organisation: name").
    periods : int, optional
        The number of periods read (default 7 for daily budgets).
    attribute_source : callable, optional
        ``attribute_source() -> (prior, labels, name)`` or None: the attribute a local release is read on
        (the "What does ε mean?" view passes its own); by default five equally likely values.
    """

    def __init__(self, state: AppState | None = None, *, release: str | None = None, periods: int | None = None,
                 attribute_source: Callable[[], Any] | None = None):
        super().__init__(state)
        self.releases_table = releases()
        self._attribute_source = attribute_source
        options = [(release_label(row), row["key"]) for _, row in self.releases_table.iterrows()]
        first = self.releases_table["key"].iloc[0] if release is None else read_release(release).release["key"]
        self.release = self.control("release", widgets.Dropdown(
            options=options, value=first, description="Release", layout=widgets.Layout(width="520px")))
        self.periods = self.control("periods", widgets.BoundedIntText(
            value=periods or 7, min=1, max=3650, description="Periods k",
            layout=widgets.Layout(width="190px")))
        self.use_button = widgets.Button(description="use this ε", icon="arrow-up",
                                         tooltip="set the shared ε of every tab to this release's ε",
                                         layout=widgets.Layout(width="auto"))
        self.lines = widgets.HTML(layout=widgets.Layout(width="100%"))
        self.link = widgets.HTML()
        self.reading = None
        self.figure, self.canvas = make_figure(6.0, 3.4)
        self.artists = None
        self._recompute()
        self.add_figure("beliefs", "How far the release can move an intruder's belief about one person",
                        self.figure, canvas=self.canvas, describe=self._describe, table=self._table)
        self.release.observe(self._on_inputs, names="value")
        self.periods.observe(self._on_inputs, names="value")
        self.use_button.on_click(lambda _: self.use_epsilon())
        intro = widgets.HTML(
            "<div style='max-width:1000px;line-height:1.4'><b>Published releases.</b> Real deployments whose ε "
            "is published, with their privacy unit, period and model, read through every model that applies: "
            "the odds bound for any ε-DP release, deniability and accuracy for local ones, and what the budget "
            "becomes over a period.</div>")
        self.widget = widgets.VBox([
            intro,
            widgets.HBox([self.release, self.periods, self.use_button],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
            self.lines, self.link, self.canvas, self.status.widget,
        ], layout=widgets.Layout(width="100%"))
        for widget, name in ((self.widget, "explorer-releases"), (self.release, "explorer-releases-release"),
                             (self.periods, "explorer-releases-periods"), (self.use_button, "explorer-releases-use"),
                             (self.lines, "explorer-releases-lines")):
            widget.add_class(name)

    # ------------------------------------------------------------------ compute and draw
    def caption_source(self) -> str | None:
        """The publication the chosen release was taken from (its figure's caption cites it)."""
        reading = getattr(self, "reading", None)
        return None if reading is None else str(reading.release["source"])

    def _attribute(self) -> dict[str, Any]:
        if self._attribute_source is None:
            return {}
        source = self._attribute_source()
        if source is None:
            return {}
        prior, labels, name = source
        return {"prior": np.asarray(prior, dtype=float), "labels": list(labels), "attribute": str(name)}

    def _read(self):
        release = self.release.value
        if release not in set(self.releases_table["key"]):
            raise ExplorerError(f"release must be one of the table's releases, got {str(release)[:60]!r}")
        return read_release(release, periods=int(self.periods.value), **self._attribute())

    def _labels(self, reading) -> tuple[str, str | None]:
        renews = reading.release["renews"]
        one = f"one {renews}, ε = {_eps(reading.epsilon)}" if renews else f"the release, ε = {_eps(reading.epsilon)}"
        if reading.composed_epsilon is None:
            return one, None
        return one, f"{reading.periods} {renews}s, ε ≤ {_eps(reading.composed_epsilon)}"

    def _recompute(self) -> None:
        reading = self._read()
        self.reading = reading
        self.lines.value = "<ul style='margin:4px 0;line-height:1.45;max-width:1050px'>" + "".join(
            f"<li><b>{escape(HEADINGS[key])}.</b> {escape(text)}</li>" for key, text in reading.lines.items()) + "</ul>"
        row = reading.release
        self.link.value = (f"<a href='{escape(row['address'])}' target='_blank' rel='noopener'>Read the source: "
                           f"{escape(row['source'])}</a>")
        self.periods.disabled = not row["renews"]
        one, composed = self._labels(reading)
        title = f"{reading.label} (per {row['unit']})"
        if self.artists is None:
            self.artists = plot_release_beliefs(self.figure.add_subplot(), belief_curves(reading), one, composed,
                                                title)
        else:
            self.artists.update(belief_curves(reading), one, composed, title)
        self.canvas.draw_idle()
        self.status.info(f"Showing {reading.label}: ε = {_eps(reading.epsilon)} per {row['unit']}, {row['model']} "
                         "model.")

    @on_change
    def _on_inputs(self, change: Any = None) -> None:
        self.refresh()

    @on_change
    def follow(self, change: Any = None) -> None:
        """Observer for a view that embeds this one: its attribute (or data set) changed, read again."""
        self.refresh()

    def refresh(self) -> None:
        """Read the release again from the controls (and the embedding view's attribute), and redraw."""
        self._recompute()

    @guarded
    def use_epsilon(self) -> None:
        """Set the shared ε to the release's ε (the pure-ε part), re-checked by the state; never clamped.

        An ε beyond the shared range is refused in words and the shared ε stays.  An ε between two steps of the
        shared slider (:data:`~explorer.state.EPSILON_STEP`) is set to the nearest step, and the status says so
        (the slider in the browser would round it anyway).
        """
        reading = self.reading if self.reading is not None else self._read()
        epsilon = float(reading.epsilon)
        if not EPSILON_MIN <= epsilon <= EPSILON_MAX:
            self.status.error(
                f"{reading.label} has ε = {_eps(epsilon)}, beyond the range of the shared ε ({EPSILON_MIN:g} to "
                f"{EPSILON_MAX:g}) that every tab draws: the shared ε stays at {self.state.epsilon:g}. The reading "
                f"above is for ε = {_eps(epsilon)}.")
            return
        # The shared slider moves in steps of EPSILON_STEP and would round any other value itself: round here, say so.
        stepped = round(round(epsilon / EPSILON_STEP) * EPSILON_STEP, 10)
        self.state.epsilon = check_shared_epsilon(stepped)
        if stepped == epsilon:
            self.status.info(f"The shared ε is now {self.state.epsilon:g}, {reading.label}'s ε: every tab reads it.")
        else:
            self.status.info(
                f"The shared ε is now {self.state.epsilon:g}, the step of the shared slider (steps of "
                f"{EPSILON_STEP:g}) nearest to {reading.label}'s ε = {_eps(epsilon)}: every tab reads it. The reading "
                f"above stays at ε = {_eps(epsilon)}.")

    # ------------------------------------------------------------------ the figure in words and numbers
    def _table(self) -> pd.DataFrame:
        """The curves as drawn: the belief before, the highest belief after one release (and after k periods)."""
        curves, labels = self.artists.curves(), self.artists.labels()
        table = pd.DataFrame({f"after {labels['one release']}": curves["one release"]},
                             index=pd.Index(curves["before"], name="belief before"))
        if "composed" in curves:
            table[f"after {labels['composed']}"] = curves["composed"]
        return table

    def _describe(self) -> str:
        """What the figure shows now, from the curves drawn (read at a belief of 0.5 before)."""
        table = self._table()
        at = int(np.argmin(np.abs(table.index.to_numpy() - EVEN)))
        before = table.index[at]
        parts = [f"{column} at most {belief_text(value)}" for column, value in table.iloc[at].items()]
        row = self.reading.release
        return (f"Line chart for {self.reading.label}: the highest belief an intruder can reach about one "
                f"{row['unit']} against his belief before the release, from {table.index[0]:.3f} to "
                f"{table.index[-1]:.3f}; the dashed diagonal is nothing learnt. From {before:.3g} before: "
                + "; ".join(parts) + ".")

    def code(self) -> str:
        """The Python snippet (:mod:`explorer.core`, :mod:`explorer.plotting`) that reproduces the view now."""
        reading = self.reading
        key = reading.release["key"]
        extra = ""
        attribute = self._attribute()
        if attribute and reading.local:
            prior = [float(x) for x in attribute["prior"]]
            extra = f", {prior!r}, labels={attribute['labels']!r}, attribute={attribute['attribute']!r}"
        one, composed = self._labels(reading)
        return ("from matplotlib.figure import Figure\n\n"
                "from explorer.core.releases import belief_curves, read_release\n"
                "from explorer.plotting.releases import plot_release_beliefs\n\n"
                f"reading = read_release({key!r}{extra}, periods={int(self.periods.value)})\n"
                "for line in reading.lines.values():\n"
                "    print(line)\n"
                "figure = Figure(figsize=(6, 3.4), layout=\"constrained\")\n"
                f"plot_release_beliefs(figure.add_subplot(), belief_curves(reading), {one!r}, {composed!r})\n"
                "figure.savefig(\"release.png\")\n")
