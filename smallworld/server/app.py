"""The HTTP and WebSocket endpoints (docs/server.md). Every body is read and parsed here, so a
malformed or oversized request gets the server's own error JSON, never a framework page."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from starlette.exceptions import HTTPException

from smallworld.engine.errors import SmallworldError
from smallworld.server import inputs, openapi, sockets, wire
from smallworld.server.bots import BotPool
from smallworld.server.errors import ServerError, status_of
from smallworld.server.metrics import Metrics
from smallworld.server.resilience import OUTAGES, is_outage, unavailable
from smallworld.server.service import BOT_GAMES_PER_ADDRESS, BOT_GAMES_PER_PLAYER, Service
from smallworld.server.store import Store
from smallworld.server.tokens import token_hash
from smallworld.web import STATIC
from smallworld.web import payload as web_payload

log = logging.getLogger("smallworld.server")
# Seconds a client is told to wait before trying again while the store is out (`Retry-After`), and
# the longest `/healthz` waits for the store before it says `down`.
RETRY_AFTER = 2
HEALTH_TIMEOUT = 5.0
MAX_BODY = 64 * 1024  # bytes: the largest action (a whole plan) is a few kilobytes
# Sockets open at once per client address (a person's tabs and devices behind one address), and the
# messages that may wait for a socket whose client does not read (each a view, a few kilobytes).
SOCKETS_PER_ADDRESS = 32
SOCKET_QUEUE = 64
# Requests and socket messages per second per seat or player token, and the burst allowed: far
# above what a person's page sends (a few requests a decision), so only scripts meet it.
TOKEN_RATE = 50.0
TOKEN_BURST = 200.0


class Bucket:
    """A token bucket: `rate` per second, up to `burst` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.t = burst, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.t) * self.rate)
        self.t = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


# The collector's young passes as usual (every 700 new objects: short ones, 5 to 17 ms at worst in
# `bench server`; larger thresholds made each young pass longer), but a full pass only every 100
# middle ones (not 10): a full pass walks every object of every cached game, took 40 to 200 ms and
# set the tail of `bench server`. The engine's states make no reference cycles, so little garbage
# waits for it.
GC_THRESHOLDS = (700, 10, 100)
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


class Limiter:
    """A token bucket per key (a client address, a token's hash). A flood of new keys (more than
    `cap` held) empties the table rather than growing it without end."""

    def __init__(self, rate: float, burst: float, cap: int = 100_000) -> None:
        self.rate, self.burst, self.cap = rate, burst, cap
        self.buckets: dict[str, Bucket] = {}

    def take(self, key: str) -> bool:
        b = self.buckets.get(key)
        if b is None:
            if len(self.buckets) >= self.cap:
                self.buckets.clear()
            b = self.buckets[key] = Bucket(self.rate, self.burst)
        return b.take()


def _err(e: ServerError | SmallworldError) -> JSONResponse:
    return JSONResponse(e.to_json(), status_code=status_of(e))


def _bearer(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    return None


async def _body(request: Request, max_body: int) -> Any:
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > max_body:
        raise ServerError("too_large", f"the request is over {max_body} bytes")
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > max_body:
            raise ServerError("too_large", f"the request is over {max_body} bytes")
    return inputs.parse(raw or b"null", "body")


def _object(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ServerError("invalid_input", "the request must be a JSON object", "body")
    return data


def _http_error(e: HTTPException) -> ServerError:
    """The framework's own refusals (no such path, a method the path does not take), as ours."""
    if e.status_code == 404:
        return ServerError("not_found", "no such path")
    if e.status_code == 405:
        return ServerError("method_not_allowed", f"this path does not take that method ({e.detail})")
    return ServerError("invalid_input", str(e.detail))


def _validation_error(e: RequestValidationError) -> ServerError:
    """FastAPI's checks of declared parameters (the app parses its own, so this is a safety net)."""
    first = e.errors()[0] if e.errors() else {}
    where = ".".join(str(p) for p in first.get("loc", ())[1:]) or "request"
    return ServerError("invalid_input", f"{where}: {first.get('msg', 'invalid')}", where)


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
    `token_idle_days`: a token unused this long is refused (default `tokens.IDLE_DAYS`)."""
    metrics = Metrics()
    holder: dict[str, Service] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await asyncio.to_thread(Store, db_url)
        svc = Service(store, BotPool(bot_workers), redis_url, metrics, bot_delay)
        svc.bot_games_per_player, svc.bot_games_per_address = bot_games_per_player, bot_games_per_address
        if token_idle_days is not None:
            svc.token_idle = token_idle_days * 86400
        holder["svc"] = svc
        app.state.service = svc
        await svc.start()
        if tune:
            tune_process()
        log.info(
            json.dumps({"event": "started", "db": store.engine.url.render_as_string(), "node": svc.node})
        )
        try:
            yield
        finally:
            await svc.close()
            store.close()

    app = FastAPI(title="Small World of Warcraft server", version="1", lifespan=lifespan)
    openapi.install(app)
    per_address = sockets.PerAddress(sockets_per_address)
    if token_rate is None:  # `rate=0` (tests, benchmarks) means no limits at all
        token_rate = TOKEN_RATE if rate > 0 else 0.0
    by_address = Limiter(rate, burst)
    by_token = Limiter(token_rate, token_burst)

    def token_allowed(token: str | None) -> None:
        """Count one use of `token` (by its hash: the table holds no token); `rate_limited`, with
        `field: "token"`, once it is over its rate."""
        if token_rate > 0 and token and not by_token.take(token_hash(token)):
            raise ServerError(
                "rate_limited",
                f"over {token_rate:g} requests and messages per second for this token",
                "token",
            )

    def svc() -> Service:
        return holder["svc"]

    @app.exception_handler(ServerError)
    async def _server_error(request: Request, e: ServerError) -> JSONResponse:
        return _err(e)

    @app.exception_handler(SmallworldError)
    async def _engine_error(request: Request, e: SmallworldError) -> JSONResponse:
        return _err(e)

    @app.exception_handler(HTTPException)
    async def _framework_error(request: Request, e: HTTPException) -> JSONResponse:
        return _err(_http_error(e))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, e: RequestValidationError) -> JSONResponse:
        return _err(_validation_error(e))

    @app.exception_handler(Exception)
    async def _bug(request: Request, e: Exception) -> JSONResponse:
        log.error("unexpected error in %s %s", request.method, request.url.path, exc_info=e)
        return _err(ServerError("internal_error", "the server failed; the fault is logged"))

    async def _outage(request: Request, e: Exception) -> Response:
        # The store (or Redis) cannot be reached: `unavailable` (503), which a client retries.
        if not is_outage(e):
            return await _bug(request, e)
        log.warning(json.dumps({"event": "unavailable", "path": request.url.path, "error": repr(e)}))
        metrics.unavailable.inc()
        return JSONResponse(
            unavailable(e).to_json(), status_code=503, headers={"Retry-After": str(RETRY_AFTER)}
        )

    for kind in OUTAGES:
        app.add_exception_handler(kind, _outage)

    @app.middleware("http")
    async def _limits(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        if rate > 0 and not by_address.take(request.client.host if request.client else "?"):
            return _err(ServerError("rate_limited", f"over {rate:g} requests per second; slow down"))
        try:
            token_allowed(_bearer(request))
        except ServerError as e:
            return _err(e)
        length = request.headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > max_body:
            return _err(ServerError("too_large", f"the request is over {max_body} bytes"))
        return await call_next(request)

    # The web client (docs/web.md): its files, its words and each game's board.
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    words_of: dict[str, dict[str, Any]] = {}

    @app.get("/api/words")
    async def words(edition: str = "warcraft") -> dict[str, Any]:
        # The catalogues of one edition (its races, powers, places): a game's page asks for its own.
        # An unknown edition is refused by the engine's settings check, naming the field.
        if edition not in words_of:
            words_of[edition] = web_payload.words(web_payload.public_game({"players": 2, "edition": edition}))
        return words_of[edition]

    @app.get("/api/games/{gid}/board")
    async def board(gid: str) -> dict[str, Any]:
        return web_payload.board((await svc().get(gid)).game)

    @app.get("/healthz")
    async def healthz() -> Response:
        """200 while the process can serve its games (`status`: `ok`, or `degraded` while Redis is
        down: its own sockets are served, other processes' moves arrive late); 503 while the store
        cannot be reached."""
        s = svc()
        out: dict[str, Any] = {"ok": True, "node": s.node, "games_live": len(s.live), "store": "up"}
        out.update(s.broker.health())
        out["bot_decisions_waiting"] = s.bots.waiting()
        try:
            await asyncio.wait_for(asyncio.to_thread(s.store.ping), HEALTH_TIMEOUT)
        except Exception as e:
            out.update(ok=False, status="down", store="down", store_error=f"{type(e).__name__}: {e}"[:300])
            return JSONResponse(out, status_code=503, headers={"Retry-After": str(RETRY_AFTER)})
        out["status"] = "degraded" if out.get("redis") == "down" else "ok"
        return JSONResponse(out)

    @app.get("/metrics")
    async def prometheus() -> Response:
        return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)

    @app.post("/api/players")
    async def new_player(request: Request) -> dict[str, Any]:
        data = _object(await _body(request, max_body))
        player, token = await svc().new_player(data.get("name"))
        return {"player": player, "player_token": token}

    @app.get("/api/me/games")
    async def my_games(request: Request) -> dict[str, Any]:
        return await svc().my_games(_bearer(request))

    @app.get("/api/games")
    async def open_games() -> dict[str, Any]:
        return {"games": await svc().open_games()}

    @app.post("/api/games")
    async def create(request: Request) -> dict[str, Any]:
        address = request.client.host if request.client else None
        return await svc().create(await _body(request, max_body), _bearer(request), address)

    @app.get("/api/games/{gid}")
    async def summary(gid: str) -> dict[str, Any]:
        s = svc()
        return s.summary(await s.get(gid))

    @app.post("/api/games/{gid}/join")
    async def join(gid: str, request: Request) -> dict[str, Any]:
        return await svc().join(gid, await _body(request, max_body), _bearer(request))

    async def _seat(gid: str, request: Request) -> tuple[Any, int | None]:
        s = svc()
        live = await s.get(gid)
        token = _bearer(request)
        seat = inputs.int_param(request.query_params.get("seat"), "seat")
        if seat is None:
            return live, await s.seat_of(live, token)
        return live, await s.authorize(live, seat, token)

    @app.get("/api/games/{gid}/view")
    async def view(gid: str, request: Request) -> dict[str, Any]:
        live, seat = await _seat(gid, request)
        return svc().view(live, seat, request.query_params.get("client") == "web")

    @app.get("/api/games/{gid}/moves")
    async def moves(gid: str, request: Request) -> dict[str, Any]:
        live, seat = await _seat(gid, request)
        since = inputs.int_param(request.query_params.get("since"), "since") or 0
        web = request.query_params.get("client") == "web"
        moves = svc().moves(live, seat, since, web)
        return {"game": gid, "seat": seat, "ply": live.state.ply, "moves": moves}

    @app.post("/api/games/{gid}/act")
    async def act(gid: str, request: Request) -> dict[str, Any]:
        data = _object(await _body(request, max_body))
        if "action" not in data:
            raise ServerError("invalid_input", "action: required", "action")
        return await svc().act(gid, data.get("seat"), _bearer(request), data.get("ply"), data["action"])

    @app.get("/api/games/{gid}/replay")
    async def replay(gid: str) -> dict[str, Any]:
        s = svc()
        return s.replay(await s.get(gid))

    @app.post("/api/games/{gid}/seats/{seat}/bot")
    async def to_bot(gid: str, seat: str, request: Request) -> dict[str, Any]:
        n = inputs.int_param(seat, "seat")
        data = await _body(request, max_body)
        level = _object(data).get("level", "greedy")
        return await svc().hand_to_bot(gid, n, _bearer(request), level)

    @app.post("/api/games/{gid}/seats/{seat}/take")
    async def take(gid: str, seat: str, request: Request) -> dict[str, Any]:
        return await svc().take_back(gid, inputs.int_param(seat, "seat"), _bearer(request))

    closings: set[asyncio.Future[None]] = set()  # held until done (the loop holds tasks weakly)

    def _forget(f: asyncio.Future[None]) -> None:
        closings.discard(f)
        if not f.cancelled():
            f.exception()  # a socket already gone: nothing to close

    @app.post("/api/games/{gid}/seats/{seat}/leave")
    async def leave(gid: str, seat: str, request: Request) -> dict[str, Any]:
        return await svc().leave(gid, inputs.int_param(seat, "seat"), _bearer(request))

    @app.post("/api/players/logout")
    async def logout(request: Request) -> dict[str, Any]:
        return await svc().logout(_bearer(request))

    @app.websocket("/api/games/{gid}/ws")
    async def socket(websocket: WebSocket, gid: str) -> None:
        await websocket.accept()
        address = websocket.client.host if websocket.client else "?"
        if not per_address.enter(address):
            limit = f"over {sockets_per_address} sockets open from this address"
            await _refuse(websocket, ServerError("too_many_sockets", limit))
            return
        try:
            await _session(websocket, gid)
        except Exception:  # a fault of the server's own: logged, and the socket closed
            log.exception("unexpected error on a socket of game %r", gid)
            with contextlib.suppress(Exception):
                await websocket.close(code=1011)
        finally:
            per_address.leave(address)

    async def _refuse(
        websocket: WebSocket, e: ServerError | SmallworldError, code: int | None = None
    ) -> None:
        await websocket.send_json({"type": "error", "error": e.to_json()})
        await websocket.close(code=code or 4000 + status_of(e))

    async def _session(websocket: WebSocket, gid: str) -> None:
        s = svc()
        token = websocket.query_params.get("token")
        try:
            token_allowed(token)
            live = await s.get(gid)
            seat_q = inputs.int_param(websocket.query_params.get("seat"), "seat")
            seat = await s.seat_of(live, token) if seat_q is None else await s.authorize(live, seat_q, token)
            if seat is not None and live.seats[seat]["away"]:
                await s.take_back(gid, seat, token)  # the player is back
        except (ServerError, SmallworldError) as e:
            await _refuse(websocket, e)
            return
        except Exception as e:  # the store is out: the socket cannot be opened now
            if not is_outage(e):
                raise
            metrics.unavailable.inc()
            await _refuse(websocket, unavailable(e), 4503)
            return
        try:
            since = inputs.int_param(websocket.query_params.get("since"), "since")
        except ServerError:
            since = None

        def too_slow() -> None:
            # The client has not read `socket_queue` messages: it gets no more, and the socket is
            # closed (dropped, when the connection cannot take even the close frame).
            s.unsubscribe(sub)
            send_task.cancel()
            closing = asyncio.ensure_future(websocket.close(sockets.SLOW_CLOSE_CODE, sockets.SLOW_REASON))
            closings.add(closing)
            closing.add_done_callback(_forget)

        sub = s.subscribe(live, seat, sockets.Outbox(socket_queue, too_slow))
        # The moves before the connection that the client asks for (`since`): a reconnecting client
        # gets what it missed in the same message as the current view.
        moves = s.moves(live, seat, since) if since is not None else []
        sub.queue.put_nowait({"type": "hello", "moves": moves, **s.view(live, seat)})
        bucket = Bucket(socket_rate, socket_rate * 2) if socket_rate > 0 else None

        async def sender() -> None:
            while True:
                msg = await sub.queue.get()
                if msg is None:
                    if sub.close_code is not None:  # the server ended it (its seat was left)
                        with contextlib.suppress(Exception):
                            await websocket.close(code=sub.close_code)
                    return
                await websocket.send_text(msg if isinstance(msg, str) else wire.dumps(msg))

        send_task = asyncio.create_task(sender())
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                ref = None
                try:
                    text = message.get("text")
                    if text is None:
                        raise ServerError("malformed_json", "a message is JSON in a text frame, not binary")
                    if len(text) > max_body:
                        raise ServerError("too_large", f"the message is over {max_body} bytes")
                    if bucket is not None and not bucket.take():
                        raise ServerError("rate_limited", f"over {socket_rate:g} messages per second")
                    msg = inputs.parse(text, "message")
                    if not isinstance(msg, dict):
                        raise ServerError("invalid_input", "a message is a JSON object", "type")
                    ref = msg.get("ref")
                    kind = msg.get("type")
                    if kind == "ping":
                        sub.queue.put_nowait({"type": "pong", "ref": ref})
                    elif kind == "act":
                        token_allowed(token)
                        if seat is None:
                            raise ServerError(
                                "bad_token", "a spectator cannot act: connect with a seat token"
                            )
                        if "action" not in msg:
                            raise ServerError("invalid_input", "action: required", "action")
                        ack = await s.act(gid, seat, token, msg.get("ply"), msg["action"])
                        sub.queue.put_nowait({"type": "ack", "ref": ref, **ack})
                    else:
                        raise ServerError("invalid_input", "type: 'act' or 'ping'", "type")
                except (ServerError, SmallworldError) as e:
                    sub.queue.put_nowait({"type": "error", "ref": ref, "error": e.to_json()})
                except Exception as e:  # the store is out: this message is refused, the socket stays
                    if not is_outage(e):
                        raise
                    metrics.unavailable.inc()
                    sub.queue.put_nowait({"type": "error", "ref": ref, "error": unavailable(e).to_json()})
        finally:
            s.unsubscribe(sub)
            sub.queue.put_nowait(None)
            send_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await send_task

    return app
