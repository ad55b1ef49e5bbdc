"""Mining (§9.15): +1 VC at the end of the turn for each Cavern region the Active race occupies."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.editions.warcraft.powers._common import RegionScore

if TYPE_CHECKING:
    from smallworld.engine.model.board_map import Map


class Mining(RegionScore):
    id = "mining"
    section = "§9.15"

    def scored(self, m: Map) -> int:
        return m.feature("Cavern")  # a feature, not a terrain


UNIT = Mining()
