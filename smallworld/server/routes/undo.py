"""Undo within a turn (docs/server.md, "Undo"): the seat to act takes back its own decisions."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator, Field

from smallworld.server import undo
from smallworld.server.models import Body, View, _strict_int
from smallworld.server.routes.base import api_router
from smallworld.server.routes.deps import Client, GameId, ServiceDep, TokenDep

router = api_router("games")


class Undo(Body):
    """Go back to ply `to_ply`, one of the seat's `undo_points` (its view lists them): the seat's
    decisions from that ply on are deleted."""

    seat: Annotated[int, BeforeValidator(_strict_int("the seat number you act for"))]
    to_ply: Annotated[int, BeforeValidator(_strict_int("the ply to go back to, an undo point's"))]

    @classmethod
    def prepare(cls, data: dict[str, Any]) -> dict[str, Any]:
        # A missing field breaks the same rule as a wrong one.
        return {"seat": None, "to_ply": None, **data}


class Undone(View):
    undone: int = Field(description="how many decisions were taken back")


@router.post("/api/games/{gid}/undo", response_model=Undone)
async def take_back(
    gid: GameId, body: Undo, svc: ServiceDep, token: TokenDep, client: Client = None
) -> dict[str, Any]:
    """Take back the seat's decisions from `to_ply` on (`undo_refused` when `to_ply` is not one of its
    undo points, when it is not the seat's turn, or in a rated game); the answer is the seat's new
    view. Every socket gets the position as an update; the undone moves are gone from the log."""
    return await undo.undo(svc, gid, body.seat, token, body.to_ply, client == "web")
