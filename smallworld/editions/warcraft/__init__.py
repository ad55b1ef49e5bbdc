"""Small World of Warcraft (Days of Wonder, 2020) and its team variant Battle for Azeroth.

Every race, power, Artifact and Legendary Place is a unit in `races/`, `powers/` or `relics/`
(one module each, defining `UNIT`), with its values in `data/*.json` and its words in `words/`;
`edition.py` puts them together with the island boards, the Murlocs, the factions and the rule
citations of `warcraft-rules.md`.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from smallworld.engine.model.edition import Edition

ID = "warcraft"


@cache
def edition() -> Edition:
    from smallworld.editions.warcraft.edition import build

    return build()
