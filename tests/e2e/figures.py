"""Browser-side helpers for figures: where each visible figure's canvas lands, waiting for a tab to settle,
and the documentation's screenshots (one per tab, small PNGs)."""

from __future__ import annotations

import re
import time
from pathlib import Path

from explorer.app import FIGURE_TEXT_POINTS

#: Every visible figure: its box (the ``explorer-fit`` element), its canvas as drawn, the canvas's own
#: size (the width the kernel rendered), its design width, and the visible area of its tab.
FIGURES_JS = r"""
() => [...document.querySelectorAll('.explorer-app .jupyter-matplotlib, .explorer-lesson .jupyter-matplotlib')]
  .filter(e => e.offsetParent !== null && e.getBoundingClientRect().width > 0)
  .map(e => {
    const canvas = e.querySelector('canvas');
    const c = canvas.getBoundingClientRect(), b = e.getBoundingClientRect();
    const area = (e.closest('.widget-tab-contents, .lm-TabPanel-stackedpanel, .jp-Notebook') || document.documentElement)
      .getBoundingClientRect();
    const id = [...e.classList].find(k => /^explorer-fit-[0-9a-f]+$/.test(k)) || '';
    const fitted = ([...e.classList].find(k => /^explorer-fitted-\d+-\d+$/.test(k)) || '').split('-').slice(2).map(Number);
    return {id, fitted: fitted.length === 2 ? fitted : null,
            design: parseFloat(e.style.width) || 0, rendered: canvas.width / window.devicePixelRatio,
            box: [b.left, b.right, b.top, b.bottom], canvas: [c.left, c.right, c.width, c.top, c.bottom],
            area: [area.left, Math.min(area.right, document.documentElement.clientWidth)]};
  })
"""

#: Each visible figure: the figure's dots per inch in the kernel (its class explorer-dpi-N) and the scale the
#: browser draws its canvas at (CSS width over the width the kernel rendered).
FIGURE_SCALE_JS = r"""
() => [...document.querySelectorAll('.explorer-app .jupyter-matplotlib')]
  .filter(e => e.offsetParent !== null && e.getBoundingClientRect().width > 0)
  .map(e => {
    const canvas = e.querySelector('canvas');
    const dpi = parseFloat(([...e.classList].find(k => /^explorer-dpi-\d+$/.test(k)) || 'explorer-dpi-0').slice(13));
    const id = [...e.classList].find(k => /^explorer-fit-[0-9a-f]+$/.test(k)) || '';
    return {id, dpi, scale: canvas.getBoundingClientRect().width / (canvas.width / window.devicePixelRatio)};
  })
"""

def drawn_points(figure: dict) -> float:
    """A figure's smallest text in CSS points at the size it is drawn: its points at the kernel's dots per inch
    are CSS pixels (pt x dpi / 72), scaled by the browser, and 96 CSS pixels are 72 points."""
    return FIGURE_TEXT_POINTS * figure["dpi"] / 72 * figure["scale"] * 72 / 96


#: Text of the shown tab (to know that a lazily built tab has finished loading).
TAB_TEXT_JS = r"""
() => { const t = [...document.querySelectorAll('.explorer-app .widget-tab-contents > .lm-Widget, .explorer-app .lm-TabPanel-stackedpanel > .lm-Widget')]
          .filter(e => !e.classList.contains('lm-mod-hidden') && e.offsetParent !== null);
        return t.map(e => e.innerText.length).join(',') + '|' + (t.some(e => e.innerText.includes('Loading...')) ? 'loading' : ''); }
"""


def followed(figure: dict) -> bool:
    """Whether a figure has followed its box: the kernel fitted it for the box's present width and the canvas is
    the width the kernel rendered (``explorer-fitted-<box>-<rendered>``, set by ``ExplorerCanvas.fit_width``), and
    drawn.  A figure that does not follow its container (no ``explorer-fit-`` id) counts as followed once drawn."""
    drawn = figure["canvas"][4] - figure["canvas"][3] >= 50
    if not figure["id"]:
        return drawn
    if figure["fitted"] is None:
        return False
    box, rendered = figure["fitted"]
    return drawn and abs(figure["box"][1] - figure["box"][0] - box) <= 1.5 and abs(figure["rendered"] - rendered) <= 1


def settle(page, timeout_s: float = 90.0, quiet_polls: int = 2, poll_ms: int = 250) -> list[dict]:
    """Wait until the shown tab has loaded and its figures have followed their boxes (:func:`followed`), with
    nothing changing for ``quiet_polls`` polls; return the figures (as they are at the timeout otherwise).

    A figure that has not yet followed its box fails :func:`followed` (the kernel marks the width it fitted for),
    so the quiet polls only wait for what could still appear on the tab: half a second and more, longer than
    the figure sizer's debounces (120 ms in the browser, ``DEBOUNCE_SECONDS`` in the kernel)."""
    deadline = time.monotonic() + timeout_s
    last, same = None, 0
    figures: list[dict] = []
    while time.monotonic() < deadline:
        figures = page.evaluate(FIGURES_JS)
        text = page.evaluate(TAB_TEXT_JS)
        signature = (text, tuple((f["id"], round(f["rendered"]), round(f["box"][1] - f["box"][0]), f["fitted"])
                                 for f in figures))
        if signature == last and not text.endswith("loading") and all(followed(f) for f in figures):
            same += 1
            if same >= quiet_polls:
                return figures
        else:
            last, same = signature, 0
        page.wait_for_timeout(poll_ms)
    return figures


def clipped(figures: list[dict], slack: float = 1.0) -> list[str]:
    """The figures whose canvas is not shown whole in its box, or whose box goes past the tab's visible area."""
    bad = []
    for f in figures:
        box_left, box_right, box_top, box_bottom = f["box"]
        canvas_left, canvas_right, _, canvas_top, canvas_bottom = f["canvas"]
        area_left, area_right = f["area"]
        if canvas_right > box_right + slack or canvas_left < box_left - slack:
            bad.append(f"{f['id']}: canvas {canvas_left:.0f}-{canvas_right:.0f} outside its box {box_left:.0f}-{box_right:.0f}")
        if canvas_bottom > box_bottom + slack or canvas_top < box_top - slack or canvas_bottom - canvas_top < 50:
            bad.append(f"{f['id']}: canvas {canvas_top:.0f}-{canvas_bottom:.0f} (vertically) not shown whole in its "
                       f"box {box_top:.0f}-{box_bottom:.0f}")
        if box_right > area_right + slack:
            bad.append(f"{f['id']}: right edge {box_right:.0f} past the tab's visible area {area_right:.0f}")
    return bad


#: The documentation's screenshot of each tab (docs/_static/screenshots/<name>.png); About has none.
SCREENSHOT_NAMES = {
    "Start here": "start-here",
    "Data": "data",
    "What does ε mean?": "what-does-epsilon-mean",
    "Randomized response": "randomized-response",
    "t-closeness": "t-closeness",
    "Permutation": "permutation",
    "Dominance": "dominance",
    "Multi-attribute RR": "multi-attribute-rr",
    "Lessons": "lessons",
}

#: A committed screenshot stays under this size.
MAX_SCREENSHOT_BYTES = 250_000


def screenshot_name(title: str) -> str | None:
    """The file name (without .png) of a tab's screenshot, None for a tab without one."""
    if title in SCREENSHOT_NAMES:
        return SCREENSHOT_NAMES[title]
    return None if title == "About" else re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or None


def save_small_png(page, path: Path) -> Path:
    """A viewport screenshot, optimized (and reduced to a 256-colour palette when still too large)."""
    import io

    from PIL import Image

    image = Image.open(io.BytesIO(page.screenshot(full_page=False))).convert("RGB")
    image.save(path, optimize=True)
    if path.stat().st_size > MAX_SCREENSHOT_BYTES:
        image.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)
    return path
