"""Classic Small World with its core rules only: no race or power has an effect.

A banner is a number of tokens and a badge adds tokens; everything else is the classic edition's
(its four maps, the Lost Tribes, Mountains, border regions for the first conquest, the tray of each
race, the banner and badge values, the citations into `classic-rules.md`). It is the ruleset of
engines that implement only the core of the game (smawg, docs/engine.md "A second engine"), so that
our engine can replay their games and be compared with them step by step.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from smallworld.engine.model.edition import Edition

ID = "classic_core"


@cache
def edition() -> Edition:
    from smallworld.editions.classic_core.edition import build

    return build()
