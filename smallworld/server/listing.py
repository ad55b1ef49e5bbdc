"""The lobby's lists (docs/server.md, "Lists"): the open games to join, the games in progress to
watch, the finished games to replay, and a player's own games; newest first, a page at a time.

A page is `limit` games (at most `MAX_LIMIT`) created before the game `before` (the previous page's
`next`), in the order (created, id) from the newest. Each entry is the game's summary (what anyone
may read: no seed, no coins before the end, `result` once it is over) with the times it was created
and last changed, and the round it is at (all public)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

from fastapi import Query
from sqlalchemy import ColumnElement, and_, exists, or_, select

from smallworld.server import schema as t
from smallworld.server.errors import ServerError
from smallworld.server.inputs import game_id
from smallworld.server.models import IntParam
from smallworld.server.service import Live, Service

Status = Literal["open", "playing", "over"]
DEFAULT_LIMIT = 20
MAX_LIMIT = 50


def limit_of(limit: int | None) -> int:
    if limit is None:
        return DEFAULT_LIMIT
    if not 1 <= limit <= MAX_LIMIT:
        raise ServerError("invalid_input", f"limit: must be 1 to {MAX_LIMIT}", "limit")
    return limit


def page(
    svc: Service, status: Status | None, seats: ColumnElement[bool] | None, limit: int, before: str | None
) -> tuple[list[tuple[str, float, float]], str | None]:
    """(id, created, updated) of one page of games, and the cursor of the next page (None: last);
    `seats`: only the games with a seat that matches it (a player's: "my games", a profile's)."""
    g = t.games
    with svc.store.engine.connect() as c:
        q = select(g.c.id, g.c.created, g.c.updated)
        if status is not None:
            q = q.where(g.c.status == status)
        if status == "open":  # only those with a seat anyone may take
            free = and_(t.seats.c.game_id == g.c.id, t.seats.c.open.is_(True), t.seats.c.player_id.is_(None))
            q = q.where(exists().where(free))
        if seats is not None:
            q = q.where(exists().where(and_(t.seats.c.game_id == g.c.id, seats)))
        if before is not None:
            row = c.execute(select(g.c.created).where(g.c.id == before)).first()
            if row is None:
                raise ServerError("invalid_input", "before: no such game", "before")
            q = q.where(or_(g.c.created < row[0], and_(g.c.created == row[0], g.c.id < before)))
        rows = c.execute(q.order_by(g.c.created.desc(), g.c.id.desc()).limit(limit + 1)).all()
    page = [(r[0], r[1], r[2]) for r in rows[:limit]]
    return page, (page[-1][0] if len(rows) > limit else None)


def when(live: Live, created: float, updated: float) -> dict[str, Any]:
    """What a list adds to a game's summary: when it was made and last changed, and its round."""
    return {"created": created, "updated": updated, "round": live.state.round, "rounds": live.game.rounds}


def cursor(before: str | None) -> str | None:
    if before is None:
        return None
    try:
        return game_id(before)
    except ServerError:
        raise ServerError("invalid_input", "before: not a game id", "before") from None


async def games(svc: Service, status: Status, limit: int | None, before: str | None) -> dict[str, Any]:
    """A page of the games with `status` (`open`: only those with a free open seat)."""
    ids, nxt = await asyncio.to_thread(page, svc, status, None, limit_of(limit), cursor(before))
    out = []
    for gid, created, updated in ids:
        live = await svc.get(gid)
        out.append({**svc.summary(live), **when(live, created, updated)})
    return {"games": out, "next": nxt}


async def my_games(svc: Service, token: str | None, limit: int | None, before: str | None) -> dict[str, Any]:
    """A page of the games the token's player holds a seat in, with `my_seats`."""
    p = await svc.player(token)
    if p is None:
        raise ServerError("bad_token", "a player token is required")
    held = t.seats.c.player_id == p["id"]
    ids, nxt = await asyncio.to_thread(page, svc, None, held, limit_of(limit), cursor(before))
    out = []
    for gid, created, updated in ids:
        live = await svc.get(gid)
        mine = [s["seat"] for s in live.seats if s["player_id"] == p["id"]]
        out.append({**svc.summary(live), "my_seats": mine, **when(live, created, updated)})
    return {"player": {"id": p["id"], "name": p["name"]}, "games": out, "next": nxt}


# The lists' query parameters (the routes' in `routes/games.py` and `routes/players.py`).
StatusQuery = Annotated[
    Status, Query(description="open (a seat to take), playing (to watch), over (to replay)")
]
LimitQuery = Annotated[
    IntParam | None, Query(description=f"games per page, 1 to {MAX_LIMIT} (default {DEFAULT_LIMIT})")
]
Before = Annotated[
    str | None, Query(description="the previous page's `next`: the games created before that one")
]
