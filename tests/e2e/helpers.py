"""Helpers for end-to-end tests in headless Chromium (Playwright, sync API)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import re
from pathlib import Path


def open_tab(page, title: str) -> None:
    """Click the app's tab called ``title`` and wait until it is the current tab (its panel shown, with its
    "Loading..." placeholder until the kernel has built it); the caller waits for what it checks there."""
    from playwright.sync_api import expect

    tab = page.locator(".lm-TabBar-tab", has_text=title).first
    tab.click()
    expect(tab).to_have_class(re.compile(r"\blm-mod-current\b"))


def upload_csv(page, folder: Path, name: str, text: str) -> None:
    """In the Data tab, upload a CSV file called ``name`` holding ``text`` (written in ``folder``), as a user picks
    it in the file chooser; the caller waits for what the app says."""
    open_tab(page, "Data")
    path = Path(folder) / name
    path.write_text(text)
    with page.expect_file_chooser() as chooser:
        page.locator(".explorer-data-panel .widget-upload").first.click()
    chooser.value.set_files(str(path))


def save_screenshot(page, tmp_path: Path, name: str) -> Path:
    """Save a full-page screenshot under the test's tmp dir and return its path."""
    path = Path(tmp_path) / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    print(f"screenshot: {path}")
    return path


def requests_elsewhere(urls, origin: str) -> list[str]:
    """The requested ``urls`` that went to another host than ``origin`` (``data:`` and ``blob:`` are the page's own)."""
    own = origin.rstrip("/") + "/"
    return [url for url in urls if not url.startswith((own, "data:", "blob:"))]


def run_async(coro_fn, *args, timeout: float | None = None):
    """``asyncio.run(coro_fn(*args))`` in a thread of its own, and its result.

    A browser test run earlier in the same process (Playwright's sync API) may keep an event loop
    running in this thread, where ``asyncio.run`` refuses to start.
    """
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(coro_fn(*args))).result(timeout=timeout)
