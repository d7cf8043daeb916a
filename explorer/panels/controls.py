"""Controls that are views of the shared state (:class:`explorer.state.AppState`).

A control that shows a shared value (the one epsilon) holds no value of its own: it writes through the
state's check and follows the state.  :func:`state_view` makes any control such a view;
:func:`epsilon_slider` is the epsilon slider every tab shows.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import ipywidgets as widgets

from explorer.errors import ExplorerError, InvalidParameterError
from explorer.panels.status import StatusLine
from explorer.state import EPSILON_MAX, EPSILON_MIN, EPSILON_STEP, AppState

__all__ = ["epsilon_slider", "epsilon_words", "state_view"]


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


def epsilon_slider(state: AppState, status: StatusLine, *, description: str = "ε",
                   layout: widgets.Layout | None = None, style: dict | None = None) -> widgets.FloatSlider:
    """A slider that is a view of ``state.epsilon`` (the same range in every tab).

    The slider writes through the state's check; a refused value shows its words on
    ``status`` and the slider goes back to the state's value (:func:`state_view`).
    """
    slider = widgets.FloatSlider(value=state.epsilon, min=EPSILON_MIN, max=EPSILON_MAX, step=EPSILON_STEP,
                                 description=description, continuous_update=False, readout_format=".2f",
                                 **({"layout": layout} if layout is not None else {}),
                                 **({"style": style} if style is not None else {}))
    slider._explorer_name = "ε, the privacy parameter" if description.strip() == "ε" else description
    slider._explorer_valuetext = epsilon_words      # aria-valuetext (explorer.panels.access; ipywidgets issue 2650)
    return state_view(slider, state, "epsilon", status)


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
