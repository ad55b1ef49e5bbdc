"""`smallworld bench service`: the game server's own work per action, without the network.

`bench server` measures what an action costs the whole server process: the game service (checking,
storing, each seat's view and message) and the web stack around it (the WebSocket frames, the event
loop's wake-ups, the kernel's loopback writes). This drives the same `Service` in this process, with
no HTTP, no socket and no client beside it: each seat's socket is a queue, and every action is the
seat to act's, picked at random from the legal actions the service lists, sent through
`Service.act` as the socket's handler sends it (stored in SQLite, acknowledged after the commit,
each seat's update made and queued). The figure is the service's CPU per acknowledged action, and
the engine's CPU per decision measured in the same process in short slices between blocks of
actions (so both see the same machine), and their ratio: what the server's own Python costs,
apart from what any web server would cost around it (docs/server.md, "Speed").
"""

from __future__ import annotations

import asyncio
import gc
import random
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from smallworld.compiled import running
from smallworld.engine.model.keyed_rng import KEYED
from smallworld.engine.model.settings import make_settings
from smallworld.measure.engine import random_game

BLOCK = 100  # actions between two slices of engine decisions
SLICE = 0.01  # CPU seconds of engine decisions per slice


class _Table:
    """One game and its seats' sockets (queues), replaced by a new game when it ends."""

    def __init__(self, gid: str, tokens: dict[int, str], queues: list[asyncio.Queue[Any]]) -> None:
        self.gid = gid
        self.tokens = tokens
        self.queues = queues

    def drain(self) -> int:
        """Empty the seats' queues (what their sockets would send): how many updates they held."""
        n = 0
        for q in self.queues:
            while not q.empty():
                q.get_nowait()
                n += 1
        return n


def _decisions(players: int, seed: int) -> Iterator[None]:
    """Random games of the server's settings (its keyed generator), a step per decision."""
    g = seed
    while True:
        yield from random_game(make_settings(players, g, "standard", {"rng": KEYED}))
        g += 1


async def _bench(games: int, actions: int, players: int, seed: int, db: str) -> dict[str, Any]:
    from smallworld.server.app import tune_process
    from smallworld.server.models import CreateGame
    from smallworld.server.service import Service
    from smallworld.server.store import Store

    svc = Service(Store(db))
    await svc.start()
    body = CreateGame.model_validate({"players": players, "seats": [{"kind": "creator"}] * players})

    async def table() -> _Table:
        made = await svc.create(body, None)
        live = await svc.get(made["game"])
        queues: list[asyncio.Queue[Any]] = []
        for s in range(players):
            q: asyncio.Queue[Any] = asyncio.Queue()
            svc.subscribe(live, s, q)
            queues.append(q)
        return _Table(made["game"], {s["seat"]: s["token"] for s in made["seats"]}, queues)

    rng = random.Random(seed)
    engine = _decisions(players, seed)
    next(engine)  # the edition's modules loaded before any slice
    tables = [await table() for _ in range(games)]
    ended = updates = 0
    service_cpu = engine_cpu = 0.0
    decisions = 0
    done = 0
    tune_process()  # the server's collector and switch interval (server/app.py)
    try:
        k = 0
        while done < actions:
            i = k % games
            k += 1
            t = tables[i]
            live = await svc.get(t.gid)
            updates += t.drain()
            if live.status == "over":
                ended += 1
                tables[i] = await table()
                continue
            st = live.state
            seat = st.acting_seat
            legal = svc.legal(live)
            action = legal[rng.randrange(len(legal))]
            c0 = time.process_time()
            await svc.act(t.gid, seat, t.tokens[seat], st.ply, action)
            service_cpu += time.process_time() - c0
            done += 1
            if done % BLOCK == 0 or done == actions:
                c0 = time.process_time()
                while time.process_time() - c0 < SLICE:
                    next(engine)
                    decisions += 1
                engine_cpu += time.process_time() - c0
        for t in tables:
            updates += t.drain()
    finally:
        await svc.close()
    per_action = service_cpu * 1000 / done
    per_decision = engine_cpu * 1000 / decisions if decisions else None
    return {
        "games": games,
        "players": players,
        "actions": done,
        "games_ended": ended,
        "updates": updates,
        "service_cpu_ms_per_action": round(per_action, 4),
        "engine_cpu_ms_per_decision": round(per_decision, 4) if per_decision else None,
        "engine_decisions": decisions,
        "service_decisions_per_action": round(per_action / per_decision, 1) if per_decision else None,
        "build": running(),
    }


def bench_service(games: int = 200, actions: int = 20000, players: int = 3, seed: int = 0) -> dict[str, Any]:
    """The service's CPU per action over `actions` actions spread round the `games` games (module
    docstring), on a SQLite store in a temporary folder. `updates`: the seats' messages queued (each
    seat gets one per action: `players` times `actions`, counted to the last)."""
    with tempfile.TemporaryDirectory(prefix="sw-bench-service-") as tmp:
        db = f"sqlite:///{Path(tmp) / 'bench.db'}"
        interval = sys.getswitchinterval()
        thresholds = gc.get_threshold()
        try:
            return asyncio.run(_bench(games, actions, players, seed, db))
        finally:  # the caller's process as it was before `tune_process`
            gc.unfreeze()
            sys.setswitchinterval(interval)
            gc.set_threshold(*thresholds)
