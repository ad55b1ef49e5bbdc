"""Blacksmith (§9.4): every conquest costs 1 token fewer (minimum 1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import Unit

if TYPE_CHECKING:
    from smallworld.engine.model.state import State


class Blacksmith(Unit):
    id = "blacksmith"
    kind = "power"
    section = "§9.4"

    def cost_reduction(self, st: State, seat: int, region: int, option: str | None) -> int:
        return 1


UNIT = Blacksmith()
