"""The public-demo pieces without a server: frame checks, traceback scrubbing, settings, the kernel hooks."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from pathlib import Path

import pytest
from jupyter_client.session import Session
from jupyter_server.services.kernels.connection.base import serialize_msg_to_ws_v1
from traitlets.utils.importstring import import_item

from explorer import cli
from explorer.demo import kernel as kernel_hooks
from explorer.demo.kernels import KERNEL_MEMORY_BYTES, KERNELS_PER_CORE, RESERVED_BYTES, default_kernel_cap
from explorer.demo.visitor import ProtocolVisitor, frame
from explorer.demo.server import (CONTENT_SECURITY_POLICY, TEMPLATE_NAME, SafeTemplateStaticFileHandler,
                                  add_template_root)
from explorer.demo.websocket import (MAX_BUFFERS, REDACTED, MalformedFrame, SafeKernelWebsocketConnection,
                                     parse_v1_frame)

ROOT = Path(__file__).resolve().parents[1]
SESSION = Session(key=b"")



def _run_in_own_loop(coroutine):
    """``asyncio.run`` in a thread of its own: a browser test run earlier in the session (Playwright's sync
    API) may keep an event loop running in this thread, where ``asyncio.run`` refuses to start."""
    import asyncio
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def _frame(msg_type="comm_msg", content=None, channel="shell", buffers=()):
    return frame(channel, msg_type, content or {"comm_id": "abc", "data": {}}, tuple(buffers))[0]


def test_a_well_formed_frame_is_split_like_jupyter_server_does():
    channel, parts, header = parse_v1_frame(_frame(buffers=[b"\x00\x01", b""]))
    assert channel == "shell" and header["msg_type"] == "comm_msg"
    assert len(parts) == 6 and parts[4:] == [b"\x00\x01", b""]
    assert json.loads(parts[3])["comm_id"] == "abc"


@pytest.mark.parametrize("frame, reason", [
    ((1 << 40).to_bytes(8, "little") + bytes(8), "offset count 1099511627776"),  # the frame of the issue
    (b"\x06" + bytes(6), "no offset count"),
    ((6).to_bytes(8, "little") + bytes(8), "shorter than its offset table"),
    ((6 + MAX_BUFFERS + 1).to_bytes(8, "little"), "offset count"),
    ((2).to_bytes(8, "little") + (24).to_bytes(8, "little") + (29).to_bytes(8, "little") + b"shell", "offset count"),
    ("{\"channel\": \"shell\"}", "binary"),
])
def test_malformed_frames_are_refused_before_any_offset_list_is_built(frame, reason):
    with pytest.raises(MalformedFrame, match=reason):
        parse_v1_frame(frame)


def test_offsets_out_of_order_or_out_of_the_frame_are_refused():
    good = bytearray(_frame())
    for index, value in [(2, 10**12), (3, 0), (1, 8)]:  # an offset beyond the end, backwards, into the table
        bad = bytearray(good)
        bad[8 * index:8 * (index + 1)] = value.to_bytes(8, "little")
        with pytest.raises(MalformedFrame, match="offsets"):
            parse_v1_frame(bytes(bad))
    truncated = bytes(good[:-3])
    with pytest.raises(MalformedFrame, match="offsets"):
        parse_v1_frame(truncated)


def test_unknown_channels_and_headers_without_msg_type_are_refused():
    with pytest.raises(MalformedFrame, match="unknown channel"):
        parse_v1_frame(_frame(channel="shelly"))
    parts = [b"[1, 2]", b"{}", b"{}", b"{}"]
    with pytest.raises(MalformedFrame, match="msg_type"):
        parse_v1_frame(serialize_msg_to_ws_v1(parts, "shell"))
    with pytest.raises(MalformedFrame, match="not JSON"):
        parse_v1_frame(serialize_msg_to_ws_v1([b"\xff{", b"{}", b"{}", b"{}"], "shell"))


class _Scrubber:
    """Just enough of a connection for SafeKernelWebsocketConnection._scrub."""
    session = SESSION
    _scrub = SafeKernelWebsocketConnection._scrub


def _kernel_message(msg_type, content):
    return SESSION.serialize(SESSION.msg(msg_type, content))  # [DELIM, signature, header, parent, metadata, content]


def test_tracebacks_and_stderr_never_leave_for_the_client():
    scrub = _Scrubber()
    assert scrub._scrub(_kernel_message("stream", {"name": "stderr", "text": "UserWarning: /srv/x.py"})) is None
    stdout = _kernel_message("stream", {"name": "stdout", "text": "hello"})
    assert scrub._scrub(stdout) is stdout
    error = {"ename": "TraitError", "evalue": "min > max", "traceback": ["\x1b[0;31mFile /srv/app.py"]}
    for msg_type, content in [("error", error), ("comm_info_reply", {"status": "error", **error})]:
        scrubbed = scrub._scrub(_kernel_message(msg_type, content))
        assert len(scrubbed) == 6 and scrubbed[0] == b"<IDS|MSG>"  # still a kernel message jupyter_server reads
        sent = SESSION.unpack(scrubbed[5])
        assert sent["traceback"] == [] and sent["evalue"] == REDACTED and sent["ename"] == "Error"
        assert b"/srv" not in b"".join(scrubbed)
    ok_reply = _kernel_message("kernel_info_reply", {"status": "ok", "banner": "x"})
    assert scrub._scrub(ok_reply) is ok_reply


def test_traversing_template_paths_are_refused_with_404():
    import tornado.web

    handler = SafeTemplateStaticFileHandler.__new__(SafeTemplateStaticFileHandler)
    for path in ["../../../../etc/passwd", "lab/static/../../../etc/passwd", "lab", "lab/static/", "lab/x/y.js",
                 "lab/static//etc/passwd"]:
        with pytest.raises(tornado.web.HTTPError) as raised:
            handler.parse_url_path(path)
        assert raised.value.status_code == 404


def test_the_default_kernel_cap_follows_the_machines_memory():
    assert default_kernel_cap(RESERVED_BYTES + 10 * KERNEL_MEMORY_BYTES, cores=64) == 10
    assert default_kernel_cap(RESERVED_BYTES, cores=64) == 1
    assert default_kernel_cap(RESERVED_BYTES + 100 * KERNEL_MEMORY_BYTES, cores=2) == 2 * KERNELS_PER_CORE
    assert default_kernel_cap() >= 1


def test_a_render_keeps_no_copy_of_the_widgets_state():
    # nbclient would copy every widget's state into a dict that lives as long as the render, and a
    # preheated kernel's render lives until a visitor takes it; Voilà never reads the copy.
    import nbformat
    from voila.execute import VoilaExecutor

    config = cli.voila_config(port=9999, open_browser=False, demo=True)
    executor = VoilaExecutor(nbformat.v4.new_notebook(), config=config)
    message = {"msg_type": "comm_msg", "content": {"comm_id": "c1", "data": {"method": "update",
                                                                         "state": {"value": 1}}}}
    executor.handle_comm_msg([], message, 0)
    assert executor.widget_state == {}
    default = VoilaExecutor(nbformat.v4.new_notebook())
    default.handle_comm_msg([], message, 0)
    assert default.widget_state == {"c1": {"value": 1}}  # what nbclient does by default


def test_the_explorer_template_drops_every_cdn_link_of_voilas_lab_template(monkeypatch):
    """The page Voilà serves for the explorer links no stylesheet from a CDN (the icons come with
    Voilà's own bundle): every ``<link>`` to a CDN in the "lab" template it extends is one the
    explorer's template removes.  If Voilà changes those links, this fails before a page does."""
    import re

    from voila.paths import collect_static_paths, collect_template_paths

    monkeypatch.setenv("JUPYTER_PATH", "")
    add_template_root()
    add_template_root()       # idempotent
    assert os.environ["JUPYTER_PATH"].split(os.pathsep).count(str(ROOT / "explorer" / "_jupyter")) == 1
    paths = collect_template_paths(["voila", "nbconvert"], TEMPLATE_NAME, prune=True)
    ours = Path(paths[0]) / "index.html.j2"
    assert ours.parent.name == TEMPLATE_NAME and ours.is_file()
    lab = next(Path(path) / "index.html.j2" for path in paths
               if Path(path).name == "lab" and Path(path).parent.parent.name == "voila")
    links = re.findall(r"<link[^>]*https?://[^>]*>", lab.read_text(encoding="utf-8"))
    assert links, "Voilà's lab template links no CDN any more: the explorer's template may go"
    source = ours.read_text(encoding="utf-8")
    for link in links:
        assert f"replace('{link}', '')" in source, link
    # the rendered cells are the page's main landmark: the markup the template replaces is still Voilà's
    cells = re.search(r"replace\('(<div id=\"rendered_cells\"[^']*)',\s*'([^']*)'\)", source)
    assert cells and cells.group(1) in lab.read_text(encoding="utf-8"), "Voilà's rendered_cells markup changed"
    assert 'role="main"' in cells.group(2) and 'aria-label="Privacy explorer"' in cells.group(2)
    # its static files (Voilà's style bundle with the fonts) are served under the explorer's name
    static = collect_static_paths(["voila", "nbconvert"], TEMPLATE_NAME)
    assert any((Path(path) / "voila-style.js").is_file() for path in static)
    assert cli.voila_config(open_browser=False).VoilaConfiguration.template == TEMPLATE_NAME
    assert "cdn" not in CONTENT_SECURITY_POLICY and "http" not in CONTENT_SECURITY_POLICY


def test_the_demo_profile_settings():
    config = cli.voila_config(port=9999, open_browser=False, demo=True, max_kernels=7, pool=3)
    assert config.DemoVoila.kernel_cap == 7
    assert config.VoilaConfiguration.preheat_kernel is True and config.VoilaConfiguration.default_pool_size == 3
    assert config.VoilaExecutor.iopub_timeout >= 60
    assert config.MappingKernelManager.allow_tracebacks is False
    assert config.DemoKernelManager.cull_unconnected_timeout > 0
    headers = config.Voila.tornado_settings["headers"]
    assert headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert "default-src 'self'" in CONTENT_SECURITY_POLICY and "object-src 'none'" in CONTENT_SECURITY_POLICY
    assert config.Voila.tornado_settings["websocket_max_message_size"] > cli.DEFAULT_MAX_BYTES
    for name in (config.Voila.kernel_websocket_connection_class,
                 config.VoilaConfiguration.multi_kernel_manager_class):
        import_item(name)
    default = cli.voila_config(open_browser=False, demo=True)
    assert default.DemoVoila.kernel_cap == default_kernel_cap()
    assert default.VoilaConfiguration.default_pool_size == cli.DEMO_POOL_SIZE
    plain = cli.voila_config(open_browser=False)
    assert plain.DemoVoila.kernel_cap == 0 and "preheat_kernel" not in plain.VoilaConfiguration
    assert "headers" not in plain.Voila.tornado_settings
    with pytest.raises(ValueError, match="max_kernels"):
        cli.voila_config(demo=True, max_kernels=-1)


def test_a_taken_port_stops_the_server_saying_so_instead_of_serving_elsewhere(tmp_path):
    """The address printed is the address served: Voilà would move to another port unannounced (away from the
    link a class was given, and from a proxy's upstream)."""
    import socket
    import sys

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = subprocess.run([sys.executable, "-m", "explorer.cli", "--no-browser", "--port", str(port)],
                                cwd=tmp_path, capture_output=True, text=True, timeout=120)
    output = result.stdout + result.stderr
    assert result.returncode != 0, output[-2000:]
    assert f"serving app.ipynb on http://127.0.0.1:{port}/" in output
    assert f"The port {port} is already in use" in output and "could not be started" in output
    assert "Voilà is running at" not in output


def test_cli_refuses_negative_caps_and_pools(capsys):
    assert cli.main(["--demo", "--max-kernels", "-1", "--no-browser"]) == 2
    assert "--max-kernels must be >= 0, got -1" in capsys.readouterr().err
    assert cli.main(["--pool", "-2", "--no-browser"]) == 2
    assert "--pool must be >= 0, got -2" in capsys.readouterr().err


def test_binder_config_names_classes_that_exist(tmp_path):
    subprocess.run(["bash", str(ROOT / "binder" / "postBuild")], check=True, capture_output=True,
                   env={**os.environ, "NB_PYTHON_PREFIX": str(tmp_path)})
    config = json.loads((tmp_path / "etc" / "jupyter" / "jupyter_server_config.json").read_text())
    import_item(config["ServerApp"]["kernel_manager_class"])
    assert config["MappingKernelManager"]["cull_idle_timeout"] > 0
    assert config["DemoKernelManager"]["cull_unconnected_timeout"] > 0
    assert config["VoilaExecutor"]["store_widget_state"] is False


def test_kernel_hooks_do_nothing_outside_a_kernel():
    assert kernel_hooks.harden_kernel() is False


class _FakeKernel:
    def __init__(self):
        self.shutdowns = []

    def do_shutdown(self, restart):
        self.shutdowns.append(restart)
        return {"status": "ok", "restart": restart}


class _FakeShell:
    def __init__(self):
        self.kernel = _FakeKernel()


def test_kernel_hooks_log_tracebacks_and_cancel_background_work_at_shutdown(monkeypatch):
    import logging
    import warnings

    import explorer.panels.tasks as base

    monkeypatch.setattr(warnings, "showwarning", warnings.showwarning)  # restored after the test

    cancelled = []
    monkeypatch.setattr(base.BackgroundTask, "cancel_all", classmethod(lambda cls: cancelled.append(cls)),
                        raising=False)
    root = logging.getLogger()
    saved = list(root.handlers)
    shell = _FakeShell()
    records = []
    try:
        assert kernel_hooks.harden_kernel(shell) is True
        assert kernel_hooks.harden_kernel(shell) is False  # once
        monkeypatch.setattr(root.handlers[0], "emit", records.append)
        try:
            raise ValueError("min > max")
        except ValueError:
            shell.showtraceback()
        assert "ValueError: min > max" in records[-1].getMessage()
        assert shell.kernel.do_shutdown(False) == {"status": "ok", "restart": False}
        assert cancelled == [base.BackgroundTask] and shell.kernel.shutdowns == [False]
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
        for handler in saved:
            root.addHandler(handler)


def test_kernels_whose_page_left_are_culled_busy_or_idle_but_not_while_a_page_loads():
    from datetime import timedelta
    from types import SimpleNamespace

    from jupyter_server._tz import utcnow

    from explorer.demo.kernels import DemoKernelManager

    manager = DemoKernelManager(cull_unconnected_timeout=60, cull_never_connected_timeout=300,
                                cull_idle_timeout=600)
    shut = []

    async def shutdown_kernel(kernel_id, *args, **kwargs):
        shut.append(kernel_id)

    manager.shutdown_kernel = shutdown_kernel
    quiet = utcnow() - timedelta(seconds=90)
    for kernel_id in ("left-busy", "loading", "connected-busy"):
        manager._kernels[kernel_id] = SimpleNamespace(last_activity=quiet, execution_state="busy",
                                                      kernel_name="python3",
                                                      kernel_spec=SimpleNamespace(metadata={}))
        manager._kernel_connections[kernel_id] = 0
    manager.notify_connect("left-busy")
    manager.notify_disconnect("left-busy")
    manager._kernels["left-busy"].last_activity = quiet  # the page left 90 s ago
    manager.notify_connect("connected-busy")

    async def cull_all():
        for kernel_id in list(manager._kernels):
            await manager.cull_kernel_if_idle(kernel_id)

    _run_in_own_loop(cull_all())
    assert shut == ["left-busy"]  # "loading": its page never connected yet; "connected-busy": a visitor is there


class _Stream:
    """Stands in for a ZMQStream of a buffered channel."""

    def __init__(self):
        self.is_closed = False
        self.callback = "set"

    def closed(self):
        return self.is_closed

    def close(self):
        self.is_closed = True

    def on_recv(self, callback):
        self.callback = callback


def test_a_websocket_closing_while_its_kernel_shuts_down_leaves_no_buffer():
    """The page's shutdown request, then its websocket closing while the kernel is still stopping:
    the buffer jupyter_server would start then was never cleared (ZMQ streams kept per visitor)."""
    from types import SimpleNamespace

    from explorer.demo.kernels import DemoKernelManager

    manager = DemoKernelManager()
    manager._kernels["k"] = SimpleNamespace(kernel_name="python3")
    manager._kernel_connections["k"] = 0
    manager._shutting_down.add("k")              # as shutdown_kernel marks it while it awaits the process
    channels = {"shell": _Stream(), "iopub": _Stream()}
    manager.start_buffering("k", "session", channels)
    assert "k" not in manager._kernel_buffers
    assert all(stream.closed() for stream in channels.values())
    manager._shutting_down.discard("k")
    live = {"shell": _Stream()}
    manager.start_buffering("k", "session", live)        # a page that only lost its connection: buffered
    assert "k" in manager._kernel_buffers and not live["shell"].closed()
    manager.remove_kernel("k")                           # the kernel ended without the buffer being cleared
    assert "k" not in manager._kernel_buffers and live["shell"].closed() and live["shell"].callback is None


def test_a_new_visitor_is_refused_at_the_cap_or_when_the_expected_wait_is_long(monkeypatch):
    from types import SimpleNamespace

    from explorer.demo.server import CappedVoilaHandler

    kernels = ["a", "b", "c"]

    class Handler(CappedVoilaHandler):
        kernel_manager = SimpleNamespace(list_kernel_ids=lambda: list(kernels), _pools={})

    handler = Handler.__new__(Handler)
    handler.kernel_cap, handler.max_starting, handler.max_wait = 4, 2, 90.0
    monkeypatch.setattr(CappedVoilaHandler, "pages", {})
    monkeypatch.setattr(CappedVoilaHandler, "waiting", 0)
    monkeypatch.setattr(CappedVoilaHandler, "render_seconds", 10.0)
    assert handler._full() is None
    CappedVoilaHandler.pages[1] = object()  # a page being rendered counts before its kernel is listed
    assert handler._full() == "4 of 4 kernels"
    CappedVoilaHandler.pages.clear()
    handler.kernel_cap = 0
    CappedVoilaHandler.waiting = 17  # (17 + 1) / 2 slots x 10 s = 90 s: still served
    assert handler._full() is None
    CappedVoilaHandler.waiting = 18  # 95 s
    assert "about 95 s" in handler._full()
    CappedVoilaHandler.render_seconds = 2.0  # a quiet machine serves the same line in time
    assert handler._full() is None
    handler.max_starting = 0  # no line: always served
    CappedVoilaHandler.render_seconds = 100.0
    assert handler._full() is None


def test_the_cap_counts_visitors_not_pool_refills_nor_pages_twice(monkeypatch):
    """A burst of 30 on a cap of 30 is served: a pool refill that is starting is the pool's, and a
    page whose kernel is listed counts once (before, both counted as visitors: 28 of 30 rendered)."""
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

    from explorer.demo.kernels import DemoKernelManager
    from explorer.demo.server import visitor_kernel_count

    started = []

    async def fake_start(self, *args, kernel_id=None, **kwargs):
        started.append(kernel_id)
        await asyncio.sleep(0)
        return kernel_id

    monkeypatch.setattr(AsyncMappingKernelManager, "start_kernel", fake_start)

    async def scenario():
        manager = DemoKernelManager()
        live = []
        manager.list_kernel_ids = lambda: list(live)
        gate = asyncio.Event()

        async def page_with_own_kernel():          # a visitor not served from the pool
            live.append(await manager.start_kernel(kernel_name="python3"))
            await gate.wait()

        async def refill():                        # Voilà's pool starting a kernel
            kernel_id = await manager.start_kernel(kernel_name="python3")
            live.append(kernel_id)
            await gate.wait()                      # still starting: the task is not done
            return {"kernel_id": kernel_id}

        async def page_from_pool():                # handed a finished pool kernel
            await manager.get_rendered_notebook("app.ipynb")
            await gate.wait()

        finished = {"kernel_id": "pool-ready"}
        live.append("pool-ready")

        async def get_rendered_notebook(notebook_name):
            return None, [], "handed"

        manager.get_rendered_notebook = get_rendered_notebook
        manager.watch_hand_overs()
        live.append("handed")
        live.append("left-rendering")                # a visitor whose page has finished rendering

        done_task = asyncio.ensure_future(asyncio.sleep(0, finished))
        await done_task
        refilling = asyncio.ensure_future(refill())
        manager._pools = {"app.ipynb": [done_task, refilling]}
        own = asyncio.ensure_future(page_with_own_kernel())
        pooled_page = asyncio.ensure_future(page_from_pool())
        waiting = asyncio.ensure_future(gate.wait())   # admitted, no kernel yet (in line)
        for _ in range(5):
            await asyncio.sleep(0)
        assert {manager.kernel_of_task[own], manager.kernel_of_task[refilling]} == set(started)
        assert manager.kernel_of_task[pooled_page] == "handed"
        assert manager.pooled_kernel_ids() == {"pool-ready", manager.kernel_of_task[refilling]}
        pages = [own, pooled_page, waiting]
        count = visitor_kernel_count(manager, pages)
        gate.set()
        await asyncio.gather(refilling, own, pooled_page, waiting)
        return count

    # visitors: own kernel, handed pool kernel, the finished page, and the page in line = 4
    assert _run_in_own_loop(scenario()) == 4
    assert all(started)                             # the id is chosen before jupyter_server starts the kernel


def test_a_server_that_is_behind_refuses_new_visitors(monkeypatch):
    """A page admitted more than max_wait / 2 ago and still rendering: the next visitor is told the demo is full."""
    import time
    from types import SimpleNamespace

    from explorer.demo.server import CappedVoilaHandler

    class Handler(CappedVoilaHandler):
        kernel_manager = SimpleNamespace(list_kernel_ids=lambda: [], _pools={})

    handler = Handler.__new__(Handler)
    handler.kernel_cap, handler.max_starting, handler.max_wait = 0, 0, 90.0
    monkeypatch.setattr(CappedVoilaHandler, "rendering", {})
    CappedVoilaHandler.rendering[1] = time.monotonic() - 10
    assert handler._full() is None
    CappedVoilaHandler.rendering[2] = time.monotonic() - 50
    assert "admitted 50 s ago is still rendering" in handler._full()
    del CappedVoilaHandler.rendering[2]
    assert handler._full() is None
    handler.max_wait = 0            # no bound on the wait
    CappedVoilaHandler.rendering[3] = time.monotonic() - 500
    assert handler._full() is None


def test_a_visitor_who_leaves_while_in_line_starts_no_kernel(monkeypatch):
    import asyncio
    from types import SimpleNamespace

    from voila.tornado.handler import TornadoVoilaHandler

    from explorer.demo.server import CappedVoilaHandler

    rendered = []

    async def fake_get(self, path=None):
        rendered.append(path)

    monkeypatch.setattr(TornadoVoilaHandler, "get", fake_get)

    class Handler(CappedVoilaHandler):
        kernel_manager = SimpleNamespace(list_kernel_ids=lambda: [], _pools={})

    async def scenario():
        monkeypatch.setattr(CappedVoilaHandler, "_starting", asyncio.Semaphore(1))
        monkeypatch.setattr(CappedVoilaHandler, "waiting", 0)
        await CappedVoilaHandler._starting.acquire()  # the only slot is taken
        leaving, staying = Handler.__new__(Handler), Handler.__new__(Handler)
        for handler in (leaving, staying):
            handler.max_starting, handler._gone = 1, asyncio.Event()
        first = asyncio.ensure_future(leaving._render("left"))
        second = asyncio.ensure_future(staying._render("stayed"))
        await asyncio.sleep(0.01)
        assert CappedVoilaHandler.waiting == 2
        leaving._gone.set()  # the first visitor closes the tab while in line
        await asyncio.sleep(0.01)
        assert first.done() and CappedVoilaHandler.waiting == 1
        CappedVoilaHandler._starting.release()
        await asyncio.wait_for(second, 1)
        assert CappedVoilaHandler.waiting == 0 and not CappedVoilaHandler._starting.locked()

    _run_in_own_loop(scenario())
    assert rendered == ["stayed"]


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="reads RSS from /proc")
def test_release_memory_hands_freed_heap_pages_back_to_the_system():
    from explorer.demo import server

    if server._MALLOC_TRIM is None:
        pytest.skip("the C library has no malloc_trim")
    blocks = [bytearray(1000) for _ in range(60_000)]     # ~60 MB of malloc'd blocks (above pymalloc's 512 B)
    held = server._rss()
    del blocks
    released = server.release_memory()
    assert released > 20 * 2**20, (held, released)
    assert server._rss() < held - 20 * 2**20


def test_the_demo_server_releases_memory_periodically_unless_told_not_to(monkeypatch):
    from explorer.demo import server
    from explorer.demo.server import DemoVoila

    assert DemoVoila.release_memory_interval.default_value == 60.0
    assert DemoVoila.class_traits()["release_memory_interval"].metadata.get("config") is True
    calls = []
    monkeypatch.setattr(server, "release_memory", lambda: calls.append(1) or 0)

    async def run(interval):
        app = DemoVoila(release_memory_interval=interval)
        callback = app.start_memory_release()
        await asyncio.sleep(0.35)
        if callback is not None:
            callback.stop()
        return callback

    assert _run_in_own_loop(run(0.05)) is not None
    assert len(calls) >= 3, calls                   # every 50 ms for 350 ms
    calls.clear()
    assert _run_in_own_loop(run(0)) is None
    assert calls == []


def test_the_protocol_visitor_frames_parse_and_widget_states_follow_the_kernel():
    data, msg_id = frame("shell", "comm_open", {"comm_id": "c", "target_name": "jupyter.widget.control", "data": {}},
                         metadata={"version": "1.0.0"})
    channel, parts, header = parse_v1_frame(data)     # the demo's own check accepts what the visitor sends
    assert channel == "shell" and header["msg_id"] == msg_id and header["msg_type"] == "comm_open"
    assert json.loads(parts[2]) == {"version": "1.0.0"}

    visitor = ProtocolVisitor("http://127.0.0.1:1")
    assert visitor.base_url.endswith("/")
    control = visitor._control_comm
    visitor._handle("iopub", "comm_msg", None, {"comm_id": control, "data": {"method": "update_states", "states": {
        "a": {"state": {"value": "I am a student", "_dom_classes": []}},
        "b": {"state": {"value": 1.0, "step": 0.05, "_dom_classes": ["explorer-rr-epsilon"]}}}}})
    assert visitor._states_received.is_set() and visitor.shows("I am a student")
    visitor._handle("iopub", "comm_msg", None, {"comm_id": "b", "data": {"method": "echo_update",
                                                                          "state": {"value": 1.05}}})
    assert visitor.states["b"]["value"] == 1.05
    visitor._handle("iopub", "comm_open", None, {"comm_id": "c", "target_name": "jupyter.widget",
                                                 "data": {"state": {"description": "new"}}})
    assert visitor.find(lambda state: state.get("description") == "new") == "c"
    visitor._handle("iopub", "comm_close", None, {"comm_id": "c"})
    assert "c" not in visitor.states
    done = visitor._idle["m"] = asyncio.Event()
    visitor._handle("iopub", "status", "m", {"execution_state": "busy"})
    assert not done.is_set()
    visitor._handle("iopub", "status", "m", {"execution_state": "idle"})
    assert done.is_set() and "m" not in visitor._idle


def test_every_kernel_manager_shares_the_servers_event_logger():
    """Voilà's application had no ``event_logger``, so each kernel's manager made one and left a logger
    named after it in logging's global table: a few objects per visitor, kept for the server's life."""
    import logging

    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager, ServerKernelManager

    from explorer.demo.server import DemoVoila

    app = DemoVoila()
    shared = app.event_logger
    loggers = len(logging.Logger.manager.loggerDict)
    multi = AsyncMappingKernelManager(parent=app)
    managers = [ServerKernelManager(parent=multi) for _ in range(3)]
    assert all(manager.event_logger is shared for manager in managers)
    assert len(logging.Logger.manager.loggerDict) == loggers


def test_kernel_websockets_start_no_tornado_ping_that_outlives_them():
    """jupyter_server gives tornado its ping interval in milliseconds (30000), which tornado reads in
    seconds: each connection's ping task slept 8.3 hours, and its cancelled timer kept the connection's
    handler in asyncio's queue that long.  The demo's handler leaves tornado's ping off."""
    from unittest.mock import Mock

    import tornado.web
    from tornado.httputil import HTTPHeaders, HTTPServerRequest, RequestStartLine
    from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

    from explorer.demo.server import DemoKernelWebsocketHandler

    def protocol(handler_class):
        request = HTTPServerRequest(start_line=RequestStartLine("GET", "/api/kernels/k/channels", "HTTP/1.1"),
                                    headers=HTTPHeaders({"Sec-WebSocket-Version": "13", "Host": "127.0.0.1"}),
                                    connection=Mock())
        return handler_class(tornado.web.Application(), request).get_websocket_protocol()

    upstream = protocol(VoilaKernelWebsocketHandler).ping_interval
    assert upstream in (0, 30000)       # 30000 s with jupyter_server 2.x and tornado 6.5+ (0 once fixed upstream)
    assert protocol(DemoKernelWebsocketHandler).ping_interval == 0


def test_the_culler_starts_outside_the_request_that_started_the_first_kernel(monkeypatch):
    """jupyter_server starts its culler when the first kernel starts, inside that visitor's request: its
    periodic timer would carry the request's context (and the page's handler) for the server's life."""
    import contextvars

    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

    from explorer.demo.kernels import DemoKernelManager

    request = contextvars.ContextVar("request")
    seen = []
    monkeypatch.setattr(AsyncMappingKernelManager, "initialize_culler", lambda self: seen.append(request.get(None)))
    manager = DemoKernelManager()
    request.set("the first visitor's page")
    manager.initialize_culler()
    assert seen == [None]


# ---------------------------------------------------------------------- the pool of ready kernels (issue 26)
class _FakeVoilaPool:
    """Stands for the class Voilà's ``voila_kernel_manager_factory`` makes: its fill starts pool tasks."""

    def fill_if_needed(self, delay=None, notebook_name=None, **kwargs):
        pool = self._pools.setdefault(notebook_name, [])
        size = self.kernel_pools_config.get(notebook_name, self.kernel_pools_config["default"])["pool_size"]
        for _ in range(size - len(pool)):
            self.started += 1
            pool.append(asyncio.ensure_future(self._start(f"k{self.started}")))

    async def _start(self, kernel_id):
        await self.release.wait()
        render = asyncio.get_running_loop().create_future()
        render.set_result(([], None))
        outputs = [{"output_type": "error"}] if kernel_id in self.broken else []
        renderer = type("Renderer", (), {})()
        renderer.executor = type("Executor", (), {"nb": {"cells": [{"outputs": outputs}]}})()
        renderer.rendered_cache, renderer.stop_generator = ["<html>"], False
        return {"kernel_id": kernel_id, "task": render, "renderer": renderer}

    def list_kernel_ids(self):
        return []

    def __contains__(self, kernel_id):
        return False


def _ready_pool(size=2, broken=()):
    from explorer.demo.pool import ReadyPoolMixin

    manager = type("Pool", (ReadyPoolMixin, _FakeVoilaPool), {})(refill_quiet=0.2, pool_nice=0)
    manager._pools, manager._kernels, manager.started = {}, {}, 0
    manager.kernel_pools_config = {"default": {"pool_size": size}}
    manager.release, manager.broken = asyncio.Event(), set(broken)
    return manager


def test_the_pool_refills_only_when_no_page_is_being_rendered(monkeypatch):
    from explorer.demo.server import CappedVoilaHandler

    monkeypatch.setattr(CappedVoilaHandler, "pages", {})

    async def scenario():
        manager = _ready_pool(2)
        manager.release.set()
        rendering = asyncio.ensure_future(asyncio.sleep(30))
        CappedVoilaHandler.pages[1] = rendering            # a visitor's page is being rendered
        manager.fill_if_needed(notebook_name="app.ipynb")
        await asyncio.sleep(1.5)
        assert manager.started == 0, "a refill started while a page was being rendered"
        assert "page" in manager.server_busy()
        del CappedVoilaHandler.pages[1]
        rendering.cancel()
        for _ in range(40):
            await asyncio.sleep(0.1)
            if manager.ready_count() == 2:
                break
        status = manager.pool_status()
        manager._filler.cancel()
        return manager.started, status

    started, status = _run_in_own_loop(scenario())
    assert started == 2
    assert status["text"] == "Pool ready: 2 of 2 kernels"


def test_the_pool_hands_over_only_ready_kernels_and_replaces_failed_ones(monkeypatch):
    from explorer.demo.pool import pool_entry_failed, pool_entry_ready
    from explorer.demo.server import CappedVoilaHandler

    monkeypatch.setattr(CappedVoilaHandler, "pages", {})

    async def scenario():
        manager = _ready_pool(2, broken={"k1"})
        manager.class_size = 2
        manager._start_pool_kernels("app.ipynb", 2)          # k1 (its notebook fails) and k2, both starting
        pool = manager._pools["app.ipynb"]
        assert manager.get_pool_size("app.ipynb") == 0       # none ready: the visitor's page starts its own kernel
        assert manager.pool_status()["text"] == "Filling: 0 of 2 kernels ready"
        manager.release.set()
        await asyncio.gather(*pool)
        assert [pool_entry_ready(t) for t in pool] == [False, True]
        assert [pool_entry_failed(t) for t in pool] == [True, False]
        assert manager.get_pool_size("app.ipynb") == 1
        manager._filler = asyncio.ensure_future(asyncio.sleep(0))     # no background filler in this test
        manager.fill_if_needed = lambda **kwargs: None
        render, cache, kernel_id = await manager.get_rendered_notebook("app.ipynb")
        assert kernel_id == "k2" and cache == ["<html>"]
        with pytest.raises(Exception, match="no ready kernel"):
            await manager.get_rendered_notebook("app.ipynb")
        del manager.fill_if_needed
        manager._filler = None
        manager.fill_if_needed(notebook_name="app.ipynb")   # the filler drops k1 and starts two more
        for _ in range(100):
            await asyncio.sleep(0.1)
            if manager.ready_count() == 2:
                break
        manager._filler.cancel()
        return [t.result()["kernel_id"] for t in manager._pools["app.ipynb"]], manager.pool_status()["text"]

    kernels, text = _run_in_own_loop(scenario())
    assert "k1" not in kernels and len(kernels) == 2
    assert text == "Class ready: 2 of 2 kernels"


def test_a_preheated_kernel_does_not_wait_for_its_visitor_and_takes_the_query_when_handed_over(monkeypatch):
    class App:
        applied = []

        def load_query_string(self, query):
            self.applied.append(query)

    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.setenv(kernel_hooks.PREHEAT_TABS_ENV, "")
    monkeypatch.setenv("QUERY_STRING", "")                  # apply_visitor_query sets it: restored after the test
    monkeypatch.setattr(kernel_hooks, "_PREHEATED_APP", None)
    app = App()
    kernel_hooks.apply_preheated_query(app)                  # returns at once: no cell waits for a visitor
    assert app.applied == []
    assert kernel_hooks.apply_visitor_query("config=abc") is True
    assert app.applied == ["config=abc"] and os.environ["QUERY_STRING"] == "config=abc"
    monkeypatch.delenv("VOILA_PREHEAT")
    assert kernel_hooks.apply_visitor_query("") is False
    assert kernel_hooks.preimport_tabs("Randomized response") == ["explorer.panels.randomized_response"]


def test_a_preheated_kernel_builds_the_tab_a_visitor_opens_first(monkeypatch):
    from explorer.app import build_app
    from explorer.demo import kernel as kernel_hooks

    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.delenv(kernel_hooks.PREHEAT_TABS_ENV, raising=False)
    monkeypatch.setattr(kernel_hooks, "_PREHEATED_APP", None)
    app = build_app(query_string="")                                 # no link: the landing view
    assert "Randomized response" not in app.panels
    kernel_hooks.apply_preheated_query(app)
    assert "Randomized response" in app.panels                      # built, its widgets sent with the landing view
    assert app.tabs.selected_index == 0                             # the visitor still lands on "Start here"
    assert kernel_hooks.prebuild_tabs(app, "Randomized response; No such tab") == ["Randomized response"]


def test_the_class_option_and_server_ids(capsys):
    import re

    from explorer.demo.kernels import DemoKernelManager

    config = cli.voila_config(open_browser=False, demo=True, class_size=45, execution_timeout=30)
    assert config.VoilaConfiguration.default_pool_size == 45
    assert config.DemoVoila.kernel_cap >= 45 and config.DemoVoila.class_size == 45
    assert config.ReadyPoolMixin.class_size == 45
    assert config.VoilaExecutor.timeout == 30
    assert cli.main(["--class", "3", "--no-browser"]) == 2
    assert "--class needs --demo" in capsys.readouterr().err
    assert cli.main(["--demo", "--class", "-1", "--no-browser"]) == 2
    assert cli.main(["--demo", "--server-id", "a/b", "--no-browser"]) == 2
    kernel_id = DemoKernelManager(server_id="s1").new_kernel_id()
    assert kernel_id.startswith("s1_")
    assert re.fullmatch(r"\w+-\w+-\w+-\w+-\w+", kernel_id)           # Voilà's and jupyter_server's routes take it
    with pytest.raises(Exception):
        DemoKernelManager(server_id="s1_x")


def test_a_visitor_whose_new_kernel_fails_gets_the_full_page_not_a_broken_one(monkeypatch):
    from explorer.demo.server import CappedVoilaHandler

    stopped = []

    async def shutdown_kernel(kernel_id, now=False):
        stopped.append(kernel_id)

    def handler_for(page):
        class Handler(CappedVoilaHandler):
            async def get_generator(self, path=None):
                for part in page:
                    yield part

            def clear(self):
                self.sent.clear()

            def set_status(self, code):
                self.status = code

            def set_header(self, name, value):
                self.headers[name] = value

            def write(self, text):
                self.sent.append(text)

            def flush(self):
                pass

            def finish(self, text=None):
                self.sent.append(text or "")
                self._finished = True

        Handler.kernel_manager = type("KM", (), {"kernel_of_task": {}, "shutdown_kernel": staticmethod(shutdown_kernel),
                                                 "__contains__": lambda self, k: True})()
        handler = Handler.__new__(Handler)
        handler.notebook_path, handler.retry_after, handler.kernel_cap = "app.ipynb", 60, 30
        handler._finished, handler.sent, handler.headers, handler.status = False, [], {}, 200
        return handler

    async def scenario():
        good = handler_for(["<head>", '<script type="application/vnd.jupyter.widget-view+json">{}</script>'])
        await good._checked_get(None)
        broken = handler_for(["<head>", "Cell execution timed out, aborting notebook execution."])
        Handler = type(broken)
        Handler.kernel_manager.kernel_of_task[asyncio.current_task()] = "k-failed"
        await broken._checked_get(None)
        await asyncio.sleep(0)
        return good, broken

    good, broken = _run_in_own_loop(scenario())
    assert good.status == 200 and "widget-view" in "".join(good.sent)
    assert broken.status == 503 and broken.headers["Retry-After"] == "60"
    assert "The demo is full" in "".join(broken.sent) and "timed out" not in "".join(broken.sent)
    assert stopped == ["k-failed"]
