"""Real outages of what the server depends on, with real server processes: Redis killed and started
again under three processes in the middle of a game, PostgreSQL stopped for ten seconds under bot
games, and one action sent through two processes at once (docs/server.md, "Outages")."""

from __future__ import annotations

import json
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest
from needs import SERVICES
from websockets.sync.client import connect

from server.helpers import ServerProcess, Services, fresh_pg_database, replayed, wait_until
from smallworld.server.resilience import is_outage
from smallworld.server.store import Append, Store

# Each test starts server processes on PostgreSQL (and Redis): minutes, and the services.
pytestmark = [*SERVICES, pytest.mark.slow]


class Player:
    """One seat's client on one process's socket: plays a random legal move whenever it is to act
    (after a short think), and keeps every message it got."""

    def __init__(self, base: str, gid: str, seat: int, token: str) -> None:
        self.url = f"{base}/api/games/{gid}/ws?seat={seat}&token={token}&since=0"
        self.seat = seat
        self.msgs: list[dict[str, Any]] = []
        self.acked: list[int] = []
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        rng = random.Random(self.seat)
        acted: set[int] = set()
        try:
            with connect(self.url, max_size=2**24) as ws:
                while True:
                    msg = json.loads(ws.recv(timeout=120))
                    self.msgs.append(msg)
                    assert msg["type"] != "error", msg
                    if msg["type"] == "ack":
                        self.acked.append(msg["move"]["ply"])
                        continue
                    if msg["status"] == "over":
                        return
                    if msg["legal"] and msg["ply"] not in acted:
                        acted.add(msg["ply"])
                        time.sleep(0.03)
                        act = {"type": "act", "ply": msg["ply"], "action": rng.choice(msg["legal"])}
                        ws.send(json.dumps(act))
        except BaseException as e:
            self.error = e

    def moves(self) -> list[dict[str, Any]]:
        return [m for msg in self.msgs if msg["type"] != "ack" for m in msg["moves"]]


def _health(p: ServerProcess) -> dict[str, Any]:
    r = httpx.get(p.url + "/healthz", timeout=10)
    return {"http": r.status_code, **r.json()}


def test_redis_killed_and_back_under_three_processes_loses_nothing(
    services: dict[str, str], tmp_path: Path
) -> None:
    own = Services()  # this test's Redis, which it kills
    db = fresh_pg_database(services["PG_URL"])
    procs = [ServerProcess(db, own.redis, tmp_path / f"{n}.log") for n in "abc"]
    store = Store(db)
    try:
        a, b, c = procs
        seats = [{"kind": "creator"}, {"kind": "invite"}, {"kind": "invite"}]
        g = httpx.post(a.url + "/api/games", json={"players": 3, "name": "Ann", "seats": seats}).json()
        gid = g["game"]
        tokens = [g["seats"][0]["token"]]
        for proc, seat in ((b, 1), (c, 2)):
            j = httpx.post(proc.url + f"/api/games/{gid}/join", json={"invite": g["seats"][seat]["invite"]})
            tokens.append(j.json()["token"])
        players = [Player(p.ws, gid, i, tokens[i]) for i, p in enumerate(procs)]

        def ply() -> int:
            return len(store.actions(gid))

        wait_until("the game did not get going", lambda: ply() >= 8)
        own.redis_stop()
        at_outage = ply()
        # Moves go on: each process acknowledges its sockets' moves, and the others read them from
        # the store (the watchdog compares every served game with it while Redis is down).
        wait_until("no moves during the outage", lambda: ply() >= at_outage + 6, 60)
        assert all(_health(p)["status"] == "degraded" and _health(p)["http"] == 200 for p in procs)
        assert all(_health(p)["redis"] == "down" for p in procs)
        own.redis_start()
        wait_until(
            "a process never saw Redis again", lambda: all(_health(p)["status"] == "ok" for p in procs), 60
        )
        for p in players:
            p.thread.join(timeout=300)
            assert p.error is None, p.error
        rows = store.actions(gid)
        final = [httpx.get(p.url + f"/api/games/{gid}").json() for p in procs]
        assert all(f["status"] == "over" and f["result"] == final[0]["result"] for f in final)
        assert final[0]["result"] == replayed(store, gid).result
        stored = [r.ply for r in rows]
        for p in players:
            # Every move once and in order on every socket, whichever process held it; every move
            # its seat was told was taken is in the store.
            assert [m["ply"] for m in p.moves()] == stored
            assert [m["action"] for m in p.moves()] == [r.action for r in rows]
            assert set(p.acked) <= set(stored) and p.acked
        assert at_outage < len(rows)
    finally:
        for p in procs:
            p.stop()
        store.close()
        own.close()


def test_postgresql_stopped_ten_seconds_under_bot_games(tmp_path: Path) -> None:
    own = Services()  # this test's PostgreSQL, which it stops
    db = fresh_pg_database(own.pg)
    s = ServerProcess(db, log=tmp_path / "s.log", extra=("--bot-delay", "0.05"))
    store = Store(db)
    try:
        bots = [{"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "random"}]
        games = [
            httpx.post(s.url + "/api/games", json={"players": 2, "seats": bots}).json() for _ in range(4)
        ]
        ids = [g["game"] for g in games]
        wait_until("the games did not get going", lambda: all(len(store.actions(gid)) >= 5 for gid in ids))
        store.close()
        own.pg_stop()
        try:
            # While it is down: the documented JSON error, 503, for whatever needs the store.
            h = _health(s)
            assert h["http"] == 503 and h["store"] == "down" and h["ok"] is False
            r = httpx.post(s.url + "/api/games", json={"players": 2, "seats": bots}, timeout=30)
            assert r.status_code == 503 and r.json()["code"] == "unavailable", r.text
            time.sleep(10)
        finally:
            own.pg_start()
        store = Store(db)
        for gid in ids:
            deadline = time.monotonic() + 180
            while (g := httpx.get(f"{s.url}/api/games/{gid}").json())["status"] != "over":
                assert time.monotonic() < deadline, f"game {gid} stalled at ply {g['ply']} after the outage"
                time.sleep(0.2)
            assert g["result"] == replayed(store, gid).result
            assert store.game(gid)["status"] == "over"  # type: ignore[index]
        assert _health(s)["status"] == "ok"
    finally:
        s.stop()
        store.close()
        own.close()


def _act(base: str, gid: str, body: dict[str, Any], auth: dict[str, str]) -> httpx.Response:
    return httpx.post(base + f"/api/games/{gid}/act", json=body, headers=auth, timeout=30)


def test_one_action_through_two_processes_gets_one_acknowledgement_twice(
    services: dict[str, str], tmp_path: Path
) -> None:
    db = fresh_pg_database(services["PG_URL"])
    a = ServerProcess(db, services["REDIS_URL"], tmp_path / "a.log")
    b = ServerProcess(db, services["REDIS_URL"], tmp_path / "b.log")
    try:
        g = httpx.post(
            a.url + "/api/games", json={"players": 2, "seats": [{"kind": "creator"}, {"kind": "creator"}]}
        ).json()
        gid, auth = g["game"], {"Authorization": f"Bearer {g['player_token']}"}
        rng = random.Random(5)
        for _ in range(20):
            seat = httpx.get(a.url + f"/api/games/{gid}").json()["acting_seat"]
            v = httpx.get(a.url + f"/api/games/{gid}/view?seat={seat}", headers=auth).json()
            body = {"seat": seat, "ply": v["ply"], "action": rng.choice(v["legal"])}
            with ThreadPoolExecutor(2) as pool:  # the same request to both processes at once
                ra, rb = pool.map(partial(_act, gid=gid, body=body, auth=auth), (a.url, b.url))
            assert ra.status_code == rb.status_code == 200, (ra.text, rb.text)
            assert ra.json() == rb.json()
        store = Store(db)
        assert len(store.actions(gid)) == 20
        store.close()
    finally:
        a.stop()
        b.stop()


def test_an_append_while_postgresql_is_down_is_an_outage() -> None:
    """The action log is written on the driver's own cursor (`Store._insert`): what the driver raises
    when the database has gone must still read as an outage, so that a move is answered
    `unavailable` and a bot's decision retried, not treated as a bug."""
    own = Services()
    db = fresh_pg_database(own.pg)
    store = Store(db)
    try:
        store.create_game("g", {"players": 2}, 1, {}, [])
        conn = store.engine.connect()  # kept across the outage, as the appender keeps its own
        assert store.append_many([Append("g", 0, 0, {"kind": "pick", "arg": 1}, "human")], conn) == [None]
        own.pg_stop()
        try:
            err = store.append_many([Append("g", 1, 0, {"kind": "pick", "arg": 1}, "human")], conn)[0]
        finally:
            own.pg_start()
        assert err is not None and is_outage(err), repr(err)
        conn.close()
    finally:
        store.close()
        own.close()
