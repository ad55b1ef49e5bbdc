"""Night Elves (§8.11): Forest regions cost 1 fewer token (minimum 1); each conquered Forest gets a
Wisp Wall while one of the 9 is left. A Wisp Wall adds +1 defence (§6.6), stays when the Night Elves
decline, and goes when its region is conquered or emptied (§6.8 step 2, §6.2, §6.16 step 1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import ConquestInfo, Piece, Unit
from smallworld.engine.model.protocol import EventSpec, region_field, seat_field

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

WISP_WALL = "wisp_wall"


class NightElves(Unit):
    id = "night_elves"
    kind = "race"
    section = "§8.11"
    pieces = (Piece(WISP_WALL, supply=9, defense=1, removed_on_conquest=True, removed_when_emptied=True),)
    event_specs = (
        EventSpec(WISP_WALL, "a Wisp Wall went into a conquered Forest", (seat_field(), region_field())),
    )

    def cost_reduction(self, st: State, seat: int, region: int, option: str | None) -> int:
        return 1 if st.game.map.regions[region].terrain == "Forest" else 0

    def on_conquest(self, st: State, seat: int, info: ConquestInfo) -> None:
        # The conquest already removed any wall that stood there, so this is the region's only one;
        # `add_piece` places nothing once all 9 are on the boards.
        if st.game.map.regions[info.region].terrain == "Forest" and st.add_piece(info.region, WISP_WALL):
            st.event(WISP_WALL, seat=seat, region=info.region)


UNIT = NightElves()
