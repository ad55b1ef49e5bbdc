"""Swamp Walker (§9.20): +1 VC at the end of the turn for each Swamp region the Active race occupies."""

from __future__ import annotations

from smallworld.editions.warcraft.powers._common import RegionScore


class SwampWalker(RegionScore):
    id = "swamp_walker"
    section = "§9.20"
    terrain = "Swamp"


UNIT = SwampWalker()
