"""What every view needs to be read, seen and used with a keyboard: contrast, visible focus, reflow, a skip link.

* :data:`A11Y_CSS`: the page's rules for every widget under a box of class ``explorer-a11y`` (the app, each
  lesson, each tab shown with :func:`explorer.app.show`): JupyterLab's and ipywidgets' grey texts darkened to
  a contrast of at least 4.5:1 (the tab bar's and the accordions' labels were 4.45:1), a focus outline of
  3 px and at least 3:1 on everything that takes the keyboard (WCAG 2.1, 2.4.7 and 1.4.11), controls that
  wrap and shrink at 320 CSS pixels (1.4.10; figures and tables scroll inside their own box), and no
  transitions or animations when the reader asks for reduced motion.
* :class:`SkipLink`: "Skip to the current tab's content", the app's first Tab stop, shown when focused; it
  moves the focus to the panel of the tab shown.  It carries :data:`A11Y_CSS`.
* :class:`A11yStyle`: the same CSS without a link (a lesson or a tab shown on its own).
* :func:`tab_heading`: a tab's name as a visually hidden ``<h2>`` (the tab bar shows it), under the page's ``<h1>``;
  :func:`section_heading`: a section of a tab, an ``<h3>`` that looks like the bold label it stands for.
* Both release the Tab key on figures: ipympl's canvas swallows every key for matplotlib, Tab included, a
  keyboard trap; with either widget on the page, Tab and Shift+Tab leave a figure as they leave anything else.

Both are small anywidgets (their JavaScript and CSS are strings here, sent through the widget's comm: no CDN
and no build step).  They take nothing from the browser: a client's state update is dropped.
"""

from __future__ import annotations

import html
import logging
from typing import Any

import ipywidgets
import traitlets

try:
    import anywidget
    _WidgetBase: type = anywidget.AnyWidget
except ImportError:          # a declared dependency; without it the CSS and the skip link are missing (logged)
    anywidget = None
    _WidgetBase = ipywidgets.DOMWidget

__all__ = ["A11Y_CSS", "A11Y_CLASS", "FOCUS_COLOR", "SKIP_TEXT", "SkipLink", "A11yStyle", "skip_link",
           "a11y_style", "tab_heading", "section_heading"]

log = logging.getLogger("explorer.panels.a11y")

#: The class of a box whose widgets follow :data:`A11Y_CSS`.
A11Y_CLASS = "explorer-a11y"
#: The focus outline's colour: 6.4:1 against white, 5.6:1 against the tab bar's grey.
FOCUS_COLOR = "#1a5fb4"
#: The skip link's words.
SKIP_TEXT = "Skip to the current tab's content"

A11Y_CSS = """
.explorer-a11y {
  --jp-ui-font-color1: rgba(0, 0, 0, 0.87);
  --jp-ui-font-color2: rgba(0, 0, 0, 0.74);
  --jp-ui-font-color3: rgba(0, 0, 0, 0.66);
  --jp-content-font-color2: rgba(0, 0, 0, 0.74);
  --jp-content-font-color3: rgba(0, 0, 0, 0.66);
  --jp-widgets-label-color: rgba(0, 0, 0, 0.87);
  --jp-widgets-readout-color: rgba(0, 0, 0, 0.87);
  --jp-widgets-input-color: rgba(0, 0, 0, 0.87);
  --jp-widgets-input-border-color: #767676;
  --jp-widgets-slider-border-color: #767676;
  --jp-widgets-slider-handle-border-color: #595959;
}
.explorer-a11y .lm-TabBar-tab, .explorer-a11y .lm-TabBar-tabLabel,
.explorer-a11y .jupyter-widget-Collapse-header, .explorer-a11y .jupyter-widget-Collapse-header span {
  color: #3b3b3b;
}
.explorer-a11y .lm-TabBar-tab.lm-mod-current, .explorer-a11y .lm-TabBar-tab.lm-mod-current .lm-TabBar-tabLabel {
  color: #000;
}
.explorer-a11y .lm-TabBar-tab.lm-mod-current { border-top: 3px solid #1a5fb4; }
.explorer-a11y a { color: #0b57a4; }
.explorer-a11y :focus-visible, .explorer-a11y:focus-visible, .explorer-a11y .noUi-handle:focus,
.explorer-a11y.explorer-a11y .jupyter-widgets input:focus-visible,
.explorer-a11y.explorer-a11y .jupyter-widgets select:focus-visible,
.explorer-a11y.explorer-a11y .jupyter-widgets textarea:focus-visible,
.explorer-a11y.explorer-a11y .jupyter-widgets button:focus-visible,
.explorer-a11y.explorer-a11y .jupyter-widgets .noUi-handle:focus {
  outline: 3px solid #1a5fb4 !important;
  outline-offset: 2px !important;
}
.explorer-a11y .lm-TabBar-tab:focus-visible { outline-offset: -3px !important; }
.explorer-a11y .lm-TabBar-content { flex-wrap: wrap; }
.explorer-a11y .lm-TabBar { min-height: fit-content; height: auto; max-height: none; overflow: visible; }
.explorer-a11y .widget-tab-contents:focus, .explorer-a11y .explorer-skip-target:focus { outline-offset: -3px !important; }
.explorer-skip-link { position: absolute; left: -10000px; top: auto; white-space: nowrap; }
.explorer-skip-link:focus, .explorer-skip-link:focus-visible {
  position: static; display: inline-block;
  margin: 4px 0; padding: 6px 12px; background: #fff; color: #0b57a4; font-weight: bold;
  text-decoration: underline; border: 2px solid #1a5fb4;
}
@media (max-width: 700px) {
  .explorer-a11y .widget-hbox, .explorer-a11y .widget-box.widget-hbox { flex-wrap: wrap; }
  .explorer-a11y .widget-inline-hbox:not(.widget-slider), .explorer-a11y .widget-inline-vbox {
    max-width: 100%; min-width: 0; flex-wrap: wrap; }
  .explorer-a11y .widget-slider { max-width: 100%; min-width: 0; }
  .explorer-a11y .widget-slider .slider-container { flex: 1 1 auto; min-width: 40px; }
  .explorer-a11y .widget-slider .widget-readout { min-width: 2.5em; width: auto; flex: 0 1 auto; }
  .explorer-a11y .widget-slider .widget-label { flex-shrink: 1; min-width: 0; }
  .explorer-a11y .widget-box, .explorer-a11y .widget-html, .explorer-a11y .widget-html-content,
  .explorer-a11y .jupyter-widgets { max-width: 100%; min-width: 0 !important; box-sizing: border-box; }
  .explorer-a11y .jupyter-widgets.widget-inline-hbox, .explorer-a11y .jupyter-widgets.widget-box {
    max-width: calc(100% - 2 * var(--jp-widgets-margin, 2px)); }
  .explorer-a11y .widget-text input,
  .explorer-a11y .widget-dropdown select, .explorer-a11y .jupyter-button { max-width: 100%; min-width: 0; }
  .explorer-a11y .widget-label { max-width: 100%; white-space: normal; }
  .explorer-a11y .widget-html-content { white-space: normal; overflow-wrap: anywhere; }
  .explorer-a11y pre { white-space: pre-wrap; }
}
@media (prefers-reduced-motion: reduce) {
  .explorer-a11y *, .explorer-a11y *::before, .explorer-a11y *::after {
    animation: none !important; transition: none !important; scroll-behavior: auto !important;
  }
}
"""

#: ipympl's canvas takes the keyboard focus and swallows every key for matplotlib (Tab too): a keyboard
#: trap (WCAG 2.1.2).  Tab and Shift+Tab on a figure are kept from ipympl's handler (a listener on the
#: document, in the capture phase, stops the event before it reaches the canvas), so the browser moves the
#: focus on as anywhere else.  Installed once per page.
NO_TRAP_JS = r"""
function releaseTab() {
  if (window.__explorerNoTrap) return;
  window.__explorerNoTrap = true;
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Tab" || !(event.target instanceof Element)) return;
    if (event.target.closest(".jupyter-matplotlib-canvas-div, .jupyter-matplotlib-canvas-container")) {
      event.stopPropagation();
    }
  }, true);
  document.addEventListener("keyup", (event) => {
    if (event.key === "Tab" && event.target instanceof Element &&
        event.target.closest(".jupyter-matplotlib-canvas-div, .jupyter-matplotlib-canvas-container")) {
      event.stopPropagation();
    }
  }, true);
}
"""

#: The skip link: an ``<a href>`` (Enter follows it), moving the focus to the panel of the tab shown.
SKIP_ESM = NO_TRAP_JS + r"""
function render({ model, el }) {
  releaseTab();
  el.classList.add("explorer-skip");
  const link = document.createElement("a");
  link.href = "#";
  link.className = "explorer-skip-link";
  link.textContent = model.get("text");
  link.addEventListener("click", (event) => {
    event.preventDefault();
    const app = el.closest(".explorer-app") || document;
    const contents = app.querySelector(".widget-tab-contents");
    if (!contents) return;
    const panel = [...contents.children].find((child) => !child.classList.contains("lm-mod-hidden"));
    if (!panel) return;
    const tab = app.querySelector(".lm-TabBar-tab.lm-mod-current");
    panel.setAttribute("tabindex", "-1");
    panel.setAttribute("role", "region");
    panel.setAttribute("aria-label", tab ? tab.textContent.trim() : "current tab");
    panel.classList.add("explorer-skip-target");
    panel.scrollIntoView({ block: "start" });
    panel.focus({ preventScroll: true });
  });
  el.appendChild(link);
  // A button that opens another tab (the landing view's "Start the lessons") leaves the focus on a hidden
  // element, and the browser drops it to the page's start: give it to the new tab's panel instead.
  let contents = null, lastInPanel = false;
  const onFocusIn = (event) => { lastInPanel = !!(contents && contents.contains(event.target)); };
  const follow = () => {
    const active = document.activeElement;
    const lost = !active || active === document.body || (contents.contains(active) && !active.offsetParent);
    if (!lost || !lastInPanel) return;
    const panel = [...contents.children].find((child) => !child.classList.contains("lm-mod-hidden"));
    if (!panel) return;
    panel.setAttribute("tabindex", "-1");
    panel.classList.add("explorer-skip-target");
    panel.focus({ preventScroll: true });
  };
  const watcher = new MutationObserver(() => setTimeout(follow, 0));
  const attach = () => {
    const app = el.closest(".explorer-app");
    contents = app && app.querySelector(".widget-tab-contents");
    if (!contents) { setTimeout(attach, 200); return; }
    watcher.observe(contents, { attributes: true, subtree: false, childList: true, attributeFilter: ["class"] });
    for (const child of contents.children) watcher.observe(child, { attributes: true, attributeFilter: ["class"] });
    document.addEventListener("focusin", onFocusIn);
  };
  attach();
  return () => { watcher.disconnect(); document.removeEventListener("focusin", onFocusIn); el.removeChild(link); };
}
export default { render };
"""

STYLE_ESM = NO_TRAP_JS + r"""
function render({ el }) { releaseTab(); el.classList.add("explorer-a11y-style"); }
export default { render };
"""


class _ClientReadOnly(_WidgetBase):
    """A widget that takes nothing from the browser: every client state update is dropped."""

    n_refused = 0

    def set_state(self, sync_data: Any) -> None:
        """Drop a client's state update (the kernel decides everything here); never raises."""
        self.n_refused += 1
        log.warning("%s: client update of %s ignored", type(self).__name__, sorted(sync_data or {}))


class SkipLink(_ClientReadOnly):
    """"Skip to the current tab's content": put it first in the app; it carries :data:`A11Y_CSS`.

    Examples
    --------
    >>> link = SkipLink()
    >>> link.text
    "Skip to the current tab's content"
    >>> link.set_state({"text": "forged"}); link.text
    "Skip to the current tab's content"
    """

    _esm = SKIP_ESM
    _css = A11Y_CSS
    text = traitlets.Unicode(SKIP_TEXT).tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if anywidget is None:
            log.warning("skip link: anywidget is not installed (pip install anywidget): no skip link, no "
                        "focus outline and contrast rules")


class A11yStyle(_ClientReadOnly):
    """:data:`A11Y_CSS` alone, for a lesson or a tab shown outside the app (nothing shown)."""

    _esm = STYLE_ESM
    _css = A11Y_CSS

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.layout.display = "none"


def skip_link() -> SkipLink:
    """A new skip link (one per app)."""
    return SkipLink()


def a11y_style() -> A11yStyle:
    """A new hidden widget carrying :data:`A11Y_CSS`."""
    return A11yStyle()


def tab_heading(title: str) -> ipywidgets.HTML:
    """Tab ``title``'s name as a heading of level 2, visually hidden: the tab bar shows the name already, and a
    screen reader's list of headings then reads "Privacy explorer" (the page's ``<h1>``), the tab's name, and the
    tab's sections (``<h3>``: :func:`section_heading`), with no level skipped.

    Examples
    --------
    >>> tab_heading("Dominance").value
    '<h2>Dominance</h2>'
    """
    heading = ipywidgets.HTML(f"<h2>{html.escape(title)}</h2>")
    heading.add_class("explorer-sr-only")
    heading.add_class("explorer-tab-heading")
    return heading


def section_heading(markup: str, *, inline: bool = False, margin: str = "0", level: int = 3) -> str:
    """A section of a tab as a heading of ``level`` (3): the app's title is the page's ``<h1>``, each tab's name an
    ``<h2>`` (:func:`tab_heading`), so a screen reader's list of headings is the outline of the tab
    (WCAG 1.3.1, 2.4.6).  It looks like the bold label it stands for: the size of the text around it.

    ``markup`` is HTML (escape text first); ``inline`` runs the sentence that follows on the same line (not
    inside a ``<p>``, which cannot hold a heading); ``level`` 2 where no ``<h2>`` is above (a lesson notebook).

    Examples
    --------
    >>> section_heading("The intruder", inline=True)
    "<h3 style='display:inline;font-size:1em;margin:0'>The intruder</h3>"
    """
    level = int(level)
    if not 2 <= level <= 6:
        raise ValueError(f"level must be between 2 and 6, got {level!r}")
    return (f"<h{level} style='{'display:inline;' if inline else ''}font-size:1em;margin:{margin}'>{markup}"
            f"</h{level}>")
