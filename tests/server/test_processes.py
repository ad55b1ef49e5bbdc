"""Real server processes: two on one PostgreSQL and one Redis, and a server killed with SIGKILL in
the middle of its games."""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from needs import SERVICES
from websockets.sync.client import connect

from server.helpers import ServerProcess, fresh_pg_database
from smallworld.server.store import Store

# Every test here starts `smallworld serve` processes (and kills them): minutes.
pytestmark = pytest.mark.slow


def _ws_player(base: str, gid: str, seat: int, token: str, out: dict[int, Any]) -> None:
    rng = random.Random(seat)
    msgs: list[dict[str, Any]] = []
    acted: set[int] = set()
    with connect(f"{base}/api/games/{gid}/ws?seat={seat}&token={token}&since=0", max_size=2**24) as ws:
        while True:
            msg = json.loads(ws.recv(timeout=120))
            assert msg["type"] != "error", msg
            msgs.append(msg)
            if msg["type"] not in ("hello", "update"):
                continue
            if msg["status"] == "over":
                break
            if msg["legal"] and msg["ply"] not in acted:
                acted.add(msg["ply"])
                ws.send(json.dumps({"type": "act", "ply": msg["ply"], "action": rng.choice(msg["legal"])}))
    out[seat] = msgs


def _sample(p: ServerProcess, name: str) -> float:
    for line in httpx.get(p.url + "/metrics").text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return 0.0


@pytest.mark.postgres
@pytest.mark.redis
def test_two_processes_one_postgresql_one_redis(services: dict[str, str], tmp_path: Path) -> None:
    db = fresh_pg_database(services["PG_URL"])
    a = ServerProcess(db, services["REDIS_URL"], tmp_path / "a.log")
    b = ServerProcess(db, services["REDIS_URL"], tmp_path / "b.log")
    try:
        seats = [{"kind": "creator"}, {"kind": "invite"}, {"kind": "bot", "level": "greedy"}]
        g = httpx.post(a.url + "/api/games", json={"players": 3, "name": "Ann", "seats": seats}).json()
        gid = g["game"]
        j = httpx.post(b.url + f"/api/games/{gid}/join", json={"invite": g["seats"][1]["invite"]}).json()
        out: dict[int, Any] = {}
        threads = [
            threading.Thread(target=_ws_player, args=(a.ws, gid, 0, g["seats"][0]["token"], out)),
            threading.Thread(target=_ws_player, args=(b.ws, gid, 1, j["token"], out)),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=300)
        assert set(out) == {0, 1}
        store = Store(db)
        rows = store.actions(gid)
        final_a = httpx.get(a.url + f"/api/games/{gid}").json()
        final_b = httpx.get(b.url + f"/api/games/{gid}").json()
        assert final_a["status"] == final_b["status"] == "over"
        assert final_a["result"] == final_b["result"] and final_a["ply"] == len(rows)
        for msgs in out.values():
            # Each client, whichever process holds its socket, saw every move once and in order.
            moves = [m for msg in msgs if msg["type"] != "ack" for m in msg["moves"]]
            assert [m["ply"] for m in moves] == [r.ply for r in rows]
            assert [m["action"] for m in moves] == [r.action for r in rows]
            assert msgs[-1]["view"]["result"] == final_a["result"]
        # The bot's seat was played by one process at a time (the one whose player moved last):
        # its decisions, counted over both processes, are its moves, none made twice.
        thought = sum(_sample(p, "smallworld_bot_think_seconds_count") for p in (a, b))
        assert thought == sum(r.by == "bot" for r in rows) > 0
        assert sum(_sample(p, "smallworld_watchdog_restarts_total") for p in (a, b)) == 0
        store.close()
    finally:
        a.stop()
        b.stop()


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgresql", marks=SERVICES)])
def test_sigkill_mid_game_loses_nothing_acknowledged(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    # SQLite: the event loop writes the log; PostgreSQL: the writer thread (both commit in batches).
    if kind == "sqlite":
        db = f"sqlite:///{tmp_path / 'games.db'}"
    else:
        db = fresh_pg_database(request.getfixturevalue("services")["PG_URL"])
    s = ServerProcess(db, log=tmp_path / "s1.log")
    bots = [{"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "greedy"}]
    bot_games = [
        httpx.post(s.url + "/api/games", json={"players": 2, "seats": bots}).json()["game"] for _ in range(2)
    ]
    g = httpx.post(
        s.url + "/api/games",
        json={"players": 2, "seats": [{"kind": "creator"}, {"kind": "bot", "level": "random"}]},
    ).json()
    gid, token = g["game"], g["seats"][0]["token"]
    acked: list[tuple[int, dict[str, Any]]] = []
    stop = threading.Event()

    def human(url: str) -> None:
        rng = random.Random(1)
        h = {"Authorization": f"Bearer {token}"}
        while not stop.is_set():
            try:
                v = httpx.get(f"{url}/api/games/{gid}/view?seat=0", headers=h, timeout=5).json()
                if v["status"] == "over":
                    return
                if not v["legal"]:
                    time.sleep(0.01)
                    continue
                a = rng.choice(v["legal"])
                r = httpx.post(
                    f"{url}/api/games/{gid}/act",
                    headers=h,
                    json={"seat": 0, "ply": v["ply"], "action": a},
                    timeout=5,
                )
                if r.status_code == 200:
                    acked.append((v["ply"], a))
            except httpx.HTTPError:
                return  # the server is gone

    t = threading.Thread(target=human, args=(s.url,))
    t.start()
    # Kill as soon as every game is under way (a few moves in, far from its end: ~100 plies).
    watch = Store(db)
    deadline = time.monotonic() + 120
    while not (len(acked) >= 3 and all(len(watch.actions(b)) >= 6 for b in bot_games)):
        assert time.monotonic() < deadline, "the games did not get going"
        time.sleep(0.05)
    watch.close()
    s.kill()
    stop.set()
    t.join(timeout=30)
    store = Store(db)
    assert acked, "the human client got no acknowledgement before the kill"
    stored = {r.ply: r.action for r in store.actions(gid)}
    for ply, action in acked:
        assert stored.get(ply) == action, f"acknowledged ply {ply} lost"
    before = {b: len(store.actions(b)) for b in bot_games}
    assert all(n > 0 for n in before.values())
    statuses = [store.game(b)["status"] for b in bot_games]  # type: ignore[index]
    assert "playing" in statuses, "the kill came after the bot games ended"
    store.close()
    # Restarted, the server rebuilds the games from the store and they play on to the end.
    s2 = ServerProcess(db, log=tmp_path / "s2.log")
    try:
        stop.clear()
        t = threading.Thread(target=human, args=(s2.url,))
        t.start()
        deadline = time.monotonic() + 240
        for b in [*bot_games, gid]:
            while httpx.get(f"{s2.url}/api/games/{b}").json()["status"] != "over":
                assert time.monotonic() < deadline, f"game {b} did not finish after the restart"
                time.sleep(0.2)
        t.join(timeout=60)
        store = Store(db)
        for b in bot_games:
            assert len(store.actions(b)) > before[b]
        for ply, action in acked:
            assert store.actions(gid)[ply].action == action
        store.close()
    finally:
        s2.stop()
