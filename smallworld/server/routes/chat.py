"""A game's chat: post a message, read what the reader may read (`smallworld/server/chat.py`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Query

from smallworld.server.models import ChatList, ChatPosted, IntParam, PostChat
from smallworld.server.routes.base import api_router
from smallworld.server.routes.deps import AddressDep, GameDep, ServiceDep, TokenDep

router = api_router("chat")


@router.post("/api/games/{gid}/chat", response_model=ChatPosted)
async def post(
    live: GameDep, body: PostChat, svc: ServiceDep, token: TokenDep, address: AddressDep
) -> dict[str, Any]:
    """A seat posts to `seats`, anyone else to `spectators` (a name without a player token)."""
    return await svc.chat.post(live, token, address, body.text, body.channel, body.name)


@router.get("/api/games/{gid}/chat", response_model=ChatList)
async def read(
    live: GameDep,
    svc: ServiceDep,
    token: TokenDep,
    since: Annotated[IntParam | None, Query(description="the last message's `seq` already read")] = None,
) -> dict[str, Any]:
    """The messages after `since` that the reader may read: a seat the players' channel, a spectator
    the spectators', both once the game is over."""
    return await svc.chat.read(live, token, since or 0)
