"""Dwarves (§8.3): a Mountain region costs them 2 tokens fewer (minimum 1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import Unit

if TYPE_CHECKING:
    from smallworld.engine.model.state import State


class Dwarves(Unit):
    id = "dwarves"
    kind = "race"
    section = "§8.3"

    def cost_reduction(self, st: State, seat: int, region: int, option: str | None) -> int:
        return 2 if st.game.map.regions[region].terrain == "Mountain" else 0


UNIT = Dwarves()
