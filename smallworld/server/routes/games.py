"""Games: the lobby, creating and joining, reading (summary, view, moves, replay) and acting."""

from __future__ import annotations

from typing import Any

from smallworld.server import ending, listing
from smallworld.server.models import (
    Ack,
    Act,
    CreateGame,
    GameCreated,
    IntParam,
    Joined,
    JoinGame,
    Moves,
    OpenGames,
    Replay,
    Scores,
    Summary,
    View,
)
from smallworld.server.routes.base import api_router
from smallworld.server.routes.deps import AddressDep, Client, GameDep, GameId, ReaderDep, ServiceDep, TokenDep

router = api_router("games")


@router.get("/api/games", response_model=OpenGames)
async def open_games(
    svc: ServiceDep,
    status: listing.StatusQuery = "open",
    limit: listing.LimitQuery = None,
    before: listing.Before = None,
) -> dict[str, Any]:
    """The lobby's lists, newest first, a page at a time (`listing.py`): the open games with a free
    `open` seat, the games in progress (`status=playing`) or the finished ones (`status=over`)."""
    return await listing.games(svc, status, limit, before)


@router.post("/api/games", response_model=GameCreated)
async def create(body: CreateGame, svc: ServiceDep, token: TokenDep, address: AddressDep) -> dict[str, Any]:
    """Without a player token a player is made (its token is in the answer, once)."""
    return await svc.create(body, token, address)


@router.get("/api/games/{gid}", response_model=Summary)
async def summary(live: GameDep, svc: ServiceDep) -> dict[str, Any]:
    return svc.summary(live)


@router.post("/api/games/{gid}/join", response_model=Joined)
async def join(gid: GameId, body: JoinGame, svc: ServiceDep, token: TokenDep) -> dict[str, Any]:
    return await svc.join(gid, body, token)


@router.get("/api/games/{gid}/view", response_model=View)
async def view(live: GameDep, seat: ReaderDep, svc: ServiceDep, client: Client = None) -> dict[str, Any]:
    """The game as `seat` sees it, and its legal actions when it is to act."""
    return svc.view(live, seat, client == "web")


@router.get("/api/games/{gid}/moves", response_model=Moves)
async def moves(
    live: GameDep, seat: ReaderDep, svc: ServiceDep, since: IntParam | None = None, client: Client = None
) -> dict[str, Any]:
    """The moves from ply `since` on, as `seat` may see them."""
    out = svc.moves(live, seat, since or 0, client == "web")
    return {"game": live.id, "seat": seat, "ply": live.state.ply, "moves": out}


@router.post("/api/games/{gid}/act", response_model=Ack)
async def act(gid: GameId, body: Act, svc: ServiceDep, token: TokenDep) -> dict[str, Any]:
    return await svc.act(gid, body.seat, token, body.ply, body.action)


@router.get("/api/games/{gid}/replay", response_model=Replay)
async def replay(live: GameDep, svc: ServiceDep) -> dict[str, Any]:
    """A finished game in full: the settings with the seed, every action, the state at every ply, each
    move's decision in words, and its chat (both channels, each message with the ply it was posted at)."""
    return {**svc.replay(live), "decisions": ending.decisions(live), "chat": await svc.chat.replay(live)}


@router.get("/api/games/{gid}/scores", response_model=Scores)
async def scores(live: GameDep) -> dict[str, Any]:
    """A finished game's coins at the end of every round and where each seat's came from."""
    return ending.scores(live)
