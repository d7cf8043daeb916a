"""Two demo servers behind the shipped cluster site (deploy/nginx/privacy-explorer-cluster.conf) on loopback:
new pages spread over both servers, and every visitor's websocket and shutdown reach the server that holds
its kernel (routed by the kernel id's ``--server-id`` prefix).  The visitors are protocol-level
(:mod:`explorer.demo.visitor`): HTTP and the widget protocol through nginx, no browser."""

from __future__ import annotations

import contextlib
import json
import re
import time
import urllib.request
from pathlib import Path

import pytest

from explorer.demo.visitor import LANDING_TEXT, ProtocolVisitor, move_epsilon, open_randomized_response
from tests.e2e.conftest import demo_server_process, free_port, served
from tests.e2e.helpers import run_async
from tests.e2e.test_demo_nginx_e2e import NGINX, nginx_prefix

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "deploy" / "nginx" / "privacy-explorer-cluster.conf"


def cluster_site(ports: dict[str, int], proxy_port: int) -> str:
    """The shipped cluster site with its addresses moved to free loopback ports."""
    text = SITE.read_text()
    text, listens = re.subn(r"listen 80;", f"listen 127.0.0.1:{proxy_port};", text)
    text, first = re.subn(r"127\.0\.0\.1:8866(?=[ ;])", f"127.0.0.1:{ports['s1']}", text)
    text, second = re.subn(r"127\.0\.0\.1:8867(?=[ ;])", f"127.0.0.1:{ports['s2']}", text)
    assert (listens, first, second) == (1, 2, 2), "the cluster site's listen/server lines changed: update this test"
    return text


def status(url: str) -> dict:
    with urllib.request.urlopen(url + "class.json", timeout=30) as response:
        return json.load(response)


def wait_until(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:.0f} s for {what}")
        time.sleep(0.5)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    folder = nginx_prefix(tmp_path_factory.mktemp("cluster"))
    with contextlib.ExitStack() as stack:
        servers = {}
        for name in ("s1", "s2"):
            (folder / name).mkdir()
            url, _, log = stack.enter_context(demo_server_process(folder / name, "--max-kernels", "3", "--pool", "1",
                                                                  "--server-id", name))
            servers[name] = (url, log)
        for name, (url, _) in servers.items():
            wait_until(lambda u=url: status(u)["ready"] >= 1, 240, f"the pool of {name}")
        proxy_port = free_port()
        ports = {name: int(url.rstrip("/").rsplit(":", 1)[1]) for name, (url, _) in servers.items()}
        (folder / "site.conf").write_text(cluster_site(ports, proxy_port))
        proxy = f"http://127.0.0.1:{proxy_port}/"
        stack.enter_context(served([NGINX, "-e", "stderr", "-p", str(folder), "-c", str(folder / "nginx.conf"),
                                    "-g", "daemon off;"], folder / "nginx.log", proxy + "voila/static/favicon.ico",
                                   "nginx", timeout=30))
        yield proxy, servers


def test_two_servers_behind_nginx_each_visitor_reaches_its_own_kernel(cluster):
    proxy, servers = cluster

    async def scenario():
        crowd = [ProtocolVisitor(proxy, timeout=120) for _ in range(4)]
        try:
            for visitor in crowd:                 # one after the other: least_conn alternates the servers
                assert await visitor.open_page(), visitor.status
                await visitor.connect()           # the websocket, through nginx, routed by the kernel id
                await visitor.wait_for(lambda v=visitor: v.shows(LANDING_TEXT), "the landing view")
            ids = [visitor.kernel_id for visitor in crowd]
            live = {name: status(url)["visitors"] for name, (url, _) in servers.items()}
            for visitor in crowd:                 # every websocket works: a control moved, the kernel answers
                await move_epsilon(visitor, await open_randomized_response(visitor))
            return ids, live
        finally:
            for visitor in crowd:
                await visitor.leave()             # the shutdown request, through nginx, to the kernel's server

    ids, live = run_async(scenario)
    prefixes = [kernel_id.split("_", 1)[0] for kernel_id in ids]
    assert set(prefixes) == {"s1", "s2"}, ids                 # both servers served pages
    assert live == {name: prefixes.count(name) for name in servers}, (live, ids)   # each kernel on the server it names
    for name, (url, log) in servers.items():
        wait_until(lambda u=url: status(u)["visitors"] == 0, 60, f"the kernels of {name} to stop")
        text = log.read_text()
        for kernel_id in ids:
            if kernel_id.startswith(name + "_"):
                assert f"Kernel {kernel_id} shut down at its page's request" in text


def test_a_full_server_passes_new_pages_to_the_other_and_a_full_cluster_says_so(cluster):
    """One server at its kernel cap (3 pages held on it directly): every new page through nginx is served by the
    other server, never a 503 while it has room; both full: the visitor gets the "demo is full" page (503 with
    Retry-After), not nginx's error page."""
    proxy, servers = cluster

    async def scenario():
        held = [ProtocolVisitor(servers["s1"][0], timeout=120) for _ in range(3)]
        try:
            for visitor in held:
                assert await visitor.open_page(), visitor.status          # s1 at its cap of 3 kernels
            through = [ProtocolVisitor(proxy, timeout=120) for _ in range(3)]
            held += through
            for visitor in through:
                assert await visitor.open_page(), visitor.status          # s1 answers 503: nginx asks s2
            last = ProtocolVisitor(proxy, timeout=120)
            served_page = await last.open_page()
            return [visitor.kernel_id for visitor in through], served_page, last.status, last.retry_after
        finally:
            for visitor in held:
                await visitor.leave()

    ids, served_page, code, retry_after = run_async(scenario)
    assert [kernel_id.split("_", 1)[0] for kernel_id in ids] == ["s2"] * 3, ids
    assert (served_page, code) == (False, 503) and retry_after is not None and int(retry_after) > 0
    for name, (url, _) in servers.items():
        wait_until(lambda u=url: status(u)["visitors"] == 0, 60, f"the kernels of {name} to stop")
