"""The cache of live games: finished games beyond a bound are dropped and rebuilt on demand."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient


def test_finished_games_beyond_the_bound_leave_the_cache_and_come_back_by_replay(
    client: TestClient,
) -> None:
    svc: Any = client.app.state.service  # type: ignore[attr-defined]
    svc.max_finished = 1
    seats = [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    games = [client.post("/api/games", json={"players": 2, "seats": seats}).json()["game"] for _ in range(3)]
    deadline = time.monotonic() + 120
    while not all(client.get(f"/api/games/{g}").json()["status"] == "over" for g in games):
        assert time.monotonic() < deadline, "the bot games did not finish"
        time.sleep(0.05)
    finished = [g for g, live in svc.live.items() if live.status == "over"]
    assert len(finished) <= 2  # the bound, plus the game being asked for or just finished
    dropped = [g for g in games if g not in svc.live]
    assert dropped, "no finished game left the cache"
    stored = svc.store.game(dropped[0])["result"]  # what the store recorded at the end
    again = client.get(f"/api/games/{dropped[0]}").json()  # rebuilt from the store's log
    assert again["status"] == "over" and dropped[0] in svc.live
    rebuilt = svc.live[dropped[0]].state.result
    assert rebuilt["scores"] == stored["scores"] and rebuilt["winners"] == stored["winners"]
    assert client.get(f"/api/games/{dropped[0]}/replay").json()["result"] == rebuilt
