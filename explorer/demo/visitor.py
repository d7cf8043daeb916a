"""A visitor of the demo without a browser: the page request and the widget protocol, as a page speaks them.

:class:`ProtocolVisitor` does over HTTP and the kernel websocket what Voilà's page does in a
browser: it requests the page (the server starts a kernel and runs the app), connects to the
kernel (v1 subprotocol), asks for every widget's state as the widget manager does
(``request_states`` on a ``jupyter.widget.control`` comm), changes controls with the same
``update`` messages a moved slider sends, and, when it leaves, sends the shutdown request the
page sends when its tab closes (with the ``_xsrf`` cookie and token).

It serves two purposes:

* load tests that measure the server and its kernels alone: a browser costs more CPU than the
  server and the visitor's kernel together (``benchmarks/results/demo_load.txt``), so many
  browsers on the server's machine measure the browsers;
* checking a deployed demo from a terminal::

      python -m explorer.demo.visitor https://demo.example.org/ [--interact]

The visitor renders nothing: "the app is visible" means the page holds the app's widget output
and the landing view's text is in its widgets' state, which is what the browser then draws.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlencode, urljoin, urlsplit, urlunsplit

from jupyter_client.session import Session
from jupyter_server.services.kernels.connection.base import deserialize_msg_from_ws_v1, serialize_msg_to_ws_v1

from explorer.demo.websocket import V1_PROTOCOL

__all__ = ["ProtocolVisitor", "VisitError", "frame", "scripted_visit", "open_randomized_response", "move_epsilon",
           "LANDING_TEXT"]

#: Text of the landing view ("Start here"): the app is visible when a widget holds it.
LANDING_TEXT = "I am a student"
#: What a scripted visit does: the data set it picks and the text that shows it loaded.
DATASET = "Domingo-Ferrer and Muralidhar (2016) example"
DATASET_LOADED = "20 records"
RR_TAB = "Randomized response"
DATA_TAB = "Data"
EPSILON_CLASS = "explorer-rr-epsilon"
#: The widget control protocol of ipywidgets 8 (``ipywidgets._version.__control_protocol_version__``).
CONTROL_PROTOCOL = "1.0.0"
_WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
_CONFIG = re.compile(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', re.S)
_SESSION = Session(key=b"")


class VisitError(RuntimeError):
    """A step of a visit failed: the page, the websocket or a widget did not answer as a page expects."""


def frame(channel: str, msg_type: str, content: dict, buffers: tuple[bytes, ...] = (),
          metadata: dict | None = None) -> tuple[bytes, str]:
    """A client message in the v1 kernel websocket protocol, and its ``msg_id``.

    Parameters
    ----------
    channel : str
        ``shell``, ``control``, ``stdin`` or ``iopub``.
    msg_type : str
        The Jupyter message type, e.g. ``comm_msg``.
    content : dict
        The message content.
    buffers : tuple of bytes
        Binary buffers sent after the content.
    metadata : dict, optional
        The message metadata (the widget control comm's ``comm_open`` names its protocol version there).

    Returns
    -------
    frame : bytes
        The websocket message, laid out by jupyter_server's ``serialize_msg_to_ws_v1``.
    msg_id : str
        The id the kernel's replies name as their parent.
    """
    msg = _SESSION.msg(msg_type, content, metadata=metadata)
    parts = [_SESSION.pack(msg["header"]), _SESSION.pack(msg["parent_header"]), _SESSION.pack(msg["metadata"]),
             _SESSION.pack(msg["content"]), *buffers]
    return serialize_msg_to_ws_v1(parts, channel), msg["header"]["msg_id"]


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)


class ProtocolVisitor:
    """One visitor of the demo at ``base_url`` (ending in ``/``), speaking HTTP and the widget protocol.

    Parameters
    ----------
    base_url : str
        The demo's address, e.g. ``http://127.0.0.1:8866/``, optionally with the page's query string
        (``?config=...``): the page is requested with it, the websocket and the shutdown without.
    timeout : float
        Seconds any one step may take (the page request included).

    Attributes
    ----------
    status : int or None
        HTTP status of the page (503: the demo is full).
    retry_after : str or None
        The ``Retry-After`` header of a 503.
    kernel_id : str or None
        The kernel the server started (or handed from its pool) for this page.
    states : dict
        Each widget's state by model id, kept up to date from the kernel's messages.
    """

    def __init__(self, base_url: str, *, timeout: float = 120.0):
        parts = urlsplit(base_url)
        path = parts.path if parts.path.endswith("/") else parts.path + "/"
        #: The page's address, with its query string (``?config=...``) if it has one.
        self.page_url = urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))
        self.base_url = urlunsplit((parts.scheme, parts.netloc, path, "", ""))
        self.timeout = float(timeout)
        self.status: int | None = None
        self.retry_after: str | None = None
        self.kernel_id: str | None = None
        self.states: dict[str, dict] = {}
        self._xsrf: str | None = None
        self._connection: Any = None
        self._reader: asyncio.Task | None = None
        self._idle: dict[str, asyncio.Event] = {}
        self._changed = asyncio.Event()
        self._control_comm = str(uuid.uuid4())
        self._states_received = asyncio.Event()
        self.closed_by_server = False

    # ------------------------------------------------------------------ the page
    async def open_page(self) -> bool:
        """Request the page; True when it holds the app's widget output, False for a 503.

        Raises
        ------
        VisitError
            If the request fails or times out, or the page has no widget output (Voilà dropped
            the cell's output: the blank page of a swamped server).
        """
        from tornado.httpclient import AsyncHTTPClient, HTTPClientError

        client = AsyncHTTPClient(force_instance=True)
        try:
            response = await client.fetch(self.page_url, request_timeout=self.timeout, connect_timeout=self.timeout,
                                          raise_error=False)
        finally:
            client.close()
        if isinstance(getattr(response, "error", None), Exception) and not isinstance(response.error, HTTPClientError):
            raise VisitError(f"the page request failed: {type(response.error).__name__}: {response.error}")
        self.status = response.code
        if response.code == 503:
            self.retry_after = response.headers.get("Retry-After")
            return False
        if response.code != 200:
            raise VisitError(f"the page answered HTTP {response.code}")
        for cookie in response.headers.get_list("Set-Cookie"):
            name, _, rest = cookie.partition("=")
            if name.strip() == "_xsrf":
                self._xsrf = rest.split(";", 1)[0]
        body = response.body.decode("utf-8", "replace")
        match = _CONFIG.search(body)
        if match is None:
            raise VisitError("the page has no jupyter-config-data")
        self.kernel_id = json.loads(match.group(1)).get("kernelId")
        if not self.kernel_id:
            raise VisitError("the page names no kernel")
        if _WIDGET_VIEW not in body:
            raise VisitError("the page has no widget output (a blank page)")
        return True

    # ------------------------------------------------------------------ the kernel websocket
    async def connect(self) -> None:
        """Open the kernel websocket and receive every widget's state (``request_states``)."""
        from tornado.httpclient import HTTPRequest
        from tornado.websocket import websocket_connect

        origin = re.sub(r"^(https?://[^/]+).*$", r"\1", self.base_url)
        url = (re.sub("^http", "ws", self.base_url) + f"api/kernels/{self.kernel_id}/channels?"
               + urlencode({"session_id": str(uuid.uuid4())}))
        request = HTTPRequest(url, headers={"Origin": origin}, connect_timeout=self.timeout,
                              request_timeout=self.timeout)
        self._connection = await asyncio.wait_for(websocket_connect(request, subprotocols=[V1_PROTOCOL]),
                                                  self.timeout)
        self._reader = asyncio.ensure_future(self._read())
        await self.send("shell", "comm_open", {"comm_id": self._control_comm, "target_name": "jupyter.widget.control",
                                               "data": {}}, metadata={"version": CONTROL_PROTOCOL})
        await self.send("shell", "comm_msg", {"comm_id": self._control_comm, "data": {"method": "request_states"}},
                        wait=False)
        await self._wait(self._states_received.wait(), "the widgets' states")

    async def send(self, channel: str, msg_type: str, content: dict, *, wait: bool = True,
                   metadata: dict | None = None) -> str:
        """Send a message; with ``wait``, until the kernel has handled it (its ``idle`` status)."""
        if self._connection is None:
            raise VisitError("not connected")
        data, msg_id = frame(channel, msg_type, content, metadata=metadata)
        done = self._idle[msg_id] = asyncio.Event()
        await self._connection.write_message(data, binary=True)
        if wait:
            await self._wait(done.wait(), f"the kernel to handle {msg_type}")
        return msg_id

    async def _wait(self, awaitable: Any, what: str) -> None:
        try:
            await asyncio.wait_for(awaitable, self.timeout)
        except asyncio.TimeoutError:
            raise VisitError(f"waited {self.timeout:.0f} s for {what}") from None
        if self.closed_by_server:
            raise VisitError("the server closed the websocket")

    async def _read(self) -> None:
        while True:
            message = await self._connection.read_message()
            if message is None:
                self.closed_by_server = True
                for event in (*self._idle.values(), self._states_received, self._changed):
                    event.set()
                return
            if isinstance(message, str):
                continue
            try:
                channel, parts = deserialize_msg_from_ws_v1(message)
                header, parent, content = (json.loads(parts[0]), json.loads(parts[1]), json.loads(parts[3]))
            except (ValueError, IndexError):
                continue
            self._handle(channel, header.get("msg_type", ""), parent.get("msg_id"), content)

    def _handle(self, channel: str, msg_type: str, parent_id: str | None, content: dict) -> None:
        if msg_type == "status" and content.get("execution_state") == "idle" and parent_id in self._idle:
            self._idle.pop(parent_id).set()
        elif msg_type == "comm_open" and content.get("target_name") == "jupyter.widget":
            state = content.get("data", {}).get("state", {})
            self.states[content["comm_id"]] = dict(state)
            self._changed.set()
        elif msg_type == "comm_msg":
            data = content.get("data", {})
            if content.get("comm_id") == self._control_comm and data.get("method") == "update_states":
                for model_id, model in data.get("states", {}).items():
                    self.states[model_id] = dict(model.get("state", {}))
                self._states_received.set()
            elif data.get("method") in ("update", "echo_update") and content.get("comm_id") in self.states:
                self.states[content["comm_id"]].update(data.get("state", {}))
                self._changed.set()
        elif msg_type == "comm_close":
            self.states.pop(content.get("comm_id"), None)

    # ------------------------------------------------------------------ widgets
    def find(self, predicate: Callable[[dict], bool]) -> str | None:
        """The model id of the first widget whose state satisfies ``predicate``, or None."""
        return next((model_id for model_id, state in self.states.items() if predicate(state)), None)

    def shows(self, text: str) -> bool:
        """Whether some widget's state holds ``text`` (a label, an HTML value, a status line)."""
        return any(text in value for state in self.states.values() for value in _strings(state))

    async def wait_for(self, condition: Callable[[], bool], what: str) -> None:
        """Wait until ``condition()`` holds, re-checked whenever a widget changes."""
        deadline = time.monotonic() + self.timeout
        while not condition():
            if self.closed_by_server:
                raise VisitError("the server closed the websocket")
            self._changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise VisitError(f"waited {self.timeout:.0f} s for {what}")
            try:
                await asyncio.wait_for(self._changed.wait(), left)
            except asyncio.TimeoutError:
                pass

    async def update(self, model_id: str, **state: Any) -> None:
        """Change a widget as its view does when the visitor moves it, and wait until the kernel handled it."""
        self.states.setdefault(model_id, {}).update(state)
        await self.send("shell", "comm_msg", {"comm_id": model_id, "data": {
            "method": "update", "state": state, "buffer_paths": []}})

    # ------------------------------------------------------------------ leaving
    async def leave(self) -> None:
        """Send the shutdown request of a closing tab, then drop the websocket."""
        from tornado.httpclient import AsyncHTTPClient

        if self.kernel_id and self._xsrf is not None:
            client = AsyncHTTPClient(force_instance=True)
            try:
                await client.fetch(urljoin(self.base_url, f"voila/api/shutdown/{self.kernel_id}"), method="POST",
                                   body=urlencode({"_xsrf": self._xsrf}), headers={"Cookie": f"_xsrf={self._xsrf}"},
                                   request_timeout=self.timeout, raise_error=False)
            finally:
                client.close()
        self.close()

    def close(self) -> None:
        """Drop the websocket (a tab that vanished without its shutdown request)."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None
        if self._reader is not None:
            self._reader.cancel()
            self._reader = None


async def interact(visitor: ProtocolVisitor) -> None:
    """What a scripted visitor does, as the browser benchmark does it: open the Data tab and pick a data set
    there, open Randomized response and move ε three steps."""
    await open_tab(visitor, DATA_TAB)

    def menu() -> str | None:
        return visitor.find(lambda s: DATASET in s.get("_options_labels", ()))

    await visitor.wait_for(lambda: menu() is not None, f"a data set menu offering {DATASET!r} in the Data tab")
    dropdown = menu()
    await visitor.update(dropdown, index=list(visitor.states[dropdown]["_options_labels"]).index(DATASET))
    await visitor.wait_for(lambda: visitor.shows(DATASET_LOADED), f"{DATASET_LOADED!r} in the Data tab")
    slider = await open_randomized_response(visitor)
    for _ in range(3):
        await move_epsilon(visitor, slider)
        await asyncio.sleep(0.3)


async def open_tab(visitor: ProtocolVisitor, title: str) -> None:
    """Open the app's tab ``title`` as its tab bar does (the kernel builds its panel then, if it was not yet)."""
    tabs = visitor.find(lambda s: title in s.get("titles", ()) and "selected_index" in s)
    if tabs is None:
        raise VisitError(f"no tab titled {title!r}")
    await visitor.update(tabs, selected_index=list(visitor.states[tabs]["titles"]).index(title))


async def open_randomized_response(visitor: ProtocolVisitor) -> str:
    """Open the Randomized response tab as its tab bar does; the model id of its ε slider once it is built."""
    await open_tab(visitor, RR_TAB)
    await visitor.wait_for(lambda: visitor.find(lambda s: EPSILON_CLASS in s.get("_dom_classes", ())) is not None,
                           "the ε slider of Randomized response")
    return visitor.find(lambda s: EPSILON_CLASS in s.get("_dom_classes", ()))


async def move_epsilon(visitor: ProtocolVisitor, slider: str) -> None:
    """Move the ε slider ``slider`` one step up (at most to its maximum), as dragging it does."""
    state = visitor.states[slider]
    await visitor.update(slider, value=min(state["max"], state["value"] + state["step"]))


async def scripted_visit(base_url: str, *, timeout: float = 240.0, stay: float = 0.0,
                         interact_with_app: bool = False) -> dict:
    """One visitor: the page, the landing view, optionally the scripted interaction, a stay, then leaving.

    Returns
    -------
    dict
        ``outcome`` ("app", "full" or "blank"), ``seconds`` from the request to the visible landing
        view (or to the 503), ``interacted`` and ``interaction_seconds`` when the interaction
        completed, ``error`` naming what failed.
    """
    visitor = ProtocolVisitor(base_url, timeout=timeout)
    started = time.monotonic()
    outcome: dict[str, Any] = {"outcome": "blank", "seconds": None}
    try:
        if not await visitor.open_page():
            outcome = {"outcome": "full" if visitor.status == 503 else f"http-{visitor.status}",
                       "seconds": time.monotonic() - started, "retry_after": visitor.retry_after}
            return outcome
        await visitor.connect()
        await visitor.wait_for(lambda: visitor.shows(LANDING_TEXT), "the landing view")
        outcome = {"outcome": "app", "seconds": time.monotonic() - started}
        if interact_with_app:
            began = time.monotonic()
            await interact(visitor)
            outcome.update(interacted=True, interaction_seconds=time.monotonic() - began)
        if stay:
            await asyncio.sleep(stay)
    except Exception as error:  # a step, the websocket or HTTP failed: this visitor failed, not the others
        outcome["error"] = f"{type(error).__name__}: {error}"
    finally:
        try:
            await visitor.leave()
        except Exception:
            visitor.close()
    return outcome


def main(argv: list[str] | None = None) -> int:
    """``python -m explorer.demo.visitor URL``: one visitor without a browser; exit status 0 when the app showed."""
    parser = argparse.ArgumentParser(description="Visit a running demo without a browser and report what it did.")
    parser.add_argument("url", help="the demo's address, e.g. http://127.0.0.1:8866/")
    parser.add_argument("--interact", action="store_true",
                        help=f"also pick {DATASET!r} and move ε in {RR_TAB}")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds any one step may take")
    args = parser.parse_args(argv)
    outcome = asyncio.run(scripted_visit(args.url, timeout=args.timeout, interact_with_app=args.interact))
    if outcome["outcome"] == "app":
        print(f"the app showed its landing view in {outcome['seconds']:.2f} s")
        if outcome.get("interacted"):
            print(f"picked a data set and moved ε in {outcome['interaction_seconds']:.2f} s")
    elif outcome["outcome"] == "full":
        print(f"the demo is full (HTTP 503, Retry-After {outcome.get('retry_after')})")
    else:
        print(f"no app: {outcome.get('error', outcome['outcome'])}")
    if "error" in outcome and outcome["outcome"] == "app":
        print(f"the interaction failed: {outcome['error']}")
    return 0 if outcome["outcome"] == "app" and "error" not in outcome else 1


if __name__ == "__main__":
    sys.exit(main())
