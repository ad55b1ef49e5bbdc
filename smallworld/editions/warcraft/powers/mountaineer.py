"""Mountaineer (§9.16): +1 VC at the end of the turn for each Mountain region the Active race occupies."""

from __future__ import annotations

from smallworld.editions.warcraft.powers._common import RegionScore


class Mountaineer(RegionScore):
    id = "mountaineer"
    section = "§9.16"
    terrain = "Mountain"


UNIT = Mountaineer()
