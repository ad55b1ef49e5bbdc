"""Tournaments: create, list, join, start, and the standings with each round's games
(`tournaments.py`; docs/players.md)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Path, Request
from pydantic import WithJsonSchema

from smallworld.server.models import Answer, Body
from smallworld.server.routes.base import api_router
from smallworld.server.routes.deps import TokenDep
from smallworld.server.tournaments import Tournaments

router = api_router("tournaments")

Tid = Annotated[str, Path(description="a tournament's id", json_schema_extra={"pattern": "^[0-9a-f]{16}$"})]


class NewTournament(Body):
    """`table`: players a table (2 to 5); `bots`: bots may fill a short table."""

    name: Annotated[Any, WithJsonSchema({"type": "string", "minLength": 1, "maxLength": 60})] = None
    edition: Annotated[Any, WithJsonSchema({"type": "string"})] = None
    variant: Annotated[Any, WithJsonSchema({"type": "string", "enum": ["standard", "team"]})] = None
    pace: Annotated[Any, WithJsonSchema({"type": "string", "enum": ["turn", "live"]})] = "turn"
    rounds: Annotated[Any, WithJsonSchema({"type": "integer", "minimum": 1, "maximum": 10})] = 3
    table: Annotated[Any, WithJsonSchema({"type": "integer", "minimum": 2, "maximum": 5})] = 4
    bots: Annotated[Any, WithJsonSchema({"type": "boolean"})] = True


class Tournament(Answer):
    tournament: str
    name: str
    edition: str
    variant: str
    pace: str
    rounds: int
    table: int
    bots: bool
    status: str
    round: int
    organiser: str
    standings: list[dict[str, Any]]
    games: list[dict[str, Any]]


class TournamentList(Answer):
    tournaments: list[dict[str, Any]]


def _t(request: Request) -> Tournaments:
    tr: Tournaments = request.app.state.tournaments
    return tr


@router.post("/api/tournaments", response_model=Tournament)
async def create(body: NewTournament, request: Request, token: TokenDep) -> dict[str, Any]:
    """A new tournament, open for players to join (a logged-in account organises it)."""
    return await _t(request).create(token, body.model_dump())


@router.get("/api/tournaments", response_model=TournamentList)
async def listing(request: Request) -> dict[str, Any]:
    """The latest tournaments, newest first."""
    return await _t(request).list()


@router.get("/api/tournaments/{tid}", response_model=Tournament)
async def standings(tid: Tid, request: Request) -> dict[str, Any]:
    """The tournament, its standings and each round's games."""
    return await _t(request).get(tid)


@router.post("/api/tournaments/{tid}/join", response_model=Tournament)
async def join(tid: Tid, request: Request, token: TokenDep) -> dict[str, Any]:
    """Join an open tournament (again: nothing more)."""
    return await _t(request).join(token, tid)


@router.post("/api/tournaments/{tid}/start", response_model=Tournament)
async def start(tid: Tid, request: Request, token: TokenDep) -> dict[str, Any]:
    """The organiser starts it: the first round's tables are drawn and their games begin."""
    return await _t(request).start(token, tid)
