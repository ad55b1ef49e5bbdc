"""A store that cannot be reached, a decision whose task died, too much bot work: the server answers
`unavailable` and changes nothing, bot and clock decisions are retried and restarted until the
game goes on, and bot work is shared fairly (docs/server.md, "Outages" and "Limits")."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from server.helpers import replayed, wait_game, wait_until
from smallworld.server import bots as bots_module
from smallworld.server.app import create_app
from smallworld.server.bots import BotPool

BOTS = [{"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "greedy"}]


def _down() -> OperationalError:
    return OperationalError("INSERT INTO actions ...", {}, ConnectionRefusedError("connection refused"))


class Outage:
    """Makes the store's reads and writes fail as a database that is gone does, until `end()`."""

    def __init__(self, svc: Any) -> None:
        self.store = svc.store
        self.saved = {
            n: getattr(self.store, n) for n in ("append_many", "actions", "game", "seats", "ping", "plies")
        }
        self.calls = 0
        self.refused: dict[str, int] = {}  # the moves refused, by game

        def fail(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            raise _down()

        def fail_append(items: list[Any], conn: Any = None) -> list[Exception | None]:
            self.calls += 1
            for item in items:
                self.refused[item.game_id] = self.refused.get(item.game_id, 0) + 1
            return [_down() for _ in items]

        for name in self.saved:
            setattr(self.store, name, fail)
        self.store.append_many = fail_append

    def end(self) -> None:
        for name, fn in self.saved.items():
            setattr(self.store, name, fn)


@pytest.fixture
def slow(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, rate=0, socket_rate=0, bot_delay=0.02)) as c:
        c.app.state.service.watchdog_s = 0.1  # type: ignore[attr-defined]
        yield c


def test_store_outage_answers_unavailable_in_json_and_changes_nothing(client: TestClient) -> None:
    svc: Any = client.app.state.service  # type: ignore[attr-defined]
    g = client.post("/api/games", json={"players": 2, "seats": [{"kind": "creator"}] * 2}).json()
    gid, auth = g["game"], {"Authorization": f"Bearer {g['player_token']}"}
    seat = client.get(f"/api/games/{gid}").json()["acting_seat"]
    v = client.get(f"/api/games/{gid}/view?seat={seat}", headers=auth).json()
    with client.websocket_connect(f"/api/games/{gid}/ws?token={g['seats'][seat]['token']}") as ws:
        assert ws.receive_json()["type"] == "hello"
        out = Outage(svc)
        try:
            # HTTP: the move is refused with the documented error, a 503 the client may retry.
            r = client.post(
                f"/api/games/{gid}/act", json={"seat": seat, "ply": 0, "action": v["legal"][0]}, headers=auth
            )
            assert r.status_code == 503 and r.headers["retry-after"]
            assert r.json()["code"] == "unavailable" and r.json()["message"]
            h = client.get("/healthz")
            assert h.status_code == 503
            assert h.json()["ok"] is False and h.json()["store"] == "down" and h.json()["status"] == "down"
            # A game the process must read from the store: 503 too, never a plain-text 500.
            del svc.live[gid]
            r = client.get(f"/api/games/{gid}")
            assert r.status_code == 503 and r.json()["code"] == "unavailable"
            # The socket: its message is refused, the socket stays open.
            ws.send_json({"type": "act", "ply": 0, "action": v["legal"][0], "ref": 1})
            msg = ws.receive_json()
            assert msg["type"] == "error" and msg["ref"] == 1 and msg["error"]["code"] == "unavailable"
            ws.send_json({"type": "ping", "ref": 2})
            assert ws.receive_json() == {"type": "pong", "ref": 2}
        finally:
            out.end()
        assert out.calls >= 3
        # Back: nothing was stored meanwhile, and the same move now goes through.
        assert svc.store.actions(gid) == []
        assert client.get("/healthz").json()["status"] == "ok"
        r = client.post(
            f"/api/games/{gid}/act", json={"seat": seat, "ply": 0, "action": v["legal"][0]}, headers=auth
        )
        assert r.status_code == 200, r.text
        assert len(svc.store.actions(gid)) == 1
    text = client.get("/metrics").text
    assert "smallworld_unavailable_total 3.0" in text


def test_bot_games_play_on_through_a_store_outage(slow: TestClient) -> None:
    svc: Any = slow.app.state.service  # type: ignore[attr-defined]
    games = [slow.post("/api/games", json={"players": 2, "seats": BOTS}).json()["game"] for _ in range(3)]
    for gid in games:
        wait_game(slow, gid, lambda g: g["ply"] >= 4)
    out = Outage(svc)
    # A move stored just before the outage may still be on its way to the live state: the plies are
    # read once each game has had a move refused (a game's bot makes one move at a time).
    wait_until("a bot move was not refused", lambda: all(out.refused.get(gid, 0) >= 1 for gid in games), 60)
    plies = {gid: svc.live[gid].state.ply for gid in games}
    seen = dict(out.refused)
    # Each game's bot move fails to be stored, and is tried again.
    wait_until("a bot move was not retried", lambda: all(out.refused[gid] > seen[gid] for gid in games), 60)
    assert {gid: svc.live[gid].state.ply for gid in games} == plies, "a move was taken without the store"
    out.end()
    for gid in games:
        g = wait_game(slow, gid, lambda g: g["status"] == "over")
        assert replayed(svc.store, gid).result == g["result"]  # every move is in the store
    assert out.calls > 3


def test_the_watchdog_starts_again_a_decision_whose_task_died(slow: TestClient) -> None:
    svc: Any = slow.app.state.service  # type: ignore[attr-defined]
    gid = slow.post("/api/games", json={"players": 2, "seats": BOTS}).json()["game"]
    wait_game(slow, gid, lambda g: g["ply"] >= 3)
    killed = 0
    for _ in range(3):  # each time: every task at work is cancelled, as if it had crashed
        tasks = list(svc.tasks)
        for task in tasks:
            slow.portal.call(_cancel, task)  # type: ignore[union-attr]
        killed += len(tasks)
        # Before the next kill: a decision at work again, by a task that was not killed.
        wait_until("no decision started again", _started_again(slow, svc, set(tasks)), 60)
    assert killed
    g = wait_game(slow, gid, lambda g: g["status"] == "over")
    assert replayed(svc.store, gid).result == g["result"]
    restarts = svc.metrics.registry.get_sample_value("smallworld_watchdog_restarts_total")
    assert restarts and restarts >= 1


async def _cancel(task: asyncio.Task[Any]) -> None:
    task.cancel()


async def _tasks(svc: Any) -> set[asyncio.Task[Any]]:
    """The service's tasks at work, read in its own event loop."""
    return {task for task in svc.tasks if not task.done()}


def _started_again(client: TestClient, svc: Any, killed: set[asyncio.Task[Any]]) -> Callable[[], bool]:
    """Whether a decision is at work in a task other than the `killed` ones."""
    portal: Any = client.portal
    return lambda: bool(portal.call(_tasks, svc) - killed)


def test_the_watchdog_plays_a_clock_whose_timer_was_lost(slow: TestClient) -> None:
    svc: Any = slow.app.state.service  # type: ignore[attr-defined]
    seats = [{"kind": "creator"}, {"kind": "bot", "level": "random"}]
    g = slow.post(
        "/api/games", json={"players": 2, "seats": seats, "clock": {"kind": "turn", "deadline_s": 0.3}}
    ).json()
    gid = g["game"]
    wait_game(slow, gid, lambda x: x["acting_seat"] == 0 and gid in svc.timers)
    slow.portal.call(_lose_timer, svc, gid)  # type: ignore[union-attr]
    after = wait_game(slow, gid, lambda x: x["seats"][0]["away"], "the lost clock never ran out")
    assert after["seats"][0]["bot"] == "greedy"
    wait_game(slow, gid, lambda x: any(r.by == "clock" for r in svc.store.actions(gid)), "no clock move")


async def _lose_timer(svc: Any, gid: str) -> None:
    svc.timers.pop(gid).cancel()


def test_bot_game_caps_per_player_and_per_address(db_url: str) -> None:
    app = create_app(
        db_url, rate=0, socket_rate=0, bot_delay=5, bot_games_per_player=2, bot_games_per_address=3
    )
    with TestClient(app) as client:
        svc: Any = client.app.state.service  # type: ignore[attr-defined]
        first = client.post("/api/games", json={"players": 2, "seats": BOTS}).json()
        auth = {"Authorization": f"Bearer {first['player_token']}"}
        assert client.post("/api/games", json={"players": 2, "seats": BOTS}, headers=auth).status_code == 200
        r = client.post("/api/games", json={"players": 2, "seats": BOTS}, headers=auth)
        assert r.status_code == 429 and r.json()["code"] == "limit_reached" and r.json()["field"] == "seats"
        # A game without bots is not capped.
        hot = {"players": 2, "seats": [{"kind": "creator"}, {"kind": "creator"}]}
        assert client.post("/api/games", json=hot, headers=auth).status_code == 200
        # A new anonymous player from the same address: the address's cap (3) is reached at the third.
        assert client.post("/api/games", json={"players": 2, "seats": BOTS}).status_code == 200
        players = svc.store.engine.connect().exec_driver_sql("SELECT count(*) FROM players").scalar()
        r = client.post("/api/games", json={"players": 2, "seats": BOTS})
        assert r.status_code == 429 and r.json()["code"] == "limit_reached"
        # Refused: no game and no player row was added.
        with svc.store.engine.connect() as c:
            assert c.exec_driver_sql("SELECT count(*) FROM games").scalar() == 4
            assert c.exec_driver_sql("SELECT count(*) FROM players").scalar() == players


def test_bot_decisions_are_served_round_robin_across_owners(monkeypatch: pytest.MonkeyPatch) -> None:
    order: list[str] = []
    gate = threading.Event()

    def choose(game_id: str, *args: Any) -> tuple[dict[str, Any], float]:
        gate.wait(5)
        order.append(game_id)
        time.sleep(0.05)
        return {"kind": "end"}, 0.05

    monkeypatch.setattr(bots_module, "choose", choose)
    pool = BotPool(1)
    pool._pool = ThreadPoolExecutor(1)  # type: ignore[assignment]

    async def run() -> list[tuple[dict[str, Any], float]]:
        jobs = [("a1", "ann"), ("a2", "ann"), ("a3", "ann"), ("a4", "ann"), ("b1", "bob"), ("b2", "bob")]
        futs = [
            asyncio.ensure_future(pool.choose(gid, {}, 0, "greedy", {}, [], 0, owner=who, timeout=0.5))
            for gid, who in jobs
        ]
        for _ in range(500):  # until the six are queued
            if pool.waiting() == 5:
                break
            await asyncio.sleep(0.01)
        assert pool.waiting() == 5  # one at work, five waiting their turn
        gate.set()
        return await asyncio.gather(*futs)

    results = asyncio.run(run())
    # Ann queued four before Bob's two; Bob's are served between hers, and every decision, though it
    # waited longer than its 0.5 s limit in the queue, ran within it once started.
    assert order == ["a1", "b1", "a2", "b2", "a3", "a4"]
    assert all(r == ({"kind": "end"}, 0.05) for r in results)
    pool._pool.shutdown()  # type: ignore[union-attr]


def test_a_game_that_moves_while_the_watchdog_reads_the_store_is_not_refreshed(client: TestClient) -> None:
    """The watchdog's comparison with the store (`sync_from_store`) reads every game's ply in a
    thread while the event loop goes on. A move made here meanwhile is committed before it is made,
    so an answer read before it is no difference: the game is neither read again nor sent to its
    sockets again (each socket would get the whole view a second time, with no move), and the next
    round finds it as the store has it. A game the store holds ahead is still caught up."""
    svc: Any = client.app.state.service  # type: ignore[attr-defined]
    g = client.post("/api/games", json={"players": 2, "seats": [{"kind": "creator"}] * 2}).json()
    gid, tokens = g["game"], {s["seat"]: s["token"] for s in g["seats"]}

    def move() -> None:
        v = client.get(f"/api/games/{gid}/view", headers={"Authorization": f"Bearer {tokens[0]}"}).json()
        seat = v["acting_seat"]
        v = client.get(f"/api/games/{gid}/view", headers={"Authorization": f"Bearer {tokens[seat]}"}).json()
        r = client.post(
            f"/api/games/{gid}/act",
            json={"seat": seat, "ply": v["ply"], "action": v["legal"][0]},
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )
        assert r.status_code == 200, r.text

    move()
    refreshed: list[tuple[str, bool]] = []
    refresh = svc._refresh

    async def counted(live: Any, rewound: bool = False) -> None:
        refreshed.append((live.id, rewound))
        await refresh(live, rewound)

    svc._refresh = counted
    plies = svc.store.plies

    def read_then_move(ids: list[str]) -> dict[str, tuple[int, str]]:
        got = plies(ids)  # the store's answer, read before the move below
        move()  # (through the app's event loop, which waits on this thread meanwhile)
        return got  # type: ignore[no-any-return]

    svc.store.plies = read_then_move
    client.portal.call(svc.sync_from_store)  # type: ignore[union-attr]
    assert refreshed == []
    svc.store.plies = plies
    client.portal.call(svc.sync_from_store)  # type: ignore[union-attr]
    assert refreshed == []  # the next round: the same ply on both sides
    stored_ply = svc.store.game(gid)["ply"]
    live = svc.live[gid]
    live.state = replayed(svc.store, gid, stored_ply - 1)  # this process one move behind
    del live.moves[stored_ply - 1 :]
    client.portal.call(svc.sync_from_store)  # type: ignore[union-attr]
    assert refreshed == [(gid, False)]
    assert live.state.ply == len(live.moves) == stored_ply
