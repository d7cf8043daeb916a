"""The shipped nginx site (deploy/nginx/) on loopback in front of ``privacy-explorer --demo``:
the app renders through it in Chromium (websocket upgrade) from a preheated kernel, which still
applies the page's ``?config=``; bodies over the app's 8 MB upload limit are refused, and a burst
of page requests from one address is rate-limited."""

from __future__ import annotations

import os
import re
import shutil
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from explorer.core.datasets import DEFAULT_MAX_BYTES
from tests.e2e.conftest import demo_server_process, free_port, require_chromium, served
from tests.e2e.helpers import open_tab, save_screenshot
from tests.extras import missing

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "deploy" / "nginx" / "privacy-explorer.conf"
NGINX = os.environ.get("EXPLORER_NGINX") or shutil.which("nginx") or "/usr/sbin/nginx"

def nginx_prefix(folder: Path) -> Path:
    """``folder`` made an nginx prefix of its own: ``nginx.conf`` (one worker, no access log, temporary paths
    inside ``folder``) that includes ``folder/site.conf``, which the test writes.  Missing nginx: see ``missing``."""
    if not Path(NGINX).exists():
        missing(f"nginx is needed for this test (none at {NGINX}): apt-get install -y nginx")
    temp = {name: folder / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
    for path in temp.values():
        path.mkdir()
    (folder / "nginx.conf").write_text(
        "worker_processes 1;\n"
        f"pid {folder / 'nginx.pid'};\n"
        "error_log stderr warn;\n"
        "events { worker_connections 256; }\n"
        "http {\n"
        "  access_log off;\n"
        f"  client_body_temp_path {temp['body']}; proxy_temp_path {temp['proxy']};\n"
        f"  fastcgi_temp_path {temp['fastcgi']}; uwsgi_temp_path {temp['uwsgi']}; scgi_temp_path {temp['scgi']};\n"
        f"  include {folder / 'site.conf'};\n"
        "}\n")
    return folder



def site_config(app_port: int, proxy_port: int) -> str:
    """The shipped site with its two addresses moved to free loopback ports."""
    text = SITE.read_text()
    text, listens = re.subn(r"listen 80;", f"listen 127.0.0.1:{proxy_port};", text)
    text, upstreams = re.subn(r"server 127\.0\.0\.1:8866;", f"server 127.0.0.1:{app_port};", text)
    assert listens == 1 and upstreams == 1, "the site's listen/upstream lines changed: update this test"
    return text


def status_of(request: urllib.request.Request) -> int:
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.fixture(scope="module")
def proxied_demo(tmp_path_factory):
    require_chromium()
    folder = nginx_prefix(tmp_path_factory.mktemp("nginx"))
    with demo_server_process(folder, "--max-kernels", "2", "--pool", "1") as (app_url, _, _):
        proxy_port = free_port()
        app_port = int(app_url.rstrip("/").rsplit(":", 1)[1])
        (folder / "site.conf").write_text(site_config(app_port, proxy_port))
        url = f"http://127.0.0.1:{proxy_port}/"
        with served([NGINX, "-e", "stderr", "-p", str(folder), "-c", str(folder / "nginx.conf"), "-g", "daemon off;"],
                    folder / "nginx.log", url + "voila/static/favicon.ico", "nginx", timeout=30):
            yield url


def test_the_app_renders_and_works_through_nginx(browser, proxied_demo, tmp_path):
    from explorer.app import build_app

    shared = build_app()
    shared.panels["Data"].dataset.value = "Domingo-Ferrer and Muralidhar (2016) example"
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    try:
        # a teacher's link: the preheated kernel (rendered before anyone asked) applies its ?config=
        response = page.goto(f"{proxied_demo}?{shared.config_query()}", timeout=120_000)
        assert response.status == 200
        page.wait_for_selector(".explorer-app", timeout=120_000)
        # the widgets' state arrives over the websocket, through the proxy's upgrade; a tab opened is built then
        open_tab(page, "Data")
        expect(page.locator(".explorer-data-panel")).to_contain_text("20 records", timeout=30_000)
        save_screenshot(page, tmp_path, "app-through-nginx")
        open_tab(page, "About")
        expect(page.locator("text=deniability").first).to_be_visible()
    finally:
        page.close(run_before_unload=True)
        context.close()


def test_nginx_limits_body_size_and_request_rate(proxied_demo):
    too_big = urllib.request.Request(proxied_demo + "voila/api/shutdown/none", method="POST",
                                     data=bytes(DEFAULT_MAX_BYTES + 1024))
    assert status_of(too_big) == 413
    # a burst of page requests from one address (each would be a redirect, no kernel): the tail is refused
    statuses = [status_of(urllib.request.Request(proxied_demo + f"no-such-page-{i}", method="HEAD"))
                for i in range(80)]
    assert 429 not in statuses[:20]
    assert statuses.count(429) >= 10, statuses
