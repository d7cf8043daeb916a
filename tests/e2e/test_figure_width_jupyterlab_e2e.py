"""A lesson in JupyterLab: its figures follow the width of their container, and axe finds nothing in its widgets.

A lesson (its live panel has the 1000 px Randomized response figure) runs in a notebook in JupyterLab at
1366x768 with the left sidebar open: no figure reaches past the notebook's visible area, and the wide
figure is re-rendered narrower by the kernel.  Then axe-core (WCAG 2.0/2.1 A and AA, as in
``tests/e2e/test_every_view_e2e.py``) runs on the lesson's output area, the explorer's widgets as JupyterLab shows
them: zero violations.  JupyterLab's own chrome (menus, file browser, notebook toolbar) is upstream's and left out
of the run.  One JupyterLab server for the module; without JupyterLab (a core dependency) or Chromium the tests
skip, under CI they fail (:func:`tests.extras.missing`).  One page, with the cell run once, serves both tests.
"""

from __future__ import annotations

import json
import sys
import time

import pytest

from tests.e2e.conftest import free_port, require_chromium, served
from tests.e2e.figures import FIGURES_JS, clipped, settle
from tests.e2e.test_every_view_e2e import OPTIONS, _axe, report
from tests.extras import missing

NOTEBOOK = {
    "cells": [{"cell_type": "code", "execution_count": None, "id": "lesson", "metadata": {}, "outputs": [],
               "source": ["from explorer.panels.lesson import lesson_widget\n", "lesson_widget('deniability')"]}],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4, "nbformat_minor": 5,
}


@pytest.fixture(scope="module")
def jupyterlab(tmp_path_factory):
    """Base URL of a JupyterLab server (no token, fresh settings) whose root holds ``lesson.ipynb``."""
    require_chromium()
    try:
        import jupyterlab  # noqa: F401
    except ImportError:
        missing("JupyterLab is needed for the JupyterLab tests: pip install jupyterlab")
    root = tmp_path_factory.mktemp("lab")
    (root / "lesson.ipynb").write_text(json.dumps(NOTEBOOK))
    settings = tmp_path_factory.mktemp("lab-settings")
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    with served([sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
                 "--IdentityProvider.token=", "--ServerApp.password=", "--ServerApp.disable_check_xsrf=True",
                 "--allow-root", f"--ServerApp.root_dir={root}", f"--LabApp.user_settings_dir={settings}",
                 f"--LabApp.workspaces_dir={settings}"],
                root / "server.log", url + "api", "JupyterLab", timeout=120, cwd=root):
        yield url


def close_dialogs(page) -> None:
    """Close a JupyterLab dialog over the notebook (seen once in CI, on a busy machine: it intercepted the click on
    the cell), saying what it was.  A kernel choice is accepted (the notebook's own kernel, preselected); any other
    dialog is dismissed, never accepted (a "build recommended" dialog would start a build)."""
    dialog = page.locator(".jp-Dialog")
    for _ in range(3):
        if not dialog.count():
            return
        text = dialog.first.inner_text()
        print(f"a JupyterLab dialog over the notebook: {text[:300]!r}")
        accept = dialog.first.locator(".jp-Dialog-button.jp-mod-accept")
        if "kernel" in text.lower() and "select" in text.lower() and accept.count():
            accept.first.click()
        else:
            page.keyboard.press("Escape")
        page.wait_for_timeout(500)


def run_first_cell(page, attempts: int = 3) -> None:
    """Run the notebook's cell and wait until its prompt shows it queued or run.

    A Shift+Enter that reaches JupyterLab while the notebook is still settling (focus elsewhere, the kernel
    just connected) can be lost; it is pressed again, at most ``attempts`` times, while the prompt is empty.
    """
    prompt = page.locator(".jp-Notebook .jp-Cell .jp-InputPrompt").first
    for attempt in range(attempts):
        close_dialogs(page)
        page.locator(".jp-Notebook .jp-Cell .jp-InputArea-editor").first.click()
        page.keyboard.press("Shift+Enter")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            text = prompt.inner_text()
            if "*" in text or any(c.isdigit() for c in text):
                return
            page.wait_for_timeout(500)
        print(f"attempt {attempt + 1}: the cell did not start (prompt {prompt.inner_text()!r}); pressing again")
    raise AssertionError("the notebook's cell never started running")


def open_lesson(page, jupyterlab: str) -> None:
    """Open ``lesson.ipynb`` in JupyterLab on ``page``, run its cell and wait for the lesson's figures."""
    page.goto(jupyterlab + "lab/tree/lesson.ipynb", timeout=120_000)
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=120_000)
    page.wait_for_selector(".jp-DirListing", timeout=60_000)        # the file browser is open beside it
    # Run the cell once the kernel is idle.
    page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=120_000)
    run_first_cell(page)
    try:
        page.wait_for_selector(".explorer-lesson .jupyter-matplotlib", timeout=180_000)
    except Exception:
        print("cell output:", page.locator(".jp-Notebook .jp-Cell .jp-OutputArea").first.inner_text()[:2000])
        raise


@pytest.fixture(scope="module")
def lab_page(browser, jupyterlab):
    """One JupyterLab page at 1366x768 with the lesson's cell run, shared by this module's tests (JupyterLab's
    page and a kernel are the costly part; the tests only look at the lesson's output)."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        open_lesson(page, jupyterlab)
        yield page
    finally:
        context.close()


def test_in_jupyterlab_beside_the_file_browser_no_figure_is_clipped(lab_page, tmp_path):
    page = lab_page
    try:
        sidebar = page.locator("#jp-left-stack").bounding_box()
        assert sidebar and sidebar["width"] > 150, sidebar
        started = time.monotonic()
        figures = settle(page, timeout_s=120)
        page.screenshot(path=str(tmp_path / "jupyterlab.png"))
        print(f"settled after {time.monotonic() - started:.1f} s; screenshot {tmp_path / 'jupyterlab.png'}")
        for f in figures:
            print(f"design {f['design']:.0f}, rendered {f['rendered']:.0f}, shown {f['canvas'][2]:.0f}, "
                  f"area {f['area'][0]:.0f}-{f['area'][1]:.0f}")
        assert figures
        assert not clipped(figures), clipped(figures)
        # The output area beside the file browser is narrower than the 1000 px figure: drawn narrower, 1:1.
        wide = [f for f in figures if f["box"][1] - f["box"][0] < f["design"] - 1]
        assert wide, "the test needs a figure wider than the notebook's output area beside the file browser"
        for f in wide:
            assert f["rendered"] < f["design"] - 1, f
            assert f["canvas"][2] / f["rendered"] > 0.95, f       # not merely scaled down by the browser
        assert page.evaluate(FIGURES_JS)        # still shown
    except Exception:
        page.screenshot(path=str(tmp_path / "failure.png"))
        print(f"failure screenshot: {tmp_path / 'failure.png'}")
        raise


#: Mark the output area that holds the explorer's lesson (axe's context: that element and what is inside it).
MARK_OUTPUT_JS = """() => { const outputs = [...document.querySelectorAll('.jp-Notebook .jp-OutputArea-output')]
  .filter(o => o.querySelector('.explorer-lesson'));
  outputs.forEach(o => o.setAttribute('data-explorer-axe', 'lesson'));
  return outputs.length; }"""


def test_in_jupyterlab_the_lessons_widgets_have_no_axe_violations(lab_page, tmp_path):
    page = lab_page
    try:
        settle(page, timeout_s=120)
        # The check question's answers, the controls, the figures' rows: all rendered and named by the bridge.
        page.wait_for_selector(".jp-OutputArea-output .explorer-check-answer[role=radiogroup]", timeout=60_000)
        assert page.evaluate(MARK_OUTPUT_JS) == 1
        result = _axe().run(page, context={"include": [["[data-explorer-axe=lesson]"]]}, options=OPTIONS).response
        print("axe passes:", sorted(rule["id"] for rule in result["passes"]),
              "incomplete:", sorted(rule["id"] for rule in result["incomplete"]))
        assert report(result) == [], "axe on the lesson's output in JupyterLab"
        passed = {rule["id"] for rule in result["passes"]}           # the run saw the widgets: names, contrast
        assert {"color-contrast", "label", "aria-allowed-attr"} <= passed, sorted(passed)
    except Exception:
        page.screenshot(path=str(tmp_path / "jupyterlab-axe.png"))
        print(f"failure screenshot: {tmp_path / 'jupyterlab-axe.png'}")
        raise
