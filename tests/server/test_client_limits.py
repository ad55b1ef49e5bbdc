"""Limits per client (issue 24, docs/server.md "Limits"): sockets open per address, a socket whose
client does not read, and requests for games that do not exist, none of which may make the server
hold more and more."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import gc
import os
import socket
import threading
import tracemalloc
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from server.helpers import ServerProcess
from smallworld.server.app import create_app
from smallworld.server.errors import ServerError


def _hot_seat(post: Any) -> tuple[str, str]:
    seats = [{"kind": "creator"}, {"kind": "creator"}]
    g = post("/api/games", json={"players": 2, "name": "Ann", "seats": seats}).json()
    return g["game"], g["player_token"]


def test_sockets_per_address_are_limited_and_counted_back(db_url: str) -> None:
    with TestClient(create_app(db_url, rate=0, socket_rate=0, sockets_per_address=3)) as c:
        gid, _ = _hot_seat(c.post)
        url = f"/api/games/{gid}/ws"
        with c.websocket_connect(url) as a, c.websocket_connect(url) as b:
            with c.websocket_connect(url) as third:
                for ws in (a, b, third):
                    assert ws.receive_json()["type"] == "hello"
                with c.websocket_connect(url) as fourth:
                    msg = fourth.receive_json()
                    assert msg["type"] == "error" and msg["error"]["code"] == "too_many_sockets"
                    with pytest.raises(WebSocketDisconnect) as closed:
                        fourth.receive_json()
                    assert closed.value.code == 4429
            # One closed: one more may open, and no more.
            with c.websocket_connect(url) as again:
                assert again.receive_json()["type"] == "hello"
                with c.websocket_connect(url) as over:
                    assert over.receive_json()["error"]["code"] == "too_many_sockets"
        assert c.app.state.service.subs == {}  # type: ignore[attr-defined]


def _raw_socket(port: int, path: str) -> socket.socket:
    """A WebSocket client that completes the handshake and then never reads."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        f"GET {path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)  # the handshake's answer, and not a byte more
    assert head.startswith(b"HTTP/1.1 101 "), head
    return s


def _sockets(client: httpx.Client) -> float:
    for line in client.get("/metrics").text.splitlines():
        if line.startswith("smallworld_sockets "):
            return float(line.split()[1])
    raise AssertionError("no smallworld_sockets in /metrics")


@pytest.mark.slow  # a `smallworld serve` process
def test_a_client_that_does_not_read_is_dropped_and_a_reader_is_not(db_url: str, tmp_path: Path) -> None:
    server = ServerProcess(db_url, log=tmp_path / "server.log", extra=("--socket-queue", "8"))
    try:
        client = httpx.Client(base_url=server.url, timeout=60)
        gid, token = _hot_seat(client.post)
        path = f"/api/games/{gid}/ws"
        got: list[str] = []
        reader = connect(server.ws + path, max_size=None)

        def read() -> None:
            with contextlib.suppress(ConnectionClosed):
                got.extend(str(m) for m in reader)

        reading = threading.Thread(target=read, daemon=True)
        reading.start()
        stalled = _raw_socket(server.port, path)
        assert _sockets(client) == 2
        # Each take sends every socket of the game an update (a view: a few kilobytes). Once the
        # kernel's buffers for the stalled client are full, 8 more wait for it and it is dropped.
        sent = 0
        auth = {"Authorization": f"Bearer {token}"}
        while _sockets(client) == 2:
            assert sent < 5000, "the client that does not read was never dropped"
            for _ in range(50):
                r = client.post(f"/api/games/{gid}/seats/0/take", headers=auth)
                assert r.status_code == 200
            sent += 50
        assert _sockets(client) == 1
        stalled.settimeout(30)
        with pytest.raises(ConnectionResetError):  # reset: nothing is kept for it, not even by the kernel
            while stalled.recv(1 << 20):
                pass
        stalled.close()
        reader.close()
        reading.join(timeout=60)
        # The reader had the hello and every update, in order, while the other was dropped.
        assert len(got) == sent + 1 and '"type":"hello"' in got[0]
    finally:
        server.stop()


def _traced(run: Any) -> int:
    """Bytes still held after `run()` that the server's code, Starlette's or FastAPI's allocated."""
    where = [tracemalloc.Filter(True, f"*/{p}/*") for p in ("smallworld", "starlette", "fastapi")]
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot().filter_traces(where)
        run()
        gc.collect()
        after = tracemalloc.take_snapshot().filter_traces(where)
    finally:
        tracemalloc.stop()
    return sum(d.size_diff for d in after.compare_to(before, "filename"))


@pytest.mark.slow  # a thousand requests under tracemalloc
def test_unknown_game_ids_leave_nothing_behind(client: TestClient) -> None:
    svc = client.app.state.service  # type: ignore[attr-defined]
    gid, _ = _hot_seat(client.post)

    def ask(ids: range) -> None:
        for i in ids:
            assert client.get(f"/api/games/{i:016x}").status_code == 404

    ask(range(300))  # the first requests fill what is made once (routes' caches, pools)
    # 600 ids that are not games: under 2 bytes an id stays (it was 180 to 250 bytes an id).
    assert _traced(lambda: ask(range(300, 900))) < 1200
    for i in range(100):
        with client.websocket_connect(f"/api/games/{i:016x}/ws") as ws:
            assert ws.receive_json()["error"]["code"] == "not_found"
    assert svc._loading == {} and set(svc.live) == {gid} and dict(svc.subs) == {}

    async def at_once(ids: list[str]) -> list[Any]:
        return await asyncio.gather(*(svc.get(i) for i in ids), return_exceptions=True)

    # Many requests for one game that is not in memory: it is rebuilt once and shared.
    del svc.live[gid]
    lives = client.portal.call(at_once, [gid] * 20)  # type: ignore[union-attr]
    assert all(lv is svc.live[gid] for lv in lives)
    missing = client.portal.call(at_once, ["f" * 16] * 20)  # type: ignore[union-attr]
    assert all(isinstance(e, ServerError) and e.code == "not_found" for e in missing)
    assert svc._loading == {}
