"""Learning the game in the web client (docs/web.md, Learning the game).

- `rules(edition)`: the rules reference of an edition, for the rules page (`#/rules/EDITION`) and
  the rules cards: the edition's races, powers, Artifacts and Legendary Places with their numbers
  and rulebook sections, and the rounds per player count. The words (names, cards, the turn's
  steps) come from the catalogues the page already has (`payload.words`); this says which units
  there are.
- `lessons()`: the first-game tutorial (`#/tutorial`), positions shipped with the package."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from smallworld.web.payload import public_game


@cache
def rules(edition: str) -> dict[str, Any]:
    """`edition`'s units by kind, in the edition's order. An unknown edition is refused by the
    engine's settings check (`settings.edition`)."""
    game = public_game({"players": 2, "edition": edition})
    ed = game.edition
    relics = ed.relics.values()
    return {
        "edition": ed.id,
        "races": [
            {"id": e.id, "tokens": e.value, "faction": e.faction, "section": e.section}
            for e in ed.races.values()
        ],
        "powers": [{"id": e.id, "tokens": e.value, "section": e.section} for e in ed.powers.values()],
        "artifacts": [{"id": e.id, "section": e.section} for e in relics if e.group == "artifact"],
        "places": [{"id": e.id, "section": e.section} for e in relics if e.group == "place"],
        "rounds": {str(n): r for n, r in sorted(ed.rounds.items())},
        "die": list(game.options.die_faces),
    }


TUTORIAL = Path(__file__).with_name("tutorial")


@cache
def lessons() -> list[dict[str, Any]]:
    """The first-game tutorial's lessons (`smallworld/web/tutorial/*.json`, in the order of their
    file names): each a position document to start a casual game from (docs/server.md, Games from
    a position) and the keys of its hints in the client's catalogue, by step (`pick`, `start`,
    `conquer`, `redeploy`) and for the lesson's end (`done`)."""
    out: list[dict[str, Any]] = []
    for path in sorted(TUTORIAL.glob("*.json")):
        data: dict[str, Any] = json.loads(path.read_text("utf-8"))
        out.append({"lesson": data["lesson"], "hints": data["hints"], "position": data["position"]})
    return out
