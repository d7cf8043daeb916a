"""The public demo under load: one visitor's time to the landing view, a burst of visitors, a soak.

    python benchmarks/bench_demo_load.py [--burst 30] [--cap N] [--pool 2] [--soak VISITORS SECONDS [--rounds R] [--visitors protocol]]
                                         [--skip-single] [--out benchmarks/results/demo_load.txt]
    python benchmarks/bench_demo_load.py --visitors protocol --class 30 --burst 30 --burst 60 --skip-single --no-cpu-budget
    python benchmarks/bench_demo_load.py --visitors protocol --class 30 --burst 30 --beside 2 --skip-single --no-cpu-budget

Everything runs on 127.0.0.1: ``privacy-explorer --demo`` and headless Debian Chromium
(Playwright, one browser, a context per visitor).  Prints, never asserts on time:

* where a kernel's start-up goes: the kernel process up to ``kernel_info`` (interpreter,
  ipykernel, zmq), ``import explorer.app``, ``build_app()`` (the landing view), measured in a
  real kernel through jupyter_client;
* one visitor's time from request to the landing view (the "Start here" view with its "I am a
  student" path), without and with the preheated pool;
* CPU seconds per visitor, split between the server, the visitor's kernel and their browser, for a
  visitor who only opens the landing view and one who also switches the data set, opens
  Randomized response and moves ε;
* a burst of ``--burst`` visitors opening the app at once: per-visitor time to a visible app
  (median / p95 / max), pages rendered, "demo is full" pages (503), blank or timed-out pages,
  memory per visitor at the landing view (kernel RSS and PSS), kernel CPU seconds per visitor,
  server + kernels memory at its peak and after everyone left, kernels left running;
* with ``--soak V S [--rounds R]``: V visitors arriving over S seconds (R times on the same
  server), each staying 20-60 s and moving a few controls, then closing the tab: outcomes,
  kernels left 60 s after the last one left, server memory before / after each round.  With
  ``--visitors protocol`` the soak's visitors speak HTTP and the widget protocol without a browser
  (:mod:`explorer.demo.visitor`), so that the server and its kernels are measured alone.

With ``--visitors protocol`` the burst's visitors are protocol-level too, and with ``--class N`` the
server is ``privacy-explorer --demo --class N`` and each burst starts once its status page says the class
is ready.  Such a burst reports, besides the outcomes, where the CPU goes (server and kernels, by phase):
filling the pool (kernel start and notebook execution, per kernel), each visitor's landing view from a
ready kernel (the page and the widgets' state), opening Randomized response and moving ε once (the tab's
build and its figures), and the refill after the visitors left; the memory per ready kernel and per
visitor; and the CPU the visitors themselves spent (this process shares the cores with the server).
With ``--beside N`` the bursts run beside N CPU-bound processes on the same cores.

The load average is printed with the figures.  The burst is bounded: a visitor waits at most
``--visitor-timeout`` seconds (default 240) for a page.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from _common import tee_stdout  # noqa: E402  (benchmarks/_common.py)

from explorer.demo.kernels import kernel_processes  # noqa: E402
from explorer.demo.visitor import DATASET, DATASET_LOADED, LANDING_TEXT, RR_TAB  # noqa: E402  (the scripted visit)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic", "--disable-dev-shm-usage"]
#: The landing view ("Start here", the first tab): what a visitor sees first.
LANDING = ".explorer-landing"
MB = 2**20


def load() -> str:
    return "load average %.2f %.2f %.2f" % os.getloadavg()


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def quantiles(values: list[float]) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return f"median {statistics.median(ordered):.1f} / p95 {p95:.1f} / max {ordered[-1]:.1f}"


# ---------------------------------------------------------------------------------------------- server
class Server:
    def __init__(self, *args: str, log: Path):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.log = open(log, "w")
        env = {**os.environ, "MPLBACKEND": "Agg"}
        self.process = subprocess.Popen([sys.executable, "-m", "explorer.cli", "--demo", "--no-browser",
                                         "--port", str(self.port), *args],
                                        stdout=self.log, stderr=subprocess.STDOUT, env=env, cwd=log.parent)
        import urllib.request

        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "voila/static/favicon.ico", timeout=5)
                return
            except Exception:
                time.sleep(0.3)
        raise RuntimeError("the server did not start")

    def kernels(self) -> list[psutil.Process]:
        return kernel_processes(self.process.pid)

    def class_status(self) -> dict:
        import json
        import urllib.request

        with urllib.request.urlopen(self.url + "class.json", timeout=30) as response:
            return json.load(response)

    def wait_for_class(self, timeout: float) -> float | None:
        """Seconds until the status page says the pool is full of ready kernels (None: not within ``timeout``)."""
        started = time.monotonic()
        while time.monotonic() - started < timeout:
            try:
                status = self.class_status()
                if status["target"] and status["ready"] >= status["target"]:
                    return time.monotonic() - started
            except Exception:
                pass
            time.sleep(1.0)
        return None

    def memory(self) -> int:
        """RSS of the server and its kernels."""
        total = 0
        for process in [psutil.Process(self.process.pid), *self.kernels()]:
            try:
                total += process.memory_info().rss
            except psutil.Error:
                pass
        return total

    def server_rss(self) -> int:
        return psutil.Process(self.process.pid).memory_info().rss

    def wait_for_kernels(self, count: int, timeout: float) -> float | None:
        started = time.monotonic()
        while time.monotonic() - started < timeout:
            if len(self.kernels()) == count:
                return time.monotonic() - started
            time.sleep(0.5)
        return None

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


# ------------------------------------------------------------------------------------- kernel start-up
def kernel_startup_breakdown(repeat: int = 3) -> None:
    from jupyter_client.manager import start_new_kernel

    code = ("import time as _t, sys as _s\n"
            "_a = _t.perf_counter()\n"
            "import explorer.app\n"
            "_b = _t.perf_counter()\n"
            "_app = explorer.app.build_app()\n"
            "_c = _t.perf_counter()\n"
            "_sc, _mp = int('scipy.stats' in _s.modules), int('matplotlib.figure' in _s.modules)\n"
            "import importlib as _i\n"
            "[_i.import_module(_m) for _, _m, _ in explorer.app.PANEL_TABS]\n"
            "_d = _t.perf_counter()\n"
            "print(f'{_b - _a:.3f} {_c - _b:.3f} {_sc} {_mp} {_d - _c:.3f}')\n")
    rows = []
    for _ in range(repeat):
        started = time.perf_counter()
        manager, client = start_new_kernel(kernel_name="python3", startup_timeout=120,
                                           env={**os.environ, "MPLBACKEND": "Agg"})
        ready = time.perf_counter() - started
        rss_ready = psutil.Process(manager.provisioner.process.pid).memory_info().rss
        output = []
        client.execute_interactive(code, output_hook=lambda m: output.append(m["content"].get("text", ""))
                                   if m["msg_type"] == "stream" else None, timeout=120)
        imports, build, scipy_loaded, mpl_loaded, panels = "".join(output).split()
        rss_built = psutil.Process(manager.provisioner.process.pid).memory_info().rss
        rows.append((ready, float(imports), float(build), rss_ready, rss_built, float(panels), scipy_loaded,
                     mpl_loaded))
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    med = [statistics.median(r[i] for r in rows) for i in range(6)]
    print(f"kernel start-up, median of {repeat} ({load()}):")
    print(f"  kernel process to kernel_info reply (interpreter, ipykernel, zmq): {med[0]:.2f} s, "
          f"RSS {med[3] / MB:.0f} MB")
    print(f"  import explorer.app (ipywidgets, pandas, matplotlib.figure via panels.figures): {med[1]:.2f} s")
    print(f"  build_app() (the 'Start here' landing view and empty slots for the tabs): {med[2]:.2f} s, "
          f"kernel RSS then {med[4] / MB:.0f} MB")
    print(f"  scipy.stats loaded at the landing view: {rows[-1][6] == '1'}; "
          f"matplotlib.figure loaded: {rows[-1][7] == '1'}")
    print(f"  importing the other five tabs' modules (build_app did it before this change; now each is "
          f"imported when its tab first opens): {med[5]:.2f} s")


# ------------------------------------------------------------------------------------------- visitors
async def interact_once(page) -> None:
    """What a visitor does: pick a data set in the Data tab, open randomized response and move ε."""
    await page.locator(".lm-TabBar-tab", has_text="Data").first.click()
    select = page.locator(".explorer-data-panel .widget-dropdown select").first
    await select.select_option(DATASET, timeout=60_000)
    await page.locator(".explorer-data-panel").filter(has_text=DATASET_LOADED).wait_for(timeout=60_000)
    await page.locator(".lm-TabBar-tab", has_text=RR_TAB).first.click()
    await page.locator(".explorer-rr-panel .explorer-status").wait_for(timeout=60_000)
    slider = page.locator(".explorer-rr-panel .explorer-rr-epsilon .noUi-handle").first
    await slider.focus(timeout=60_000)
    for _ in range(3):
        await page.keyboard.press("ArrowRight")
        await asyncio.sleep(0.3)


async def visit(browser, url: str, timeout: float, stay: float = 0.0, interact: bool = False) -> dict:
    """One visitor: open the page, wait for the landing view (or the demo-full page), stay, close the tab."""
    context = await browser.new_context(viewport={"width": 1300, "height": 900})
    page = await context.new_page()
    started = time.monotonic()
    outcome = {"outcome": "blank", "seconds": None}
    try:
        response = await page.goto(url, timeout=timeout * 1000)
        if response is not None and response.status == 503:
            text = await page.text_content("h1")
            outcome = {"outcome": "full" if text and "full" in text else "503-other",
                       "seconds": time.monotonic() - started}
        else:
            await page.locator(LANDING).filter(has_text=LANDING_TEXT).wait_for(
                timeout=max(1.0, timeout - (time.monotonic() - started)) * 1000)
            outcome = {"outcome": "app", "seconds": time.monotonic() - started}
            if interact:
                began = time.monotonic()
                await interact_once(page)
                outcome.update(interacted=True, interaction_seconds=time.monotonic() - began)
            if stay:
                await asyncio.sleep(stay)
    except Exception as error:  # a timeout or a closed page: counted as blank
        outcome["error"] = type(error).__name__
    finally:
        try:
            await page.close(run_before_unload=True)
            await asyncio.sleep(0.2)
            await context.close()
        except Exception:
            pass
    return outcome


class PeakMemory:
    """The server's and its kernels' memory at its highest, sampled every second between start() and stop()."""

    def __init__(self, server: Server):
        self.server = server
        self.peak = 0
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._watch())

    async def _watch(self) -> None:
        while True:
            self.peak = max(self.peak, self.server.memory())
            await asyncio.sleep(1.0)

    async def stop(self) -> int:
        """Stop sampling (one last sample); the peak in bytes."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self.peak = max(self.peak, self.server.memory())
        return self.peak


async def burst(url: str, visitors: int, timeout: float, server: Server, hold: bool = True) -> dict:
    """``visitors`` visitors at once; they stay until all have an outcome, then close their tabs."""
    from playwright.async_api import async_playwright

    watcher = PeakMemory(server)

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        contexts = []
        results: list[dict] = []

        async def one(index: int):
            context = await browser.new_context(viewport={"width": 1300, "height": 900})
            page = await context.new_page()
            contexts.append((context, page))
            started = time.monotonic()
            sent: list[float] = []
            page.on("requestfinished", lambda request: sent.append(time.monotonic() - started)
                    if request.resource_type == "document" else None)
            try:
                response = await page.goto(url, timeout=timeout * 1000)
                if response is not None and response.status == 503:
                    results.append({"outcome": "full", "seconds": time.monotonic() - started,
                                    "retry_after": response.headers.get("retry-after")})
                    return
                await page.locator(LANDING).filter(has_text=LANDING_TEXT).wait_for(
                    timeout=max(1.0, timeout - (time.monotonic() - started)) * 1000)
                results.append({"outcome": "app", "seconds": time.monotonic() - started,
                                "html": sent[0] if sent else None})
            except Exception as error:
                results.append({"outcome": "blank", "seconds": None, "error": type(error).__name__})

        watcher.start()
        started = time.monotonic()
        await asyncio.gather(*(one(i) for i in range(visitors)))
        wall = time.monotonic() - started
        await asyncio.sleep(3)
        kernels = server.kernels()
        rss, pss, cpu = [], [], []
        for kernel in kernels:
            try:
                info = kernel.memory_full_info()
                rss.append(info.rss)
                pss.append(info.pss)
                times = kernel.cpu_times()
                cpu.append(times.user + times.system)
            except psutil.Error:
                pass
        at_landing = server.memory()
        server_rss = server.server_rss()
        peak = await watcher.stop()
        for context, page in contexts:
            try:
                await page.close(run_before_unload=True)
            except Exception:
                pass
        await asyncio.sleep(1)
        for context, _ in contexts:
            try:
                await context.close()
            except Exception:
                pass
        await browser.close()
    return {"results": results, "wall": wall, "rss": rss, "pss": pss, "cpu": cpu, "peak": peak,
            "at_landing": at_landing, "server_rss": server_rss, "kernels": len(kernels)}


def _cpu(process: psutil.Process) -> float:
    try:
        times = process.cpu_times()
        return times.user + times.system
    except psutil.Error:
        return 0.0


def _snapshot(server: Server) -> dict:
    """CPU seconds of the server process and of each live kernel (by pid)."""
    return {"server": _cpu(psutil.Process(server.process.pid)),
            "kernels": {kernel.pid: _cpu(kernel) for kernel in server.kernels()}}


def _spent(before: dict, after: dict) -> tuple[float, float]:
    """Server and kernel CPU seconds between two snapshots (a kernel gone meanwhile is not counted)."""
    kernels = sum(cpu - before["kernels"].get(pid, 0.0) for pid, cpu in after["kernels"].items())
    return after["server"] - before["server"], kernels


def kernel_memory(kernels: list) -> tuple[list[int], list[int]]:
    """RSS and PSS (bytes) of each kernel process still alive."""
    rss, pss = [], []
    for kernel in kernels:
        try:
            info = kernel.memory_full_info()
        except psutil.Error:
            continue
        rss.append(info.rss)
        pss.append(info.pss)
    return rss, pss


async def open_rr_and_move(visitor) -> None:
    """Open Randomized response and move ε one step, as a visitor's page does."""
    from explorer.demo.visitor import move_epsilon, open_randomized_response

    await move_epsilon(visitor, await open_randomized_response(visitor))


async def protocol_burst(url: str, visitors: int, timeout: float, server: Server, refill_timeout: float = 600) -> dict:
    """``visitors`` protocol-level visitors at once: each reaches the landing view; once all have an outcome,
    each opens Randomized response and moves ε once; then all leave and the pool refills.  CPU by phase."""
    from explorer.demo.visitor import ProtocolVisitor

    watcher = PeakMemory(server)

    watcher.start()
    crowd = [ProtocolVisitor(url, timeout=timeout) for _ in range(visitors)]

    async def land(visitor) -> dict:
        started = time.monotonic()
        try:
            if not await visitor.open_page():
                return {"outcome": "full" if visitor.status == 503 else f"http-{visitor.status}",
                        "seconds": time.monotonic() - started, "retry_after": visitor.retry_after}
            await visitor.connect()
            await visitor.wait_for(lambda: visitor.shows(LANDING_TEXT), "the landing view")
            return {"outcome": "app", "seconds": time.monotonic() - started}
        except Exception as error:
            return {"outcome": "blank", "seconds": None, "error": f"{type(error).__name__}: {error}"[:160]}

    async def act(visitor, result: dict) -> None:
        if result["outcome"] != "app":
            return
        started = time.monotonic()
        try:
            await open_rr_and_move(visitor)
            result["interaction_seconds"] = time.monotonic() - started
        except Exception as error:
            result["interaction_error"] = f"{type(error).__name__}: {error}"[:160]

    me = psutil.Process()
    before = _snapshot(server)
    harness_before = sum(me.cpu_times()[:2])
    started = time.monotonic()
    results = await asyncio.gather(*(land(v) for v in crowd))
    harness_landed = sum(me.cpu_times()[:2])
    wall = time.monotonic() - started
    landed = _snapshot(server)
    kernels_landed = server.kernels()
    rss, pss = kernel_memory(kernels_landed)
    at_landing = server.memory()
    await asyncio.gather(*(act(v, r) for v, r in zip(crowd, results)))
    acted = _snapshot(server)
    harness_acted = sum(me.cpu_times()[:2])
    after_rr = server.memory()
    peak = await watcher.stop()
    for visitor in crowd:
        try:
            await visitor.leave()
        except Exception:
            visitor.close()
    left = time.monotonic()
    refilled = await asyncio.get_running_loop().run_in_executor(None, server.wait_for_class, refill_timeout)
    after = _snapshot(server)
    new_kernels = {pid: cpu for pid, cpu in after["kernels"].items() if pid not in acted["kernels"]}
    refill_server = after["server"] - acted["server"]
    return {"results": results, "wall": wall, "landing_cpu": _spent(before, landed),
            "rr_cpu": _spent(landed, acted), "harness_cpu": (harness_landed - harness_before,
                                                             harness_acted - harness_landed),
            "refill_cpu": (refill_server, sum(new_kernels.values())),
            "refilled_kernels": len(new_kernels), "refill_seconds": refilled,
            "left_at": left, "rss": rss, "pss": pss, "peak": peak, "at_landing": at_landing, "after_rr": after_rr,
            "server_rss": server.server_rss(), "kernels": len(kernels_landed)}


def report_protocol_burst(label: str, data: dict, visitors: int, baseline: int) -> None:
    results = data["results"]
    app = [r["seconds"] for r in results if r["outcome"] == "app"]
    full = [r for r in results if r["outcome"] == "full"]
    failed = [r for r in results if r["outcome"] not in ("app", "full")]
    moved = [r["interaction_seconds"] for r in results if "interaction_seconds" in r]
    not_moved = [r for r in results if r["outcome"] == "app" and "interaction_seconds" not in r]
    print(f"{label}: {visitors} protocol-level visitors at once ({load()})")
    refused = f" (503, Retry-After {full[0]['retry_after']} s)" if full else ""
    print(f"  pages: {len(app)} app, {len(full)} 'demo is full'{refused}, {len(failed)} errors, blank or timed out"
          + (f" ({_errors(failed)})" if failed else ""))
    print(f"  time to the landing view (s): {quantiles(app)}; all outcomes within {data['wall']:.0f} s")
    print(f"  open Randomized response + move ε once (s), all {len(app)} at once: {quantiles(moved)}"
          + (f"; failed: {_errors([{'error': r['interaction_error'], 'outcome': 'x'} for r in not_moved])}"
             if not_moved else ""))
    n = max(1, len(app))
    land_server, land_kernels = data["landing_cpu"]
    rr_server, rr_kernels = data["rr_cpu"]
    print(f"  CPU per visitor to the landing view: server {land_server / n:.2f} s + kernels {land_kernels / n:.2f} s "
          f"= {(land_server + land_kernels) / n:.2f} s (page, websocket, widget state)")
    print(f"  CPU per visitor to open Randomized response and move ε once: server {rr_server / n:.2f} s + kernels "
          f"{rr_kernels / n:.2f} s = {(rr_server + rr_kernels) / n:.2f} s (tab build, figures, messages)")
    harness_landing, harness_rr = data["harness_cpu"]
    print(f"  CPU of the visitors themselves (this process, on the same cores): {harness_landing:.1f} s to the "
          f"landing views, {harness_rr:.1f} s to Randomized response and ε")
    refill_server, refill_kernels = data["refill_cpu"]
    if data["refilled_kernels"]:
        print(f"  refill after they left: {data['refilled_kernels']} kernels in "
              + (f"{data['refill_seconds']:.0f} s" if data["refill_seconds"] is not None else "more than the limit")
              + f"; CPU per refilled kernel: kernel {refill_kernels / data['refilled_kernels']:.2f} s (start and "
              f"notebook), server {refill_server / data['refilled_kernels']:.2f} s (render, shutdowns)")
    if data["rss"]:
        print(f"  per kernel at the landing views ({data['kernels']} kernels): RSS median "
              f"{statistics.median(data['rss']) / MB:.0f} MB, PSS median {statistics.median(data['pss']) / MB:.0f} MB")
    print(f"  server + kernels: {baseline / MB:.0f} MB before, {data['at_landing'] / MB:.0f} MB at the landing views, "
          f"{data['after_rr'] / MB:.0f} MB after Randomized response "
          f"({(data['after_rr'] - baseline) / n / MB:+.0f} MB per visitor), peak {data['peak'] / MB:.0f} MB; "
          f"server alone {data['server_rss'] / MB:.0f} MB")


def class_fill_report(server: Server, class_size: int, timeout: float) -> int:
    """Wait for the class pool; print the time, the CPU and the memory it took; returns the memory (bytes)."""
    started = time.monotonic()
    before = _snapshot(server)
    ready = server.wait_for_class(timeout)
    after = _snapshot(server)
    server_s, kernels_s = _spent(before, after)
    kernels = server.kernels()
    rss, pss = kernel_memory(kernels)
    total = server.memory()
    pss_total = sum(pss) + psutil.Process(server.process.pid).memory_full_info().pss
    print(f"class of {class_size}: " + (f"ready after {ready:.0f} s" if ready is not None
                                        else f"NOT ready after {time.monotonic() - started:.0f} s")
          + f" ({load()}); {server.class_status()['text']!r}")
    print(f"  CPU to fill: server {server_s:.1f} s, kernels {kernels_s:.1f} s; per kernel {server_s / max(1, len(kernels)):.2f}"
          f" + {kernels_s / max(1, len(kernels)):.2f} s (kernel start and notebook execution; the server's render)")
    if rss:
        print(f"  memory per ready kernel: RSS median {statistics.median(rss) / MB:.0f} MB, PSS median "
              f"{statistics.median(pss) / MB:.0f} MB; pool of {len(kernels)} + server: RSS {total / MB:.0f} MB, "
              f"PSS {pss_total / MB:.0f} MB")
    return total


def report_burst(label: str, data: dict, visitors: int, pool: int, server: Server, baseline: int) -> None:
    results = data["results"]
    app = [r["seconds"] for r in results if r["outcome"] == "app"]
    full = [r for r in results if r["outcome"] == "full"]
    blank = [r for r in results if r["outcome"] not in ("app", "full")]
    print(f"{label}: {visitors} visitors at once ({load()})")
    refused = f" (503, Retry-After {full[0]['retry_after']} s)" if full else ""
    print(f"  pages: {len(app)} app, {len(full)} 'demo is full'{refused}, {len(blank)} blank or timed out"
          + (f" ({sorted({r.get('error') for r in blank})})" if blank else ""))
    html = [r["html"] for r in results if r.get("html") is not None]
    print(f"  time to a visible app (s): {quantiles(app)}; all outcomes within {data['wall']:.0f} s")
    print(f"  of which the server's part, request to the rendered page fully sent (s): {quantiles(html)}; "
          f"the rest is the browsers (all {visitors} on this machine's cores) loading the page's scripts")
    if data["rss"]:
        print(f"  per kernel at the landing view ({data['kernels']} kernels, {pool} of them the refilled pool): "
              f"RSS median {statistics.median(data['rss']) / MB:.0f} MB, PSS median "
              f"{statistics.median(data['pss']) / MB:.0f} MB, CPU median {statistics.median(data['cpu']):.1f} s")
    per_visitor = (data["at_landing"] - baseline) / max(1, len(app))
    print(f"  server + kernels: {baseline / MB:.0f} MB before, {data['at_landing'] / MB:.0f} MB at the landing "
          f"views ({per_visitor / MB:.0f} MB per rendered visitor), peak {data['peak'] / MB:.0f} MB; "
          f"server alone {data['server_rss'] / MB:.0f} MB")
    left = server.wait_for_kernels(pool, timeout=60)
    print(f"  after the tabs closed: {len(server.kernels())} kernels left"
          + (f" (the pool of {pool}) after {left:.0f} s" if left is not None else " after 60 s")
          + f"; server + kernels {server.memory() / MB:.0f} MB, server {server.server_rss() / MB:.0f} MB")


async def single_visits(url: str, count: int, server: Server, pool: int) -> list[float]:
    from playwright.async_api import async_playwright

    times = []
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        warm = await visit(browser, url, 120)  # browser cache and server templates warm, as for a returning class
        server.wait_for_kernels(pool, 30)
        for _ in range(count):
            await asyncio.sleep(2)
            server.wait_for_kernels(pool, 30)  # the pool refilled (or no kernel left)
            if pool:
                await asyncio.sleep(6)  # and its kernels have pre-rendered the app
            result = await visit(browser, url, 120)
            if result["seconds"] is not None:
                times.append(result["seconds"])
        await browser.close()
    del warm
    return times


def _tree_cpu(root: psutil.Process) -> float:
    """CPU seconds of a process and all its descendants, alive or reaped."""
    total = 0.0
    for process in [root, *root.children(recursive=True)]:
        try:
            times = process.cpu_times()
            total += times.user + times.system + times.children_user + times.children_system
        except psutil.Error:
            pass
    return total


async def cpu_budget(url: str, server: Server, repeat: int = 2) -> None:
    """CPU seconds one visitor costs, split between the server, its kernel and the visitor's browser.

    The browser's share is what a real class spends on its own computers; in this benchmark
    every visitor's Chromium runs on the server's cores, so it limits how many visitors a soak
    on one machine can serve.
    """
    from playwright.async_api import async_playwright

    me = psutil.Process()
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        await visit(browser, url, 120)   # templates and the browser warm
        rows = {False: [], True: []}
        for interact in [False, True] * repeat:
            await asyncio.sleep(3)
            server_process = psutil.Process(server.process.pid)
            before_server = sum(server_process.cpu_times()[:2])
            before_all = _tree_cpu(me)
            known = {kernel.pid for kernel in server.kernels()}
            context = await browser.new_context(viewport={"width": 1300, "height": 900})
            page = await context.new_page()
            await page.goto(url)
            await page.locator(LANDING).filter(has_text=LANDING_TEXT).wait_for(timeout=120_000)
            if interact:
                await interact_once(page)
            await asyncio.sleep(2)
            kernel = sum(sum(k.cpu_times()[:2]) for k in server.kernels() if k.pid not in known)
            spent_server = sum(server_process.cpu_times()[:2]) - before_server
            spent_all = _tree_cpu(me) - before_all
            rows[interact].append((spent_server, kernel, spent_all - spent_server - kernel))
            await page.close(run_before_unload=True)
            await context.close()
        await browser.close()
    cores = psutil.cpu_count()
    for interact, label in ((False, "opens the landing view"), (True, "also switches the data set, opens randomized response, moves ε")):
        server_s, kernel_s, browser_s = (statistics.median(column) for column in zip(*rows[interact]))
        print(f"  CPU per visitor who {label}: server {server_s:.2f} s, kernel {kernel_s:.2f} s, "
              f"browser {browser_s:.2f} s (median of {len(rows[interact])}; {load()})")
        print(f"    {cores} cores serve at most {60 * cores / (server_s + kernel_s):.0f} such visitors a minute; "
              f"{60 * cores / (server_s + kernel_s + browser_s):.0f} when their browsers run on the same cores")


async def soak(url: str, visitors: int, seconds: float, server: Server, pool: int, rounds: int = 1,
               client: str = "browser") -> None:
    """``visitors`` arriving over ``seconds``, ``rounds`` times on the same server (a new round starts
    60 s after the last visitor of the one before left), with the server's RSS after each round.

    ``client`` "browser": each visitor is a Chromium context on this machine; "protocol": each is an
    :class:`explorer.demo.visitor.ProtocolVisitor` (the page request and the widget messages a page
    sends, no browser), so that the server and its kernels are measured alone.
    """
    rng = random.Random(12)
    arrivals = sorted(rng.uniform(0, seconds) for _ in range(visitors))
    stays = [rng.uniform(20, 60) for _ in range(visitors)]
    server_cold = server.server_rss()
    await _visitors(url, [0.0], [0.0], client)   # one visitor first: templates compiled, modules loaded
    await asyncio.sleep(65)                        # and the server's periodic memory release has run
    server_before = server.server_rss()
    print(f"soak: {visitors} visitors ({'Chromium' if client == 'browser' else 'protocol-level, no browser'}) "
          f"arriving over {seconds:.0f} s, staying 20-60 s, moving controls"
          + (f", {rounds} rounds on the same server" if rounds > 1 else "")
          + f"; server RSS {server_cold / MB:.0f} MB started, {server_before / MB:.0f} MB after one visitor ({load()})")
    previous = server_before
    for round_number in range(1, rounds + 1):
        if rounds > 1:
            print(f" round {round_number} ({load()})")
        cpu_before = _server_and_kernels_cpu(server)
        results, peak_kernels = await _visitors(url, arrivals, stays, client, server)
        cpu_spent = _server_and_kernels_cpu(server) - cpu_before
        last_left = time.monotonic()
        app = [r["seconds"] for r in results if r["outcome"] == "app"]
        full = sum(r["outcome"] == "full" for r in results)
        blank = [r for r in results if r["outcome"] not in ("app", "full")]
        print(f"  pages: {len(app)} app, {full} 'demo is full', {len(blank)} blank or failed"
              + (f" ({_errors(blank)})" if blank else ""))
        moved = [r["interaction_seconds"] for r in results if r.get("interacted")]
        print(f"  time to a visible app (s): {quantiles(app)}; at most {peak_kernels} kernels at once")
        failed = [r for r in results if r["outcome"] == "app" and not r.get("interacted")]
        print(f"  visitors who switched the data set, opened randomized response and moved ε: {len(moved)} of "
              f"{len(app)}" + (f" (the others: {_errors(failed)})" if failed else "")
              + f"; time they took (s): {quantiles(moved)}")
        print(f"  CPU of the server and its kernels: {cpu_spent:.0f} s over the round "
              f"({cpu_spent / max(1, len(app)):.1f} s per visitor who got the app)")
        await asyncio.sleep(max(0.0, 60 - (time.monotonic() - last_left)))
        left = len(server.kernels())
        after = server.server_rss()
        print(f"  60 s after the last visitor left: {left} kernels (the pool is {pool}); server RSS "
              f"{server_before / MB:.0f} MB before, {after / MB:.0f} MB after ({(after / server_before - 1) * 100:+.0f} %; "
              f"{(after / server_cold - 1) * 100:+.0f} % against the server as started"
              + (f"; {(after - previous) / MB:+.0f} MB in this round" if round_number > 1 else "")
              + f") ({load()})")
        previous = after


def _errors(results: list[dict]) -> str:
    """The distinct errors of ``results``, each with how many visitors met it."""
    counts = collections.Counter(str(result.get("error", result["outcome"]))[:120] for result in results)
    return "; ".join(f"{n} x {error}" for error, n in counts.most_common())


def _server_and_kernels_cpu(server: Server) -> float:
    """CPU seconds of the server process and every kernel it started, including those already gone."""
    return _tree_cpu(psutil.Process(server.process.pid))


async def _visitors(url: str, arrivals: list[float], stays: list[float], client: str,
                    server: Server | None = None) -> tuple[list[dict], int]:
    """Visitors arriving at ``arrivals`` (seconds from now), each staying ``stays`` and moving controls;
    their outcomes and the most kernels seen at once."""
    from explorer.demo.visitor import scripted_visit

    peak_kernels = 0
    started = time.monotonic()

    async def run(visit_one) -> list[dict]:
        nonlocal peak_kernels

        async def one(arrival: float, stay: float):
            await asyncio.sleep(max(0.0, arrival - (time.monotonic() - started)))
            return await visit_one(stay)

        gathered = asyncio.ensure_future(asyncio.gather(*(one(a, s) for a, s in zip(arrivals, stays))))
        while not gathered.done():
            if server is not None:
                peak_kernels = max(peak_kernels, len(server.kernels()))
            await asyncio.sleep(2)
        return gathered.result()

    if client == "protocol":
        return await run(lambda stay: scripted_visit(url, timeout=240, stay=stay, interact_with_app=True)), peak_kernels
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        results = await run(lambda stay: visit(browser, url, 240, stay=stay, interact=True))
        await browser.close()
    return results, peak_kernels


@contextlib.contextmanager
def busy_loops(n: int):
    """``n`` CPU-bound processes (a Python busy loop each) for the time of the ``with`` block."""
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(max(0, n))]
    try:
        yield loops
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--burst", type=int, action="append", default=None,
                        help="visitors at once (repeatable: one burst after the other on the same server; "
                             "default 30)")
    parser.add_argument("--class", dest="class_size", type=int, default=0,
                        help="the bursts' server runs privacy-explorer --demo --class N; each burst waits until "
                             "its status page says the class is ready")
    parser.add_argument("--cap", type=int, default=None, help="--max-kernels of the burst's and the soak's "
                        "server (default: the machine's default)")
    parser.add_argument("--pool", type=int, default=2)
    parser.add_argument("--singles", type=int, default=3, help="single visits measured per configuration")
    parser.add_argument("--skip-single", action="store_true")
    parser.add_argument("--no-cpu-budget", dest="cpu_budget", action="store_false",
                        help="skip the CPU seconds per visitor (server, kernel, browser)")
    parser.add_argument("--soak", type=float, nargs=2, metavar=("VISITORS", "SECONDS"))
    parser.add_argument("--rounds", type=int, default=1, help="soaks run one after the other on the same server")
    parser.add_argument("--visitors", choices=("browser", "protocol"), default="browser",
                        help="the soak's visitors: Chromium pages, or protocol-level visitors without a browser "
                             "(explorer.demo.visitor) so that the server is measured alone")
    parser.add_argument("--visitor-timeout", type=float, default=240)
    parser.add_argument("--beside", type=int, default=0, metavar="N",
                        help="run the protocol bursts beside N CPU-bound processes (busy loops) on the same cores, "
                             "started once the class is ready")
    parser.add_argument("--out", default=None, help="also write the figures to this file")
    args = parser.parse_args()
    args.burst = [30] if args.burst is None else [b for b in args.burst if b > 0]
    logs = Path("/tmp") / f"bench_demo_load_{os.getpid()}"
    logs.mkdir(exist_ok=True)
    with tee_stdout(args.out):
        print(f"bench_demo_load: {psutil.cpu_count()} cores, {psutil.virtual_memory().total / 2**30:.0f} GB, "
              f"{load()}; server logs in {logs}")
        if not args.skip_single:
            kernel_startup_breakdown()
            for pool in (0, args.pool):
                server = Server("--pool", str(pool), log=logs / f"single-pool{pool}.log")
                try:
                    times = asyncio.run(single_visits(server.url, args.singles, server, pool))
                finally:
                    server.stop()
                print(f"one visitor, request to landing view, preheated pool {pool}: "
                      + ", ".join(f"{t:.2f}" for t in times) + f" s ({load()})")
        if args.cpu_budget:
            server = Server("--pool", "0", log=logs / "cpu.log")
            try:
                print(f"CPU budget of one visitor, no preheated pool ({load()}):")
                asyncio.run(cpu_budget(server.url, server))
            finally:
                server.stop()
        if args.burst and args.visitors == "protocol":
            if args.skip_single:          # where a kernel's start goes (its process, imports, the app's build)
                kernel_startup_breakdown(repeat=2)
            cap_args = [] if args.cap is None else ["--max-kernels", str(args.cap)]
            pool_args = ["--class", str(args.class_size)] if args.class_size else ["--pool", str(args.pool)]
            server = Server(*pool_args, *cap_args, log=logs / "burst.log")
            try:
                from explorer.demo.kernels import default_kernel_cap

                cap = args.cap if args.cap is not None else max(default_kernel_cap(), args.class_size)
                class_fill_report(server, args.class_size or args.pool, 900)
                for visitors in args.burst:
                    server.wait_for_class(900)
                    with busy_loops(args.beside):
                        time.sleep(5)
                        baseline = server.memory()
                        data = asyncio.run(protocol_burst(server.url, visitors, args.visitor_timeout, server))
                    beside = f", beside {args.beside} CPU-bound processes" if args.beside else ""
                    report_protocol_burst(f"burst (kernel cap {cap}, " + (f"class of {args.class_size}" if args.class_size
                                          else f"preheated pool {args.pool}") + f"{beside})", data, visitors, baseline)
            finally:
                server.stop()
        elif args.burst:
            cap_args = [] if args.cap is None else ["--max-kernels", str(args.cap)]
            server = Server("--pool", str(args.pool), *cap_args, log=logs / "burst.log")
            try:
                server.wait_for_kernels(args.pool, 60)
                time.sleep(8)
                baseline = server.memory()
                from explorer.demo.kernels import default_kernel_cap

                cap = args.cap if args.cap is not None else default_kernel_cap()
                data = asyncio.run(burst(server.url, args.burst[0], args.visitor_timeout, server))
                report_burst(f"burst (kernel cap {cap}, preheated pool {args.pool})", data, args.burst[0], args.pool,
                             server, baseline)
            finally:
                server.stop()
        if args.soak:
            cap_args = [] if args.cap is None else ["--max-kernels", str(args.cap)]
            server = Server("--pool", str(args.pool), *cap_args, log=logs / "soak.log")
            try:
                server.wait_for_kernels(args.pool, 60)
                time.sleep(8)
                from explorer.demo.kernels import default_kernel_cap

                print(f"soak server: kernel cap {args.cap if args.cap is not None else default_kernel_cap()}, "
                      f"preheated pool {args.pool}")
                asyncio.run(soak(server.url, int(args.soak[0]), args.soak[1], server, args.pool, args.rounds,
                                 client=args.visitors))
            finally:
                server.stop()


if __name__ == "__main__":
    main()
