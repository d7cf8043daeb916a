"""``privacy-explorer --demo`` in headless Chromium and on raw websockets (one server, kernel cap 1).

The app works under the demo's Content-Security-Policy (widgets, an ipympl figure, a
download); closing a page stops its kernel; a second visitor beyond the cap gets the
503 "demo is full" page; a malformed websocket frame closes its connection and the
server keeps answering; client messages that fail validation send no traceback back; a
visitor without a browser (:mod:`explorer.demo.visitor`, used by the load benchmark) sees the
app, moves ε and leaves like a page does.
"""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import time
import urllib.error
import urllib.request
import uuid

import psutil
import pytest
from playwright.sync_api import expect

from explorer.demo import kernels as demo_kernels
from explorer.demo.visitor import ProtocolVisitor, frame, interact, scripted_visit
from tests.e2e.helpers import open_tab, requests_elsewhere, run_async, save_screenshot

V1 = "v1.kernel.websocket.jupyter.org"
MALFORMED_FRAME = (1 << 40).to_bytes(8, "little") + bytes(8)


def kernel_processes(server: subprocess.Popen) -> list[psutil.Process]:
    return demo_kernels.kernel_processes(server.pid)


def wait_for_kernels(server: subprocess.Popen, count: int, timeout: float) -> int:
    deadline = time.monotonic() + timeout
    while len(kernel_processes(server)) != count and time.monotonic() < deadline:
        time.sleep(0.25)
    return len(kernel_processes(server))


def open_demo_page(browser, url: str, on_request=None):
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    if on_request is not None:
        page.on("request", lambda request: on_request(request.url))
    page.set_default_timeout(30_000)
    response = page.goto(url, timeout=120_000)
    context.csp = response.headers.get("content-security-policy", "")
    page.wait_for_selector(".explorer-app", timeout=120_000)
    open_tab(page, "Data")                         # built when first opened, through the kernel
    expect(page.locator(".explorer-data-panel")).to_contain_text("32,561 records", timeout=30_000)
    return context, page, console


def kernel_id_of(page) -> str:
    config = json.loads(page.locator("#jupyter-config-data").text_content())
    return config["kernelId"]


def close_and_wait(page, server) -> int:
    page.close(run_before_unload=True)  # the tab closes: Voilà's page sends its shutdown beacon
    return wait_for_kernels(server, 0, timeout=10)


def test_app_works_under_the_csp_and_closing_the_page_stops_its_kernel(browser, demo_server, tmp_path):
    url, server, _ = demo_server
    with urllib.request.urlopen(url + "voila/static/favicon.ico", timeout=10) as response:
        assert response.status == 200
    requested: list[str] = []
    context, page, console = open_demo_page(browser, url, on_request=requested.append)
    try:
        assert "default-src 'self'" in context.csp  # the app's page carries the demo's policy
        # widgets work: a tab opens, its ipympl figure draws, a slider moves it
        open_tab(page, "Randomized response")
        panel = page.locator(".explorer-rr-panel")
        expect(panel).to_be_visible(timeout=60_000)
        figure = panel.locator(".jupyter-matplotlib-canvas-div").first
        expect(figure).to_be_visible(timeout=30_000)
        expect(panel.locator(".explorer-status")).to_contain_text("ε = 1 (column 1)", timeout=30_000)
        # a download (the configuration as a data: link) goes through
        page.locator(".jupyter-widget-Collapse-header", has_text="Configuration").first.click()
        page.locator(".widget-button", has_text="Export configuration").click()
        link = page.locator("a[download='explorer-config.json']")
        expect(link).to_be_visible(timeout=30_000)
        with page.expect_download() as download:
            link.click()
        saved = tmp_path / "config.json"
        download.value.save_as(saved)
        assert json.loads(saved.read_text())["dataset"] == "UCI Adult"
        save_screenshot(page, tmp_path, "demo-csp")
        violations = [line for line in console if "Content Security Policy" in line]
        assert violations == [], violations
        # the buttons' icons come from the page's own origin: no request left it, and the icon font loaded
        assert requests_elsewhere(requested, url) == []
        assert page.evaluate("document.fonts.load('900 16px \"Font Awesome 5 Free\"').then(f => f.length)") > 0
        glyph = page.evaluate("getComputedStyle(document.querySelector('.widget-button .fa'), '::before')"
                              ".fontFamily")
        assert "Font Awesome 5 Free" in glyph
        assert len(kernel_processes(server)) == 1
        # the page got the _xsrf cookie its shutdown request needs
        assert "_xsrf" in {cookie["name"] for cookie in context.cookies()}
    finally:
        left = close_and_wait(page, server)
        context.close()
    assert left == 0, "closing the page did not stop its kernel within 10 s"


def test_a_visitor_beyond_the_cap_gets_the_demo_full_page(browser, demo_server, tmp_path):
    url, server, _ = demo_server
    context, page, _ = open_demo_page(browser, url)
    try:
        other = browser.new_context()
        full = other.new_page()
        response = full.goto(url, timeout=60_000)
        assert response.status == 503
        assert response.headers["retry-after"].isdigit()
        assert "default-src 'self'" in response.headers["content-security-policy"]
        expect(full.locator("h1")).to_have_text("The demo is full")
        save_screenshot(full, tmp_path, "demo-full")
        other.close()
        assert len(kernel_processes(server)) == 1  # the refused visitor started no kernel
    finally:
        left = close_and_wait(page, server)
        context.close()
    assert left == 0


async def _ws(url: str, kernel_id: str):
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    ws_url = re.sub("^http", "ws", url) + f"api/kernels/{kernel_id}/channels?session_id={uuid.uuid4()}"
    return await websocket_connect(HTTPRequest(ws_url), subprotocols=[V1])


def _frame(channel: str, msg_type: str, content: dict) -> bytes:
    return frame(channel, msg_type, content)[0]


async def _read_all(connection, seconds: float, until: bytes | None = None, then: float = 0.0) -> list:
    """What ``connection`` sends within ``seconds``, until it closes; with ``until``, only until a message
    containing those bytes arrived and ``then`` seconds more (what the kernel still sends after its reply)."""
    received = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            message = await asyncio.wait_for(connection.read_message(), deadline - time.monotonic())
        except asyncio.TimeoutError:
            break
        if message is None:
            break
        received.append(message)
        if until is not None and isinstance(message, bytes) and until in message:
            deadline, until = min(deadline, time.monotonic() + then), None
    return received


def test_malformed_frame_closes_its_connection_and_forged_updates_send_no_traceback(browser, demo_server):
    url, server, log_path = demo_server
    context, page, _ = open_demo_page(browser, url)
    kernel_id = kernel_id_of(page)
    memory_before = psutil.Process(server.pid).memory_info().rss

    async def scenario():
        bad = await _ws(url, kernel_id)
        await bad.write_message(MALFORMED_FRAME, binary=True)
        closed = await _read_all(bad, 10)
        # the server answers a static file at once after it
        loop = asyncio.get_running_loop()
        status = await loop.run_in_executor(
            None, lambda: urllib.request.urlopen(url + "voila/static/favicon.ico", timeout=5).status)

        good = await _ws(url, kernel_id)
        await good.write_message(_frame("shell", "comm_info_request", {"target_name": "jupyter.widget"}),
                                 binary=True)
        replies = await _read_all(good, 30, until=b"comm_info_reply")
        comm_ids = []
        for message in replies:
            if isinstance(message, bytes) and b"comm_info_reply" in message:
                comm_ids = re.findall(rb'"([0-9a-f]{32})": ?\{"target_name"', message)
        # every widget gets a state that fails validation (wrong types, min > max, an index out of range)
        forged = {"value": "not-a-value", "min": 10, "max": 0, "index": 10**9, "layout": 5}
        for comm_id in comm_ids:
            await good.write_message(_frame("shell", "comm_msg", {
                "comm_id": comm_id.decode(), "data": {"method": "update", "state": forged, "buffer_paths": []}}),
                binary=True)
        # The kernel handles shell messages in order: once it answers a request sent after the forged updates,
        # it has handled them all; what their handlers print (a debounced one too) follows within 2 s.
        await good.write_message(_frame("shell", "kernel_info_request", {}), binary=True)
        answers = await _read_all(good, 60, until=b"kernel_info_reply", then=2.0)
        good.close()
        return closed, status, comm_ids, answers

    try:
        closed, status, comm_ids, answers = run_async(scenario, timeout=120)  # Playwright's loop runs in this thread
    finally:
        left = close_and_wait(page, server)
        context.close()
    assert closed == [], "the malformed frame did not close its connection"
    assert status == 200
    assert psutil.Process(server.pid).memory_info().rss - memory_before < 100 * 2**20
    assert "malformed" in log_path.read_text() or "offset count" in log_path.read_text()
    assert len(comm_ids) > 10, "the app's widgets were not found"
    # the barrier's reply is not an answer: what the kernel sent about the forged updates names them as its parent
    assert any(isinstance(a, bytes) and b"comm_msg" in a for a in answers), "the kernel sent nothing back"
    text = b"\n".join(a if isinstance(a, bytes) else a.encode() for a in answers)
    assert b"Traceback" not in text and b"TraitError" not in text and b'File "' not in text
    assert b'"name": "stderr"' not in text and b'"name":"stderr"' not in text
    assert b"error while handling a client message" in log_path.read_bytes()  # logged on the server instead
    assert left == 0


def test_a_protocol_level_visitor_sees_the_app_moves_epsilon_and_its_kernel_stops(demo_server):
    """The load benchmark's visitor without a browser does what a page does, checked on the server."""
    url, server, log_path = demo_server

    async def scenario():
        visitor = ProtocolVisitor(url, timeout=120)
        deadline = time.monotonic() + 30
        while not await visitor.open_page():        # 503 while the last test's kernel is still being removed
            assert time.monotonic() < deadline, "the demo stayed full"
            await asyncio.sleep(1)
        await visitor.connect()
        assert visitor.shows("I am a student")              # the landing view's widgets
        await interact(visitor)
        slider = visitor.find(lambda state: "explorer-rr-epsilon" in state.get("_dom_classes", ()))
        epsilon = visitor.states[slider]["value"]
        # the kernel took the moves: the panel's status reads the new epsilon (3 steps of 0.05 from 1)
        await visitor.wait_for(lambda: visitor.shows("ε = 1.15"), "the status to read the moved ε")
        kernels = len(kernel_processes(server))
        refused = await scripted_visit(url, timeout=60)     # the cap is 1: the next visitor is refused
        await visitor.leave()
        return epsilon, kernels, refused

    epsilon, kernels, refused = run_async(scenario, timeout=300)  # a loop of its own, as Playwright's may run here
    assert epsilon == pytest.approx(1.15)
    assert kernels == 1
    assert refused["outcome"] == "full" and refused["retry_after"].isdigit()
    assert wait_for_kernels(server, 0, timeout=10) == 0, "the visitor's shutdown request did not stop its kernel"
    assert "shut down at its page's request" in log_path.read_text()
