"""Giants (§7, CL-AMB-22): a region adjacent to a Mountain region the Giants hold at the time of the
conquest costs 1 token fewer (minimum 1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import Unit

if TYPE_CHECKING:
    from smallworld.engine.model.state import State


class Giants(Unit):
    id = "giants"
    kind = "race"
    section = "§7"

    def cost_reduction(self, st: State, seat: int, region: int, option: str | None) -> int:
        m = st.game.map
        mountains = st.occupied_mask(self.id) & m.terrain_mask.get("Mountain", 0)
        return 1 if m.adj[region] & mountains else 0


UNIT = Giants()
