"""Hill (§8): +1 VC per Hill region of the Active race at the end of the turn."""

from __future__ import annotations

from smallworld.editions.classic._common import RegionScore


class Hill(RegionScore):
    id = "hill"
    kind = "power"
    section = "§8"
    terrain = "Hill"


UNIT = Hill()
