"""Bad input, endpoint by endpoint: each refusal has its code and changes nothing."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from server.helpers import assert_hides
from smallworld.server.app import create_app
from smallworld.server.store import Store


def _game(client: TestClient, seats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    seats = seats or [{"kind": "creator"}, {"kind": "creator"}]  # hot-seat: one person, two seats
    r = client.post("/api/games", json={"players": len(seats), "name": "Ann", "seats": seats})
    assert r.status_code == 200, r.text
    return r.json()


def _store(client: TestClient) -> Store:
    return client.app.state.service.store  # type: ignore[attr-defined]


def _snapshot(client: TestClient, gid: str) -> tuple[int, int, Any]:
    store = _store(client)
    g = client.get(f"/api/games/{gid}").json()
    return g["ply"], len(store.actions(gid)), client.get(f"/api/games/{gid}/view").json()["view"]


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _legal(client: TestClient, gid: str, seat: int, token: str) -> tuple[int, list[dict[str, Any]]]:
    v = client.get(f"/api/games/{gid}/view?seat={seat}", headers=_auth(token)).json()
    return v["ply"], v["legal"]


@pytest.fixture
def hot(client: TestClient) -> dict[str, Any]:
    return _game(client)


def _acting(client: TestClient, gid: str) -> int:
    return int(client.get(f"/api/games/{gid}").json()["acting_seat"])


def test_act_refusals_each_with_its_code_and_nothing_changed(client: TestClient, hot: dict[str, Any]) -> None:
    gid = hot["game"]
    tok = {s["seat"]: s["token"] for s in hot["seats"]}
    seat = _acting(client, gid)
    other = 1 - seat
    ply, legal = _legal(client, gid, seat, tok[seat])
    good = legal[0]
    before = _snapshot(client, gid)
    url = f"/api/games/{gid}/act"
    cases: list[tuple[str, dict[str, Any], int, str]] = [
        ("malformed JSON", {"content": b"{not json", "headers": _auth(tok[seat])}, 400, "malformed_json"),
        ("not an object", {"json": [1, 2], "headers": _auth(tok[seat])}, 400, "invalid_input"),
        (
            "unknown action",
            {"json": {"seat": seat, "ply": ply, "action": {"kind": "fly"}}, "headers": _auth(tok[seat])},
            400,
            "malformed_action",
        ),
        (
            "region off the map",
            {
                "json": {"seat": seat, "ply": ply, "action": {"kind": "conquer", "region": "Z9:99"}},
                "headers": _auth(tok[seat]),
            },
            400,
            "malformed_action",
        ),
        ("no token", {"json": {"seat": seat, "ply": ply, "action": good}}, 401, "bad_token"),
        (
            "wrong token",
            {"json": {"seat": seat, "ply": ply, "action": good}, "headers": _auth("x" * 22)},
            401,
            "bad_token",
        ),
        (
            "another seat's token",
            {"json": {"seat": seat, "ply": ply, "action": good}, "headers": _auth(tok[other])},
            403,
            "wrong_seat",
        ),
        (
            "no such seat",
            {"json": {"seat": 7, "ply": ply, "action": good}, "headers": _auth(tok[seat])},
            403,
            "wrong_seat",
        ),
        (
            "out of turn",
            {"json": {"seat": other, "ply": ply, "action": good}, "headers": _auth(tok[other])},
            409,
            "not_your_turn",
        ),
        (
            "stale ply",
            {"json": {"seat": seat, "ply": ply + 3, "action": good}, "headers": _auth(tok[seat])},
            409,
            "stale_ply",
        ),
        (
            "no ply",
            {"json": {"seat": seat, "action": good}, "headers": _auth(tok[seat])},
            400,
            "invalid_input",
        ),
        (
            "oversized",
            {
                "json": {"seat": seat, "ply": ply, "action": good, "pad": "x" * 70_000},
                "headers": _auth(tok[seat]),
            },
            413,
            "too_large",
        ),
    ]
    for what, kw, status, code in cases:
        r = client.post(url, **kw)
        assert (r.status_code, r.json()["code"]) == (status, code), (what, r.text)
        assert r.json()["message"]
        assert _snapshot(client, gid) == before, what
    # An illegal action names the rule it breaks.
    pick_far = {"kind": "pick", "arg": 5}
    r = client.post(url, json={"seat": seat, "ply": ply, "action": pick_far}, headers=_auth(tok[seat]))
    if r.status_code != 200:
        assert r.json()["code"] == "illegal_action" and r.json()["rule"].startswith("§")
        assert _snapshot(client, gid) == before


def test_resend_is_idempotent_and_a_different_action_at_an_old_ply_is_stale(
    client: TestClient, hot: dict[str, Any]
) -> None:
    gid = hot["game"]
    tok = {s["seat"]: s["token"] for s in hot["seats"]}
    seat = _acting(client, gid)
    ply, legal = _legal(client, gid, seat, tok[seat])
    body = {"seat": seat, "ply": ply, "action": legal[0]}
    first = client.post(f"/api/games/{gid}/act", json=body, headers=_auth(tok[seat]))
    assert first.status_code == 200, first.text
    again = client.post(f"/api/games/{gid}/act", json=body, headers=_auth(tok[seat]))
    assert again.status_code == 200 and again.json() == first.json()
    assert len(_store(client).actions(gid)) == 1
    if len(legal) > 1:
        other = {**body, "action": legal[1]}
        r = client.post(f"/api/games/{gid}/act", json=other, headers=_auth(tok[seat]))
        assert r.status_code == 409 and r.json()["code"] == "stale_ply"
        assert len(_store(client).actions(gid)) == 1


def test_player_token_acts_for_all_its_seats_and_lists_my_games(
    client: TestClient, hot: dict[str, Any]
) -> None:
    gid = hot["game"]
    ptok = hot["player_token"]
    seat = _acting(client, gid)
    ply, legal = _legal(client, gid, seat, ptok)  # hot-seat: the player's token opens each seat
    r = client.post(
        f"/api/games/{gid}/act", json={"seat": seat, "ply": ply, "action": legal[0]}, headers=_auth(ptok)
    )
    assert r.status_code == 200, r.text
    mine = client.get("/api/me/games", headers=_auth(ptok)).json()
    assert [g["game"] for g in mine["games"]] == [gid]
    assert mine["games"][0]["my_seats"] == [0, 1]
    r = client.get("/api/me/games", headers=_auth("nope"))
    assert (r.status_code, r.json()["code"]) == (401, "bad_token")


def test_lobby_join_and_create_refusals(client: TestClient) -> None:
    r = client.post("/api/games", content=b"[", headers={"content-type": "application/json"})
    assert (r.status_code, r.json()["code"]) == (400, "malformed_json")
    r = client.post("/api/games", json={"players": 7, "seats": [{"kind": "creator"}] * 7})
    assert (r.status_code, r.json()["code"], r.json()["field"]) == (400, "invalid_input", "settings.players")
    r = client.post("/api/games", json={"players": 2, "seats": [{"kind": "creator"}, {"kind": "alien"}]})
    assert (r.status_code, r.json()["field"]) == (400, "seats[1].kind")
    r = client.post(
        "/api/games", json={"players": 2, "seats": [{"kind": "creator"}, {"kind": "bot", "level": "god"}]}
    )
    assert (r.status_code, r.json()["field"]) == (400, "seats[1].level")
    r = client.post("/api/games", json={"players": 2, "seats": [{"kind": "creator"}], "colour": 1})
    assert (r.status_code, r.json()["code"]) == (400, "invalid_input")
    g = _game(client, [{"kind": "creator"}, {"kind": "open"}])
    gid = g["game"]
    lobby = client.get("/api/games").json()["games"]
    assert [x["game"] for x in lobby] == [gid]
    assert_hides(lobby[0], None, _store(client).game(gid)["seed"])
    # Out of turn before the game starts: not started.
    r = client.post(
        f"/api/games/{gid}/act",
        json={"seat": 0, "ply": 0, "action": {"kind": "pick", "arg": 0}},
        headers=_auth(g["seats"][0]["token"]),
    )
    assert (r.status_code, r.json()["code"]) == (409, "not_started")
    r = client.post(f"/api/games/{gid}/join", json={"invite": "wrong"})
    assert (r.status_code, r.json()["code"]) == (409, "seat_taken")
    r = client.post(f"/api/games/{gid}/join", content=b"{{", headers={"content-type": "application/json"})
    assert (r.status_code, r.json()["code"]) == (400, "malformed_json")
    j = client.post(f"/api/games/{gid}/join", json={"name": "Cid"})
    assert j.status_code == 200 and j.json()["seat"] == 1
    r = client.post(f"/api/games/{gid}/join", json={"name": "Dan"})
    assert (r.status_code, r.json()["code"]) == (409, "seat_taken")
    assert client.get("/api/games").json()["games"] == []
    assert client.get(f"/api/games/{gid}").json()["status"] == "playing"
    for path in ("/api/games/nope", "/api/games/nope/view", "/api/games/nope/replay"):
        r = client.get(path)
        assert (r.status_code, r.json()["code"]) == (404, "not_found"), path
    r = client.get(f"/api/games/{gid}/view", headers=_auth("bad"))
    assert (r.status_code, r.json()["code"]) == (401, "bad_token")
    r = client.get(f"/api/games/{gid}/replay")
    assert (r.status_code, r.json()["code"]) == (409, "not_over")


def test_websocket_refusals(client: TestClient, hot: dict[str, Any]) -> None:
    gid = hot["game"]
    tok = {s["seat"]: s["token"] for s in hot["seats"]}
    seat = _acting(client, gid)
    before = _snapshot(client, gid)
    with client.websocket_connect(f"/api/games/{gid}/ws?seat={seat}&token=bad") as ws:
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["error"]["code"] == "bad_token"
    with client.websocket_connect(f"/api/games/{gid}/ws?seat={seat}&token={tok[seat]}") as ws:
        hello = ws.receive_json()
        ply = hello["ply"]
        pad = "x" * 70_000
        sends: list[tuple[str, str]] = [
            ("{oops", "malformed_json"),
            ('{"type": "fly"}', "invalid_input"),
            (f'{{"type": "act", "ply": {ply}, "action": {{"kind": "fly"}}}}', "malformed_action"),
            (f'{{"type": "act", "ply": {ply + 5}, "action": {{"kind": "end"}}}}', "stale_ply"),
            (
                f'{{"type": "act", "ply": {ply}, "action": {{"kind": "pick", "arg": 0}}, "pad": "{pad}"}}',
                "too_large",
            ),
        ]
        for text, code in sends:
            ws.send_text(text)
            msg = ws.receive_json()
            assert msg["type"] == "error" and msg["error"]["code"] == code, (text[:40], msg)
        ws.send_json({"type": "ping", "ref": 9})
        assert ws.receive_json() == {"type": "pong", "ref": 9}
    with client.websocket_connect(f"/api/games/{gid}/ws") as spectator:
        hello = spectator.receive_json()
        assert hello["seat"] is None and hello["legal"] == []
        spectator.send_json({"type": "act", "ply": ply, "action": {"kind": "pick", "arg": 0}})
        assert spectator.receive_json()["error"]["code"] == "bad_token"
    assert _snapshot(client, gid) == before


def test_game_over_refused_after_a_seat_is_handed_to_a_bot_and_back(client: TestClient) -> None:
    g = _game(client, [{"kind": "creator"}, {"kind": "bot", "level": "random"}])
    gid = g["game"]
    tok = g["seats"][0]["token"]
    r = client.post(f"/api/games/{gid}/seats/0/bot", json={"level": "random"}, headers=_auth(tok))
    assert r.status_code == 200 and r.json()["bot"] == "random"
    r = client.post(f"/api/games/{gid}/seats/1/bot", json={"level": "random"}, headers=_auth(tok))
    assert (r.status_code, r.json()["code"]) == (403, "wrong_seat")  # not the creator's seat
    deadline = time.monotonic() + 300
    while client.get(f"/api/games/{gid}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)
    r = client.post(f"/api/games/{gid}/seats/0/take", headers=_auth(tok))
    assert r.status_code == 200 and r.json()["bot"] is None
    before = _snapshot(client, gid)
    ply = client.get(f"/api/games/{gid}").json()["ply"]
    r = client.post(
        f"/api/games/{gid}/act", json={"seat": 0, "ply": ply, "action": {"kind": "end"}}, headers=_auth(tok)
    )
    assert (r.status_code, r.json()["code"]) == (409, "game_over")
    assert _snapshot(client, gid) == before
    assert {row.by for row in _store(client).actions(gid)} == {"bot"}


def test_names_take_any_script_but_no_control_or_bidirectional_characters(client: TestClient) -> None:
    for name in ("Zoë", "李小龍", "Ævar Þór", "👩‍💻 Ada", "O'Brien-Smith"):
        r = client.post("/api/players", json={"name": name})
        assert r.status_code == 200 and r.json()["player"]["name"] == name, (name, r.text)
    for name in ("\u202eevil", "a\u2066b", "Ann\x1b[2J", "a\nb", "a\u2028b", "\u200f"):
        r = client.post("/api/players", json={"name": name})
        assert (r.status_code, r.json()["code"], r.json()["field"]) == (400, "invalid_input", "name"), name
    seats = [{"kind": "creator"}, {"kind": "bot", "name": "Bot\u202e"}]
    r = client.post("/api/games", json={"players": 2, "name": "Ann", "seats": seats})
    assert (r.status_code, r.json()["field"]) == (400, "seats[1].name")


def test_another_seats_player_token_is_wrong_seat(client: TestClient) -> None:
    g = _game(client, [{"kind": "creator"}, {"kind": "open"}])
    gid, ann = g["game"], g["player_token"]
    bob = client.post(f"/api/games/{gid}/join", json={"name": "Bob"}).json()["player_token"]
    stranger = client.post("/api/players", json={"name": "Cid"}).json()["player_token"]
    for token, seat in ((ann, 1), (bob, 0)):
        r = client.get(f"/api/games/{gid}/view?seat={seat}", headers=_auth(token))
        assert (r.status_code, r.json()["code"], r.json()["field"]) == (403, "wrong_seat", "seat")
        r = client.post(f"/api/games/{gid}/seats/{seat}/bot", json={"level": "random"}, headers=_auth(token))
        assert (r.status_code, r.json()["code"]) == (403, "wrong_seat")
    # A player with no seat in this game is not known to it.
    r = client.get(f"/api/games/{gid}/view?seat=0", headers=_auth(stranger))
    assert (r.status_code, r.json()["code"]) == (401, "bad_token")
    assert client.get(f"/api/games/{gid}").json()["seats"][0]["bot"] is None


def test_a_fault_of_the_server_answers_in_the_documented_shape_and_is_logged(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    # Bad input never gets here (test_malformed.py, test_fuzz_openapi.py); a bug of the server's
    # own still answers JSON, and its traceback is in the log.
    with TestClient(create_app(db_url, rate=0, socket_rate=0), raise_server_exceptions=False) as c:
        gid = _game(c)["game"]
        svc = c.app.state.service  # type: ignore[attr-defined]

        async def broken(*args: Any) -> Any:
            raise RuntimeError("a bug of the server's own")

        def broken_view(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("a bug in a view")

        get = svc.get
        svc.get = broken
        r = c.get(f"/api/games/{gid}")
        assert (r.status_code, r.json()["code"]) == (500, "internal_error") and set(r.json()) == {
            "code",
            "message",
            "reason",
            "params",
        }
        assert "a bug of the server's own" in caplog.text and "Traceback" in caplog.text
        svc.get = get
        svc.view = broken_view
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws, pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1011 and "a bug in a view" in caplog.text
