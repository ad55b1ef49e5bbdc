"""`smallworld bench server`: a load test of the game server over real sockets.

G games are played at once for S seconds; every seat is its own WebSocket client that waits a
think time (exponential, mean T ms) and then sends a random legal action. A finished game is
replaced by a new one, so G stay live. Latency is measured from an action's send until every seat
of its game has received the update; `lost` counts acknowledged actions missing from the store.

`ratings="on"` plays rated games instead (issue 29): every simulated player is an account, signed up
before the clock starts; the first of a game's players creates it (`"rated": true`, the others'
seats invitations), the others join with their sessions, and every seat plays over a socket opened
with its account's session cookie (as a quick game's players do, with no seat token), so each game's
end rates its players. `ratings="both"` measures the two one after the other on one server, in
alternating halves (off, on, off, on), so that the machine's noise falls on both
(`smallworld/measure/rated.py`); there the off halves play the same games through the same accounts
unrated and with no take-backs (`"undo": false`), so that the two differ by the rating alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import connect

from smallworld.measure.engine import EngineSampler
from smallworld.measure.rated import Account, rating_counts, sign_up


@dataclass
class Stats:
    sent: dict[tuple[str, int], float] = field(default_factory=dict)
    seen: dict[tuple[str, int], int] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    acked: list[tuple[str, int, dict[str, Any]]] = field(default_factory=list)
    errors: int = 0
    error_codes: dict[str, int] = field(default_factory=dict)
    games: set[str] = field(default_factory=set)
    ended: set[str] = field(default_factory=set)  # games whose end a seat saw


@dataclass
class Window:
    """A measured window: it closes at `stop_at`, or, with `min_ended`, once that many games have also
    ended in it (so that a loaded machine still gives each window finished games to count)."""

    stats: Stats
    stop_at: float
    min_ended: int = 0
    started: float = field(default_factory=time.perf_counter)
    closed: float | None = None
    ended0: int = field(init=False, default=0)
    # The seats' deadlines, brought forward when the window closes (`over`).
    seats: set[asyncio.Timeout] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.ended0 = len(self.stats.ended)

    def over(self) -> bool:
        if self.closed is None:
            now = time.perf_counter()
            if now >= self.stop_at and len(self.stats.ended) - self.ended0 >= self.min_ended:
                self.closed = now
                # The seats that still wait (for an update of an action in flight) get 5 s more, 1 s
                # when the window ran late: its games then have ended, or wait on a seat that stopped.
                later = asyncio.get_running_loop().time() + (1 if self.min_ended else 5) if self.seats else 0
                for seat in self.seats:
                    seat.reschedule(min(seat.when() or later, later))
        return self.closed is not None

    def grace(self) -> float:
        """How long a seat may wait for a message: to the planned end and 5 s more, or, while the
        window waits for games to end, for as long as a slow machine may take to finish one."""
        return self.stop_at - time.perf_counter() + (300 if self.min_ended else 5)

    def seconds(self) -> float:
        return (self.closed if self.closed is not None else time.perf_counter()) - self.started


def _error(stats: Stats, code: str) -> None:
    stats.errors += 1
    stats.error_codes[code] = stats.error_codes.get(code, 0) + 1


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LocalServer:
    """`smallworld serve` on loopback in a child process, for the length of the benchmark."""

    def __init__(self, db: str) -> None:
        port = _free_port()
        self.url = f"http://127.0.0.1:{port}"
        args = [
            sys.executable,
            "-m",
            "smallworld.cli",
            "serve",
            "--port",
            str(port),
            "--db",
            db,
            "--rate",
            "0",
            "--token-rate",
            "0",
            "--sockets-per-address",  # every seat's socket comes from this one address
            "0",
        ]
        args += ["--log-level", "warning"]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/healthz", timeout=2).status_code == 200:
                    return
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the server did not start")
            time.sleep(0.1)

    def cpu_seconds(self) -> float | None:
        """The server process's CPU time so far (Linux /proc; None elsewhere)."""
        split = self.cpu_split()
        return None if split is None else split[0] + split[1]

    def cpu_split(self) -> tuple[float, float] | None:
        """The server process's CPU time so far, (user, system) (Linux /proc; None elsewhere)."""
        import os

        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        tick = os.sysconf("SC_CLK_TCK")
        return int(fields[11]) / tick, int(fields[12]) / tick

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


async def _seat(
    url: str,
    gid: str,
    seat: int,
    who: str | Account,
    players: int,
    think: float,
    window: Window,
    stats: Stats,
    rng: random.Random,
) -> bool:
    """One seat's client, opened with the seat's token or with an account's session cookie; True
    when its game ended (the caller starts another)."""
    ws_url = url.replace("http://", "ws://", 1) + f"/api/games/{gid}/ws?seat={seat}"
    headers: dict[str, str] = {}
    if isinstance(who, Account):
        headers["Cookie"] = who.cookie
    else:
        ws_url += f"&token={who}"
    # A generous opening timeout: hundreds of sockets open at once on a busy machine.
    async with connect(
        ws_url, max_size=2**24, compression=None, open_timeout=120, additional_headers=headers
    ) as ws:
        # One deadline for the whole seat (past the window's end), not a timer for every message.
        deadline = asyncio.get_running_loop().time() + window.grace()
        try:
            async with asyncio.timeout_at(deadline) as timeout:
                window.seats.add(timeout)
                try:
                    return await _play(ws, gid, players, think, window, stats, rng)
                finally:
                    window.seats.discard(timeout)
        except TimeoutError:
            return False


async def _play(
    ws: Any,
    gid: str,
    players: int,
    think: float,
    window: Window,
    stats: Stats,
    rng: random.Random,
) -> bool:
    """Read the seat's messages until the game ends (True) or the time is up (False); act on each
    view that offers legal actions: wait the think time, then send one of them at random."""
    acted: set[int] = set()
    while True:
        if window.over():
            return False
        raw = await ws.recv()
        now = time.perf_counter()
        msg = orjson.loads(raw)  # the client shares the cores: the fast reader
        kind = msg.get("type")
        if kind == "error":
            _error(stats, msg["error"]["code"])
            continue
        if kind == "ack":
            stats.acked.append((gid, msg["move"]["ply"], msg["move"]["action"]))
            continue
        for m in msg.get("moves", []):
            key = (gid, m["ply"])
            n = stats.seen[key] = stats.seen.get(key, 0) + 1
            if n == players and key in stats.sent:
                stats.latencies.append(now - stats.sent.pop(key))
        if msg.get("status") == "over":
            stats.ended.add(gid)
            return True
        legal = msg.get("legal")
        ply = msg["ply"]
        if legal and ply not in acted and not window.over():
            acted.add(ply)
            if think > 0:
                await asyncio.sleep(rng.expovariate(1 / think))
            action = legal[rng.randrange(len(legal))]
            stats.sent[(gid, ply)] = time.perf_counter()
            await ws.send(json.dumps({"type": "act", "ply": ply, "action": action}))


async def _new_game(
    http: httpx.AsyncClient,
    url: str,
    players: int,
    accounts: list[Account] | None,
    stats: Stats,
    rated: bool = True,
) -> tuple[str, list[tuple[int, str | Account]]] | None:
    """A new game and who plays each seat: its hot-seat tokens (casual), or `accounts` (the first
    creates it, the others join with their invitations): a rated game, or with `rated` false the same
    game casual with no take-backs (so that the two differ by the rating alone). None: refused
    (counted)."""
    try:
        if accounts is None:
            body = {"players": players, "seats": [{"kind": "creator"}] * players}
            r = await http.post(url + "/api/games", json=body)
        else:
            seats = [{"kind": "creator"}] + [{"kind": "invite"}] * (players - 1)
            body = {"players": players, "seats": seats, "rated": True} if rated else {
                "players": players, "seats": seats, "rated": False, "undo": False
            }  # fmt: skip
            r = await http.post(url + "/api/games", json=body, headers=accounts[0].headers)
        if r.status_code != 200:
            _error(stats, f"http {r.status_code}")
            return None
        g = r.json()
        gid = str(g["game"])
        stats.games.add(gid)
        if accounts is None:
            return gid, [(s["seat"], s["token"]) for s in g["seats"]]
        mine = next(s["seat"] for s in g["seats"] if s.get("token"))
        who: list[tuple[int, str | Account]] = [(mine, accounts[0])]
        codes = [s["invite"] for s in g["seats"] if s.get("invite")]
        for account, code in zip(accounts[1:], codes, strict=True):
            j = await http.post(f"{url}/api/games/{gid}/join", json={"invite": code}, headers=account.headers)
            if j.status_code != 200:
                _error(stats, f"join http {j.status_code}")
                return None
            who.append((j.json()["seat"], account))
        return gid, who
    except httpx.TransportError as e:  # e.g. a kept-alive connection the server just closed
        _error(stats, type(e).__name__)
        return None


async def _game_loop(
    http: httpx.AsyncClient,
    url: str,
    players: int,
    think: float,
    window: Window,
    stats: Stats,
    rng: random.Random,
    accounts: list[Account] | None = None,
    rated: bool = True,
) -> None:
    """Keep one game going until the window closes: a finished game is replaced by a new one."""
    while not window.over():
        made = await _new_game(http, url, players, accounts, stats, rated)
        if made is None:
            await asyncio.sleep(0.5)
            continue
        gid, seats = made
        tasks = [
            _seat(url, gid, seat, who, players, think, window, stats, random.Random(rng.random()))
            for seat, who in seats
        ]
        results = await asyncio.gather(*tasks, return_exceptions=True)
        for res in results:
            if isinstance(res, BaseException):
                _error(stats, type(res).__name__)
        if not any(res is True for res in results):
            return


def _percentile(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


async def _run(
    url: str,
    games: int,
    think_ms: float,
    seconds: float,
    players: int,
    seed: int,
    accounts: list[list[Account]] | None = None,
    stats: Stats | None = None,
    rated: bool = True,
    min_ended: int = 0,
) -> float:
    """G game loops for `seconds` (rated ones when `accounts`, a table of players for each loop) and,
    with `min_ended`, until that many games have ended, adding to `stats`; the window's length."""
    stats = stats if stats is not None else Stats()
    rng = random.Random(seed)
    # No kept-alive connections: reusing one the server is closing fails now and then.
    limits = httpx.Limits(max_connections=50, max_keepalive_connections=0)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        window = Window(stats, time.perf_counter() + seconds, min_ended)
        loops = [
            _game_loop(
                http,
                url,
                players,
                think_ms / 1000,
                window,
                stats,
                random.Random(rng.random()),
                accounts[i] if accounts is not None else None,
                rated,
            )
            for i in range(games)
        ]
        await asyncio.gather(*loops)
    return window.seconds()


def _lost(stats: Stats, db: str | None, url: str) -> int:
    """Acknowledged actions that are not in the store (read from the database when it is known)."""
    stored: dict[tuple[str, int], Any] = {}
    if db is not None:
        from smallworld.server.store import Store

        store = Store(db)
        for gid in stats.games:
            for row in store.actions(gid):
                stored[(gid, row.ply)] = row.action
        store.close()
    else:
        with httpx.Client(timeout=60) as http:
            for gid in stats.games:
                for m in http.get(f"{url}/api/games/{gid}/moves").json()["moves"]:
                    stored[(gid, m["ply"])] = m["action"]
    return sum(1 for gid, ply, action in stats.acked if stored.get((gid, ply)) != action)


RATINGS = ("off", "on", "both")
POOL = "warcraft/standard/turn"  # the pool of the rated games played here (default edition, variant, pace)


@dataclass
class Phase:
    """One mode's measurement, summed over its halves."""

    stats: Stats = field(default_factory=Stats)
    seconds: float = 0.0
    cpu: float | None = 0.0
    system: float = 0.0  # the part of `cpu` spent in the kernel


def _plan(ratings: str, seconds: float) -> list[tuple[str, float]]:
    """The measured windows in order: one mode for `seconds`, or both for `seconds` each, in halves
    that alternate (off, on, off, on)."""
    if ratings not in RATINGS:
        raise ValueError(f"ratings: one of {', '.join(RATINGS)}, got {ratings!r}")
    if ratings != "both":
        return [(ratings, seconds)]
    return [("off", seconds / 2), ("on", seconds / 2)] * 2


def bench_server(
    games: int,
    think_ms: float = 500,
    seconds: float = 60,
    db: str | None = None,
    url: str | None = None,
    players: int = 3,
    seed: int = 0,
    engine_share: float = 0.1,
    ratings: str = "off",
    min_ended: int = 0,
) -> dict[str, Any]:
    """The load test (module docstring). With a server started here, its CPU per acknowledged action
    and, measured through the same load by an `EngineSampler` (`engine_share` of one core), the
    engine's CPU per decision: their ratio is what an action costs the server in engine decisions.

    `ratings`: `off` (casual games), `on` (rated games of accounts) or `both` (each for `seconds`,
    alternating halves; the answer's `ratings` holds each mode's figures and the ratio of their
    actions per second, on over off). `min_ended`: each window lasts past its planned length until
    that many games have ended in it (the figures are then over the windows' real lengths)."""
    plan = _plan(ratings, seconds)
    tmp = None
    server = None
    if url is None:
        if db is None:
            tmp = tempfile.TemporaryDirectory(prefix="sw-bench-")
            db = f"sqlite:///{Path(tmp.name) / 'bench.db'}"
        server = LocalServer(db)
        url = server.url
    phases = {mode: Phase() for mode, _ in plan}
    rated: dict[str, int] = {}
    sampler: EngineSampler | None = None
    decisions, engine_cpu = 0, 0.0
    try:
        # Setup, not timed: the accounts of the rated games, one per simulated player.
        accounts = asyncio.run(sign_up(url, games, players)) if "on" in phases else None
        # The client's own collector, as the server's (`app.tune_collector`): no full pass walking
        # every socket's state in the middle of the measurement.
        gc.collect()
        gc.freeze()
        gc.set_threshold(700, 10, 100)
        if server is not None and server.cpu_seconds() is not None:
            sampler = EngineSampler(players, engine_share, seed)
        t0 = time.perf_counter()
        for i, (mode, length) in enumerate(plan):
            phase = phases[mode]
            cpu0 = server.cpu_split() if server is not None else None
            # Measured both ways, the two modes play the same games through the same accounts, rated
            # or not (and then with no take-backs, as a rated game has none): they differ by the
            # rating alone. Off alone, today's casual hot-seat games, comparable with earlier runs.
            tables = accounts if mode == "on" or ratings == "both" else None
            on = mode == "on"
            took = asyncio.run(
                _run(url, games, think_ms, length, players, seed + i, tables, phase.stats, on, min_ended)
            )
            cpu1 = server.cpu_split() if server is not None else None
            phase.seconds += took if min_ended else length
            if phase.cpu is not None and cpu0 is not None and cpu1 is not None:
                phase.cpu += cpu1[0] + cpu1[1] - cpu0[0] - cpu0[1]
                phase.system += cpu1[1] - cpu0[1]
            else:
                phase.cpu = None
        elapsed = time.perf_counter() - t0
        if sampler is not None:
            decisions, engine_cpu = sampler.result()
        lost = {mode: _lost(p.stats, db, url) for mode, p in phases.items()}
        if accounts is not None:
            ended = len(phases["on"].stats.ended)
            everyone = [a for table in accounts for a in table]
            rated = {"rated_games_ended": ended, **rating_counts(url, everyone, ended * players, POOL)}
    finally:
        if sampler is not None:
            sampler.close()
        if server is not None:
            server.stop()
        if tmp is not None:
            tmp.cleanup()
    per_decision = engine_cpu * 1000 / decisions if decisions else None
    out: dict[str, Any] = {
        "games": games,
        "players": players,
        "think_ms": think_ms,
        "seconds": round(elapsed, 2),
        "db": (db or url).split(":", 1)[0],
    }
    figures = {
        mode: {**_figures(p, lost[mode], per_decision), **(rated if mode == "on" else {})}
        for mode, p in phases.items()
    }
    if ratings != "both":
        out.update(figures[ratings])
    else:
        off, on = figures["off"]["actions_per_second"], figures["on"]["actions_per_second"]
        out["ratings"] = {**figures, "ratio": round(on / off, 3) if off else None}
    out["engine_cpu_ms_per_decision"] = round(per_decision, 4) if per_decision is not None else None
    out["engine_decisions"] = decisions
    return out


def _figures(phase: Phase, lost: int, per_decision: float | None) -> dict[str, Any]:
    """One mode's figures: what was acknowledged within its windows, and what it cost the server."""
    stats = phase.stats
    actions = len(stats.acked)
    cpu = phase.cpu
    per_action = cpu * 1000 / actions if cpu is not None and actions else None
    return {
        "games_played": len(stats.games),
        "games_ended": len(stats.ended),
        "actions": actions,
        "actions_per_second": round(actions / phase.seconds, 1),  # acknowledged within the windows
        "p50_ms": round(_percentile(stats.latencies, 0.50) * 1000, 2),
        "p99_ms": round(_percentile(stats.latencies, 0.99) * 1000, 2),
        "errors": stats.errors,
        "error_codes": stats.error_codes,
        "lost": lost,
        # The server's own CPU per acknowledged action (one event loop: 1000 / this bounds the
        # actions per second of one process on one free core).
        "server_cpu_ms_per_action": round(per_action, 2) if per_action is not None else None,
        # Of which in the kernel: mostly the sockets' writes, which on loopback also carry the
        # receiving client's side of TCP (on a network that part is the client machine's).
        "server_system_ms_per_action": (
            round(phase.system * 1000 / actions, 3) if per_action is not None else None
        ),
        # What one acknowledged action costs the server in engine decisions (a listing and an
        # unchecked apply, measured through the load by the sampler).
        "server_decisions_per_action": (
            round(per_action / per_decision, 1) if per_action is not None and per_decision else None
        ),
    }
