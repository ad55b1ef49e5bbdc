"""Herbalist (§9.12): +1 VC at the end of the turn for each Hill region the race occupies."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.hooks import Unit

if TYPE_CHECKING:
    from smallworld.engine.state import State


class Herbalist(Unit):
    id = "herbalist"
    kind = "power"
    section = "§9.12"

    def score(self, st: State, seat: int) -> int:
        hills = st.game.map.terrain_mask.get("Hill", 0)
        return (st.occupied_mask(st.seats[seat].active) & hills).bit_count()


UNIT = Herbalist()
