"""Farmer (§9.9): +1 VC at the end of the turn for each Fields region the Active race occupies.

Only the Active race scores it (§9.0, §6.14): the engine asks `score` of the Active power alone, so
an In-Decline race paired with this badge earns nothing from it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.hooks import Unit

if TYPE_CHECKING:
    from smallworld.engine.state import State


class Farmer(Unit):
    id = "farmer"
    kind = "power"
    section = "§9.9"

    def score(self, st: State, seat: int) -> int:
        fields = st.game.map.terrain_mask.get("Fields", 0)
        return (st.occupied_mask(st.seats[seat].active) & fields).bit_count()


UNIT = Farmer()
