"""Ratings: a pool's leaderboard and a player's (or a bot's) ratings with their history
(`ratings.py`; docs/players.md); the rest of a profile: the races and powers played, the games
(`profiles.py`)."""

from __future__ import annotations

import asyncio
import re
from typing import Annotated, Any

from fastapi import Path, Query

from smallworld.server import listing, profiles, ratings
from smallworld.server.errors import ServerError
from smallworld.server.models import Answer, PlayerGames, PlayerStats
from smallworld.server.routes.base import api_router
from smallworld.server.routes.deps import ServiceDep

router = api_router("ratings")

_POOL = re.compile(r"^[a-z]+/[a-z]+/(turn|live)$")
_WHO = re.compile(r"^([0-9a-f]{32}|bot:[a-z0-9-]{1,16})$")


class Leaderboard(Answer):
    pool: str
    total: int
    offset: int
    players: list[dict[str, Any]]


class PlayerRatings(Answer):
    who: str
    name: str | None
    ratings: list[dict[str, Any]]
    played: int
    abandoned: int


@router.get("/api/ratings", response_model=Leaderboard)
async def leaderboard(
    svc: ServiceDep,
    pool: Annotated[str, Query(description="edition/variant/pace, e.g. warcraft/standard/turn")] = (
        "warcraft/standard/turn"
    ),
    limit: Annotated[int, Query(ge=1, le=100)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> dict[str, Any]:
    """The pool's rated players and bots, best first (the shown rating: docs/players.md)."""
    if not _POOL.fullmatch(pool):
        raise ServerError("invalid_input", "pool: edition/variant/pace, e.g. warcraft/standard/turn", "pool")
    return await asyncio.to_thread(ratings.leaderboard, svc.store, pool, limit, offset)


@router.get("/api/players/{who}/ratings", response_model=PlayerRatings)
async def player_ratings(
    svc: ServiceDep,
    who: Annotated[
        str, Path(description="a player's id, or bot:LEVEL", json_schema_extra={"pattern": _WHO.pattern})
    ],
) -> dict[str, Any]:
    """Each pool's rating of a player or a bot, with one point per rated game; the games it played
    to the end and those it abandoned."""
    if not _WHO.fullmatch(who):
        raise ServerError("not_found", "no such player: an id is 32 hexadecimal digits, or bot:LEVEL", "who")
    rs = await asyncio.to_thread(ratings.ratings_of, svc.store, who)
    record = await asyncio.to_thread(ratings.record, svc.store, who)
    name = await asyncio.to_thread(ratings.name_of, svc.store, who)
    return {"who": who, "name": name, "ratings": rs, **record}


WhoPath = Annotated[
    str, Path(description="a player's id, or bot:LEVEL", json_schema_extra={"pattern": _WHO.pattern})
]


def _who(who: str) -> str:
    if not _WHO.fullmatch(who):
        raise ServerError("not_found", "no such player: an id is 32 hexadecimal digits, or bot:LEVEL", "who")
    return who


@router.get("/api/players/{who}/stats", response_model=PlayerStats)
async def player_stats(svc: ServiceDep, who: WhoPath) -> dict[str, Any]:
    """The races and powers a player (or a bot) played in their latest finished games, per edition,
    with the games won with each (`profiles.py`)."""
    return await asyncio.to_thread(profiles.stats, svc.store, _who(who))


@router.get("/api/players/{who}/games", response_model=PlayerGames)
async def player_games(
    svc: ServiceDep, who: WhoPath, limit: listing.LimitQuery = None, before: listing.Before = None
) -> dict[str, Any]:
    """A player's (or a bot's) games, newest first, a page at a time, with the games they left
    (`listing.py`'s lists: `next` is the following page's `before`)."""
    return await profiles.games(svc, _who(who), limit, before)
