"""Karazhan (§10.3, §6.14, AMB-06): at the end of the turn, +1 VC for each *other* region the Active
race holding Karazhan occupies whose terrain is the same as Karazhan's region. Only `terrain` counts:
Magic and Cavern are features, not terrains (AMB-06).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import Unit

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

ID = "karazhan"


class Karazhan(Unit):
    id = ID
    kind = "relic"
    section = "§10.3"

    def score(self, st: State, seat: int) -> int:
        home = st.marker_region(ID)
        if home is None:
            return 0
        m = st.game.map
        same = m.terrain_mask.get(m.regions[home].terrain, 0) & ~(1 << home)
        return (st.occupied_mask(st.seats[seat].active) & same).bit_count()


UNIT = Karazhan()
