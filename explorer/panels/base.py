"""The contract of every panel: the :class:`Panel` base class.

A panel is a short file that wires controls to :mod:`explorer.core` and :mod:`explorer.plotting`.  It
derives from :class:`Panel` and gets, without writing them:

* **declared controls** (:meth:`Panel.control`): each control is declared once, with its configuration
  key, or as a view of a trait of the shared :class:`~explorer.state.AppState` (the epsilon slider is a
  view of ``state.epsilon``).  :meth:`Panel.config` and :meth:`Panel.apply_config` follow from the
  declaration: the values are JSON values, and a configuration is checked whole before anything is set
  (a value that is not one of the choices, or outside the range, is refused in words naming the key and
  the value, and every control keeps its value);
* **one re-entrancy guard**: ``with self.busy(): ...`` while the panel sets its own controls, and
  :attr:`Panel.is_busy`; observers decorated with :func:`on_change` do nothing meanwhile (as traitlets'
  ``link`` does with its ``_busy_updating``);
* **one "needs Compute" rule**: :meth:`Panel.needs_compute` is :func:`explorer.core.cost.needs_compute`
  (work above :data:`~explorer.core.cost.COMPUTE_BUTTON_SECONDS` on the reference machine waits for the
  Compute button; decided on the work, not on this machine's load);
* the **status line** (:attr:`Panel.status`), the **stale mark** (:attr:`Panel.stale`) and **one
  background task** (:attr:`Panel.task`, made when first asked for), and :func:`~explorer.panels.status.guarded`
  callbacks;
* **the figure hooks**: each figure is registered once (:meth:`Panel.add_figure`) with a text description
  and a data table made from the same numbers as the figure; :meth:`Panel.describe`, :meth:`Panel.table`
  and :meth:`Panel.export_figure` serve them (screen readers, the accessible data table, exports), and
  :meth:`Panel.code` gives the public-API snippet that reproduces the view.  A hook a panel has not written
  yet raises :class:`NotImplementedError` (never an empty text) and :meth:`Panel.missing_hooks` lists it.

``docs/developing.md`` ("Adding a panel") shows a complete panel file.
"""

from __future__ import annotations

import contextlib
import functools
import io
import math
import pickle
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterator

import ipywidgets as widgets
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from explorer.core import cost
from explorer.errors import ConfigurationError, InvalidParameterError
from explorer.panels.access import PanelAccess
from explorer.panels.controls import state_view
from explorer.panels.figures import close_tree
from explorer.panels.status import StaleMark, StatusLine, guarded
from explorer.panels.tasks import BackgroundTask
from explorer.state import AppState, shorten

__all__ = ["Panel", "Control", "FigureView", "on_change", "EXPORT_FORMATS", "MAX_TEXT"]

#: The formats :meth:`Panel.export_figure` writes.
EXPORT_FORMATS = ("png", "pdf", "svg")
#: The longest text a configuration may put into a text control (characters).
MAX_TEXT = 100_000

_MULTIPLE = (widgets.SelectMultiple, widgets.SelectionRangeSlider)


@dataclass(frozen=True)
class Control:
    """One declared control of a panel (made by :meth:`Panel.control`).

    Attributes
    ----------
    key : str
        Its configuration key (for a view of the state: the state's trait).
    widget : ipywidgets.ValueWidget
        The control.
    state : str or None
        The :class:`~explorer.state.AppState` trait the control is a view of (then the state holds the value,
        and the panel's configuration leaves it out), or None: the panel's own value.
    check : callable or None
        ``check(value) -> value``: a panel's own check of a configuration value, after the generic one (an
        :class:`~explorer.errors.ExplorerError` in words refuses it).
    """

    key: str
    widget: widgets.ValueWidget
    state: str | None = None
    check: Callable[[Any], Any] | None = None


@dataclass
class FigureView:
    """One figure of a panel, as a reader, a screen reader and an export see it.

    Attributes
    ----------
    key : str
        A short name, unique in the panel (``"deniability"``).
    title : str
        What the figure is, in words (the caption of an export, the heading of its data table).
    figure : matplotlib.figure.Figure
        The figure (drawn once, updated in place).
    canvas : ipywidgets.DOMWidget or None
        Its canvas widget in the panel's layout.
    axes : matplotlib.axes.Axes or None
        When several figures share one matplotlib Figure: the Axes that is this figure (an export is cut to it).
    describe : callable or None
        ``describe() -> str``: what the figure shows now, in words, from the same numbers as the figure.
    table : callable or None
        ``table() -> pandas.DataFrame``: the figure's numbers as a table, the same numbers the figure draws.
    access : FigureAccess or None
        Once the panel's widget is set: the canvas's text alternative, data tables and row of per-figure
        buttons (:class:`explorer.panels.access.FigureAccess`; ``access.row`` takes more buttons).
    """

    key: str
    title: str
    figure: Figure
    canvas: Any = None
    axes: Axes | None = None
    describe: Callable[[], str] | None = None
    table: Callable[[], pd.DataFrame] | None = None
    access: Any = None


def on_change(method: Callable) -> Callable:
    """Decorate a panel's observer: it does nothing while the panel is busy, and its errors go to the status line.

    While the panel sets its own controls (``with self.busy():``), the observers of those controls would
    come back into the panel once per control; decorated, they return at once, and the panel refreshes once
    at the end.  Errors are handled as by :func:`~explorer.panels.status.guarded`.
    """
    inner = guarded(method)

    @functools.wraps(method)
    def wrapper(self: "Panel", *args: Any, **kwargs: Any) -> Any:
        if self.is_busy:
            return None
        return inner(self, *args, **kwargs)

    return wrapper


_NO_MATCH = object()


def _match(value: Any, allowed: list[Any]) -> Any:
    """The choice of ``allowed`` that the JSON value ``value`` stands for, or ``_NO_MATCH``.

    Compared as JSON values (a choice ``(1, 2)`` is written ``[1, 2]``), and of the same kind (``true`` is
    not the choice ``1``).
    """
    wanted = _to_json(value)
    for choice in allowed:
        try:
            if _to_json(choice) == wanted and isinstance(choice, bool) == isinstance(value, bool):
                return choice
        except Exception:  # an exotic value that cannot be compared is not a choice
            continue
    return _NO_MATCH


def _choices(widget: widgets.Widget) -> list[Any]:
    """The values a selection control can take (its options, or the second items of ``(label, value)`` pairs)."""
    values = []
    for option in widget.options:
        values.append(option[1] if isinstance(option, tuple) and len(option) == 2 else option)
    return values


def _to_json(value: Any) -> Any:
    """A control's value as a JSON value (tuples become lists, numpy numbers Python numbers)."""
    if isinstance(value, (tuple, list)):
        return [_to_json(v) for v in value]
    if hasattr(value, "item") and callable(value.item):      # a numpy scalar
        return value.item()
    return value


def _number(key: str, value: Any, *, integer: bool) -> int | float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConfigurationError(f"{key} must be a number, got {shorten(value)}")
    if not math.isfinite(value):
        raise ConfigurationError(f"{key} must be a finite number, got {shorten(value)}")
    if integer:
        if float(value) != int(value):
            raise ConfigurationError(f"{key} must be a whole number, got {shorten(value)}")
        return int(value)
    return float(value)


def _bound(number: float) -> str:
    """A control's bound as a reader writes it: 1,000,000 and 0.05, not 1e+06."""
    return f"{int(number):,}" if float(number).is_integer() else f"{number:g}"


def _in_range(key: str, widget: widgets.Widget, value: float) -> None:
    if widget.has_trait("min") and widget.has_trait("max") and not widget.min <= value <= widget.max:
        raise ConfigurationError(f"{key} must be between {_bound(widget.min)} and {_bound(widget.max)}, "
                                 f"got {shorten(value)}")


def _caption_value(widget: widgets.Widget) -> str:
    """A control's value as a reader of a caption sees it (a choice's label, a number as typed)."""
    value = widget.value
    if widget.has_trait("label") and isinstance(getattr(widget, "label", None), str) and widget.label:
        return widget.label
    if widget.has_trait("label") and isinstance(getattr(widget, "label", None), tuple):
        return ", ".join(str(item) for item in widget.label)
    return _words(value)


def _words(value: Any) -> str:
    """A value in a caption: numbers to 4 significant digits, lists in brackets, long texts cut."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, (tuple, list)):
        inner = ", ".join(_words(item) for item in value)
        return f"[{inner}]" if any(isinstance(item, (tuple, list)) for item in value) or len(value) != 2 \
            else f"{inner}"
    text = str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check_control_value(key: str, widget: widgets.Widget, value: Any) -> Any:
    """``value`` for the control ``widget`` (configuration key ``key``), checked; refused in words otherwise.

    A selection must be one of the control's choices (a multiple selection: a list of them), a number must be
    a finite number within the control's range (a whole number for an integer control), a switch a JSON
    boolean, a text a string of at most :data:`MAX_TEXT` characters.  Raises
    :class:`~explorer.errors.ConfigurationError` naming ``key`` and the value.
    """
    if isinstance(widget, _MULTIPLE):
        if not isinstance(value, (list, tuple)):
            raise ConfigurationError(f"{key} must be a list of choices, got {shorten(value)}")
        allowed = _choices(widget)
        chosen = tuple(_match(item, allowed) for item in value)
        for item, choice in zip(value, chosen):
            if choice is _NO_MATCH and not allowed:
                raise ConfigurationError(f"{key} has nothing to choose from here (no choices), got {shorten(item)}")
            if choice is _NO_MATCH:
                raise ConfigurationError(f"{key} must list choices among {shorten(allowed, 200)}, got {shorten(item)}")
        return chosen
    if widget.has_trait("options"):
        allowed = _choices(widget)
        choice = _match(value, allowed)
        if choice is _NO_MATCH:
            raise ConfigurationError(f"{key} must be one of {shorten(allowed, 200)}, got {shorten(value)}")
        return choice
    current = widget.value
    if isinstance(current, bool):
        if not isinstance(value, bool):
            raise ConfigurationError(f"{key} must be true or false, got {shorten(value)}")
        return value
    if isinstance(current, (int, float)):
        number = _number(key, value, integer=isinstance(current, int))
        _in_range(key, widget, number)
        return number
    if isinstance(current, str):
        if not isinstance(value, str):
            raise ConfigurationError(f"{key} must be a text, got {shorten(value)}")
        if len(value) > MAX_TEXT:
            raise ConfigurationError(f"{key} must be at most {MAX_TEXT:,} characters, got {len(value):,}")
        return value
    if isinstance(current, tuple):                             # a range slider: (low, high)
        if not isinstance(value, (list, tuple)) or len(value) != len(current):
            raise ConfigurationError(f"{key} must be a list of {len(current)} numbers, got {shorten(value)}")
        numbers = tuple(_number(key, v, integer=isinstance(c, int)) for v, c in zip(value, current))
        for number in numbers:
            _in_range(key, widget, number)
        return numbers
    raise ConfigurationError(f"{key} cannot be set from a configuration (a {type(widget).__name__})")


class Panel:
    """The base class of every panel: declared controls, one busy guard, one Compute rule, the figure hooks.

    A panel's ``__init__`` calls ``super().__init__(state)``, makes its widgets, declares each control once
    with :meth:`control`, registers each figure with :meth:`add_figure`, and sets :attr:`widget` (what to
    display).  It overrides :meth:`refresh` (recompute the view from the controls) and :meth:`code`; it
    overrides :meth:`check_config` only when a value's validity depends on another value.

    Parameters
    ----------
    state : AppState, optional
        The shared state (the app passes its own; a panel shown alone makes one).

    Attributes
    ----------
    state : AppState
        The shared state: data set, column roles, the one epsilon.
    status : StatusLine
        The panel's status line (put ``status.widget`` in the layout).
    widget : ipywidgets.Widget
        What to display; set by the panel.
    """

    #: The paper a figure's caption cites (a key of :data:`explorer.references.PAPERS`); panels set it.
    paper: str | None = None
    #: Whether :attr:`widget` gets the "Code" button (a lesson's page shows its live panel's instead).
    code_button: bool = True
    #: Whether the panel's own visible heading of level 2 names its tab (the lessons page: the lesson's title);
    #: otherwise the app names the tab with a visually hidden ``<h2>`` (:func:`explorer.panels.a11y.tab_heading`).
    names_its_tab: bool = False

    def __init__(self, state: AppState | None = None) -> None:
        self.state = state if state is not None else AppState()
        self.status = StatusLine()
        self._controls: dict[str, Control] = {}
        self._figures: list[FigureView] = []
        self._busy_depth = 0
        self._task: BackgroundTask | None = None
        self._stale: StaleMark | None = None
        self._widget: widgets.Widget | None = None
        self._readouts: list[widgets.Widget] = []
        self.access: PanelAccess | None = None

    # ------------------------------------------------------------------ what to display, and how it reads
    @property
    def widget(self) -> widgets.Widget | None:
        """What to display (set by the panel, once, at the end of its ``__init__``).

        Setting it puts a slide-download row under each registered figure and the "Code" button at the end
        (:mod:`explorer.panels.slides`), and makes the panel's :class:`~explorer.panels.access.PanelAccess` (:attr:`access`): under each
        registered figure's canvas a row with its "Data table" toggles and the text alternative its
        ``aria-describedby`` points at, a name for every control (a slider's value in words), the status line and
        the :meth:`announce` readouts as live regions, and the panel's ARIA bridge as the widget's last child.
        """
        return self._widget

    @widget.setter
    def widget(self, value: widgets.Widget) -> None:
        if isinstance(value, widgets.Widget):
            self._add_figure_downloads(value)       # for slides: a download row under each figure
            value = self._add_code_box(value)        # the Code button at the end
        self._widget = value
        if isinstance(value, widgets.Widget) and self.access is None:
            self.access = PanelAccess(self, value)   # the words and tables go under each canvas, above its download row
            self.access.announce(*self._readouts)

    def announce(self, *readouts: widgets.Widget) -> None:
        """Make ``readouts`` (the HTML readouts beside the figures) ``aria-live="polite"``: a change is read out."""
        self._readouts += readouts
        if self.access is not None:
            self.access.announce(*readouts)

    def _add_figure_downloads(self, root: widgets.Widget) -> None:
        """Put the slide-download row (:func:`explorer.panels.slides.figure_download_row`) under each figure.

        Each registered canvas in ``root`` is replaced, where it stands, by a box of the canvas and its row (one
        row per canvas: a canvas that shows several figures lets the reader choose which).  The box shrinks
        with its column as the canvas does.
        """
        from explorer.panels import slides

        by_canvas: dict[int, list[FigureView]] = {}
        for view in self._figures:
            if view.canvas is not None:
                by_canvas.setdefault(id(view.canvas), []).append(view)
        if not by_canvas:
            return
        stack = [root]
        while stack:
            box = stack.pop()
            children = list(getattr(box, "children", ()) or ())
            changed = False
            for position, child in enumerate(children):
                views = by_canvas.pop(id(child), None)
                if views is None:
                    stack.append(child)
                    continue
                wrapper = widgets.VBox([child, slides.figure_download_row(self, views)], layout=widgets.Layout(
                    flex="0 1 auto", max_width="100%", min_width="0"))
                wrapper.add_class("explorer-figure-box")
                children[position] = wrapper
                changed = True
            if changed:
                box.children = tuple(children)

    def _add_code_box(self, root: widgets.Widget) -> widgets.Widget:
        """Add the "Code" button (:func:`explorer.panels.slides.code_box`) at the end of ``root``."""
        if not self.code_button or type(self).code is Panel.code:
            return root
        from explorer.panels import slides

        self.code_view = slides.code_box(self, type(self).__name__.removesuffix("Panel") or "view")
        if isinstance(root, widgets.Box):
            root.children = (*root.children, self.code_view)
            return root
        return widgets.VBox([root, self.code_view])

    # ------------------------------------------------------------------ controls and configuration
    def control(self, key: str, widget: widgets.ValueWidget, *, state: str | None = None,
                check: Callable[[Any], Any] | None = None) -> widgets.ValueWidget:
        """Declare ``widget`` as the control of configuration key ``key``; returns ``widget``.

        With ``state=`` (a trait of :class:`~explorer.state.AppState`, e.g. ``"epsilon"``) the control is a
        view of the shared value (:func:`~explorer.panels.controls.state_view`): it shows the state's value,
        writes through the state's check, and is left out of :meth:`config` (the state is written out once, at
        the top of the app's configuration).  ``check(value) -> value`` adds a panel's own check of a
        configuration value to the generic one.  Declaration order is the order :meth:`apply_config` sets them.
        """
        if key in self._controls:
            raise ValueError(f"control {key!r} is declared twice in {type(self).__name__}")
        linked = getattr(widget, "_explorer_state_trait", None)
        if linked is not None and linked != state:
            raise ValueError(f"control {key!r} is a view of the state's {linked!r}, declared as {state!r}")
        if state is not None and linked is None:
            state_view(widget, self.state, state, self.status)
        self._controls[key] = Control(key, widget, state, check)
        return widget

    @property
    def controls(self) -> dict[str, Control]:
        """The declared controls, by key, in declaration order."""
        return dict(self._controls)

    def config(self) -> dict[str, Any]:
        """The panel's own settings as JSON values, one per declared control (views of the state left out)."""
        return {key: _to_json(c.widget.value) for key, c in self._controls.items() if c.state is None}

    def check_config(self, config: Any) -> dict[str, Any]:
        """Check a whole configuration of this panel; return the values to set, by key.

        Raises :class:`~explorer.errors.ConfigurationError` in words, naming the key and the value, for a
        configuration that is not an object, an unknown key, or a value that is not valid for its control
        (:func:`check_control_value`, then the control's own ``check``).  Keys of views of the state (an
        ``"epsilon"`` of an older export) are ignored: the state's own configuration sets them.  Override (and
        call ``super()``) only when a value's validity depends on another value of the same configuration.
        """
        if not isinstance(config, dict):
            raise ConfigurationError(f"the configuration of a tab must be a JSON object, got {shorten(config)}")
        unknown = sorted(str(key) for key in config if key not in self._controls)
        if unknown:
            raise ConfigurationError(f"the configuration has unknown entries for this tab: {shorten(unknown, 120)}")
        checked: dict[str, Any] = {}
        for key, control in self._controls.items():
            if key not in config or control.state is not None:
                continue
            value = check_control_value(key, control.widget, config[key])
            checked[key] = control.check(value) if control.check is not None else value
        return checked

    def apply_config(self, config: dict[str, Any]) -> None:
        """Set the controls from a configuration (:meth:`config`'s form), all or nothing, then :meth:`refresh`.

        Everything is checked first (:meth:`check_config`); a refused configuration raises
        :class:`~explorer.errors.ConfigurationError` in words and leaves every control as it was.  The controls
        are set inside :meth:`busy`, so their observers wait, and the view is recomputed once.
        """
        checked = self.check_config(config)
        with self.busy():
            for key, value in checked.items():
                self._controls[key].widget.value = value
        self.refresh()

    def refresh(self) -> None:
        """Recompute the view from the controls (after :meth:`apply_config`); panels with controls override it."""

    # ------------------------------------------------------------------ re-entrancy
    @contextlib.contextmanager
    def busy(self) -> Iterator["Panel"]:
        """The one re-entrancy guard: ``with self.busy():`` while the panel sets its own controls.

        Inside, :attr:`is_busy` is True and observers decorated with :func:`on_change` return at once.  It
        nests (a counter, not a flag), and it is left on any exception.
        """
        self._busy_depth += 1
        try:
            yield self
        finally:
            self._busy_depth -= 1

    @property
    def is_busy(self) -> bool:
        """Whether the panel is setting its own controls (inside :meth:`busy`)."""
        return self._busy_depth > 0

    # ------------------------------------------------------------------ slow work
    def needs_compute(self, units: float) -> bool:
        """Whether work of ``units`` (:mod:`explorer.core.cost`) waits for the Compute button.

        The one rule of every tab, :func:`explorer.core.cost.needs_compute`: more than
        :data:`~explorer.core.cost.COMPUTE_BUTTON_SECONDS` on the reference machine.
        """
        return cost.needs_compute(units)

    def background(self, *, description: str = "working", name: str | None = None) -> BackgroundTask:
        """The panel's one :class:`~explorer.panels.tasks.BackgroundTask`, made on the first call.

        ``description`` (the progress bar's label) and ``name`` (the thread's) apply when it is made; later
        calls return the same task.  Put ``task.widget`` in the layout.
        """
        if self._task is None:
            self._task = BackgroundTask(self.status, description=description,
                                        name=name or f"explorer-{type(self).__name__}")
        return self._task

    @property
    def task(self) -> BackgroundTask:
        """The panel's background task (:meth:`background` with its defaults, when not made yet)."""
        return self.background()

    @property
    def stale(self) -> StaleMark:
        """The panel's stale mark (made on first use): views whose inputs changed, greyed until recomputed."""
        if self._stale is None:
            self._stale = StaleMark()
        return self._stale

    @property
    def running(self) -> bool:
        """Whether the panel's background task is running."""
        return self._task is not None and self._task.running

    def wait(self, timeout: float | None = None) -> None:
        """Block until the panel's background work (if any) has ended (notebooks, lessons, tests)."""
        if self._task is not None:
            self._task.wait(timeout)

    # ------------------------------------------------------------------ figures
    def add_figure(self, key: str, title: str, figure: Figure, *, canvas: Any = None, axes: Axes | None = None,
                   describe: Callable[[], str] | None = None,
                   table: Callable[[], pd.DataFrame] | None = None) -> FigureView:
        """Register a figure of the panel, with its text description and data table; returns its view.

        ``describe`` and ``table`` must read the same numbers the figure draws (for example the artists' data
        or the result object the plot function drew), never recompute them another way.  Left out, they are
        listed by :meth:`missing_hooks` and :meth:`describe` / :meth:`table` raise NotImplementedError.
        """
        if any(view.key == key for view in self._figures):
            raise ValueError(f"figure {key!r} is registered twice in {type(self).__name__}")
        view = FigureView(key, title, figure, canvas, axes, describe, table)
        self._figures.append(view)
        return view

    def figures(self) -> list[FigureView]:
        """The panel's figures, in the order they are shown."""
        return list(self._figures)

    def figure_view(self, index: int | str = 0) -> FigureView:
        """The figure ``index`` (a position, or a figure's key)."""
        for position, view in enumerate(self._figures):
            if index == position and not isinstance(index, bool) or index == view.key:
                return view
        keys = [view.key for view in self._figures]
        raise InvalidParameterError(f"figure must be a position 0 to {len(keys) - 1} or one of {keys}, "
                                    f"got {shorten(index)}" if keys else f"this panel has no figure, got {shorten(index)}")

    def describe(self, index: int | str = 0) -> str:
        """What figure ``index`` shows now, in words (for screen readers and the caption of an export)."""
        view = self.figure_view(index)
        if view.describe is None:
            raise NotImplementedError(f"{type(self).__name__} has no text description of its figure {view.key!r} yet")
        return view.describe()

    def table(self, index: int | str = 0) -> pd.DataFrame:
        """The numbers figure ``index`` draws, as a table (the accessible alternative to the picture)."""
        view = self.figure_view(index)
        if view.table is None:
            raise NotImplementedError(f"{type(self).__name__} has no data table of its figure {view.key!r} yet")
        return view.table()

    def export_figure(self, index: int | str = 0, fmt: str = "png", *, format: str | None = None,
                      dpi: float | None = None, slide: bool = True) -> bytes:
        """Figure ``index`` as a file: ``fmt`` (or ``format=``) is ``"png"``, ``"pdf"`` or ``"svg"``; returns its bytes.

        By default the figure for a slide (:func:`explorer.panels.slides.slide_figure`): drawn again at 16:9,
        10 x 5.625 in, every text at least 14 pt, with the caption line (:meth:`figure_caption`: the figure's inputs
        and the paper cited) under it; a PNG at 200 dpi unless ``dpi`` says otherwise.  ``slide=False`` writes
        the figure as it is on screen (150 dpi by default).  Written by matplotlib's ``savefig`` from a copy of
        the figure, so the canvas on screen is not touched (no resize, no redraw); a figure that is one Axes of
        a shared Figure is cut to that Axes.

        >>> panel.export_figure(0, format="svg")[:5]        # doctest: +SKIP
        b'<?xml'
        """
        if format is not None:
            fmt = format
        if fmt not in EXPORT_FORMATS:
            raise InvalidParameterError(f"fmt must be one of {list(EXPORT_FORMATS)}, got {shorten(fmt)}")
        view = self.figure_view(index)
        if slide:
            from explorer.panels import slides

            figure = slides.slide_figure(view, self.figure_caption(view.key))
            return slides.write_figure(figure, fmt, slides.SLIDE_DPI if dpi is None else dpi)
        dpi = 150 if dpi is None else dpi
        figure = pickle.loads(pickle.dumps(view.figure))     # a copy on a plain canvas: the screen stays as is
        options: dict[str, Any] = {}
        if view.axes is not None:
            position = view.figure.axes.index(view.axes)
            figure.draw_without_rendering()                   # lay out the copy (constrained layout) before cutting
            box = figure.axes[position].get_tightbbox().transformed(figure.dpi_scale_trans.inverted())
            options["bbox_inches"] = box.expanded(1.04, 1.04)
        buffer = io.BytesIO()
        figure.savefig(buffer, format=fmt, dpi=dpi, **options)
        return buffer.getvalue()

    # ------------------------------------------------------------------ captions of exported figures
    def caption_inputs(self) -> dict[str, str]:
        """The inputs a figure's caption names, ``{name: value}`` in words (a hook: panels extend it).

        By default: the data set, and each declared control by its label (``"Sensitive": "income"``,
        ``"ε": "1"``, ``"k": "5"``), a choice by the text the reader sees.
        """
        inputs = {"Data set": str(getattr(self.state, "dataset_name", "") or "")}
        for key, control in self._controls.items():
            widget = control.widget
            if widget.has_trait("layout") and widget.layout.display == "none":      # a control not shown now
                continue
            name = re.sub(r"<[^>]+>", "", str(getattr(widget, "description", "") or key)).strip().rstrip(":")
            inputs[name] = _caption_value(widget)
        return {name: value for name, value in inputs.items() if value not in ("", "[]")}

    def figure_caption(self, index: int | str = 0) -> str:
        """The caption line of figure ``index`` in an export: its title, its inputs, and the paper cited.

        The paper is :attr:`paper` (a key of :data:`explorer.references.PAPERS`), cited by authors and year.
        """
        view = self.figure_view(index)
        inputs = "; ".join(f"{name} = {value}" if len(name) <= 3 else f"{name}: {value}"
                           for name, value in self.caption_inputs().items())
        text = f"{view.title}. {inputs}." if inputs else f"{view.title}."
        source = self.caption_source()
        if source:
            text += f" Source: {source}."
        return text + " Made with the explorer."

    def caption_source(self) -> str | None:
        """What a figure's caption cites: :attr:`paper` by authors and year (a panel on other sources overrides it)."""
        if not self.paper:
            return None
        from explorer.references import cite

        return cite(self.paper)

    def code(self) -> str:
        """The Python snippet (public API: :mod:`explorer.core`, :mod:`explorer.plotting`) that reproduces the view."""
        raise NotImplementedError(f"{type(self).__name__} has no code() yet")

    def missing_hooks(self) -> list[str]:
        """The hooks this panel has not written yet: ``["code", "describe: <figure>", "table: <figure>"]``."""
        missing = [] if type(self).code is not Panel.code else ["code"]
        for view in self._figures:
            missing += [f"{hook}: {view.key}" for hook in ("describe", "table") if getattr(view, hook) is None]
        return missing

    # ------------------------------------------------------------------ closing
    def close(self) -> None:
        """Stop following the state and close every widget of the panel (a replaced panel frees its memory)."""
        for control in self._controls.values():
            unlink = getattr(control.widget, "_explorer_unlink", None)
            if callable(unlink):
                unlink()
        widget = getattr(self, "widget", None)
        if isinstance(widget, widgets.Widget):
            close_tree(widget)
