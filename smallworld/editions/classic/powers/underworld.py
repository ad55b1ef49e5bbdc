"""Underworld (§8, CL-AMB-18): Cavern regions cost 1 token fewer (minimum 1), and for this race's
conquests every Cavern region is adjacent to every other."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import Unit

if TYPE_CHECKING:
    from smallworld.engine.model.state import State


class Underworld(Unit):
    id = "underworld"
    kind = "power"
    section = "§8"

    def cost_reduction(self, st: State, seat: int, region: int, option: str | None) -> int:
        return 1 if (st.game.map.feature("Cavern") >> region) & 1 else 0

    def extra_targets(self, st: State, seat: int, first: bool) -> int:
        caverns = st.game.map.feature("Cavern")
        if first or not st.occupied_mask(st.seats[seat].active) & caverns:
            return 0
        return caverns & ~st.game.map.water


UNIT = Underworld()
