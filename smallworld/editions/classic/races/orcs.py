"""Orcs (§7, §5.3): +1 VC per non-empty region conquered this turn, paid at the end of the turn
(not at once as in Warcraft, §5.6 AMB-09); conversions and the player's own In-Decline tokens count
(CL-AMB-08, CL-AMB-39)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.editions.classic._common import NonEmptyCounter

if TYPE_CHECKING:
    from smallworld.engine.model.state import State


class Orcs(NonEmptyCounter):
    id = "orcs"
    kind = "race"
    section = "§7"

    def score(self, st: State, seat: int) -> int:
        return self.nonempty(st)


UNIT = Orcs()
