"""Swamp Walker (§9.20): +1 VC at the end of the turn for each Swamp region the Active race occupies.

Only the Active race scores it (§9.0, §6.14): the engine asks `score` of the Active power alone, so
an In-Decline race paired with this badge earns nothing from it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.hooks import Unit

if TYPE_CHECKING:
    from smallworld.engine.state import State


class SwampWalker(Unit):
    id = "swamp_walker"
    kind = "power"
    section = "§9.20"

    def score(self, st: State, seat: int) -> int:
        swamps = st.game.map.terrain_mask.get("Swamp", 0)
        return (st.occupied_mask(st.seats[seat].active) & swamps).bit_count()


UNIT = SwampWalker()
