"""The HTTP and WebSocket endpoints, one router per resource (docs/server.md): the players, the
games, their seats, the live socket, the web client's pages, and the process's health. Each route
reads its body through the server's own parser (`base.JSONRoute`) into a request model
(`models.py`), gets the service, the game and the token from dependencies (`deps.py`), and answers
an answer model; every refusal is in the server's error format (`refusals.py`)."""

from __future__ import annotations

from fastapi import FastAPI

from smallworld.server.routes import (
    accounts,
    chat,
    games,
    health,
    levels,
    live,
    players,
    quick,
    ratings,
    seats,
    tournaments,
    undo,
    web,
)


def install(app: FastAPI) -> None:
    for module in (
        health, levels, players, accounts, ratings, quick, tournaments, games, seats, undo, chat, live, web
    ):
        app.include_router(module.router)
    web.mount(app)
