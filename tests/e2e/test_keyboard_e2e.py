"""The keyboard alone, in headless Chromium at 1366x768: from the landing view through lesson 1 to lesson 2, and
the randomized-response ε moved with the arrow keys; every Tab stop on the way shows a focus outline.

Nothing here clicks: every step is a key press (Tab, Shift+Tab, Enter, Space, arrows).  The page is read (which
element has the focus, what the feedback says) to know where the keyboard is, as a sighted keyboard user reads
the screen.  The focus outline of every stop must be at least 2 px wide with a contrast of 3:1 or more against
white (WCAG 2.1, 2.4.7 and 1.4.11).

The two journeys share one page (``shared_app_page``).  The first starts on the page as the app opens it (its
first Tab stop is the skip link); before the second, a script shows the first tab again and puts the focus on the
skip link, where a fresh page's first Tab puts it: the journey itself is key presses only.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from explorer.lessons import lessons
from explorer.panels.a11y import SKIP_TEXT
from explorer.plotting.style import contrast_ratio
from tests.e2e.figures import settle
from tests.e2e.helpers import open_tab

#: What has the focus: tag, classes, text, role, and its outline and box shadow as drawn.
FOCUSED_JS = r"""
() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  const s = getComputedStyle(e);
  return {tag: e.tagName.toLowerCase(), cls: (typeof e.className === 'string' ? e.className : ''),
          text: (e.innerText || e.value || e.getAttribute('aria-label') || '').trim().slice(0, 80),
          role: e.getAttribute('role') || '', type: e.type || '',
          outlineStyle: s.outlineStyle, outlineWidth: parseFloat(s.outlineWidth) || 0, outlineColor: s.outlineColor,
          path: [...(function* (n) { while (n) { yield (typeof n.className === 'string' ? n.className : ''); n = n.parentElement; } })(e)].join(' ')};
}
"""

MAX_PRESSES = 250


def _rgb(css: str) -> tuple[float, float, float]:
    numbers = [float(x) for x in re.findall(r"[\d.]+", css)[:3]]
    return tuple(n / 255 for n in numbers)  # type: ignore[return-value]


class Keyboard:
    """Key presses on a page, remembering every focus stop and whether its outline could be seen."""

    def __init__(self, page):
        self.page = page
        self.stops: list[dict] = []
        self.unseen: list[str] = []

    def focused(self) -> dict | None:
        return self.page.evaluate(FOCUSED_JS)

    def press(self, key: str) -> dict | None:
        self.page.keyboard.press(key)
        self.page.wait_for_timeout(60)
        now = self.focused()
        if now is not None and key in ("Tab", "Shift+Tab"):
            self.stop(now)
        return now

    def stop(self, now: dict) -> None:
        """Remember the focus stop ``now`` and whether its outline could be seen."""
        self.stops.append(now)
        visible = (now["outlineStyle"] not in ("none", "") and now["outlineWidth"] >= 2
                   and contrast_ratio(_rgb(now["outlineColor"])) >= 3.0)
        if not visible:
            self.unseen.append(f"{now['tag']}.{now['cls'][:60]} {now['text'][:30]!r}: outline "
                               f"{now['outlineStyle']} {now['outlineWidth']}px {now['outlineColor']}")

    def tab_to(self, matches, *, backwards: bool = False, limit: int = MAX_PRESSES) -> dict:
        """Press Tab (Shift+Tab) until the focused element satisfies ``matches``; fail after ``limit`` presses."""
        seen = []
        for _ in range(limit):
            now = self.press("Shift+Tab" if backwards else "Tab")
            if now is not None and matches(now):
                return now
            seen.append(None if now is None else f"{now['tag']}.{now['cls'][:40]} {now['text'][:25]!r}")
        raise AssertionError(f"not reached with {limit} presses; the focus went through: {seen[-40:]}")


def _is_button(text: str):
    return lambda f: f["tag"] == "button" and f["text"] == text


class KernelActivity:
    """The kernel's last busy/idle status, read from the page's websocket frames (iopub ``status`` messages)."""

    def __init__(self, page):
        self.state, self.changed = "idle", time.monotonic()
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload) -> None:
        text = payload if isinstance(payload, str) else bytes(payload).decode("utf-8", "replace")
        for state in re.findall(r'"execution_state":\s*"(\w+)"', text):
            self.state, self.changed = state, time.monotonic()

    def wait_idle(self, page, quiet_s: float = 1.0, timeout_s: float = 60.0) -> None:
        """Wait until the kernel has been idle for ``quiet_s`` (what a reader's pause gives it)."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.state == "idle" and time.monotonic() - self.changed >= quiet_s:
                return
            page.wait_for_timeout(100)


def _app_page(browser, url):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.kernel = KernelActivity(page)           # before the page opens its websocket
    page.set_default_timeout(60_000)
    page.goto(url, timeout=120_000)
    page.wait_for_selector(".explorer-app", timeout=120_000)
    expect(page.locator(".explorer-landing")).to_be_visible(timeout=60_000)
    return context, page


@pytest.fixture(scope="module")
def module_app(browser, explorer_server):
    """The module's one page (``shared_app_page``), at 1366x768, on the landing view."""
    context, page = _app_page(browser, explorer_server)
    yield page
    context.close()


def test_landing_to_lesson_2_with_the_keyboard_alone(shared_app_page, tmp_path):
    first, second = lessons()[0], lessons()[1]
    page = shared_app_page                     # the module's first test: the page as the app opened
    keys = Keyboard(page)
    try:
        # 1. The first Tab stop is the skip link, shown when focused.
        now = keys.press("Tab")
        assert now is not None and now["text"] == SKIP_TEXT, now
        expect(page.locator(".explorer-skip-link")).to_be_visible()
        keys.stops.append(now)
        # 2. Into the landing view's content, then "Start the lessons".
        keys.press("Enter")
        now = keys.focused()
        assert now is not None and "explorer-landing" in now["cls"], now
        keys.tab_to(_is_button("Start the lessons"))
        keys.press("Enter")
        lesson = page.locator(f".explorer-lesson-{first.key}")
        expect(lesson).to_be_visible(timeout=120_000)
        # 3. Lesson 1: read it (its text is on the page), change its control with the arrow keys.
        expect(lesson).to_contain_text(first.goal[:40])
        readout = lesson.locator(".widget-readout").first
        before = readout.inner_text()
        keys.tab_to(lambda f: "noUi-handle" in f["cls"] and f"explorer-lesson-{first.key}" in f["path"])
        keys.press("ArrowRight")
        keys.press("ArrowRight")
        expect(readout).not_to_have_text(before, timeout=30_000)
        settle(page)                                        # the lesson's figures redrawn: the kernel is free
        # 4. Its check question: the first choice gets the focus, arrows choose, Space picks, Check judges.
        check = first.check
        question = lesson.locator(".explorer-check")
        keys.tab_to(lambda f: f["tag"] == "input" and f["type"] == "radio" and "explorer-check" in f["path"])
        radios = question.locator("input[type=radio]")
        keys.press("Space")
        expect(radios.nth(0)).to_be_checked()
        for k in range(1, int(check.answer) + 1):          # one choice at a time, as a reader would
            keys.press("ArrowDown")
            expect(radios.nth(k)).to_be_checked()
            page.wait_for_timeout(300)
        # ipywidgets holds a control's update while the kernel is busy, but sends a button's click at once: on
        # a loaded machine a Check pressed at once can reach the kernel before the choice.  A reader's pause:
        page.kernel.wait_idle(page)
        keys.tab_to(_is_button("Check"))
        keys.press("Enter")
        expect(question.locator(".explorer-check-feedback")).to_contain_text("Right.", timeout=30_000)
        # 5. On to lesson 2: back up to "Next" and press it.
        keys.tab_to(_is_button("Next"), backwards=True)
        keys.press("Enter")
        expect(page.locator(f".explorer-lesson-{second.key}")).to_be_visible(timeout=120_000)
        assert keys.unseen == [], f"focus stops without a visible outline: {keys.unseen}"
    except Exception:
        page.screenshot(path=str(tmp_path / "keyboard.png"), full_page=True)
        print(f"screenshot: {tmp_path / 'keyboard.png'}")
        raise


def test_randomized_response_epsilon_moves_with_the_arrow_keys(shared_app_page, tmp_path):
    page = shared_app_page
    # Set by script, as on a fresh page: the first tab shown, the focus on the skip link (its first Tab stop).
    open_tab(page, "Start here")
    expect(page.locator(".explorer-landing")).to_be_visible(timeout=60_000)
    page.locator(".explorer-skip-link").focus()
    keys = Keyboard(page)
    try:
        # The tab bar: one Tab stop (the current tab), arrows move along it, Enter opens the tab.
        now = keys.focused()
        assert now is not None and now["text"] == SKIP_TEXT, now
        keys.stop(now)                                               # the skip link, its outline too
        # Past the teacher's tools above the tabs (Presenter view, Download as notebook) to the tab bar.
        now = keys.tab_to(lambda f: f["role"] == "tab", limit=5)
        assert now["text"] == "Start here", now
        passed = [stop["text"] for stop in keys.stops[1:-1]]
        assert "Presenter view" in passed and "Download as notebook" in passed, passed
        for _ in range(12):
            now = keys.focused()
            if now is not None and now["text"] == "Randomized response":
                break
            keys.press("ArrowRight")
        assert now is not None and now["text"] == "Randomized response", now
        keys.press("Enter")
        # the tab's panel: the lessons met by the first journey hold randomized-response panels too, hidden now
        panel = page.locator(".explorer-rr-panel").filter(visible=True)
        expect(panel).to_be_visible(timeout=60_000)
        expect(panel.locator(".explorer-status")).to_contain_text("ε = 1 ", timeout=60_000)
        readout = panel.locator(".explorer-rr-epsilon .widget-readout")
        assert readout.inner_text().strip() in ("1", "1.0", "1.00"), readout.inner_text()
        keys.tab_to(lambda f: "noUi-handle" in f["cls"] and "explorer-rr-epsilon" in f["path"])
        for _ in range(3):
            keys.press("ArrowRight")
        expect(readout).not_to_have_text(re.compile(r"^\s*1(\.0+)?\s*$"), timeout=30_000)
        moved = float(readout.inner_text())
        assert moved > 1.0
        # The state's ε follows: the status line says the new ε.
        expect(panel.locator(".explorer-status")).to_contain_text(f"ε = {moved:g}", timeout=30_000)
        assert keys.unseen == [], f"focus stops without a visible outline: {keys.unseen}"
    except Exception:
        page.screenshot(path=str(tmp_path / "keyboard-rr.png"), full_page=True)
        print(f"screenshot: {tmp_path / 'keyboard-rr.png'}")
        raise
