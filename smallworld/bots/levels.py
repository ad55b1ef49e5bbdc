"""The bot levels a player picks from (the lobby's easy, medium, hard, expert), chosen from the
ladder (docs/ladder.md): `smallworld ladder ... --levels FILE` writes them from its ratings, easiest
first, and the package ships the file the project's own ladder wrote (`levels.json` beside this
module). Each level keeps the ladder's figures and where they came from; a server reads them to name
each level with its rating."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any

DIFFICULTIES = ("easy", "medium", "hard", "expert")


def from_ladder(summary: dict[str, Any], offered: Sequence[str], source: str) -> dict[str, Any]:
    """The levels of `offered` bots rated in a ladder's `summary`, easiest first by their rating at
    the smallest table the ladder played (2 players when it did), each named by its difficulty."""
    parts = summary["by_players"]
    if not parts:
        return {"source": source, "levels": []}
    first = parts[min(parts, key=int)]["ratings"]
    bots = sorted((b for b in offered if b in first), key=lambda b: first[b]["conservative"])
    levels = []
    for i, bot in enumerate(bots[: len(DIFFICULTIES)]):
        ratings = {p: {k: round(part["ratings"][bot][k], 3) for k in ("mu", "sigma")}
                   | {"games": part["ratings"][bot]["games"], "seeds": part["seeds"]}
                   for p, part in parts.items() if bot in part["ratings"]}  # fmt: skip
        levels.append({"level": bot, "difficulty": DIFFICULTIES[i], "ratings": ratings})
    return {"source": source, "levels": levels}


@cache
def shipped() -> dict[str, Any]:
    """The levels of the project's own ladder (`levels.json`)."""
    text = resources.files("smallworld.bots").joinpath("levels.json").read_text(encoding="utf-8")
    return dict(json.loads(text))
