"""Every radio group is one Tab stop and its arrow keys move the choice (WAI-ARIA's radio group pattern), in
headless Chromium at 1366x768.

ipywidgets renders ``RadioButtons`` as radio inputs without a ``name`` and ``ToggleButtons`` as plain buttons,
each a Tab stop of its own.  The panels' ARIA bridge (:mod:`explorer.panels.access`) gives the radio inputs of
one rendered group a shared name of their own and the toggle buttons ``role="radio"``, ``aria-checked``, a
roving tabindex and arrow keys that click.  Here, with key presses: Tab reaches the group once and the next Tab
leaves it, Shift+Tab comes back to the chosen option, the arrow keys move the choice, and the kernel gets it (a
check question's feedback, the Dominance tab's controls and verdict follow).

The two tests share one page (``shared_app_page``), each on its own tab (Lessons, Dominance), each moving the focus
itself to the group it tests.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from explorer.lessons import lessons
from tests.e2e.figures import settle
from tests.e2e.helpers import open_tab
from tests.e2e.test_keyboard_e2e import Keyboard, _app_page

#: The radio inputs of the focused element's group: their names, and how many inputs of the page share the name.
RADIO_NAMES_JS = """(host) => [...host.querySelectorAll('input[type=radio]')].map(
  r => ({name: r.name, same: document.querySelectorAll('input[type=radio][name="' + r.name + '"]').length}))"""
#: The buttons of a ToggleButtons: text, role, aria-checked, tabindex, chosen (ipywidgets' mod-active).
BUTTONS_JS = """(host) => [...host.querySelectorAll('button')].map(b => ({text: b.innerText.trim(),
  role: b.getAttribute('role'), checked: b.getAttribute('aria-checked'), tabindex: b.getAttribute('tabindex'),
  active: b.classList.contains('mod-active')}))"""
#: The value of the focused radio input (its index in the group) and whether it is checked.
FOCUSED_RADIO_JS = """() => { const e = document.activeElement;
  return e && e.type === 'radio' ? {value: e.value, checked: e.checked, name: e.name} : null; }"""


@pytest.fixture(scope="module")
def module_app(browser, explorer_server):
    """The module's one page (``shared_app_page``), at 1366x768, watching the kernel's busy/idle status."""
    context, page = _app_page(browser, explorer_server)
    yield page
    context.close()


def _in_group(stop: dict | None, css: str) -> bool:
    return stop is not None and css in stop["path"].split()


def test_a_check_question_is_one_tab_stop_and_its_arrows_reach_the_kernel(shared_app_page, tmp_path):
    first = lessons()[0]
    check = first.check
    assert check.kind == "choice" and len(check.choices) >= 3, "the test needs a multiple-choice question"
    answer = int(check.answer)
    page = shared_app_page
    keys = Keyboard(page)
    try:
        open_tab(page, "Lessons")
        page.locator(".explorer-lessons select").first.select_option(label=f"1. {first.title}")
        lesson = page.locator(f".explorer-lesson-{first.key}")
        expect(lesson).to_be_visible(timeout=120_000)
        settle(page)
        group = lesson.locator(".explorer-check-answer")
        expect(group).to_have_attribute("role", "radiogroup", timeout=30_000)
        expect(group).to_have_attribute("aria-label", "Your answer")
        radios = group.locator("input[type=radio]")
        expect(radios).to_have_count(len(check.choices))
        # One name for the group's inputs, shared with no other input of the page.
        names = group.evaluate(RADIO_NAMES_JS)
        assert len({n["name"] for n in names}) == 1 and names[0]["name"], names
        assert all(n["same"] == len(check.choices) for n in names), names

        # Tab reaches the group once: from the element before it, Tab enters (the first answer: none is chosen
        # yet), the next Tab leaves for the Check button.
        radios.first.focus()
        before = keys.press("Shift+Tab")
        assert not _in_group(before, "explorer-check-answer"), before
        now = keys.press("Tab")
        assert _in_group(now, "explorer-check-answer") and now["type"] == "radio", now
        assert page.evaluate(FOCUSED_RADIO_JS)["value"] == "0"
        now = keys.press("Tab")
        assert now is not None and now["tag"] == "button" and now["text"] == "Check", now

        # Back into the group (none chosen yet: at an end of it); Space chooses the focused answer, the arrows
        # move the choice, one answer at a time.
        now = keys.press("Shift+Tab")
        assert _in_group(now, "explorer-check-answer"), now
        at = int(page.evaluate(FOCUSED_RADIO_JS)["value"])
        keys.press("Space")
        expect(radios.nth(at)).to_be_checked()
        while at != answer:
            step = 1 if answer > at else -1
            keys.press("ArrowDown" if step == 1 else "ArrowUp")
            at += step
            expect(radios.nth(at)).to_be_checked()
            page.wait_for_timeout(300)
        page.kernel.wait_idle(page)                 # ipywidgets holds a change while the kernel is busy
        now = keys.press("Tab")
        assert now is not None and now["text"] == "Check", now      # one Tab leaves the group, whichever answer
        keys.press("Enter")
        feedback = lesson.locator(".explorer-check-feedback")
        expect(feedback).to_contain_text("Right.", timeout=30_000)

        # Shift+Tab comes back to the chosen answer; an arrow chooses another, which the kernel judges.
        keys.press("Shift+Tab")
        focused = page.evaluate(FOCUSED_RADIO_JS)
        assert focused == {"value": str(answer), "checked": True, "name": names[0]["name"]}, focused
        other = answer - 1 if answer > 0 else 1
        keys.press("ArrowUp" if answer > 0 else "ArrowDown")
        expect(radios.nth(other)).to_be_checked()
        expect(radios.nth(answer)).not_to_be_checked()
        page.kernel.wait_idle(page)
        keys.press("Tab")
        keys.press("Enter")
        expect(feedback.locator(".explorer-check-wrong")).to_contain_text("Not quite.", timeout=30_000)
        assert keys.unseen == [], f"focus stops without a visible outline: {keys.unseen}"
    except Exception:
        page.screenshot(path=str(tmp_path / "radio-group.png"), full_page=True)
        print(f"screenshot: {tmp_path / 'radio-group.png'}")
        raise


def test_toggle_buttons_are_one_tab_stop_with_a_roving_tabindex_and_arrows_that_reach_the_kernel(
        shared_app_page, tmp_path):
    page = shared_app_page
    keys = Keyboard(page)
    try:
        open_tab(page, "Dominance")
        panel = page.locator(".explorer-dominance")
        verdict = panel.locator(".explorer-dominance-risk-verdict")
        expect(verdict).to_contain_text("α", timeout=60_000)
        settle(page)
        group = panel.locator(".explorer-dominance-mode")
        expect(group).to_have_attribute("role", "radiogroup", timeout=30_000)
        expect(group).to_have_attribute("aria-label", "Mode")
        buttons = group.evaluate(BUTTONS_JS)
        assert [b["text"] for b in buttons] == ["Compare configurations", "Sweep one method"], buttons
        assert [(b["role"], b["checked"], b["tabindex"]) for b in buttons] == [
            ("radio", "true", "0"), ("radio", "false", "-1")], buttons
        compare, sweep = panel.locator(".explorer-dominance-compare"), panel.locator(".explorer-dominance-sweep")
        expect(compare).to_be_visible()
        expect(sweep).to_be_hidden()
        shown = verdict.inner_text()

        # Tab reaches the group once (at the chosen button) and the next Tab leaves it.
        group.locator("button").nth(0).focus()
        before = keys.press("Shift+Tab")
        assert not _in_group(before, "explorer-dominance-mode"), before
        now = keys.press("Tab")
        assert _in_group(now, "explorer-dominance-mode") and now["text"] == "Compare configurations", now
        after = keys.press("Tab")
        assert not _in_group(after, "explorer-dominance-mode"), after
        now = keys.press("Shift+Tab")
        assert now is not None and now["text"] == "Compare configurations", now

        # An arrow moves the choice and the focus; the kernel switches the controls and the verdict.
        now = keys.press("ArrowRight")
        assert now is not None and now["text"] == "Sweep one method" and now["role"] == "radio", now
        expect(group.locator("button").nth(1)).to_have_attribute("aria-checked", "true")
        expect(group.locator("button").nth(1)).to_have_attribute("tabindex", "0")
        expect(group.locator("button").nth(0)).to_have_attribute("tabindex", "-1")
        expect(sweep).to_be_visible(timeout=30_000)         # the kernel's answer to the change
        expect(compare).to_be_hidden()
        expect(verdict).not_to_have_text(shown, timeout=120_000)
        # Tab leaves from the new choice too; Shift+Tab comes back to it.
        after = keys.press("Tab")
        assert not _in_group(after, "explorer-dominance-mode"), after
        now = keys.press("Shift+Tab")
        assert now is not None and now["text"] == "Sweep one method", now
        # The arrows wrap around, Home and End go to the ends; the kernel follows every move.
        now = keys.press("ArrowRight")
        assert now is not None and now["text"] == "Compare configurations", now
        expect(compare).to_be_visible(timeout=30_000)
        expect(sweep).to_be_hidden()
        keys.press("End")
        expect(group.locator("button").nth(1)).to_have_attribute("aria-checked", "true")
        expect(sweep).to_be_visible(timeout=30_000)
        keys.press("Home")
        expect(group.locator("button").nth(0)).to_have_attribute("aria-checked", "true")
        expect(compare).to_be_visible(timeout=30_000)
        expect(sweep).to_be_hidden()
        assert keys.unseen == [], f"focus stops without a visible outline: {keys.unseen}"
    except Exception:
        page.screenshot(path=str(tmp_path / "toggle-buttons.png"), full_page=True)
        print(f"screenshot: {tmp_path / 'toggle-buttons.png'}")
        raise
