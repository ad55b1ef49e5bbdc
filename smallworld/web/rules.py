"""The rules reference of an edition, for the web client's rules page (`#/rules/EDITION`) and its
rules cards: the edition's races, powers, Artifacts and Legendary Places with their numbers and
rulebook sections, and the rounds per player count. The words (names, cards, the turn's steps) come
from the catalogues the page already has (`payload.words`); this only says which units there are."""

from __future__ import annotations

from functools import cache
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
