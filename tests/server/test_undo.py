"""Undo over the server (`POST /api/games/{gid}/undo`, docs/server.md "Undo"): a seat takes back its
own decisions since the last die roll (warcraft-rules.md §6.10), reveal or draw (§10.1, §6.3) or
other seat's decision; refused otherwise, in a rated game and out of turn, changing nothing; the
undone moves leave the store, the moves and every socket's position."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from server.helpers import ServerProcess, fresh_pg_database, replayed
from smallworld.server.app import create_app
from smallworld.server.store import PlyTaken, Store


def _hot_seat(client: httpx.Client, rated: bool | None = None) -> tuple[str, dict[int, str]]:
    body: dict[str, Any] = {
        "players": 2,
        "name": "Ann",
        "options": {"first_player": 0},
        "seats": [{"kind": "creator"}, {"kind": "creator", "name": "Bob"}],
    }
    if rated is not None:
        body["rated"] = rated
    r = client.post("/api/games", json=body)
    assert r.status_code == 200, r.text
    g = r.json()
    return g["game"], {s["seat"]: s["token"] for s in g["seats"]}


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _view(client: httpx.Client, gid: str, token: str, web: bool = True) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}/view" + ("?client=web" if web else ""), headers=_auth(token))
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def _act(client: httpx.Client, gid: str, token: str, seat: int, ply: int, action: dict[str, Any]) -> None:
    r = client.post(
        f"/api/games/{gid}/act", json={"seat": seat, "ply": ply, "action": action}, headers=_auth(token)
    )
    assert r.status_code == 200, r.text


def _undo(client: httpx.Client, gid: str, token: str, body: Any) -> Any:
    return client.post(f"/api/games/{gid}/undo?client=web", json=body, headers=_auth(token))


def _pick_and_conquer(
    client: httpx.Client, gid: str, token: str
) -> tuple[int, dict[str, Any], dict[str, Any]]:
    """Seat 0 picks the first combo and conquers a region: (the pick's ply, its view before the
    conquest, after)."""
    v = _view(client, gid, token)
    pick_ply = v["ply"]
    assert v["acting_seat"] == 0 and v["undo_points"] == []
    pick = next(a for a in v["legal"] if a["kind"] == "pick")
    _act(client, gid, token, 0, v["ply"], pick)
    before = _view(client, gid, token)
    while not any(a["kind"] == "conquer" for a in before["legal"]):
        _act(client, gid, token, 0, before["ply"], before["legal"][0])  # a race's start-of-turn choice
        before = _view(client, gid, token)
    conquer = next(a for a in before["legal"] if a["kind"] == "conquer")
    _act(client, gid, token, 0, before["ply"], conquer)
    return pick_ply, before, _view(client, gid, token)


def test_a_conquest_is_taken_back_and_everyone_sees_the_position_before_it(any_db_url: str) -> None:
    """On SQLite and on PostgreSQL."""
    with TestClient(create_app(any_db_url, rate=0, socket_rate=0)) as client:
        _conquest_taken_back(client)


def _conquest_taken_back(client: TestClient) -> None:
    gid, tokens = _hot_seat(client)
    store: Store = client.app.state.service.store  # type: ignore[attr-defined]
    with client.websocket_connect(f"/api/games/{gid}/ws") as spectator:
        assert spectator.receive_json()["type"] == "hello"
        pick_ply, before, after = _pick_and_conquer(client, gid, tokens[0])
        # The pick drew the next combo onto the row (§6.3): it is no undo point; the conquest is (and
        # a race's start-of-turn choice after the pick, if it had one).
        assert all(p["ply"] > pick_ply for p in before["undo_points"])
        points = after["undo_points"]
        assert [p["ply"] for p in points] == [before["ply"]] + [p["ply"] for p in before["undo_points"]]
        assert points[0]["action"]["kind"] == "conquer"
        assert set(points[0]["texts"]) == {"en", "pt", "de"} and all(points[0]["texts"].values())
        region = points[0]["action"]["region"]
        assert after["view"]["regions"][region]["tokens"] > 0
        while spectator.receive_json()["ply"] < after["ply"]:  # the moves' updates
            pass

        r = _undo(client, gid, tokens[0], {"seat": 0, "to_ply": before["ply"]})
        assert r.status_code == 200, r.text
        back = r.json()
        assert back["undone"] == 1 and back["ply"] == before["ply"]
        assert back["view"] == before["view"]  # the region as it was, the tokens back in hand
        race = after["view"]["seats"][0]["active"]
        assert after["view"]["regions"][region]["race"] == race
        assert back["view"]["regions"].get(region) == before["view"]["regions"].get(region)
        assert (back["view"]["regions"].get(region) or {}).get("race") != race
        assert back["view"]["seats"][0]["hand"] == before["view"]["seats"][0]["hand"]
        assert back["legal"] == before["legal"] and back["undo_points"] == before["undo_points"]
        # The spectator's socket gets the position as an update, with no move.
        update = spectator.receive_json()
        assert update["type"] == "update" and update["ply"] == before["ply"] and update["moves"] == []
        assert update["view"]["regions"].get(region) == before["view"]["regions"].get(region)
    # The store and the moves hold the final moves only.
    assert [r.ply for r in store.actions(gid)] == list(range(before["ply"]))
    assert store.game(gid)["ply"] == before["ply"]  # type: ignore[index]
    moves = client.get(f"/api/games/{gid}/moves?since=0").json()
    assert moves["ply"] == before["ply"] and len(moves["moves"]) == before["ply"]
    assert replayed(store, gid).ply == before["ply"]
    # The same ply is played again, another way or the same: the log goes on from there.
    _act(client, gid, tokens[0], 0, before["ply"], points[0]["action"])
    assert [r.ply for r in store.actions(gid)] == list(range(before["ply"] + 1))


def test_a_game_rebuilt_from_the_store_after_an_undo_is_the_same(db_url: str) -> None:
    with TestClient(create_app(db_url, rate=0, socket_rate=0)) as client:
        gid, tokens = _hot_seat(client)
        _, before, _ = _pick_and_conquer(client, gid, tokens[0])
        assert _undo(client, gid, tokens[0], {"seat": 0, "to_ply": before["ply"]}).status_code == 200
        kept = _view(client, gid, tokens[0])
    with TestClient(create_app(db_url, rate=0, socket_rate=0)) as client:
        assert _view(client, gid, tokens[0]) == kept


def test_refusals_change_nothing(client: TestClient) -> None:
    gid, tokens = _hot_seat(client)
    pick_ply, before, after = _pick_and_conquer(client, gid, tokens[0])
    store: Store = client.app.state.service.store  # type: ignore[attr-defined]
    cases: list[tuple[str, dict[str, Any], int, str]] = [
        (tokens[0], {"seat": 0, "to_ply": pick_ply}, 409, "undo_refused"),  # before the pick's draw
        (tokens[1], {"seat": 1, "to_ply": before["ply"]}, 409, "undo_refused"),  # not seat 1's turn
        (tokens[1], {"seat": 0, "to_ply": before["ply"]}, 403, "wrong_seat"),
        (tokens[0], {"seat": 0, "to_ply": after["ply"]}, 400, "invalid_input"),  # not before now
        (tokens[0], {"seat": 0, "to_ply": -1}, 400, "invalid_input"),
        (tokens[0], {"seat": 0, "to_ply": "3"}, 400, "invalid_input"),
        (tokens[0], {"seat": 0, "to_ply": True}, 400, "invalid_input"),
        (tokens[0], {"seat": 0}, 400, "invalid_input"),
    ]
    for token, body, status, code in cases:
        r = _undo(client, gid, token, body)
        assert (r.status_code, r.json()["code"]) == (status, code), (body, r.text)
        assert r.json()["reason"] == code
        assert len(store.actions(gid)) == after["ply"]
        assert _view(client, gid, tokens[0]) == after
    r = _undo(client, gid, tokens[0], {"seat": 0, "to_ply": pick_ply})
    # The pick revealed the next combo (and drew a Goblin stack, when it took the Goblins).
    assert "earliest" in r.json()["message"] and r.json()["message"].endswith("came before)")
    assert r.json()["field"] == "to_ply"


def test_a_rated_game_offers_no_undo_and_refuses_it(client: TestClient) -> None:
    # A rated game is an account's (docs/players.md), one seat per person: here against a bot.
    acc = client.post("/api/accounts", json={"name": "Ann", "password": "correct horse battery"}).json()
    body = {
        "players": 2,
        "options": {"first_player": 0},
        "seats": [{"kind": "creator"}, {"kind": "bot", "level": "greedy"}],
        "rated": True,
    }
    made = client.post("/api/games", json=body, headers={"X-CSRF-Token": acc["csrf"]}).json()
    gid, tokens = made["game"], {0: made["seats"][0]["token"]}
    assert client.get(f"/api/games/{gid}").json()["rated"] is True
    _, before, after = _pick_and_conquer(client, gid, tokens[0])
    assert after["undo_points"] == [] and after["rated"] is True
    r = _undo(client, gid, tokens[0], {"seat": 0, "to_ply": before["ply"]})
    assert (r.status_code, r.json()["code"]) == (409, "undo_refused")
    assert "rated" in r.json()["message"]
    assert client.get(f"/api/games/{gid}/view").json()["ply"] == after["ply"]
    # Casual by default, and a rated flag is true or false only (as an anonymous browser again).
    client.cookies.clear()
    gid2, _ = _hot_seat(client)
    assert client.get(f"/api/games/{gid2}").json()["rated"] is False
    bad = client.post("/api/games", json={"rated": "yes", "seats": [{"kind": "creator"}, {"kind": "open"}]})
    assert (bad.status_code, bad.json()["code"], bad.json()["field"]) == (400, "invalid_input", "rated")


def test_no_undo_past_the_die(client: TestClient) -> None:
    """§6.10: once the reinforcement die is rolled, nothing before it comes back."""
    gid, tokens = _hot_seat(client)
    for _ in range(500):  # both seats played from here until a final attempt after a conquest
        seat = client.get(f"/api/games/{gid}").json()["acting_seat"]
        v = _view(client, gid, tokens[seat])
        final = [a for a in v["legal"] if a["kind"] == "final"]
        if final and v["undo_points"]:  # after a conquest at least (the pick is a barrier)
            break
        assert v["legal"], "the seat to act has nothing to do"
        choice = next((a for a in v["legal"] if a["kind"] == "conquer"), None) or next(
            (a for a in v["legal"] if a["kind"] not in ("decline", "final", "abandon")), v["legal"][0]
        )
        _act(client, gid, tokens[seat], seat, v["ply"], choice)
    else:
        raise AssertionError("no final attempt came up")
    earlier = v["undo_points"][-1]["ply"]
    _act(client, gid, tokens[seat], seat, v["ply"], final[0])
    rolled = _view(client, gid, tokens[seat])
    assert any(e["type"] == "die" for e in rolled["view"]["events"])
    assert rolled["undo_points"] == []
    for to in (v["ply"], earlier):
        r = _undo(client, gid, tokens[seat], {"seat": seat, "to_ply": to})
        assert (r.status_code, r.json()["code"]) == (409, "undo_refused"), r.text
        assert "die roll" in r.json()["message"]
    assert _view(client, gid, tokens[seat])["ply"] == rolled["ply"]


def _store_game(store: Store) -> None:
    store.create_game(
        "g1",
        {"edition": "warcraft", "players": 2},
        5,
        {"clock": None},
        [
            {"seat": 0, "kind": "bot", "name": "A", "player_id": None, "bot": "greedy"},
            {"seat": 1, "kind": "bot", "name": "B", "player_id": None, "bot": "greedy"},
        ],
    )
    for ply, seat in enumerate([1, 0, 0, 0]):
        store.append("g1", ply, seat, {"kind": "end"}, "human")


def test_the_store_truncates_only_the_seats_own_tail_of_a_game_as_seen(any_db_url: str) -> None:
    store = Store(any_db_url)
    _store_game(store)
    assert not store.truncate("g1", 2, 0, 5)  # the game is at ply 4, not 5: it moved meanwhile
    assert not store.truncate("g1", 0, 0, 4)  # ply 0 is seat 1's
    assert not store.truncate("g1", 2, 1, 4)  # not seat 1's tail
    assert len(store.actions("g1")) == 4 and store.game("g1")["ply"] == 4  # type: ignore[index]
    assert store.truncate("g1", 2, 0, 4)
    assert [r.ply for r in store.actions("g1")] == [0, 1] and store.game("g1")["ply"] == 2  # type: ignore[index]
    # A process that missed the undo cannot store a move past the end of the log (a gap).
    with pytest.raises(PlyTaken):
        store.append("g1", 4, 0, {"kind": "end"}, "human")
    with pytest.raises(PlyTaken):
        store.append("g1", 4, 0, {"kind": "end"}, "human", result={"scores": [1, 2], "winners": [1]})
    assert [r.ply for r in store.actions("g1")] == [0, 1]
    store.append("g1", 2, 0, {"kind": "end"}, "human")
    assert store.game("g1")["ply"] == 3  # type: ignore[index]
    store.close()


def test_a_process_that_missed_an_undo_cannot_extend_the_log_and_follows_the_store(db_url: str) -> None:
    """Two processes on one store (no broker between them): B still holds the moves A took back. B's
    move at its old ply finds that ply gone from the game (`stale_ply`, nothing stored), and B's
    comparison with the store (`sync_from_store`, the watchdog's) takes B's game back too."""
    with TestClient(create_app(db_url, rate=0, socket_rate=0)) as a:
        gid, tokens = _hot_seat(a)
        _, before, after = _pick_and_conquer(a, gid, tokens[0])
        with TestClient(create_app(db_url, rate=0, socket_rate=0)) as b:
            assert _view(b, gid, tokens[0])["ply"] == after["ply"]
            assert _undo(a, gid, tokens[0], {"seat": 0, "to_ply": before["ply"]}).status_code == 200
            stale = next(x for x in after["legal"] if x["kind"] in ("conquer", "end"))
            r = b.post(
                f"/api/games/{gid}/act",
                json={"seat": 0, "ply": after["ply"], "action": stale},
                headers=_auth(tokens[0]),
            )
            assert (r.status_code, r.json()["code"]) == (409, "stale_ply"), r.text
            store: Store = a.app.state.service.store  # type: ignore[attr-defined]
            assert [row.ply for row in store.actions(gid)] == list(range(before["ply"]))
            svc_b: Any = b.app.state.service  # type: ignore[attr-defined]
            b.portal.call(svc_b.sync_from_store)  # type: ignore[union-attr]
            assert _view(b, gid, tokens[0]) == _view(a, gid, tokens[0])
            assert _view(b, gid, tokens[0])["ply"] == before["ply"]


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
def test_another_process_follows_an_undo_through_the_broker(services: dict[str, str], tmp_path: Path) -> None:
    """Two `smallworld serve` processes on one PostgreSQL and one Redis: an undo through one is seen
    through the other at once (the broker's `undo` message), the same position and log."""
    db = fresh_pg_database(services["PG_URL"])
    a = ServerProcess(db, services["REDIS_URL"], tmp_path / "a.log")
    b = ServerProcess(db, services["REDIS_URL"], tmp_path / "b.log")
    try:
        with httpx.Client(base_url=a.url, timeout=30) as ca, httpx.Client(base_url=b.url, timeout=30) as cb:
            gid, tokens = _hot_seat(ca)
            _, before, after = _pick_and_conquer(ca, gid, tokens[0])
            assert _view(cb, gid, tokens[0])["ply"] == after["ply"]
            assert _undo(ca, gid, tokens[0], {"seat": 0, "to_ply": before["ply"]}).status_code == 200
            deadline = time.monotonic() + 3  # the broker, not the store comparison every 10 s
            while _view(cb, gid, tokens[0])["ply"] != before["ply"]:
                assert time.monotonic() < deadline, "the other process never followed the undo"
                time.sleep(0.1)
            seen = _view(cb, gid, tokens[0])
            assert seen["view"] == before["view"] and seen["legal"] == before["legal"]
            moves = cb.get(f"/api/games/{gid}/moves?since=0").json()["moves"]
            assert len(moves) == before["ply"]
    finally:
        a.stop()
        b.stop()


def test_a_casual_game_made_without_take_backs_offers_none_and_refuses_them(client: TestClient) -> None:
    # docs/server.md, Undo: a casual game may be made with `"undo": false` (final decisions, as in a
    # rated game); by default it offers them.
    body: dict[str, Any] = {
        "players": 2,
        "name": "Ann",
        "options": {"first_player": 0},
        "seats": [{"kind": "creator"}, {"kind": "creator", "name": "Bob"}],
        "undo": False,
    }
    made = client.post("/api/games", json=body).json()
    gid, token = made["game"], made["seats"][0]["token"]
    summary = client.get(f"/api/games/{gid}").json()
    assert (summary["undo"], summary["rated"]) == (False, False)
    _, before, after = _pick_and_conquer(client, gid, token)
    assert after["undo_points"] == []
    r = _undo(client, gid, token, {"seat": 0, "to_ply": before["ply"]})
    assert (r.status_code, r.json()["code"]) == (409, "undo_refused")
    assert "take-backs are off" in r.json()["message"]
    assert client.get(f"/api/games/{gid}/view").json()["ply"] == after["ply"]
    gid2, tokens = _hot_seat(client)
    assert client.get(f"/api/games/{gid2}").json()["undo"] is True
    _, _, offered = _pick_and_conquer(client, gid2, tokens[0])
    assert offered["undo_points"] != []
    bad = client.post("/api/games", json={**body, "undo": "no"})
    assert (bad.status_code, bad.json()["code"], bad.json()["field"]) == (400, "invalid_input", "undo")
