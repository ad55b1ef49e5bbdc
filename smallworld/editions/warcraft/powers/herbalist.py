"""Herbalist (§9.12): +1 VC at the end of the turn for each Hill region the Active race occupies."""

from __future__ import annotations

from smallworld.editions.warcraft.powers._common import RegionScore


class Herbalist(RegionScore):
    id = "herbalist"
    section = "§9.12"
    terrain = "Hill"


UNIT = Herbalist()
