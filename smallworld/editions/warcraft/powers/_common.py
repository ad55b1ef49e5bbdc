"""Shared by the powers: the scoring powers that pay +1 VC per region of one kind (§9.0, §6.14).

The registry skips this module (its name starts with "_").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from smallworld.engine.model.hooks import Unit

if TYPE_CHECKING:
    from smallworld.engine.model.board_map import Map
    from smallworld.engine.model.state import State


class RegionScore(Unit):
    """+1 VC at the end of the turn for each region of `terrain` the Active race occupies.

    Only the Active race scores it (§9.0, §6.14): the engine asks `score` of the Active power alone,
    so an In-Decline race paired with this badge earns nothing from it."""

    kind = "power"
    terrain: ClassVar[str] = ""

    def scored(self, m: Map) -> int:
        """The mask of the regions that score."""
        return m.terrain_mask.get(self.terrain, 0)

    def score(self, st: State, seat: int) -> int:
        return (st.occupied_mask(st.seats[seat].active) & self.scored(st.game.map)).bit_count()
