"""Humans (§7): +1 VC per Farmland region at the end of the turn."""

from __future__ import annotations

from smallworld.editions.classic._common import RegionScore


class Humans(RegionScore):
    id = "humans"
    kind = "race"
    section = "§7"
    terrain = "Farmland"


UNIT = Humans()
