"""The server's undo points are worked out one decision at a time (server/undo.py `_Runs`: the run of
decisions under way is kept per game and extended by each new move, and the live state held as it
is) and must be the ones a replay from scratch gives (engine/api/undo.py `undo_report`), ply after
ply, through undos (which cut the log and rebuild the state) and turns of both seats. The rules
behind them are warcraft-rules.md §6.10 (die), §10.1 and §6.3 (reveals and draws), §6.1 (a new
turn) and §6.9/§6.12 (another seat's decision); tests/test_undo.py checks those."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from smallworld.engine.api.undo import undo_report
from smallworld.server import undo
from smallworld.server.positions import first_state
from smallworld.server.service import Live


def _expected(live: Live) -> list[dict[str, Any]]:
    """The seat to act's undo points from a replay of the whole log (what the server answered before
    it kept the run)."""
    st = live.state
    seat = st.acting_seat
    if undo.not_offered(live, seat) is not None:
        return []
    k = undo.run_start(live, seat)
    if k == len(live.moves):
        return []
    start = first_state(live.game, live.meta)
    for m in live.moves[:k]:
        start.apply(m.action, seat=m.seat)
    report = undo_report(start, [m.action for m in live.moves[k:]])
    return [{"ply": p.ply, "action": p.action} for p in report.points]


def test_the_kept_run_gives_the_points_a_replay_gives_through_moves_and_undos(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    r = client.post(
        "/api/games",
        json={
            "players": 2,
            "name": "Runa",
            "seats": [{"kind": "creator"}, {"kind": "creator", "name": "Rolf"}],
        },
    )
    assert r.status_code == 200, r.text
    g = r.json()
    gid, tokens = g["game"], {s["seat"]: s["token"] for s in g["seats"]}
    svc = client.app.state.service  # type: ignore[attr-defined]
    replayed: list[int] = []  # the plies a run's start was replayed to (not kept)
    replay = undo.STARTS._replayed

    def counted(live: Live, ply: int) -> Any:
        replayed.append(ply)
        return replay(live, ply)

    monkeypatch.setattr(undo.STARTS, "_replayed", counted)
    rng = random.Random(7)
    undone = offered = 0
    for _ in range(160):
        live = svc.live[gid]
        if live.status != "playing":
            break
        seat = live.state.acting_seat
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        v = client.get(f"/api/games/{gid}/view", headers=auth).json()
        assert v["undo_points"] == _expected(svc.live[gid]), v["ply"]
        offered += bool(v["undo_points"])
        if v["undo_points"] and rng.random() < 0.3:
            to = rng.choice(v["undo_points"])["ply"]
            r = client.post(f"/api/games/{gid}/undo", json={"seat": seat, "to_ply": to}, headers=auth)
            assert r.status_code == 200, r.text
            assert r.json()["undo_points"] == _expected(svc.live[gid])
            undone += 1
            continue
        action = v["legal"][rng.randrange(len(v["legal"]))]
        r = client.post(
            f"/api/games/{gid}/act", json={"seat": seat, "ply": v["ply"], "action": action}, headers=auth
        )
        assert r.status_code == 200, r.text
    assert offered > 10 and undone > 3  # the comparison covered points offered and undos taken
    # Every run began at a state the server held (the live state of its first ply, a defender's
    # decision in another's turn included), so none was replayed from the start, undos or not.
    assert replayed == []
