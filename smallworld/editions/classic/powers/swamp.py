"""Swamp (§8): +1 VC per Swamp region of the Active race at the end of the turn."""

from __future__ import annotations

from smallworld.editions.classic._common import RegionScore


class Swamp(RegionScore):
    id = "swamp"
    kind = "power"
    section = "§8"
    terrain = "Swamp"


UNIT = Swamp()
