"""A bot that fails never stalls its game: when the worker process is killed, the bot raises or
answers an action the engine refuses, the greedy bot stands in for that decision (in the server's
process), a broken pool is restarted, and the game goes on to its end."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.helpers import replayed, wait_game
from smallworld.server.app import create_app
from smallworld.server.bots import BotPool

BOTS = [{"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "greedy"}]


@pytest.fixture
def slow_bots(db_url: str) -> Iterator[TestClient]:
    # A short pause before each bot decision, so that a test can act in the middle of the game.
    with TestClient(create_app(db_url, rate=0, socket_rate=0, bot_delay=0.02)) as c:
        yield c


def _failures(svc: Any) -> float:
    return svc.metrics.registry.get_sample_value("smallworld_bot_failures_total") or 0.0


def _finished_as_stored(svc: Any, gid: str) -> None:
    live = svc.live[gid]
    assert live.state.result is not None
    assert replayed(svc.store, gid).result == live.state.result  # every move is in the store
    assert svc.store.game(gid)["status"] == "over"


def test_a_killed_bot_worker_is_replaced_and_the_game_goes_on(slow_bots: TestClient) -> None:
    svc: Any = slow_bots.app.state.service  # type: ignore[attr-defined]
    gid = slow_bots.post("/api/games", json={"players": 2, "seats": BOTS}).json()["game"]
    wait_game(slow_bots, gid, lambda g: g["ply"] >= 3)
    killed = svc.bots.pids()
    assert killed, "the bots play in a worker process"
    for pid in killed:
        os.kill(pid, signal.SIGKILL)
    g = wait_game(slow_bots, gid, lambda g: g["status"] == "over")
    assert g["result"] is not None
    assert _failures(svc) >= 1  # the decision the dead worker could not make was the stand-in's
    _finished_as_stored(svc, gid)
    # The broken pool was replaced by a new one, whose workers made the later decisions.
    assert svc.bots.pids() and not set(svc.bots.pids()) & set(killed)


class _Failing(BotPool):
    """A pool whose bot raises, or answers an action that is no action of the game."""

    def __init__(self, mode: str) -> None:
        super().__init__(1)
        self.mode = mode
        self.asked = 0

    async def choose(self, *args: Any, **kwargs: Any) -> tuple[dict[str, Any], float]:
        self.asked += 1
        if self.mode == "raises":
            raise RuntimeError("a bug in the bot")
        return {"kind": "no such action"}, 0.0


@pytest.mark.parametrize("mode", ["raises", "illegal"])
def test_a_failing_bot_is_stood_in_for_at_every_decision(client: TestClient, mode: str) -> None:
    svc: Any = client.app.state.service  # type: ignore[attr-defined]
    svc.bots = _Failing(mode)
    gid = client.post("/api/games", json={"players": 2, "seats": BOTS}).json()["game"]
    g = wait_game(client, gid, lambda g: g["status"] == "over")
    assert g["result"] is not None
    _finished_as_stored(svc, gid)
    # Every decision was asked of the bot, failed, and was made by the stand-in instead.
    assert svc.bots.asked == g["ply"] == _failures(svc)
    assert {m["by"] for m in client.get(f"/api/games/{gid}/moves").json()["moves"]} == {"bot"}


def test_a_stand_in_answering_an_unlisted_action_plays_the_first_legal_one(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Should the stand-in itself answer an action that the ply's list does not hold (a bot bug:
    greedy once sent risen Ghouls' tokens onto the Dwarves' region, and a server game waited on it
    for good), the first legal action is played: the game still reaches its end."""
    from smallworld.server import service

    svc: Any = client.app.state.service  # type: ignore[attr-defined]
    svc.bots = _Failing("illegal")
    asked: list[int] = []

    def unlisted(*args: Any) -> tuple[dict[str, Any], float]:
        asked.append(1)
        legal = args[5]  # choose_here(game_id, settings, seat, level, view, legal, seed)
        # A well-formed action of the game that this decision does not list (none lists all three).
        wrong = ({"kind": "end"}, {"kind": "decline"}, {"kind": "expand"})
        return next(a for a in wrong if a not in legal), 0.0

    monkeypatch.setattr(service, "choose_here", unlisted)
    gid = client.post("/api/games", json={"players": 2, "seats": BOTS}).json()["game"]
    g = wait_game(client, gid, lambda g: g["status"] == "over")
    _finished_as_stored(svc, gid)
    assert len(asked) == g["ply"] == svc.bots.asked
