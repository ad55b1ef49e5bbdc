"""A seat handed to a bot and taken back: a bot move still under way when the player takes the
seat back is dropped, and the player decides (the server issue: "a seat can be handed to a bot
and taken back")."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from server.helpers import wait_until
from smallworld.server.app import create_app


def test_a_bot_move_under_way_when_the_seat_is_taken_back_is_dropped(db_url: str) -> None:
    # The bot waits 0.5 s before it asks its worker: the seat is taken back within that time.
    with TestClient(create_app(db_url, rate=0, socket_rate=0, bot_delay=0.5)) as client:
        svc: Any = client.app.state.service  # type: ignore[attr-defined]
        seats = [{"kind": "creator"}, {"kind": "invite", "name": "Bob"}]
        g = client.post("/api/games", json={"players": 2, "seats": seats}).json()
        gid = g["game"]
        j = client.post(f"/api/games/{gid}/join", json={"invite": g["seats"][1]["invite"], "name": "Bob"})
        tokens = {0: g["seats"][0]["token"], 1: j.json()["token"]}
        start = client.get(f"/api/games/{gid}").json()
        a, ply = start["acting_seat"], start["ply"]
        auth = {"Authorization": f"Bearer {tokens[a]}"}
        assert (
            client.post(f"/api/games/{gid}/seats/{a}/bot", json={"level": "random"}, headers=auth).status_code
            == 200
        )
        assert client.post(f"/api/games/{gid}/seats/{a}/take", headers=auth).status_code == 200
        assert svc.deciding.get(gid) == ply, "the bot's decision was no longer under way"
        # The bot's decision ends (its answer, if any, has come): then nothing of it may be stored.
        wait_until("the bot's decision never ended", lambda: svc.deciding.get(gid) != ply, 60)
        store = svc.store
        assert [r for r in store.actions(gid) if r.by != "human"] == []
        now = client.get(f"/api/games/{gid}").json()
        assert now["ply"] == ply and now["seats"][a]["bot"] is None
        # The player decides, as the one to act.
        mine = client.get(f"/api/games/{gid}/view?seat={a}", headers=auth).json()
        act = {"seat": a, "ply": ply, "action": mine["legal"][0]}
        assert client.post(f"/api/games/{gid}/act", json=act, headers=auth).status_code == 200
