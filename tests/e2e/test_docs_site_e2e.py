"""The documentation site as a reader opens it: formulas typeset with the MathJax copied into the site, and
no page asks another host for anything.  It reads the site that ``.ci/run`` builds before the tests
(``sphinx-build docs docs/_build/html``); elsewhere, without a build, it skips (under CI it fails)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.extras import missing

SITE = Path(__file__).resolve().parents[2] / "docs" / "_build" / "html"
#: Pages with inline and display formulas: the tab notebooks of multi-dimensional RR and of t-closeness.
PAGES = ["notebooks/05_multidimensional_rr.html", "notebooks/02_t_closeness.html"]


def _site() -> Path:
    if not (SITE / "index.html").is_file():
        missing(f"the documentation site is not built at {SITE}: pip install '.[docs]' && "
                "python -m sphinx -b html docs docs/_build/html")
    return SITE


@pytest.mark.parametrize("page_path", PAGES)
def test_the_docs_typeset_formulas_offline(browser, page_path):
    page_file = _site() / page_path
    assert page_file.is_file(), page_file
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    outside: list[str] = []

    def only_local(route):
        if route.request.url.startswith(("file:", "data:", "blob:")):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", only_local)
    page = context.new_page()
    try:
        page.goto(page_file.as_uri())
        page.wait_for_function("window.MathJax && MathJax.Hub && MathJax.Hub.queue.pending === 0 "
                               "&& document.querySelectorAll('.MathJax, .MathJax_Display').length > 0",
                               timeout=60_000)
        typeset = page.locator(".math.notranslate .MathJax, .math.notranslate .MathJax_Display").count()
        raw = page.evaluate("[...document.querySelectorAll('.math.notranslate')].filter(e => !e.querySelector("
                            "'.MathJax, .MathJax_Display')).length")
        errors = page.locator(".MathJax_Error, [data-mjx-error]").count()
        assert typeset > 0 and raw == 0 and errors == 0, (typeset, raw, errors)
        assert outside == [], outside
    finally:
        context.close()
