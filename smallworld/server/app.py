"""The server's app (docs/server.md): the service over the store, the limits per client, the error
format of every refusal, and the routers (`routes/`)."""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI

from smallworld.server import openapi, refusals, routes
from smallworld.server.bots import BotPool
from smallworld.server.digest import ROUND_S as DIGEST_ROUND_S
from smallworld.server.digest import Digest
from smallworld.server.limits import (
    MAX_BODY,
    SOCKET_QUEUE,
    SOCKETS_PER_ADDRESS,
    TOKEN_BURST,
    TOKEN_RATE,
    Limits,
)
from smallworld.server.metrics import Metrics
from smallworld.server.service import BOT_GAMES_PER_ADDRESS, BOT_GAMES_PER_PLAYER, Service
from smallworld.server.store import Store
from smallworld.server.tournaments import Tournaments

log = logging.getLogger("smallworld.server")
__all__ = ["MAX_BODY", "create_app", "tune_process"]

# A young pass every 10,000 new objects (not 700), and a full pass only every 100 middle ones (not
# 10). The engine's states make no reference cycles, so little garbage waits for the collector; what
# it does is walk the objects that are still alive. A ply's state, views and legal list live about
# as long as the ply (a second or two in `bench server`): with passes every 700 objects (a dozen a
# second there) each of them was walked by a young and a middle pass, and the collector took 10-13%
# of the server's CPU; every 10,000 (about one a second), 5-6%, most of them gone before any pass,
# for young passes of about 10 ms each on the busy 2-core machine. A full pass walks every object of
# every cached game, took 40 to 200 ms and set the tail of `bench server`.
GC_THRESHOLDS = (10_000, 10, 100)
# Seconds a thread holding the interpreter lock keeps it while another waits (Python's default:
# 5 ms). The store's writer thread (PostgreSQL) and the reading threads hand their results back
# through the lock; with the event loop busy each hand-over waited up to 5 ms, several times an
# action. In `bench server` on the loaded machine, 72-81% of actions were acknowledged within 10 ms
# at 0.5 ms against 46-54% at 5 ms, for 5-10% more CPU; 1 ms is between the two (the figures in
# docs/server.md were measured with it).
SWITCH_INTERVAL = 0.001


def tune_process() -> None:
    """After start-up, in a process that is the server's alone: what is loaded by now (modules,
    editions, the games rebuilt) lives as long as the process, so it leaves the collector's
    generations (`gc.freeze`) and no full pass walks it again; then the thresholds and the switch
    interval above."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    sys.setswitchinterval(SWITCH_INTERVAL)


def warm_routes(app: FastAPI) -> None:
    """Build now what FastAPI builds on the first request that reaches each included router: every
    route's dependencies and models (about 0.09 s of CPU for this app's 44, which the first request
    after a start, a player's, waited for, and which the load benchmark counted as the cost of its
    first actions). Every route is matched, as an HTTP and a WebSocket request, against a path none
    has: nothing is answered or counted. Only a speed-up: a route that cannot be matched so (none
    today) is left to its first request, and the server starts all the same."""
    for kind in ("http", "websocket"):
        for route in app.router.routes:
            scope: dict[str, Any] = {"type": kind, "path": "/warm-up/none", "method": "GET"}
            try:
                route.matches({**scope, "root_path": "", "headers": [], "query_string": b""})
            except Exception:
                log.warning("route %r not built at start", getattr(route, "path", route), exc_info=True)


def create_app(
    db_url: str,
    redis_url: str | None = None,
    bot_workers: int = 1,
    rate: float = 50.0,
    burst: float = 200.0,
    socket_rate: float = 50.0,
    max_body: int = MAX_BODY,
    bot_delay: float = 0.0,
    tune: bool = False,
    token_rate: float | None = None,
    token_burst: float = TOKEN_BURST,
    bot_games_per_player: int = BOT_GAMES_PER_PLAYER,
    bot_games_per_address: int = BOT_GAMES_PER_ADDRESS,
    token_idle_days: float | None = None,
    sockets_per_address: int = SOCKETS_PER_ADDRESS,
    socket_queue: int = SOCKET_QUEUE,
    smtp: str | None = None,
    site: str = "http://127.0.0.1:8000",
    digest_every: float = DIGEST_ROUND_S,
) -> FastAPI:
    """The app. Rate limits (0: none): `rate` requests per second per client address (up to
    `burst` at once), `socket_rate` messages per second per socket, and `token_rate` per seat or
    player token (up to `token_burst`; by default `TOKEN_RATE`, or none when `rate` is 0), counted
    over every request and socket message that carries the token, from any address and socket: one
    person cannot multiply their allowance by opening sockets or spreading over addresses.
    `bot_games_per_player` and `bot_games_per_address` cap the games with bots under way (0: none).
    `sockets_per_address` WebSockets may be open at once from one client address, and
    `socket_queue` messages may wait for a socket whose client does not read before it is closed
    (0: no limit, for either).
    `tune` (the `serve` command: the process is the server's alone) sets the garbage collector and
    the interpreter's switch interval for a long-running server (`tune_process`).
    `token_idle_days`: a token unused this long is refused (default `tokens.IDLE_DAYS`).
    `smtp`: the SMTP server's URL for the daily digest (`digest.py`; None: no e-mail is sent), whose
    links point at `site`; it looks for digests due every `digest_every` seconds."""
    metrics = Metrics()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await asyncio.to_thread(Store, db_url)
        svc = Service(store, BotPool(bot_workers), redis_url, metrics, bot_delay)
        svc.bot_games_per_player, svc.bot_games_per_address = bot_games_per_player, bot_games_per_address
        if token_idle_days is not None:
            svc.token_idle = token_idle_days * 86400
        app.state.service = svc
        svc.tournaments = app.state.tournaments = Tournaments(svc)
        await svc.start()
        digest = Digest(svc, smtp, site, every=digest_every) if smtp else None
        app.state.digest = digest
        if digest is not None:
            digest.start()
        warm_routes(app)
        if tune:
            tune_process()
        log.info(
            json.dumps({"event": "started", "db": store.engine.url.render_as_string(), "node": svc.node})
        )
        try:
            yield
        finally:
            if digest is not None:
                await digest.close()
            await svc.close()
            store.close()

    app = FastAPI(title="Small World of Warcraft server", version="1", lifespan=lifespan)
    openapi.install(app)
    refusals.install(app, metrics)
    if token_rate is None:  # `rate=0` (tests, benchmarks) means no limits at all
        token_rate = TOKEN_RATE if rate > 0 else 0.0
    limits = Limits(
        rate, burst, socket_rate, max_body, token_rate, token_burst, sockets_per_address, socket_queue
    )
    limits.install(app)
    routes.install(app)
    return app
