"""End-to-end fixtures: a ``privacy-explorer`` Voilà server on a free loopback port and
headless Debian Chromium driven by Playwright.

Without Chromium the browser tests skip with a message that says how to install
it; ``.ci/run`` sets ``EXPLORER_REQUIRE_BROWSER=1`` (and CI services set ``CI=true``), which turns
that skip into a failure (:mod:`tests.extras`).  Playwright never downloads a browser here: it
launches ``/usr/bin/chromium``.  Every test here is marked ``e2e`` (``tests/conftest.py``).

The servers are shared: ``explorer_server`` and ``browser`` once per session (per xdist worker),
``demo_server`` (``privacy-explorer --demo --max-kernels 1 --pool 0``) too; a test that uses the demo
server leaves it as it found it, with no kernel running.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.extras import missing

CHROMIUM = os.environ.get("EXPLORER_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic", "--disable-dev-shm-usage"]
INSTALL_HINT = "Chromium is needed for browser tests: apt-get update && apt-get install -y chromium"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_http(url: str, process: subprocess.Popen | None, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"server exited with code {process.returncode} before answering {url}")
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status < 500:
                    return
        except Exception:
            time.sleep(0.3)
    raise RuntimeError(f"no answer from {url} within {timeout:.0f} s")


@contextlib.contextmanager
def served(command: list[str], log_path: Path, ready_url: str, name: str, *, timeout: float = 90.0,
           **popen: object):
    """Run ``command`` (its output in ``log_path``) until the block ends; yields the process once
    ``ready_url`` answers, or raises with the end of the log when it never does."""
    log = open(log_path, "w")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, **popen)
    try:
        try:
            wait_for_http(ready_url, process, timeout=timeout)
        except RuntimeError:
            raise RuntimeError(f"{name} did not start; log:\n{Path(log_path).read_text()[-3000:]}") from None
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def require_chromium() -> None:
    if not Path(CHROMIUM).exists():
        missing(f"no Chromium at {CHROMIUM}. {INSTALL_HINT}")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing("playwright is needed for browser tests: pip install '.[test]'")


@contextlib.contextmanager
def explorer_on_a_free_port(folder: Path, *args: str):
    """``privacy-explorer --no-browser ARGS`` on a free loopback port, run in ``folder`` (away from the checkout:
    the installed package serves): yields (base URL, process, log path) once it answers.

    The explorer serves only on the port it was given (``Voila.port_retries = 0``): when another process took
    that port between its choice here and the server's start, the server stops saying so, and it is started
    again on another free port."""
    log_path = folder / "server.log"
    name = " ".join(["privacy-explorer", *(arg for arg in args if arg.startswith("--"))])
    for attempt in range(3):
        port = free_port()
        url = f"http://127.0.0.1:{port}/"
        command = [sys.executable, "-m", "explorer.cli", "--no-browser", "--port", str(port), *args]
        stack = contextlib.ExitStack()
        try:                                      # a static file: GET / would start a kernel
            process = stack.enter_context(served(command, log_path, url + "voila/static/favicon.ico", name,
                                                 cwd=folder))
        except RuntimeError as error:
            if attempt < 2 and "already in use" in str(error):
                continue
            raise
        with stack:
            yield url, process, log_path
        return


@pytest.fixture(scope="session")
def explorer_server(tmp_path_factory):
    """Base URL of a running ``privacy-explorer`` (the app is at ``/``)."""
    require_chromium()
    started = time.monotonic()
    with explorer_on_a_free_port(tmp_path_factory.mktemp("voila"), "--host", "127.0.0.1") as (url, _, _):
        print(f"privacy-explorer answered after {time.monotonic() - started:.2f} s")
        yield url


@contextlib.contextmanager
def demo_server_process(folder: Path, *args: str):
    """``privacy-explorer --demo ARGS`` on a free loopback port: yields (base URL, process, log path)."""
    with explorer_on_a_free_port(folder, "--demo", *args) as server:
        yield server


@pytest.fixture(scope="session")
def demo_server(tmp_path_factory):
    """(base URL, server process, log path) of ``privacy-explorer --demo --max-kernels 1 --pool 0``.

    Shared by every test that needs the demo's cap of one kernel; each closes its page and waits
    until its kernel has stopped (``tests.e2e.test_demo_e2e.close_and_wait``), so the next one finds
    the demo empty."""
    require_chromium()
    with demo_server_process(tmp_path_factory.mktemp("demo"), "--max-kernels", "1", "--pool", "0") as server:
        yield server


@pytest.fixture(scope="session")
def browser():
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield instance
        instance.close()


def open_app(browser, url: str, timeout_ms: int = 120_000):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(url, timeout=timeout_ms)
    page.wait_for_selector(".explorer-app", timeout=timeout_ms)
    return context, page


def screenshot_if_failed(page, request, tmp_path) -> None:
    """After a test (a fixture's teardown): if its call failed, save a full-page screenshot of ``page`` in its
    temporary folder and print the path."""
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        path = tmp_path / "failure.png"
        try:
            page.screenshot(path=str(path), full_page=True)
            print(f"failure screenshot: {path}")
        except Exception:
            pass


@pytest.fixture
def app_page(browser, explorer_server, tmp_path, request):
    """A page with the whole app rendered; a screenshot is saved if the test fails."""
    context, page = open_app(browser, explorer_server)
    yield page
    screenshot_if_failed(page, request, tmp_path)
    context.close()


@pytest.fixture(scope="module")
def module_app(browser, explorer_server):
    """One page of the whole app (as ``app_page`` opens it) shared by the tests of one module, through
    ``shared_app_page``: each test leaves the page so that the module's next test can use it, or sets what it
    needs first.  Opening a page (a new Voilà kernel, Chromium loading the app) costs several CPU-seconds."""
    context, page = open_app(browser, explorer_server)
    yield page
    context.close()


@pytest.fixture
def shared_app_page(module_app, tmp_path, request):
    """The module's shared page (``module_app``) for one test; a screenshot is saved if the test fails."""
    yield module_app
    screenshot_if_failed(module_app, request, tmp_path)
