"""Quick games (issue 29, item 4; docs/players.md, Quick games): waiting accounts of close rating are
seated together, bots of the nearest rating fill a table once the player's wait for them is over,
and no ticket is ever seated twice."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert

from server.helpers import ON_BOTH_STORES, browser_of
from smallworld.server import pairing as pairing_module
from smallworld.server import schema as t
from smallworld.server.app import create_app
from smallworld.server.pairing import WIDEN, WINDOW

PW = "correct horse battery"


@pytest.fixture
def app(db_url: str) -> Any:
    return create_app(db_url, rate=0, socket_rate=0)


@pytest.fixture
def server(app: Any) -> Iterator[TestClient]:
    """The server, started once; each player is a browser of it (`_browser`)."""
    with TestClient(app, base_url="http://testserver") as c:
        yield c


def _browser(server: TestClient, name: str) -> tuple[TestClient, dict[str, str]]:
    """A new account, logged in in a browser of its own on `server`."""
    c = browser_of(server)
    r = c.post("/api/accounts", json={"name": name, "password": PW})
    assert r.status_code == 200, r.text
    return c, {"X-CSRF-Token": r.json()["csrf"]}


def _wait(c: TestClient, ticket: str, status: str) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while True:
        r = c.get(f"/api/quick/{ticket}").json()
        if r["status"] == status:
            return dict(r)
        assert time.monotonic() < deadline, r
        time.sleep(0.05)


@ON_BOTH_STORES
def test_two_waiting_players_are_seated_together_in_a_rated_game(server: TestClient) -> None:
    ann, h1 = _browser(server, "Ann")
    bob, h2 = _browser(server, "Bob")
    try:
        want = {"edition": "warcraft", "variant": "standard", "players": 2, "pace": "turn"}
        a = ann.post("/api/quick", json=want, headers=h1).json()
        assert a["status"] == "waiting" and a["rating"] == 1000 and a["pool"] == "warcraft/standard/turn"
        b = bob.post("/api/quick", json=want, headers=h2).json()
        sa, sb = _wait(ann, a["ticket"], "seated"), _wait(bob, b["ticket"], "seated")
        assert sa["game"] == sb["game"] and {sa["seat"], sb["seat"]} == {0, 1}
        g = ann.get(f"/api/games/{sa['game']}").json()
        assert g["rated"] is True and g["status"] == "playing"
        assert sorted(s["name"] for s in g["seats"]) == ["Ann", "Bob"] and all(
            s["kind"] == "human" for s in g["seats"]
        )
        # Each plays their seat with the session alone (no seat token was handed out).
        v = bob.get(f"/api/games/{sa['game']}/view", params={"seat": sb["seat"]})
        assert v.status_code == 200 and v.json()["view"]["viewer"] == sb["seat"]
        assert bob.get(f"/api/games/{sa['game']}/view", params={"seat": sa["seat"]}).status_code == 403
    finally:
        ann.close()
        bob.close()


def test_a_ticket_reads_seated_only_once_its_game_exists(
    server: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A group's tickets are claimed for a game first, then the game is made. A player who asked
    meanwhile read "seated" with the id of a game the server did not know yet (404: a CI run failed
    on it). Made slow here, the game's making shows its tickets as waiting, with no game, until the
    game is there."""
    real = pairing_module.create_seated
    making: list[bool] = []

    async def slow(*args: Any, **kwargs: Any) -> Any:
        making.append(True)
        await asyncio.sleep(1.0)
        return await real(*args, **kwargs)

    monkeypatch.setattr(pairing_module, "create_seated", slow)
    ann, h1 = _browser(server, "Ann")
    bob, h2 = _browser(server, "Bob")
    try:
        want = {"edition": "warcraft", "variant": "standard", "players": 2, "pace": "turn"}
        a = ann.post("/api/quick", json=want, headers=h1).json()
        bob.post("/api/quick", json=want, headers=h2)
        asked_while_making = 0
        deadline = time.monotonic() + 30
        while True:
            r = ann.get(f"/api/quick/{a['ticket']}").json()
            if r["status"] == "seated":
                g = ann.get(f"/api/games/{r['game']}")
                assert g.status_code == 200 and g.json()["rated"] is True, g.text
                break
            assert r["status"] == "waiting" and "game" not in r, r
            asked_while_making += bool(making)
            assert time.monotonic() < deadline, r
            time.sleep(0.05)
        assert asked_while_making > 0  # the ticket was read while its game was being made
    finally:
        ann.close()
        bob.close()


def test_bots_fill_the_table_once_the_wait_for_them_is_over(server: TestClient) -> None:
    ann, h = _browser(server, "Ann")
    try:
        r = ann.post("/api/quick", json={"players": 3, "bots_after_s": 0}, headers=h).json()
        seated = _wait(ann, r["ticket"], "seated")
        g = ann.get(f"/api/games/{seated['game']}").json()
        kinds = sorted(s["kind"] for s in g["seats"])
        assert kinds == ["bot", "bot", "human"] and g["rated"] is True
        assert all(s["bot"] != "random" for s in g["seats"] if s["kind"] == "bot")
        never = ann.post("/api/quick", json={"players": 2}, headers=h).json()
        time.sleep(1.5)
        assert ann.get(f"/api/quick/{never['ticket']}").json()["status"] == "waiting"  # bots: never
        gone = ann.post(f"/api/quick/{never['ticket']}/cancel", headers=h).json()
        assert gone["status"] == "cancelled"
    finally:
        ann.close()


@ON_BOTH_STORES
def test_far_ratings_wait_until_the_window_has_widened_and_no_ticket_is_seated_twice(app: Any) -> None:
    with TestClient(app, base_url="http://testserver") as c:
        svc = app.state.service
        now = time.time()
        people = []
        with svc.store._begin() as conn:
            for i, rating in enumerate([1000.0, 1100.0, 1600.0]):
                pid = uuid.uuid4().hex
                conn.execute(
                    insert(t.players).values(id=pid, name=f"P{i}", token_hash=pid * 2, created=now, used=now)
                )
                tid = uuid.uuid4().hex
                conn.execute(
                    insert(t.tickets).values(
                        id=tid,
                        player_id=pid,
                        pool="warcraft/standard/turn",
                        players=2,
                        rating=rating,
                        since=now - i,
                        bots_after=None,
                    )
                )
                people.append(tid)
        from smallworld.server.pairing import Pairing

        pairing = Pairing(svc)
        # At once: the two near ones (100 apart, inside the window) make a table; the far one waits.
        assert c.portal.call(pairing.pair_round, now) == 1
        rows = {r.id: r for r in _tickets(svc)}
        assert rows[people[0]].game_id == rows[people[1]].game_id is not None
        assert rows[people[2]].game_id is None
        # A fourth player 500 away is seated with it only once the window has widened that far.
        late = now + (500 - WINDOW) / WIDEN + 1
        with svc.store._begin() as conn:
            pid = uuid.uuid4().hex
            conn.execute(
                insert(t.players).values(id=pid, name="P3", token_hash=pid * 2, created=now, used=now)
            )
            conn.execute(
                insert(t.tickets).values(
                    id="f" * 32,
                    player_id=pid,
                    pool="warcraft/standard/turn",
                    players=2,
                    rating=1100.0,
                    since=now,
                    bots_after=None,
                )
            )
        assert c.portal.call(pairing.pair_round, now) == 2
        assert c.portal.call(pairing.pair_round, late) == 0
        rows = {r.id: r for r in _tickets(svc)}
        assert rows[people[2]].game_id == rows["f" * 32].game_id is not None
        games = [r.game_id for r in rows.values()]
        assert len(set(games)) == 2 and all(games.count(g) == 2 for g in games)


def _tickets(svc: Any) -> list[Any]:
    from sqlalchemy import select

    with svc.store.engine.connect() as conn:
        return list(conn.execute(select(t.tickets)).all())


def test_quick_games_are_for_accounts_and_bad_requests_are_refused(server: TestClient) -> None:
    r = server.post("/api/quick", json={"players": 2})
    assert r.status_code == 403 and r.json()["code"] == "account_required"
    ann, h = _browser(server, "Ann")
    try:
        for body, field in [
            ({"players": 9}, "players"),
            ({"pace": "blitz"}, "pace"),
            ({"bots_after_s": -1}, "bots_after_s"),
            ({"edition": "chess"}, "settings"),
            ({"edition": "classic", "variant": "team"}, "settings"),
        ]:
            r = ann.post("/api/quick", json=body, headers=h)
            assert r.status_code == 400 and r.json()["field"] == field, (body, r.text)
        assert ann.get("/api/quick/" + "0" * 32).json()["code"] == "not_found"
    finally:
        ann.close()
