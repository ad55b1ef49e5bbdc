"""Seafaring (§8, CL-AMB-04, CL-AMB-32): while Active, the race may conquer every Sea and Lake like
an ordinary region that starts empty (adjacent to it, or touching the edge for a first conquest);
it keeps them In Decline and scores them while its tokens are there. Only Seafaring races ever
stand in water: the engine lets no other race target it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import Unit

if TYPE_CHECKING:
    from smallworld.engine.model.state import State


class Seafaring(Unit):
    id = "seafaring"
    kind = "power"
    section = "§8"
    holds_water = True

    def extra_targets(self, st: State, seat: int, first: bool) -> int:
        game = st.game
        water = game.map.water
        if first:
            return water & game.first_mask
        race = st.seats[seat].active
        return water & game.map.adjacent_to(st.occupied_mask(race))


UNIT = Seafaring()
