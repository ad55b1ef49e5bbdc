"""The socket's direct way out (`sockets.Message`, `sockets.Direct`, `sockets.Outbox`): frames a
WebSocket client reads as the messages sent, in the order they were queued, one write per turn of
the event loop, and the outbox's limit kept while the connection takes nothing more."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from websockets.client import ClientProtocol
from websockets.frames import Opcode
from websockets.protocol import State
from websockets.uri import parse_uri

from smallworld.server.sockets import Direct, Message, Outbox


def _on_a_loop_of_its_own(run: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """`asyncio.run(run())` in a thread of its own: a browser test before this one (Playwright's
    synchronous API) may leave an event loop running in the main thread."""
    failed: list[BaseException] = []

    def main() -> None:
        try:
            asyncio.run(run())
        except BaseException as e:  # handed to the test's thread, which fails with it
            failed.append(e)

    t = threading.Thread(target=main)
    t.start()
    t.join()
    if failed:
        raise failed[0]


def _read(data: bytes) -> list[str]:
    """The text messages a client finds in `data` (bytes from the server)."""
    client = ClientProtocol(parse_uri("ws://x/"), state=State.OPEN, max_size=None)
    client.receive_data(data)
    out = []
    for frame in client.events_received():
        assert frame.opcode == Opcode.TEXT and frame.fin
        out.append(frame.data.decode())
    return out


@pytest.mark.parametrize("n", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_a_frame_is_read_as_its_message(n: int) -> None:
    text = "é" * (n // 2) + "x" * (n % 2)
    msg = Message(text.encode())
    assert _read(msg.frame()) == [text]
    assert msg.frame() is msg.frame()  # made once
    assert Message.of({"a": 1}).data == b'{"a":1}'
    assert Message.of('{"b":2}').data == b'{"b":2}'  # JSON text already made
    assert Message.of(msg) is msg


class _Transport:
    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closing = False

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def is_closing(self) -> bool:
        return self.closing


class _Proto:
    """What `Direct` uses of the ASGI server's WebSocket protocol."""

    def __init__(self) -> None:
        self.transport = _Transport()
        self.writable = asyncio.Event()
        self.writable.set()
        self.close_sent = False
        self.disconnected = False


def test_messages_go_out_in_order_one_write_a_turn() -> None:
    async def run() -> None:
        proto = _Proto()
        full: list[int] = []
        box = Outbox(4, lambda: full.append(1), Direct(proto))
        box.put_nowait({"n": 1})
        box.put_nowait(Message(b'{"n":2}'))
        assert proto.transport.writes == []  # at the end of the turn
        await asyncio.sleep(0)
        assert len(proto.transport.writes) == 1
        assert _read(proto.transport.writes[0]) == ['{"n":1}', '{"n":2}']
        # The client does not read: messages wait in the box, up to its limit.
        proto.writable.clear()
        for i in range(3, 6):
            box.put_nowait({"n": i})
        assert box.qsize() == 3 and not full
        proto.writable.set()
        box.put_nowait({"n": 6})  # behind the three waiting, not before them
        assert box.qsize() == 4 and not full
        assert [box.get_nowait() for _ in range(4)] == [{"n": 3}, {"n": 4}, {"n": 5}, {"n": 6}]
        box.busy = True  # the sender sends one it took: what comes meanwhile waits behind it
        box.put_nowait({"n": 7})
        assert box.qsize() == 1
        box.busy = False
        box.get_nowait()
        proto.writable.clear()
        for i in range(5):
            box.put_nowait({"n": i})
        assert full == [1] and box.qsize() == 0  # one over the limit: emptied, and closed
        box.put_nowait({"n": 9})
        assert box.qsize() == 0  # nothing after
        # A connection that is closing is written nothing more.
        proto2 = _Proto()
        d = Direct(proto2)
        d.write(b"x")
        proto2.close_sent = True
        d.flush()
        assert proto2.transport.writes == [] and not d.ready()

    _on_a_loop_of_its_own(run)


def test_direct_only_for_the_servers_protocol_without_extensions() -> None:
    class Conn:
        def __init__(self) -> None:
            self.extensions: list[Any] = []

    async def run() -> None:
        proto = _Proto()
        proto.conn = Conn()  # type: ignore[attr-defined]
        assert Direct.of({}) is None
        assert Direct.of({"smallworld.protocol": proto}) is not None
        proto.conn.extensions = ["deflate"]  # type: ignore[attr-defined]
        assert Direct.of({"smallworld.protocol": proto}) is None

    _on_a_loop_of_its_own(run)
