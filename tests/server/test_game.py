"""A whole game over the server: two people on WebSockets and a bot, to the final scores."""

from __future__ import annotations

import random
import threading
from typing import Any

from fastapi.testclient import TestClient

from server.helpers import assert_hides, replayed
from smallworld.engine.api.views import view_for
from smallworld.server.app import create_app


def _create(client: TestClient) -> tuple[str, dict[int, str], str]:
    r = client.post(
        "/api/games",
        json={
            "players": 3,
            "name": "Ann",
            "seats": [
                {"kind": "creator"},
                {"kind": "invite", "name": "Bob"},
                {"kind": "bot", "level": "greedy"},
            ],
        },
    )
    assert r.status_code == 200, r.text
    g = r.json()
    gid = g["game"]
    assert client.get(f"/api/games/{gid}").json()["status"] == "open"  # Bob has not come yet
    j = client.post(f"/api/games/{gid}/join", json={"invite": g["seats"][1]["invite"], "name": "Bob"})
    assert j.status_code == 200, j.text
    assert j.json()["seat"] == 1
    return gid, {0: g["seats"][0]["token"], 1: j.json()["token"]}, g["player_token"]


def _player(client: TestClient, gid: str, seat: int, token: str, seed: int, out: dict[int, Any]) -> None:
    """A scripted client: on every message that lets it act, a random legal action."""
    rng = random.Random(seat)
    seen: list[dict[str, Any]] = []
    acted: set[int] = set()
    with client.websocket_connect(f"/api/games/{gid}/ws?seat={seat}&token={token}&since=0") as ws:
        while True:
            msg = ws.receive_json()
            assert msg["type"] != "error", msg
            seen.append(msg)
            if msg["type"] in ("hello", "update"):
                assert_hides(msg, seat, seed)
                if msg["status"] == "over":
                    break
                if msg["legal"] and msg["ply"] not in acted:
                    acted.add(msg["ply"])
                    ws.send_json(
                        {"type": "act", "ply": msg["ply"], "action": rng.choice(msg["legal"]), "ref": 1}
                    )
    out[seat] = seen


def test_two_clients_and_a_bot_play_to_the_end(any_db_url: str) -> None:
    with TestClient(create_app(any_db_url, rate=0, socket_rate=0)) as client:
        _whole_game(client)


def _whole_game(client: TestClient) -> None:
    gid, tokens, _ = _create(client)
    store = client.app.state.service.store  # type: ignore[attr-defined]
    seed = store.game(gid)["seed"]
    out: dict[int, Any] = {}
    threads = [threading.Thread(target=_player, args=(client, gid, s, tokens[s], seed, out)) for s in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert set(out) == {0, 1}
    final = client.get(f"/api/games/{gid}").json()
    assert final["status"] == "over"
    result = final["result"]
    assert len(result["scores"]) == 3 and result["winners"]
    st = replayed(store, gid)
    assert st.result == result  # the store's log replays to the same end
    assert st.ply == final["ply"] == len(store.actions(gid))
    by = {row.by for row in store.actions(gid)}
    assert by == {"human", "bot"}
    for seat, msgs in out.items():
        # Every seat saw every move, in order, each exactly once.
        plies = [m["ply"] for msg in msgs if msg["type"] != "ack" for m in msg["moves"]]
        assert plies == list(range(final["ply"]))
        last = msgs[-1]
        assert last["view"]["result"] == result
        assert last["view"] == view_for(st, seat)  # exactly the engine's view, now everything shown
    # The replay of a finished game is public: every state, the seed shown.
    rep = client.get(f"/api/games/{gid}/replay").json()
    assert rep["settings"]["seed"] == seed
    assert len(rep["states"]) == final["ply"] + 1
    assert rep["states"][-1]["result"] == result


def test_views_are_the_engines_views_at_every_ply(client: TestClient) -> None:
    """HTTP views and moves during the game equal `view_for` of the replayed state, seat by seat."""
    gid, tokens, _ = _create(client)
    store = client.app.state.service.store  # type: ignore[attr-defined]
    seed = store.game(gid)["seed"]
    rng = random.Random(4)
    for _ in range(40):
        v = client.get(f"/api/games/{gid}/view").json()
        assert_hides(v, None, seed)
        seat = v["acting_seat"]
        if seat == 2 or v["status"] == "over":
            client.get("/healthz")
            continue
        h = {"Authorization": f"Bearer {tokens[seat]}"}
        mine = client.get(f"/api/games/{gid}/view", headers=h).json()
        if mine["ply"] != v["ply"] or not mine["legal"]:
            continue
        st = replayed(store, gid, mine["ply"])
        assert mine["view"] == view_for(st, seat)
        moves = client.get(f"/api/games/{gid}/moves?since=0", headers=h).json()
        assert_hides(moves, seat, seed)
        r = client.post(
            f"/api/games/{gid}/act",
            headers=h,
            json={"seat": seat, "ply": mine["ply"], "action": rng.choice(mine["legal"])},
        )
        assert r.status_code in (200, 409), r.text
        if r.status_code == 200:
            assert_hides(r.json(), seat, seed)
