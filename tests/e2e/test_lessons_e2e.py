"""The Lessons tab in headless Chromium at 1366x768: the first lesson's check question gives feedback.

A wrong answer shows "Not quite." with the hint for that choice; the right answer then shows "Right."
with the explanation.  The choices and messages come from :mod:`explorer.lessons`, not typed here.

The first two tests share one student's page (``shared_app_page``), on the first lesson as the tab opens it; the
second then moves on to lesson 2.  The teacher mode comes from the page's address: a page of its own.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from explorer.lessons import check_answer, lessons
from tests.e2e.helpers import open_tab, save_screenshot


@pytest.fixture(scope="module")
def module_app(browser, explorer_server):
    """The module's one student page (``shared_app_page``), at 1366x768, on the Lessons tab's first lesson."""
    context, page = _open_lessons(browser, explorer_server)
    yield page
    context.close()


def test_the_first_lessons_check_question_gives_feedback_wrong_then_right(shared_app_page, tmp_path):
    first = lessons()[0]
    check = first.check
    assert check.kind == "choice"
    right = int(check.answer)
    wrong = next(i for i in range(len(check.choices)) if i != right)
    said_wrong, said_right = check_answer(check, wrong), check_answer(check, right)
    assert not said_wrong.correct and said_right.correct

    page = shared_app_page
    lesson = page.locator(f".explorer-lesson-{first.key}")
    expect(lesson).to_be_visible(timeout=120_000)              # the tab builds its first lesson when opened
    question = lesson.locator(".explorer-check")
    feedback = question.locator(".explorer-check-feedback")
    expect(feedback).to_have_text("")

    def choose(index: int) -> None:
        exact = re.compile(rf"^\s*{re.escape(check.choices[index])}\s*$")
        question.locator(".explorer-check-answer label", has_text=exact).click()
        question.locator(".explorer-check-button").click()

    choose(wrong)
    expect(feedback).to_contain_text("Not quite.")
    expect(feedback).to_contain_text(said_wrong.message.removeprefix("Not quite. ")[:60])
    expect(feedback.locator(".explorer-check-wrong")).to_be_visible()
    save_screenshot(page, tmp_path, "lesson_wrong")

    choose(right)
    expect(feedback).to_contain_text("Right.")
    expect(feedback).to_contain_text(said_right.message.removeprefix("Right. ")[:60])
    expect(feedback.locator(".explorer-check-right")).to_be_visible()
    expect(feedback).not_to_contain_text("Not quite.")
    save_screenshot(page, tmp_path, "lesson_right")


def _open_lessons(browser, url: str):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(url, timeout=120_000)
    page.wait_for_selector(".explorer-app", timeout=120_000)
    open_tab(page, "Lessons")
    expect(page.locator(f".explorer-lesson-{lessons()[0].key}")).to_be_visible(timeout=120_000)
    return context, page


def test_next_at_the_end_of_a_lesson_by_keyboard_and_no_answers_for_students(shared_app_page, tmp_path):
    items = lessons()
    page = shared_app_page
    end = page.locator(".explorer-lessons-next-end")
    expect(end).to_contain_text(f"Next: 2. {items[1].title}")
    # after the lesson's check question: the end of the lesson
    check_box = page.locator(f".explorer-lesson-{items[0].key} .explorer-check").bounding_box()
    assert end.bounding_box()["y"] > check_box["y"]
    expect(page.locator(".explorer-lessons-answers")).to_have_text("")          # a student's page
    expect(page.get_by_text("Answer:", exact=False)).to_have_count(0)
    end.focus()
    page.keyboard.press("Enter")
    expect(page.locator(f".explorer-lesson-{items[1].key}")).to_be_visible(timeout=120_000)
    # the focus, and so the view, goes back to the top of the page: the new lesson is read from its start
    expect(page.locator(".explorer-lessons select").first).to_be_focused(timeout=30_000)
    expect(page.locator(".explorer-lessons-previous-end")).to_contain_text(f"Previous: 1. {items[0].title}")
    save_screenshot(page, tmp_path, "lesson_2_after_next")


def test_the_teacher_mode_from_the_address_shows_the_answers(browser, explorer_server, tmp_path):
    context, page = _open_lessons(browser, explorer_server + "?teacher=1")
    try:
        answers = page.locator(".explorer-lessons-answers")
        expect(answers).to_contain_text("Teacher mode", timeout=60_000)
        expect(answers).to_contain_text("Answer:")
        expect(answers).to_contain_text(lessons()[1].check.explanation[:50])
    finally:
        context.close()
