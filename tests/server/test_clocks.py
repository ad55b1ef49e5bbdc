"""Clocks: when a human's time runs out the greedy bot makes the decision and the seat is marked
away until its player is back."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.helpers import seat_updates, wait_game


@pytest.mark.parametrize(
    "clock",
    # The increment is what the second time out in a row (the one that marks the seat away) waits.
    [{"kind": "live", "bank_s": 0.2, "increment_s": 5}, {"kind": "turn", "deadline_s": 0.2}],
)
def test_time_out_hands_the_decision_to_greedy_and_marks_the_seat_away(
    client: TestClient, clock: dict[str, Any]
) -> None:
    seats = [{"kind": "creator"}, {"kind": "bot", "level": "random"}]
    g = client.post("/api/games", json={"players": 2, "seats": seats, "clock": clock}).json()
    gid, tok = g["game"], g["seats"][0]["token"]
    store = client.app.state.service.store  # type: ignore[attr-defined]
    # Nobody acts for seat 0: its time runs out, the clock plays for it and the seat is away.
    after = wait_game(client, gid, lambda x: x["seats"][0]["away"], "the seat was never marked away")
    wait_game(client, gid, lambda x: any(r.by == "clock" for r in store.actions(gid)), "no clock move")
    assert after["seats"][0]["bot"] == "greedy"
    assert all(r.seat == 0 for r in store.actions(gid) if r.by == "clock")
    # The player comes back and plays again. (A turn clock of 0.2 s runs again at once: on a loaded
    # machine two more misses may mark the seat away again before the test reads it.)
    updates = seat_updates(store, 0)
    r = client.post(f"/api/games/{gid}/seats/0/take", headers={"Authorization": f"Bearer {tok}"})
    assert r.status_code == 200
    back = client.get(f"/api/games/{gid}").json()
    taken, *later = [u for u in updates if "away" in u]
    assert taken["away"] is False and taken["bot"] is None
    if not any(u["away"] for u in later):
        assert back["seats"][0]["away"] is False and back["seats"][0]["bot"] is None
    if clock["kind"] == "live":
        assert back["seats"][0]["bank_ms"] >= 5_000  # the increment came with each clock decision
        v = wait_game(
            client, gid, lambda x: x["acting_seat"] == 0 or x["status"] == "over", "seat 0 never to act"
        )
        if v["status"] != "over":
            mine = client.get(
                f"/api/games/{gid}/view?seat=0", headers={"Authorization": f"Bearer {tok}"}
            ).json()
            r = client.post(
                f"/api/games/{gid}/act",
                json={"seat": 0, "ply": mine["ply"], "action": mine["legal"][0]},
                headers={"Authorization": f"Bearer {tok}"},
            )
            assert r.status_code == 200, r.text
            assert store.actions(gid)[mine["ply"]].by == "human"


def test_only_the_decision_running_has_a_deadline_and_the_update_carries_it(client: TestClient) -> None:
    """Turn by turn: once the first player has played their turn, their deadline is gone and the
    other's is set — in the game's summary and in the socket update that says it is their turn."""
    seats = [{"kind": "creator"}, {"kind": "invite", "name": "Bob"}]
    clock = {"kind": "turn", "deadline_s": 3600}
    g = client.post("/api/games", json={"players": 2, "seats": seats, "clock": clock}).json()
    gid = g["game"]
    j = client.post(f"/api/games/{gid}/join", json={"invite": g["seats"][1]["invite"], "name": "Bob"}).json()
    tokens = {0: g["seats"][0]["token"], 1: j["token"]}
    start = client.get(f"/api/games/{gid}").json()
    a = start["acting_seat"]
    b = 1 - a
    assert start["seats"][a]["deadline"] is not None and start["seats"][b]["deadline"] is None
    auth = {"Authorization": f"Bearer {tokens[a]}"}
    with client.websocket_connect(f"/api/games/{gid}/ws?seat={b}&token={tokens[b]}&since=0") as ws:
        assert ws.receive_json()["type"] == "hello"
        while True:  # the first player plays a whole turn, always the first legal action
            mine = client.get(f"/api/games/{gid}/view?seat={a}", headers=auth).json()
            if mine["acting_seat"] != a:
                break
            act = {"seat": a, "ply": mine["ply"], "action": mine["legal"][0]}
            r = client.post(f"/api/games/{gid}/act", json=act, headers=auth)
            assert r.status_code == 200, r.text
        while True:
            msg = ws.receive_json()
            if msg["type"] == "update" and msg["legal"]:
                break
    assert msg["seats"][b]["deadline"] is not None and msg["seats"][a]["deadline"] is None
    now = client.get(f"/api/games/{gid}").json()
    assert now["seats"][b]["deadline"] > time.time() + 3000 and now["seats"][a]["deadline"] is None
