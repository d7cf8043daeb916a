"""Controls that are views of the shared state (:class:`explorer.state.AppState`).

A control that shows a shared value (the one epsilon) holds no value of its own: it writes through the
state's check and follows the state.  :func:`state_view` makes any control such a view;
:func:`epsilon_slider` is the epsilon slider every tab shows.
"""

from __future__ import annotations

import math
import re
from typing import Any, Callable

import ipywidgets as widgets
import traitlets

from explorer.errors import ExplorerError, InvalidParameterError
from explorer.panels._format import format_value
from explorer.panels.status import StatusLine
from explorer.state import EPSILON_MAX, EPSILON_MIN, EPSILON_STEP, AppState, check_shared_epsilon

__all__ = ["RangedFloatText", "RangedIntText", "epsilon_slider", "epsilon_text", "epsilon_words", "parse_typed_epsilon", "state_view",
           "typed_epsilon", "outside_range_words", "not_a_number_words"]


def state_view(widget: widgets.ValueWidget, state: AppState, trait: str, status: StatusLine, *,
               write: Callable[[Any], Any] | None = None) -> widgets.ValueWidget:
    """Make ``widget`` a view of the state's ``trait``: it shows the state's value and writes through its check.

    A value the state refuses (:class:`~explorer.errors.ExplorerError`) is said in words on ``status`` and the
    control goes back to the state's value; a change of the state (another tab, a loaded configuration) moves
    the control.  ``widget._explorer_unlink()`` stops following the state (a closed panel).

    Parameters
    ----------
    widget : ipywidgets.ValueWidget
        The control; its value is set to the state's now.
    state : AppState
        The shared state.
    trait : str
        The trait of ``state`` the control shows, e.g. ``"epsilon"``.
    status : StatusLine
        Where a refused value is said.
    write : callable, optional
        ``write(value)``: how a value of the control reaches the state, when setting the trait is not enough
        (the Data tab's data set: :meth:`~explorer.state.AppState.select_dataset` loads the data set with its
        name).  By default the trait is set.

    Returns
    -------
    ipywidgets.ValueWidget
        ``widget``, linked.

    Examples
    --------
    >>> from explorer.panels.status import StatusLine
    >>> state = AppState()
    >>> box = state_view(widgets.FloatText(), state, "epsilon", StatusLine())
    >>> state.epsilon = 2.5; box.value
    2.5
    >>> box.value = -1.0; state.epsilon, box.value      # refused by the state: the control goes back
    (2.5, 2.5)
    """
    if not state.has_trait(trait):
        raise InvalidParameterError(f"trait must be a trait of the app state, got {trait!r}")
    widget.value = getattr(state, trait)

    def to_state(change: Any) -> None:
        if change["new"] == getattr(state, trait):
            return
        try:
            if write is None:
                setattr(state, trait, change["new"])
            else:
                write(change["new"])
        except ExplorerError as error:
            status.error(str(error))
            widget.value = getattr(state, trait)

    def from_state(change: Any) -> None:
        if widget.value != getattr(state, trait):
            widget.value = getattr(state, trait)

    widget.observe(to_state, names="value")
    state.observe(from_state, names=trait)
    widget._explorer_unlink = lambda: state.unobserve(from_state, names=trait)
    widget._explorer_state_trait = trait
    return widget


def epsilon_text(value: float) -> str:
    """The shared epsilon as typed text that reads back as the same number ("2", "1.81195489649449")."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def parse_typed_epsilon(typed: Any, current: float) -> float:
    """A typed ε, checked by the state's rule: the number, or InvalidParameterError saying why not and that
    ε keeps its last valid value ``current`` (a value out of range is refused, never clamped).

    >>> parse_typed_epsilon("2,5", 1.0)
    2.5
    >>> parse_typed_epsilon("120", 2.0)
    Traceback (most recent call last):
    ...
    explorer.errors.InvalidParameterError: typed epsilon must be <= 10 (the range every tab uses), got '120'; ε stays 2.
    """
    text = str(typed).strip().replace("−", "-")
    if text.count(",") == 1 and "." not in text:
        text = text.replace(",", ".")                    # a decimal comma
    try:
        return check_shared_epsilon(text, "typed epsilon")
    except ExplorerError as error:
        raise InvalidParameterError(f"{str(error).rstrip('.')}; ε stays {epsilon_text(current)}.") from None


def typed_epsilon(state: AppState, status: StatusLine, *, description: str = "typed ε",
                  width: str = "150px") -> widgets.Text:
    """A box to type ε in: a value out of range is refused in words and ε keeps its last valid value.

    It is a view of ``state.epsilon`` like the slider (never clamped: 120 is not taken as 10).
    """
    box = widgets.Text(value=epsilon_text(state.epsilon), description=description, continuous_update=False,
                       layout=widgets.Layout(width=width), style={"description_width": "initial"})
    box.add_class("explorer-epsilon-typed")

    def to_state(change: Any) -> None:
        if change["new"] == epsilon_text(state.epsilon):
            return
        try:
            value = parse_typed_epsilon(change["new"], state.epsilon)
            if value != state.epsilon:
                state.epsilon = value
        except ExplorerError as error:
            status.error(str(error))
        box.value = epsilon_text(state.epsilon)

    def from_state(change: Any) -> None:
        box.value = epsilon_text(state.epsilon)

    box.observe(to_state, names="value")
    state.observe(from_state, names="epsilon")
    box._explorer_unlink = lambda: state.unobserve(from_state, names="epsilon")
    return box


def epsilon_slider(state: AppState, status: StatusLine, *, description: str = "ε",
                   layout: widgets.Layout | None = None, style: dict | None = None,
                   typed: bool = True) -> widgets.FloatSlider:
    """A slider that is a view of ``state.epsilon`` (the same range in every tab), with a typed ε box.

    The slider writes through the state's check; a refused value shows its words on
    ``status`` and the slider goes back to the state's value (:func:`state_view`).  A value typed in its
    readout out of range (120) or not a number is refused in words on the panel's status line, as in every
    slider's readout (:mod:`explorer.panels.access`: the browser would clamp it to 10 without a word);
    ``slider.typed`` is a box to type ε in (:func:`typed_epsilon`, None with ``typed=False``) and
    ``slider.row`` the slider and the box side by side, what a tab lays out.
    """
    slider = widgets.FloatSlider(value=state.epsilon, min=EPSILON_MIN, max=EPSILON_MAX, step=EPSILON_STEP,
                                 description=description, continuous_update=False, readout_format=".2f",
                                 **({"layout": layout} if layout is not None else {}),
                                 **({"style": style} if style is not None else {}))
    slider.add_class("explorer-epsilon-slider")
    slider.typed = typed_epsilon(state, status) if typed else None
    slider.row = widgets.HBox([slider, *([slider.typed] if typed else [])],
                              layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
    slider._explorer_name = "ε, the privacy parameter" if description.strip() == "ε" else description
    slider._explorer_valuetext = epsilon_words      # aria-valuetext (explorer.panels.access; ipywidgets issue 2650)
    state_view(slider, state, "epsilon", status)
    if typed:
        unlink_slider, unlink_box = slider._explorer_unlink, slider.typed._explorer_unlink

        def unlink() -> None:
            unlink_slider()
            unlink_box()

        slider._explorer_unlink = unlink
    return slider


# --------------------------------------------------------------------------- number boxes that refuse in words
class _Ranged:
    """A number box whose range is checked in the kernel: a value outside ``[min, max]`` is refused in words.

    ipywidgets' bounded boxes clamp a typed 120 to their maximum in the browser, without a word, before
    the kernel sees it.  These boxes have no range in the browser; the kernel refuses a value out of range,
    says so on the panel's status line ("k: 0 is outside the range 1 to 10,000,000; it stays 50.",
    :func:`outside_range_words`, the words of a slider's refused typed value too) and
    the box goes back to its last valid value.  ``min`` and ``max`` are traits, so a panel can move them
    and a configuration is checked against them like a bounded box's.
    """

    #: guarded like ipywidgets' own controls (:func:`explorer.panels.browser.guard_widgets`): a browser message
    #: may set only the value, and a value out of range is refused in words there too
    _explorer_guardable = True

    def __init__(self, *, status: StatusLine | None = None, **kwargs: Any) -> None:
        self._status = status
        bounds = {key: kwargs.pop(key) for key in ("min", "max") if key in kwargs}
        super().__init__(**bounds)                 # the range first: the value is checked against it
        for key, value in kwargs.items():
            setattr(self, key, value)

    @traitlets.validate("value")
    def _valid_value(self, proposal: Any) -> Any:
        return self._refuse(proposal)

    def _refuse(self, proposal: Any) -> Any:
        value = proposal["value"]
        if self.min <= value <= self.max:
            return value
        name = re.sub(r"<[^>]+>", "", str(self.description or "the value")).strip() or "the value"
        if self._status is not None:
            self._status.error(outside_range_words(name, _number(value), self.min, self.max, _number(self.value)))
        return self.value


def _number(value: float) -> str:
    value = float(value)
    return f"{int(value):,}" if value.is_integer() else f"{value:,g}"


def outside_range_words(name: str, shown: str, low: float, high: float, kept: str) -> str:
    """The one sentence for a value refused because it lies outside its control's range (never clamped).

    Said by the number boxes that check their range (:class:`RangedIntText`) and for a value typed in a
    slider's readout (:mod:`explorer.panels.access`).  ``shown`` is the refused value as the message quotes
    it, ``kept`` the value the control keeps, as it shows it; the range is in the tables' number format
    (:func:`~explorer.panels._format.format_value`).

    Examples
    --------
    >>> outside_range_words("ε, the privacy parameter", "'120'", 0.0, 10.0, "1.00")
    "ε, the privacy parameter: '120' is outside the range 0 to 10; it stays 1.00."
    """
    return f"{name}: {shown} is outside the range {format_value(low)} to {format_value(high)}; it stays {kept}."


def not_a_number_words(name: str, shown: str, kept: str, *, pair: bool = False) -> str:
    """The sentence for a typed value that is not a number (``pair``: not two numbers, the lower first).

    Examples
    --------
    >>> not_a_number_words("p", "'abc'", "0.50")
    "p: 'abc' is not a number; it stays 0.50."
    >>> not_a_number_words("range", "'5 – 2'", "2.00 to 5.00", pair=True)
    "range: '5 – 2' is not two numbers, the lower first; it stays 2.00 to 5.00."
    """
    what = "two numbers, the lower first" if pair else "a number"
    return f"{name}: {shown} is not {what}; it stays {kept}."


class RangedIntText(_Ranged, widgets.IntText):
    """An integer box with a range the kernel checks (:class:`_Ranged`), in place of ``BoundedIntText``.

    >>> status = StatusLine()
    >>> box = RangedIntText(status=status, value=50, min=1, max=100, description="k")
    >>> box.value = 1000; box.value, status.message
    (50, 'k: 1,000 is outside the range 1 to 100; it stays 50.')
    """

    min = traitlets.Int(0)
    max = traitlets.Int(100)


class RangedFloatText(_Ranged, widgets.FloatText):
    """A decimal box with a range the kernel checks (:class:`_Ranged`), in place of ``BoundedFloatText``."""

    min = traitlets.Float(0.0)
    max = traitlets.Float(100.0)


def epsilon_words(epsilon: float) -> str:
    """The ε slider's value in words, as a screen reader says it: ε and the odds bound e^ε it sets.

    Examples
    --------
    >>> epsilon_words(1.0)
    'ε = 1.00, odds at most ×2.7'
    >>> epsilon_words(10.0)
    'ε = 10.00, odds at most ×22,026'
    """
    odds = math.exp(epsilon)
    bound = f"{odds:,.0f}" if odds >= 100 else f"{odds:.1f}"
    return f"ε = {epsilon:.2f}, odds at most ×{bound}"
