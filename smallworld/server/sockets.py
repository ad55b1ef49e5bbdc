"""Limits on WebSocket clients: sockets open per client address, and the messages that may wait for
a socket whose client does not read (docs/server.md, "Limits")."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
from collections.abc import Callable
from typing import Any

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


class Outbox(asyncio.Queue[Any]):
    """A socket's messages waiting to be sent: at most `limit` (0: no limit). Messages only wait here
    when the connection's own buffers are full, that is when the client does not read; one more
    than `limit` empties the box, keeps nothing after, and calls `on_full` once (it closes the
    socket). `put_nowait` never raises, so whoever fans out updates needs no care for this."""

    def __init__(self, limit: int, on_full: Callable[[], None]) -> None:
        super().__init__()
        self.limit = limit
        self.on_full = on_full
        self.overflowed = False

    def put_nowait(self, item: Any) -> None:
        if self.overflowed:
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
