"""Ranger (§9.18): +1 VC at the end of the turn for each Forest region the Active race occupies."""

from __future__ import annotations

from smallworld.editions.warcraft.powers._common import RegionScore


class Ranger(RegionScore):
    id = "ranger"
    section = "§9.18"
    terrain = "Forest"


UNIT = Ranger()
