"""``privacy-explorer --demo --class N``: the pool of N ready kernels fills and says so (the status page
``/class`` and the server's log), and a pool kernel that waited longer than the cell time limit still
serves a working page, with the visitor's ``?config=`` applied.  Protocol-level visitors
(:mod:`explorer.demo.visitor`), no browser."""

from __future__ import annotations

import json
import re
import time
import urllib.request

import pytest

from explorer.demo.visitor import DATASET as DM_EXAMPLE
from explorer.demo.visitor import LANDING_TEXT, ProtocolVisitor, open_randomized_response, open_tab
from tests.e2e.conftest import demo_server_process
from tests.e2e.helpers import run_async

#: The cell time limit of the server under test: short, so that its pool kernels outlive it (the app's cells take
#: a few seconds; a pool kernel whose start-up timed out is replaced, which the first test's wait would show).
TIMEOUT = 15


def status(url: str) -> dict:
    with urllib.request.urlopen(url + "class.json", timeout=30) as response:
        return json.load(response)


@pytest.fixture(scope="module")
def class_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("class")
    with demo_server_process(folder, "--class", "2", "--max-kernels", "3",
                             "--execution-timeout", str(TIMEOUT)) as (url, process, log):
        yield url, log


def test_the_class_option_fills_its_pool_and_says_so(class_server):
    url, log = class_server
    first = status(url)
    assert first["target"] == 2 and first["class"] == 2
    deadline = time.monotonic() + 300
    while status(url)["ready"] < 2:
        assert time.monotonic() < deadline, status(url)
        page = urllib.request.urlopen(url + "class", timeout=30).read().decode()
        assert "Filling: " in page or "Class ready: 2 of 2 kernels" in page
        time.sleep(1)
    page = urllib.request.urlopen(url + "class", timeout=30).read().decode()
    assert "Class ready: 2 of 2 kernels" in page
    # The server's log says so at its next look at the pool (about once a second), maybe after the page did.
    deadline = time.monotonic() + 30
    while "Class ready: 2 of 2 kernels" not in (text := log.read_text()) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert "class mode: filling a pool of 2 ready kernels" in text
    filling = re.search(r"Filling: [01] of 2 kernels ready", text)      # 1 when a kernel was ready by the first look
    ready = text.find("Class ready: 2 of 2 kernels")
    assert filling is not None and ready > filling.start(), text[-2000:]


def test_a_pool_kernel_older_than_the_cell_time_limit_serves_a_working_page(class_server):
    from explorer.app import build_app

    url, log = class_server
    deadline = time.monotonic() + 300
    while status(url)["ready"] < 2:
        assert time.monotonic() < deadline
        time.sleep(1)
    time.sleep(TIMEOUT + 5)                       # the pool kernels have waited longer than any cell may run
    shared = build_app()
    shared.panels["Data"].dataset.value = DM_EXAMPLE

    async def visit():
        visitor = ProtocolVisitor(f"{url}?{shared.config_query()}", timeout=60)
        try:
            assert await visitor.open_page()
            await visitor.connect()
            await visitor.wait_for(lambda: visitor.shows(LANDING_TEXT), "the landing view")
            # the teacher's link: the kernel, preheated before anyone asked, applies the page's ?config=
            await visitor.wait_for(lambda: visitor.shows(f"Configuration loaded: data set {DM_EXAMPLE};"),
                                   "the configuration's data set, said above the tabs")
            await open_tab(visitor, "Data")
            await visitor.wait_for(lambda: visitor.shows("20 records"), "the configuration's data set in the Data tab")
            assert await open_randomized_response(visitor)        # the ε slider, once the tab is built
            return visitor.kernel_id
        finally:
            await visitor.leave()

    kernel_id = run_async(visit)
    text = log.read_text()
    assert f"Using pre-heated kernel: {kernel_id}" in text        # served from the pool, not a new kernel
    assert "timed out" not in text and "Timeout" not in text
