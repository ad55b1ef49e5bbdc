"""Archaeologist (§9.1, §6.14, §10.1): at the end of the turn, +1 VC for each face-up Artifact and
each face-up Legendary Place in a region the Active race occupies (control = occupying the marker's
region, §4). A face-down marker counts for nothing. The Well of Eternity lies in a Sea or Lake, so
only Naga occupying that region can count it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import Unit

if TYPE_CHECKING:
    from smallworld.engine.model.state import State


class Archaeologist(Unit):
    id = "archaeologist"
    kind = "power"
    section = "§9.1"

    def score(self, st: State, seat: int) -> int:
        own = st.occupied_mask(st.seats[seat].active)
        return sum(up for r, here in st.markers.items() if (own >> r) & 1 for _rid, up in here)


UNIT = Archaeologist()
