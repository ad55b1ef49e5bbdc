"""Ranger (§9.18): +1 VC at the end of the turn for each Forest region the Active race occupies.

Only the Active race scores it (§9.0, §6.14): the engine asks `score` of the Active power alone, so
an In-Decline race paired with this badge earns nothing from it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.hooks import Unit

if TYPE_CHECKING:
    from smallworld.engine.state import State


class Ranger(Unit):
    id = "ranger"
    kind = "power"
    section = "§9.18"

    def score(self, st: State, seat: int) -> int:
        forests = st.game.map.terrain_mask.get("Forest", 0)
        return (st.occupied_mask(st.seats[seat].active) & forests).bit_count()


UNIT = Ranger()
