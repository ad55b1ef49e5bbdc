"""The bot levels a game can seat (`GET /api/bots`): easy to expert as the ladder rated them
(`smallworld.bots.levels`; docs/ladder.md), each with its rating shown as players' ratings are."""

from __future__ import annotations

from typing import Any

from smallworld.bots.levels import shipped
from smallworld.server import ratings
from smallworld.server.bots import LEVELS
from smallworld.server.models import Answer
from smallworld.server.routes.base import api_router

router = api_router("bots")


class BotLevels(Answer):
    source: str
    levels: list[dict[str, Any]]


@router.get("/api/bots", response_model=BotLevels)
async def bot_levels() -> dict[str, Any]:
    """Each level a seat may be given, easiest first: its bot, its difficulty, and per table size the
    ladder's rating (shown as a player's: docs/players.md) with its uncertainty and games. A bot this
    server offers that the ladder did not rate comes last, without a rating."""
    data = shipped()
    out = []
    for lv in data["levels"]:
        if lv["level"] not in LEVELS:
            continue
        rated = {p: {**ratings.shown(r["mu"], r["sigma"]), "games": r["games"]}
                 for p, r in lv["ratings"].items()}  # fmt: skip
        out.append({"level": lv["level"], "difficulty": lv["difficulty"], "ratings": rated})
    named = {lv["level"] for lv in out}
    out += [{"level": b, "difficulty": None, "ratings": {}} for b in LEVELS if b not in named]
    return {"source": data["source"], "levels": out}
