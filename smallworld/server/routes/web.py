"""The web client (docs/web.md): its files, its words and each game's board."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from smallworld.server.routes.base import api_router
from smallworld.server.routes.deps import GameDep
from smallworld.web import STATIC
from smallworld.web import payload as web_payload
from smallworld.web import rules as web_rules

router = api_router("web")
_words: dict[str, dict[str, Any]] = {}  # per edition: they never change


def mount(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=STATIC), name="static")


@router.get("/", include_in_schema=False)
async def index() -> FileResponse:
    return FileResponse(STATIC / "index.html")


@router.get("/api/words")
async def words(edition: str = "warcraft") -> dict[str, Any]:
    """The catalogues of one edition (its races, powers, places): a game's page asks for its own.
    An unknown edition is refused by the engine's settings check, naming the field."""
    if edition not in _words:
        _words[edition] = web_payload.words(web_payload.public_game({"players": 2, "edition": edition}))
    return _words[edition]


@router.get("/api/rules")
async def rules(edition: str = "warcraft") -> dict[str, Any]:
    """The edition's races, powers, Artifacts and Legendary Places (ids, numbers, rulebook sections)
    for the rules page and cards (`smallworld/web/rules.py`; their words are `/api/words`)."""
    return web_rules.rules(edition)


@router.get("/api/tutorial")
async def tutorial() -> dict[str, Any]:
    """The first-game tutorial's lessons: each a position document and its hints' keys."""
    return {"lessons": web_rules.lessons()}


@router.get("/api/games/{gid}/board")
async def board(live: GameDep) -> dict[str, Any]:
    """The game's islands laid out, every region with its polygon, terrain and neighbours."""
    return web_payload.board(live.game)
