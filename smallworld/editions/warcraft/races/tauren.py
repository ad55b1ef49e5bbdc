"""Tauren (§8.14, AMB-11): every Tauren region holds at least 2 Tauren tokens.

The engine reads the class attributes: a conquest places max(cost, 2) tokens (§6.6), readying troops
and redeployment keep 2 per region (§6.2, §6.12), a final die attempt needs 2 tokens in hand (§6.10),
and on decline 2 tokens per region are turned (§6.16 step 3). A conquered Tauren region still loses
only 1 token (§6.9), and In Decline the minimum no longer applies (`min_per_region` is only asked of
Active races).
"""

from __future__ import annotations

from smallworld.engine.model.hooks import Unit


class Tauren(Unit):
    id = "tauren"
    kind = "race"
    section = "§8.14"
    min_per_region = 2
    decline_keep = 2


UNIT = Tauren()
