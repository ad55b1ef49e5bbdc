"""Wizards (§7): +1 VC per Magic region at the end of the turn."""

from __future__ import annotations

from smallworld.editions.classic._common import RegionScore


class Wizards(RegionScore):
    id = "wizards"
    kind = "race"
    section = "§7"
    feature = "Magic"


UNIT = Wizards()
