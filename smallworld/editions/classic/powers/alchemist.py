"""Alchemist (§8, CL-AMB-17): +2 VC at the end of each turn while the race is Active (the pick turn
included; the engine asks `score` of the Active power only)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import Unit

if TYPE_CHECKING:
    from smallworld.engine.model.state import State


class Alchemist(Unit):
    id = "alchemist"
    kind = "power"
    section = "§8"

    def score(self, st: State, seat: int) -> int:
        return 2


UNIT = Alchemist()
