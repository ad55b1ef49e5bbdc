"""Tokens that can be revoked (leaving a seat, logging out) and that expire when left unused, and a
log that shows none of them."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from server.helpers import ServerProcess, fresh_pg_database
from smallworld.cli import build_parser
from smallworld.server import schema as t
from smallworld.server.app import create_app
from smallworld.server.store import Store

DAY = 86400.0


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _app(url: str, **kw: Any) -> TestClient:
    return TestClient(create_app(url, rate=0, socket_rate=0, **kw))


def _store(client: TestClient) -> Store:
    return client.app.state.service.store  # type: ignore[attr-defined]


def _refused(r: httpx.Response, code: str, words: str) -> None:
    assert r.status_code != 200, r.text
    err = r.json()
    assert err["code"] == code and words in err["message"], err


def _two_seats(client: TestClient) -> dict[str, Any]:
    """Ann creates a game for two; Bob joins its invite seat. Tokens of both seats and players."""
    seats = [{"kind": "creator"}, {"kind": "invite"}]
    g = client.post("/api/games", json={"players": 2, "name": "Ann", "seats": seats}).json()
    j = client.post(f"/api/games/{g['game']}/join", json={"invite": g["seats"][1]["invite"], "name": "Bob"})
    assert j.status_code == 200, j.text
    return {
        "game": g["game"],
        "seat": {0: g["seats"][0]["token"], 1: j.json()["token"]},
        "player": {0: g["player_token"], 1: j.json()["player_token"]},
    }


def _play_until(client: TestClient, gid: str, token: str, done: Any) -> dict[str, Any]:
    """Seat 0 plays random legal moves (the other seat's bot answering) until `done(summary)`."""
    rng = random.Random(0)
    deadline = time.monotonic() + 300
    while True:
        v = client.get(f"/api/games/{gid}/view?seat=0", headers=_auth(token)).json()
        if done(v) or v["status"] == "over":
            return v
        assert time.monotonic() < deadline, "the game stopped moving"
        if v["legal"]:
            body = {"seat": 0, "ply": v["ply"], "action": rng.choice(v["legal"])}
            assert client.post(f"/api/games/{gid}/act", json=body, headers=_auth(token)).status_code == 200
        else:
            time.sleep(0.01)


def test_a_seat_left_before_the_start_is_free_again(any_db_url: str) -> None:
    with _app(any_db_url) as client:
        seats = [{"kind": "creator"}, {"kind": "open"}, {"kind": "open"}]
        g = client.post("/api/games", json={"players": 3, "name": "Ann", "seats": seats}).json()
        gid = g["game"]
        bob = client.post(f"/api/games/{gid}/join", json={"seat": 1, "name": "Bob"}).json()
        assert client.get("/api/me/games", headers=_auth(bob["player_token"])).json()["games"]
        r = client.post(f"/api/games/{gid}/seats/1/leave", headers=_auth(bob["token"]))
        assert r.json() == {"game": gid, "seat": 1, "bot": None, "open": True}
        _refused(client.get(f"/api/games/{gid}/view?seat=1", headers=_auth(bob["token"])), "bad_token", "")
        _refused(client.post(f"/api/games/{gid}/seats/1/leave", headers=_auth(bob["token"])), "bad_token", "")
        assert client.get("/api/me/games", headers=_auth(bob["player_token"])).json()["games"] == []
        seat = client.get(f"/api/games/{gid}").json()["seats"][1]
        assert (seat["joined"], seat["open"], seat["name"]) == (False, True, "")
        assert [x["game"] for x in client.get("/api/games").json()["games"]] == [gid]
        # Someone else takes it; with the last seat taken the game starts.
        cy = client.post(f"/api/games/{gid}/join", json={"seat": 1, "name": "Cy"}).json()
        client.post(f"/api/games/{gid}/join", json={"seat": 2, "name": "Di"})
        assert client.get(f"/api/games/{gid}/view?seat=1", headers=_auth(cy["token"])).json()["seat"] == 1
        assert client.get(f"/api/games/{gid}").json()["status"] == "playing"
        # Bad input changes nothing.
        r = client.post(f"/api/games/{gid}/seats/x/leave", headers=_auth(cy["token"]))
        _refused(r, "invalid_input", "seat")
        assert r.json()["field"] == "seat"
        _refused(client.post(f"/api/games/{gid}/seats/1/leave"), "bad_token", "")
        _refused(client.post(f"/api/games/{gid}/seats/2/leave", headers=_auth(cy["token"])), "wrong_seat", "")
        assert client.get(f"/api/games/{gid}/view?seat=1", headers=_auth(cy["token"])).json()["seat"] == 1


def test_a_seat_left_during_play_is_a_bots_to_the_end_and_its_socket_is_closed(any_db_url: str) -> None:
    with _app(any_db_url) as client:
        g = _two_seats(client)
        gid, ann, bob = g["game"], g["seat"][0], g["seat"][1]
        v = _play_until(client, gid, ann, lambda v: v["acting_seat"] == 1)
        with client.websocket_connect(f"/api/games/{gid}/ws?seat=1&token={bob}") as ws:
            assert ws.receive_json()["type"] == "hello"
            # Bob leaves on his turn, with his player token (it opens his seat too).
            r = client.post(f"/api/games/{gid}/seats/1/leave", headers=_auth(g["player"][1]))
            assert r.json() == {"game": gid, "seat": 1, "bot": "greedy", "open": False}
            msg = ws.receive_json()
            assert msg["type"] == "error" and msg["error"]["code"] == "bad_token", msg
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4401
        left_at = v["ply"]
        for token in (bob, g["player"][1]):
            _refused(client.get(f"/api/games/{gid}/view?seat=1", headers=_auth(token)), "bad_token", "")
            _refused(client.post(f"/api/games/{gid}/seats/1/take", headers=_auth(token)), "bad_token", "")
        with client.websocket_connect(f"/api/games/{gid}/ws?seat=1&token={bob}") as ws:
            assert ws.receive_json()["error"]["code"] == "bad_token"
        seat = client.get(f"/api/games/{gid}").json()["seats"][1]
        assert (seat["kind"], seat["bot"], seat["name"]) == ("bot", "greedy", "Bob")
        # The bot plays the seat at once and to the end; Ann's token works as before.
        final = _play_until(client, gid, ann, lambda v: False)
        assert final["status"] == "over"
        by = {(r.seat, r.by) for r in _store(client).actions(gid) if r.ply >= left_at}
        assert (1, "bot") in by and (1, "human") not in by
        _refused(client.post(f"/api/games/{gid}/seats/0/leave", headers=_auth(ann)), "game_over", "over")


def test_logging_out_revokes_the_player_token_and_not_the_seat_tokens(any_db_url: str) -> None:
    with _app(any_db_url) as client:
        g = _two_seats(client)
        gid, ann = g["game"], g["player"][0]
        assert client.get("/api/me/games", headers=_auth(ann)).status_code == 200
        r = client.post("/api/players/logout", headers=_auth(ann))
        assert r.status_code == 200 and r.json()["logged_out"] is True
        for r in (
            client.get("/api/me/games", headers=_auth(ann)),
            client.get(f"/api/games/{gid}/view?seat=0", headers=_auth(ann)),
            client.post("/api/games", json={"seats": [{"kind": "bot"}] * 2}, headers=_auth(ann)),
        ):
            _refused(r, "bad_token", "logged out")
        assert r.json()["field"] == "token"
        assert client.post("/api/players/logout", headers=_auth(ann)).status_code == 200  # again: still out
        _refused(client.post("/api/players/logout", headers=_auth("nobody")), "bad_token", "")
        _refused(client.post("/api/players/logout"), "bad_token", "")
        # The seat's own token still opens it; Bob's player token is untouched.
        assert client.get(f"/api/games/{gid}/view?seat=0", headers=_auth(g["seat"][0])).json()["seat"] == 0
        assert client.get("/api/me/games", headers=_auth(g["player"][1])).status_code == 200


def _set(url: str, table: Any, where: Any, **values: Any) -> None:
    store = Store(url)
    with store.engine.begin() as c:
        c.execute(table.update().where(where).values(**values))
    store.close()


def _get(url: str, column: Any, where: Any) -> Any:
    store = Store(url)
    with store.engine.connect() as c:
        value = c.execute(column.table.select().with_only_columns(column).where(where)).scalar_one()
    store.close()
    return value


def test_tokens_unused_for_90_days_expire_and_uses_are_written_once_an_hour(any_db_url: str) -> None:
    url = any_db_url
    with _app(url) as client:
        g = _two_seats(client)
    gid, seat0 = g["game"], (t.seats.c.game_id == g["game"]) & (t.seats.c.seat == 0)
    ann = t.players.c.id == _get(url, t.seats.c.player_id, seat0)
    now = time.time()
    # Used 2 hours ago: this use is written. Used 30 minutes ago: nothing is written.
    _set(url, t.seats, seat0, token_used=now - 2 * 3600)
    _set(url, t.players, ann, used=now - 1800)
    with _app(url) as client:
        assert client.get(f"/api/games/{gid}/view?seat=0", headers=_auth(g["seat"][0])).status_code == 200
        assert client.get("/api/me/games", headers=_auth(g["player"][0])).status_code == 200
        assert client.get(f"/api/games/{gid}/view?seat=0", headers=_auth(g["seat"][0])).status_code == 200
    assert _get(url, t.seats.c.token_used, seat0) >= now
    assert _get(url, t.players.c.used, ann) == pytest.approx(now - 1800)
    # 89 days unused: still good. 91 days: refused, saying so; other tokens go on.
    _set(url, t.seats, seat0, token_used=now - 89 * DAY)
    _set(url, t.players, ann, used=now - 91 * DAY)
    with _app(url) as client:
        assert client.get(f"/api/games/{gid}/view?seat=0", headers=_auth(g["seat"][0])).status_code == 200
        r = client.get("/api/me/games", headers=_auth(g["player"][0]))
        _refused(r, "bad_token", "expired: unused for more than 90 days")
        assert r.json()["field"] == "token"
    _set(url, t.seats, seat0, token_used=now - 91 * DAY)
    with _app(url) as client:
        r = client.get(f"/api/games/{gid}/view?seat=0", headers=_auth(g["seat"][0]))
        _refused(r, "bad_token", "seat token expired")
        with client.websocket_connect(f"/api/games/{gid}/ws?seat=0&token={g['seat'][0]}") as ws:
            assert "expired" in ws.receive_json()["error"]["message"]
        assert client.get(f"/api/games/{gid}/view?seat=1", headers=_auth(g["seat"][1])).status_code == 200
    # `serve --token-idle 120`: 91 days is not too long.
    with _app(url, token_idle_days=120) as client:
        assert client.get(f"/api/games/{gid}/view?seat=0", headers=_auth(g["seat"][0])).status_code == 200
        assert client.get("/api/me/games", headers=_auth(g["player"][0])).status_code == 200


def test_the_idle_time_must_be_longer_than_the_longest_turn_deadline(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert build_parser().parse_args(["serve", "--token-idle", "45"]).token_idle == 45
    for bad in ("30", "0", "-1", "nan", "x"):
        with pytest.raises(SystemExit):
            build_parser().parse_args(["serve", "--token-idle", bad])
        assert "--token-idle" in capsys.readouterr().err


@pytest.mark.slow  # a `smallworld serve` process
def test_the_log_shows_no_token(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    s = ServerProcess(f"sqlite:///{tmp_path / 'games.db'}", log=log)
    try:
        seats = [{"kind": "creator"}, {"kind": "invite"}]
        g = httpx.post(s.url + "/api/games", json={"players": 2, "seats": seats}).json()
        gid, token, invite = g["game"], g["seats"][0]["token"], g["seats"][1]["invite"]
        with connect(f"{s.ws}/api/games/{gid}/ws?seat=0&token={token}") as ws:
            assert json.loads(ws.recv(timeout=30))["type"] == "hello"
        with connect(f"{s.ws}/api/games/{gid}/ws?token={token}x") as ws:  # refused: logged too
            assert json.loads(ws.recv(timeout=30))["type"] == "error"
        httpx.get(f"{s.url}/api/games/{gid}?token={token}&invite={invite}")
        httpx.post(s.url + "/api/players/logout", headers=_auth(g["player_token"]))
    finally:
        s.stop()
    text = log.read_text()
    # Every line of the log (stderr: JSON) is still JSON once redacted.
    said = [json.loads(line).get("message", "") for line in text.splitlines() if line.startswith("{")]
    assert any(f"WebSocket /api/games/{gid}/ws?seat=0&token=[redacted]" in m for m in said)
    assert any(f"/api/games/{gid}?token=[redacted]&invite=[redacted]" in m for m in said)
    for secret in (token, invite, g["player_token"]):
        assert secret not in text


@pytest.mark.postgres
@pytest.mark.redis
def test_leaving_closes_the_seats_socket_held_by_another_process(
    services: dict[str, str], tmp_path: Path
) -> None:
    db = fresh_pg_database(services["PG_URL"])
    a = ServerProcess(db, services["REDIS_URL"], tmp_path / "a.log")
    b = ServerProcess(db, services["REDIS_URL"], tmp_path / "b.log")
    try:
        seats = [{"kind": "creator"}, {"kind": "invite"}]
        g = httpx.post(a.url + "/api/games", json={"players": 2, "seats": seats}).json()
        gid = g["game"]
        bob = httpx.post(f"{b.url}/api/games/{gid}/join", json={"invite": g["seats"][1]["invite"]}).json()
        with connect(f"{b.ws}/api/games/{gid}/ws?seat=1&token={bob['token']}") as ws:
            assert json.loads(ws.recv(timeout=30))["type"] == "hello"
            r = httpx.post(f"{a.url}/api/games/{gid}/seats/1/leave", headers=_auth(bob["token"]))
            assert r.json()["bot"] == "greedy"
            while True:  # updates may come first (the bot's moves); then the refusal and the close
                msg = json.loads(ws.recv(timeout=30))
                if msg["type"] == "error":
                    break
                assert msg["type"] == "update"
            assert msg["error"]["code"] == "bad_token"
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=30)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
        r = httpx.get(f"{b.url}/api/games/{gid}/view?seat=1", headers=_auth(bob["token"]))
        assert r.json()["code"] == "bad_token"
    finally:
        a.stop()
        b.stop()


def test_the_store_frees_a_left_seat_as_the_games_status_says(any_db_url: str) -> None:
    store = Store(any_db_url)
    store.create_player("p1", "Ann", "h" * 64)
    for gid, status in (("open1", "open"), ("play1", "playing"), ("over1", "over")):
        ann = {"seat": 0, "kind": "human", "name": "Ann", "player_id": "p1", "token_hash": gid * 8}
        free = {"seat": 1, "kind": "human", "name": "", "player_id": None, "open": True}
        store.create_game(gid, {"players": 2}, 1, {}, [ann, free])
        store.set_status(gid, status)
        assert store.leave_seat(gid, 0, "mcts") == status
    left = {gid: store.seats(gid)[0] for gid in ("open1", "play1", "over1")}
    assert {k: left["open1"][k] for k in ("kind", "player_id", "token_hash", "open", "bot")} == {
        "kind": "human", "player_id": None, "token_hash": None, "open": True, "bot": None
    }
    assert {k: left["play1"][k] for k in ("kind", "player_id", "token_hash", "bot")} == {
        "kind": "bot", "player_id": None, "token_hash": None, "bot": "mcts"
    }
    assert left["over1"]["player_id"] == "p1" and left["over1"]["token_hash"] == "over1" * 8
    # The seat left is free: a join takes it (and the game, every seat taken, starts).
    assert store.take_seat("open1", 0, "p1", "Cy", "c" * 64)
    assert store.take_seat("open1", 1, "p1", "Di", "d" * 64)
    assert store.game("open1")["status"] == "playing"  # type: ignore[index]
    store.close()
