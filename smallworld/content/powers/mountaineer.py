"""Mountaineer (§9.16): +1 VC at the end of the turn for each Mountain region the Active race occupies.

Only the Active race scores it (§9.0, §6.14): the engine asks `score` of the Active power alone, so
an In-Decline race paired with this badge earns nothing from it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.hooks import Unit

if TYPE_CHECKING:
    from smallworld.engine.state import State


class Mountaineer(Unit):
    id = "mountaineer"
    kind = "power"
    section = "§9.16"

    def score(self, st: State, seat: int) -> int:
        mountains = st.game.map.mountain
        return (st.occupied_mask(st.seats[seat].active) & mountains).bit_count()


UNIT = Mountaineer()
