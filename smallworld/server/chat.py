"""A game's chat (docs/server.md, "Chat"): two channels, stored with the game.

- `seats`: the players' channel. Only a seat posts to it (its seat token, or the player token of
  the player holding a seat of the game; the name is the seat's).
- `spectators`: the channel of those watching. Anyone who holds no seat of the game posts to it: a
  player token (the player's name, or `name`) or no token at all (`name` required).

While the game is open or playing each side reads only its own channel: the seats never read the
spectators' hints (no kibitzing), and the spectators do not read the players' table talk. Once the
game is over every reader reads both, and the replay shows them among the moves (each message keeps
the game's ply when it was posted).

A message is 1 to 300 characters of plain text (trimmed; no control character, line break or
bidirectional control, as names: `inputs.text`), stored and sent as text, never HTML. Each poster
may send 5 messages in 10 seconds (a token bucket per token, or per client address without one, in
each server process: `rate_limited`), and a game holds at most 5,000 (`limit_reached`).

New messages reach the sockets that may read them as `{"type": "chat", "message": ...}`; with
several processes the broker says `{"game", "chat": seq}` and each process reads the message from
the store (nothing but the signal crosses Redis)."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, insert, select
from sqlalchemy.exc import IntegrityError

from smallworld.server import schema as t
from smallworld.server.errors import ServerError
from smallworld.server.limits import Limiter
from smallworld.server.tokens import matches, token_hash

if TYPE_CHECKING:
    from smallworld.server.service import Live, Service
    from smallworld.server.store import Store

SEATS = "seats"
SPECTATORS = "spectators"
CHANNELS = (SEATS, SPECTATORS)
MAX_TEXT = 300  # characters
# Messages per poster: a burst of 5, then one every 2 seconds (5 in any 10 seconds).
BURST = 5
RATE = 0.5  # per second
MAX_PER_GAME = 5000
# The most messages one read answers (the newest of them; `since` pages on from the last seen).
MAX_READ = 500


def channels_for(seat: int | None, status: str) -> tuple[str, ...]:
    """The channels a reader may read: its own while the game goes on, both once it is over."""
    if status == "over":
        return CHANNELS
    return (SEATS,) if seat is not None else (SPECTATORS,)


def _message(row: Any) -> dict[str, Any]:
    m = row._mapping
    return {
        "seq": m["seq"],
        "channel": m["channel"],
        "seat": m["seat"],
        "name": m["name"],
        "text": m["text"],
        "ply": m["ply"],
        "created": m["created"],
    }


# --- the store -----------------------------------------------------------------------------------
def store_post(
    store: Store, game_id: str, channel: str, seat: int | None, name: str, text: str, ply: int
) -> dict[str, Any]:
    """Append a message with the game's next `seq` (one transaction; two processes that pick the same
    number: the second's insert fails on the primary key and it tries the next one). Raises
    `limit_reached` once the game holds `MAX_PER_GAME` messages."""
    for _ in range(5):
        try:
            with store._begin() as c:
                last: int = c.execute(
                    select(func.coalesce(func.max(t.chat.c.seq), 0)).where(t.chat.c.game_id == game_id)
                ).scalar_one()
                if last >= MAX_PER_GAME:
                    raise ServerError(
                        "limit_reached",
                        f"this game's chat holds {MAX_PER_GAME} messages, the most it keeps",
                        "text",
                    )
                row = {
                    "game_id": game_id,
                    "seq": int(last) + 1,
                    "channel": channel,
                    "seat": seat,
                    "name": name,
                    "text": text,
                    "ply": ply,
                    "created": time.time(),
                }
                c.execute(insert(t.chat).values(**row))
            del row["game_id"]
            return row
        except IntegrityError:
            continue
    raise ServerError("unavailable", "the chat is busy: try again")


def store_read(
    store: Store, game_id: str, channels: tuple[str, ...], since: int = 0, limit: int | None = MAX_READ
) -> list[dict[str, Any]]:
    """The messages of `channels` after `since`, oldest first (the newest `limit` of them)."""
    q = select(t.chat).where(
        t.chat.c.game_id == game_id, t.chat.c.seq > since, t.chat.c.channel.in_(channels)
    )
    if limit is not None:
        q = q.order_by(t.chat.c.seq.desc()).limit(limit)
    with store.engine.connect() as c:
        out = [_message(r) for r in c.execute(q)]
    return sorted(out, key=lambda m: m["seq"])


# --- the service's side --------------------------------------------------------------------------
class Chat:
    """The chat of a service's games: who posts and reads what, the rate per poster, and the sockets."""

    def __init__(self, service: Service) -> None:
        self.svc = service
        self.posters = Limiter(RATE, BURST)

    async def caller(self, live: Live, token: str | None) -> tuple[int | None, str | None]:
        """The seat a token holds in this game (None: a spectator) and the name it posts under (None:
        a spectator without a player token, who gives one). A token that is neither this game's seat
        token nor a known player token is `bad_token`."""
        if not token:
            return None, None
        for attempt in range(2):
            for s in live.seats:
                if matches(token, s["token_hash"]):
                    await self.svc._seat_token_used(live, s["seat"])
                    return int(s["seat"]), s["name"]
            p = await self.svc.player(token)
            if p is not None:
                mine = [s for s in live.seats if s["player_id"] == p["id"]]
                if mine:
                    return int(mine[0]["seat"]), mine[0]["name"]
                if attempt == 0 and self.svc.multi:
                    await self.svc._reload_seats(live)  # a seat joined through another process
                    continue
                return None, str(p["name"])
            if attempt == 0 and self.svc.multi:
                await self.svc._reload_seats(live)
                continue
        raise ServerError("bad_token", "the token is not known in this game", "token")

    async def post(
        self,
        live: Live,
        token: str | None,
        address: str | None,
        text: str,
        channel: str | None,
        name: str | None,
    ) -> dict[str, Any]:
        """Post `text` (checked by the request model) as the token's holder; the stored message."""
        seat, own_name = await self.caller(live, token)
        if channel is None:
            channel = SEATS if seat is not None else SPECTATORS
        if seat is not None and channel != SEATS:
            raise ServerError(
                "wrong_seat",
                "a seat posts to 'seats': the spectators' channel is for those watching",
                "channel",
            )
        if seat is None and channel != SPECTATORS:
            raise ServerError(
                "wrong_seat",
                "the players' channel 'seats' takes a seat's token: spectators post to 'spectators'",
                "channel",
            )
        poster = own_name if seat is not None else (own_name if name is None else name)
        if poster is None:
            raise ServerError("invalid_input", "name: required of a spectator without a player token", "name")
        key = token_hash(token) if token else f"address:{address}"
        if not self.posters.take(key):
            raise ServerError(
                "rate_limited", f"over {BURST} chat messages in {BURST / RATE:g} seconds", "text"
            )
        msg = await asyncio.to_thread(
            store_post, self.svc.store, live.id, channel, seat, poster, text, live.state.ply
        )
        self.svc.broker.publish({"game": live.id, "chat": msg["seq"]})
        self.fan_out(live, msg)
        return {"game": live.id, "message": msg}

    async def read(self, live: Live, token: str | None, since: int) -> dict[str, Any]:
        seat, _ = await self.caller(live, token)
        channels = channels_for(seat, live.status)
        # (any integer is a `since`: one beyond the most a game holds asks for nothing, and is not
        # handed to the database, whose integers end at 2**63)
        since = min(max(0, since), MAX_PER_GAME)
        messages = await asyncio.to_thread(store_read, self.svc.store, live.id, channels, since)
        return {"game": live.id, "seat": seat, "channels": list(channels), "messages": messages}

    async def replay(self, live: Live) -> list[dict[str, Any]]:
        """Every message of a finished game, both channels, for its replay."""
        return await asyncio.to_thread(store_read, self.svc.store, live.id, CHANNELS, 0, None)

    def fan_out(self, live: Live, msg: dict[str, Any]) -> None:
        """Queue `msg` on this process's sockets of the game whose reader may read its channel."""
        out = {"type": "chat", "game": live.id, "message": msg}
        for sub in list(self.svc.subs.get(live.id, ())):
            if msg["channel"] in channels_for(sub.seat, live.status):
                sub.queue.put_nowait(out)

    async def on_broker(self, gid: str, seq: Any) -> None:
        """Another process stored message `seq` of game `gid`: this process's sockets get it."""
        if not isinstance(seq, int) or gid not in self.svc.subs:
            return
        live = await self.svc.get(gid)
        rows = await asyncio.to_thread(store_read, self.svc.store, gid, CHANNELS, seq - 1, None)
        for msg in rows:
            if msg["seq"] == seq:
                self.fan_out(live, msg)
