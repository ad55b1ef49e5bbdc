"""Forest (§8): +1 VC per Forest region of the Active race at the end of the turn."""

from __future__ import annotations

from smallworld.editions.classic._common import RegionScore


class Forest(RegionScore):
    id = "forest"
    kind = "power"
    section = "§8"
    terrain = "Forest"


UNIT = Forest()
