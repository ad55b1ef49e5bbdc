"""Sailing (§9.19): no +1 travel cost for a non-adjacent Entry region, on any board.

The resolution in §9.19 and the first-conquest exceptions of §6.5 (AMB-30) extend this to the
first conquest, so an empty Entry region costs 2 (§14 vector 3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import Unit

if TYPE_CHECKING:
    from smallworld.engine.model.state import State


class Sailing(Unit):
    id = "sailing"
    kind = "power"
    section = "§9.19"

    def waives_travel(self, st: State, seat: int, region: int, first: bool) -> bool:
        return True


UNIT = Sailing()
