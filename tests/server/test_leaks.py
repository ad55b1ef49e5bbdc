"""Every HTTP endpoint and every WebSocket message type, in a game under way: no answer carries
another seat's coins, the order of the stacks, a face-down marker, a bomb's kind or the seed."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from server.helpers import assert_hides
from smallworld.server.app import create_app


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_no_answer_leaks_hidden_information(client: TestClient) -> None:
    seats = [{"kind": "creator"}, {"kind": "invite"}, {"kind": "open"}]
    created = client.post("/api/games", json={"players": 3, "name": "Ann", "seats": seats}).json()
    gid = created["game"]
    store = client.app.state.service.store  # type: ignore[attr-defined]
    seed = store.game(gid)["seed"]
    answers: list[tuple[int | None, Any]] = [(0, created)]
    answers.append((None, client.get("/api/games").json()))
    joined = client.post(f"/api/games/{gid}/join", json={"invite": created["seats"][1]["invite"]}).json()
    answers.append((1, joined))
    opened = client.post(f"/api/games/{gid}/join", json={"seat": 2}).json()
    answers.append((2, opened))
    tokens = {0: created["seats"][0]["token"], 1: joined["token"], 2: opened["token"]}
    rng = random.Random(2)
    for _ in range(50):  # into the game (a random 3-player game lasts about 100 plies or more)
        g = client.get(f"/api/games/{gid}").json()
        if g["status"] == "over":
            break
        s = g["acting_seat"]
        v = client.get(f"/api/games/{gid}/view?seat={s}", headers=_auth(tokens[s])).json()
        answers.append((s, v))
        r = client.post(
            f"/api/games/{gid}/act",
            headers=_auth(tokens[s]),
            json={"seat": s, "ply": v["ply"], "action": rng.choice(v["legal"])},
        )
        answers.append((s, r.json()))
    assert client.get(f"/api/games/{gid}").json()["status"] == "playing", (
        "the game must still be hiding things"
    )
    answers.append((None, client.get(f"/api/games/{gid}").json()))
    answers.append((None, client.get(f"/api/games/{gid}/view").json()))
    answers.append((None, client.get(f"/api/games/{gid}/moves?since=0").json()))
    answers.append((0, client.get(f"/api/games/{gid}/moves?since=0&seat=0", headers=_auth(tokens[0])).json()))
    answers.append((0, client.get("/api/me/games", headers=_auth(created["player_token"])).json()))
    answers.append((0, client.get(f"/api/games/{gid}/replay").json()))  # refused before the end
    answers.append(
        (
            1,
            client.post(
                f"/api/games/{gid}/seats/1/bot", json={"level": "random"}, headers=_auth(tokens[1])
            ).json(),
        )
    )
    answers.append((1, client.post(f"/api/games/{gid}/seats/1/take", headers=_auth(tokens[1])).json()))
    answers.append((None, client.post("/api/players", json={"name": "Eve"}).json()))
    for seat in (0, None):
        query = f"seat={seat}&token={tokens[seat]}&since=0" if seat is not None else "since=0"
        with client.websocket_connect(f"/api/games/{gid}/ws?{query}") as ws:
            hello = ws.receive_json()
            answers.append((seat, hello))
            ws.send_json({"type": "ping", "ref": 1})
            answers.append((seat, ws.receive_json()))
            ws.send_json({"type": "act", "ply": 0, "action": {"kind": "end"}, "ref": 2})
            answers.append((seat, ws.receive_json()))  # an error
            if seat is not None and hello["legal"]:
                ws.send_json({"type": "act", "ply": hello["ply"], "action": hello["legal"][0], "ref": 3})
                answers.append((seat, ws.receive_json()))  # the update
                answers.append((seat, ws.receive_json()))  # the ack
    types = {a.get("type") for _, a in answers if isinstance(a, dict)}
    assert {"hello", "pong", "error"} <= types
    markers = 0
    for seat, answer in answers:
        assert_hides(answer, seat, seed)
        view = answer.get("view") if isinstance(answer, dict) else None
        if view:
            markers += sum(1 for here in view["markers"].values() for m in here if not m["face_up"])
    assert markers > 0, "no face-down marker was in play: the check proved nothing"


def test_rate_limit_refuses_with_its_code(db_url: str) -> None:
    with TestClient(create_app(db_url, rate=1, burst=3)) as c:
        codes = [c.get("/api/games").status_code for _ in range(6)]
        assert codes[:3] == [200, 200, 200]
        r = c.get("/api/games")
        assert (r.status_code, r.json()["code"]) == (429, "rate_limited")


def test_token_rate_limit_counts_each_token_over_requests_and_socket_messages(db_url: str) -> None:
    # Per token, not per address or socket: the same token over HTTP and a socket shares one
    # bucket of 4; another token and tokenless requests are not affected.
    with TestClient(create_app(db_url, rate=0, socket_rate=0, token_rate=0.001, token_burst=4)) as c:
        seats = [{"kind": "creator"}, {"kind": "creator"}]
        g = c.post("/api/games", json={"players": 2, "name": "Ann", "seats": seats}).json()
        gid, player = g["game"], g["player_token"]
        mine = _auth(player)
        assert c.get("/api/me/games", headers=mine).status_code == 200  # 1
        assert c.get(f"/api/games/{gid}/view?seat=0", headers=mine).status_code == 200  # 2
        with c.websocket_connect(f"/api/games/{gid}/ws?seat=0&token={player}") as ws:  # 3
            hello = ws.receive_json()
            ws.send_json({"type": "act", "ply": 99, "action": {"kind": "end"}, "ref": 1})  # 4: stale
            assert ws.receive_json()["error"]["code"] == "stale_ply"
            # 5: an action the seat could play now (when it is seat 0's turn), refused by the limit.
            action = (hello["legal"] or [{"kind": "end"}])[0]
            ws.send_json({"type": "act", "ply": hello["ply"], "action": action, "ref": 2})
            refused = ws.receive_json()
            assert refused["type"] == "error" and refused["ref"] == 2
            assert refused["error"]["code"] == "rate_limited" and refused["error"]["field"] == "token"
        r = c.get("/api/me/games", headers=mine)
        assert (r.status_code, r.json()["code"], r.json()["field"]) == (429, "rate_limited", "token")
        # Nothing was played by the refused action, and others are still served.
        assert c.get(f"/api/games/{gid}").json()["ply"] == hello["ply"] == 0
        assert c.get(f"/api/games/{gid}").status_code == 200  # no token
        other = c.post("/api/players", json={"name": "Bob"}).json()["player_token"]
        assert c.get("/api/me/games", headers=_auth(other)).status_code == 200
        with c.websocket_connect(f"/api/games/{gid}/ws?seat=1&token={player}") as ws:
            msg = ws.receive_json()  # a new socket of the spent token is refused at once
            assert msg["type"] == "error" and msg["error"]["code"] == "rate_limited"
