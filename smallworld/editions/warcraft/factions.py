"""The factions of Small World of Warcraft (§6.15): shared by the units that read them."""

from __future__ import annotations

ALLIANCE, HORDE, NEUTRAL = "Alliance", "Horde", "Neutral"
FACTIONS = (ALLIANCE, HORDE, NEUTRAL)
OPPOSED = {ALLIANCE: HORDE, HORDE: ALLIANCE}
