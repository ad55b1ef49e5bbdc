"""Players: made by the server (a display name, no password), with a token that ties their seats
together; "my games"; logging out."""

from __future__ import annotations

from typing import Any

from smallworld.server import listing
from smallworld.server.models import CreatePlayer, LoggedOut, MyGames, PlayerCreated
from smallworld.server.routes.base import api_router
from smallworld.server.routes.deps import ServiceDep, TokenDep

router = api_router("players")


@router.post("/api/players", response_model=PlayerCreated)
async def new_player(body: CreatePlayer, svc: ServiceDep) -> dict[str, Any]:
    player, token = await svc.new_player(body.name)
    return {"player": player, "player_token": token}


@router.get("/api/me/games", response_model=MyGames)
async def my_games(
    svc: ServiceDep, token: TokenDep, limit: listing.LimitQuery = None, before: listing.Before = None
) -> dict[str, Any]:
    """The player's games, newest first, a page at a time (`listing.py`)."""
    return await listing.my_games(svc, token, limit, before)


@router.post("/api/players/logout", response_model=LoggedOut)
async def logout(svc: ServiceDep, token: TokenDep) -> dict[str, Any]:
    """The player token stops working (again: the same answer)."""
    return await svc.logout(token)
