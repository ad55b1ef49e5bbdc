"""The live socket of a game (`/api/games/{gid}/ws`, docs/server.md "WebSocket"): a `hello` with the
view (and the moves since `since`), an `update` after each change, `ack`s of its own actions and
`error`s; the client sends `act` and `ping` (answered `pong`: the web client's heartbeat). With
`client=web` every `hello` and `update` carries the web client's words too (docs/web.md)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket
from pydantic import ValidationError

from smallworld.engine.model.errors import SmallworldError
from smallworld.server import inputs, sockets, tokens
from smallworld.server.accounts import SESSION_COOKIE
from smallworld.server.errors import ServerError, status_of
from smallworld.server.limits import Limits
from smallworld.server.models import ActMessage
from smallworld.server.refusals import from_validation
from smallworld.server.resilience import is_outage, unavailable
from smallworld.server.service import Service

log = logging.getLogger("smallworld.server")
router = APIRouter()
_closings: set[asyncio.Future[None]] = set()  # held until done (the loop holds tasks weakly)


def _forget(f: asyncio.Future[None]) -> None:
    _closings.discard(f)
    if not f.cancelled():
        f.exception()  # a socket already gone: nothing to close


@router.websocket("/api/games/{gid}/ws")
async def socket(websocket: WebSocket, gid: str) -> None:
    await websocket.accept()
    limits: Limits = websocket.app.state.limits
    address = websocket.client.host if websocket.client else "?"
    if not limits.per_address.enter(address):
        limit = f"over {limits.sockets_per_address} sockets open from this address"
        await _refuse(websocket, ServerError("too_many_sockets", limit))
        return
    try:
        await _session(websocket, gid, websocket.app.state.service, limits)
    except Exception:  # a fault of the server's own: logged, and the socket closed
        log.exception("unexpected error on a socket of game %r", gid)
        with contextlib.suppress(Exception):
            await websocket.close(code=1011)
    finally:
        limits.per_address.leave(address)


async def _refuse(websocket: WebSocket, e: ServerError | SmallworldError, code: int | None = None) -> None:
    await websocket.send_json({"type": "error", "error": e.to_json()})
    await websocket.close(code=code or 4000 + status_of(e))


def _cookie_session(websocket: WebSocket) -> str | None:
    """A logged-in browser's session cookie, when the socket asks for a seat (`seat=N`: a spectator's
    socket is nobody's) and the page that opens it is this site's own (`Origin`): another site's
    page cannot open a socket as its visitor."""
    session = websocket.cookies.get(SESSION_COOKIE) if websocket.query_params.get("seat") else None
    origin = websocket.headers.get("origin")
    if not session or (origin is not None and urlsplit(origin).netloc != websocket.headers.get("host")):
        return None
    return session


async def _session(websocket: WebSocket, gid: str, s: Service, limits: Limits) -> None:
    token = tokens.hashed(websocket.query_params.get("token") or _cookie_session(websocket))
    try:
        limits.token_allowed(token)
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
        s.metrics.unavailable.inc()
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
        _closings.add(closing)
        closing.add_done_callback(_forget)

    # `client=web`: the web client's socket, whose messages carry the words it shows, `explain` and
    # the `plan` too (what `/view?client=web` answers), so that it needs no HTTP fetch after one.
    web = websocket.query_params.get("client") == "web"
    direct = sockets.Direct.of(websocket.scope)
    outbox = sockets.Outbox(limits.socket_queue, too_slow, direct)
    sub = s.subscribe(live, seat, outbox, web)
    # The moves before the connection that the client asks for (`since`): a reconnecting client
    # gets what it missed in the same message as the current view.
    moves = s.moves(live, seat, since, web) if since is not None else []
    sub.queue.put_nowait({"type": "hello", "moves": moves, **s.view(live, seat, web)})
    bucket = limits.socket_bucket()
    max_body = limits.max_body

    async def sender() -> None:
        """Sends what waits in the outbox (all of it, without a direct writer: `sockets.Direct`)."""
        while True:
            outbox.busy = False
            msg = await outbox.get()
            outbox.busy = True
            if direct is not None:
                direct.flush()  # what went straight to the connection goes first
            if msg is None:
                if sub.close_code is not None:  # the server ended it (its seat was left)
                    with contextlib.suppress(Exception):
                        await websocket.close(code=sub.close_code)
                return
            if direct is None:
                await websocket.send_text(msg if isinstance(msg, str) else sockets.Message.of(msg).text())
                continue
            await direct.proto.writable.wait()
            if not direct.open():
                return
            direct.write(sockets.Message.of(msg).frame())
            direct.flush()

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
                    raise ServerError("rate_limited", f"over {limits.socket_rate:g} messages per second")
                msg = inputs.parse(text, "message")
                if not isinstance(msg, dict):
                    raise ServerError("invalid_input", "a message is a JSON object", "type")
                ref = msg.get("ref")
                kind = msg.get("type")
                if kind == "ping":
                    sub.queue.put_nowait({"type": "pong", "ref": ref})
                elif kind == "act":
                    limits.token_allowed(token)
                    if seat is None:
                        raise ServerError("bad_token", "a spectator cannot act: connect with a seat token")
                    try:
                        act = ActMessage.model_validate(msg)
                    except ValidationError as e:
                        raise from_validation(e, "message") from None
                    ack = await s.act(gid, seat, token, act.ply, act.action)
                    sub.queue.put_nowait({"type": "ack", "ref": ref, **ack})
                else:
                    raise ServerError("invalid_input", "type: 'act' or 'ping'", "type")
            except (ServerError, SmallworldError) as e:
                sub.queue.put_nowait({"type": "error", "ref": ref, "error": e.to_json()})
            except Exception as e:  # the store is out: this message is refused, the socket stays
                if not is_outage(e):
                    raise
                s.metrics.unavailable.inc()
                sub.queue.put_nowait({"type": "error", "ref": ref, "error": unavailable(e).to_json()})
    finally:
        s.unsubscribe(sub)
        sub.queue.put_nowait(None)
        send_task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await send_task
