"""The kernel websocket, checked before anything deserializes a client's frame.

jupyter_server 2.21 reads the v1 kernel protocol's offset table as given: a
16-byte frame whose offset count is ``1 << 40`` makes it build a list of that many
integers, which stalls the whole server and grows it until it runs out of memory.
Frames without the v1 subprotocol are read by the legacy code path, which Voilà's
pages never use.  :class:`SafeKernelWebsocketConnection` (configured as the
server's ``kernel_websocket_connection_class``) checks the frame's layout first
and closes the connection on anything malformed, and it strips traceback text from
what the kernel sends to the page.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from jupyter_client.session import DELIM
from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

__all__ = ["MalformedFrame", "SafeKernelWebsocketConnection", "V1_PROTOCOL", "parse_v1_frame"]

V1_PROTOCOL = "v1.kernel.websocket.jupyter.org"
#: channel + header, parent header, metadata, content + the end offset ...
_MIN_OFFSETS = 6
#: ... plus at most this many binary buffers (a widget message carries a handful).
MAX_BUFFERS = 64
_CHANNELS = frozenset({"shell", "control", "stdin", "iopub"})
#: Websocket close code "policy violation" (RFC 6455, 7.4.1).
CLOSE_POLICY_VIOLATION = 1008
#: What replaces an error's text and traceback in anything sent to a client.
REDACTED = "The explorer hit an error; it was logged on the server."


class MalformedFrame(ValueError):
    """A client frame that does not follow the v1 kernel websocket protocol."""


def parse_v1_frame(frame: bytes) -> tuple[str, list[bytes], dict]:
    """Check a v1 kernel-protocol frame and split it, without trusting its offsets.

    Parameters
    ----------
    frame : bytes
        The websocket message as received.

    Returns
    -------
    channel : str
        ``shell``, ``control``, ``stdin`` or ``iopub``.
    parts : list of bytes
        Header, parent header, metadata, content, then any binary buffers.
    header : dict
        The decoded header (it has a string ``msg_type``).

    Raises
    ------
    MalformedFrame
        If the offset table is out of bounds, out of order or too long, the channel
        is unknown, or the header is not a JSON object with a ``msg_type``.

    Notes
    -----
    The layout (jupyter_server's ``serialize_msg_to_ws_v1``): an 8-byte little-endian
    count ``n``, then ``n`` 8-byte offsets ``o_0 .. o_{n-1}``, with
    ``o_0 = 8 (n + 1)``, ``o_0 <= o_1 <= ... <= o_{n-1} = len(frame)``; the channel
    name is ``frame[o_0:o_1]`` and part ``i`` is ``frame[o_i:o_{i+1}]``.  The count
    is checked against the frame's length before any list of offsets is built.

    Examples
    --------
    >>> parse_v1_frame((1 << 40).to_bytes(8, "little") + bytes(8))
    Traceback (most recent call last):
    ...
    explorer.demo.websocket.MalformedFrame: offset count 1099511627776 is not between 6 and 70
    """
    if not isinstance(frame, (bytes, bytearray, memoryview)):
        raise MalformedFrame("a v1 frame is binary")
    frame = bytes(frame)
    if len(frame) < 8:
        raise MalformedFrame(f"frame of {len(frame)} bytes has no offset count")
    count = int.from_bytes(frame[:8], "little")
    if not _MIN_OFFSETS <= count <= _MIN_OFFSETS + MAX_BUFFERS:
        raise MalformedFrame(f"offset count {count} is not between {_MIN_OFFSETS} and {_MIN_OFFSETS + MAX_BUFFERS}")
    table_end = 8 * (count + 1)
    if len(frame) < table_end:
        raise MalformedFrame(f"frame of {len(frame)} bytes is shorter than its offset table ({table_end} bytes)")
    offsets = [int.from_bytes(frame[8 * (i + 1):8 * (i + 2)], "little") for i in range(count)]
    if offsets[0] != table_end or offsets[-1] != len(frame) or any(b < a for a, b in zip(offsets, offsets[1:])):
        raise MalformedFrame("offsets are out of order or out of the frame")
    try:
        channel = frame[offsets[0]:offsets[1]].decode("ascii")
    except UnicodeDecodeError:
        raise MalformedFrame("channel name is not ASCII") from None
    if channel not in _CHANNELS:
        raise MalformedFrame(f"unknown channel {channel[:20]!r}")
    parts = [frame[offsets[i]:offsets[i + 1]] for i in range(1, count - 1)]
    try:
        header = json.loads(parts[0])
    except (UnicodeDecodeError, ValueError):
        raise MalformedFrame("header is not JSON") from None
    if not isinstance(header, dict) or not isinstance(header.get("msg_type"), str):
        raise MalformedFrame("header has no msg_type")
    return channel, parts, header


def _redact_content(content: dict) -> dict:
    if "traceback" in content or "ename" in content or "evalue" in content:
        content = {**content, "ename": "Error", "evalue": REDACTED, "traceback": []}
    return content


class SafeKernelWebsocketConnection(ZMQChannelsWebsocketConnection):
    """jupyter_server's kernel websocket, with client frames checked and tracebacks removed.

    Incoming: only the v1 protocol is accepted; a frame that :func:`parse_v1_frame`
    refuses closes the connection (code 1008) before jupyter_server reads it.
    Outgoing: ``stderr`` streams are dropped and the text of ``error`` messages and
    of error replies is replaced by a generic sentence (the kernel logs the details).
    """

    _refused = False

    def connect(self) -> Any:
        if self.subprotocol != V1_PROTOCOL:
            self.multi_kernel_manager.notify_connect(self.kernel_id)  # balanced by disconnect()
            self._refuse("the kernel websocket needs the v1.kernel.websocket.jupyter.org subprotocol")
            done = asyncio.get_running_loop().create_future()
            done.set_result(None)
            return done
        return super().connect()

    def handle_incoming_message(self, incoming_msg: Any) -> None:
        if self._refused or not self.channels:
            return
        try:
            channel, parts, header = parse_v1_frame(incoming_msg)
        except MalformedFrame as error:
            self._refuse(str(error))
            return
        allowed = self.multi_kernel_manager.allowed_message_types
        if allowed and header["msg_type"] not in allowed:
            self.log.warning("Refused a %r message from a client", header["msg_type"][:40])
            return
        if channel not in self.channels:
            return
        self.session.send_raw(self.channels[channel], parts)

    def _refuse(self, reason: str) -> None:
        self.log.warning("Closing kernel websocket %s: %s", self.kernel_id, reason)
        self._refused = True  # ignore anything already queued on this connection
        try:
            self.websocket_handler.close(CLOSE_POLICY_VIOLATION, "malformed message")
        except Exception:  # the stream may already be closed
            pass

    def handle_outgoing_message(self, stream: Any, outgoing_msg: list) -> None:
        if self.subprotocol == V1_PROTOCOL:
            try:
                outgoing_msg = self._scrub(outgoing_msg)
            except Exception:  # never let a malformed kernel message through unchecked
                self.log.warning("Dropped a kernel message that could not be checked")
                return
            if outgoing_msg is None:
                return
        super().handle_outgoing_message(stream, outgoing_msg)

    def _scrub(self, msg_list: list) -> list | None:
        """The kernel's message with traceback text removed, or None to drop it."""
        identities, parts = self.session.feed_identities(msg_list)
        # parts: signature, header, parent header, metadata, content, buffers...
        header = self.session.unpack(parts[1])
        msg_type = header.get("msg_type", "")
        if msg_type == "stream":
            content = self.session.unpack(parts[4])
            if content.get("name") == "stderr":
                return None
            return msg_list
        if msg_type == "error" or msg_type.endswith("_reply"):
            content = self.session.unpack(parts[4])
            if msg_type == "error" or content.get("status") == "error":
                parts = list(parts)
                parts[4] = self.session.pack(_redact_content(content))
                return [*identities, DELIM, *parts]
        return msg_list

    def disconnect(self) -> None:
        super().disconnect()
        notify = getattr(self.multi_kernel_manager, "notify_page_left", None)
        if notify is not None:
            notify(self.kernel_id)
