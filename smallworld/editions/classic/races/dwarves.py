"""Dwarves (§7): +1 VC per Mine region at the end of the turn, also In Decline."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.editions.classic._common import RegionScore

if TYPE_CHECKING:
    from smallworld.engine.model.state import State


class Dwarves(RegionScore):
    id = "dwarves"
    kind = "race"
    section = "§7"
    feature = "Mine"

    def score_declined(self, st: State, seat: int) -> int:
        return self.scored(st, self.id)


UNIT = Dwarves()
