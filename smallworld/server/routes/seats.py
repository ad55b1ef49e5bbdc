"""A seat handed to a bot and taken back, and leaving a seat."""

from __future__ import annotations

from typing import Any

from smallworld.server.models import HandToBot, SeatHanded, SeatLeft
from smallworld.server.routes.base import api_router
from smallworld.server.routes.deps import GameId, SeatPath, ServiceDep, TokenDep

router = api_router("seats")


@router.post("/api/games/{gid}/seats/{seat}/bot", response_model=SeatHanded)
async def to_bot(
    gid: GameId, seat: SeatPath, body: HandToBot, svc: ServiceDep, token: TokenDep
) -> dict[str, Any]:
    """A bot plays the seat (until its player takes it back)."""
    return await svc.hand_to_bot(gid, seat, token, body.level)


@router.post("/api/games/{gid}/seats/{seat}/take", response_model=SeatHanded)
async def take(gid: GameId, seat: SeatPath, svc: ServiceDep, token: TokenDep) -> dict[str, Any]:
    """The seat is its player's again."""
    return await svc.take_back(gid, seat, token)


@router.post("/api/games/{gid}/seats/{seat}/leave", response_model=SeatLeft)
async def leave(gid: GameId, seat: SeatPath, svc: ServiceDep, token: TokenDep) -> dict[str, Any]:
    """The seat's tokens stop working; before the start the seat is free (`open`), during play a
    bot plays it to the end."""
    return await svc.leave(gid, seat, token)
