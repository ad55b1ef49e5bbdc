"""The web client's socket (`/api/games/{gid}/ws?client=web`, docs/web.md "One socket"): its `hello`
and every `update` carry what `/view?client=web` and `/moves?client=web` answer, so the page fetches
nothing after an update; each seat's socket gets only its own seat's view and words; the words are
made once per seat and ply however many sockets and requests ask for them."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.helpers import assert_hides
from smallworld.server import service as service_module

WEB_KEYS = ("view", "legal", "texts", "explain", "plan", "rounds", "seat")


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _three_seats(client: TestClient) -> tuple[str, dict[int, str], int]:
    seats = [{"kind": "creator"}, {"kind": "invite"}, {"kind": "open"}]
    created = client.post("/api/games", json={"players": 3, "name": "Ann", "seats": seats}).json()
    gid = created["game"]
    joined = client.post(f"/api/games/{gid}/join", json={"invite": created["seats"][1]["invite"]}).json()
    opened = client.post(f"/api/games/{gid}/join", json={"seat": 2}).json()
    tokens = {0: created["seats"][0]["token"], 1: joined["token"], 2: opened["token"]}
    seed = client.app.state.service.store.game(gid)["seed"]  # type: ignore[attr-defined]
    return gid, tokens, seed


def _play(client: TestClient, gid: str, tokens: dict[int, str], plies: int, rng: random.Random) -> None:
    for _ in range(plies):
        g = client.get(f"/api/games/{gid}").json()
        s = g["acting_seat"]
        v = client.get(f"/api/games/{gid}/view?seat={s}", headers=_auth(tokens[s])).json()
        body = {"seat": s, "ply": v["ply"], "action": rng.choice(v["legal"])}
        assert client.post(f"/api/games/{gid}/act", headers=_auth(tokens[s]), json=body).status_code == 200


def _web_view(client: TestClient, gid: str, token: str | None) -> dict[str, Any]:
    headers = _auth(token) if token else {}
    return dict(client.get(f"/api/games/{gid}/view?client=web", headers=headers).json())


def test_web_socket_carries_the_fetched_payload_and_only_its_own_seats(client: TestClient) -> None:
    gid, tokens, seed = _three_seats(client)
    _play(client, gid, tokens, 12, random.Random(5))
    readers: list[int | None] = [0, 1, 2, None]
    query = {s: (f"token={tokens[s]}&" if s is not None else "") + "client=web&since=0" for s in readers}
    with (
        client.websocket_connect(f"/api/games/{gid}/ws?{query[0]}") as w0,
        client.websocket_connect(f"/api/games/{gid}/ws?{query[1]}") as w1,
        client.websocket_connect(f"/api/games/{gid}/ws?{query[2]}") as w2,
        client.websocket_connect(f"/api/games/{gid}/ws?{query[None]}") as ws,
    ):
        sockets = {0: w0, 1: w1, 2: w2, None: ws}
        hellos = {s: w.receive_json() for s, w in sockets.items()}
        for s, hello in hellos.items():
            assert hello["type"] == "hello" and hello["seat"] == s
            assert_hides(hello, s, seed)
            fetched = _web_view(client, gid, tokens.get(s) if s is not None else None)
            for k in WEB_KEYS:
                assert hello[k] == fetched[k], f"the hello's {k} differs from the fetched view's"
            assert len(hello["moves"]) == 12 and all("texts" in m for m in hello["moves"])
            assert set(hello["moves"][0]["texts"]) == {"en", "pt", "de"}
            assert [len(m["texts"]["de"]) for m in hello["moves"]] == [
                len(m["events"]) for m in hello["moves"]
            ]
            assert any(m["texts"]["en"] for m in hello["moves"])
        acting = hellos[0]["acting_seat"]
        legal = hellos[acting]["legal"]
        assert legal and hellos[acting]["texts"]["legal"]["en"], "the acting seat's words came with it"
        for s in readers:
            if s != acting:
                assert hellos[s]["legal"] == [] and hellos[s]["texts"]["legal"]["en"] == []
        # The acting seat plays over its socket: every socket's update is the fetched payload of
        # its own seat, with the move in words; nothing of another seat's.
        sockets[acting].send_json({"type": "act", "ply": hellos[acting]["ply"], "action": legal[0], "ref": 7})
        updates = {s: w.receive_json() for s, w in sockets.items()}
        ack = sockets[acting].receive_json()
        assert ack["type"] == "ack" and ack["ref"] == 7 and ack["ply"] == 13
        for s, up in updates.items():
            assert up["type"] == "update" and up["seat"] == s and up["ply"] == 13
            assert_hides(up, s, seed)
            fetched = _web_view(client, gid, tokens.get(s) if s is not None else None)
            for k in WEB_KEYS:
                assert up[k] == fetched[k], f"seat {s}: the update's {k} differs from the fetched view's"
            [move] = up["moves"]
            assert move["ply"] == 12 and move["seat"] == acting
            assert set(move["texts"]) == {"en", "pt", "de"}
            assert len(move["texts"]["en"]) == len(move["events"])


def test_a_socket_without_client_web_gets_no_words(client: TestClient) -> None:
    gid, tokens, _ = _three_seats(client)
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[0]}&since=0") as ws:
        hello = ws.receive_json()
    assert hello["type"] == "hello" and "texts" not in hello and "explain" not in hello


def test_the_words_are_made_once_per_seat_and_ply(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid, tokens, _ = _three_seats(client)
    made: list[tuple[int, int | None]] = []
    real = service_module.web_payload.extras

    def counting(st: Any, seat: int | None) -> dict[str, Any]:
        made.append((st.ply, seat))
        return real(st, seat)

    monkeypatch.setattr(service_module.web_payload, "extras", counting)
    first = client.get(f"/api/games/{gid}").json()["acting_seat"]  # the seed decides who begins
    q = f"token={tokens[first]}&client=web"
    with (
        client.websocket_connect(f"/api/games/{gid}/ws?{q}") as a,
        client.websocket_connect(f"/api/games/{gid}/ws?{q}") as b,
    ):
        hello = a.receive_json()
        b.receive_json()
        _web_view(client, gid, tokens[first])
        assert made == [(0, first)], "two sockets and a fetch of one seat at one ply: made once"
        a.send_json({"type": "act", "ply": 0, "action": hello["legal"][0], "ref": 1})
        assert a.receive_json()["type"] == "update" and b.receive_json()["type"] == "update"
        _web_view(client, gid, tokens[first])
    assert made == [(0, first), (1, first)]
