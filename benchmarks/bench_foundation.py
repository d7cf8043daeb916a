"""Foundation figures: server start to first rendered app, kernel memory, Adult load time.

    python benchmarks/bench_foundation.py [--out benchmarks/results/foundation.txt]

Prints figures (never asserts on time).  Needs Debian's chromium and playwright.
Baselines measured in the same run: reading adult.data-sized CSV text with pandas
(what a loader without the shipped extract would do) against the shipped extract.
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def kernel_pids(parent: int) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            stat = (entry / "stat").read_text().split()
        except OSError:
            continue
        if "ipykernel_launcher" in cmdline and int(stat[3]) == parent:
            pids.append(int(entry.name))
    return pids


def adult_load_figures(lines: list[str]) -> None:
    import numpy as np
    import pandas as pd

    from explorer.core import datasets

    times = []
    for _ in range(7):
        datasets._adult_arrays.cache_clear()
        started = time.perf_counter()
        datasets.adult()
        times.append(time.perf_counter() - started)
    shipped = float(np.median(times))
    text = datasets.adult().to_csv(index=False)
    started = time.perf_counter()
    frame = pd.read_csv(io.StringIO(text))
    for column in frame.select_dtypes("object"):
        frame[column] = frame[column].astype("category")
    baseline = time.perf_counter() - started
    lines.append(f"adult() from the shipped extract (median of 7, cold cache): {shipped * 1000:.1f} ms (target < 300 ms)")
    lines.append(f"baseline, pandas read_csv of the same table as text + category dtypes: {baseline * 1000:.1f} ms "
                 f"(ratio {baseline / shipped:.1f}x)")


def browser_figures(lines: list[str]) -> None:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    port = free_port()
    workdir = tempfile.mkdtemp()
    started = time.monotonic()
    server = subprocess.Popen([sys.executable, "-m", "explorer.cli", "--no-browser", "--port", str(port)],
                              cwd=workdir, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/voila/static/favicon.ico", timeout=2).close()
                break
            except Exception:
                if time.monotonic() - started > 120:
                    raise RuntimeError("server did not answer")
                time.sleep(0.1)
        answered = time.monotonic() - started
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=[
                "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--disable-quic"])
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page_started = time.monotonic()
            page.goto(f"http://127.0.0.1:{port}/", timeout=180_000)
            page.wait_for_selector(".explorer-app", timeout=180_000)
            rendered = time.monotonic()
            time.sleep(2)
            pids = kernel_pids(server.pid)
            rss = [rss_mb(pid) for pid in pids]
            tab_times = []
            for title in ("Randomized response", "t-closeness", "Permutation", "Dominance", "Multi-attribute RR"):
                tab_started = time.monotonic()
                page.locator(".lm-TabBar-tab", has_text=title).first.click()
                page.wait_for_function(
                    "() => !Array.from(document.querySelectorAll('.lm-TabPanel .lm-Widget:not(.lm-mod-hidden) i'))"
                    ".some(e => e.textContent === 'Loading...')", timeout=180_000)
                page.wait_for_timeout(500)
                tab_times.append((title, time.monotonic() - tab_started))
            time.sleep(3)
            rss_all = [rss_mb(pid) for pid in pids]
            browser.close()
        lines.append(f"privacy-explorer start to first answer (static file): {answered:.2f} s")
        lines.append(f"privacy-explorer start to first rendered app in Chromium: {rendered - started:.2f} s "
                     f"(page load alone {rendered - page_started:.2f} s)")
        lines.append(f"kernel RSS with the app open: {', '.join(f'{r:.0f} MB' for r in rss) or 'no kernel found'}")
        lines.append("first opening of each tab (panel built kernel-side, then rendered): "
                     + ", ".join(f"{title} {seconds:.1f} s" for title, seconds in tab_times))
        lines.append(f"kernel RSS after opening every tab: {', '.join(f'{r:.0f} MB' for r in rss_all)}")
    finally:
        server.terminate()
        server.wait(timeout=20)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "foundation.txt"))
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    lines = [f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}"]
    adult_load_figures(lines)
    if not args.no_browser:
        browser_figures(lines)
    text = "\n".join(lines)
    print(text)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
