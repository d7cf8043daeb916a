"""Published releases in headless Chromium: the ninth lesson answers, and "use this ε" moves every tab's ε.

The lesson's answer and the releases' ε come from :mod:`explorer.lessons` and :mod:`explorer.core.releases`,
not typed here.

The first two tests share one page (``shared_app_page``), each on its own tab: "use this ε" first, while the
releases view of the "What does ε mean?" tab is the page's only one (the ninth lesson has one too), then the lesson
(its release's readings do not depend on the shared ε).  A configuration link is a page's address: each of the two
links opens a page of its own.
"""

from __future__ import annotations

import base64
import json

import pytest
from playwright.sync_api import expect

from explorer.core.releases import find_release, release_label
from explorer.lessons import lesson, lessons
from explorer.state import EPSILON_MAX, EPSILON_STEP
from tests.e2e.helpers import open_tab, save_screenshot


def _app(browser, explorer_server, config=None):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.set_default_timeout(60_000)
    query = "" if config is None else "?config=" + base64.urlsafe_b64encode(json.dumps(config).encode()).decode()
    page.goto(explorer_server + query, timeout=120_000)
    page.wait_for_selector(".explorer-app", timeout=120_000)
    return context, page


@pytest.fixture(scope="module")
def module_app(browser, explorer_server):
    """The page the first two tests share (``shared_app_page``), at 1366x768."""
    context, page = _app(browser, explorer_server)
    yield page
    context.close()


def test_use_this_epsilon_moves_the_shared_epsilon_or_says_why_not(shared_app_page, tmp_path):
    beyond, inside = find_release("linkedin-audience"), find_release("google-vaccination")
    assert beyond["epsilon"] > EPSILON_MAX >= inside["epsilon"]
    page = shared_app_page
    open_tab(page, "What does ε mean?")
    section = page.locator(".explorer-releases")
    expect(section).to_be_visible(timeout=120_000)
    select = section.locator(".explorer-releases-release select")
    select.select_option(label=release_label(beyond))
    section.locator(".explorer-releases-use").click()
    expect(section.locator(".explorer-status")).to_contain_text("beyond the range", timeout=60_000)
    select.select_option(label=release_label(inside))
    expect(section.locator(".explorer-releases-lines")).to_contain_text(f"ε = {inside['epsilon']:g}",
                                                                   timeout=60_000)
    section.locator(".explorer-releases-use").click()
    stepped = round(round(inside["epsilon"] / EPSILON_STEP) * EPSILON_STEP, 10)      # the slider's nearest step
    expect(section.locator(".explorer-status")).to_contain_text(f"now {stepped:g}", timeout=60_000)
    # the view's own reading follows the shared ε
    shown = page.locator(".explorer-status", has_text=f"Showing ε = {stepped:g} on")
    expect(shown.first).to_be_visible(timeout=60_000)
    page.wait_for_timeout(2000)
    expect(shown.first).to_be_visible()                      # and stays: the slider had nothing to round
    save_screenshot(page, tmp_path, "release_used")


def test_the_ninth_lesson_is_reached_and_its_check_question_answers(shared_app_page, tmp_path):
    items = lessons()
    ninth = lesson("reading-a-release")
    assert items[-1].key == ninth.key and ninth.check.kind == "number"
    page = shared_app_page
    open_tab(page, "Lessons")
    expect(page.locator(f".explorer-lesson-{items[0].key}")).to_be_visible(timeout=120_000)
    page.locator(".explorer-lessons select").first.select_option(label=f"{len(items)}. {ninth.title}")
    shown = page.locator(f".explorer-lesson-{ninth.key}")
    expect(shown).to_be_visible(timeout=120_000)
    expect(shown.locator(".explorer-releases-lines")).to_contain_text(f"{ninth.check.answer:g}", timeout=60_000)
    expect(page.locator(".explorer-lessons button", has_text="Next").first).to_be_disabled()
    answer = shown.locator(".explorer-check-answer input")
    answer.fill(f"{ninth.check.answer:.2f}")
    answer.press("Enter")                                      # the box sends its value on Enter
    shown.locator(".explorer-check-button").click()
    feedback = shown.locator(".explorer-check-feedback")
    expect(feedback).to_contain_text("Right.", timeout=60_000)
    save_screenshot(page, tmp_path, "lesson_nine")


def test_a_configuration_link_opens_the_epsilon_view_on_its_release_or_says_why_not(browser, explorer_server, tmp_path):
    census = find_release("census-2020-redistricting")
    tab = "What does ε mean?"
    config = {"dataset": "UCI Adult", "epsilon": 2.0, "open_tab": tab, "tabs": {tab: {"release": census["key"]}}}
    context, page = _app(browser, explorer_server, config)
    try:
        expect(page.locator(".explorer-config-loaded")).to_contain_text(f"Release = {release_label(census)}",
                                                                        timeout=120_000)
        lines = page.locator(".explorer-releases .explorer-releases-lines")
        expect(lines).to_contain_text("ε = 17.1436 by the tighter conversion of Canonne, Kamath and Steinke (2020)",
                                      timeout=120_000)
        expect(lines).to_contain_text("the source quotes ε = 17.14, the tighter conversion's figure")
        save_screenshot(page, tmp_path, "release_from_link")
    finally:
        context.close()
    refused = dict(config, tabs={tab: {"release": "census-2030"}})
    context, page = _app(browser, explorer_server, refused)
    try:
        notice = page.locator(".explorer-config-refused")
        expect(notice).to_contain_text("release must be one of", timeout=120_000)
        expect(notice).to_contain_text("got 'census-2030'")
    finally:
        context.close()
