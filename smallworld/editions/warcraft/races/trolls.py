"""Trolls (§8.15): any non-empty region costs them 1 token fewer (minimum 1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import Unit

if TYPE_CHECKING:
    from smallworld.engine.model.state import State


class Trolls(Unit):
    id = "trolls"
    kind = "race"
    section = "§8.15"

    def cost_reduction(self, st: State, seat: int, region: int, option: str | None) -> int:
        return 1 if st.is_nonempty(region) else 0


UNIT = Trolls()
