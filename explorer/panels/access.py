"""What a screen reader gets from a panel: figures that speak, controls with names and values, announced changes.

ipywidgets and ipympl give a panel's controls and figures no accessible names: a slider's description label is
not tied to its noUiSlider handle, text boxes and dropdowns have no label, a figure is an unnamed ``<canvas>``
(ipywidgets issue 2650, "Accessibility of widgets", is open upstream).  The DOM of those widgets cannot be
reached from Python, so this module has one small widget of its own, :class:`AriaBridge` (an anywidget: its
JavaScript is the string :data:`BRIDGE_ESM`, sent through the widget's comm like the figure sizer's, no CDN and
no build step, so it runs under the demo's Content-Security-Policy).  The kernel marks elements with a unique
CSS class (``widget.add_class``) and keeps, per class, the ARIA attributes to set on that element or on the
elements under it a CSS selector picks (``{"explorer-aria-7": {".noUi-handle": {"aria-label": "ε"}}}``); the
browser side applies them, and applies them again whenever ipywidgets, ipympl or noUiSlider re-render (a
``MutationObserver``; noUiSlider rewrites ``aria-valuetext`` on every move).

:class:`PanelAccess` (one per panel, made by :class:`~explorer.panels.base.Panel` when the panel sets its
``widget``) does the rest, for every panel at once:

* **figures speak**: each canvas gets ``role="img"``, an ``aria-label`` (the figure's title) and
  ``aria-describedby`` pointing at a visually hidden text made from the panel's ``describe()`` of each figure on
  that canvas, recomputed whenever the canvas sends a new frame to the browser (so it always says what the
  picture shows now); a small row of "Data table" toggles under the figures (:attr:`FigureAccess.row`, where
  other per-figure buttons can go) shows each figure's ``table()`` as an HTML table with a caption and header
  cells (``<th scope="col">``, ``<th scope="row">``);
* **every control has a name and a value in words**: text and number boxes, dropdowns, selects, check boxes,
  radio groups and toggle buttons get ``aria-label`` from their description (or tooltip, or placeholder); a
  slider's noUiSlider handle (``role="slider"``, keyboard: arrows, Page Up/Down, Home/End, all noUiSlider's own)
  gets the name and ``aria-valuetext`` in words from :func:`valuetext` (``"ε = 1.00, odds at most ×2.7"``),
  updated from the kernel each time the value changes;
* **a radio group is one Tab stop** (WAI-ARIA's radio group pattern): ``RadioButtons`` and ``ToggleButtons`` are
  ``role="radiogroup"``; the radio inputs of one rendered group get a shared ``name`` (ipywidgets gives them
  none), so the browser's own keys apply (Tab enters at the chosen answer, arrows move the choice); the toggle
  buttons become ``role="radio"`` with ``aria-checked`` and a roving tabindex (the chosen button alone has
  ``tabindex="0"``), and the arrow keys, Home and End click the next button, so the kernel gets the change
  exactly as from a click;
* **changes are announced**: the status line is a ``role="status"`` region (``aria-live="polite"``; an error is
  inserted with ``role="alert"``), and the readouts a panel names with :meth:`~explorer.panels.base.Panel.announce`
  and the lessons' check feedback are ``aria-live="polite"``: the attribute is set on the widget's own element,
  which persists while ipywidgets replaces its content on every update;
* **a typed value out of range is refused in words**: a slider's readout can be typed in, and ipywidgets
  clamps a typed 120 to the maximum, and puts back "abc", without a word.  The bridge's JavaScript refuses
  such a value before ipywidgets sees it (the rules give each readout its kind and range), the slider keeps its
  value, and the bridge tells the kernel (``{"event": "refused-typed-value", "class": ..., "text": ...}``),
  which checks the message again and says why on the panel's status line (:meth:`PanelAccess.refuse_typed`,
  in the words of the number boxes that check their range, :func:`~explorer.panels.controls.outside_range_words`).
"""

from __future__ import annotations

import html
import itertools
import logging
import re
import weakref
from numbers import Integral, Real
from typing import Any, Callable

import ipywidgets as widgets
import pandas as pd
import traitlets

from explorer._validation import quote
from explorer.panels._canvas import KernelOwnedState
from explorer.panels._format import format_value
from explorer.panels.controls import not_a_number_words, outside_range_words
from explorer.panels.tasks import Debounced

try:
    import anywidget
    _WidgetBase: type = anywidget.AnyWidget
except ImportError:          # a declared dependency; without it nothing reaches the browser's accessibility tree
    anywidget = None
    _WidgetBase = widgets.DOMWidget

__all__ = ["AriaBridge", "PanelAccess", "FigureAccess", "valuetext", "accessible_name", "accessible_table",
           "typed_range", "typed_numbers", "typed_refusal", "LIVE_CLASS", "BRIDGE_ESM", "BRIDGE_CSS", "STATIC_RULES",
           "DEBOUNCE_SECONDS", "TYPED_EVENT", "MAX_TYPED_CHARS"]

log = logging.getLogger("explorer.panels.access")

#: A panel's readouts carry this class: the bridge makes them ``aria-live="polite"`` regions.
LIVE_CLASS = "explorer-live"
#: The descriptions are recomputed this long after the last frame a canvas sent (a drag sends many).
DEBOUNCE_SECONDS = 0.25
#: The bridge's message when it refused a value typed in a slider's readout.
TYPED_EVENT = "refused-typed-value"
#: A typed text longer than this is not read as a number (a client can send anything; the browser sends 200).
MAX_TYPED_CHARS = 100
_counter = itertools.count(1)

#: The browser side: apply the kernel's attributes to the marked elements, again after every re-render.
BRIDGE_ESM = r"""
function render({ model, el }) {
  el.classList.add("explorer-aria-bridge");
  let seen = {};                       // class + selector -> the attributes last received, as JSON
  const put = (node, attrs, fresh) => {
    for (const [name, value] of Object.entries(attrs)) {
      if (name === "aria-valuetext") {
        // The kernel's words are for the value the handle had when they arrived.  When the handle has moved
        // since (a key press: the kernel's new words are on their way), noUiSlider's own number is newer.
        const now = node.getAttribute("aria-valuenow");
        if (fresh) node.__explorerNow = now;
        else if (node.__explorerNow !== undefined && node.__explorerNow !== now) continue;
      }
      if (value === null || value === undefined) {
        if (node.hasAttribute(name)) node.removeAttribute(name);
      } else if (node.getAttribute(name) !== String(value)) {
        node.setAttribute(name, String(value));
      }
    }
  };
  const set = (node, name, value) => { if (node.getAttribute(name) !== value) node.setAttribute(name, value); };
  // A radio group is one Tab stop and its arrow keys move the choice (WAI-ARIA's radio group pattern).
  // RadioButtons: the inputs of one rendered group share a name of their own (a name per element, not per
  // widget: two views of one widget must not form one group), so the browser's own radio keys apply.
  // ToggleButtons: role radio and aria-checked on each button, a roving tabindex (the chosen button alone is a
  // Tab stop) and arrows/Home/End that click the next button, so the kernel gets the change as from a click.
  const arrows = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: "first", End: "last" };
  const onKey = (event) => {
    const host = event.currentTarget;
    const button = event.target.closest && event.target.closest("button");
    const step = arrows[event.key];
    if (!button || !host.contains(button) || step === undefined || event.altKey || event.ctrlKey
        || event.metaKey || event.shiftKey) return;
    const buttons = [...host.querySelectorAll("button")].filter((b) => !b.disabled);
    if (buttons.length === 0) return;
    const at = buttons.indexOf(button);
    const next = step === "first" ? buttons[0] : step === "last" ? buttons[buttons.length - 1]
      : buttons[(at + step + buttons.length) % buttons.length];
    event.preventDefault();                // no page scroll, and JupyterLab's notebook keys stay out of it
    event.stopPropagation();
    next.focus();
    if (!next.classList.contains("mod-active")) next.click();
  };
  const group = (host, kind) => {
    if (kind === "radio") {
      if (!host.__explorerGroup) {
        globalThis.__explorerGroups = (globalThis.__explorerGroups || 0) + 1;
        host.__explorerGroup = "explorer-group-" + globalThis.__explorerGroups;
      }
      for (const input of host.querySelectorAll("input[type=radio]")) {
        if (input.name !== host.__explorerGroup) input.name = host.__explorerGroup;
      }
    } else if (kind === "buttons") {
      const buttons = [...host.querySelectorAll("button")];
      const chosen = buttons.findIndex((b) => b.classList.contains("mod-active"));
      const stop = chosen >= 0 ? chosen : Math.max(0, buttons.findIndex((b) => !b.disabled));
      buttons.forEach((b, i) => {
        set(b, "role", "radio");
        set(b, "aria-checked", i === chosen ? "true" : "false");
        set(b, "tabindex", i === stop ? "0" : "-1");
      });
      if (!host.__explorerKeys) {
        host.__explorerKeys = true;
        host.addEventListener("keydown", onKey);
      }
    }
  };
  const apply = (fromKernel) => {
    const rules = model.get("rules") || {};
    const next = {};
    for (const [cls, targets] of Object.entries(rules)) {
      for (const host of document.getElementsByClassName(cls)) {
        for (const [selector, attrs] of Object.entries(targets)) {
          const key = cls + " " + selector;
          const json = next[key] || (next[key] = JSON.stringify(attrs));
          const fresh = fromKernel === true && seen[key] !== json;
          const nodes = selector === "" ? [host] : host.querySelectorAll(selector);
          for (const node of nodes) put(node, attrs, fresh || node.__explorerNow === undefined);
        }
        const kind = (targets[""] || {})["data-explorer-group"];
        if (kind) group(host, kind);
      }
    }
    if (fromKernel === true) seen = next;
  };
  // Setting an attribute to the value it has is skipped, so the observer settles after one more pass.  "class"
  // brings a ToggleButtons' new choice (mod-active), "disabled" a group switched on or off.
  const observer = new MutationObserver(() => apply(false));
  observer.observe(document.body, { childList: true, subtree: true, attributes: true,
    attributeFilter: ["aria-valuetext", "aria-label", "role", "class", "disabled"] });
  const changed = () => apply(true);
  model.on("change:rules", changed);
  apply(true);

  // A value typed in a slider's readout: ipywidgets clamps one out of range to the nearest end and puts back one
  // that is no number, without a word.  Here (capture phase on the document: before ipywidgets' own handlers)
  // such a value is refused: the readout is emptied, so ipywidgets puts back the slider's value as it shows it
  // (its "not a number" path; on blur, which ipywidgets does not handle, the text shown when the readout got
  // the focus), and the kernel is told, to say why on the panel's status line.  The kernel's rules give the
  // kind and range of each slider's readout (data-explorer-kind, -min, -max; a log slider's in value space).
  const RANGES = {
    "float-range": /^\s*([+-]?(?:\d*\.?\d+|\d+\.)(?:[eE][-:]?\d+)?)\s*[-:–]\s*([+-]?(?:\d*\.?\d+|\d+\.)(?:[eE][+-]?\d+)?)/,
    "int-range": /^\s*([+-]?\d+)\s*[-:–]\s*([+-]?\d+)/,
  };
  const readoutRule = (node) => {
    const rules = model.get("rules") || {};
    let host = node.parentElement;
    for (let depth = 0; host && depth < 4; depth += 1, host = host.parentElement) {
      for (const cls of host.classList) {
        const attrs = rules[cls] && rules[cls][".widget-readout"];
        if (attrs && attrs["data-explorer-kind"]) return [cls, attrs];
      }
    }
    return null;
  };
  const numbers = (text, kind) => {       // as ipywidgets reads the readout (parseFloat, parseInt, its regexes)
    const one = kind.startsWith("int") ? (t) => parseInt(t) : (t) => parseFloat(t);
    if (!kind.endsWith("-range")) return [one(text)];
    const match = RANGES[kind] ? RANGES[kind].exec(text) : null;
    return match ? [one(match[1]), one(match[2])] : null;
  };
  const refused = (text, attrs) => {
    const low = Number(attrs["data-explorer-min"]), high = Number(attrs["data-explorer-max"]);
    const values = numbers(text, attrs["data-explorer-kind"]);
    if (values === null || values.some((v) => Number.isNaN(v))) return true;
    if (values.some((v) => v < low || v > high)) return true;
    return values.length === 2 && values[0] > values[1];
  };
  const isReadout = (node) => node instanceof Element && node.classList.contains("widget-readout");
  const onFocus = (event) => { if (isReadout(event.target)) event.target.__explorerShown = event.target.textContent; };
  const onTyped = (event) => {
    const node = event.target;
    if (event.__explorerSeen || !isReadout(node) || !node.isContentEditable) return;
    if (event.type === "keydown" && event.key !== "Enter") return;
    const found = readoutRule(node);
    if (found === null) return;            // a slider of another panel (its own bridge), or none
    event.__explorerSeen = true;
    const text = node.textContent || "";
    if (text === node.__explorerShown || !refused(text, found[1])) {        // untouched, or ipywidgets sets it
      if (event.type === "keydown") setTimeout(() => { node.__explorerShown = node.textContent; }, 0);
      return;
    }
    const shown = node.__explorerShown;
    node.textContent = "";
    setTimeout(() => { if (node.textContent === "" && shown !== undefined) node.textContent = shown; }, 0);
    model.send({ event: "refused-typed-value", class: found[0], text: text.slice(0, 200) });
  };
  document.addEventListener("focusin", onFocus, true);
  document.addEventListener("keydown", onTyped, true);
  document.addEventListener("blur", onTyped, true);
  return () => {
    observer.disconnect();
    model.off("change:rules", changed);
    document.removeEventListener("focusin", onFocus, true);
    document.removeEventListener("keydown", onTyped, true);
    document.removeEventListener("blur", onTyped, true);
  };
}
export default { render };
"""

#: Visually hidden text (read by screen readers), and the row of per-figure buttons kept small.
BRIDGE_CSS = """
.explorer-sr-only { position: absolute !important; width: 1px !important; height: 1px !important;
  padding: 0 !important; margin: -1px !important; overflow: hidden !important; clip: rect(0, 0, 0, 0) !important;
  white-space: nowrap !important; border: 0 !important; }
.explorer-figure-tools { flex-wrap: wrap; gap: 4px; margin: 0 0 4px 0; }
.explorer-figure-access-row { gap: 4px; }
.explorer-figure-tools .jupyter-button { height: 24px; line-height: 22px; font-size: 12px; padding: 0 8px;
  width: auto; margin: 0; }
.explorer-data-table { max-width: 100%; overflow: auto; }
.explorer-data-table table { border-collapse: collapse; font-size: 12px; margin: 4px 0 8px 0; }
.explorer-data-table caption { text-align: left; font-weight: bold; padding: 2px 0 4px 0; }
.explorer-data-table th, .explorer-data-table td { padding: 2px 8px; border-bottom: 1px solid #ccc;
  text-align: right; white-space: nowrap; }
.explorer-data-table th[scope=row], .explorer-data-table thead th:first-child { text-align: left; }
"""

#: Attributes of every panel's fixed classes: the status line, the stale note, readouts, check feedback.
STATIC_RULES: dict[str, dict[str, dict[str, str]]] = {
    "explorer-status": {"": {"role": "status", "aria-live": "polite"}},
    "explorer-stale-note": {"": {"aria-live": "polite"}},
    LIVE_CLASS: {"": {"aria-live": "polite"}},
    "explorer-check-feedback": {"": {"aria-live": "polite"}},
    "explorer-data-table": {"": {"tabindex": "0", "role": "region"}},
    # ipympl's second canvas (the zoom rectangle over the picture) says nothing
    "explorer-fit": {".jupyter-matplotlib-canvas-div > canvas + canvas": {"aria-hidden": "true"}},
}


class AriaBridge(KernelOwnedState, _WidgetBase):
    """The hidden widget that sets ARIA attributes on elements the kernel marked with a class.

    ``rules`` (kernel -> browser; a client's update of it is dropped) maps a CSS class to
    ``{selector: {attribute: value}}``: the empty selector is the marked element itself, any other the elements
    under it that the selector picks; a value None removes the attribute.  One per panel (a panel shown alone in
    a notebook brings its own).

    Examples
    --------
    >>> bridge = AriaBridge()
    >>> bridge.put("explorer-aria-x", ".noUi-handle", {"aria-label": "ε"})
    >>> bridge.rules["explorer-aria-x"]
    {'.noUi-handle': {'aria-label': 'ε'}}
    >>> bridge.set_state({"rules": {}}); bridge.rules["explorer-aria-x"][".noUi-handle"]   # a client cannot
    {'aria-label': 'ε'}
    """

    _esm = BRIDGE_ESM
    _css = BRIDGE_CSS
    rules = traitlets.Dict().tag(sync=True)

    KERNEL_OWNED = frozenset({"rules"})
    LOG_NAME = "aria bridge"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(rules={key: {s: dict(a) for s, a in value.items()} for key, value in STATIC_RULES.items()},
                         **kwargs)
        if anywidget is None:
            log.warning("aria bridge: anywidget is not installed (pip install anywidget): controls and figures "
                        "have no accessible names in the browser")
        self.layout.display = "none"

    def put(self, css_class: str, selector: str, attrs: dict[str, Any]) -> None:
        """Set ``attrs`` on the elements ``selector`` picks under the elements of class ``css_class`` (merged)."""
        current = self.rules.get(css_class, {}).get(selector, {})
        merged = {**current, **{k: (None if v is None else str(v)) for k, v in attrs.items()}}
        if merged == current:
            return
        rules = dict(self.rules)
        rules[css_class] = {**rules.get(css_class, {}), selector: merged}
        self.rules = rules

    def attrs(self, css_class: str, selector: str = "") -> dict[str, str]:
        """The attributes the bridge sets on ``selector`` under ``css_class`` (a copy)."""
        return dict(self.rules.get(css_class, {}).get(selector, {}))


# ====================================================================== names and values in words
_TAG = re.compile(r"<[^>]+>")


def _plain(text: Any) -> str:
    """Markup to plain text: tags dropped, entities decoded, spaces folded."""
    return " ".join(html.unescape(_TAG.sub(" ", str(text or ""))).split())


def accessible_name(widget: widgets.Widget) -> str:
    """The name a screen reader says for ``widget``: its explicit name, description, tooltip or placeholder.

    An explicit name is set with ``widget._explorer_name = "..."`` (a control whose description is a symbol
    that needs words).  Returns ``""`` when the control has none.

    Examples
    --------
    >>> accessible_name(widgets.Text(description="typed ε"))
    'typed ε'
    >>> accessible_name(widgets.Text(placeholder="labels, comma-separated"))
    'labels, comma-separated'
    """
    explicit = getattr(widget, "_explorer_name", None)
    if explicit:
        return str(explicit)
    for trait in ("description", "tooltip", "description_tooltip", "placeholder"):
        if widget.has_trait(trait):
            text = _plain(getattr(widget, trait))
            if text:
                return text
    return ""


def valuetext(widget: widgets.Widget, function: Callable[[Any], str]) -> widgets.Widget:
    """Give the slider ``widget`` its value in words: ``function(value) -> str`` (``aria-valuetext``); returns it.

    Without one, a slider says ``"<name> = <value as its readout shows it>"``.

    Examples
    --------
    >>> slider = valuetext(widgets.FloatSlider(description="p"), lambda p: f"p = {p:.2f}: keep the answer")
    >>> slider._explorer_valuetext(0.25)
    'p = 0.25: keep the answer'
    """
    widget._explorer_valuetext = function
    return widget


def _readout(widget: widgets.Widget, value: Any) -> str:
    if isinstance(value, (tuple, list)):
        return " to ".join(_readout(widget, v) for v in value)
    if isinstance(widget, (widgets.SelectionSlider, widgets.SelectionRangeSlider)):
        for label, option in zip(widget._options_labels, widget._options_values):
            if option == value:
                return str(label)
        return str(value)
    if isinstance(widget, widgets.FloatLogSlider):
        return f"{value:.3g}"
    form = getattr(widget, "readout_format", None)
    if form and isinstance(value, Real):
        try:
            return format(value, form.lstrip("%") if not form.startswith("%") else form[1:])
        except (ValueError, TypeError):
            pass
    return f"{value:,}" if isinstance(value, Integral) else str(value)


def slider_text(widget: widgets.Widget) -> str:
    """The words a slider's handle says for its value now (its :func:`valuetext`, or ``name = value``)."""
    function = getattr(widget, "_explorer_valuetext", None)
    value = widget.value
    if callable(function):
        try:
            return str(function(value))
        except Exception:                      # a wrong value in words must not break the slider
            log.exception("valuetext of %s failed", accessible_name(widget))
    name = accessible_name(widget)
    return f"{name} = {_readout(widget, value)}" if name else _readout(widget, value)


_SLIDERS = (widgets.IntSlider, widgets.FloatSlider, widgets.FloatLogSlider, widgets.SelectionSlider)
_RANGE_SLIDERS = (widgets.IntRangeSlider, widgets.FloatRangeSlider, widgets.SelectionRangeSlider)


# ====================================================================== typed values
#: ipywidgets' own reading of a range slider's readout ("2.5 – 4"), the same patterns as in :data:`BRIDGE_ESM`.
RANGE_PATTERNS = {
    "float-range": r"^\s*([+-]?(?:\d*\.?\d+|\d+\.)(?:[eE][-:]?\d+)?)\s*[-:–]\s*([+-]?(?:\d*\.?\d+|\d+\.)(?:[eE][+-]?\d+)?)",
    "int-range": r"^\s*([+-]?\d+)\s*[-:–]\s*([+-]?\d+)",
}
#: JavaScript's ``parseFloat`` and ``parseInt``: the number at the start of the text, the rest ignored.
#: Digits are ASCII only, as JavaScript's ``\d`` (Python's ``\d`` and ``float`` would read "٣" as 3); white
#: space is Unicode's, as JavaScript's ``\s`` (a readout's typed spaces can be no-break spaces).
_PARSE_FLOAT = re.compile(r"\s*([+-]?(?:Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?))")
_PARSE_INT = re.compile(r"\s*([+-]?)(0[xX][0-9a-fA-F]+|[0-9]+)")
_RANGE_REGEXES = {kind: re.compile(pattern.replace(r"\d", "[0-9]")) for kind, pattern in RANGE_PATTERNS.items()}


def typed_range(widget: widgets.Widget) -> tuple[str, float, float] | None:
    """The kind of ``widget``'s typed readout and its range, in value space; None: it cannot be typed in.

    The kind is how ipywidgets reads the text: ``"float"``, ``"int"``, ``"log"`` (a log slider: its range is
    ``base ** min`` to ``base ** max``), ``"float-range"``, ``"int-range"``.  A selection slider's readout is
    not editable.

    Examples
    --------
    >>> typed_range(widgets.FloatLogSlider(min=-2, max=3))
    ('log', 0.01, 1000.0)
    >>> typed_range(widgets.IntRangeSlider(min=0, max=20))
    ('int-range', 0.0, 20.0)
    """
    if isinstance(widget, (widgets.SelectionSlider, widgets.SelectionRangeSlider)) \
            or not isinstance(widget, _SLIDERS + _RANGE_SLIDERS):
        return None
    if isinstance(widget, widgets.FloatLogSlider):
        return "log", _power(widget.base, widget.min), _power(widget.base, widget.max)
    kind = "int" if isinstance(widget, (widgets.IntSlider, widgets.IntRangeSlider)) else "float"
    if isinstance(widget, _RANGE_SLIDERS):
        kind += "-range"
    return kind, float(widget.min), float(widget.max)


def _power(base: float, exponent: float) -> float:
    try:
        return float(base) ** float(exponent)
    except OverflowError:
        return float("inf")


def _js_number(value: float) -> str:
    """A number as JavaScript's ``Number()`` reads it back exactly ("Infinity", not Python's "inf")."""
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    return repr(float(value))


def _readout_limits(widget: widgets.Widget) -> dict[str, str | None]:
    """The attributes that tell the bridge's JavaScript what a slider's readout accepts (none: not typed in)."""
    limits = typed_range(widget)
    if limits is None:
        return {}
    kind, low, high = limits
    return {"data-explorer-kind": kind, "data-explorer-min": _js_number(low), "data-explorer-max": _js_number(high)}


def typed_numbers(text: str, kind: str) -> tuple[float, ...] | None:
    """The numbers ipywidgets reads in a slider's typed readout, as its JavaScript does; None: not a number.

    ``parseFloat`` (``parseInt`` for an integer slider) reads the number at the start and ignores the rest;
    a range slider's text is two numbers (:data:`RANGE_PATTERNS`).

    Examples
    --------
    >>> typed_numbers("2.5", "float"), typed_numbers(" 120 km", "float"), typed_numbers("abc", "float")
    ((2.5,), (120.0,), None)
    >>> typed_numbers("7.9", "int"), typed_numbers("2 – 5", "float-range"), typed_numbers("nan", "float")
    ((7.0,), (2.0, 5.0), None)
    """
    single = _parse_int if kind.startswith("int") else _parse_float
    if not kind.endswith("-range"):
        value = single(text)
        return None if value is None else (value,)
    regex = _RANGE_REGEXES.get(kind)
    match = regex.match(text) if regex is not None else None
    if match is None:
        return None
    values = (single(match.group(1)), single(match.group(2)))
    return None if None in values else values  # type: ignore[return-value]


def _parse_float(text: str) -> float | None:
    match = _PARSE_FLOAT.match(text)
    return float(match.group(1)) if match else None


def _parse_int(text: str) -> float | None:
    match = _PARSE_INT.match(text)
    if match is None:
        return None
    sign, digits = match.groups()
    value = int(digits, 16) if digits[:2].lower() == "0x" else int(digits)
    return float(-value if sign == "-" else value)


def typed_refusal(widget: widgets.Widget, text: str) -> str | None:
    """Why a value typed in ``widget``'s readout is refused, in words; None when the slider would take it.

    Not a number, or outside the slider's range (a log slider's in value space): the words name the slider
    by its accessible name, quote the typed text (shortened) and say the value it keeps, as its readout shows
    it.  The slider's value is not changed.

    Examples
    --------
    >>> slider = widgets.FloatSlider(value=1.0, min=0, max=10, description="ε", readout_format=".2f")
    >>> typed_refusal(slider, "120")
    "ε: '120' is outside the range 0 to 10; it stays 1.00."
    >>> typed_refusal(slider, "abc")
    "ε: 'abc' is not a number; it stays 1.00."
    >>> typed_refusal(slider, "2.5") is None
    True
    """
    limits = typed_range(widget)
    if limits is None:
        return None
    kind, low, high = limits
    name = accessible_name(widget) or "the slider"
    shown, kept = quote(text), _readout(widget, widget.value)
    values = typed_numbers(text, kind) if len(text) <= MAX_TYPED_CHARS else None
    pair = kind.endswith("-range")
    if values is None or (pair and values[0] > values[1]):
        return not_a_number_words(name, shown, kept, pair=pair)
    if any(not low <= value <= high for value in values):
        return outside_range_words(name, shown, low, high, kept)
    return None
_INPUTS = (widgets.Text, widgets.Textarea, widgets.IntText, widgets.FloatText, widgets.BoundedIntText,
           widgets.BoundedFloatText, widgets.Password, widgets.Combobox, widgets.ColorPicker, widgets.DatePicker)
_SELECTS = (widgets.Dropdown, widgets.Select, widgets.SelectMultiple)
_GROUPS = (widgets.RadioButtons, widgets.ToggleButtons)


# ====================================================================== data tables
def _cell(value: Any) -> str:
    """A table cell in words: the panels' own number format (:func:`~explorer.panels._format.format_value`)."""
    if isinstance(value, tuple):
        return " / ".join(_cell(v) for v in value)
    return format_value(value)


def accessible_table(frame: pd.DataFrame, caption: str) -> str:
    """``frame`` as an HTML table a screen reader can walk: a caption, ``<th scope="col">`` headers and
    ``<th scope="row">`` row headers (the index); every cell escaped.

    Examples
    --------
    >>> text = accessible_table(pd.DataFrame({"p": [0.5]}, index=pd.Index(["a"], name="u")), "A & B")
    >>> "<caption>A &amp; B</caption>" in text and '<th scope="col">u</th>' in text and '<th scope="row">a</th>' in text
    True
    """
    e = html.escape
    index_name = " / ".join(str(n) for n in frame.index.names if n is not None) or ""
    head = f'<th scope="col">{e(index_name)}</th>' + "".join(
        f'<th scope="col">{e(_cell(column))}</th>' for column in frame.columns)
    rows = []
    columns = [frame.iloc[:, j].tolist() for j in range(frame.shape[1])]
    for i, label in enumerate(frame.index):
        cells = "".join(f"<td>{e(_cell(column[i]))}</td>" for column in columns)
        rows.append(f'<tr><th scope="row">{e(_cell(label))}</th>{cells}</tr>')
    body = "".join(rows) or f'<tr><td colspan="{len(frame.columns) + 1}">no numbers yet</td></tr>'
    return (f"<table><caption>{e(caption)}</caption><thead><tr>{head}</tr></thead>"
            f"<tbody>{body}</tbody></table>")


# ====================================================================== one canvas: its figures in words
class FigureAccess:
    """The text alternative and data tables of one canvas (one or several registered figures drawn on it).

    Attributes
    ----------
    views : list of FigureView
        The panel's figures drawn on this canvas.
    description : ipywidgets.HTML
        The visually hidden text (``describe()`` of each figure) the canvas's ``aria-describedby`` points at.
    toggles : list of ipywidgets.ToggleButton
        One "Data table" toggle per figure.
    tables : list of ipywidgets.HTML
        One table per figure, shown while its toggle is pressed.
    row : ipywidgets.HBox
        The small row of per-figure buttons (the toggles; other per-figure buttons can be added to it).
    widget : ipywidgets.VBox
        What goes under the canvas: the row, the tables and the description.
    """

    def __init__(self, access: "PanelAccess", canvas: Any, views: list, *, named: bool = False) -> None:
        self.access = access
        self.canvas = canvas
        self.views = list(views)
        uid = next(_counter)
        self.css_class = f"explorer-aria-figure-{uid}"
        self.description_id = f"explorer-figure-text-{uid}"
        canvas.add_class(self.css_class)
        self.description = widgets.HTML("")
        self.description.add_class("explorer-sr-only")
        self.description.add_class("explorer-figure-text")
        several = len(self.views) > 1
        named = named or several
        self.toggles: list[widgets.ToggleButton] = []
        self.tables: list[widgets.HTML] = []
        for number, view in enumerate(self.views):
            label = (f"Data table: {re.sub(r'[-_]', ' ', view.key)}" if named else "Data table")
            toggle = widgets.ToggleButton(value=False, description=label, tooltip=f"{view.title}: its numbers as a table",
                                          layout=widgets.Layout(width="auto"))
            toggle.add_class("explorer-data-table-toggle")
            toggle.add_class(f"explorer-data-table-toggle-{view.key}")
            toggle._explorer_name = f"{label}, {view.title}"      # the visible label first (WCAG 2.5.3)
            toggle._explorer_toggle_state = True                    # aria-expanded: set here, with its table
            table = widgets.HTML("", layout=widgets.Layout(display="none", max_width="100%"))
            table.add_class("explorer-data-table")
            table.add_class(f"explorer-data-table-{uid}-{number}")
            toggle.observe(lambda change, n=number: self._on_toggle(n, change["new"]), names="value")
            access.bridge.put(access.mark(toggle), "", {"aria-expanded": "false"})
            self.toggles.append(toggle)
            self.tables.append(table)
        self.row = widgets.HBox(list(self.toggles), layout=widgets.Layout(flex_flow="row wrap"))
        self.row.add_class("explorer-figure-tools")
        self.widget = widgets.VBox([self.row, *self.tables, self.description],
                                   layout=widgets.Layout(max_width="100%"))
        self.widget.add_class("explorer-figure-access")
        titles = "; ".join(view.title for view in self.views)
        label = (f"{len(self.views)} figures: {titles}" if several else titles)
        access.bridge.put(self.css_class, ".jupyter-matplotlib-canvas-div > canvas:first-child",
                          {"role": "img", "aria-label": label, "aria-describedby": self.description_id})
        for number, (view, toggle) in enumerate(zip(self.views, self.toggles)):
            access.bridge.put(f"explorer-data-table-{uid}-{number}", "", {"aria-label": f"Data table: {view.title}"})
        self.texts: list[str] = []
        listen = getattr(canvas, "add_frame_listener", None)
        if callable(listen):
            this = weakref.ref(self)
            listen(lambda: (lambda me: me.schedule() if me is not None else None)(this()))
        self.refresh()
        self.schedule()          # again once the panel's __init__ has drawn (in a kernel; now without a loop)

    # ------------------------------------------------------------------ text
    def _describe(self, view: Any) -> str | None:
        if view.describe is None:
            return None
        try:
            return str(view.describe())
        except Exception:                    # a view mid-update: keep the last words (logged kernel-side)
            log.debug("describe(%s) failed", view.key, exc_info=True)
            return None

    def refresh(self) -> None:
        """Recompute the words (and the open tables) from the figures now."""
        texts = []
        for number, view in enumerate(self.views):
            text = self._describe(view)
            if text is None:
                text = self.texts[number] if number < len(self.texts) else "The figure is being drawn."
            texts.append(text)
        self.texts = texts
        several = len(self.views) > 1
        body = " ".join(f"<p>{html.escape(view.title) + ': ' if several else ''}{html.escape(text)}</p>"
                        for view, text in zip(self.views, texts))
        value = f"<div id='{self.description_id}'>{body}</div>"
        if self.description.value != value:
            self.description.value = value
        for number, toggle in enumerate(self.toggles):
            if toggle.value:
                self._fill_table(number)

    def schedule(self) -> None:
        """A frame went to the browser: recompute the words of every figure of the panel soon (debounced), or now
        without an event loop.  All of them, not this canvas's alone: a computation that redraws several
        canvases sends their frames one after the other, and a screen reader that reads the figures then must
        not hear one describe the new result and the next still say "nothing computed"."""
        self.access.schedule()

    # ------------------------------------------------------------------ tables
    def _fill_table(self, number: int) -> None:
        view = self.views[number]
        try:
            frame = view.table() if view.table is not None else None
        except Exception:
            log.debug("table(%s) failed", view.key, exc_info=True)
            return
        text = (accessible_table(frame, view.title) if frame is not None
                else f"<p>{html.escape(view.title)}: no data table.</p>")
        if self.tables[number].value != text:
            self.tables[number].value = text

    def _on_toggle(self, number: int, shown: bool) -> None:
        if shown:
            self._fill_table(number)
        self.tables[number].layout.display = None if shown else "none"
        self.access.bridge.put(self.access.mark(self.toggles[number]), "",
                               {"aria-expanded": "true" if shown else "false"})


# ====================================================================== one panel
class PanelAccess:
    """A panel's accessibility: its bridge, its figures' text alternatives and tables, its controls' names.

    Made by :class:`~explorer.panels.base.Panel` when the panel sets ``widget``: the figure rows go under the
    canvases, every control of the widget tree gets its name (and a slider its value in words), the status line
    and the readouts are live regions, and the bridge is the last child of the panel's widget.

    Attributes
    ----------
    bridge : AriaBridge
        The panel's bridge.
    figures : list of FigureAccess
        One per canvas with registered figures.
    unnamed : list of ipywidgets.Widget
        Controls that have no name to give (none should be left).
    """

    @classmethod
    def of_controls(cls, root: widgets.Box, status: Any = None) -> "PanelAccess":
        """The accessibility of controls outside any panel (the app's own tools above the tabs): names, toggle
        states and refusals in words, no figures; the bridge becomes ``root``'s last child."""
        return cls(_NoFigures(status), root)

    def __init__(self, panel: Any, root: widgets.Widget) -> None:
        self.bridge = AriaBridge()
        self.root = root
        self.status = getattr(panel, "status", None)
        self.figures: list[FigureAccess] = []
        self.unnamed: list[widgets.Widget] = []
        self._marks: dict[int, str] = {}
        self._sliders: dict[str, widgets.Widget] = {}      # class -> slider whose readout can be typed in
        self._later = Debounced(self.refresh, DEBOUNCE_SECONDS)
        self.bridge.on_msg(self._on_message)
        self._build_figures(panel, root)
        self.scan(root)
        if isinstance(root, widgets.Box):
            root.children = (*root.children, self.bridge)

    # ------------------------------------------------------------------ marking
    def mark(self, widget: widgets.Widget) -> str:
        """The class that names ``widget``'s element for the bridge (added now if it has none)."""
        key = id(widget)
        if key not in self._marks:
            existing = getattr(widget, "_explorer_aria_class", None)
            css_class = existing or f"explorer-aria-{next(_counter)}"
            if existing is None:
                widget.add_class(css_class)
                widget._explorer_aria_class = css_class
            self._marks[key] = css_class
        return self._marks[key]

    def announce(self, *readouts: widgets.Widget) -> None:
        """Make ``readouts`` ``aria-live="polite"`` regions (their element persists across value updates)."""
        for readout in readouts:
            readout.add_class(LIVE_CLASS)

    # ------------------------------------------------------------------ figures
    def _build_figures(self, panel: Any, root: widgets.Widget) -> None:
        groups: dict[int, tuple[Any, list]] = {}
        for view in panel._figures:
            if view.canvas is None:
                continue
            groups.setdefault(id(view.canvas), (view.canvas, []))[1].append(view)
        parents = _parents(root)
        named = sum(len(views) for _, views in groups.values()) > 1     # several figures: each button says which
        for canvas, views in groups.values():
            access = FigureAccess(self, canvas, views, named=named)
            self.figures.append(access)
            for view in views:
                view.access = access
            _insert_after(canvas, access.widget, parents)

    def refresh(self) -> None:
        """Recompute every figure's words now, in the order the figures are on the page (tests, scripts: a
        browser's frames do it by themselves, through :meth:`schedule`)."""
        for access in self.figures:
            access.refresh()

    def schedule(self) -> None:
        """A frame of one of the panel's canvases went to the browser: :meth:`refresh` every figure soon, once for
        a burst of frames (debounced), or now without an event loop."""
        self._later()

    # ------------------------------------------------------------------ controls
    def scan(self, root: widgets.Widget) -> int:
        """Name every control under ``root`` (sliders: name and value in words); returns how many were named."""
        count = 0
        stack, seen = [root], set()
        while stack:
            widget = stack.pop()
            if id(widget) in seen or not isinstance(widget, widgets.Widget):
                continue
            seen.add(id(widget))
            stack.extend(getattr(widget, "children", ()) or ())
            if isinstance(widget, widgets.Box) and not getattr(widget, "_explorer_aria_watched", False):
                widget._explorer_aria_watched = True       # controls put in later (a rebuilt grid) get names too
                widget.observe(self._on_children, names="children")
            if getattr(widget, "_explorer_aria_named", False) or isinstance(widget, AriaBridge):
                continue
            if self.name(widget):
                count += 1
        return count

    def _on_children(self, change: Any) -> None:
        kept = {id(child) for child in change["new"]}
        for child in change["old"] or ():
            if id(child) not in kept:
                self.forget(child)
        for child in change["new"]:
            try:
                self.scan(child)
            except Exception:
                log.exception("naming the new controls failed")

    def forget(self, root: widgets.Widget) -> None:
        """Drop the bridge's rules of the controls under ``root`` (a replaced grid: the rules do not pile up)."""
        stack, classes = [root], []
        while stack:
            widget = stack.pop()
            stack.extend(getattr(widget, "children", ()) or ())
            css_class = self._marks.pop(id(widget), None)
            if css_class is not None:
                classes.append(css_class)
                self._sliders.pop(css_class, None)
        if classes:
            self.bridge.rules = {key: value for key, value in self.bridge.rules.items() if key not in classes}

    def name(self, widget: widgets.Widget) -> bool:
        """Give ``widget`` its accessible name (and a slider its value in words); False if it is no control.

        The name follows the control's description (a panel that renames a control renames it for a screen
        reader too).
        """
        kind = _kind(widget)
        if kind is None:
            return False
        if isinstance(widget, widgets.ToggleButton):
            self.toggle_state(widget)
        if kind == "button" and _plain(getattr(widget, "description", "")) \
                and not getattr(widget, "_explorer_name", None):
            return False                          # its text is its name
        if not accessible_name(widget):
            self.unnamed.append(widget)
            return False
        css_class = self.mark(widget)
        widget._explorer_aria_named = True

        def update(change: Any = None) -> None:
            self._apply(widget, kind, css_class)

        update()
        names = ["description", "tooltip", "placeholder"]
        if kind == "slider":
            names += ["value", "min", "max", "base", "options", "disabled"]
            if typed_range(widget) is not None:
                self._sliders[css_class] = widget
        widget.observe(update, names=[n for n in names if widget.has_trait(n)])
        widget._explorer_aria_update = update     # words that read other controls: call it when they change
        return True

    def toggle_state(self, button: widgets.ToggleButton) -> None:
        """A toggle button says whether it is on, not by its shade alone: ``aria-pressed`` (WAI-ARIA's button
        pattern), or ``aria-expanded`` for one that shows a block under it (``button._explorer_disclosure``:
        "Code"), kept up to date with its value."""
        if getattr(button, "_explorer_toggle_state", False):
            return
        button._explorer_toggle_state = True
        attribute = "aria-expanded" if getattr(button, "_explorer_disclosure", False) else "aria-pressed"
        css_class = self.mark(button)

        def update(change: Any = None) -> None:
            self.bridge.put(css_class, "", {attribute: "true" if button.value else "false"})

        update()
        button.observe(update, names="value")

    def _apply(self, widget: widgets.Widget, kind: str, css_class: str) -> None:
        name = accessible_name(widget) or "unnamed control"
        put = self.bridge.put
        if kind == "slider":
            text = slider_text(widget)
            if isinstance(widget, _RANGE_SLIDERS):
                put(css_class, ".noUi-handle-lower", {"aria-label": f"{name}, lower end", "aria-valuetext": text})
                put(css_class, ".noUi-handle-upper", {"aria-label": f"{name}, upper end", "aria-valuetext": text})
            else:
                put(css_class, ".noUi-handle", {"aria-label": name, "aria-valuetext": text})
            put(css_class, ".noUi-handle", {"aria-disabled": "true" if widget.disabled else None})
            put(css_class, ".widget-readout", {"aria-label": f"{name}, typed value", "role": "textbox",
                                               **_readout_limits(widget)})
        elif kind == "input":
            put(css_class, "input, textarea", {"aria-label": name})
        elif kind == "select":
            put(css_class, "select", {"aria-label": name})
        elif kind == "checkbox":
            put(css_class, "input[type=checkbox]", {"aria-label": name})
        elif kind == "group":
            # one Tab stop, arrows move the choice: the bridge's JavaScript (BRIDGE_ESM, ``group``)
            put(css_class, "", {"role": "radiogroup", "aria-label": name,
                                "data-explorer-group": "radio" if isinstance(widget, widgets.RadioButtons)
                                else "buttons"})
        else:
            put(css_class, "", {"aria-label": name})

    # ------------------------------------------------------------------ typed values refused
    def _on_message(self, _bridge: Any, content: Any, _buffers: Any) -> None:
        """A message from the bridge's browser side (ipywidgets' ``on_msg``); never raises."""
        try:
            self.refuse_typed(content)
        except Exception:
            log.exception("aria bridge: a message from the browser could not be answered")

    def refuse_typed(self, content: Any) -> str | None:
        """Say on the status line why the browser refused a value typed in a slider's readout; returns the words.

        ``content`` is the bridge's message ``{"event": TYPED_EVENT, "class": <the slider's class>, "text": <what
        was typed>}``, checked again here as anything from a browser: a class that names no slider of this panel
        is refused in words, the text is quoted shortened and read as a number only up to
        :data:`MAX_TYPED_CHARS` characters.  The slider's value is never changed here (the browser kept it); a
        text the kernel finds in range says nothing (the browser's slider takes such a value itself).
        """
        if not isinstance(content, dict) or content.get("event") != TYPED_EVENT:
            log.warning("aria bridge: a message of an unknown kind from the browser was ignored")
            return None
        css_class, text = content.get("class"), content.get("text")
        widget = self._sliders.get(css_class) if isinstance(css_class, str) else None
        if widget is None or not isinstance(text, str):
            words = (f"A value typed in the browser named no slider of this tab ({quote(css_class, 40)}); "
                     "it was ignored.")
        else:
            words = typed_refusal(widget, text)
        if words is not None:
            self._say(words)
        return words

    def _say(self, words: str) -> None:
        """Show ``words`` as an error on the panel's status line (the log when the panel has none)."""
        if self.status is not None and callable(getattr(self.status, "error", None)):
            self.status.error(words)
        else:
            log.info("aria bridge: %s", words)

    def slider_text(self, widget: widgets.Widget) -> str:
        """The ``aria-valuetext`` the bridge holds for ``widget``'s handle now."""
        css_class = self.mark(widget)
        for selector in (".noUi-handle", ".noUi-handle-lower"):
            text = self.bridge.attrs(css_class, selector).get("aria-valuetext")
            if text is not None:
                return text
        return ""


class _NoFigures:
    """What :class:`PanelAccess` reads of a panel, for controls that belong to none (:meth:`PanelAccess.of_controls`)."""

    _figures: tuple = ()

    def __init__(self, status: Any = None) -> None:
        self.status = status


def _kind(widget: widgets.Widget) -> str | None:
    """What kind of control ``widget`` is, for its ARIA attributes (None: not a control)."""
    for kinds, kind in ((_RANGE_SLIDERS + _SLIDERS, "slider"), (_INPUTS, "input"), (_SELECTS, "select"),
                        ((widgets.Checkbox,), "checkbox"), (_GROUPS, "group"),
                        ((widgets.Button, widgets.ToggleButton), "button")):
        if isinstance(widget, kinds):
            return kind
    return None


def _parents(root: widgets.Widget) -> dict[int, tuple[widgets.Box, widgets.Widget]]:
    """``{id(child): (box, child)}`` for every widget under ``root``."""
    parents: dict[int, tuple[widgets.Box, widgets.Widget]] = {}
    stack = [root]
    while stack:
        box = stack.pop()
        for child in getattr(box, "children", ()) or ():
            if id(child) not in parents:
                parents[id(child)] = (box, child)
                stack.append(child)
    return parents


def _insert_after(canvas: Any, item: widgets.Widget, parents: dict) -> None:
    """Put ``item`` under ``canvas``: after it in a column, or after the row that holds it (figures side by side)."""
    node = canvas
    while id(node) in parents:
        box, _ = parents[id(node)]
        vertical = isinstance(box, widgets.VBox) or (
            isinstance(box, widgets.Box) and not isinstance(box, widgets.HBox)
            and (box.layout.flex_flow or "").startswith("column"))
        if vertical:
            children = list(box.children)
            position = children.index(node) + 1
            following = children[position] if position < len(children) else None
            if following is not None and getattr(following, "_explorer_after", None) is node:
                # several canvases side by side: their buttons side by side too, in one line under the row
                if not isinstance(following, widgets.HBox) or "explorer-figure-access-row" not in following._dom_classes:
                    group = widgets.HBox([following], layout=widgets.Layout(flex_flow="row wrap", max_width="100%",
                                                                            align_items="flex-start"))
                    group.add_class("explorer-figure-access-row")
                    group._explorer_after = node
                    children[position] = following = group
                following.children = (*following.children, item)
            else:
                item._explorer_after = node
                children.insert(position, item)
            box.children = children
            for child in children:
                parents[id(child)] = (box, child)
            return
        node = box
    log.debug("canvas not in the panel's widget: its text and tables are not placed")
