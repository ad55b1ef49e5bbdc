#!/usr/bin/env python3
"""A chaos run of the game server: several `smallworld serve` processes on one PostgreSQL and one
Redis play many games while Redis is killed, PostgreSQL is stopped and server processes are
SIGKILLed, again and again. At the end every game must be over (none stalled) and every action a
client was told was taken must be in the store (none lost).

    python tools/chaos.py --games 100 --rounds 10 --json      # the run quoted in docs/server.md

Games are of two kinds: every seat a bot (bots wait `--bot-delay` seconds a decision, so games
last through the faults), or two or three human seats played by clients here, each on the socket of
a random live process, which go to another process when theirs dies and resend their move when the
answer was lost. Faults come one at a time, in a shuffled order: `--rounds` of each kind.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from server.helpers import ServerProcess, Services  # noqa: E402

from smallworld.server.store import Store  # noqa: E402


@dataclass
class Run:
    procs: list[ServerProcess]
    db: str
    redis: str
    log_dir: Path
    extra: tuple[str, ...]
    acked: list[tuple[str, int, Any]] = field(default_factory=list)
    client_errors: dict[str, int] = field(default_factory=dict)
    faults: list[dict[str, Any]] = field(default_factory=list)
    restarts: int = 0
    clients: set[asyncio.Task[None]] = field(default_factory=set)

    def alive(self) -> list[ServerProcess]:
        return [p for p in self.procs if p.proc.poll() is None]

    def restart(self, i: int) -> None:
        self.procs[i] = ServerProcess(
            self.db, self.redis, self.log_dir / f"p{i}-{self.restarts}.log", extra=self.extra
        )
        self.restarts += 1


async def _post(run: Run, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST to some live process, trying again (another one, later) until it is answered 200."""
    while True:
        alive = run.alive()
        if alive:
            try:
                async with httpx.AsyncClient(timeout=30) as http:
                    r = await http.post(random.choice(alive).url + path, json=body)
                if r.status_code == 200:
                    return dict(r.json())
            except httpx.HTTPError:
                pass
        await asyncio.sleep(0.5)


async def _seat(run: Run, gid: str, seat: int, token: str, rng: random.Random) -> None:
    """One human seat: plays until its game is over, whatever happens to the processes."""
    chosen: dict[int, Any] = {}  # a ply's move, resent as it was when the answer was lost
    since = 0
    while True:
        alive = run.alive()
        if not alive:
            await asyncio.sleep(0.5)
            continue
        base = random.choice(alive).ws
        url = f"{base}/api/games/{gid}/ws?seat={seat}&token={token}&since={since}"
        try:
            async with connect(url, max_size=2**24, open_timeout=10, close_timeout=2) as ws:
                async for raw in ws:
                    msg = orjson.loads(raw)
                    kind = msg["type"]
                    if kind == "error":
                        code = msg["error"]["code"]
                        run.client_errors[code] = run.client_errors.get(code, 0) + 1
                        if code == "unavailable" and msg.get("ref") in chosen:
                            await asyncio.sleep(1.0)  # the store is out: the same move, later
                            ply = msg["ref"]
                            await ws.send(
                                json.dumps({"type": "act", "ply": ply, "action": chosen[ply], "ref": ply})
                            )
                        continue
                    if kind == "ack":
                        run.acked.append((gid, msg["move"]["ply"], msg["move"]["action"]))
                        continue
                    if kind not in ("hello", "update"):
                        continue
                    for m in msg["moves"]:
                        since = max(since, m["ply"] + 1)
                    if msg["status"] == "over":
                        return
                    if msg["legal"]:
                        ply = msg["ply"]
                        if ply not in chosen:
                            await asyncio.sleep(rng.uniform(0.1, 0.8))
                            chosen[ply] = rng.choice(msg["legal"])
                        await ws.send(
                            json.dumps({"type": "act", "ply": ply, "action": chosen[ply], "ref": ply})
                        )
        except (OSError, TimeoutError, WebSocketException):
            pass
        await asyncio.sleep(0.3)


async def _game(run: Run, rng: random.Random, humans: bool) -> str:
    players = rng.choice((2, 3))
    if humans:
        seats = [{"kind": "creator"}] * players
    else:
        seats = [{"kind": "bot", "level": rng.choice(("greedy", "random"))} for _ in range(players)]
    g = await _post(run, "/api/games", {"players": players, "seats": seats})
    if humans:
        token = g["player_token"]  # the creator holds every seat (hot seat): one token opens each
        for seat in range(players):
            task = asyncio.ensure_future(_seat(run, g["game"], seat, token, random.Random(rng.random())))
            run.clients.add(task)
            task.add_done_callback(run.clients.discard)
    return str(g["game"])


async def _faults(run: Run, services: Services, rounds: int, rng: random.Random) -> None:
    kinds = ["redis", "postgresql", "process"] * rounds
    rng.shuffle(kinds)
    for kind in kinds:
        await asyncio.sleep(rng.uniform(2.0, 5.0))
        down = rng.uniform(2.0, 10.0)
        t0 = time.time()
        if kind == "redis":
            await asyncio.to_thread(services.redis_stop)
            await asyncio.sleep(down)
            await asyncio.to_thread(services.redis_start)
        elif kind == "postgresql":
            await asyncio.to_thread(services.pg_stop)
            await asyncio.sleep(down)
            await asyncio.to_thread(services.pg_start)
        else:
            i = rng.randrange(len(run.procs))
            await asyncio.to_thread(run.procs[i].kill)
            await asyncio.sleep(min(down, 3.0))
            await asyncio.to_thread(run.restart, i)
        run.faults.append({"kind": kind, "down_s": round(time.time() - t0, 1)})
        print(
            f"chaos: {len(run.faults)}/{len(kinds)} {kind} down {run.faults[-1]['down_s']} s", file=sys.stderr
        )


async def _main(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    services = Services()
    log_dir = Path(tempfile.mkdtemp(prefix="sw-chaos-logs-"))
    db = services.pg
    extra = (
        "--bot-delay", str(args.bot_delay), "--bot-games-per-player", "0", "--bot-games-per-address", "0",
        "--log-level", "warning",
    )  # fmt: skip
    procs = [
        ServerProcess(db, services.redis, log_dir / f"p{i}.log", extra=extra) for i in range(args.processes)
    ]
    run = Run(procs, db, services.redis, log_dir, extra)
    t0 = time.time()
    try:
        games: list[str] = []
        faults = asyncio.ensure_future(_faults(run, services, args.rounds, rng))
        for i in range(args.games):
            games.append(await _game(run, rng, humans=i % 5 < 2))  # two in five with human seats
            await asyncio.sleep(args.spread / args.games)
        await faults
        print("chaos: faults over; waiting for every game to end", file=sys.stderr)
        store = Store(db)
        deadline = time.time() + args.wait
        left = list(games)
        while left and time.time() < deadline:
            status = await asyncio.to_thread(store.plies, left)
            left = [g for g in left if status.get(g, (0, ""))[1] != "over"]
            await asyncio.sleep(1.0)
        stalled = {g: store.plies([g])[g][0] for g in left}
        lost = []
        for gid, ply, action in run.acked:
            rows = {r.ply: r.action for r in store.actions(gid, ply)}
            if rows.get(ply) != action:
                lost.append((gid, ply))
        stored = sum(store.plies(games)[g][0] for g in games)
        store.close()
        return {
            "games": len(games),
            "processes": args.processes,
            "faults": len(run.faults),
            "fault_kinds": {
                k: sum(f["kind"] == k for f in run.faults) for k in ("redis", "postgresql", "process")
            },
            "acknowledged_actions": len(run.acked),
            "stored_actions": stored,
            "lost": len(lost),
            "stalled": len(stalled),
            "stalled_games": stalled,
            "client_errors": run.client_errors,
            "seconds": round(time.time() - t0, 1),
            "logs": str(log_dir),
        }
    finally:
        for p in run.procs:
            if p.proc.poll() is None:
                p.stop()
        services.close()
        if not args.keep_logs:
            shutil.rmtree(log_dir, ignore_errors=True)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=100)
    p.add_argument(
        "--rounds", type=int, default=10, help="faults of each kind (Redis, PostgreSQL, a process)"
    )
    p.add_argument("--processes", type=int, default=3)
    p.add_argument("--bot-delay", type=float, default=1.0, help="seconds a bot waits a decision")
    p.add_argument("--spread", type=float, default=60.0, help="seconds over which the games are started")
    p.add_argument("--wait", type=float, default=600.0, help="seconds the games get to end after the faults")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--keep-logs", action="store_true")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    out = asyncio.run(_main(args))
    print(json.dumps(out, indent=None if args.json else 2))
    return 0 if out["lost"] == 0 and out["stalled"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
