"""Quick games: ask for a table, see whether it is made, cancel (`pairing.py`; docs/players.md)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Path, Request
from pydantic import WithJsonSchema

from smallworld.server.models import Answer, Body
from smallworld.server.pairing import Pairing
from smallworld.server.routes.base import api_router
from smallworld.server.routes.deps import TokenDep

router = api_router("quick games")

Ticket = Annotated[str, Path(description="a ticket's id", json_schema_extra={"pattern": "^[0-9a-f]{32}$"})]


class QuickGame(Body):
    """The table wanted; `bots_after_s`: seconds to wait before bots fill it (null: never)."""

    edition: Annotated[Any, WithJsonSchema({"type": "string"})] = None
    variant: Annotated[Any, WithJsonSchema({"type": "string", "enum": ["standard", "team"]})] = None
    players: Annotated[Any, WithJsonSchema({"type": "integer", "minimum": 2, "maximum": 5})] = 2
    pace: Annotated[Any, WithJsonSchema({"type": "string", "enum": ["turn", "live"]})] = "turn"
    bots_after_s: Annotated[Any, WithJsonSchema({"type": ["number", "null"], "minimum": 0})] = None


class QuickTicket(Answer):
    ticket: str
    status: str
    pool: str
    players: int
    rating: int
    waited_s: float
    bots_after_s: float | None
    game: str | None = None
    seat: int | None = None


def _pairing(request: Request) -> Pairing:
    p: Pairing | None = getattr(request.app.state, "pairing", None)
    if p is None:
        p = request.app.state.pairing = Pairing(request.app.state.service)
    return p


@router.post("/api/quick", response_model=QuickTicket)
async def enter(body: QuickGame, request: Request, token: TokenDep) -> dict[str, Any]:
    """Wait for a table (a logged-in account: quick games are rated); a ticket of yours still
    waiting is cancelled."""
    return await _pairing(request).enter(token, body.model_dump())


@router.get("/api/quick/{ticket}", response_model=QuickTicket)
async def status(ticket: Ticket, request: Request, token: TokenDep) -> dict[str, Any]:
    """Waiting, seated (with the game and the seat) or cancelled."""
    return await _pairing(request).status(token, ticket)


@router.post("/api/quick/{ticket}/cancel", response_model=QuickTicket)
async def cancel(ticket: Ticket, request: Request, token: TokenDep) -> dict[str, Any]:
    """Stop waiting (a ticket already seated stays seated)."""
    return await _pairing(request).cancel(token, ticket)
