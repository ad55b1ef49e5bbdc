"""Farmer (§9.9): +1 VC at the end of the turn for each Fields region the Active race occupies."""

from __future__ import annotations

from smallworld.editions.warcraft.powers._common import RegionScore


class Farmer(RegionScore):
    id = "farmer"
    section = "§9.9"
    terrain = "Fields"


UNIT = Farmer()
