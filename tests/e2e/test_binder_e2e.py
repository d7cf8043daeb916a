"""Binder, simulated: a fresh venv from binder/requirements.txt, postBuild, ``jupyter server``
with Voilà's server extension, and the app rendered in Chromium at the badge's URL path."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.e2e.conftest import free_port, require_chromium, wait_for_http
from tests.e2e.helpers import open_tab, requests_elsewhere, save_screenshot

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_binder_route_renders_the_app(browser, tmp_path):
    require_chromium()
    from playwright.sync_api import expect

    venv = tmp_path / "binder-venv"
    # --without-pip: the venv's own pip would be installed (and byte-compiled) only to run once; this test's pip
    # installs into the venv instead (pip's --python), with the same requirements file and the same resolver.
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    # --no-compile: pip byte-compiles every file it installs, most of this test's CPU time, for modules the
    # server never imports; Python compiles what it imports, so the server and the page are the same.
    install = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-compile",
                              "-r", "binder/requirements.txt"], cwd=ROOT, capture_output=True, text=True)
    assert install.returncode == 0, install.stderr[-3000:]
    env = {**os.environ, "NB_PYTHON_PREFIX": str(venv), "PATH": f"{venv / 'bin'}:{os.environ['PATH']}"}
    subprocess.run(["bash", "binder/postBuild"], cwd=ROOT, env=env, check=True)
    assert (venv / "etc" / "jupyter" / "jupyter_server_config.json").is_file()

    port = free_port()
    log = open(tmp_path / "server.log", "w")
    server = subprocess.Popen([str(venv / "bin" / "jupyter"), "server", "--allow-root", "--no-browser",
                               f"--port={port}", "--ServerApp.ip=127.0.0.1", "--IdentityProvider.token=",
                               "--ServerApp.password=", f"--ServerApp.root_dir={ROOT}"],
                              cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        url = f"http://127.0.0.1:{port}/voila/render/notebooks/app.ipynb"
        wait_for_http(f"http://127.0.0.1:{port}/api", server)
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
        requested: list[str] = []
        page.on("request", lambda request: requested.append(request.url))
        started = time.monotonic()
        page.goto(url, timeout=120_000)
        page.wait_for_selector(".explorer-app", timeout=120_000)
        print(f"Binder route rendered in {time.monotonic() - started:.2f} s")
        open_tab(page, "Data")
        expect(page.locator(".explorer-data-panel")).to_contain_text("32,561 records", timeout=30_000)
        save_screenshot(page, tmp_path, "binder-app")
        # the explorer's template: no stylesheet from a CDN, every request to the server itself
        assert "/voila/templates/explorer/static/" in page.content()
        assert requests_elsewhere(requested, f"http://127.0.0.1:{port}/") == []
        context.close()
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
