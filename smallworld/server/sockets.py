"""Limits on WebSocket clients: sockets open per client address, and the messages that may wait for
a socket whose client does not read (docs/server.md, "Limits")."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
from collections.abc import Callable
from typing import Any

from smallworld.server import wire

# A client that is this far behind is closed (policy violation) and reconnects with `since`.
SLOW_CLOSE_CODE = 1008
SLOW_REASON = "too_slow"


class PerAddress:
    """Sockets open per client address, at most `limit` each (0: no limit). An address leaves the
    table with its last socket, so the table is never larger than the sockets open."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: dict[str, int] = {}

    def enter(self, address: str) -> bool:
        n = self.open.get(address, 0)
        if self.limit > 0 and n >= self.limit:
            return False
        self.open[address] = n + 1
        return True

    def leave(self, address: str) -> None:
        n = self.open.get(address, 0) - 1
        if n > 0:
            self.open[address] = n
        else:
            self.open.pop(address, None)


# The scope key under which the WebSocket protocol below puts itself, for `Direct`.
PROTOCOL_KEY = "smallworld.protocol"


class Message:
    """A message's JSON (UTF-8 bytes), made once and sent as is to every socket it is for; the
    WebSocket frame around it (a server's frames are not masked, so the same bytes suit every
    connection) is made once too, when first asked for."""

    __slots__ = ("_frame", "data")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self._frame: bytes | None = None

    @classmethod
    def of(cls, obj: Any) -> Message:
        """`obj` as a message: a message, JSON text already made, or what is to be written as JSON."""
        if isinstance(obj, Message):
            return obj
        return cls(obj.encode()) if isinstance(obj, str) else cls(wire.dumpb(obj))

    def text(self) -> str:
        return self.data.decode()

    def frame(self) -> bytes:
        """The whole text frame (RFC 6455 5.2: FIN and opcode 1, no mask, the payload's length)."""
        if self._frame is None:
            n = len(self.data)
            if n < 126:
                head = bytes((0x81, n))
            elif n < 1 << 16:
                head = b"\x81\x7e" + n.to_bytes(2, "big")
            else:
                head = b"\x81\x7f" + n.to_bytes(8, "big")
            self._frame = head + self.data
        return self._frame


class Direct:
    """A socket's text frames written straight to its connection (the protocol below), instead of
    through Starlette's and the ASGI server's layers one message at a time: a message already
    framed is appended to what the connection will be sent at the end of this turn of the event
    loop, so that the several messages of one turn (a move's update and its acknowledgement) go
    out in one write. Used only while the connection takes more (`ready`)."""

    __slots__ = ("loop", "pending", "proto")

    def __init__(self, proto: Any) -> None:
        self.proto = proto
        self.pending: list[bytes] = []
        self.loop = asyncio.get_running_loop()

    @classmethod
    def of(cls, scope: Any) -> Direct | None:
        """For a connection of the protocol below with no extension (no compression: a frame is
        then the same bytes for every connection); else None, and messages take the usual way."""
        proto = scope.get(PROTOCOL_KEY)
        if proto is None or proto.conn.extensions:
            return None
        return cls(proto)

    def open(self) -> bool:
        p = self.proto
        return not (p.close_sent or p.disconnected or p.transport.is_closing())

    def ready(self) -> bool:
        """Open, and its buffers below their high-water mark (the client reads)."""
        return self.proto.writable.is_set() and self.open()

    def write(self, frame: bytes) -> None:
        if not self.pending:
            self.loop.call_soon(self.flush)
        self.pending.append(frame)

    def flush(self) -> None:
        pending, self.pending = self.pending, []
        if pending and self.open():
            self.proto.transport.write(pending[0] if len(pending) == 1 else b"".join(pending))


class Outbox(asyncio.Queue[Any]):
    """A socket's messages waiting to be sent: at most `limit` (0: no limit). Messages only wait here
    when the connection's own buffers are full, that is when the client does not read; one more
    than `limit` empties the box, keeps nothing after, and calls `on_full` once (it closes the
    socket). `put_nowait` never raises, so whoever fans out updates needs no care for this.

    With a `direct` writer, a message goes straight to the connection while nothing waits here and
    the connection takes more (the socket's sender task, `busy` while it sends one it took from
    the box, keeps the order); only the end of the socket (None) always goes through the box."""

    def __init__(self, limit: int, on_full: Callable[[], None], direct: Direct | None = None) -> None:
        super().__init__()
        self.limit = limit
        self.on_full = on_full
        self.overflowed = False
        self.direct = direct
        self.busy = False

    def put_nowait(self, item: Any) -> None:
        if self.overflowed:
            return
        d = self.direct
        if d is not None and item is not None and not self.busy and not self.qsize() and d.ready():
            d.write(Message.of(item).frame())
            return
        if self.limit > 0 and item is not None and self.qsize() >= self.limit:
            self.overflowed = True
            while not self.empty():
                self.get_nowait()
            self.on_full()
            return
        super().put_nowait(item)


def websocket_protocol() -> type[asyncio.Protocol]:
    """uvicorn's WebSocket protocol, except that a connection whose client does not read is dropped
    (reset) rather than closed: a close frame, or the closing of the transport, waits behind the
    bytes the client has not read, which for a client that never reads is forever, holding the
    connection and its buffers (the process's, and the kernel's after it lets go)."""
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

    class Protocol(WebSocketsSansIOProtocol):
        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)
            if scope is not None:  # accepted: the app may write to it directly (`Direct`)
                scope[PROTOCOL_KEY] = self

        async def send(self, message: Any) -> None:
            closing = message["type"] == "websocket.close" and self.handshake_complete
            if closing and not self.close_sent and not self.writable.is_set():
                self.close_sent = True
                self.queue.put_nowait({"type": "websocket.disconnect", "code": 1006})
                self.drop()
                return
            await super().send(message)
            if closing and self.close_timer is not None:  # no answer to the close frame in time
                self.close_timer.cancel()
                self.close_timer = self.loop.call_later(self.close_timeout, self.drop)

        def keepalive_timeout(self) -> None:
            super().keepalive_timeout()
            self.drop()

        def drop(self) -> None:
            """Reset the connection: what is buffered for it is thrown away, here and in the kernel."""
            sock = self.transport.get_extra_info("socket")
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.transport.abort()

    return Protocol
